//! Ombi's log files → the `logs` family: vetted file ids, and a window of
//! lines cut out of the (byte-capped) file, with credential-looking values
//! redacted (`apikey=`, `X-Plex-Token=`, `token=`, `token <value>`,
//! `Authorization:` values, passwords, URL user info, e-mail addresses).

use std::borrow::Cow;
use std::sync::LazyLock;

use regex::{Regex, RegexBuilder};
use serde::Serialize;
use serde_json::Value;

use crate::contract::Family;
use crate::contract::budget::shorten;

/// Lines per result (`$defs/logs.lines.maxItems`).
pub const MAX_LINES: usize = 500;
/// Default window when `limit` is not given.
pub const DEFAULT_LINES: usize = 100;
/// Longest line returned (characters); longer ones end in `…`.
pub const MAX_LINE_CHARS: usize = 1000;
/// Serialized line bytes per result, below the 64 KiB envelope budget.
pub const MAX_LINE_BYTES: usize = 48 * 1024;
/// Longest file name accepted as a `file_id`.
pub const MAX_FILE_ID: usize = 200;

/// Whether `name` is a plain file name Ombi's log folder can hold: no path
/// separators, no `..`, no control characters, not hidden.
pub fn valid_file_id(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_FILE_ID
        && !name.starts_with('.')
        && !name.contains("..")
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_' | ' '))
}

/// `$defs/log_file`: Ombi's list gives names only, so the id is the name.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LogFile {
    pub file_id: String,
    pub name: String,
    /// The day a daily file was written, from its name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub modified: Option<String>,
}

/// `GET /api/v2/System/logs` (`string[]`, newest first) → `files`; names
/// that are not plain file names are skipped (and counted).
pub fn files(names: &[String]) -> (Vec<LogFile>, usize) {
    let mut skipped = 0;
    let files = names
        .iter()
        .filter_map(|n| {
            if valid_file_id(n) {
                Some(LogFile {
                    file_id: n.clone(),
                    name: n.clone(),
                    modified: serilog_day(n),
                })
            } else {
                skipped += 1;
                None
            }
        })
        .collect();
    (files, skipped)
}

/// The day a Serilog daily file was written, from its name: Ombi logs to
/// `log.txt` rolled daily (`Startup.cs`), i.e. `logYYYYMMDD.txt` (a size
/// roll adds `_NNN`). Ombi's list gives names only.
fn serilog_day(name: &str) -> Option<String> {
    let d = name.strip_prefix("log")?.get(..8)?;
    if !d.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(format!("{}-{}-{}", &d[..4], &d[4..6], &d[6..]))
}

/// A window of lines out of a file.
#[derive(Debug, Clone, PartialEq)]
pub struct LineWindow {
    pub lines: Vec<String>,
    pub offset: usize,
    /// Where the next window starts, when more lines are known to exist and
    /// can be read.
    pub next_offset: Option<usize>,
    /// Something was cut: lines shortened, the window ended early for the
    /// byte budget, or the file was longer than the read cap.
    pub truncated: bool,
    pub warnings: Vec<String>,
}

/// Which lines of a file to return: `offset`/`limit`, or the last `tail`
/// lines; with `needle`, only the lines containing it (case-insensitively,
/// after redaction, so a match never probes a redacted value), and the
/// numbers count matching lines.
#[derive(Debug, Clone, Default)]
pub struct Selection {
    pub offset: usize,
    pub limit: usize,
    pub tail: Option<usize>,
    pub needle: Option<String>,
}

/// Cuts lines `offset .. offset+limit` out of `text`. `cut` says the body
/// was longer than the read cap: its last (partial) line is dropped, the
/// line count is unknown past it, and no continuation is offered there.
pub fn window(text: &str, offset: usize, limit: usize, cut: bool) -> LineWindow {
    select(
        text,
        &Selection {
            offset,
            limit,
            ..Selection::default()
        },
        cut,
    )
}

