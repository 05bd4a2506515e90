//! The tools, by domain (`requests/`, `issues/`, `media/`, `users/`,
//! `server/`). Each tool is one file named after it: its definition
//! ([`ToolDef`]: name, description, annotations, bundle, families,
//! arguments), its typed actions and its handler; what several tools of a
//! domain share is in the domain's own modules, never in another tool's file.
//! [`TOOLS`] is the catalogue of served tools: a tool exists for clients
//! exactly when it is listed there.
//!
//! A call runs [`call`]: validate → handler → envelope (with budget). The
//! daemon and every in-process test use it, so every tool is held to the same
//! checks.

pub mod audit;
mod ctx;
pub mod lockdown;
mod reads;
mod results;
pub mod view;
mod writes;

// The catalogue's files, by domain: adding a tool is its file, its line
// here and its line in `TOOLS` (docs/architecture.md, "Adding a read tool").
// What several tools of a domain share sits in a file of the domain named
// for what it holds; a tool file never imports another tool file.

/// Issues reported against titles, and their comments.
pub mod issues {
    pub mod filing;

    pub mod read_issues;
    pub mod write_issue_comment;
    pub mod write_issue_create;
    pub mod write_issue_manage;
}

/// Titles: search, discovery, one title's details, the lookup lists
/// (genres, languages, ...) and what the media server holds.
pub mod media {
    pub mod albums;

    pub mod read_discover;
    pub mod read_library;
    pub mod read_media;
    pub mod read_reference;
    pub mod read_search;
}

/// Media requests: reading, creating, voting on, subscribing to,
/// moderating, re-processing and deleting them, and the retry queue.
pub mod requests {
    /// Who may moderate, and `can_approve` for the acting user.
    pub mod approval;
    /// A movie request's HD and 4K sides as lists of their own.
    pub mod movie_sides;
    /// Period statistics counted from the request lists.
    pub mod period;
    /// Other users' movie requests withheld where Ombi leaks them.
    pub mod privacy;
    /// The request reads the request tools share.
    pub mod reads;
    /// Every TV season request, from Ombi's unpaged TV list.
    pub mod tv_list;
    /// Ombi's votes route and its voting switch.
    pub mod votes;
    /// Requests in words.
    pub mod words;

    pub mod read_request_stats;
    pub mod read_requests;
    pub mod read_votes;
    pub mod write_request_create;
    pub mod write_request_delete;
    pub mod write_request_moderate;
    pub mod write_request_options;
    pub mod write_request_reprocess;
    pub mod write_request_subscribe;
    pub mod write_retry_remove;
    pub mod write_vote;
}

/// The Ombi server's own state and configuration: status, settings, logs,
/// integrations (Radarr, Sonarr, Lidarr, media servers, notification
/// agents) and jobs.
pub mod server {
    pub mod sections;

    pub mod read_integration;
    pub mod read_logs;
    pub mod read_server;
    pub mod read_settings;
    pub mod write_integration_test;
    pub mod write_job_run;
    pub mod write_settings_patch;
}

/// Ombi's users: the acting user and the others, their preferences and
/// roles, and notifications sent to them.
pub mod users {
    pub mod accounts;

    pub mod read_users;
    pub mod write_notification_send;
    pub mod write_user_manage;
    pub mod write_user_preferences;
}

use std::panic::AssertUnwindSafe;
use std::time::Instant;

use futures::FutureExt;
use futures::future::BoxFuture;
use rmcp::model::ListToolsResult;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use tracing::{info, warn};

use crate::contract::{self, Envelope, Failure, Outcome, ToolError};
use crate::definition::{Args, BundleSet, Declared, ToolDef, mcp};
use crate::text;

pub use ctx::{CallCtx, Me};
pub(crate) use reads::note_read_limit;
pub(crate) use results::{
    language_ignored, local_page, not_found, not_found_on_500, not_found_on_null_dereference,
    partial, reply,
};

/// A tool's handler: validated arguments in, a family object or an error out.
pub type Handler = for<'a> fn(&'a CallCtx, &'a Args) -> BoxFuture<'a, Outcome>;

/// A served tool: its definition, its handler, and its example calls and
/// bad-argument cases (kept beside the definition, outside `tools/list`).
pub struct Tool {
    pub def: ToolDef,
    pub run: Handler,
    /// Example calls: the arguments as JSON text, and whether the call
    /// succeeds (`ok`) against the sample Ombi (the fake of the tests). One
    /// or more per action of a read tool and per action that asks first
    /// (`#[action(confirm)]`), one or more per write tool. A string
    /// `"$user(NAME)"` stands for the id of the sample's user NAME and
    /// `"$revision(SECTION)"` for the section's current revision. They are
    /// the tool's first tests: each runs in process on a fresh sample
    /// (`contract::examples`), all of them in a row through the official
    /// Python SDK (reads first), and a declining client is held to the
    /// declared confirmations with them (`contract::confirmations`).
    pub examples: &'static [(&'static str, bool)],
    /// Invalid calls: the arguments as JSON text, and the `field` of the
    /// `INVALID_ARGUMENT` error each must answer (the contract and
    /// over-the-socket tests check every one).
    pub invalid: &'static [(&'static str, &'static str)],
}

