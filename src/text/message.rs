//! Turns any text that came from Ombi (an `{error}` message, a ProblemDetails
//! title, a business `errorMessage`) into something safe to show a caller.
//!
//! Ombi's messages can carry exception text, stack traces, connection strings,
//! *arr URLs with API keys and user data. We strip
//! rather than escape: the caller needs the gist, never the internals.

/// Longest sanitized text we return (characters).
pub const MAX_MESSAGE_CHARS: usize = 300;

const REDACTED: &str = "[redacted]";

/// Sanitizes `raw` with no extra secrets to hide.
pub fn sanitize(raw: &str) -> String {
    sanitize_with(raw, &[])
}

/// Sanitizes `raw`, also replacing every occurrence of each of `secrets`
/// (the configured password, API key, current JWT) first, so that no later
/// transformation can split one into pieces that escape the filters.
pub fn sanitize_with(raw: &str, secrets: &[&str]) -> String {
    let mut text = raw.to_string();
    for secret in secrets {
        if secret.len() >= 3 && text.contains(secret) {
            text = text.replace(secret, REDACTED);
        }
    }
    let text = strip_html(&text);
    let mut kept = Vec::new();
    for line in text.lines() {
        if is_stack_line(line) {
            continue;
        }
        kept.push(redact_connection_string(line));
    }
    let joined = kept.join(" ");
    let mut out: Vec<String> = Vec::new();
    let mut redact_next = false;
    for word in joined.split_whitespace() {
        if redact_next {
            redact_next = false;
            out.push(REDACTED.to_string());
            continue;
        }
        let lower = word.to_ascii_lowercase();
        let bare = lower.trim_end_matches([':', '=']);
        if matches!(
            bare,
            "bearer"
                | "basic"
                | "authorization"
                | "apikey"
                | "api-key"
                | "x-api-key"
                | "token"
                | "x-plex-token"
                | "password"
                | "cookie"
                | "set-cookie"
                | "useraccesstoken"
        ) {
            redact_next = true;
            out.push(word.to_string());
            continue;
        }
        out.push(redact_word(word));
    }
    cap(&out.join(" "), MAX_MESSAGE_CHARS)
}

