//! `write_request_moderate`: approve, deny, mark available / unavailable one
//! request (movie, TV child, album). Deny is a PUT; TV acts on the child id.
//! Ombi's answers and what they leave unsaid: `docs/ombi-notes.md`
//! ("Moderation answers", "Requests are saved before they are sent").

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::confirm::Confirmation;
use crate::contract::{ErrorCode, Failure, Family, Outcome, ToolError};
use crate::definition::params::*;
use crate::definition::shape::{Field, Ty};
use crate::definition::{Bundle, ToolActions, ToolDef};
use crate::projection::mutation::{Mutation, Outcome as Done};
use crate::text::message::sanitize;
use crate::tools::reply;
use crate::tools::requests::reads::{album_by_id, movie};
use crate::tools::requests::words::{TvLevel, request_in_words, tv_id_hint, with_answer};
use crate::tools::{Actions, CallCtx, Tool};
use crate::upstream::{BusinessResult, RequestEngineResult, Route};

pub static TOOL: Tool = Tool::new::<Action>(ToolDef {
    name: "write_request_moderate",
    title: "Moderate a request",
    bundle: Bundle::Moderation,
    destructive: true,
    description: "Approve or deny a pending request, or mark it available/unavailable by hand (TV: the child request id). Approving sends it to Radarr/Sonarr/Lidarr and notifies the requester only when Ombi's notification rules allow; deny and mark_available notify the requester; mark_unavailable sends no notification. Actions marked so ask the person to confirm when the client can ask (deny: the reason can be edited there).",
    families: &[Family::Mutation],
    check: Some(is_4k_movie_only),
    ..ToolDef::BASE
})
.examples(&[
    (r#"{"action": "deny", "media": "movie", "request_id": 2, "reason": "e2e"}"#, true),
    (r#"{"action": "mark_unavailable", "media": "movie", "request_id": 1}"#, true),
])
.invalid(&[
    (r#"{"action": "approve", "media": "tv", "request_id": 1, "is_4k": true}"#, "/is_4k"),
    (r#"{"action": "deny", "media": "movie", "request_id": 1.0}"#, "/request_id"),
]);

fn is_4k_movie_only(_action: &str, args: &Map<String, Value>) -> Result<(), ToolError> {
    let media = args.get("media").and_then(Value::as_str);
    if args.contains_key("is_4k") && media.is_some_and(|m| m != "movie") {
        return Err(ToolError::invalid(
            "/is_4k",
            "`is_4k` applies to movie requests only; omit it for `tv` and `album`",
        ));
    }
    Ok(())
}

const REASON: Field = Field::opt(
    "reason",
    Ty::Str { min: 1, max: 1000 },
    "Why it is denied (shown to the requester).",
);

/// The actions, as validated arguments deserialize into them.
#[derive(Deserialize, ToolActions)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
enum Action {
    /// approve the request
    #[action(role = "PowerUser")]
    Approve {
        media: MediaKind,
        request_id: i64,
        is_4k: bool,
    },
    /// deny the request
    #[action(confirm)]
    #[action(role = "PowerUser")]
    Deny {
        media: MediaKind,
        request_id: i64,
        is_4k: bool,
        reason: Option<String>,
    },
    /// mark as available
    #[action(role = "PowerUser")]
    MarkAvailable {
        media: MediaKind,
        request_id: i64,
        is_4k: bool,
    },
    /// mark as not available
    #[action(confirm)]
    #[action(role = "PowerUser")]
    MarkUnavailable {
        media: MediaKind,
        request_id: i64,
        is_4k: bool,
    },
}

/// The request an action names.
struct On {
    media: MediaKind,
    request_id: i64,
    is_4k: bool,
}

/// A deny: the request, and the reason the arguments give.
struct DenyArgs {
    on: On,
    reason: Option<String>,
}

impl Actions for Action {
    async fn run(self, ctx: &CallCtx) -> Outcome {
        let on = |media, request_id, is_4k| On {
            media,
            request_id,
            is_4k,
        };
        match self {
            Action::Approve {
                media,
                request_id,
                is_4k,
            } => approve(ctx, &on(media, request_id, is_4k)).await,
            Action::Deny {
                media,
                request_id,
                is_4k,
                reason,
            } => {
                let d = DenyArgs {
                    on: on(media, request_id, is_4k),
                    reason,
                };
                let proceed = ctx
                    .confirm(async {
                        let named = request_in_words(ctx, d.on.media, d.on.request_id).await?;
                        Ok(Confirmation::new(format!(
                            "Deny {named}{}? The requester is told.",
                            four_k(&d.on)
                        ))
                        .with_reason(d.reason.as_deref()))
                    })
                    .await?;
                let reason = proceed.reason(d.reason.as_deref());
                deny(ctx, &d.on, reason.as_deref()).await
            }
            Action::MarkAvailable {
                media,
                request_id,
                is_4k,
            } => {
                let on = on(media, request_id, is_4k);
                let name = name_of(ctx, &on).await;
                let r = send(ctx, &on, Verb::Available, None).await?;
                done(&on, &r, format!("{name} is marked available"), Vec::new())
            }
            Action::MarkUnavailable {
                media,
                request_id,
                is_4k,
            } => {
                let on = on(media, request_id, is_4k);
                ctx.confirm(async {
                    let named = request_in_words(ctx, on.media, on.request_id).await?;
                    Ok(Confirmation::new(format!(
                        "Mark {named}{} as not available?",
                        four_k(&on)
                    )))
                })
                .await?;
                let name = name_of(ctx, &on).await;
                let r = send(ctx, &on, Verb::Unavailable, None).await?;
                done(&on, &r, format!("{name} is marked unavailable"), Vec::new())
            }
        }
    }
}

#[derive(Clone, Copy)]
enum Verb {
    Approve,
    Deny,
    Available,
    Unavailable,
}

/// `MovieUpdateModel` / `DenyMovieModel` / `TvUpdateModel` / `AlbumUpdateModel`.
#[derive(Serialize)]
struct Body<'a> {
    id: i64,
    /// Movies only.
    #[serde(rename = "is4K", skip_serializing_if = "Option::is_none")]
    is_4k: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'a str>,
}

fn route(media: MediaKind, verb: Verb) -> Route {
    use {MediaKind::*, Verb::*};
    match (media, verb) {
        (Movie, Approve) => Route::post("api/v1/Request/movie/approve"),
        (Movie, Deny) => Route::put("api/v1/Request/movie/deny"),
        (Movie, Available) => Route::post("api/v1/Request/movie/available"),
        (Movie, Unavailable) => Route::post("api/v1/Request/movie/unavailable"),
        (Tv, Approve) => Route::post("api/v1/Request/tv/approve"),
        (Tv, Deny) => Route::put("api/v1/Request/tv/deny"),
        (Tv, Available) => Route::post("api/v1/Request/tv/available"),
        (Tv, Unavailable) => Route::post("api/v1/Request/tv/unavailable"),
        (Album, Approve) => Route::post("api/v1/request/music/approve"),
        (Album, Deny) => Route::put("api/v1/request/music/deny"),
        (Album, Available) => Route::post("api/v1/request/music/available"),
        (Album, Unavailable) => Route::post("api/v1/request/music/unavailable"),
    }
}

/// Sends the moderation call; Ombi's answer unchecked, but for an unknown
/// id (`Request does not exist`, `ChildRequestDoesNotExist` on a 200):
/// NOT_FOUND on `/request_id`, naming the season request ids when a TV
/// show's id was given.
async fn send(
    ctx: &CallCtx,
    on: &On,
    verb: Verb,
    reason: Option<&str>,
) -> Result<RequestEngineResult, ToolError> {
    let body = Body {
        id: on.request_id,
        is_4k: (on.media == MediaKind::Movie).then_some(on.is_4k),
        reason,
    };
    let r: RequestEngineResult = ctx
        .write_answer(route(on.media, verb).json(&body))
        .await?
        .value;
    match r.clone().check(200) {
        Err(e) if e.code == ErrorCode::NotFound => Err(match on.media {
            MediaKind::Tv => tv_id_hint(ctx, e, on.request_id, TvLevel::Child, "/request_id").await,
            _ => {
                let mut e = e;
                e.field = Some("/request_id".into());
                e
            }
        }),
        _ => Ok(r),
    }
}

/// A completed action (`message`: what was done, in words), or the failure
/// Ombi's answer means.
fn done(on: &On, r: &RequestEngineResult, message: String, warnings: Vec<String>) -> Outcome {
    r.clone().check(200)?;
    let m = Mutation::new(Done::Completed)
        .on_request(on.media.target_kind(), on.request_id)
        .message(message);
    Ok(reply(with_answer(m, r).into_data(), warnings, false))
}

/// The request in words for a result: its title and requester ("the movie
/// request for *Heat* (request 2, requested by bob)", " (4K)" for a 4K
/// side), read once before the write; only the ids when it cannot be read
/// (the write itself then says whether the request exists).
async fn name_of(ctx: &CallCtx, on: &On) -> String {
    match request_in_words(ctx, on.media, on.request_id).await {
        Ok(named) => format!("{named}{}", four_k(on)),
        Err(_) => subject(on),
    }
}

/// "with the reason “…”" or "without a reason", for a deny's result.
fn reason_words(ctx: &CallCtx, reason: Option<&str>) -> String {
    match reason
        .map(|r| ctx.upstream.clean(r))
        .filter(|r| !r.trim().is_empty())
    {
        Some(r) => format!("with the reason \u{201c}{r}\u{201d}"),
        None => "without a reason".into(),
    }
}

/// " (4K)" for a question about a movie's 4K request.
fn four_k(on: &On) -> &'static str {
    if on.is_4k { " (4K)" } else { "" }
}

/// "4K movie request 2", "TV child request 12".
fn subject(on: &On) -> String {
    let s = on.media.request(on.request_id);
    if on.is_4k { format!("4K {s}") } else { s }
}

/// What an album deny answers on success (`MusicRequestEngine.DenyAlbumById`
/// never sets `Result`).
const ALBUM_DENY_OK: &str = "Request successfully deleted";

async fn deny(ctx: &CallCtx, on: &On, reason: Option<&str>) -> Outcome {
    let name = name_of(ctx, on).await;
    let r = send(ctx, on, Verb::Deny, reason).await?;
    let message = format!("{name} is denied {}", reason_words(ctx, reason));
    if on.media == MediaKind::Album
        && !r.result
        && !r.is_error
        && r.message.as_deref() == Some(ALBUM_DENY_OK)
    {
        // How Ombi reports this success is its mechanics, not the caller's
        // concern: logged; `upstream_result: false` stays in the data.
        tracing::info!(
            request_id = on.request_id,
            "album deny answered result=false with \"{ALBUM_DENY_OK}\": Ombi's form of a successful deny"
        );
        let m = Mutation::new(Done::Completed)
            .on_request(on.media.target_kind(), on.request_id)
            .message(message);
        return Ok(reply(with_answer(m, &r).into_data(), Vec::new(), false));
    }
    done(on, &r, message, Vec::new())
}

async fn approve(ctx: &CallCtx, on: &On) -> Outcome {
    let name = name_of(ctx, on).await;
    let r = send(ctx, on, Verb::Approve, None).await?;
    let downloader = on.media.downloader();
    let Err(refused) = r.clone().check(200) else {
        let message = format!(
            "{name} is approved; Ombi sends it to {downloader} itself (its answer does not say whether that worked: a failed send waits in read_requests `retry_queue`)"
        );
        return done(on, &r, message, Vec::new());
    };
    // Movies and albums are approved and saved before the send; a failed
    // send answers `result: false`. Read back whether the approval stuck.
    if on.media == MediaKind::Tv || !approved_now(ctx, on).await {
        return Err(refused.into());
    }
    // No text: the send threw and Ombi queued the request for retry.
    let why = r
        .error_message
        .as_deref()
        .or(r.message.as_deref())
        .map(sanitize)
        .filter(|m| !m.is_empty())
        .unwrap_or_else(|| {
            "the send failed and Ombi queued it for another try (read_requests `retry_queue`)"
                .into()
        });
    let m = Mutation::new(Done::Partial)
        .on_request(on.media.target_kind(), on.request_id)
        .message(format!(
            "{name} is approved in Ombi but was not sent to {downloader}: {why}"
        ));
    Err(Failure {
        error: ToolError::new(
            ErrorCode::PartialFailure,
            format!(
                "the approval was saved, but Ombi could not send the request to {downloader}: {why}; once {downloader} is fixed, approving again sends it again"
            ),
        )
        .with_status(200),
        data: Some(with_answer(m, &r).into_data()),
        warnings: Vec::new(),
    })
}

/// Whether the request now reads as approved (false when it cannot be read).
async fn approved_now(ctx: &CallCtx, on: &On) -> bool {
    match on.media {
        MediaKind::Movie => movie(ctx, on.request_id).await.is_ok_and(|m| {
            if on.is_4k {
                m.approved_4k == Some(true)
            } else {
                m.approved == Some(true)
            }
        }),
        MediaKind::Album => album_by_id(ctx, on.request_id)
            .await
            .is_ok_and(|a| a.approved == Some(true)),
        MediaKind::Tv => false,
    }
}
