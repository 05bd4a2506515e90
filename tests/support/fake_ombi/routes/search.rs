//! Search and discovery: v2 multi-search, movie and TV popular lists.

use axum::response::Response;
use serde::Deserialize;
use serde_json::{Value, json};

use super::super::{json, problem_400};
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
}

/// `MultiSearchResult[]`: string ids, TMDB's lowercase media types.
fn multi(ctx: &Ctx) -> Response {
    let Some(filter) = ctx.body::<MultiSearchFilter>() else {
        return problem_400("filter", "The filter field is required.");
    };
    let term = ctx.param("searchTerm").to_lowercase();
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
    json(Value::Array(out))
}

fn movie_popular(ctx: &Ctx) -> Response {
    json(Value::Array(ctx.shared.data.lock().unwrap().movies.clone()))
}

fn page(items: &[Value], ctx: &Ctx) -> Value {
    Value::Array(
        items
            .iter()
            .skip(ctx.int("currentPosition").max(0) as usize)
            .take(ctx.int("amountToLoad").max(0) as usize)
            .cloned()
            .collect(),
    )
}

fn movie_popular_paged(ctx: &Ctx) -> Response {
    json(page(&ctx.shared.data.lock().unwrap().movies, ctx))
}

fn tv_popular(ctx: &Ctx) -> Response {
    json(page(&ctx.shared.data.lock().unwrap().tv, ctx))
}
