//! Administration write routes: settings saves (whole-object overwrites),
//! features, testers, jobs, user create/update/delete, mass e-mail, mobile
//! push (and the device list it needs), retry-queue removal — each as its
//! Ombi controller answers (docs/ombi-notes.md, "Write routes").

use axum::response::Response;
use serde_json::{Value, json};

use super::super::auth::Principal;
use super::super::state::{Data, ROLES, ombi_user, user_id};
use super::super::state_writes::{self as w, now};
use super::super::{Shared, error_500, json, ok_empty, problem, problem_400};
use super::requests::NRE;
use super::{Access, Ctx, RouteDef};

// The settings sections and notification agents: each GET (settings.rs) has
// its POST here.
use super::settings::{ADMIN, AGENTS, ANONYMOUS, POWER_USER};

/// The testers that swallow every send error (and return early on an
/// invalid configuration): their `true` proves nothing.
const SWALLOWING: &[(&str, &str)] = &[
    ("discord", "webhookUrl"),
    ("pushbullet", "accessToken"),
    ("pushover", "accessToken"),
    ("gotify", "baseUrl"),
    ("ntfy", "baseUrl"),
    ("webhook", "webhookUrl"),
    ("mattermost", "webhookUrl"),
    ("slack", "webhookUrl"),
    ("telegram", "botApi"),
];

const OTHER_TESTERS: &[&str] = &[
    "email",
    "plex",
    "emby",
    "jellyfin",
    "radarr",
    "sonarr",
    "lidarr",
    "couchpotato",
    "sickrage",
    "newsletter",
    "mobile",
    "whatsapp",
];

/// `POST /api/v1/Job/<route>`: (route, Quartz job, skipped while running).
/// Five routes call the scheduler directly, without the running check.
const JOBS: &[(&str, &str, bool)] = &[
    ("update", "IOmbiAutomaticUpdater", true),
    ("plexuserimporter", "IPlexUserImporter", true),
    ("plexwatchlist", "IPlexWatchlistImport", true),
    ("embyuserimporter", "IEmbyUserImporter", true),
    ("jellyfinuserimporter", "IJellyfinUserImporter", true),
    ("plexcontentcacher", "IPlexContentSync", false),
    ("clearmediaserverdata", "IMediaDatabaseRefresh", false),
    ("plexrecentlyadded", "IPlexContentSyncRecentlyAdded", false),
    ("embycontentcacher", "IEmbyContentSync", false),
    ("embyrecentlyadded", "IEmbyContentSyncRecentlyAdded", false),
    ("jellyfincontentcacher", "IJellyfinContentSync", true),
    ("arrAvailability", "IArrAvailabilityChecker", true),
    ("autodeleterequests", "IAutoDeleteRequests", true),
    ("newsletter", "INewsletterJob", true),
];

/// `JobSettings` properties in declaration order (the validation order).
const JOB_FIELDS: &[&str] = &[
    "EmbyContentSync",
    "EmbyRecentlyAddedSync",
    "JellyfinContentSync",
    "SonarrSync",
    "RadarrSync",
    "PlexContentSync",
    "PlexRecentlyAddedSync",
    "CouchPotatoSync",
    "AutomaticUpdater",
    "UserImporter",
    "SickRageSync",
    "Newsletter",
    "LidarrArtistSync",
    "IssuesPurge",
    "RetryRequests",
    "MediaDatabaseRefresh",
    "AutoDeleteRequests",
    "PlexWatchlistImport",
];

fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

