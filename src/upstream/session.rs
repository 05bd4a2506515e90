//! How each call is authenticated (an unknown `UserName`: docs/ombi-notes.md).
//!
//! jwt: `POST /api/v1/Token` once, keep the token, renew it by logging in
//! again before `expiration` (Ombi has no working refresh and zero clock
//! skew), and on a 401 renew once. Renewal is single-flight: concurrent calls
//! that find the token stale wait on one login (a generation counter tells a
//! waiter that someone else already renewed). After a failure (a login that
//! failed, or a fresh token Ombi refused at once) no login is tried for a
//! backoff that doubles per failure: calls meanwhile fail fast with the
//! failure's error, so an Ombi that is down or rejecting us sees no storm.
//!
//! api_key: header `ApiKey` (never the `apikey` query, which lands in access
//! logs), and `UserName` only when an acting user is known.

pub use crate::text::time::parse_utc;
use std::sync::Mutex as StdMutex;
use std::sync::RwLock as StdRwLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use reqwest::header::{AUTHORIZATION, HeaderMap, HeaderValue};
use serde::{Deserialize, Serialize};

use crate::config::AuthConfig;
use crate::contract::{ErrorCode, ToolError};
use crate::secrets::{ExposeSecret, SecretString};

/// Renew when less than this remains…
const RENEW_MARGIN_MAX: Duration = Duration::from_secs(5 * 60);
/// …or less than this share of the token's lifetime (short test tokens).
const RENEW_MARGIN_SHARE: u32 = 10;
/// No login for this long after the first failure, doubling per further
/// failure up to the cap.
const LOGIN_BACKOFF_FIRST: Duration = Duration::from_millis(500);
const LOGIN_BACKOFF_MAX: Duration = Duration::from_secs(30);

/// A JWT from `POST /api/v1/Token`.
pub(crate) struct Token {
    value: SecretString,
    expires_at: SystemTime,
    /// When to log in again (before `expires_at`).
    renew_at: SystemTime,
    generation: u64,
}

impl std::fmt::Debug for Token {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Token")
            .field("value", &"[REDACTED]")
            .field("expires_at", &format_utc(self.expires_at))
            .field("generation", &self.generation)
            .finish()
    }
}

/// The credentials one attempt carries.
pub(crate) struct Credentials {
    pub headers: HeaderMap,
    /// The token generation used (jwt), so a 401 renews only if nobody else has.
    pub generation: Option<u64>,
}

pub(crate) enum Session {
    Jwt(JwtSession),
    ApiKey {
        /// Replaced when the key file is read again (`Upstream::reread_secret`).
        key: StdRwLock<SecretString>,
        user_name: Option<String>,
    },
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Session::Jwt(j) => f
                .debug_struct("Jwt")
                .field("username", &j.username)
                .finish_non_exhaustive(),
            Session::ApiKey { user_name, .. } => f
                .debug_struct("ApiKey")
                .field("key", &"[REDACTED]")
                .field("user_name", user_name)
                .finish(),
        }
    }
}

pub(crate) struct JwtSession {
    pub username: String,
    /// Replaced when the password file is read again (`Upstream::reread_secret`).
    password: StdRwLock<SecretString>,
    token: StdMutex<Option<std::sync::Arc<Token>>>,
    /// Held while logging in: the single flight.
    renewing: tokio::sync::Mutex<()>,
    generation: AtomicU64,
    logins: AtomicU64,
    /// Logins completed (counted after `failure` is stored).
    finished: AtomicU64,
    failure: StdMutex<Failure>,
}

/// The latest authentication failure and the backoff it started.
#[derive(Default)]
struct Failure {
    /// Shared with the calls that waited on the failed login and with the
    /// calls turned away during the backoff.
    error: Option<ToolError>,
    /// Failures in a row (reset once Ombi accepts a token).
    count: u32,
    /// No login before this.
    retry_at: Option<tokio::time::Instant>,
}

impl Failure {
    fn record(&mut self, error: ToolError) {
        self.count = self.count.saturating_add(1);
        let backoff = LOGIN_BACKOFF_FIRST
            .saturating_mul(1 << (self.count - 1).min(16))
            .min(LOGIN_BACKOFF_MAX);
        self.retry_at = Some(tokio::time::Instant::now() + backoff);
        self.error = Some(error);
    }

    /// The error to fail fast with while backing off.
    fn backing_off(&self) -> Option<ToolError> {
        let until = self.retry_at?;
        (tokio::time::Instant::now() < until).then(|| self.error.clone())?
    }
}

