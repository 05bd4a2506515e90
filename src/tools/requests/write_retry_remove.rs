//! `write_retry_remove`: remove one entry of the failed-request retry queue
//! by its queue id (`DELETE /api/v1/RequestRetry/{queueId}`; never a
//! request id). Ombi answers an unknown id with HTTP 500 (it deletes a null
//! entity), which is NOT_FOUND here (docs/ombi-notes.md, "Mass e-mail,
//! mobile push, retry queue").

use serde::Deserialize;

use crate::confirm::Confirmation;
use crate::contract::{Family, Outcome};
use crate::definition::shape::{Field, Ty};
use crate::definition::{Bundle, ToolActions, ToolDef};
use crate::projection::mutation::{Mutation, Outcome as Done};
use crate::projection::requests::WireFailedRequest;
use crate::projection::wire::request_type_label;
use crate::text::message::sanitize;
use crate::tools::{Actions, CallCtx, Tool};
use crate::tools::{not_found_on_500, reply};
use crate::upstream::Route;

const QUEUE_ID: Field = Field::opt("queue_id", Ty::ID, "Retry queue entry id.");

pub static TOOL: Tool = Tool::new::<Action>(ToolDef {
    name: "write_retry_remove",
    title: "Remove from retry queue",
    bundle: Bundle::Administration,
    destructive: true,
    description: "Remove one entry from the failed-request retry queue (its `queue_id` from read_requests `retry_queue`, never a request id). The person is asked to confirm first when the client can ask.",
    families: &[Family::Mutation],
    ..ToolDef::BASE
})
.examples(&[
    (r#"{"queue_id": 7}"#, true),
])
.invalid(&[
    (r#"{"queue_id": true}"#, "/queue_id"),
    (r#"{}"#, "/queue_id"),
    (r#"{"request_id": 5}"#, "/request_id"),
]);

/// The actions, as validated arguments deserialize into them.
#[derive(Deserialize, ToolActions)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
enum Action {
    /// remove the entry
    #[action(confirm)]
    #[action(role = "Admin")]
    Remove { queue_id: i64 },
}

impl Actions for Action {
    async fn run(self, ctx: &CallCtx) -> Outcome {
        match self {
            Action::Remove { queue_id } => remove(ctx, queue_id).await,
        }
    }
}

async fn remove(ctx: &CallCtx, queue_id: i64) -> Outcome {
    ctx.confirm(async { Ok(Confirmation::new(entry_in_words(ctx, queue_id).await)) })
        .await?;
    ctx.upstream
        .write::<bool>(
            ctx.acting(),
            Route::delete("api/v1/RequestRetry").seg(queue_id),
        )
        .await
        .map_err(|e| not_found_on_500(e, &format!("retry queue entry {queue_id}")))?;
    let mut m = Mutation::new(Done::Completed).message(format!(
        "removed entry {queue_id} from the retry queue; its request stays as it is"
    ));
    m.queue_id = Some(queue_id);
    Ok(reply(m.into_data(), Vec::new(), false))
}

/// The entry in words, from one read of the queue; by its id alone when the
/// queue cannot be read (Ombi fails to list it whenever a queued request was
/// deleted, and removing entries is how that is mended).
async fn entry_in_words(ctx: &CallCtx, queue_id: i64) -> String {
    let entries = ctx
        .read_list::<WireFailedRequest>(Route::get("api/v1/RequestRetry"), &mut Vec::new())
        .await;
    let entry = entries.ok().and_then(|got| {
        got.value
            .into_iter()
            .find(|e| e.failed_id == Some(queue_id))
    });
    let what = match entry {
        Some(e) => {
            let noun = e
                .request_type
                .and_then(request_type_label)
                .map(|kind| if kind == "tv" { "TV" } else { kind })
                .unwrap_or("a");
            let request = e
                .request_id
                .map(|id| format!(", {noun} request {id}"))
                .unwrap_or_default();
            match e.title.as_deref().map(sanitize).filter(|t| !t.is_empty()) {
                Some(t) => format!(" (“{t}”{request})"),
                None if !request.is_empty() => format!(" ({})", &request[2..]),
                None => String::new(),
            }
        }
        None => String::new(),
    };
    format!(
        "Remove entry {queue_id}{what} from Ombi's retry queue? Ombi will not try to send that request again."
    )
}
