//! Wire-shape projection: any JSON read as every wire type and projected
//! (the same list as the property test `tests/it/fuzz/projection.rs`).
#![no_main]

#[path = "../../tests/it/support/projections.rs"]
mod projections;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(v) = serde_json::from_slice::<serde_json::Value>(data) {
        if let Err(broken) = projections::project_any(&v) {
            panic!("{broken}");
        }
    }
});
