//! `read_discover`: curated lists (upstream-paged `{currentPosition}/{amountToLoad}`),
//! filtered discovery, similar movies, a person's credits, a collection's
//! members and an artist's albums.

use futures::StreamExt;
use serde::Deserialize;
use serde_json::{Map, Value, json};

use crate::contract::Family;
use crate::contract::{ErrorCode, ToolError};
use crate::contract::{Outcome, Reply};
use crate::definition::Page;
use crate::definition::params::*;
use crate::definition::shape::{Field, Ty};
use crate::definition::{Bundle, ToolActions, ToolDef};
use crate::projection::identifiers::{Namespace, Origin};
use crate::projection::media::{
    self, ArtistInfo, Media, RecentlyRequested, SearchMovie, SearchTv, WireCollection, WireCredits,
};
use crate::projection::paging::{self, Window};
use crate::tools::{Actions, CallCtx, Tool};
use crate::tools::{language_ignored, not_found};
use crate::tools::{partial, reply};
use crate::upstream::Route;

/// TV credit titles looked up per page at most (Ombi's credit model has no
/// TV title, so each one costs a details call).
const TITLE_LOOKUPS: usize = 20;
/// Concurrent title lookups.
const LOOKUP_CONCURRENCY: usize = 4;

const SNAPSHOT_NOTE: &str = "Ombi pages this list itself without a snapshot: titles may have shifted since the earlier pages, so one can repeat or be missed";

const PERSON_ID: Field = Field::opt("person_id", Ty::ID, "");
const NAME: Field = Field::opt(
    "name",
    Ty::Str { min: 1, max: 200 },
    "The person's name (Ombi gives none).",
);
const ARTIST_ID: Field = Field::opt("artist_id", Ty::TEXT_ID, "MusicBrainz artist id.");

