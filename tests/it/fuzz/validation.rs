//! Property tests of argument validation: arbitrary JSON arguments to every
//! tool of the catalogue never panic, and either validate or fail with
//! `INVALID_ARGUMENT` naming a field. Arguments are built from the argument
//! tables' own names and values (so deep rules are reached), mixed with
//! arbitrary JSON. `OMBI_MCP_SOAK=1` runs ten times as many cases.

use std::collections::BTreeMap;

use ombi_mcp::contract::ErrorCode;
use ombi_mcp::tools::TOOLS;
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;

use super::{json_scalar, json_tree, text};
use serde_json::{Map, Value};

use crate::support::bad_args;

fn cases() -> u32 {
    if std::env::var("OMBI_MCP_SOAK").is_ok_and(|v| v == "1") {
        20_000
    } else {
        1_000
    }
}

/// Any JSON value, nested a few levels.
fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        4 => json_scalar(),
        1 => (-3i64..3_000_000_000).prop_map(Value::from),
        1 => text(12).prop_map(Value::String),
        1 => (0usize..220).prop_map(|n| Value::String("q".repeat(n))),
    ];
    json_tree(leaf, 4, 48, 6, 8)
}

/// Argument names and values the tables use, per name (all tools pooled:
/// a value valid for one tool is an interesting input for another).
fn vocabulary() -> BTreeMap<String, Vec<Value>> {
    fn walk(obj: &Map<String, Value>, out: &mut BTreeMap<String, Vec<Value>>) {
        for (k, v) in obj {
            out.entry(k.clone()).or_default().push(v.clone());
            if let Value::Object(inner) = v {
                walk(inner, out);
            }
        }
    }
    let mut out = BTreeMap::new();
    let tables = bad_args::cases()
        .into_iter()
        .map(|(_, args, _)| args)
        .chain(bad_args::valid().into_iter().flat_map(|(_, a, b)| [a, b]));
    for args in tables {
        if let Value::Object(obj) = args {
            walk(&obj, &mut out);
        }
    }
    out
}

/// Arguments: some known names with a known or arbitrary value, maybe an
/// unknown name.
fn arguments(vocab: BTreeMap<String, Vec<Value>>) -> impl Strategy<Value = Map<String, Value>> {
    let names: Vec<String> = vocab.keys().cloned().collect();
    let entry = (
        prop::sample::select(names),
        any::<prop::sample::Index>(),
        any::<bool>(),
        any_json(),
    )
        .prop_map(move |(name, pick, known, arbitrary)| {
            let values = &vocab[&name];
            let value = if known {
                values[pick.index(values.len())].clone()
            } else {
                arbitrary
            };
            (name, value)
        });
    (
        prop::collection::vec(entry, 0..7),
        prop::option::weighted(0.1, (text(10), any_json())),
    )
        .prop_map(|(entries, extra)| entries.into_iter().chain(extra).collect())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: cases(),
        // Failing seeds are kept and replayed first on every run.
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "tests/proptest-regressions/fuzz_validation.txt",
        ))),
        ..ProptestConfig::default()
    })]

    #[test]
    fn arbitrary_arguments_validate_or_name_the_bad_field(
        tool in any::<prop::sample::Index>(),
        args in arguments(vocabulary()),
        absent in prop::bool::weighted(0.05),
    ) {
        let def = &TOOLS[tool.index(TOOLS.len())].def;
        let given = (!absent).then_some(&args);
        let first = def.validate(given);
        if let Err(e) = &first {
            prop_assert_eq!(e.code, ErrorCode::InvalidArgument, "{} {:?}", def.name, e);
            let field = e.field.as_deref().unwrap_or_default();
            // A JSON Pointer ("/" alone names the argument whose name is empty).
            prop_assert!(field.starts_with('/'), "{} {:?}", def.name, e);
            prop_assert!(!e.message.is_empty());
        }
        // Validation is a pure function of the arguments.
        let again = def.validate(given);
        prop_assert_eq!(first.is_ok(), again.is_ok());
        if let (Err(a), Err(b)) = (&first, &again) {
            prop_assert_eq!(&a.field, &b.field);
        }
    }
}

/// Found by the property above: an argument whose name is empty is refused
/// with the JSON Pointer `/` (RFC 6901: the member named ""), not with an
/// empty or missing field.
#[test]
fn an_argument_with_an_empty_name_is_named_by_the_pointer_slash() {
    let args: Map<String, Value> = [(String::new(), Value::Null)].into_iter().collect();
    for def in TOOLS.iter().map(|t| &t.def) {
        let e = def.validate(Some(&args)).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidArgument, "{}", def.name);
        assert_eq!(e.field.as_deref(), Some("/"), "{}", def.name);
    }
}
