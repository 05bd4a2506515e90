//! Test support shared by the integration tests (and, by `#[path]`, the
//! benches, which use `fake_ombi` and `client` only: hence `dead_code`).
#![allow(dead_code)]

pub mod bad_args;
pub mod client;
pub mod contract_gen;
pub mod declining;
pub mod examples;
pub mod fake_ombi;
pub mod generated;
pub mod projections;
pub mod rig;