/// The lines `sel` picks out of `text` (see [`window`] for `cut`).
pub fn select(text: &str, sel: &Selection, cut: bool) -> LineWindow {
    let limit = sel.tail.unwrap_or(sel.limit).clamp(1, MAX_LINES);
    let mut all: Vec<&str> = text.split('\n').collect();
    // A cut body ends in a partial line; a complete one in "" after its last '\n'.
    if cut || all.last() == Some(&"") {
        all.pop();
    }
    // Redacted before matching; without a needle only the window is redacted.
    let all: Vec<Cow<str>> = match sel.needle.as_deref() {
        Some(needle) => {
            let needle = needle.to_lowercase();
            all.into_iter()
                .map(|raw| redact(raw.strip_suffix('\r').unwrap_or(raw)))
                .filter(|line| line.to_lowercase().contains(&needle))
                .map(Cow::Owned)
                .collect()
        }
        None => all
            .into_iter()
            .map(|raw| Cow::Borrowed(raw.strip_suffix('\r').unwrap_or(raw)))
            .collect(),
    };
    let held = all.len();
    let offset = match sel.tail {
        Some(_) => held.saturating_sub(limit),
        None => sel.offset,
    };
    let mut lines = Vec::new();
    let mut bytes = 0;
    let mut shortened = 0;
    let mut budget_hit = false;
    for line in all.iter().skip(offset).take(limit) {
        let line = match line {
            Cow::Borrowed(raw) => redact(raw),
            Cow::Owned(redacted) => redacted.clone(),
        };
        let line = match shorten(&line, MAX_LINE_CHARS) {
            Some(s) => {
                shortened += 1;
                s
            }
            None => line,
        };
        // Counted as serialized (escapes included), so the envelope budget
        // never has to drop lines behind `next_offset`'s back.
        let size = serde_json::to_string(&line).map_or(line.len() * 6, |j| j.len()) + 1;
        if bytes + size > MAX_LINE_BYTES && !lines.is_empty() {
            budget_hit = true;
            break;
        }
        bytes += size;
        lines.push(line);
    }
    let end = offset + lines.len();
    let mut warnings = Vec::new();
    if shortened > 0 {
        warnings.push(format!(
            "{shortened} long lines were shortened to {MAX_LINE_CHARS} characters"
        ));
    }
    if budget_hit {
        warnings.push(format!(
            "the window stopped after {} lines to fit the result size; continue at offset {end}",
            lines.len()
        ));
    }
    let more_held = end < held;
    if cut && (!more_held || sel.tail.is_some()) {
        warnings.push(format!(
            "the log file is larger than the read limit; lines past line {held} cannot be read through this tool{}",
            if sel.tail.is_some() { ", so these are not the file's last lines" } else { "" }
        ));
    }
    if offset >= held && held > 0 && !cut {
        warnings.push(format!(
            "offset {offset} is past the end of the file ({held} lines)"
        ));
    }
    LineWindow {
        offset,
        next_offset: more_held.then_some(end),
        truncated: shortened > 0 || budget_hit || cut,
        lines,
        warnings,
    }
}

/// (pattern, replacement), applied in order, case-insensitively.
const RULES: &[(&str, &str)] = &[
    // Credentials in URLs: scheme://user:password@host
    (r"(://)[^/\s:@]+:[^/\s@]+@", "${1}[REDACTED]@"),
    // Authorization / Proxy-Authorization header values: the whole value
    // up to the end of the header (or the closing quote in JSON), scheme
    // included, since any scheme (Negotiate, ApiKey, ...) carries a secret.
    (
        r#"((?:proxy-)?authorization"?\s*[:=]\s*"?)[^\r\n"]+"#,
        "${1}[REDACTED]",
    ),
    // A bare bearer token anywhere.
    (r"(bearer\s+)[A-Za-z0-9._~+/=-]{8,}", "${1}[REDACTED]"),
    // key=value / key: value / "key":"value" for anything named like a
    // credential: apikey, api_key, X-Plex-Token, token, access_token,
    // password, secret, ...
    (
        r#"("?[\w.-]*(?:api[_-]?key|token|password|passwd|pwd|secret|authtoken|accountsid)"?\s*[:=]\s*"?)[^\s&"',;}<>]+"#,
        "${1}[REDACTED]",
    ),
    // `token <value>`: a credential word, a space, then a long
    // token-like value (a password-reset line carries the token that
    // resets the password: docs/ombi-notes.md). Short words such as
    // "token validation" stay.
    (
        r"(\b(?:token|api[_-]?key|password|secret)\s+)[A-Za-z0-9+/=_%.~-]{16,}",
        "${1}[REDACTED]",
    ),
    // E-mail addresses.
    (
        r"[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}",
        "[REDACTED_EMAIL]",
    ),
];

