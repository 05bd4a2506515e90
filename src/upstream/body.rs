//! Bounded reading: every upstream body is read under a byte cap, chunk by
//! chunk, before anything parses it; large arrays are walked element by
//! element so an over-cap list still yields the records that fit.

/// The cap on every upstream body (catalogue: "read under a byte cap (8 MiB)").
pub const MAX_BODY_BYTES: usize = 8 * 1024 * 1024;

/// A value and whether the upstream data was cut to produce it.
#[derive(Debug, Clone, PartialEq)]
pub struct Bounded<T> {
    pub value: T,
    /// True when the body exceeded the cap and only its head was used.
    pub cut: bool,
}

/// Reads `resp`'s body up to `cap` bytes. Stops reading at the cap (the
/// connection is then dropped, never drained) and reports the cut.
pub async fn read_capped(
    mut resp: reqwest::Response,
    cap: usize,
) -> Result<(Vec<u8>, bool), reqwest::Error> {
    let hint = resp.content_length().unwrap_or(0).min(cap as u64) as usize;
    let mut buf = Vec::with_capacity(hint);
    while let Some(chunk) = resp.chunk().await? {
        let room = cap - buf.len();
        if chunk.len() > room {
            buf.extend_from_slice(&chunk[..room]);
            return Ok((buf, true));
        }
        buf.extend_from_slice(&chunk);
    }
    Ok((buf, false))
}

/// Why a buffer is not a JSON array we can walk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScanError {
    NotAnArray,
    /// Malformed JSON at this byte offset.
    Malformed(usize),
}

/// Walks the top-level elements of a JSON array held in `buf`, which may be
/// cut anywhere (e.g. at the read cap). Yields each *complete* element's bytes;
/// after the iterator ends, [`ArrayScan::incomplete`] says whether the array
/// ended before its closing `]`.
///
/// It tracks only strings, escapes and nesting depth; each element is then
/// parsed by serde on its own, so memory stays proportional to one element.
pub struct ArrayScan<'a> {
    buf: &'a [u8],
    pos: usize,
    state: ScanState,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ScanState {
    Start,
    /// After `[` or `,`: an element (or `]` right after `[`) comes next.
    Element {
        first: bool,
    },
    Done,
    Incomplete,
    Failed,
}

