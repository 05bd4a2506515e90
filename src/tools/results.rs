//! The shapes a handler's answer takes, each worded once: a reply, a page
//! windowed out of one bounded read, a partly read answer, "not found"
//! (including the routes where Ombi answers an unknown id with a 500), and
//! the note for a `language` a route cannot pass on.

use serde::Serialize;
use serde_json::Value;

use crate::contract::{ErrorCode, Failure, Family, Outcome, Reply, ToolError};
use crate::definition::Page;
use crate::projection::paging::{self, page_object};

/// A successful result.
pub fn reply(data: Value, warnings: Vec<String>, truncated: bool) -> Reply {
    Reply::new(data, warnings, truncated)
}

/// A `family` page windowed locally out of one bounded array read. `cut`
/// (the read hit the cap) leaves the total unknown and marks it truncated.
pub fn local_page<T: Serialize>(
    family: Family,
    unit: &'static str,
    items: Vec<T>,
    page: Page,
    cut: bool,
    warnings: Vec<String>,
) -> Outcome {
    let w = paging::local(items, page, !cut, unit);
    Ok(reply(page_object(family, w.items, &w.page), warnings, cut))
}

/// A result with `data` of which one part could not be read (`first` says why).
pub fn partial(data: Value, first: ToolError, warnings: Vec<String>) -> Failure {
    Failure {
        error: ToolError::new(
            ErrorCode::PartialFailure,
            format!("only part of the answer could be read: {}", first.message),
        ),
        data: Some(data),
        warnings,
    }
}

/// NOT_FOUND for `what` ("movie request 12", "keyword 5").
pub fn not_found(what: &str) -> ToolError {
    ToolError::new(ErrorCode::NotFound, format!("{what} was not found"))
}

/// On the routes where Ombi dereferences a missing record (an unknown id
/// answers HTTP 500, see `docs/ombi-notes.md`), a 500 means NOT_FOUND; other
/// errors pass through. Use it only on those routes: elsewhere a 500 is a
/// real failure.
pub fn not_found_on_500(e: ToolError, what: &str) -> ToolError {
    if e.code == ErrorCode::UpstreamRejected && e.http_status == Some(500) {
        ToolError::new(
            ErrorCode::NotFound,
            format!(
                "{what} was not found (Ombi answers an unknown id on this route with HTTP 500)"
            ),
        )
        .with_status(500)
    } else {
        e
    }
}

/// On a route that answers an id it does not know with Ombi's null
/// dereference (HTTP 500 "Object reference not set to an instance of an
/// object.") but passes a provider's failure on as a 500 of its own text, only
/// the former means NOT_FOUND; the exception text is never the answer.
pub fn not_found_on_null_dereference(e: ToolError, what: &str) -> ToolError {
    if e.http_status == Some(500) && e.message.contains("Object reference not set") {
        not_found_on_500(e, what)
    } else {
        e
    }
}

/// A note when a `language` argument cannot be passed on by the route.
pub fn language_ignored(language: Option<&str>, warnings: &mut Vec<String>) {
    if language.is_some() {
        warnings.push(
            "this Ombi route takes no language; titles come in the acting user's Ombi language"
                .into(),
        );
    }
}
