//! `write_notification_send`: an e-mail to chosen users (`POST
//! /api/v1/Notifications/massemail`) or a push message to one user's mobile
//! devices (`POST /api/v2/Mobile/Send`). Both routes send one message after
//! another and never say who got one (docs/ombi-notes.md, "Mass e-mail,
//! mobile push, retry queue"), so the recipients are checked first and a
//! failure part-way is an unknown outcome.

use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::json;

use super::accounts::accounts;
use crate::confirm::Confirmation;
use crate::contract::{ErrorCode, Family, Outcome, ToolError};
use crate::definition::params::*;
use crate::definition::shape::{Field, Ty};
use crate::definition::{Bundle, ToolActions, ToolDef};
use crate::projection::mutation::{Mutation, Outcome as Done};
use crate::text::message::sanitize;
use crate::tools::reply;
use crate::tools::{Actions, CallCtx, Tool};
use crate::upstream::Route;

const SUBJECT: Field = Field::opt("subject", Ty::Str { min: 1, max: 200 }, "E-mail subject.");
const BODY: Field = Field::opt(
    "body",
    Ty::Str {
        min: 1,
        max: 10_000,
    },
    "E-mail body.",
);
const USER_IDS: Field = Field::opt(
    "user_ids",
    Ty::Arr {
        item: &Ty::Str { min: 1, max: 64 },
        min: 1,
        max: 100,
    },
    "Recipient user ids.",
);
const BCC: Field = Field::opt("bcc", Ty::Bool, "Send as blind copies.");
const MESSAGE: Field = Field::opt(
    "message",
    Ty::Str { min: 1, max: 1000 },
    "Push message text.",
);

