//! Wire shapes of Ombi → the contract's result families. Each projection rule
//! of `docs/contract.md` is a named function here, tested on the quirky shape it
//! exists for.

#[cfg(test)]
pub(crate) mod family_schema;
pub mod identifiers;
pub mod integration;
pub mod issues;
pub mod library;
pub mod lifecycle;
pub mod logs;
pub mod media;
pub mod metrics;
pub mod mutation;
pub mod paging;
pub mod reference;
pub mod requests;
pub mod server_info;
pub mod settings;
pub mod users;
pub mod votes;
pub mod wire;
