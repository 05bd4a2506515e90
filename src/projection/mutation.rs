//! The `mutation` family: what a write did, stated honestly
//! (`docs/contract.md` "Mutation results"). An id appears only when Ombi
//! returned it or a read resolved it; `item_results` only when each item's
//! outcome is really known. What reads a write's result back (the audit
//! record, the watches it wakes, the resource it links) reads it as
//! [`Mutation`] too, through [`Mutation::of`].

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::contract::Family;
use crate::contract::{Target, TargetKind};

/// `mutation.outcome`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// Ombi did it, and its answer (or a read-back) says so.
    Completed,
    /// Ombi took it on but does not report the result (a job started, a
    /// test message handed to an agent that swallows send errors).
    Accepted,
    /// Part of it happened (saved but not sent; some collection members).
    Partial,
    /// Sent, but what happened cannot be known.
    Unknown,
    /// Ombi refused it and nothing changed.
    Rejected,
}

impl Outcome {
    /// The label `outcome` is serialized as.
    pub const fn label(self) -> &'static str {
        match self {
            Outcome::Completed => "completed",
            Outcome::Accepted => "accepted",
            Outcome::Partial => "partial",
            Outcome::Unknown => "unknown",
            Outcome::Rejected => "rejected",
        }
    }
}

/// One `item_results` entry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ItemResult {
    pub identifier: String,
    /// Never `Partial`: an item either happened or not (or is unknown).
    pub outcome: Outcome,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// A `mutation` object. Build with [`Mutation::new`] and the setters; turn
/// into `data` with [`Mutation::into_data`]; read a result back with
/// [`Mutation::of`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Mutation {
    #[serde(skip_deserializing, default = "mutation_kind")]
    kind: &'static str,
    pub outcome: Outcome,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<Target>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_id: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub issue_id: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comment_id: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub category_id: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub queue_id: Option<i64>,
    /// A short, sanitized statement of what happened.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Ombi's own `result` / `isError` / numeric `errorCode`, as answered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub upstream_result: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub upstream_is_error: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub upstream_error_code: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub affected_count: Option<u64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub item_results: Vec<ItemResult>,
}

fn mutation_kind() -> &'static str {
    Family::Mutation.def_name()
}

impl Mutation {
    pub fn new(outcome: Outcome) -> Mutation {
        Mutation {
            kind: mutation_kind(),
            outcome,
            target: None,
            request_id: None,
            issue_id: None,
            comment_id: None,
            category_id: None,
            user_id: None,
            queue_id: None,
            message: None,
            upstream_result: None,
            upstream_is_error: None,
            upstream_error_code: None,
            affected_count: None,
            item_results: Vec::new(),
        }
    }

    /// Sets `target`, and `request_id` to the same id (positive ids only:
    /// Ombi's 0 means "no id").
    pub fn on_request(mut self, kind: TargetKind, id: i64) -> Mutation {
        if id > 0 {
            self.target = Some(Target { kind, id });
            self.request_id = Some(id);
        }
        self
    }

    pub fn message(mut self, message: impl Into<String>) -> Mutation {
        self.message = Some(message.into());
        self
    }

    /// The `data` object.
    pub fn into_data(self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// A result's `data` read back as the mutation it declares (`None` for
    /// another family, or no data).
    pub fn of(data: Option<&Value>) -> Option<Mutation> {
        let data = data?;
        if Family::of(data) != Some(Family::Mutation) {
            return None;
        }
        Mutation::deserialize(data).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::projection::family_schema::assert_family;

    #[test]
    fn minimal_and_full_objects_fit_the_family() {
        assert_family("mutation", &Mutation::new(Outcome::Accepted).into_data());
        let mut m = Mutation::new(Outcome::Partial)
            .on_request(TargetKind::TvChild, 12)
            .message("saved, not sent");
        m.upstream_result = Some(false);
        m.item_results.push(ItemResult {
            identifier: "tmdb:1".into(),
            outcome: Outcome::Completed,
            message: None,
        });
        let v = m.into_data();
        assert_family("mutation", &v);
        assert_eq!(
            v["target"],
            serde_json::json!({"kind": "tv_child", "id": 12})
        );
        assert_eq!(v["request_id"], 12);
    }

    #[test]
    fn no_id_from_a_zero() {
        let v = Mutation::new(Outcome::Unknown)
            .on_request(TargetKind::Movie, 0)
            .into_data();
        assert!(v.get("request_id").is_none() && v.get("target").is_none());
    }
}
