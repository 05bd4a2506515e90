//! `read_media`: one title's details (by TMDB/IMDb/TVDB/MusicBrainz id or by
//! Ombi request), its Rotten Tomatoes ratings, or its streaming providers.
//! Also the helpers the other media tools share (lookups of unknown ids,
//! read-cap notes).

use futures::future::BoxFuture;

use super::common::{acting, reply, required_int, required_str};
use super::{CallCtx, Outcome, Reply};
use crate::catalogue::Args;
use crate::contract::{ErrorCode, ToolError};
use crate::projection::identifiers::Origin;
use crate::projection::media::{
    self, ArtistInfo, Media, MovieFull, Notes, RatingsWire, ReleaseGroup, StreamingData, TvDetail,
};
use crate::projection::paging;
use crate::upstream::Route;

pub fn read_media<'a>(ctx: &'a CallCtx, args: &'a Args) -> BoxFuture<'a, Outcome> {
    Box::pin(run(ctx, args))
}

// ---------------------------------------------------------------- shared media helpers

/// Why music SEARCH fails without Lidarr: the v1 `Search/music/*` routes
/// call Lidarr. The v2 `Search/artist/*` lookups go to MusicBrainz and work
/// without it (Lidarr only adds artwork and an overview), so they are not gated.
pub(super) const NO_LIDARR: &str =
    "music search needs Lidarr, which is not enabled in this Ombi (Settings → Lidarr)";

/// `movie`/`tv` as the static label used in records and routes.
pub(super) fn movie_or_tv(args: &Args) -> Result<&'static str, ToolError> {
    match args.str("media") {
        Some("movie") => Ok("movie"),
        Some("tv") => Ok("tv"),
        _ => Err(ToolError::invalid(
            "/media",
            "`media` must be `movie` or `tv` for this action",
        )),
    }
}

/// Whether a lookup route answers an unknown id with a 500 (a null
/// dereference in Ombi: `movie/imdb`, `movie/request`, `tv/request`,
/// `artist/request`). Elsewhere unknown is a 204, and a 500 is a failing
/// provider (TMDB, TVMaze, MusicBrainz), reported as such.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Unknown {
    Is500,
    Is204,
}

/// For [`Unknown::Is500`] routes a 500 means "no such thing".
fn unknown_on_500(e: ToolError, what: &str, unknown: Unknown) -> ToolError {
    if unknown == Unknown::Is500
        && e.code == ErrorCode::UpstreamRejected
        && e.http_status == Some(500)
    {
        return ToolError::new(
            ErrorCode::NotFound,
            format!(
                "{what} was not found (Ombi answers this lookup with a 500 when the id is unknown)"
            ),
        )
        .with_status(500);
    }
    e
}

pub(super) fn not_found(what: &str) -> ToolError {
    ToolError::new(ErrorCode::NotFound, format!("{what} was not found")).with_status(204)
}

/// Records a read cut by the 8 MiB cap.
pub(super) fn note_cut(cut: bool, warnings: &mut Vec<String>) {
    if cut {
        warnings.push(
            "Ombi's answer exceeded the 8 MiB read limit; only the records read within it are used"
                .into(),
        );
    }
}

/// `UserViewModel.language` of `GET /api/v1/Identity`.
#[derive(serde::Deserialize)]
struct UserLanguage {
    language: Option<String>,
}

/// The `languageCode` of a search body. Ombi's models default it to "en",
/// whatever the user's language, so it is always sent: the caller's
/// `language`, else the acting Ombi user's language. `None` only when the
/// user has none (or it cannot be read): Ombi's "en" then applies.
pub(super) async fn body_language(ctx: &CallCtx, args: &Args) -> Option<String> {
    if let Some(lang) = args.str("language") {
        return Some(lang.to_string());
    }
    // Keyed by the Ombi instance too: one process may talk to several (tests).
    let who = format!(
        "{}\u{0}{}",
        ctx.upstream.base_url(),
        acting(ctx).unwrap_or("")
    );
    if let Some(lang) = USER_LANGUAGE.get(&who) {
        return lang;
    }
    let lang = ctx
        .upstream
        .get_json::<UserLanguage>(acting(ctx), Route::get("api/v1/Identity"))
        .await
        .ok()
        .flatten()
        .and_then(|u| u.language)
        .filter(|l| !l.trim().is_empty());
    USER_LANGUAGE.put(who, lang.clone());
    lang
}

/// The acting users' languages, kept briefly so a search costs one Ombi
/// round trip, not two; a changed language shows within the TTL.
static USER_LANGUAGE: LanguageCache = LanguageCache::new();

struct LanguageCache(std::sync::Mutex<Vec<(String, std::time::Instant, Option<String>)>>);

impl LanguageCache {
    const TTL: std::time::Duration = std::time::Duration::from_secs(300);
    /// Acting users are few (the policy's `ombi_user`s): a small list will do.
    const MAX: usize = 64;

