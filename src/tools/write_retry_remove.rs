//! `write_retry_remove`: its definition. Not served yet: it is in no tool list until its
//! handler exists.

use crate::catalogue::shape::{Field, Ty};
use crate::catalogue::{Bundle, ToolDef, action};
use crate::contract::Family;

pub static DEF: ToolDef = ToolDef {
    name: "write_retry_remove",
    title: "Remove from retry queue",
    bundle: Bundle::Administration,
    destructive: true,
    description: "Remove one entry from the failed-request retry queue (its `queue_id` from read_requests `retry_queue`, never a request id).",
    families: &[Family::Mutation],
    params: &[Field::opt("queue_id", Ty::ID, "Retry queue entry id.")],
    actions: &[action("remove", "remove the entry", &["queue_id"], &[])],
    default_action: None,
    check: None,
};
