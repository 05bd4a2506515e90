//! Counts, totals, quotas and period statistics → `metrics` (docs/contract.md
//! "metrics"; Ombi's model). Every value is a named scalar
//! with its scope: `instance` (whole server) or `principal` (what the caller
//! sees / is allowed). Nothing absent is turned into 0 or false.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::wire::date;
use crate::contract::Family;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Scope {
    Instance,
    Principal,
    /// A user the caller picked (a moderator reading another user).
    SelectedUser,
}

/// `$defs/metric`: a named scalar with its scope, and the unit it counts in
/// (none for flags, texts and dates). A per-user count names its user.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Metric {
    pub name: String,
    /// A scalar: string, number, boolean or null.
    pub value: Value,
    pub scope: Scope,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unit: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user_name: Option<String>,
}

impl Metric {
    /// A metric about the whole instance, without a unit.
    pub fn instance(name: &str, value: impl Into<Value>) -> Metric {
        metric(name, value.into(), Scope::Instance, None)
    }
}

/// One `$defs/metric`.
pub fn metric(name: &str, value: Value, scope: Scope, unit: Option<&'static str>) -> Metric {
    Metric {
        name: name.to_string(),
        value,
        scope,
        unit,
        user_id: None,
        user_name: None,
    }
}

/// `$defs/metrics`.
#[derive(Debug, Clone, PartialEq, Serialize)]
struct Metrics {
    kind: &'static str,
    values: Vec<Metric>,
}

/// The `metrics` family object.
pub fn metrics(values: Vec<Metric>) -> Value {
    let m = Metrics {
        kind: Family::Metrics.def_name(),
        values,
    };
    serde_json::to_value(m).unwrap_or(Value::Null)
}

/// `RequestCountModel` (`GET /api/v1/Request/count`): movies + TV children.
#[derive(Debug, Deserialize)]
pub struct RequestCounts {
    pub pending: Option<i64>,
    pub approved: Option<i64>,
    pub available: Option<i64>,
    pub denied: Option<i64>,
}

pub fn request_counts(c: &RequestCounts) -> Vec<Metric> {
    [
        ("pending", c.pending),
        ("approved", c.approved),
        ("available", c.available),
        ("denied", c.denied),
    ]
    .into_iter()
    .filter_map(|(n, v)| v.map(|v| metric(n, v.into(), Scope::Instance, Some("requests"))))
    .collect()
}

/// `IssueCountModel` (`GET /api/v1/Issues/count`).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IssueCounts {
    pub pending: Option<i64>,
    pub in_progress: Option<i64>,
    pub resolved: Option<i64>,
}

pub fn issue_counts(c: &IssueCounts) -> Vec<Metric> {
    [
        ("pending", c.pending),
        ("in_progress", c.in_progress),
        ("resolved", c.resolved),
    ]
    .into_iter()
    .filter_map(|(n, v)| v.map(|v| metric(n, v.into(), Scope::Instance, Some("issues"))))
    .collect()
}

/// `RequestQuotaCountModel` (`GET .../remaining`).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Quota {
    pub has_limit: Option<bool>,
    pub limit: Option<i64>,
    pub remaining: Option<i64>,
    pub next_request: Option<String>,
}

/// The caller's quota for one media type. `hasLimit: false` means unlimited
/// (Ombi then sends `limit: 0, remaining: 0`): only `has_limit: false` comes
/// out, never a limit or remaining of 0. One media type read on its own
/// gives the contract's bare RequestQuota names (`has_limit`, `limit`,
/// `remaining`, `next_request`); a read of all types prefixes them with the
/// media (`tv.remaining`) so they stay apart.
pub fn quota(media: &str, q: &Quota, prefixed: bool, scope: Scope) -> Vec<Metric> {
    let unit = if media == "tv" {
        "episodes"
    } else {
        "requests"
    };
    let name = |n: &str| {
        if prefixed {
            format!("{media}.{n}")
        } else {
            n.to_string()
        }
    };
    let mut out = Vec::new();
    let Some(has_limit) = q.has_limit else {
        return out;
    };
    out.push(metric(&name("has_limit"), has_limit.into(), scope, None));
    if !has_limit {
        return out;
    }
    if let Some(l) = q.limit {
        out.push(metric(&name("limit"), l.into(), scope, Some(unit)));
    }
    if let Some(r) = q.remaining {
        out.push(metric(&name("remaining"), r.into(), scope, Some(unit)));
    }
    if let Some(d) = date(q.next_request.clone()) {
        out.push(metric(&name("next_request"), d.into(), scope, None));
    }
    out
}

/// A count of requests the caller can see (`.../total`).
pub fn total(media: &str, n: i64) -> Metric {
    let unit = if media == "tv" {
        "tv_parent_requests"
    } else {
        "requests"
    };
    metric(
        &format!("{media}.total"),
        n.into(),
        Scope::Principal,
        Some(unit),
    )
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::family_schema::assert_family;
    use super::*;

    #[test]
    fn request_counts_are_instance_scoped() {
        let c: RequestCounts = serde_json::from_value(
            json!({"pending": 3, "approved": 5, "available": 9, "denied": 1}),
        )
        .unwrap();
        let v = metrics(request_counts(&c));
        assert_eq!(
            v["values"][0],
            json!({"name": "pending", "value": 3, "scope": "instance", "unit": "requests"})
        );
        assert_eq!(v["values"].as_array().unwrap().len(), 4);
        assert_family("metrics", &v);
    }

    #[test]
    fn unlimited_quota_has_no_limit_or_remaining() {
        let q: Quota = serde_json::from_value(
            json!({"hasLimit": false, "limit": 0, "remaining": 0, "nextRequest": "0001-01-01T00:00:00Z"}),
        )
        .unwrap();
        let v = quota("movie", &q, true, Scope::Principal);
        assert_eq!(
            serde_json::to_value(&v).unwrap(),
            json!([{"name": "movie.has_limit", "value": false, "scope": "principal"}])
        );
        assert_family("metrics", &metrics(v));
    }

    #[test]
    fn limited_quota_reports_all_four() {
        let q: Quota = serde_json::from_value(
            json!({"hasLimit": true, "limit": 10, "remaining": 0, "nextRequest": "2026-04-09T00:00:00Z"}),
        )
        .unwrap();
        let bare: Vec<String> = quota("tv", &q, false, Scope::Principal)
            .iter()
            .map(|m| m.name.clone())
            .collect();
        assert_eq!(bare, ["has_limit", "limit", "remaining", "next_request"]);
        let v = quota("tv", &q, true, Scope::Principal);
        let names: Vec<&str> = v.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "tv.has_limit",
                "tv.limit",
                "tv.remaining",
                "tv.next_request"
            ]
        );
        assert_eq!(v[2].value, 0, "an exhausted quota is a real 0");
        assert_eq!(v[2].unit, Some("episodes"));
        assert_family("metrics", &metrics(v));
    }

    #[test]
    fn issue_counts_use_contract_labels() {
        let c: IssueCounts =
            serde_json::from_value(json!({"pending": 1, "inProgress": 2, "resolved": 3})).unwrap();
        let v = metrics(issue_counts(&c));
        assert_eq!(v["values"][1]["name"], "in_progress");
        assert_family("metrics", &v);
    }
}