pub fn routes() -> Vec<RouteDef> {
    use Access::{Admin, Authenticated as Auth, PowerUser as PU};
    let mut t = Vec::new();
    let mut r =
        |method: &'static str, template: &'static str, access: Access, handler: super::Handler| {
            t.push(RouteDef {
                method,
                template,
                access,
                handler,
            });
        };
    // Every section with a GET (settings.rs) has a POST, all Admin.
    for s in ANONYMOUS.iter().chain(POWER_USER).chain(ADMIN) {
        r(
            "POST",
            leak(format!("api/v1/Settings/{s}")),
            Admin,
            settings_save,
        );
    }
    for a in AGENTS {
        r(
            "POST",
            leak(format!("api/v1/Settings/notifications/{a}")),
            Admin,
            settings_save,
        );
    }
    r("POST", "api/v2/Features/enable", Admin, |c| {
        feature(c, true)
    });
    r("POST", "api/v2/Features/disable", Admin, |c| {
        feature(c, false)
    });
    for (a, _) in SWALLOWING {
        r("POST", leak(format!("api/v1/Tester/{a}")), Admin, tester);
    }
    for a in OTHER_TESTERS {
        r("POST", leak(format!("api/v1/Tester/{a}")), Admin, tester);
    }
    for (route, _, _) in JOBS {
        r("POST", leak(format!("api/v1/Job/{route}")), Admin, job);
    }
    r("POST", "api/v1/Identity", PU, user_create);
    r("PUT", "api/v1/Identity", PU, user_update);
    r("DELETE", "api/v1/Identity/{userId}", PU, user_delete);
    r("POST", "api/v1/Notifications/massemail", Admin, mass_email);
    r("POST", "api/v2/Mobile/Send", Admin, mobile_send);
    r("GET", "api/v2/Mobile/Users", Admin, mobile_users);
    r("POST", "api/v2/Mobile/Notification", Auth, mobile_register);
    r(
        "DELETE",
        "api/v1/RequestRetry/{queueId:int}",
        Admin,
        retry_remove,
    );
    t
}

/// The lower-cased path tail after `prefix` (`settings/`, `tester/`, `job/`).
fn tail(ctx: &Ctx, prefix: &str) -> String {
    let path = ctx.call.path.trim_matches('/').to_ascii_lowercase();
    path.split_once(prefix)
        .map(|(_, k)| k.to_string())
        .unwrap_or_default()
}

fn get_ci<'a>(v: &'a Value, name: &str) -> Option<&'a Value> {
    v.as_object()?
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v)
}

fn field<'a>(v: &'a Value, name: &str) -> &'a Value {
    get_ci(v, name).unwrap_or(&Value::Null)
}

fn text(v: &Value, name: &str) -> String {
    field(v, name).as_str().unwrap_or_default().to_string()
}

// ---------------------------------------------------------------- settings

/// What a property missing from the body becomes when the settings class
/// is deserialized: its type's default.
fn default_of(old: &Value) -> Value {
    match old {
        Value::Bool(_) => json!(false),
        Value::Number(_) => json!(0),
        _ => Value::Null,
    }
}

/// `SettingsService.SaveSettingsAsync`: the body replaces the whole object
/// (the properties the class has; names case-insensitive; missing ones
/// reset to their defaults); the stored `id` is kept.
pub fn overwrite(old: &Value, body: &Value) -> Value {
    let Some(fields) = old.as_object() else {
        return body.clone();
    };
    let mut out = serde_json::Map::new();
    for (k, v) in fields {
        let new = if k == "id" {
            v.clone()
        } else {
            match get_ci(body, k) {
                Some(b) if v.is_object() && b.is_object() => overwrite(v, b),
                Some(b) => b.clone(),
                None => default_of(v),
            }
        };
        out.insert(k.clone(), new);
    }
    Value::Object(out)
}

/// Where an agent's templates travel in its settings body.
fn template_key(agent: &str) -> Option<&'static str> {
    match agent {
        "webhook" => None,
        "newsletter" => Some("notificationTemplate"),
        "twilio" => Some("whatsAppSettings"),
        _ => Some("notificationTemplates"),
    }
}

