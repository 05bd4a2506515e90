//! `write_request_subscribe`: its definition. Not served yet: it is in no tool list until its
//! handler exists.

use crate::catalogue::params::*;
use crate::catalogue::{Bundle, ToolDef, action};
use crate::contract::Family;

pub static DEF: ToolDef = ToolDef {
    name: "write_request_subscribe",
    title: "Subscribe to a request",
    bundle: Bundle::Core,
    destructive: true,
    description: "Subscribe to (or unsubscribe from) notifications about someone's request, e.g. to hear when a title you also want becomes available.",
    families: &[Family::Mutation],
    params: &[MEDIA_MOVIE_TV, REQUEST_ID],
    actions: &[
        action("subscribe", "get notified", &["media", "request_id"], &[]),
        action(
            "unsubscribe",
            "stop notifications",
            &["media", "request_id"],
            &[],
        ),
    ],
    default_action: None,
    check: None,
};
