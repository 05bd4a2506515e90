//! `write_request_reprocess`: its definition. Not served yet: it is in no tool list until its
//! handler exists.

use serde_json::Value;

use crate::catalogue::params::*;
use crate::catalogue::shape::{Field, Ty};
use crate::catalogue::{Bundle, ToolDef, action};
use crate::contract::{Family, ToolError};

pub static DEF: ToolDef = ToolDef {
    name: "write_request_reprocess",
    title: "Reprocess a request",
    bundle: Bundle::Moderation,
    destructive: false,
    description: "Send an approved request to Radarr/Sonarr again, e.g. after fixing their settings.",
    families: &[Family::Mutation],
    params: &[
        Field::opt(
            "request_type",
            Ty::Enum(MEDIA_MOVIE_OR_TV),
            "Kind of request.",
        ),
        REQUEST_ID,
        IS_4K,
    ],
    actions: &[action(
        "reprocess",
        "resend the request",
        &["request_type", "request_id"],
        &["is_4k"],
    )],
    default_action: None,
    check: Some(|_, args| {
        if args.contains_key("is_4k")
            && args.get("request_type").and_then(Value::as_str) != Some("movie")
        {
            return Err(ToolError::invalid(
                "/is_4k",
                "`is_4k` applies to movie requests only; omit it for `tv`",
            ));
        }
        Ok(())
    }),
};
