//! Issue reads (V1/IssuesController, V2/IssuesController): the v1 paged list
//! takes `{take}/{skip}/{status}` (status name or int), a missing issue is a
//! 204, comments come as `IssueCommentChatViewModel` (no author id), the v2
//! summary pages *issues* before grouping and leaves `issues` null, details
//! embeds comments and users, and an unknown provider is a 204.

use axum::response::Response;
use serde_json::{Value, json};

use super::super::{json, no_content, problem_400};
use super::{Access, Ctx, RouteDef};

pub fn routes() -> Vec<RouteDef> {
    vec![
        RouteDef {
            method: "GET",
            template: "api/v1/Issues",
            access: Access::Authenticated,
            handler: all,
        },
        RouteDef {
            method: "GET",
            template: "api/v1/Issues/count",
            access: Access::Authenticated,
            handler: count,
        },
        RouteDef {
            method: "GET",
            template: "api/v1/Issues/{id:int}",
            access: Access::Authenticated,
            handler: one,
        },
        RouteDef {
            method: "GET",
            template: "api/v1/Issues/{take:int}/{skip:int}/{status}",
            access: Access::Authenticated,
            handler: paged,
        },
        RouteDef {
            method: "GET",
            template: "api/v1/Issues/request/{id:int}",
            access: Access::Authenticated,
            handler: by_request,
        },
        RouteDef {
            method: "GET",
            template: "api/v1/Issues/provider/{id}",
            access: Access::Authenticated,
            handler: by_provider,
        },
        RouteDef {
            method: "GET",
            template: "api/v1/Issues/{id:int}/comments",
            access: Access::Authenticated,
            handler: comments,
        },
        RouteDef {
            method: "GET",
            template: "api/v2/Issues/details/{providerId}",
            access: Access::Authenticated,
            handler: details,
        },
        RouteDef {
            method: "GET",
            template: "api/v2/Issues/{position:int}/{take:int}/{status}",
            access: Access::Authenticated,
            handler: summary,
        },
    ]
}

/// `IssueStatus` by name (case-insensitive) or number.
fn status(ctx: &Ctx) -> Option<i64> {
    let s = ctx.param("status");
    s.parse().ok().or(match s.to_ascii_lowercase().as_str() {
        "pending" => Some(0),
        "inprogress" => Some(1),
        "resolved" => Some(2),
        "deleted" => Some(3),
        _ => None,
    })
}

fn issues(ctx: &Ctx) -> Vec<Value> {
    ctx.shared.data.lock().unwrap().issues.clone()
}

fn all(ctx: &Ctx) -> Response {
    json(Value::Array(issues(ctx)))
}

fn count(ctx: &Ctx) -> Response {
    let rows = issues(ctx);
    let n = |s: i64| rows.iter().filter(|i| i["status"] == json!(s)).count();
    json(json!({"pending": n(0), "inProgress": n(1), "resolved": n(2)}))
}

fn one(ctx: &Ctx) -> Response {
    let id = ctx.int("id");
    match issues(ctx).into_iter().find(|i| i["id"] == json!(id)) {
        Some(i) => json(i),
        None => no_content(),
    }
}

/// The issues with the path's `status`, `skip` (the path parameter so
/// named) skipped and `take` taken; None for a status Ombi cannot bind.
fn status_window(ctx: &Ctx, skip: &str) -> Option<Vec<Value>> {
    let s = status(ctx)?;
    Some(
        issues(ctx)
            .into_iter()
            .filter(|i| i["status"] == json!(s))
            .skip(ctx.int(skip).max(0) as usize)
            .take(ctx.int("take").max(0) as usize)
            .collect(),
    )
}

/// Ombi's 400 for a `status` it cannot bind.
fn bad_status(ctx: &Ctx) -> Response {
    let message = format!("The value '{}' is not valid.", ctx.param("status"));
    problem_400("status", &message)
}

fn paged(ctx: &Ctx) -> Response {
    match status_window(ctx, "skip") {
        Some(page) => json(Value::Array(page)),
        None => bad_status(ctx),
    }
}

fn by_request(ctx: &Ctx) -> Response {
    let id = ctx.int("id");
    json(Value::Array(
        issues(ctx)
            .into_iter()
            .filter(|i| i["requestId"] == json!(id))
            .collect(),
    ))
}

fn by_provider(ctx: &Ctx) -> Response {
    let id = ctx.param("id").to_string();
    json(Value::Array(
        issues(ctx)
            .into_iter()
            .filter(|i| i["providerId"] == json!(id))
            .collect(),
    ))
}

fn comments(ctx: &Ctx) -> Response {
    let id = ctx.int("id");
    let data = ctx.shared.data.lock().unwrap();
    let rows: Vec<Value> = data
        .comments
        .iter()
        .filter(|c| c["issuesId"] == json!(id))
        // `IssuesController.GetComments`: `Username` is the author's
        // `UserAlias` (alias, else user name); `AdminComment` is true for
        // PowerUser, Admin or a system user. The author's row of the user
        // table (alias, roles) is the one the Users list shows.
        .map(|c| {
            let row = data.admin.users.iter().find(|u| u["id"] == c["userId"]);
            let user = row.unwrap_or(&c["user"]);
            let alias = user["alias"].as_str().filter(|a| !a.is_empty());
            let holds = |role: &str| {
                row.is_some_and(|u| {
                    u["claims"].as_array().into_iter().flatten().any(|claim| {
                        claim["value"] == json!(role) && claim["enabled"] == json!(true)
                    })
                })
            };
            let admin = holds("Admin") || holds("PowerUser") || c["user"]["isSystemUser"] == json!(true);
            json!({
                "id": c["id"], "comment": c["comment"], "date": c["date"],
                "username": alias.map_or(user["userName"].clone(), |a| json!(a)), "adminComment": admin
            })
        })
        .collect();
    json(Value::Array(rows))
}

/// Groups by title over `rows`, `issues` filled or null.
fn groups(rows: Vec<Value>, with_issues: bool) -> Vec<Value> {
    let mut out: Vec<(String, Vec<Value>)> = Vec::new();
    for i in rows.into_iter().filter(|i| i["providerId"].is_string()) {
        let title = i["title"].as_str().unwrap_or("").to_string();
        match out.iter_mut().find(|(t, _)| *t == title) {
            Some((_, v)) => v.push(i),
            None => out.push((title, vec![i])),
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out.into_iter()
        .map(|(title, v)| {
            json!({"title": title, "count": v.len(), "providerId": v[0]["providerId"],
                   "issues": if with_issues { json!(v) } else { Value::Null }})
        })
        .collect()
}

fn summary(ctx: &Ctx) -> Response {
    match status_window(ctx, "position") {
        Some(page) => json(Value::Array(groups(page, false))),
        None => bad_status(ctx),
    }
}

fn details(ctx: &Ctx) -> Response {
    let provider = ctx.param("providerId").to_string();
    let data = ctx.shared.data.lock().unwrap();
    let rows: Vec<Value> = data
        .issues
        .iter()
        .filter(|i| i["providerId"] == json!(provider))
        .map(|i| {
            let mut i = i.clone();
            i["comments"] = json!(
                data.comments
                    .iter()
                    .filter(|c| c["issuesId"] == i["id"])
                    .cloned()
                    .collect::<Vec<_>>()
            );
            i
        })
        .collect();
    match groups(rows, true).into_iter().next() {
        Some(g) => json(g),
        None => no_content(),
    }
}
