//! What the write tools share: the note on writes made as Ombi's internal
//! API user, a request's state in words for the read-back every create and
//! vote reports (see `docs/ombi-notes.md`, "Details routes show a title's
//! request state"), the settings section a settings write starts from, the
//! Ombi accounts, and the results of writes done in part or over several
//! items. The request reads they check state with live beside the other
//! request reads in `read_requests.rs`; the acting user in `ctx.rs`.

use serde::Deserialize;
use serde_json::Value;

use super::CallCtx;
use super::ctx::reply;
use super::read_requests::existing_request;
use crate::contract::{ErrorCode, Failure, Outcome, ToolError};
use crate::definition::params::MediaKind;
use crate::projection::mutation::{ItemResult, Mutation, Outcome as Done};
use crate::projection::requests::RequestRecord;
use crate::projection::settings::Section;
use crate::text::message::sanitize;
use crate::upstream::{RequestEngineResult, Route};

/// With a bare API key Ombi acts as its internal `Api` user (an admin whose
/// requests are approved at once): say whose `what` it is.
pub fn note_api_user(ctx: &CallCtx, what: &str, warnings: &mut Vec<String>) {
    if ctx.ombi_user().is_none() {
        warnings.push(format!(
            "no acting Ombi user (set `ombi_user` in the peer policy or OMBI_USER_NAME): {what} Ombi's internal API user's"
        ));
    }
}

// ---------------------------------------------------------------- request state

/// Where a request stands, in words, from the record read back (4K state
/// when `is_4k`).
pub fn state_phrase(r: &RequestRecord, is_4k: bool) -> &'static str {
    let (approved, available, denied) = if is_4k {
        (r.approved_4k, r.available_4k, r.denied_4k)
    } else {
        (r.approved, r.available, r.denied)
    };
    match (available, denied, approved) {
        (Some(true), ..) => "available",
        (_, Some(true), _) => "denied",
        (_, _, Some(true)) => "approved",
        (_, _, Some(false)) => "waiting for approval",
        _ => "in an unknown state",
    }
}

/// Whether a request can still take votes: Ombi lists only requests that
/// are neither approved, available nor denied as open for voting.
pub fn is_pending(r: &RequestRecord) -> bool {
    r.approved != Some(true) && r.available != Some(true) && r.denied != Some(true)
}

// ---------------------------------------------------------------- admin reads

/// The whole settings object of `section` as Ombi serves it (secrets
/// included: it is re-sent, never shown); `Null` when Ombi has none (204).
/// Settings objects are small (KiBs).
pub async fn read_section(ctx: &CallCtx, section: &Section) -> Result<Value, ToolError> {
    Ok(ctx
        .get_json::<Value>(Route::get(section.path))
        .await?
        .unwrap_or(Value::Null))
}

/// An Ombi account as `UserViewModel` carries it; of the e-mail address
/// only whether one is set is kept.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Account {
    #[serde(default)]
    pub id: String,
    #[serde(default)]
    pub user_name: String,
    #[serde(
        default,
        rename = "emailAddress",
        deserialize_with = "crate::projection::users::is_set"
    )]
    pub has_email: bool,
}

/// Every account (`GET /api/v1/Identity/Users`, power user), and whether
/// the list was cut by the read limit (then an id not seen may still exist).
pub async fn accounts(
    ctx: &CallCtx,
    warnings: &mut Vec<String>,
) -> Result<(Vec<Account>, bool), ToolError> {
    let got = ctx
        .read_list::<Account>(Route::get("api/v1/Identity/Users"), warnings)
        .await?;
    Ok((got.value, got.cut))
}

// ---------------------------------------------------------------- results

/// A mutation carrying Ombi's own `result` / `isError`, as answered.
pub fn with_answer(mut m: Mutation, r: &RequestEngineResult) -> Mutation {
    m.upstream_result = Some(r.result);
    m.upstream_is_error = Some(r.is_error);
    m
}

