//! `write_user_preferences`: the acting user's own language, streaming
//! country and notification-agent delivery values. Ombi answers the first
//! two with an empty 200 whatever its user update did, so they are read back;
//! with a bare API key they would change Ombi's internal `Api` user, so a
//! real acting user is required. Delivery values never appear in the result.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::contract::{ErrorCode, Family, Outcome, ToolError};
use crate::definition::params::*;
use crate::definition::shape::{Field, Ty};
use crate::definition::{Bundle, ToolActions, ToolDef};
use crate::projection::mutation::{Mutation, Outcome as Done};
use crate::projection::users::NOTIFICATION_AGENTS;
use crate::tools::reply;
use crate::tools::{Actions, CallCtx, Tool};
use crate::upstream::Route;

// Not the shared `language` of the reads: this one is the value to set.
const LANGUAGE: Field = Field::opt(
    "language",
    Ty::Str { min: 2, max: 10 },
    "Your new language code, e.g. `pt-BR`.",
);
const COUNTRY: Field = Field::opt(
    "country",
    Ty::Str { min: 2, max: 2 },
    "Two-letter code, e.g. `US`.",
);

pub static TOOL: Tool = Tool::new::<Action>(ToolDef {
    name: "write_user_preferences",
    title: "Set my preferences",
    bundle: Bundle::Core,
    destructive: true,
    description: "Change your own Ombi language, streaming country (for where-to-watch) or notification delivery values.",
    families: &[Family::Mutation],
    ..ToolDef::BASE
})
.examples(&[
    (r#"{"action": "streaming_country", "country": "GB"}"#, true),
])
.invalid(&[
    (r#"{"action": "notification_agents", "agents": [{"agent": "fax", "value": "1"}]}"#, "/agents/0/agent"),
    (r#"{"action": "streaming_country", "country": "USA"}"#, "/country"),
]);

/// The actions, as validated arguments deserialize into them.
#[derive(Deserialize, ToolActions)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
enum Action {
    /// set your language
    Language { language: String },
    /// set your streaming country
    StreamingCountry { country: String },
    /// set your notification delivery values
    NotificationAgents { agents: Vec<AgentValue> },
}

/// One agent's delivery value (a chat id, a user key): personal data, so
/// it is sent to Ombi and nowhere else.
#[derive(Deserialize)]
struct AgentValue {
    agent: String,
    value: String,
}

/// `AddNotificationPreference` (`enabled` is not stored by Ombi: not sent).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PreferenceBody<'a> {
    agent: i64,
    user_id: &'a str,
    value: &'a str,
}

impl Actions for Action {
    async fn run(self, ctx: &CallCtx) -> Outcome {
        ctx.require_ombi_user()?;
        match self {
            Action::Language { language } => set_language(ctx, &language).await,
            Action::StreamingCountry { country } => set_country(ctx, &country).await,
            Action::NotificationAgents { agents } => set_agents(ctx, &agents).await,
        }
    }
}

async fn set_language(ctx: &CallCtx, language: &str) -> Outcome {
    ctx.upstream
        .write_json::<Value>(
            ctx.acting(),
            Route::post("api/v1/Identity/language").json(&serde_json::json!({ "lang": language })),
        )
        .await?;
    let now = ctx.me().await?;
    confirm("language", language, now.language.as_deref())?;
    ctx.remember_language(language);
    completed(format!("your Ombi language is {language} now"), now.id)
}

async fn set_country(ctx: &CallCtx, country: &str) -> Outcome {
    let code = country.to_ascii_uppercase();
    let known = ctx
        .get_json::<Vec<String>>(Route::get("api/v1/Identity/streamingcountry"))
        .await?
        .unwrap_or_default();
    if !known.iter().any(|c| c.eq_ignore_ascii_case(&code)) {
        return Err(ToolError::invalid(
            "/country",
            format!(
                "Ombi has no streaming data for {code}; read_reference streaming_countries lists the codes it knows"
            ),
        )
        .into());
    }
    ctx.upstream
        .write_json::<Value>(
            ctx.acting(),
            Route::post("api/v1/Identity/streamingcountry")
                .json(&serde_json::json!({ "code": code })),
        )
        .await?;
    let now = ctx.me().await?;
    confirm("streaming country", &code, now.streaming_country.as_deref())?;
    completed(format!("your streaming country is {code} now"), now.id)
}

/// Ombi answered OK: the value read back must be the one sent.
fn confirm(what: &str, sent: &str, now: Option<&str>) -> Result<(), ToolError> {
    if now.is_some_and(|n| n.eq_ignore_ascii_case(sent)) {
        return Ok(());
    }
    Err(ToolError::new(
        ErrorCode::UpstreamRejected,
        format!("Ombi answered OK, but your {what} does not read back as {sent}: it was not saved"),
    ))
}

async fn set_agents(ctx: &CallCtx, agents: &[AgentValue]) -> Outcome {
    let mut codes = Vec::with_capacity(agents.len());
    for (i, a) in agents.iter().enumerate() {
        let code = NOTIFICATION_AGENTS
            .iter()
            .find(|(_, label)| *label == a.agent)
            .map(|(c, _)| *c)
            .ok_or_else(|| ToolError::invalid(format!("/agents/{i}/agent"), "unknown agent"))?;
        if codes.contains(&code) {
            return Err(ToolError::invalid(
                format!("/agents/{i}/agent"),
                format!("`{}` is given twice", a.agent),
            )
            .into());
        }
        codes.push(code);
    }
    let user_id = ctx.caller_id().await?;
    let body: Vec<PreferenceBody> = agents
        .iter()
        .zip(&codes)
        .map(|(a, code)| PreferenceBody {
            agent: *code,
            user_id: &user_id,
            value: &a.value,
        })
        .collect();
    ctx.upstream
        .write::<bool>(
            ctx.acting(),
            Route::post("api/v1/Identity/NotificationPreferences").json(&body),
        )
        .await?;
    let names: Vec<&str> = agents.iter().map(|a| a.agent.as_str()).collect();
    completed(
        format!("saved your delivery values for {}", names.join(", ")),
        Some(user_id),
    )
}

/// The completed change, naming the user it applied to.
fn completed(message: String, user_id: Option<String>) -> Outcome {
    let mut m = Mutation::new(Done::Completed).message(message);
    m.user_id = user_id;
    Ok(reply(m.into_data(), Vec::new(), false))
}
