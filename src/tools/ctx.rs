//! [`CallCtx`]: what a handler gets for one call, and the helpers every
//! handler shares, each worded once: the acting user, bounded list reads and
//! their read-limit warning, Ombi's `*/enabled` switches and the Lidarr gate,
//! "not found" (including the routes where Ombi answers an unknown id with a
//! 500), and the language a search body carries.

use std::future::Future;
use std::sync::Arc;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use crate::confirm::{Confirmation, Confirmer, Proceed};
use crate::contract::{ErrorCode, Failure, Family, Outcome, Reply, ToolError};
use crate::definition::Page;
use crate::policy::Identity;
use crate::projection::paging::{self, page_object};
use crate::projection::requests::WireRequestsViewModel;
use crate::upstream::{Answer, ArrayScan, Bounded, Payload, Route, Upstream};

/// Everything a handler may use for one call.
pub struct CallCtx {
    /// Who called (bundles, read-only flag, acting Ombi user).
    pub identity: Arc<Identity>,
    /// Fresh for every call; also in the call's log line.
    pub correlation_id: String,
    /// Cancelled when the client cancels the call or the daemon shuts down.
    pub cancel: CancellationToken,
    /// The Ombi client (session, bounded reads, error mapping).
    pub upstream: Arc<Upstream>,
    /// Whether and how to ask the person before a confirmed action.
    pub confirmer: Confirmer,
}

/// Ombi's switch for music (anonymous, a bool).
const LIDARR_ENABLED: &str = "api/v1/Lidarr/enabled";

/// Why a Lidarr-backed route cannot be used.
pub const NO_LIDARR: &str =
    "this needs Lidarr, which is not enabled in this Ombi (Settings → Lidarr)";

/// Notes a read cut by the upstream read limit, in the one wording.
pub fn note_read_limit(cut: bool, warnings: &mut Vec<String>) {
    if cut {
        warnings.push(
            "Ombi's answer exceeded the 8 MiB read limit; only the records read within it are used"
                .into(),
        );
    }
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
        let key = acting_key(self);
        if let Some(me) = ACTING_USERS.get(&key) {
            return Ok(me);
        }
        let me = Arc::new(self.me().await?);
        ACTING_USERS.put(key, me.clone());
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

    /// One JSON value (`None` for Ombi's 204/null).
    pub async fn get_json<T: DeserializeOwned>(
        &self,
        route: Route,
    ) -> Result<Option<T>, ToolError> {
        self.upstream.get_json(self.acting(), route).await
    }

    /// A write's answer as Ombi gave it, not yet checked, for the writes
    /// that interpret it themselves ([`Upstream::write_answer`]).
    pub async fn write_answer<R: DeserializeOwned>(
        &self,
        route: Route,
    ) -> Result<Answer<R>, ToolError> {
        self.upstream.write_answer(self.acting(), route).await
    }

    /// A top-level array read under the read cap; a cut read adds the
    /// read-limit warning (and leaves `cut` set for the caller's paging).
    pub async fn read_list<T: DeserializeOwned>(
        &self,
        route: Route,
        warnings: &mut Vec<String>,
    ) -> Result<Bounded<Vec<T>>, ToolError> {
        let got = self.upstream.get_array::<T>(self.acting(), route).await?;
        note_read_limit(got.cut, warnings);
        Ok(got)
    }

    /// `RequestsViewModel<T>` (`{collection, total}`), read under the cap.
    /// When the body was cut, the records that fit are walked out of
    /// `collection` (Ombi writes it before `total`) and the total is unknown;
    /// the caller notes the cut ([`note_read_limit`]) where it reports a page.
    pub async fn read_collection<T: DeserializeOwned>(
        &self,
        route: Route,
    ) -> Result<Collection<T>, ToolError> {
        let resp = self.upstream.send(self.acting(), route).await?;
        let bytes = match resp.payload()? {
            Payload::Null | Payload::Empty => return Ok(Collection::default()),
            Payload::Json(b) | Payload::Text(b) => b,
        };
        if !resp.cut {
            let vm: WireRequestsViewModel<T> =
                serde_json::from_slice(bytes).map_err(|e| resp.shape_error(&e))?;
            return Ok(Collection {
                items: vm.collection.unwrap_or_default(),
                total: vm.total,
                cut: false,
            });
        }
        let mismatch = || {
            ToolError::new(
                ErrorCode::UpstreamSchemaMismatch,
                format!(
                    "Ombi's answer to {} exceeded the 8 MiB read limit and has no readable collection",
                    resp.route
                ),
            )
        };
        let start = collection_start(bytes).ok_or_else(mismatch)?;
        let mut items = Vec::new();
        for element in ArrayScan::new(&bytes[start..]) {
            let element = element.map_err(|_| mismatch())?;
            items.push(serde_json::from_slice::<T>(element).map_err(|e| resp.shape_error(&e))?);
        }
        Ok(Collection {
            items,
            total: None,
            cut: true,
        })
    }

    /// One of Ombi's `*/enabled` switches; a missing answer counts as off.
    pub async fn switch_on(&self, path: &'static str) -> Result<bool, ToolError> {
        Ok(self
            .get_json::<bool>(Route::get(path))
            .await?
            .unwrap_or(false))
    }

    /// Whether Lidarr (music) is enabled.
    pub async fn lidarr_enabled(&self) -> Result<bool, ToolError> {
        self.switch_on(LIDARR_ENABLED).await
    }

    /// The v1 music search routes call Lidarr and answer a 500 without it:
    /// say why up front. (The v2 MusicBrainz lookups and the album request
    /// reads work without it: docs/ombi-notes.md.)
    pub async fn require_lidarr(&self) -> Result<(), ToolError> {
        if self.lidarr_enabled().await? {
            Ok(())
        } else {
            Err(ToolError::new(ErrorCode::UnsupportedCapability, NO_LIDARR))
        }
    }
}

