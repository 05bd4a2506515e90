//! `write_request_delete`: its definition. Not served yet: it is in no tool list until its
//! handler exists.

use crate::catalogue::params::*;
use crate::catalogue::{Bundle, ToolDef, action};
use crate::contract::Family;

pub static DEF: ToolDef = ToolDef {
    name: "write_request_delete",
    title: "Delete a request",
    bundle: Bundle::Moderation,
    destructive: true,
    description: "Delete one request (a movie, a whole TV show, one TV season-level child, or an album). Deleting a show's last child also deletes the show's request.",
    families: &[Family::Mutation],
    params: &[TARGET],
    actions: &[action("delete", "delete the request", &["target"], &[])],
    default_action: None,
    check: None,
};
