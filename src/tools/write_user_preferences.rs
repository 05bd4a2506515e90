//! `write_user_preferences`: its definition. Not served yet: it is in no tool list until its
//! handler exists.

use crate::catalogue::params::*;
use crate::catalogue::shape::{Field, Ty};
use crate::catalogue::{Bundle, ToolDef, action};
use crate::contract::Family;

pub static DEF: ToolDef = ToolDef {
    name: "write_user_preferences",
    title: "Set my preferences",
    bundle: Bundle::Core,
    destructive: true,
    description: "Change your own Ombi preferences: interface language, streaming country (used for where-to-watch results) or notification agent delivery values.",
    families: &[Family::Mutation],
    params: &[
        LANGUAGE,
        Field::opt(
            "country",
            Ty::Str { min: 2, max: 2 },
            "Two-letter country code such as `US`.",
        ),
        AGENTS,
    ],
    actions: &[
        action("language", "set your language", &["language"], &[]),
        action(
            "streaming_country",
            "set your streaming country",
            &["country"],
            &[],
        ),
        action(
            "notification_agents",
            "set your notification delivery values",
            &["agents"],
            &[],
        ),
    ],
    default_action: None,
    check: None,
};
