//! Requests: the v2 paged lists, gets, children, searches, recent, retry
//! queue, counts/totals/quotas, stats (reads); movie create/moderation,
//! votes and issue comments (writes).

use axum::response::Response;
use serde::Deserialize;
use serde_json::{Value, json};

use super::super::state::{self, Vote};
use super::super::{error_500, json, no_content, problem_400};
use super::{Access, Ctx, RouteDef};

#[path = "requests_reads.rs"]
mod reads;

pub fn routes() -> Vec<RouteDef> {
    vec![
        // reads (requests_reads.rs)
        RouteDef {
            method: "GET",
            template: "api/v2/Requests/recentlyRequested",
            access: Access::Authenticated,
            handler: reads::recent,
        },
        RouteDef {
            method: "GET",
            template: "api/v2/Requests/{media}/{count:int}/{position:int}/{sort}/{sortOrder}",
            access: Access::Authenticated,
            handler: reads::v2_list,
        },
        RouteDef {
            method: "GET",
            template: "api/v2/Requests/{media}/{status}/{count:int}/{position:int}/{sort}/{sortOrder}",
            access: Access::Authenticated,
            handler: reads::v2_list,
        },
        RouteDef {
            method: "GET",
            template: "api/v1/Request/tv/{requestId:int}",
            access: Access::Authenticated,
            handler: reads::tv_parent,
        },
        RouteDef {
            method: "GET",
            template: "api/v1/Request/tv/{requestId:int}/child",
            access: Access::Authenticated,
            handler: reads::tv_children,
        },
        RouteDef {
            method: "GET",
            template: "api/v1/Request/tvlite/{count:int}/{position:int}/{orderType:int}/{statusFilterType:int}/{availabilityFilterType:int}",
            access: Access::Authenticated,
            handler: reads::tvlite_page,
        },
        RouteDef {
            method: "GET",
            template: "api/v1/Request/movie/search/{searchTerm}",
            access: Access::Authenticated,
            handler: reads::movie_search,
        },
        RouteDef {
            method: "GET",
            template: "api/v1/Request/tv/search/{searchTerm}",
            access: Access::Authenticated,
            handler: reads::tv_search,
        },
        RouteDef {
            method: "GET",
            template: "api/v1/request/music/search/{searchTerm}",
            access: Access::Authenticated,
            handler: reads::album_search,
        },
        RouteDef {
            method: "GET",
            template: "api/v1/RequestRetry",
            access: Access::Admin,
            handler: reads::retry_queue,
        },
        RouteDef {
            method: "GET",
            template: "api/v1/Request/{media}/total",
            access: Access::Authenticated,
            handler: reads::total,
        },
        RouteDef {
            method: "GET",
            template: "api/v1/request/music/total",
            access: Access::Authenticated,
            handler: reads::total,
        },
        RouteDef {
            method: "GET",
            template: "api/v1/Request/{media}/remaining",
            access: Access::Authenticated,
            handler: reads::remaining,
        },
        RouteDef {
            method: "GET",
            template: "api/v1/request/music/remaining",
            access: Access::Authenticated,
            handler: reads::remaining,
        },
        RouteDef {
            method: "GET",
            template: "api/v1/Stats",
            access: Access::Admin,
            handler: reads::stats,
        },
        RouteDef {
            method: "GET",
            template: "api/v1/Lidarr/enabled",
            access: Access::Anonymous,
            handler: reads::lidarr_enabled,
        },
        RouteDef {
            method: "GET",
            template: "api/v1/Request/movie/info/{requestId}",
            access: Access::Authenticated,
            handler: movie_info,
        },
        RouteDef {
            method: "POST",
            template: "api/v1/Request/movie",
            access: Access::Authenticated,
            handler: movie_create,
        },
        RouteDef {
            method: "POST",
            template: "api/v1/Request/movie/approve",
            access: Access::PowerUser,
            handler: movie_approve,
        },
        RouteDef {
            method: "PUT",
            template: "api/v1/Request/movie/deny",
            access: Access::PowerUser,
            handler: movie_deny,
        },
        RouteDef {
            method: "POST",
            template: "api/v1/Vote/up/{type}/{requestId:int}",
            access: Access::Authenticated,
            handler: vote_up,
        },
        RouteDef {
            method: "POST",
            template: "api/v1/Issues/comments",
            access: Access::Authenticated,
            handler: add_comment,
        },
    ]
}