/// Drops tags, and the content of `<script>`/`<style>` blocks.
fn strip_html(text: &str) -> String {
    if !text.contains('<') {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let lower = text.to_ascii_lowercase();
    let mut i = 0;
    let bytes = text.as_bytes();
    while i < bytes.len() {
        if bytes[i] == b'<' {
            for block in ["script", "style"] {
                if lower[i + 1..].starts_with(block) {
                    let close = format!("</{block}");
                    if let Some(end) = lower[i..].find(&close) {
                        i += end;
                    }
                }
            }
            match text[i..].find('>') {
                Some(end) => {
                    i += end + 1;
                    out.push(' ');
                    continue;
                }
                None => break,
            }
        }
        let ch = text[i..].chars().next().unwrap_or(' ');
        out.push(ch);
        i += ch.len_utf8();
    }
    out
}

/// .NET stack frames and exception separators.
fn is_stack_line(line: &str) -> bool {
    let t = line.trim_start();
    (t.starts_with("at ") && (t.contains('(') || t.contains(" in ")))
        || t.starts_with("--- End of")
        || t.contains("--- End of inner exception")
        || t.contains("--- End of stack trace")
}

/// Cuts a line from the first connection-string key to its end.
fn redact_connection_string(line: &str) -> String {
    const KEYS: &[&str] = &[
        "server=",
        "data source=",
        "datasource=",
        "password=",
        "pwd=",
        "user id=",
        "uid=",
        "initial catalog=",
        "database=",
        "host=",
    ];
    let lower = line.to_ascii_lowercase();
    let first = KEYS
        .iter()
        .filter_map(|k| {
            lower.match_indices(k).map(|(i, _)| i).find(|&i| {
                // Only at a word start: "myserver=" is not a key.
                i == 0 || !lower.as_bytes()[i - 1].is_ascii_alphanumeric()
            })
        })
        .min();
    match first {
        Some(i) => format!("{}[connection string redacted]", &line[..i]),
        None => line.to_string(),
    }
}

fn redact_word(word: &str) -> String {
    let lower = word.to_ascii_lowercase();
    if lower.contains("://") {
        return "[url]".to_string();
    }
    if let Some(at) = word.find('@')
        && at > 0
        && word[at + 1..].contains('.')
    {
        return "[email]".to_string();
    }
    if let Some(eq) = word.find('=') {
        let key = lower[..eq].trim_start_matches(['?', '&', '(', '"', '\'']);
        if key.contains("key")
            || key.contains("token")
            || key.contains("password")
            || key.contains("secret")
            || key == "pwd"
            || key == "auth"
        {
            return format!("{}={REDACTED}", &word[..eq]);
        }
    }
    let core = word
        .trim_matches(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.'));
    if core.starts_with("eyJ") && core.matches('.').count() >= 2 {
        return REDACTED.to_string();
    }
    if looks_like_key(core) {
        return word.replace(core, REDACTED);
    }
    word.to_string()
}

/// A 32+ hex run (Ombi API keys, access tokens), or a long mixed
/// letters-and-digits token (Plex tokens, *arr keys, JWT pieces).
fn looks_like_key(s: &str) -> bool {
    let hex_run = s
        .split(|c: char| !c.is_ascii_hexdigit())
        .any(|run| run.len() >= 32);
    if hex_run {
        return true;
    }
    s.split(['.', '/']).filter(|p| p.len() >= 20).any(|p| {
        p.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            && p.chars().any(|c| c.is_ascii_digit())
            && p.chars().any(|c| c.is_ascii_alphabetic())
    })
}

fn cap(text: &str, max: usize) -> String {
    let text = text.trim();
    match text.char_indices().nth(max) {
        None => text.to_string(),
        Some((i, _)) => format!("{}…", &text[..i]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NASTY: &str = "<html><head><script>var k='x';</script><style>b{}</style></head><body><h1>Oops</h1>\
Object reference not set to an instance of an object.\n   at Ombi.Core.Engine.MovieRequestEngine.GetRequest(Int32 id) in /src/Ombi.Core/Engine/MovieRequestEngine.cs:line 42\n\
--- End of inner exception stack trace ---\n\
Server=db.lan;Database=Ombi;User Id=sa;Password=Hunter2!;\n\
see http://admin:pw@radarr.lan:7878/api/v3/movie?apikey=0123456789abcdef0123456789abcdef and mail bob@example.org\n\
Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJl key 0123456789ABCDEF0123456789ABCDEF\n\
X-Plex-Token=AbCdEf1234567890xyZZ plextoken q1w2e3r4t5y6u7i8o9p0zz</body></html>";

    #[test]
    fn strips_every_planted_nasty() {
        let s = sanitize_with(NASTY, &["SuperSecretPw"]);
        for bad in [
            "<",
            "script",
            "var k",
            "Ombi.Core.Engine",
            "line 42",
            "End of inner",
            "db.lan",
            "Hunter2",
            "Database=",
            "radarr.lan",
            "admin:pw",
            "0123456789abcdef",
            "0123456789ABCDEF",
            "bob@example.org",
            "eyJhbGci",
            "AbCdEf1234567890xyZZ",
            "q1w2e3r4t5y6u7i8o9p0zz",
        ] {
            assert!(!s.contains(bad), "{bad:?} survived in {s:?}");
        }
        assert!(s.contains("Object reference not set"), "{s}");
        assert!(s.contains("Oops"));
    }

    #[test]
    fn hides_configured_secrets_and_caps_length() {
        let s = sanitize_with("login failed for pw=x hunter22 in hunter22", &["hunter22"]);
        assert!(!s.contains("hunter22"), "{s}");
        let long = "word ".repeat(200);
        let s = sanitize(&long);
        assert!(s.chars().count() <= MAX_MESSAGE_CHARS + 1);
        assert!(s.ends_with('…'));
    }

    #[test]
    fn keeps_plain_business_messages() {
        assert_eq!(
            sanitize("You have already voted!"),
            "You have already voted!"
        );
        assert_eq!(
            sanitize("Inception (2010) has been successfully added!"),
            "Inception (2010) has been successfully added!"
        );
        assert_eq!(sanitize("Été – 日本語 ok"), "Été – 日本語 ok");
    }
}
