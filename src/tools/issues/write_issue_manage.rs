//! `write_issue_manage`: an issue's status, deleting issues and comments,
//! creating and deleting issue categories. Deleting a category would make
//! Ombi delete every issue in it, so a category that still has issues is
//! refused (`docs/ombi-notes.md`, "Issues").

use serde::{Deserialize, Serialize};
use serde_json::json;

use super::filing::issue_by_id;
use crate::confirm::Confirmation;
use crate::contract::{ErrorCode, Family, Outcome, ToolError};
use crate::definition::params::*;
use crate::definition::shape::{Field, Ty};
use crate::definition::{Bundle, ToolActions, ToolDef};
use crate::projection::issues::status_code;
use crate::projection::mutation::{Mutation, Outcome as Done};
use crate::projection::reference::IssueCategory;
use crate::text::message::sanitize;
use crate::tools::lockdown::{self, WITHHELD};
use crate::tools::{Actions, CallCtx, Tool};
use crate::tools::{not_found, not_found_on_500, reply};
use crate::upstream::Route;

const STATUS: Field = Field::opt("status", Ty::Enum(ISSUE_STATUS), "New status.");
const NAME: Field = Field::opt("name", Ty::Str { min: 1, max: 100 }, "Category name.");
const COMMENT_ID: Field = Field::opt(
    "comment_id",
    Ty::ID,
    "Comment id (from read_issues `comments`).",
);

