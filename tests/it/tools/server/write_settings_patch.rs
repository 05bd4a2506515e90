//! `write_settings_patch`: the whole object resent with only the named leaves changed, the new
//! revision, stale revisions, refused leaves (secrets, destinations, what Ombi does not store), Ombi's
//! own refusals, and a save whose answer never comes.

use serde_json::{Value, json};

use crate::support::fake_ombi::{Fault, Options};
use crate::support::rig::{Rig, err_code, writes};
use crate::tools::server::setting;
use crate::tools::{assert_error, assert_unknown_and_sent_once, body, start_as, write_paths};

/// write_settings_patch of `section` with `changes`, at its current revision.
async fn patch(rig: &Rig, section: &str, changes: Value) -> Value {
    let rev = revision(rig, section).await;
    rig.call(
        "write_settings_patch",
        json!({"section": section, "revision": rev, "changes": changes}),
    )
    .await
}

async fn revision(rig: &Rig, section: &str) -> String {
    let env = rig.ok("read_settings", json!({"section": section})).await;
    env["data"]["revision"]
        .as_str()
        .expect("revision")
        .to_string()
}

/// The POST carries the whole object as read (secrets, templates) with only
/// the named leaves changed; the result names the new revision, which is
/// what read_settings now returns.
#[tokio::test]
async fn settings_patch_resends_the_raw_object_with_templates_and_secrets() {
    let rig = Rig::start().await;
    let before = setting(&rig, "notifications/email");
    let rev = revision(&rig, "notifications/email").await;
    let env = patch(
        &rig,
        "notifications/email",
        json!([
            {"name": "/senderName", "value": "Family Ombi"},
            {"name": "/notificationTemplates/1/subject", "value": "Ready to watch"}
        ]),
    )
    .await;
    let post = rig.last("POST", "/api/v1/Settings/notifications/email");
    let mut expected = before.clone();
    expected["senderName"] = json!("Family Ombi");
    expected["notificationTemplates"][1]["subject"] = json!("Ready to watch");
    assert_eq!(
        body(&post),
        expected,
        "the raw object with two leaves changed"
    );
    assert_eq!(post.header("UserName"), None);

    let data = &env["data"];
    assert_eq!(data["outcome"], "completed");
    assert_eq!(
        data["item_results"],
        json!([
            {"identifier": "/senderName", "outcome": "completed"},
            {"identifier": "/notificationTemplates/1/subject", "outcome": "completed"}
        ])
    );
    let new_rev = revision(&rig, "notifications/email").await;
    assert_ne!(new_rev, rev);
    assert!(
        data["message"].as_str().unwrap().ends_with(&new_rev),
        "{data}"
    );
    // The secrets Ombi holds are the ones it had.
    let after = setting(&rig, "notifications/email");
    for secret in ["password", "host", "username", "senderAddress", "port"] {
        assert_eq!(after[secret], before[secret], "{secret}");
    }
}

/// Radarr is posted with its 4K twin exactly as read.
#[tokio::test]
async fn radarr_patch_posts_the_4k_twin_too() {
    let rig = Rig::start().await;
    let before = setting(&rig, "radarr");
    let rev = revision(&rig, "radarr").await;
    rig.ok(
        "write_settings_patch",
        json!({"section": "radarr", "revision": rev,
               "changes": [{"name": "/radarr/minimumAvailability", "value": "InCinemas"}]}),
    )
    .await;
    let sent = body(&rig.last("POST", "/api/v1/Settings/radarr"));
    assert_eq!(sent["radarr4K"], before["radarr4K"]);
    assert_eq!(sent["radarr"]["apiKey"], before["radarr"]["apiKey"]);
    assert_eq!(sent["radarr"]["minimumAvailability"], "InCinemas");
    assert_eq!(
        setting(&rig, "radarr")["radarr4K"],
        before["radarr4K"],
        "the twin survives the save"
    );
}

