//! Response budgets (`spec/04-results.md`): 64 KiB of serialized structured
//! content, 100 records per page, 100 nested records per array, 500 log lines.
//! Cuts happen in a fixed order — array caps, then long text shortened, then
//! records dropped from the end — and every cut sets `truncated` and says what
//! was cut in `warnings`, with `page` fixed up so paging stays honest.

use serde_json::{Map, Value};

/// Upper bound of the whole envelope (`structuredContent`), serialized.
pub const MAX_BYTES: usize = 64 * 1024;
pub const MAX_RECORDS: usize = 100;
pub const MAX_NESTED: usize = 100;
pub const MAX_LOG_LINES: usize = 500;
pub const MAX_WARNINGS: usize = 100;
/// Longest single warning / error message kept (characters).
pub const MAX_MESSAGE_CHARS: usize = 1000;
/// Marks a shortened string.
pub const ELLIPSIS: &str = "…";

/// Room kept below [`MAX_BYTES`] for the warnings the budget itself adds.
const SLACK: usize = 2048;
/// Text fields shortened before any record is dropped.
const TEXT_KEYS: &[&str] = &[
    "overview",
    "description",
    "comment",
    "message",
    "reason",
    "denied_reason",
    "status_text",
    "title",
    "subject",
    "lines",
];
/// Successive length limits for long text.
const TEXT_LIMITS: &[usize] = &[2000, 1000, 500, 250, 120];
/// The family arrays records are dropped from, most expendable first.
const RECORD_ARRAYS: &[&str] = &[
    "items",
    "values",
    "lines",
    "files",
    "item_results",
    "omitted_fields",
];

/// Keeps the first `max` elements; returns them and how many were dropped.
pub fn cap_items<T>(mut v: Vec<T>, max: usize) -> (Vec<T>, usize) {
    let dropped = v.len().saturating_sub(max);
    v.truncate(max);
    (v, dropped)
}

/// `s` cut to `max_chars` characters plus [`ELLIPSIS`], or `None` if it fits.
pub fn shorten(s: &str, max_chars: usize) -> Option<String> {
    let mut it = s.char_indices();
    let (cut, _) = it.nth(max_chars)?;
    Some(format!("{}{ELLIPSIS}", &s[..cut]))
}

/// Serialized size of a value in bytes.
pub fn size_of(v: &Value) -> usize {
    serde_json::to_vec(v).map(|b| b.len()).unwrap_or(usize::MAX)
}

/// Applies every budget to an envelope object in place (`data`, `warnings`,
/// `truncated`, `error`). Afterwards the envelope serializes to ≤ [`MAX_BYTES`].
pub fn apply(env: &mut Map<String, Value>) {
    let mut notes: Vec<String> = Vec::new();
    let mut cut = false;

    if let Some(Value::Object(data)) = env.get_mut("data") {
        cut |= cap_arrays(data, &mut notes);
    }
    if let Some(Value::Object(err)) = env.get_mut("error")
        && let Some(Value::String(m)) = err.get_mut("message")
        && let Some(s) = shorten(m, MAX_MESSAGE_CHARS)
    {
        *m = s;
    }
    if let Some(Value::Array(w)) = env.get_mut("warnings") {
        for x in w.iter_mut() {
            if let Value::String(s) = x
                && let Some(short) = shorten(s, MAX_MESSAGE_CHARS)
            {
                *s = short;
            }
        }
    }

    let target = MAX_BYTES - SLACK;
    if size_of(&Value::Object(env.clone())) > target {
        cut |= shorten_texts(env, target, &mut notes);
    }
    if size_of(&Value::Object(env.clone())) > target {
        cut |= drop_records(env, target, &mut notes);
    }
    if size_of(&Value::Object(env.clone())) > target {
        // Last resort (text outside the known fields, many warnings): every
        // string shortened hard, then caller warnings thinned.
        if let Some(d) = env.get_mut("data") {
            let n = shorten_all(d, 64);
            if n > 0 {
                notes.push(format!("shortened {n} text values to fit 64 KiB"));
                cut = true;
            }
        }
        if let Some(Value::Array(w)) = env.get_mut("warnings") {
            while w.len() > 10 && size_of(&Value::Array(w.clone())) > MAX_BYTES / 4 {
                w.pop();
                cut = true;
            }
        }
    }

    let w = match env.get_mut("warnings") {
        Some(Value::Array(w)) => w,
        _ => {
            env.insert("warnings".into(), Value::Array(Vec::new()));
            match env.get_mut("warnings") {
                Some(Value::Array(w)) => w,
                _ => return,
            }
        }
    };
    let keep = MAX_WARNINGS - notes.len().min(MAX_WARNINGS);
    if w.len() > keep {
        w.truncate(keep.saturating_sub(1));
        notes.push("further warnings were dropped".into());
        cut = true;
    }
    w.extend(notes.into_iter().map(Value::String));
    if cut {
        env.insert("truncated".into(), Value::Bool(true));
    }
}

