//! `write_settings_patch`: change named, allowlisted leaves of one settings
//! section. Ombi's settings POSTs overwrite the whole object, and Ombi has
//! no revision, so: read the section, compare its digest with the caller's
//! `revision` (stale → CONFLICT, nothing sent), set the named leaves in the
//! raw object as read — secrets, the 4K twin, notification templates all
//! re-sent unchanged — post it back, and read it again for the new
//! revision and to see which changes Ombi kept (docs/ombi-notes.md,
//! "Settings saves overwrite the whole object"). Features go through Ombi's
//! per-feature switch instead.

use serde::Deserialize;
use serde_json::{Map, Value, json};

use super::sections::read_section;
use crate::confirm::Confirmation;
use crate::contract::{ErrorCode, Family, Outcome, ToolError};
use crate::definition::params::*;
use crate::definition::shape::{Field, Ty};
use crate::definition::{Bundle, ToolActions, ToolDef};
use crate::projection::mutation::{ItemResult, Mutation, Outcome as Done};
use crate::projection::settings::{self, Section};
use crate::text::message::sanitize;
use crate::tools::reply;
use crate::tools::writes::{item, settle};
use crate::tools::{Actions, CallCtx, Tool};
use crate::upstream::{BusinessResult, Route};

const REVISION: Field = Field::opt(
    "revision",
    Ty::Str { min: 1, max: 200 },
    "The `revision` read_settings returned.",
);

