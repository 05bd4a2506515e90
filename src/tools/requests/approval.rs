//! Who may moderate: Ombi's approve, deny and statistics routes need Admin
//! or PowerUser (`[PowerUser]` / `[Admin]` on the controllers). A request
//! record's `can_approve` says whether *this* user can approve it, not
//! Ombi's state flag: the projection sets it from the sides that were asked
//! for, and `limit_can_approve` takes it back for anyone without the roles.

use serde_json::Value;

use crate::contract::{ErrorCode, Outcome, ToolError};
use crate::definition::Role;
use crate::tools::CallCtx;
use crate::tools::view::{self, Roles};

/// Whether the acting user holds Admin or PowerUser; `None` when that
/// cannot be read. A bare API key acts as Ombi's system user `Api`, which
/// holds Admin.
pub async fn may_moderate(ctx: &CallCtx) -> Option<bool> {
    match view::roles(ctx).await {
        Roles::Known { held, .. } => Some(held.allows(Role::PowerUser)),
        Roles::Unknown(_) => None,
    }
}

/// A request page's `can_approve` for this user: unchanged for a moderator,
/// `false` for anyone else, left out when the roles cannot be read.
pub async fn limit_can_approve(ctx: &CallCtx, outcome: &mut Outcome) {
    let data = match outcome {
        Ok(reply) => &mut reply.data,
        Err(failure) => match failure.data.as_mut() {
            Some(d) => d,
            None => return,
        },
    };
    let Some(Value::Array(items)) = data.get_mut("items") else {
        return;
    };
    let approvable = items.iter().any(|i| i["can_approve"] == true);
    if !approvable {
        return;
    }
    let may = may_moderate(ctx).await;
    for item in items.iter_mut().filter_map(Value::as_object_mut) {
        match may {
            Some(true) => {}
            Some(false) => {
                if item.contains_key("can_approve") {
                    item.insert("can_approve".into(), false.into());
                }
            }
            None => {
                item.remove("can_approve");
            }
        }
    }
}

/// FORBIDDEN unless the acting user holds Admin or PowerUser.
pub async fn require_moderator(ctx: &CallCtx, what: &str) -> Result<(), ToolError> {
    match may_moderate(ctx).await {
        Some(true) => Ok(()),
        Some(false) => Err(ToolError::new(
            ErrorCode::Forbidden,
            format!(
                "{what} needs Ombi's Admin or PowerUser role, which the acting user does not hold; ask an Ombi admin"
            ),
        )),
        None => Err(ToolError::new(
            ErrorCode::Forbidden,
            format!(
                "{what} needs Ombi's Admin or PowerUser role, and the acting user's roles could not be read"
            ),
        )),
    }
}
