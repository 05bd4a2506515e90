//! Lookup lists → `reference_page` (`docs/contract.md`, reference_page).
//!
//! `value` holds the native-typed identifier (integer or string) of the
//! record, falling back to the name string when there is no id. Names are
//! chosen from the record's candidate labels: corrupted labels (all-`?`
//! mojibake, U+FFFD) lose to clean ones; if only corrupted labels exist the
//! record is kept with one and a warning. Order is deterministic (clean
//! labels first, then by name, then id), so pages are stable across calls.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::paging::{Window, page_object};
use crate::contract::Family;

/// A record's id as upstream types it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum RefId {
    Int(i64),
    Str(String),
}

impl RefId {
    fn text(&self) -> String {
        match self {
            RefId::Int(n) => n.to_string(),
            RefId::Str(s) => s.clone(),
        }
    }

    fn native(&self) -> Value {
        match self {
            RefId::Int(n) => Value::from(*n),
            RefId::Str(s) => Value::String(s.clone()),
        }
    }
}

/// One upstream record before label selection.
#[derive(Debug, Clone)]
pub struct Candidate {
    pub id: Option<RefId>,
    /// Labels in order of preference (e.g. English name, then native name).
    pub labels: Vec<Option<String>>,
    pub category: Option<String>,
}

/// `$defs/reference`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Reference {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    pub name: String,
    pub value: Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
}

/// All-`?` text (lost encoding) or text with U+FFFD replacement characters.
pub fn is_corrupted(label: &str) -> bool {
    let t = label.trim();
    t.contains('\u{FFFD}') || (!t.is_empty() && t.chars().all(|c| c == '?' || c.is_whitespace()))
}

/// The best label: the first clean one, else the first non-empty corrupted
/// one (flagged `true`).
fn pick(labels: &[Option<String>]) -> Option<(String, bool)> {
    let present = || {
        labels
            .iter()
            .flatten()
            .map(|l| l.trim())
            .filter(|l| !l.is_empty())
    };
    if let Some(clean) = present().find(|l| !is_corrupted(l)) {
        return Some((clean.to_string(), false));
    }
    present().next().map(|l| (l.to_string(), true))
}

/// Candidates → references: label chosen, records without any label or
/// with a duplicate id (keeping the clean one) dropped, sorted.
pub fn references(candidates: Vec<Candidate>, warnings: &mut Vec<String>) -> Vec<Reference> {
    let mut picked: Vec<(Option<RefId>, String, bool, Option<String>)> = Vec::new();
    for c in candidates {
        let Some((name, corrupted)) = pick(&c.labels) else {
            continue;
        };
        if let Some(id) = &c.id
            && let Some(prev) = picked.iter_mut().find(|p| p.0.as_ref() == Some(id))
        {
            // The same id twice: a clean label beats a corrupted one.
            if prev.2 && !corrupted {
                prev.1 = name;
                prev.2 = false;
            }
            continue;
        }
        picked.push((c.id, name, corrupted, c.category));
    }
    let corrupted = picked.iter().filter(|p| p.2).count();
    if corrupted > 0 {
        warnings.push(format!(
            "{corrupted} record(s) have only a corrupted label upstream (mojibake); returned as is"
        ));
    }
    // Corrupted labels last: they are the least useful to read.
    picked.sort_by(|a, b| {
        a.2.cmp(&b.2)
            .then_with(|| a.1.to_lowercase().cmp(&b.1.to_lowercase()))
            .then_with(|| a.0.cmp(&b.0))
            .then_with(|| a.1.cmp(&b.1))
    });
    picked
        .into_iter()
        .map(|(id, name, _, category)| Reference {
            value: id
                .as_ref()
                .map(RefId::native)
                .unwrap_or_else(|| Value::String(name.clone())),
            id: id.as_ref().map(RefId::text),
            name,
            category,
        })
        .collect()
}

pub fn reference_page(w: Window<Reference>) -> Value {
    page_object(Family::ReferencePage, w.items, &w.page)
}

// ---------------------------------------------------------------- wire shapes

/// `Genre`, `TheMovidDbKeyValue` (sic): `{id, name}`.
#[derive(Debug, Clone, Deserialize)]
pub struct IdName {
    pub id: Option<i64>,
    pub name: Option<String>,
}

/// `Language`: `{iso_639_1, english_name, name}` (native `name` is where
/// mojibake shows up).
#[derive(Debug, Clone, Deserialize)]
pub struct Language {
    pub iso_639_1: Option<String>,
    pub english_name: Option<String>,
    pub name: Option<String>,
}

/// `WatchProvidersResults`: a global catalogue entry, not a title's availability.
#[derive(Debug, Clone, Deserialize)]
pub struct WatchProvider {
    pub provider_id: Option<i64>,
    pub provider_name: Option<String>,
}

/// `IssueCategory`: `{id, value}`.
#[derive(Debug, Clone, Deserialize)]
pub struct IssueCategory {
    pub id: Option<i64>,
    pub value: Option<String>,
}

/// `ClaimCheckboxes`: `{value (role name), enabled}`.
#[derive(Debug, Clone, Deserialize)]
pub struct Claim {
    pub value: Option<String>,
}

/// `FeatureEnablement`: `{name, enabled}`.
#[derive(Debug, Clone, Deserialize)]
pub struct Feature {
    pub name: Option<String>,
    pub enabled: Option<bool>,
}

fn positive(id: Option<i64>) -> Option<RefId> {
    id.filter(|n| *n >= 1).map(RefId::Int)
}

fn code(s: Option<String>) -> Option<RefId> {
    s.map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .map(RefId::Str)
}

