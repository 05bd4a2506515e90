//! Ombi's authentication as the real server does it (docs/ombi-notes.md):
//! `POST /api/v1/Token`, Bearer validation with zero clock skew, the
//! `ApiKey` middleware (header or `apikey` query, compared case-insensitively,
//! 401 `Invalid API Key` on every /api path before routing) and `UserName`
//! impersonation (401 `Invalid User`, then a cut connection).

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use futures::StreamExt;

use super::{Call, Shared};

/// Who a request runs as.
#[derive(Clone, Debug, PartialEq)]
pub struct Principal {
    pub user_name: String,
    pub roles: Vec<String>,
    /// The ApiKey principal without `UserName` (roles Admin + ApiUser, acts as `Api`).
    pub api_user: bool,
}

impl Principal {
    pub fn has_role(&self, role: &str) -> bool {
        self.roles.iter().any(|r| r == role)
    }

    pub fn is_admin(&self) -> bool {
        self.has_role("Admin")
    }

    pub fn is_power_user(&self) -> bool {
        self.is_admin() || self.has_role("PowerUser")
    }
}

struct Issued {
    user_name: String,
    expires_at: SystemTime,
    epoch: u64,
}

#[derive(Default)]
pub struct TokenStore {
    tokens: Mutex<HashMap<String, Issued>>,
    epoch: AtomicU64,
    serial: AtomicU64,
}

impl TokenStore {
    pub fn invalidate_all(&self) {
        self.epoch.fetch_add(1, Ordering::SeqCst);
    }

    fn issue(&self, user_name: &str, lifetime: Duration) -> (String, SystemTime) {
        let n = self.serial.fetch_add(1, Ordering::SeqCst);
        // Shaped like a JWT (header.payload.signature) so sanitizers see one.
        let token = format!(
            "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ{n:x}{}.{}",
            uuid::Uuid::new_v4().simple(),
            uuid::Uuid::new_v4().simple()
        );
        let expires_at = SystemTime::now() + lifetime;
        self.tokens.lock().unwrap().insert(
            token.clone(),
            Issued {
                user_name: user_name.to_string(),
                expires_at,
                epoch: self.epoch.load(Ordering::SeqCst),
            },
        );
        (token, expires_at)
    }

    /// The user of a valid token; `Err(description)` otherwise.
    fn validate(&self, token: &str) -> Result<String, String> {
        let tokens = self.tokens.lock().unwrap();
        let Some(t) = tokens.get(token) else {
            return Err("The signature is invalid".into());
        };
        if t.epoch != self.epoch.load(Ordering::SeqCst) {
            return Err("The signature key was not found".into());
        }
        // ClockSkew = TimeSpan.Zero.
        if SystemTime::now() >= t.expires_at {
            return Err(format!("The token expired at '{}'", iso(t.expires_at)));
        }
        Ok(t.user_name.clone())
    }
}

/// `2026-05-09T10:11:12.1234567Z` (Newtonsoft writes 7 fraction digits when non-zero).
pub fn iso(t: SystemTime) -> String {
    let base = ombi_mcp::upstream::session::format_utc(t);
    let nanos = t
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        .subsec_nanos();
    if nanos == 0 {
        base
    } else {
        format!("{}.{:07}Z", base.trim_end_matches('Z'), nanos / 100)
    }
}

fn text_401(text: &str) -> Response {
    // Written straight to the response: no JSON content type.
    (
        StatusCode::UNAUTHORIZED,
        [(header::CONTENT_TYPE, "text/plain")],
        text.to_string(),
    )
        .into_response()
}

/// An unknown `UserName`: `ApiKeyMiddlewear` writes 401 `Invalid User`, then
/// goes on with a null user and throws; the response has started, so the
/// server can only abort the connection (docs/ombi-notes.md). The status
/// line and the text go out, then the body fails before it ends.
fn invalid_user() -> Response {
    let cut = futures::stream::once(async {
        // Let the status line and the text be flushed first.
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        Err::<axum::body::Bytes, _>(std::io::Error::new(
            std::io::ErrorKind::ConnectionAborted,
            "the response had started when Ombi threw",
        ))
    });
    let body =
        futures::stream::iter([Ok(axum::body::Bytes::from_static(b"Invalid User"))]).chain(cut);
    (
        StatusCode::UNAUTHORIZED,
        [(header::CONTENT_TYPE, "text/plain")],
        axum::body::Body::from_stream(body),
    )
        .into_response()
}

