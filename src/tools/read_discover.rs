//! `read_discover`: curated lists (upstream-paged `{currentPosition}/{amountToLoad}`),
//! filtered discovery, similar movies, a person's credits, a collection's
//! members and an artist's albums.

use futures::StreamExt;
use futures::future::BoxFuture;
use serde::Deserialize;
use serde_json::{Map, Value, json};

use super::ctx::{body_language, language_ignored, not_found};
use super::ctx::{partial, reply, required_int, required_str};
use super::{CallCtx, Tool};
use crate::catalogue::Page;
use crate::catalogue::params::*;
use crate::catalogue::shape::{Field, Ty};
use crate::catalogue::{Args, Bundle, ToolDef, action};
use crate::contract::Family;
use crate::contract::{ErrorCode, ToolError};
use crate::contract::{Outcome, Reply};
use crate::projection::identifiers::{Namespace, Origin};
use crate::projection::media::{
    self, ActorCredits, ArtistInfo, CollectionWire, Media, RecentlyRequested, SearchMovie, SearchTv,
};
use crate::projection::paging::{self, Window};
use crate::upstream::Route;

/// TV credit titles looked up per page at most (Ombi's credit model has no
/// TV title, so each one costs a details call).
const TITLE_LOOKUPS: usize = 20;
/// Concurrent title lookups.
const LOOKUP_CONCURRENCY: usize = 4;

const SNAPSHOT_NOTE: &str =
    "Ombi pages this list itself without a snapshot: titles may shift between pages";

pub static TOOL: Tool = Tool {
    def: ToolDef {
        name: "read_discover",
        title: "Discover media",
        bundle: Bundle::Core,
        destructive: false,
        description: "Browse curated lists instead of searching: popular, trending or upcoming titles, advanced filtered discovery, similar movies, a person's credits, a collection's members or an artist's albums.",
        families: &[Family::MediaPage],
        params: &[
            MEDIA_MOVIE_TV,
            FILTERS,
            TMDB_ID,
            Field::opt("person_id", Ty::ID, "TMDB person id."),
            Field::opt(
                "name",
                Ty::Str { min: 1, max: 200 },
                "The person's name (Ombi does not return it).",
            ),
            COLLECTION_ID,
            Field::opt("artist_id", Ty::TEXT_ID, "MusicBrainz artist id."),
            LANGUAGE,
            PAGE,
        ],
        actions: &[
            action("popular", "popular titles", &["media"], PAGE_ONLY),
            action("now_playing", "movies in cinemas", &["media"], PAGE_ONLY)
                .only(&[("media", &["movie"])]),
            action("top_rated", "top rated movies", &["media"], PAGE_ONLY)
                .only(&[("media", &["movie"])]),
            action("upcoming", "upcoming movies", &["media"], PAGE_ONLY)
                .only(&[("media", &["movie"])]),
            action("seasonal", "seasonal movies", &["media"], PAGE_ONLY)
                .only(&[("media", &["movie"])]),
            action("trending", "trending TV shows", &["media"], PAGE_ONLY)
                .only(&[("media", &["tv"])]),
            action("anticipated", "anticipated TV shows", &["media"], PAGE_ONLY)
                .only(&[("media", &["tv"])]),
            action(
                "requested",
                "recently requested titles (cached by Ombi for hours, the same for every user)",
                &["media"],
                PAGE_ONLY,
            ),
            action(
                "advanced",
                "filtered discovery",
                &["filters"],
                &["media", "page"],
            ),
            action(
                "similar",
                "movies similar to a movie",
                &["tmdb_id"],
                &["language", "page"],
            ),
            action(
                "credits",
                "a person's movie and TV credits",
                &["person_id", "name"],
                &["media", "page"],
            ),
            action(
                "collection",
                "a movie collection's members",
                &["collection_id"],
                &["language", "page"],
            ),
            action(
                "artist_albums",
                "an artist's albums",
                &["artist_id"],
                PAGE_ONLY,
            ),
        ],
        default_action: None,
        check: Some(discover_rules),
    },
    run: handle,
};

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

fn handle<'a>(ctx: &'a CallCtx, args: &'a Args) -> BoxFuture<'a, Outcome> {
    Box::pin(run(ctx, args))
}

/// The v2 list slug of a browse action, per media.
fn slug(action: &str, media: &str) -> Option<&'static str> {
    Some(match (media, action) {
        ("movie", "popular") => "popular",
        ("movie", "now_playing") => "nowplaying",
        ("movie", "top_rated") => "toprated",
        ("movie", "upcoming") => "upcoming",
        ("movie", "seasonal") => "seasonal",
        ("movie", "requested") | ("tv", "requested") => "requested",
        ("tv", "popular") => "popular",
        ("tv", "trending") => "trending",
        ("tv", "anticipated") => "anticipated",
        _ => return None,
    })
}

fn media_of(args: &Args) -> Result<&'static str, ToolError> {
    super::ctx::movie_or_tv(args)
}

async fn run(ctx: &CallCtx, args: &Args) -> Outcome {
    let page = args.page();
    match args.action() {
        a @ ("popular" | "now_playing" | "top_rated" | "upcoming" | "seasonal" | "trending"
        | "anticipated") => browse(ctx, args, a, page).await,
        "requested" => requested(ctx, args, page).await,
        "advanced" => advanced(ctx, args, page).await,
        "similar" => similar(ctx, args, page).await,
        "credits" => credits(ctx, args, page).await,
        "collection" => collection(ctx, args, page).await,
        "artist_albums" => artist_albums(ctx, args, page).await,
        other => Err(ToolError::invalid("/action", format!("unknown action `{other}`")).into()),
    }
}