/// A revision that no longer matches: CONFLICT, and not one write.
#[tokio::test]
async fn stale_revision_is_a_conflict_and_nothing_is_sent() {
    let rig = Rig::start().await;
    let rev = revision(&rig, "vote").await;
    rig.fake.with_data(|d| {
        d.admin.settings.get_mut("vote").unwrap()["movieVoteMax"] = json!(3);
    });
    let env = rig
        .err(
            "write_settings_patch",
            json!({"section": "vote", "revision": rev,
                   "changes": [{"name": "/enabled", "value": false}]}),
        )
        .await;
    assert_eq!(err_code(&env), "CONFLICT");
    assert!(write_paths(&rig).is_empty(), "{:?}", write_paths(&rig));
    assert_eq!(setting(&rig, "vote")["enabled"], true);
}

/// Secret leaves and destination addresses are refused before anything is
/// read or sent; so are names that are not there and values of another type.
#[tokio::test]
async fn secret_and_destination_leaves_are_refused_up_front() {
    let rig = Rig::start().await;
    let rev = revision(&rig, "plex").await;
    let before = rig.fake.requests().len();
    for name in [
        "/servers/0/plexAuthToken",
        "/servers/0/ip",
        "/servers/0/port",
        "/servers/0/serverHostname",
        "/installId",
    ] {
        let env = rig
            .err(
                "write_settings_patch",
                json!({"section": "plex", "revision": rev,
                       "changes": [{"name": "/enable", "value": true}, {"name": name, "value": "x"}]}),
            )
            .await;
        assert_eq!(err_code(&env), "INVALID_ARGUMENT", "{name}");
        assert_eq!(env["error"]["field"], "/changes/1/name", "{name}");
    }
    assert_eq!(
        rig.fake.requests().len(),
        before,
        "nothing read, nothing sent"
    );

    for (changes, field) in [
        (
            json!([{"name": "/servers/3/name", "value": "x"}]),
            "/changes/0/name",
        ),
        (
            json!([{"name": "/enable", "value": "yes"}]),
            "/changes/0/value",
        ),
        (
            json!([{"name": "/servers/0/episodeBatchSize", "value": 1.5}]),
            "/changes/0/value",
        ),
        (
            json!([{"name": "/enable", "value": true}, {"name": "/enable", "value": false}]),
            "/changes/1/name",
        ),
    ] {
        let env = rig
            .err(
                "write_settings_patch",
                json!({"section": "plex", "revision": rev, "changes": changes}),
            )
            .await;
        assert_eq!(env["error"]["field"], field, "{changes}");
    }
    assert!(write_paths(&rig).is_empty(), "{:?}", write_paths(&rig));
}

/// Ombi forces `wizard` on: the one change that did not stick is reported,
/// the other is completed, the whole is a partial failure; the API key the
/// section holds is re-sent, so API-key calls keep working.
#[tokio::test]
async fn ombi_section_reports_the_value_ombi_overrode() {
    let rig = Rig::start().await;
    let api_key = setting(&rig, "ombi")["apiKey"].clone();
    let env = patch(
        &rig,
        "ombi",
        json!([
            {"name": "/hideRequestsUsers", "value": true},
            {"name": "/wizard", "value": false}
        ]),
    )
    .await;
    assert_eq!(err_code(&env), "PARTIAL_FAILURE");
    let data = &env["data"];
    assert_eq!(data["outcome"], "partial");
    assert_eq!(data["item_results"][0]["outcome"], "completed");
    assert_eq!(data["item_results"][1]["identifier"], "/wizard");
    assert_eq!(data["item_results"][1]["outcome"], "rejected");
    assert_eq!(
        body(&rig.last("POST", "/api/v1/Settings/ombi"))["apiKey"],
        api_key
    );
    assert_eq!(setting(&rig, "ombi")["hideRequestsUsers"], true);
    // Still authenticated with the same key.
    rig.ok("read_settings", json!({"section": "ombi"})).await;
}

/// `jobs` answers `{result: false, message}` for an invalid CRON: a business
/// failure on HTTP 200 with Ombi's message; nothing saved.
#[tokio::test]
async fn jobs_with_an_invalid_cron_are_rejected_with_ombis_message() {
    let rig = Rig::start().await;
    let env = patch(
        &rig,
        "jobs",
        json!([{"name": "/sonarrSync", "value": "every tuesday"}]),
    )
    .await;
    assert_error(
        &env,
        "UPSTREAM_REJECTED",
        "SonarrSync does not have a valid CRON Expression",
    );
    assert_eq!(env["error"]["http_status"], 200);
    assert_eq!(setting(&rig, "jobs")["sonarrSync"], "0 10 */1 ? * *");
}

