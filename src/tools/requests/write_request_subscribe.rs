//! `write_request_subscribe`: follow or stop following a movie or TV request
//! (notifications about it). Ombi's routes answer `true` for any id, even an
//! unknown one, so the request is read first (see `docs/ombi-notes.md`,
//! "Subscriptions and votes").

use serde::Deserialize;

use crate::contract::{Family, Outcome};
use crate::definition::params::*;
use crate::definition::{Bundle, ToolActions, ToolDef};
use crate::projection::mutation::{Mutation, Outcome as Done};
use crate::tools::reply;
use crate::tools::requests::words::{named_request, request_name};
use crate::tools::writes::note_api_user;
use crate::tools::{Actions, CallCtx, Tool};
use crate::upstream::Route;

pub static TOOL: Tool = Tool::new::<Action>(ToolDef {
    name: "write_request_subscribe",
    title: "Subscribe to a request",
    bundle: Bundle::Core,
    destructive: true,
    description: "Get (or stop) notifications about someone's request, e.g. when a title you also want is available.",
    families: &[Family::Mutation],
    ..ToolDef::BASE
})
.examples(&[
    (r#"{"action": "subscribe", "media": "movie", "request_id": 2}"#, true),
])
.invalid(&[
    (r#"{"action": "subscribe", "media": "album", "request_id": 1}"#, "/media"),
]);

/// The actions, as validated arguments deserialize into them.
#[derive(Deserialize, ToolActions)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
enum Action {
    /// get notified
    Subscribe {
        #[arg(MEDIA_MOVIE_TV)]
        media: MediaKind,
        request_id: i64,
    },
    /// stop notifications
    Unsubscribe {
        #[arg(MEDIA_MOVIE_TV)]
        media: MediaKind,
        request_id: i64,
    },
}

impl Actions for Action {
    async fn run(self, ctx: &CallCtx) -> Outcome {
        match self {
            Action::Subscribe { media, request_id } => follow(ctx, media, request_id, true).await,
            Action::Unsubscribe { media, request_id } => {
                follow(ctx, media, request_id, false).await
            }
        }
    }
}

async fn follow(ctx: &CallCtx, media: MediaKind, id: i64, on: bool) -> Outcome {
    let mut warnings = Vec::new();
    let request = named_request(ctx, media, id, &mut warnings).await?;
    let path = match (media, on) {
        (MediaKind::Movie, true) => "api/v1/Request/movie/subscribe",
        (MediaKind::Movie, false) => "api/v1/Request/movie/unsubscribe",
        (_, true) => "api/v1/Request/tv/subscribe",
        (_, false) => "api/v1/Request/tv/unsubscribe",
    };
    // Ombi writes (or removes) the subscription, then answers `true`.
    ctx.upstream
        .write::<bool>(ctx.acting(), Route::post(path).seg(id))
        .await?;
    note_api_user(ctx, "the subscription is", &mut warnings);
    let what = request_name(media, &request, ctx);
    let message = if on {
        format!("subscribed to notifications about {what}")
    } else {
        format!("unsubscribed from notifications about {what}")
    };
    let mut m = Mutation::new(Done::Completed)
        .on_request(media.target_kind(), id)
        .message(message);
    m.upstream_result = Some(true);
    Ok(reply(m.into_data(), warnings, false))
}