/// One upstream-paged list read: movies or shows (season trees skipped).
async fn paged_list(
    ctx: &CallCtx,
    media: &'static str,
    route: Route,
) -> Result<(Vec<Media>, bool), ToolError> {
    if media == "movie" {
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

fn paged_route(media: &str, slug: &str, page: Page) -> Route {
    let base = if media == "movie" {
        "api/v2/Search/movie"
    } else {
        "api/v2/Search/tv"
    };
    Route::get(base).seg(slug).seg(page.offset).seg(page.limit)
}

fn upstream_reply(items: Vec<Media>, page: Page, cut: bool, mut warnings: Vec<String>) -> Reply {
    super::ctx::note_read_limit(cut, &mut warnings);
    warnings.push(SNAPSHOT_NOTE.into());
    let mut w = paging::upstream(items, page, "media");
    if cut {
        // The list was cut while reading: whether more exist is unknown.
        w.page.has_more = None;
        w.page.next_offset = Some(page.offset + w.page.returned);
    }
    reply(media::media_page(w), warnings, cut)
}

async fn browse(ctx: &CallCtx, args: &Args, action: &str, page: Page) -> Outcome {
    let media = media_of(args)?;
    let slug = slug(action, media).ok_or_else(|| {
        ToolError::invalid("/media", format!("`{action}` is not offered for `{media}`"))
    })?;
    let (items, cut) = paged_list(ctx, media, paged_route(media, slug, page)).await?;
    Ok(upstream_reply(items, page, cut, Vec::new()))
}

/// Recently requested titles (docs/ombi-notes.md). Ombi's inner cache
/// ignores the position, so pages can repeat; when the list fails, the bounded recently-requested feed
/// (≤ 7 per type) is returned instead, marked truncated.
async fn requested(ctx: &CallCtx, args: &Args, page: Page) -> Outcome {
    let media = media_of(args)?;
    let primary = paged_list(ctx, media, paged_route(media, "requested", page)).await;
    match primary {
        Ok((items, cut)) => {
            let mut warnings = vec![
                "Ombi caches this list without its position, so no page after this one can be read reliably (pages repeat); ask for a larger `limit` (up to 100) instead".to_string(),
            ];
            super::ctx::note_read_limit(cut, &mut warnings);
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
                .filter(|r| r.media() == Some(media))
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

fn ids(filters: Option<&Value>, name: &str) -> Vec<i64> {
    filters
        .and_then(|f| f.get(name))
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_i64).collect())
        .unwrap_or_default()
}

async fn advanced(ctx: &CallCtx, args: &Args, page: Page) -> Outcome {
    // The catalogue asks only for `filters`; Ombi's one discovery route is
    // the movie one, so movies unless `media: tv` is asked for.
    let media = match args.str("media") {
        None => "movie",
        Some(_) => media_of(args)?,
    };
    let f = args.value("filters");
    let body = DiscoverModel {
        kind: media,
        release_year: f
            .and_then(|f| f.get("release_year"))
            .and_then(Value::as_i64),
        decade: f.and_then(|f| f.get("decade")).and_then(Value::as_i64),
        genre_ids: ids(f, "genre_ids"),
        watch_providers: ids(f, "watch_provider_ids"),
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
            if media == "tv" {
                // Request state was matched against MOVIE requests upstream.
                m.media = "tv";
                m.requested = None;
                m.available = None;
                m.request_targets.clear();
            }
            m
        })
        .collect();
    if media == "tv" {
        warnings.push("Ombi reports request state for discovered shows against movie requests, so it is left out; use read_media for a show's state".into());
    }
    Ok(upstream_reply(items, page, b.cut, warnings))
}

async fn similar(ctx: &CallCtx, args: &Args, page: Page) -> Outcome {
    let tmdb = required_int(args, "tmdb_id")?;
    let mut body = json!({"theMovieDbId": tmdb});
    if let Some(lang) = body_language(ctx, args.str("language")).await {
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
    super::ctx::note_read_limit(b.cut, &mut warnings);
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

async fn credits(ctx: &CallCtx, args: &Args, page: Page) -> Outcome {
    let person = required_int(args, "person_id")?;
    let name = required_str(args, "name")?;
    let kinds: &[&'static str] = match args.str("media") {
        Some("movie") => &["movie"],
        Some("tv") => &["tv"],
        _ => &["movie", "tv"],
    };
    let mut all: Vec<Media> = Vec::new();
    let mut failed: Vec<(&str, ToolError)> = Vec::new();
    for kind in kinds {
        let route = Route::get("api/v2/Search/actor").seg(person).seg(*kind);
        match ctx
            .upstream
            .get_json::<ActorCredits>(ctx.acting(), route)
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

async fn collection(ctx: &CallCtx, args: &Args, page: Page) -> Outcome {
    let id = required_int(args, "collection_id")?;
    let mut warnings = Vec::new();
    language_ignored(args.str("language"), &mut warnings);
    let what = format!("collection {id}");
    let wire = ctx
        .upstream
        .get_json::<CollectionWire>(
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

async fn artist_albums(ctx: &CallCtx, args: &Args, page: Page) -> Outcome {
    let artist = required_str(args, "artist_id")?;
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
    Ok(reply(
        media::media_page(paging::local(items, page, true, "media")),
        Vec::new(),
        false,
    ))
}