fn settings_save(ctx: &Ctx) -> Response {
    let key = tail(ctx, "settings/");
    let Some(body) = ctx.body::<Value>().filter(Value::is_object) else {
        return problem_400("settings", "The settings field is required.");
    };
    let mut data = ctx.shared.data.lock().unwrap();
    let old = data.admin.settings.get(&key).cloned().unwrap_or(json!({}));
    let store = |data: &mut Data, v: Value| {
        data.admin.settings.insert(key.clone(), v);
    };
    if let Some(agent) = key.strip_prefix("notifications/") {
        let mut new = overwrite(&old, &body);
        let Some(tk) = template_key(agent) else {
            store(&mut data, new);
            return json(json!(true));
        };
        // The settings are saved first, the templates after: missing ones
        // are a null dereference once the settings are already stored.
        let templates_missing = if agent == "twilio" {
            field(field(&body, tk), "notificationTemplates").is_null()
        } else {
            field(&body, tk).is_null()
        };
        if templates_missing {
            if agent == "twilio" {
                if new[tk].is_object() {
                    new[tk]["notificationTemplates"] = old[tk]["notificationTemplates"].clone();
                }
            } else {
                new[tk] = old[tk].clone();
            }
            store(&mut data, new);
            return error_500(if agent == "twilio" {
                NRE
            } else {
                "Value cannot be null. (Parameter 'entities')"
            });
        }
        store(&mut data, new);
        return json(json!(true));
    }
    match key.as_str() {
        "radarr" => {
            // Two saves: the first lands even when the second fails.
            let Some(hd) = get_ci(&body, "radarr").filter(|v| v.is_object()) else {
                return error_500(NRE);
            };
            let mut new = old.clone();
            new["radarr"] = overwrite(&old["radarr"], hd);
            data.admin.radarr_enabled = new["radarr"]["enabled"] == json!(true);
            let Some(uhd) = get_ci(&body, "radarr4K").filter(|v| v.is_object()) else {
                store(&mut data, new);
                return error_500(NRE);
            };
            new["radarr4K"] = overwrite(&old["radarr4K"], uhd);
            store(&mut data, new);
            data.writes.trigger_job("IRadarrSync");
            json(json!(true))
        }
        "emby" | "jellyfin" => {
            let mut new = overwrite(&old, &body);
            if new["enable"] == json!(true) {
                // Each server is asked for its users before anything is saved.
                if data.writes.is_down(&key) {
                    return error_500(&format!(
                        "Connection refused ({}:{})",
                        "media.example.org", 443
                    ));
                }
                let users = if key == "emby" {
                    &data.admin.emby_users
                } else {
                    &data.admin.jellyfin_users
                };
                let admin = users
                    .first()
                    .map(|u| u["id"].clone())
                    .unwrap_or(Value::Null);
                for s in new["servers"].as_array_mut().into_iter().flatten() {
                    s["administratorId"] = admin.clone();
                }
            }
            store(&mut data, new);
            let job = if key == "emby" {
                "IEmbyContentSync"
            } else {
                "IJellyfinContentSync"
            };
            data.writes.trigger_job(job);
            json(json!(true))
        }
        "plex" => {
            let mut new = overwrite(&old, &body);
            let id = new["installId"].as_str().unwrap_or_default();
            if id.is_empty() || id == "00000000-0000-0000-0000-000000000000" {
                new["installId"] = json!(uuid::Uuid::new_v4().to_string());
            }
            store(&mut data, new);
            data.writes.trigger_job("IPlexContentSync");
            json(json!(true))
        }
        "sonarr" | "lidarr" => {
            let new = overwrite(&old, &body);
            let on = new["enabled"] == json!(true);
            store(&mut data, new);
            if key == "sonarr" {
                data.admin.sonarr_enabled = on;
                data.writes.trigger_job("ISonarrSync");
            } else {
                data.requests.lidarr_enabled = on;
                data.writes.trigger_job("ILidarrArtistSync");
            }
            json(json!(true))
        }
        "ombi" => {
            let mut new = overwrite(&old, &body);
            new["wizard"] = json!(true);
            // A changed key is the key ApiKey calls must send from now on
            // (the stored one stands for the configured key).
            if new["apiKey"] != old["apiKey"] {
                ctx.shared.options.lock().unwrap().api_key =
                    new["apiKey"].as_str().unwrap_or_default().to_string();
            }
            store(&mut data, new);
            json(json!(true))
        }
        "jobs" => {
            for name in JOB_FIELDS {
                let expr = field(&body, name).as_str().unwrap_or_default();
                if !super::server::quartz_valid(expr) {
                    return json(json!({"result": false,
                        "message": format!("{name} does not have a valid CRON Expression")}));
                }
            }
            store(&mut data, overwrite(&old, &body));
            json(json!({"result": true, "message": null}))
        }
        _ => {
            store(&mut data, overwrite(&old, &body));
            json(json!(true))
        }
    }
}

/// `FeaturesController.Enable/Disable`: the name must match exactly
/// (case-sensitive) or `First()` throws; answers the whole list.
fn feature(ctx: &Ctx, on: bool) -> Response {
    let Some(body) = ctx.body::<Value>().filter(Value::is_object) else {
        return problem_400("feature", "The feature field is required.");
    };
    let name = text(&body, "name");
    let mut data = ctx.shared.data.lock().unwrap();
    let Some(f) = data.features.iter_mut().find(|(n, _)| *n == name) else {
        return error_500("Sequence contains no matching element");
    };
    f.1 = on;
    json(json!(
        data.features
            .iter()
            .map(|(n, e)| json!({"name": n, "enabled": e}))
            .collect::<Vec<_>>()
    ))
}

// ---------------------------------------------------------------- testers

