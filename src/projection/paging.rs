//! The `page` object of every `*_page` family (`$defs/paging`) and the
//! windows that produce it. `mode` says who paged: Ombi (`upstream`), us over
//! one bounded array read (`local`), or nobody (`none`, single lookups).
//! Totals and continuations are only claimed when they are known.

use serde::Serialize;
use serde_json::Value;

use crate::contract::Family;
use crate::contract::budget::MAX_RECORDS;
use crate::definition::Page;

/// Ombi's pages have no snapshot: records added or removed between two
/// calls may shift offsets. Internal mechanics, not something the person can
/// act on: logged for a list read past its first page, never a warning.
pub fn note_shift(unit: &'static str, paging: &Paging) {
    if paging.has_more == Some(true) || paging.offset > 0 {
        tracing::debug!(
            unit,
            offset = paging.offset,
            "Ombi pages have no snapshot: records added or removed between calls may shift offsets"
        );
    }
}

/// The one warning of a list Ombi cut at a fixed size without saying
/// whether more exists (its page then has `has_more` unknown, never false):
/// `cap` names the cap, `narrow` how to reach what lies past it.
pub fn capped_warning(cap: &str, narrow: &str) -> String {
    format!("Ombi returns at most {cap} here, so this may not be everything: {narrow}")
}

/// Who cut the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    Upstream,
    Local,
    None,
}

/// One `paging` object (`$defs/paging`). All keys are always present;
/// unknowns are `null`. `unit` is one of the schema's units.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
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
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// A single-item (or single-object) answer.
    pub fn single(returned: usize, unit: &'static str) -> Paging {
        let returned = returned as u64;
        Paging {
            offset: 0,
            limit: returned.clamp(1, MAX_RECORDS as u64),
            returned,
            total: Some(returned),
            has_more: Some(false),
            next_offset: None,
            mode: Mode::None,
            unit,
        }
    }

    /// Ombi paged (`count`/`position` or `{currentPosition}/{amountToLoad}`
    /// = `limit`/`offset`). Ombi's position advances by what was asked for,
    /// not by what came back (hidden titles are dropped after paging), so
    /// the continuation is `offset + limit`.
    /// Without a total nothing proves the end: a short page may be short
    /// because Ombi dropped titles after paging, and a full one may be the
    /// last. So `has_more` stays unknown (null when uncertain); the
    /// continuation `offset + limit` is offered while the page brought
    /// something back.
    pub fn upstream(page: Page, returned: usize, total: Option<u64>, unit: &'static str) -> Paging {
        let limit = limit_of(page);
        let returned = returned as u64;
        let end = page.offset.saturating_add(limit);
        let (has_more, next_offset) = match total {
            Some(t) if end < t => (Some(true), Some(end)),
            Some(_) => (Some(false), None),
            None if returned > 0 => (None, Some(end)),
            None => (None, None),
        };
        Paging {
            offset: page.offset,
            limit,
            returned,
            total,
            has_more,
            next_offset,
            mode: Mode::Upstream,
            unit,
        }
    }
}

/// A window `page` over a list, and the items in it.
#[derive(Debug, Clone)]
pub struct Window<T> {
    pub items: Vec<T>,
    pub page: Paging,
}

/// `page.limit` clamped to the contract's 1–100.
fn limit_of(page: Page) -> u64 {
    page.limit.clamp(1, MAX_RECORDS as u64)
}

/// The window `page` of `items`, cut locally. `complete` is false when
/// `items` is only a head of the upstream collection (read cap, bounded
/// scan): the total is then unknown, and "more" is only claimed when records
/// we hold lie past the window.
pub fn local<T>(items: Vec<T>, page: Page, complete: bool, unit: &'static str) -> Window<T> {
    let limit = limit_of(page);
    let len = items.len() as u64;
    let kept: Vec<T> = items
        .into_iter()
        .skip(page.offset.min(len) as usize)
        .take(limit as usize)
        .collect();
    let returned = kept.len() as u64;
    let end = page.offset.saturating_add(returned);
    let (has_more, next_offset) = if end < len {
        (Some(true), Some(end))
    } else if complete {
        (Some(false), None)
    } else {
        (None, None)
    };
    Window {
        items: kept,
        page: Paging {
            offset: page.offset,
            limit,
            returned,
            total: complete.then_some(len),
            has_more,
            next_offset,
            mode: Mode::Local,
            unit,
        },
    }
}

/// The first [`MAX_RECORDS`] of a list (tools without a `page` argument).
pub fn first<T>(items: Vec<T>, complete: bool, unit: &'static str) -> Window<T> {
    let page = Page {
        offset: 0,
        limit: MAX_RECORDS as u64,
    };
    local(items, page, complete, unit)
}

