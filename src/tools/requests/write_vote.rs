//! `write_vote`: vote a pending request up or down as the acting user.
//! Ombi answers success and records nothing when voting is off, never checks
//! that the request exists, and finds the caller's earlier vote by request id
//! alone (whatever the media): all checked or reported here (see
//! `docs/ombi-notes.md`, "Subscriptions and votes" and "A vote on a request
//! that is no longer pending re-approves it").

use serde::Deserialize;

use super::votes::votes_route;
use crate::contract::{ErrorCode, Family, Outcome, ToolError};
use crate::definition::params::*;
use crate::definition::{Bundle, ToolActions, ToolDef};
use crate::projection::mutation::{Mutation, Outcome as Done};
use crate::projection::votes::VoteRow;
use crate::tools::reply;
use crate::tools::requests::reads::existing_request;
use crate::tools::requests::words::{is_pending, named_request, request_name, state_phrase};
use crate::tools::{Actions, CallCtx, Tool};
use crate::upstream::{Route, VoteEngineResult};

pub static TOOL: Tool = Tool::new::<Action>(ToolDef {
    name: "write_vote",
    title: "Vote on a request",
    bundle: Bundle::Core,
    destructive: true,
    description: "Vote a pending request up or down (replaces your earlier vote; needs voting on). An upvote subscribes you and approves the request once its votes reach the threshold; a downvote unsubscribes you.",
    families: &[Family::Mutation],
    ..ToolDef::BASE
})
.examples(&[
    (r#"{"action": "up", "media": "movie", "request_id": 2}"#, true),
])
.invalid(&[
    (r#"{"action": "sideways", "media": "movie", "request_id": 1}"#, "/action"),
]);

/// The actions, as validated arguments deserialize into them.
#[derive(Deserialize, ToolActions)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
enum Action {
    /// vote for
    Up { media: MediaKind, request_id: i64 },
    /// vote against
    Down { media: MediaKind, request_id: i64 },
}

impl Actions for Action {
    async fn run(self, ctx: &CallCtx) -> Outcome {
        match self {
            Action::Up { media, request_id } => vote(ctx, media, request_id, true).await,
            Action::Down { media, request_id } => vote(ctx, media, request_id, false).await,
        }
    }
}

/// `VoteEngine.UpVote`'s answer when the vote was saved and the approval it
/// triggered failed.
const VOTED_NOT_APPROVED: &str = "Voted succesfully but could not approve!";

/// `VoteType`: 0 up, 1 down.
const UPVOTE: i64 = 0;

async fn vote(ctx: &CallCtx, media: MediaKind, id: i64, up: bool) -> Outcome {
    ctx.require_ombi_user()?;
    if !super::votes::voting_enabled(ctx).await? {
        return Err(ToolError::new(
            ErrorCode::UnsupportedCapability,
            "voting is off in this Ombi (Settings → Vote); Ombi would answer success and record nothing",
        )
        .into());
    }
    let mut warnings = Vec::new();
    let before = named_request(ctx, media, id, &mut warnings).await?;
    let what = request_name(media, &before, ctx);
    if !is_pending(&before) {
        return Err(ToolError::invalid(
            "/request_id",
            format!(
                "{what} is {}; only pending requests take votes",
                state_phrase(&before, false)
            ),
        )
        .into());
    }
    let me = ctx.caller_id().await?;
    let others = votes_elsewhere(ctx, media, id, &me, &mut warnings).await?;
    let path = if up {
        "api/v1/Vote/up"
    } else {
        "api/v1/Vote/down"
    };
    let answer = ctx
        .write_answer::<VoteEngineResult>(Route::post(path).seg(media.label()).seg(id))
        .await?;
    let r = &answer.value;
    let mut m = Mutation::new(Done::Completed).on_request(media.target_kind(), id);
    m.upstream_result = Some(r.result);
    m.upstream_is_error = Some(r.is_error);
    if r.error_message.as_deref() == Some(VOTED_NOT_APPROVED) {
        return approved_not_sent(ctx, media, m, &what, warnings).await;
    }
    if let Err(mut e) = ctx.upstream.check(&answer) {
        if !others.is_empty() {
            e.message = format!(
                "{}; Ombi finds your earlier vote by request id alone, and you have one on the {} with the same id",
                e.message,
                others.join(" and ")
            );
        }
        return Err(e.into());
    }
    if !others.is_empty() {
        warnings.push(format!(
            "Ombi finds your earlier vote by request id alone, whatever the media: your vote on the {} \
             with the same id may have been deleted by this one (read_votes for_request shows what is left)",
            others.join(" and ")
        ));
    }
    let mut message = if up {
        format!("upvoted {what}; Ombi also subscribed you to it")
    } else {
        format!("downvoted {what}; Ombi also unsubscribed you from it")
    };
    if up {
        // An upvote approves the request once its votes reach the threshold.
        match existing_request(ctx, media, id, &mut warnings).await {
            Ok(after) if !is_pending(&after) => {
                message.push_str(&format!(
                    "; the request is {} now",
                    state_phrase(&after, false)
                ));
            }
            Ok(_) => message.push_str("; it is still waiting for approval"),
            Err(e) => {
                tracing::info!(error = %e.message, "vote: the request could not be read back");
                message.push_str("; whether it is approved now could not be read back");
            }
        }
    }
    Ok(reply(m.message(message).into_data(), warnings, false))
}

/// "Voted succesfully but could not approve!": the vote was saved and
/// reached the threshold, and Ombi saved the approval before the send to
/// Radarr/Lidarr failed (`VoteEngine.cs`, `MovieRequestEngine.cs`
/// ApproveMovie, `MusicRequestEngine.cs`; docs/ombi-notes.md, "A vote that
/// approves"). The vote is done; the read-back says whether the approval
/// stuck, and the warning that the request was not sent.
async fn approved_not_sent(
    ctx: &CallCtx,
    media: MediaKind,
    m: Mutation,
    what: &str,
    mut warnings: Vec<String>,
) -> Outcome {
    let downloader = media.downloader();
    let state = match existing_request(ctx, media, m.request_id.unwrap_or(0), &mut warnings).await {
        Ok(after) => state_phrase(&after, false),
        Err(e) => {
            tracing::info!(error = %e.message, "vote: the request could not be read back");
            "in an unknown state"
        }
    };
    warnings.push(format!(
        "your upvote approved {what}, but {downloader} refused it, so it was not sent: \
         tell the requester; once {downloader} is fixed, approving it again (write_request_moderate \
         `approve`) sends it (Ombi retries on its own only when the send fails outright, see read_requests `retry_queue`)"
    ));
    let m = m.message(format!(
        "upvoted {what}; Ombi also subscribed you to it; the request is {state} now"
    ));
    Ok(reply(m.into_data(), warnings, false))
}

/// The other media types on which the caller has a vote with this same
/// request id ("album request 12"): Ombi's vote lookup would hit them.
async fn votes_elsewhere(
    ctx: &CallCtx,
    media: MediaKind,
    id: i64,
    me: &str,
    warnings: &mut Vec<String>,
) -> Result<Vec<String>, ToolError> {
    let mut found = Vec::new();
    for other in [MediaKind::Movie, MediaKind::Tv, MediaKind::Album] {
        if other == media {
            continue;
        }
        let rows = ctx
            .read_list::<VoteRow>(votes_route(other, id), warnings)
            .await?;
        if let Some(v) = rows.value.iter().find(|v| v.user_id.as_deref() == Some(me)) {
            let kind = if v.vote_type == Some(UPVOTE) {
                "upvote"
            } else {
                "downvote"
            };
            found.push(format!("{} ({kind})", other.request(id)));
        }
    }
    Ok(found)
}
