//! The 31 tools of `shared/catalogue.md` as data: one table that defines each
//! tool once (name, description, input schema, annotations, bundle, families).
//! `tools/list` and `tools/call` are filters over this table.
//!
//! Tools with one action have no `action` argument; validation still fills
//! `Args::action()` with that action's name: `write_issue_create` `create`,
//! `write_issue_comment` `comment`, `write_request_reprocess` `reprocess`,
//! `write_request_delete` `delete`, `read_settings` `read`,
//! `write_settings_patch` `patch`, `write_integration_test` `test`,
//! `write_job_run` `run`, `write_retry_remove` `remove`.

pub mod args;
pub mod bundle;
pub mod mcp;
pub mod params;
pub mod shape;
pub mod table;
pub mod validate;

pub use args::{Args, Page};
pub use bundle::{Bundle, BundleSet};
pub use table::{ActionDef, Family, TOOLS, ToolDef};

/// The `tools/list` entries of a session (clones of the cached tool objects).
pub fn list_tools(
    bundles: BundleSet,
    read_only: bool,
    implemented: impl Fn(&str) -> bool,
) -> Vec<rmcp::model::Tool> {
    visible(bundles, read_only, implemented)
        .into_iter()
        .map(|t| t.mcp_tool().clone())
        .collect()
}

/// The tool of that name.
pub fn find(name: &str) -> Option<&'static ToolDef> {
    TOOLS.iter().find(|t| t.name == name)
}

/// The tools a session sees: in its bundles, without `write_*` when read-only,
/// and implemented. Table order.
pub fn visible(
    bundles: BundleSet,
    read_only: bool,
    implemented: impl Fn(&str) -> bool,
) -> Vec<&'static ToolDef> {
    TOOLS
        .iter()
        .filter(|t| bundles.contains(t.bundle))
        .filter(|t| !(read_only && t.is_write()))
        .filter(|t| implemented(t.name))
        .collect()
}
