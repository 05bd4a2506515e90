//! One event, one line on stderr: text from a client or from Ombi in a log
//! field (an argument name, a tool name, a title, an error message) cannot
//! end the line and forge the next one. The fmt layer writes each event
//! whole, ending in its one newline; every other line break or control
//! character in it is written escaped (`\n`, `\u{2028}`), whatever field or
//! call site it came from.

use std::io::{self, Write};

use tracing_subscriber::fmt::MakeWriter;

/// stderr, one line per event. `ansi`: keep ESC (the colours of a terminal).
#[derive(Clone, Copy)]
pub struct OneLine {
    pub ansi: bool,
}

impl<'a> MakeWriter<'a> for OneLine {
    type Writer = OneLineWriter;
    fn make_writer(&'a self) -> OneLineWriter {
        OneLineWriter { ansi: self.ansi }
    }
}

pub struct OneLineWriter {
    ansi: bool,
}

impl Write for OneLineWriter {
    /// Takes the whole event (the fmt layer hands it over in one
    /// `write_all`) and writes it escaped, as one `write_all` to stderr.
    fn write(&mut self, event: &[u8]) -> io::Result<usize> {
        let line = escape(&String::from_utf8_lossy(event), self.ansi);
        io::stderr().lock().write_all(line.as_bytes())?;
        Ok(event.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        io::stderr().flush()
    }
}

/// `event` with every line break and control character but its final
/// newline escaped (and ESC, when `ansi`).
pub fn escape(event: &str, ansi: bool) -> String {
    let (body, end) = match event.strip_suffix('\n') {
        Some(body) => (body, "\n"),
        None => (event, ""),
    };
    let mut out = String::with_capacity(event.len() + 2);
    for c in body.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push(c),
            '\u{1b}' if ansi => out.push(c),
            c if c.is_control() || matches!(c, '\u{2028}' | '\u{2029}') => {
                out.push_str(&c.escape_unicode().to_string())
            }
            c => out.push(c),
        }
    }
    out.push_str(end);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_final_newline_ends_the_line() {
        let forged =
            "WARN tool call failed field=/x\nINFO accepted peer uid=0\r\u{2028}\u{85}\u{1b}[2J\n";
        let line = escape(forged, false);
        assert_eq!(line.matches('\n').count(), 1);
        assert!(line.ends_with('\n'));
        assert_eq!(
            line,
            "WARN tool call failed field=/x\\nINFO accepted peer uid=0\\r\\u{2028}\\u{85}\\u{1b}[2J\n"
        );
        assert_eq!(escape("a\tb\n", false), "a\tb\n");
        assert_eq!(
            escape("\u{1b}[1mINFO\u{1b}[0m x\n", true),
            "\u{1b}[1mINFO\u{1b}[0m x\n"
        );
    }
}
