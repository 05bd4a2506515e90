//! The `paging` object of every `*_page` family, and local windows over
//! arrays Ombi returns whole. `mode` says who paged: Ombi (`upstream`), us
//! over a bounded array (`local`), or nobody (`none`, single-item results).
//! Totals and continuations are only emitted when they are known.

use serde_json::{Value, json};

use crate::catalogue::Page;

/// Warning for upstream-paged lists read past their first page.
pub const SHIFT_WARNING: &str =
    "Ombi pages have no snapshot: requests added or removed between calls may shift offsets";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Upstream,
    Local,
    None,
}

impl Mode {
    fn label(self) -> &'static str {
        match self {
            Mode::Upstream => "upstream",
            Mode::Local => "local",
            Mode::None => "none",
        }
    }
}

/// One `paging` object (`$defs/paging`); `unit` is one of the schema's units.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Paging {
    pub offset: u64,
    pub limit: u64,
    pub returned: u64,
    pub total: Option<u64>,
    pub has_more: Option<bool>,
    pub next_offset: Option<u64>,
    pub mode: Mode,
    pub unit: &'static str,
}

impl Paging {
    pub fn to_json(&self) -> Value {
        json!({
            "offset": self.offset,
            "limit": self.limit.clamp(1, 100),
            "returned": self.returned,
            "total": self.total,
            "has_more": self.has_more,
            "next_offset": self.next_offset,
            "mode": self.mode.label(),
            "unit": self.unit,
        })
    }

    /// A single-item (or single-object) answer.
    pub fn single(returned: usize, unit: &'static str) -> Paging {
        let returned = returned as u64;
        Paging {
            offset: 0,
            limit: returned.clamp(1, 100),
            returned,
            total: Some(returned),
            has_more: Some(false),
            next_offset: None,
            mode: Mode::None,
            unit,
        }
    }

    /// Ombi paged (`count`/`position` = `limit`/`offset`). Ombi's position
    /// advances by what was asked for, not by what came back (TV pages are
    /// de-duplicated after paging), so the continuation is `offset + limit`.
    pub fn upstream(page: Page, returned: usize, total: Option<u64>, unit: &'static str) -> Paging {
        let end = page.offset + page.limit;
        let (has_more, next_offset) = match total {
            Some(t) if end < t => (Some(true), Some(end)),
            Some(_) => (Some(false), None),
            // No total: a full page suggests more, a short one does not prove the end.
            None if returned as u64 >= page.limit => (Some(true), Some(end)),
            None => (None, None),
        };
        Paging {
            offset: page.offset,
            limit: page.limit,
            returned: returned as u64,
            total,
            has_more,
            next_offset,
            mode: Mode::Upstream,
            unit,
        }
    }
}

/// The window `page` of `items`. `complete` is false when `items` is only a
/// head of the upstream collection (read cap, bounded scan): the total is then
/// unknown, and the end of what we hold is not the end of the collection.
pub fn window<T>(
    items: Vec<T>,
    page: Page,
    complete: bool,
    unit: &'static str,
) -> (Vec<T>, Paging) {
    let len = items.len() as u64;
    let kept: Vec<T> = items
        .into_iter()
        .skip(page.offset.min(len) as usize)
        .take(page.limit as usize)
        .collect();
    let end = page.offset + kept.len() as u64;
    let (has_more, next_offset) = if end < len {
        (Some(true), Some(end))
    } else if complete {
        (Some(false), None)
    } else {
        (None, None)
    };
    let paging = Paging {
        offset: page.offset,
        limit: page.limit,
        returned: kept.len() as u64,
        total: complete.then_some(len),
        has_more,
        next_offset,
        mode: Mode::Local,
        unit,
    };
    (kept, paging)
}

/// A family page object: `{kind, items, page}`.
pub fn page_object(kind: &str, items: Vec<Value>, paging: &Paging) -> Value {
    json!({ "kind": kind, "items": items, "page": paging.to_json() })
}

/// Keeps at most `max` entries; true when some were dropped.
pub fn cap<T>(v: &mut Vec<T>, max: usize) -> bool {
    let cut = v.len() > max;
    v.truncate(max);
    cut
}

/// Test support: validates a value against one `$defs` entry of the contract.
#[cfg(test)]
pub(crate) fn assert_def(def: &str, value: &Value) {
    let defs: Value =
        serde_json::from_str(include_str!("../contract/defs.json")).expect("defs.json");
    let schema = json!({"$defs": defs["$defs"], "$ref": format!("#/$defs/{def}")});
    let validator = jsonschema::draft202012::new(&schema).expect("schema compiles");
    let errors: Vec<String> = validator
        .iter_errors(value)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{def} invalid: {errors:?}\n{value:#}");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(offset: u64, limit: u64) -> Page {
        Page { offset, limit }
    }

    #[test]
    fn local_window_over_a_complete_array_knows_the_total() {
        let (kept, pg) = window((1..=45).collect::<Vec<_>>(), p(20, 20), true, "requests");
        assert_eq!(kept.first(), Some(&21));
        assert_eq!(kept.len(), 20);
        assert_eq!(
            (pg.total, pg.has_more, pg.next_offset),
            (Some(45), Some(true), Some(40))
        );
        let (kept, pg) = window((1..=45).collect::<Vec<_>>(), p(40, 20), true, "requests");
        assert_eq!(kept.len(), 5);
        assert_eq!(
            (pg.total, pg.has_more, pg.next_offset),
            (Some(45), Some(false), None)
        );
        assert_def("paging", &pg.to_json());
    }

    #[test]
    fn local_window_over_a_cut_array_leaves_the_end_unknown() {
        let (kept, pg) = window((1..=30).collect::<Vec<_>>(), p(20, 20), false, "issues");
        assert_eq!(kept.len(), 10);
        assert_eq!((pg.total, pg.has_more, pg.next_offset), (None, None, None));
        let (_, pg) = window((1..=30).collect::<Vec<_>>(), p(0, 20), false, "issues");
        assert_eq!(
            (pg.total, pg.has_more, pg.next_offset),
            (None, Some(true), Some(20))
        );
        assert_def("paging", &pg.to_json());
    }

    #[test]
    fn offset_past_the_end_is_an_empty_window() {
        let (kept, pg) = window(vec![1, 2, 3], p(10, 5), true, "votes");
        assert!(kept.is_empty());
        assert_eq!(
            (pg.returned, pg.total, pg.has_more),
            (0, Some(3), Some(false))
        );
    }

    #[test]
    fn upstream_paging_continues_by_the_asked_count() {
        // A de-duplicated TV page may be short although more exist.
        let pg = Paging::upstream(p(0, 10), 7, Some(25), "requests");
        assert_eq!((pg.has_more, pg.next_offset), (Some(true), Some(10)));
        let pg = Paging::upstream(p(20, 10), 5, Some(25), "requests");
        assert_eq!((pg.has_more, pg.next_offset), (Some(false), None));
        let pg = Paging::upstream(p(0, 10), 3, None, "requests");
        assert_eq!((pg.has_more, pg.next_offset, pg.total), (None, None, None));
        assert_def("paging", &pg.to_json());
    }

    #[test]
    fn single_results_are_mode_none() {
        let pg = Paging::single(1, "requests");
        assert_eq!(pg.to_json()["mode"], "none");
        assert_def("paging", &pg.to_json());
        assert_def("paging", &Paging::single(0, "issues").to_json());
    }
}
