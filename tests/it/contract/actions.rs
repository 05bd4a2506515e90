//! Every action of every served tool, called with small arguments its
//! definition accepts (every label of every argument, nested ones included,
//! at least once), through the one rig against the fake Ombi. A tool's typed
//! action enum must accept whatever its definition validates: a call never
//! ends in INTERNAL_ERROR (for a typed tool that is "the tool's definition and
//! its actions disagree"; a panic or an undeclared family would be one too).
//! Everything is derived from `tools::TOOLS` and the advertised input schemas.

use std::collections::BTreeSet;

use ombi_mcp::definition::{ActionDef, ToolDef};
use ombi_mcp::tools;
use serde_json::{Map, Value};

use crate::support::contract_gen::argument_instances;
use crate::support::rig::Rig;

/// One argument of an action and the values to try for it.
type Choices = Vec<(&'static str, Vec<Value>)>;
/// `(path, label)`: a label at an argument path (`target/kind`, `user/roles/*`).
type Labels = BTreeSet<(String, String)>;

/// The argument sets of `action`: its required arguments plus each `one_of`
/// alternative, with and without its optional arguments; and the labels
/// those arguments can take (narrowed by the action's `only`).
fn argument_sets(
    def: &ToolDef,
    action: &ActionDef,
    properties: &Map<String, Value>,
) -> (Vec<Choices>, Labels) {
    let one_of = action.one_of();
    let alternatives: Vec<Option<&'static str>> = if one_of.is_empty() {
        vec![None]
    } else {
        one_of.iter().copied().map(Some).collect()
    };
    let mut wanted = Labels::new();
    let mut choices = |name: &'static str| {
        let only = action.only().find(|(arg, _)| *arg == name).map(|o| o.1);
        let schema = properties
            .get(name)
            .unwrap_or_else(|| panic!("{}: `{name}` is not in the input schema", def.name));
        schema_labels(name, schema, only, &mut wanted);
        (name, argument_instances(schema, only))
    };
    let mut sets = Vec::new();
    for alt in alternatives {
        let minimal: Choices = action.required().chain(alt).map(&mut choices).collect();
        let mut full = minimal.clone();
        full.extend(action.optional().map(&mut choices));
        sets.push(minimal);
        if action.optional().next().is_some() {
            sets.push(full);
        }
    }
    (sets, wanted)
}

fn schema_labels(path: &str, schema: &Value, only: Option<&[&str]>, out: &mut Labels) {
    if let Some(Value::Array(labels)) = schema.get("enum") {
        for l in labels.iter().filter_map(Value::as_str) {
            if only.is_none_or(|o| o.contains(&l)) {
                out.insert((path.to_string(), l.to_string()));
            }
        }
    }
    for (k, p) in schema
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        schema_labels(&format!("{path}/{k}"), p, None, out);
    }
    if let Some(items) = schema.get("items") {
        schema_labels(&format!("{path}/*"), items, None, out);
    }
}

/// Every string in `v`, at its path.
fn strings(path: &str, v: &Value, out: &mut Labels) {
    match v {
        Value::String(s) => {
            out.insert((path.to_string(), s.clone()));
        }
        Value::Array(items) => items
            .iter()
            .for_each(|i| strings(&format!("{path}/*"), i, out)),
        Value::Object(m) => m
            .iter()
            .for_each(|(k, x)| strings(&format!("{path}/{k}"), x, out)),
        _ => {}
    }
}

fn arguments(def: &ToolDef, action: &ActionDef, picks: &[(&str, &Value)]) -> Map<String, Value> {
    let mut args = Map::new();
    if def.has_action_arg() {
        args.insert("action".into(), Value::from(action.name));
    }
    for (name, value) in picks {
        args.insert(name.to_string(), (*value).clone());
    }
    args
}

/// What a search for valid calls found: the calls, the strings they carry,
/// and the labels the definition refused where they stood (an action may
/// refuse a label its schema lists, e.g. limit periods on `create`).
#[derive(Default)]
struct Found {
    calls: Vec<Map<String, Value>>,
    covered: Labels,
    refused: Labels,
}

/// A `field` pointer (`/user/roles/0`) as a label path (`user/roles/*`).
fn label_path(pointer: &str) -> String {
    pointer
        .trim_start_matches('/')
        .split('/')
        .map(|s| if s.parse::<usize>().is_ok() { "*" } else { s })
        .collect::<Vec<_>>()
        .join("/")
}

