//! The catalogue as `tools/list` shows it: counts, annotations, input schema
//! rules, snapshots per bundle combination, and the list's byte size.

use std::path::PathBuf;

use ombi_mcp::catalogue::{self, Bundle, BundleSet, TOOLS};
use serde_json::Value;

fn set(bundles: &[Bundle]) -> BundleSet {
    bundles.iter().copied().collect()
}

fn tools_list(bundles: BundleSet, read_only: bool) -> Value {
    let tools = catalogue::list_tools(bundles, read_only, |_| true);
    serde_json::json!({ "tools": tools })
}

const COMBOS: &[(&str, &[Bundle], bool)] = &[
    ("core", &[Bundle::Core], false),
    (
        "core_moderation",
        &[Bundle::Core, Bundle::Moderation],
        false,
    ),
    (
        "all",
        &[Bundle::Core, Bundle::Moderation, Bundle::Administration],
        false,
    ),
    (
        "all_read_only",
        &[Bundle::Core, Bundle::Moderation, Bundle::Administration],
        true,
    ),
];

#[test]
fn counts_match_the_catalogue() {
    let all = BundleSet::all();
    assert_eq!(TOOLS.len(), 31);
    assert_eq!(catalogue::visible(all, false, |_| true).len(), 31);
    assert_eq!(
        catalogue::visible(set(&[Bundle::Core]), false, |_| true).len(),
        17
    );
    assert_eq!(
        catalogue::visible(set(&[Bundle::Moderation]), false, |_| true).len(),
        6
    );
    assert_eq!(
        catalogue::visible(set(&[Bundle::Administration]), false, |_| true).len(),
        8
    );
    assert_eq!(catalogue::visible(all, true, |_| true).len(), 14);
    assert_eq!(
        TOOLS.iter().filter(|t| t.name.starts_with("read_")).count(),
        14
    );
    assert_eq!(TOOLS.iter().filter(|t| t.is_write()).count(), 17);
    assert!(
        catalogue::visible(all, true, |_| true)
            .iter()
            .all(|t| !t.is_write())
    );
    // `implemented` filters too.
    let only = catalogue::visible(all, false, |n| n == "read_search");
    assert_eq!(only.len(), 1);
    assert_eq!(only[0].name, "read_search");
    assert!(catalogue::visible(BundleSet::EMPTY, false, |_| true).is_empty());
    assert!(catalogue::find("read_logs").is_some());
    assert!(catalogue::find("read_everything").is_none());
}

#[test]
fn names_are_unique() {
    let mut names: Vec<&str> = TOOLS.iter().map(|t| t.name).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), 31);
}

/// The D column of `catalogue.md`.
const DESTRUCTIVE: &[&str] = &[
    "write_request_subscribe",
    "write_vote",
    "write_user_preferences",
    "write_request_moderate",
    "write_request_options",
    "write_request_delete",
    "write_issue_manage",
    "write_settings_patch",
    "write_job_run",
    "write_user_manage",
    "write_retry_remove",
];

#[test]
fn annotations_follow_the_rules() {
    for t in TOOLS.iter() {
        let a = t.mcp_tool().annotations.clone().expect("annotations");
        let write = t.name.starts_with("write_");
        assert_eq!(a.read_only_hint, Some(!write), "{}", t.name);
        assert_eq!(a.idempotent_hint, Some(!write), "{}", t.name);
        assert_eq!(a.open_world_hint, Some(true), "{}", t.name);
        assert_eq!(
            a.destructive_hint,
            Some(write && DESTRUCTIVE.contains(&t.name)),
            "{}",
            t.name
        );
        assert!(a.title.is_some());
    }
}

