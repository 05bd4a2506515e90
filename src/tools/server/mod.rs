//! The Ombi server's own state and configuration: status, settings, logs,
//! integrations (Radarr, Sonarr, Lidarr, media servers, notification agents)
//! and jobs.

pub mod read_integration;
pub mod read_logs;
pub mod read_server;
pub mod read_settings;
pub mod write_integration_test;
pub mod write_job_run;
pub mod write_settings_patch;

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
