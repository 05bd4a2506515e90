//! `GET /api/v1/Settings/<section>` for every section read_settings offers,
//! with the real secret-bearing shapes (see state_admin.rs). Anonymous
//! sections as upstream: customization, authentication, Issues, landingpage;
//! sonarr and radarr need PowerUser; the rest Admin.

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

use super::super::faults::SPA_INDEX;
use super::super::{json, no_content};
use super::{Access, Ctx, RouteDef};

pub(crate) const ANONYMOUS: &[&str] = &["customization", "authentication", "Issues", "landingpage"];
pub(crate) const POWER_USER: &[&str] = &["sonarr", "radarr"];
pub(crate) const ADMIN: &[&str] = &[
    "ombi",
    "UserManagement",
    "vote",
    "themoviedb",
    "jobs",
    "Update",
    "plex",
    "emby",
    "jellyfin",
    "lidarr",
];

pub fn routes() -> Vec<RouteDef> {
    let mut t = Vec::new();
    for (names, access) in [
        (ANONYMOUS, Access::Anonymous),
        (POWER_USER, Access::PowerUser),
        (ADMIN, Access::Admin),
    ] {
        for name in names {
            let template: &'static str =
                Box::leak(format!("api/v1/Settings/{name}").into_boxed_str());
            t.push(RouteDef {
                method: "GET",
                template,
                access,
                handler: section,
            });
        }
    }
    t.push(RouteDef {
        method: "GET",
        template: "api/v1/Settings/notifications/{agent}",
        access: Access::Admin,
        handler: section,
    });
    t
}

/// The agents SettingsController has `notifications/<agent>` GETs (and
/// POSTs: writes_admin.rs) for.
pub(crate) const AGENTS: &[&str] = &[
    "email",
    "discord",
    "telegram",
    "pushbullet",
    "pushover",
    "slack",
    "mattermost",
    "twilio",
    "mobile",
    "gotify",
    "ntfy",
    "webhook",
    "newsletter",
];

/// The section named by the path after `Settings/`, case-insensitively.
/// An agent Ombi has no route for falls through to the SPA (HTML 200).
fn section(ctx: &Ctx) -> Response {
    let path = ctx.call.path.trim_matches('/').to_ascii_lowercase();
    let key = path.split_once("settings/").map(|(_, k)| k).unwrap_or("");
    if let Some(agent) = key.strip_prefix("notifications/")
        && !AGENTS.contains(&agent)
    {
        return (
            StatusCode::OK,
            [(header::CONTENT_TYPE, "text/html")],
            SPA_INDEX,
        )
            .into_response();
    }
    match ctx.shared.data.lock().unwrap().admin.settings.get(key) {
        Some(v) if key == "landingpage" => json(landing_page(v.clone())),
        Some(v) => json(v.clone()),
        None => no_content(),
    }
}

/// `LandingPageSettings.Expired => EndDateTime > DateTime.Now`: computed on
/// every read, and inverted (true while the notice still runs).
fn landing_page(mut v: serde_json::Value) -> serde_json::Value {
    let end = v["endDateTime"]
        .as_str()
        .and_then(ombi_mcp::upstream::session::parse_utc);
    v["expired"] = serde_json::json!(end.is_some_and(|e| e > std::time::SystemTime::now()));
    v
}
