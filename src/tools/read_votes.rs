//! `read_votes` → vote_page (Ombi's quirks: docs/ombi-notes.md).
// `Outcome`'s error side (`Failure`) is the shared handler contract.
#![allow(clippy::result_large_err)]

use futures::future::BoxFuture;
use serde_json::Value;

use super::ctx::{local_page, required_id, required_str};
use super::{CallCtx, Tool};
use crate::catalogue::params::*;
use crate::catalogue::{Args, Bundle, ToolDef, action};
use crate::contract::Family;
use crate::contract::Outcome;
use crate::contract::ToolError;
use crate::projection::votes::{self as proj, OpenVote, VoteRow};
use crate::upstream::Route;

pub static TOOL: Tool = Tool {
    def: ToolDef {
        name: "read_votes",
        title: "Votes",
        bundle: Bundle::Core,
        destructive: false,
        description: "Community votes on pending requests: open requests to vote on, or the votes on one request.",
        families: &[Family::VotePage],
        params: &[MEDIA, REQUEST_ID, PAGE],
        actions: &[
            action("open", "pending requests open for voting", &[], PAGE_ONLY),
            action(
                "for_request",
                "votes on one request",
                &["media", "request_id"],
                PAGE_ONLY,
            ),
        ],
        default_action: None,
        check: None,
    },
    run: handle,
};

fn handle<'a>(ctx: &'a CallCtx, args: &'a Args) -> BoxFuture<'a, Outcome> {
    Box::pin(async move {
        match args.action() {
            "open" => open(ctx, args).await,
            "for_request" => for_request(ctx, args).await,
            other => Err(ToolError::invalid("/action", format!("unknown action `{other}`")).into()),
        }
    })
}

async fn open(ctx: &CallCtx, args: &Args) -> Outcome {
    let mut warnings = Vec::new();
    let got = ctx
        .read_list::<OpenVote>(Route::get("api/v1/Vote"), &mut warnings)
        .await?;
    let items: Vec<Value> = got
        .value
        .into_iter()
        .filter_map(|v| proj::open(v, &mut warnings))
        .collect();
    local_page(
        Family::VotePage,
        "votes",
        items,
        args.page(),
        got.cut,
        warnings,
    )
}

async fn for_request(ctx: &CallCtx, args: &Args) -> Outcome {
    let media = required_str(args, "media")?;
    let id = required_id(args, "request_id")?;
    // The read route says `music` where the vote routes say `album`; it
    // reads Ombi's database and needs no Lidarr (docs/ombi-notes.md).
    let segment = match media {
        "album" => "music",
        m => m,
    };
    let mut warnings = Vec::new();
    let got = ctx
        .read_list::<VoteRow>(
            Route::get("api/v1/Vote").seg(segment).seg(id),
            &mut warnings,
        )
        .await?;
    let items = proj::for_request(got.value, id, media, !got.cut, &mut warnings);
    local_page(
        Family::VotePage,
        "votes",
        items,
        args.page(),
        got.cut,
        warnings,
    )
}