fn tester_result(
    valid: bool,
    version: Option<&str>,
    sub_dir: Option<&str>,
    info: Option<&str>,
) -> Value {
    json!({"isValid": valid, "version": version, "expectedSubDir": sub_dir, "additionalInformation": info})
}

/// `TesterController`: no `[ApiController]`, so a missing body is a null
/// model caught inside the try: `false` / `isValid: false`.
fn tester(ctx: &Ctx) -> Response {
    let target = tail(ctx, "tester/");
    let body = ctx.body::<Value>().filter(Value::is_object);
    let p = ctx.principal.clone().expect("admin route");
    let mut data = ctx.shared.data.lock().unwrap();
    if let Some((_, dest)) = SWALLOWING.iter().find(|(a, _)| *a == target) {
        let Some(body) = body else {
            return json(json!(false));
        };
        let to = text(&body, dest);
        if !to.is_empty() && !data.writes.is_down(&target) {
            data.writes
                .outbox
                .push(json!({"channel": target, "to": to, "message": "test"}));
        }
        return json(json!(true));
    }
    let arr = matches!(target.as_str(), "radarr" | "sonarr" | "lidarr");
    let Some(body) = body else {
        return json(if arr {
            tester_result(false, None, None, None)
        } else {
            json!(false)
        });
    };
    let down = data.writes.is_down(&target);
    let answer = match target.as_str() {
        "email" => {
            // The caller's own address; the bare ApiKey principal is `Api`, who has none.
            let to = w::user_row(&data, &p.user_name)
                .and_then(|u| u["emailAddress"].as_str().map(str::to_string))
                .filter(|e| !e.is_empty());
            match to {
                Some(to) if !data.writes.is_down("smtp") => {
                    data.writes.outbox.push(json!({"channel": "email", "to": to,
                        "subject": "Ombi: Test", "message": "This is just a test! Success!"}));
                    json!(true)
                }
                _ => json!(false),
            }
        }
        "radarr" | "lidarr" | "sonarr" => {
            if target == "sonarr" {
                let missing = [
                    (text(&body, "apiKey").is_empty(), "NullApiKey"),
                    (text(&body, "ip").is_empty(), "NullIp"),
                    (field(&body, "port").as_i64().unwrap_or(0) <= 0, "BadPort"),
                ];
                if let Some((_, info)) = missing.iter().find(|(m, _)| *m) {
                    return json(tester_result(false, None, None, Some(info)));
                }
            }
            if down {
                tester_result(false, None, None, None)
            } else {
                let saved = data
                    .admin
                    .settings
                    .get(&target)
                    .cloned()
                    .unwrap_or(Value::Null);
                let saved = if target == "radarr" {
                    saved["radarr"].clone()
                } else {
                    saved
                };
                let url_base = saved["subDir"].as_str().unwrap_or_default().to_string();
                let sub = text(&body, "subDir");
                let version = (target == "sonarr").then_some("4.0.9.2244");
                tester_result(url_base == sub, version, Some(&url_base), None)
            }
        }
        "emby" => json!(!down && !data.admin.emby_users.is_empty()),
        "jellyfin" => json!(!down && !data.admin.jellyfin_users.is_empty()),
        "newsletter" => {
            if data.writes.is_down("smtp") {
                json!(false)
            } else {
                data.writes.outbox.push(
                    json!({"channel": "newsletter", "to": "admins", "message": "test newsletter"}),
                );
                json!(true)
            }
        }
        "whatsapp" => {
            // The user lookup compares the user name case-sensitively.
            let row = data
                .admin
                .users
                .iter()
                .find(|u| u["userName"] == json!(p.user_name));
            let to = row.and_then(|u| {
                data.admin
                    .notification_preferences
                    .iter()
                    .find(|n| n["userId"] == u["id"] && n["agent"] == json!(10))
            });
            match to.map(|n| n["value"].clone()) {
                Some(to) if !down => {
                    data.writes.outbox.push(json!({"channel": "whatsapp", "to": to, "message": "This is a test from Ombi!"}));
                    json!(true)
                }
                _ => json!(false),
            }
        }
        // plex, couchpotato, sickrage, mobile: a reachable service answers.
        _ => json!(!down),
    };
    json(answer)
}

// ---------------------------------------------------------------- jobs

