//! The `$defs/request` record and its identifiers.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use super::Season;
use crate::contract::{Target, TargetKind};
use crate::projection::lifecycle::Lifecycle;
use crate::projection::wire::positive_id;

/// One `{namespace, value}` of a request; the namespaces are the
/// projection's constants, owned only when read back.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Identifier {
    pub namespace: Cow<'static, str>,
    pub value: String,
}

/// Identifiers without blanks, zeros or duplicates (namespace + value).
#[derive(Debug, Default, Clone)]
pub struct Ids(pub Vec<Identifier>);

impl Ids {
    pub fn add(&mut self, namespace: &'static str, value: Option<String>) {
        let Some(value) = value.map(|v| v.trim().to_string()) else {
            return;
        };
        if value.is_empty()
            || value == "0"
            || self
                .0
                .iter()
                .any(|i| i.namespace == namespace && i.value == value)
        {
            return;
        }
        self.0.push(Identifier {
            namespace: namespace.into(),
            value,
        });
    }

    pub fn add_id(&mut self, namespace: &'static str, id: Option<i64>) {
        self.add(namespace, positive_id(id).map(|i| i.to_string()));
    }
}

/// One `$defs/request` record (read back by lockdown, so it deserializes
/// from what it serializes).
#[derive(Debug, Serialize, Deserialize)]
pub struct RequestRecord {
    pub target: Target,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent_request_id: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub identifiers: Vec<Identifier>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub approved: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub available: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub denied: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status_text: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub requested_date: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub requested_user_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub requested_user_name: Option<String>,
    /// Ombi's `RequestedByAlias`: the name a script or voice assistant gave.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub requested_by_alias: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub denied_reason: Option<String>,
    #[serde(flatten)]
    pub lifecycle: Lifecycle,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_4k: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub approved_4k: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub available_4k: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub denied_4k: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subscribed: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub can_approve: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seasons: Option<Vec<Season>>,
}

impl RequestRecord {
    pub fn new(kind: TargetKind, id: i64) -> RequestRecord {
        RequestRecord {
            target: Target { kind, id },
            parent_request_id: None,
            title: None,
            identifiers: Vec::new(),
            approved: None,
            available: None,
            denied: None,
            status_text: None,
            requested_date: None,
            requested_user_id: None,
            requested_user_name: None,
            requested_by_alias: None,
            denied_reason: None,
            lifecycle: Lifecycle::default(),
            is_4k: None,
            approved_4k: None,
            available_4k: None,
            denied_4k: None,
            subscribed: None,
            can_approve: None,
            seasons: None,
        }
    }

    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or(serde_json::Value::Null)
    }
}

/// What projecting one record produced.
pub type Projected = Result<RequestRecord, String>;
