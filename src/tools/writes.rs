//! What the write tools of every domain share: the note on writes made as
//! Ombi's internal API user, and the results of writes done in part or over
//! several items. A domain's own shared pieces live in its folder
//! (`requests/words.rs`: a request in words; `server/mod.rs`: the settings
//! section a settings write starts from; `users/mod.rs`: the Ombi accounts).

use crate::tools::reply;

use super::CallCtx;
use crate::contract::{ErrorCode, Failure, Outcome, ToolError};
use crate::projection::mutation::{ItemResult, Mutation, Outcome as Done};

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

// ---------------------------------------------------------------- mixed-up ids

// ---------------------------------------------------------------- admin reads

// ---------------------------------------------------------------- results

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
