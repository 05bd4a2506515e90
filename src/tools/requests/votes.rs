//! Ombi's votes as the vote tools read them: the votes route of a request
//! and whether voting is on.

use crate::contract::ToolError;
use crate::definition::params::*;
use crate::tools::CallCtx;
use crate::upstream::Route;

/// The votes on one request. The read route says `music` where the vote
/// routes say `album`; it reads Ombi's database and needs no Lidarr
/// (docs/ombi-notes.md).
pub fn votes_route(media: MediaKind, request_id: i64) -> Route {
    let segment = match media {
        MediaKind::Album => "music",
        m => m.label(),
    };
    Route::get("api/v1/Vote").seg(segment).seg(request_id)
}

/// Whether the server has voting on: Ombi's vote list ignores the setting
/// (`VoteController.cs`/`VoteEngine.cs` read no settings) and its vote writes
/// answer success and record nothing without it.
pub async fn voting_enabled(ctx: &CallCtx) -> Result<bool, ToolError> {
    ctx.switch_on("api/v1/Settings/voteenabled").await
}
