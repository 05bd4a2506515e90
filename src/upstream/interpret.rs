//! What an Ombi answer means, shared by every tool: HTTP status, content
//! type, 204/empty bodies, `{error}` 500s, ProblemDetails, and the business
//! results Ombi returns with HTTP 200.

use std::time::Duration;

use serde::Deserialize;
use serde::de::DeserializeOwned;

use super::route::Kind;
use crate::contract::{ErrorCode, ToolError};
use crate::text::message::sanitize;

/// A raw answer: status, content type and the body read under the cap.
#[derive(Clone)]
pub struct UpstreamResponse {
    pub status: u16,
    pub content_type: Option<String>,
    pub body: Vec<u8>,
    /// The body exceeded the cap and `body` holds only its head.
    pub cut: bool,
    pub retry_after: Option<Duration>,
    /// `GET api/v1/...` (no argument text), for messages.
    pub route: String,
    pub kind: Kind,
}

impl std::fmt::Debug for UpstreamResponse {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("UpstreamResponse")
            .field("route", &self.route)
            .field("status", &self.status)
            .field("content_type", &self.content_type)
            .field("body_len", &self.body.len())
            .field("cut", &self.cut)
            .finish()
    }
}

/// A successful answer's payload, before the caller's typed parse.
#[derive(Debug, PartialEq)]
pub enum Payload<'a> {
    /// 204: Ombi's "null" (the caller decides NOT_FOUND or empty).
    Null,
    /// 200 with no body: a void action completed.
    Empty,
    Json(&'a [u8]),
    Text(&'a [u8]),
}

impl UpstreamResponse {
    fn is_html(&self) -> bool {
        self.content_type
            .as_deref()
            .is_some_and(|c| c.contains("text/html"))
    }

    fn is_json(&self) -> bool {
        self.content_type
            .as_deref()
            .is_some_and(|c| c.contains("json"))
    }

    /// The payload of a 2xx answer, or the error any other answer means.
    pub fn payload(&self) -> Result<Payload<'_>, ToolError> {
        let status = self.status;
        if !(200..300).contains(&status) {
            return Err(self.status_error());
        }
        if status == 204 {
            return Ok(Payload::Null);
        }
        if self.is_html() {
            return Err(ToolError::new(
                ErrorCode::UpstreamSchemaMismatch,
                format!(
                    "Ombi answered {} with an HTML page: the route was not found (Ombi version mismatch?)",
                    self.route
                ),
            )
            .with_status(status));
        }
        if self.body.iter().all(u8::is_ascii_whitespace) {
            return Ok(Payload::Empty);
        }
        if self.is_json() || self.content_type.is_none() {
            Ok(Payload::Json(&self.body))
        } else {
            Ok(Payload::Text(&self.body))
        }
    }

    /// The error a non-2xx status means, with Ombi's sanitized text.
    pub fn status_error(&self) -> ToolError {
        let status = self.status;
        let detail = self.upstream_message();
        let with = |base: String| match &detail {
            Some(d) => format!("{base}: {d}"),
            None => base,
        };
        let err = match status {
            400 => ToolError::new(ErrorCode::UpstreamRejected, with(format!("Ombi rejected {} as invalid (400)", self.route))),
            401 => {
                let text = String::from_utf8_lossy(&self.body);
                let msg = if text.starts_with("Invalid API Key") {
                    "Ombi rejected the API key (401 Invalid API Key): check OMBI_API_KEY".to_string()
                } else if text.starts_with("Invalid User") {
                    "Ombi does not know the acting user named in the UserName header (401 Invalid User): check OMBI_USER_NAME or the policy's ombi_user".to_string()
                } else {
                    format!("Ombi refused the credentials for {} (401)", self.route)
                };
                ToolError::new(ErrorCode::AuthenticationFailed, msg)
            }
            403 => ToolError::new(
                ErrorCode::Forbidden,
                "Ombi refused this for the acting user's roles (403)",
            ),
            404 => ToolError::new(ErrorCode::NotFound, with(format!("Ombi found nothing for {} (404)", self.route))),
            405 => ToolError::new(
                ErrorCode::UpstreamSchemaMismatch,
                format!("Ombi does not accept {} (405): Ombi version mismatch?", self.route),
            ),
            300..=399 => ToolError::new(
                ErrorCode::UpstreamRejected,
                format!("Ombi redirected {} ({status}): set OMBI_URL to the address Ombi is served at", self.route),
            ),
            409 => ToolError::new(ErrorCode::Conflict, with(format!("Ombi reported a conflict for {} (409)", self.route))),
            429 => {
                let mut e = ToolError::new(
                    ErrorCode::RateLimited,
                    format!("Ombi (or a proxy in front of it) is rate limiting {} (429)", self.route),
                );
                e.retry_after_seconds = self.retry_after.map(|d| d.as_secs().max(1));
                e
            }
            500 if detail.as_deref().is_some_and(|d| d.contains("SPA default page")) => ToolError::new(
                ErrorCode::UpstreamSchemaMismatch,
                format!("Ombi has no route {} (Ombi version mismatch?)", self.route),
            ),
            502 | 504 if self.kind == Kind::Write => ToolError::new(
                ErrorCode::UnknownOutcome,
                format!(
                    "a gateway in front of Ombi failed ({status}) after {} was sent; it may or may not have taken effect: read before retrying",
                    self.route
                ),
            )
            .retryable(false),
            502..=504 => ToolError::new(
                ErrorCode::UpstreamRejected,
                format!("Ombi is unavailable ({status}) for {}", self.route),
            )
            .retryable(true),
            _ => ToolError::new(ErrorCode::UpstreamRejected, with(format!("Ombi failed {} ({status})", self.route))),
        };
        err.with_status(status)
    }

    /// Ombi's own explanation, sanitized: `{error}` (500), ProblemDetails
    /// `title` + `errors` (400), or a short plain-text body. Never HTML.
    pub fn upstream_message(&self) -> Option<String> {
        if self.body.is_empty() || self.is_html() {
            return None;
        }
        #[derive(Deserialize)]
        struct ErrorBody {
            error: Option<String>,
            title: Option<String>,
            errors: Option<serde_json::Map<String, serde_json::Value>>,
        }
        if let Ok(b) = serde_json::from_slice::<ErrorBody>(&self.body) {
            let mut parts = Vec::new();
            if let Some(e) = b.error {
                parts.push(e);
            }
            if let Some(t) = b.title {
                parts.push(t);
            }
            for (field, msgs) in b.errors.iter().flatten() {
                let msgs: Vec<&str> = msgs
                    .as_array()
                    .map(|a| a.iter().filter_map(|m| m.as_str()).collect())
                    .unwrap_or_default();
                parts.push(format!("{field}: {}", msgs.join(", ")));
            }
            let s = sanitize(&parts.join("; "));
            return (!s.is_empty()).then_some(s);
        }
        if self.is_json() {
            return None;
        }
        let text = String::from_utf8_lossy(&self.body);
        let s = sanitize(&text);
        (!s.is_empty()).then_some(s)
    }

    /// Parses a JSON payload as `T`; `None` for 204 and empty 200 bodies.
    pub fn json<T: DeserializeOwned>(&self) -> Result<Option<T>, ToolError> {
        if self.cut {
            return Err(ToolError::new(
                ErrorCode::UpstreamSchemaMismatch,
                format!(
                    "Ombi's answer to {} exceeded the 8 MiB read limit and was not parsed",
                    self.route
                ),
            )
            .with_status(self.status));
        }
        match self.payload()? {
            Payload::Null | Payload::Empty => Ok(None),
            Payload::Json(bytes) | Payload::Text(bytes) => serde_json::from_slice(bytes)
                .map(Some)
                .map_err(|e| self.shape_error(&e)),
        }
    }

    /// A body that does not have the documented shape. After a write this
    /// means we cannot tell what happened.
    pub fn shape_error(&self, e: &serde_json::Error) -> ToolError {
        let (code, retryable) = match self.kind {
            Kind::Read => (ErrorCode::UpstreamSchemaMismatch, false),
            Kind::Write => (ErrorCode::UnknownOutcome, false),
        };
        ToolError::new(
            code,
            format!(
                "Ombi's answer to {} does not have the expected shape ({}){}",
                self.route,
                sanitize(&e.to_string()),
                if self.kind == Kind::Write {
                    "; the change may or may not have been made: read before retrying"
                } else {
                    ""
                }
            ),
        )
        .retryable(retryable)
        .with_status(self.status)
    }
}

