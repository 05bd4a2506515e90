//! `write_request_create`: request a movie, TV seasons or episodes, an album
//! or a whole movie collection. Ombi's answer does not always say what
//! happened (a create can be approved at once; `result: false` can come back
//! for a request that was saved; a collection answers with its first part's
//! id only), so every outcome reported here is read back from Ombi (see
//! `docs/ombi-notes.md`, "Requests are saved before they are sent" and
//! "Details routes show a title's request state").

mod album;
mod collection;
mod created;
mod movie;
mod tv;

use album::album;
use collection::collection;
use movie::{MovieBody, movie};
use tv::{TvBody, tv};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::contract::{ErrorCode, Family, Outcome, ToolError};
use crate::definition::params::*;
use crate::definition::shape::{ArgDefault, Field, Ty};
use crate::definition::{Bundle, ToolActions, ToolDef};
use crate::projection::media::{TvDetail, WireCollection};
use crate::projection::mutation::{ItemResult, Mutation, Outcome as Done};
use crate::projection::server_info::{WireFeature, feature_enabled};
use crate::tools::requests::reads::existing_request;
use crate::tools::requests::reads::quota_of;
use crate::tools::requests::words::{request_name, show_in_words, state_phrase};
use crate::tools::users::accounts::accounts;
use crate::tools::writes::{note_api_user, partly_done};
use crate::tools::{Actions, CallCtx, Tool};
use crate::tools::{not_found, not_found_on_null_dereference};
use crate::upstream::Route;

const ON_BEHALF_USER_ID: Field = Field::opt(
    "on_behalf_user_id",
    Ty::Str { min: 1, max: 64 },
    "Request for this user (id from read_users); PowerUser or Admin only.",
);
const REQUESTED_BY_ALIAS: Field = Field::opt(
    "requested_by_alias",
    Ty::Str { min: 1, max: 100 },
    "Name shown as the requester (api_key mode only).",
);
const ID: Field = Field::opt("id", Ty::ID, "The show's id in `provider`'s namespace.");
const PROVIDER: Field = Field::opt(
    "provider",
    Ty::Enum(&["tmdb", "tvdb"]),
    "The namespace of `id`.",
)
.default(ArgDefault::Str("tmdb"));

