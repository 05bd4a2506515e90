//! `write_user_manage`: create, update and delete Ombi users
//! (`POST`/`PUT /api/v1/Identity`, `DELETE /api/v1/Identity/{id}`).
//!
//! - create: Ombi answers 500 without `claims` or a password, so both are
//!   always sent; it returns no id, so the new user is looked up by name.
//!   The password is a secret from the moment it is parsed (`Password`):
//!   it goes into the request body and nowhere else.
//! - update: Ombi's update overwrites alias, e-mail, the three limits and
//!   their periods and removes every role before re-adding the enabled
//!   claims it is sent, so it is a read-modify-write of the whole record,
//!   with the current roles re-sent unless `roles` is given
//!   (docs/ombi-notes.md, "Users"). Only the roles the user is to have are
//!   sent as claims ("What user create and update ignore").
//! - delete: Ombi deletes the user's requests, issues and votes with them.

use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value, json};

use super::accounts::{Account, accounts};
use crate::confirm::Confirmation;
use crate::contract::{ErrorCode, Family, Outcome, ToolError};
use crate::definition::params::*;
use crate::definition::{Bundle, ToolActions, ToolDef};
use crate::projection::mutation::{Mutation, Outcome as Done};
use crate::secrets::{ExposeSecret, SecretString};
use crate::text::message::{sanitize, sanitize_with};
use crate::tools::{Actions, CallCtx, Tool};
use crate::tools::{not_found, not_found_on_500, reply};
use crate::upstream::{IdentityResult, Route};

