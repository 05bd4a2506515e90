//! Parts of docs/ made from the code: a part sits between two marker lines;
//! a test compares it with what the code makes now, and `UPDATE_DOCS=1`
//! rewrites it (review the diff, then commit).

use std::path::Path;

/// Checks the part of `doc` (a path below the crate root) between `begin`
/// and `end` against `want` (which starts with `begin` and ends with `end`).
pub fn check_generated(doc: &str, begin: &str, end: &str, want: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(doc);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{doc}: {e}"));
    let (Some(b), Some(e)) = (text.find(begin), text.find(end)) else {
        panic!("{doc} lacks the generated-part markers {begin:?} … {end:?}");
    };
    let current = &text[b..e + end.len()];
    if current == want {
        return;
    }
    if std::env::var("UPDATE_DOCS").is_ok_and(|v| v == "1") {
        let rewritten = format!("{}{want}{}", &text[..b], &text[e + end.len()..]);
        std::fs::write(&path, rewritten).unwrap();
        return;
    }
    panic!(
        "{doc}'s generated part differs from the code: run with UPDATE_DOCS=1 and review the diff"
    );
}