/// A business result Ombi returns with HTTP 200: `check` turns its failure
/// form into the contract's error.
pub trait BusinessResult: DeserializeOwned + Sized {
    fn check(self, status: u16) -> Result<Self, ToolError>;
}

fn rejected(status: u16, message: Option<&str>, fallback: &str) -> ToolError {
    let msg = message.map(sanitize).filter(|m| !m.is_empty());
    ToolError::new(
        ErrorCode::UpstreamRejected,
        match msg {
            Some(m) => format!("Ombi refused: {m}"),
            None => format!("Ombi refused: {fallback}"),
        },
    )
    .with_status(status)
}

/// `RequestEngineResult`. `errorCode` is a string.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RequestEngineResult {
    pub result: bool,
    #[serde(default)]
    pub message: Option<String>,
    #[serde(default)]
    pub is_error: bool,
    #[serde(default)]
    pub error_message: Option<String>,
    #[serde(default)]
    pub error_code: Option<String>,
    #[serde(default)]
    pub request_id: i64,
}

/// What a refusal on HTTP 200 means, from Ombi's `errorCode` (an enum
/// name, `RequestEngineResult.cs`) or, where Ombi sends only the text (the
/// TV request rules, the movie and album engines' unknown ids), from the
/// text's start: `docs/ombi-notes.md`, "Refusals and what they mean".
const REFUSALS: &[(&str, ErrorCode)] = &[
    ("AlreadyRequested", ErrorCode::Conflict),
    ("EpisodesAlreadyRequested", ErrorCode::Conflict),
    (
        "We already have episodes requested from series",
        ErrorCode::Conflict,
    ),
    ("This has already been requested", ErrorCode::Conflict),
    ("RequestDoesNotExist", ErrorCode::NotFound),
    ("ChildRequestDoesNotExist", ErrorCode::NotFound),
    ("Request does not exist", ErrorCode::NotFound),
    ("Child Request does not exist", ErrorCode::NotFound),
    ("NoPermissions", ErrorCode::Forbidden),
    ("NoPermissionsOnBehalf", ErrorCode::Forbidden),
    ("NoPermissionsRequestMovie", ErrorCode::Forbidden),
    ("NoPermissionsRequestTV", ErrorCode::Forbidden),
    ("NoPermissionsRequestAlbum", ErrorCode::Forbidden),
    (
        "You do not have permissions to Request",
        ErrorCode::Forbidden,
    ),
    (
        "You do not have the correct permissions",
        ErrorCode::Forbidden,
    ),
    ("MovieRequestQuotaExceeded", ErrorCode::RateLimited),
    ("TvRequestQuotaExceeded", ErrorCode::RateLimited),
    ("AlbumRequestQuotaExceeded", ErrorCode::RateLimited),
    ("You have exceeded your", ErrorCode::RateLimited),
];

