//! The one place that talks to Ombi: HTTP client, session (JWT / API key),
//! bounded body reading, response interpretation and retry policy.
//!
//! A tool handler builds a [`Route`] and calls one typed helper:
//! [`Upstream::get_json`] (one object, `None` on 204), [`Upstream::get_array`]
//! (a list read under the 8 MiB cap, `cut` when it did not fit),
//! [`Upstream::get_text`] (logs), [`Upstream::write`] (a business result such as
//! [`RequestEngineResult`], failures already mapped to the contract's errors).

mod attempt;
pub mod body;
pub mod cache;
mod client;
pub mod directory;
pub mod interpret;
pub mod lists;
pub mod retry;
pub mod route;
pub mod session;
pub mod turns;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use reqwest::Url;
use reqwest::header::{ACCEPT, CONTENT_TYPE, HeaderMap};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use tokio::time::Instant;

pub use body::{ArrayScan, Bounded, MAX_BODY_BYTES};
pub use interpret::{
    BusinessResult, IdentityResult, Payload, RequestEngineResult, UpstreamResponse,
    VoteEngineResult,
};
pub use lists::{Collection, parse_array};
pub use route::{Accept, Kind, Route};

use crate::config::Config;
use crate::contract::{ErrorCode, ToolError};
use crate::secrets::SecretSource;
use crate::text::message;
pub use client::ClientError;
use client::HttpClient;
use session::{Credentials, Session};

/// The Ombi client shared by every call of the daemon.
pub struct Upstream {
    client: HttpClient,
    base: Url,
    timeout: Duration,
    session: Session,
    /// Where the password or API key came from (`attempt.rs`).
    secret_source: SecretSource,
    /// The `UserName` whose latest request was cut at the transport level
    /// (see [`unknown_user`]).
    cut_user: std::sync::Mutex<Option<String>>,
    /// Answers kept briefly (acting users, Ombi's user directory, title
    /// completions): the daemon's one home of caches.
    pub caches: cache::Caches,
    /// Calls in flight, daemon-wide and per peer.
    turns: turns::Turns,
}

impl std::fmt::Debug for Upstream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Upstream")
            .field("base", &self.base.as_str())
            .field("timeout", &self.timeout)
            .field("session", &self.session)
            .finish()
    }
}

/// A write's answer with its HTTP status ([`Upstream::write_answer`]).
#[derive(Debug)]
pub struct Answer<R> {
    pub value: R,
    pub status: u16,
}

/// Why one attempt failed: a transport error may be retried (reads), a
/// final error is returned as is.
enum AttemptError {
    Transport(reqwest::Error),
    /// A 401 status line, then the body broke off (see [`unknown_user`]).
    Cut401(reqwest::Error),
    Final(ToolError),
}

impl Upstream {
    /// The client for `config` (see `HttpClient` for when TLS is set up).
    pub fn new(config: &Config) -> Result<Upstream, ClientError> {
        Ok(Upstream {
            client: HttpClient::new(config)?,
            base: config.ombi_url.clone(),
            timeout: config.http_timeout,
            session: Session::from_config(&config.auth),
            secret_source: config.secret_source.clone(),
            cut_user: std::sync::Mutex::new(None),
            caches: cache::Caches::default(),
            turns: turns::Turns::default(),
        })
    }

    /// The Ombi user a call acting as `acting_user` is attributed to: the
    /// logged-in user (jwt), the `UserName` it sends (api_key: the peer's
    /// `ombi_user`, else `OMBI_USER_NAME`), or `None` for a bare API key,
    /// which Ombi treats as its internal `Api` user.
    pub fn attributed_user<'a>(&'a self, acting_user: Option<&'a str>) -> Option<&'a str> {
        match &self.session {
            Session::Jwt(j) => Some(&j.username),
            Session::ApiKey { user_name, .. } => acting_user.or(user_name.as_deref()),
        }
    }

    /// Whether this client authenticates with the API key (headers such as
    /// `ApiAlias` only count next to an `ApiKey` header).
    pub fn uses_api_key(&self) -> bool {
        matches!(self.session, Session::ApiKey { .. })
    }

