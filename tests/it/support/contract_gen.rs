//! Small deterministic instance generators driven by a JSON Schema, without
//! a proptest dependency: [`Gen`] for the per-tool outputSchemas (every
//! family, every optional field, edge values: empty and full arrays, nulls
//! where allowed), [`argument_instances`] for an inputSchema's arguments.

use serde_json::{Map, Value, json};

pub struct Gen<'a> {
    pub defs: &'a Map<String, Value>,
    pub seed: u64,
    /// Length of top-level record arrays (clamped to `maxItems`).
    pub items: usize,
    pub optional: bool,
}

impl Gen<'_> {
    pub fn value(&self, schema: &Value, depth: usize, salt: u64) -> Value {
        let s = self.seed.wrapping_add(salt);
        if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
            let name = r.trim_start_matches("#/$defs/");
            return self.value(&self.defs[name], depth, salt);
        }
        if let Some(c) = schema.get("const") {
            return c.clone();
        }
        if let Some(Value::Array(labels)) = schema.get("enum") {
            return labels[(s as usize) % labels.len()].clone();
        }
        let ty = match schema.get("type") {
            Some(Value::String(t)) => t.clone(),
            Some(Value::Array(ts)) => ts[(s as usize) % ts.len()]
                .as_str()
                .unwrap_or("null")
                .to_string(),
            _ => "null".into(),
        };
        match ty.as_str() {
            "string" => json!(format!("text-{s}")),
            "integer" => {
                let min = schema.get("minimum").and_then(Value::as_i64).unwrap_or(0);
                let max = schema
                    .get("maximum")
                    .and_then(Value::as_i64)
                    .unwrap_or(i64::MAX);
                json!((min.max(1) + (s % 7) as i64).min(max))
            }
            "number" => json!(1.5 + (s % 3) as f64),
            "boolean" => json!(s.is_multiple_of(2)),
            "object" => {
                let props = schema.get("properties").and_then(Value::as_object);
                let required = required_fields(schema);
                let mut out = Map::new();
                for (i, (k, p)) in props.into_iter().flatten().enumerate() {
                    if self.optional || required.contains(&k.as_str()) {
                        out.insert(k.clone(), self.value(p, depth + 1, salt + i as u64 + 1));
                    }
                }
                Value::Object(out)
            }
            "array" => {
                let max = schema
                    .get("maxItems")
                    .and_then(Value::as_u64)
                    .unwrap_or(100) as usize;
                let n = if depth <= 1 {
                    self.items
                } else {
                    self.items.min(2)
                }
                .min(max);
                let item = &schema["items"];
                Value::Array(
                    (0..n)
                        .map(|i| self.value(item, depth + 1, salt + i as u64))
                        .collect(),
                )
            }
            _ => Value::Null,
        }
    }
}

/// Small values of one argument's input schema, so that every label and
/// every field is tried: an enum gives each of its labels (only those in
/// `only` when given), a boolean both values, an integer its `minimum`, a
/// string `"x"` repeated `minLength` times (a `date` is `2024-01-01`), a
/// union one value per member type; an object its required fields (every
/// combination of their values) alone, with each optional field (each of its
/// values) and with every optional field; an array `minItems` copies of each
/// item value (one copy, and also the empty array, when `minItems` is 0).
/// Not every value passes a definition's cross-field rules: the caller keeps
/// the calls that validate.
pub fn argument_instances(schema: &Value, only: Option<&[&str]>) -> Vec<Value> {
    if let Some(Value::Array(labels)) = schema.get("enum") {
        return labels
            .iter()
            .filter(|l| only.is_none_or(|o| l.as_str().is_some_and(|l| o.contains(&l))))
            .cloned()
            .collect();
    }
    // A union (`anyOf` of single-type branches): every branch's instances.
    if let Some(Value::Array(branches)) = schema.get("anyOf") {
        return branches
            .iter()
            .flat_map(|b| argument_instances(b, None))
            .collect();
    }
    let number = |key: &str| schema.get(key).and_then(Value::as_i64).unwrap_or(0);
    let of_type = |ty: &str| -> Vec<Value> {
        match ty {
            "boolean" => vec![json!(false), json!(true)],
            "integer" | "number" => vec![json!(number("minimum"))],
            "string" if schema.get("format").and_then(Value::as_str) == Some("date") => {
                vec![json!("2024-01-01")]
            }
            "string" => vec![json!("x".repeat(number("minLength") as usize))],
            "object" => object_instances(schema),
            "array" => {
                let n = number("minItems") as usize;
                let items = argument_instances(&schema["items"], None);
                let mut out: Vec<Value> = items
                    .into_iter()
                    .map(|v| Value::Array(vec![v; n.max(1)]))
                    .collect();
                if n == 0 {
                    out.insert(0, json!([]));
                }
                out
            }
            _ => vec![Value::Null],
        }
    };
    match schema.get("type") {
        Some(Value::String(t)) => of_type(t),
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .flat_map(of_type)
            .collect(),
        _ => vec![Value::Null],
    }
}

fn object_instances(schema: &Value) -> Vec<Value> {
    let properties = schema.get("properties").and_then(Value::as_object);
    let required = required_fields(schema);
    let mut bases = vec![Map::new()];
    for name in &required {
        let values = argument_instances(&schema["properties"][*name], None);
        bases = bases
            .iter()
            .flat_map(|o| {
                values.iter().map(move |v| {
                    let mut o = o.clone();
                    o.insert(name.to_string(), v.clone());
                    o
                })
            })
            .collect();
    }
    let optional: Vec<(&String, Vec<Value>)> = properties
        .into_iter()
        .flatten()
        .filter(|(k, _)| !required.contains(&k.as_str()))
        .map(|(k, p)| (k, argument_instances(p, None)))
        .collect();
    let mut out = Vec::new();
    for base in &bases {
        out.push(base.clone());
        for (k, values) in &optional {
            for v in values {
                let mut o = base.clone();
                o.insert(k.to_string(), v.clone());
                out.push(o);
            }
        }
        if optional.len() > 1 {
            let mut o = base.clone();
            for (k, values) in &optional {
                if let Some(v) = values.first() {
                    o.insert(k.to_string(), v.clone());
                }
            }
            out.push(o);
        }
    }
    out.into_iter().map(Value::Object).collect()
}

/// An object schema's `required` names.
fn required_fields(schema: &Value) -> Vec<&str> {
    schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}
