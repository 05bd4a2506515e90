//! Where Ombi files an issue so its UI shows it on the title's page (movie
//! issues under the IMDb id when known, TV issues under the parent request),
//! and one issue by id: what the issue tools share.

use crate::projection::media::MovieFull;

use crate::contract::{ErrorCode, ToolError};
use crate::definition::params::*;
use crate::projection::issues::Issue;
use crate::tools::CallCtx;
use crate::upstream::Route;

/// A movie's TMDB id and IMDb id, from either (`given`): Ombi's UI files a
/// movie's issues under its IMDb id when TMDB knows one, else under the TMDB
/// id (`movie-details.component.ts`), and shows the IMDb-filed ones on the
/// title's page (docs/ombi-notes.md, "Where Ombi files issues"). A lookup
/// that fails leaves that id unknown.
pub async fn movie_provider_ids(ctx: &CallCtx, given: &str) -> (Option<i64>, Option<String>) {
    let route = if given.starts_with("tt") {
        Route::get("api/v2/Search/movie/imdb").seg(given)
    } else if let Ok(tmdb) = given.parse::<i64>() {
        Route::get("api/v2/Search/movie").seg(tmdb)
    } else {
        return (None, None);
    };
    let full = ctx.get_json::<MovieFull>(route).await.ok().flatten();
    let tmdb = given
        .parse::<i64>()
        .ok()
        .or_else(|| full.as_ref().and_then(|m| m.row.id.positive()));
    let imdb = if given.starts_with("tt") {
        Some(given.to_string())
    } else {
        full.and_then(|m| m.row.imdb_id)
            .filter(|i| i.starts_with("tt"))
    };
    (tmdb, imdb)
}

/// The `providerId` and `requestId` Ombi's UI files an issue under, from what
/// the caller gave: a movie under its IMDb id when known (else its TMDB id;
/// from its request when only that is given), a show under its PARENT request
/// id (`tv-details.component.ts`: the details' request id) and TMDB id. A
/// child request id given for TV is replaced by its parent's.
pub async fn issue_filing(
    ctx: &CallCtx,
    kind: MediaKind,
    request_id: Option<i64>,
    provider_id: Option<String>,
) -> Result<(Option<i64>, Option<String>), ToolError> {
    match kind {
        MediaKind::Movie => {
            let provider = match (provider_id, request_id) {
                (Some(p), _) => {
                    let (tmdb, imdb) = movie_provider_ids(ctx, &p).await;
                    imdb.or(tmdb.map(|t| t.to_string())).or(Some(p))
                }
                (None, Some(id)) => {
                    let m = crate::tools::requests::reads::movie(ctx, id).await?;
                    m.imdb_id
                        .filter(|i| i.starts_with("tt"))
                        .or(m.the_movie_db_id.filter(|t| *t > 0).map(|t| t.to_string()))
                }
                (None, None) => None,
            };
            Ok((request_id, provider))
        }
        MediaKind::Tv => {
            let Some(id) = request_id else {
                return Ok((None, provider_id));
            };
            if crate::tools::requests::reads::tv_parent_exists(ctx, id).await == Some(true) {
                return Ok((Some(id), provider_id));
            }
            let parent = crate::tools::requests::reads::parent_of_child(ctx, id).await?;
            let provider = provider_id.or(parent.tmdb.map(|t| t.to_string()));
            Ok((Some(parent.id), provider))
        }
        MediaKind::Album => Ok((request_id, provider_id)),
    }
}

/// One issue as Ombi answers it (`GET api/v1/Issues/{id}`: null for an
/// unknown id → NOT_FOUND).
pub async fn issue_by_id(ctx: &CallCtx, id: i64) -> Result<Issue, ToolError> {
    ctx.upstream
        .get_json::<Issue>(ctx.acting(), Route::get("api/v1/Issues").seg(id))
        .await?
        .ok_or_else(|| ToolError::new(ErrorCode::NotFound, format!("no issue with id {id}")))
}
