//! [`CallCtx`]: what a handler gets for one call — who calls (the peer's
//! identity and the Ombi user it acts as), the call's id and cancel token,
//! the Ombi client and the confirmation engine — and who that acting user is
//! in Ombi (id, name, language), read once per five minutes
//! ([`crate::upstream::cache`]). Bounded reads are in `reads.rs`, the shapes
//! of results in `results.rs`.

use std::future::Future;
use std::sync::Arc;

use tokio_util::sync::CancellationToken;

use crate::confirm::{Confirmation, Confirmer, Proceed};
use crate::contract::{ErrorCode, ToolError};
use crate::policy::Identity;
use crate::upstream::{Route, Upstream};

pub use crate::upstream::directory::Me;

/// Everything a handler may use for one call.
pub struct CallCtx {
    /// Who called (bundles, read-only flag, acting Ombi user).
    pub identity: Arc<Identity>,
    /// Fresh for every call; also in the call's log line.
    pub correlation_id: String,
    /// Cancelled when the client cancels the call or the daemon shuts down.
    pub cancel: CancellationToken,
    /// The Ombi client (session, bounded reads, error mapping, caches).
    pub upstream: Arc<Upstream>,
    /// Whether and how to ask the person before a confirmed action.
    pub confirmer: Confirmer,
}

impl CallCtx {
    /// Asks the person before a confirmed action (`src/confirm.rs`): called
    /// after the arguments are validated and before anything is sent to
    /// Ombi; `question` (one bounded read naming the effect, then its words)
    /// runs only when the person is to be asked. An error means: send nothing.
    pub async fn confirm(
        &self,
        question: impl Future<Output = Result<Confirmation, ToolError>>,
    ) -> Result<Proceed, ToolError> {
        self.confirmer.confirm(question).await
    }

    /// The Ombi user this call acts as (api_key mode's `UserName`).
    pub fn acting(&self) -> Option<&str> {
        self.identity.ombi_user.as_deref()
    }

    /// The Ombi user this call is attributed to (`None`: a bare API key).
    pub fn ombi_user(&self) -> Option<&str> {
        self.upstream.attributed_user(self.acting())
    }

    /// The Ombi user for a write that must act as a real user (a vote, a
    /// comment, one's own preferences): with a bare API key Ombi would act as
    /// its shared internal `Api` user. Ombi has that user row and would
    /// accept most of these, but a vote, comment or preference of the shared
    /// `Api` user is nobody's in the household, so refuse up front (a product
    /// choice: docs/ombi-notes.md, "The bare API key acts as `Api`").
    pub fn require_ombi_user(&self) -> Result<&str, ToolError> {
        self.ombi_user().ok_or_else(|| {
            ToolError::new(
                ErrorCode::Forbidden,
                "this peer has no acting Ombi user, so this would be done as Ombi's shared internal \
                 `Api` user, and a vote, comment or preference of that user is nobody's: set \
                 `ombi_user` for this peer in the policy file, or OMBI_USER_NAME for the daemon \
                 (api_key mode)",
            )
        })
    }

    /// The acting user as Ombi shows them (`GET /api/v1/Identity`).
    pub async fn me(&self) -> Result<Me, ToolError> {
        self.get_json::<Me>(Route::get("api/v1/Identity"))
            .await?
            .ok_or_else(|| {
                ToolError::new(
                    ErrorCode::UpstreamSchemaMismatch,
                    "Ombi's GET api/v1/Identity answered nothing",
                )
            })
    }

    /// [`CallCtx::me`], as read within the last five minutes: for what does
    /// not change under a call (the user's id, name, language).
    pub async fn me_cached(&self) -> Result<Arc<Me>, ToolError> {
        let key = self.acting().map(str::to_string);
        let cache = &self.upstream.caches.acting_users;
        if let Some(me) = cache.get(&key) {
            return Ok(me);
        }
        let me = Arc::new(self.me().await?);
        cache.put(key, me.clone());
        Ok(me)
    }

    /// The acting user's Ombi id (a GUID).
    pub async fn caller_id(&self) -> Result<String, ToolError> {
        self.me()
            .await?
            .id
            .filter(|id| !id.trim().is_empty())
            .ok_or_else(|| {
                ToolError::new(
                    ErrorCode::UpstreamSchemaMismatch,
                    "Ombi's GET api/v1/Identity did not name the acting user's id",
                )
            })
    }

    /// The `languageCode` of a search body. Ombi's models default it to
    /// "en", whatever the user's language, so it is always sent: the caller's
    /// `language`, else the acting Ombi user's language. `None` only when the
    /// user has none (or it cannot be read): Ombi's "en" then applies.
    pub async fn body_language(&self, language: Option<&str>) -> Option<String> {
        if let Some(lang) = language {
            return Some(lang.to_string());
        }
        self.me_cached()
            .await
            .ok()
            .and_then(|u| u.language.clone())
            .filter(|l| !l.trim().is_empty())
    }

    /// Records the acting user's new language (after they changed it), so
    /// the next search uses it at once.
    pub fn remember_language(&self, language: &str) {
        let key = self.acting().map(str::to_string);
        self.upstream.caches.acting_users.update(&key, |me| {
            let mut changed = (**me).clone();
            changed.language = Some(language.to_string());
            *me = Arc::new(changed);
        });
    }
}
