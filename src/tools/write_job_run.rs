//! `write_job_run`: trigger one allowlisted Ombi job (`POST
//! /api/v1/Job/{job}`). Ombi answers `true` also when it skipped the trigger
//! because the job is already running, and reports no progress, so the
//! outcome is `accepted`, never `completed` (docs/ombi-notes.md, "Jobs").

use futures::future::BoxFuture;
use serde::Deserialize;

use super::ctx::reply;
use super::{CallCtx, Tool};
use crate::confirm::Confirmation;
use crate::contract::{Family, Outcome};
use crate::definition::params::*;
use crate::definition::shape::{Field, Ty};
use crate::definition::{Args, Bundle, ToolDef, action};
use crate::projection::mutation::{Mutation, Outcome as Done};
use crate::upstream::Route;

pub static TOOL: Tool = Tool {
    def: ToolDef {
        name: "write_job_run",
        title: "Run a job",
        bundle: Bundle::Administration,
        destructive: true,
        description: "Start a background Ombi job now: media-server library syncs, user importers, availability checks, the Plex watchlist import (may create requests) or the newsletter (emails every user). Fire-and-forget: no progress is reported. The person is asked to confirm first when the client can ask.",
        families: &[Family::Mutation],
        params: &[Field::opt("job", Ty::Enum(JOBS), "Job to start.")],
        actions: &[action("run", "start the job", &["job"], &[])],
        default_action: None,
        check: None,
    },
    run: handle,
};

/// The actions, as validated arguments deserialize into them. `job` is
/// one of [`JOBS`] (validated): the wiping jobs are not among them.
#[derive(Deserialize)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
enum Action {
    Run { job: String },
}

fn handle<'a>(ctx: &'a CallCtx, args: &'a Args) -> BoxFuture<'a, Outcome> {
    Box::pin(async move {
        match args.parse::<Action>()? {
            Action::Run { job } => run(ctx, &job).await,
        }
    })
}

async fn run(ctx: &CallCtx, job: &str) -> Outcome {
    ctx.confirm(async {
        Ok(Confirmation::new(format!(
            "Start Ombi's job “{job}” now?{}",
            job_effect(job)
        )))
    })
    .await?;
    ctx.upstream
        .write::<bool>(ctx.acting(), Route::post("api/v1/Job").seg(job))
        .await?;
    let data = Mutation::new(Done::Accepted)
        .message(format!("Ombi took the trigger of job {job}"))
        .into_data();
    Ok(reply(
        data,
        vec![
            "Ombi answers the same when the job is already running and this trigger was skipped, and reports \
             no progress: its effects show once the job has run"
                .into(),
        ],
        false,
    ))
}

/// What a job does beyond refreshing Ombi's own data, for its question.
fn job_effect(job: &str) -> &'static str {
    match job {
        "newsletter" => " It e-mails the newsletter to every user who receives it.",
        "plexwatchlist" => " It may create requests from the users' Plex watchlists.",
        "plexuserimporter" | "embyuserimporter" | "jellyfinuserimporter" => {
            " It may create Ombi users from the media server's users."
        }
        _ => "",
    }
}
