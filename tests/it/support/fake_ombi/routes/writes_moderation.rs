//! Moderation write routes: approve / deny / mark (un)available per media,
//! advanced options, TV root and quality, reprocess, request deletes and
//! issue management, with Ombi's answers (docs/ombi-notes.md, "Write routes").

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};

use super::super::state::{self, Data, user_id};
use super::super::state_writes::{self as w, now};
use super::super::{error_500, json, ok_empty, problem, problem_400};
use super::requests::NRE;
use super::writes_core::ISSUE_STATUS;
use super::{Access, Ctx, RouteDef};

pub fn routes() -> Vec<RouteDef> {
    use super::route as r;
    use Access::{Authenticated as Auth, PowerUser as PU};
    vec![
        r("POST", "api/v1/Request/movie/approve", PU, |c| {
            moderate(c, Media::Movie, Act::Approve)
        }),
        r("PUT", "api/v1/Request/movie/deny", PU, |c| {
            moderate(c, Media::Movie, Act::Deny)
        }),
        r("POST", "api/v1/Request/movie/available", PU, |c| {
            moderate(c, Media::Movie, Act::Available)
        }),
        r("POST", "api/v1/Request/movie/unavailable", PU, |c| {
            moderate(c, Media::Movie, Act::Unavailable)
        }),
        r("POST", "api/v1/Request/tv/approve", PU, |c| {
            moderate(c, Media::Tv, Act::Approve)
        }),
        r("PUT", "api/v1/Request/tv/deny", PU, |c| {
            moderate(c, Media::Tv, Act::Deny)
        }),
        r("POST", "api/v1/Request/tv/available", PU, |c| {
            moderate(c, Media::Tv, Act::Available)
        }),
        r("POST", "api/v1/Request/tv/unavailable", PU, |c| {
            moderate(c, Media::Tv, Act::Unavailable)
        }),
        r("POST", "api/v1/request/music/approve", PU, |c| {
            moderate(c, Media::Album, Act::Approve)
        }),
        r("PUT", "api/v1/request/music/deny", PU, |c| {
            moderate(c, Media::Album, Act::Deny)
        }),
        r("POST", "api/v1/request/music/available", PU, |c| {
            moderate(c, Media::Album, Act::Available)
        }),
        r("POST", "api/v1/request/music/unavailable", PU, |c| {
            moderate(c, Media::Album, Act::Unavailable)
        }),
        r("POST", "api/v2/Requests/movie/advancedoptions", PU, |c| {
            advanced(c, false)
        }),
        r("POST", "api/v2/Requests/tv/advancedoptions", PU, |c| {
            advanced(c, true)
        }),
        r(
            "PUT",
            "api/v1/Request/tv/root/{requestId:int}/{value:int}",
            PU,
            |c| tv_parent_field(c, "rootFolder"),
        ),
        r(
            "PUT",
            "api/v1/Request/tv/quality/{requestId:int}/{value:int}",
            PU,
            |c| tv_parent_field(c, "qualityOverride"),
        ),
        r(
            "POST",
            "api/v2/Requests/reprocess/{type}/{requestId}/{is4K}",
            PU,
            reprocess,
        ),
        r(
            "DELETE",
            "api/v1/Request/movie/{requestId:int}",
            Auth,
            |c| delete_request(c, Media::Movie),
        ),
        r(
            "DELETE",
            "api/v1/Request/tv/child/{requestId:int}",
            Auth,
            |c| delete_request(c, Media::Tv),
        ),
        r(
            "DELETE",
            "api/v1/request/music/{requestId:int}",
            Auth,
            |c| delete_request(c, Media::Album),
        ),
        r(
            "DELETE",
            "api/v1/Request/tv/{requestId:int}",
            Auth,
            delete_tv_parent,
        ),
        r("POST", "api/v1/Issues/status", Auth, issue_status),
        r("DELETE", "api/v1/Issues/{id}", PU, issue_delete),
        r("POST", "api/v1/Issues/categories", PU, category_create),
        r(
            "DELETE",
            "api/v1/Issues/categories/{catId}",
            PU,
            category_delete,
        ),
        r("DELETE", "api/v1/Issues/comments/{id}", PU, comment_delete),
    ]
}

#[derive(Clone, Copy, PartialEq)]
enum Media {
    Movie,
    Tv,
    Album,
}