/// A tool's typed actions: one variant per action, naming exactly the
/// arguments it takes, as validated arguments deserialize into them
/// (`#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]`),
/// declared once with `#[derive(ToolActions)]` (the action's description,
/// argument shapes, confirmation and resource link: [`Declared`]), and what
/// each one does.
pub trait Actions: DeserializeOwned + Declared + Send + 'static {
    fn run(self, ctx: &CallCtx) -> impl Future<Output = Outcome> + Send;
}

impl Tool {
    /// The tool of a definition whose actions are `A`'s: its handler parses
    /// the validated arguments into `A` and runs it.
    pub const fn new<A: Actions>(def: ToolDef) -> Tool {
        Tool {
            def: ToolDef {
                actions: A::ACTIONS,
                ..def
            },
            run: handle::<A>,
            examples: &[],
            invalid: &[],
        }
    }

    /// This tool with its example calls: `(arguments as JSON text, ok)`.
    pub const fn examples(self, examples: &'static [(&'static str, bool)]) -> Tool {
        Tool { examples, ..self }
    }

    /// This tool with its invalid calls: `(arguments as JSON text, error field)`.
    pub const fn invalid(self, invalid: &'static [(&'static str, &'static str)]) -> Tool {
        Tool { invalid, ..self }
    }
}

fn handle<'a, A: Actions>(ctx: &'a CallCtx, args: &'a Args) -> BoxFuture<'a, Outcome> {
    Box::pin(async move { args.parse::<A>()?.run(ctx).await })
}

/// The catalogue: every served tool, in `tools/list` order.
pub static TOOLS: &[&Tool] = &[
    // core
    &media::read_search::TOOL,
    &media::read_discover::TOOL,
    &media::read_media::TOOL,
    &media::read_reference::TOOL,
    &requests::read_requests::TOOL,
    &requests::read_request_stats::TOOL,
    &issues::read_issues::TOOL,
    &requests::read_votes::TOOL,
    &users::read_users::TOOL,
    &media::read_library::TOOL,
    &server::read_server::TOOL,
    &requests::write_request_create::TOOL,
    &requests::write_request_subscribe::TOOL,
    &requests::write_vote::TOOL,
    &issues::write_issue_create::TOOL,
    &issues::write_issue_comment::TOOL,
    &users::write_user_preferences::TOOL,
    // moderation
    &server::read_integration::TOOL,
    &requests::write_request_moderate::TOOL,
    &requests::write_request_options::TOOL,
    &requests::write_request_reprocess::TOOL,
    &requests::write_request_delete::TOOL,
    &issues::write_issue_manage::TOOL,
    // administration
    &server::read_settings::TOOL,
    &server::read_logs::TOOL,
    &server::write_settings_patch::TOOL,
    &server::write_integration_test::TOOL,
    &server::write_job_run::TOOL,
    &users::write_user_manage::TOOL,
    &users::write_notification_send::TOOL,
    &requests::write_retry_remove::TOOL,
];

/// Every tool definition, in catalogue order.
pub fn definitions() -> impl Iterator<Item = &'static ToolDef> {
    TOOLS.iter().map(|t| &t.def)
}

/// The served tool of that name.
pub fn find(name: &str) -> Option<&'static Tool> {
    TOOLS.iter().copied().find(|t| t.def.name == name)
}

/// The tools a session sees: in its bundles, without `write_*` when
/// read-only. Catalogue order.
pub fn visible(bundles: BundleSet, read_only: bool) -> impl Iterator<Item = &'static Tool> {
    TOOLS
        .iter()
        .copied()
        .filter(move |t| bundles.contains(t.def.bundle) && !(read_only && t.def.is_write()))
}

