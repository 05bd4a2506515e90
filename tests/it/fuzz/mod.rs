//! Property tests (proptest, stable); the `cargo fuzz` targets in `fuzz/` run the same checks.

mod frames;
mod projection;
mod validation;

use proptest::prelude::*;
use serde_json::Value;

/// A short string of any characters (cheaper than a regex strategy).
fn text(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(any::<char>(), 0..=max).prop_map(String::from_iter)
}

/// The JSON scalars every generator here starts from: null, any bool, any integer, any float
/// (one that JSON cannot hold becomes null). Weight it 4 beside other leaves: one per scalar.
fn json_scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
    ]
}

/// Arrays and objects (keys up to `key_len` characters) of up to `width` items over `leaf`,
/// nested up to `depth` levels and about `size` nodes.
fn json_tree(
    leaf: impl Strategy<Value = Value> + 'static,
    depth: u32,
    size: u32,
    width: usize,
    key_len: usize,
) -> impl Strategy<Value = Value> {
    leaf.prop_recursive(depth, size, width as u32, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..width).prop_map(Value::Array),
            prop::collection::btree_map(text(key_len), inner, 0..width)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}