/// The code a refusal maps to: its `errorCode` first, else its text.
fn refusal_code(error_code: Option<&str>, text: Option<&str>) -> Option<ErrorCode> {
    let by_code = error_code.and_then(|c| REFUSALS.iter().find(|(k, _)| *k == c));
    let by_text = || text.and_then(|t| REFUSALS.iter().find(|(k, _)| t.trim().starts_with(k)));
    by_code.or_else(by_text).map(|(_, code)| *code)
}

impl BusinessResult for RequestEngineResult {
    fn check(self, status: u16) -> Result<Self, ToolError> {
        let has_error_text = self
            .error_message
            .as_deref()
            .is_some_and(|m| !m.trim().is_empty());
        if self.result && !self.is_error && !has_error_text && self.error_code.is_none() {
            return Ok(self);
        }
        let text = self.error_message.as_deref().or(self.message.as_deref());
        let mut err = rejected(status, text, "the request was not accepted");
        if let Some(code) = refusal_code(self.error_code.as_deref(), text) {
            err.code = code;
            // A quota does not lift on a retry soon (catalogue: not retryable).
            err.retryable = false;
        }
        if let Some(code) = self.error_code.as_deref() {
            err.message = format!("{} [{}]", err.message, sanitize(code));
        }
        Err(err)
    }
}