pub static TOOL: Tool = Tool::new::<Action>(ToolDef {
    name: "write_settings_patch",
    title: "Change settings",
    bundle: Bundle::Administration,
    destructive: true,
    description: "Change individual non-secret settings of one section. Read the section first with read_settings and pass its `revision`; a stale revision is refused. Secret settings cannot be changed here. The person is asked to confirm the changes (names, old → new values) first when the client can ask.",
    families: &[Family::Mutation],
    check: Some(features_bool),
    ..ToolDef::BASE
})
.examples(&[
    (r#"{"section": "vote", "revision": "$revision(vote)", "changes": [{"name": "/movieVoteMax", "value": 5}]}"#, true),
])
.invalid(&[
    (r#"{"section": "features", "revision": "r", "changes": [{"name": "x", "value": "on"}]}"#, "/changes/0/value"),
    (r#"{"section": "ombi", "revision": "r", "changes": [{"name": "x", "value": {"a": 1}}]}"#, "/changes/0/value"),
    (r#"{"section": "ombi", "revision": "r", "changes": [{"name": "x", "value": 1, "path": "/x"}]}"#, "/changes/0/path"),
    (r#"{"section": "ombi", "changes": [{"name": "x", "value": 1}]}"#, "/revision"),
]);

fn features_bool(_action: &str, args: &Map<String, Value>) -> Result<(), ToolError> {
    if args.get("section").and_then(Value::as_str) != Some("features") {
        return Ok(());
    }
    let changes = args
        .get("changes")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[]);
    for (i, c) in changes.iter().enumerate() {
        if !c.get("value").is_some_and(Value::is_boolean) {
            return Err(ToolError::invalid(
                format!("/changes/{i}/value"),
                "section `features` takes boolean values (true to enable a feature)",
            ));
        }
    }
    Ok(())
}

/// The actions, as validated arguments deserialize into them.
#[derive(Deserialize, ToolActions)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
enum Action {
    /// change settings
    #[action(confirm)]
    #[action(role = "Admin")]
    Patch {
        section: String,
        revision: String,
        changes: Vec<Change>,
    },
}

#[derive(Deserialize)]
struct Change {
    name: String,
    value: Value,
}

impl Actions for Action {
    async fn run(self, ctx: &CallCtx) -> Outcome {
        match self {
            Action::Patch {
                section,
                revision,
                changes,
            } => {
                let section = settings::section(&section).ok_or_else(|| {
                    ToolError::invalid("/section", format!("unknown settings section {section:?}"))
                })?;
                check_names(section, &changes)?;
                if section.is_features() {
                    features(ctx, &revision, &changes).await
                } else {
                    patch(ctx, section, &revision, &changes).await
                }
            }
        }
    }
}

/// Refused before anything is read: a name read_settings never lists (a
/// secret, a destination URL or address, an internal field), or a name
/// given twice. Names with array indices (`/servers/0/name`) are safe to
/// write because the revision pins the arrays as the caller read them.
fn check_names(section: &Section, changes: &[Change]) -> Result<(), ToolError> {
    for (i, c) in changes.iter().enumerate() {
        if changes[..i].iter().any(|p| p.name == c.name) {
            return Err(ToolError::invalid(
                format!("/changes/{i}/name"),
                "this setting is already changed earlier in `changes`",
            ));
        }
        if !section.is_features() && !section.writable(&c.name) {
            let why = if section.allows(&c.name) {
                "Ombi computes it from other settings and never stores it"
            } else {
                "only the settings read_settings lists for the section can (secrets, addresses, URLs \
                 and internal fields never are)"
            };
            return Err(ToolError::invalid(
                format!("/changes/{i}/name"),
                format!(
                    "`{}` cannot be changed in section {}: {why}",
                    clip(&c.name),
                    section.name
                ),
            ));
        }
    }
    Ok(())
}

/// The conflict of a revision that no longer matches what Ombi holds.
fn stale(section: &str) -> ToolError {
    ToolError::new(
        ErrorCode::Conflict,
        format!(
            "section {section} changed since it was read (or the daemon restarted): nothing was sent; \
             read it again with read_settings and apply the changes to what it shows now"
        ),
    )
}

async fn patch(ctx: &CallCtx, section: &Section, revision: &str, changes: &[Change]) -> Outcome {
    let raw = read_section(ctx, section).await?;
    if raw.is_null() || settings::revision(&raw) != revision {
        return Err(stale(section.name).into());
    }
    let mut body = raw.clone();
    for (i, c) in changes.iter().enumerate() {
        set_leaf(&mut body, i, c)?;
    }
    confirm_changes(
        ctx,
        section.name,
        |name| raw.pointer(name).cloned(),
        changes,
    )
    .await?;
    let mut warnings = Vec::new();
    let probes = matches!(section.name, "emby" | "jellyfin") && body["enable"] == json!(true);
    ctx.upstream
        .write::<Saved>(ctx.acting(), Route::post(section.path).json(&body))
        .await
        .map_err(|e| match e.http_status {
            Some(500) if probes => ToolError::new(
                e.code,
                format!(
                    "{}: Ombi contacts every {} server before saving enabled {} settings and failed, \
                     so nothing was saved",
                    e.message, section.name, section.name
                ),
            )
            .with_status(500),
            _ => e,
        })?;
    if matches!(
        section.name,
        "plex" | "emby" | "jellyfin" | "sonarr" | "radarr" | "lidarr"
    ) {
        warnings.push(format!(
            "saving {} settings also starts Ombi's {} sync job",
            section.name, section.name
        ));
    }

    // Read back: the new revision, and whether Ombi kept each value (it
    // forces some, e.g. `ombi` /wizard).
    let mut mutation = Mutation::new(Done::Completed);
    let after = match read_section(ctx, section).await {
        Ok(after) if !after.is_null() => after,
        _ => {
            warnings.push(
                "Ombi saved the section, but it could not be read back: read_settings shows the \
                 new revision and values"
                    .into(),
            );
            let m = mutation.message(format!(
                "saved {} change(s) to section {}",
                changes.len(),
                section.name
            ));
            return Ok(reply(m.into_data(), warnings, false));
        }
    };
    for c in changes {
        mutation.item_results.push(checked(
            &c.name,
            after.pointer(&c.name) == Some(&c.value),
            "Ombi saved the section but keeps a different value here",
        ));
    }
    let new_revision = settings::revision(&after);
    mutation.message = Some(format!(
        "saved section {}; new revision {new_revision}",
        section.name
    ));
    settle(
        mutation,
        Done::Completed,
        Some(ToolError::new(
            ErrorCode::UpstreamRejected,
            "Ombi saved the section but kept its own values for the changed settings",
        )),
        warnings,
    )
}

/// Asks the person before saving `changes`, each named with its value
/// before and after (`was` reads the value before from the section as
/// read). Only names read_settings lists get this far: no secret values.
async fn confirm_changes(
    ctx: &CallCtx,
    section: &str,
    was: impl Fn(&str) -> Option<Value>,
    changes: &[Change],
) -> Result<(), ToolError> {
    ctx.confirm(async {
        let shown = |v: Option<Value>| match v {
            Some(v) => clip(&v.to_string()),
            None => "(unset)".into(),
        };
        let lines: Vec<String> = changes
            .iter()
            .map(|c| {
                format!(
                    "{}: {} → {}",
                    clip(&c.name),
                    shown(was(&c.name)),
                    shown(Some(c.value.clone()))
                )
            })
            .collect();
        Ok(Confirmation::new(format!(
            "Change Ombi's {section} settings?\n{}",
            lines.join("\n")
        )))
    })
    .await?;
    Ok(())
}

/// A change's item: completed when what Ombi holds now shows it, else
/// rejected saying why.
fn checked(name: &str, kept: bool, why: &str) -> ItemResult {
    if kept {
        item(name, Done::Completed, None)
    } else {
        item(name, Done::Rejected, Some(why.into()))
    }
}

/// Sets one named leaf in the object as read: it must exist there, be a
/// single value, and keep its JSON type (Ombi's model binding would refuse
/// the whole object otherwise).
fn set_leaf(body: &mut Value, i: usize, change: &Change) -> Result<(), ToolError> {
    let name_field = || format!("/changes/{i}/name");
    let Some(slot) = body.pointer_mut(&change.name) else {
        return Err(ToolError::invalid(
            name_field(),
            format!(
                "`{}` is not in this section as Ombi holds it (read_settings lists the names)",
                clip(&change.name)
            ),
        ));
    };
    let new = &change.value;
    let fits = match &*slot {
        Value::Null => true,
        Value::Bool(_) => new.is_boolean(),
        Value::Number(n) if n.is_f64() => new.is_number(),
        Value::Number(_) => new.is_i64() || new.is_u64(),
        Value::String(_) => new.is_string() || new.is_null(),
        Value::Array(_) | Value::Object(_) => {
            return Err(ToolError::invalid(
                name_field(),
                "this names a group of settings, not one setting",
            ));
        }
    };
    if !fits {
        return Err(ToolError::invalid(
            format!("/changes/{i}/value"),
            format!("must be {}, like the current value", kind(slot)),
        ));
    }
    *slot = new.clone();
    Ok(())
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Bool(_) => "a boolean",
        Value::Number(n) if n.is_f64() => "a number",
        Value::Number(_) => "an integer",
        Value::String(_) => "a string (or null)",
        _ => "a single value",
    }
}

fn clip(s: &str) -> String {
    let mut out: String = s.chars().take(80).collect();
    if out.len() < s.len() {
        out.push('…');
    }
    out
}

/// What a settings POST answers: `true`/`false`, or for `jobs`
/// `{result, message}` (`result: false` with a message for an invalid CRON
/// expression, nothing saved).
#[derive(Deserialize)]
#[serde(untagged)]
enum Saved {
    Bool(bool),
    Jobs {
        #[serde(default)]
        result: bool,
        #[serde(default)]
        message: Option<String>,
    },
}

impl BusinessResult for Saved {
    fn check(self, status: u16) -> Result<Self, ToolError> {
        let refusal = match &self {
            Saved::Bool(true) | Saved::Jobs { result: true, .. } => return Ok(self),
            Saved::Bool(false) => "Ombi did not save the section".to_string(),
            Saved::Jobs { message, .. } => match message.as_deref().map(sanitize) {
                Some(m) if !m.is_empty() => format!("Ombi did not save the section: {m}"),
                _ => "Ombi did not save the section".to_string(),
            },
        };
        Err(ToolError::new(ErrorCode::UpstreamRejected, refusal).with_status(status))
    }
}

/// `FeatureEnablement` as `GET /api/v2/Features` and the switches answer.
#[derive(Deserialize)]
struct Feature {
    name: String,
    #[serde(default)]
    enabled: bool,
}

/// Features: each change is one call to Ombi's per-feature switch
/// (`POST /api/v2/Features/{enable,disable}`), which changes only that
/// feature and answers the whole list. Ombi matches the name exactly and
/// answers 500 for an unknown one, so names are checked first. The switch
/// overwrites nothing else, but the revision is still compared: a list
/// switched since it was read means the caller decided on a stale view.
async fn features(ctx: &CallCtx, revision: &str, changes: &[Change]) -> Outcome {
    let section = settings::section("features")
        .ok_or_else(|| ToolError::internal("no settings section `features`"))?;
    let raw = read_section(ctx, section).await?;
    if settings::revision(&raw) != revision {
        return Err(stale("features").into());
    }
    let known: Vec<Feature> = serde_json::from_value(raw).unwrap_or_default();
    for (i, c) in changes.iter().enumerate() {
        if !known.iter().any(|f| f.name == c.name) {
            let names: Vec<&str> = known.iter().map(|f| f.name.as_str()).collect();
            return Err(ToolError::invalid(
                format!("/changes/{i}/name"),
                format!(
                    "unknown feature `{}`; names are case-sensitive: {}",
                    clip(&c.name),
                    crate::definition::shape::list(&names)
                ),
            )
            .into());
        }
    }
    let was = |name: &str| {
        known
            .iter()
            .find(|f| f.name == name)
            .map(|f| Value::Bool(f.enabled))
    };
    confirm_changes(ctx, "features", was, changes).await?;
    let mut mutation = Mutation::new(Done::Completed);
    let mut first_error = None;
    let mut last = None;
    for c in changes {
        let on = c.value == json!(true);
        let route = Route::post(if on {
            "api/v2/Features/enable"
        } else {
            "api/v2/Features/disable"
        })
        .json(&json!({"name": c.name, "enabled": on}));
        match ctx.upstream.write_json::<Value>(ctx.acting(), route).await {
            Ok(Some(list)) => {
                let now: Vec<Feature> = serde_json::from_value(list.clone()).unwrap_or_default();
                mutation.item_results.push(checked(
                    &c.name,
                    now.iter().any(|f| f.name == c.name && f.enabled == on),
                    "Ombi's answer does not show the feature switched",
                ));
                last = Some(list);
            }
            Ok(None) => {
                // Sent, no list back: we cannot tell whether it switched.
                let e = ToolError::new(
                    ErrorCode::UnknownOutcome,
                    format!(
                        "Ombi answered the switch of feature `{}` with nothing; read_settings shows \
                         whether it changed",
                        c.name
                    ),
                )
                .retryable(false);
                return Err(stop_after(mutation, e));
            }
            Err(e) if e.code == ErrorCode::UnknownOutcome => return Err(stop_after(mutation, e)),
            Err(e) => {
                mutation
                    .item_results
                    .push(item(&c.name, Done::Rejected, Some(e.message.clone())));
                first_error.get_or_insert(e);
            }
        }
    }
    mutation.message = Some(match &last {
        Some(list) => format!(
            "switched features; new revision {}",
            settings::revision(list)
        ),
        None => "no feature was switched".into(),
    });
    settle(mutation, Done::Completed, first_error, Vec::new())
}

/// An unknown outcome part-way through several switches: the error, with
/// what is known of the switches before it.
fn stop_after(mut mutation: Mutation, e: ToolError) -> crate::contract::Failure {
    let data = if mutation.item_results.is_empty() {
        None
    } else {
        mutation.outcome = Done::Unknown;
        Some(mutation.into_data())
    };
    crate::contract::Failure {
        error: e,
        data,
        warnings: Vec::new(),
    }
}
