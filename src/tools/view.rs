//! What a session sees: the policy's bounds (bundles, read-only) narrowed by
//! the acting Ombi user's roles ([`view`], the one function every surface
//! asks — `tools/list`, `tools/call`, prompts, completions, resources).
//! An action whose Ombi routes need a role the user lacks (its declared
//! [`Role`], docs/roles.md) is left out of its tool's `action` enum and
//! description, and a tool with no action left is not listed. Roles that
//! cannot be read leave the policy's view: Ombi then decides each call,
//! and its refusal says why the view was not narrowed ([`forbidden`]).

use std::sync::OnceLock;

use rmcp::model::{ListToolsResult, ServerResult};

use crate::contract::{ErrorCode, ToolError};
use crate::definition::{ActionDef, BundleSet, Held, Role, mcp};
use crate::policy::Identity;

use super::{CallCtx, TOOLS, Tool};

/// The acting Ombi user's roles, as far as they could be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Roles {
    /// Read (or given: Ombi's system user `Api` holds Admin),
    /// with the name the user goes by in messages.
    Known { held: Held, user: String },
    /// Not read, and why (Ombi down, an answer without roles).
    Unknown(String),
}

impl Roles {
    fn held(&self) -> Option<Held> {
        match self {
            Roles::Known { held, .. } => Some(*held),
            Roles::Unknown(_) => None,
        }
    }
}

/// The acting user's roles for this call's session: Admin for the bare API
/// key (Ombi's system user `Api`, whoever the peer is — root's peer without
/// an `ombi_user` is one), else the enabled claims of `GET /api/v1/Identity`
/// for the user calls are attributed to (a peer acting as bob gets bob's
/// roles, whatever its uid: Ombi decides by them), read through the
/// five-minute cache of acting users ([`CallCtx::me_cached`]).
pub async fn roles(ctx: &CallCtx) -> Roles {
    let Some(user) = ctx.ombi_user().map(str::to_string) else {
        return Roles::Known {
            held: Held::ADMIN,
            user: "Api".into(),
        };
    };
    match ctx.me_cached().await {
        Ok(me) => match &me.roles {
            Some(names) => Roles::Known {
                held: Held::from_names(names.iter().map(String::as_str)),
                user,
            },
            None => Roles::Unknown(format!("Ombi's answer about {user} named no roles")),
        },
        // The error's code, not its message: that one names an HTTP route.
        Err(e) => Roles::Unknown(format!(
            "{user}'s Ombi roles could not be read ({})",
            serde_json::to_value(e.code)
                .ok()
                .and_then(|c| c.as_str().map(str::to_string))
                .unwrap_or_default()
        )),
    }
}

/// The view of the session `ctx` belongs to, its roles read now (cached).
pub async fn of_session(ctx: &CallCtx) -> View {
    view(&ctx.identity, &roles(ctx).await)
}

/// A session's view: what its policy allows, narrowed by the roles read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct View {
    pub bundles: BundleSet,
    pub read_only: bool,
    /// The strongest role the user's roles reach (`None`: not read, the
    /// policy's view).
    ceiling: Option<Role>,
}

/// The one narrowing: identity (policy bounds) and roles → what is visible.
/// On protocol 2025-11-25 a session asks it once per `tools/list` (roles
/// cached five minutes); a per-request protocol asks it per request.
pub fn view(identity: &Identity, roles: &Roles) -> View {
    let ceiling = roles.held().map(|held| {
        Role::ALL
            .into_iter()
            .rfind(|r| held.allows(*r))
            .unwrap_or(Role::User)
    });
    View {
        bundles: identity.bundles,
        read_only: identity.read_only,
        ceiling,
    }
}

impl View {
    /// The policy's view alone (roles not read).
    pub fn policy(identity: &Identity) -> View {
        view(identity, &Roles::Unknown(String::new()))
    }

    /// Whether the roles reach `action` (always, when they were not read).
    pub fn shows_action(&self, action: &ActionDef) -> bool {
        self.ceiling.is_none_or(|c| action.role <= c)
    }

    /// The actions of `tool` this view shows (none: the tool is not listed).
    pub fn actions(&self, tool: &Tool) -> Vec<ActionDef> {
        tool.def
            .actions
            .iter()
            .filter(|a| self.shows_action(a))
            .copied()
            .collect()
    }

