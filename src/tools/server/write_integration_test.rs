//! `write_integration_test`: run one of Ombi's testers on the SAVED settings
//! (read here, never supplied by the caller, so the caller cannot make Ombi
//! call an address of their choosing). Each tester takes its own body
//! (docs/ombi-notes.md, "Testers" and "Tester bodies, and what a tester's
//! `true` proves"): the saved agent section, one server object per media
//! server, the standard and the enabled 4K Radarr, the inner WhatsApp
//! object, `{userId, settings}` for mobile. What a `true` proves differs
//! too: nine agents, mobile and the newsletter answer `true` whatever
//! happened, so those are only `accepted`.

use serde::Deserialize;
use serde_json::{Value, json};

use super::sections::read_section;
use crate::contract::{ErrorCode, Family, Outcome, ToolError};
use crate::definition::params::*;
use crate::definition::shape::{Field, Ty};
use crate::definition::{Bundle, ToolActions, ToolDef};
use crate::projection::mutation::{Mutation, Outcome as Done};
use crate::projection::settings;
use crate::text::message::sanitize;
use crate::tools::writes::{item, settle};
use crate::tools::{Actions, CallCtx, Tool};
use crate::tools::{Me, reply};
use crate::upstream::Route;

const TARGET: Field = Field::opt(
    "target",
    Ty::Enum(TEST_TARGETS),
    "Integration to test with its saved settings.",
);