    const fn new() -> Self {
        LanguageCache(std::sync::Mutex::new(Vec::new()))
    }

    fn get(&self, who: &str) -> Option<Option<String>> {
        let list = self.0.lock().unwrap_or_else(|p| p.into_inner());
        list.iter()
            .find(|(w, at, _)| w == who && at.elapsed() < Self::TTL)
            .map(|(_, _, lang)| lang.clone())
    }

    fn put(&self, who: String, lang: Option<String>) {
        let mut list = self.0.lock().unwrap_or_else(|p| p.into_inner());
        list.retain(|(w, at, _)| *w != who && at.elapsed() < Self::TTL);
        if list.len() >= Self::MAX {
            list.remove(0);
        }
        list.push((who, std::time::Instant::now(), lang));
    }
}

/// A note when a `language` argument cannot be passed on by the route.
pub(super) fn language_ignored(args: &Args, warnings: &mut Vec<String>) {
    if args.str("language").is_some() {
        warnings.push(
            "this Ombi route takes no language; titles come in the acting user's Ombi language"
                .into(),
        );
    }
}

fn single_page(items: Vec<Media>, notes: Notes) -> Reply {
    reply(
        media::media_page(paging::single(items, "media")),
        notes.warnings,
        notes.truncated,
    )
}

// ---------------------------------------------------------------- actions

async fn run(ctx: &CallCtx, args: &Args) -> Outcome {
    match args.action() {
        "details" => details(ctx, args).await,
        "by_request" => by_request(ctx, args).await,
        "ratings" => ratings(ctx, args).await,
        "providers" => providers(ctx, args).await,
        other => Err(ToolError::invalid("/action", format!("unknown action `{other}`")).into()),
    }
}

async fn movie_full(
    ctx: &CallCtx,
    route: Route,
    unknown: Unknown,
    what: &str,
    notes: &mut Notes,
) -> Result<Vec<Media>, ToolError> {
    let full = ctx
        .upstream
        .get_json::<MovieFull>(acting(ctx), route)
        .await
        .map_err(|e| unknown_on_500(e, what, unknown))?
        .ok_or_else(|| not_found(what))?;
    Ok(media::movie_details(full, notes))
}

async fn tv_detail(
    ctx: &CallCtx,
    route: Route,
    unknown: Unknown,
    origin: Origin,
    what: &str,
    notes: &mut Notes,
) -> Result<Media, ToolError> {
    let tv = ctx
        .upstream
        .get_json::<TvDetail>(acting(ctx), route)
        .await
        .map_err(|e| unknown_on_500(e, what, unknown))?
        .ok_or_else(|| not_found(what))?;
    Ok(media::tv_details(tv, origin, notes))
}

async fn details(ctx: &CallCtx, args: &Args) -> Outcome {
    let mut notes = Notes::default();
    language_ignored(args, &mut notes.warnings);
    let items = match (
        args.str("media"),
        args.int("tmdb_id"),
        args.str("imdb_id"),
        args.int("tvdb_id"),
    ) {
        (Some("movie"), Some(id), _, _) => {
            let route = Route::get("api/v2/Search/movie").seg(id);
            movie_full(
                ctx,
                route,
                Unknown::Is204,
                &format!("movie with TMDB id {id}"),
                &mut notes,
            )
            .await?
        }
        (Some("movie"), None, Some(imdb), _) => {
            let route = Route::get("api/v2/Search/movie/imdb").seg(imdb);
            movie_full(
                ctx,
                route,
                Unknown::Is500,
                &format!("movie with IMDb id {imdb}"),
                &mut notes,
            )
            .await?
        }
        (Some("tv"), Some(id), _, _) => {
            let route = Route::get("api/v2/Search/tv/moviedb").seg(id);
            vec![
                tv_detail(
                    ctx,
                    route,
                    Unknown::Is204,
                    Origin::Tmdb,
                    &format!("show with TMDB id {id}"),
                    &mut notes,
                )
                .await?,
            ]
        }
        (Some("tv"), None, _, Some(tvdb)) => {
            // The only TVDB-keyed lookup is the TVMaze-backed v1 route.
            let route = Route::get("api/v1/Search/tv/info").seg(tvdb);
            vec![
                tv_detail(
                    ctx,
                    route,
                    Unknown::Is204,
                    Origin::TvMaze,
                    &format!("show with TVDB id {tvdb}"),
                    &mut notes,
                )
                .await?,
            ]
        }
        (Some("album"), ..) => {
            let mbid = required_str(args, "musicbrainz_id")?;
            let what = format!("album (release group) {mbid}");
            let rg = ctx
                .upstream
                .get_json::<ReleaseGroup>(
                    acting(ctx),
                    Route::get("api/v2/Search/artist/album").seg(mbid),
                )
                .await?
                .ok_or_else(|| not_found(&what))?;
            vec![media::release_group_item(rg)]
        }
        (Some("artist"), ..) => {
            let mbid = required_str(args, "musicbrainz_id")?;
            vec![
                artist(
                    ctx,
                    Route::get("api/v2/Search/artist").seg(mbid),
                    Unknown::Is204,
                    &format!("artist {mbid}"),
                )
                .await?,
            ]
        }
        (Some(m), ..) => {
            return Err(ToolError::invalid(
                "/media",
                format!("`{m}` details need one id: movie tmdb_id/imdb_id, tv tmdb_id/tvdb_id, album/artist musicbrainz_id"),
            )
            .into());
        }
        (None, ..) => {
            return Err(ToolError::invalid("/media", "`media` is required for `details`").into());
        }
    };
    Ok(single_page(items, notes))
}

