//! The 31 tools of `shared/catalogue.md` as data: one table that defines each
//! tool once (name, description, input schema, annotations, bundle, families).
//! `tools/list` and `tools/call` are filters over this table.

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
