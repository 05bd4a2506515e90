//! Helpers the moderation writes share (`write_request_moderate`,
//! `write_request_options`, `write_request_reprocess`, `write_request_delete`,
//! `write_issue_manage`): a write answer read as Ombi gave it, and the
//! request reads they check state with before or after a write.

use serde::de::DeserializeOwned;

use super::CallCtx;
use super::ctx::{not_found, not_found_on_500};
use crate::contract::TargetKind;
use crate::contract::{ErrorCode, ToolError};
use crate::projection::mutation::Mutation;
use crate::projection::requests::{ChildId, MovieRequest, TvParent};
use crate::upstream::{RequestEngineResult, Route};

/// A write whose answer the tool interprets itself (an album deny's
/// `result: false` that means success, a bare `false` that means "not
/// found"): the answer as Ombi gave it, unchecked. Transport and status
/// failures are mapped as for every write; an empty answer after the write
/// was sent is `UNKNOWN_OUTCOME`.
pub async fn answer<T: DeserializeOwned>(ctx: &CallCtx, route: Route) -> Result<T, ToolError> {
    let what = route.to_string();
    ctx.upstream
        .write_json::<T>(ctx.acting(), route)
        .await?
        .ok_or_else(|| {
            ToolError::new(
                ErrorCode::UnknownOutcome,
                format!(
                    "Ombi answered {what} with no result; the change may or may not have been made: read before retrying"
                ),
            )
            .retryable(false)
        })
}

/// A movie request (`GET api/v1/Request/movie/info/{id}`; Ombi answers an
/// unknown id with a 500: `docs/ombi-notes.md`, "Reading one request").
pub async fn movie(ctx: &CallCtx, id: i64) -> Result<MovieRequest, ToolError> {
    let what = format!("movie request {id}");
    ctx.get_json::<MovieRequest>(Route::get("api/v1/Request/movie/info").seg(id))
        .await
        .map_err(|e| not_found_on_500(e, &what))?
        .ok_or_else(|| not_found(&what))
}

/// A TV parent request with its children's ids (`GET api/v1/Request/tv/{id}`;
/// an unknown id answers a 500).
pub async fn tv_parent(ctx: &CallCtx, id: i64) -> Result<TvParent<ChildId>, ToolError> {
    let what = format!("TV parent request {id}");
    ctx.get_json::<TvParent<ChildId>>(Route::get("api/v1/Request/tv").seg(id))
        .await
        .map_err(|e| not_found_on_500(e, &what))?
        .ok_or_else(|| not_found(&what))
}

/// Whether a TV parent request still exists, read after a delete: `None`
/// when the read itself failed.
pub async fn tv_parent_exists(ctx: &CallCtx, id: i64) -> Option<bool> {
    match tv_parent(ctx, id).await {
        Ok(_) => Some(true),
        Err(e) if e.code == ErrorCode::NotFound => Some(false),
        Err(_) => None,
    }
}

/// The media a request-moderation argument names (`media` / `request_type`).
/// TV means the child (season-level) request throughout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Media {
    Movie,
    Tv,
    Album,
}

impl Media {
    pub fn target(self) -> TargetKind {
        match self {
            Media::Movie => TargetKind::Movie,
            Media::Tv => TargetKind::TvChild,
            Media::Album => TargetKind::Album,
        }
    }

    /// "movie request 2", "TV child request 12".
    pub fn request(self, id: i64) -> String {
        match self {
            Media::Movie => format!("movie request {id}"),
            Media::Tv => format!("TV child request {id}"),
            Media::Album => format!("album request {id}"),
        }
    }

    /// The service Ombi sends an approved request of this media to.
    pub fn downloader(self) -> &'static str {
        match self {
            Media::Movie => "Radarr",
            Media::Tv => "Sonarr",
            Media::Album => "Lidarr",
        }
    }
}

/// A mutation carrying Ombi's own `result` / `isError`, as answered.
pub fn with_answer(mut m: Mutation, r: &RequestEngineResult) -> Mutation {
    m.upstream_result = Some(r.result);
    m.upstream_is_error = Some(r.is_error);
    m
}
