//! Argument validation: the bad-arguments table and valid calls with defaults.

use std::collections::BTreeSet;

use ombi_mcp::definition::{ToolDef, mcp};
use ombi_mcp::tools;

use crate::support::bad_args;

fn find(name: &str) -> Option<&'static ToolDef> {
    tools::definitions().find(|d| d.name == name)
}
use ombi_mcp::contract::ErrorCode;
use serde_json::Value;

#[test]
fn every_invalid_call_names_its_field() {
    let cases = bad_args::cases();
    assert!(cases.len() >= 60, "table has {} cases", cases.len());
    let mut failures = Vec::new();
    for (tool, args, field) in &cases {
        let def = find(tool).unwrap_or_else(|| panic!("unknown tool {tool}"));
        match def.validate(args.as_object()) {
            Ok(a) => failures.push(format!("{tool} {args}: accepted as {:?}", a.as_map())),
            Err(e) => {
                if e.code != ErrorCode::InvalidArgument || e.field.as_deref() != Some(field) {
                    failures.push(format!(
                        "{tool} {args}: got {:?} field {:?} ({}), want {field}",
                        e.code, e.field, e.message
                    ));
                }
                assert!(!e.message.is_empty() && !e.retryable);
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_table_covers_every_tool() {
    let covered: BTreeSet<&str> = bad_args::cases().iter().map(|c| c.0).collect();
    for t in tools::definitions() {
        assert!(
            covered.contains(t.name),
            "{} has no bad-argument case",
            t.name
        );
    }
}

#[test]
fn valid_calls_pass_with_defaults_filled() {
    for (tool, args, want) in bad_args::valid() {
        let def = find(tool).unwrap();
        let got = def
            .validate(args.as_object())
            .unwrap_or_else(|e| panic!("{tool} {args}: {e:?}"));
        let got = Value::Object(got.as_map().clone());
        assert_eq!(got, want, "{tool} {args}");
    }
}

#[test]
fn messages_are_actionable() {
    let def = find("read_discover").unwrap();
    let e = def
        .validate(serde_json::json!({"action": "similar"}).as_object())
        .unwrap_err();
    assert_eq!(
        e.message,
        "action `similar` needs `tmdb_id` (a positive integer)"
    );
    let e = def
        .validate(serde_json::json!({"action": "similar", "tmdb_id": 5, "query": "x"}).as_object())
        .unwrap_err();
    assert!(
        e.message.contains("unknown argument `query`"),
        "{}",
        e.message
    );
    let def = find("read_search").unwrap();
    let e = def
        .validate(serde_json::json!({"query": "x", "page": {"limit": 500}}).as_object())
        .unwrap_err();
    assert!(
        e.message.contains("1–100") && e.message.contains("500"),
        "{}",
        e.message
    );
}

#[test]
fn missing_arguments_object_is_empty() {
    let def = find("read_server").unwrap();
    let e = def.validate(None).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("/action"));
    let def = find("read_logs").unwrap();
    assert!(
        def.validate(serde_json::json!({"action": "list"}).as_object())
            .is_ok()
    );
}

/// Every example the validator accepts is also accepted by the advertised
/// inputSchema (draft 7, what TS clients use), and most rejected ones are
/// rejected by it too (cross-argument rules live only in the validator).
#[test]
fn advertised_input_schemas_agree_on_valid_calls() {
    for (tool, args, _) in bad_args::valid() {
        let def = find(tool).unwrap();
        let schema = Value::Object(mcp::input_schema(def));
        let v = jsonschema::draft7::new(&schema).unwrap();
        assert!(v.is_valid(&args), "{tool} {args}");
    }
}

/// An argument an action admits exactly one value for may be omitted and
/// defaults to it; the description no longer lists it as needed.
#[test]
fn a_sole_admitted_label_is_the_default() {
    let discover = find("read_discover").unwrap();
    for (action, media) in [
        ("now_playing", "movie"),
        ("top_rated", "movie"),
        ("trending", "tv"),
    ] {
        let args = discover
            .validate(serde_json::json!({ "action": action }).as_object())
            .unwrap_or_else(|e| panic!("{action}: {}", e.message));
        assert_eq!(args.as_map()["media"], media, "{action}");
    }
    // Where two labels are possible the argument stays required.
    let err = discover
        .validate(serde_json::json!({ "action": "popular" }).as_object())
        .unwrap_err();
    assert_eq!(err.field.as_deref(), Some("/media"));
    // The given value is still checked against the one label.
    let err = discover
        .validate(serde_json::json!({ "action": "trending", "media": "movie" }).as_object())
        .unwrap_err();
    assert_eq!(err.field.as_deref(), Some("/media"));
    let schema = mcp::input_schema(discover);
    let doc = schema["properties"]["action"]["description"]
        .as_str()
        .unwrap_or_default();
    assert!(
        doc.contains("`now_playing`(media=movie, page?): movies in cinemas"),
        "{doc}"
    );
}