#[derive(Clone, Copy, PartialEq)]
enum Act {
    Approve,
    Deny,
    Available,
    Unavailable,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct UpdateModel {
    id: i64,
    #[serde(default, rename = "is4K")]
    is4k: bool,
    #[serde(default)]
    reason: Option<String>,
}

fn done(message: Option<&str>) -> Value {
    state::engine_result(true, message, None, None, 0)
}

/// The movie / child / album row being moderated, or Ombi's "missing" answer.
fn target(data: &mut Data, media: Media, id: i64) -> Result<&mut Value, Value> {
    let row = match media {
        Media::Movie => data.movie_request_mut(id),
        Media::Tv => w::child_mut(data, id),
        Media::Album => w::album_mut(data, id),
    };
    row.ok_or_else(|| match media {
        Media::Tv => state::engine_result(
            false,
            None,
            Some("Child Request does not exist"),
            Some("ChildRequestDoesNotExist"),
            0,
        ),
        _ => state::engine_result(false, None, Some("Request does not exist"), None, 0),
    })
}

/// `ApproveMovieById` / `ApproveChildRequest` / `ApproveAlbumById`,
/// `Deny*`, `MarkAvailable`, `MarkUnavailable` of the three engines.
fn moderate(ctx: &Ctx, media: Media, act: Act) -> Response {
    let Some(m) = ctx.body::<UpdateModel>() else {
        return problem_400("model", "The model field is required.");
    };
    let mut data = ctx.shared.data.lock().unwrap();
    if act == Act::Approve {
        return json(match media {
            Media::Movie => w::approve_movie(&mut data, m.id, m.is4k),
            Media::Tv => w::approve_child(&mut data, m.id),
            Media::Album => w::approve_album(&mut data, m.id),
        });
    }
    // TV ignores is4K; music has none.
    let is4k = media == Media::Movie && m.is4k;
    let row = match target(&mut data, media, m.id) {
        Ok(r) => r,
        Err(missing) => return json(missing),
    };
    let sfx = if is4k { "4K" } else { "" };
    let answer = match act {
        Act::Deny => {
            row[format!("denied{sfx}")] = json!(true);
            row[format!("deniedReason{sfx}")] = json!(m.reason);
            match media {
                Media::Movie => done(Some("Request successfully deleted")),
                Media::Tv => done(None),
                // A successful album deny says `result: false`.
                Media::Album => json!({"result": false, "message": "Request successfully deleted",
                    "isError": false, "errorMessage": null, "errorCode": null, "requestId": 0}),
            }
        }
        Act::Available | Act::Unavailable => {
            let on = act == Act::Available;
            row[format!("available{sfx}")] = json!(on);
            if on {
                row[format!("markedAsAvailable{sfx}")] = json!(now());
            }
            if media == Media::Tv {
                w::for_each_episode(row, |e| e["available"] = json!(on));
            }
            done(Some(if on {
                "Request is now available"
            } else {
                "Request is now unavailable"
            }))
        }
        Act::Approve => unreachable!("handled above"),
    };
    w::refresh(row);
    json(answer)
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct AdvancedOptions {
    request_id: i64,
    root_path_override: i64,
    quality_override: i64,
    language_profile: i64,
}

/// `UpdateAdvancedOptions`: both values always overwritten (omitted = 0);
/// TV (parent id) sets the language profile only when > 0; movies ignore it.
fn advanced(ctx: &Ctx, tv: bool) -> Response {
    let Some(o) = ctx.body::<AdvancedOptions>() else {
        return problem_400("options", "The options field is required.");
    };
    let mut data = ctx.shared.data.lock().unwrap();
    if tv {
        let Some(p) = data
            .requests
            .tv_parents
            .iter_mut()
            .find(|p| p["id"] == json!(o.request_id))
        else {
            return json(state::engine_result(
                false,
                None,
                Some("Request does not exist"),
                Some("RequestDoesNotExist"),
                0,
            ));
        };
        p["qualityOverride"] = json!(o.quality_override);
        p["rootFolder"] = json!(o.root_path_override);
        if o.language_profile > 0 {
            p["languageProfile"] = json!(o.language_profile);
        }
    } else {
        let Some(r) = data.movie_request_mut(o.request_id) else {
            return json(state::engine_result(
                false,
                None,
                Some("Request does not exist"),
                None,
                0,
            ));
        };
        r["qualityOverride"] = json!(o.quality_override);
        r["rootPathOverride"] = json!(o.root_path_override);
    }
    json(done(None))
}

/// `UpdateRootPath` / `UpdateQualityProfile`: always `true`; unknown parent → 500.
fn tv_parent_field(ctx: &Ctx, key: &str) -> Response {
    let (id, value) = (ctx.int("requestId"), ctx.int("value"));
    let mut data = ctx.shared.data.lock().unwrap();
    match data
        .requests
        .tv_parents
        .iter_mut()
        .find(|p| p["id"] == json!(id))
    {
        Some(p) => {
            p[key] = json!(value);
            json(json!(true))
        }
        None => error_500(NRE),
    }
}

/// `POST /api/v2/Requests/reprocess/{type}/{requestId}/{is4K}`: TV (child id,
/// is4K ignored) and movies re-run the send; an unapproved request is not
/// sent and answers `result: true`; any other type is a bare 400.
fn reprocess(ctx: &Ctx) -> Response {
    let kind = ctx.param("type");
    let kind = kind
        .parse::<i64>()
        .ok()
        .or(match kind.to_ascii_lowercase().as_str() {
            "tvshow" => Some(0),
            "movie" => Some(1),
            "album" => Some(2),
            _ => None,
        });
    let Some(kind) = kind else {
        return problem_400(
            "type",
            &format!("The value '{}' is not valid.", ctx.param("type")),
        );
    };
    let Ok(id) = ctx.param("requestId").parse::<i64>() else {
        return problem_400(
            "requestId",
            &format!("The value '{}' is not valid.", ctx.param("requestId")),
        );
    };
    let is4k = match ctx.param("is4K").to_ascii_lowercase().as_str() {
        "true" => true,
        "false" => false,
        other => return problem_400("is4K", &format!("The value '{other}' is not valid.")),
    };
    let mut data = ctx.shared.data.lock().unwrap();
    match kind {
        0 if w::child(&data, id).is_none() => json(state::engine_result(
            false,
            None,
            Some("Request does not exist"),
            Some("RequestDoesNotExist"),
            0,
        )),
        0 => json(w::process_child(&mut data, id)),
        1 if data.movie_request(id).is_none() => json(state::engine_result(
            false,
            None,
            Some("Request does not exist"),
            None,
            0,
        )),
        1 => json(w::process_movie(&mut data, id, is4k)),
        _ => problem(400, "Bad Request"),
    }
}

/// `[Authorize(Roles = "Admin,PowerUser,ManageOwnRequests")]` / `"Admin,PowerUser"`.
fn has_any_role(ctx: &Ctx, roles: &[&str]) -> bool {
    ctx.principal
        .as_ref()
        .is_some_and(|p| roles.iter().any(|r| p.has_role(r)))
}

/// `RemoveMovieRequest` / `RemoveTvChild` / `RemoveAlbumRequest`: a
/// ManageOwnRequests caller only for their own requests (else
/// `NoPermissions`); an unknown id dereferences null (500); the last child
/// of a show takes its parent with it.
fn delete_request(ctx: &Ctx, media: Media) -> Response {
    if !has_any_role(ctx, &["Admin", "PowerUser", "ManageOwnRequests"]) {
        return StatusCode::FORBIDDEN.into_response();
    }
    let p = ctx.principal.clone().expect("authenticated route");
    let id = ctx.int("requestId");
    let mut data = ctx.shared.data.lock().unwrap();
    let kind = match media {
        Media::Tv => 0,
        Media::Movie => 1,
        Media::Album => 2,
    };
    let row = w::request(&data, kind, id);
    if !p.is_power_user() {
        // CheckCanManageRequest: own requests only.
        match &row {
            None => return error_500(NRE),
            Some(r) if r["requestedUserId"] != json!(user_id(&p.user_name)) => {
                return json(state::engine_result(
                    false,
                    None,
                    None,
                    Some("NoPermissions"),
                    0,
                ));
            }
            Some(_) => {}
        }
    }
    if row.is_none() {
        return error_500(NRE);
    }
    match media {
        Media::Movie => data.movie_requests.retain(|r| r["id"] != json!(id)),
        Media::Album => data.requests.albums.retain(|r| r["id"] != json!(id)),
        Media::Tv => {
            for parent in data.requests.tv_parents.iter_mut() {
                if let Some(children) = parent["childRequests"].as_array_mut() {
                    children.retain(|c| c["id"] != json!(id));
                }
            }
            // The parent goes when it had this one child only.
            data.requests
                .tv_parents
                .retain(|p| p["childRequests"].as_array().is_some_and(|c| !c.is_empty()));
        }
    }
    json(done(None))
}

/// `DeleteTvRequest` (Admin, PowerUser): parent and children; empty 200.
fn delete_tv_parent(ctx: &Ctx) -> Response {
    if !has_any_role(ctx, &["Admin", "PowerUser"]) {
        return StatusCode::FORBIDDEN.into_response();
    }
    let id = ctx.int("requestId");
    let mut data = ctx.shared.data.lock().unwrap();
    let before = data.requests.tv_parents.len();
    data.requests.tv_parents.retain(|p| p["id"] != json!(id));
    if data.requests.tv_parents.len() == before {
        return error_500(NRE);
    }
    ok_empty()
}

// ---------------------------------------------------------------- issues

/// `UpdateStatus`: any principal; `false` for an unknown issue; Resolved
/// stamps `resovledDate`.
fn issue_status(ctx: &Ctx) -> Response {
    let Some(body) = ctx.body::<Value>().filter(Value::is_object) else {
        return problem_400("model", "The model field is required.");
    };
    let status = match &body["status"] {
        Value::Number(n) => n.as_i64(),
        Value::String(s) => ISSUE_STATUS
            .iter()
            .position(|n| n.eq_ignore_ascii_case(s))
            .map(|i| i as i64),
        Value::Null => Some(0),
        _ => None,
    };
    let Some(status) = status else {
        return problem_400("model.status", "The value is not valid.");
    };
    let id = body["issueId"].as_i64().unwrap_or(0);
    let mut data = ctx.shared.data.lock().unwrap();
    let Some(issue) = data.issues.iter_mut().find(|i| i["id"] == json!(id)) else {
        return json(json!(false));
    };
    issue["status"] = json!(status);
    if status == 2 {
        issue["resovledDate"] = json!(now());
    }
    json(json!(true))
}

fn int_param(ctx: &Ctx, name: &str) -> Result<i64, Box<Response>> {
    ctx.param(name).parse::<i64>().map_err(|_| {
        Box::new(problem_400(
            name,
            &format!("The value '{}' is not valid.", ctx.param(name)),
        ))
    })
}

/// `DeleteIssue`: `false` when unknown; the comments go with it.
fn issue_delete(ctx: &Ctx) -> Response {
    let id = match int_param(ctx, "id") {
        Ok(i) => i,
        Err(r) => return *r,
    };
    let mut data = ctx.shared.data.lock().unwrap();
    if !data.issues.iter().any(|i| i["id"] == json!(id)) {
        return json(json!(false));
    }
    data.comments.retain(|c| c["issuesId"] != json!(id));
    data.issues.retain(|i| i["id"] != json!(id));
    json(json!(true))
}

/// `CreateCategory`: `true`, no id (read the categories back).
fn category_create(ctx: &Ctx) -> Response {
    let Some(body) = ctx.body::<Value>().filter(Value::is_object) else {
        return problem_400("cat", "The cat field is required.");
    };
    let mut data = ctx.shared.data.lock().unwrap();
    let id = match body["id"].as_i64().filter(|i| *i > 0) {
        Some(i)
            if data
                .writes
                .issue_categories
                .iter()
                .any(|c| c["id"] == json!(i)) =>
        {
            return error_500(super::writes_core::FK_FAILED);
        }
        Some(i) => i,
        None => data.next_id(),
    };
    data.writes
        .issue_categories
        .push(json!({"id": id, "value": body["value"].clone()}));
    json(json!(true))
}

/// `DeleteCategory`: unknown id → 500; the foreign key cascades to every
/// issue of the category, and a comment on one of them (restrict) makes the
/// whole delete fail with a 500.
fn category_delete(ctx: &Ctx) -> Response {
    let id = match int_param(ctx, "catId") {
        Ok(i) => i,
        Err(r) => return *r,
    };
    let mut data = ctx.shared.data.lock().unwrap();
    if !data
        .writes
        .issue_categories
        .iter()
        .any(|c| c["id"] == json!(id))
    {
        return error_500("Value cannot be null. (Parameter 'entity')");
    }
    let doomed: Vec<Value> = data
        .issues
        .iter()
        .filter(|i| i["issueCategoryId"] == json!(id))
        .map(|i| i["id"].clone())
        .collect();
    if data
        .comments
        .iter()
        .any(|c| doomed.contains(&c["issuesId"]))
    {
        return error_500(
            "An error occurred while saving the entity changes. See the inner exception for details.",
        );
    }
    data.issues.retain(|i| i["issueCategoryId"] != json!(id));
    data.writes
        .issue_categories
        .retain(|c| c["id"] != json!(id));
    json(json!(true))
}

/// `DeleteComment`: unknown id → 500.
fn comment_delete(ctx: &Ctx) -> Response {
    let id = match int_param(ctx, "id") {
        Ok(i) => i,
        Err(r) => return *r,
    };
    let mut data = ctx.shared.data.lock().unwrap();
    if !data.comments.iter().any(|c| c["id"] == json!(id)) {
        return error_500("Value cannot be null. (Parameter 'entity')");
    }
    data.comments.retain(|c| c["id"] != json!(id));
    json(json!(true))
}
