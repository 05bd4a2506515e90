//! Per-tool `outputSchema` composition (`docs/contract.md`, "Composition
//! rule"): the envelope template with `operation` const, `data.oneOf` over the
//! tool's families, and `$defs` = the transitive `$ref` closure of `{error}` ∪
//! families, computed from `defs.json` (never a hand-written list).

use std::collections::BTreeSet;
use std::sync::LazyLock;

use serde_json::{Map, Value, json};

use super::Family;

/// The shared `$defs` library, verbatim from the contract.
pub const DEFS_JSON: &str = include_str!("defs.json");

/// The parsed `$defs` map (def name → schema), in the library's order.
/// Empty if `defs.json` were broken, which every schema test would report.
pub static DEFS: LazyLock<Map<String, Value>> =
    LazyLock::new(|| match serde_json::from_str::<Value>(DEFS_JSON) {
        Ok(Value::Object(mut root)) => match root.remove("$defs") {
            Some(Value::Object(m)) => m,
            _ => Map::new(),
        },
        _ => Map::new(),
    });

const REF_PREFIX: &str = "#/$defs/";

/// Every `$defs` name referenced (directly) inside `v`.
pub fn refs_in(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                if k == "$ref"
                    && let Some(name) = x.as_str().and_then(|s| s.strip_prefix(REF_PREFIX))
                {
                    out.push(name.to_string());
                }
                refs_in(x, out);
            }
        }
        Value::Array(a) => a.iter().for_each(|x| refs_in(x, out)),
        _ => {}
    }
}

/// The transitive closure of `roots` over `$ref`s in the library.
pub fn closure(roots: &[&str]) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut todo: Vec<String> = roots.iter().map(|s| s.to_string()).collect();
    while let Some(name) = todo.pop() {
        if !seen.insert(name.clone()) {
            continue;
        }
        if let Some(def) = DEFS.get(&name) {
            let mut found = Vec::new();
            refs_in(def, &mut found);
            todo.extend(found.into_iter().filter(|n| !seen.contains(n)));
        }
    }
    seen
}

/// The `outputSchema` of tool `name` with the allowed `families`.
pub fn output_schema(name: &str, families: &[Family]) -> Map<String, Value> {
    let fam: Vec<&str> = families.iter().map(|f| f.def_name()).collect();
    let mut roots = vec!["error"];
    roots.extend(&fam);
    let needed = closure(&roots);
    // Library order keeps `$defs` deterministic and readable.
    let defs: Map<String, Value> = DEFS
        .iter()
        .filter(|(k, _)| needed.contains(*k))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let one_of: Vec<Value> = fam
        .iter()
        .map(|f| json!({"$ref": format!("{REF_PREFIX}{f}")}))
        .collect();
    let schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {
            "ok": { "type": "boolean" },
            "operation": { "const": name },
            "data": { "oneOf": one_of },
            "error": { "$ref": "#/$defs/error" },
            "warnings": {
                "type": "array",
                "items": { "type": "string" },
                "maxItems": 100
            },
            "truncated": { "type": "boolean" },
            "correlation_id": { "type": "string" }
        },
        "required": ["ok", "operation", "warnings", "truncated", "correlation_id"],
        "additionalProperties": false,
        "allOf": [
            {
                "if": { "properties": { "ok": { "const": true } } },
                "then": { "required": ["data"], "not": { "required": ["error"] } },
                "else": { "required": ["error"] }
            }
        ],
        "$defs": defs
    });
    match schema {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_ref_resolves() {
        assert_eq!(DEFS.len(), 37);
        for (name, def) in DEFS.iter() {
            let mut refs = Vec::new();
            refs_in(def, &mut refs);
            for r in refs {
                assert!(DEFS.contains_key(&r), "{name} refers to missing {r}");
            }
        }
    }

    #[test]
    fn closure_is_transitive_and_minimal() {
        let c = closure(&["request_page"]);
        let want: BTreeSet<String> = [
            "request_page",
            "request",
            "target",
            "identifier",
            "season",
            "episode",
            "paging",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        assert_eq!(c, want);
        assert_eq!(closure(&["error"]).len(), 1);
    }

    #[test]
    fn single_family_still_uses_one_of() {
        let s = output_schema("read_logs", &[Family::Logs]);
        assert_eq!(
            s["properties"]["data"]["oneOf"],
            json!([{"$ref": "#/$defs/logs"}])
        );
        let defs: Vec<&String> = s["$defs"]
            .as_object()
            .map(|m| m.keys().collect())
            .unwrap_or_default();
        assert_eq!(defs, ["log_file", "logs", "error"]);
    }
}
