//! The one sanitizer for text written by people (issue titles, subjects,
//! descriptions, comments, deny reasons, aliases, user names) and by outside
//! catalogues (titles, overviews): it removes what a person reading the text
//! in Ombi cannot see but a model reads all the same (docs/security.md):
//!
//! - Unicode format characters: zero-width U+200B–U+200D, U+2060, U+FEFF;
//!   bidi controls U+200E, U+200F, U+202A–U+202E, U+2066–U+2069; tag
//!   characters U+E0000–U+E007F (they can spell ASCII invisibly);
//! - C0 and C1 control characters (U+0000–U+001F, U+007F–U+009F) other than
//!   newline and tab;
//! - HTML comments `<!-- … -->` (an unterminated `<!--` hides everything
//!   after it in a browser, so it goes to the end), and `<script>` /
//!   `<style>` elements with their content, in any letter case.
//!
//! Everything else is kept, in order; what was removed is never echoed, only
//! counted. Applied once per result, to every string of it (`tools::call`
//! for tool calls, [`scrub_value`] for any other surface): ids, dates, URLs and
//! enum labels are printable ASCII without `<!--`, `<script` or `<style`, so
//! the sanitizer returns them unchanged (see the module's tests).
//!
//! A new surface that returns Ombi-derived text (resource bodies, prompts,
//! completions) calls [`scrub_value`] on what it returns, or takes its data
//! from a tool call, which `tools::call` has already scrubbed.

use std::borrow::Cow;

use serde_json::Value;

/// Whether `c` is one of the removed code points.
pub fn is_hidden(c: char) -> bool {
    matches!(c,
        '\u{0}'..='\u{8}'
        | '\u{B}'..='\u{1F}'
        | '\u{7F}'..='\u{9F}'
        | '\u{200B}'..='\u{200F}'
        | '\u{202A}'..='\u{202E}'
        | '\u{2060}'
        | '\u{2066}'..='\u{2069}'
        | '\u{FEFF}'
        | '\u{E0000}'..='\u{E007F}')
}

/// Bytes that may start something to remove: ASCII controls other than tab
/// and newline, `<`, and the UTF-8 lead bytes of every removed non-ASCII
/// range (C2: C1 controls; E2: U+2000–U+2FFF; EF: U+F000–U+FFFF; F3:
/// U+C0000–U+FFFFF). A string without any of them is returned as is, after
/// one pass over its bytes.
const LOOK: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 0x20 {
        t[b] = b != b'\t' as usize && b != b'\n' as usize;
        b += 1;
    }
    t[0x7F] = true;
    t[b'<' as usize] = true;
    t[0xC2] = true;
    t[0xE2] = true;
    t[0xEF] = true;
    t[0xF3] = true;
    t
};

/// `s` without the hidden characters and elements, and how many characters
/// were removed. Borrows `s` when nothing is removed (the usual case).
pub fn clean(s: &str) -> (Cow<'_, str>, usize) {
    let (hidden, markup) = survey(s);
    if hidden.is_none() && !markup {
        return (Cow::Borrowed(s), 0);
    }
    let mut removed = 0;
    let mut text = match hidden {
        Some(at) => drop_hidden_chars(s, at, &mut removed),
        None => Cow::Borrowed(s),
    };
    // Removing one construct can join the pieces of another (`<!<!---->--`),
    // so repeat until nothing is left: each round only shortens the text.
    while let Some(shorter) = drop_elements(&text, &mut removed) {
        text = Cow::Owned(shorter);
    }
    (text, removed)
}

/// Where the first removed code point of `s` is, and whether a `<` comes
/// before it (or anywhere, when there is none). Only the bytes [`LOOK`]
/// flags are decoded: a flagged lead byte starts a character (continuation
/// bytes are never flagged), so the typographic punctuation and accents of
/// people's text (`—`, `“`, `é`) cost one decode each, not one per byte.
fn survey(s: &str) -> (Option<usize>, bool) {
    let b = s.as_bytes();
    let mut markup = false;
    let mut at = 0;
    while let Some(rel) = first_look(&b[at..]) {
        let i = at + rel;
        if b[i] == b'<' {
            markup = true;
            at = i + 1;
            continue;
        }
        match s[i..].chars().next() {
            Some(c) if is_hidden(c) => return (Some(i), markup),
            Some(c) => at = i + c.len_utf8(),
            None => break,
        }
    }
    (None, markup)
}

