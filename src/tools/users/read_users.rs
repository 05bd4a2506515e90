//! `read_users`: me, list, get, online (→ `user_page`) and the caller's
//! notification agents (→ `reference_page`, never the delivery values).

use serde::Deserialize;

use crate::contract::Family;
use crate::contract::Outcome;
use crate::definition::params::*;
use crate::definition::{Bundle, Page, ToolActions, ToolDef};
use crate::projection::paging::{Paging, page_object};
use crate::projection::users::{self, UserRecord, WireConnectedUser, WirePreference, WireUser};
use crate::tools::{Actions, CallCtx, Tool};
use crate::tools::{local_page, not_found, not_found_on_500, reply};
use crate::upstream::Route;

pub static TOOL: Tool = Tool::new::<Action>(ToolDef {
    name: "read_users",
    title: "Users",
    bundle: Bundle::Core,
    destructive: false,
    description: "Ombi users and your notification agents: ids, names, language, country; never e-mail, phone or tokens. User names and aliases are user-provided text.",
    families: &[Family::UserPage, Family::ReferencePage],
    ..ToolDef::BASE
})
.examples(&[
    (r#"{"action": "me"}"#, true),
    (r#"{"action": "list"}"#, true),
    (r#"{"action": "online"}"#, true),
    (r#"{"action": "notification_agents"}"#, true),
    (r#"{"action": "get", "user_id": "no-such-user"}"#, false),
])
.invalid(&[
    (r#"{"action": "get", "user_id": 42}"#, "/user_id"),
    (r#"{"action": "me", "page": {"limit": 5}}"#, "/page"),
    (r#"{"action": "get"}"#, "/user_id"),
    (r#"{"action": "everyone"}"#, "/action"),
]);

/// The actions, as validated arguments deserialize into them.
#[derive(Deserialize, ToolActions)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
enum Action {
    /// the acting user
    Me,
    /// all users, with roles, type (local, plex, emby, jellyfin) and request quotas where a user has a limit of their own (`remaining` 0: used up)
    #[action(role = "PowerUser")]
    List { page: Page },
    /// one user, as `list` shows them
    #[action(role = "PowerUser")]
    Get { user_id: String },
    /// users connected now
    #[action(role = "Admin")]
    Online { page: Page },
    /// your configured notification agents (never their values)
    NotificationAgents { page: Page },
}

impl Actions for Action {
    async fn run(self, ctx: &CallCtx) -> Outcome {
        match self {
            Action::Me => me(ctx).await,
            Action::List { page } => list(ctx, page).await,
            Action::Get { user_id } => get(ctx, &user_id).await,
            Action::Online { page } => online(ctx, page).await,
            Action::NotificationAgents { page } => notification_agents(ctx, page).await,
        }
    }
}

/// One user as a `user_page` (`project`: what the caller may see of them);
/// NOT_FOUND (`what`) when Ombi gave none.
fn one_user(
    u: Option<WireUser>,
    project: fn(&WireUser) -> Option<UserRecord>,
    what: &str,
) -> Outcome {
    let item = u
        .as_ref()
        .and_then(project)
        .ok_or_else(|| not_found(what))?;
    Ok(reply(
        page_object(Family::UserPage, vec![item], &Paging::single(1, "users")),
        Vec::new(),
        false,
    ))
}

/// `GET /api/v1/Identity`: the acting user (the system user `Api` for a
/// bare API key).
async fn me(ctx: &CallCtx) -> Outcome {
    let u = ctx.get_json(Route::get("api/v1/Identity")).await?;
    one_user(u, users::user, "the user of the current credentials")
}

/// `GET /api/v1/Identity/Users` (power user): not paged upstream, windowed here.
async fn list(ctx: &CallCtx, page: Page) -> Outcome {
    let mut warnings = Vec::new();
    let rows = ctx
        .read_list::<WireUser>(Route::get("api/v1/Identity/Users"), &mut warnings)
        .await?;
    let items: Vec<UserRecord> = rows
        .value
        .iter()
        .filter_map(users::user_for_moderator)
        .collect();
    local_page(Family::UserPage, "users", items, page, rows.cut, warnings)
}

/// `GET /api/v1/Identity/User/{id}` (power user). Ombi answers an unknown
/// id with a 500 (a null dereference), so a 500 or 204 here is NOT_FOUND.
async fn get(ctx: &CallCtx, id: &str) -> Outcome {
    let what = format!("Ombi user {id:?}");
    let u = ctx
        .get_json(Route::get("api/v1/Identity/User").seg(id))
        .await
        .map_err(|e| not_found_on_500(e, &what))?;
    one_user(u, users::user_for_moderator, &what)
}

/// `GET /api/v2/Hub/Users` (admin): users connected now. Their display
/// name may be an alias or a user name (docs/ombi-notes.md): the user list
/// says which.
async fn online(ctx: &CallCtx, page: Page) -> Outcome {
    let mut warnings = Vec::new();
    let rows = ctx
        .read_list::<WireConnectedUser>(Route::get("api/v2/Hub/Users"), &mut warnings)
        .await?;
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
    local_page(Family::UserPage, "users", items, page, rows.cut, warnings)
}

/// `GET /api/v1/Identity/notificationpreferences`: the caller's own rows.
/// Never the `/{userId}` variant (no auth check upstream, leaks values).
async fn notification_agents(ctx: &CallCtx, page: Page) -> Outcome {
    let mut warnings = Vec::new();
    let rows = ctx
        .read_list::<WirePreference>(
            Route::get("api/v1/Identity/notificationpreferences"),
            &mut warnings,
        )
        .await?;
    let items = users::notification_agents(&rows.value, &mut warnings);
    local_page(
        Family::ReferencePage,
        "references",
        items,
        page,
        rows.cut,
        warnings,
    )
}
