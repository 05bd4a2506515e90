//! `write_job_run`: trigger one allowlisted Ombi job (`POST
//! /api/v1/Job/{job}`). Ombi answers `true` also when it skipped the trigger
//! because the job is already running (all but the Plex and Emby content
//! jobs), and reports no progress, so the outcome is `accepted`, never
//! `completed` (docs/ombi-notes.md, "Jobs").

use serde::Deserialize;

use crate::confirm::Confirmation;
use crate::contract::{Family, Outcome};
use crate::definition::params::*;
use crate::definition::shape::{Field, Ty};
use crate::definition::{Bundle, ToolActions, ToolDef};
use crate::projection::mutation::{Mutation, Outcome as Done};
use crate::tools::reply;
use crate::tools::{Actions, CallCtx, Tool};
use crate::upstream::Route;

const JOB: Field = Field::opt("job", Ty::Enum(JOBS), "Job to start.");

pub static TOOL: Tool = Tool::new::<Action>(ToolDef {
    name: "write_job_run",
    title: "Run a job",
    bundle: Bundle::Administration,
    destructive: true,
    description: "Start a background Ombi job now: media-server library syncs, user importers, availability checks, the Plex watchlist import (may create requests) or the newsletter (emails every user). Fire-and-forget: no progress is reported. The person is asked to confirm first when the client can ask.",
    families: &[Family::Mutation],
    ..ToolDef::BASE
})
.examples(&[
    (r#"{"job": "arrAvailability"}"#, true),
])
.invalid(&[
    (r#"{"job": "clearmediaserverdata"}"#, "/job"),
    (r#"{"job": "update"}"#, "/job"),
]);

/// The actions, as validated arguments deserialize into them. `job` is
/// one of [`JOBS`] (validated): the wiping jobs are not among them.
#[derive(Deserialize, ToolActions)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
enum Action {
    /// start the job
    #[action(confirm)]
    Run { job: String },
}

impl Actions for Action {
    async fn run(self, ctx: &CallCtx) -> Outcome {
        match self {
            Action::Run { job } => run(ctx, &job).await,
        }
    }
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
    // Only the jobs triggered through Ombi's running check skip a trigger
    // while they run; the Plex and Emby content jobs go to the scheduler
    // directly (`JobController.cs`, `OmbiQuartz.cs`).
    let skipped = if DIRECT_TRIGGER.contains(&job) {
        ""
    } else {
        " (or skipped it, if the job was already running: Ombi answers the same)"
    };
    let data = Mutation::new(Done::Accepted)
        .message(format!(
            "Ombi took the trigger of job {job}{skipped}; it reports no progress, so the job's effects show once it has run"
        ))
        .into_data();
    Ok(reply(data, Vec::new(), false))
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

/// The jobs whose routes call Quartz's scheduler without Ombi's
/// already-running check (docs/ombi-notes.md, "Jobs").
const DIRECT_TRIGGER: &[&str] = &[
    "plexcontentcacher",
    "plexrecentlyadded",
    "embycontentcacher",
    "embyrecentlyadded",
];
