//! The settings section a settings write or an integration test starts from,
//! read as Ombi stores it.

use serde_json::Value;

use crate::contract::ToolError;
use crate::projection::settings::Section;
use crate::tools::CallCtx;
use crate::upstream::Route;

/// The whole settings object of `section` as Ombi serves it (secrets
/// included: it is re-sent, never shown); `Null` when Ombi has none (204).
/// Settings objects are small (KiBs).
pub async fn read_section(ctx: &CallCtx, section: &Section) -> Result<Value, ToolError> {
    Ok(ctx
        .get_json::<Value>(Route::get(section.path))
        .await?
        .unwrap_or(Value::Null))
}
