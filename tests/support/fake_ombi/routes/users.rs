//! Identity users, connected users and the caller's notification preferences.

use axum::response::Response;

use super::super::{error_500, json};
use super::{Access, Ctx, RouteDef};

pub fn routes() -> Vec<RouteDef> {
    vec![
        RouteDef {
            method: "GET",
            template: "api/v1/Identity/Users",
            access: Access::PowerUser,
            handler: users,
        },
        RouteDef {
            method: "GET",
            template: "api/v1/Identity/User/{id}",
            access: Access::PowerUser,
            handler: user,
        },
        RouteDef {
            method: "GET",
            template: "api/v2/Hub/Users",
            access: Access::Admin,
            handler: connected,
        },
        RouteDef {
            method: "GET",
            template: "api/v1/Identity/notificationpreferences",
            access: Access::Anonymous,
            handler: preferences,
        },
    ]
}

fn users(ctx: &Ctx) -> Response {
    json(serde_json::Value::Array(
        ctx.shared.data.lock().unwrap().admin.users.clone(),
    ))
}

/// Unknown id: Ombi dereferences null → 500 `{error}`.
fn user(ctx: &Ctx) -> Response {
    let data = ctx.shared.data.lock().unwrap();
    match data.admin.users.iter().find(|u| u["id"] == ctx.param("id")) {
        Some(u) => json(u.clone()),
        None => error_500("Object reference not set to an instance of an object."),
    }
}

/// `HubController.GetConnectedUsers`: one row per live connection, for
/// users that still exist; `displayName` is `OmbiUser.UserAlias` (the
/// alias when one is set, else the user name).
fn connected(ctx: &Ctx) -> Response {
    let data = ctx.shared.data.lock().unwrap();
    let rows = data
        .admin
        .connected
        .iter()
        .filter_map(|c| {
            let user = data.admin.users.iter().find(|u| u["id"] == c["userId"])?;
            let alias = user["alias"].as_str().filter(|a| !a.is_empty());
            let mut row = c.clone();
            row["displayName"] = serde_json::json!(alias.or(user["userName"].as_str()));
            Some(row)
        })
        .collect();
    json(serde_json::Value::Array(rows))
}

/// No `[Authorize]` upstream: anonymous gets a 500 (no user), others their rows.
fn preferences(ctx: &Ctx) -> Response {
    if ctx.principal.is_none() {
        return error_500("Object reference not set to an instance of an object.");
    }
    json(serde_json::Value::Array(
        ctx.shared
            .data
            .lock()
            .unwrap()
            .admin
            .notification_preferences
            .clone(),
    ))
}
