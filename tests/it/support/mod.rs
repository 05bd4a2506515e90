//! Test support shared by the integration tests:
//! `#[path = "support/mod.rs"] mod support;`
// Test support: a broken fixture should stop the test (the crate denies unwrap
// and expect outside tests, and these helpers are not `#[test]` functions).
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

pub mod client;
pub mod fake_ombi;
