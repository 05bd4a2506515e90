//! `read_users`: me, list, get, online (→ `user_page`) and the caller's
//! notification agents (→ `reference_page`, never the delivery values).

use futures::future::BoxFuture;
use serde_json::{Value, json};

use super::ctx::reply;
use super::{CallCtx, Tool};
use crate::catalogue::params::*;
use crate::catalogue::{Args, Bundle, ToolDef, action};
use crate::contract::Family;
use crate::contract::Outcome;
use crate::contract::{ErrorCode, ToolError};
use crate::projection::paging::{self, Paging, Window};
use crate::projection::users::{self, WireConnectedUser, WirePreference, WireUser};
use crate::upstream::Route;

pub static TOOL: Tool = Tool {
    def: ToolDef {
        name: "read_users",
        title: "Users",
        bundle: Bundle::Core,
        destructive: false,
        description: "Ombi users: yourself, all users or one (power users), who is online (admin), and which notification agents you have set up. Only ids, names, language, country and online state are returned; user names and aliases are user-provided text.",
        families: &[Family::UserPage, Family::ReferencePage],
        params: &[USER_ID, PAGE],
        actions: &[
            action("me", "the acting user", &[], &[]),
            action("list", "all users", &[], PAGE_ONLY),
            action("get", "one user", &["user_id"], &[]),
            action("online", "users connected now", &[], PAGE_ONLY),
            action(
                "notification_agents",
                "your configured notification agents (never their values)",
                &[],
                PAGE_ONLY,
            ),
        ],
        default_action: None,
        check: None,
    },
    run: handle,
};

fn handle<'a>(ctx: &'a CallCtx, args: &'a Args) -> BoxFuture<'a, Outcome> {
    Box::pin(async move {
        match args.action() {
            "me" => me(ctx).await,
            "list" => list(ctx, args).await,
            "get" => get(ctx, args).await,
            "online" => online(ctx, args).await,
            "notification_agents" => notification_agents(ctx, args).await,
            other => Err(ToolError::invalid(
                "/action",
                format!("read_users has no action {other:?}"),
            )
            .into()),
        }
    })
}

fn user_page(items: Vec<Value>, page: Paging) -> Value {
    json!({"kind": "user_page", "items": items, "page": page})
}

/// `GET /api/v1/Identity`: the acting user (the system user `Api` for a
/// bare API key).
async fn me(ctx: &CallCtx) -> Outcome {
    let u: Option<WireUser> = ctx
        .upstream
        .get_json(ctx.acting(), Route::get("api/v1/Identity"))
        .await?;
    let Some(item) = u.as_ref().and_then(users::user) else {
        return Err(ToolError::new(
            ErrorCode::NotFound,
            "Ombi returned no user for the current credentials",
        )
        .into());
    };
    Ok(reply(
        user_page(vec![item], Paging::single(1, "users")),
        Vec::new(),
        false,
    ))
}

/// `GET /api/v1/Identity/Users` (power user): not paged upstream, windowed here.
async fn list(ctx: &CallCtx, args: &Args) -> Outcome {
    let rows = ctx
        .upstream
        .get_array::<WireUser>(ctx.acting(), Route::get("api/v1/Identity/Users"))
        .await?;
    let items: Vec<Value> = rows.value.iter().filter_map(users::user).collect();
    let Window { items, page } = paging::local(items, args.page(), !rows.cut, "users");
    let mut warnings = Vec::new();
    if rows.cut {
        warnings.push(
            "the user list exceeded the 8 MiB read limit; only the users read are paged".into(),
        );
    }
    Ok(reply(user_page(items, page), warnings, rows.cut))
}

/// `GET /api/v1/Identity/User/{id}` (power user). Ombi answers an unknown
/// id with a 500 (a null dereference), so a 500 or 204 here is NOT_FOUND.
async fn get(ctx: &CallCtx, args: &Args) -> Outcome {
    let id = args.str("user_id").unwrap_or_default();
    let not_found = || {
        ToolError::new(
            ErrorCode::NotFound,
            format!("no Ombi user has the id {id:?}"),
        )
        .with_status(500)
    };
    let u: Option<WireUser> = match ctx
        .upstream
        .get_json(ctx.acting(), Route::get("api/v1/Identity/User").seg(id))
        .await
    {
        Ok(u) => u,
        Err(e) if e.http_status == Some(500) => return Err(not_found().into()),
        Err(e) => return Err(e.into()),
    };
    let Some(item) = u.as_ref().and_then(users::user) else {
        return Err(ToolError::new(
            ErrorCode::NotFound,
            format!("no Ombi user has the id {id:?}"),
        )
        .into());
    };
    Ok(reply(
        user_page(vec![item], Paging::single(1, "users")),
        Vec::new(),
        false,
    ))
}

/// `GET /api/v2/Hub/Users` (admin): users connected now. Their display
/// name may be an alias or a user name (docs/ombi-notes.md): the user list
/// says which.
async fn online(ctx: &CallCtx, args: &Args) -> Outcome {
    let rows = ctx
        .upstream
        .get_array::<WireConnectedUser>(ctx.acting(), Route::get("api/v2/Hub/Users"))
        .await?;
    let mut warnings = Vec::new();
    let known = match ctx
        .upstream
        .get_array::<WireUser>(ctx.acting(), Route::get("api/v1/Identity/Users"))
        .await
    {
        Ok(b) => b.value,
        Err(e) => {
            warnings.push(format!(
                "the user list could not be read ({}): online users carry their id only",
                e.message
            ));
            Vec::new()
        }
    };
    let items = users::online_users(&rows.value, &known);
    let Window { items, page } = paging::local(items, args.page(), !rows.cut, "users");
    Ok(reply(user_page(items, page), warnings, rows.cut))
}

/// `GET /api/v1/Identity/notificationpreferences`: the caller's own rows.
/// Never the `/{userId}` variant (no auth check upstream, leaks values).
async fn notification_agents(ctx: &CallCtx, args: &Args) -> Outcome {
    let rows = ctx
        .upstream
        .get_array::<WirePreference>(
            ctx.acting(),
            Route::get("api/v1/Identity/notificationpreferences"),
        )
        .await?;
    let mut warnings = Vec::new();
    let items = users::notification_agents(&rows.value, &mut warnings);
    let Window { items, page } = paging::local(items, args.page(), !rows.cut, "references");
    let data = json!({"kind": "reference_page", "items": items, "page": page});
    Ok(reply(data, warnings, rows.cut))
}