/// The JwtBearer challenge: 401, empty body.
pub fn challenge(error: Option<&str>) -> Response {
    let value = match error {
        Some(desc) => format!("Bearer error=\"invalid_token\", error_description=\"{desc}\""),
        None => "Bearer".to_string(),
    };
    (
        StatusCode::UNAUTHORIZED,
        [(header::WWW_AUTHENTICATE, value)],
    )
        .into_response()
}

/// Result of the middleware: a principal (maybe none), or the response that
/// ends the request. `Ok((principal, bearer_error))`.
pub type AuthOutcome = (Option<Principal>, Option<String>);

pub fn authenticate(shared: &Shared, call: &Call) -> Result<AuthOutcome, Box<Response>> {
    let opts = shared.options.lock().unwrap();
    let mut principal = None;
    if call.path.to_ascii_lowercase().starts_with("/api") {
        let key = call
            .headers
            .get("apikey")
            .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
            .or_else(|| {
                call.query
                    .iter()
                    .find(|(k, _)| k.eq_ignore_ascii_case("apikey"))
                    .map(|(_, v)| v.clone())
            });
        if let Some(key) = key {
            if !key.eq_ignore_ascii_case(&opts.api_key) {
                return Err(Box::new(text_401("Invalid API Key")));
            }
            match call.headers.get("username") {
                Some(v) => {
                    let wanted = String::from_utf8_lossy(v.as_bytes()).to_uppercase();
                    let user = opts
                        .users
                        .iter()
                        .find(|(u, _, _)| !wanted.is_empty() && u.to_uppercase() == wanted);
                    match user {
                        Some((u, _, roles)) => {
                            principal = Some(Principal {
                                user_name: u.clone(),
                                roles: roles.clone(),
                                api_user: false,
                            })
                        }
                        None => return Err(Box::new(invalid_user())),
                    }
                }
                None => {
                    principal = Some(Principal {
                        user_name: "Api".into(),
                        roles: vec!["Admin".into(), "ApiUser".into()],
                        api_user: true,
                    })
                }
            }
        }
    }
    // UseAuthentication runs after the ApiKey middleware: a valid JWT wins.
    let mut bearer_error = None;
    if let Some(auth) = call.headers.get(header::AUTHORIZATION) {
        let auth = String::from_utf8_lossy(auth.as_bytes());
        if let Some(token) = auth.strip_prefix("Bearer ") {
            match shared.auth.validate(token.trim()) {
                Ok(user) => {
                    let roles = opts
                        .users
                        .iter()
                        .find(|(u, _, _)| *u == user)
                        .map(|(_, _, r)| r.clone())
                        .unwrap_or_default();
                    principal = Some(Principal {
                        user_name: user,
                        roles,
                        api_user: false,
                    });
                }
                Err(e) => bearer_error = Some(e),
            }
        }
    }
    Ok((principal, bearer_error))
}

/// `POST /api/v1/Token` (TokenController.cs:63-113).
pub fn token(shared: &Shared, call: &Call) -> Response {
    #[derive(serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct UserAuthModel {
        username: Option<String>,
        password: Option<String>,
        #[serde(default)]
        remember_me: bool,
    }
    let Ok(model) = serde_json::from_slice::<UserAuthModel>(&call.body) else {
        return super::problem_400("model", "The model field is required.");
    };
    let opts = shared.options.lock().unwrap();
    let name = model.username.unwrap_or_default();
    let user = opts
        .users
        .iter()
        .find(|(u, _, _)| u.eq_ignore_ascii_case(&name));
    let Some((user, password, roles)) = user else {
        return StatusCode::UNAUTHORIZED.into_response();
    };
    if Some(password.as_str()) != model.password.as_deref() || roles.iter().any(|r| r == "Disabled")
    {
        return StatusCode::UNAUTHORIZED.into_response();
    }
    let lifetime = if model.remember_me {
        Duration::from_secs(365 * 24 * 3600)
    } else {
        opts.token_lifetime
    };
    let (token, expires_at) = shared.auth.issue(user, lifetime);
    super::json(serde_json::json!({ "access_token": token, "expiration": iso(expires_at) }))
}
