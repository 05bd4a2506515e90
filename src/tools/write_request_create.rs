//! `write_request_create`: request a movie, TV seasons or episodes, an album
//! or a whole movie collection. Ombi's answer does not always say what
//! happened (a create can be approved at once; `result: false` can come back
//! for a request that was saved; a collection answers with its first part's
//! id only), so every outcome reported here is read back from Ombi (see
//! `docs/ombi-notes.md`, "Requests are saved before they are sent" and
//! "Details routes show a title's request state").
// `Outcome`'s error side (`Failure`) is the shared handler contract.
#![allow(clippy::result_large_err)]

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::ctx::{body_language, not_found, not_found_on_500, reply};
use super::read_request_stats::quota_of;
use super::read_requests::existing_request;
use super::writes::{
    accounts, note_api_user, partly_done, request_name, show_in_words, state_phrase,
};
use super::{Actions, CallCtx, Tool};
use crate::contract::TargetKind;
use crate::contract::{ErrorCode, Failure, Family, Outcome, ToolError};
use crate::definition::params::*;
use crate::definition::shape::{ArgDefault, Field, Ty};
use crate::definition::{Bundle, ToolDef, action};
use crate::projection::media::{TvDetail, WireCollection};
use crate::projection::mutation::{ItemResult, Mutation, Outcome as Done};
use crate::projection::server_info::{WireFeature, feature_enabled};
use crate::upstream::{Answer, RequestEngineResult, Route};

