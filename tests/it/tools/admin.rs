//! In-process tests of the administration reads (read_users, read_server,
//! read_integration, read_settings, read_logs) against the fake Ombi: the
//! route and body each call sends, the projected result, the planted
//! secrets that must never come out, and the tool's advertised outputSchema.

use ombi_mcp::definition;
use serde_json::{Value, json};

use super::{read_integration, read_logs, read_section, read_server, read_users};
use crate::support;
use crate::support::fake_ombi::state_admin::{LEAK, LEAK_PORTS, sample_log};
use crate::support::fake_ombi::{self as fake, Fault, Options};
use crate::support::rig::{Rig, err_code};

/// API key without UserName: the system user `Api` (Admin).
async fn start() -> Rig {
    Rig::start().await
}

async fn start_with(opts: Options, auth: &[(&str, &str)]) -> Rig {
    Rig::start_env(opts, auth).await
}

trait Forbidden {
    fn assert_never_called_forbidden(&self);
}

impl Forbidden for Rig {
    /// Nothing forbidden was ever sent: demo toggle, updater run, another
    /// user's preferences, access tokens, raw log download, caller-URL POSTs.
    fn assert_never_called_forbidden(&self) {
        for p in self.paths() {
            let l = p.to_ascii_lowercase();
            assert!(!l.contains("status/demo"), "{p}");
            assert!(!l.starts_with("post /api/v1/job/"), "{p}");
            assert!(!l.contains("notificationpreferences/"), "{p}");
            assert!(!l.contains("accesstoken"), "{p}");
            assert!(!l.contains("/download/"), "{p}");
            assert!(
                !l.starts_with("post") || l == "post /api/v1/settings/testcron",
                "unexpected POST {p}"
            );
        }
    }
}

fn assert_no_leak(v: &Value) {
    let text = v.to_string();
    assert!(!text.contains(LEAK), "a planted secret leaked: {text}");
    assert!(
        !text.contains("@example.org"),
        "an e-mail address leaked: {text}"
    );
}

// ---------------------------------------------------------------- read_users

#[tokio::test]
async fn users_me_is_the_api_system_user() {
    let h = start().await;
    let r = read_users(&h, "me", json!({})).await;
    assert_eq!(r["ok"], true);
    assert_eq!(r["data"]["kind"], "user_page");
    assert_eq!(r["data"]["items"][0]["user_name"], "Api");
    assert_eq!(r["data"]["page"]["mode"], "none");
    assert_eq!(h.fake.hits("GET", "/api/v1/Identity"), 1);
    assert!(!r.to_string().contains("claims") && !r.to_string().contains("Admin"));
}

#[tokio::test]
async fn users_list_is_windowed_locally_without_pii() {
    let h = start().await;
    let r = read_users(&h, "list", json!({"page": {"offset": 1, "limit": 1}})).await;
    assert_eq!(r["ok"], true, "{r}");
    assert_eq!(
        r["data"]["items"],
        json!([{"id": support::fake_ombi::state::user_id("bob"), "user_name": "bob", "streaming_country": "US",
                "roles": ["RequestTv", "RequestMovie"], "user_type": "local"}])
    );
    assert_eq!(
        r["data"]["page"],
        json!({"offset": 1, "limit": 1, "returned": 1, "total": 3, "has_more": true, "next_offset": 2, "mode": "local", "unit": "users"})
    );
    assert_no_leak(&r);
    let all = read_users(&h, "list", json!({})).await;
    assert_eq!(
        all["data"]["items"][2],
        json!({"id": support::fake_ombi::state::user_id("carol"), "user_name": "carol", "alias": "Caz", "language": "fr", "streaming_country": "FR",
               "roles": ["RequestMovie"], "user_type": "local"})
    );
    assert_no_leak(&all);
    assert_eq!(h.fake.hits("GET", "/api/v1/Identity/Users"), 2);
}