/// A write that happened only in part: `ok: false`, PARTIAL_FAILURE, with
/// the mutation (outcome `partial`) as `data`, so the caller sees both.
pub fn partly_done(m: Mutation, warnings: Vec<String>) -> Failure {
    Failure {
        error: ToolError::new(
            ErrorCode::PartialFailure,
            m.message
                .clone()
                .unwrap_or_else(|| "only part of the change was made".into()),
        ),
        data: Some(m.into_data()),
        warnings,
    }
}

/// The result of a write made of several items, each item's outcome known:
/// all done → `mutation` with `outcome` (completed or accepted); none done →
/// `first_error` with the rejected result as data; some → PARTIAL_FAILURE
/// with the partial result.
pub fn settle(
    mut mutation: Mutation,
    outcome: Done,
    first_error: Option<ToolError>,
    warnings: Vec<String>,
) -> Outcome {
    let failed = mutation
        .item_results
        .iter()
        .filter(|i| i.outcome == Done::Rejected)
        .count();
    let total = mutation.item_results.len();
    if failed == 0 {
        mutation.outcome = outcome;
        return Ok(reply(mutation.into_data(), warnings, false));
    }
    let error = if failed == total {
        mutation.outcome = Done::Rejected;
        first_error
            .unwrap_or_else(|| ToolError::new(ErrorCode::UpstreamRejected, "Ombi refused it"))
    } else {
        mutation.outcome = Done::Partial;
        ToolError::new(
            ErrorCode::PartialFailure,
            format!(
                "{} of {total} items failed{}",
                failed,
                first_error
                    .map(|e| format!(" (first: {})", e.message))
                    .unwrap_or_default()
            ),
        )
    };
    Err(Failure {
        error,
        data: Some(mutation.into_data()),
        warnings,
    })
}

/// One item's result.
pub fn item(identifier: impl Into<String>, outcome: Done, message: Option<String>) -> ItemResult {
    ItemResult {
        identifier: identifier.into(),
        outcome,
        message,
    }
}

// ---------------------------------------------------------------- confirmations

/// A request named for a confirmation: "the movie request for “Dune”
/// (request 12, requested by alice)". People-written text is cleaned and
/// bounded like an Ombi message.
pub fn named_request(noun: &str, id: i64, title: Option<&str>, by: Option<&str>) -> String {
    let clean = |t: Option<&str>| t.map(sanitize).filter(|t| !t.is_empty());
    let by = clean(by)
        .map(|name| format!(", requested by {name}"))
        .unwrap_or_default();
    match clean(title) {
        Some(title) => format!("the {noun} request for “{title}” (request {id}{by})"),
        None => format!("{noun} request {id}{by}"),
    }
}

/// The request a confirmed write names, in words, from one bounded read of
/// it (NOT_FOUND when Ombi does not know it).
pub async fn request_in_words(
    ctx: &CallCtx,
    media: MediaKind,
    id: i64,
) -> Result<String, ToolError> {
    let r = existing_request(ctx, media, id, &mut Vec::new()).await?;
    Ok(named_request(
        media.noun(),
        id,
        r.title.as_deref(),
        r.requested_user_name.as_deref(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_in_words() {
        let mut r = RequestRecord::new(crate::contract::TargetKind::Movie, 1);
        assert_eq!(state_phrase(&r, false), "in an unknown state");
        r.approved = Some(false);
        assert_eq!(state_phrase(&r, false), "waiting for approval");
        assert!(is_pending(&r));
        r.approved = Some(true);
        assert_eq!(state_phrase(&r, false), "approved");
        assert!(!is_pending(&r));
        r.available = Some(true);
        assert_eq!(state_phrase(&r, false), "available");
        assert_eq!(state_phrase(&r, true), "in an unknown state");
        r.approved_4k = Some(false);
        assert_eq!(state_phrase(&r, true), "waiting for approval");
    }
}