/// Records a failure if a login is dropped before it ends (the call's
/// deadline passed, or the call was cancelled), so the next call backs off
/// instead of starting another login into a hanging Ombi.
struct LoginInFlight<'a>(Option<&'a JwtSession>);

impl Drop for LoginInFlight<'_> {
    fn drop(&mut self) {
        if let Some(j) = self.0 {
            j.failed(ToolError::new(
                ErrorCode::Timeout,
                "the login to Ombi (POST api/v1/Token) did not finish in time",
            ));
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct LoginBody<'a> {
    username: &'a str,
    password: &'a str,
    remember_me: bool,
}

#[derive(Deserialize)]
struct TokenBody {
    access_token: Option<String>,
    expiration: Option<String>,
}

impl Session {
    pub fn from_config(auth: &AuthConfig) -> Session {
        match auth {
            AuthConfig::Jwt { username, password } => Session::Jwt(JwtSession {
                username: username.clone(),
                password: StdRwLock::new(password.clone()),
                token: StdMutex::new(None),
                renewing: tokio::sync::Mutex::new(()),
                generation: AtomicU64::new(0),
                logins: AtomicU64::new(0),
                finished: AtomicU64::new(0),
                failure: StdMutex::new(Failure::default()),
            }),
            AuthConfig::ApiKey { key, user_name } => Session::ApiKey {
                key: StdRwLock::new(key.clone()),
                user_name: user_name.clone(),
            },
        }
    }

    /// Replaces the configured password / API key and the current JWT in
    /// `text` (a last line of defence after sanitizing).
    pub fn scrub(&self, text: &str) -> String {
        let mut out = text.to_string();
        let mut hide = |secret: &str| {
            if secret.len() >= 3 && out.contains(secret) {
                out = out.replace(secret, "[redacted]");
            }
        };
        match self {
            Session::Jwt(j) => {
                if let Some(t) = j.current() {
                    hide(t.value.expose_secret());
                }
                hide(read(&j.password).expose_secret());
            }
            Session::ApiKey { key, .. } => hide(read(key).expose_secret()),
        }
        out
    }

    /// The API key in use (api_key mode).
    pub fn api_key(&self) -> Option<SecretString> {
        match self {
            Session::ApiKey { key, .. } => Some(read(key).clone()),
            Session::Jwt(_) => None,
        }
    }

    /// Puts a secret read again in place of the password or API key. True
    /// when it differs: then a jwt session forgets its token and the failed
    /// logins' back-off, so the next call logs in with it at once.
    pub fn replace_secret(&self, new: SecretString) -> bool {
        let slot = match self {
            Session::Jwt(j) => &j.password,
            Session::ApiKey { key, .. } => key,
        };
        let mut current = slot.write().unwrap_or_else(|p| p.into_inner());
        if current.expose_secret() == new.expose_secret() {
            return false;
        }
        *current = new;
        drop(current);
        if let Session::Jwt(j) = self {
            *j.token.lock().unwrap_or_else(|p| p.into_inner()) = None;
            *j.failure.lock().unwrap_or_else(|p| p.into_inner()) = Failure::default();
        }
        true
    }
}

fn read(slot: &StdRwLock<SecretString>) -> std::sync::RwLockReadGuard<'_, SecretString> {
    slot.read().unwrap_or_else(|p| p.into_inner())
}

/// A sensitive header value (never printed by `Debug`, kept out of HPACK tables).
fn sensitive(value: &str) -> Result<HeaderValue, ToolError> {
    let mut v = HeaderValue::from_str(value).map_err(|_| {
        ToolError::new(
            ErrorCode::AuthenticationFailed,
            "the configured credential contains characters an HTTP header cannot carry",
        )
    })?;
    v.set_sensitive(true);
    Ok(v)
}

/// The `UserName` an api_key call sends: the acting user (the peer's
/// `ombi_user`), else the configured `OMBI_USER_NAME`, else none.
pub(crate) fn user_header<'a>(
    configured_user: Option<&'a str>,
    acting_user: Option<&'a str>,
) -> Option<&'a str> {
    acting_user
        .filter(|u| !u.trim().is_empty())
        .or(configured_user.filter(|u| !u.trim().is_empty()))
        .map(str::trim)
}

/// api_key headers for a call acting as `acting_user` (see [`user_header`]);
/// with `own`, the key alone (the daemon's own read, `Route::own`).
pub(crate) fn api_key_headers(
    key: &SecretString,
    configured_user: Option<&str>,
    acting_user: Option<&str>,
    own: bool,
) -> Result<HeaderMap, ToolError> {
    let mut h = HeaderMap::new();
    h.insert("ApiKey", sensitive(key.expose_secret())?);
    if let Some(user) = user_header(configured_user, acting_user).filter(|_| !own) {
        let v = HeaderValue::from_str(user).map_err(|_| {
            ToolError::new(
                ErrorCode::AuthenticationFailed,
                "the acting Ombi user name contains characters an HTTP header cannot carry",
            )
        })?;
        h.insert("UserName", v);
    }
    Ok(h)
}