/// A page Ombi cut itself, with no total (media lists): at most `limit`
/// items are kept; the end is unknown (see [`Paging::upstream`]).
pub fn upstream<T>(mut items: Vec<T>, page: Page, unit: &'static str) -> Window<T> {
    cap(&mut items, limit_of(page) as usize);
    let page = Paging::upstream(page, items.len(), None, unit);
    Window { items, page }
}

/// A bounded feed with no continuation (e.g. the recently-requested
/// fallback): total and continuation unknown.
pub fn truncated_feed<T>(mut items: Vec<T>, page: Page, unit: &'static str) -> Window<T> {
    let limit = limit_of(page);
    cap(&mut items, limit as usize);
    Window {
        page: Paging {
            offset: page.offset,
            limit,
            returned: items.len() as u64,
            total: None,
            has_more: None,
            next_offset: None,
            mode: Mode::Local,
            unit,
        },
        items,
    }
}

/// A single-record answer (details, one keyword, one artwork URL).
pub fn single<T>(items: Vec<T>, unit: &'static str) -> Window<T> {
    Window {
        page: Paging::single(items.len(), unit),
        items,
    }
}

/// A `*_page` family object (`$defs/media_page`, `$defs/issue_page`, ...).
#[derive(Debug, Serialize)]
struct FamilyPage<'a, T> {
    kind: &'static str,
    items: Vec<T>,
    page: &'a Paging,
}

/// A family page object: `{kind, items, page}`.
pub fn page_object<T: Serialize>(family: Family, items: Vec<T>, paging: &Paging) -> Value {
    let page = FamilyPage {
        kind: family.def_name(),
        items,
        page: paging,
    };
    serde_json::to_value(page).unwrap_or(Value::Null)
}

/// Keeps at most `max` entries; true when some were dropped.
pub fn cap<T>(v: &mut Vec<T>, max: usize) -> bool {
    let cut = v.len() > max;
    v.truncate(max);
    cut
}