/// Every job route answers `true`, also when the trigger was skipped.
fn job(ctx: &Ctx) -> Response {
    let route = tail(ctx, "job/");
    let Some((_, name, checks)) = JOBS.iter().find(|(r, _, _)| r.eq_ignore_ascii_case(&route))
    else {
        return error_500(NRE);
    };
    let mut data = ctx.shared.data.lock().unwrap();
    if *checks {
        data.writes.trigger_job(name);
    } else {
        data.writes.triggered_jobs.push(name.to_string());
    }
    json(json!(true))
}

// ---------------------------------------------------------------- users

fn identity_error(message: &str) -> Response {
    json(json!({"successful": false, "errors": [message]}))
}

/// `EmailValidator.IsValidEmail`: empty is valid.
fn email_valid(email: &str) -> bool {
    if email.is_empty() {
        return true;
    }
    match email.rsplit_once('@') {
        Some((local, domain)) => {
            !local.is_empty()
                && !domain.is_empty()
                && !email.contains(char::is_whitespace)
                && !domain.starts_with('.')
                && !domain.ends_with('.')
        }
        None => false,
    }
}

/// `CanModifyUser`: any claim VALUE naming Admin (enabled or not) needs an
/// Admin caller.
fn can_modify(p: &Principal, claims: &[Value]) -> bool {
    let lists_admin = claims.iter().any(|c| {
        field(c, "value")
            .as_str()
            .is_some_and(|v| v.eq_ignore_ascii_case("admin"))
    });
    !lists_admin || p.is_admin()
}

fn claims_of(roles: &[String]) -> Value {
    json!(
        ROLES
            .iter()
            .map(|r| json!({"value": r, "enabled": roles.iter().any(|x| x == r)}))
            .collect::<Vec<_>>()
    )
}

/// `AddRoles`: every enabled claim in turn; a role the user already has is
/// an `IdentityResult` error, one that does not exist throws (`Err`: a 500,
/// with the roles added so far kept).
fn add_roles(claims: &[Value], roles: &mut Vec<String>) -> Result<Vec<String>, String> {
    let mut errors = Vec::new();
    for c in claims
        .iter()
        .filter(|c| field(c, "enabled") == &json!(true))
    {
        let name = text(c, "value");
        match ROLES.iter().find(|r| r.eq_ignore_ascii_case(&name)) {
            Some(r) if roles.iter().any(|x| x == r) => {
                errors.push(format!("User already in role '{r}'."))
            }
            Some(r) => roles.push(r.to_string()),
            None => return Err(format!("Role {} does not exist.", name.to_uppercase())),
        }
    }
    Ok(errors)
}

/// The answer after `AddRoles`.
fn roles_answer(added: Result<Vec<String>, String>) -> Response {
    match added {
        Err(thrown) => error_500(&thrown),
        Ok(errors) if !errors.is_empty() => json(json!({"successful": false, "errors": errors})),
        Ok(_) => json(json!({"successful": true, "errors": null})),
    }
}

/// Keeps the fake's login table in step with the Identity row.
fn sync_login(shared: &Shared, name: &str, password: Option<&str>, roles: Option<&[String]>) {
    let mut opts = shared.options.lock().unwrap();
    match opts
        .users
        .iter_mut()
        .find(|(u, _, _)| u.eq_ignore_ascii_case(name))
    {
        Some((_, pw, r)) => {
            if let Some(p) = password {
                *pw = p.to_string();
            }
            if let Some(roles) = roles {
                *r = roles.to_vec();
            }
        }
        None => {
            if let Some(p) = password {
                opts.users.push((
                    name.to_string(),
                    p.to_string(),
                    roles.unwrap_or(&[]).to_vec(),
                ));
            }
        }
    }
}

fn claims_body(body: &Value) -> Option<Vec<Value>> {
    field(body, "claims").as_array().cloned()
}