    /// `OMBI_URL`, ending in `/`.
    pub fn base_url(&self) -> &Url {
        &self.base
    }

    /// How many times this client logged in (jwt; 0 in api_key mode).
    pub fn logins(&self) -> u64 {
        match &self.session {
            Session::Jwt(j) => j.logins(),
            Session::ApiKey { .. } => 0,
        }
    }

    /// Sends `route` acting as `acting_user` (api_key mode: the `UserName`
    /// header; ignored in jwt mode) and returns the raw answer, its body read
    /// under [`MAX_BODY_BYTES`]. The status is not interpreted here (see
    /// [`UpstreamResponse::payload`] / [`UpstreamResponse::json`]); errors are
    /// transport failures, the deadline, and (jwt) a failed login.
    pub async fn send(
        &self,
        acting_user: Option<&str>,
        route: Route,
    ) -> Result<UpstreamResponse, ToolError> {
        self.send_capped(acting_user, route, MAX_BODY_BYTES).await
    }

    /// [`Upstream::send`] with a smaller body cap.
    pub async fn send_capped(
        &self,
        acting_user: Option<&str>,
        route: Route,
        max_bytes: usize,
    ) -> Result<UpstreamResponse, ToolError> {
        self.send_inner(acting_user, &route, max_bytes.min(MAX_BODY_BYTES))
            .await
            .map_err(|e| self.scrub(e))
    }

    /// GET (or read-only POST) of one JSON value; `None` on 204 / empty 200.
    pub async fn get_json<T: DeserializeOwned>(
        &self,
        acting_user: Option<&str>,
        route: Route,
    ) -> Result<Option<T>, ToolError> {
        let resp = self.send(acting_user, route).await?;
        resp.json::<T>().map_err(|e| self.scrub(e))
    }

    /// A text body (logs): `Accept: text/plain`, at most `max_bytes`.
    pub async fn get_text(
        &self,
        acting_user: Option<&str>,
        route: Route,
        max_bytes: usize,
    ) -> Result<Bounded<String>, ToolError> {
        let resp = self
            .send_capped(acting_user, route.text(), max_bytes)
            .await?;
        let text = match resp.payload().map_err(|e| self.scrub(e))? {
            Payload::Null | Payload::Empty => String::new(),
            Payload::Text(b) => String::from_utf8_lossy(b).into_owned(),
            // Ombi answers a JSON string when it ignores our Accept.
            Payload::Json(b) => match serde_json::from_slice::<String>(b) {
                Ok(s) => s,
                Err(_) if resp.cut => {
                    String::from_utf8_lossy(b.strip_prefix(b"\"").unwrap_or(b)).into_owned()
                }
                Err(e) => return Err(self.scrub(resp.shape_error(&e))),
            },
        };
        Ok(Bounded {
            value: text,
            cut: resp.cut,
        })
    }

    /// A mutation answering a business result (`RequestEngineResult`,
    /// `VoteEngineResult`, `IdentityResult`, `bool`): failures on HTTP 200
    /// become `UPSTREAM_REJECTED` / `CONFLICT`; an answer we cannot read after
    /// the write was sent is `UNKNOWN_OUTCOME`.
    pub async fn write<R: BusinessResult>(
        &self,
        acting_user: Option<&str>,
        route: Route,
    ) -> Result<R, ToolError> {
        let answer = self.write_answer::<R>(acting_user, route).await?;
        answer.value.check(answer.status).map_err(|e| self.scrub(e))
    }

    /// [`Upstream::write`]'s verdict on an answer from
    /// [`Upstream::write_answer`], which stays available to the caller.
    pub fn check<R: BusinessResult + Clone>(&self, answer: &Answer<R>) -> Result<R, ToolError> {
        answer
            .value
            .clone()
            .check(answer.status)
            .map_err(|e| self.scrub(e))
    }

