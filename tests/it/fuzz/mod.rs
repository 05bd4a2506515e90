//! Property tests (proptest, stable); the `cargo fuzz` targets in `fuzz/` run the same checks.

mod frames;
mod projection;
mod validation;