/// `IdentityController.CreateUser`: no id in the answer; limit types stay
/// null (read back as Week).
fn user_create(ctx: &Ctx) -> Response {
    let Some(body) = ctx.body::<Value>().filter(Value::is_object) else {
        return problem_400("user", "The user field is required.");
    };
    let p = ctx.principal.clone().expect("power user route");
    let email = text(&body, "emailAddress");
    if !email_valid(&email) {
        return identity_error(&format!("The email address {email} is not a valid format"));
    }
    let Some(claims) = claims_body(&body) else {
        return error_500(NRE);
    };
    if !can_modify(&p, &claims) {
        return identity_error("You do not have the correct permissions to create this user");
    }
    let mut data = ctx.shared.data.lock().unwrap();
    if !email.is_empty()
        && data.admin.users.iter().any(|u| {
            u["emailAddress"]
                .as_str()
                .is_some_and(|e| e.eq_ignore_ascii_case(&email))
        })
    {
        return identity_error("This email has already been taken");
    }
    let Some(password) = field(&body, "password").as_str().map(str::to_string) else {
        return error_500("Value cannot be null. (Parameter 'password')");
    };
    if password.is_empty() {
        return json(json!({"successful": false, "errors": [
            "Passwords must be at least 1 characters.", "Passwords must use at least 1 different characters."]}));
    }
    let name = text(&body, "userName");
    if name.trim().is_empty() {
        return identity_error(&format!(
            "Username '{name}' is invalid, can only contain letters or digits."
        ));
    }
    if w::user_row(&data, &name).is_some() {
        return identity_error(&format!("Username '{name}' is already taken."));
    }
    let mut roles = Vec::new();
    let added = add_roles(&claims, &mut roles);
    let int = |k: &str| field(&body, k).as_i64().unwrap_or(0);
    let country = Some(text(&body, "streamingCountry")).filter(|c| !c.is_empty());
    let quality = match field(&body, "userQualityProfiles") {
        Value::Null => json!({"id": 0, "userId": user_id(&name), "sonarrQualityProfileAnime": 0,
            "sonarrRootPathAnime": 0, "sonarrRootPath": 0, "sonarrQualityProfile": 0, "radarrRootPath": 0,
            "radarrQualityProfile": 0, "radarr4KRootPath": 0, "radarr4KQualityProfile": 0}),
        q => {
            let mut q = q.clone();
            q["userId"] = json!(user_id(&name));
            q
        }
    };
    data.admin.users.push(json!({
        "id": user_id(&name), "userName": name, "alias": field(&body, "alias"), "claims": claims_of(&roles),
        "emailAddress": if email.is_empty() { Value::Null } else { json!(email) }, "password": null,
        "lastLoggedIn": null, "language": null, "hasLoggedIn": false, "userType": 1,
        "movieRequestLimit": int("movieRequestLimit"), "episodeRequestLimit": int("episodeRequestLimit"),
        "musicRequestLimit": int("musicRequestLimit"),
        "movieRequestLimitType": null, "musicRequestLimitType": null, "episodeRequestLimitType": null,
        "streamingCountry": country.unwrap_or_else(|| "US".into()),
        "episodeRequestQuota": null, "movieRequestQuota": null, "musicRequestQuota": null,
        "userQualityProfiles": quality
    }));
    drop(data);
    sync_login(ctx.shared, &name, Some(&password), Some(&roles));
    roles_answer(added)
}

/// `IdentityController.UpdateUser`: alias, e-mail, the three limits and
/// limit types are overwritten (omitted = 0 = Day); every role is removed and
/// the enabled claims re-added (an Admin editing themself keeps Admin).
fn user_update(ctx: &Ctx) -> Response {
    let Some(body) = ctx.body::<Value>().filter(Value::is_object) else {
        return problem_400("ui", "The ui field is required.");
    };
    let p = ctx.principal.clone().expect("power user route");
    let email = text(&body, "emailAddress");
    if !email_valid(&email) {
        return identity_error(&format!("The email address {email} is not a valid format"));
    }
    let Some(mut claims) = claims_body(&body) else {
        return error_500(NRE);
    };
    if !can_modify(&p, &claims) {
        return identity_error("You do not have the correct permissions to create this user");
    }
    let id = text(&body, "id");
    let mut data = ctx.shared.data.lock().unwrap();
    let Some(row) = data.admin.users.iter_mut().find(|u| u["id"] == json!(id)) else {
        return error_500(NRE);
    };
    row["alias"] = field(&body, "alias").clone();
    row["emailAddress"] = if email.is_empty() {
        Value::Null
    } else {
        json!(email)
    };
    for k in [
        "movieRequestLimit",
        "episodeRequestLimit",
        "musicRequestLimit",
        "movieRequestLimitType",
        "episodeRequestLimitType",
        "musicRequestLimitType",
    ] {
        row[k] = json!(field(&body, k).as_i64().unwrap_or(0));
    }
    let password = Some(text(&body, "password")).filter(|s| !s.is_empty());
    let country = text(&body, "streamingCountry");
    if !country.is_empty() {
        row["streamingCountry"] = json!(country);
    }
    let name = row["userName"].as_str().unwrap_or_default().to_string();
    let modifying_self = name.eq_ignore_ascii_case(&p.user_name);
    let mut roles: Vec<String> = Vec::new();
    if modifying_self && w::row_roles(row).iter().any(|r| r == "Admin") {
        roles.push("Admin".into());
        if let Some(i) = claims.iter().position(|c| {
            field(c, "value") == &json!("Admin") && field(c, "enabled") == &json!(true)
        }) {
            claims.remove(i);
        }
    }
    let added = add_roles(&claims, &mut roles);
    row["claims"] = claims_of(&roles);
    let profiles = field(&body, "userQualityProfiles").as_object();
    if let (Ok(errors), Some(q)) = (&added, profiles)
        && errors.is_empty()
    {
        for (k, v) in q.iter().filter(|(k, _)| *k != "id" && *k != "userId") {
            row["userQualityProfiles"][k] = v.clone();
        }
    }
    drop(data);
    sync_login(ctx.shared, &name, password.as_deref(), Some(&roles));
    roles_answer(added)
}