/// The protocol error's text for a tool this session does not offer, with
/// the next step: why a real tool is hidden (its bundle, or read-only), else
/// the offered tools its name resembles (same `read_`/`write_` family word).
pub fn unknown_tool(name: &str, bundles: BundleSet, read_only: bool) -> String {
    if let Some(t) = find(name) {
        let why = if read_only && t.def.is_write() {
            "this peer is read-only (OMBI_READ_ONLY or the policy's `read_only`)".to_string()
        } else {
            format!(
                "it is in the `{}` bundle, which this peer is not given (OMBI_BUNDLES or the \
                 policy's `bundles`); ask the Ombi admin",
                t.def.bundle.name()
            )
        };
        return format!("tool {name} is not offered to this peer: {why}");
    }
    let stem: String = name.split('_').take(2).collect::<Vec<_>>().join("_");
    let like: Vec<&str> = visible(bundles, read_only)
        .map(|t| t.def.name)
        .filter(|n| n.starts_with(&stem) || n.contains(name))
        .collect();
    if like.is_empty() {
        format!("unknown tool: {name}; tools/list names the tools this peer has")
    } else {
        format!("unknown tool: {name}; did you mean {}?", like.join(", "))
    }
}

/// The `tools/list` result of the policy's view alone (every action of
/// every tool its bundles allow; a session narrows it by roles with
/// [`view::view`]).
pub fn list(bundles: BundleSet, read_only: bool) -> ListToolsResult {
    ListToolsResult::with_all_items(visible(bundles, read_only).map(Tool::mcp).collect())
}

impl Tool {
    /// This tool as `tools/list` advertises it, built on each use: the daemon
    /// keeps only the serialized [`view::View::listing`], not the schema trees behind it.
    pub fn mcp(&self) -> rmcp::model::Tool {
        crate::views::declare(mcp::build(&self.def))
    }
}

/// One call, the one path every caller takes: validate the arguments, run
/// the handler (a panic or a cancellation becomes INTERNAL_ERROR: one bad call
/// never takes the daemon down), check the reply's family, withhold what
/// lockdown hides and remove hidden text ([`crate::text`]), build the bounded
/// envelope, log the call and, for a write, its audit record. Its Ombi
/// calls take the peer's turns (`upstream::turns`).
pub async fn call(
    tool: &'static Tool,
    ctx: &CallCtx,
    arguments: Option<&Map<String, Value>>,
) -> Envelope {
    crate::upstream::turns::as_peer(ctx.identity.uid, call_as_peer(tool, ctx, arguments)).await
}

async fn call_as_peer(
    tool: &'static Tool,
    ctx: &CallCtx,
    arguments: Option<&Map<String, Value>>,
) -> Envelope {
    let started = Instant::now();
    ctx.confirmer.reset();
    let (args, mut outcome) = match tool.def.validate(arguments) {
        Ok(args) => {
            let outcome = run_as_roles_allow(tool, ctx, &args).await;
            (Some(args), outcome)
        }
        Err(e) => (None, Err(Failure::from(e))),
    };
    lockdown::apply(ctx, &mut outcome).await;
    scrub(&mut outcome);
    // The `ask` warning of an action the client could not confirm.
    if let Some(warning) = ctx.confirmer.record().warning {
        match &mut outcome {
            Ok(reply) => reply.warnings.push(warning.into()),
            Err(failure) => failure.warnings.push(warning.into()),
        }
    }
    let envelope = contract::envelope(tool.def.name, outcome, &ctx.correlation_id);
    let elapsed = started.elapsed();
    let elapsed_ms = elapsed.as_millis() as u64;
    let (name, uid, correlation_id) = (tool.def.name, ctx.identity.uid, &ctx.correlation_id);
    // Plain values in the log (`code=NOT_FOUND`), not JSON `Value` debug forms.
    match envelope.error() {
        None => {
            let truncated = envelope.truncated();
            info!(tool = name, %correlation_id, uid, elapsed_ms, truncated, "tool call ok")
        }
        Some(e) => {
            let (code, field) = (e.code.label(), e.field.as_deref().unwrap_or(""));
            warn!(tool = name, %correlation_id, uid, elapsed_ms, %code, %field, "tool call failed")
        }
    }
    // A call that only put the question (2026-07-28) decided nothing: its
    // retry, which carries the answer, gets the audit record.
    if tool.def.is_write() && ctx.confirmer.record().label != crate::confirm::Label::Asked {
        audit::record(&tool.def, ctx, args.as_ref(), &envelope, elapsed);
    }
    envelope
}

/// Removes hidden text ([`text::untrusted`]) from an outcome before its
/// envelope is built: `data`, the warnings and the error message, with one
/// warning when anything was removed.
fn scrub(outcome: &mut Outcome) {
    let (data, warnings, message) = match outcome {
        Ok(r) => (Some(&mut r.data), &mut r.warnings, None),
        Err(f) => (f.data.as_mut(), &mut f.warnings, Some(&mut f.error.message)),
    };
    let mut removed = data.map_or(0, text::untrusted::scrub_value);
    removed += warnings
        .iter_mut()
        .map(text::untrusted::scrub_string)
        .sum::<usize>();
    removed += message.map_or(0, text::untrusted::scrub_string);
    if removed > 0 {
        warnings.push(text::untrusted::removal_warning(removed));
    }
}