    /// A mutation's business result as Ombi answered it, not yet checked:
    /// for the tools that must look inside a failure (a create that was
    /// saved and then failed to send still carries its id). An empty answer
    /// after the write was sent is `UNKNOWN_OUTCOME`.
    pub async fn write_answer<R: DeserializeOwned>(
        &self,
        acting_user: Option<&str>,
        route: Route,
    ) -> Result<Answer<R>, ToolError> {
        let resp = self.send(acting_user, route).await?;
        let status = resp.status;
        match resp.json::<R>() {
            Ok(Some(value)) => Ok(Answer { value, status }),
            Ok(None) => Err(ToolError::new(
                ErrorCode::UnknownOutcome,
                format!(
                    "Ombi answered {} with no result ({status}); the change may or may not have been made: read before retrying",
                    resp.route
                ),
            )
            .retryable(false)
            .with_status(status)),
            Err(e) => Err(e),
        }
        .map_err(|e| self.scrub(e))
    }

    /// A mutation answering an entity (e.g. the new `IssueComments`), or
    /// nothing: `None` on 204 / empty 200 (the caller decides what that means).
    pub async fn write_json<T: DeserializeOwned>(
        &self,
        acting_user: Option<&str>,
        route: Route,
    ) -> Result<Option<T>, ToolError> {
        let resp = self.send(acting_user, route).await?;
        resp.json::<T>().map_err(|e| self.scrub(e))
    }

    /// For `ombi-mcpd --check-config`: proves the credentials with one login
    /// (jwt) or one authenticated GET (api_key) and says so in one line.
    pub async fn probe(&self) -> Result<String, ToolError> {
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Me {
            user_name: Option<String>,
        }
        let version = self
            .get_json::<String>(None, Route::get("api/v1/Status/info"))
            .await
            .ok()
            .flatten()
            .map(|v| format!(", Ombi {}", message::sanitize(&v)))
            .unwrap_or_default();
        match &self.session {
            Session::Jwt(j) => {
                let deadline = Instant::now() + self.timeout;
                let login = async || {
                    tokio::time::timeout_at(deadline, j.renew(self.client.get()?, &self.base, None))
                        .await
                        .map_err(|_| {
                            deadline_error("POST api/v1/Token", Kind::Read, self.timeout)
                        })?
                };
                let token = match login().await {
                    // A refused password: perhaps its file holds a new one.
                    Err(e) if e.http_status == Some(401) && self.rotated() => login().await,
                    other => other,
                }
                .map_err(|e| self.scrub(self.naming_source(e)))?;
                Ok(format!(
                    "logged in to Ombi at {} as {}{} (token valid until {})",
                    self.base,
                    j.username,
                    version,
                    session::format_utc(token.expires_at())
                ))
            }
            Session::ApiKey { user_name, .. } => {
                let me = self
                    .get_json::<Me>(None, Route::get("api/v1/Identity"))
                    .await?
                    .and_then(|m| m.user_name)
                    .unwrap_or_else(|| "an unknown user".into());
                let acting = match user_name {
                    Some(_) => format!("acting as {me} (OMBI_USER_NAME)"),
                    None => format!(
                        "acting as the system user {me} (no OMBI_USER_NAME: Admin rights, auto-approve)"
                    ),
                };
                Ok(format!(
                    "API key accepted by Ombi at {}{}; {}",
                    self.base, version, acting
                ))
            }
        }
    }

    /// Text from Ombi (a business message, a title) made safe to show:
    /// sanitized, bounded, and without any of our own secrets.
    pub fn clean(&self, raw: &str) -> String {
        self.session.scrub(&message::sanitize(raw))
    }

    fn scrub(&self, mut e: ToolError) -> ToolError {
        e.message = self.session.scrub(&e.message);
        e
    }

    async fn credentials(&self, acting: Option<&str>, own: bool) -> Result<Credentials, ToolError> {
        match &self.session {
            Session::Jwt(j) => j.credentials(self.client.get()?, &self.base).await,
            Session::ApiKey { user_name, .. } => Ok(Credentials {
                headers: session::api_key_headers(
                    &self.session.api_key().unwrap_or_default(),
                    user_name.as_deref(),
                    acting,
                    own,
                )?,
                generation: None,
            }),
        }
    }

    /// The `UserName` a call sends (api_key mode only).
    fn user_name<'a>(&'a self, acting_user: Option<&'a str>) -> Option<&'a str> {
        match &self.session {
            Session::ApiKey { user_name, .. } => {
                session::user_header(user_name.as_deref(), acting_user)
            }
            Session::Jwt(_) => None,
        }
    }