/// Adds the field `pointer` names when the call lacks it (a cross-field rule
/// such as "create needs `user.password`"), with its first small value.
fn fill(args: &mut Map<String, Value>, properties: &Map<String, Value>, pointer: &str) -> bool {
    let segments: Vec<&str> = pointer.trim_start_matches('/').split('/').collect();
    let Some((last, parents)) = segments.split_last() else {
        return false;
    };
    let (mut at, mut schema) = (args, properties);
    for seg in parents {
        let Some(Value::Object(next)) = at.get_mut(*seg) else {
            return false;
        };
        let Some(props) = schema[*seg].get("properties").and_then(Value::as_object) else {
            return false;
        };
        (at, schema) = (next, props);
    }
    match schema.get(*last) {
        Some(field) if !at.contains_key(*last) => {
            let Some(value) = argument_instances(field, None).into_iter().next() else {
                return false;
            };
            at.insert(last.to_string(), value);
            true
        }
        _ => false,
    }
}

/// Calls covering every value of every argument of `set`: each value with
/// the others at their first value, or, when the definition refuses that,
/// with one other argument changed; a field a rule requires is added.
fn covering_calls(
    def: &ToolDef,
    action: &ActionDef,
    properties: &Map<String, Value>,
    set: &Choices,
    found: &mut Found,
) {
    let base: Vec<(&str, &Value)> = set.iter().map(|(n, vs)| (*n, &vs[0])).collect();
    let mut keep = |picks: &[(&str, &Value)]| {
        let mut args = arguments(def, action, picks);
        loop {
            let Err(e) = def.validate(Some(&args)) else {
                for (n, v) in &args {
                    strings(n, v, &mut found.covered);
                }
                if !found.calls.contains(&args) {
                    found.calls.push(args);
                }
                return true;
            };
            let pointer = e.field.unwrap_or_default();
            if fill(&mut args, properties, &pointer) {
                continue;
            }
            let whole = Value::Object(args);
            if let Some(label) = whole.pointer(&pointer).and_then(Value::as_str) {
                found
                    .refused
                    .insert((label_path(&pointer), label.to_string()));
            }
            return false;
        }
    };
    if set.is_empty() {
        keep(&[]);
    }
    for (i, (_, values)) in set.iter().enumerate() {
        for v in values {
            let mut picks = base.clone();
            picks[i].1 = v;
            if keep(&picks) {
                continue;
            }
            'other: for (j, (_, others)) in set.iter().enumerate().filter(|(j, _)| *j != i) {
                for w in others {
                    let mut p = picks.clone();
                    p[j].1 = w;
                    if keep(&p) {
                        break 'other;
                    }
                }
            }
        }
    }
}

#[tokio::test]
async fn every_action_accepts_what_its_definition_validates() {
    let rig = Rig::start().await;
    let mut failures = Vec::new();
    let mut calls_made = 0;
    for tool in tools::TOOLS {
        let def = &tool.def;
        let schema = &tool.mcp().input_schema;
        let properties = schema
            .get("properties")
            .and_then(Value::as_object)
            .expect("input schema properties");
        for action in def.actions {
            let (sets, wanted) = argument_sets(def, action, properties);
            let mut found = Found::default();
            for set in sets {
                covering_calls(def, action, properties, &set, &mut found);
            }
            let name = format!("{}.{}", def.name, action.name);
            if found.calls.is_empty() {
                failures.push(format!("{name}: no call validates"));
            }
            let accepted = wanted
                .difference(&found.refused)
                .cloned()
                .collect::<Labels>();
            for (path, label) in accepted.difference(&found.covered) {
                failures.push(format!("{name}: no valid call has `{path}` = {label:?}"));
            }
            let calls = found.calls;
            for args in calls {
                let env = rig.call(def.name, Value::Object(args.clone())).await;
                calls_made += 1;
                if env["error"]["code"] == "INTERNAL_ERROR" {
                    failures.push(format!(
                        "{name} {}: {}",
                        Value::Object(args),
                        env["error"]["message"]
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let actions: usize = tools::TOOLS.iter().map(|t| t.def.actions.len()).sum();
    assert!(
        calls_made >= actions,
        "{calls_made} calls for {actions} actions"
    );
}
