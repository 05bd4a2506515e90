//! The 31 tools of `shared/catalogue.md` as data: one table that defines each
//! tool once (name, description, input schema, annotations, bundle, families).
//! `tools/list` and `tools/call` are filters over this table.

pub mod args;
pub mod bundle;

pub use args::{Args, Page};
pub use bundle::{Bundle, BundleSet};