pub static TOOL: Tool = Tool::new::<Action>(ToolDef {
    name: "write_notification_send",
    title: "Send a notification",
    bundle: Bundle::Administration,
    destructive: false,
    description: "Send an e-mail to chosen users, or a push message to one user's mobile app. The person is asked to confirm first (how many people it reaches) when the client can ask.",
    families: &[Family::Mutation],
    ..ToolDef::BASE
})
.examples(&[
    (r#"{"action": "email", "subject": "Hi", "body": "Movie night", "user_ids": ["$user(alice)"]}"#, true),
    (r#"{"action": "mobile_push", "user_id": "d730e751-077e-cce2-cea2-0efd99c5ae61", "message": "Movie night"}"#, true),
])
.invalid(&[
    (r#"{"action": "email", "subject": "s", "body": "b", "user_ids": []}"#, "/user_ids"),
]);

/// The actions, as validated arguments deserialize into them.
#[derive(Deserialize, ToolActions)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
enum Action {
    /// send an e-mail
    #[action(confirm)]
    #[action(role = "Admin")]
    Email {
        subject: String,
        body: String,
        bcc: Option<bool>,
        user_ids: Vec<String>,
    },
    /// send a push message
    #[action(confirm)]
    #[action(role = "Admin")]
    MobilePush { user_id: String, message: String },
}

impl Actions for Action {
    async fn run(self, ctx: &CallCtx) -> Outcome {
        match self {
            Action::Email {
                subject,
                body,
                bcc,
                user_ids,
            } => email(ctx, &subject, &body, bcc.unwrap_or(false), &user_ids).await,
            Action::MobilePush { user_id, message } => push(ctx, &user_id, &message).await,
        }
    }
}

/// A 500 from a route that sends one message after another may come after
/// some went out: the outcome is unknown, never a plain refusal.
fn unknown_on_500(e: ToolError, what: &str) -> ToolError {
    if e.http_status == Some(500) && e.code == ErrorCode::UpstreamRejected {
        ToolError::new(
            ErrorCode::UnknownOutcome,
            format!(
                "Ombi failed while sending {what} (HTTP 500); some may have gone out before the failure, \
                 so check with the recipients before sending again"
            ),
        )
        .retryable(false)
        .with_status(500)
    } else {
        e
    }
}

async fn email(
    ctx: &CallCtx,
    subject: &str,
    body: &str,
    bcc: bool,
    user_ids: &[String],
) -> Outcome {
    // Ombi dereferences each id (an unknown one is a 500, possibly after
    // earlier mails were queued) and silently skips users without an
    // address: check both before anything is sent.
    let mut warnings = Vec::new();
    let (users, cut) = accounts(ctx, &mut warnings).await?;
    let mut with_address = 0u64;
    for (i, id) in user_ids.iter().enumerate() {
        let field = format!("/user_ids/{i}");
        if user_ids[..i].contains(id) {
            return Err(ToolError::invalid(field, "this user is already listed").into());
        }
        match users.iter().find(|u| u.id == *id) {
            Some(u) if u.has_email => with_address += 1,
            Some(_) => {}
            None if cut => warnings.push(format!(
                "{field}: not among the users read within the read limit; sent as given"
            )),
            None => {
                return Err(ToolError::invalid(
                    field,
                    "no Ombi user has this id (read_users `list` shows the ids)",
                )
                .into());
            }
        }
    }
    let without = user_ids.len() as u64 - with_address;
    if with_address == 0 && !cut {
        return Err(ToolError::invalid(
            "/user_ids",
            "none of these users has an e-mail address: Ombi would send nothing",
        )
        .into());
    }
    if without > 0 {
        warnings.push(format!(
            "{without} of the users have no e-mail address (or were not read); Ombi skips them"
        ));
    }
    ctx.confirm(async {
        let names: Vec<String> = user_ids
            .iter()
            .filter_map(|id| users.iter().find(|u| u.id == *id && u.has_email))
            .map(|u| sanitize(&u.user_name))
            .filter(|n| !n.is_empty())
            .take(10)
            .collect();
        let more = (with_address as usize).saturating_sub(names.len());
        let list = match (names.is_empty(), more) {
            (true, _) => String::new(),
            (false, 0) => format!(" ({})", names.join(", ")),
            (false, n) => format!(" ({} and {n} more)", names.join(", ")),
        };
        let reach = if cut {
            format!("up to {} people", user_ids.len())
        } else {
            format!("{with_address} people")
        };
        Ok(Confirmation::new(format!(
            "Send the e-mail “{}” to {reach}{list}?",
            sanitize(subject)
        )))
    })
    .await?;
    let users: Vec<_> = user_ids.iter().map(|id| json!({"id": id})).collect();
    let route = Route::post("api/v1/Notifications/massemail")
        .json(&json!({"subject": subject, "body": body, "bcc": bcc, "users": users}));
    ctx.upstream
        .write::<bool>(ctx.acting(), route)
        .await
        .map_err(|e| unknown_on_500(e, "the e-mails"))?;
    let mut m = Mutation::new(Done::Completed).message(if bcc {
        "the mail server accepted one e-mail with every recipient in blind copy".to_string()
    } else {
        "the mail server accepted one e-mail per recipient".to_string()
    });
    if !cut {
        m.affected_count = Some(with_address);
    }
    Ok(reply(m.into_data(), warnings, false))
}

/// A row of `GET /api/v2/Mobile/Users`: a user's registered devices (the
/// device tokens are never read).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct DeviceOwner {
    #[serde(default)]
    user_id: String,
    #[serde(default)]
    devices: Vec<IgnoredAny>,
}

async fn push(ctx: &CallCtx, user_id: &str, message: &str) -> Outcome {
    // Ombi answers an empty 200 for an unknown user or one without devices
    // alike: only a user with a device gets anything.
    let mut warnings = Vec::new();
    let owners = ctx
        .read_list::<DeviceOwner>(Route::get("api/v2/Mobile/Users"), &mut warnings)
        .await?;
    let devices: usize = owners
        .value
        .iter()
        .filter(|o| o.user_id == user_id)
        .map(|o| o.devices.len())
        .sum();
    if devices == 0 && !owners.cut {
        return Err(ToolError::invalid(
            "/user_id",
            "this user has no mobile device registered with Ombi (or no such user exists): nothing would be sent",
        )
        .into());
    }
    ctx.confirm(async {
        // The person is asked by name: an id is a GUID, which Ombi's message
        // cleaning would show as "[redacted]".
        let (users, _) = accounts(ctx, &mut Vec::new()).await?;
        let whom = users
            .iter()
            .find(|u| u.id == user_id)
            .map(|u| sanitize(&u.user_name))
            .filter(|n| !n.is_empty())
            .map_or_else(
                || "an Ombi user not found in the user list".to_string(),
                |n| format!("Ombi user {n}"),
            );
        Ok(Confirmation::new(format!(
            "Send a push message to the {devices} mobile device(s) of {whom}?"
        )))
    })
    .await?;
    let route =
        Route::post("api/v2/Mobile/Send").json(&json!({"userId": user_id, "message": message}));
    // The answer is an empty 200: nothing to read but the status.
    ctx.upstream
        .write_json::<IgnoredAny>(ctx.acting(), route)
        .await
        .map_err(|e| unknown_on_500(e, "the push message"))?;
    warnings.push(
        "Ombi hands the message to its push service for each device and does not report delivery"
            .into(),
    );
    let mut m = Mutation::new(Done::Accepted).message(match devices {
        0 => "Ombi handed the message to its push service for the user's devices".to_string(),
        n => format!("Ombi handed the message to its push service for the user's {n} device(s)"),
    });
    m.user_id = Some(user_id.to_string());
    Ok(reply(m.into_data(), warnings, false))
}