pub static TOOL: Tool = Tool::new::<Action>(ToolDef {
    name: "write_request_create",
    title: "Request media",
    bundle: Bundle::Core,
    destructive: false,
    description: "Request a movie, TV seasons or episodes, an album or a movie collection. The result says whether Ombi approved it at once (Ombi then sends it to Radarr/Sonarr/Lidarr). Check read_media or read_search first: it may be available already.",
    families: &[Family::Mutation],
    check: Some(request_create_rules),
    ..ToolDef::BASE
})
.examples(&[
    (r#"{"action": "movie", "tmdb_id": 27205}"#, true),
])
.invalid(&[
    (r#"{"action": "movie", "tmdb_id": 603, "is_4k": "yes"}"#, "/is_4k"),
    (r#"{"action": "tv", "id": 1, "selection": {"mode": "season"}}"#, "/selection/season_numbers"),
    (r#"{"action": "tv", "id": 1, "selection": {"mode": "season", "season_numbers": [1, -1]}}"#, "/selection/season_numbers/1"),
    (r#"{"action": "tv", "id": 1, "selection": {"mode": "episodes", "seasons": [{"season_number": 1}]}}"#, "/selection/seasons/0/episodes"),
    (r#"{"action": "tv", "id": 1, "selection": {"mode": "all", "season_numbers": [1]}}"#, "/selection/season_numbers"),
    (r#"{"action": "tv", "id": 1, "selection": {"mode": "all"}, "provider": "imdb"}"#, "/provider"),
    (r#"{"action": "tv", "id": 1}"#, "/selection"),
    (r#"{"action": "movie", "tmdb_id": 603, "overrides": {"root_folder": 1}}"#, "/overrides/root_folder"),
    (r#"{"action": "album", "musicbrainz_id": "x", "is_4k": true}"#, "/is_4k"),
    (r#"{"action": "tv", "id": 1, "selection": {"mode": "episodes", "seasons": [{"season_number": 1, "episodes": [1], "episode": 2}]}}"#, "/selection/seasons/0/episode"),
    (r#"{"action": "tv", "id": 1, "selection": {"mode": "episodes", "seasons": [{"season_number": 1, "episodes": [1, 0]}]}}"#, "/selection/seasons/0/episodes/1"),
    (r#"{"action": "movie", "tmdb_id": 2147483648}"#, "/tmdb_id"),
]);

/// The actions, as validated arguments deserialize into them.
#[derive(Deserialize, ToolActions)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
enum Action {
    /// request a movie
    #[action(links = request)]
    Movie {
        tmdb_id: i64,
        #[serde(default)]
        is_4k: bool,
        language: Option<String>,
        on_behalf_user_id: Option<String>,
        overrides: Option<Overrides>,
        requested_by_alias: Option<String>,
    },
    /// request seasons or episodes of a show
    #[action(links = request)]
    Tv {
        provider: Provider,
        id: i64,
        selection: Selection,
        language_profile_id: Option<i64>,
        on_behalf_user_id: Option<String>,
        overrides: Option<Overrides>,
        requested_by_alias: Option<String>,
    },
    /// request an album by MusicBrainz release group id
    #[action(links = request)]
    Album {
        musicbrainz_id: String,
        requested_by_alias: Option<String>,
    },
    /// request every movie of a TMDB collection
    #[action(links = request)]
    Collection { collection_id: i64 },
}

#[derive(Deserialize, Default)]
struct Overrides {
    root_folder_id: Option<i64>,
    quality_profile_id: Option<i64>,
}

/// What a movie and a TV request body share: on whose behalf it is made,
/// and the Radarr/Sonarr root folder and quality profile it overrides.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Placement {
    #[serde(skip_serializing_if = "Option::is_none")]
    request_on_behalf: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    root_folder_override: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    quality_path_override: Option<i64>,
}

impl Placement {
    fn new(on_behalf_user_id: Option<String>, overrides: Option<Overrides>) -> Placement {
        let o = overrides.unwrap_or_default();
        Placement {
            request_on_behalf: on_behalf_user_id,
            root_folder_override: o.root_folder_id,
            quality_path_override: o.quality_profile_id,
        }
    }
}

#[derive(Deserialize, PartialEq)]
#[serde(rename_all = "lowercase")]
enum Provider {
    Tmdb,
    Tvdb,
}

#[derive(Deserialize)]
#[serde(tag = "mode", rename_all = "snake_case")]
enum Selection {
    All,
    FirstSeason,
    LatestSeason,
    Season { season_numbers: Vec<i64> },
    Episodes { seasons: Vec<SeasonPick> },
}

#[derive(Deserialize)]
struct SeasonPick {
    season_number: i64,
    episodes: Vec<i64>,
}

impl Actions for Action {
    async fn run(self, ctx: &CallCtx) -> Outcome {
        match self {
            Action::Movie {
                tmdb_id,
                is_4k,
                language,
                on_behalf_user_id,
                overrides,
                requested_by_alias,
            } => {
                let alias = alias_header(ctx, requested_by_alias.as_deref())?;
                check_on_behalf(ctx, on_behalf_user_id.as_deref()).await?;
                let language = ctx.body_language(language.as_deref()).await;
                let body = MovieBody {
                    the_movie_db_id: tmdb_id,
                    language_code: language,
                    is4k_request: is_4k,
                    placement: Placement::new(on_behalf_user_id, overrides),
                };
                movie(ctx, body, alias).await
            }
            Action::Tv {
                provider,
                id,
                selection,
                language_profile_id,
                on_behalf_user_id,
                overrides,
                requested_by_alias,
            } => {
                if provider == Provider::Tvdb {
                    return Err(ToolError::invalid(
                        "/provider",
                        "Ombi requests shows by TMDB id only, and no Ombi route maps a TVDB id to one: \
                         find the show's TMDB id with read_search (action tv) or read_media, and request with \
                         `provider: tmdb`",
                    )
                    .into());
                }
                let alias = alias_header(ctx, requested_by_alias.as_deref())?;
                check_on_behalf(ctx, on_behalf_user_id.as_deref()).await?;
                let body = TvBody {
                    the_movie_db_id: id,
                    language_code: ctx.body_language(None).await,
                    request_all: false,
                    latest_season: false,
                    first_season: false,
                    seasons: None,
                    language_profile: language_profile_id,
                    placement: Placement::new(on_behalf_user_id, overrides),
                    source: 0,
                };
                tv(ctx, body, selection, alias).await
            }
            Action::Album {
                musicbrainz_id,
                requested_by_alias,
            } => {
                let alias = alias_header(ctx, requested_by_alias.as_deref())?;
                album(ctx, &musicbrainz_id, alias).await
            }
            Action::Collection { collection_id } => collection(ctx, collection_id).await,
        }
    }
}

/// Whose a create is without an acting user ([`note_api_user`]).
const CREATED_AS: &str = "the request is";

/// The `ApiAlias` header carrying `requested_by_alias`: Ombi ignores the
/// body's alias on all three request routes and reads this header, only next
/// to an `ApiKey` header (`docs/ombi-notes.md`, "Requester aliases").
fn alias_header(ctx: &CallCtx, alias: Option<&str>) -> Result<Option<String>, ToolError> {
    let Some(alias) = alias else {
        return Ok(None);
    };
    if !ctx.upstream.uses_api_key() {
        return Err(ToolError::invalid(
            "/requested_by_alias",
            "Ombi takes a requester alias only from API-key callers; in jwt mode the request is \
             shown as the logged-in user's: leave `requested_by_alias` out",
        ));
    }
    if !alias.chars().all(|c| c == ' ' || c.is_ascii_graphic()) {
        return Err(ToolError::invalid(
            "/requested_by_alias",
            "Ombi reads the alias from an HTTP header, which carries printable ASCII only",
        ));
    }
    Ok(Some(alias.to_string()))
}

/// Adds the alias header, when there is one.
fn with_alias(route: Route, alias: Option<String>) -> Route {
    match alias {
        Some(a) => route.header("ApiAlias", a),
        None => route,
    }
}

/// Ombi stores `requestOnBehalf` without looking the user up (the save then
/// fails, or the request belongs to nobody: `docs/ombi-notes.md`, "Requests
/// on behalf"), so the id is checked against Ombi's users first. Reading
/// them needs PowerUser, as requesting on behalf does.
async fn check_on_behalf(ctx: &CallCtx, user_id: Option<&str>) -> Result<(), ToolError> {
    let Some(user_id) = user_id else {
        return Ok(());
    };
    let mut warnings = Vec::new();
    let (users, cut) = match accounts(ctx, &mut warnings).await {
        Ok(got) => got,
        Err(e)
            if matches!(
                e.code,
                ErrorCode::Forbidden | ErrorCode::AuthenticationFailed
            ) =>
        {
            return Err(ToolError::new(
                ErrorCode::Forbidden,
                "requesting on behalf of another user needs Ombi's PowerUser or Admin role, which \
                 the acting user does not have: leave `on_behalf_user_id` out",
            ));
        }
        Err(e) => return Err(e),
    };
    if cut || users.iter().any(|u| u.id.eq_ignore_ascii_case(user_id)) {
        return Ok(());
    }
    Err(ToolError::new(
        ErrorCode::NotFound,
        format!(
            "Ombi has no user with id {user_id}: `on_behalf_user_id` takes an Ombi user id (a GUID) \
             from read_users `list`, not a user name"
        ),
    )
    .with_field("/on_behalf_user_id"))
}

/// Ombi's rules refused a create before anything was saved: a permission
/// rule (FORBIDDEN) or a quota (RATE_LIMITED, quoting the quota). `None`
/// for any other failure.
async fn refused_by_rules(ctx: &CallCtx, media: MediaKind, e: &ToolError) -> Option<ToolError> {
    match e.code {
        ErrorCode::Forbidden => Some(e.clone()),
        ErrorCode::RateLimited => {
            let quota = match quota_of(ctx, media).await {
                Ok(Some(q)) if q.has_limit == Some(true) => {
                    let next = q
                        .next_request
                        .map(|d| {
                            format!("; the next {} request is possible from {d}", media.label())
                        })
                        .unwrap_or_default();
                    // Ombi counts TV quotas in episodes.
                    let unit = if media == MediaKind::Tv {
                        "episodes"
                    } else {
                        "requests"
                    };
                    format!(
                        " (your {} quota: {} {unit}, {} left{next})",
                        media.label(),
                        q.limit.unwrap_or(0),
                        q.remaining.unwrap_or(0).max(0)
                    )
                }
                _ => String::new(),
            };
            Some(
                ToolError::new(
                    ErrorCode::RateLimited,
                    format!(
                        "{}{quota}: retrying will not help until the quota frees up; an admin can raise it (write_user_manage)",
                        e.message
                    ),
                )
                .retryable(false)
                .with_status(200),
            )
        }
        _ => None,
    }
}

/// CONFLICT naming the request that is already there ("the movie request
/// for *The Matrix* (request 1), approved"), read on this error path only.
fn conflict_with(mut e: ToolError, existing: Option<String>) -> ToolError {
    if let Some(words) = existing {
        e.message = format!("{}; the existing request: {words}", e.message);
    }
    e
}

/// A movie or album request in words with its state, from one read.
async fn request_in_words(ctx: &CallCtx, media: MediaKind, id: Option<i64>) -> Option<String> {
    let id = id?;
    let mut warnings = Vec::new();
    Some(
        match existing_request(ctx, media, id, &mut warnings).await {
            Ok(r) => format!(
                "{}, {}",
                request_name(media, &r, ctx),
                state_phrase(&r, false)
            ),
            Err(_) => media.request(id),
        },
    )
}

// ------------------------------------------------------------ what Ombi holds

/// The request state Ombi's search rules put on a title it shows
/// (`GET api/v2/Search/movie/{tmdb}`, the album lookup by release group): read before
/// and after a create whose answer may not carry the new id.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Held {
    title: Option<String>,
    #[serde(default)]
    requested: bool,
    request_id: Option<i64>,
    #[serde(rename = "has4KRequest", default)]
    has_4k_request: bool,
}

impl Held {
    fn id(&self) -> Option<i64> {
        self.request_id.filter(|i| *i > 0)
    }

    /// Whether the (standard or 4K) request exists.
    fn has(&self, is_4k: bool) -> bool {
        self.id().is_some()
            && if is_4k {
                self.has_4k_request
            } else {
                self.requested
            }
    }
}

/// A movie's request state by TMDB id (NOT_FOUND: TMDB does not know it as
/// a movie, which Ombi answers with a null dereference, HTTP 500, whose
/// exception text never reaches the person).
async fn movie_held(ctx: &CallCtx, tmdb_id: i64) -> Result<Held, ToolError> {
    let what = format!("movie with TMDB id {tmdb_id}");
    ctx.get_json::<Held>(Route::get("api/v2/Search/movie").seg(tmdb_id))
        .await
        .map_err(|e| not_found_on_null_dereference(e, &what))?
        .ok_or_else(|| not_found(&what))
}

/// An album's request state by MusicBrainz release-group id: the read layer's
/// one album lookup ([`crate::tools::media::albums::album_lookup`]).
async fn album_held(ctx: &CallCtx, mbid: &str) -> Result<Held, ToolError> {
    let album = crate::tools::media::albums::album_lookup(ctx, mbid).await?;
    Ok(Held {
        title: album.title,
        requested: album.requested.unwrap_or(false),
        request_id: album.request_id,
        has_4k_request: false,
    })
}

/// A show by TMDB id, with its request state (NOT_FOUND: TMDB does not know it).
async fn show_of(ctx: &CallCtx, tmdb_id: i64) -> Result<TvDetail, ToolError> {
    ctx.get_json::<TvDetail>(Route::get("api/v2/Search/tv/moviedb").seg(tmdb_id))
        .await?
        .ok_or_else(|| not_found(&format!("show with TMDB id {tmdb_id}")))
}

/// TMDB numbers movies and shows apart, so an id unknown as `asked` may be
/// the other kind: NOT_FOUND on the id's argument, saying which action takes
/// it (one read, on this error path only).
async fn wrong_media(ctx: &CallCtx, e: ToolError, tmdb_id: i64, asked: MediaKind) -> ToolError {
    if e.code != ErrorCode::NotFound {
        return e;
    }
    let (field, other) = match asked {
        MediaKind::Tv => (
            "/id",
            movie_held(ctx, tmdb_id)
                .await
                .ok()
                .map(|m| (title(ctx, &m, String::new()), "movie", "movie", "tmdb_id")),
        ),
        _ => (
            "/tmdb_id",
            show_of(ctx, tmdb_id).await.ok().map(|s| {
                let t = s
                    .row
                    .title
                    .as_deref()
                    .map(|t| ctx.upstream.clean(t))
                    .unwrap_or_default();
                (t, "show", "tv", "id")
            }),
        ),
    };
    let mut e = e.with_field(field);
    if let Some((name, kind, action, arg)) = other {
        let name = if name.is_empty() {
            String::new()
        } else {
            format!(" *{name}*")
        };
        e.message = format!(
            "{}; TMDB id {tmdb_id} is the {kind}{name}: request it with action `{action}` (`{arg}: {tmdb_id}`)",
            e.message
        );
    }
    e
}

/// A title from Ombi, safe to put in a message.
fn title(ctx: &CallCtx, held: &Held, fallback: String) -> String {
    held.title
        .as_deref()
        .map(|t| ctx.upstream.clean(t))
        .filter(|t| !t.is_empty())
        .unwrap_or(fallback)
}

fn request_create_rules(action: &str, args: &Map<String, Value>) -> Result<(), ToolError> {
    if action != "tv" {
        return Ok(());
    }
    let Some(sel) = args.get("selection").and_then(Value::as_object) else {
        return Ok(());
    };
    let mode = sel.get("mode").and_then(Value::as_str).unwrap_or("");
    for (key, needed_by) in [("season_numbers", "season"), ("seasons", "episodes")] {
        match (sel.contains_key(key), mode == needed_by) {
            (false, true) => {
                return Err(ToolError::invalid(
                    format!("/selection/{key}"),
                    format!("selection mode `{needed_by}` needs `{key}`"),
                ));
            }
            (true, false) => {
                return Err(ToolError::invalid(
                    format!("/selection/{key}"),
                    format!("`{key}` is only used with selection mode `{needed_by}`, not `{mode}`"),
                ));
            }
            _ => {}
        }
    }
    Ok(())
}
