//! `write_issue_manage`: its definition. Not served yet: it is in no tool list until its
//! handler exists.

use crate::catalogue::params::*;
use crate::catalogue::shape::{Field, Ty};
use crate::catalogue::{Bundle, ToolDef, action};
use crate::contract::Family;

pub static DEF: ToolDef = ToolDef {
    name: "write_issue_manage",
    title: "Manage issues",
    bundle: Bundle::Moderation,
    destructive: true,
    description: "Moderate issues: change an issue's status, delete an issue or a comment, and create or delete issue categories.",
    families: &[Family::Mutation],
    params: &[
        ISSUE_ID,
        Field::opt("status", Ty::Enum(ISSUE_STATUS), "New status."),
        Field::opt("name", Ty::Str { min: 1, max: 100 }, "Category name."),
        CATEGORY_ID,
        Field::opt(
            "comment_id",
            Ty::ID,
            "Comment id (from read_issues `comments`).",
        ),
    ],
    actions: &[
        action(
            "set_status",
            "change an issue's status",
            &["issue_id", "status"],
            &[],
        ),
        action("delete", "delete an issue", &["issue_id"], &[]),
        action("create_category", "add an issue category", &["name"], &[]),
        action(
            "delete_category",
            "remove an issue category",
            &["category_id"],
            &[],
        ),
        action("delete_comment", "remove a comment", &["comment_id"], &[]),
    ],
    default_action: None,
    check: None,
};
