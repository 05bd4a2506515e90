//! Ombi's accounts as the user and notification tools read them.

use serde::Deserialize;

use crate::contract::ToolError;
use crate::tools::CallCtx;
use crate::upstream::Route;

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
