//! The catalogue as `tools/list` shows it, derived from `tools::TOOLS`:
//! visible sets, annotations, input schema rules, one
//! snapshot per tool, and the list's byte size per bundle combination.

use std::path::PathBuf;

use ombi_mcp::definition::{Bundle, BundleSet, ToolDef, mcp};
use ombi_mcp::tools;
use serde_json::Value;

/// Every definition as `tools/list` would show it (served or not).
/// Every tool as `tools/list` shows it (with the `_meta` of its app view).
fn listed() -> Vec<(&'static ToolDef, Value)> {
    tools::TOOLS
        .iter()
        .map(|t| (&t.def, serde_json::to_value(t.mcp()).unwrap()))
        .collect()
}

#[test]
fn visible_sets_follow_bundles_and_read_only() {
    let all = BundleSet::all();
    assert_eq!(tools::visible(all, false).count(), tools::TOOLS.len());
    for b in Bundle::ALL {
        let one: BundleSet = [b].into_iter().collect();
        let want: Vec<&str> = tools::TOOLS
            .iter()
            .filter(|t| t.def.bundle == b)
            .map(|t| t.def.name)
            .collect();
        let got: Vec<&str> = tools::visible(one, false).map(|t| t.def.name).collect();
        assert_eq!(got, want, "{b:?}");
    }
    assert!(tools::visible(all, true).all(|t| !t.def.is_write()));
    assert_eq!(
        tools::visible(all, true).count(),
        tools::TOOLS.iter().filter(|t| !t.def.is_write()).count()
    );
    assert_eq!(tools::visible(BundleSet::EMPTY, false).count(), 0);
    assert!(tools::find("read_everything").is_none());
}