/// Caps every array in `data`: 500 for log `lines`, 100 otherwise.
fn cap_arrays(data: &mut Map<String, Value>, notes: &mut Vec<String>) -> bool {
    let mut cut = false;
    for key in RECORD_ARRAYS {
        let max = if *key == "lines" {
            MAX_LOG_LINES
        } else {
            MAX_RECORDS
        };
        if let Some(Value::Array(a)) = data.get_mut(*key)
            && a.len() > max
        {
            let total = a.len();
            a.truncate(max);
            notes.push(format!(
                "dropped {} of {total} {key} (at most {max} per result)",
                total - max
            ));
            fix_paging(data);
            cut = true;
        }
    }
    let mut nested = 0;
    for (_, v) in data.iter_mut() {
        nested += cap_nested(v);
    }
    if nested > 0 {
        notes.push(format!("cut {nested} nested lists to {MAX_NESTED} records"));
        cut = true;
    }
    cut
}

/// Caps arrays below the family level; marks a sibling `truncated` flag.
fn cap_nested(v: &mut Value) -> usize {
    let mut n = 0;
    match v {
        Value::Array(a) => {
            for x in a.iter_mut() {
                n += cap_nested(x);
            }
        }
        Value::Object(m) => {
            let mut capped = false;
            for (_, x) in m.iter_mut() {
                if let Value::Array(a) = x
                    && a.len() > MAX_NESTED
                {
                    a.truncate(MAX_NESTED);
                    n += 1;
                    capped = true;
                }
                n += cap_nested(x);
            }
            if capped && matches!(m.get("truncated"), Some(Value::Bool(_))) {
                m.insert("truncated".into(), Value::Bool(true));
            }
        }
        _ => {}
    }
    n
}

/// After records were removed: `page.returned` = items kept, and when fewer
/// than the window were returned, `has_more: true`, `next_offset` past them.
/// For logs: `truncated` and `next_offset` after the lines kept.
fn fix_paging(data: &mut Map<String, Value>) {
    if let Some(Value::Array(items)) = data.get("items") {
        let returned = items.len() as u64;
        if let Some(Value::Object(page)) = data.get_mut("page") {
            let offset = page.get("offset").and_then(Value::as_u64).unwrap_or(0);
            page.insert("returned".into(), returned.into());
            page.insert("has_more".into(), Value::Bool(true));
            page.insert("next_offset".into(), (offset + returned).into());
        }
    }
    if data.get("kind").and_then(Value::as_str) == Some("logs") {
        let kept = data.get("lines").and_then(Value::as_array).map(Vec::len);
        data.insert("truncated".into(), Value::Bool(true));
        if let (Some(kept), Some(offset)) = (kept, data.get("offset").and_then(Value::as_u64)) {
            data.insert("next_offset".into(), (offset + kept as u64).into());
        }
    }
}

fn shorten_texts(env: &mut Map<String, Value>, target: usize, notes: &mut Vec<String>) -> bool {
    // Each pass shortens every known text field above the limit; a field cut
    // in an earlier pass is cut again, so the last pass counts them all.
    let mut total = 0;
    for &limit in TEXT_LIMITS {
        let Some(data) = env.get_mut("data") else {
            return false;
        };
        total = total.max(shorten_known(data, limit, false));
        if size_of(&Value::Object(env.clone())) <= target {
            break;
        }
    }
    if total > 0 {
        notes.push(format!("shortened {total} long text fields"));
    }
    total > 0
}

/// Shortens strings under [`TEXT_KEYS`] longer than `limit`; returns how many.
fn shorten_known(v: &mut Value, limit: usize, in_text: bool) -> usize {
    match v {
        Value::String(s) if in_text => match shorten(s, limit) {
            Some(short) => {
                *s = short;
                1
            }
            None => 0,
        },
        Value::Array(a) => a.iter_mut().map(|x| shorten_known(x, limit, in_text)).sum(),
        Value::Object(m) => m
            .iter_mut()
            .map(|(k, x)| shorten_known(x, limit, TEXT_KEYS.contains(&k.as_str())))
            .sum(),
        _ => 0,
    }
}

fn shorten_all(v: &mut Value, limit: usize) -> usize {
    match v {
        Value::String(s) => match shorten(s, limit) {
            Some(short) => {
                *s = short;
                1
            }
            None => 0,
        },
        Value::Array(a) => a.iter_mut().map(|x| shorten_all(x, limit)).sum(),
        Value::Object(m) => m.iter_mut().map(|(_, x)| shorten_all(x, limit)).sum(),
        _ => 0,
    }
}

/// Drops records from the end of the family's record arrays until it fits.
fn drop_records(env: &mut Map<String, Value>, target: usize, notes: &mut Vec<String>) -> bool {
    let mut cut = false;
    for key in RECORD_ARRAYS {
        let over = size_of(&Value::Object(env.clone())).saturating_sub(target);
        if over == 0 {
            break;
        }
        let Some(Value::Object(data)) = env.get_mut("data") else {
            return cut;
        };
        let Some(Value::Array(a)) = data.get_mut(*key) else {
            continue;
        };
        let total = a.len();
        // Remove from the end until the removed bytes cover the excess (+ a
        // comma per element).
        let mut freed = 0;
        while freed < over && !a.is_empty() {
            let last = a.pop().unwrap_or(Value::Null);
            freed += size_of(&last) + 1;
        }
        let dropped = total - a.len();
        if dropped > 0 {
            notes.push(format!("dropped {dropped} of {total} {key} to fit 64 KiB"));
            fix_paging(data);
            cut = true;
        }
    }
    cut
}
