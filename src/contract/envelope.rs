//! The result envelope: `{ok, operation, data|error, warnings, truncated,
//! correlation_id}` in the template's key order, bounded by [`super::budget`],
//! returned as `structuredContent` plus the same JSON as one text block.

use rmcp::model::CallToolResult;
use serde_json::{Map, Value};

use super::Outcome;
use super::budget;

/// The bounded envelope object of one call.
pub fn envelope(tool: &str, outcome: Outcome, correlation_id: &str) -> Map<String, Value> {
    let mut env = Map::new();
    let (ok, data, error, warnings, truncated) = match outcome {
        Ok(r) => (true, Some(r.data), None, r.warnings, r.truncated),
        Err(f) => {
            let err = serde_json::to_value(&f.error).unwrap_or(Value::Null);
            (false, f.data, Some(err), f.warnings, false)
        }
    };
    env.insert("ok".into(), Value::Bool(ok));
    env.insert("operation".into(), Value::String(tool.into()));
    if let Some(d) = data {
        env.insert("data".into(), d);
    }
    if let Some(e) = error {
        env.insert("error".into(), e);
    }
    env.insert(
        "warnings".into(),
        Value::Array(warnings.into_iter().map(Value::String).collect()),
    );
    env.insert("truncated".into(), Value::Bool(truncated));
    env.insert(
        "correlation_id".into(),
        Value::String(correlation_id.into()),
    );
    budget::apply(&mut env);
    env
}

/// The `tools/call` result: `structuredContent` = the envelope, one text block
/// with the same minified JSON, `isError = !ok`.
pub fn render(tool: &str, outcome: Outcome, correlation_id: &str) -> CallToolResult {
    into_result(envelope(tool, outcome, correlation_id))
}

/// An envelope as the `tools/call` result.
pub fn into_result(env: Map<String, Value>) -> CallToolResult {
    let ok = env.get("ok").and_then(Value::as_bool).unwrap_or(false);
    let value = Value::Object(env);
    if ok {
        CallToolResult::structured(value)
    } else {
        CallToolResult::structured_error(value)
    }
}
