//! Other users' movie requests withheld where Ombi leaks them. With Ombi's
//! `HideRequestsUsers` on, a user without Admin or PowerUser sees only their
//! own requests in Ombi's lists, TV children and albums
//! (`BaseMediaEngine.HideFromOtherUsers`), but `MovieRequestEngine.GetRequest`
//! (`GET api/v1/Request/movie/info/{id}`) and `GET api/v2/Search/movie/request/{id}`
//! return any movie request by id (a TODO in Ombi's code). Every read of a
//! movie request by id goes through `check_movie`, so tools, resources,
//! subscriptions and `read_media` answer such a request as Ombi answers an
//! unknown id (docs/ombi-notes.md, "Hide-requests and movie requests by id").

use serde::Deserialize;

use crate::contract::{ErrorCode, ToolError};
use crate::projection::requests::WireMovieRequest;
use crate::tools::{CallCtx, not_found_on_500, view};
use crate::upstream::Route;
use crate::upstream::directory::FAILED;

/// Whether Ombi's `HideRequestsUsers` narrows what this acting user sees.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Hiding {
    /// Hiding is off, or the user is exempt (Admin, PowerUser, Ombi's `Api`).
    Off,
    /// On, for the user with this Ombi id (`None`: not read).
    On(Option<String>),
    /// The setting could not be read with the daemon's credentials: what
    /// Ombi's own filtered list shows the user decides.
    Unknown(Option<String>),
}

/// The part of `OmbiSettings` this needs.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct WireOmbiSettings {
    #[serde(default)]
    hide_requests_users: bool,
}

/// `HideRequestsUsers`, read with the daemon's own credentials (`GET
/// api/v1/Settings/ombi` is `[Admin]`: the bare API key can, a plain jwt
/// login cannot), kept five minutes (a failed read 30 s).
async fn hide_setting(ctx: &CallCtx) -> Option<bool> {
    let cache = &ctx.upstream.caches.hide_requests;
    if let Some(known) = cache.get(&()).filter(Option::is_some) {
        return known;
    }
    if let Some(failed) = cache.get_within(&(), FAILED) {
        return failed;
    }
    let read = ctx
        .upstream
        .get_json::<WireOmbiSettings>(None, Route::get("api/v1/Settings/ombi").own())
        .await;
    let hide = read.ok().flatten().map(|s| s.hide_requests_users);
    cache.put((), hide);
    hide
}

async fn hiding(ctx: &CallCtx) -> Hiding {
    if let view::Roles::Known { held, .. } = view::roles(ctx).await
        && held.trusted()
    {
        return Hiding::Off;
    }
    let me = ctx
        .me_cached()
        .await
        .ok()
        .and_then(|m| m.id.clone())
        .filter(|id| !id.is_empty());
    match hide_setting(ctx).await {
        Some(false) => Hiding::Off,
        Some(true) => Hiding::On(me),
        None => Hiding::Unknown(me),
    }
}

/// Whether the acting user may see movie request `r` (id `id`) through the
/// daemon: their own always; another user's when hiding is off or they are
/// exempt; with the setting unknown, when Ombi's own filtered search of
/// movie requests by its title shows it to them.
pub async fn shows_movie(ctx: &CallCtx, id: i64, r: &WireMovieRequest) -> Result<bool, ToolError> {
    let mine = |me: &Option<String>| me.is_some() && *me == r.requested_user_id;
    match hiding(ctx).await {
        Hiding::Off => Ok(true),
        Hiding::On(me) => Ok(mine(&me)),
        Hiding::Unknown(me) if mine(&me) => Ok(true),
        Hiding::Unknown(_) => {
            let Some(title) = r.title.as_deref().filter(|t| !t.trim().is_empty()) else {
                return Ok(false);
            };
            let rows = ctx
                .upstream
                .get_array::<WireId>(
                    ctx.acting(),
                    Route::get("api/v1/Request/movie/search").seg(title),
                )
                .await?;
            Ok(rows.value.iter().any(|row| row.id == Some(id)))
        }
    }
}

#[derive(Deserialize)]
struct WireId {
    id: Option<i64>,
}

/// `r` when the acting user may see it, else NOT_FOUND in the words Ombi's
/// unknown id gets (the request's existence is not told either).
pub async fn check_movie(
    ctx: &CallCtx,
    id: i64,
    r: WireMovieRequest,
) -> Result<WireMovieRequest, ToolError> {
    if shows_movie(ctx, id, &r).await? {
        Ok(r)
    } else {
        Err(withheld(id))
    }
}

/// Checks movie request `id` before a route that shows what it is about
/// (`GET api/v2/Search/movie/request/{id}`): read only when hiding applies.
pub async fn check_movie_id(ctx: &CallCtx, id: i64) -> Result<(), ToolError> {
    if hiding(ctx).await == Hiding::Off {
        return Ok(());
    }
    let r = super::reads::movie_as_ombi_answers(ctx, id).await?;
    check_movie(ctx, id, r).await.map(|_| ())
}

/// The NOT_FOUND of a movie request Ombi does not have.
pub fn withheld(id: i64) -> ToolError {
    let unknown = ToolError::new(ErrorCode::UpstreamRejected, "").with_status(500);
    not_found_on_500(unknown, &format!("movie request {id}"))
}
