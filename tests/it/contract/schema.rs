//! Per-tool outputSchemas: composition (matrix, `$defs` closure), validity as
//! JSON Schema 2020-12, and generated envelopes of every tool × family
//! validating against the owning tool's schema (and only there). Tools and
//! their families come from the tool definitions.

use std::collections::BTreeSet;

use ombi_mcp::contract::{ErrorCode, Failure, Family, Reply, ToolError, render};
use ombi_mcp::definition::ToolDef;
use serde_json::{Map, Value, json};

use crate::support::contract_gen::Gen;

/// The families a tool declares, as `$defs` names.
fn families_of(def: &ToolDef) -> Vec<&'static str> {
    def.families.iter().map(|f| f.def_name()).collect()
}

fn library() -> Map<String, Value> {
    let root: Value =
        serde_json::from_str(include_str!("../../../src/contract/defs.json")).unwrap();
    root["$defs"].as_object().unwrap().clone()
}

/// Independent closure: follow every `$ref` string found anywhere.
fn closure(lib: &Map<String, Value>, roots: &[&str]) -> BTreeSet<String> {
    fn refs(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::String(_) | Value::Null | Value::Bool(_) | Value::Number(_) => {}
            Value::Array(a) => a.iter().for_each(|x| refs(x, out)),
            Value::Object(m) => {
                if let Some(Value::String(r)) = m.get("$ref") {
                    out.push(r.rsplit('/').next().unwrap().to_string());
                }
                m.values().for_each(|x| refs(x, out));
            }
        }
    }
    let mut seen = BTreeSet::new();
    let mut stack: Vec<String> = roots.iter().map(|s| s.to_string()).collect();
    while let Some(n) = stack.pop() {
        if seen.insert(n.clone()) {
            let mut found = Vec::new();
            refs(&lib[&n], &mut found);
            stack.extend(found);
        }
    }
    seen
}

fn output_schema(def: &ToolDef) -> Value {
    Value::Object(ombi_mcp::contract::schema::output_schema(
        def.name,
        def.families,
    ))
}

/// Every definition, served or not.
fn defs() -> impl Iterator<Item = &'static ToolDef> {
    ombi_mcp::tools::definitions()
}

#[test]
fn composition_follows_the_rule() {
    let lib = library();
    for t in defs() {
        let s = output_schema(t);
        let fams = families_of(t);
        // data.oneOf = the matrix, in order.
        let one_of: Vec<String> = s["properties"]["data"]["oneOf"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                r["$ref"]
                    .as_str()
                    .unwrap()
                    .trim_start_matches("#/$defs/")
                    .to_string()
            })
            .collect();
        assert_eq!(one_of, fams, "{}", t.name);
        assert_eq!(s["properties"]["operation"], json!({"const": t.name}));
        // $defs = exact closure, each def verbatim.
        let mut roots = vec!["error"];
        roots.extend(&fams);
        let want = closure(&lib, &roots);
        let defs = s["$defs"].as_object().unwrap();
        let got: BTreeSet<String> = defs.keys().cloned().collect();
        assert_eq!(got, want, "{}", t.name);
        for (k, v) in defs {
            assert_eq!(v, &lib[k], "{}: $defs/{k} differs from defs.json", t.name);
        }
        // The template, key order included.
        let keys: Vec<&str> = s.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            [
                "$schema",
                "type",
                "properties",
                "required",
                "additionalProperties",
                "allOf",
                "$defs"
            ]
        );
        let props: Vec<&str> = s["properties"]
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(
            props,
            [
                "ok",
                "operation",
                "data",
                "error",
                "warnings",
                "truncated",
                "correlation_id"
            ]
        );
        assert_eq!(
            s["required"],
            json!(["ok", "operation", "warnings", "truncated", "correlation_id"])
        );
        assert_eq!(s["$schema"], "https://json-schema.org/draft/2020-12/schema");
    }
}

#[test]
fn closures_match_the_documented_examples() {
    let def_names = |def: &ToolDef| -> BTreeSet<String> {
        let s = output_schema(def);
        s["$defs"].as_object().unwrap().keys().cloned().collect()
    };
    let read_search = [
        "error",
        "media_page",
        "media",
        "identifier",
        "target",
        "credit",
        "provider",
        "reference",
        "season",
        "episode",
        "paging",
    ];
    assert_eq!(
        def_names(&ombi_mcp::tools::media::read_search::TOOL.def),
        read_search.map(String::from).into()
    );
    assert_eq!(
        def_names(&ombi_mcp::tools::requests::write_vote::TOOL.def),
        ["error", "mutation", "target"].map(String::from).into()
    );
}

#[test]
fn output_schemas_are_valid_2020_12() {
    for t in defs() {
        let s = output_schema(t);
        jsonschema::draft202012::meta::validate(&s).unwrap_or_else(|e| panic!("{}: {e}", t.name));
        jsonschema::draft202012::new(&s).unwrap_or_else(|e| panic!("{}: {e}", t.name));
    }
}

fn envelope(
    tool: &str,
    ok: bool,
    data: Option<Value>,
    error: Option<Value>,
    warnings: &[&str],
    truncated: bool,
) -> Value {
    let mut m = Map::new();
    m.insert("ok".into(), json!(ok));
    m.insert("operation".into(), json!(tool));
    if let Some(d) = data {
        m.insert("data".into(), d);
    }
    if let Some(e) = error {
        m.insert("error".into(), e);
    }
    m.insert("warnings".into(), json!(warnings));
    m.insert("truncated".into(), json!(truncated));
    m.insert("correlation_id".into(), json!("c0ffee"));
    Value::Object(m)
}