#[tokio::test]
async fn users_get_known_and_unknown() {
    let h = start().await;
    let id = support::fake_ombi::state::user_id("alice");
    let r = read_users(&h, "get", json!({"user_id": id})).await;
    assert_eq!(r["data"]["items"][0]["alias"], "Alice A.");
    assert_no_leak(&r);
    assert_eq!(
        h.fake.hits("GET", &format!("/api/v1/Identity/User/{id}")),
        1
    );
    let r = read_users(&h, "get", json!({"user_id": "no-such-user"})).await;
    assert_eq!(r["ok"], false);
    assert_eq!(err_code(&r), "NOT_FOUND");
    let r = read_users(&h, "get", json!({})).await;
    assert_eq!(err_code(&r), "INVALID_ARGUMENT");
}

#[tokio::test]
async fn users_online_deduplicates_connections() {
    let h = start().await;
    let r = read_users(&h, "online", json!({})).await;
    let items = r["data"]["items"].as_array().unwrap();
    assert_eq!(items.len(), 2);
    assert!(items.iter().all(|u| u["online"] == true));
    assert_eq!(h.fake.hits("GET", "/api/v2/Hub/Users"), 1);
}

#[tokio::test]
async fn notification_agents_never_return_delivery_values() {
    let h = start().await;
    let r = read_users(&h, "notification_agents", json!({})).await;
    assert_eq!(r["data"]["kind"], "reference_page");
    assert_eq!(
        r["data"]["items"][0],
        json!({"id": "4", "name": "telegram", "value": 4, "category": "configured"})
    );
    // audit #16: only the agents with a delivery value set; Ombi's
    // synthesized empty rows for the other agents are not listed
    assert_eq!(
        r["data"]["items"],
        json!([
            {"id": "4", "name": "telegram", "value": 4, "category": "configured"},
            {"id": "3", "name": "pushover", "value": 3, "category": "configured"}
        ])
    );
    assert_no_leak(&r);
    assert_eq!(
        h.fake
            .hits("GET", "/api/v1/Identity/notificationpreferences"),
        1
    );
    h.assert_never_called_forbidden();
}

#[tokio::test]
async fn users_list_upstream_500_is_an_error_not_a_page() {
    let h = start().await;
    h.fake
        .add_fault(Fault::on("GET", "/api/v1/Identity/Users").nasty_500());
    let r = read_users(&h, "list", json!({})).await;
    assert_eq!(r["ok"], false);
    assert_eq!(err_code(&r), "UPSTREAM_REJECTED");
}

// ---------------------------------------------------------------- read_server

fn metric<'a>(r: &'a Value, name: &str) -> &'a Value {
    r["data"]["values"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == name)
        .map(|m| &m["value"])
        .unwrap_or_else(|| panic!("no metric {name} in {r}"))
}

#[tokio::test]
async fn server_status_about_media_servers() {
    let h = start().await;
    let r = read_server(&h, "status", json!({})).await;
    assert_eq!(metric(&r, "status_code"), 200);
    assert_eq!(metric(&r, "version"), "4.59.3");
    assert_eq!(metric(&r, "wizard_completed"), true);
    for p in [
        "/api/v1/Status",
        "/api/v1/Status/info",
        "/api/v1/Status/Wizard",
    ] {
        assert_eq!(h.fake.hits("GET", p), 1, "{p}");
    }
    let r = read_server(&h, "about", json!({})).await;
    assert_eq!(metric(&r, "branch"), "Stable");
    let text = r.to_string();
    assert!(
        !text.contains("/app/ombi") && !text.contains("/config"),
        "storage paths leaked: {text}"
    );
    let r = read_server(&h, "media_servers", json!({})).await;
    assert_eq!(metric(&r, "total_servers"), 2);
    assert_eq!(metric(&r, "partially_down"), true);
    h.assert_never_called_forbidden();
}

#[tokio::test]
async fn server_status_partial_failure_keeps_what_was_read() {
    let h = start().await;
    h.fake
        .add_fault(Fault::on("GET", "/api/v1/Status/info").nasty_500());
    let r = read_server(&h, "status", json!({})).await;
    assert_eq!(r["ok"], false);
    assert_eq!(err_code(&r), "PARTIAL_FAILURE");
    assert_eq!(metric(&r, "status_code"), 200);
}

#[tokio::test]
async fn server_update_reads_feed_and_updater_check_only() {
    let h = start().await;
    let r = read_server(&h, "update", json!({})).await;
    assert_eq!(metric(&r, "update_available"), true);
    assert_eq!(metric(&r, "latest_version"), "v4.60.1");
    assert_eq!(metric(&r, "updater_reports_update"), true);
    assert_no_leak(&r);
    assert_eq!(h.fake.hits("GET", "/api/v1/Job/update"), 1);
    assert_eq!(h.fake.hits("POST", "/api/v1/Job/update"), 0);
    h.assert_never_called_forbidden();
}

