//! `read_search`: text search. Ombi answers each search with a complete
//! array, so pages are local windows over it (total known unless the 8 MiB
//! cap cut the list).

use futures::future::BoxFuture;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::json;

use super::ctx::{body_language, language_ignored, note_read_limit, reply};
use super::{CallCtx, Tool};
use crate::contract::Family;
use crate::contract::Outcome;
use crate::contract::ToolError;
use crate::definition::params::*;
use crate::definition::{Args, Bundle, Page, ToolDef, action};
use crate::projection::media::{self, Media, MultiResult, SearchMovie};
use crate::projection::paging;
use crate::upstream::Route;

pub static TOOL: Tool = Tool {
    def: ToolDef {
        name: "read_search",
        title: "Search media",
        bundle: Bundle::Core,
        destructive: false,
        description: "Search Ombi's metadata sources by text for movies, TV shows, people, artists and albums. Use it to find the TMDB/MusicBrainz ids that read_media and write_request_create need; results show whether a title is already available or requested.",
        families: &[Family::MediaPage],
        params: &[QUERY, YEAR, LANGUAGE, PAGE],
        actions: &[
            action(
                "multi",
                "movies, TV, people and artists at once",
                &["query"],
                &["language", "page"],
            ),
            action(
                "movie",
                "movies only",
                &["query"],
                &["year", "language", "page"],
            ),
            action(
                "tv",
                "TV shows only (TMDB ids)",
                &["query"],
                &["language", "page"],
            ),
            action(
                "person_movies",
                "movies featuring an actor of that name",
                &["query"],
                &["language", "page"],
            ),
            action(
                "artist",
                "music artists (needs Lidarr)",
                &["query"],
                &["page"],
            ),
            action("album", "albums (needs Lidarr)", &["query"], &["page"]),
        ],
        default_action: Some("multi"),
        check: None,
    },
    run: handle,
};

/// The actions, as validated arguments deserialize into them.
#[derive(Deserialize)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
enum Action {
    Multi {
        query: String,
        language: Option<String>,
        page: Page,
    },
    Movie {
        query: String,
        year: Option<i64>,
        language: Option<String>,
        page: Page,
    },
    Tv {
        query: String,
        language: Option<String>,
        page: Page,
    },
    PersonMovies {
        query: String,
        language: Option<String>,
        page: Page,
    },
    Artist {
        query: String,
        page: Page,
    },
    Album {
        query: String,
        page: Page,
    },
}

fn handle<'a>(ctx: &'a CallCtx, args: &'a Args) -> BoxFuture<'a, Outcome> {
    Box::pin(async move {
        let mut warnings = Vec::new();
        let (found, page) = match args.parse::<Action>()? {
            Action::Multi {
                query,
                language,
                page,
            } => (
                multi(ctx, &query, language, false, &mut warnings).await,
                page,
            ),
            Action::Tv {
                query,
                language,
                page,
            } => (
                multi(ctx, &query, language, true, &mut warnings).await,
                page,
            ),
            Action::Movie {
                query,
                year,
                language,
                page,
            } => (movies(ctx, MOVIE, &query, year, language).await, page),
            Action::PersonMovies {
                query,
                language,
                page,
            } => (movies(ctx, ACTOR, &query, None, language).await, page),
            Action::Artist { query, page } => {
                (music(ctx, ARTIST, &query, media::artist_item).await, page)
            }
            Action::Album { query, page } => {
                (music(ctx, ALBUM, &query, media::album_item).await, page)
            }
        };
        let (items, cut) = found?;
        note_read_limit(cut, &mut warnings);
        let w = paging::local(items, page, !cut, "media");
        Ok(reply(media::media_page(w), warnings, cut))
    })
}

const MOVIE: &str = "api/v1/Search/movie";
const ACTOR: &str = "api/v1/Search/movie/actor";
const ARTIST: &str = "api/v1/Search/music/artist";
const ALBUM: &str = "api/v1/Search/music/album";

/// What a search found: the records and whether the read was cut.
type Found = Result<(Vec<Media>, bool), ToolError>;

/// Ombi unescapes the multi-search term a second time after routing, so a
/// literal `%` must reach it as `%25`.
fn multi_term(q: &str) -> String {
    q.replace('%', "%25")
}

async fn list<T: DeserializeOwned>(
    ctx: &CallCtx,
    route: Route,
) -> Result<(Vec<T>, bool), ToolError> {
    let b = ctx.upstream.get_array::<T>(ctx.acting(), route).await?;
    Ok((b.value, b.cut))
}

/// The v2 multi-search; `tv_only` restricts it to TV: TMDB ids, the ids TV
/// requests take (the v1 TVMaze search would yield TVDB ids).
async fn multi(
    ctx: &CallCtx,
    query: &str,
    language: Option<String>,
    tv_only: bool,
    warnings: &mut Vec<String>,
) -> Found {
    language_ignored(language.as_deref(), warnings);
    let filter =
        json!({"movies": !tv_only, "tvShows": true, "music": !tv_only, "people": !tv_only});
    let route = Route::post_read("api/v2/Search/multi")
        .seg(multi_term(query))
        .json(&filter);
    let (rows, cut) = list::<MultiResult>(ctx, route).await?;
    let items = rows
        .into_iter()
        .filter(|r| {
            !tv_only
                || r.media_type
                    .as_deref()
                    .is_some_and(|t| t.eq_ignore_ascii_case("tv"))
        })
        .map(|r| media::multi_item(r, warnings))
        .collect();
    Ok((items, cut))
}

/// The v1 movie searches (by title, with an optional year; by actor).
async fn movies(
    ctx: &CallCtx,
    path: &'static str,
    query: &str,
    year: Option<i64>,
    language: Option<String>,
) -> Found {
    let mut body = json!({"searchTerm": query});
    if let Some(lang) = body_language(ctx, language.as_deref()).await {
        body["languageCode"] = json!(lang);
    }
    if let Some(year) = year {
        body["year"] = json!(year);
    }
    let (rows, cut) = list::<SearchMovie>(ctx, Route::post_read(path).json(&body)).await?;
    Ok((rows.into_iter().map(media::movie_item).collect(), cut))
}

/// The Lidarr-backed searches (artists, albums).
async fn music<T: DeserializeOwned>(
    ctx: &CallCtx,
    path: &'static str,
    query: &str,
    item: fn(T) -> Media,
) -> Found {
    ctx.require_lidarr().await?;
    let (rows, cut) = list::<T>(ctx, Route::get(path).seg(query)).await?;
    Ok((rows.into_iter().map(item).collect(), cut))
}
