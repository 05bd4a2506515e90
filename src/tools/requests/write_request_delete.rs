//! `write_request_delete`: delete one request (movie, TV parent, TV child,
//! album); never Ombi's delete-all route. Deleting a show's last child
//! request makes Ombi delete the show's (parent) request too: the parent is
//! read back and the result says so (`docs/ombi-notes.md`, "Deletes").

use serde::Deserialize;
use serde_json::Value;

use crate::confirm::Confirmation;
use crate::contract::TargetKind;
use crate::contract::{ErrorCode, Failure, Family, Outcome, ToolError};
use crate::definition::params::*;
use crate::definition::{Bundle, ToolActions, ToolDef};
use crate::projection::mutation::{ItemResult, Mutation, Outcome as Done};
use crate::text::message::sanitize;
use crate::tools::requests::reads::{parent_of_child, tv_parent_exists};
use crate::tools::requests::words::{
    TvLevel, named, request_in_words, show_request, tv_id_hint, with_answer,
};
use crate::tools::{Actions, CallCtx, Tool};
use crate::tools::{not_found_on_500, reply};
use crate::upstream::{RequestEngineResult, Route};

pub static TOOL: Tool = Tool::new::<Action>(ToolDef {
    name: "write_request_delete",
    title: "Delete a request",
    bundle: Bundle::Moderation,
    destructive: true,
    description: "Delete one request (a movie, a whole TV show, one TV season-level child, or an album). Deleting a show's last child also deletes the show's request. The person is asked to confirm first when the client can ask.",
    families: &[Family::Mutation],
    ..ToolDef::BASE
})
.examples(&[
    (r#"{"target": {"kind": "tv_child", "id": 21}}"#, true),
])
.invalid(&[
    (r#"{"target": {"kind": "movie", "id": 0}}"#, "/target/id"),
]);

#[derive(Deserialize)]
struct Target {
    kind: Kind,
    id: i64,
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "snake_case")]
enum Kind {
    Movie,
    TvParent,
    TvChild,
    Album,
}

#[derive(Deserialize, ToolActions)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
enum Action {
    /// delete the request
    #[action(confirm)]
    #[action(role = "ManageOwnRequests")]
    Delete { target: Target },
}

impl Actions for Action {
    async fn run(self, ctx: &CallCtx) -> Outcome {
        match self {
            Action::Delete { target } => {
                let id = target.id;
                match target.kind {
                    // A whole show asks from the read it makes anyway.
                    Kind::TvParent => tv_show(ctx, id).await,
                    Kind::Movie => {
                        confirm(ctx, MediaKind::Movie, id).await?;
                        let route = Route::delete("api/v1/Request/movie").seg(id);
                        single(ctx, route, TargetKind::Movie, id, "movie request").await
                    }
                    Kind::Album => {
                        confirm(ctx, MediaKind::Album, id).await?;
                        let route = Route::delete("api/v1/request/music").seg(id);
                        single(ctx, route, TargetKind::Album, id, "album request").await
                    }
                    Kind::TvChild => {
                        confirm(ctx, MediaKind::Tv, id).await?;
                        tv_child(ctx, id).await
                    }
                }
            }
        }
    }
}

/// Asks the person before deleting request `id`, named from one read of it.
async fn confirm(ctx: &CallCtx, media: MediaKind, id: i64) -> Result<(), ToolError> {
    ctx.confirm(async {
        let named = request_in_words(ctx, media, id).await?;
        Ok(Confirmation::new(format!(
            "Delete {named}? This cannot be undone."
        )))
    })
    .await?;
    Ok(())
}

/// A delete answering `RequestEngineResult`; Ombi dereferences an unknown id
/// before deleting anything, so its 500 means "not found".
async fn delete(ctx: &CallCtx, route: Route, what: &str) -> Result<RequestEngineResult, ToolError> {
    ctx.upstream
        .write::<RequestEngineResult>(ctx.acting(), route)
        .await
        .map_err(|e| not_found_on_500(e, what))
}

fn deleted(kind: TargetKind, id: i64, message: String, r: &RequestEngineResult) -> Mutation {
    let mut m = with_answer(
        Mutation::new(Done::Completed)
            .on_request(kind, id)
            .message(message),
        r,
    );
    m.affected_count = Some(1);
    m
}

async fn single(ctx: &CallCtx, route: Route, kind: TargetKind, id: i64, noun: &str) -> Outcome {
    let what = format!("{noun} {id}");
    let r = delete(ctx, route, &what).await?;
    let m = deleted(kind, id, format!("{what} deleted"), &r);
    Ok(reply(m.into_data(), Vec::new(), false))
}

async fn tv_child(ctx: &CallCtx, id: i64) -> Outcome {
    let what = format!("TV child request {id}");
    // Its parent, to tell afterwards whether Ombi deleted it too.
    let parent = parent_of_child(ctx, id).await.ok().map(|p| p.id);
    let r = match delete(ctx, Route::delete("api/v1/Request/tv/child").seg(id), &what).await {
        Ok(r) => r,
        Err(e) => {
            return Err(tv_id_hint(ctx, e, id, TvLevel::Child, "/target/id")
                .await
                .into());
        }
    };
    let mut m = deleted(TargetKind::TvChild, id, format!("{what} deleted"), &r);
    let mut warnings = Vec::new();
    let gone = match parent {
        Some(p) => tv_parent_exists(ctx, p).await.map(|exists| (p, !exists)),
        None => None,
    };
    match gone {
        Some((p, true)) => {
            warnings.push(format!(
                "that was the show's last child request, so Ombi also deleted the show's request (TV parent request {p})"
            ));
            m.message = Some(format!(
                "{what} deleted, and with it TV parent request {p} (it was the show's last child request)"
            ));
            m.affected_count = Some(2);
            m.item_results = vec![
                item(format!("tv_child:{id}"), None),
                item(
                    format!("tv_parent:{p}"),
                    Some("deleted by Ombi with its last child request"),
                ),
            ];
        }
        Some((_, false)) => {}
        None => warnings.push(
            "whether this was the show's last child request (Ombi then deletes the show's request too) could not be checked: read_requests `get` the parent to see".into(),
        ),
    }
    Ok(reply(m.into_data(), warnings, false))
}

fn item(identifier: String, message: Option<&str>) -> ItemResult {
    ItemResult {
        identifier,
        outcome: Done::Completed,
        message: message.map(str::to_string),
    }
}

/// The show's request with every child. Ombi answers an empty 200, so the
/// parent is read before (children to report) and after (to confirm).
async fn tv_show(ctx: &CallCtx, id: i64) -> Outcome {
    let what = format!("TV parent request {id}");
    let before = show_request(ctx, id, "/target/id").await?;
    let children: Vec<i64> = before
        .child_requests
        .iter()
        .flatten()
        .filter_map(|c| c.id.filter(|i| *i > 0))
        .collect();
    ctx.confirm(async {
        let named = named(ctx, "TV show", before.title.as_deref(), id, None);
        Ok(Confirmation::new(format!(
            "Delete {named} with its {} season-level request(s)? This cannot be undone.",
            children.len()
        )))
    })
    .await?;
    ctx.upstream
        .write_json::<Value>(ctx.acting(), Route::delete("api/v1/Request/tv").seg(id))
        .await
        .map_err(|e| not_found_on_500(e, &what))?;
    let title = before
        .title
        .as_deref()
        .map(|t| format!(" ({})", sanitize(t)))
        .unwrap_or_default();
    match tv_parent_exists(ctx, id).await {
        Some(true) => {
            let m = Mutation::new(Done::Unknown)
                .on_request(TargetKind::TvParent, id)
                .message(format!(
                    "{what}{title} still reads back after Ombi answered the delete"
                ));
            Err(Failure {
                error: ToolError::new(
                    ErrorCode::UnknownOutcome,
                    format!("Ombi answered the delete of {what}, but the request still exists: read it before retrying"),
                )
                .retryable(false),
                data: Some(m.into_data()),
                warnings: Vec::new(),
            })
        }
        read_back => {
            let mut warnings = Vec::new();
            if read_back.is_none() {
                warnings.push(
                    "the request could not be read back after Ombi's (empty) answer to the delete"
                        .into(),
                );
            }
            let mut m = Mutation::new(Done::Completed)
                .on_request(TargetKind::TvParent, id)
                .message(format!(
                    "{what}{title} deleted with its {} child request(s)",
                    children.len()
                ));
            m.affected_count = Some(children.len() as u64 + 1);
            if read_back.is_some() {
                m.item_results = children
                    .iter()
                    .take(100)
                    .map(|c| item(format!("tv_child:{c}"), Some("deleted with the show")))
                    .collect();
            }
            Ok(reply(m.into_data(), warnings, false))
        }
    }
}
