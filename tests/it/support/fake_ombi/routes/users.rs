//! Identity users, connected users and the caller's notification preferences.

use axum::response::Response;

use serde_json::{Value, json};

use super::super::state::user_id;
use super::super::{error_500, json, state_writes};
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

/// Every user but the system user (userType 0), ordered by user name.
fn users(ctx: &Ctx) -> Response {
    let data = ctx.shared.data.lock().unwrap();
    let mut rows: Vec<Value> = data
        .admin
        .users
        .iter()
        .filter(|u| u["userType"] != json!(0))
        .map(state_writes::user_view)
        .collect();
    rows.sort_by_key(|u| u["userName"].as_str().unwrap_or_default().to_lowercase());
    json(Value::Array(rows))
}

/// Unknown id: Ombi dereferences null → 500 `{error}`.
fn user(ctx: &Ctx) -> Response {
    let data = ctx.shared.data.lock().unwrap();
    match data.admin.users.iter().find(|u| u["id"] == ctx.param("id")) {
        Some(u) => json(state_writes::user_view(u)),
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

/// No `[Authorize]` upstream: anonymous gets a 500 (no user), others their
/// stored rows, then a default (id 0, value null) for every other agent
/// except Email (0), Mobile (7) and Webhook (9).
fn preferences(ctx: &Ctx) -> Response {
    let Some(p) = &ctx.principal else {
        return error_500("Object reference not set to an instance of an object.");
    };
    let id = user_id(&p.user_name);
    let data = ctx.shared.data.lock().unwrap();
    let mut rows: Vec<Value> = data
        .admin
        .notification_preferences
        .iter()
        .filter(|r| r["userId"] == json!(id))
        .cloned()
        .collect();
    for agent in [1, 2, 3, 4, 5, 6, 8, 10, 11] {
        if !rows.iter().any(|r| r["agent"] == json!(agent)) {
            rows.push(
                json!({"id": 0, "userId": id, "agent": agent, "enabled": false, "value": null}),
            );
        }
    }
    json(Value::Array(rows))
}