pub static TOOL: Tool = Tool::new::<Action>(ToolDef {
    name: "write_request_create",
    title: "Request media",
    bundle: Bundle::Core,
    destructive: false,
    description: "Request a movie, TV seasons or episodes, an album, or a whole movie collection. The result says whether Ombi approved it at once; an approved request is sent on to Radarr/Sonarr/Lidarr by Ombi, and a send that failed shows in read_requests `retry_queue` (Ombi's answer never says whether the send worked). Check read_media or read_search first to avoid requesting something already available.",
    families: &[Family::Mutation],
    params: &[
        TMDB_ID,
        IS_4K,
        LANGUAGE,
        Field::opt(
            "on_behalf_user_id",
            Ty::Str { min: 1, max: 64 },
            "Request for another user (their Ombi user id, a GUID from read_users; needs Ombi's PowerUser or Admin role).",
        ),
        OVERRIDES,
        Field::opt(
            "provider",
            Ty::Enum(&["tmdb", "tvdb"]),
            "Which id namespace `id` is in (default `tmdb`).",
        )
        .default(ArgDefault::Str("tmdb")),
        Field::opt("id", Ty::ID, "The show's id in `provider`'s namespace."),
        SELECTION,
        LANGUAGE_PROFILE_ID,
        MUSICBRAINZ_ID,
        Field::opt(
            "requested_by_alias",
            Ty::Str { min: 1, max: 100 },
            "Name shown as the requester (api_key mode only: Ombi takes it from the `ApiAlias` header).",
        ),
        COLLECTION_ID,
    ],
    actions: &[
        action(
            "movie",
            "request a movie",
            &["tmdb_id"],
            &[
                "is_4k",
                "language",
                "on_behalf_user_id",
                "overrides",
                "requested_by_alias",
            ],
        ),
        action(
            "tv",
            "request seasons or episodes of a show",
            &["id", "selection"],
            &[
                "provider",
                "language_profile_id",
                "on_behalf_user_id",
                "overrides",
                "requested_by_alias",
            ],
        ),
        action(
            "album",
            "request an album by MusicBrainz release group id",
            &["musicbrainz_id"],
            &["requested_by_alias"],
        ),
        action(
            "collection",
            "request every movie of a TMDB collection",
            &["collection_id"],
            &[],
        ),
    ],
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
#[derive(Deserialize)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
enum Action {
    Movie {
        tmdb_id: i64,
        #[serde(default)]
        is_4k: bool,
        language: Option<String>,
        on_behalf_user_id: Option<String>,
        overrides: Option<Overrides>,
        requested_by_alias: Option<String>,
    },
    Tv {
        provider: Provider,
        id: i64,
        selection: Selection,
        language_profile_id: Option<i64>,
        on_behalf_user_id: Option<String>,
        overrides: Option<Overrides>,
        requested_by_alias: Option<String>,
    },
    Album {
        musicbrainz_id: String,
        requested_by_alias: Option<String>,
    },
    Collection {
        collection_id: i64,
    },
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
                let language = body_language(ctx, language.as_deref()).await;
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
                    language_code: body_language(ctx, None).await,
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

/// A movie's request state by TMDB id (NOT_FOUND: TMDB does not know it).
async fn movie_held(ctx: &CallCtx, tmdb_id: i64) -> Result<Held, ToolError> {
    ctx.get_json::<Held>(Route::get("api/v2/Search/movie").seg(tmdb_id))
        .await?
        .ok_or_else(|| not_found(&format!("movie with TMDB id {tmdb_id}")))
}

/// An album's request state by MusicBrainz release-group id: the read layer's
/// one album lookup ([`super::read_media::album_lookup`]).
async fn album_held(ctx: &CallCtx, mbid: &str) -> Result<Held, ToolError> {
    let album = super::read_media::album_lookup(ctx, mbid).await?;
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

// ------------------------------------------------------------ movie

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct MovieBody {
    the_movie_db_id: i64,
    /// Omitted: Ombi's model defaults it to "en".
    #[serde(skip_serializing_if = "Option::is_none")]
    language_code: Option<String>,
    is4k_request: bool,
    #[serde(flatten)]
    placement: Placement,
}

async fn movie(ctx: &CallCtx, body: MovieBody, alias: Option<String>) -> Outcome {
    let mut warnings = Vec::new();
    note_api_user(ctx, CREATED_AS, &mut warnings);
    let is_4k = body.is4k_request;
    if is_4k {
        // Without the feature Ombi half-applies the flag (`docs/ombi-notes.md`).
        let features = ctx
            .read_list::<WireFeature>(Route::get("api/v2/Features"), &mut warnings)
            .await?;
        if !feature_enabled(&features.value, "Movie4KRequests") {
            return Err(ToolError::new(
                ErrorCode::UnsupportedCapability,
                "4K movie requests are off in this Ombi (feature Movie4KRequests)",
            )
            .into());
        }
    }
    let tmdb_id = body.the_movie_db_id;
    let before = match movie_held(ctx, tmdb_id).await {
        Ok(held) => held,
        Err(e) => return Err(wrong_media(ctx, e, tmdb_id, MediaKind::Movie).await.into()),
    };
    let name = title(ctx, &before, format!("the movie with TMDB id {tmdb_id}"));
    let route = with_alias(Route::post("api/v1/Request/movie").json(&body), alias);
    let answer = ctx.write_answer::<RequestEngineResult>(route).await?;
    let created = Created {
        media: MediaKind::Movie,
        name: &name,
        is_4k,
    };
    let answer = match ctx.upstream.check(&answer) {
        Ok(r) => return created.completed(ctx, r, warnings).await,
        Err(e) if e.code == ErrorCode::Conflict => {
            let existing = request_in_words(ctx, MediaKind::Movie, before.id()).await;
            return Err(conflict_with(e, existing).into());
        }
        Err(e) => match refused_by_rules(ctx, MediaKind::Movie, &e).await {
            Some(refusal) => return Err(refusal.into()),
            None => (answer, e),
        },
    };
    // Ombi saves an auto-approved movie before sending it, and a failed
    // send answers without the id: only a read shows whether it was saved.
    let after = movie_held(ctx, tmdb_id).await;
    created.settle_failure(ctx, answer, &before, after, warnings)
}

// ------------------------------------------------------------ album

async fn album(ctx: &CallCtx, mbid: &str, alias: Option<String>) -> Outcome {
    let route = with_alias(
        Route::post("api/v1/request/music").json(&AlbumBody {
            foreign_album_id: mbid,
        }),
        alias,
    );
    // The lookup needs Lidarr (as Ombi's album requests do) and says so.
    // Ombi never de-duplicates albums: a repeat makes a second request,
    // spends quota and re-sends to Lidarr. Refuse it here.
    let before = album_held(ctx, mbid).await?;
    let name = title(ctx, &before, format!("the album {mbid}"));
    if let Some(id) = before.id().filter(|_| before.requested) {
        let existing = request_in_words(ctx, MediaKind::Album, Some(id))
            .await
            .unwrap_or_else(|| MediaKind::Album.request(id));
        return Err(ToolError::new(
            ErrorCode::Conflict,
            format!(
                "{name} is already requested ({existing}); Ombi would create a duplicate request, so none was sent"
            ),
        )
        .into());
    }
    let answer = ctx.write_answer::<RequestEngineResult>(route).await?;
    let created = Created {
        media: MediaKind::Album,
        name: &name,
        is_4k: false,
    };
    let mut warnings = Vec::new();
    note_api_user(ctx, CREATED_AS, &mut warnings);
    let answer = match ctx.upstream.check(&answer) {
        Ok(r) => return created.completed(ctx, r, warnings).await,
        Err(e) => match refused_by_rules(ctx, MediaKind::Album, &e).await {
            Some(refusal) => return Err(refusal.into()),
            None => (answer, e),
        },
    };
    let after = album_held(ctx, mbid).await;
    created.settle_failure(ctx, answer, &before, after, warnings)
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct AlbumBody<'a> {
    foreign_album_id: &'a str,
}

// ------------------------------------------------------------ movie/album outcomes

/// One movie or album create, for reporting.
struct Created<'a> {
    media: MediaKind,
    name: &'a str,
    is_4k: bool,
}

impl Created<'_> {
    /// Ombi accepted it: `completed`, with the state read back (a create can
    /// be approved at once: every create upvotes as the caller).
    async fn completed(
        &self,
        ctx: &CallCtx,
        r: RequestEngineResult,
        mut warnings: Vec<String>,
    ) -> Outcome {
        let id = r.request_id;
        let mut m = Mutation::new(Done::Completed).on_request(self.media.target_kind(), id);
        m.upstream_result = Some(r.result);
        m.upstream_is_error = Some(r.is_error);
        let state = if id > 0 {
            match existing_request(ctx, self.media, id, &mut warnings).await {
                Ok(rec) => read_back_state(self.media, state_phrase(&rec, self.is_4k)),
                Err(e) => unread_state(&e),
            }
        } else {
            String::new()
        };
        let what = if self.is_4k { "4K request" } else { "request" };
        let m = m.message(if id > 0 {
            format!(
                "requested {} ({} {what} {id}){state}",
                self.name,
                self.media.noun()
            )
        } else {
            format!("requested {} (Ombi did not say the new id)", self.name)
        });
        Ok(reply(m.into_data(), warnings, false))
    }

    /// Ombi answered with a failure: `partial` (with the id) when a request
    /// was saved anyway, the failure itself when the read shows nothing was.
    fn settle_failure(
        &self,
        ctx: &CallCtx,
        (answer, error): (Answer<RequestEngineResult>, ToolError),
        before: &Held,
        after: Result<Held, ToolError>,
        warnings: Vec<String>,
    ) -> Outcome {
        let r = answer.value;
        let saved = match after {
            Ok(after) if !before.has(self.is_4k) && after.has(self.is_4k) => after.id(),
            Ok(_) => None,
            Err(e) => {
                return Err(ToolError::new(
                    ErrorCode::UnknownOutcome,
                    format!(
                        "{}; whether Ombi saved the request anyway could not be read back ({}): \
                         check read_requests before retrying",
                        error.message, e.message
                    ),
                )
                .retryable(false)
                .into());
            }
        };
        let Some(id) = saved.or(Some(r.request_id).filter(|i| *i > 0)) else {
            return Err(error.into());
        };
        let mut m = Mutation::new(Done::Partial).on_request(self.media.target_kind(), id);
        m.upstream_result = Some(r.result);
        m.upstream_is_error = Some(r.is_error);
        let why = upstream_text(ctx, &r).unwrap_or_else(|| "no reason given".into());
        let m = m.message(format!(
            "Ombi saved {} as {} request {id} but did not send it on ({why})",
            self.name,
            self.media.noun()
        ));
        Err(partly_done(m, warnings))
    }
}

/// "; it is approved ..." for a create's message. Ombi answers an approved
/// create alike whether its send worked or threw and was queued
/// (`MovieSender.cs`, `MusicSender.cs`), so a send is never claimed.
fn read_back_state(media: MediaKind, state: &str) -> String {
    if state == "approved" {
        format!(
            "; it is approved, and Ombi sends approved requests to {} itself (its answer does not say \
             whether that worked: a failed send waits in read_requests `retry_queue`)",
            media.downloader()
        )
    } else {
        format!("; it is {state}")
    }
}

/// The new request's state could not be read: said in the message, the
/// reason logged.
fn unread_state(e: &ToolError) -> String {
    tracing::info!(error = %e.message, "create: the new request could not be read back");
    "; whether it is approved could not be read back (read_requests `get` shows it)".into()
}

/// Ombi's own words in a business answer, cleaned.
fn upstream_text(ctx: &CallCtx, r: &RequestEngineResult) -> Option<String> {
    r.error_message
        .as_deref()
        .or(r.message.as_deref())
        .map(|t| ctx.upstream.clean(t))
        .filter(|t| !t.is_empty())
}

// ------------------------------------------------------------ tv

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct TvBody {
    the_movie_db_id: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    language_code: Option<String>,
    request_all: bool,
    latest_season: bool,
    first_season: bool,
    /// Never `null` (Ombi answers 500): omitted in the server-side modes.
    #[serde(skip_serializing_if = "Option::is_none")]
    seasons: Option<Vec<SeasonBody>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    language_profile: Option<i64>,
    #[serde(flatten)]
    placement: Placement,
    /// `RequestSource.Ombi`.
    source: i64,
}

#[derive(Serialize, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
struct SeasonBody {
    season_number: i64,
    episodes: Vec<EpisodeBody>,
}

#[derive(Serialize, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
struct EpisodeBody {
    episode_number: i64,
}

async fn tv(
    ctx: &CallCtx,
    mut body: TvBody,
    selection: Selection,
    alias: Option<String>,
) -> Outcome {
    let tmdb_id = body.the_movie_db_id;
    let show = match show_of(ctx, tmdb_id).await {
        Ok(show) => show,
        Err(e) => return Err(wrong_media(ctx, e, tmdb_id, MediaKind::Tv).await.into()),
    };
    let known = show_episodes(&show);
    match selection {
        Selection::All => body.request_all = true,
        Selection::FirstSeason => body.first_season = true,
        Selection::LatestSeason => body.latest_season = true,
        Selection::Season { season_numbers } => {
            body.seasons = Some(whole_seasons(&known, &season_numbers)?)
        }
        Selection::Episodes { seasons } => body.seasons = Some(picked_episodes(&known, &seasons)?),
    }
    let name = show
        .row
        .title
        .as_deref()
        .map(|t| ctx.upstream.clean(t))
        .filter(|t| !t.is_empty())
        .unwrap_or_else(|| format!("the show with TMDB id {tmdb_id}"));
    let mut warnings = Vec::new();
    note_api_user(ctx, CREATED_AS, &mut warnings);
    if show.row.requested == Some(true) {
        if body.language_profile.is_some() {
            warnings.push(
                "Ombi ignores `language_profile_id` for a show that already has a request".into(),
            );
        }
        if body.placement.root_folder_override.is_some()
            || body.placement.quality_path_override.is_some()
        {
            warnings.push(
                "the show already has a request: Ombi applies `overrides` to the whole show, \
                 for all of its requests"
                    .into(),
            );
        }
    }
    let route = with_alias(Route::post("api/v2/Requests/tv").json(&body), alias);
    let answer = ctx.write_answer::<RequestEngineResult>(route).await?;
    let r = answer.value.clone();
    let id = r.request_id;
    match ctx.upstream.check(&answer) {
        Ok(_) => {
            let mut m = Mutation::new(Done::Completed).on_request(TargetKind::TvChild, id);
            m.upstream_result = Some(r.result);
            m.upstream_is_error = Some(r.is_error);
            let state = match existing_request(ctx, MediaKind::Tv, id, &mut warnings).await {
                Ok(rec) => read_back_state(MediaKind::Tv, state_phrase(&rec, false)),
                Err(e) => unread_state(&e),
            };
            let m = m.message(format!(
                "requested {name} as TV child request {id} (an Ombi request id, not a TMDB or TVDB id){state}"
            ));
            Ok(reply(m.into_data(), warnings, false))
        }
        Err(e) if e.code == ErrorCode::Conflict => {
            let parent = show.row.request_id.filter(|i| *i > 0);
            let existing = match parent {
                Some(p) => show_in_words(ctx, p).await,
                None => None,
            };
            Err(conflict_with(e, existing).into())
        }
        // Every TV failure before the save carries no id; after the save
        // (a failed or throwing send) it carries the child id.
        Err(e) if id <= 0 => Err(refused_by_rules(ctx, MediaKind::Tv, &e)
            .await
            .unwrap_or(e)
            .into()),
        Err(_) => {
            let mut m = Mutation::new(Done::Partial).on_request(TargetKind::TvChild, id);
            m.upstream_result = Some(r.result);
            m.upstream_is_error = Some(r.is_error);
            let why = upstream_text(ctx, &r).unwrap_or_else(|| {
                "Ombi put it in its retry queue: see read_requests retry_queue".into()
            });
            let m = m.message(format!(
                "Ombi saved {name} as TV child request {id} but did not send it to Sonarr ({why})"
            ));
            Err(partly_done(m, warnings))
        }
    }
}

/// Season number → its episode numbers, as TMDB lists them through Ombi
/// (Ombi's show page and its request builder both leave out season 0).
fn show_episodes(show: &TvDetail) -> Vec<(i64, Vec<i64>)> {
    let mut out: Vec<(i64, Vec<i64>)> = Vec::new();
    for s in show.season_requests.iter().flatten() {
        let Some(n) = s.season_number.filter(|n| *n >= 0) else {
            continue;
        };
        let mut eps: Vec<i64> = s
            .episodes
            .iter()
            .flatten()
            .filter_map(|e| e.episode_number.filter(|n| *n > 0))
            .collect();
        match out.iter_mut().find(|(m, _)| *m == n) {
            Some((_, all)) => all.append(&mut eps),
            None => out.push((n, eps)),
        }
    }
    for (_, eps) in &mut out {
        eps.sort_unstable();
        eps.dedup();
    }
    out.sort_by_key(|(n, _)| *n);
    out
}

fn season_list(known: &[(i64, Vec<i64>)]) -> String {
    let names: Vec<String> = known.iter().map(|(n, _)| n.to_string()).collect();
    if names.is_empty() {
        "none".into()
    } else {
        names.join(", ")
    }
}

/// Mode `season`: every episode of each named season. Ombi requests nothing
/// for `episodes: []` and silently drops what TMDB does not list, so both
/// are refused here.
fn whole_seasons(known: &[(i64, Vec<i64>)], numbers: &[i64]) -> Result<Vec<SeasonBody>, ToolError> {
    let mut out: Vec<SeasonBody> = Vec::new();
    for n in numbers {
        if out.iter().any(|s| s.season_number == *n) {
            continue;
        }
        let Some((_, eps)) = known.iter().find(|(m, _)| m == n) else {
            return Err(ToolError::invalid(
                "/selection/season_numbers",
                format!(
                    "the show has no season {n} that Ombi can request (seasons: {}; Ombi never requests specials, season 0)",
                    season_list(known)
                ),
            ));
        };
        if eps.is_empty() {
            return Err(ToolError::invalid(
                "/selection/season_numbers",
                format!("season {n} lists no episodes yet, so Ombi would request nothing"),
            ));
        }
        out.push(SeasonBody {
            season_number: *n,
            episodes: eps
                .iter()
                .map(|&e| EpisodeBody { episode_number: e })
                .collect(),
        });
    }
    Ok(out)
}

/// Mode `episodes`: the given episodes, each checked against the show.
fn picked_episodes(
    known: &[(i64, Vec<i64>)],
    picks: &[SeasonPick],
) -> Result<Vec<SeasonBody>, ToolError> {
    let mut out: Vec<SeasonBody> = Vec::new();
    for (i, pick) in picks.iter().enumerate() {
        let n = pick.season_number;
        let Some((_, eps)) = known.iter().find(|(m, _)| *m == n) else {
            return Err(ToolError::invalid(
                format!("/selection/seasons/{i}/season_number"),
                format!(
                    "the show has no season {n} that Ombi can request (seasons: {}; Ombi never requests specials, season 0)",
                    season_list(known)
                ),
            ));
        };
        if let Some(e) = pick.episodes.iter().find(|e| !eps.contains(e)) {
            return Err(ToolError::invalid(
                format!("/selection/seasons/{i}/episodes"),
                format!(
                    "season {n} has no episode {e} (it lists {}); Ombi would silently leave it out",
                    eps.len()
                ),
            ));
        }
        let at = match out.iter().position(|s| s.season_number == n) {
            Some(at) => at,
            None => {
                out.push(SeasonBody {
                    season_number: n,
                    episodes: Vec::new(),
                });
                out.len() - 1
            }
        };
        let season = &mut out[at];
        for &e in &pick.episodes {
            if !season.episodes.iter().any(|x| x.episode_number == e) {
                season.episodes.push(EpisodeBody { episode_number: e });
            }
        }
    }
    Ok(out)
}

// ------------------------------------------------------------ collection

/// Most members a collection request reports on (the `item_results` cap).
const MAX_MEMBERS: usize = 100;

async fn collection(ctx: &CallCtx, collection_id: i64) -> Outcome {
    let what = format!("collection {collection_id}");
    // An unknown collection answers 500 here (Ombi maps a null TMDB answer).
    let wire = ctx
        .get_json::<WireCollection>(Route::get("api/v2/Search/movie/collection").seg(collection_id))
        .await
        .map_err(|e| not_found_on_500(e, &what))?
        .ok_or_else(|| not_found(&what))?;
    let mut members: Vec<i64> = Vec::new();
    for m in wire.collection.iter().flatten() {
        let id =
            m.id.0
                .as_deref()
                .or(m.the_movie_db_id.0.as_deref())
                .and_then(|s| s.parse::<i64>().ok())
                .filter(|i| *i > 0);
        if let Some(id) = id
            && !members.contains(&id)
        {
            members.push(id);
        }
    }
    if members.is_empty() {
        // Ombi answers an empty collection with a 500 after doing nothing.
        return Err(ToolError::invalid(
            "/collection_id",
            format!("{what} has no movies to request"),
        )
        .into());
    }
    let mut warnings = Vec::new();
    note_api_user(ctx, "the requests are", &mut warnings);
    if members.len() > MAX_MEMBERS {
        warnings.push(format!(
            "{what} has {} movies; only the first {MAX_MEMBERS} are reported on (Ombi requests them all)",
            members.len()
        ));
        members.truncate(MAX_MEMBERS);
    }
    let mut before = Vec::with_capacity(members.len());
    for id in &members {
        before.push(movie_held(ctx, *id).await.ok());
    }
    let sent = ctx
        .write_answer::<RequestEngineResult>(
            Route::post("api/v2/Requests/movie/collection").seg(collection_id),
        )
        .await;
    let (answer, failure) = match sent {
        Ok(a) => {
            let checked = ctx.upstream.check(&a).err();
            (Some(a.value), checked)
        }
        // Ombi requests the members one by one: a failure part-way (500)
        // may follow saved requests, so read back before reporting it.
        Err(e) if e.code != ErrorCode::UnknownOutcome => (None, Some(e)),
        Err(e) => return Err(e.into()),
    };
    let mut items = Vec::with_capacity(members.len());
    let (mut done, mut refused, mut unknown) = (0u64, 0, 0);
    for (id, was) in members.iter().zip(&before) {
        let now = movie_held(ctx, *id).await.ok();
        let (outcome, message) = match (was, now) {
            (_, None) | (None, _) => {
                unknown += 1;
                (
                    Done::Unknown,
                    "its request state could not be read".to_string(),
                )
            }
            (Some(was), Some(_)) if was.has(false) => {
                refused += 1;
                (
                    Done::Rejected,
                    format!(
                        "already requested before (movie request {})",
                        was.id().unwrap_or(0)
                    ),
                )
            }
            (Some(_), Some(now)) if now.has(false) => {
                done += 1;
                (
                    Done::Completed,
                    format!("requested (movie request {})", now.id().unwrap_or(0)),
                )
            }
            _ => {
                refused += 1;
                (
                    Done::Rejected,
                    "not requested: Ombi's rules refused it (already available, or no permission or quota)"
                        .to_string(),
                )
            }
        };
        items.push(ItemResult {
            identifier: format!("tmdb:{id}"),
            outcome,
            message: Some(message),
        });
    }
    let total = items.len();
    let outcome = match (done, unknown) {
        (d, 0) if d as usize == total => Done::Completed,
        (0, 0) => Done::Rejected,
        (0, _) => Done::Accepted,
        _ => Done::Partial,
    };
    let name = wire
        .name
        .as_deref()
        .map(|n| ctx.upstream.clean(n))
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| what.clone());
    let mut m = Mutation::new(outcome);
    m.affected_count = Some(done);
    m.upstream_result = answer.as_ref().map(|a| a.result);
    m.upstream_is_error = answer.as_ref().map(|a| a.is_error);
    m.item_results = items;
    let m = m.message(format!(
        "{name}: {done} of {total} movies requested now, {refused} not requested, {unknown} unknown"
    ));
    match (outcome, failure) {
        (Done::Completed, failure) => {
            if let Some(e) = failure {
                // The read-back is what happened; Ombi's odd answer is logged.
                tracing::info!(error = %e.message, "collection: failure answered, every movie reads back requested");
            }
            Ok(reply(m.into_data(), warnings, false))
        }
        (Done::Accepted, None) => Ok(reply(m.into_data(), warnings, false)),
        (Done::Partial, _) => Err(partly_done(m, warnings)),
        (_, failure) => {
            let all_there_before = before
                .iter()
                .all(|b| b.as_ref().is_some_and(|b| b.has(false)));
            let error = failure.unwrap_or_else(|| {
                let code = if all_there_before {
                    ErrorCode::Conflict
                } else {
                    ErrorCode::UpstreamRejected
                };
                ToolError::new(code, format!("Ombi requested none of the movies of {name}"))
            });
            Err(Failure {
                error,
                data: Some(m.into_data()),
                warnings,
            })
        }
    }
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
