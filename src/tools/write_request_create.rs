//! `write_request_create`: request a movie, TV seasons or episodes, an album
//! or a whole movie collection. Ombi's answer does not always say what
//! happened (a create can be approved at once; `result: false` can come back
//! for a request that was saved; a collection answers with its first part's
//! id only), so every outcome reported here is read back from Ombi (see
//! `docs/ombi-notes.md`, "Requests are saved before they are sent" and
//! "Details routes show a title's request state").
// `Outcome`'s error side (`Failure`) is the shared handler contract.
#![allow(clippy::result_large_err)]

use futures::future::BoxFuture;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::ctx::{body_language, not_found, not_found_on_500, reply};
use super::read_requests::existing_request;
use super::writes::{note_api_user, partly_done, state_phrase};
use super::{CallCtx, Tool};
use crate::contract::TargetKind;
use crate::contract::{ErrorCode, Failure, Family, Outcome, ToolError};
use crate::definition::params::*;
use crate::definition::shape::{ArgDefault, Field, Ty};
use crate::definition::{Args, Bundle, ToolDef, action};
use crate::projection::media::{TvDetail, WireCollection};
use crate::projection::mutation::{ItemResult, Mutation, Outcome as Done};
use crate::projection::server_info::{WireFeature, feature_enabled};
use crate::upstream::{Answer, RequestEngineResult, Route};