/// The acting user as `GET /api/v1/Identity` shows them (`UserViewModel`):
/// only what the tools use.
#[derive(Debug, Clone, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Me {
    pub id: Option<String>,
    pub user_name: Option<String>,
    pub alias: Option<String>,
    pub language: Option<String>,
    pub streaming_country: Option<String>,
    /// Of the e-mail address only whether one is set.
    #[serde(
        default,
        rename = "emailAddress",
        deserialize_with = "crate::projection::users::is_set"
    )]
    pub has_email: bool,
}

impl Me {
    /// Ombi's `UserAlias`: the alias when set, else the user name (how
    /// Ombi's comments route names authors).
    pub fn display_name(&self) -> Option<&str> {
        self.alias
            .as_deref()
            .filter(|a| !a.is_empty())
            .or(self.user_name.as_deref())
            .filter(|n| !n.is_empty())
    }
}

/// A `RequestsViewModel` page as read.
#[derive(Debug)]
pub struct Collection<T> {
    pub items: Vec<T>,
    /// Ombi's `total`; `None` when the read was cut.
    pub total: Option<i64>,
    pub cut: bool,
}

impl<T> Default for Collection<T> {
    fn default() -> Self {
        Collection {
            items: Vec::new(),
            total: None,
            cut: false,
        }
    }
}

/// Byte offset of the `[` that opens the top-level `"collection"` value.
fn collection_start(b: &[u8]) -> Option<usize> {
    let key = b"\"collection\"";
    let at = b.windows(key.len()).position(|w| w == key)? + key.len();
    let rest = &b[at..];
    let colon = rest.iter().position(|c| !c.is_ascii_whitespace())?;
    if rest[colon] != b':' {
        return None;
    }
    let after = &rest[colon + 1..];
    let open = after.iter().position(|c| !c.is_ascii_whitespace())?;
    (after[open] == b'[').then_some(at + colon + 1 + open)
}

// ---------------------------------------------------------------- results

/// A successful result.
pub fn reply(data: Value, warnings: Vec<String>, truncated: bool) -> Reply {
    Reply::new(data, warnings, truncated)
}

/// A `family` page windowed locally out of one bounded array read. `cut`
/// (the read hit the cap) leaves the total unknown and marks it truncated.
pub fn local_page<T: Serialize>(
    family: Family,
    unit: &'static str,
    items: Vec<T>,
    page: Page,
    cut: bool,
    warnings: Vec<String>,
) -> Outcome {
    let w = paging::local(items, page, !cut, unit);
    let items = w
        .items
        .iter()
        .map(|i| serde_json::to_value(i).unwrap_or(Value::Null))
        .collect();
    Ok(reply(page_object(family, items, &w.page), warnings, cut))
}

/// A result with `data` of which one part could not be read (`first` says why).
pub fn partial(data: Value, first: ToolError, warnings: Vec<String>) -> Failure {
    Failure {
        error: ToolError::new(
            ErrorCode::PartialFailure,
            format!("only part of the answer could be read: {}", first.message),
        ),
        data: Some(data),
        warnings,
    }
}

