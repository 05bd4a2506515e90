//! `write_request_options`: its definition. Not served yet: it is in no tool list until its
//! handler exists.

use serde_json::{Map, Value};

use crate::catalogue::params::*;
use crate::catalogue::{Bundle, ToolDef, action};
use crate::contract::{Family, ToolError};

pub static DEF: ToolDef = ToolDef {
    name: "write_request_options",
    title: "Set request options",
    bundle: Bundle::Moderation,
    destructive: true,
    description: "Change where and in which quality a request will be downloaded: root folder, quality profile and language profile overrides.",
    families: &[Family::Mutation],
    params: &[
        MEDIA_MOVIE_TV,
        REQUEST_ID,
        OPTIONS,
        PARENT_REQUEST_ID,
        ROOT_FOLDER_ID,
        QUALITY_PROFILE_ID,
    ],
    actions: &[
        action(
            "advanced",
            "set advanced options (tv: parent request id)",
            &["media", "request_id", "options"],
            &[],
        ),
        action(
            "tv_root",
            "set a TV request's root folder",
            &["parent_request_id", "root_folder_id"],
            &[],
        ),
        action(
            "tv_quality",
            "set a TV request's quality profile",
            &["parent_request_id", "quality_profile_id"],
            &[],
        ),
    ],
    default_action: None,
    check: Some(options_not_empty),
};

fn options_not_empty(_action: &str, args: &Map<String, Value>) -> Result<(), ToolError> {
    match args.get("options").and_then(Value::as_object) {
        Some(o) if o.is_empty() => Err(ToolError::invalid(
            "/options",
            "`options` needs at least one of `root_folder_id`, `quality_profile_id`, `language_profile_id`",
        )),
        _ => Ok(()),
    }
}
