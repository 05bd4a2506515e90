//! `read_library`: what the media server recently added (media_page), the
//! ±90-day release calendar (calendar_page), and a title's artwork URL
//! (artwork_page).

use serde::Deserialize;

use crate::contract::Family;
use crate::contract::Outcome;
use crate::contract::ToolError;
use crate::definition::params::*;
use crate::definition::shape::{Field, Ty};
use crate::definition::{Bundle, Page, ToolActions, ToolDef};
use crate::projection::library::{self, RecentlyAdded, WireCalendar};
use crate::projection::media;
use crate::projection::paging;
use crate::tools::{Actions, CallCtx, Tool};
use crate::tools::{note_read_limit, reply};
use crate::upstream::Route;

const KIND: Field = Field::opt("kind", Ty::Enum(ARTWORK_KINDS), "");

pub static TOOL: Tool = Tool::new::<Action>(ToolDef {
        name: "read_library",
        title: "Library",
        bundle: Bundle::Core,
        destructive: false,
        description: "What the media server holds: recently added titles, the release calendar, artwork.",
        families: &[Family::MediaPage, Family::CalendarPage, Family::ArtworkPage],
        check: Some(media_details_rules),
        ..ToolDef::BASE
})
.examples(&[
    (r#"{"action": "recently_added", "media": "movie"}"#, true),
    (r#"{"action": "recently_added", "media": "tv"}"#, true),
    (r#"{"action": "calendar"}"#, true),
    (r#"{"action": "artwork", "media": "movie", "tmdb_id": 603, "kind": "poster"}"#, true),
    (r#"{"action": "artwork", "media": "album", "musicbrainz_id": "2a0981fb-9593-3019-864b-ce934d97a16e", "kind": "poster"}"#, true),
])
.invalid(&[
    (r#"{"action": "artwork", "media": "movie", "kind": "poster"}"#, "/tmdb_id"),
    (r#"{"action": "artwork", "media": "movie", "tmdb_id": 5, "kind": "thumbnail"}"#, "/kind"),
    (r#"{"action": "recently_added", "media": "album"}"#, "/media"),
]);

const ARTWORK_KINDS: &[&str] = &["poster", "background", "banner"];

/// A label of [`ARTWORK_KINDS`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
enum ArtworkKind {
    Poster,
    Background,
    Banner,
}

impl ArtworkKind {
    const fn label(self) -> &'static str {
        match self {
            ArtworkKind::Poster => "poster",
            ArtworkKind::Background => "background",
            ArtworkKind::Banner => "banner",
        }
    }
}

/// The actions, as validated arguments deserialize into them.
#[derive(Deserialize, ToolActions)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
enum Action {
    /// titles added in the last days
    RecentlyAdded {
        #[arg(only = MEDIA_MOVIE_OR_TV)]
        media: MovieOrTv,
        page: Page,
    },
    /// upcoming and recent releases
    Calendar { page: Page },
    // The definition's rules leave exactly the one id the media takes.
    /// artwork of a title (movie: tmdb_id, tv: tmdb_id/tvdb_id, album: musicbrainz_id)
    Artwork {
        media: MediaKind,
        #[arg(one_of)]
        tmdb_id: Option<i64>,
        #[arg(one_of)]
        tvdb_id: Option<i64>,
        #[arg(one_of)]
        musicbrainz_id: Option<String>,
        kind: ArtworkKind,
        page: Page,
    },
}

impl Actions for Action {
    async fn run(self, ctx: &CallCtx) -> Outcome {
        match self {
            Action::RecentlyAdded { media, page } => recently_added(ctx, media, page).await,
            Action::Calendar { page } => calendar(ctx, page).await,
            Action::Artwork {
                media,
                kind,
                tmdb_id,
                tvdb_id,
                musicbrainz_id,
                page,
            } => {
                let screen = match media {
                    MediaKind::Movie => MovieOrTv::Movie,
                    MediaKind::Tv => MovieOrTv::Tv,
                    MediaKind::Album => return album_cover(ctx, musicbrainz_id, kind, page).await,
                };
                screen_artwork(ctx, screen, kind, tmdb_id, tvdb_id, page).await
            }
        }
    }
}

async fn recently_added(ctx: &CallCtx, media: MovieOrTv, page: Page) -> Outcome {
    // Ombi stops at this many rows, in the media server's store order.
    const OMBI_MAX_ROWS: usize = 30;
    let media = media.label();
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
    let w = paging::local(items, page, complete, "media");
    Ok(reply(media::media_page(w), warnings, !complete))
}

async fn calendar(ctx: &CallCtx, page: Page) -> Outcome {
    let b = ctx
        .upstream
        .get_array::<WireCalendar>(ctx.acting(), Route::get("api/v2/Calendar"))
        .await?;
    let mut warnings = vec![
        "Ombi's calendar covers requested titles released within 90 days of the server's date, for all users; TV entries are titled by episode".to_string(),
    ];
    note_read_limit(b.cut, &mut warnings);
    let items = b.value.into_iter().map(library::calendar_entry).collect();
    let w = paging::local(items, page, !b.cut, "calendar_entries");
    Ok(reply(library::calendar_page(w), warnings, b.cut))
}

/// `AlbumArt`: `{image}`.
#[derive(Deserialize)]
struct AlbumArt {
    image: Option<String>,
}

/// The Images route for a movie's or show's artwork, with a note when Ombi
/// serves something else. TV banners exist only keyed by TVDB id; Ombi's
/// movie "banner" is its background.
fn image_route(
    media: MovieOrTv,
    kind: ArtworkKind,
    tmdb: Option<i64>,
    tvdb: Option<i64>,
) -> Result<(Route, Option<&'static str>), ToolError> {
    use ArtworkKind::{Background, Banner, Poster};
    use MovieOrTv::{Movie, Tv};
    let r = |p: &'static str, id: i64| Route::get(p).seg(id);
    Ok(match (media, kind, tmdb, tvdb) {
        (Movie, Poster, Some(id), _) => (r("api/v1/Images/poster/movie", id), None),
        (Movie, Background, Some(id), _) => (r("api/v1/Images/background/movie", id), None),
        (Movie, Banner, Some(id), _) => (
            r("api/v1/Images/banner/movie", id),
            Some("Ombi serves a movie's background image as its banner"),
        ),
        (Tv, Poster, Some(id), _) => (r("api/v1/Images/poster/tv/tmdb", id), None),
        (Tv, Background, Some(id), _) => (r("api/v1/Images/background/tv/tmdb", id), None),
        (Tv, Banner, Some(_), None) => {
            return Err(ToolError::invalid(
                "/tvdb_id",
                "TV banners are looked up by TVDB id: pass `tvdb_id`",
            ));
        }
        (Tv, Poster, None, Some(id)) => (r("api/v1/Images/poster/tv", id), None),
        (Tv, Background, None, Some(id)) => (r("api/v1/Images/background/tv", id), None),
        (Tv, Banner, _, Some(id)) => (r("api/v1/Images/tv", id), None),
        (Movie, ..) => {
            return Err(ToolError::invalid(
                "/tmdb_id",
                "movie artwork needs `tmdb_id`",
            ));
        }
        (Tv, ..) => {
            return Err(ToolError::invalid(
                "/tmdb_id",
                "TV artwork needs `tmdb_id` or `tvdb_id`",
            ));
        }
    })
}

/// A movie's or show's artwork by its TMDB or TVDB id.
async fn screen_artwork(
    ctx: &CallCtx,
    media: MovieOrTv,
    kind: ArtworkKind,
    tmdb: Option<i64>,
    tvdb: Option<i64>,
    page: Page,
) -> Outcome {
    let mut warnings = Vec::new();
    let (route, note) = image_route(media, kind, tmdb, tvdb)?;
    if let Some(n) = note {
        warnings.push(n.to_string());
    }
    let id = tmdb
        .map(|i| format!("TMDB id {i}"))
        .or(tvdb.map(|i| format!("TVDB id {i}")))
        .ok_or_else(|| ToolError::invalid("/tmdb_id", "an id is required"))?;
    let url = ctx.get_json::<String>(route).await?.unwrap_or_default();
    let name = format!("{} of {} {id}", kind.label(), media.label());
    artwork_reply(&url, name, kind, media.label(), page, warnings)
}

/// An album's cover art (albums have no other artwork).
async fn album_cover(
    ctx: &CallCtx,
    mbid: Option<String>,
    kind: ArtworkKind,
    page: Page,
) -> Outcome {
    let mbid = mbid.ok_or_else(|| {
        ToolError::invalid("/musicbrainz_id", "album artwork needs `musicbrainz_id`")
    })?;
    if kind != ArtworkKind::Poster {
        return Err(
            ToolError::invalid("/kind", "albums only have cover art: use `kind: poster`").into(),
        );
    }
    let art = ctx
        .get_json::<AlbumArt>(Route::get("api/v2/Search/releasegroupart").seg(&mbid))
        .await?;
    let url = art.and_then(|a| a.image).unwrap_or_default();
    let name = format!("cover of album {mbid}");
    artwork_reply(&url, name, kind, "album", page, Vec::new())
}

fn artwork_reply(
    url: &str,
    name: String,
    kind: ArtworkKind,
    media: &str,
    page: Page,
    mut warnings: Vec<String>,
) -> Outcome {
    let items = library::artwork(url, name, kind.label(), &mut warnings);
    if items.is_empty() && url.trim().is_empty() {
        warnings.push(format!("Ombi has no {} for this {media}", kind.label()));
    }
    Ok(reply(
        library::artwork_page(paging::local(items, page, true, "artwork")),
        warnings,
        false,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn artwork_kind_mirrors_its_labels() {
        crate::definition::params::assert_mirrors(ARTWORK_KINDS, ArtworkKind::label);
    }
}