pub static TOOL: Tool = Tool::new::<Action>(ToolDef {
    name: "write_user_manage",
    title: "Manage users",
    bundle: Bundle::Administration,
    destructive: true,
    description: "Create, update or delete Ombi users, including their roles and request limits. Actions marked so ask the person to confirm when the client can ask.",
    families: &[Family::Mutation],
    check: Some(user_rules),
    ..ToolDef::BASE
})
.examples(&[
    (r#"{"action": "create", "user": {"user_name": "pyuser", "password": "Py-New-Passw0rd-91c2"}}"#, true),
    (r#"{"action": "update", "user_id": "$user(bob)", "user": {"roles": ["RequestMusic"]}}"#, true),
    (r#"{"action": "delete", "user_id": "$user(carol)"}"#, true),
])
.invalid(&[
    (r#"{"action": "create", "user": {"user_name": "a", "is_admin": true}}"#, "/user/is_admin"),
    (r#"{"action": "update", "user_id": "abc", "user": {"password": "x"}}"#, "/user/password"),
    (r#"{"action": "create", "user": {"alias": "a"}}"#, "/user/user_name"),
]);

/// The limit periods, as `user.*_limit_type` and as Ombi's `RequestLimitType`.
const LIMIT_TYPES: &[(&str, i64)] = &[("day", 0), ("week", 1), ("month", 2)];

/// The three limits: (argument prefix, Ombi's limit field, its period field).
const LIMITS: &[(&str, &str, &str)] = &[
    ("movie", "movieRequestLimit", "movieRequestLimitType"),
    ("episode", "episodeRequestLimit", "episodeRequestLimitType"),
    ("music", "musicRequestLimit", "musicRequestLimitType"),
];

/// Argument rules beyond the schema: what Ombi would ignore or fail on.
fn user_rules(action: &str, args: &Map<String, Value>) -> Result<(), ToolError> {
    let Some(user) = args.get("user").and_then(Value::as_object) else {
        return Ok(());
    };
    let refuse = |field: &str, why: &str| Err(ToolError::invalid(format!("/user/{field}"), why));
    if user.contains_key("language") {
        return refuse(
            "language",
            "Ombi does not set a user's language on create or update; each user sets their own \
             (write_user_preferences `language`)",
        );
    }
    match action {
        "create" => {
            if !user.contains_key("user_name") {
                return refuse("user_name", "action `create` needs `user.user_name`");
            }
            if !user.contains_key("password") {
                return refuse(
                    "password",
                    "action `create` needs `user.password` (Ombi cannot create a local user without one)",
                );
            }
            for (prefix, _, _) in LIMITS {
                let field = format!("{prefix}_request_limit_type");
                if user.contains_key(&field) {
                    return refuse(
                        &field,
                        "Ombi ignores limit periods when it creates a user: create the user, then set \
                         the period with action `update`",
                    );
                }
            }
        }
        "update" => {
            if user.contains_key("password") {
                return refuse(
                    "password",
                    "`user.password` can only be set on `create`; passwords of existing users are not changed here",
                );
            }
            if user.contains_key("user_name") {
                return refuse("user_name", "Ombi cannot rename a user");
            }
            if user.is_empty() {
                return Err(ToolError::invalid(
                    "/user",
                    "action `update` needs at least one field in `user`",
                ));
            }
        }
        _ => {}
    }
    Ok(())
}

/// The actions, as validated arguments deserialize into them.
#[derive(Deserialize, ToolActions)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
enum Action {
    /// create a local user
    #[action(role = "PowerUser")]
    Create { user: UserFields },
    /// change a user's fields
    #[action(confirm = "when it changes roles")]
    #[action(role = "PowerUser")]
    Update { user_id: String, user: UserFields },
    /// delete a user
    #[action(confirm)]
    #[action(role = "PowerUser")]
    Delete { user_id: String },
}

/// `user` as validated (`language` and, per action, other fields already
/// refused by [`user_rules`]). No `Debug`: it may hold the password.
#[derive(Deserialize)]
struct UserFields {
    user_name: Option<String>,
    alias: Option<String>,
    email_address: Option<String>,
    password: Option<Password>,
    roles: Option<Vec<String>>,
    streaming_country: Option<String>,
    movie_request_limit: Option<i64>,
    movie_request_limit_type: Option<String>,
    episode_request_limit: Option<i64>,
    episode_request_limit_type: Option<String>,
    music_request_limit: Option<i64>,
    music_request_limit_type: Option<String>,
}

impl UserFields {
    /// (limit, period) given for `prefix` (`movie`, `episode`, `music`).
    fn limit(&self, prefix: &str) -> (Option<i64>, Option<i64>) {
        let (limit, period) = match prefix {
            "movie" => (self.movie_request_limit, &self.movie_request_limit_type),
            "episode" => (self.episode_request_limit, &self.episode_request_limit_type),
            _ => (self.music_request_limit, &self.music_request_limit_type),
        };
        let period = period.as_deref().and_then(|p| {
            LIMIT_TYPES
                .iter()
                .find(|(label, _)| *label == p)
                .map(|(_, code)| *code)
        });
        (limit, period)
    }
}

/// A new user's password: a [`SecretString`] from the moment it is parsed,
/// with no `Debug` or `Display`, so it can reach nothing but the request
/// body it is written into.
struct Password(SecretString);

impl<'de> Deserialize<'de> for Password {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let plain = zeroize::Zeroizing::new(String::deserialize(d)?);
        Ok(Password(SecretString::from(plain.as_str())))
    }
}

impl Actions for Action {
    async fn run(self, ctx: &CallCtx) -> Outcome {
        match self {
            Action::Create { user } => create(ctx, user).await,
            Action::Update { user_id, user } => update(ctx, &user_id, user).await,
            Action::Delete { user_id } => delete(ctx, &user_id).await,
        }
    }
}

/// `claims` as Ombi reads them: only enabled claims are added, and Ombi's
/// Admin check looks at every claim sent, so only the roles the user is to
/// have are sent.
fn claims(roles: &[String]) -> Value {
    Value::Array(
        roles
            .iter()
            .map(|r| json!({"value": r, "enabled": true}))
            .collect(),
    )
}

/// An `IdentityResult` refusal as the contract's error; `secret` (the
/// password of a create) is hidden from Ombi's text.
fn refusal(r: &IdentityResult, secret: Option<&str>) -> ToolError {
    let errors = r.errors.as_deref().unwrap_or_default();
    let text = sanitize_with(&errors.join("; "), secret.as_slice());
    let has = |needle: &str| errors.iter().any(|e| e.contains(needle));
    let (code, message) = if has("do not have the correct permissions") {
        (
            ErrorCode::Forbidden,
            "Ombi refused: only an Admin may create, change or delete a user who has (or is given) the \
             Admin role, and the acting Ombi user is not an Admin (Ombi checks every role listed for the \
             user, enabled or not)"
                .to_string(),
        )
    } else if has("Could not find user") {
        (ErrorCode::NotFound, format!("Ombi refused: {text}"))
    } else if has("already taken") {
        (ErrorCode::Conflict, format!("Ombi refused: {text}"))
    } else if text.is_empty() {
        (
            ErrorCode::UpstreamRejected,
            "Ombi refused the change without saying why".to_string(),
        )
    } else {
        (ErrorCode::UpstreamRejected, format!("Ombi refused: {text}"))
    };
    ToolError::new(code, message).with_status(200)
}

/// Sends `route` and reads its `IdentityResult`; a refusal is an error.
async fn identity_write(
    ctx: &CallCtx,
    route: Route,
    secret: Option<&str>,
) -> Result<(), ToolError> {
    let hide = |mut e: ToolError| {
        if let Some(s) = secret {
            e.message = sanitize_with(&e.message, &[s]);
        }
        e
    };
    let answer = ctx
        .upstream
        .write_json::<IdentityResult>(ctx.acting(), route)
        .await
        .map_err(hide)?;
    match answer {
        Some(r) if r.successful => Ok(()),
        Some(r) => Err(refusal(&r, secret)),
        None => Err(ToolError::new(
            ErrorCode::UnknownOutcome,
            "Ombi answered the user change with nothing; read_users shows whether it was made",
        )
        .retryable(false)),
    }
}

async fn create(ctx: &CallCtx, user: UserFields) -> Outcome {
    let (Some(name), Some(password)) = (user.user_name.as_deref(), user.password.as_ref()) else {
        return Err(ToolError::invalid("/user", "`user_name` and `password` are required").into());
    };
    let mut body = json!({
        "userName": name,
        "claims": claims(user.roles.as_deref().unwrap_or_default()),
        "password": password.0.expose_secret(),
    });
    let fields = [
        ("alias", user.alias.as_ref().map(|v| json!(v))),
        (
            "emailAddress",
            user.email_address.as_ref().map(|v| json!(v)),
        ),
        (
            "streamingCountry",
            user.streaming_country.as_ref().map(|v| json!(v)),
        ),
    ];
    for (key, value) in fields.into_iter().chain(
        LIMITS
            .iter()
            .map(|(prefix, limit, _)| (*limit, user.limit(prefix).0.map(|l| json!(l)))),
    ) {
        if let Some(v) = value {
            body[key] = v;
        }
    }
    let route = Route::post("api/v1/Identity").json(&body);
    drop(body);
    identity_write(ctx, route, Some(password.0.expose_secret())).await?;

    // Ombi returns no id: find the new user by name (Ombi compares names
    // case-insensitively).
    let mut warnings = Vec::new();
    let id = match accounts(ctx, &mut warnings).await {
        Ok((all, _)) => all
            .into_iter()
            .find(|a| a.user_name.eq_ignore_ascii_case(name) && !a.id.is_empty())
            .map(|a| a.id),
        Err(_) => None,
    };
    if id.is_none() {
        warnings.push(
            "Ombi created the user but its id could not be read back: read_users `list` shows it"
                .into(),
        );
    }
    let mut m = Mutation::new(Done::Completed).message(format!("created user {name}"));
    m.user_id = id;
    Ok(reply(m.into_data(), warnings, false))
}

async fn update(ctx: &CallCtx, user_id: &str, user: UserFields) -> Outcome {
    let what = format!("user {user_id}");
    // Ombi answers an unknown id with HTTP 500 (it dereferences a null user).
    let mut record = ctx
        .get_json::<Value>(Route::get("api/v1/Identity/User").seg(user_id))
        .await
        .map_err(|e| not_found_on_500(e, &what))?
        .filter(Value::is_object)
        .ok_or_else(|| not_found(&what))?;
    let current: Vec<String> = record["claims"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|c| c["enabled"] == json!(true))
        .filter_map(|c| c["value"].as_str().map(str::to_string))
        .collect();
    let mut warnings = Vec::new();
    let roles = user.roles.clone().unwrap_or_else(|| current.clone());
    let target_name = record["userName"].as_str().unwrap_or_default().to_string();
    if current.iter().any(|r| r == "Admin")
        && !roles.iter().any(|r| r == "Admin")
        && ctx
            .ombi_user()
            .is_some_and(|me| me.eq_ignore_ascii_case(&target_name))
    {
        warnings.push(
            "Ombi never removes the Admin role from the user making the change: you stay an Admin"
                .into(),
        );
    }
    fn set(record: &mut Value, key: &str, v: Option<Value>) {
        if let Some(v) = v {
            record[key] = v;
        }
    }
    set(&mut record, "alias", user.alias.as_ref().map(|v| json!(v)));
    set(
        &mut record,
        "emailAddress",
        user.email_address.as_ref().map(|v| json!(v)),
    );
    set(
        &mut record,
        "streamingCountry",
        user.streaming_country.as_ref().map(|v| json!(v)),
    );
    let mut rolled = Vec::new();
    for (prefix, limit_key, period_key) in LIMITS {
        let (limit, period) = user.limit(prefix);
        set(&mut record, limit_key, limit.map(|l| json!(l)));
        set(&mut record, period_key, period.map(|p| json!(p)));
        // `GET User/{id}` shows an unset period (a rolling 7 days) as Week;
        // the update stores what it is sent.
        if period.is_none()
            && record[*period_key] == json!(1)
            && record[*limit_key].as_i64().is_some_and(|l| l > 0)
        {
            rolled.push(*prefix);
        }
    }
    if !rolled.is_empty() {
        warnings.push(format!(
            "Ombi shows an unset limit period (a rolling 7 days) as `week` and an update stores `week`: \
             the {} limit period is now `week` if it was unset",
            rolled.join(", ")
        ));
    }
    let changes_roles = {
        let (mut now, mut then) = (current.clone(), roles.clone());
        now.sort();
        then.sort();
        now != then
    };
    if changes_roles {
        ctx.confirm(async {
            Ok(Confirmation::new(format!(
                "Change the roles of Ombi user {} from {} to {}?",
                user_in_words(&target_name, user_id),
                role_list(&current),
                role_list(&roles)
            )))
        })
        .await?;
    }
    record["id"] = json!(user_id);
    record["claims"] = claims(&roles);
    record["password"] = Value::Null;
    identity_write(ctx, Route::put("api/v1/Identity").json(&record), None).await?;
    let mut m = Mutation::new(Done::Completed).message(if user.roles.is_some() {
        format!("updated user {target_name}; roles replaced by the ones given")
    } else {
        format!("updated user {target_name}; roles kept")
    });
    m.user_id = Some(user_id.to_string());
    Ok(reply(m.into_data(), warnings, false))
}

/// "“alice”", or the id when Ombi gave no name.
fn user_in_words(name: &str, user_id: &str) -> String {
    match sanitize(name) {
        n if n.is_empty() => sanitize(user_id),
        n => format!("“{n}”"),
    }
}

/// "Admin, PowerUser", or "no roles".
fn role_list(roles: &[String]) -> String {
    if roles.is_empty() {
        "no roles".into()
    } else {
        sanitize(&roles.join(", "))
    }
}

async fn delete(ctx: &CallCtx, user_id: &str) -> Outcome {
    ctx.confirm(async {
        let what = format!("user {user_id}");
        // Ombi answers an unknown id with HTTP 500.
        let account = ctx
            .get_json::<Account>(Route::get("api/v1/Identity/User").seg(user_id))
            .await
            .map_err(|e| not_found_on_500(e, &what))?
            .ok_or_else(|| not_found(&what))?;
        Ok(Confirmation::new(format!(
            "Delete Ombi user {} with their requests, issues, comments, votes and notification settings? \
             This cannot be undone.",
            user_in_words(&account.user_name, user_id)
        )))
    })
    .await?;
    identity_write(ctx, Route::delete("api/v1/Identity").seg(user_id), None).await?;
    let mut m = Mutation::new(Done::Completed).message(
        "deleted the user, with their movie and album requests, TV episode requests, issues, comments, \
         votes and notification settings",
    );
    m.user_id = Some(user_id.to_string());
    Ok(reply(m.into_data(), Vec::new(), false))
}
