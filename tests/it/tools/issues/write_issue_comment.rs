//! `write_issue_comment`: a comment as the caller.

use serde_json::json;

use crate::support::rig::{err_code, writes};
use crate::tools::{as_user, comment_err, comment_ok, data, only_write};

#[tokio::test]
async fn issue_comment_as_the_caller() {
    let rig = as_user(Some("bob")).await;
    let env = comment_ok(&rig, json!({"issue_id": 1, "comment": "Still broken"})).await;
    let (route, body, req) = only_write(&rig);
    assert_eq!(route, "POST /api/v1/Issues/comments");
    assert_eq!(req.header("UserName"), Some("bob"));
    assert_eq!(body, json!({"issueId": 1, "comment": "Still broken"}));
    let d = data(&env);
    assert_eq!(d["issue_id"], 1);
    let id = d["comment_id"].as_i64().unwrap();
    assert!(
        rig.fake
            .with_data(|d| d.comments.iter().any(|c| c["id"] == json!(id)))
    );
    // Ombi answers 204 for an unknown issue, having added nothing.
    let env = comment_err(&rig, json!({"issue_id": 77, "comment": "?"})).await;
    assert_eq!(err_code(&env), "NOT_FOUND");
    // The bare API key's comment would fail inside Ombi (500): refused first.
    let api = as_user(None).await;
    let env = comment_err(&api, json!({"issue_id": 1, "comment": "x"})).await;
    assert_eq!(err_code(&env), "FORBIDDEN");
    assert!(writes(&api).is_empty());
}
