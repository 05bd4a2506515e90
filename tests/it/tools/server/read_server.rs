//! `read_server` against the fake Ombi: status, about, media servers, updates, features and cron, and
//! partial answers; nothing forbidden is ever sent.

use serde_json::{Value, json};

use crate::support::fake_ombi::Fault;
use crate::support::rig::err_code;
use crate::tools::server::metric;
use crate::tools::{Forbidden, assert_no_leak, read_server, start};

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
    // the servers by name, from the saved settings, never their addresses
    assert_eq!(metric(&r, "plex.servers"), "Living room");
    assert_eq!(metric(&r, "emby.servers"), "Basement");
    assert!(!r.to_string().contains("example.org"), "{r}");
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