async fn artist(
    ctx: &CallCtx,
    route: Route,
    unknown: Unknown,
    what: &str,
) -> Result<Media, ToolError> {
    let info = ctx
        .upstream
        .get_json::<ArtistInfo>(acting(ctx), route)
        .await
        .map_err(|e| unknown_on_500(e, what, unknown))?
        .ok_or_else(|| not_found(what))?;
    Ok(media::artist_details(&info))
}

async fn by_request(ctx: &CallCtx, args: &Args) -> Outcome {
    let target = args.value("target");
    let kind = target
        .and_then(|t| t.get("kind"))
        .and_then(|k| k.as_str())
        .unwrap_or("");
    let id = target
        .and_then(|t| t.get("id"))
        .and_then(|i| i.as_i64())
        .ok_or_else(|| ToolError::invalid("/target/id", "`target.id` is required"))?;
    let mut notes = Notes::default();
    language_ignored(args, &mut notes.warnings);
    let items = match kind {
        "movie" => {
            let route = Route::get("api/v2/Search/movie/request").seg(id);
            movie_full(
                ctx,
                route,
                Unknown::Is500,
                &format!("movie request {id}"),
                &mut notes,
            )
            .await?
        }
        "tv_parent" => {
            let route = Route::get("api/v2/Search/tv/request").seg(id);
            vec![
                tv_detail(
                    ctx,
                    route,
                    Unknown::Is500,
                    Origin::Tmdb,
                    &format!("TV request {id}"),
                    &mut notes,
                )
                .await?,
            ]
        }
        "album" => {
            notes.note("Ombi resolves an album request to its ARTIST; the record is the artist");
            vec![
                artist(
                    ctx,
                    Route::get("api/v2/Search/artist/request").seg(id),
                    Unknown::Is500,
                    &format!("album request {id}"),
                )
                .await?,
            ]
        }
        "tv_child" => {
            return Err(ToolError::invalid(
                "/target/kind",
                "Ombi looks up TV media by the show-level request: pass the `tv_parent` id (read_requests `get` on the child shows its parent_request_id)",
            )
            .into());
        }
        other => {
            return Err(ToolError::invalid(
                "/target/kind",
                format!("unknown request kind `{other}`"),
            )
            .into());
        }
    };
    Ok(single_page(items, notes))
}

async fn ratings(ctx: &CallCtx, args: &Args) -> Outcome {
    let media = movie_or_tv(args)?;
    let name = required_str(args, "name")?;
    let year = required_int(args, "year")?;
    let route = Route::get(if media == "movie" {
        "api/v2/Search/ratings/movie"
    } else {
        "api/v2/Search/ratings/tv"
    })
    .seg(name)
    .seg(year);
    let what = format!("Rotten Tomatoes rating for {name:?} ({year})");
    let wire = ctx
        .upstream
        .get_json::<RatingsWire>(acting(ctx), route)
        .await?
        .ok_or_else(|| not_found(&what))?;
    let item = media::ratings_item(media, name, year, wire);
    let mut notes = Notes::default();
    if item.ratings.is_empty() {
        notes.note(format!(
            "Rotten Tomatoes has no scores for {name:?} ({year})"
        ));
    }
    Ok(single_page(vec![item], notes))
}

async fn providers(ctx: &CallCtx, args: &Args) -> Outcome {
    let media = movie_or_tv(args)?;
    let tmdb = required_int(args, "tmdb_id")?;
    let route = Route::get(if media == "movie" {
        "api/v2/Search/stream/movie"
    } else {
        "api/v2/Search/stream/tv"
    })
    .seg(tmdb);
    let list = ctx
        .upstream
        .get_array::<StreamingData>(acting(ctx), route)
        .await?;
    let mut warnings = vec![
        "providers are those of this title in the acting Ombi user's streaming country (Ombi caches them for 12 h across users)".to_string(),
    ];
    note_cut(list.cut, &mut warnings);
    let item = media::providers_item(media, tmdb, list.value);
    Ok(reply(
        media::media_page(paging::single(vec![item], "media")),
        warnings,
        list.cut,
    ))
}