/// Flat object schemas only: what Claude's API and draft-07 validators accept.
#[test]
fn input_schemas_are_flat_and_valid_draft7() {
    const FORBIDDEN: &[&str] = &[
        "oneOf",
        "anyOf",
        "allOf",
        "if",
        "then",
        "else",
        "not",
        "prefixItems",
        "unevaluatedProperties",
        "unevaluatedItems",
        "dependentRequired",
        "dependentSchemas",
        "$ref",
    ];
    fn walk(v: &Value, tool: &str) {
        match v {
            Value::Object(m) => {
                for (k, x) in m {
                    if k != "properties" {
                        assert!(
                            !FORBIDDEN.contains(&k.as_str()),
                            "{tool}: `{k}` in input schema"
                        );
                    }
                    if k == "properties" {
                        for (_, p) in x.as_object().unwrap() {
                            walk(p, tool);
                        }
                    } else {
                        walk(x, tool);
                    }
                }
            }
            Value::Array(a) => a.iter().for_each(|x| walk(x, tool)),
            _ => {}
        }
    }
    for t in TOOLS.iter() {
        let s = Value::Object((*t.mcp_tool().input_schema).clone());
        assert_eq!(s["type"], "object");
        assert_eq!(s["additionalProperties"], false);
        walk(&s, t.name);
        jsonschema::draft7::meta::validate(&s).unwrap_or_else(|e| panic!("{}: {e}", t.name));
        jsonschema::draft202012::meta::validate(&s).unwrap_or_else(|e| panic!("{}: {e}", t.name));
        // `action` exactly when there is more than one action.
        let has_action = s["properties"].get("action").is_some();
        assert_eq!(has_action, t.actions.len() > 1, "{}", t.name);
        if let Some(a) = s["properties"].get("action") {
            let labels: Vec<&str> = a["enum"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_str().unwrap())
                .collect();
            let names: Vec<&str> = t.actions.iter().map(|x| x.name).collect();
            assert_eq!(labels, names);
        }
        // Every argument an action names exists in the schema.
        for a in t.actions {
            for arg in a.required.iter().chain(a.optional).chain(a.one_of) {
                assert!(
                    t.param(arg).is_some(),
                    "{} action {} names unknown `{arg}`",
                    t.name,
                    a.name
                );
            }
        }
    }
}

#[test]
fn descriptions_are_for_choosing_tools() {
    for t in TOOLS.iter() {
        let d = t.description;
        assert!(d.len() > 40, "{}", t.name);
        for word in ["outputSchema", "envelope", "correlation_id", "\"ok\""] {
            assert!(
                !d.contains(word),
                "{}: output contract text in description",
                t.name
            );
        }
    }
    for name in ["read_issues", "read_requests"] {
        assert!(
            catalogue::find(name)
                .unwrap()
                .description
                .contains("untrusted"),
            "{name}"
        );
    }
}

#[test]
fn read_search_defaults_and_bounds() {
    let s = &catalogue::find("read_search")
        .unwrap()
        .mcp_tool()
        .input_schema;
    let p = &s["properties"];
    assert_eq!(p["action"]["default"], "multi");
    assert_eq!(p["query"]["minLength"], 1);
    assert_eq!(p["query"]["maxLength"], 200);
    assert_eq!(p["page"]["properties"]["limit"]["maximum"], 100);
    assert_eq!(p["page"]["properties"]["limit"]["default"], 20);
    assert_eq!(p["page"]["properties"]["offset"]["minimum"], 0);
    assert!(
        s.get("required")
            .is_none_or(|r| !r.as_array().unwrap().contains(&"action".into()))
    );
    let logs = &catalogue::find("read_logs")
        .unwrap()
        .mcp_tool()
        .input_schema;
    assert_eq!(logs["properties"]["limit"]["maximum"], 500);
    let jobs = &catalogue::find("write_job_run")
        .unwrap()
        .mcp_tool()
        .input_schema;
    let jobs: Vec<&str> = jobs["properties"]["job"]["enum"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    for banned in ["clearmediaserverdata", "autodeleterequests", "update"] {
        assert!(!jobs.contains(&banned));
    }
}

fn snapshot_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/snapshots")
        .join(format!("tools_list_{name}.json"))
}

#[test]
fn tools_list_snapshots() {
    let update = std::env::var("UPDATE_SNAPSHOTS").is_ok_and(|v| v == "1");
    for (name, bundles, read_only) in COMBOS {
        let got = tools_list(set(bundles), *read_only);
        let pretty = serde_json::to_string_pretty(&got).unwrap() + "\n";
        let path = snapshot_path(name);
        if update {
            std::fs::write(&path, &pretty).unwrap();
            continue;
        }
        let want = std::fs::read_to_string(&path)
            .unwrap_or_else(|_| panic!("{} missing; run with UPDATE_SNAPSHOTS=1", path.display()));
        assert!(
            want == pretty,
            "{name}: tools/list changed; review and run with UPDATE_SNAPSHOTS=1"
        );
    }
}

/// Prints the minified `tools/list` result size per combination
/// (`cargo test --test contract_catalogue -- --nocapture tools_list_size`).
#[test]
fn tools_list_size() {
    for (name, bundles, read_only) in COMBOS {
        let v = tools_list(set(bundles), *read_only);
        let bytes = serde_json::to_vec(&v).unwrap().len();
        let n = v["tools"].as_array().unwrap().len();
        println!("tools/list {name}: {n} tools, {bytes} bytes minified");
        assert!(bytes < 400 * 1024, "{name}: {bytes} bytes");
    }
}
