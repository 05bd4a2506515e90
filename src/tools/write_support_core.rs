//! What the core write tools share: reading the request a write names (it
//! must exist: Ombi's vote and subscribe routes do not check), the acting
//! user as Ombi shows them, and a one-line statement of a request's state for the
//! read-back every create and vote reports (see `docs/ombi-notes.md`,
//! "Details routes show a title's request state").

use serde::Deserialize;

use super::CallCtx;
use super::read_requests::{album_by_id, movie_by_id, tv_child};
use crate::contract::TargetKind;
use crate::contract::{ErrorCode, Failure, ToolError};
use crate::projection::mutation::Mutation;
use crate::projection::requests::RequestRecord;
use crate::upstream::Route;

/// The media a request write names. In the vote and subscribe routes (and
/// everywhere here) a TV request is the child (season-level) request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Media {
    Movie,
    Tv,
    Album,
}

impl Media {
    /// The route segment (`api/v1/Vote/up/{movie|tv|album}/…`).
    pub fn segment(self) -> &'static str {
        match self {
            Media::Movie => "movie",
            Media::Tv => "tv",
            Media::Album => "album",
        }
    }

    pub fn kind(self) -> TargetKind {
        match self {
            Media::Movie => TargetKind::Movie,
            Media::Tv => TargetKind::TvChild,
            Media::Album => TargetKind::Album,
        }
    }

    /// "movie", "TV child", "album" (as in "movie request 12").
    pub fn noun(self) -> &'static str {
        match self {
            Media::Movie => "movie",
            Media::Tv => "TV child",
            Media::Album => "album",
        }
    }

    /// Ombi's `RequestType` code (TV is 0).
    pub fn code(self) -> i64 {
        match self {
            Media::Tv => 0,
            Media::Movie => 1,
            Media::Album => 2,
        }
    }
}

/// Reads the request `media` + `id` names; NOT_FOUND when Ombi does not
/// know it.
pub async fn existing_request(
    ctx: &CallCtx,
    media: Media,
    id: i64,
    warnings: &mut Vec<String>,
) -> Result<RequestRecord, ToolError> {
    match media {
        Media::Movie => movie_by_id(ctx, id).await,
        Media::Album => album_by_id(ctx, id).await,
        Media::Tv => tv_child(ctx, id, warnings).await,
    }
}

/// With a bare API key Ombi acts as its internal `Api` user (an admin whose
/// requests are approved at once): say whose `what` it is.
pub fn note_api_user(ctx: &CallCtx, what: &str, warnings: &mut Vec<String>) {
    if ctx.ombi_user().is_none() {
        warnings.push(format!(
            "no acting Ombi user (set `ombi_user` in the peer policy or OMBI_USER_NAME): {what} Ombi's internal API user's"
        ));
    }
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

/// The acting user as `GET /api/v1/Identity` shows them (`UserViewModel`):
/// only what the core writes use.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Me {
    pub id: Option<String>,
    pub language: Option<String>,
    pub streaming_country: Option<String>,
}

/// Reads the acting user.
pub async fn me(ctx: &CallCtx) -> Result<Me, ToolError> {
    ctx.get_json::<Me>(Route::get("api/v1/Identity"))
        .await?
        .ok_or_else(|| {
            ToolError::new(
                ErrorCode::UpstreamSchemaMismatch,
                "Ombi's GET api/v1/Identity answered nothing",
            )
        })
}

/// The acting user's Ombi id (a GUID).
pub async fn caller_id(ctx: &CallCtx) -> Result<String, ToolError> {
    me(ctx)
        .await?
        .id
        .filter(|id| !id.trim().is_empty())
        .ok_or_else(|| {
            ToolError::new(
                ErrorCode::UpstreamSchemaMismatch,
                "Ombi's GET api/v1/Identity did not name the acting user's id",
            )
        })
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
