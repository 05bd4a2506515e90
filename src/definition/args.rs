//! Validated tool arguments, as handed to a handler.

use serde_json::{Map, Value};

use crate::contract::ToolError;

/// Arguments that passed validation against the tool's catalogue entry, with
/// documented defaults filled in (`action`, `is_4k`, `status`, `page`, ...).
#[derive(Debug, Clone, Default)]
pub struct Args {
    map: Map<String, Value>,
}

impl Args {
    pub fn new(map: Map<String, Value>) -> Args {
        Args { map }
    }

    /// The action (tools with one action have their only action filled in).
    pub fn action(&self) -> &str {
        self.str("action").unwrap_or("")
    }

    pub fn value(&self, name: &str) -> Option<&Value> {
        self.map.get(name)
    }

    pub fn str(&self, name: &str) -> Option<&str> {
        self.map.get(name).and_then(Value::as_str)
    }

    pub fn int(&self, name: &str) -> Option<i64> {
        self.map.get(name).and_then(Value::as_i64)
    }

    pub fn bool(&self, name: &str) -> Option<bool> {
        self.map.get(name).and_then(Value::as_bool)
    }

    pub fn page(&self) -> Page {
        let Some(p) = self.map.get("page") else {
            return Page::default();
        };
        Page {
            offset: p.get("offset").and_then(Value::as_u64).unwrap_or(0),
            limit: p.get("limit").and_then(Value::as_u64).unwrap_or(20),
        }
    }

    pub fn as_map(&self) -> &Map<String, Value> {
        &self.map
    }

    /// The arguments as a tool's typed action (`#[serde(tag = "action")]`).
    /// Validation already enforced the definition, so a mismatch is a bug
    /// in the tool (its enum and its definition disagree).
    pub fn parse<A: serde::de::DeserializeOwned>(&self) -> Result<A, ToolError> {
        // Read from the map in place: no copy of the arguments per call.
        serde::Deserialize::deserialize(&self.map).map_err(|e| {
            ToolError::internal(format!(
                "the tool's definition and its actions disagree: {e}"
            ))
        })
    }
}

/// The `page` argument: `{offset ≥ 0 (default 0), limit 1–100 (default 20)}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[serde(default)]
pub struct Page {
    pub offset: u64,
    pub limit: u64,
}

impl Default for Page {
    fn default() -> Self {
        Page {
            offset: 0,
            limit: 20,
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::contract::ErrorCode;

    #[derive(Debug, serde::Deserialize)]
    #[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
    enum Action {
        Get { id: i64 },
    }

    fn args(v: Value) -> Args {
        Args::new(v.as_object().cloned().unwrap_or_default())
    }

    /// An argument the definition accepts but the action's variant lacks is
    /// a bug in the tool, not a silently dropped argument.
    #[test]
    fn an_action_missing_an_argument_is_an_internal_error() {
        let got = args(json!({"action": "get", "id": 3})).parse::<Action>();
        assert!(matches!(got, Ok(Action::Get { id: 3 })), "{got:?}");
        for v in [
            json!({"action": "get", "id": 3, "page": {"offset": 0}}),
            json!({"action": "list"}),
            json!({"action": "get"}),
        ] {
            let e = args(v.clone()).parse::<Action>().unwrap_err();
            assert_eq!(e.code, ErrorCode::InternalError, "{v}");
            assert!(
                e.message.contains("definition and its actions disagree"),
                "{v}: {}",
                e.message
            );
        }
    }
}
