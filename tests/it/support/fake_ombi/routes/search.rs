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
/// is asked for. Ombi unescapes `{searchTerm}` once more after routing
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
    let mut out = Vec::new();
    if filter.movies {
        for m in data.movies.iter().filter(|m| hit(m)) {
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
    if filter.tv_shows {
        for t in data.tv.iter().filter(|t| hit(t)) {
            out.push(json!({
                "id": t["id"].to_string(), "mediaType": "tv", "title": t["title"],
                "poster": t["posterPath"], "overview": t["overview"]
            }));
        }
    }
    if filter.people {
        for (id, name) in PEOPLE
            .iter()
            .filter(|(_, n)| n.to_lowercase().contains(&term))
        {
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
    json(page(tv, ctx))
}
