//! Property tests of the wire-shape projections: any JSON Ombi might send
//! (the fake's real shapes, mutated field by field, or arbitrary objects
//! using Ombi's field names) is read and projected without a panic, and
//! what comes out keeps the contract's invariants (ids ≥ 1, identifier
//! values non-empty). `OMBI_MCP_SOAK=1` runs ten times as many cases.

use std::collections::BTreeSet;

use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;

use super::{json_scalar, json_tree, text};
use serde_json::{Map, Value};

use crate::support::fake_ombi::Data;
use crate::support::projections;

fn cases() -> u32 {
    if std::env::var("OMBI_MCP_SOAK").is_ok_and(|v| v == "1") {
        5_000
    } else {
        500
    }
}

/// Wire objects of the fake's sample data set (Ombi's real shapes).
fn seeds() -> Vec<Value> {
    let d = Data::sample();
    let r = &d.requests;
    let a = &d.admin;
    [
        &d.movies,
        &d.tv,
        &d.movie_requests,
        &d.issues,
        &r.tv_parents,
        &r.albums,
        &r.recent,
        &r.retry,
        &a.users,
        &a.notification_preferences,
        &a.connected,
        &a.radarr_profiles,
        &a.radarr_root_folders,
    ]
    .into_iter()
    .flatten()
    .cloned()
    .collect()
}

/// Every field name the seeds use, at any depth.
fn field_names(seeds: &[Value]) -> Vec<String> {
    fn walk(v: &Value, out: &mut BTreeSet<String>) {
        match v {
            Value::Object(m) => {
                for (k, v) in m {
                    out.insert(k.clone());
                    walk(v, out);
                }
            }
            Value::Array(items) => items.iter().for_each(|v| walk(v, out)),
            _ => {}
        }
    }
    let mut out = BTreeSet::new();
    seeds.iter().for_each(|s| walk(s, &mut out));
    out.into_iter().collect()
}

fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        4 => json_scalar(),
        1 => (-2i64..5).prop_map(Value::from),
        1 => text(16).prop_map(Value::String),
        1 => Just(Value::String("0001-01-01T00:00:00Z".into())),
        1 => Just(Value::String("  ".into())),
        1 => Just(Value::String("javascript:alert(1)".into())),
    ];
    json_tree(leaf, 3, 32, 5, 6)
}

/// A seed with each field kept, dropped or replaced (at every depth), or an
/// object of Ombi's field names with arbitrary values.
fn wire_value() -> impl Strategy<Value = Value> {
    let seeds = seeds();
    let names = field_names(&seeds);
    let mutated = (
        prop::sample::select(seeds),
        any::<u64>(),
        prop::collection::vec(any_json(), 1..8),
    )
        .prop_map(|(seed, choices, replacements)| {
            let mut n = 0usize;
            mutate(&seed, choices, &replacements, &mut n)
        });
    let invented = prop::collection::vec((prop::sample::select(names), any_json()), 0..12)
        .prop_map(|fields| Value::Object(fields.into_iter().collect::<Map<_, _>>()));
    prop_oneof![3 => mutated, 1 => invented]
}

fn mutate(v: &Value, choices: u64, replacements: &[Value], n: &mut usize) -> Value {
    *n += 1;
    let pick = (choices.rotate_left((*n % 64) as u32) ^ (*n as u64).wrapping_mul(0x9E37_79B9)) % 10;
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .filter_map(|(k, v)| match pick {
                    0 => None,
                    1 | 2 => Some((k.clone(), replacements[*n % replacements.len()].clone())),
                    _ => Some((k.clone(), mutate(v, choices, replacements, n))),
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(
            items
                .iter()
                .map(|v| mutate(v, choices, replacements, n))
                .collect(),
        ),
        _ if pick == 0 => replacements[*n % replacements.len()].clone(),
        leaf => leaf.clone(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: cases(),
        // Failing seeds are kept and replayed first on every run.
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "tests/proptest-regressions/fuzz_projection.txt",
        ))),
        ..ProptestConfig::default()
    })]

    #[test]
    fn any_wire_json_projects_without_panic(v in wire_value()) {
        if let Err(broken) = projections::project_any(&v) {
            return Err(TestCaseError::fail(format!("{broken}\ninput: {v}")));
        }
    }
}
