//! The audit trail: one structured record per `write_*` call, at `info`,
//! under the target `ombi_mcp::audit` (journald fields `PEER_UID`, `TOOL`,
//! `OUTCOME`, ...; see `docs/security.md`). It names who asked (peer uid, pid
//! and user name), as whom Ombi saw it (the Ombi user), what was asked (tool,
//! action, the ids it named) and what came of it. Only ids and enum labels
//! are recorded: never free text, never a secret argument.

use std::time::Duration;

use serde_json::{Map, Value};
use tracing::info;

use super::CallCtx;
use crate::definition::{Args, ToolDef};

/// Arguments that identify what a write acted on. Everything else (titles,
/// comments, messages, passwords, settings values) stays out of the record.
const ID_ARGUMENTS: &[&str] = &[
    "media",
    "request_type",
    "request_id",
    "parent_request_id",
    "target",
    "tmdb_id",
    "provider",
    "id",
    "musicbrainz_id",
    "collection_id",
    "issue_id",
    "comment_id",
    "category_id",
    "user_id",
    "queue_id",
    "job",
    "section",
];

/// Ids a mutation result may carry.
const RESULT_IDS: &[&str] = &[
    "request_id",
    "issue_id",
    "comment_id",
    "category_id",
    "user_id",
    "queue_id",
];

/// Longest `targets` / `result_ids` text.
const MAX_SUMMARY: usize = 200;

/// Emits the record of one write call (`args` is `None` when validation
/// failed: the action and ids are then unknown).
pub fn record(
    def: &ToolDef,
    ctx: &CallCtx,
    args: Option<&Args>,
    envelope: &Map<String, Value>,
    elapsed: Duration,
) {
    let outcome = match (envelope.get("data"), envelope.get("error")) {
        (_, Some(e)) => e.get("code").and_then(Value::as_str).unwrap_or("error"),
        (Some(d), None) => d.get("outcome").and_then(Value::as_str).unwrap_or("ok"),
        (None, None) => "ok",
    };
    let action = args.map(Args::action).unwrap_or("");
    let targets = args
        .map(|a| summary(a.as_map(), ID_ARGUMENTS))
        .unwrap_or_default();
    let result_ids = envelope
        .get("data")
        .and_then(Value::as_object)
        .map(|d| summary(d, RESULT_IDS))
        .unwrap_or_default();
    let identity = &ctx.identity;
    info!(
        target: "ombi_mcp::audit",
        peer_uid = identity.uid,
        peer_pid = identity.pid,
        peer_user = identity.user_name.as_deref().unwrap_or(""),
        ombi_user = ctx.ombi_user().unwrap_or("(API key)"),
        tool = def.name,
        action,
        targets = targets.as_str(),
        outcome,
        result_ids = result_ids.as_str(),
        confirmation = ctx.confirmer.record().label.as_str(),
        correlation_id = ctx.correlation_id.as_str(),
        duration_ms = elapsed.as_millis() as u64,
        "audit"
    );
}

/// `name=value` pairs of the listed keys (ids, labels and `target` objects
/// only), bounded.
fn summary(map: &Map<String, Value>, keys: &[&str]) -> String {
    let mut out = String::new();
    for key in keys {
        let Some(v) = map.get(*key) else { continue };
        let text = match v {
            Value::Number(n) => n.to_string(),
            Value::String(s) => s.chars().take(64).collect(),
            Value::Object(o) => format!(
                "{}:{}",
                o.get("kind").and_then(Value::as_str).unwrap_or("?"),
                o.get("id").map(Value::to_string).unwrap_or_default()
            ),
            _ => continue,
        };
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(key);
        out.push('=');
        out.push_str(&text);
    }
    if out.len() > MAX_SUMMARY {
        let mut end = MAX_SUMMARY;
        while !out.is_char_boundary(end) {
            end -= 1;
        }
        out.truncate(end);
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn summary_keeps_ids_and_drops_free_text() {
        let args = json!({
            "action": "create", "media": "movie", "tmdb_id": 603,
            "comment": "secret plans", "user": {"password": "hunter2"},
            "target": {"kind": "tv_child", "id": 7}
        });
        let s = summary(args.as_object().unwrap(), ID_ARGUMENTS);
        assert_eq!(s, "media=movie target=tv_child:7 tmdb_id=603");
        assert!(!s.contains("secret") && !s.contains("hunter2"));
        let tv =
            json!({"action": "tv", "provider": "tmdb", "id": 1399, "selection": {"mode": "all"}});
        let s = summary(tv.as_object().unwrap(), ID_ARGUMENTS);
        assert_eq!(s, "provider=tmdb id=1399");
    }

    #[test]
    fn summary_is_bounded() {
        let long = "x".repeat(500);
        let args = json!({"media": long, "job": long, "section": long, "user_id": long});
        assert!(summary(args.as_object().unwrap(), ID_ARGUMENTS).len() <= MAX_SUMMARY + 3);
    }
}
