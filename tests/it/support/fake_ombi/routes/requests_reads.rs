//! The read side of the request routes (RequestController,
//! MusicRequestController, V2/RequestsController, RequestRetryController,
//! StatsController), with Ombi's quirks: `sort` must name a property (500
//! NRE otherwise), TV v2 lists are de-duplicated by show title before paging
//! while `total` counts children, albums have no `unavailable` route, unknown
//! ids give 500, lite TV lists have `total: 0` and `collection: null` when
//! empty, the TV title search always fails, and the retry queue fails when a
//! queued request was deleted (docs/ombi-notes.md).

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::super::super::state::Data;
use super::super::super::{error_500, faults, json, no_content};
use super::super::Ctx;
use super::super::hiding::{hidden_for, keep_own, parent_seen};
use super::NRE;

fn spa() -> Response {
    (
        StatusCode::OK,
        [(axum::http::header::CONTENT_TYPE, "text/html")],
        faults::SPA_INDEX,
    )
        .into_response()
}

fn flag(v: &Value, k: &str) -> bool {
    v[k].as_bool().unwrap_or(false)
}

/// The status filters of the v2 routes, literally enums.md §21 (from
/// `MovieRequestEngine.GetRequestsByStatus`, `TvRequestEngine.GetRequests`,
/// `MusicRequestEngine.GetRequestsByStatus`). `None`: no such route.
fn keep(media: &str, status: &str, r: &Value) -> Option<bool> {
    let (approved, available, denied) =
        (flag(r, "approved"), flag(r, "available"), flag(r, "denied"));
    let (has4k, a4, av4, d4) = (
        flag(r, "has4KRequest"),
        flag(r, "approved4K"),
        flag(r, "available4K"),
        flag(r, "denied4K"),
    );
    // A 4K-only movie request has the default requestedDate.
    let hd_requested = !r["requestedDate"]
        .as_str()
        .unwrap_or("0001-01-01")
        .starts_with("0001-01-01");
    Some(match (media, status) {
        (_, "") => true,
        ("movie", "pending") => {
            hd_requested && !approved && !available && !denied || has4k && !a4 && !av4 && !d4
        }
        ("movie", "processing") => approved && !available && !denied || a4 && !av4 && !d4,
        ("movie", "available" | "availble") => available || av4,
        ("movie", "denied") => denied && !available || has4k && d4 && !av4,
        ("movie", "unavailable") => approved && !available,
        ("tv", "pending") => !approved && !available && !denied,
        ("tv", "processing") => approved && !available && !denied,
        ("tv", "available") => available && !denied,
        ("tv", "denied") => denied,
        ("tv", "unavailable") => approved && !available,
        ("album", "pending") => !approved && !available && !denied,
        ("album", "processing") => approved && !available && !denied,
        ("album", "available") => available,
        ("album", "denied") => denied && !available,
        _ => return None,
    })
}

/// `MovieRequestEngine.CheckForSubscription`: on the caller's own requests
/// `showSubscribe` is false and `subscribed` is never computed (false); on
/// others' `showSubscribe` is true while nothing is available or denied, and
/// `subscribed` says whether the caller subscribed.
fn movie_subscriptions(data: &Data, user: &str, mut rows: Vec<Value>) -> Vec<Value> {
    let me = super::super::super::state::user_id(user);
    for r in &mut rows {
        if r["requestedUserId"] == json!(me) {
            r["showSubscribe"] = json!(false);
            r["subscribed"] = json!(false);
            continue;
        }
        let open = |k: &str| r[k] != json!(true);
        r["showSubscribe"] =
            json!(open("available") && open("available4K") && open("denied") && open("denied4K"));
        let id = r["id"].as_i64().unwrap_or(0);
        r["subscribed"] = json!(
            data.writes
                .subscriptions
                .iter()
                .any(|s| s.user == user && s.request_id == id && s.request_type == 1)
        );
    }
    rows
}