impl<'a> ArrayScan<'a> {
    pub fn new(buf: &'a [u8]) -> ArrayScan<'a> {
        ArrayScan {
            buf,
            pos: 0,
            state: ScanState::Start,
        }
    }

    /// True if the buffer ended before the array closed (the body was cut).
    pub fn incomplete(&self) -> bool {
        self.state == ScanState::Incomplete
    }

    fn skip_ws(&mut self) {
        // A UTF-8 BOM is tolerated only at the very start.
        if self.pos == 0 && self.buf.starts_with(&[0xEF, 0xBB, 0xBF]) {
            self.pos = 3;
        }
        while self.pos < self.buf.len()
            && matches!(self.buf[self.pos], b' ' | b'\n' | b'\r' | b'\t')
        {
            self.pos += 1;
        }
    }

    /// End (exclusive) of the value starting at `start`, or `None` if the buffer
    /// ends first.
    fn value_end(&self, start: usize) -> Result<Option<usize>, ScanError> {
        let b = self.buf;
        let mut i = start;
        match b[i] {
            b'{' | b'[' => {
                let mut depth = 0usize;
                let mut in_str = false;
                let mut escaped = false;
                while i < b.len() {
                    let c = b[i];
                    if in_str {
                        if escaped {
                            escaped = false;
                        } else if c == b'\\' {
                            escaped = true;
                        } else if c == b'"' {
                            in_str = false;
                        }
                    } else {
                        match c {
                            b'"' => in_str = true,
                            b'{' | b'[' => depth += 1,
                            b'}' | b']' => {
                                depth -= 1;
                                if depth == 0 {
                                    return Ok(Some(i + 1));
                                }
                            }
                            _ => {}
                        }
                    }
                    i += 1;
                }
                Ok(None)
            }
            b'"' => {
                i += 1;
                let mut escaped = false;
                while i < b.len() {
                    let c = b[i];
                    if escaped {
                        escaped = false;
                    } else if c == b'\\' {
                        escaped = true;
                    } else if c == b'"' {
                        return Ok(Some(i + 1));
                    }
                    i += 1;
                }
                Ok(None)
            }
            b'-' | b'0'..=b'9' | b't' | b'f' | b'n' => {
                while i < b.len() && !matches!(b[i], b',' | b']' | b' ' | b'\n' | b'\r' | b'\t') {
                    i += 1;
                }
                // A scalar touching the end of a cut buffer may itself be cut.
                Ok(if i < b.len() { Some(i) } else { None })
            }
            _ => Err(ScanError::Malformed(start)),
        }
    }
}

impl<'a> Iterator for ArrayScan<'a> {
    type Item = Result<&'a [u8], ScanError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            match self.state {
                ScanState::Done | ScanState::Incomplete | ScanState::Failed => return None,
                ScanState::Start => {
                    self.skip_ws();
                    if self.pos >= self.buf.len() || self.buf[self.pos] != b'[' {
                        self.state = ScanState::Failed;
                        return Some(Err(ScanError::NotAnArray));
                    }
                    self.pos += 1;
                    self.state = ScanState::Element { first: true };
                }
                ScanState::Element { first } => {
                    self.skip_ws();
                    if self.pos >= self.buf.len() {
                        self.state = ScanState::Incomplete;
                        return None;
                    }
                    if first && self.buf[self.pos] == b']' {
                        self.pos += 1;
                        self.state = ScanState::Done;
                        return None;
                    }
                    let start = self.pos;
                    let end = match self.value_end(start) {
                        Ok(Some(end)) => end,
                        Ok(None) => {
                            self.state = ScanState::Incomplete;
                            return None;
                        }
                        Err(e) => {
                            self.state = ScanState::Failed;
                            return Some(Err(e));
                        }
                    };
                    self.pos = end;
                    self.skip_ws();
                    if self.pos >= self.buf.len() {
                        // The element is whole; the array is not.
                        self.state = ScanState::Incomplete;
                    } else if self.buf[self.pos] == b',' {
                        self.pos += 1;
                        self.state = ScanState::Element { first: false };
                    } else if self.buf[self.pos] == b']' {
                        self.pos += 1;
                        self.state = ScanState::Done;
                    } else {
                        self.state = ScanState::Failed;
                        return Some(Err(ScanError::Malformed(self.pos)));
                    }
                    return Some(Ok(&self.buf[start..end]));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scan(buf: &str) -> (Vec<String>, bool) {
        let mut s = ArrayScan::new(buf.as_bytes());
        let items: Vec<String> = s
            .by_ref()
            .map(|r| String::from_utf8(r.unwrap().to_vec()).unwrap())
            .collect();
        (items, s.incomplete())
    }

    #[test]
    fn whole_array() {
        let (items, inc) = scan(r#" [ {"a":"x]}\"{"}, [1,[2]] , "s,]" ,-1.5e3, true,null ] "#);
        assert_eq!(
            items,
            vec![
                r#"{"a":"x]}\"{"}"#,
                "[1,[2]]",
                r#""s,]""#,
                "-1.5e3",
                "true",
                "null"
            ]
        );
        assert!(!inc);
        assert_eq!(scan("[]"), (vec![], false));
    }

    #[test]
    fn cut_anywhere_yields_only_complete_elements() {
        let full = r#"[{"t":"a\\\"b"},{"t":"c"},12,{"t":"d"}]"#;
        for cut in 1..full.len() {
            let (items, inc) = scan(&full[..cut]);
            assert!(inc, "cut at {cut}");
            for it in &items {
                serde_json::from_str::<serde_json::Value>(it).unwrap();
            }
            assert!(items.len() <= 4);
        }
        let (items, inc) = scan(&full[..full.len() - 1]);
        assert_eq!(items.len(), 4);
        assert!(inc);
    }

    #[test]
    fn rejects_non_arrays_and_garbage() {
        let mut s = ArrayScan::new(br#"{"collection":[]}"#);
        assert_eq!(s.next(), Some(Err(ScanError::NotAnArray)));
        let mut s = ArrayScan::new(b"[1 2]");
        assert_eq!(s.next(), Some(Err(ScanError::Malformed(3))));
    }
}
