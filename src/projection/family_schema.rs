//! Test helpers: checks a family object against its `$defs` entry of the
//! contract's `defs.json` (with the whole library around it, so `$ref`s
//! resolve), and that a record type reads back what it wrote.

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

/// Panics with every schema error when `value` is not a valid `family`.
pub fn assert_family(family: &str, value: &Value) {
    let defs: Value =
        serde_json::from_str(include_str!("../contract/defs.json")).expect("defs.json parses");
    let schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$defs": defs["$defs"],
        "$ref": format!("#/$defs/{family}"),
    });
    let validator = jsonschema::validator_for(&schema).expect("family schema compiles");
    let errors: Vec<String> = validator
        .iter_errors(value)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "{family} invalid: {errors:#?}\n{value:#}"
    );
}

/// Panics unless `record` (a projected record, serialized) reads back as a
/// `T` that serializes to the same bytes: lockdown screens records that way.
pub fn assert_reads_back<T: Serialize + DeserializeOwned>(record: &Value) {
    let read: T = serde_json::from_value(record.clone()).expect("the record reads back");
    assert_eq!(
        serde_json::to_string(&read).unwrap(),
        serde_json::to_string(record).unwrap()
    );
}
