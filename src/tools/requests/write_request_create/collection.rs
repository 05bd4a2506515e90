//! `write_request_create collection`: every film of a TMDB collection.

use super::*;

use crate::contract::{ErrorCode, Failure, Outcome, ToolError};
use crate::tools::{CallCtx, not_found, not_found_on_500, reply};
use crate::upstream::{RequestEngineResult, Route};

/// Most members a collection request reports on (the `item_results` cap).
pub(super) const MAX_MEMBERS: usize = 100;

pub(super) async fn collection(ctx: &CallCtx, collection_id: i64) -> Outcome {
    let what = format!("collection {collection_id}");
    // An unknown collection answers 500 here (Ombi maps a null TMDB answer).
    let wire = ctx
        .get_json::<WireCollection>(Route::get("api/v2/Search/movie/collection").seg(collection_id))
        .await
        .map_err(|e| not_found_on_500(e, &what))?
        .ok_or_else(|| not_found(&what))?;
    let mut members: Vec<i64> = Vec::new();
    for m in wire.collection.iter().flatten() {
        let id =
            m.id.0
                .as_deref()
                .or(m.the_movie_db_id.0.as_deref())
                .and_then(|s| s.parse::<i64>().ok())
                .filter(|i| *i > 0);
        if let Some(id) = id
            && !members.contains(&id)
        {
            members.push(id);
        }
    }
    if members.is_empty() {
        // Ombi answers an empty collection with a 500 after doing nothing.
        return Err(ToolError::invalid(
            "/collection_id",
            format!("{what} has no movies to request"),
        )
        .into());
    }
    let mut warnings = Vec::new();
    note_api_user(ctx, "the requests are", &mut warnings);
    if members.len() > MAX_MEMBERS {
        warnings.push(format!(
            "{what} has {} movies; only the first {MAX_MEMBERS} are reported on (Ombi requests them all)",
            members.len()
        ));
        members.truncate(MAX_MEMBERS);
    }
    let mut before = Vec::with_capacity(members.len());
    for id in &members {
        before.push(movie_held(ctx, *id).await.ok());
    }
    let sent = ctx
        .write_answer::<RequestEngineResult>(
            Route::post("api/v2/Requests/movie/collection").seg(collection_id),
        )
        .await;
    let (answer, failure) = match sent {
        Ok(a) => {
            let checked = ctx.upstream.check(&a).err();
            (Some(a.value), checked)
        }
        // Ombi requests the members one by one: a failure part-way (500)
        // may follow saved requests, so read back before reporting it.
        Err(e) if e.code != ErrorCode::UnknownOutcome => (None, Some(e)),
        Err(e) => return Err(e.into()),
    };
    let mut items = Vec::with_capacity(members.len());
    let (mut done, mut refused, mut unknown) = (0u64, 0, 0);
    for (id, was) in members.iter().zip(&before) {
        let now = movie_held(ctx, *id).await.ok();
        let (outcome, message) = match (was, now) {
            (_, None) | (None, _) => {
                unknown += 1;
                (
                    Done::Unknown,
                    "its request state could not be read".to_string(),
                )
            }
            (Some(was), Some(_)) if was.has(false) => {
                refused += 1;
                (
                    Done::Rejected,
                    format!(
                        "already requested before (movie request {})",
                        was.id().unwrap_or(0)
                    ),
                )
            }
            (Some(_), Some(now)) if now.has(false) => {
                done += 1;
                (
                    Done::Completed,
                    format!("requested (movie request {})", now.id().unwrap_or(0)),
                )
            }
            _ => {
                refused += 1;
                (
                    Done::Rejected,
                    "not requested: Ombi's rules refused it (already available, or no permission or quota)"
                        .to_string(),
                )
            }
        };
        items.push(ItemResult {
            identifier: format!("tmdb:{id}"),
            outcome,
            message: Some(message),
        });
    }
    let total = items.len();
    let outcome = match (done, unknown) {
        (d, 0) if d as usize == total => Done::Completed,
        (0, 0) => Done::Rejected,
        (0, _) => Done::Accepted,
        _ => Done::Partial,
    };
    let name = wire
        .name
        .as_deref()
        .map(|n| ctx.upstream.clean(n))
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| what.clone());
    let mut m = Mutation::new(outcome);
    m.affected_count = Some(done);
    m.upstream_result = answer.as_ref().map(|a| a.result);
    m.upstream_is_error = answer.as_ref().map(|a| a.is_error);
    m.item_results = items;
    let m = m.message(format!(
        "{name}: {done} of {total} movies requested now, {refused} not requested, {unknown} unknown"
    ));
    match (outcome, failure) {
        (Done::Completed, failure) => {
            if let Some(e) = failure {
                // The read-back is what happened; Ombi's odd answer is logged.
                tracing::info!(error = %e.message, "collection: failure answered, every movie reads back requested");
            }
            Ok(reply(m.into_data(), warnings, false))
        }
        (Done::Accepted, None) => Ok(reply(m.into_data(), warnings, false)),
        (Done::Partial, _) => Err(partly_done(m, warnings)),
        (_, failure) => {
            let all_there_before = before
                .iter()
                .all(|b| b.as_ref().is_some_and(|b| b.has(false)));
            let error = failure.unwrap_or_else(|| {
                let code = if all_there_before {
                    ErrorCode::Conflict
                } else {
                    ErrorCode::UpstreamRejected
                };
                ToolError::new(code, format!("Ombi requested none of the movies of {name}"))
            });
            Err(Failure {
                error,
                data: Some(m.into_data()),
                warnings,
            })
        }
    }
}
