//! `read_integration` against the fake Ombi: Radarr, Sonarr and Lidarr options, Plex servers and
//! libraries, media server users.

use serde_json::{Value, json};

use crate::support::fake_ombi::Fault;
use crate::support::rig::err_code;
use crate::tools::{Forbidden, read_integration, start};

fn categories(r: &Value) -> Vec<String> {
    r["data"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["category"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn radarr_options_standard_and_4k() {
    let h = start().await;
    let r = read_integration(&h, "radarr_options", json!({})).await;
    assert_eq!(r["ok"], true, "{r}");
    assert_eq!(
        categories(&r),
        ["quality_profile", "quality_profile", "root_folder", "tag"]
    );
    assert_eq!(
        r["data"]["items"][2],
        json!({"id": "1", "name": "/movies", "value": 1, "category": "root_folder"})
    );
    for p in [
        "/api/v1/Radarr/enabled",
        "/api/v1/Radarr/Profiles",
        "/api/v1/Radarr/RootFolders",
        "/api/v1/Radarr/tags",
    ] {
        assert_eq!(h.fake.hits("GET", p), 1, "{p}");
    }
    // 4K: the feature is off in the sample data.
    let r = read_integration(&h, "radarr_options", json!({"is_4k": true})).await;
    assert_eq!(err_code(&r), "UNSUPPORTED_CAPABILITY");
    assert_eq!(h.fake.hits("GET", "/api/v1/Radarr/Profiles/4k"), 0);
    h.fake.with_data(|d| d.features[0].1 = true);
    let r = read_integration(&h, "radarr_options", json!({"is_4k": true})).await;
    assert_eq!(r["ok"], true, "{r}");
    assert_eq!(r["data"]["items"][0]["name"], "UHD-2160p");
    assert_eq!(r["data"]["items"][1]["name"], "/movies-4k");
    // 4K instance disabled: RootFolders/4k answers 204.
    h.fake.with_data(|d| d.admin.radarr4k_root_folders = None);
    let r = read_integration(&h, "radarr_options", json!({"is_4k": true})).await;
    assert_eq!(err_code(&r), "UNSUPPORTED_CAPABILITY");
    h.assert_never_called_forbidden();
}

#[tokio::test]
async fn radarr_disabled_is_unsupported() {
    let h = start().await;
    h.fake.with_data(|d| d.admin.radarr_enabled = false);
    let r = read_integration(&h, "radarr_options", json!({})).await;
    assert_eq!(err_code(&r), "UNSUPPORTED_CAPABILITY");
    assert_eq!(h.fake.hits("GET", "/api/v1/Radarr/Profiles"), 0);
}

#[tokio::test]
async fn sonarr_options_include_language_profiles_and_version() {
    let h = start().await;
    let r = read_integration(&h, "sonarr_options", json!({})).await;
    assert_eq!(r["ok"], true, "{r}");
    assert_eq!(
        categories(&r),
        [
            "quality_profile",
            "root_folder",
            "language_profile",
            "tag",
            "sonarr_version"
        ]
    );
    assert_eq!(h.fake.hits("GET", "/api/v1/Sonarr/v3/LanguageProfiles"), 1);
}

#[tokio::test]
async fn sonarr_partial_failure_keeps_other_lists() {
    let h = start().await;
    h.fake
        .add_fault(Fault::on("GET", "/api/v1/Sonarr/tags").nasty_500());
    let r = read_integration(&h, "sonarr_options", json!({})).await;
    assert_eq!(err_code(&r), "PARTIAL_FAILURE");
    assert_eq!(r["data"]["items"].as_array().unwrap().len(), 4);
}

#[tokio::test]
async fn lidarr_disabled_then_enabled() {
    let h = start().await;
    h.fake.with_data(|d| d.requests.lidarr_enabled = false);
    let r = read_integration(&h, "lidarr_options", json!({})).await;
    assert_eq!(err_code(&r), "UNSUPPORTED_CAPABILITY");
    h.fake.with_data(|d| d.requests.lidarr_enabled = true);
    let r = read_integration(&h, "lidarr_options", json!({})).await;
    assert_eq!(categories(&r), ["quality_profile", "root_folder"]);
}

#[tokio::test]
async fn plex_servers_and_libraries_resolve_saved_machine_ids() {
    let h = start().await;
    let r = read_integration(&h, "plex_servers", json!({})).await;
    assert_eq!(
        r["data"]["items"],
        json!([{"id": "abc123", "name": "Living room", "value": "abc123", "category": "plex_server"}])
    );
    let r = read_integration(&h, "plex_libraries", json!({"machine_id": "abc123"})).await;
    assert_eq!(
        r["data"]["items"][1],
        json!({"id": "2", "name": "TV Shows", "value": "2", "category": "plex_library_show"})
    );
    assert_eq!(h.fake.hits("GET", "/api/v1/Plex/Libraries/abc123"), 1);
    // Not a saved server: refused before any library call, nothing passed through.
    let r = read_integration(&h, "plex_libraries", json!({"machine_id": "../../evil"})).await;
    assert_eq!(err_code(&r), "INVALID_ARGUMENT");
    assert_eq!(r["error"]["field"], "/machine_id");
    assert!(h.paths().iter().all(|p| !p.contains("evil")));
    h.fake.with_data(|d| d.admin.plex_servers.clear());
    let r = read_integration(&h, "plex_servers", json!({})).await;
    assert_eq!(err_code(&r), "UNSUPPORTED_CAPABILITY");
    h.assert_never_called_forbidden();
}

#[tokio::test]
async fn media_server_users_are_user_pages() {
    let h = start().await;
    let r = read_integration(&h, "media_server_users", json!({"server": "plex"})).await;
    assert_eq!(r["data"]["kind"], "user_page");
    assert_eq!(
        r["data"]["items"][0],
        json!({"id": "p-100", "user_name": "dave"})
    );
    let r = read_integration(&h, "media_server_users", json!({"server": "emby"})).await;
    assert_eq!(r["data"]["items"][0]["user_name"], "frank");
    let r = read_integration(&h, "media_server_users", json!({"server": "jellyfin"})).await;
    assert_eq!(r["ok"], true);
    assert_eq!(r["data"]["items"], json!([]));
    assert!(r["warnings"][0].as_str().unwrap().contains("jellyfin"));
    for p in [
        "/api/v1/Plex/friends",
        "/api/v1/Emby/users",
        "/api/v1/Jellyfin/users",
    ] {
        assert_eq!(h.fake.hits("GET", p), 1, "{p}");
    }
}
