//! The language tools are defined in: [`ToolDef`] (name, description,
//! annotations, bundle, families, actions), argument shapes ([`shape`],
//! shared ones in [`params`]), validation into [`Args`], and the MCP input
//! schema rendered from a definition ([`mcp`]). The tools themselves live in
//! `src/tools/`, one file each.
//!
//! Tools with one action have no `action` argument; validation still fills
//! `Args::action()` with that action's name.

pub mod args;
pub mod bundle;
pub mod def;
pub mod mcp;
pub mod params;
pub mod role;
pub mod shape;
pub mod validate;

pub use args::{Args, Page};
pub use bundle::{Bundle, BundleSet, UnknownBundle};
pub use def::{ActionDef, ArgDef, Check, Confirm, Declared, Link, ToolDef, same_name};
pub use ombi_mcp_macros::ToolActions;
pub use role::{Held, Role};