/// `IdentityController.DeleteUser` + `UserDeletionEngine`: the user's
/// requests (TV children only: the parents stay), preferences, comments,
/// issues, votes, subscriptions and devices go first; an issue of theirs
/// that others commented on fails the delete (500) halfway.
fn user_delete(ctx: &Ctx) -> Response {
    let p = ctx.principal.clone().expect("power user route");
    let id = ctx.param("userId").to_string();
    let mut data = ctx.shared.data.lock().unwrap();
    let Some(row) = data
        .admin
        .users
        .iter()
        .find(|u| u["id"] == json!(id))
        .cloned()
    else {
        return identity_error("Could not find user to delete.");
    };
    let roles = w::row_roles(&row);
    let role_claims: Vec<Value> = roles.iter().map(|r| json!({"value": r})).collect();
    if !can_modify(&p, &role_claims) {
        return identity_error("You do not have the correct permissions to delete this user");
    }
    let name = row["userName"].as_str().unwrap_or_default().to_string();
    let mine = |r: &Value| r["requestedUserId"] == json!(id);
    data.movie_requests.retain(|r| !mine(r));
    for parent in data.requests.tv_parents.iter_mut() {
        if let Some(c) = parent["childRequests"].as_array_mut() {
            c.retain(|r| !mine(r));
        }
    }
    data.requests.albums.retain(|r| !mine(r));
    data.admin
        .notification_preferences
        .retain(|n| n["userId"] != json!(id));
    data.comments.retain(|c| c["userId"] != json!(id));
    let issues: Vec<Value> = data
        .issues
        .iter()
        .filter(|i| i["userReportedId"] == json!(id))
        .map(|i| i["id"].clone())
        .collect();
    if data
        .comments
        .iter()
        .any(|c| issues.contains(&c["issuesId"]))
    {
        return error_500(
            "An error occurred while saving the entity changes. See the inner exception for details.",
        );
    }
    data.issues.retain(|i| i["userReportedId"] != json!(id));
    data.votes.retain(|v| !v.user.eq_ignore_ascii_case(&name));
    data.writes
        .subscriptions
        .retain(|s| !s.user.eq_ignore_ascii_case(&name));
    data.writes
        .mobile_devices
        .retain(|d| d["userId"] != json!(id));
    data.admin.users.retain(|u| u["id"] != json!(id));
    drop(data);
    ctx.shared
        .options
        .lock()
        .unwrap()
        .users
        .retain(|(u, _, _)| !u.eq_ignore_ascii_case(&name));
    json(json!({"successful": true, "errors": null}))
}

// ---------------------------------------------------------------- sending

/// `MassEmailSender.SendMassEmail`: an unknown user id dereferences null
/// (500) — mails to the users before it were already started and go out;
/// users without an address are skipped; an SMTP failure is rethrown (500).
fn mass_email(ctx: &Ctx) -> Response {
    let Some(body) = ctx.body::<Value>().filter(Value::is_object) else {
        return problem_400("model", "The model field is required.");
    };
    let Some(users) = field(&body, "users").as_array().cloned() else {
        return error_500(NRE);
    };
    let subject = field(&body, "subject").clone();
    let message = field(&body, "body").clone();
    let bcc = field(&body, "bcc") == &json!(true);
    let mut data = ctx.shared.data.lock().unwrap();
    let smtp_down = data.writes.is_down("smtp");
    let mut to = Vec::new();
    for u in &users {
        let id = text(u, "id");
        let Some(row) = data.admin.users.iter().find(|r| r["id"] == json!(id)) else {
            if !bcc && !smtp_down {
                for addr in &to {
                    data.writes.outbox.push(json!({"channel": "email", "to": addr, "subject": subject, "message": message}));
                }
            }
            return error_500(NRE);
        };
        if let Some(e) = row["emailAddress"].as_str().filter(|e| !e.is_empty()) {
            to.push(e.to_string());
        }
    }
    if to.is_empty() {
        return json(json!(true));
    }
    if smtp_down {
        return error_500("Connection refused (smtp.example.org:54322)");
    }
    if bcc {
        data.writes
            .outbox
            .push(json!({"channel": "email", "bcc": to, "subject": subject, "message": message}));
    } else {
        for addr in to {
            data.writes.outbox.push(
                json!({"channel": "email", "to": addr, "subject": subject, "message": message}),
            );
        }
    }
    json(json!(true))
}