pub static TOOL: Tool = Tool::new::<Action>(ToolDef {
    name: "write_issue_manage",
    title: "Manage issues",
    bundle: Bundle::Moderation,
    destructive: true,
    description: "Moderate issues. Status `closed` is Ombi's `Deleted` state: the issue leaves Ombi's web UI and the issue counts; use `resolved` for a fixed issue. Actions marked so ask the person to confirm when the client can ask.",
    families: &[Family::Mutation],
    ..ToolDef::BASE
})
.examples(&[
    (r#"{"action": "create_category", "name": "E2E"}"#, true),
    (r#"{"action": "set_status", "issue_id": 1, "status": "closed"}"#, true),
    (r#"{"action": "delete_comment", "comment_id": 2}"#, true),
    (r#"{"action": "delete", "issue_id": 3}"#, true),
    (r#"{"action": "delete_category", "category_id": 3}"#, true),
])
.invalid(&[
    (r#"{"action": "set_status", "issue_id": 1, "status": "done"}"#, "/status"),
]);

#[derive(Deserialize, ToolActions)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
enum Action {
    /// change an issue's status
    #[action(confirm = "when the new status is `closed`")]
    SetStatus { issue_id: i64, status: String },
    /// delete an issue
    #[action(confirm)]
    #[action(role = "PowerUser")]
    Delete { issue_id: i64 },
    /// add an issue category
    #[action(role = "PowerUser")]
    CreateCategory { name: String },
    /// remove an issue category
    #[action(confirm)]
    #[action(role = "PowerUser")]
    DeleteCategory { category_id: i64 },
    /// remove a comment
    #[action(confirm)]
    #[action(role = "PowerUser")]
    DeleteComment { comment_id: i64 },
}

impl Actions for Action {
    async fn run(self, ctx: &CallCtx) -> Outcome {
        match self {
            Action::SetStatus { issue_id, status } => set_status(ctx, issue_id, &status).await,
            Action::Delete { issue_id } => delete_issue(ctx, issue_id).await,
            Action::CreateCategory { name } => create_category(ctx, &name).await,
            Action::DeleteCategory { category_id } => delete_category(ctx, category_id).await,
            Action::DeleteComment { comment_id } => delete_comment(ctx, comment_id).await,
        }
    }
}

/// A completed mutation on an issue.
fn on_issue(id: i64, message: String) -> Outcome {
    let mut m = Mutation::new(Done::Completed).message(message);
    m.issue_id = Some(id);
    m.upstream_result = Some(true);
    Ok(reply(m.into_data(), Vec::new(), false))
}

/// Ombi answers `false` on these routes only when the issue does not exist.
fn issue_found(found: bool, id: i64) -> Result<(), ToolError> {
    if found {
        Ok(())
    } else {
        Err(ToolError::new(
            ErrorCode::NotFound,
            format!("issue {id} was not found (Ombi answered false)"),
        )
        .with_status(200))
    }
}

/// `IssueStateViewModel`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct StatusBody {
    issue_id: i64,
    status: i64,
}

async fn set_status(ctx: &CallCtx, id: i64, label: &str) -> Outcome {
    let status = status_code(label).ok_or_else(|| {
        ToolError::invalid(
            "/status",
            "status must be pending, in_progress, resolved or closed",
        )
    })?;
    if label == "closed" {
        ctx.confirm(async {
            let named = issue_in_words(ctx, id).await?;
            Ok(Confirmation::new(format!(
                "Close {named}? Ombi stores a closed issue as deleted: it disappears from Ombi's pages."
            )))
        })
        .await?;
    }
    let route = Route::post("api/v1/Issues/status").json(&StatusBody {
        issue_id: id,
        status,
    });
    issue_found(ctx.write_answer::<bool>(route).await?.value, id)?;
    // IssuesController.UpdateStatus notifies the reporter on these two.
    let notified = if matches!(label, "in_progress" | "resolved") {
        "; Ombi notifies the reporter"
    } else {
        ""
    };
    let mut done = on_issue(id, format!("issue {id} set to {label}{notified}"))?;
    if label == "closed" {
        // Code 3 is Ombi's `Deleted` (Issues.cs): docs/ombi-notes.md,
        // "Issue status 3 hides the issue".
        done.warnings.push(format!(
            "`closed` is Ombi's `Deleted` state: issue {id} no longer shows in Ombi's web UI or in the \
             issue counts; tell the reporter, or set it back to `resolved` if it should stay visible"
        ));
    }
    Ok(done)
}

/// "issue 4 “No sound” (reported by alice)", from one read of it.
async fn issue_in_words(ctx: &CallCtx, id: i64) -> Result<String, ToolError> {
    let issue = issue_by_id(ctx, id).await?;
    let reporter = issue
        .user_reported_id
        .clone()
        .or_else(|| issue.user_reported.as_ref().and_then(|u| u.id.clone()));
    if !lockdown::shows_issue_text(ctx, reporter.as_deref()).await {
        // Lockdown: the reporter's text stays withheld; the login name is
        // an author, shown as results show it.
        let by = issue
            .user_reported
            .and_then(|u| u.user_name)
            .map(|n| format!(" (reported by {})", sanitize(&n)))
            .unwrap_or_default();
        return Ok(format!("issue {id} {WITHHELD}{by}"));
    }
    let title = issue
        .title
        .as_deref()
        .or(issue.subject.as_deref())
        .map(sanitize)
        .filter(|t| !t.is_empty())
        .map(|t| format!(" “{t}”"))
        .unwrap_or_default();
    let by = issue
        .user_reported
        .and_then(|u| u.user_name)
        .map(|n| sanitize(&n))
        .filter(|n| !n.is_empty())
        .map(|n| format!(" (reported by {n})"))
        .unwrap_or_default();
    Ok(format!("issue {id}{title}{by}"))
}

async fn delete_issue(ctx: &CallCtx, id: i64) -> Outcome {
    ctx.confirm(async {
        let named = issue_in_words(ctx, id).await?;
        Ok(Confirmation::new(format!(
            "Delete {named} with its comments? This cannot be undone."
        )))
    })
    .await?;
    let found = ctx
        .write_answer::<bool>(Route::delete("api/v1/Issues").seg(id))
        .await?
        .value;
    issue_found(found, id)?;
    on_issue(
        id,
        format!("issue {id} deleted with its comments; Ombi notifies the reporter"),
    )
}

async fn delete_comment(ctx: &CallCtx, id: i64) -> Outcome {
    let what = format!("comment {id}");
    // Ombi reads comments only per issue: the question names the id.
    ctx.confirm(async {
        Ok(Confirmation::new(format!(
            "Delete issue comment {id}? This cannot be undone."
        )))
    })
    .await?;
    // An unknown id is dereferenced before anything is deleted: a 500.
    ctx.upstream
        .write::<bool>(
            ctx.acting(),
            Route::delete("api/v1/Issues/comments").seg(id),
        )
        .await
        .map_err(|e| not_found_on_500(e, &what))?;
    let mut m = Mutation::new(Done::Completed).message(format!("{what} deleted"));
    m.comment_id = Some(id);
    m.upstream_result = Some(true);
    Ok(reply(m.into_data(), Vec::new(), false))
}

// ------------------------------------------------------------ categories

const CATEGORIES: &str = "api/v1/Issues/categories";

async fn categories(
    ctx: &CallCtx,
    warnings: &mut Vec<String>,
) -> Result<Vec<IssueCategory>, ToolError> {
    Ok(ctx
        .read_list::<IssueCategory>(Route::get(CATEGORIES), warnings)
        .await?
        .value)
}

/// Ombi answers `true` and no id: the id is the one new category of that
/// name between a read before and a read after.
async fn create_category(ctx: &CallCtx, name: &str) -> Outcome {
    let mut warnings = Vec::new();
    let before = categories(ctx, &mut warnings).await?;
    let same_name = |c: &IssueCategory| c.value.as_deref() == Some(name);
    if let Some(id) = before.iter().filter(|c| same_name(c)).find_map(|c| c.id) {
        warnings.push(format!(
            "a category with this name already exists (id {id}); Ombi keeps both"
        ));
    }
    ctx.upstream
        .write::<bool>(
            ctx.acting(),
            Route::post(CATEGORIES).json(&json!({ "value": name })),
        )
        .await?;
    let mut m = Mutation::new(Done::Completed);
    m.upstream_result = Some(true);
    let new: Vec<i64> = match categories(ctx, &mut warnings).await {
        Ok(after) => after
            .iter()
            .filter(|c| same_name(c))
            .filter_map(|c| c.id.filter(|i| *i > 0))
            .filter(|i| !before.iter().any(|b| b.id == Some(*i)))
            .collect(),
        Err(e) => {
            warnings.push(format!(
                "the new category's id could not be read back: {}",
                e.message
            ));
            Vec::new()
        }
    };
    let shown = sanitize(name);
    match new.as_slice() {
        [id] => {
            m.category_id = Some(*id);
            m.message = Some(format!("category \"{shown}\" created (id {id})"));
        }
        _ => {
            m.message = Some(format!("category \"{shown}\" created"));
            if new.len() > 1 {
                warnings.push(format!(
                    "{} categories of this name appeared at once (another caller?); read_reference `issue_categories` to pick the id",
                    new.len()
                ));
            }
        }
    }
    Ok(reply(m.into_data(), warnings, false))
}

/// Issues read per status when counting a category's issues: 10 pages of 100.
const SCAN_PAGE: u64 = 100;
const SCAN_PAGES: u64 = 10;

/// Only the category of an issue.
#[derive(Deserialize)]
struct InCategory {
    #[serde(rename = "issueCategoryId")]
    category: Option<i64>,
}

/// How many issues are in category `id`, over every status through the
/// bounded paged route (`None` in `.1` names a status not read to its end).
async fn issues_in(ctx: &CallCtx, id: i64) -> Result<(usize, Option<&'static str>), ToolError> {
    let mut warnings = Vec::new();
    let mut count = 0;
    let mut unfinished = None;
    for (code, label) in [
        (0, "pending"),
        (1, "in_progress"),
        (2, "resolved"),
        (3, "closed"),
    ] {
        let mut finished = false;
        for n in 0..SCAN_PAGES {
            // Note the order: take, then skip.
            let route = Route::get("api/v1/Issues")
                .seg(SCAN_PAGE)
                .seg(n * SCAN_PAGE)
                .seg(code);
            let got = ctx.read_list::<InCategory>(route, &mut warnings).await?;
            count += got.value.iter().filter(|i| i.category == Some(id)).count();
            if !got.cut && (got.value.len() as u64) < SCAN_PAGE {
                finished = true;
                break;
            }
        }
        if !finished {
            unfinished.get_or_insert(label);
        }
    }
    Ok((count, unfinished))
}

async fn delete_category(ctx: &CallCtx, id: i64) -> Outcome {
    let mut warnings = Vec::new();
    let what = format!("issue category {id}");
    let category = categories(ctx, &mut warnings)
        .await?
        .into_iter()
        .find(|c| c.id == Some(id))
        .ok_or_else(|| not_found(&what))?;
    let name = category.value.as_deref().map(sanitize).unwrap_or_default();
    let refuse = |message: String| Err(ToolError::new(ErrorCode::Conflict, message).into());
    match issues_in(ctx, id).await? {
        (0, None) => {
            ctx.confirm(async {
                Ok(Confirmation::new(format!(
                    "Delete the issue category “{name}” ({what}, no issues in it)? This cannot be undone."
                )))
            })
            .await?;
        }
        (0, Some(status)) => {
            return refuse(format!(
                "{what} (\"{name}\") was not deleted: Ombi deletes a category's issues with it, and more than {} `{status}` issues exist, so it could not be confirmed that none is in this category",
                SCAN_PAGE * SCAN_PAGES
            ));
        }
        (n, unfinished) => {
            let at_least = if unfinished.is_some() {
                "at least "
            } else {
                ""
            };
            return refuse(format!(
                "{what} (\"{name}\") still has {at_least}{n} issue(s), and Ombi would delete them with it (or fail when one has comments): delete those issues first (write_issue_manage `delete`)"
            ));
        }
    }
    ctx.upstream
        .write::<bool>(ctx.acting(), Route::delete(CATEGORIES).seg(id))
        .await?;
    let mut m = Mutation::new(Done::Completed).message(format!("{what} (\"{name}\") deleted"));
    m.category_id = Some(id);
    m.upstream_result = Some(true);
    Ok(reply(m.into_data(), warnings, false))
}