/// Enabled Emby settings are probed by Ombi before saving: a failure is a
/// 500 and nothing is saved, which the error says.
#[tokio::test]
async fn emby_probe_failure_saves_nothing_and_says_so() {
    let rig = Rig::start().await;
    rig.fake.with_data(|d| {
        d.writes.down.insert("emby".into());
    });
    let before = setting(&rig, "emby");
    let env = patch(
        &rig,
        "emby",
        json!([{"name": "/servers/0/name", "value": "Attic"}]),
    )
    .await;
    assert_error(&env, "UPSTREAM_REJECTED", "nothing was saved");
    assert_eq!(setting(&rig, "emby"), before);
}

/// Features: one call to the per-feature switch per change, names exact
/// (case-sensitive); an unknown name is refused before anything is sent.
#[tokio::test]
async fn features_use_the_per_feature_switch_with_exact_names() {
    let rig = Rig::start().await;
    let env = patch(
        &rig,
        "features",
        json!([{"name": "movie4krequests", "value": true}]),
    )
    .await;
    assert_eq!(env["error"]["field"], "/changes/0/name");
    assert!(write_paths(&rig).is_empty());

    let on: Vec<(String, bool)> = rig.fake.with_data(|d| d.features.clone());
    let (name, was) = on[0].clone();
    let env = patch(&rig, "features", json!([{"name": name, "value": !was}])).await;
    let route = if was {
        "/api/v2/Features/disable"
    } else {
        "/api/v2/Features/enable"
    };
    let post = rig.last("POST", route);
    assert_eq!(body(&post), json!({"name": name, "enabled": !was}));
    assert_eq!(write_paths(&rig), vec![format!("POST {route}")]);
    assert_eq!(env["data"]["outcome"], "completed");
    let new_rev = revision(&rig, "features").await;
    assert!(
        env["data"]["message"].as_str().unwrap().ends_with(&new_rev),
        "{env}"
    );
    assert_eq!(rig.fake.with_data(|d| d.features[0].1), !was);
}

/// The save was applied, the answer never came: UNKNOWN_OUTCOME, not
/// retryable, and the POST was sent exactly once.
#[tokio::test]
async fn settings_save_without_an_answer_is_unknown_and_sent_once() {
    let rig = start_as(Options::default(), None, Some("1")).await;
    let rev = revision(&rig, "issues").await;
    rig.fake
        .add_fault(Fault::on("POST", "/api/v1/Settings/Issues").apply_then_hang());
    let env = rig
        .err(
            "write_settings_patch",
            json!({"section": "issues", "revision": rev,
                   "changes": [{"name": "/enabled", "value": false}]}),
        )
        .await;
    assert_unknown_and_sent_once(&rig, &env, "/api/v1/Settings/Issues");
}

/// UpdateSettings.cs has no isWindows, JobSettings.cs no
/// jellyfinRecentlyAddedSync; LandingPageSettings.cs computes noticeEnabled
/// and expired: none can be patched.
#[tokio::test]
async fn settings_patch_refuses_leaves_ombi_does_not_store() {
    let rig = Rig::start().await;
    for (section, name) in [
        ("update", "/isWindows"),
        ("jobs", "/jellyfinRecentlyAddedSync"),
        ("landing_page", "/noticeEnabled"),
        ("landing_page", "/expired"),
    ] {
        let read = rig.ok("read_settings", json!({"section": section})).await;
        let revision = read["data"]["revision"].as_str().unwrap().to_string();
        let env = rig
            .err(
                "write_settings_patch",
                json!({"section": section, "revision": revision,
                       "changes": [{"name": name, "value": true}]}),
            )
            .await;
        assert_eq!(err_code(&env), "INVALID_ARGUMENT", "{name}");
        assert_eq!(env["error"]["field"], "/changes/0/name");
    }
    assert!(writes(&rig).is_empty());
}
