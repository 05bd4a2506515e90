//! The `page` object (`$defs/paging`) for lists Ombi does not page itself:
//! a window cut locally out of one bounded array read, and the single-item
//! "page" of a lookup. Totals are only claimed when the whole array arrived.

use serde_json::{Value, json};

use crate::catalogue::Page;

/// Records per result (`$defs/*_page.items.maxItems`).
pub const MAX_ITEMS: usize = 100;

/// The window `page` asks for out of `items`, and its `page` object.
/// `complete` is false when the upstream read was cut by the byte cap: the
/// total is then unknown, and "more" is only claimed when records we hold
/// lie past the window.
pub fn window<T>(items: Vec<T>, page: Page, complete: bool, unit: &str) -> (Vec<T>, Value) {
    let limit = (page.limit as usize).clamp(1, MAX_ITEMS);
    let offset = usize::try_from(page.offset).unwrap_or(usize::MAX);
    let held = items.len();
    let out: Vec<T> = items.into_iter().skip(offset).take(limit).collect();
    let returned = out.len();
    let end = offset.saturating_add(returned);
    let (total, has_more, next) = if complete {
        let more = end < held;
        (
            json!(held),
            json!(more),
            if more { json!(end) } else { Value::Null },
        )
    } else if end < held {
        (Value::Null, json!(true), json!(end))
    } else {
        (Value::Null, Value::Null, Value::Null)
    };
    let paging = json!({
        "offset": page.offset, "limit": limit, "returned": returned,
        "total": total, "has_more": has_more, "next_offset": next,
        "mode": "local", "unit": unit,
    });
    (out, paging)
}

/// The first [`MAX_ITEMS`] of a complete list (tools without a `page` argument).
pub fn first<T>(items: Vec<T>, complete: bool, unit: &str) -> (Vec<T>, Value) {
    window(
        items,
        Page {
            offset: 0,
            limit: MAX_ITEMS as u64,
        },
        complete,
        unit,
    )
}

/// The `page` of a single lookup (`mode: none`).
pub fn single(returned: usize, unit: &str) -> Value {
    json!({
        "offset": 0, "limit": returned.clamp(1, MAX_ITEMS), "returned": returned,
        "total": returned, "has_more": false, "next_offset": null,
        "mode": "none", "unit": unit,
    })
}

/// A warning when a list did not fit one result.
pub fn more_warning(paging: &Value, what: &str) -> Option<String> {
    (paging["has_more"] == json!(true)).then(|| {
        let of = if paging["total"].is_null() {
            String::new()
        } else {
            format!(" of {}", paging["total"])
        };
        format!("only {}{of} {what} are shown", paging["returned"])
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(offset: u64, limit: u64) -> Page {
        Page { offset, limit }
    }

    #[test]
    fn complete_list_windows_with_total_and_continuation() {
        let (items, p) = window((1..=25).collect::<Vec<_>>(), page(20, 10), true, "users");
        assert_eq!(items, vec![21, 22, 23, 24, 25]);
        assert_eq!(p["total"], 25);
        assert_eq!(p["has_more"], false);
        assert!(p["next_offset"].is_null());
        let (items, p) = window((1..=25).collect::<Vec<_>>(), page(0, 10), true, "users");
        assert_eq!(items.len(), 10);
        assert_eq!(
            (p["has_more"].clone(), p["next_offset"].clone()),
            (json!(true), json!(10))
        );
    }

    #[test]
    fn cut_list_never_claims_a_total() {
        let (_, p) = window((1..=25).collect::<Vec<_>>(), page(0, 10), false, "users");
        assert!(p["total"].is_null());
        assert_eq!(p["has_more"], true);
        let (_, p) = window((1..=25).collect::<Vec<_>>(), page(20, 10), false, "users");
        assert!(p["total"].is_null() && p["has_more"].is_null() && p["next_offset"].is_null());
    }

    #[test]
    fn offset_past_the_end_is_an_empty_window() {
        let (items, p) = window(vec![1, 2], page(50, 10), true, "references");
        assert!(items.is_empty());
        assert_eq!(p["returned"], 0);
        assert_eq!(p["has_more"], false);
    }
}