/// The first byte [`LOOK`] flags. Printable ASCII, the bulk of results, is
/// passed over eight bytes at a time: a word with no byte below 0x20, none
/// at or above 0x7F and no `<` cannot hold one.
fn first_look(b: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let has_zero = |v: u64| v.wrapping_sub(ONES) & !v & HIGH != 0;
    let mut chunks = b.chunks_exact(8);
    let mut at = 0;
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let x = u64::from_le_bytes(word);
        let below_space = x.wrapping_sub(ONES * 0x20) & !x & HIGH != 0;
        if below_space
            || x & HIGH != 0
            || has_zero(x ^ (ONES * 0x7F))
            || has_zero(x ^ (ONES * u64::from(b'<')))
        {
            let hit = chunk.iter().position(|&c| LOOK[usize::from(c)]);
            if let Some(i) = hit {
                return Some(at + i);
            }
        }
        at += 8;
    }
    chunks
        .remainder()
        .iter()
        .position(|&c| LOOK[usize::from(c)])
        .map(|i| at + i)
}

/// `s` without the listed code points; `from` is the first byte worth a look.
fn drop_hidden_chars<'a>(s: &'a str, from: usize, removed: &mut usize) -> Cow<'a, str> {
    let Some(at) = s[from..].char_indices().find(|(_, c)| is_hidden(*c)) else {
        return Cow::Borrowed(s);
    };
    let at = from + at.0;
    let mut out = String::with_capacity(s.len());
    out.push_str(&s[..at]);
    for c in s[at..].chars() {
        if is_hidden(c) {
            *removed += 1;
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// One pass removing HTML comments and script/style elements, or `None`
/// when there is none.
fn drop_elements(s: &str, removed: &mut usize) -> Option<String> {
    let mut out: Option<String> = None;
    let mut kept_to = 0; // bytes of `s` before this are decided
    let mut from = 0;
    while let Some(rel) = s[from..].find('<') {
        let start = from + rel;
        let Some(end) = element_end(s, start) else {
            from = start + 1;
            continue;
        };
        let o = out.get_or_insert_with(|| String::with_capacity(s.len()));
        o.push_str(&s[kept_to..start]);
        *removed += s[start..end].chars().count();
        kept_to = end;
        from = end;
    }
    out.map(|mut o| {
        o.push_str(&s[kept_to..]);
        o
    })
}

/// Where the hidden element starting at `s[start] == '<'` ends (exclusive),
/// or `None` if no hidden element starts there. Ends follow how browsers
/// parse HTML: a comment ends at the first `-->` or `--!>` (`<!-->` and
/// `<!--->` are empty comments), a script/style element at the first
/// `</script`/`</style` and the `>` after it; without an end the element
/// runs to the end of the text, as it would hide the rest of a page.
fn element_end(s: &str, start: usize) -> Option<usize> {
    let rest = &s.as_bytes()[start..];
    if rest.starts_with(b"<!--") {
        let body = &rest[4..];
        let len = if body.starts_with(b">") {
            1
        } else if body.starts_with(b"->") {
            2
        } else {
            match (find(body, b"-->"), find(body, b"--!>")) {
                (Some(a), Some(b)) if b < a => b + 4,
                (Some(a), _) => a + 3,
                (None, Some(b)) => b + 4,
                (None, None) => body.len(),
            }
        };
        return Some(start + 4 + len);
    }
    for name in [&b"script"[..], b"style"] {
        if !starts_with_tag(&rest[1..], name) {
            continue;
        }
        let after_open = 1 + name.len();
        let Some(close) = find_closing(&rest[after_open..], name) else {
            return Some(s.len());
        };
        let after_close = after_open + close + 2 + name.len();
        let end = rest[after_close..]
            .iter()
            .position(|&b| b == b'>')
            .map_or(s.len(), |gt| start + after_close + gt + 1);
        return Some(end);
    }
    None
}

/// `b` starts with tag `name` (any case) followed by what ends a tag name
/// (whitespace, `/`, `>`) or by the end of the text.
fn starts_with_tag(b: &[u8], name: &[u8]) -> bool {
    b.len() >= name.len()
        && b[..name.len()].eq_ignore_ascii_case(name)
        && b.get(name.len())
            .is_none_or(|c| matches!(c, b' ' | b'\t' | b'\n' | b'\r' | b'\x0C' | b'/' | b'>'))
}

/// Offset of the first `</name` (any case) ending the tag name in `b`.
fn find_closing(b: &[u8], name: &[u8]) -> Option<usize> {
    let mut from = 0;
    while let Some(rel) = find(&b[from..], b"</") {
        let at = from + rel;
        if starts_with_tag(&b[at + 2..], name) {
            return Some(at);
        }
        from = at + 2;
    }
    None
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// Cleans every string in `v` in place; returns how many characters were
/// removed. Object keys are left alone: they are the contract's names.
pub fn scrub_value(v: &mut Value) -> usize {
    match v {
        Value::String(s) => scrub_string(s),
        Value::Array(items) => items.iter_mut().map(scrub_value).sum(),
        Value::Object(map) => map.values_mut().map(scrub_value).sum(),
        _ => 0,
    }
}

/// Cleans one string in place; returns how many characters were removed.
pub fn scrub_string(s: &mut String) -> usize {
    match clean(s) {
        (Cow::Borrowed(_), n) => n,
        (Cow::Owned(c), n) => {
            *s = c;
            n
        }
    }
}

/// The one warning of a result from which `removed` characters were taken.
pub fn removal_warning(removed: usize) -> String {
    format!(
        "removed {removed} hidden characters (invisible or control characters, HTML comments, \
         script/style content) from text written by people or catalogues; what was hidden is not shown"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cleaned(s: &str) -> String {
        clean(s).0.into_owned()
    }

    #[test]
    fn plain_text_ids_dates_urls_and_labels_are_borrowed_unchanged() {
        for s in [
            "The Matrix",
            "9f3a2b1c-0000-4000-8000-000000000001",
            "2026-04-05T10:00:00Z",
            "https://image.tmdb.org/t/p/w500/abc.jpg?x=1&y=<2>",
            "in_progress",
            "tt0133093",
            "line one\n\tline two",
            "a < b and c > d, <b>bold</b>, <scripts>, <styles/>",
            "Amélie — 千と千尋の神隠し 🎬",
        ] {
            let (out, n) = clean(s);
            assert!(matches!(out, Cow::Borrowed(_)), "{s}");
            assert_eq!((out.as_ref(), n), (s, 0));
        }
    }

    #[test]
    fn the_word_scan_finds_what_the_byte_scan_finds() {
        let naive = |b: &[u8]| b.iter().position(|&c| LOOK[usize::from(c)]);
        for len in 0..24 {
            for at in 0..len {
                for hit in [
                    "\u{1}",
                    "\u{7F}",
                    "<",
                    "\u{85}",
                    "\u{200B}",
                    "\u{FEFF}",
                    "\u{E0041}",
                    "é",
                    "\t",
                ] {
                    let mut s = "a".repeat(at);
                    s.push_str(hit);
                    s.push_str(&"z".repeat(len - at));
                    assert_eq!(first_look(s.as_bytes()), naive(s.as_bytes()), "{s:?}");
                }
            }
        }
    }

    #[test]
    fn listed_characters_go_and_are_counted() {
        let (out, n) = clean("ap\u{200B}pro\u{202E}ve\u{E0041}\u{E0042} all\r\u{0}\u{85}!\u{FEFF}");
        assert_eq!((out.as_ref(), n), ("approve all!", 8));
    }

    #[test]
    fn comments_follow_the_browser() {
        assert_eq!(cleaned("a<!-- hidden -->b"), "ab");
        assert_eq!(cleaned("a<!-->b"), "ab");
        assert_eq!(cleaned("a<!--->b"), "ab");
        assert_eq!(cleaned("a<!-- x --!>b"), "ab");
        assert_eq!(cleaned("visible <!-- never closed"), "visible ");
        // Joined by a removal, removed too.
        assert_eq!(cleaned("a<!<!-- -->-- hidden -->b"), "ab");
        assert_eq!(cleaned("a<!\u{200B}-- hidden -->b"), "ab");
    }

    #[test]
    fn script_and_style_elements_go_with_their_content() {
        assert_eq!(cleaned("a<ScRiPt>do()</sCrIpT >b"), "ab");
        assert_eq!(cleaned("a<style type=x>p{}</style>b"), "ab");
        assert_eq!(cleaned("a<script src=x>b"), "a");
        assert_eq!(cleaned("a<script"), "a");
        assert_eq!(cleaned("a<script>x</scriptx>y</script>b"), "ab");
        assert_eq!(cleaned("a<scripty>b"), "a<scripty>b");
    }

    #[test]
    fn scrub_value_cleans_every_string_and_counts() {
        let mut v =
            serde_json::json!({"kind": "x", "a": ["x\u{200B}", {"b": "<!--y-->z"}], "id": 5});
        assert_eq!(scrub_value(&mut v), 9);
        assert_eq!(
            v,
            serde_json::json!({"kind": "x", "a": ["x", {"b": "z"}], "id": 5})
        );
    }
}
