//! `read_votes` → vote_page (Ombi's quirks: docs/ombi-notes.md).

use serde::Deserialize;

use super::votes::{votes_route, voting_enabled};
use crate::contract::Family;
use crate::contract::{ErrorCode, Outcome, ToolError};
use crate::definition::params::*;
use crate::definition::{Bundle, Page, ToolActions, ToolDef};
use crate::projection::votes::{self as proj, OpenVote, VoteRecord, VoteRow};
use crate::tools::local_page;
use crate::tools::{Actions, CallCtx, Tool};
use crate::upstream::Route;

pub static TOOL: Tool = Tool::new::<Action>(ToolDef {
    name: "read_votes",
    title: "Votes",
    bundle: Bundle::Core,
    destructive: false,
    description: "Votes on pending requests: those open to vote on (when voting is on), or one request's votes.",
    families: &[Family::VotePage],
    ..ToolDef::BASE
})
.examples(&[
    (r#"{"action": "open"}"#, true),
    (r#"{"action": "for_request", "media": "movie", "request_id": 2}"#, true),
])
.invalid(&[
    (r#"{"action": "for_request", "media": "movie"}"#, "/request_id"),
    (r#"{"action": "for_request", "media": "book", "request_id": 1}"#, "/media"),
]);

/// The actions, as validated arguments deserialize into them.
#[derive(Deserialize, ToolActions)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
enum Action {
    /// pending requests open for voting
    Open { page: Page },
    /// votes on one request
    ForRequest {
        media: MediaKind,
        request_id: i64,
        page: Page,
    },
}

impl Actions for Action {
    async fn run(self, ctx: &CallCtx) -> Outcome {
        let mut warnings = Vec::new();
        let (items, page, cut) = match self {
            Action::Open { page } => {
                if !voting_enabled(ctx).await? {
                    return Err(ToolError::new(
                        ErrorCode::UnsupportedCapability,
                        "voting is off in this Ombi (Settings → Vote): no request is open for voting",
                    )
                    .into());
                }
                let got = ctx
                    .read_list::<OpenVote>(Route::get("api/v1/Vote"), &mut warnings)
                    .await?;
                let items: Vec<VoteRecord> = got
                    .value
                    .into_iter()
                    .filter_map(|v| proj::open(v, &mut warnings))
                    .collect();
                (items, page, got.cut)
            }
            Action::ForRequest {
                media,
                request_id,
                page,
            } => {
                let got = ctx
                    .read_list::<VoteRow>(votes_route(media, request_id), &mut warnings)
                    .await?;
                let items = proj::for_request(
                    got.value,
                    request_id,
                    media.label(),
                    !got.cut,
                    &mut warnings,
                );
                (items, page, got.cut)
            }
        };
        local_page(Family::VotePage, "votes", items, page, cut, warnings)
    }
}