/// A warning when a list did not fit one result.
pub fn more_warning(paging: &Paging, what: &str) -> Option<String> {
    (paging.has_more == Some(true)).then(|| {
        let of = paging.total.map(|t| format!(" of {t}")).unwrap_or_default();
        format!("only {}{of} {what} are shown", paging.returned)
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::family_schema::assert_family;
    use super::*;

    fn p(offset: u64, limit: u64) -> Page {
        Page { offset, limit }
    }

    // --- local windows (from the requests/issues/votes module) ---

    #[test]
    fn local_window_over_a_complete_array_knows_the_total() {
        let Window {
            items: kept,
            page: pg,
        } = local((1..=45).collect::<Vec<_>>(), p(20, 20), true, "requests");
        assert_eq!(kept.first(), Some(&21));
        assert_eq!(kept.len(), 20);
        assert_eq!(
            (pg.total, pg.has_more, pg.next_offset),
            (Some(45), Some(true), Some(40))
        );
        let Window {
            items: kept,
            page: pg,
        } = local((1..=45).collect::<Vec<_>>(), p(40, 20), true, "requests");
        assert_eq!(kept.len(), 5);
        assert_eq!(
            (pg.total, pg.has_more, pg.next_offset),
            (Some(45), Some(false), None)
        );
        assert_family("paging", &pg.to_json());
    }

    #[test]
    fn local_window_over_a_cut_array_leaves_the_end_unknown() {
        let Window {
            items: kept,
            page: pg,
        } = local((1..=30).collect::<Vec<_>>(), p(20, 20), false, "issues");
        assert_eq!(kept.len(), 10);
        assert_eq!((pg.total, pg.has_more, pg.next_offset), (None, None, None));
        let pg = local((1..=30).collect::<Vec<_>>(), p(0, 20), false, "issues").page;
        assert_eq!(
            (pg.total, pg.has_more, pg.next_offset),
            (None, Some(true), Some(20))
        );
        assert_family("paging", &pg.to_json());
    }

    #[test]
    fn offset_past_the_end_is_an_empty_window() {
        let Window {
            items: kept,
            page: pg,
        } = local(vec![1, 2, 3], p(10, 5), true, "votes");
        assert!(kept.is_empty());
        assert_eq!(
            (pg.returned, pg.total, pg.has_more),
            (0, Some(3), Some(false))
        );
    }

    #[test]
    fn upstream_paging_continues_by_the_asked_count() {
        // A page may be short (titles hidden after paging) although more exist.
        let pg = Paging::upstream(p(0, 10), 7, Some(25), "requests");
        assert_eq!((pg.has_more, pg.next_offset), (Some(true), Some(10)));
        let pg = Paging::upstream(p(20, 10), 5, Some(25), "requests");
        assert_eq!((pg.has_more, pg.next_offset), (Some(false), None));
        // No total: a short or a full page proves nothing about the end.
        let pg = Paging::upstream(p(0, 10), 3, None, "requests");
        assert_eq!(
            (pg.has_more, pg.next_offset, pg.total),
            (None, Some(10), None)
        );
        let pg = Paging::upstream(p(0, 10), 10, None, "requests");
        assert_eq!((pg.has_more, pg.next_offset), (None, Some(10)));
        let pg = Paging::upstream(p(30, 10), 0, None, "requests");
        assert_eq!((pg.has_more, pg.next_offset), (None, None));
        assert_family("paging", &pg.to_json());
    }

    #[test]
    fn single_results_are_mode_none() {
        let pg = Paging::single(1, "requests");
        assert_eq!(pg.to_json()["mode"], "none");
        assert_family("paging", &pg.to_json());
        assert_family("paging", &Paging::single(0, "issues").to_json());
    }

    // --- local windows as JSON (from the administration module) ---

    #[test]
    fn complete_list_windows_with_total_and_continuation() {
        let w = local((1..=25).collect::<Vec<_>>(), p(20, 10), true, "users");
        let (items, p1) = (w.items, w.page.to_json());
        assert_eq!(items, vec![21, 22, 23, 24, 25]);
        assert_eq!(p1["total"], 25);
        assert_eq!(p1["has_more"], false);
        assert!(p1["next_offset"].is_null());
        let w = local((1..=25).collect::<Vec<_>>(), p(0, 10), true, "users");
        let (items, p2) = (w.items, w.page.to_json());
        assert_eq!(items.len(), 10);
        assert_eq!(
            (p2["has_more"].clone(), p2["next_offset"].clone()),
            (json!(true), json!(10))
        );
    }

    #[test]
    fn cut_list_never_claims_a_total() {
        let pg = local((1..=25).collect::<Vec<_>>(), p(0, 10), false, "users")
            .page
            .to_json();
        assert!(pg["total"].is_null());
        assert_eq!(pg["has_more"], true);
        let pg = local((1..=25).collect::<Vec<_>>(), p(20, 10), false, "users")
            .page
            .to_json();
        assert!(pg["total"].is_null() && pg["has_more"].is_null() && pg["next_offset"].is_null());
    }

    #[test]
    fn offset_past_the_end_is_an_empty_json_window() {
        let w = local(vec![1, 2], p(50, 10), true, "references");
        let pg = w.page.to_json();
        assert!(w.items.is_empty());
        assert_eq!(pg["returned"], 0);
        assert_eq!(pg["has_more"], false);
    }

    // --- media/reference windows ---

    #[test]
    fn local_window_knows_total_and_next() {
        let w = local((0..45).collect::<Vec<_>>(), p(20, 20), true, "media");
        assert_eq!(w.items.first(), Some(&20));
        assert_eq!(
            (
                w.page.returned,
                w.page.total,
                w.page.has_more,
                w.page.next_offset
            ),
            (20, Some(45), Some(true), Some(40))
        );
        let last = local((0..45).collect::<Vec<_>>(), p(40, 20), true, "media");
        assert_eq!(
            (
                last.page.returned,
                last.page.has_more,
                last.page.next_offset
            ),
            (5, Some(false), None)
        );
        let past = local((0..3).collect::<Vec<_>>(), p(10, 20), true, "media");
        assert_eq!((past.page.returned, past.page.has_more), (0, Some(false)));
    }

    #[test]
    fn local_window_over_a_cut_list_has_unknown_total() {
        let w = local((0..30).collect::<Vec<_>>(), p(20, 20), false, "media");
        assert_eq!(
            (w.page.total, w.page.has_more, w.page.next_offset),
            (None, None, None)
        );
        let w = local((0..30).collect::<Vec<_>>(), p(0, 20), false, "media");
        assert_eq!(
            (w.page.total, w.page.has_more, w.page.next_offset),
            (None, Some(true), Some(20))
        );
    }

    #[test]
    fn upstream_window_never_infers_the_end_without_a_total() {
        let full = upstream((0..20).collect::<Vec<_>>(), p(40, 20), "media");
        assert_eq!(
            (full.page.total, full.page.has_more, full.page.next_offset),
            (None, None, Some(60))
        );
        assert_eq!(full.page.mode, Mode::Upstream);
        // Ombi drops hidden titles after paging: a short page is not the end.
        let short = upstream((0..7).collect::<Vec<_>>(), p(40, 20), "media");
        assert_eq!(
            (short.page.has_more, short.page.next_offset),
            (None, Some(60))
        );
    }

    #[test]
    fn more_warning_names_what_was_cut() {
        let pg = first((1..=150).collect::<Vec<_>>(), true, "users").page;
        assert_eq!(
            more_warning(&pg, "users").as_deref(),
            Some("only 100 of 150 users are shown")
        );
        let pg = first((1..=150).collect::<Vec<_>>(), false, "users").page;
        assert_eq!(
            more_warning(&pg, "users").as_deref(),
            Some("only 100 users are shown")
        );
        assert_eq!(
            more_warning(&first(vec![1], true, "users").page, "users"),
            None
        );
    }
}
