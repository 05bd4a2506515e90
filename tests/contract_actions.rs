//! Every action of every served tool, called with the smallest arguments its
//! definition accepts (every label of every argument at least once), through
//! the one rig against the fake Ombi. A tool's typed action enum must accept
//! whatever its definition validates: a call never ends in INTERNAL_ERROR
//! (for a typed tool that is "the tool's definition and its actions
//! disagree"; a panic or an undeclared family would be one too). Everything
//! is derived from `tools::TOOLS` and the advertised input schemas.

#[path = "support/contract_gen.rs"]
mod contract_gen;
#[path = "support/rig.rs"]
mod rig;
#[path = "support/mod.rs"]
mod support;

use std::collections::BTreeSet;

use contract_gen::minimal_instances;
use ombi_mcp::catalogue::{ActionDef, ToolDef};
use ombi_mcp::tools;
use rig::Rig;
use serde_json::{Map, Value};

/// One argument of an action and the values to try for it.
type Choices = Vec<(&'static str, Vec<Value>)>;
/// `(argument, value)` pairs a valid call used.
type Covered = BTreeSet<(String, String)>;

/// The argument sets of `action`: its required arguments plus each `one_of`
/// alternative, with and without its optional arguments.
fn argument_sets(
    def: &ToolDef,
    action: &ActionDef,
    properties: &Map<String, Value>,
) -> Vec<Choices> {
    let alternatives: Vec<Option<&'static str>> = if action.one_of.is_empty() {
        vec![None]
    } else {
        action.one_of.iter().copied().map(Some).collect()
    };
    let choices = |name: &'static str| {
        let only = action
            .only
            .iter()
            .find(|(arg, _)| *arg == name)
            .map(|o| o.1);
        let schema = properties
            .get(name)
            .unwrap_or_else(|| panic!("{}: `{name}` is not in the input schema", def.name));
        (name, minimal_instances(schema, only))
    };
    let mut sets = Vec::new();
    for alt in alternatives {
        let minimal: Choices = action
            .required
            .iter()
            .copied()
            .chain(alt)
            .map(choices)
            .collect();
        let mut full = minimal.clone();
        full.extend(action.optional.iter().copied().map(choices));
        sets.push(minimal);
        if !action.optional.is_empty() {
            sets.push(full);
        }
    }
    sets
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

/// Calls covering every value of every argument of `set`: each value with
/// the others at their first value, or, when the definition refuses that
/// (a cross-argument rule such as `media_details_rules`), with one other
/// argument changed so that it validates. Returns the calls and the
/// `(argument, value)` pairs they cover.
fn covering_calls(
    def: &ToolDef,
    action: &ActionDef,
    set: &Choices,
) -> (Vec<Map<String, Value>>, Covered) {
    let base: Vec<(&str, &Value)> = set.iter().map(|(n, vs)| (*n, &vs[0])).collect();
    let mut calls: Vec<Map<String, Value>> = Vec::new();
    let mut covered = BTreeSet::new();
    let mut keep = |picks: &[(&str, &Value)]| {
        let args = arguments(def, action, picks);
        if def.validate(Some(&args)).is_err() {
            return false;
        }
        for (n, v) in picks {
            covered.insert((n.to_string(), v.to_string()));
        }
        if !calls.contains(&args) {
            calls.push(args);
        }
        true
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
    (calls, covered)
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
            let mut wanted = BTreeSet::new();
            let mut covered = BTreeSet::new();
            let mut calls = Vec::new();
            for set in argument_sets(def, action, properties) {
                for (n, values) in &set {
                    wanted.extend(values.iter().map(|v| (n.to_string(), v.to_string())));
                }
                let (c, cov) = covering_calls(def, action, &set);
                covered.extend(cov);
                calls.extend(
                    c.into_iter()
                        .filter(|a| !calls.contains(a))
                        .collect::<Vec<_>>(),
                );
            }
            let name = format!("{}.{}", def.name, action.name);
            // A cross-argument rule (`check`) can refuse what the schema alone
            // generates (a non-empty `user`, a selection mode with its list):
            // those actions are exercised with real arguments in their own
            // tool tests; here they count only where a generated call passes.
            if def.check.is_none() {
                if calls.is_empty() {
                    failures.push(format!("{name}: no minimal call validates"));
                }
                for (arg, value) in wanted.difference(&covered) {
                    failures.push(format!("{name}: no valid call has `{arg}` = {value}"));
                }
            }
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
    let actions: usize = tools::TOOLS
        .iter()
        .filter(|t| t.def.check.is_none())
        .map(|t| t.def.actions.len())
        .sum();
    assert!(
        calls_made >= actions,
        "{calls_made} calls for {actions} actions"
    );
}
