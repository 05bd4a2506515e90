//! `write_retry_remove`: remove one entry of the failed-request retry queue
//! by its queue id (`DELETE /api/v1/RequestRetry/{queueId}`; never a
//! request id). Ombi answers an unknown id with HTTP 500 (it deletes a null
//! entity), which is NOT_FOUND here (docs/ombi-notes.md, "Mass e-mail,
//! mobile push, retry queue").

use futures::future::BoxFuture;
use serde::Deserialize;

use super::ctx::{not_found_on_500, reply};
use super::{CallCtx, Tool};
use crate::contract::{Family, Outcome};
use crate::definition::shape::{Field, Ty};
use crate::definition::{Args, Bundle, ToolDef, action};
use crate::projection::mutation::{Mutation, Outcome as Done};
use crate::upstream::Route;

pub static TOOL: Tool = Tool {
    def: ToolDef {
        name: "write_retry_remove",
        title: "Remove from retry queue",
        bundle: Bundle::Administration,
        destructive: true,
        description: "Remove one entry from the failed-request retry queue (its `queue_id` from read_requests `retry_queue`, never a request id).",
        families: &[Family::Mutation],
        params: &[Field::opt("queue_id", Ty::ID, "Retry queue entry id.")],
        actions: &[action("remove", "remove the entry", &["queue_id"], &[])],
        default_action: None,
        check: None,
    },
    run: handle,
};

/// The actions, as validated arguments deserialize into them.
#[derive(Deserialize)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
enum Action {
    Remove { queue_id: i64 },
}

fn handle<'a>(ctx: &'a CallCtx, args: &'a Args) -> BoxFuture<'a, Outcome> {
    Box::pin(async move {
        match args.parse::<Action>()? {
            Action::Remove { queue_id } => remove(ctx, queue_id).await,
        }
    })
}

async fn remove(ctx: &CallCtx, queue_id: i64) -> Outcome {
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