/// `GET /api/v2/Requests/{media}/[{status}/]{count}/{position}/{sort}/{sortOrder}`.
pub fn v2_list(ctx: &Ctx) -> Response {
    let media = ctx.param("media").to_ascii_lowercase();
    let status = ctx.param("status").to_ascii_lowercase();
    let data = ctx.shared.data.lock().unwrap();
    let me = hidden_for(ctx, &data);
    let rows: Vec<Value> = match media.as_str() {
        "movie" => movie_subscriptions(&data, &ctx.user(), data.movie_requests.clone()),
        // TvRepository.GetChild(userId): the caller's children only, each
        // parent's other children filtered out too.
        "tv" => keep_own(data.requests.children_with_parent(), me.as_deref())
            .into_iter()
            .map(|mut c| {
                let parent = c["parentRequest"].take();
                c["parentRequest"] =
                    parent_seen(parent.clone(), me.as_deref()).unwrap_or_else(|| {
                        let mut p = parent;
                        p["childRequests"] = json!([]);
                        p
                    });
                c
            })
            .collect(),
        "album" => data.requests.albums.clone(),
        _ => return spa(),
    };
    let rows = keep_own(rows, me.as_deref());
    let mut filtered = Vec::new();
    for r in rows {
        match keep(&media, &status, &r) {
            None => return spa(),
            Some(true) => filtered.push(r),
            Some(false) => {}
        }
    }
    let sort = ctx.param("sort").to_string();
    if !filtered.is_empty() {
        let Some(key) = filtered[0]
            .as_object()
            .and_then(|o| o.keys().find(|k| k.eq_ignore_ascii_case(&sort)).cloned())
        else {
            return error_500(NRE);
        };
        filtered.sort_by(|a, b| a[&key].to_string().cmp(&b[&key].to_string()));
        if !ctx.param("sortOrder").eq_ignore_ascii_case("asc") {
            filtered.reverse();
        }
    }
    let total = filtered.len();
    if media == "tv" {
        // TvRequestEngine.GetRequests: DistinctBy(ParentRequest.Title) over
        // the sorted children, then Skip/Take; `total` was counted before.
        let mut seen = Vec::new();
        filtered.retain(|c| {
            let t = c["parentRequest"]["title"].clone();
            let fresh = !seen.contains(&t);
            seen.push(t);
            fresh
        });
    }
    let page: Vec<Value> = filtered
        .into_iter()
        .skip(ctx.int("position").max(0) as usize)
        .take(ctx.int("count").max(0) as usize)
        .collect();
    json(json!({"collection": page, "total": total}))
}

/// `TvRequestEngine.GetTvRequest`: with hiding, a parent none of whose
/// children is the caller's is not found, and the others' children are
/// filtered out (as `GetAllChldren` does for the children route).
fn parent(ctx: &Ctx) -> Option<Value> {
    let id = ctx.int("requestId");
    let data = ctx.shared.data.lock().unwrap();
    let me = hidden_for(ctx, &data);
    data.requests
        .tv_parents
        .iter()
        .find(|p| p["id"] == json!(id))
        .cloned()
        .and_then(|p| parent_seen(p, me.as_deref()))
}

/// `GET /api/v1/Request/tv/{id}`: unknown id → NRE 500.
pub fn tv_parent(ctx: &Ctx) -> Response {
    match parent(ctx) {
        Some(p) => json(p),
        None => error_500(NRE),
    }
}

/// `GET /api/v1/Request/movie` (`MovieRequestEngine.GetRequests()`): every
/// movie request with its user, in store order, unpaged.
pub fn movie_all(ctx: &Ctx) -> Response {
    let data = ctx.shared.data.lock().unwrap();
    json(json!(movie_subscriptions(
        &data,
        &ctx.user(),
        data.movie_requests.clone()
    )))
}

/// `GET /api/v1/request/music` (`MusicRequestEngine.GetRequests()`): every
/// album request with its user, in store order, unpaged.
pub fn album_all(ctx: &Ctx) -> Response {
    json(json!(ctx.shared.data.lock().unwrap().requests.albums))
}

/// `GET /api/v1/Request/tv` (`TvRequestEngine.GetRequests()`): every
/// parent with all its children, their users, seasons and episodes, in
/// store order, unpaged (a child's `parentRequest` is the reference loop
/// Ombi's serializer drops).
pub fn tv_all(ctx: &Ctx) -> Response {
    json(json!(ctx.shared.data.lock().unwrap().requests.tv_parents))
}

/// `GET /api/v1/Request/tv/{id}/child`: `[]` for an unknown parent.
pub fn tv_children(ctx: &Ctx) -> Response {
    json(
        parent(ctx)
            .map(|p| p["childRequests"].clone())
            .unwrap_or_else(|| json!([])),
    )
}

