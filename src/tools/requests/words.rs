//! Requests in words, for write results, errors and confirmation questions:
//! a request's state, its title and requester, and for a TV id given at the
//! wrong level (show vs season) the ids that were meant.

use super::reads::{existing_request, parent_of_child, tv_parent};
use crate::contract::{ErrorCode, ToolError};
use crate::definition::params::*;
use crate::projection::mutation::Mutation;
use crate::projection::requests::{
    self, RequestRecord, WireChildId, WireChildWithSeasons, WireTvParent,
};
use crate::tools::{CallCtx, lockdown};
use crate::upstream::RequestEngineResult;

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

/// Which of a show's two kinds of request id an argument takes: Ombi keeps
/// one parent request per show and one child request per request of seasons
/// (`docs/ombi-notes.md`, "TV requests: parents and children").
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum TvLevel {
    /// The show's request (`parent_request_id`, `tv_parent`).
    Parent,
    /// A season (child) request (`request_id` with `media: tv`, `tv_child`).
    Child,
}

/// A NOT_FOUND for TV id `id` where a `wanted` id was needed, on `field`,
/// told what to pass instead when the id is the other kind: one bounded read,
/// on this error path only. Other errors pass through unchanged.
pub async fn tv_id_hint(
    ctx: &CallCtx,
    mut e: ToolError,
    id: i64,
    wanted: TvLevel,
    field: &str,
) -> ToolError {
    if e.code != ErrorCode::NotFound {
        return e;
    }
    e.field = Some(field.to_string());
    let hint = match wanted {
        TvLevel::Child => show_in_words(ctx, id)
            .await
            .map(|show| format!("{show}: pass one of those season request ids, not the show's")),
        TvLevel::Parent => match parent_of_child(ctx, id).await {
            Ok(p) => {
                // The show's title, from one read of its request (this error path only).
                let title = tv_parent::<WireChildId>(ctx, p.id)
                    .await
                    .ok()
                    .and_then(|parent| parent.title)
                    .map(|t| ctx.upstream.clean(&t))
                    .filter(|t| !t.is_empty())
                    .map(|t| format!(" *{t}*"))
                    .unwrap_or_default();
                Some(format!(
                    "{id} is a season (child) request of the show{title}, whose request is TV request {}: pass {}",
                    p.id, p.id
                ))
            }
            Err(_) => None,
        },
    };
    if let Some(hint) = hint {
        e.message = format!("{}; {hint}", e.message);
    }
    e
}

/// A show's request (TV parent) a write names on `field`; NOT_FOUND naming
/// the show's request when a season request's id was given.
pub async fn show_request(
    ctx: &CallCtx,
    id: i64,
    field: &str,
) -> Result<WireTvParent<WireChildId>, ToolError> {
    match tv_parent::<WireChildId>(ctx, id).await {
        Ok(p) => Ok(p),
        Err(e) => Err(tv_id_hint(ctx, e, id, TvLevel::Parent, field).await),
    }
}

/// "TV request 10 is the show *Breaking Bad*; its season requests are 1396
/// (season 1, approved) and 12 (season 2, waiting for approval)", from one
/// read of the parent with its children; `None` when there is no such parent.
pub async fn show_in_words(ctx: &CallCtx, id: i64) -> Option<String> {
    let parent = tv_parent::<WireChildWithSeasons>(ctx, id).await.ok()?;
    let title = parent
        .title
        .as_deref()
        .map(|t| ctx.upstream.clean(t))
        .filter(|t| !t.is_empty())
        .map(|t| format!(" *{t}*"))
        .unwrap_or_default();
    let children: Vec<String> = parent
        .child_requests
        .into_iter()
        .flatten()
        .filter_map(|c| requests::child(c).ok())
        .map(|c| {
            let seasons: Vec<String> = c
                .seasons
                .iter()
                .flatten()
                .map(|s| s.season_number.to_string())
                .collect();
            let seasons = match seasons.len() {
                0 => String::new(),
                1 => format!("season {}, ", seasons[0]),
                _ => format!("seasons {}, ", seasons.join(", ")),
            };
            format!("{} ({seasons}{})", c.target.id, state_phrase(&c, false))
        })
        .collect();
    Some(match children.as_slice() {
        [] => format!("TV request {id} is the show{title}, with no season requests"),
        [one] => format!("TV request {id} is the show{title}; its season request is {one}"),
        [rest @ .., last] => format!(
            "TV request {id} is the show{title}; its season requests are {} and {last}",
            rest.join(", ")
        ),
    })
}

/// A request a write names by media and id (TV: the child request), read
/// first; NOT_FOUND on `/request_id`, saying which ids to pass when a TV
/// show's id was given.
pub async fn named_request(
    ctx: &CallCtx,
    media: MediaKind,
    id: i64,
    warnings: &mut Vec<String>,
) -> Result<RequestRecord, ToolError> {
    match existing_request(ctx, media, id, warnings).await {
        Ok(r) => Ok(r),
        Err(e) if media == MediaKind::Tv => {
            Err(tv_id_hint(ctx, e, id, TvLevel::Child, "/request_id").await)
        }
        Err(mut e) => {
            if e.code == ErrorCode::NotFound {
                e.field = Some("/request_id".into());
            }
            Err(e)
        }
    }
}

/// "the movie request for *Spirited Away* (request 2)": the request's title
/// as already read, else "movie request 2".
pub fn request_name(media: MediaKind, r: &RequestRecord, ctx: &CallCtx) -> String {
    named(ctx, media.noun(), r.title.as_deref(), r.target.id, None)
}

/// "the `noun` request for *title* (request `id`)", or "`noun` request `id`"
/// without a title (`noun`: "movie", "TV child", "TV"); with `by`, "(request
/// `id`, requested by `by`)". People-written text is cleaned like an Ombi
/// message. The one way a write names a request, in results and questions.
pub fn named(ctx: &CallCtx, noun: &str, title: Option<&str>, id: i64, by: Option<&str>) -> String {
    let clean = |t: Option<&str>| t.map(|t| ctx.upstream.clean(t)).filter(|t| !t.is_empty());
    let by = clean(by)
        .map(|name| format!(", requested by {name}"))
        .unwrap_or_default();
    match clean(title) {
        Some(t) => format!("the {noun} request for *{t}* (request {id}{by})"),
        None => format!("{noun} request {id}{by}"),
    }
}

/// A mutation carrying Ombi's own `result` / `isError`, as answered.
pub fn with_answer(mut m: Mutation, r: &RequestEngineResult) -> Mutation {
    m.upstream_result = Some(r.result);
    m.upstream_is_error = Some(r.is_error);
    m
}

/// The request a confirmed write names, in words, from one bounded read of
/// it (NOT_FOUND when Ombi does not know it).
pub async fn request_in_words(
    ctx: &CallCtx,
    media: MediaKind,
    id: i64,
) -> Result<String, ToolError> {
    let r = existing_request(ctx, media, id, &mut Vec::new()).await?;
    let by = match r.requested_user_name.as_deref() {
        Some(name) => {
            Some(lockdown::request_name_shown(ctx, r.requested_user_id.as_deref(), name).await)
        }
        None => None,
    };
    Ok(named(
        ctx,
        media.noun(),
        r.title.as_deref(),
        id,
        by.as_deref(),
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
