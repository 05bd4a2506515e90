//! Helpers every handler domain shares: the acting user, building a reply,
//! required arguments, and Ombi's `*/enabled` switches (Lidarr gates music).

use serde::Serialize;
use serde_json::Value;

use super::{CallCtx, Failure, Outcome, Reply};
use crate::catalogue::{Args, Page};
use crate::contract::{ErrorCode, ToolError};
use crate::projection::paging::{self, page_object};
use crate::upstream::Route;

/// Ombi's switch for music (anonymous, a bool).
pub(super) const LIDARR_ENABLED: &str = "api/v1/Lidarr/enabled";

/// The Ombi user this call acts as (api_key mode's `UserName`).
pub(super) fn acting(ctx: &CallCtx) -> Option<&str> {
    ctx.identity.ombi_user.as_deref()
}

/// A successful result.
pub(super) fn reply(data: Value, warnings: Vec<String>, truncated: bool) -> Reply {
    Reply {
        data,
        warnings,
        truncated,
    }
}

/// A `kind` page windowed locally out of one bounded array read. `cut` (the
/// read hit the cap) leaves the total unknown and marks the result truncated.
pub(super) fn local_page<T: Serialize>(
    kind: &str,
    unit: &'static str,
    items: Vec<T>,
    page: Page,
    cut: bool,
    warnings: Vec<String>,
) -> Outcome {
    let w = paging::local(items, page, !cut, unit);
    let items = w
        .items
        .iter()
        .map(|i| serde_json::to_value(i).unwrap_or(Value::Null))
        .collect();
    Ok(reply(page_object(kind, items, &w.page), warnings, cut))
}

/// A result with `data` of which one part could not be read (`first` says why).
pub(super) fn partial(data: Value, first: ToolError, warnings: Vec<String>) -> Failure {
    Failure {
        error: ToolError::new(
            ErrorCode::PartialFailure,
            format!("only part of the answer could be read: {}", first.message),
        ),
        data: Some(data),
        warnings,
    }
}

/// A required argument the catalogue already validated per action; its
/// absence is a bug in the table, reported as an argument error, never a panic.
pub(super) fn required_str<'a>(args: &'a Args, name: &str) -> Result<&'a str, ToolError> {
    args.str(name).ok_or_else(|| {
        ToolError::invalid(
            format!("/{name}"),
            format!("`{name}` is required for this action"),
        )
    })
}

/// A required integer argument (any value the catalogue allowed).
pub(super) fn required_int(args: &Args, name: &str) -> Result<i64, ToolError> {
    args.int(name).ok_or_else(|| {
        ToolError::invalid(
            format!("/{name}"),
            format!("`{name}` is required for this action"),
        )
    })
}

/// A required Ombi id (positive).
pub(super) fn required_id(args: &Args, name: &str) -> Result<i64, ToolError> {
    args.int(name).filter(|i| *i > 0).ok_or_else(|| {
        ToolError::invalid(
            format!("/{name}"),
            format!("`{name}` (a positive id) is required for this action"),
        )
    })
}

/// One of Ombi's `*/enabled` switches; a missing answer counts as off.
pub(super) async fn enabled(ctx: &CallCtx, path: &'static str) -> Result<bool, ToolError> {
    Ok(ctx
        .upstream
        .get_json::<bool>(acting(ctx), Route::get(path))
        .await?
        .unwrap_or(false))
}

/// Whether Lidarr (music) is enabled.
pub(super) async fn lidarr_enabled(ctx: &CallCtx) -> Result<bool, ToolError> {
    enabled(ctx, LIDARR_ENABLED).await
}

/// The v1 music search routes need Lidarr: without it Ombi answers them
/// with a 500, so say why up front. (The v2 MusicBrainz lookups and the
/// album request reads work without it: docs/ombi-notes.md.) `why` is the
/// domain's message.
pub(super) async fn require_lidarr(ctx: &CallCtx, why: &'static str) -> Result<(), ToolError> {
    if lidarr_enabled(ctx).await? {
        Ok(())
    } else {
        Err(ToolError::new(ErrorCode::UnsupportedCapability, why))
    }
}