/// Runs an action the acting user's roles reach: one they do not is refused
/// `FORBIDDEN` naming the role before anything is sent to Ombi (roles are
/// read only for actions needing more than a signed-in user), and Ombi's
/// own role refusal (403) is put in the same words.
async fn run_as_roles_allow(tool: &'static Tool, ctx: &CallCtx, args: &Args) -> Outcome {
    let Some(action) = tool.def.action(args.action()) else {
        return run(tool, ctx, args).await;
    };
    let mut roles = None;
    if action.role > crate::definition::Role::User {
        let read = view::roles(ctx).await;
        if let Some(refused) = view::refusal(action, &read) {
            return Err(Failure::from(refused));
        }
        roles = Some(read);
    }
    let outcome = run(tool, ctx, args).await;
    match outcome {
        Err(mut failure)
            if failure.error.code == contract::ErrorCode::Forbidden
                && failure.error.http_status == Some(403) =>
        {
            let roles = match roles {
                Some(r) => r,
                None => view::roles(ctx).await,
            };
            failure.error = view::forbidden(action, &roles);
            Err(failure)
        }
        // A business refusal that means a missing role: said which.
        Err(mut failure) if failure.error.code == contract::ErrorCode::Forbidden => {
            let roles = match roles {
                Some(r) => r,
                None => view::roles(ctx).await,
            };
            if let Some(message) = view::refused_by_rule(&failure.error.message, &roles) {
                failure.error.message = message;
            }
            Err(failure)
        }
        other => other,
    }
}

async fn run(tool: &'static Tool, ctx: &CallCtx, args: &Args) -> Outcome {
    let work = AssertUnwindSafe((tool.run)(ctx, args)).catch_unwind();
    let reply = tokio::select! {
        result = work => result.unwrap_or_else(|_| {
            Err(Failure::from(ToolError::internal("the tool failed unexpectedly; see the daemon log")))
        }),
        _ = ctx.cancel.cancelled() => Err(Failure::from(ToolError::internal("cancelled"))),
    }?;
    match reply.family() {
        Some(f) if tool.def.families.contains(&f) => Ok(reply),
        other => Err(Failure::from(ToolError::internal(format!(
            "the tool produced a {other:?} result, which it does not declare"
        )))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_tool_names_the_next_step() {
        use crate::definition::Bundle;
        let core = BundleSet::only(Bundle::Core);
        let m = unknown_tool("write_request", core, false);
        assert!(m.contains("did you mean write_request_create"), "{m}");
        assert!(!m.contains("write_request_moderate"), "{m}");
        let m = unknown_tool("write_request_moderate", core, false);
        assert!(m.contains("`moderation` bundle"), "{m}");
        let m = unknown_tool("write_vote", BundleSet::all(), true);
        assert!(m.contains("read-only"), "{m}");
        let m = unknown_tool("frobnicate", core, false);
        assert!(m.contains("tools/list"), "{m}");
    }

    #[test]
    fn every_definition_is_consistent() {
        let found: Vec<String> = definitions().flat_map(ToolDef::inconsistencies).collect();
        assert!(found.is_empty(), "{found:#?}");
    }

    #[test]
    fn names_are_unique_and_files_match() {
        let mut names: Vec<&str> = definitions().map(|d| d.name).collect();
        let n = names.len();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), n, "duplicate tool names");
    }

    /// A tool's example calls are JSON objects its validator accepts, its
    /// invalid calls distinct JSON objects (the tests in `tests/it/` hold them to
    /// their fields and outcomes).
    #[test]
    fn examples_and_invalid_calls_are_json_objects() {
        let mut bad = Vec::new();
        for t in TOOLS {
            let name = t.def.name;
            for (text, _) in t.examples {
                match serde_json::from_str::<Value>(text) {
                    Ok(Value::Object(args)) => {
                        if let Err(e) = t.def.validate(Some(&args)) {
                            bad.push(format!("{name} example {text}: {}", e.message));
                        }
                    }
                    _ => bad.push(format!("{name} example {text}: not a JSON object")),
                }
            }
            for (i, (text, field)) in t.invalid.iter().enumerate() {
                if !matches!(serde_json::from_str::<Value>(text), Ok(Value::Object(_))) {
                    bad.push(format!("{name} invalid call {text}: not a JSON object"));
                }
                if t.invalid[..i].contains(&(*text, *field)) {
                    bad.push(format!("{name} invalid call {text}: listed twice"));
                }
            }
        }
        assert!(bad.is_empty(), "{bad:#?}");
    }
}