#[test]
fn annotations_follow_the_rules() {
    for (d, t) in listed() {
        let a = &t["annotations"];
        let write = d.name.starts_with("write_");
        assert_eq!(a["readOnlyHint"], !write, "{}", d.name);
        assert_eq!(a["idempotentHint"], !write, "{}", d.name);
        assert_eq!(a["openWorldHint"], true, "{}", d.name);
        assert_eq!(a["destructiveHint"], write && d.destructive, "{}", d.name);
        // The title is the tool's own, sent once (not copied into the annotations).
        assert_eq!(t["title"], d.title, "{}", d.name);
        assert!(a.get("title").is_none(), "{}", d.name);
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
                    // The one union allowed: single-type branches, so every
                    // dialect (Gemini's single-`type` subset too) can read it.
                    if k == "anyOf" && single_types(x) {
                        continue;
                    }
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
    fn single_types(branches: &Value) -> bool {
        branches.as_array().is_some_and(|b| {
            b.iter().all(|x| {
                x.as_object()
                    .is_some_and(|o| o.len() == 1 && o.get("type").is_some_and(Value::is_string))
            })
        })
    }
    for t in tools::definitions() {
        let s = Value::Object(mcp::input_schema(t));
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
            for arg in a.required().chain(a.optional()).chain(a.one_of()) {
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
    for t in tools::definitions() {
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
            tools::find(name)
                .unwrap()
                .def
                .description
                .contains("untrusted"),
            "{name}"
        );
    }
}

#[test]
fn read_search_defaults_and_bounds() {
    let s = &tools::find("read_search").unwrap().mcp().input_schema;
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
    let logs = &tools::find("read_logs").unwrap().mcp().input_schema;
    assert_eq!(logs["properties"]["limit"]["maximum"], 500);
    let jobs = mcp::input_schema(&ombi_mcp::tools::server::write_job_run::TOOL.def);
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

fn snapshot_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots/tools")
}

/// One snapshot per tool (`tests/snapshots/tools/<tool>.json`): its
/// `tools/list` object, compared as JSON; a change shows the differing
/// paths. `UPDATE_SNAPSHOTS=1` rewrites them (review the diff, then commit).
#[test]
fn tool_snapshots() {
    let update = std::env::var("UPDATE_SNAPSHOTS").is_ok_and(|v| v == "1");
    let dir = snapshot_dir();
    let mut names = Vec::new();
    let mut failures = Vec::new();
    for (d, got) in listed() {
        names.push(format!("{}.json", d.name));
        let path = dir.join(format!("{}.json", d.name));
        if update {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, serde_json::to_string_pretty(&got).unwrap() + "\n").unwrap();
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&path) else {
            failures.push(format!(
                "{}: no snapshot; run with UPDATE_SNAPSHOTS=1",
                d.name
            ));
            continue;
        };
        let want: Value = serde_json::from_str(&text).unwrap();
        let mut diffs = Vec::new();
        json_diff("", &want, &got, &mut diffs);
        if !diffs.is_empty() {
            failures.push(format!("{}:\n  {}", d.name, diffs.join("\n  ")));
        }
    }
    // No snapshot of a tool that no longer exists.
    for entry in std::fs::read_dir(&dir).unwrap() {
        let file = entry.unwrap().file_name().to_string_lossy().into_owned();
        if !names.contains(&file) {
            failures.push(format!("{file}: snapshot of no tool; delete it"));
        }
    }
    assert!(
        failures.is_empty(),
        "tools/list changed (review, then UPDATE_SNAPSHOTS=1):\n{}",
        failures.join("\n")
    );
}

/// The JSON paths where `want` and `got` differ, with both values.
fn json_diff(path: &str, want: &Value, got: &Value, out: &mut Vec<String>) {
    match (want, got) {
        (Value::Object(w), Value::Object(g)) => {
            for (k, wv) in w {
                let p = format!("{path}/{k}");
                match g.get(k) {
                    Some(gv) => json_diff(&p, wv, gv, out),
                    None => out.push(format!("{p}: removed (was {})", short(wv))),
                }
            }
            for (k, gv) in g {
                if !w.contains_key(k) {
                    out.push(format!("{path}/{k}: added {}", short(gv)));
                }
            }
            let (wk, gk): (Vec<_>, Vec<_>) = (w.keys().collect(), g.keys().collect());
            if out.is_empty() && wk != gk {
                out.push(format!("{path}: key order changed"));
            }
        }
        (Value::Array(w), Value::Array(g)) if w.len() == g.len() => {
            for (i, (wv, gv)) in w.iter().zip(g).enumerate() {
                json_diff(&format!("{path}/{i}"), wv, gv, out);
            }
        }
        _ if want != got => out.push(format!("{path}: {} -> {}", short(want), short(got))),
        _ => {}
    }
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 120 {
        format!("{}…", s.chars().take(120).collect::<String>())
    } else {
        s
    }
}

/// Every combination of bundles, read-write and read-only: the tools a
/// session sees and the minified `tools/list` size, computed from the tool
/// list (`cargo test --test it -- --nocapture contract::catalogue::tools_list_sizes`).
#[test]
fn tools_list_sizes() {
    let subsets = 1u8 << Bundle::ALL.len();
    for bits in 1..subsets {
        let bundles: BundleSet = Bundle::ALL
            .into_iter()
            .enumerate()
            .filter(|(i, _)| bits & (1 << i) != 0)
            .map(|(_, b)| b)
            .collect();
        for read_only in [false, true] {
            let list: Vec<rmcp::model::Tool> = tools::visible(bundles, read_only)
                .map(|t| t.mcp())
                .collect();
            let bytes = serde_json::to_vec(&serde_json::json!({ "tools": list }))
                .unwrap()
                .len();
            // The part a model reads to choose: names, descriptions, input schemas.
            let read: usize = list
                .iter()
                .map(|t| {
                    t.name.len()
                        + t.description.as_deref().map_or(0, str::len)
                        + serde_json::to_vec(&t.input_schema).unwrap().len()
                })
                .sum();
            let names: Vec<&str> = bundles.iter().map(|b| b.name()).collect();
            println!(
                "tools/list {}{}: {} tools, {bytes} bytes minified, {read} bytes of names, descriptions and input schemas",
                names.join("+"),
                if read_only { " read-only" } else { "" },
                list.len()
            );
            assert!(bytes < 400 * 1024, "{names:?}: {bytes} bytes");
        }
    }
}