/// [`RULES`] compiled; `None` if one does not compile (a unit test holds
/// that they all do), and then no line is shown at all.
static COMPILED: LazyLock<Option<Vec<(Regex, &'static str)>>> = LazyLock::new(|| {
    RULES
        .iter()
        .map(|(pattern, with)| {
            let re = RegexBuilder::new(pattern).case_insensitive(true).build();
            re.map(|re| (re, *with)).ok()
        })
        .collect()
});

/// `line` with every credential-looking value replaced.
pub fn redact(line: &str) -> String {
    let Some(rules) = COMPILED.as_ref() else {
        return "[REDACTED]".into();
    };
    let mut out = line.to_string();
    for (re, with) in rules {
        if re.is_match(&out) {
            out = re.replace_all(&out, *with).into_owned();
        }
    }
    out
}

/// `$defs/logs` as a `list` answers it: the files, newest first.
#[derive(Debug, Clone, PartialEq, Serialize)]
struct LogList<'a> {
    kind: &'static str,
    files: &'a [LogFile],
    truncated: bool,
}

/// `$defs/logs` as a `read` answers it: a window of lines, where it starts,
/// and where the next one starts (`null`: nothing more can be read).
#[derive(Debug, Clone, PartialEq, Serialize)]
struct LogLines<'a> {
    kind: &'static str,
    lines: &'a [String],
    offset: usize,
    next_offset: Option<usize>,
    truncated: bool,
}

/// The `logs` object of a `list`.
pub fn files_data(files: &[LogFile], truncated: bool) -> Value {
    let l = LogList {
        kind: Family::Logs.def_name(),
        files,
        truncated,
    };
    serde_json::to_value(l).unwrap_or(Value::Null)
}