pub static TOOL: Tool = Tool {
    def: ToolDef {
        name: "write_request_create",
        title: "Request media",
        bundle: Bundle::Core,
        destructive: false,
        description: "Request a movie, TV seasons or episodes, an album, or a whole movie collection so Ombi sends it to Radarr/Sonarr/Lidarr (possibly after approval). Check read_media or read_search first to avoid requesting something already available.",
        families: &[Family::Mutation],
        params: &[
            TMDB_ID,
            IS_4K,
            LANGUAGE,
            Field::opt(
                "on_behalf_user_id",
                Ty::Str { min: 1, max: 64 },
                "Request for another user (GUID; needs power user).",
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
                "Name shown as requester of an album.",
            ),
            COLLECTION_ID,
        ],
        actions: &[
            action(
                "movie",
                "request a movie",
                &["tmdb_id"],
                &["is_4k", "language", "on_behalf_user_id", "overrides"],
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
        default_action: None,
        check: Some(request_create_rules),
    },
    run: handle,
};

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
    },
    Tv {
        provider: Provider,
        id: i64,
        selection: Selection,
        language_profile_id: Option<i64>,
        on_behalf_user_id: Option<String>,
        overrides: Option<Overrides>,
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

fn handle<'a>(ctx: &'a CallCtx, args: &'a Args) -> BoxFuture<'a, Outcome> {
    Box::pin(async move {
        match args.parse::<Action>()? {
            Action::Movie {
                tmdb_id,
                is_4k,
                language,
                on_behalf_user_id,
                overrides,
            } => {
                let language = body_language(ctx, language.as_deref()).await;
                let o = overrides.unwrap_or_default();
                let body = MovieBody {
                    the_movie_db_id: tmdb_id,
                    language_code: language,
                    is4k_request: is_4k,
                    request_on_behalf: on_behalf_user_id,
                    root_folder_override: o.root_folder_id,
                    quality_path_override: o.quality_profile_id,
                };
                movie(ctx, body).await
            }
            Action::Tv {
                provider,
                id,
                selection,
                language_profile_id,
                on_behalf_user_id,
                overrides,
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
                let o = overrides.unwrap_or_default();
                let body = TvBody {
                    the_movie_db_id: id,
                    language_code: body_language(ctx, None).await,
                    request_all: false,
                    latest_season: false,
                    first_season: false,
                    seasons: None,
                    language_profile: language_profile_id,
                    request_on_behalf: on_behalf_user_id,
                    root_folder_override: o.root_folder_id,
                    quality_path_override: o.quality_profile_id,
                    source: 0,
                };
                tv(ctx, body, selection).await
            }
            Action::Album {
                musicbrainz_id,
                requested_by_alias,
            } => album(ctx, &musicbrainz_id, requested_by_alias.as_deref()).await,
            Action::Collection { collection_id } => collection(ctx, collection_id).await,
        }
    })
}

/// Whose a create is without an acting user ([`note_api_user`]).
const CREATED_AS: &str = "the request is";

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
    #[serde(skip_serializing_if = "Option::is_none")]
    request_on_behalf: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    root_folder_override: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    quality_path_override: Option<i64>,
}

async fn movie(ctx: &CallCtx, body: MovieBody) -> Outcome {
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
    let before = movie_held(ctx, tmdb_id).await?;
    let name = title(ctx, &before, format!("the movie with TMDB id {tmdb_id}"));
    let answer = ctx
        .write_answer::<RequestEngineResult>(Route::post("api/v1/Request/movie").json(&body))
        .await?;
    let created = Created {
        media: MediaKind::Movie,
        name: &name,
        is_4k,
    };
    let answer = match ctx.upstream.check(&answer) {
        Ok(r) => return created.completed(ctx, r, warnings).await,
        Err(e) if e.code == ErrorCode::Conflict => return Err(e.into()),
        Err(e) => (answer, e),
    };
    // Ombi saves an auto-approved movie before sending it, and a failed
    // send answers without the id: only a read shows whether it was saved.
    let after = movie_held(ctx, tmdb_id).await;
    created.settle_failure(ctx, answer, &before, after, warnings)
}

// ------------------------------------------------------------ album

async fn album(ctx: &CallCtx, mbid: &str, alias: Option<&str>) -> Outcome {
    let mut route = Route::post("api/v1/request/music").json(&AlbumBody {
        foreign_album_id: mbid,
    });
    if let Some(alias) = alias {
        // Ombi overwrites the body's alias and reads it only from an
        // `ApiAlias` header sent with an `ApiKey` (`docs/ombi-notes.md`).
        if !ctx.upstream.uses_api_key() {
            return Err(ToolError::invalid(
                "/requested_by_alias",
                "Ombi takes a requester alias only from API-key callers; in jwt mode the request is \
                 shown as the logged-in user's",
            )
            .into());
        }
        if !alias.chars().all(|c| c == ' ' || c.is_ascii_graphic()) {
            return Err(ToolError::invalid(
                "/requested_by_alias",
                "Ombi reads the alias from an HTTP header, which carries printable ASCII only",
            )
            .into());
        }
        route = route.header("ApiAlias", alias);
    }
    // The lookup needs Lidarr (as Ombi's album requests do) and says so.
    // Ombi never de-duplicates albums: a repeat makes a second request,
    // spends quota and re-sends to Lidarr. Refuse it here.
    let before = album_held(ctx, mbid).await?;
    let name = title(ctx, &before, format!("the album {mbid}"));
    if let Some(id) = before.id().filter(|_| before.requested) {
        return Err(ToolError::new(
            ErrorCode::Conflict,
            format!(
                "{name} is already requested (album request {id}); Ombi would create a duplicate request"
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
        Err(e) if e.code == ErrorCode::Conflict => return Err(e.into()),
        Err(e) => (answer, e),
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
                Ok(rec) => format!("; it is {}", state_phrase(&rec, self.is_4k)),
                Err(e) => {
                    warnings.push(format!(
                        "the new request could not be read back: {}",
                        e.message
                    ));
                    String::new()
                }
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
    #[serde(skip_serializing_if = "Option::is_none")]
    request_on_behalf: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    root_folder_override: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    quality_path_override: Option<i64>,
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

async fn tv(ctx: &CallCtx, mut body: TvBody, selection: Selection) -> Outcome {
    let tmdb_id = body.the_movie_db_id;
    let show = ctx
        .get_json::<TvDetail>(Route::get("api/v2/Search/tv/moviedb").seg(tmdb_id))
        .await?
        .ok_or_else(|| not_found(&format!("show with TMDB id {tmdb_id}")))?;
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
        .title
        .as_deref()
        .map(|t| ctx.upstream.clean(t))
        .filter(|t| !t.is_empty())
        .unwrap_or_else(|| format!("the show with TMDB id {tmdb_id}"));
    let mut warnings = Vec::new();
    note_api_user(ctx, CREATED_AS, &mut warnings);
    if show.requested == Some(true) {
        if body.language_profile.is_some() {
            warnings.push(
                "Ombi ignores `language_profile_id` for a show that already has a request".into(),
            );
        }
        if body.root_folder_override.is_some() || body.quality_path_override.is_some() {
            warnings.push(
                "the show already has a request: Ombi applies `overrides` to the whole show, \
                 for all of its requests"
                    .into(),
            );
        }
    }
    let answer = ctx
        .write_answer::<RequestEngineResult>(Route::post("api/v2/Requests/tv").json(&body))
        .await?;
    let r = answer.value.clone();
    let id = r.request_id;
    match ctx.upstream.check(&answer) {
        Ok(_) => {
            let mut m = Mutation::new(Done::Completed).on_request(TargetKind::TvChild, id);
            m.upstream_result = Some(r.result);
            m.upstream_is_error = Some(r.is_error);
            let state = match existing_request(ctx, MediaKind::Tv, id, &mut warnings).await {
                Ok(rec) => format!("; it is {}", state_phrase(&rec, false)),
                Err(e) => {
                    warnings.push(format!(
                        "the new request could not be read back: {}",
                        e.message
                    ));
                    String::new()
                }
            };
            let m = m.message(format!(
                "requested {name} as TV child request {id} (an Ombi request id, not a TMDB or TVDB id){state}"
            ));
            Ok(reply(m.into_data(), warnings, false))
        }
        Err(e) if e.code == ErrorCode::Conflict => Err(e.into()),
        // Every TV failure before the save carries no id; after the save
        // (a failed or throwing send) it carries the child id.
        Err(e) if id <= 0 => Err(e.into()),
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
                warnings.push(format!(
                    "Ombi answered with a failure ({}), yet every movie reads back as requested now",
                    e.message
                ));
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
