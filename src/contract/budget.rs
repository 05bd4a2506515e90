//! Response budgets (`docs/contract.md`): 64 KiB of serialized structured
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

/// Serialized size in bytes (counted, not buffered).
pub fn size_of<T: serde::Serialize + ?Sized>(v: &T) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0 += b.len();
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut c = Count(0);
    match serde_json::to_writer(&mut c, v) {
        Ok(()) => c.0,
        Err(_) => usize::MAX,
    }
}

/// Applies every budget to an envelope object in place (`data`, `warnings`,
/// `truncated`, `error`) and returns its serialization, ≤ [`MAX_BYTES`]. A
/// result within budget (the usual case) is serialized exactly once: the
/// measurement is the text that goes on the wire.
pub fn apply(env: &mut Map<String, Value>) -> String {
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
        notes.push("shortened the error message".into());
        cut = true;
    }
    if let Some(Value::Array(w)) = env.get_mut("warnings") {
        // Room for the budget's own notes (at most four).
        let keep = MAX_WARNINGS - 5;
        if w.len() > keep {
            let extra = w.len() - keep;
            w.truncate(keep);
            notes.push(format!("dropped {extra} further warnings"));
            cut = true;
        }
        for x in w.iter_mut() {
            if let Value::String(s) = x
                && let Some(short) = shorten(s, MAX_MESSAGE_CHARS)
            {
                *s = short;
            }
        }
    }

    let target = MAX_BYTES - SLACK;
    let json = serialize(env);
    if json.len() <= target && notes.is_empty() && env.get("warnings").is_some_and(Value::is_array)
    {
        return json;
    }
    if json.len() > target {
        cut |= shorten_texts(env, target, &mut notes);
    }
    if size_of(&*env) > target {
        cut |= drop_records(env, target, &mut notes);
    }
    if size_of(&*env) > target {
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
            let mut total = size_of(&*w);
            while w.len() > 10 && total > MAX_BYTES / 4 {
                total -= w.pop().map(|x| size_of(&x) + 1).unwrap_or(0);
                cut = true;
            }
        }
    }

    if !env.get("warnings").is_some_and(Value::is_array) {
        env.insert("warnings".into(), Value::Array(Vec::new()));
    }
    if let Some(Value::Array(w)) = env.get_mut("warnings") {
        w.truncate(MAX_WARNINGS.saturating_sub(notes.len()));
        w.extend(notes.into_iter().map(Value::String));
    }
    if cut {
        env.insert("truncated".into(), Value::Bool(true));
    }
    serialize(env)
}

/// An object with string keys always serializes; the fallback is unreachable.
fn serialize(env: &Map<String, Value>) -> String {
    serde_json::to_string(env).unwrap_or_default()
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
        if size_of(&*env) <= target {
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
        let over = size_of(&*env).saturating_sub(target);
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn env(data: Value) -> Map<String, Value> {
        match json!({"ok": true, "operation": "t", "data": data, "warnings": [], "truncated": false, "correlation_id": "c"})
        {
            Value::Object(m) => m,
            _ => unreachable!(),
        }
    }

    #[test]
    fn shorten_respects_char_boundaries() {
        assert_eq!(shorten("ab", 2), None);
        assert_eq!(shorten("日本語テキスト", 3).as_deref(), Some("日本語…"));
        assert_eq!(shorten("", 0), None);
    }

    #[test]
    fn size_of_counts_serialized_bytes() {
        let v = json!({"a": [1, "ü"]});
        assert_eq!(size_of(&v), serde_json::to_vec(&v).unwrap().len());
    }

    #[test]
    fn untouched_when_within_budget() {
        let mut e = env(
            json!({"kind": "metrics", "values": [{"name": "n", "value": 1, "scope": "instance"}]}),
        );
        let before = e.clone();
        let json = apply(&mut e);
        assert_eq!(e, before);
        assert_eq!(json, serde_json::to_string(&e).unwrap());
    }

    /// The returned text is the envelope as cut, whichever path was taken.
    #[test]
    fn returns_the_serialization_of_what_it_kept() {
        let long = "x".repeat(5000);
        let items: Vec<Value> = (0..100)
            .map(|i| json!({"id": i, "overview": long}))
            .collect();
        let mut cut = env(json!({"kind": "media_page", "items": items}));
        let mut many_warnings = env(json!({"kind": "metrics", "values": []}));
        many_warnings.insert("warnings".into(), json!(vec!["w"; 300]));
        let mut no_warnings = env(json!({"kind": "metrics", "values": []}));
        no_warnings.remove("warnings");
        for e in [&mut cut, &mut many_warnings, &mut no_warnings] {
            let json = apply(e);
            assert_eq!(json, serde_json::to_string(&*e).unwrap());
            assert!(json.len() <= MAX_BYTES);
        }
        assert_eq!(cut["truncated"], true);
        assert_eq!(no_warnings["warnings"], json!([]));
    }

    #[test]
    fn mutation_item_results_are_capped() {
        let items: Vec<Value> = (0..250)
            .map(|i| json!({"identifier": i.to_string(), "outcome": "completed"}))
            .collect();
        let mut e = env(json!({"kind": "mutation", "outcome": "partial", "item_results": items}));
        apply(&mut e);
        assert_eq!(
            e["data"]["item_results"].as_array().map(Vec::len),
            Some(100)
        );
        assert_eq!(e["truncated"], true);
        assert_eq!(
            e["warnings"][0],
            "dropped 150 of 250 item_results (at most 100 per result)"
        );
    }

    #[test]
    fn keeps_at_most_100_warnings() {
        let mut e = env(json!({"kind": "metrics", "values": []}));
        e.insert(
            "warnings".into(),
            Value::Array((0..300).map(|i| json!(format!("w{i}"))).collect()),
        );
        apply(&mut e);
        let w = e["warnings"].as_array().map(Vec::len).unwrap_or(0);
        assert!(w <= MAX_WARNINGS, "{w}");
        assert_eq!(e["truncated"], true);
    }
}
