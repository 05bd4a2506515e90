//! `read_settings`: one settings section as allowlisted, flattened,
//! non-secret values with the section's `revision` (see
//! [`crate::projection::settings`]).

use serde::Deserialize;
use serde_json::Value;

use crate::contract::Family;
use crate::contract::Outcome;
use crate::contract::ToolError;
use crate::definition::params::*;
use crate::definition::{Bundle, ToolActions, ToolDef};
use crate::projection::settings;
use crate::tools::reply;
use crate::tools::{Actions, CallCtx, Tool};
use crate::upstream::Route;

pub static TOOL: Tool = Tool::new::<Action>(ToolDef {
    name: "read_settings",
    title: "Read settings",
    bundle: Bundle::Administration,
    destructive: false,
    description: "Read one Ombi settings section as a flat list of non-secret values, with the `revision` write_settings_patch needs. Secrets and URLs are never returned.",
    families: &[Family::Settings],
    ..ToolDef::BASE
})
.examples(&[
    (r#"{"section": "ombi"}"#, true),
    (r#"{"section": "sonarr"}"#, true),
    (r#"{"section": "features"}"#, true),
    (r#"{"section": "notifications/email"}"#, true),
])
.invalid(&[
    (r#"{"section": "notifications/fax"}"#, "/section"),
    (r#"{"section": "secrets"}"#, "/section"),
    (r#"{}"#, "/section"),
]);

/// The actions, as validated arguments deserialize into them.
#[derive(Deserialize, ToolActions)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
enum Action {
    /// read a section
    #[action(role = "Admin")]
    Read { section: String },
}

impl Actions for Action {
    async fn run(self, ctx: &CallCtx) -> Outcome {
        match self {
            Action::Read { section } => read(ctx, &section).await,
        }
    }
}

async fn read(ctx: &CallCtx, name: &str) -> Outcome {
    let section = settings::section(name).ok_or_else(|| {
        ToolError::invalid("/section", format!("unknown settings section {name:?}"))
    })?;
    // Settings objects are small (KiBs); the whole section is needed for its
    // revision, so it is read as one JSON value.
    let raw: Option<Value> = ctx.get_json(Route::get(section.path)).await?;
    let p = settings::project(section, &raw.unwrap_or(Value::Null));
    Ok(reply(p.data, p.warnings, p.truncated))
}