#[tokio::test]
async fn server_features_and_cron() {
    let h = start().await;
    let r = read_server(&h, "features", json!({})).await;
    assert_eq!(r["data"]["kind"], "reference_page");
    // audit #6: the same records as read_reference features (value = the
    // identifier, state in category), never a boolean value
    assert_eq!(
        r["data"]["items"][0],
        json!({"name": "Movie4KRequests", "value": "Movie4KRequests", "category": "disabled"})
    );
    let same = h
        .call("read_reference", json!({"action": "features"}))
        .await;
    assert_eq!(r["data"]["items"], same["data"]["items"]);
    let r = read_server(
        &h,
        "cron_validate",
        json!({"expression": "0 0 12 ? * FRI *"}),
    )
    .await;
    assert_eq!(metric(&r, "valid"), true);
    let sent = h
        .fake
        .requests()
        .into_iter()
        .find(|q| q.path == "/api/v1/Settings/testcron")
        .unwrap();
    assert_eq!(
        serde_json::from_str::<Value>(&sent.body).unwrap(),
        json!({"expression": "0 0 12 ? * FRI *"})
    );
    let r = read_server(&h, "cron_validate", json!({"expression": "every day"})).await;
    assert_eq!(r["ok"], true);
    assert_eq!(metric(&r, "valid"), false);
    let r = read_server(&h, "cron_validate", json!({})).await;
    assert_eq!(err_code(&r), "INVALID_ARGUMENT");
    h.assert_never_called_forbidden();
}

#[tokio::test]
async fn server_about_204_is_not_found() {
    let h = start().await;
    h.fake
        .add_fault(Fault::on("GET", "/api/v1/Settings/about").no_content());
    let r = read_server(&h, "about", json!({})).await;
    assert_eq!(err_code(&r), "NOT_FOUND");
}

// ----------------------------------------------------------- read_integration

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

// -------------------------------------------------------------- read_settings

#[tokio::test]
async fn every_settings_section_is_allowlisted_and_revisioned() {
    let h = start().await;
    for section in definition::params::SETTINGS_SECTIONS {
        let r = read_section(&h, section).await;
        assert_eq!(r["ok"], true, "{section}: {r}");
        assert_eq!(r["data"]["section"], *section);
        assert_eq!(
            r["data"]["revision"].as_str().map(str::len),
            Some(64),
            "{section}"
        );
        assert_no_leak(&r);
        for v in r["data"]["values"].as_array().unwrap() {
            if let Some(n) = v["value"].as_i64() {
                assert!(
                    !LEAK_PORTS.contains(&n),
                    "{section}: port {n} leaked at {}",
                    v["name"]
                );
            }
            assert!(
                !v["name"]
                    .as_str()
                    .unwrap()
                    .to_ascii_lowercase()
                    .contains("apikey"),
                "{section}"
            );
        }
        if *section != "features" {
            assert!(
                !r["data"]["values"].as_array().unwrap().is_empty(),
                "{section} shows nothing"
            );
        }
    }
    h.assert_never_called_forbidden();
}

#[tokio::test]
async fn settings_values_are_escaped_pointers_and_omissions_are_named() {
    let h = start().await;
    let r = read_section(&h, "plex").await;
    let values = r["data"]["values"].as_array().unwrap();
    assert!(values.contains(&json!({"name": "/servers/0/machineIdentifier", "value": "abc123"})));
    assert!(values.contains(
        &json!({"name": "/servers/0/plexSelectedLibraries/1/title", "value": "TV Shows"})
    ));
    let omitted = r["data"]["omitted_fields"].as_array().unwrap();
    for name in [
        "/servers/*/plexAuthToken",
        "/servers/*/ip",
        "/servers/*/port",
        "/servers/*/serverHostname",
        "/installId",
    ] {
        assert!(
            omitted.contains(&json!(name)),
            "{name} not listed in {omitted:?}"
        );
    }
    assert_eq!(h.fake.hits("GET", "/api/v1/Settings/plex"), 1);
    let r = read_section(&h, "user_management").await;
    assert!(
        r["data"]["values"]
            .as_array()
            .unwrap()
            .contains(&json!({"name": "/defaultRoles/1", "value": "RequestTv"}))
    );
    assert_eq!(h.fake.hits("GET", "/api/v1/Settings/UserManagement"), 1);
    let r = read_section(&h, "features").await;
    assert_eq!(
        r["data"]["values"],
        json!([{"name": "Movie4KRequests", "value": false}, {"name": "PlayedSync", "value": false}])
    );
}

