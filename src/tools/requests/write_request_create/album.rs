//! `write_request_create album`: one album request by MusicBrainz release group.

use super::created::Created;
use super::*;

use serde::Serialize;

use crate::contract::{ErrorCode, Outcome, ToolError};
use crate::definition::params::*;
use crate::tools::CallCtx;
use crate::upstream::{RequestEngineResult, Route};

pub(super) async fn album(ctx: &CallCtx, mbid: &str, alias: Option<String>) -> Outcome {
    let route = with_alias(
        Route::post("api/v1/request/music").json(&AlbumBody {
            foreign_album_id: mbid,
        }),
        alias,
    );
    // The lookup needs Lidarr (as Ombi's album requests do) and says so.
    // Ombi never de-duplicates albums: a repeat makes a second request,
    // spends quota and re-sends to Lidarr. Refuse it here.
    let before = album_held(ctx, mbid).await?;
    let name = title(ctx, &before, format!("the album {mbid}"));
    if let Some(id) = before.id().filter(|_| before.requested) {
        let existing = request_in_words(ctx, MediaKind::Album, Some(id))
            .await
            .unwrap_or_else(|| MediaKind::Album.request(id));
        return Err(ToolError::new(
            ErrorCode::Conflict,
            format!(
                "{name} is already requested ({existing}); Ombi would create a duplicate request, so none was sent"
            ),
        )
        .into());
    }
    let answer = ctx.write_answer::<RequestEngineResult>(route).await?;
    let created = Created {
        media: MediaKind::Album,
        name: &name,
        is_4k: false,
    };
    let mut warnings = Vec::new();
    note_api_user(ctx, CREATED_AS, &mut warnings);
    let answer = match ctx.upstream.check(&answer) {
        Ok(r) => return created.completed(ctx, r, warnings).await,
        Err(e) => match refused_by_rules(ctx, MediaKind::Album, &e).await {
            Some(refusal) => return Err(refusal.into()),
            None => (answer, e),
        },
    };
    let after = album_held(ctx, mbid).await;
    created.settle_failure(ctx, answer, &before, after, warnings)
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct AlbumBody<'a> {
    pub(super) foreign_album_id: &'a str,
}
