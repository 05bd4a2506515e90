//! `read_library`: what the media server recently added (media_page), the
//! ±90-day release calendar (calendar_page), and a title's artwork URL
//! (artwork_page).

use futures::future::BoxFuture;
use serde::Deserialize;

use super::ctx::note_read_limit;
use super::ctx::{reply, required_str};
use super::{CallCtx, Tool};
use crate::catalogue::params::*;
use crate::catalogue::shape::{Field, Ty};
use crate::catalogue::{Args, Bundle, ToolDef, action};
use crate::contract::Family;
use crate::contract::Outcome;
use crate::contract::ToolError;
use crate::projection::library::{self, CalendarWire, RecentlyAdded};
use crate::projection::media;
use crate::projection::paging;
use crate::upstream::Route;

pub static TOOL: Tool = Tool {
    def: ToolDef {
        name: "read_library",
        title: "Library",
        bundle: Bundle::Core,
        destructive: false,
        description: "What the media server holds: titles recently added, the release calendar, and poster/background/banner artwork of a title.",
        families: &[Family::MediaPage, Family::CalendarPage, Family::ArtworkPage],
        params: &[MEDIA, TMDB_ID, TVDB_ID, MUSICBRAINZ_ID, Field::opt("kind", Ty::Enum(&["poster", "background", "banner"]), "Artwork kind."), PAGE],
        actions: &[
            action("recently_added", "titles added in the last days", &["media"], PAGE_ONLY).only(&[("media", MEDIA_MOVIE_OR_TV)]),
            action("calendar", "upcoming and recent releases", &[], PAGE_ONLY),
            action("artwork", "artwork of a title: movie by tmdb_id, tv by tmdb_id or tvdb_id, album by musicbrainz_id", &["media", "kind"], PAGE_ONLY).one_of(&["tmdb_id", "tvdb_id", "musicbrainz_id"]),
        ],
        default_action: None,
        check: Some(media_details_rules),
    },
    run: handle,
};

fn handle<'a>(ctx: &'a CallCtx, args: &'a Args) -> BoxFuture<'a, Outcome> {
    Box::pin(run(ctx, args))
}

async fn run(ctx: &CallCtx, args: &Args) -> Outcome {
    match args.action() {
        "recently_added" => recently_added(ctx, args).await,
        "calendar" => calendar(ctx, args).await,
        "artwork" => artwork(ctx, args).await,
        other => Err(ToolError::invalid("/action", format!("unknown action `{other}`")).into()),
    }
}

async fn recently_added(ctx: &CallCtx, args: &Args) -> Outcome {
    // Ombi stops at this many rows, in the media server's store order.
    const OMBI_MAX_ROWS: usize = 30;
    let media = super::ctx::movie_or_tv(args)?;
    // TV: the per-episode route, grouped here per show and season (Ombi's
    // grouped route merges all shows by season number: docs/ombi-notes.md).
    let path = if media == "movie" {
        "api/v1/RecentlyAdded/movies"
    } else {
        "api/v1/RecentlyAdded/tv"
    };
    let b = ctx
        .upstream
        .get_array::<RecentlyAdded>(ctx.acting(), Route::get(path))
        .await?;
    let mut warnings = vec!["titles the media server sync added in the last 7 days".to_string()];
    note_read_limit(b.cut, &mut warnings);
    let capped = b.value.len() >= OMBI_MAX_ROWS;
    if capped {
        warnings.push(format!(
            "Ombi returns at most {OMBI_MAX_ROWS} {} in its own order, not by date: more may have been added",
            if media == "movie" { "titles" } else { "episodes" }
        ));
    }
    let items = if media == "movie" {
        b.value
            .into_iter()
            .map(|r| library::recently_added_item(media, r))
            .collect()
    } else {
        library::recently_added_shows(b.value)
    };
    let complete = !b.cut && !capped;
    let w = paging::local(items, args.page(), complete, "media");
    Ok(reply(media::media_page(w), warnings, !complete))
}

async fn calendar(ctx: &CallCtx, args: &Args) -> Outcome {
    let b = ctx
        .upstream
        .get_array::<CalendarWire>(ctx.acting(), Route::get("api/v2/Calendar"))
        .await?;
    let mut warnings = vec![
        "Ombi's calendar covers requested titles released within 90 days of the server's date, for all users; TV entries are titled by episode".to_string(),
    ];
    note_read_limit(b.cut, &mut warnings);
    let items = b.value.into_iter().map(library::calendar_entry).collect();
    let w = paging::local(items, args.page(), !b.cut, "calendar_entries");
    Ok(reply(library::calendar_page(w), warnings, b.cut))
}