pub static TOOL: Tool = Tool::new::<Action>(ToolDef {
    name: "read_discover",
    title: "Discover media",
    bundle: Bundle::Core,
    destructive: false,
    description: "Curated lists instead of a search (popular, trending, filtered, similar, credits, ...). Ombi's TV lists serve only the first 10 of every 20 TMDB ranks; a TV page stops at each gap (has_more true). A show's `available` means on the media server, possibly in part.",
    families: &[Family::MediaPage],
    check: Some(discover_rules),
    ..ToolDef::BASE
})
.examples(&[
    (r#"{"action": "popular", "media": "movie"}"#, true),
    (r#"{"action": "popular", "media": "tv", "page": {"limit": 5}}"#, true),
    (r#"{"action": "now_playing", "media": "movie"}"#, true),
    (r#"{"action": "top_rated", "media": "movie"}"#, true),
    (r#"{"action": "upcoming", "media": "movie"}"#, true),
    (r#"{"action": "seasonal", "media": "movie"}"#, true),
    (r#"{"action": "trending", "media": "tv"}"#, true),
    (r#"{"action": "anticipated", "media": "tv"}"#, true),
    (r#"{"action": "requested", "media": "movie"}"#, true),
    (r#"{"action": "advanced", "media": "movie", "filters": {"release_year": 2010, "genre_ids": [28]}}"#, true),
    (r#"{"action": "similar", "tmdb_id": 603}"#, true),
    (r#"{"action": "credits", "person_id": 6384, "name": "Keanu Reeves", "media": "movie"}"#, true),
    (r#"{"action": "collection", "collection_id": 2344}"#, true),
    (r#"{"action": "artist_albums", "artist_id": "f59c5520-5f46-4d2c-b2c4-822eabf53419"}"#, true),
])
.invalid(&[
    (r#"{}"#, "/action"),
    (r#"{"action": 3}"#, "/action"),
    (r#"{"action": "similar"}"#, "/tmdb_id"),
    (r#"{"action": "similar", "tmdb_id": 0}"#, "/tmdb_id"),
    (r#"{"action": "similar", "tmdb_id": "550"}"#, "/tmdb_id"),
    (r#"{"action": "similar", "tmdb_id": true}"#, "/tmdb_id"),
    (r#"{"action": "trending", "media": "movie"}"#, "/media"),
    (r#"{"action": "popular", "media": "album"}"#, "/media"),
    (r#"{"action": "credits", "person_id": 5}"#, "/name"),
    (r#"{"action": "advanced", "media": "movie", "filters": {"genre": 1}}"#, "/filters/genre"),
    (r#"{"action": "advanced", "media": "movie", "filters": {"genre_ids": []}}"#, "/filters/genre_ids"),
    (r#"{"action": "advanced", "media": "movie", "filters": {"genre_ids": [1, -2]}}"#, "/filters/genre_ids/1"),
]);

/// `advanced`: Ombi sends the release year only to movie discovery, and
/// drops it when a decade is given (docs/ombi-notes.md).
fn discover_rules(action: &str, args: &Map<String, Value>) -> Result<(), ToolError> {
    let filters = args.get("filters").and_then(Value::as_object);
    if action != "advanced" || !filters.is_some_and(|f| f.contains_key("release_year")) {
        return Ok(());
    }
    if args.get("media").and_then(Value::as_str) == Some("tv") {
        return Err(ToolError::invalid(
            "/filters/release_year",
            "Ombi applies `release_year` to movies only; use `decade` for TV",
        ));
    }
    if filters.is_some_and(|f| f.contains_key("decade")) {
        return Err(ToolError::invalid(
            "/filters/release_year",
            "give `release_year` or `decade`, not both (Ombi ignores the year when a decade is given)",
        ));
    }
    Ok(())
}

/// The actions, as validated arguments deserialize into them. The
/// movie-only and TV-only lists take `media`, narrowed by the definition.
#[derive(Deserialize, ToolActions)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
enum Action {
    /// popular titles
    Popular {
        #[arg(MEDIA_MOVIE_TV)]
        media: MovieOrTv,
        page: Page,
    },
    /// movies in cinemas
    NowPlaying {
        #[arg(MEDIA_MOVIE_TV, only = &["movie"])]
        media: MovieOrTv,
        page: Page,
    },
    /// top rated movies
    TopRated {
        #[arg(MEDIA_MOVIE_TV, only = &["movie"])]
        media: MovieOrTv,
        page: Page,
    },
    /// upcoming movies
    Upcoming {
        #[arg(MEDIA_MOVIE_TV, only = &["movie"])]
        media: MovieOrTv,
        page: Page,
    },
    /// seasonal movies
    Seasonal {
        #[arg(MEDIA_MOVIE_TV, only = &["movie"])]
        media: MovieOrTv,
        page: Page,
    },
    /// trending TV shows
    Trending {
        #[arg(MEDIA_MOVIE_TV, only = &["tv"])]
        media: MovieOrTv,
        page: Page,
    },
    /// anticipated TV shows
    Anticipated {
        #[arg(MEDIA_MOVIE_TV, only = &["tv"])]
        media: MovieOrTv,
        page: Page,
    },
    /// recently requested titles (Ombi caches it for hours)
    Requested {
        #[arg(MEDIA_MOVIE_TV)]
        media: MovieOrTv,
        page: Page,
    },
    /// filtered discovery
    Advanced {
        filters: Filters,
        #[arg(MEDIA_MOVIE_TV)]
        media: Option<MovieOrTv>,
        page: Page,
    },
    /// movies similar to a movie
    Similar {
        tmdb_id: i64,
        language: Option<String>,
        page: Page,
    },
    /// a person's movie and TV credits
    Credits {
        person_id: i64,
        name: String,
        #[arg(MEDIA_MOVIE_TV)]
        media: Option<MovieOrTv>,
        page: Page,
    },
    /// a movie collection's members
    Collection {
        collection_id: i64,
        language: Option<String>,
        page: Page,
    },
    /// an artist's albums
    ArtistAlbums { artist_id: String, page: Page },
}

/// The `filters` argument ([`FILTERS`]).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Filters {
    release_year: Option<i64>,
    decade: Option<i64>,
    #[serde(default)]
    genre_ids: Vec<i64>,
    #[serde(default)]
    watch_provider_ids: Vec<i64>,
}

impl Actions for Action {
    async fn run(self, ctx: &CallCtx) -> Outcome {
        // The v2 list slugs of the browse actions.
        match self {
            Action::Popular { media, page } => browse(ctx, media, "popular", page).await,
            Action::NowPlaying { media, page } => browse(ctx, media, "nowplaying", page).await,
            Action::TopRated { media, page } => browse(ctx, media, "toprated", page).await,
            Action::Upcoming { media, page } => browse(ctx, media, "upcoming", page).await,
            Action::Seasonal { media, page } => browse(ctx, media, "seasonal", page).await,
            Action::Trending { media, page } => browse(ctx, media, "trending", page).await,
            Action::Anticipated { media, page } => browse(ctx, media, "anticipated", page).await,
            Action::Requested { media, page } => requested(ctx, media, page).await,
            Action::Advanced {
                filters,
                media,
                page,
            } => advanced(ctx, &filters, media, page).await,
            Action::Similar {
                tmdb_id,
                language,
                page,
            } => similar(ctx, tmdb_id, language.as_deref(), page).await,
            Action::Credits {
                person_id,
                name,
                media,
                page,
            } => credits(ctx, person_id, &name, media, page).await,
            Action::Collection {
                collection_id,
                language,
                page,
            } => collection(ctx, collection_id, language.as_deref(), page).await,
            Action::ArtistAlbums { artist_id, page } => artist_albums(ctx, &artist_id, page).await,
        }
    }
}

/// One upstream-paged list read: movies or shows (season trees skipped).
async fn paged_list(
    ctx: &CallCtx,
    media: MovieOrTv,
    route: Route,
) -> Result<(Vec<Media>, bool), ToolError> {
    if media == MovieOrTv::Movie {
        let b = ctx
            .upstream
            .get_array::<SearchMovie>(ctx.acting(), route)
            .await?;
        Ok((b.value.into_iter().map(media::movie_item).collect(), b.cut))
    } else {
        let b = ctx
            .upstream
            .get_array::<SearchTv>(ctx.acting(), route)
            .await?;
        Ok((
            b.value
                .into_iter()
                .map(|t| media::tv_item(t, Origin::Tmdb))
                .collect(),
            b.cut,
        ))
    }
}

fn paged_route(media: MovieOrTv, slug: &str, page: Page) -> Route {
    let base = match media {
        MovieOrTv::Movie => "api/v2/Search/movie",
        MovieOrTv::Tv => "api/v2/Search/tv",
    };
    Route::get(base).seg(slug).seg(page.offset).seg(page.limit)
}

/// An Ombi-paged media list. `goes_on`: Ombi's sequence is known to go on
/// past this page (a TV page stopped at Ombi's gap).
fn upstream_reply(
    items: Vec<Media>,
    page: Page,
    cut: bool,
    goes_on: bool,
    mut warnings: Vec<String>,
) -> Reply {
    crate::tools::note_read_limit(cut, &mut warnings);
    // Only a later page can repeat or miss titles that moved meanwhile.
    if page.offset > 0 {
        warnings.push(SNAPSHOT_NOTE.into());
    }
    let mut w = paging::upstream(items, page, "media");
    if cut {
        // The list was cut while reading: whether more exist is unknown.
        w.page.has_more = None;
        w.page.next_offset = Some(page.offset + w.page.returned);
    } else if goes_on {
        w.page.has_more = Some(true);
        w.page.next_offset = Some(page.offset + w.page.limit);
    }
    reply(media::media_page(w), warnings, cut)
}

/// A curated list (`slug`); the definition offers each only for the media
/// that has it.
async fn browse(ctx: &CallCtx, media: MovieOrTv, slug: &str, page: Page) -> Outcome {
    let (asked, at_gap) = match media {
        MovieOrTv::Tv => tv_page(page),
        MovieOrTv::Movie => (page, false),
    };
    let (items, cut) = paged_list(ctx, media, paged_route(media, slug, asked)).await?;
    let mut warnings = Vec::new();
    if at_gap {
        warnings.push(TV_GAP_NOTE.into());
    }
    Ok(upstream_reply(items, asked, cut, at_gap, warnings))
}

/// Ombi's TV lists serve 10 titles per TMDB page of 20 (`TvSearchEngineV2.cs`,
/// `PaginationHelper.cs`; docs/ombi-notes.md "TV discovery skips ranks"):
/// positions 0–9 are TMDB ranks 1–10, positions 10–19 ranks 21–30. A page is
/// stopped where the sequence jumps, so no page hides the gap; `true` when
/// it was stopped.
fn tv_page(page: Page) -> (Page, bool) {
    let room = TV_PER_TMDB_PAGE - page.offset % TV_PER_TMDB_PAGE;
    if page.limit > room {
        (
            Page {
                offset: page.offset,
                limit: room,
            },
            true,
        )
    } else {
        (page, false)
    }
}

const TV_PER_TMDB_PAGE: u64 = 10;
const TV_GAP_NOTE: &str = "this page stops where Ombi skips ahead: it serves only ranks 1–10 of every 20 TMDB ranks, so the next offset continues at rank 21 (41, ...)";

/// Recently requested titles (docs/ombi-notes.md). Ombi's inner cache
/// ignores the position, so pages can repeat; when the list fails, the bounded recently-requested feed
/// (≤ 7 per type) is returned instead, marked truncated.
async fn requested(ctx: &CallCtx, media: MovieOrTv, page: Page) -> Outcome {
    let primary = paged_list(ctx, media, paged_route(media, "requested", page)).await;
    match primary {
        Ok((items, cut)) => {
            let mut warnings = vec![
                "Ombi caches this list without its position, so no page after this one can be read reliably (pages repeat); ask for a larger `limit` (up to 100) instead".to_string(),
            ];
            crate::tools::note_read_limit(cut, &mut warnings);
            let mut w = paging::upstream(items, page, "media");
            // No reliable continuation: no next_offset.
            w.page.has_more = None;
            w.page.next_offset = None;
            Ok(reply(media::media_page(w), warnings, cut))
        }
        Err(e)
            if matches!(
                e.code,
                ErrorCode::UpstreamRejected | ErrorCode::UpstreamSchemaMismatch
            ) && !e.retryable =>
        {
            let feed = ctx
                .upstream
                .get_array::<RecentlyRequested>(
                    ctx.acting(),
                    Route::get("api/v2/Requests/recentlyRequested"),
                )
                .await?;
            let items: Vec<Media> = feed
                .value
                .into_iter()
                .filter(|r| r.media() == Some(media.label()))
                .filter_map(media::recently_requested_item)
                .skip(page.offset as usize)
                .collect();
            let w = paging::truncated_feed(items, page, "media");
            let warnings = vec![format!(
                "Ombi's requested list failed ({}); these are the most recent requests instead (at most 7 per type), so the list is incomplete",
                e.message
            )];
            Ok(reply(media::media_page(w), warnings, true))
        }
        Err(e) => Err(e.into()),
    }
}

#[derive(Debug, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct DiscoverModel {
    #[serde(rename = "type")]
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    release_year: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    decade: Option<i64>,
    genre_ids: Vec<i64>,
    watch_providers: Vec<i64>,
}

async fn advanced(
    ctx: &CallCtx,
    filters: &Filters,
    media: Option<MovieOrTv>,
    page: Page,
) -> Outcome {
    // The catalogue asks only for `filters`; Ombi's one discovery route is
    // the movie one, so movies unless `media: tv` is asked for.
    let media = media.unwrap_or(MovieOrTv::Movie);
    let tv = media == MovieOrTv::Tv;
    let body = DiscoverModel {
        kind: media.label(),
        release_year: filters.release_year,
        decade: filters.decade,
        genre_ids: filters.genre_ids.clone(),
        watch_providers: filters.watch_provider_ids.clone(),
    };
    let route = Route::post_read("api/v2/Search/advancedSearch/movie")
        .seg(page.offset)
        .seg(page.limit)
        .json(&body);
    // Ombi maps every discovery result through its movie engine, whatever the type.
    let b = ctx
        .upstream
        .get_array::<SearchMovie>(ctx.acting(), route)
        .await?;
    let mut warnings = Vec::new();
    let items: Vec<Media> = b
        .value
        .into_iter()
        .map(|w| {
            let mut m = media::movie_item(w);
            if tv {
                // Request state was matched against MOVIE requests upstream.
                m.media = "tv";
                m.requested = None;
                m.available = None;
                m.request_targets.clear();
            }
            m
        })
        .collect();
    if tv {
        warnings.push("Ombi reports request state for discovered shows against movie requests, so it is left out; use read_media for a show's state".into());
    }
    Ok(upstream_reply(items, page, b.cut, false, warnings))
}

async fn similar(ctx: &CallCtx, tmdb: i64, language: Option<&str>, page: Page) -> Outcome {
    let mut body = json!({"theMovieDbId": tmdb});
    if let Some(lang) = ctx.body_language(language).await {
        body["languageCode"] = json!(lang);
    }
    let b = ctx
        .upstream
        .get_array::<SearchMovie>(
            ctx.acting(),
            Route::post_read("api/v2/Search/movie/similar").json(&body),
        )
        .await?;
    let mut warnings =
        vec!["Ombi returns a random sample of similar movies; repeated calls differ".to_string()];
    crate::tools::note_read_limit(b.cut, &mut warnings);
    let items = b.value.into_iter().map(media::movie_item).collect();
    let mut w = paging::local(items, page, !b.cut, "media");
    if w.page.next_offset.is_some() {
        // The next call draws a new sample: no reliable continuation.
        w.page.has_more = None;
        w.page.next_offset = None;
        warnings.push(
            "this page holds part of the sample; the next call draws a new one, so ask for a larger `limit` to see all of it"
                .into(),
        );
    }
    Ok(reply(media::media_page(w), warnings, b.cut))
}

/// The TV fields a title lookup needs (`SearchFullInfoTvShowViewModel`,
/// season trees skipped).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct TvTitle {
    title: Option<String>,
    first_aired: Option<String>,
    overview: Option<String>,
}

async fn credits(
    ctx: &CallCtx,
    person: i64,
    name: &str,
    media: Option<MovieOrTv>,
    page: Page,
) -> Outcome {
    let kinds: &[&'static str] = match media {
        Some(MovieOrTv::Movie) => &["movie"],
        Some(MovieOrTv::Tv) => &["tv"],
        None => &["movie", "tv"],
    };
    let mut all: Vec<Media> = Vec::new();
    let mut failed: Vec<(&str, ToolError)> = Vec::new();
    for kind in kinds {
        let route = Route::get("api/v2/Search/actor").seg(person).seg(*kind);
        match ctx
            .upstream
            .get_json::<WireCredits>(ctx.acting(), route)
            .await
        {
            Ok(Some(c)) => all.extend(media::credits(kind, c, person, name)),
            Ok(None) => {}
            Err(e) => failed.push((kind, e)),
        }
    }
    // Nothing arrived: the (last) failure as it is.
    if failed.len() == kinds.len()
        && let Some((_, e)) = failed.pop()
    {
        return Err(e.into());
    }
    let mut warnings = Vec::new();
    let mut w = paging::local(all, page, failed.is_empty(), "media");
    enrich_tv_titles(ctx, &mut w, &mut warnings).await;
    match failed.into_iter().next() {
        // One of the two reads failed: what arrived, as a partial failure.
        Some((kind, e)) => {
            let why = ToolError::new(
                e.code,
                format!(
                    "the {} credits could not be read ({}); only the {} credits are included",
                    if kind == "movie" { "movie" } else { "TV" },
                    e.message,
                    if kind == "movie" { "TV" } else { "movie" },
                ),
            );
            Err(partial(media::media_page(w), why, warnings))
        }
        None => Ok(reply(media::media_page(w), warnings, false)),
    }
}

/// Ombi's TV credits carry no title: look the titles of this page up.
async fn enrich_tv_titles(ctx: &CallCtx, w: &mut Window<Media>, warnings: &mut Vec<String>) {
    let todo: Vec<(usize, String)> = w
        .items
        .iter()
        .enumerate()
        .filter(|(_, m)| m.media == "tv" && m.title.is_none())
        .filter_map(|(i, m)| m.id_in(Namespace::Tmdb).map(|id| (i, id.to_string())))
        .collect();
    let skipped = todo.len().saturating_sub(TITLE_LOOKUPS);
    let lookups = futures::stream::iter(todo.into_iter().take(TITLE_LOOKUPS).map(
        |(i, id)| async move {
            let route = Route::get("api/v2/Search/tv/moviedb").seg(&id);
            (
                i,
                ctx.upstream.get_json::<TvTitle>(ctx.acting(), route).await,
            )
        },
    ))
    .buffered(LOOKUP_CONCURRENCY)
    .collect::<Vec<_>>()
    .await;
    let mut failed = 0;
    for (i, r) in lookups {
        match r {
            Ok(Some(t)) => {
                let m = &mut w.items[i];
                m.title = t.title.filter(|s| !s.trim().is_empty());
                m.year = m.year.or(media::year_of(t.first_aired.as_deref()));
                if m.overview.is_none() {
                    m.overview = t.overview.filter(|s| !s.trim().is_empty());
                }
            }
            _ => failed += 1,
        }
    }
    if failed > 0 {
        warnings.push(format!(
            "{failed} TV credit titles could not be looked up and are left untitled"
        ));
    }
    if skipped > 0 {
        warnings.push(format!(
            "{skipped} TV credits on this page are untitled (at most {TITLE_LOOKUPS} titles are looked up per page; use a smaller page)"
        ));
    }
}

async fn collection(ctx: &CallCtx, id: i64, language: Option<&str>, page: Page) -> Outcome {
    let mut warnings = Vec::new();
    language_ignored(language, &mut warnings);
    let what = format!("collection {id}");
    let wire = ctx
        .upstream
        .get_json::<WireCollection>(
            ctx.acting(),
            Route::get("api/v2/Search/movie/collection").seg(id),
        )
        .await?
        .ok_or_else(|| not_found(&what))?;
    warnings.push("the first record is the collection itself; members follow. Ombi does not fill members' request state".into());
    let items = media::collection(wire, id);
    Ok(reply(
        media::media_page(paging::local(items, page, true, "media")),
        warnings,
        false,
    ))
}

const MUSICBRAINZ_EMBED_CAP: usize = 25;

async fn artist_albums(ctx: &CallCtx, artist: &str, page: Page) -> Outcome {
    let what = format!("artist {artist}");
    let info = ctx
        .upstream
        .get_json::<ArtistInfo>(ctx.acting(), Route::get("api/v2/Search/artist").seg(artist))
        .await?
        .ok_or_else(|| not_found(&what))?;
    let items: Vec<Media> = info
        .release_groups
        .unwrap_or_default()
        .into_iter()
        .map(media::release_group_item)
        .collect();
    // MusicBrainz embeds at most 25 release groups in an artist lookup
    // (`MusicBrainzApi.GetArtistInformation`): a full list may go on.
    let capped = items.len() >= MUSICBRAINZ_EMBED_CAP;
    let mut warnings = Vec::new();
    if capped {
        warnings.push(paging::capped_warning(
            "25 albums of an artist (MusicBrainz's embedded list)",
            "read_search `album` with a title finds albums past it",
        ));
    }
    Ok(reply(
        media::media_page(paging::local(items, page, !capped, "media")),
        warnings,
        false,
    ))
}
