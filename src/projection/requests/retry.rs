//! The retry queue → `retry_page` records.

use serde::Serialize;

use super::WireFailedRequest;
use crate::projection::wire::{positive_id, request_type_label, text};
use crate::text::message::sanitize;

/// `$defs/retry`: `queue_id` is the queue entry (`failedId`), never the
/// request id.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RetryRecord {
    pub queue_id: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_id: Option<i64>,
    /// `request_type` and `request_type_code` come as a pair, or not at all.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_type: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_type_code: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Why sending failed, sanitized.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// One retry-queue entry, or `None` (with a warning) without a queue id.
pub fn retry(f: WireFailedRequest, warnings: &mut Vec<String>) -> Option<RetryRecord> {
    let Some(queue_id) = positive_id(f.failed_id) else {
        warnings.push("skipped a retry-queue entry without a queue id".into());
        return None;
    };
    let request_type = f
        .request_type
        .and_then(|code| match request_type_label(code) {
            Some(label) => Some((label, code)),
            None => {
                warnings.push(format!(
                    "retry entry {queue_id} has an unknown request type {code}"
                ));
                None
            }
        });
    let (request_type, request_type_code) = request_type.unzip();
    Some(RetryRecord {
        queue_id,
        request_id: positive_id(f.request_id),
        request_type,
        request_type_code,
        title: text(f.title),
        // The error can hold *arr URLs with keys and exception text.
        reason: text(f.error)
            .map(|e| sanitize(&e))
            .filter(|e| !e.is_empty()),
    })
}
