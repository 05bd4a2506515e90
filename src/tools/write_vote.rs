//! `write_vote`: its definition. Not served yet: it is in no tool list until its
//! handler exists.

use crate::catalogue::params::*;
use crate::catalogue::{Bundle, ToolDef, action};
use crate::contract::Family;

pub static DEF: ToolDef = ToolDef {
    name: "write_vote",
    title: "Vote on a request",
    bundle: Bundle::Core,
    destructive: true,
    description: "Vote a pending request up or down (replaces your earlier vote); only when the server has voting enabled.",
    families: &[Family::Mutation],
    params: &[MEDIA, REQUEST_ID],
    actions: &[
        action("up", "vote for", &["media", "request_id"], &[]),
        action("down", "vote against", &["media", "request_id"], &[]),
    ],
    default_action: None,
    check: None,
};
