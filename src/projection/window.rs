//! The `page` object of list families (`$defs/paging`) and the windows the
//! media/reference/library tools cut: local windows over complete arrays,
//! upstream windows (`{currentPosition}/{amountToLoad}`), single items.

use serde::Serialize;

use crate::catalogue::Page;

/// `$defs/paging.unit` values used by these tools.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Unit {
    Media,
    References,
    CalendarEntries,
    Artwork,
}

/// `$defs/paging`. All keys are always present; unknowns are `null`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Paging {
    pub offset: u64,
    pub limit: u64,
    pub returned: u64,
    pub total: Option<u64>,
    pub has_more: Option<bool>,
    pub next_offset: Option<u64>,
    pub mode: &'static str,
    pub unit: Unit,
}

/// The window `page` over a list, and the items in it.
pub struct Window<T> {
    pub items: Vec<T>,
    pub page: Paging,
}

/// `page.limit` clamped to the contract's 1–100.
fn limit_of(page: Page) -> u64 {
    page.limit.clamp(1, 100)
}

/// A local window over `all`. `complete` is false when the upstream list was
/// cut by the read cap: then the total and the end are unknown.
pub fn local<T>(all: Vec<T>, page: Page, unit: Unit, complete: bool) -> Window<T> {
    let limit = limit_of(page);
    let len = all.len() as u64;
    let items: Vec<T> = all
        .into_iter()
        .skip(page.offset.min(len) as usize)
        .take(limit as usize)
        .collect();
    let returned = items.len() as u64;
    let end = page.offset.saturating_add(returned);
    let (total, has_more, next_offset) = if complete {
        let more = end < len;
        (Some(len), Some(more), more.then_some(end))
    } else if end < len {
        // Records we hold beyond the window: more exist for sure.
        (None, Some(true), Some(end))
    } else {
        (None, None, None)
    };
    Window {
        items,
        page: Paging {
            offset: page.offset,
            limit,
            returned,
            total,
            has_more,
            next_offset,
            mode: "local",
            unit,
        },
    }
}

/// A page Ombi cut itself (`{currentPosition}/{amountToLoad}` with
/// `currentPosition = offset`). Ombi returns no total, and may drop hidden
/// titles from a page, so a short page only proves the end when it is empty
/// or shorter than asked; otherwise whether more exist is unknown.
pub fn upstream<T>(mut items: Vec<T>, page: Page, unit: Unit) -> Window<T> {
    let limit = limit_of(page);
    items.truncate(limit as usize);
    let returned = items.len() as u64;
    let (has_more, next_offset) = if returned < limit {
        (Some(false), None)
    } else {
        // Ombi's position counts source records, not the ones it returned.
        (None, Some(page.offset.saturating_add(limit)))
    };
    Window {
        items,
        page: Paging {
            offset: page.offset,
            limit,
            returned,
            total: None,
            has_more,
            next_offset,
            mode: "upstream",
            unit,
        },
    }
}

/// A bounded feed with no continuation (e.g. the recently-requested fallback):
/// total and continuation unknown.
pub fn truncated_feed<T>(mut items: Vec<T>, page: Page, unit: Unit) -> Window<T> {
    let limit = limit_of(page);
    items.truncate(limit as usize);
    Window {
        page: Paging {
            offset: page.offset,
            limit,
            returned: items.len() as u64,
            total: None,
            has_more: None,
            next_offset: None,
            mode: "local",
            unit,
        },
        items,
    }
}

/// A single-record answer (details, one keyword, one artwork URL).
pub fn single<T>(items: Vec<T>, unit: Unit) -> Window<T> {
    let n = items.len() as u64;
    Window {
        page: Paging {
            offset: 0,
            limit: n.clamp(1, 100),
            returned: n,
            total: Some(n),
            has_more: Some(false),
            next_offset: None,
            mode: "none",
            unit,
        },
        items,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(offset: u64, limit: u64) -> Page {
        Page { offset, limit }
    }

    #[test]
    fn local_window_knows_total_and_next() {
        let w = local((0..45).collect::<Vec<_>>(), p(20, 20), Unit::Media, true);
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
        let last = local((0..45).collect::<Vec<_>>(), p(40, 20), Unit::Media, true);
        assert_eq!(
            (
                last.page.returned,
                last.page.has_more,
                last.page.next_offset
            ),
            (5, Some(false), None)
        );
        let past = local((0..3).collect::<Vec<_>>(), p(10, 20), Unit::Media, true);
        assert_eq!((past.page.returned, past.page.has_more), (0, Some(false)));
    }

    #[test]
    fn local_window_over_a_cut_list_has_unknown_total() {
        let w = local((0..30).collect::<Vec<_>>(), p(20, 20), Unit::Media, false);
        assert_eq!(
            (w.page.total, w.page.has_more, w.page.next_offset),
            (None, None, None)
        );
        let w = local((0..30).collect::<Vec<_>>(), p(0, 20), Unit::Media, false);
        assert_eq!(
            (w.page.total, w.page.has_more, w.page.next_offset),
            (None, Some(true), Some(20))
        );
    }

    #[test]
    fn upstream_window_infers_the_end_only_from_a_short_page() {
        let full = upstream((0..20).collect::<Vec<_>>(), p(40, 20), Unit::Media);
        assert_eq!(
            (full.page.total, full.page.has_more, full.page.next_offset),
            (None, None, Some(60))
        );
        assert_eq!(full.page.mode, "upstream");
        let short = upstream((0..7).collect::<Vec<_>>(), p(40, 20), Unit::Media);
        assert_eq!(
            (short.page.has_more, short.page.next_offset),
            (Some(false), None)
        );
    }
}
