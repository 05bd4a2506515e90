//! `write_notification_send`: its definition. Not served yet: it is in no tool list until its
//! handler exists.

use crate::catalogue::params::*;
use crate::catalogue::shape::{Field, Ty};
use crate::catalogue::{Bundle, ToolDef, action};
use crate::contract::Family;

pub static DEF: ToolDef = ToolDef {
    name: "write_notification_send",
    title: "Send a notification",
    bundle: Bundle::Administration,
    destructive: false,
    description: "Send an e-mail to chosen users, or a push message to one user's mobile app.",
    families: &[Family::Mutation],
    params: &[
        Field::opt("subject", Ty::Str { min: 1, max: 200 }, "E-mail subject."),
        Field::opt(
            "body",
            Ty::Str {
                min: 1,
                max: 10_000,
            },
            "E-mail body.",
        ),
        Field::opt("bcc", Ty::Bool, "Send as blind copies."),
        Field::opt(
            "user_ids",
            Ty::Arr {
                item: &Ty::Str { min: 1, max: 64 },
                min: 1,
                max: 100,
            },
            "Recipient user ids.",
        ),
        USER_ID,
        Field::opt(
            "message",
            Ty::Str { min: 1, max: 1000 },
            "Push message text.",
        ),
    ],
    actions: &[
        action(
            "email",
            "send an e-mail",
            &["subject", "body", "user_ids"],
            &["bcc"],
        ),
        action(
            "mobile_push",
            "send a push message",
            &["user_id", "message"],
            &[],
        ),
    ],
    default_action: None,
    check: None,
};
