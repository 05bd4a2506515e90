//! Ombi requests → `request_page` / `retry_page` records (Ombi's quirks:
//! docs/ombi-notes.md).
//!
//! The rules that exist because of Ombi's quirks:
//! - the target id prefers `requestId` over `id`;
//! - v2 TV list items are *children* (`tv_child` + `parent_request_id`), v1
//!   parent records stay `tv_parent`; a child's provider ids live on its
//!   embedded `parentRequest`;
//! - standard and 4K state are kept apart, never merged into one status;
//! - embedded users (`requestedUser`) are read for their id and user name only;
//! - `recent` TV rows carry a *child* id: the parent is resolved by a bounded
//!   scan, and an unresolved row stays a `tv_child` target with a warning.
//!
//! [`wire`] holds Ombi's shapes, [`record`] the `$defs/request` record,
//! [`project`] the rules from one to the other, [`mod@recent`] the bounded
//! parent scan of `recent` rows and [`mod@retry`] the retry queue.

pub mod project;
pub mod recent;
pub mod record;
pub mod retry;
pub mod wire;

// `$defs/episode` and `$defs/season` have one home: the media projection.
pub use super::media::{Episode, Season, WireSeason};
pub use project::*;
pub use recent::*;
pub use record::*;
pub use retry::*;
pub use wire::*;

#[cfg(test)]
mod tests;