fn errors(v: &jsonschema::Validator, inst: &Value) -> String {
    v.iter_errors(inst)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect::<Vec<_>>()
        .join("; ")
}

#[test]
fn generated_envelopes_validate_against_their_tool() {
    let lib = library();
    let mut checked = 0;
    for t in defs() {
        let schema = output_schema(t);
        let v = jsonschema::draft202012::new(&schema).unwrap();
        for fam in families_of(t) {
            for seed in 0..4u64 {
                for items in [0usize, 1, 100] {
                    for optional in [true, false] {
                        let g = Gen {
                            defs: &lib,
                            seed,
                            items,
                            optional,
                        };
                        let data = g.value(&lib[fam], 0, 0);
                        let err = g.value(&lib["error"], 0, 0);
                        let cases = [
                            envelope(t.name, true, Some(data.clone()), None, &[], false),
                            envelope(t.name, true, Some(data.clone()), None, &["a warning"], true),
                            envelope(t.name, false, None, Some(err.clone()), &[], false),
                            envelope(
                                t.name,
                                false,
                                Some(data.clone()),
                                Some(err.clone()),
                                &["partial"],
                                true,
                            ),
                        ];
                        for c in &cases {
                            assert!(
                                v.is_valid(c),
                                "{} {fam} seed {seed} items {items}: {}",
                                t.name,
                                errors(&v, c)
                            );
                            checked += 1;
                        }
                        // Through the real envelope + budget path.
                        let reply = Reply {
                            data: data.clone(),
                            warnings: vec!["w".into()],
                            truncated: items == 100,
                        };
                        let r = render(t.name, Ok(reply), "corr-1");
                        let sc = r.structured_content.clone().unwrap();
                        assert!(v.is_valid(&sc), "{} {fam}: {}", t.name, errors(&v, &sc));
                        assert_eq!(r.is_error, Some(false));
                        let failure = Failure {
                            error: ToolError::new(ErrorCode::PartialFailure, "some items failed"),
                            data: Some(data),
                            warnings: vec![],
                        };
                        let r = render(t.name, Err(failure), "corr-2");
                        let sc = r.structured_content.clone().unwrap();
                        assert!(v.is_valid(&sc), "{} {fam}: {}", t.name, errors(&v, &sc));
                        assert_eq!(r.is_error, Some(true));
                        checked += 2;
                    }
                }
            }
        }
    }
    assert!(checked > 1000, "{checked}");
}

/// Each schema admits only its own families, its own operation and the ok/error rule.
#[test]
fn schemas_reject_what_the_tool_cannot_return() {
    let lib = library();
    let g = Gen {
        defs: &lib,
        seed: 1,
        items: 1,
        optional: true,
    };
    for t in defs() {
        let v = jsonschema::draft202012::new(&output_schema(t)).unwrap();
        let own = families_of(t);
        for fam in Family::ALL.iter().map(|f| f.def_name()) {
            // Foreign families cannot validate (their `kind` const differs);
            // generate without leaning on a $defs the tool lacks.
            let data = g.value(&lib[fam], 0, 0);
            let env = envelope(t.name, true, Some(data), None, &[], false);
            assert_eq!(
                v.is_valid(&env),
                own.contains(&fam),
                "{} with {fam}",
                t.name
            );
        }
        let data = g.value(&lib[own[0]], 0, 0);
        let err = g.value(&lib["error"], 0, 0);
        let other = if t.name == "read_search" {
            "read_media"
        } else {
            "read_search"
        };
        assert!(!v.is_valid(&envelope(other, true, Some(data.clone()), None, &[], false)));
        assert!(!v.is_valid(&envelope(
            t.name,
            true,
            Some(data.clone()),
            Some(err.clone()),
            &[],
            false
        )));
        assert!(!v.is_valid(&envelope(t.name, true, None, None, &[], false)));
        assert!(!v.is_valid(&envelope(t.name, false, Some(data), None, &[], false)));
    }
}

#[test]
fn rendered_result_carries_the_same_json_as_text() {
    let data = json!({"kind": "mutation", "outcome": "completed", "request_id": 5});
    let r = render(
        "write_request_create",
        Ok(Reply {
            data,
            warnings: vec![],
            truncated: false,
        }),
        "abc",
    );
    let sc = r.structured_content.clone().unwrap();
    let text = r.content[0].as_text().unwrap().text.clone();
    assert_eq!(text, serde_json::to_string(&sc).unwrap());
    assert!(!text.contains('\n'));
    let keys: Vec<&str> = sc.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "ok",
            "operation",
            "data",
            "warnings",
            "truncated",
            "correlation_id"
        ]
    );
    assert_eq!(r.content.len(), 1);

    let r = render(
        "read_search",
        Err(ToolError::invalid("/query", "`query` is required").into()),
        "abc",
    );
    assert_eq!(r.is_error, Some(true));
    let sc = r.structured_content.unwrap();
    assert_eq!(sc["ok"], false);
    assert_eq!(sc["error"]["code"], "INVALID_ARGUMENT");
    assert_eq!(sc["error"]["field"], "/query");
    assert!(sc.get("data").is_none());
}
