//! Radarr / Sonarr / Lidarr options from the saved settings, Plex servers,
//! libraries and friends, Emby / Jellyfin users. Like Ombi, lists of a
//! disabled *arr are `null` (204) or `[]` as the real controllers answer.

use axum::response::Response;
use serde_json::{Value, json};

use super::super::state_admin::AdminData;
use super::super::{json, no_content};
use super::{Access, Ctx, RouteDef, route};

pub fn routes() -> Vec<RouteDef> {
    use Access::{Admin, PowerUser};
    vec![
        route("GET", "api/v1/Radarr/enabled", PowerUser, |c| {
            flag(c, |a| a.radarr_enabled)
        }),
        route("GET", "api/v1/Radarr/Profiles", PowerUser, |c| {
            empty_when_off(c, |a| (a.radarr_enabled, &a.radarr_profiles))
        }),
        route("GET", "api/v1/Radarr/Profiles/4k", PowerUser, |c| {
            empty_when_off(c, |a| {
                (a.radarr4k_root_folders.is_some(), &a.radarr4k_profiles)
            })
        }),
        route("GET", "api/v1/Radarr/RootFolders", PowerUser, |c| {
            null_when_off(c, |a| (a.radarr_enabled, &a.radarr_root_folders))
        }),
        route(
            "GET",
            "api/v1/Radarr/RootFolders/4k",
            PowerUser,
            radarr4k_folders,
        ),
        route("GET", "api/v1/Radarr/tags", PowerUser, |c| {
            null_when_off(c, |a| (a.radarr_enabled, &a.radarr_tags))
        }),
        route("GET", "api/v1/Sonarr/enabled", PowerUser, |c| {
            flag(c, |a| a.sonarr_enabled)
        }),
        route("GET", "api/v1/Sonarr/Profiles", PowerUser, |c| {
            null_when_off(c, |a| (a.sonarr_enabled, &a.sonarr_profiles))
        }),
        route("GET", "api/v1/Sonarr/RootFolders", PowerUser, |c| {
            null_when_off(c, |a| (a.sonarr_enabled, &a.sonarr_root_folders))
        }),
        route("GET", "api/v1/Sonarr/v3/LanguageProfiles", PowerUser, |c| {
            null_when_off(c, |a| (a.sonarr_enabled, &a.sonarr_language_profiles))
        }),
        route("GET", "api/v1/Sonarr/tags", PowerUser, |c| {
            null_when_off(c, |a| (a.sonarr_enabled, &a.sonarr_tags))
        }),
        route("GET", "api/v1/Sonarr/version", PowerUser, sonarr_version),
        route("GET", "api/v1/Lidarr/Profiles", PowerUser, |c| {
            lidarr_list(c, |a| &a.lidarr_profiles)
        }),
        route("GET", "api/v1/Lidarr/RootFolders", PowerUser, |c| {
            lidarr_list(c, |a| &a.lidarr_root_folders)
        }),
        route("GET", "api/v1/Plex/servers", Admin, plex_servers),
        route(
            "GET",
            "api/v1/Plex/Libraries/{machineId}",
            Admin,
            plex_libraries,
        ),
        route("GET", "api/v1/Plex/friends", Admin, |c| {
            list(c, |a| &a.plex_friends)
        }),
        route("GET", "api/v1/Emby/users", Admin, |c| {
            list(c, |a| &a.emby_users)
        }),
        route("GET", "api/v1/Jellyfin/users", Admin, |c| {
            list(c, |a| &a.jellyfin_users)
        }),
    ]
}

fn flag(ctx: &Ctx, f: fn(&AdminData) -> bool) -> Response {
    json(json!(f(&ctx.shared.data.lock().unwrap().admin)))
}

fn list(ctx: &Ctx, f: fn(&AdminData) -> &Vec<Value>) -> Response {
    json(Value::Array(
        f(&ctx.shared.data.lock().unwrap().admin).clone(),
    ))
}

fn empty_when_off(ctx: &Ctx, f: fn(&AdminData) -> (bool, &Vec<Value>)) -> Response {
    let data = ctx.shared.data.lock().unwrap();
    let (on, rows) = f(&data.admin);
    json(if on {
        Value::Array(rows.clone())
    } else {
        json!([])
    })
}

fn null_when_off(ctx: &Ctx, f: fn(&AdminData) -> (bool, &Vec<Value>)) -> Response {
    let data = ctx.shared.data.lock().unwrap();
    let (on, rows) = f(&data.admin);
    if on {
        json(Value::Array(rows.clone()))
    } else {
        no_content()
    }
}

/// Lidarr's switch is the request domain's (`Lidarr/enabled` is served by
/// requests.rs from `Data.requests.lidarr_enabled`); null when off.
fn lidarr_list(ctx: &Ctx, f: fn(&AdminData) -> &Vec<Value>) -> Response {
    let data = ctx.shared.data.lock().unwrap();
    if data.requests.lidarr_enabled {
        json(Value::Array(f(&data.admin).clone()))
    } else {
        no_content()
    }
}

fn radarr4k_folders(ctx: &Ctx) -> Response {
    match &ctx.shared.data.lock().unwrap().admin.radarr4k_root_folders {
        Some(rows) => json(Value::Array(rows.clone())),
        None => no_content(),
    }
}

fn sonarr_version(ctx: &Ctx) -> Response {
    let on = ctx.shared.data.lock().unwrap().admin.sonarr_enabled;
    json(json!(if on { "4.0.9.2244" } else { "" }))
}

/// `{success, servers: [{serverName, serverId, machineId}]}`; no saved
/// servers (null list) throws upstream → `{success: false}`.
fn plex_servers(ctx: &Ctx) -> Response {
    let data = ctx.shared.data.lock().unwrap();
    if data.admin.plex_servers.is_empty() {
        return json(json!({"success": false, "message": null, "servers": null}));
    }
    json(json!({"success": true, "servers": data.admin.plex_servers}))
}

/// `PlexLibrariesLiteResponse`; an unknown machine id throws → `successful: false`.
fn plex_libraries(ctx: &Ctx) -> Response {
    let data = ctx.shared.data.lock().unwrap();
    match data.admin.plex_sections.get(ctx.param("machineId")) {
        Some(s) => json(json!({"data": s, "successful": true, "message": null})),
        None => json(
            json!({"data": null, "successful": false, "message": "Object reference not set to an instance of an object."}),
        ),
    }
}