#[tokio::test]
async fn settings_revision_changes_with_the_section() {
    let h = start().await;
    let first = read_section(&h, "vote").await["data"]["revision"].clone();
    let again = read_section(&h, "vote").await["data"]["revision"].clone();
    assert_eq!(first, again, "same content, same revision");
    h.fake
        .with_data(|d| d.admin.settings.get_mut("vote").unwrap()["movieVoteMax"] = json!(20));
    let changed = read_section(&h, "vote").await["data"]["revision"].clone();
    assert_ne!(first, changed);
    // A change to a secret the caller never sees also changes the revision.
    let before = read_section(&h, "sonarr").await["data"]["revision"].clone();
    h.fake.with_data(|d| {
        d.admin.settings.get_mut("sonarr").unwrap()["apiKey"] = json!("rotated-key")
    });
    let after = read_section(&h, "sonarr").await["data"]["revision"].clone();
    assert_ne!(before, after);
    // Features: a toggled flag changes it too.
    let f1 = read_section(&h, "features").await["data"]["revision"].clone();
    h.fake.with_data(|d| d.features[1].1 = true);
    let f2 = read_section(&h, "features").await["data"]["revision"].clone();
    assert_ne!(f1, f2);
}

#[tokio::test]
async fn settings_bad_section_and_204() {
    let h = start().await;
    let r = read_section(&h, "couchpotato").await;
    assert_eq!(err_code(&r), "INVALID_ARGUMENT");
    h.fake
        .add_fault(Fault::on("GET", "/api/v1/Settings/vote").no_content());
    let r = read_section(&h, "vote").await;
    assert_eq!(r["ok"], true);
    assert_eq!(r["data"]["values"], json!([]));
    assert!(!r["warnings"].as_array().unwrap().is_empty());
    // audit #14: nothing to merge-write against, so no revision is offered
    assert!(r["data"].get("revision").is_none(), "{r}");
}

// ------------------------------------------------------------------ read_logs