/// `VoteEngineResult`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VoteEngineResult {
    pub result: bool,
    #[serde(default)]
    pub message: Option<String>,
    #[serde(default)]
    pub is_error: bool,
    #[serde(default)]
    pub error_message: Option<String>,
}

/// `VoteEngine.UpVote`/`DownVote`'s answer when the caller's vote of that
/// kind is already there.
pub const ALREADY_VOTED: &str = "You have already voted!";

impl BusinessResult for VoteEngineResult {
    fn check(self, status: u16) -> Result<Self, ToolError> {
        if self.result && !self.is_error {
            return Ok(self);
        }
        let text = self.error_message.as_deref().or(self.message.as_deref());
        let mut err = rejected(status, text, "the vote was not recorded");
        if text == Some(ALREADY_VOTED) {
            err.code = ErrorCode::Conflict;
        }
        Err(err)
    }
}

/// `IdentityResult` / `OmbiIdentityResult`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IdentityResult {
    pub successful: bool,
    #[serde(default)]
    pub errors: Option<Vec<String>>,
}

impl BusinessResult for IdentityResult {
    fn check(self, status: u16) -> Result<Self, ToolError> {
        if self.successful {
            return Ok(self);
        }
        let joined = self.errors.as_deref().unwrap_or_default().join("; ");
        Err(rejected(
            status,
            Some(&joined),
            "the user change was not accepted",
        ))
    }
}

