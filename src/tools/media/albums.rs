//! One album by MusicBrainz release-group id: what `read_media` details and
//! `write_request_create album` share.

use crate::contract::{ErrorCode, ToolError};
use crate::projection::media::AlbumSearch;
use crate::tools::CallCtx;
use crate::upstream::Route;

/// An album by its MusicBrainz release-group id (the id every tool hands out
/// and album requests store), with the request state Ombi's search rules
/// give it. Ombi's v2 album route looks a *release* up and fails for every
/// release-group id; the one lookup by release-group id is Lidarr's exact
/// `lidarr:{id}` term through Ombi's album search (docs/ombi-notes.md,
/// "Album lookups"), so it needs Lidarr, as album requests do.
pub async fn album_lookup(ctx: &CallCtx, mbid: &str) -> Result<AlbumSearch, ToolError> {
    ctx.require_lidarr().await?;
    let route = Route::get("api/v1/Search/music/album").seg(format_args!("lidarr:{mbid}"));
    let rows = ctx
        .upstream
        .get_array::<AlbumSearch>(ctx.acting(), route)
        .await?;
    rows.value
        .into_iter()
        .find(|a| {
            a.foreign_album_id
                .as_deref()
                .is_some_and(|id| id.eq_ignore_ascii_case(mbid))
        })
        .ok_or_else(|| {
            ToolError::new(
                ErrorCode::NotFound,
                format!("Lidarr's metadata knows no album (release group) {mbid}: pass a release-group id as read_search `album` or artist details give it"),
            )
        })
}
