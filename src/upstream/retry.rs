//! The retry policy, in one place: a read may be tried once more on 429, 503
//! or a dropped connection, waiting `Retry-After` only if that fits in the
//! call's deadline; a write is never replayed.

use std::time::Duration;

use super::route::Kind;

/// How long to wait before the one retry when Ombi gives no `Retry-After`.
const DEFAULT_BACKOFF: Duration = Duration::from_millis(200);
/// Time kept back for the retry itself to run.
const MIN_ATTEMPT_TIME: Duration = Duration::from_millis(500);

/// After an HTTP answer: `Some(wait)` to retry once, `None` to return it.
pub fn after_status(
    kind: Kind,
    attempt: u32,
    status: u16,
    retry_after: Option<Duration>,
    remaining: Duration,
) -> Option<Duration> {
    if kind == Kind::Write || attempt > 0 || !matches!(status, 429 | 503) {
        return None;
    }
    let wait = retry_after.unwrap_or(DEFAULT_BACKOFF);
    (wait + MIN_ATTEMPT_TIME <= remaining).then_some(wait)
}

/// After a transport failure (reset, dropped connection): reads retry once.
pub fn after_transport(kind: Kind, attempt: u32, remaining: Duration) -> Option<Duration> {
    if kind == Kind::Write || attempt > 0 {
        return None;
    }
    (DEFAULT_BACKOFF + MIN_ATTEMPT_TIME <= remaining).then_some(DEFAULT_BACKOFF)
}

/// An answer's `Retry-After`, see `parse_retry_after`.
pub fn retry_after(headers: &reqwest::header::HeaderMap) -> Option<Duration> {
    parse_retry_after(
        headers
            .get(reqwest::header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok()),
    )
}

/// `Retry-After` in seconds (the HTTP-date form is not used by proxies in
/// front of Ombi in practice and is ignored).
fn parse_retry_after(value: Option<&str>) -> Option<Duration> {
    value?.trim().parse::<u64>().ok().map(Duration::from_secs)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LONG: Duration = Duration::from_secs(30);

    #[test]
    fn reads_retry_once_on_429_and_503_only() {
        assert_eq!(
            after_status(Kind::Read, 0, 503, None, LONG),
            Some(DEFAULT_BACKOFF)
        );
        assert_eq!(
            after_status(Kind::Read, 0, 429, Some(Duration::from_secs(2)), LONG),
            Some(Duration::from_secs(2))
        );
        assert_eq!(after_status(Kind::Read, 1, 503, None, LONG), None);
        assert_eq!(after_status(Kind::Read, 0, 500, None, LONG), None);
        assert_eq!(after_status(Kind::Write, 0, 503, None, LONG), None);
        assert_eq!(after_transport(Kind::Write, 0, LONG), None);
    }

    #[test]
    fn retry_after_must_fit_the_deadline() {
        assert_eq!(
            after_status(Kind::Read, 0, 429, Some(Duration::from_secs(60)), LONG),
            None
        );
        assert_eq!(parse_retry_after(Some(" 7 ")), Some(Duration::from_secs(7)));
        assert_eq!(
            parse_retry_after(Some("Wed, 21 Oct 2015 07:28:00 GMT")),
            None
        );
    }
}