/// The `logs` object of a `read`.
pub fn lines_data(w: &LineWindow) -> Value {
    let l = LogLines {
        kind: Family::Logs.def_name(),
        lines: &w.lines,
        offset: w.offset,
        next_offset: w.next_offset,
        truncated: w.truncated,
    };
    serde_json::to_value(l).unwrap_or(Value::Null)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::family_schema::assert_family;
    use super::*;

    #[test]
    fn every_redaction_rule_compiles() {
        assert_eq!(COMPILED.as_ref().map(Vec::len), Some(RULES.len()));
    }

    #[test]
    fn file_ids_reject_paths() {
        for bad in [
            "../etc/passwd",
            "a/b.txt",
            "a\\b.txt",
            "",
            ".hidden",
            "log..txt",
            "x\0y",
        ] {
            assert!(!valid_file_id(bad), "{bad:?} accepted");
        }
        assert!(valid_file_id("log20260502.txt"));
        assert!(valid_file_id("log20260502_001.txt"));
    }

    #[test]
    fn listing_skips_bad_names() {
        let (f, skipped) = files(&[
            "log20260502.txt".into(),
            "../x".into(),
            "ombi-errors.txt".into(),
        ]);
        assert_eq!(skipped, 1);
        let data = files_data(&f, false);
        assert_eq!(
            data,
            json!({"kind": "logs", "files": [
                {"file_id": "log20260502.txt", "name": "log20260502.txt", "modified": "2026-05-02"},
                {"file_id": "ombi-errors.txt", "name": "ombi-errors.txt"}
            ], "truncated": false})
        );
        assert_family("logs", &data);
    }

    #[test]
    fn credentials_are_redacted() {
        let cases = [
            (
                "GET http://radarr:7878/api/v3/movie?apikey=0123456789abcdef HTTP/1.1",
                "0123456789abcdef",
            ),
            (
                "calling https://plex.tv/api/users?X-Plex-Token=PlexTok3nXYZ&x=1",
                "PlexTok3nXYZ",
            ),
            (
                "url https://ntfy.sh/topic?token=tk_abcdef123",
                "tk_abcdef123",
            ),
            (
                "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig",
                "eyJhbGciOiJIUzI1NiJ9",
            ),
            ("header Authorization: Basic dXNlcjpwYXNz", "dXNlcjpwYXNz"),
            // any scheme, not only the well-known ones (audit #15)
            (
                "Authorization: Negotiate YIIGhgYJKoZIhvcSAQICAQBuggZ1",
                "YIIGhgYJ",
            ),
            ("Authorization: ApiKey abc123secret", "abc123secret"),
            (
                "Proxy-Authorization: NTLM TlRMTVNTUAABAAAA",
                "TlRMTVNTUAABAAAA",
            ),
            (
                "headers {\"Authorization\":\"Custom s3cr3tv4lue\",\"x\":1}",
                "s3cr3tv4lue",
            ),
            (
                "body {\"apiKey\":\"5d41402abc4b2a76\",\"enabled\":true}",
                "5d41402abc4b2a76",
            ),
            ("user carol@example.org logged in", "carol@example.org"),
            (
                "connect smtp://mailer:s3cretpw@mail.example.org:587",
                "s3cretpw",
            ),
            ("login failed password=hunter2", "hunter2"),
            (
                "Password reset for bob (token CfDJ8Hq3xZ9vKp2Lw0Rt5Ys7Ua1Bc4De6Fg8Hi0Jk2Lm4No6Pq8R)",
                "CfDJ8Hq3xZ9vKp2Lw0",
            ),
        ];
        for (line, secret) in cases {
            let out = redact(line);
            assert!(!out.contains(secret), "{secret} survived in {out}");
            assert!(out.contains("[REDACTED"), "{out}");
        }
        assert_eq!(
            redact("Authorization: Negotiate YIIG"),
            "Authorization: [REDACTED]"
        );
        assert_eq!(
            redact(r#"{"Authorization":"ApiKey k1","x":1}"#),
            r#"{"Authorization":"[REDACTED]","x":1}"#
        );
        assert_eq!(
            redact("2026-05-02 10:00:01 [INF] Started job"),
            "2026-05-02 10:00:01 [INF] Started job"
        );
        let plain = "Plex token validation failed - token may be expired";
        assert_eq!(redact(plain), plain);
    }

    #[test]
    fn window_cuts_lines_and_offers_continuation() {
        let text: String = (0..10).map(|i| format!("line {i}\r\n")).collect();
        let w = window(&text, 2, 3, false);
        assert_eq!(w.lines, vec!["line 2", "line 3", "line 4"]);
        assert_eq!(w.next_offset, Some(5));
        assert!(!w.truncated);
        let data = lines_data(&w);
        assert_eq!(
            data,
            json!({"kind": "logs", "lines": ["line 2", "line 3", "line 4"], "offset": 2,
                "next_offset": 5, "truncated": false})
        );
        assert_family("logs", &data);
        let w = window(&text, 8, 5, false);
        assert_eq!(w.lines, vec!["line 8", "line 9"]);
        assert_eq!(w.next_offset, None);
        assert_eq!(lines_data(&w)["next_offset"], Value::Null);
        assert_family("logs", &lines_data(&w));
    }

    #[test]
    fn cut_body_drops_the_partial_line_and_warns() {
        let w = window("a\nb\nparti", 0, 10, true);
        assert_eq!(w.lines, vec!["a", "b"]);
        assert_eq!(w.next_offset, None);
        assert!(w.truncated && !w.warnings.is_empty());
    }

    #[test]
    fn byte_budget_stops_early_with_exact_continuation() {
        let text: String = (0..500)
            .map(|i| format!("{i:04} {}\n", "x".repeat(900)))
            .collect();
        let w = window(&text, 0, 500, false);
        assert!(w.lines.len() < 500);
        assert_eq!(w.next_offset, Some(w.lines.len()));
        assert!(w.truncated);
        let size: usize = w.lines.iter().map(|l| l.len() + 3).sum();
        assert!(size <= MAX_LINE_BYTES + 1100);
    }
}
