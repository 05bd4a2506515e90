//! `write_request_moderate`: its definition. Not served yet: it is in no tool list until its
//! handler exists.

use serde_json::{Map, Value};

use crate::catalogue::params::*;
use crate::catalogue::shape::{Field, Ty};
use crate::catalogue::{Bundle, ToolDef, action};
use crate::contract::{Family, ToolError};

pub static DEF: ToolDef = ToolDef {
    name: "write_request_moderate",
    title: "Moderate a request",
    bundle: Bundle::Moderation,
    destructive: true,
    description: "Approve or deny a pending request, or mark it available/unavailable by hand. Approving sends it to Radarr/Sonarr/Lidarr.",
    families: &[Family::Mutation],
    params: &[
        MEDIA,
        REQUEST_ID,
        IS_4K,
        Field::opt(
            "reason",
            Ty::Str { min: 1, max: 1000 },
            "Why it is denied (shown to the requester).",
        ),
    ],
    actions: &[
        action(
            "approve",
            "approve the request",
            &["media", "request_id"],
            &["is_4k"],
        ),
        action(
            "deny",
            "deny the request",
            &["media", "request_id"],
            &["is_4k", "reason"],
        ),
        action(
            "mark_available",
            "mark as available",
            &["media", "request_id"],
            &["is_4k"],
        ),
        action(
            "mark_unavailable",
            "mark as not available",
            &["media", "request_id"],
            &["is_4k"],
        ),
    ],
    default_action: None,
    check: Some(is_4k_movie_only),
};

fn is_4k_movie_only(_action: &str, args: &Map<String, Value>) -> Result<(), ToolError> {
    let media = args.get("media").and_then(Value::as_str);
    if args.contains_key("is_4k") && media.is_some_and(|m| m != "movie") {
        return Err(ToolError::invalid(
            "/is_4k",
            "`is_4k` applies to movie requests only; omit it for `tv` and `album`",
        ));
    }
    Ok(())
}
