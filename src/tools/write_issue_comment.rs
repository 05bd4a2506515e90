//! `write_issue_comment`: its definition. Not served yet: it is in no tool list until its
//! handler exists.

use crate::catalogue::params::*;
use crate::catalogue::shape::{Field, Ty};
use crate::catalogue::{Bundle, ToolDef, action};
use crate::contract::Family;

pub static DEF: ToolDef = ToolDef {
    name: "write_issue_comment",
    title: "Comment on an issue",
    bundle: Bundle::Core,
    destructive: false,
    description: "Add a comment to an existing issue, e.g. to give details or confirm a fix.",
    families: &[Family::Mutation],
    params: &[
        ISSUE_ID,
        Field::opt("comment", Ty::Str { min: 1, max: 4000 }, "Comment text."),
    ],
    actions: &[action(
        "comment",
        "add a comment",
        &["issue_id", "comment"],
        &[],
    )],
    default_action: None,
    check: None,
};