    /// Tracks requests carrying `user`: `cut` records a transport failure
    /// and says whether that user's previous request failed the same way;
    /// an answer clears the record.
    fn cut_again(&self, user: &str, cut: bool) -> bool {
        let mut last = self.cut_user.lock().unwrap_or_else(|p| p.into_inner());
        let again = last.as_deref() == Some(user);
        if cut {
            *last = Some(user.to_string());
        } else if again {
            *last = None;
        }
        cut && again
    }

    async fn send_inner(
        &self,
        acting_user: Option<&str>,
        route: &Route,
        cap: usize,
    ) -> Result<UpstreamResponse, ToolError> {
        let url = route.url(&self.base)?;
        let desc = route.to_string();
        let user = self.user_name(acting_user);
        let deadline = Instant::now() + self.timeout;
        let mut attempt = 0;
        // Whether the request itself left (not just the login before it):
        // a write that timed out before that point is safe to retry.
        let sent = AtomicBool::new(false);
        loop {
            let outcome = tokio::time::timeout_at(
                deadline,
                self.attempt(acting_user, route, &url, cap, &sent, deadline),
            )
            .await;
            let remaining = deadline.saturating_duration_since(Instant::now());
            let wait = match outcome {
                Err(_) => {
                    let kind = if sent.load(Ordering::SeqCst) {
                        route.kind
                    } else {
                        Kind::Read
                    };
                    return Err(deadline_error(&desc, kind, self.timeout));
                }
                Ok(Err(AttemptError::Final(e))) => return Err(e),
                // Ombi cuts the connection for an unknown UserName after a
                // 401 status line, or before any (docs/ombi-notes.md); a
                // refused connect is not that.
                Ok(Err(AttemptError::Cut401(_))) if user.is_some() => {
                    return Err(unknown_user(user.unwrap_or_default(), &desc, true));
                }
                Ok(Err(AttemptError::Transport(e) | AttemptError::Cut401(e))) => {
                    if let Some(u) = user
                        && !e.is_connect()
                        && self.cut_again(u, true)
                    {
                        return Err(unknown_user(u, &desc, false));
                    }
                    match retry::after_transport(route.kind, attempt, remaining) {
                        Some(wait) => wait,
                        None => return Err(transport_error(&e, &desc, route.kind)),
                    }
                }
                Ok(Ok(resp)) => {
                    if let Some(u) = user {
                        self.cut_again(u, false);
                    }
                    match retry::after_status(
                        route.kind,
                        attempt,
                        resp.status,
                        resp.retry_after,
                        remaining,
                    ) {
                        Some(wait) => wait,
                        None => return Ok(resp),
                    }
                }
            };
            tracing::debug!(route = %desc, attempt, ?wait, "retrying a read");
            tokio::time::sleep(wait).await;
            attempt += 1;
        }
    }

    async fn exchange(
        &self,
        route: &Route,
        url: &Url,
        desc: &str,
        auth: HeaderMap,
        cap: usize,
        sent: &AtomicBool,
    ) -> Result<UpstreamResponse, AttemptError> {
        let accept = match route.accept {
            Accept::Json => "application/json",
            Accept::Text => "text/plain",
        };
        let mut req = self
            .client
            .get()
            .map_err(AttemptError::Final)?
            .request(route.method.clone(), url.clone())
            .headers(auth)
            .header(ACCEPT, accept);
        for (name, value) in &route.headers {
            req = req.header(*name, value.as_str());
        }
        if let Some(Ok(body)) = &route.body {
            req = req
                .header(CONTENT_TYPE, "application/json")
                .body(body.clone());
        }
        sent.store(true, Ordering::SeqCst);
        let resp = req.send().await.map_err(AttemptError::Transport)?;
        let status = resp.status().as_u16();
        let header = |name| {
            resp.headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_string)
        };
        let content_type = header(CONTENT_TYPE);
        let retry_after = retry::retry_after(resp.headers());
        let (body, cut) = body::read_capped(resp, cap).await.map_err(|e| {
            if status == 401 {
                AttemptError::Cut401(e)
            } else {
                AttemptError::Transport(e)
            }
        })?;
        Ok(UpstreamResponse {
            status,
            content_type,
            body,
            cut,
            retry_after,
            route: desc.to_string(),
            kind: route.kind,
        })
    }
}

