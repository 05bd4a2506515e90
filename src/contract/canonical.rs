//! A JSON value's canonical text: object keys sorted at every level, no
//! white space. Digests of values (a settings section's `revision`, a
//! confirmation's argument digest) are taken over it, so key order never
//! changes them; serde_json keeps insertion order here (`preserve_order`).

use serde_json::Value;

/// `v` as canonical JSON text.
pub fn canonical_json(v: &Value) -> String {
    let mut out = String::new();
    write(v, &mut out);
    out
}

fn write(v: &Value, out: &mut String) {
    match v {
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            out.push('{');
            for (i, k) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(k.clone()).to_string());
                out.push(':');
                write(&m[k], out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write(item, out);
            }
            out.push(']');
        }
        scalar => out.push_str(&scalar.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn keys_are_sorted_at_every_level_and_arrays_keep_their_order() {
        let a = json!({"b": [2, {"z": 1, "a": "x"}], "a": null});
        assert_eq!(canonical_json(&a), r#"{"a":null,"b":[2,{"a":"x","z":1}]}"#);
        let b = json!({"a": null, "b": [2, {"a": "x", "z": 1}]});
        assert_eq!(canonical_json(&a), canonical_json(&b));
    }
}
