//! One attempt of a call, and what a refused secret means. A 401 to a JWT
//! renews it once (another call may already have); a refused API key or
//! password is a rotated secret when it came from a file (`*_FILE`): the
//! file is read once more and, if it changed, the call goes again with it. A
//! 401 is answered before any controller runs, so resending a write is safe.
//! A secret still refused is `AUTHENTICATION_FAILED` naming where it comes
//! from (credential, file or variable: `SecretSource`).

use std::sync::atomic::AtomicBool;

use reqwest::Url;

use super::interpret::UpstreamResponse;
use super::route::Route;
use super::session::{self, Session};
use super::{AttemptError, Upstream};
use crate::contract::{ErrorCode, ToolError};
use crate::secrets;

/// Ombi's answer to a wrong `ApiKey` header (`ApiKeyMiddlewear`, before any
/// controller: docs/ombi-notes.md).
fn refuses_key(resp: &UpstreamResponse) -> bool {
    resp.status == 401 && resp.body.starts_with(b"Invalid API Key")
}

impl Upstream {
    /// One attempt, plus one resend after a renewed JWT or a rotated secret,
    /// within the call's `deadline`.
    pub(super) async fn attempt(
        &self,
        acting_user: Option<&str>,
        route: &Route,
        url: &Url,
        cap: usize,
        sent: &AtomicBool,
        deadline: tokio::time::Instant,
    ) -> Result<UpstreamResponse, AttemptError> {
        let desc = &route.to_string();
        let creds = match self.credentials(acting_user, route.own).await {
            // jwt: the login refused the password.
            Err(e) if e.http_status == Some(401) && self.rotated() => {
                self.credentials(acting_user, route.own).await
            }
            other => other,
        }
        .map_err(|e| AttemptError::Final(self.naming_source(e)))?;
        // After the login (one in flight for the daemon, shared): the turn
        // bounds the requests themselves, and a burst waiting for turns
        // still shares one login.
        let _turn = self
            .turns
            .take_by(deadline, self.timeout, desc)
            .await
            .map_err(AttemptError::Final)?;
        let resp = self
            .exchange(route, url, desc, creds.headers, cap, sent)
            .await?;
        let generation = match (&self.session, creds.generation) {
            (Session::ApiKey { .. }, _) => {
                if !refuses_key(&resp) {
                    return Ok(resp);
                }
                if !self.rotated() {
                    return Err(AttemptError::Final(self.key_refused()));
                }
                let creds = self
                    .credentials(acting_user, route.own)
                    .await
                    .map_err(AttemptError::Final)?;
                let resp = self
                    .exchange(route, url, desc, creds.headers, cap, sent)
                    .await?;
                return match refuses_key(&resp) {
                    true => Err(AttemptError::Final(self.key_refused())),
                    false => Ok(resp),
                };
            }
            (Session::Jwt(_), None) => return Ok(resp),
            (Session::Jwt(_), Some(generation)) => generation,
        };
        let Session::Jwt(j) = &self.session else {
            return Ok(resp);
        };
        if resp.status != 401 {
            j.accepted();
            return Ok(resp);
        }
        // The token was refused (expired early, key rotated, user changed):
        // log in once (unless another call already did) and resend once.
        let client = self.client.get().map_err(AttemptError::Final)?;
        let creds = match j.renew(client, &self.base, Some(generation)).await {
            Ok(token) => session::bearer(&token),
            // The login refused the password: perhaps a new one is in its file.
            Err(e) if e.http_status == Some(401) && self.rotated() => {
                self.credentials(acting_user, route.own).await
            }
            Err(e) => Err(e),
        }
        .map_err(|e| AttemptError::Final(self.naming_source(e)))?;
        let resp = self
            .exchange(route, url, desc, creds.headers, cap, sent)
            .await?;
        if resp.status == 401 {
            j.refused_fresh_token();
        } else {
            j.accepted();
        }
        Ok(resp)
    }

    /// Reads the secret's file again (only a `*_FILE` path can change under
    /// a running daemon). True when it holds a new secret, which is then in
    /// use. Also `SIGHUP`'s way to pick up a rotated secret.
    pub fn reread_secret(&self) -> Result<bool, String> {
        let Some(path) = self.secret_source.rereadable() else {
            return Ok(false);
        };
        let secret =
            secrets::read_secret_file(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(self.session.replace_secret(secret))
    }

    /// After Ombi refused the secret: whether its file now holds another.
    pub(super) fn rotated(&self) -> bool {
        match self.reread_secret() {
            Ok(changed) => {
                if changed {
                    tracing::info!(source = %self.secret_source, "Ombi refused the secret; its file holds a new one, trying that");
                }
                changed
            }
            Err(e) => {
                tracing::warn!("Ombi refused the secret, and its file cannot be read again: {e}");
                false
            }
        }
    }

    fn key_refused(&self) -> ToolError {
        ToolError::new(
            ErrorCode::AuthenticationFailed,
            format!(
                "Ombi rejected the API key (401 Invalid API Key); the key comes from {}",
                self.secret_source
            ),
        )
        .with_status(401)
    }

    /// A refused login names where the password comes from.
    pub(super) fn naming_source(&self, e: ToolError) -> ToolError {
        if e.code != ErrorCode::AuthenticationFailed || e.http_status != Some(401) {
            return e;
        }
        let message = format!(
            "{}; the password comes from {}",
            e.message, self.secret_source
        );
        ToolError { message, ..e }
    }
}