pub(crate) const NRE: &str = "Object reference not set to an instance of an object.";

/// Unknown id: `FillAdditionalFields` dereferences null → 500.
fn movie_info(ctx: &Ctx) -> Response {
    let Ok(id) = ctx.param("requestId").parse::<i64>() else {
        return problem_400(
            "requestId",
            &format!("The value '{}' is not valid.", ctx.param("requestId")),
        );
    };
    match ctx.shared.data.lock().unwrap().movie_request(id) {
        Some(r) => json(r.clone()),
        None => error_500(NRE),
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct MovieRequestViewModel {
    the_movie_db_id: i64,
    #[serde(default)]
    is4k_request: bool,
}

fn movie_create(ctx: &Ctx) -> Response {
    let Some(model) = ctx.body::<MovieRequestViewModel>() else {
        return problem_400("model", "The model field is required.");
    };
    let p = ctx.principal.clone().expect("authenticated route");
    let mut data = ctx.shared.data.lock().unwrap();
    let Some(movie) = data
        .movies
        .iter()
        .find(|m| m["id"] == json!(model.the_movie_db_id))
        .cloned()
    else {
        return error_500("The remote server returned an error: (404) Not Found.");
    };
    let title = movie["title"].as_str().unwrap_or_default().to_string();
    let year = movie["releaseDate"]
        .as_str()
        .unwrap_or("")
        .get(..4)
        .unwrap_or("")
        .to_string();
    let full = format!("{title} ({year})");
    if data
        .movie_requests
        .iter()
        .any(|r| r["theMovieDbId"] == json!(model.the_movie_db_id))
    {
        return json(state::engine_result(
            false,
            None,
            Some(&format!("{full} has already been requested")),
            Some("AlreadyRequested"),
            0,
        ));
    }
    let may =
        p.api_user || p.is_admin() || p.has_role("RequestMovie") || p.has_role("AutoApproveMovie");
    if !may {
        return json(state::engine_result(
            false,
            None,
            Some("You do not have permissions to Request a Movie"),
            Some("NoPermissionsRequestMovie"),
            0,
        ));
    }
    let id = data.next_id();
    let requester = if p.api_user {
        "Api"
    } else {
        p.user_name.as_str()
    };
    let mut req = state::movie_request(id, model.the_movie_db_id, &title, requester);
    req["releaseDate"] = movie["releaseDate"].clone();
    req["requestedDate"] = json!(super::super::auth::iso(std::time::SystemTime::now()));
    if model.is4k_request {
        req["has4KRequest"] = json!(true);
        req["requestedDate"] = json!(state::NEVER);
        req["requestCombination"] = json!(1);
    }
    if p.api_user || p.is_admin() || p.has_role("AutoApproveMovie") {
        req["approved"] = json!(true);
        req["requestStatus"] = json!("Common.ProcessingRequest");
        req["canApprove"] = json!(false);
    }
    if ctx.call.headers.contains_key("apikey")
        && let Some(alias) = ctx.call.headers.get("apialias")
    {
        req["requestedByAlias"] = json!(String::from_utf8_lossy(alias.as_bytes()));
    }
    data.movie_requests.push(req);
    json(state::engine_result(
        true,
        Some(&format!("{full} has been successfully added!")),
        None,
        None,
        id,
    ))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct MovieUpdateModel {
    id: i64,
    #[serde(default)]
    is4_k: bool,
    #[serde(default)]
    reason: Option<String>,
}

fn movie_approve(ctx: &Ctx) -> Response {
    let Some(model) = ctx.body::<MovieUpdateModel>() else {
        return problem_400("model", "The model field is required.");
    };
    let mut data = ctx.shared.data.lock().unwrap();
    let Some(r) = data.movie_request_mut(model.id) else {
        return json(state::engine_result(
            false,
            None,
            Some("Request does not exist"),
            None,
            0,
        ));
    };
    let (flag, date) = if model.is4_k {
        ("approved4K", "markedAsApproved4K")
    } else {
        ("approved", "markedAsApproved")
    };
    r[flag] = json!(true);
    r[date] = json!(super::super::auth::iso(std::time::SystemTime::now()));
    if !model.is4_k {
        r["requestStatus"] = json!("Common.ProcessingRequest");
    }
    r["canApprove"] = json!(false);
    json(state::engine_result(true, None, None, None, model.id))
}

fn movie_deny(ctx: &Ctx) -> Response {
    let Some(model) = ctx.body::<MovieUpdateModel>() else {
        return problem_400("model", "The model field is required.");
    };
    let mut data = ctx.shared.data.lock().unwrap();
    let Some(r) = data.movie_request_mut(model.id) else {
        return json(state::engine_result(
            false,
            None,
            Some("Request does not exist"),
            None,
            0,
        ));
    };
    let (flag, date, reason) = if model.is4_k {
        ("denied4K", "markedAsDenied4K", "deniedReason4K")
    } else {
        ("denied", "markedAsDenied", "deniedReason")
    };
    r[flag] = json!(true);
    r[date] = json!(super::super::auth::iso(std::time::SystemTime::now()));
    r[reason] = json!(model.reason);
    if !model.is4_k {
        r["requestStatus"] = json!("Common.Denied");
    }
    json(state::engine_result(
        true,
        Some("Request successfully deleted"),
        None,
        None,
        model.id,
    ))
}

/// `VoteEngineResult`. Disabled voting answers success and records nothing;
/// the duplicate check ignores the media type (ledger: VoteController).
fn vote_up(ctx: &Ctx) -> Response {
    let request_type = match ctx.param("type").to_ascii_lowercase().as_str() {
        "movie" => 1,
        "tv" => 0,
        "album" => 2,
        _ => {
            return super::super::error_500(
                "The SPA default page middleware could not return the default page '/index.html' because it was not found, and no other middleware handled the request.",
            );
        }
    };
    let user = ctx.user();
    let request_id = ctx.int("requestId");
    let mut data = ctx.shared.data.lock().unwrap();
    let vote = |result: bool, error: Option<&str>| {
        json(
            json!({"result": result, "message": null, "isError": error.is_some(), "errorMessage": error}),
        )
    };
    if !data.vote_enabled {
        return vote(true, None);
    }
    if data
        .votes
        .iter()
        .any(|v| v.user == user && v.request_id == request_id && v.vote_type == 0)
    {
        return vote(false, Some("You have already voted!"));
    }
    data.votes
        .retain(|v| !(v.user == user && v.request_id == request_id));
    data.votes.push(Vote {
        user,
        request_id,
        vote_type: 0,
        request_type,
    });
    vote(true, None)
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct NewIssueCommentViewModel {
    issue_id: i64,
    comment: String,
}

/// The raw `IssueComments` entity; unknown issue → 204; the bare ApiKey
/// principal `API` does not match the stored `Api` (SQLite) → 500.
fn add_comment(ctx: &Ctx) -> Response {
    let Some(model) = ctx.body::<NewIssueCommentViewModel>() else {
        return problem_400("model", "The model field is required.");
    };
    let p = ctx.principal.clone().expect("authenticated route");
    if p.api_user {
        return error_500(NRE);
    }
    let mut data = ctx.shared.data.lock().unwrap();
    let Some(issue) = data
        .issues
        .iter()
        .find(|i| i["id"] == json!(model.issue_id))
        .cloned()
    else {
        return no_content();
    };
    let id = data.next_id();
    let comment = json!({
        "id": id, "userId": state::user_id(&p.user_name), "comment": model.comment, "issuesId": model.issue_id,
        "date": super::super::auth::iso(std::time::SystemTime::now()),
        "issues": issue, "user": state::ombi_user(&p.user_name)
    });
    data.comments.push(comment.clone());
    json(comment)
}
