//! `write_issue_create`: the fields it sends, an unknown category, and filing where Ombi's own UI
//! files.

use serde_json::{Value, json};

use crate::support::fake_ombi::state::user_id;
use crate::support::rig::{Rig, fields, writes};
use crate::tools::{as_user, data, only_write};

#[tokio::test]
async fn issue_create_sends_only_the_fields_it_sets() {
    let rig = as_user(Some("bob")).await;
    let env = rig
        .ok(
            "write_issue_create",
            json!({"title": "The Matrix", "description": "Audio out of sync", "category_id": 1,
                   "request_type": "movie", "subject": "Sync", "request_id": 1, "provider_id": "603"}),
        )
        .await;
    let (route, body, req) = only_write(&rig);
    assert_eq!(route, "POST /api/v1/Issues");
    assert_eq!(req.header("UserName"), Some("bob"));
    // Filed under the IMDb id, as Ombi's movie page files and shows issues.
    assert_eq!(
        body,
        json!({"title": "The Matrix", "requestType": 1, "providerId": "tt0133093", "requestId": 1,
               "subject": "Sync", "description": "Audio out of sync", "issueCategoryId": 1})
    );
    let d = data(&env);
    let id = d["issue_id"].as_i64().unwrap();
    assert_eq!(d["outcome"], "completed");
    assert_eq!(d["category_id"], 1);
    let issue = rig
        .fake
        .with_data(|d| d.issues.iter().find(|i| i["id"] == json!(id)).cloned())
        .unwrap();
    assert_eq!(
        fields(&issue, &["status", "userReportedId"]),
        json!([0, user_id("bob")])
    );
}

#[tokio::test]
async fn issue_create_with_an_unknown_category_sends_nothing() {
    let rig = as_user(Some("bob")).await;
    let env = rig
        .err(
            "write_issue_create",
            json!({"title": "X", "description": "Y", "category_id": 42, "request_type": "tv"}),
        )
        .await;
    assert_eq!(env["error"]["field"], "/category_id");
    assert!(writes(&rig).is_empty());
}

/// write_issue_create files a movie issue under the IMDb id and a TV issue
/// under the show's parent request, as Ombi's UI does.
#[tokio::test]
async fn issue_create_files_where_ombis_ui_files() {
    let h = Rig::start().await;
    h.ok(
        "write_issue_create",
        json!({"title": "The Matrix", "description": "No subtitles", "category_id": 1,
               "request_type": "movie", "provider_id": "603"}),
    )
    .await;
    let body: Value = serde_json::from_str(&h.last("POST", "/api/v1/Issues").body).unwrap();
    assert_eq!(body["providerId"], "tt0133093");
    // Child 1396 of show request 10 → filed under parent 10.
    h.ok(
        "write_issue_create",
        json!({"title": "Breaking Bad", "description": "Wrong audio", "category_id": 1,
               "request_type": "tv", "request_id": 1396}),
    )
    .await;
    let body: Value = serde_json::from_str(&h.last("POST", "/api/v1/Issues").body).unwrap();
    assert_eq!(
        fields(&body, &["requestId", "providerId"]),
        json!([10, "1396"])
    );
}
