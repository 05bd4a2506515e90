//! Vote reads (V1/VoteController): `GET /api/v1/Vote` lists pending
//! requests with tallies, `myVote` 1 (Downvote) when the caller has not
//! voted; `GET /api/v1/Vote/{movie|tv|music}/{id}` returns raw `Votes` rows.

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::super::faults::SPA_INDEX;
use super::super::json;
use super::super::state::user_id;
use super::{Access, Ctx, RouteDef};

fn spa() -> Response {
    (
        StatusCode::OK,
        [(header::CONTENT_TYPE, "text/html")],
        SPA_INDEX,
    )
        .into_response()
}

pub fn routes() -> Vec<RouteDef> {
    vec![
        RouteDef {
            method: "GET",
            template: "api/v1/Vote",
            access: Access::Authenticated,
            handler: open,
        },
        RouteDef {
            method: "GET",
            template: "api/v1/Vote/{type}/{requestId:int}",
            access: Access::Authenticated,
            handler: rows,
        },
    ]
}

fn pending(r: &Value) -> bool {
    let f = |k: &str| r[k].as_bool().unwrap_or(false);
    !f("approved") && !f("available") && !f("denied")
}

fn open(ctx: &Ctx) -> Response {
    let user = ctx.user();
    let data = ctx.shared.data.lock().unwrap();
    let mut candidates: Vec<(i64, i64, String)> = Vec::new();
    for r in data.movie_requests.iter().filter(|r| pending(r)) {
        candidates.push((
            r["id"].as_i64().unwrap_or(0),
            1,
            r["title"].as_str().unwrap_or("").into(),
        ));
    }
    for c in data
        .requests
        .children_with_parent()
        .iter()
        .filter(|r| pending(r))
    {
        candidates.push((
            c["id"].as_i64().unwrap_or(0),
            0,
            c["parentRequest"]["title"].as_str().unwrap_or("").into(),
        ));
    }
    for a in data.requests.albums.iter().filter(|r| pending(r)) {
        candidates.push((
            a["id"].as_i64().unwrap_or(0),
            2,
            a["title"].as_str().unwrap_or("").into(),
        ));
    }
    let out: Vec<Value> = candidates
        .into_iter()
        .map(|(id, kind, title)| {
            let votes: Vec<_> = data.votes.iter().filter(|v| v.request_id == id && v.request_type == kind).collect();
            let mine = votes.iter().find(|v| v.user.eq_ignore_ascii_case(&user));
            json!({
                "requestId": id, "requestType": kind, "image": "https://image.tmdb.org/t/p/w500/x.jpg", "background": null,
                "upvotes": votes.iter().filter(|v| v.vote_type == 0).count(),
                "downvotes": votes.iter().filter(|v| v.vote_type == 1).count(),
                "title": title, "description": if kind == 0 { "Season: 1 - Episodes: 1<br />" } else { "" },
                "alreadyVoted": mine.is_some(),
                "myVote": mine.map(|v| v.vote_type).unwrap_or(1)
            })
        })
        .collect();
    json(Value::Array(out))
}

fn rows(ctx: &Ctx) -> Response {
    let kind = match ctx.param("type").to_ascii_lowercase().as_str() {
        "movie" => 1,
        "tv" => 0,
        "music" => 2,
        // No such route: a GET falls through to the SPA's index.html (200).
        _ => return spa(),
    };
    let id = ctx.int("requestId");
    let data = ctx.shared.data.lock().unwrap();
    let out: Vec<Value> = data
        .votes
        .iter()
        .enumerate()
        .filter(|(_, v)| v.request_id == id && v.request_type == kind)
        .map(|(n, v)| {
            json!({"id": n + 1, "requestId": v.request_id, "voteType": v.vote_type, "requestType": v.request_type,
                   "userId": user_id(&v.user), "date": "2026-04-05T00:00:00Z", "deleted": false, "user": null})
        })
        .collect();
    json(Value::Array(out))
}
