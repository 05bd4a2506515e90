//! `read_search`: text search. Ombi answers each search with one array,
//! windowed locally; where Ombi cut it at a fixed size (TMDB's first page,
//! its own `Take(10)`) the end is unknown and one warning says so.

use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::json;

use crate::contract::Family;
use crate::contract::Outcome;
use crate::contract::ToolError;
use crate::definition::params::*;
use crate::definition::{Bundle, Page, ToolActions, ToolDef};
use crate::projection::media::{self, Media, MultiResult, SearchMovie};
use crate::projection::paging;
use crate::tools::{Actions, CallCtx, Tool};
use crate::tools::{language_ignored, note_read_limit, reply};
use crate::upstream::Route;

pub static TOOL: Tool = Tool::new::<Action>(ToolDef {
    name: "read_search",
    title: "Search media",
    bundle: Bundle::Core,
    destructive: false,
    description: "Search movies, TV shows, people, artists and albums by text, for the ids other tools take. Ombi returns at most 10 movies and TMDB's first 20 titles for `multi` and `tv`: if one is missing, add the year. With Ombi's hide-requests setting a non-admin sees request state of their own requests only.",
    families: &[Family::MediaPage],
    default_action: Some("multi"),
    ..ToolDef::BASE
})
.examples(&[
    (r#"{"query": "matrix"}"#, true),
    (r#"{"action": "movie", "query": "matrix", "year": 1999}"#, true),
    (r#"{"action": "tv", "query": "breaking"}"#, true),
    (r#"{"action": "person_movies", "query": "keanu"}"#, true),
    (r#"{"action": "artist", "query": "linkin"}"#, true),
    (r#"{"action": "album", "query": "hybrid"}"#, true),
])
.invalid(&[
    (r#"{}"#, "/query"),
    (r#"{"query": ""}"#, "/query"),
    (r#"{"query": "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}"#, "/query"),
    (r#"{"query": 5}"#, "/query"),
    (r#"{"query": "m", "page": {"limit": 0}}"#, "/page/limit"),
    (r#"{"query": "m", "page": {"limit": 101}}"#, "/page/limit"),
    (r#"{"query": "m", "page": {"limit": 1.5}}"#, "/page/limit"),
    (r#"{"query": "m", "page": {"offset": -1}}"#, "/page/offset"),
    (r#"{"query": "m", "page": {"size": 5}}"#, "/page/size"),
    (r#"{"query": "m", "page": []}"#, "/page"),
    (r#"{"query": "m", "action": "films"}"#, "/action"),
    (r#"{"query": "m", "foo": 1}"#, "/foo"),
    (r#"{"query": "m", "action": "movie", "year": "1999"}"#, "/year"),
    (r#"{"query": "m", "year": 1999}"#, "/year"),
]);

/// The actions, as validated arguments deserialize into them.
#[derive(Deserialize, ToolActions)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
enum Action {
    /// movies, TV, people and artists at once (no availability or request state: read_media `details` has it)
    Multi {
        query: String,
        language: Option<String>,
        page: Page,
    },
    /// movies, with availability and request state
    Movie {
        query: String,
        year: Option<i64>,
        language: Option<String>,
        page: Page,
    },
    /// TV shows only (TMDB ids; no availability or request state)
    Tv {
        query: String,
        language: Option<String>,
        page: Page,
    },
    /// movies featuring an actor of that name, with availability and request state
    PersonMovies {
        query: String,
        language: Option<String>,
        page: Page,
    },
    /// music artists (needs Lidarr)
    Artist { query: String, page: Page },
    /// albums, with availability and request state (needs Lidarr)
    Album { query: String, page: Page },
}

impl Actions for Action {
    async fn run(self, ctx: &CallCtx) -> Outcome {
        let mut warnings = Vec::new();
        let (found, page) = match self {
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
        let Found { items, cut, capped } = found?;
        note_read_limit(cut, &mut warnings);
        if let Some(cap) = capped {
            warnings.push(paging::capped_warning(
                cap,
                "narrow the query (a fuller title, the year) to reach titles past it",
            ));
        }
        let w = paging::local(items, page, !cut && capped.is_none(), "media");
        Ok(reply(media::media_page(w), warnings, cut))
    }
}

const MOVIE: &str = "api/v1/Search/movie";
const ACTOR: &str = "api/v1/Search/movie/actor";
const ARTIST: &str = "api/v1/Search/music/artist";
const ALBUM: &str = "api/v1/Search/music/album";

/// What a search found: the records, whether the read was cut, and the cap
/// Ombi's answer reached (then more may exist).
struct Found {
    items: Vec<Media>,
    cut: bool,
    capped: Option<&'static str>,
}

/// Ombi's movie searches keep the first 10 TMDB results
/// (`MovieSearchEngine.cs`: `Take(ResultLimit)`, 10; `SearchActor`: `Take(10)`).
const MOVIE_CAP: usize = 10;
/// The multi-search reads TMDB's first page only (`MultiSearchEngine.cs`),
/// 20 titles of every kind, and at most 10 MusicBrainz artists.
const TMDB_PAGE: usize = 20;
const ARTIST_CAP: usize = 10;

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

/// The v2 multi-search; `tv_only` keeps TV: TMDB ids, the ids TV requests
/// take (the v1 TVMaze search would yield TVDB ids). TV asks for every TMDB
/// kind and filters here, so a TMDB page that was full is known as such.
async fn multi(
    ctx: &CallCtx,
    query: &str,
    language: Option<String>,
    tv_only: bool,
    warnings: &mut Vec<String>,
) -> Result<Found, ToolError> {
    language_ignored(language.as_deref(), warnings);
    let filter = json!({"movies": true, "tvShows": true, "music": !tv_only, "people": true});
    let route = Route::post_read("api/v2/Search/multi")
        .seg(multi_term(query))
        .json(&filter);
    let (rows, cut) = list::<MultiResult>(ctx, route).await?;
    let is = |r: &MultiResult, kind: &str| {
        r.media_type
            .as_deref()
            .is_some_and(|t| t.eq_ignore_ascii_case(kind))
    };
    let artists = rows.iter().filter(|r| is(r, "artist")).count();
    let capped = if rows.len() - artists >= TMDB_PAGE {
        Some("TMDB's first page (20 titles of every kind)")
    } else if artists >= ARTIST_CAP {
        Some("10 artists")
    } else {
        None
    };
    let items = rows
        .into_iter()
        .filter(|r| !tv_only || is(r, "tv"))
        .map(|r| media::multi_item(r, warnings))
        .collect();
    Ok(Found { items, cut, capped })
}

/// The v1 movie searches (by title, with an optional year; by actor).
async fn movies(
    ctx: &CallCtx,
    path: &'static str,
    query: &str,
    year: Option<i64>,
    language: Option<String>,
) -> Result<Found, ToolError> {
    let mut body = json!({"searchTerm": query});
    if let Some(lang) = ctx.body_language(language.as_deref()).await {
        body["languageCode"] = json!(lang);
    }
    if let Some(year) = year {
        body["year"] = json!(year);
    }
    let (rows, cut) = list::<SearchMovie>(ctx, Route::post_read(path).json(&body)).await?;
    let capped = (rows.len() >= MOVIE_CAP).then_some("10 movies");
    let items = rows.into_iter().map(media::movie_item).collect();
    Ok(Found { items, cut, capped })
}

/// The Lidarr-backed searches (artists, albums): Lidarr's whole answer.
async fn music<T: DeserializeOwned>(
    ctx: &CallCtx,
    path: &'static str,
    query: &str,
    item: fn(T) -> Media,
) -> Result<Found, ToolError> {
    ctx.require_lidarr().await?;
    let (rows, cut) = list::<T>(ctx, Route::get(path).seg(query)).await?;
    let items = rows.into_iter().map(item).collect();
    Ok(Found {
        items,
        cut,
        capped: None,
    })
}
