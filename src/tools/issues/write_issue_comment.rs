//! `write_issue_comment`: comment on an issue as the acting user. With the
//! bare API key Ombi looks the author `API` up against its stored `Api` user
//! (a 500 where the database compares names case-sensitively, as SQLite does;
//! the shared `Api` user's comment elsewhere), so a real acting user is
//! required (see `docs/ombi-notes.md`, "Issues").

use serde::{Deserialize, Serialize};

use crate::contract::{ErrorCode, Family, Outcome, ToolError};
use crate::definition::params::*;
use crate::definition::shape::{Field, Ty};
use crate::definition::{Bundle, ToolActions, ToolDef};
use crate::projection::mutation::{Mutation, Outcome as Done};
use crate::tools::{Actions, CallCtx, Tool};
use crate::tools::{not_found, reply};
use crate::upstream::Route;

const COMMENT: Field = Field::opt("comment", Ty::Str { min: 1, max: 4000 }, "Comment text.");

pub static TOOL: Tool = Tool::new::<Action>(ToolDef {
    name: "write_issue_comment",
    title: "Comment on an issue",
    bundle: Bundle::Core,
    destructive: false,
    description: "Add a comment to an existing issue, e.g. to give details or confirm a fix.",
    families: &[Family::Mutation],
    ..ToolDef::BASE
})
.examples(&[(r#"{"issue_id": 1, "comment": "Looking into it"}"#, true)])
.invalid(&[(r#"{"issue_id": 1, "comment": ""}"#, "/comment")]);

/// The action, as validated arguments deserialize into it.
#[derive(Deserialize, ToolActions)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
enum Action {
    /// add a comment
    Comment { issue_id: i64, comment: String },
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CommentBody<'a> {
    issue_id: i64,
    comment: &'a str,
}

/// The saved `IssueComments` entity: only its id is read.
#[derive(Deserialize)]
struct Saved {
    id: Option<i64>,
}

impl Actions for Action {
    async fn run(self, ctx: &CallCtx) -> Outcome {
        match self {
            Action::Comment { issue_id, comment } => add(ctx, issue_id, &comment).await,
        }
    }
}

async fn add(ctx: &CallCtx, issue_id: i64, comment: &str) -> Outcome {
    ctx.require_ombi_user()?;
    let body = CommentBody { issue_id, comment };
    // Ombi answers 204 (null) for an unknown issue, before saving anything.
    let saved = ctx
        .upstream
        .write_json::<Saved>(
            ctx.acting(),
            Route::post("api/v1/Issues/comments").json(&body),
        )
        .await?
        .ok_or_else(|| not_found(&format!("issue {issue_id}")))?;
    let id = saved.id.filter(|i| *i > 0).ok_or_else(|| {
        ToolError::new(
            ErrorCode::UnknownOutcome,
            "Ombi answered without the new comment's id; read_issues comments shows whether it was added",
        )
        .retryable(false)
    })?;
    let mut m =
        Mutation::new(Done::Completed).message(format!("added comment {id} to issue {issue_id}"));
    m.issue_id = Some(issue_id);
    m.comment_id = Some(id);
    Ok(reply(m.into_data(), Vec::new(), false))
}