/// `Authorization: Bearer <jwt>`, marked sensitive.
pub(crate) fn bearer(token: &Token) -> Result<Credentials, ToolError> {
    let mut headers = HeaderMap::new();
    headers.insert(
        AUTHORIZATION,
        sensitive(&format!("Bearer {}", token.value.expose_secret()))?,
    );
    Ok(Credentials {
        headers,
        generation: Some(token.generation),
    })
}

impl JwtSession {
    fn current(&self) -> Option<std::sync::Arc<Token>> {
        self.token.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    pub fn logins(&self) -> u64 {
        self.logins.load(Ordering::SeqCst)
    }

    fn failure(&self) -> std::sync::MutexGuard<'_, Failure> {
        self.failure.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn failed(&self, error: ToolError) {
        self.failure().record(error);
        self.finished.fetch_add(1, Ordering::SeqCst);
    }

    /// Ombi accepted a token: the failures in a row are over.
    pub fn accepted(&self) {
        let mut f = self.failure();
        if f.count != 0 {
            *f = Failure::default();
        }
    }

    /// Ombi refused a token it had just issued (401 right after a login):
    /// logging in again at once would only repeat that, so back off.
    pub fn refused_fresh_token(&self) {
        self.failure().record(
            ToolError::new(
                ErrorCode::AuthenticationFailed,
                format!(
                    "Ombi refuses the token it issues to {:?} (401 right after logging in)",
                    self.username
                ),
            )
            .with_status(401),
        );
    }

    /// A fresh token's header, logging in when there is none or it is due.
    pub async fn credentials(
        &self,
        client: &reqwest::Client,
        base: &reqwest::Url,
    ) -> Result<Credentials, ToolError> {
        let token = match self.current() {
            Some(t) if SystemTime::now() < t.renew_at => t,
            stale => {
                self.renew(client, base, stale.map(|t| t.generation))
                    .await?
            }
        };
        bearer(&token)
    }

    /// Logs in unless someone else already replaced generation `seen`.
    ///
    /// Waiters share the outcome of the login they waited for, failures
    /// included: 50 calls with a wrong password make one login, not 50. While
    /// backing off after a failure, calls get its error without a login.
    pub async fn renew(
        &self,
        client: &reqwest::Client,
        base: &reqwest::Url,
        seen: Option<u64>,
    ) -> Result<std::sync::Arc<Token>, ToolError> {
        let finished_seen = self.finished.load(Ordering::SeqCst);
        let _flight = self.renewing.lock().await;
        if let Some(t) = self.current()
            && Some(t.generation) != seen
            && SystemTime::now() < t.renew_at
        {
            return Ok(t);
        }
        {
            let failure = self.failure();
            if self.finished.load(Ordering::SeqCst) != finished_seen
                && let Some(e) = &failure.error
            {
                return Err(e.clone());
            }
            if let Some(e) = failure.backing_off() {
                return Err(e);
            }
        }
        let mut in_flight = LoginInFlight(Some(self));
        let outcome = self.login(client, base).await;
        in_flight.0 = None;
        match outcome {
            Ok(token) => {
                let token = std::sync::Arc::new(token);
                *self.token.lock().unwrap_or_else(|p| p.into_inner()) = Some(token.clone());
                let mut failure = self.failure();
                failure.error = None;
                failure.retry_at = None;
                drop(failure);
                self.finished.fetch_add(1, Ordering::SeqCst);
                Ok(token)
            }
            Err(e) => {
                self.failed(e.clone());
                Err(e)
            }
        }
    }

    async fn login(
        &self,
        client: &reqwest::Client,
        base: &reqwest::Url,
    ) -> Result<Token, ToolError> {
        self.logins.fetch_add(1, Ordering::SeqCst);
        let url = base
            .join("api/v1/Token")
            .map_err(|_| ToolError::internal("cannot build the login URL"))?;
        let body = {
            let password = read(&self.password);
            serde_json::to_vec(&LoginBody {
                username: &self.username,
                password: password.expose_secret(),
                remember_me: false,
            })
            .map_err(|_| ToolError::internal("cannot encode the login body"))?
        };
        let body = zeroize::Zeroizing::new(body);
        let resp = client
            .post(url)
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .header(reqwest::header::ACCEPT, "application/json")
            .body(body.to_vec())
            .send()
            .await
            .map_err(|e| super::transport_error(&e, "POST api/v1/Token", super::Kind::Read))?;
        let status = resp.status().as_u16();
        if status == 401 {
            return Err(ToolError::new(
                ErrorCode::AuthenticationFailed,
                format!(
                    "Ombi refused the login for user {:?} (401): wrong user name or password, or the user is disabled",
                    self.username
                ),
            )
            .with_status(401));
        }
        if !(200..300).contains(&status) {
            // Ombi answers every refused login with 401 (above; see
            // docs/ombi-notes.md). Any other status is Ombi failing or a proxy
            // in front of it (503 while Ombi starts, 429, 502): not the
            // credentials, so the general status rules say what it is.
            // Ombi's text is left out (not even read): a login answer may
            // echo what it was sent.
            let answer = super::UpstreamResponse {
                status,
                content_type: None,
                body: Vec::new(),
                cut: false,
                retry_after: super::retry::retry_after(resp.headers()),
                route: "POST api/v1/Token".into(),
                kind: super::Kind::Read,
            };
            return Err(answer.status_error());
        }
        let (bytes, _) = super::body::read_capped(resp, 64 * 1024)
            .await
            .map_err(|e| super::transport_error(&e, "POST api/v1/Token", super::Kind::Read))?;
        let parsed: TokenBody = serde_json::from_slice(&bytes).map_err(|_| {
            ToolError::new(
                ErrorCode::UpstreamSchemaMismatch,
                "Ombi's login answer is not {access_token, expiration} (is OMBI_URL an Ombi server?)",
            )
            .with_status(status)
        })?;
        let (Some(value), Some(expiration)) = (parsed.access_token, parsed.expiration) else {
            return Err(ToolError::new(
                ErrorCode::AuthenticationFailed,
                "Ombi's login answer carries no token (Plex OAuth users cannot log in with a password)",
            )
            .with_status(status));
        };
        let now = SystemTime::now();
        let expires_at = parse_utc(&expiration).ok_or_else(|| {
            ToolError::new(
                ErrorCode::UpstreamSchemaMismatch,
                "Ombi's login answer has an expiration that is not an ISO-8601 UTC time",
            )
        })?;
        let lifetime = expires_at.duration_since(now).unwrap_or_default();
        let margin = RENEW_MARGIN_MAX.min(lifetime / RENEW_MARGIN_SHARE);
        Ok(Token {
            value: SecretString::from(value),
            expires_at,
            renew_at: expires_at - margin,
            generation: self.generation.fetch_add(1, Ordering::Relaxed) + 1,
        })
    }
}

impl Token {
    pub fn expires_at(&self) -> SystemTime {
        self.expires_at
    }
}

/// `YYYY-MM-DDTHH:MM:SSZ`, for summaries and the fake's `expiration`.
pub fn format_utc(t: SystemTime) -> String {
    let secs = t.duration_since(UNIX_EPOCH).unwrap_or_default().as_secs() as i64;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Inverse of text::time's days_from_civil.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = if m <= 2 { y + 1 } else { y };
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_ombi_expirations() {
        let t = parse_utc("2026-05-09T10:11:12Z").unwrap();
        assert_eq!(
            t.duration_since(UNIX_EPOCH).unwrap().as_secs(),
            1_778_321_472
        );
        assert_eq!(format_utc(t), "2026-05-09T10:11:12Z");
        let f = parse_utc("2024-02-29T23:59:59.1234567Z").unwrap();
        assert_eq!(
            f.duration_since(UNIX_EPOCH).unwrap().subsec_nanos(),
            123_456_700
        );
        assert_eq!(format_utc(f), "2024-02-29T23:59:59Z");
        for bad in [
            "2026-05-09 10:11:12Z",
            "2026-13-01T00:00:00Z",
            "2026-05-09T10:11:12",
            "x",
            "2026-05-09T10:11:1xZ",
        ] {
            assert!(parse_utc(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn api_key_headers_never_send_an_empty_user() {
        let key = SecretString::from("k".to_string());
        let h = api_key_headers(&key, None, Some("  "), false).unwrap();
        assert!(h.get("UserName").is_none());
        assert!(h.get("ApiKey").unwrap().is_sensitive());
        let h = api_key_headers(&key, Some("bob"), Some("alice"), false).unwrap();
        assert_eq!(h.get("UserName").unwrap(), "alice");
        let h = api_key_headers(&key, Some("bob"), None, false).unwrap();
        assert_eq!(h.get("UserName").unwrap(), "bob");
        let h = api_key_headers(&key, Some("bob"), Some("alice"), true).unwrap();
        assert!(h.get("UserName").is_none(), "the daemon's own read");
    }
}