pub static TOOL: Tool = Tool::new::<Action>(ToolDef {
    name: "write_integration_test",
    title: "Test an integration",
    bundle: Bundle::Administration,
    destructive: false,
    description: "Test a saved notification agent or connection (media server, Radarr/Sonarr/Lidarr). Notification tests send a real message.",
    families: &[Family::Mutation],
    ..ToolDef::BASE
})
.examples(&[
    (r#"{"target": "discord"}"#, true),
])
.invalid(&[
    (r#"{"target": "couchpotato"}"#, "/target"),
]);

/// The actions, as validated arguments deserialize into them.
#[derive(Deserialize, ToolActions)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
enum Action {
    /// run the test
    #[action(role = "Admin")]
    Test { target: String },
}

/// The agents whose tester catches every send error and returns early on an
/// invalid configuration, then answers `true` regardless.
const SWALLOWING: &[&str] = &[
    "discord",
    "gotify",
    "mattermost",
    "ntfy",
    "pushbullet",
    "pushover",
    "slack",
    "telegram",
    "webhook",
];

impl Actions for Action {
    async fn run(self, ctx: &CallCtx) -> Outcome {
        match self {
            Action::Test { target } => match target.as_str() {
                t if SWALLOWING.contains(&t) => agent(ctx, t).await,
                "email" => email(ctx).await,
                "whatsapp" => whatsapp(ctx).await,
                "mobile" => mobile(ctx).await,
                "newsletter" => newsletter(ctx).await,
                "plex" | "emby" | "jellyfin" => media_servers(ctx, &target).await,
                "radarr" => radarr(ctx).await,
                "sonarr" | "lidarr" => arr(ctx, &target).await,
                other => {
                    Err(ToolError::invalid("/target", format!("`{other}` cannot be tested")).into())
                }
            },
        }
    }
}

/// The saved section `name` (catalogue spelling), which must exist.
async fn saved(ctx: &CallCtx, name: &str) -> Result<Value, ToolError> {
    let section = settings::section(name)
        .ok_or_else(|| ToolError::internal(format!("no settings section {name}")))?;
    let raw = read_section(ctx, section).await?;
    if raw.is_object() {
        Ok(raw)
    } else {
        Err(ToolError::invalid(
            "/target",
            format!("Ombi has no saved settings for {name} to test"),
        ))
    }
}

/// The warning for a test of a section saved as disabled.
fn disabled_note(raw: &Value, flag: &str, what: &str, warnings: &mut Vec<String>) {
    if raw.get(flag) == Some(&json!(false)) {
        warnings.push(format!(
            "{what} is disabled in the saved settings; Ombi tests it anyway"
        ));
    }
}

/// POSTs `body` to the tester of `target`; `Ok(true/false)` as answered.
async fn run_bool(ctx: &CallCtx, target: &str, body: &Value) -> Result<bool, ToolError> {
    let route = Route::post("api/v1/Tester").seg(target).json(body);
    match ctx.upstream.write_json::<bool>(ctx.acting(), route).await? {
        Some(answer) => Ok(answer),
        None => Err(no_answer(target)),
    }
}

fn no_answer(target: &str) -> ToolError {
    ToolError::new(
        ErrorCode::UnknownOutcome,
        format!("Ombi answered the {target} test with nothing; it may or may not have run"),
    )
    .retryable(false)
}

fn failed(target: &str, why: &str) -> ToolError {
    ToolError::new(
        ErrorCode::UpstreamRejected,
        format!(
            "the {target} test failed with the saved settings: {why} (Ombi's log has the cause)"
        ),
    )
    .with_status(200)
}

fn done(outcome: Done, message: String, warnings: Vec<String>) -> Outcome {
    Ok(reply(
        Mutation::new(outcome).message(message).into_data(),
        warnings,
        false,
    ))
}

/// The nine agents that swallow errors: `true` means only that Ombi ran it.
async fn agent(ctx: &CallCtx, target: &str) -> Outcome {
    let raw = saved(ctx, &format!("notifications/{target}")).await?;
    let mut warnings = Vec::new();
    disabled_note(&raw, "enabled", target, &mut warnings);
    if !run_bool(ctx, target, &raw).await? {
        return Err(failed(target, "Ombi could not run it").into());
    }
    warnings.push(format!(
        "Ombi's {target} test answers success whatever happened (it ignores send errors and skips an \
         incomplete configuration): check that the test message arrived"
    ));
    done(
        Done::Accepted,
        format!("Ombi sent a {target} test message, as far as it reports"),
        warnings,
    )
}

/// The e-mail, WhatsApp and mobile tests deliver to the acting Ombi user, so
/// a bare API key (Ombi's shared internal `Api` user, whose address is
/// nobody's in the household) is refused.
async fn recipient(ctx: &CallCtx) -> Result<Me, ToolError> {
    ctx.require_ombi_user()?;
    ctx.me().await
}

async fn email(ctx: &CallCtx) -> Outcome {
    if !recipient(ctx).await?.has_email {
        return Err(ToolError::invalid(
            "/target",
            "the test e-mail goes to the acting Ombi user's address, and that user has none: set one first",
        )
        .into());
    }
    let raw = saved(ctx, "notifications/email").await?;
    let mut warnings = Vec::new();
    disabled_note(&raw, "enabled", "e-mail", &mut warnings);
    if !run_bool(ctx, "email", &raw).await? {
        return Err(failed("email", "Ombi could not send the message").into());
    }
    done(
        Done::Completed,
        "the mail server accepted a test e-mail to the acting Ombi user's address".into(),
        warnings,
    )
}

async fn whatsapp(ctx: &CallCtx) -> Outcome {
    recipient(ctx).await?;
    let raw = saved(ctx, "notifications/twilio").await?;
    let inner = raw.get("whatsAppSettings").cloned().unwrap_or(Value::Null);
    if !inner.is_object() {
        return Err(
            ToolError::invalid("/target", "Ombi has no saved WhatsApp settings to test").into(),
        );
    }
    let mut warnings = Vec::new();
    disabled_note(&inner, "enabled", "WhatsApp", &mut warnings);
    if !run_bool(ctx, "whatsapp", &inner).await? {
        return Err(failed(
            "whatsapp",
            "Twilio did not accept the message (the acting user needs a WhatsApp number in their notification preferences)",
        )
        .into());
    }
    done(
        Done::Completed,
        "Twilio accepted a WhatsApp test message to the acting Ombi user's number".into(),
        warnings,
    )
}

async fn mobile(ctx: &CallCtx) -> Outcome {
    ctx.require_ombi_user()?;
    let user_id = ctx.caller_id().await?;
    let raw = saved(ctx, "notifications/mobile").await?;
    if !run_bool(ctx, "mobile", &json!({"userId": user_id, "settings": raw})).await? {
        return Err(failed("mobile", "the push service refused it").into());
    }
    done(
        Done::Accepted,
        "Ombi pushed a test notification to the acting Ombi user's devices, as far as it reports".into(),
        vec![
            "Ombi answers success also when the user has no registered device, and does not report delivery"
                .into(),
        ],
    )
}

async fn newsletter(ctx: &CallCtx) -> Outcome {
    let raw = saved(ctx, "notifications/newsletter").await?;
    if !run_bool(ctx, "newsletter", &raw).await? {
        return Err(failed("newsletter", "Ombi could not build or send it").into());
    }
    done(
        Done::Accepted,
        "Ombi ran a test newsletter to its admins, as far as it reports".into(),
        vec![
            "Ombi answers success also when it sent nothing (newsletter template disabled, e-mail not configured): \
             check that it arrived"
                .into(),
        ],
    )
}

/// Plex, Emby, Jellyfin: the tester takes one server; every saved server is
/// tested, each an item.
async fn media_servers(ctx: &CallCtx, target: &str) -> Outcome {
    let raw = saved(ctx, target).await?;
    let servers = raw
        .get("servers")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    if servers.is_empty() {
        return Err(ToolError::invalid(
            "/target",
            format!("Ombi has no saved {target} server to test"),
        )
        .into());
    }
    let mut warnings = Vec::new();
    disabled_note(&raw, "enable", target, &mut warnings);
    let mut mutation = Mutation::new(Done::Completed);
    let mut first_error = None;
    for (i, server) in servers.iter().enumerate() {
        let id = match server.get("name").and_then(Value::as_str) {
            Some(n) if !n.trim().is_empty() => format!("server {i}: {}", sanitize(n)),
            _ => format!("server {i}"),
        };
        match run_bool(ctx, target, server).await {
            Ok(true) => mutation.item_results.push(item(id, Done::Completed, None)),
            Ok(false) => {
                let e = failed(target, "Ombi could not reach the server");
                mutation
                    .item_results
                    .push(item(id, Done::Rejected, Some(e.message.clone())));
                first_error.get_or_insert(e);
            }
            Err(e) => return Err(e.into()),
        }
    }
    mutation.message = Some(connection_words(target, &mutation.item_results));
    settle(mutation, Done::Completed, first_error, warnings)
}

/// `TesterResultModel` of the *arr testers.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ArrResult {
    #[serde(default)]
    is_valid: bool,
    #[serde(default)]
    version: Option<String>,
    #[serde(default)]
    expected_sub_dir: Option<String>,
    #[serde(default)]
    additional_information: Option<String>,
}

/// One *arr tester call → an item.
async fn arr_item(
    ctx: &CallCtx,
    target: &str,
    id: &str,
    body: &Value,
) -> Result<(crate::projection::mutation::ItemResult, Option<ToolError>), ToolError> {
    let route = Route::post("api/v1/Tester").seg(target).json(body);
    let r = ctx
        .upstream
        .write_json::<ArrResult>(ctx.acting(), route)
        .await?
        .ok_or_else(|| no_answer(target))?;
    if r.is_valid {
        let note = r
            .version
            .as_deref()
            .map(sanitize)
            .filter(|v| !v.is_empty())
            .map(|v| format!("version {v}"));
        return Ok((item(id, Done::Completed, note), None));
    }
    let why = match r.additional_information.as_deref() {
        Some("NullApiKey") => "no API key is saved".to_string(),
        Some("NullIp") => "no address is saved".to_string(),
        Some("BadPort") => "the saved port is not valid".to_string(),
        _ if r.expected_sub_dir.is_some() => {
            "it answered, but its URL base differs from the saved one".to_string()
        }
        _ => "Ombi could not reach it with the saved address and API key".to_string(),
    };
    let e = failed(id, &why);
    Ok((item(id, Done::Rejected, Some(e.message.clone())), Some(e)))
}

async fn arr(ctx: &CallCtx, target: &str) -> Outcome {
    let raw = saved(ctx, target).await?;
    let mut warnings = Vec::new();
    disabled_note(&raw, "enabled", target, &mut warnings);
    let (it, err) = arr_item(ctx, target, target, &raw).await?;
    let mut mutation = Mutation::new(Done::Completed);
    mutation.item_results.push(it);
    mutation.message = Some(connection_words(target, &mutation.item_results));
    settle(mutation, Done::Completed, err, warnings)
}

/// Radarr: the tester takes one `RadarrSettings`; the standard instance is
/// tested, and the 4K one when it is enabled.
async fn radarr(ctx: &CallCtx) -> Outcome {
    let raw = saved(ctx, "radarr").await?;
    let mut warnings = Vec::new();
    let mut mutation = Mutation::new(Done::Completed);
    let mut first_error = None;
    for (key, label) in [("radarr", "radarr"), ("radarr4K", "radarr 4K")] {
        let Some(instance) = raw.get(key).filter(|v| v.is_object()) else {
            continue;
        };
        if key == "radarr4K" && instance.get("enabled") != Some(&json!(true)) {
            continue;
        }
        if key == "radarr" {
            disabled_note(instance, "enabled", "radarr", &mut warnings);
        }
        let (it, err) = arr_item(ctx, "radarr", label, instance).await?;
        mutation.item_results.push(it);
        if let Some(e) = err {
            first_error.get_or_insert(e);
        }
    }
    if mutation.item_results.is_empty() {
        return Err(
            ToolError::invalid("/target", "Ombi has no saved Radarr settings to test").into(),
        );
    }
    mutation.message = Some(connection_words("radarr", &mutation.item_results));
    settle(mutation, Done::Completed, first_error, warnings)
}

/// A connection test's result in words: "the connection test of sonarr
/// passed (version 4.0.14)", "… of plex passed for server 0: Home and
/// server 1: Den", "… of radarr failed for radarr 4K (…); it passed for
/// radarr (version 5.2)"; the version where Ombi's tester gives one.
fn connection_words(target: &str, items: &[crate::projection::mutation::ItemResult]) -> String {
    let say = |i: &crate::projection::mutation::ItemResult| match &i.message {
        Some(m) => format!("{} ({m})", i.identifier),
        None => i.identifier.clone(),
    };
    let list = |ok: bool| -> Vec<String> {
        items
            .iter()
            .filter(|i| (i.outcome == Done::Completed) == ok)
            .map(say)
            .collect()
    };
    let (passed, failed) = (list(true), list(false));
    let one = items.len() == 1 && items[0].identifier == target;
    let detail = |names: &[String]| {
        if one {
            items[0]
                .message
                .as_ref()
                .map(|m| format!(" ({m})"))
                .unwrap_or_default()
        } else {
            format!(" for {}", names.join(" and "))
        }
    };
    match (passed.is_empty(), failed.is_empty()) {
        (false, true) => format!("the connection test of {target} passed{}", detail(&passed)),
        (true, _) => format!("the connection test of {target} failed{}", detail(&failed)),
        (false, false) => format!(
            "the connection test of {target} failed for {}; it passed for {}",
            failed.join(" and "),
            passed.join(" and ")
        ),
    }
}
