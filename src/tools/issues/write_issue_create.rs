//! `write_issue_create`: report an issue as the acting user. Ombi stores
//! what the body says for `status`, `id` and the resolved date, so only the
//! fields this tool sets are sent; the category is checked first (an unknown
//! one fails inside Ombi's database).

use serde::{Deserialize, Serialize};

use crate::contract::{Family, Outcome, ToolError};
use crate::definition::params::*;
use crate::definition::shape::{Field, Ty};
use crate::definition::{Bundle, ToolActions, ToolDef};
use crate::projection::mutation::{Mutation, Outcome as Done};
use crate::projection::reference::IssueCategory;
use crate::tools::reply;
use crate::tools::writes::note_api_user;
use crate::tools::{Actions, CallCtx, Tool};
use crate::upstream::Route;

const TITLE: Field = Field::opt("title", Ty::Str { min: 1, max: 200 }, "The media's title.");
const DESCRIPTION: Field = Field::opt(
    "description",
    Ty::Str { min: 1, max: 4000 },
    "What is wrong.",
);
const SUBJECT: Field = Field::opt(
    "subject",
    Ty::Str { min: 1, max: 200 },
    "Short subject line.",
);

pub static TOOL: Tool = Tool::new::<Action>(ToolDef {
    name: "write_issue_create",
    title: "Report an issue",
    bundle: Bundle::Core,
    destructive: false,
    description: "Report a problem with a title or request (bad quality, wrong language, missing episodes). Filed as Ombi's own pages file it, so it shows there: a movie under its IMDb id, a show under its show-level request.",
    families: &[Family::Mutation],
    ..ToolDef::BASE
})
.examples(&[
    (r#"{"title": "Inception", "description": "No sound", "category_id": 1, "request_type": "movie"}"#, true),
])
.invalid(&[
    (r#"{"title": "x", "description": "y", "category_id": 1}"#, "/request_type"),
    (r#"{"action": "create", "title": "x"}"#, "/action"),
]);

/// The action, as validated arguments deserialize into it.
#[derive(Deserialize, ToolActions)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
enum Action {
    /// report an issue
    #[action(links = issue)]
    Create {
        title: String,
        description: String,
        category_id: i64,
        request_type: MediaKind,
        subject: Option<String>,
        request_id: Option<i64>,
        provider_id: Option<String>,
    },
}

/// The `Issues` fields this tool sets; the rest (status pending, dates,
/// reporter) are left to Ombi.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct IssueBody {
    title: String,
    request_type: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    provider_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    request_id: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    subject: Option<String>,
    description: String,
    issue_category_id: i64,
}

impl Actions for Action {
    async fn run(self, ctx: &CallCtx) -> Outcome {
        match self {
            Action::Create {
                title,
                description,
                category_id,
                request_type,
                subject,
                request_id,
                provider_id,
            } => {
                // Filed where Ombi's UI files them, so its title page shows them.
                let (request_id, provider_id) =
                    super::filing::issue_filing(ctx, request_type, request_id, provider_id).await?;
                let body = IssueBody {
                    title,
                    request_type: request_type.code(),
                    provider_id,
                    request_id,
                    subject,
                    description,
                    issue_category_id: category_id,
                };
                create(ctx, body).await
            }
        }
    }
}

async fn create(ctx: &CallCtx, body: IssueBody) -> Outcome {
    let mut warnings = Vec::new();
    let categories = ctx
        .read_list::<IssueCategory>(Route::get("api/v1/Issues/categories"), &mut warnings)
        .await?;
    if !categories
        .value
        .iter()
        .any(|c| c.id == Some(body.issue_category_id))
    {
        return Err(ToolError::invalid(
            "/category_id",
            format!(
                "Ombi has no issue category {}: take one from read_reference issue_categories",
                body.issue_category_id
            ),
        )
        .into());
    }
    let id = ctx
        .upstream
        .write_json::<i64>(ctx.acting(), Route::post("api/v1/Issues").json(&body))
        .await?
        .filter(|i| *i > 0);
    let Some(id) = id else {
        return Err(ToolError::new(
            crate::contract::ErrorCode::UnknownOutcome,
            "Ombi answered POST api/v1/Issues without the new issue's id; read_issues shows whether it was created",
        )
        .retryable(false)
        .into());
    };
    note_api_user(ctx, "the issue is", &mut warnings);
    let mut m = Mutation::new(Done::Completed).message(format!(
        "reported issue {id} (pending); Ombi notifies its admins"
    ));
    m.issue_id = Some(id);
    m.category_id = Some(body.issue_category_id);
    Ok(reply(m.into_data(), warnings, false))
}