/// `V2/MobileController.SendNotification`: an empty 200 whatever happened
/// (unknown user, no devices, sent).
fn mobile_send(ctx: &Ctx) -> Response {
    let Some(body) = ctx.body::<Value>().filter(Value::is_object) else {
        return problem_400("model", "The model field is required.");
    };
    let user = text(&body, "userId");
    let message = field(&body, "message").clone();
    let mut data = ctx.shared.data.lock().unwrap();
    if data.admin.users.iter().any(|u| u["id"] == json!(user)) {
        let tokens: Vec<Value> = data
            .writes
            .mobile_devices
            .iter()
            .filter(|d| d["userId"] == json!(user))
            .map(|d| d["token"].clone())
            .collect();
        for t in tokens {
            data.writes
                .outbox
                .push(json!({"channel": "mobile", "to": t, "message": message}));
        }
    }
    ok_empty()
}

/// `GET /api/v2/Mobile/Users`: devices grouped by user, each device with
/// its full user row (secrets included, as upstream).
fn mobile_users(ctx: &Ctx) -> Response {
    let data = ctx.shared.data.lock().unwrap();
    let mut out: Vec<Value> = Vec::new();
    for d in &data.writes.mobile_devices {
        let uid = d["userId"].clone();
        let name = data
            .admin
            .users
            .iter()
            .find(|u| u["id"] == uid)
            .and_then(|u| u["userName"].as_str())
            .unwrap_or_default()
            .to_string();
        let mut device = d.clone();
        device["user"] = ombi_user(&name);
        match out.iter_mut().find(|g| g["userId"] == uid) {
            Some(g) => g["devices"].as_array_mut().expect("devices").push(device),
            None => out.push(json!({"userId": uid, "username": name, "devices": [device]})),
        }
    }
    json(Value::Array(out))
}

/// `V2/MobileController.AddNotitficationId`: the caller's device token.
fn mobile_register(ctx: &Ctx) -> Response {
    let token = ctx
        .body::<Value>()
        .map(|b| text(&b, "token"))
        .unwrap_or_default();
    if token.is_empty() {
        return problem(400, "Bad Request");
    }
    let user = ctx.user();
    let mut data = ctx.shared.data.lock().unwrap();
    let Some(uid) = w::user_row(&data, &user).map(|u| u["id"].clone()) else {
        return ok_empty();
    };
    let devices = &mut data.writes.mobile_devices;
    if devices
        .iter()
        .any(|d| d["token"] == json!(token) && d["userId"] == uid)
    {
        return ok_empty();
    }
    let mine: Vec<usize> = (0..devices.len())
        .filter(|i| devices[*i]["userId"] == uid)
        .collect();
    if mine.len() > 5 {
        let drop: Vec<usize> = mine[..mine.len() - 5].to_vec();
        let mut i = 0;
        devices.retain(|_| {
            let keep = !drop.contains(&i);
            i += 1;
            keep
        });
    }
    let id = devices
        .iter()
        .filter_map(|d| d["id"].as_i64())
        .max()
        .unwrap_or(0)
        + 1;
    devices.push(json!({"id": id, "token": token, "userId": uid, "addedAt": now()}));
    ok_empty()
}

/// `RequestRetryController.Delete`: by queue id; unknown → 500.
fn retry_remove(ctx: &Ctx) -> Response {
    let id = ctx.int("queueId");
    let mut data = ctx.shared.data.lock().unwrap();
    let before = data.requests.retry.len();
    data.requests.retry.retain(|r| r["failedId"] != json!(id));
    if data.requests.retry.len() == before {
        return error_500("Value cannot be null. (Parameter 'entity')");
    }
    json(json!(true))
}