/// `GET /api/v1/Request/tvlite/...`: parents with children minus seasons;
/// filters and order ignored; `total` always 0; `collection` null if none.
pub fn tvlite_page(ctx: &Ctx) -> Response {
    let data = ctx.shared.data.lock().unwrap();
    let me = hidden_for(ctx, &data);
    let parents: Vec<Value> = data
        .requests
        .tv_parents
        .iter()
        .filter_map(|p| parent_seen(p.clone(), me.as_deref()))
        .collect();
    if parents.is_empty() {
        return json(json!({"collection": null, "total": 0}));
    }
    let page: Vec<Value> = parents
        .iter()
        .skip(ctx.int("position").max(0) as usize)
        .take(ctx.int("count").max(0) as usize)
        .map(|p| {
            let mut p = p.clone();
            if let Some(children) = p["childRequests"].as_array_mut() {
                for c in children {
                    c["seasonRequests"] = json!([]);
                }
            }
            p
        })
        .collect();
    json(json!({"collection": page, "total": 0}))
}

fn title_match(r: &Value, term: &str) -> bool {
    r["title"]
        .as_str()
        .unwrap_or("")
        .to_lowercase()
        .contains(&term.to_lowercase())
}

pub fn movie_search(ctx: &Ctx) -> Response {
    search(ctx, |data| &data.movie_requests)
}

/// The requests of `rows` whose title holds `searchTerm`, as the hide rules
/// let the caller see them.
fn search(ctx: &Ctx, rows: impl Fn(&Data) -> &Vec<Value>) -> Response {
    let data = ctx.shared.data.lock().unwrap();
    let term = ctx.param("searchTerm");
    let found = rows(&data)
        .iter()
        .filter(|r| title_match(r, term))
        .cloned()
        .collect();
    json(Value::Array(keep_own(
        found,
        hidden_for(ctx, &data).as_deref(),
    )))
}

/// `TvRequestEngine.SearchTvRequest` runs Ombi's own
/// `Contains(word, CompareOptions)` inside the EF query: EF Core cannot
/// translate it, so every term fails (fixed only after 4.59.3).
pub fn tv_search(_: &Ctx) -> Response {
    error_500(TV_SEARCH_ERROR)
}

pub const TV_SEARCH_ERROR: &str = "The LINQ expression 'DbSet<TvRequests>()\r\n    .Where(t => t.Title.Contains(\r\n        word: __search_0, \r\n        opts: IgnoreCase))' could not be translated. Additional information: Translation of method 'Ombi.Helpers.StringHelper.Contains' failed. If this method can be mapped to your custom function, see https://go.microsoft.com/fwlink/?linkid=2132413 for more information. Either rewrite the query in a form that can be translated, or switch to client evaluation explicitly by inserting a call to 'AsEnumerable', 'AsAsyncEnumerable', 'ToList', or 'ToListAsync'. See https://go.microsoft.com/fwlink/?linkid=2101038 for more information.";

pub fn album_search(ctx: &Ctx) -> Response {
    search(ctx, |data| &data.requests.albums)
}

/// `RecentlyRequestedService.GetRecentlyRequested`: the 7 newest requests of
/// each media type (`Take(AmountToTake)`, 7; rows stored newest first), the
/// hide rules applied after that cut.
pub fn recent(ctx: &Ctx) -> Response {
    let data = ctx.shared.data.lock().unwrap();
    let rows = data.requests.recent.clone();
    let mut per_type: std::collections::HashMap<i64, usize> = Default::default();
    let newest: Vec<Value> = rows
        .into_iter()
        .filter(|r| {
            let n = per_type
                .entry(r["type"].as_i64().unwrap_or(-1))
                .or_default();
            *n += 1;
            *n <= 7
        })
        .collect();
    json(Value::Array(keep_own(
        newest,
        hidden_for(ctx, &data).as_deref(),
    )))
}

/// Each queued row's request is loaded: one that was deleted since is a
/// null dereference for the whole list (RequestRetryController.cs).
pub fn retry_queue(ctx: &Ctx) -> Response {
    let data = ctx.shared.data.lock().unwrap();
    let rows = data.requests.retry.clone();
    let gone = rows.iter().any(|r| {
        let (kind, id) = (
            r["type"].as_i64().unwrap_or(1),
            r["requestId"].as_i64().unwrap_or(0),
        );
        super::super::super::state_writes::request(&data, kind, id).is_none()
    });
    if gone {
        return error_500(NRE);
    }
    json(Value::Array(rows))
}

