//! Search and discovery: v2 multi-search, movie and TV popular lists.

use axum::response::Response;
use serde::Deserialize;
use serde_json::{Value, json};

use super::super::state::percent_decode;
use super::super::{json, problem_400};
use super::media::data::LINKIN_PARK;
use super::{Access, Ctx, RouteDef};

pub fn routes() -> Vec<RouteDef> {
    vec![
        RouteDef {
            method: "POST",
            template: "api/v2/Search/multi/{searchTerm}",
            access: Access::Authenticated,
            handler: multi,
        },
        RouteDef {
            method: "GET",
            template: "api/v2/Search/movie/popular",
            access: Access::Authenticated,
            handler: movie_popular,
        },
        RouteDef {
            method: "GET",
            template: "api/v2/Search/movie/popular/{currentPosition:int}/{amountToLoad:int}",
            access: Access::Authenticated,
            handler: movie_popular_paged,
        },
        RouteDef {
            method: "GET",
            template: "api/v2/Search/tv/popular/{currentPosition:int}/{amountToLoad:int}",
            access: Access::Authenticated,
            handler: tv_popular,
        },
    ]
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct MultiSearchFilter {
    #[serde(default)]
    movies: bool,
    #[serde(default)]
    tv_shows: bool,
    #[serde(default)]
    people: bool,
    #[serde(default)]
    music: bool,
}

/// TMDB people the multi-search knows.
const PEOPLE: &[(i64, &str)] = &[(6384, "Keanu Reeves"), (17419, "Bryan Cranston")];

/// `MultiSearchResult[]`: string ids, TMDB's lowercase media types, and
/// `"Artist"` (capital A, MBID) rows only when Lidarr is enabled and `music`
/// is asked for. TMDB's multi-search answers its first page only (20 rows
/// of every kind, before Ombi drops the kinds the filter leaves out) and
/// MusicBrainz at most 10 artists (`MultiSearchEngine.cs`,
/// `MusicBrainzApi.SearchArtist(query, 10)`). Ombi unescapes `{searchTerm}` once more after routing
/// (ledger: double-decoding), so `%25` arrives as `%` and a lone `%` as is.
fn multi(ctx: &Ctx) -> Response {
    let Some(filter) = ctx.body::<MultiSearchFilter>() else {
        return problem_400("filter", "The filter field is required.");
    };
    let term = percent_decode(ctx.param("searchTerm")).to_lowercase();
    let data = ctx.shared.data.lock().unwrap();
    let hit = |v: &Value| {
        v["title"]
            .as_str()
            .unwrap_or("")
            .to_lowercase()
            .contains(&term)
    };
    // TMDB's page 1: movies, shows and people as TMDB ranks them (here:
    // in that order), 20 in all; then Ombi keeps the kinds asked for.
    let mut tmdb_rows = 0;
    let mut page1 = |asked: bool| {
        tmdb_rows += 1;
        asked && tmdb_rows <= 20
    };
    let mut out = Vec::new();
    {
        for m in data.movies.iter().filter(|m| hit(m)) {
            if !page1(filter.movies) {
                continue;
            }
            let year = m["releaseDate"]
                .as_str()
                .and_then(|d| d.get(..4))
                .unwrap_or("");
            out.push(json!({
                "id": m["id"].to_string(), "mediaType": "movie",
                "title": format!("{} ({year})", m["title"].as_str().unwrap_or("")),
                "poster": m["posterPath"], "overview": m["overview"]
            }));
        }
    }
    {
        for t in data.tv.iter().filter(|t| hit(t)) {
            if !page1(filter.tv_shows) {
                continue;
            }
            out.push(json!({
                "id": t["id"].to_string(), "mediaType": "tv", "title": t["title"],
                "poster": t["posterPath"], "overview": t["overview"]
            }));
        }
    }
    {
        for (id, name) in PEOPLE
            .iter()
            .filter(|(_, n)| n.to_lowercase().contains(&term))
        {
            if !page1(filter.people) {
                continue;
            }
            out.push(json!({
                "id": id.to_string(), "mediaType": "person", "title": name, "poster": null, "overview": null
            }));
        }
    }
    if filter.music && data.requests.lidarr_enabled && "linkin park".contains(&term) {
        out.push(json!({
            "id": LINKIN_PARK, "mediaType": "Artist", "title": "Linkin Park", "poster": null, "overview": null
        }));
    }
    json(Value::Array(out))
}

fn movie_popular(ctx: &Ctx) -> Response {
    json(Value::Array(ctx.shared.data.lock().unwrap().movies.clone()))
}

fn page(items: Vec<Value>, ctx: &Ctx) -> Value {
    super::media::window(items, ctx)
}

fn movie_popular_paged(ctx: &Ctx) -> Response {
    let movies = ctx.shared.data.lock().unwrap().movies.clone();
    json(page(movies, ctx))
}

fn tv_popular(ctx: &Ctx) -> Response {
    let tv = ctx.shared.data.lock().unwrap().tv.clone();
    json(super::media::tmdb_tv_window(tv, ctx))
}
