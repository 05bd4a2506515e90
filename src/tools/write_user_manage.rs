//! `write_user_manage`: its definition. Not served yet: it is in no tool list until its
//! handler exists.

use serde_json::{Map, Value};

use crate::catalogue::params::*;
use crate::catalogue::{Bundle, ToolDef, action};
use crate::contract::{Family, ToolError};

pub static DEF: ToolDef = ToolDef {
    name: "write_user_manage",
    title: "Manage users",
    bundle: Bundle::Administration,
    destructive: true,
    description: "Create, update or delete Ombi users, including their roles and request limits.",
    families: &[Family::Mutation],
    params: &[USER_ID, USER],
    actions: &[
        action("create", "create a local user", &["user"], &[]),
        action(
            "update",
            "change a user's fields",
            &["user_id", "user"],
            &[],
        ),
        action("delete", "delete a user", &["user_id"], &[]),
    ],
    default_action: None,
    check: Some(user_rules),
};

fn user_rules(action: &str, args: &Map<String, Value>) -> Result<(), ToolError> {
    let Some(user) = args.get("user").and_then(Value::as_object) else {
        return Ok(());
    };
    if action == "create" && !user.contains_key("user_name") {
        return Err(ToolError::invalid(
            "/user/user_name",
            "action `create` needs `user.user_name`",
        ));
    }
    if action == "update" && user.contains_key("password") {
        return Err(ToolError::invalid(
            "/user/password",
            "`user.password` can only be set on `create`; passwords of existing users are not changed here",
        ));
    }
    if action == "update" && user.is_empty() {
        return Err(ToolError::invalid(
            "/user",
            "action `update` needs at least one field in `user`",
        ));
    }
    Ok(())
}
