//! `write_job_run`: trigger one allowlisted Ombi job (`POST
//! /api/v1/Job/{job}`). Ombi answers `true` also when it skipped the trigger
//! because the job is already running (all but the Plex and Emby content
//! jobs), and reports no progress, so the outcome is `accepted`, never
//! `completed` (docs/ombi-notes.md, "Jobs").

use serde::Deserialize;

use crate::confirm::Confirmation;
use crate::contract::{Family, Outcome, ToolError};
use crate::definition::shape::{Field, Ty};
use crate::definition::{Bundle, ToolActions, ToolDef};
use crate::projection::mutation::{Mutation, Outcome as Done};
use crate::tools::reply;
use crate::tools::{Actions, CallCtx, Tool};
use crate::upstream::Route;

const JOB: Field = Field::opt("job", Ty::Enum(&JOB_NAMES), "Job to start.");

/// One job the tool may start: Ombi's route name, what it does in words (for
/// the description, the question and the result), roughly how long it takes,
/// and whether it reaches people or creates requests (then it asks first).
struct Job {
    name: &'static str,
    words: &'static str,
    takes: &'static str,
    reaches_people: bool,
}

/// `POST /api/v1/Job/{job}` allowlist (`JobController.cs`). The wiping jobs
/// (`clearmediaserverdata`, `autodeleterequests`) and the self-`update` are
/// deliberately absent.
const JOBS: [Job; 11] = [
    job(
        "plexcontentcacher",
        "a full Plex library sync",
        "minutes to an hour, by library size",
        false,
    ),
    job(
        "plexrecentlyadded",
        "a Plex scan of recently added media",
        "seconds to minutes",
        false,
    ),
    job(
        "embycontentcacher",
        "a full Emby library sync",
        "minutes to an hour, by library size",
        false,
    ),
    job(
        "embyrecentlyadded",
        "an Emby scan of recently added media",
        "seconds to minutes",
        false,
    ),
    job(
        "jellyfincontentcacher",
        "a full Jellyfin library sync",
        "minutes to an hour, by library size",
        false,
    ),
    job(
        "plexuserimporter",
        "the Plex user import (creates Ombi users for Plex users)",
        "seconds",
        false,
    ),
    job(
        "embyuserimporter",
        "the Emby user import (creates Ombi users for Emby users)",
        "seconds",
        false,
    ),
    job(
        "jellyfinuserimporter",
        "the Jellyfin user import (creates Ombi users for Jellyfin users)",
        "seconds",
        false,
    ),
    job(
        "arrAvailability",
        "the Radarr/Sonarr/Lidarr availability check (marks requests available that those hold)",
        "a minute or two",
        false,
    ),
    job(
        "plexwatchlist",
        "the Plex watchlist import (creates requests from the users' Plex watchlists)",
        "seconds to minutes",
        true,
    ),
    job(
        "newsletter",
        "the newsletter (e-mails recently added media to every user who receives it)",
        "a minute or two",
        true,
    ),
];

const fn job(
    name: &'static str,
    words: &'static str,
    takes: &'static str,
    reaches_people: bool,
) -> Job {
    Job {
        name,
        words,
        takes,
        reaches_people,
    }
}

/// The `job` enum: [`JOBS`]' names, in order.
const JOB_NAMES: [&str; JOBS.len()] = {
    let mut names = [""; JOBS.len()];
    let mut i = 0;
    while i < JOBS.len() {
        names[i] = JOBS[i].name;
        i += 1;
    }
    names
};

pub static TOOL: Tool = Tool::new::<Action>(ToolDef {
    name: "write_job_run",
    title: "Run a job",
    bundle: Bundle::Administration,
    destructive: true,
    description: "Start a background Ombi job now. Jobs: plexcontentcacher = a full Plex library sync (minutes to an hour, by library size); plexrecentlyadded = a Plex scan of recently added media (seconds to minutes); embycontentcacher = a full Emby library sync; embyrecentlyadded = an Emby scan of recently added media; jellyfincontentcacher = a full Jellyfin library sync; plexuserimporter, embyuserimporter, jellyfinuserimporter = import the media server's users as Ombi users (seconds); arrAvailability = the Radarr/Sonarr/Lidarr availability check, marking requests available that those hold (a minute or two); plexwatchlist = the Plex watchlist import, which creates requests from the users' watchlists; newsletter = e-mails recently added media to every user who receives it. Fire-and-forget: Ombi reports no progress. The watchlist import and the newsletter ask the person to confirm first when the client can ask.",
    families: &[Family::Mutation],
    ..ToolDef::BASE
})
.examples(&[
    (r#"{"job": "arrAvailability"}"#, true),
    (r#"{"job": "newsletter"}"#, true),
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
    #[action(
        confirm = "when the job reaches people or creates requests (newsletter, plexwatchlist)"
    )]
    #[action(role = "Admin")]
    Run { job: String },
}

impl Actions for Action {
    async fn run(self, ctx: &CallCtx) -> Outcome {
        match self {
            Action::Run { job } => run(ctx, &job).await,
        }
    }
}

async fn run(ctx: &CallCtx, name: &str) -> Outcome {
    // The validator held `name` to the enum; this only keeps the lookup total.
    let Some(job) = JOBS.iter().find(|j| j.name == name) else {
        return Err(
            ToolError::invalid("/job", format!("`{name}` is not a job this tool starts")).into(),
        );
    };
    if job.reaches_people {
        ctx.confirm(async { Ok(Confirmation::new(format!("Start {} now?", job.words))) })
            .await?;
    }
    ctx.upstream
        .write::<bool>(ctx.acting(), Route::post("api/v1/Job").seg(name))
        .await?;
    // Only the jobs triggered through Ombi's running check skip a trigger
    // while they run; the Plex and Emby content jobs go to the scheduler
    // directly (`JobController.cs`, `OmbiQuartz.cs`).
    let skipped = if DIRECT_TRIGGER.contains(&name) {
        ""
    } else {
        " (or skipped it, if the job was already running: Ombi answers the same)"
    };
    let data = Mutation::new(Done::Accepted)
        .message(format!(
            "Ombi took the trigger of {} ({name}){skipped}; it usually takes {} and reports no progress, so its effects show once it has run",
            job.words, job.takes
        ))
        .into_data();
    Ok(reply(data, Vec::new(), false))
}

/// The jobs whose routes call Quartz's scheduler without Ombi's
/// already-running check (docs/ombi-notes.md, "Jobs").
const DIRECT_TRIGGER: &[&str] = &[
    "plexcontentcacher",
    "plexrecentlyadded",
    "embycontentcacher",
    "embyrecentlyadded",
];

#[cfg(test)]
mod tests {
    use super::*;

    /// The description names every job and says what each does (the
    /// table's words), so an assistant picks a job without guessing.
    #[test]
    fn the_description_names_every_job() {
        for job in &JOBS {
            assert!(TOOL.def.description.contains(job.name), "{}", job.name);
        }
        for words in [
            "full Plex library sync",
            "recently added",
            "availability check",
            "watchlist",
            "e-mails",
        ] {
            assert!(TOOL.def.description.contains(words), "{words}");
        }
    }
}
