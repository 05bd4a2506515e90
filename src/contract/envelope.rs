//! The result envelope: `{ok, operation, data|error, warnings, truncated,
//! correlation_id}` in the template's key order, bounded by [`super::budget`],
//! returned as `structuredContent` plus the same JSON as one text block.

use rmcp::model::{CallToolResult, ContentBlock};
use serde::Deserialize;
use serde_json::{Map, Value};

use super::budget;
use super::{Outcome, ToolError};

/// The bounded envelope of one call, with its serialization (made once, by
/// the budget's measurement).
#[derive(Debug, Clone)]
pub struct Envelope {
    /// `structuredContent`.
    pub value: Map<String, Value>,
    /// `value` serialized: the text block, and on the wire `structuredContent`
    /// too (see `transport::frame`, which splices it rather than serializing
    /// the envelope a second time).
    pub json: String,
}

impl Envelope {
    pub fn ok(&self) -> bool {
        self.value
            .get("ok")
            .and_then(Value::as_bool)
            .unwrap_or(false)
    }

    /// Whether the budget (or the tool) cut the result.
    pub fn truncated(&self) -> bool {
        self.value.get("truncated") == Some(&Value::Bool(true))
    }

    /// The `error` object, as bounded (its message may be shortened).
    pub fn error(&self) -> Option<ToolError> {
        ToolError::deserialize(self.value.get("error")?).ok()
    }

    /// The `tools/call` result: `structuredContent` = the envelope, one text
    /// block with the same minified JSON, `isError = !ok`.
    pub fn into_result(self) -> CallToolResult {
        let ok = self.ok();
        let mut result = CallToolResult::success(vec![ContentBlock::text(self.json)]);
        result.structured_content = Some(Value::Object(self.value));
        result.is_error = Some(!ok);
        result
    }
}

/// The bounded envelope of one call.
pub fn envelope(tool: &str, outcome: Outcome, correlation_id: &str) -> Envelope {
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
    let json = budget::apply(&mut env);
    Envelope { value: env, json }
}

/// The `tools/call` result of one outcome (see [`Envelope::into_result`]).
pub fn render(tool: &str, outcome: Outcome, correlation_id: &str) -> CallToolResult {
    envelope(tool, outcome, correlation_id).into_result()
}