pub fn id_name(w: IdName, category: &str) -> Candidate {
    Candidate {
        id: positive(w.id),
        labels: vec![w.name],
        category: Some(category.into()),
    }
}

pub fn language(w: Language) -> Candidate {
    Candidate {
        id: code(w.iso_639_1),
        labels: vec![w.english_name, w.name],
        category: Some("language".into()),
    }
}

pub fn streaming_country(code_: String) -> Candidate {
    Candidate {
        id: code(Some(code_.clone())),
        labels: vec![Some(code_)],
        category: Some("streaming_country".into()),
    }
}

pub fn watch_provider(w: WatchProvider) -> Candidate {
    Candidate {
        id: positive(w.provider_id),
        labels: vec![w.provider_name],
        category: Some("watch_provider".into()),
    }
}

pub fn issue_category(w: IssueCategory) -> Candidate {
    Candidate {
        id: positive(w.id),
        labels: vec![w.value],
        category: Some("issue_category".into()),
    }
}

pub fn role(w: Claim) -> Candidate {
    Candidate {
        id: None,
        labels: vec![w.value],
        category: Some("role".into()),
    }
}

/// A feature flag: named by itself, its state in `category`
/// (`enabled`/`disabled`; absent when upstream omits it).
pub fn feature(w: Feature) -> Candidate {
    Candidate {
        id: None,
        labels: vec![w.name],
        category: w
            .enabled
            .map(|e| if e { "enabled" } else { "disabled" }.into()),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::definition::Page;
    use crate::projection::family_schema::assert_family;
    use crate::projection::paging;

    #[test]
    fn values_are_native_ids_and_order_is_by_name() {
        let wire: Vec<IdName> = serde_json::from_value(json!([
            {"id": 878, "name": "Science Fiction"}, {"id": 28, "name": "Action"}, {"id": 0, "name": "Zero"}, {"id": 12, "name": null}
        ]))
        .unwrap();
        let mut w = Vec::new();
        let refs = references(
            wire.into_iter().map(|g| id_name(g, "genre")).collect(),
            &mut w,
        );
        assert_eq!(
            refs[0],
            Reference {
                id: Some("28".into()),
                name: "Action".into(),
                value: json!(28),
                category: Some("genre".into())
            }
        );
        // No id: value falls back to the name.
        let zero = refs.iter().find(|r| r.name == "Zero").unwrap();
        assert_eq!((zero.id.as_deref(), &zero.value), (None, &json!("Zero")));
        assert_eq!(refs.len(), 3);
        let page = reference_page(paging::local(refs, Page::default(), true, "references"));
        assert_family("reference_page", &page);
    }

    #[test]
    fn corrupted_labels_lose_to_clean_ones_and_are_kept_with_a_warning_otherwise() {
        let wire: Vec<Language> = serde_json::from_value(json!([
            {"iso_639_1": "ja", "english_name": "Japanese", "name": "???"},
            {"iso_639_1": "ko", "english_name": "", "name": "\u{FFFD}\u{FFFD}"},
            {"iso_639_1": "zh", "english_name": "????", "name": "普通话"},
            {"iso_639_1": "xx", "english_name": "No Language", "name": ""}
        ]))
        .unwrap();
        let mut w = Vec::new();
        let refs = references(wire.into_iter().map(language).collect(), &mut w);
        let by = |id: &str| {
            refs.iter()
                .find(|r| r.id.as_deref() == Some(id))
                .unwrap()
                .name
                .clone()
        };
        assert_eq!(by("ja"), "Japanese");
        assert_eq!(by("zh"), "普通话");
        assert_eq!(by("ko"), "\u{FFFD}\u{FFFD}");
        assert_eq!(w.len(), 1);
        assert_eq!(
            refs.iter().find(|r| r.name == "Japanese").unwrap().value,
            json!("ja")
        );
    }

    #[test]
    fn duplicate_ids_keep_the_clean_label_deterministically() {
        let a = vec![
            Candidate {
                id: Some(RefId::Int(8)),
                labels: vec![Some("??????".into())],
                category: None,
            },
            Candidate {
                id: Some(RefId::Int(8)),
                labels: vec![Some("Netflix".into())],
                category: None,
            },
        ];
        let mut b = a.clone();
        b.reverse();
        let mut w = Vec::new();
        let ra = references(a, &mut w);
        let rb = references(b, &mut w);
        assert_eq!(ra, rb);
        assert_eq!(ra.len(), 1);
        assert_eq!(ra[0].name, "Netflix");
        assert!(w.is_empty());
    }

    #[test]
    fn features_and_roles_have_name_values() {
        let mut w = Vec::new();
        let f: Vec<Feature> = serde_json::from_value(json!([{"name": "Movie4KRequests", "enabled": true}, {"name": "PlayedSync", "enabled": false}])).unwrap();
        let refs = references(f.into_iter().map(feature).collect(), &mut w);
        assert_eq!(refs[0].value, json!("Movie4KRequests"));
        assert_eq!(refs[0].category.as_deref(), Some("enabled"));
        assert_eq!(refs[1].category.as_deref(), Some("disabled"));
        assert_family(
            "reference_page",
            &reference_page(paging::local(refs, Page::default(), true, "references")),
        );
    }

    #[test]
    fn mojibake_detection() {
        assert!(is_corrupted("????"));
        assert!(is_corrupted("? ?"));
        assert!(is_corrupted("Fran\u{FFFD}ais"));
        assert!(!is_corrupted("Who?"));
        assert!(!is_corrupted(""));
    }
}
