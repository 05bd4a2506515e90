//! `write_request_create movie`: one movie request (HD or 4K).

use super::created::Created;
use super::*;

use serde::Serialize;

use crate::contract::{ErrorCode, Outcome, ToolError};
use crate::definition::params::*;
use crate::tools::CallCtx;
use crate::upstream::{RequestEngineResult, Route};

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct MovieBody {
    pub(super) the_movie_db_id: i64,
    /// Omitted: Ombi's model defaults it to "en".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) language_code: Option<String>,
    pub(super) is4k_request: bool,
    #[serde(flatten)]
    pub(super) placement: Placement,
}

pub(super) async fn movie(ctx: &CallCtx, body: MovieBody, alias: Option<String>) -> Outcome {
    let mut warnings = Vec::new();
    note_api_user(ctx, CREATED_AS, &mut warnings);
    let is_4k = body.is4k_request;
    if is_4k {
        // Without the feature Ombi half-applies the flag (`docs/ombi-notes.md`).
        let features = ctx
            .read_list::<WireFeature>(Route::get("api/v2/Features"), &mut warnings)
            .await?;
        if !feature_enabled(&features.value, "Movie4KRequests") {
            return Err(ToolError::new(
                ErrorCode::UnsupportedCapability,
                "4K movie requests are off in this Ombi (feature Movie4KRequests)",
            )
            .into());
        }
    }
    let tmdb_id = body.the_movie_db_id;
    let before = match movie_held(ctx, tmdb_id).await {
        Ok(held) => held,
        Err(e) => return Err(wrong_media(ctx, e, tmdb_id, MediaKind::Movie).await.into()),
    };
    let name = title(ctx, &before, format!("the movie with TMDB id {tmdb_id}"));
    let route = with_alias(Route::post("api/v1/Request/movie").json(&body), alias);
    let answer = ctx.write_answer::<RequestEngineResult>(route).await?;
    let created = Created {
        media: MediaKind::Movie,
        name: &name,
        is_4k,
    };
    let answer = match ctx.upstream.check(&answer) {
        Ok(r) => return created.completed(ctx, r, warnings).await,
        Err(e) if e.code == ErrorCode::Conflict => {
            let existing = request_in_words(ctx, MediaKind::Movie, before.id()).await;
            return Err(conflict_with(e, existing).into());
        }
        Err(e) => match refused_by_rules(ctx, MediaKind::Movie, &e).await {
            Some(refusal) => return Err(refusal.into()),
            None => (answer, e),
        },
    };
    // Ombi saves an auto-approved movie before sending it, and a failed
    // send answers without the id: only a read shows whether it was saved.
    let after = movie_held(ctx, tmdb_id).await;
    created.settle_failure(ctx, answer, &before, after, warnings)
}
