//! `read_settings`: one settings section as allowlisted, flattened,
//! non-secret values with the section's `revision` (see
//! [`crate::projection::settings`]).

use futures::future::BoxFuture;
use serde_json::Value;

use super::common::{acting, reply};
use super::{CallCtx, Outcome};
use crate::catalogue::Args;
use crate::contract::ToolError;
use crate::projection::settings;
use crate::upstream::Route;

pub fn read_settings<'a>(ctx: &'a CallCtx, args: &'a Args) -> BoxFuture<'a, Outcome> {
    Box::pin(async move {
        let name = args.str("section").unwrap_or_default();
        let section = settings::section(name).ok_or_else(|| {
            ToolError::invalid("/section", format!("unknown settings section {name:?}"))
        })?;
        // Settings objects are small (KiBs); the whole section is needed for
        // its revision, so it is read as one JSON value.
        let raw: Option<Value> = ctx
            .upstream
            .get_json(acting(ctx), Route::get(section.path))
            .await?;
        let p = settings::project(section, &raw.unwrap_or(Value::Null));
        Ok(reply(p.data, p.warnings, p.truncated))
    })
}
