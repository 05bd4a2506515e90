//! Test support shared by the integration tests:
//! `#[path = "support/mod.rs"] mod support;`
#![allow(dead_code)]

pub mod client;
pub mod fake_ombi;