    /// The tools of the policy's view (bundles, read-only) with at least
    /// one action the roles reach, in catalogue order.
    pub fn tools(self) -> impl Iterator<Item = &'static Tool> {
        super::visible(self.bundles, self.read_only)
            .filter(move |t| t.def.actions.iter().any(|a| self.shows_action(a)))
    }

    /// Whether `name` is one of [`View::tools`].
    pub fn shows_tool(&self, name: &str) -> bool {
        self.tools().any(|t| t.def.name == name)
    }

    /// The `tools/list` result of this view.
    pub fn list(&self) -> ListToolsResult {
        ListToolsResult::with_all_items(
            self.tools()
                .map(|t| crate::views::declare(mcp::build_of(&t.def, &self.actions(t))))
                .collect(),
        )
    }

    /// [`View::list`] as the JSON rmcp would send on protocol 2025-11-25,
    /// made once per view for the daemon's life (the catalogue never
    /// changes while it runs).
    pub fn listing(&self) -> &'static str {
        let ceiling = self.ceiling.map_or(0, |c| c as usize + 1);
        let slot = (usize::from(self.bundles.bits()) * 2 + usize::from(self.read_only))
            * (Role::ALL.len() + 1)
            + ceiling;
        LISTINGS[slot % LISTINGS.len()].get_or_init(|| {
            let mut result = ServerResult::ListToolsResult(self.list());
            // What rmcp's handler does to every result for such a peer.
            result.strip_result_type_for_legacy_peer();
            result.strip_non_object_output_for_legacy_peer();
            serde_json::to_string(&result).unwrap_or_default().into()
        })
    }
}

/// One serialized listing per view: 8 bundle sets × read-only × 5 ceilings.
static LISTINGS: [OnceLock<Box<str>>; 80] = [const { OnceLock::new() }; 80];

/// `FORBIDDEN` for an action the acting user's roles do not reach, naming
/// the role and the next step: before anything is sent to Ombi.
pub fn refusal(action: &ActionDef, roles: &Roles) -> Option<ToolError> {
    match roles {
        Roles::Known { held, user } if !held.allows(action.role) => {
            Some(needs(action.role, *held, user))
        }
        _ => None,
    }
}

/// Ombi's own refusal (403) of an action, in words: the role it needs and
/// the next step, or, roles unread, why the view was not narrowed.
pub fn forbidden(action: &ActionDef, roles: &Roles) -> ToolError {
    match roles {
        Roles::Known { held, user } => needs(held.refused_for(action.role), *held, user),
        Roles::Unknown(why) => ToolError::new(
            ErrorCode::Forbidden,
            format!(
                "Ombi refused this for the acting user's roles; {why}, so every tool the policy \
                 allows is shown. `{}` needs Ombi's {}; ask an Ombi admin",
                action.name,
                role_words(action.role),
            ),
        ),
    }
    .with_status(403)
}

/// Ombi's business refusals that mean a missing role (`CanRequestRule`,
/// `BaseMediaEngine.CheckCanManageRequest`): Ombi's text, then the role in
/// words and the next step. `None` for any other refusal.
pub fn refused_by_rule(message: &str, roles: &Roles) -> Option<String> {
    const RULES: [(&str, &str); 4] = [
        ("permissions to Request a Movie", "RequestMovie role"),
        ("permissions to Request a TV Show", "RequestTv role"),
        ("permissions to Request an Album", "RequestMusic role"),
        (
            "NoPermissions",
            "PowerUser role to manage another user's request",
        ),
    ];
    let (_, role) = RULES.iter().find(|(text, _)| message.contains(text))?;
    let has = match roles {
        Roles::Known { held, user } => format!(" ({user} has {})", held.strongest()),
        Roles::Unknown(_) => String::new(),
    };
    Some(format!(
        "{message}: needs Ombi's {role}{has}; ask an Ombi admin"
    ))
}

fn needs(role: Role, held: Held, user: &str) -> ToolError {
    ToolError::new(
        ErrorCode::Forbidden,
        format!(
            "needs Ombi's {} ({user} has {}); ask an Ombi admin",
            role_words(role),
            held.strongest()
        ),
    )
}

/// "Admin role", or for ManageOwnRequests what it allows.
fn role_words(role: Role) -> String {
    match role {
        Role::ManageOwnRequests => {
            "PowerUser role (or ManageOwnRequests, for one's own requests)".to_string()
        }
        other => format!("{other} role"),
    }
}

/// Every tool's actions with the role each needs, in catalogue order (the
/// table of docs/roles.md).
pub fn table() -> impl Iterator<Item = (&'static Tool, &'static ActionDef)> {
    TOOLS
        .iter()
        .copied()
        .flat_map(|t| t.def.actions.iter().map(move |a| (t, a)))
}
