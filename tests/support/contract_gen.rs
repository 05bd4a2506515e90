//! A small deterministic instance generator driven by a JSON Schema (the
//! per-tool outputSchemas): every family, every optional field, edge values
//! (empty and full arrays, nulls where allowed), without a proptest dependency.
#![allow(dead_code)]

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
                let required: Vec<&str> = schema
                    .get("required")
                    .and_then(Value::as_array)
                    .map(|r| r.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
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