/// `AlbumArt`: `{image}`.
#[derive(Deserialize)]
struct AlbumArt {
    image: Option<String>,
}

/// The Images route for (media, id kind, artwork kind). TV banners exist
/// only keyed by TVDB id; Ombi's movie "banner" is its background.
fn image_route(
    media: &str,
    kind: &str,
    tmdb: Option<i64>,
    tvdb: Option<i64>,
) -> Result<(Route, Option<&'static str>), ToolError> {
    let r = |p: &'static str, id: i64| Route::get(p).seg(id);
    Ok(match (media, kind, tmdb, tvdb) {
        ("movie", "poster", Some(id), _) => (r("api/v1/Images/poster/movie", id), None),
        ("movie", "background", Some(id), _) => (r("api/v1/Images/background/movie", id), None),
        ("movie", "banner", Some(id), _) => (
            r("api/v1/Images/banner/movie", id),
            Some("Ombi serves a movie's background image as its banner"),
        ),
        ("tv", "poster", Some(id), _) => (r("api/v1/Images/poster/tv/tmdb", id), None),
        ("tv", "background", Some(id), _) => (r("api/v1/Images/background/tv/tmdb", id), None),
        ("tv", "banner", Some(_), None) => {
            return Err(ToolError::invalid(
                "/tvdb_id",
                "TV banners are looked up by TVDB id: pass `tvdb_id`",
            ));
        }
        ("tv", "poster", None, Some(id)) => (r("api/v1/Images/poster/tv", id), None),
        ("tv", "background", None, Some(id)) => (r("api/v1/Images/background/tv", id), None),
        ("tv", "banner", _, Some(id)) => (r("api/v1/Images/tv", id), None),
        ("movie", ..) => {
            return Err(ToolError::invalid(
                "/tmdb_id",
                "movie artwork needs `tmdb_id`",
            ));
        }
        ("tv", ..) => {
            return Err(ToolError::invalid(
                "/tmdb_id",
                "TV artwork needs `tmdb_id` or `tvdb_id`",
            ));
        }
        _ => {
            return Err(ToolError::invalid(
                "/media",
                format!("no artwork route for `{media}`"),
            ));
        }
    })
}

async fn artwork(ctx: &CallCtx, args: &Args) -> Outcome {
    let media = required_str(args, "media")?;
    let kind = required_str(args, "kind")?;
    let mut warnings = Vec::new();
    let (url, name) = if media == "album" {
        let mbid = required_str(args, "musicbrainz_id")?;
        if kind != "poster" {
            return Err(ToolError::invalid(
                "/kind",
                "albums only have cover art: use `kind: poster`",
            )
            .into());
        }
        let art = ctx
            .upstream
            .get_json::<AlbumArt>(
                ctx.acting(),
                Route::get("api/v2/Search/releasegroupart").seg(mbid),
            )
            .await?;
        (
            art.and_then(|a| a.image).unwrap_or_default(),
            format!("cover of album {mbid}"),
        )
    } else {
        let tmdb = args.int("tmdb_id");
        let tvdb = args.int("tvdb_id");
        let (route, note) = image_route(media, kind, tmdb, tvdb)?;
        if let Some(n) = note {
            warnings.push(n.to_string());
        }
        let id = tmdb
            .map(|i| format!("TMDB id {i}"))
            .or(tvdb.map(|i| format!("TVDB id {i}")));
        let id = id.ok_or_else(|| ToolError::invalid("/tmdb_id", "an id is required"))?;
        let url = ctx
            .upstream
            .get_json::<String>(ctx.acting(), route)
            .await?
            .unwrap_or_default();
        (url, format!("{kind} of {media} {id}"))
    };
    let items = library::artwork(&url, name, kind, &mut warnings);
    if items.is_empty() && url.trim().is_empty() {
        warnings.push(format!("Ombi has no {kind} for this {media}"));
    }
    Ok(reply(
        library::artwork_page(paging::local(items, args.page(), true, "artwork")),
        warnings,
        false,
    ))
}
