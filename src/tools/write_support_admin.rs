//! Helpers the administration writes share: a settings section read whole,
//! as Ombi serves it (secrets included: it is re-sent, never shown), the
//! Ombi accounts (ids, names, whether an e-mail address is set), and the
//! outcome of a write over several items.

use serde::Deserialize;
use serde_json::Value;

use super::CallCtx;
use super::ctx::reply;
use crate::contract::{ErrorCode, Failure, Outcome, ToolError};
use crate::projection::mutation::{ItemResult, Mutation, Outcome as Done};
use crate::projection::settings::Section;
use crate::upstream::Route;

/// The whole settings object of `section` as Ombi serves it; `Null` when
/// Ombi has none (204). Settings objects are small (KiBs).
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
