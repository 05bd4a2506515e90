//! Status, identity, settings and features (anonymous and "me" routes).

use serde_json::json;

use super::super::{json, state, state_writes};
use super::{Access, Ctx, RouteDef};
use axum::response::Response;

pub fn routes() -> Vec<RouteDef> {
    vec![
        RouteDef {
            method: "POST",
            template: "api/v1/Token",
            access: Access::Anonymous,
            handler: token,
        },
        RouteDef {
            method: "GET",
            template: "api/v1/Status",
            access: Access::Anonymous,
            handler: status,
        },
        RouteDef {
            method: "GET",
            template: "api/v1/Status/info",
            access: Access::Anonymous,
            handler: status_info,
        },
        RouteDef {
            method: "GET",
            template: "api/v1/Identity",
            access: Access::Authenticated,
            handler: me,
        },
        RouteDef {
            method: "GET",
            template: "api/v1/Settings/about",
            access: Access::Anonymous,
            handler: about,
        },
        RouteDef {
            method: "GET",
            template: "api/v1/Settings/voteenabled",
            access: Access::Anonymous,
            handler: vote_enabled,
        },
        RouteDef {
            method: "GET",
            template: "api/v2/Features",
            access: Access::Anonymous,
            handler: features,
        },
        RouteDef {
            method: "GET",
            template: "api/v1/Request/count",
            access: Access::Anonymous,
            handler: request_count,
        },
        RouteDef {
            method: "GET",
            template: "api/v2/System/logs",
            access: Access::Admin,
            handler: log_list,
        },
        RouteDef {
            method: "GET",
            template: "api/v2/System/logs/{logFileName}",
            access: Access::Admin,
            handler: log_file,
        },
    ]
}

fn token(ctx: &Ctx) -> Response {
    super::super::auth::token(ctx.shared, ctx.call)
}

/// Returns the HttpStatusCode enum: the number 200.
fn status(_: &Ctx) -> Response {
    json(json!(200))
}

fn status_info(ctx: &Ctx) -> Response {
    json(json!(ctx.shared.data.lock().unwrap().version))
}

/// `UserViewModel` of the caller's Identity row; the bare ApiKey principal
/// is the seeded `Api` user.
fn me(ctx: &Ctx) -> Response {
    let p = ctx.principal.clone().expect("authenticated route");
    let data = ctx.shared.data.lock().unwrap();
    if let Some(row) = state_writes::user_row(&data, &p.user_name) {
        return json(state_writes::user_view(row));
    }
    let roles = if p.api_user {
        Vec::new()
    } else {
        p.roles.clone()
    };
    json(state::user_view(&p.user_name, &roles))
}

/// `AboutViewModel` (shapes.md §8): `branch` is a string, connection strings null.
fn about(ctx: &Ctx) -> Response {
    let version = ctx.shared.data.lock().unwrap().version.clone();
    json(json!({
        "version": version, "branch": "Stable", "frameworkDescription": ".NET 8.0.4",
        "osArchitecture": "X64", "osDescription": "Linux 6.8.0", "processArchitecture": "X64",
        "applicationBasePath": "/app/ombi", "ombiDatabaseType": "Sqlite", "externalDatabaseType": "Sqlite",
        "settingsDatabaseType": "Sqlite", "ombiConnectionString": null, "externalConnectionString": null,
        "settingsConnectionString": null, "storagePath": "/config", "notSupported": false
    }))
}

fn vote_enabled(ctx: &Ctx) -> Response {
    json(json!(
        state_writes::vote_settings(&ctx.shared.data.lock().unwrap()).0
    ))
}

fn features(ctx: &Ctx) -> Response {
    let data = ctx.shared.data.lock().unwrap();
    json(json!(
        data.features
            .iter()
            .map(|(name, enabled)| json!({"name": name, "enabled": enabled}))
            .collect::<Vec<_>>()
    ))
}

/// `RequestCountModel`: movie requests plus TV child requests; albums are
/// excluded (shapes.md §3.13).
fn request_count(ctx: &Ctx) -> Response {
    let data = ctx.shared.data.lock().unwrap();
    let children = data.requests.children_with_parent();
    let count = |f: &dyn Fn(&serde_json::Value) -> bool| {
        data.movie_requests
            .iter()
            .chain(children.iter())
            .filter(|r| f(r))
            .count()
    };
    json(json!({
        "pending": count(&|r| r["approved"] == json!(false) && r["denied"] != json!(true) && r["available"] == json!(false)),
        "approved": count(&|r| r["approved"] == json!(true) && r["available"] == json!(false)),
        "available": count(&|r| r["available"] == json!(true)),
        "denied": count(&|r| r["denied"] == json!(true)),
    }))
}

/// `SystemController.GetLogFiles`: the names of the `*.txt` files in the
/// log folder, ordered by name descending (Serilog's daily files newest
/// first), names only.
fn log_list(ctx: &Ctx) -> Response {
    let data = ctx.shared.data.lock().unwrap();
    let mut names: Vec<&String> = data
        .logs
        .iter()
        .map(|(name, _)| name)
        .filter(|n| n.ends_with(".txt"))
        .collect();
    names.sort_by(|a, b| b.cmp(a));
    json(json!(names))
}

/// The whole file: `text/plain`, or a JSON string under `Accept: application/json`.
fn log_file(ctx: &Ctx) -> Response {
    use axum::response::IntoResponse;
    let data = ctx.shared.data.lock().unwrap();
    let Some((_, text)) = data
        .logs
        .iter()
        .find(|(n, _)| n == ctx.param("logFileName"))
    else {
        // SystemController.ReadLogFile: exact name match, else `NotFound()`.
        return axum::http::StatusCode::NOT_FOUND.into_response();
    };
    let wants_json = ctx
        .call
        .headers
        .get(axum::http::header::ACCEPT)
        .is_some_and(|a| a.as_bytes().starts_with(b"application/json"));
    if wants_json {
        return json(json!(text));
    }
    (
        [(
            axum::http::header::CONTENT_TYPE,
            "text/plain; charset=utf-8",
        )],
        text.clone(),
    )
        .into_response()
}