fn media_of(ctx: &Ctx) -> String {
    if ctx.call.path.to_ascii_lowercase().contains("/music/") {
        "album".into()
    } else {
        ctx.param("media").to_ascii_lowercase()
    }
}

/// `.../total`: TV counts parents.
pub fn total(ctx: &Ctx) -> Response {
    let data = ctx.shared.data.lock().unwrap();
    match media_of(ctx).as_str() {
        "movie" => json(json!(data.movie_requests.len())),
        "tv" => json(json!(data.requests.tv_parents.len())),
        "album" => json(json!(data.requests.albums.len())),
        _ => spa(),
    }
}

/// `.../remaining`: `RequestQuotaCountModel`, 204 when unresolved.
pub fn remaining(ctx: &Ctx) -> Response {
    let data = ctx.shared.data.lock().unwrap();
    let media = media_of(ctx);
    if !matches!(media.as_str(), "movie" | "tv" | "album") {
        return spa();
    }
    match data.requests.quota(&media) {
        Some(q) => json(q),
        None => no_content(),
    }
}

/// `GET /api/v1/Stats?from=&to=` (`UserStatsEngine`, shapes.md §5): the
/// totals over the requests in the range, with Ombi's bugs (`totalIssues`
/// 0, `completedRequestsMovies` = `totalMovieRequests`); 500 without both
/// dates, or when the range has no movie or no TV child request
/// (`FirstOrDefault` on a null group), or when `stats` is `None`.
pub fn stats(ctx: &Ctx) -> Response {
    const FAIL: &str = "Value cannot be null. (Parameter 'source')";
    let arg = |k: &str| {
        ctx.call
            .query
            .iter()
            .find(|(q, v)| q.eq_ignore_ascii_case(k) && !v.is_empty())
            .map(|(_, v)| v.clone())
    };
    let (Some(from), Some(to)) = (arg("from"), arg("to")) else {
        return error_500(FAIL);
    };
    let data = ctx.shared.data.lock().unwrap();
    let Some(extra) = data.requests.stats.clone() else {
        return error_500(FAIL);
    };
    // ISO timestamps compare as text; the date part is what ranges use here.
    let within = |v: &Value| {
        v.as_str()
            .is_some_and(|d| d[..d.len().min(19)] >= from[..] && d[..d.len().min(19)] <= to[..])
    };
    let movies = data
        .movie_requests
        .iter()
        .filter(|r| within(&r["requestedDate"]))
        .count();
    let children = data.requests.children_with_parent();
    let tv = children
        .iter()
        .filter(|c| within(&c["requestedDate"]))
        .count();
    if movies == 0 || tv == 0 {
        return error_500(FAIL);
    }
    let tv_done = children
        .iter()
        .filter(|c| within(&c["markedAsAvailable"]))
        .count();
    // `GroupBy(RequestedUserId).OrderBy(Key).FirstOrDefault()`: the user
    // with the lowest id, not the one with the most requests.
    let lowest = |rows: &mut dyn Iterator<Item = &Value>| {
        rows.min_by(|a, b| {
            let id = |r: &Value| r["requestedUserId"].as_str().unwrap_or("").to_string();
            id(a).cmp(&id(b))
        })
        .map(|r| r["requestedUser"].clone())
    };
    let most_movie = lowest(
        &mut data
            .movie_requests
            .iter()
            .filter(|r| within(&r["requestedDate"])),
    );
    let most_tv = lowest(&mut children.iter().filter(|c| within(&c["requestedDate"])));
    let mut out = json!({
        "totalRequests": movies + tv, "totalMovieRequests": movies, "totalTvRequests": tv,
        "totalIssues": 0, "completedRequestsMovies": movies, "completedRequestsTv": tv_done,
        "completedRequests": movies + tv_done,
        "mostRequestedUserMovie": most_movie, "mostRequestedUserTv": most_tv
    });
    for (k, v) in extra.as_object().into_iter().flatten() {
        out[k] = v.clone();
    }
    json(out)
}

pub fn lidarr_enabled(ctx: &Ctx) -> Response {
    json(json!(
        ctx.shared.data.lock().unwrap().requests.lidarr_enabled
    ))
}
