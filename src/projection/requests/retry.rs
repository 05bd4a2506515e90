//! The retry queue → `retry_page` records.

use super::WireFailedRequest;
use crate::projection::wire::{positive_id, request_type_label, text};
use crate::text::message::sanitize;

/// One `$defs/retry` record: `queue_id` is the queue entry (`failedId`),
/// never the request id.
pub fn retry(f: WireFailedRequest, warnings: &mut Vec<String>) -> Option<serde_json::Value> {
    let Some(queue_id) = positive_id(f.failed_id) else {
        warnings.push("skipped a retry-queue entry without a queue id".into());
        return None;
    };
    let mut o = serde_json::Map::new();
    o.insert("queue_id".into(), queue_id.into());
    if let Some(id) = positive_id(f.request_id) {
        o.insert("request_id".into(), id.into());
    }
    if let Some(code) = f.request_type {
        match request_type_label(code) {
            Some(label) => {
                o.insert("request_type".into(), label.into());
                o.insert("request_type_code".into(), code.into());
            }
            None => warnings.push(format!(
                "retry entry {queue_id} has an unknown request type {code}"
            )),
        }
    }
    if let Some(t) = text(f.title) {
        o.insert("title".into(), t.into());
    }
    // The error can hold *arr URLs with keys and exception text.
    if let Some(e) = text(f.error)
        .map(|e| sanitize(&e))
        .filter(|e| !e.is_empty())
    {
        o.insert("reason".into(), e.into());
    }
    Some(serde_json::Value::Object(o))
}