/// The call's deadline passed (the whole call, body included).
fn deadline_error(desc: &str, kind: Kind, timeout: Duration) -> ToolError {
    match kind {
        Kind::Read => ToolError::new(
            ErrorCode::Timeout,
            format!("Ombi did not answer {desc} within {} s (OMBI_HTTP_TIMEOUT)", timeout.as_secs()),
        ),
        Kind::Write => ToolError::new(
            ErrorCode::UnknownOutcome,
            format!(
                "Ombi did not answer {desc} within {} s after it was sent; the change may or may not have been made: read before retrying",
                timeout.as_secs()
            ),
        )
        .retryable(false),
    }
}

/// An unknown `UserName`: Ombi writes `401 Invalid User`, then throws and
/// cuts the connection (docs/ombi-notes.md). `after_401`: the status line
/// arrived; else the same user's requests failed twice in a row.
fn unknown_user(user: &str, desc: &str, after_401: bool) -> ToolError {
    let seen = if after_401 {
        format!("Ombi answered {desc} with 401 and cut the connection")
    } else {
        format!("the connection to Ombi failed twice in a row during {desc}")
    };
    let e = ToolError::new(
        ErrorCode::AuthenticationFailed,
        format!(
            "{seen} for the acting user {user:?}: Ombi does that when no user has the name sent in the UserName header (Invalid User); check OMBI_USER_NAME or the policy's ombi_user for this caller"
        ),
    )
    .retryable(false);
    if after_401 { e.with_status(401) } else { e }
}

/// A transport failure. Before the request left (connect failed) it is safe
/// to retry; after a write was sent, the outcome is unknown.
fn transport_error(e: &reqwest::Error, desc: &str, kind: Kind) -> ToolError {
    let mut cause = String::new();
    let mut src: Option<&dyn std::error::Error> = std::error::Error::source(e);
    while let Some(s) = src {
        cause = s.to_string();
        src = s.source();
    }
    let cause = message::sanitize(&cause);
    let cause = if cause.is_empty() {
        String::new()
    } else {
        format!(" ({cause})")
    };
    if e.is_connect() {
        return ToolError::new(
            ErrorCode::UpstreamRejected,
            format!(
                "cannot connect to Ombi for {desc}{cause}: is OMBI_URL right and Ombi running?"
            ),
        )
        .retryable(true);
    }
    match kind {
        Kind::Read => ToolError::new(
            ErrorCode::UpstreamRejected,
            format!("the connection to Ombi failed during {desc}{cause}"),
        )
        .retryable(true),
        Kind::Write => ToolError::new(
            ErrorCode::UnknownOutcome,
            format!(
                "the connection to Ombi failed after {desc} was sent{cause}; the change may or may not have been made: read before retrying"
            ),
        )
        .retryable(false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Env;

    fn upstream(url: &str) -> Upstream {
        let env = Env::from_pairs(vec![
            ("OMBI_URL", url),
            ("OMBI_AUTH_MODE", "api_key"),
            ("OMBI_API_KEY", "k123"),
        ]);
        let config = Config::from_env(&env, None).unwrap_or_else(|e| panic!("{e}"));
        Upstream::new(&config).unwrap_or_else(|e| panic!("{e}"))
    }

    /// TLS roots are loaded only for an https:// Ombi, and only once a call
    /// needs the client; an http:// Ombi's client is ready at once.
    #[tokio::test]
    async fn tls_roots_wait_for_the_first_https_call() {
        assert!(upstream("http://127.0.0.1:9/").client.built.get().is_some());
        let tls = upstream("https://127.0.0.1:9/");
        assert!(tls.client.built.get().is_none());
        // Port 9 refuses: the call fails in transport, after building the client.
        let failed = tls
            .get_json::<serde_json::Value>(None, Route::get("api/v1/Status"))
            .await;
        assert!(failed.is_err());
        assert!(tls.client.built.get().is_some());
    }
}