#[tokio::test]
async fn logs_list_and_read_with_redaction() {
    let h = start().await;
    h.fake.with_data(|d| d.logs[0].1 = sample_log());
    let r = read_logs(&h, "list", json!({})).await;
    assert_eq!(
        r["data"]["files"][0],
        json!({"file_id": "log20260502.txt", "name": "log20260502.txt", "modified": "2026-05-02"})
    );
    let r = read_logs(
        &h,
        "read",
        json!({"file_id": "log20260502.txt", "offset": 1, "limit": 4}),
    )
    .await;
    assert_eq!(r["ok"], true, "{r}");
    let lines = r["data"]["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 4);
    assert_eq!(r["data"]["offset"], 1);
    assert_eq!(r["data"]["next_offset"], 5);
    assert_no_leak(&r);
    assert!(r.to_string().contains("[REDACTED"));
    let req = h
        .fake
        .requests()
        .into_iter()
        .find(|q| q.path == "/api/v2/System/logs/log20260502.txt")
        .unwrap();
    assert_eq!(req.header("accept"), Some("text/plain"));
    let r = read_logs(
        &h,
        "read",
        json!({"file_id": "log20260502.txt", "offset": 5}),
    )
    .await;
    assert_eq!(
        r["data"]["lines"],
        json!(["2026-05-02 10:00:05.006 +00:00 [INF] Plex content sync finished"])
    );
    assert!(r["data"]["next_offset"].is_null());
    h.assert_never_called_forbidden();
}

#[tokio::test]
async fn logs_refuse_paths_and_report_missing_files() {
    let h = start().await;
    for bad in ["../appsettings.json", "a/b.txt", "..\\x.txt"] {
        let r = read_logs(&h, "read", json!({"file_id": bad})).await;
        assert_eq!(err_code(&r), "INVALID_ARGUMENT", "{bad}");
        assert_eq!(r["error"]["field"], "/file_id");
    }
    assert!(h.fake.requests().is_empty(), "a bad file_id reached Ombi");
    let r = read_logs(&h, "read", json!({"file_id": "log19990101.txt"})).await;
    assert_eq!(err_code(&r), "NOT_FOUND");
}

#[tokio::test]
async fn a_2_mib_log_read_is_bounded() {
    let h = start().await;
    let mut big = String::new();
    let mut i = 0;
    while big.len() < 2 * 1024 * 1024 {
        big.push_str(&format!(
            "2026-05-03 00:00:{:02}.000 +00:00 [DBG] request {i} GET /api/v1/Search?apikey={LEAK}-{i} {}\n",
            i % 60,
            "x".repeat(60)
        ));
        i += 1;
    }
    h.fake
        .with_data(|d| d.logs.insert(0, ("log20260503.txt".into(), big)));
    let r = read_logs(
        &h,
        "read",
        json!({"file_id": "log20260503.txt", "offset": 1000, "limit": 500}),
    )
    .await;
    assert_eq!(r["ok"], true, "{r}");
    let lines = r["data"]["lines"].as_array().unwrap();
    assert!(
        !lines.is_empty() && lines.len() <= 500,
        "{} lines",
        lines.len()
    );
    assert!(lines[0].as_str().unwrap().contains("request 1000 "));
    assert_eq!(r["data"]["next_offset"], json!(1000 + lines.len()));
    eprintln!(
        "2 MiB log: {} lines from offset 1000, {} bytes of structuredContent",
        lines.len(),
        r.to_string().len()
    );
    assert_no_leak(&r);
}

#[tokio::test]
async fn logs_need_an_admin() {
    let h = start_with(
        Options::default(),
        &[
            ("OMBI_AUTH_MODE", "jwt"),
            ("OMBI_USERNAME", fake::PLAIN_USER),
            ("OMBI_PASSWORD", fake::PLAIN_PASSWORD),
        ],
    )
    .await;
    let r = read_logs(&h, "list", json!({})).await;
    assert_eq!(err_code(&r), "FORBIDDEN");
    let r = read_section(&h, "ombi").await;
    assert_eq!(err_code(&r), "FORBIDDEN");
    // The updater's own check needs Admin: left out with a warning, the feed stays.
    let r = read_server(&h, "update", json!({})).await;
    assert_eq!(r["ok"], true, "{r}");
    assert_eq!(metric(&r, "latest_version"), "v4.60.1");
    assert!(
        r["data"]["values"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m["name"] != "updater_reports_update"),
        "{r}"
    );
    assert!(r["warnings"][0].as_str().unwrap().contains("admin"));
    // Anonymous sections stay readable.
    let r = read_section(&h, "issues").await;
    assert_eq!(r["ok"], true);
}

#[tokio::test]
async fn the_default_sample_log_is_redacted() {
    let h = start().await;
    let r = read_logs(
        &h,
        "read",
        json!({"file_id": "log20260502.txt", "limit": 500}),
    )
    .await;
    assert_eq!(r["data"]["lines"].as_array().unwrap().len(), 40);
    let text = r.to_string();
    for secret in [
        "0123456789abcdef0123456789abcdef",
        "bob@example.org",
        "plexTok3nSecretValue123",
    ] {
        assert!(!text.contains(secret), "{secret} survived");
    }
    assert!(r["data"]["next_offset"].is_null());
}

#[tokio::test]
async fn the_acting_user_is_sent_and_its_rights_apply() {
    let h = Rig::start_with(Options::default(), Some(fake::PLAIN_USER)).await;
    let r = read_users(&h, "me", json!({})).await;
    assert_eq!(r["data"]["items"][0]["user_name"], fake::PLAIN_USER);
    let sent = h.fake.requests().pop().unwrap();
    assert_eq!(sent.header("username"), Some(fake::PLAIN_USER));
    let r = read_users(&h, "list", json!({})).await;
    assert_eq!(err_code(&r), "FORBIDDEN");
    let r = read_integration(&h, "plex_servers", json!({})).await;
    assert_eq!(err_code(&r), "FORBIDDEN");
}