/// NOT_FOUND for `what` ("movie request 12", "keyword 5").
pub fn not_found(what: &str) -> ToolError {
    ToolError::new(ErrorCode::NotFound, format!("{what} was not found"))
}

/// On the routes where Ombi dereferences a missing record (an unknown id
/// answers HTTP 500, see `docs/ombi-notes.md`), a 500 means NOT_FOUND; other
/// errors pass through. Use it only on those routes: elsewhere a 500 is a
/// real failure.
pub fn not_found_on_500(e: ToolError, what: &str) -> ToolError {
    if e.code == ErrorCode::UpstreamRejected && e.http_status == Some(500) {
        ToolError::new(
            ErrorCode::NotFound,
            format!(
                "{what} was not found (Ombi answers an unknown id on this route with HTTP 500)"
            ),
        )
        .with_status(500)
    } else {
        e
    }
}

// ---------------------------------------------------------------- language

/// The `languageCode` of a search body. Ombi's models default it to "en",
/// whatever the user's language, so it is always sent: the caller's
/// `language`, else the acting Ombi user's language. `None` only when the
/// user has none (or it cannot be read): Ombi's "en" then applies.
pub async fn body_language(ctx: &CallCtx, language: Option<&str>) -> Option<String> {
    if let Some(lang) = language {
        return Some(lang.to_string());
    }
    ctx.me_cached()
        .await
        .ok()
        .and_then(|u| u.language.clone())
        .filter(|l| !l.trim().is_empty())
}

/// Records the acting user's new language (after they changed it), so the
/// next search uses it at once.
pub fn remember_language(ctx: &CallCtx, language: &str) {
    let key = acting_key(ctx);
    if let Some(me) = ACTING_USERS.get(&key) {
        let mut me = (*me).clone();
        me.language = Some(language.to_string());
        ACTING_USERS.put(key, Arc::new(me));
    }
}

/// The cache key of the acting user: keyed by the Ombi instance too, as
/// one process may talk to several (tests).
fn acting_key(ctx: &CallCtx) -> String {
    format!(
        "{}\u{0}{}",
        ctx.upstream.base_url(),
        ctx.acting().unwrap_or("")
    )
}

/// The acting users as Ombi shows them, kept briefly so that a search (its
/// language) or a read under lockdown (who "I" am) costs one Ombi round
/// trip, not two; a change shows within the TTL. Failed reads are not kept.
static ACTING_USERS: ActingUsers = ActingUsers::new();

struct ActingUsers(std::sync::Mutex<Vec<(String, std::time::Instant, Arc<Me>)>>);

impl ActingUsers {
    const TTL: std::time::Duration = std::time::Duration::from_secs(300);
    /// Acting users are few (the policy's `ombi_user`s): a small list will do.
    const MAX: usize = 64;

    const fn new() -> Self {
        ActingUsers(std::sync::Mutex::new(Vec::new()))
    }

    fn get(&self, who: &str) -> Option<Arc<Me>> {
        let list = self.0.lock().unwrap_or_else(|p| p.into_inner());
        list.iter()
            .find(|(w, at, _)| w == who && at.elapsed() < Self::TTL)
            .map(|(_, _, me)| me.clone())
    }

    fn put(&self, who: String, me: Arc<Me>) {
        let mut list = self.0.lock().unwrap_or_else(|p| p.into_inner());
        list.retain(|(w, at, _)| *w != who && at.elapsed() < Self::TTL);
        if list.len() >= Self::MAX {
            list.remove(0);
        }
        list.push((who, std::time::Instant::now(), me));
    }
}

/// A note when a `language` argument cannot be passed on by the route.
pub fn language_ignored(language: Option<&str>, warnings: &mut Vec<String>) {
    if language.is_some() {
        warnings.push(
            "this Ombi route takes no language; titles come in the acting user's Ombi language"
                .into(),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::collection_start;

    #[test]
    fn finds_the_collection_array_in_a_cut_body() {
        let b = br#"{"collection" : [ {"id": 1}, {"id": 2"#;
        let at = collection_start(b).unwrap();
        assert_eq!(b[at], b'[');
        assert_eq!(collection_start(br#"{"total": 3}"#), None);
        assert_eq!(collection_start(br#"{"collection": null}"#), None);
    }
}
