//! `write_request_reprocess`: send an approved movie or TV child request to
//! Radarr/Sonarr again. Ombi answers `result: true` for a request that is not
//! approved and does nothing, so the request is read first and such a call
//! is refused (`docs/ombi-notes.md`, "Reprocess").

use serde::Deserialize;
use serde_json::Value;

use crate::contract::{Family, Outcome, ToolError};
use crate::definition::params::*;
use crate::definition::shape::{Field, Ty};
use crate::definition::{Bundle, ToolActions, ToolDef};
use crate::projection::mutation::{Mutation, Outcome as Done};
use crate::tools::reply;
use crate::tools::requests::words::{named_request, request_name, with_answer};
use crate::tools::{Actions, CallCtx, Tool};
use crate::upstream::{BusinessResult, RequestEngineResult, Route};

const REQUEST_TYPE: Field = Field::opt(
    "request_type",
    Ty::Enum(MEDIA_MOVIE_OR_TV),
    "Kind of request.",
);

pub static TOOL: Tool = Tool::new::<Action>(ToolDef {
    name: "write_request_reprocess",
    title: "Reprocess a request",
    bundle: Bundle::Moderation,
    destructive: false,
    description: "Send an approved request to Radarr/Sonarr again, e.g. after fixing their settings.",
    families: &[Family::Mutation],
    check: Some(|_, args| {
        if args.contains_key("is_4k")
            && args.get("request_type").and_then(Value::as_str) != Some("movie")
        {
            return Err(ToolError::invalid(
                "/is_4k",
                "`is_4k` applies to movie requests only; omit it for `tv`",
            ));
        }
        Ok(())
    }),
    ..ToolDef::BASE
})
.examples(&[
    (r#"{"request_type": "movie", "request_id": 1}"#, true),
])
.invalid(&[
    (r#"{"request_type": "album", "request_id": 1}"#, "/request_type"),
]);

#[derive(Deserialize, ToolActions)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
enum Action {
    /// resend the request
    #[action(role = "PowerUser")]
    Reprocess {
        request_type: MediaKind,
        request_id: i64,
        #[serde(default)]
        is_4k: bool,
    },
}

impl Actions for Action {
    async fn run(self, ctx: &CallCtx) -> Outcome {
        match self {
            Action::Reprocess {
                request_type,
                request_id,
                is_4k,
            } => reprocess(ctx, request_type, request_id, is_4k).await,
        }
    }
}

async fn reprocess(ctx: &CallCtx, media: MediaKind, id: i64, is_4k: bool) -> Outcome {
    let mut warnings = Vec::new();
    let type_code = match media {
        MediaKind::Movie => 1,
        MediaKind::Tv => 0,
        MediaKind::Album => {
            return Err(ToolError::invalid(
                "/request_type",
                "Ombi cannot reprocess album requests: approve the album again instead \
                 (write_request_moderate `approve`), which re-sends it to Lidarr",
            )
            .into());
        }
    };
    let request = named_request(ctx, media, id, &mut warnings).await?;
    let approved = if is_4k {
        request.approved_4k
    } else {
        request.approved
    } == Some(true);
    let name = request_name(media, &request, ctx);
    let what = if is_4k { format!("4K {name}") } else { name };
    if !approved {
        return Err(ToolError::invalid(
            "/request_id",
            format!(
                "{what} is not approved, and Ombi sends only approved requests (it would answer success and do nothing): approve it first (write_request_moderate `approve`)"
            ),
        )
        .into());
    }
    // `RequestType` as Ombi's UI sends it: 1 movie, 0 TV (4K ignored for TV).
    let route = Route::post("api/v2/Requests/reprocess")
        .seg(type_code)
        .seg(id)
        .seg(is_4k);
    let r = ctx.write_answer::<RequestEngineResult>(route).await?.value;
    let downloader = media.downloader();
    let mutation = |outcome, message: String| {
        with_answer(
            Mutation::new(outcome)
                .on_request(media.target_kind(), id)
                .message(message),
            &r,
        )
        .into_data()
    };
    // A TV send that threw is put in the retry queue and answered
    // `result: false` with no error text and the request id.
    if media == MediaKind::Tv && !r.result && !r.is_error && r.request_id == id {
        let data = mutation(
            Done::Accepted,
            format!(
                "{downloader} did not take {what} now; Ombi queued it for another send (read_requests `retry_queue`)"
            ),
        );
        return Ok(reply(data, warnings, false));
    }
    r.clone().check(200)?;
    let data = match media {
        // For TV `result: true` is the sender's success (a throw is queued
        // and answered as above).
        MediaKind::Tv => mutation(
            Done::Completed,
            format!("{what} sent ({downloader} accepted it, or Ombi has no TV downloader enabled)"),
        ),
        // A movie send that threw is queued and also answered `result: true`.
        _ => mutation(
            Done::Accepted,
            format!(
                "{what} handed to Ombi for sending to {downloader} (Ombi answers the same when the send failed and was queued for another try: read_requests `retry_queue` shows it)"
            ),
        ),
    };
    Ok(reply(data, warnings, false))
}