/// A bare `true` / `false` (issue status, tester results, deletes).
impl BusinessResult for bool {
    fn check(self, status: u16) -> Result<Self, ToolError> {
        if self {
            Ok(true)
        } else {
            Err(rejected(
                status,
                None,
                "Ombi answered false (nothing was changed, or the target does not exist)",
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resp(status: u16, ct: Option<&str>, body: &str, kind: Kind) -> UpstreamResponse {
        UpstreamResponse {
            status,
            content_type: ct.map(str::to_string),
            body: body.as_bytes().to_vec(),
            cut: false,
            retry_after: None,
            route: "POST api/v1/Request/movie".into(),
            kind,
        }
    }

    #[test]
    fn engine_results() {
        let ok: RequestEngineResult = serde_json::from_str(
            r#"{"result":true,"message":"X has been successfully added!","isError":false,"errorMessage":null,"errorCode":null,"requestId":12}"#,
        )
        .unwrap();
        assert_eq!(ok.clone().check(200).unwrap().request_id, 12);
        let dup: RequestEngineResult = serde_json::from_str(
            r#"{"result":false,"message":null,"isError":true,"errorMessage":"Request already exists","errorCode":"AlreadyRequested","requestId":0}"#,
        )
        .unwrap();
        let e = dup.check(200).unwrap_err();
        assert_eq!(e.code, ErrorCode::Conflict);
        assert_eq!(e.http_status, Some(200));
        let only_msg: RequestEngineResult =
            serde_json::from_str(r#"{"result":false,"isError":true,"errorMessage":"Server=db;Password=x","errorCode":null,"requestId":0}"#).unwrap();
        let e = only_msg.check(200).unwrap_err();
        assert_eq!(e.code, ErrorCode::UpstreamRejected);
        assert!(!e.message.contains("Password=x"));
        let tv_dup: RequestEngineResult = serde_json::from_str(
            r#"{"result":false,"isError":true,"errorMessage":"We already have episodes requested from series Dark","errorCode":null,"requestId":0}"#,
        )
        .unwrap();
        assert_eq!(tv_dup.check(200).unwrap_err().code, ErrorCode::Conflict);
        // The codes and texts of Ombi's refusals (RequestEngineResult.cs,
        // CanRequestRule.cs, RequestLimitRule.cs, the engines).
        for (code, text, want) in [
            (Some("NoPermissions"), "", ErrorCode::Forbidden),
            (
                None,
                "You do not have permissions to Request a TV Show",
                ErrorCode::Forbidden,
            ),
            (
                None,
                "You do not have the correct permissions!",
                ErrorCode::Forbidden,
            ),
            (
                Some("MovieRequestQuotaExceeded"),
                "You have exceeded your Movie request quota!",
                ErrorCode::RateLimited,
            ),
            (
                None,
                "You have exceeded your Episode request quota!",
                ErrorCode::RateLimited,
            ),
            (
                Some("ChildRequestDoesNotExist"),
                "Child Request does not exist",
                ErrorCode::NotFound,
            ),
            (None, "Request does not exist", ErrorCode::NotFound),
            (
                None,
                "There was an issue adding this movie!",
                ErrorCode::UpstreamRejected,
            ),
        ] {
            let r = RequestEngineResult {
                result: false,
                message: None,
                is_error: true,
                error_message: Some(text.into()).filter(|t: &String| !t.is_empty()),
                error_code: code.map(str::to_string),
                request_id: 0,
            };
            let e = r.check(200).unwrap_err();
            assert_eq!(e.code, want, "{code:?} {text}");
            assert!(!e.retryable);
        }
        let voted: VoteEngineResult = serde_json::from_str(
            r#"{"result":false,"isError":true,"errorMessage":"You have already voted!"}"#,
        )
        .unwrap();
        assert_eq!(voted.check(200).unwrap_err().code, ErrorCode::Conflict);
        assert!(false.check(200).is_err());
        let id: IdentityResult =
            serde_json::from_str(r#"{"errors":["Passwords must be 8 long"],"successful":false}"#)
                .unwrap();
        assert!(
            id.check(200)
                .unwrap_err()
                .message
                .contains("Passwords must be 8 long")
        );
    }

    #[test]
    fn statuses_and_payloads() {
        assert_eq!(
            resp(204, None, "", Kind::Read).payload().unwrap(),
            Payload::Null
        );
        assert_eq!(
            resp(200, None, "", Kind::Write).payload().unwrap(),
            Payload::Empty
        );
        let e = resp(200, Some("text/html"), "<html>", Kind::Read)
            .payload()
            .unwrap_err();
        assert_eq!(e.code, ErrorCode::UpstreamSchemaMismatch);
        let e = resp(401, Some("text/plain"), "Invalid API Key", Kind::Read)
            .payload()
            .unwrap_err();
        assert_eq!(
            (e.code, e.http_status),
            (ErrorCode::AuthenticationFailed, Some(401))
        );
        let e = resp(504, None, "", Kind::Write).payload().unwrap_err();
        assert_eq!((e.code, e.retryable), (ErrorCode::UnknownOutcome, false));
        let pd = r#"{"type":"x","title":"One or more validation errors occurred.","status":400,"traceId":"00-abc","errors":{"id":["The value 'x' is not valid."]}}"#;
        let e = resp(400, Some("application/problem+json"), pd, Kind::Read)
            .payload()
            .unwrap_err();
        assert!(
            e.message.contains("validation errors") && e.message.contains("id: The value"),
            "{}",
            e.message
        );
        assert!(!e.message.contains("traceId"));
        let bad = resp(200, Some("application/json"), "{\"x\":1}", Kind::Write);
        let e = bad.json::<RequestEngineResult>().unwrap_err();
        assert_eq!((e.code, e.retryable), (ErrorCode::UnknownOutcome, false));
    }
}
