//! `read_settings` against the fake Ombi: every section allowlisted and revisioned, escaped pointers,
//! named omissions, and flags Ombi inverts.

use ombi_mcp::definition;
use serde_json::{Value, json};

use crate::support::fake_ombi::Fault;
use crate::support::fake_ombi::state_admin::LEAK_PORTS;
use crate::support::rig::{Rig, err_code};
use crate::tools::{Forbidden, assert_no_leak, read_section, start};

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

#[tokio::test]
async fn landing_page_expired_is_the_truth_not_ombis_inverted_flag() {
    let h = Rig::start().await;
    let expired = |env: &Value| {
        env["data"]["values"]
            .as_array()
            .unwrap()
            .iter()
            .find(|v| v["name"] == "/expired")
            .unwrap()["value"]
            .clone()
    };
    // Ended long ago: Ombi says `expired: false`.
    let env = h
        .ok("read_settings", json!({"section": "landing_page"}))
        .await;
    assert_eq!(expired(&env), true);
    // Still running: Ombi says `expired: true`.
    h.fake.with_data(|d| {
        d.admin.settings.get_mut("landingpage").unwrap()["endDateTime"] =
            json!("2999-01-01T00:00:00Z");
    });
    let env = h
        .ok("read_settings", json!({"section": "landing_page"}))
        .await;
    assert_eq!(expired(&env), false);
}
