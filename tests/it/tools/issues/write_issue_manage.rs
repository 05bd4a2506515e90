//! `write_issue_manage`: statuses, deleting issues and comments, creating and deleting categories,
//! unknown ids, an unknown outcome sent once, and a closed issue Ombi hides.

use std::time::Duration;

use serde_json::{Value, json};

use crate::support::fake_ombi::{ADMIN_USER, Fault};
use crate::support::rig::{Rig, err_code, err_message, fields, ok_data};
use crate::tools::{as_alice, as_user, assert_sent, no_write, the_write, wire, with_timeout};

fn issue(h: &Rig, id: i64) -> Option<Value> {
    h.fake
        .with_data(|d| d.issues.iter().find(|i| i["id"] == json!(id)).cloned())
}

#[tokio::test]
async fn set_status_posts_the_status_code() {
    let h = as_alice().await;
    let env = h
        .call(
            "write_issue_manage",
            json!({"action": "set_status", "issue_id": 1, "status": "resolved"}),
        )
        .await;
    assert_sent(
        &h,
        "POST",
        "/api/v1/Issues/status",
        json!({"issueId": 1, "status": 2}),
    );
    let d = ok_data(&env);
    assert_eq!(fields(d, &["outcome", "issue_id"]), json!(["completed", 1]));
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .contains("notifies the reporter")
    );
    let i = issue(&h, 1).unwrap();
    assert_eq!(i["status"], 2);
    assert!(i["resovledDate"].is_string());

    let h = as_alice().await;
    h.ok(
        "write_issue_manage",
        json!({"action": "set_status", "issue_id": 1, "status": "closed"}),
    )
    .await;
    assert_eq!(wire(&the_write(&h)).3, json!({"issueId": 1, "status": 3}));
}

#[tokio::test]
async fn set_status_or_delete_of_an_unknown_issue_is_not_found() {
    for args in [
        json!({"action": "set_status", "issue_id": 999, "status": "pending"}),
        json!({"action": "delete", "issue_id": 999}),
    ] {
        let h = as_alice().await;
        let env = h.call("write_issue_manage", args.clone()).await;
        assert_eq!(err_code(&env), "NOT_FOUND", "{args}");
    }
}

#[tokio::test]
async fn delete_issue_takes_its_comments() {
    let h = as_alice().await;
    let env = h
        .call(
            "write_issue_manage",
            json!({"action": "delete", "issue_id": 1}),
        )
        .await;
    assert_sent(&h, "DELETE", "/api/v1/Issues/1", Value::Null);
    assert_eq!(ok_data(&env)["issue_id"], 1);
    assert!(issue(&h, 1).is_none());
    assert!(
        h.fake
            .with_data(|d| d.comments.iter().all(|c| c["issuesId"] != json!(1)))
    );
}

#[tokio::test]
async fn create_category_resolves_the_new_id_by_reading_before_and_after() {
    let h = as_alice().await;
    let env = h
        .call(
            "write_issue_manage",
            json!({"action": "create_category", "name": "Video"}),
        )
        .await;
    assert_eq!(
        h.action_paths(),
        vec![
            "GET /api/v1/Issues/categories".to_string(),
            "POST /api/v1/Issues/categories".to_string(),
            "GET /api/v1/Issues/categories".to_string()
        ]
    );
    assert_sent(
        &h,
        "POST",
        "/api/v1/Issues/categories",
        json!({"value": "Video"}),
    );
    let d = ok_data(&env);
    let new_id = h.fake.with_data(|d| {
        d.writes
            .issue_categories
            .iter()
            .find(|c| c["value"] == "Video")
            .unwrap()["id"]
            .clone()
    });
    assert_eq!(d["category_id"], new_id);
    assert_eq!(env["warnings"], json!([]));

    // a second category of the same name: Ombi keeps both, the new id is still found
    let env = h
        .call(
            "write_issue_manage",
            json!({"action": "create_category", "name": "Video"}),
        )
        .await;
    let d = ok_data(&env);
    assert!(d["category_id"].as_i64().unwrap() > new_id.as_i64().unwrap());
    assert!(
        env["warnings"][0]
            .as_str()
            .unwrap()
            .contains("already exists")
    );
}

#[tokio::test]
async fn delete_category_with_issues_is_refused_naming_the_count() {
    let h = as_alice().await;
    let in_one = h.fake.with_data(|d| {
        d.issues
            .iter()
            .filter(|i| i["issueCategoryId"] == json!(1))
            .count()
    });
    assert!(in_one > 1);
    let env = h
        .call(
            "write_issue_manage",
            json!({"action": "delete_category", "category_id": 1}),
        )
        .await;
    assert_eq!(err_code(&env), "CONFLICT");
    let msg = err_message(&env);
    assert!(
        msg.contains(&format!("still has {in_one} issue(s)")),
        "{msg}"
    );
    no_write(&h);
    // every status was looked at
    for status in 0..=3 {
        assert_eq!(h.gets(&format!("/api/v1/Issues/100/0/{status}")).len(), 1);
    }
    assert_eq!(issue(&h, 1).unwrap()["issueCategoryId"], 1);
}

#[tokio::test]
async fn delete_empty_category_and_unknown_category() {
    let h = as_alice().await;
    let env = h
        .call(
            "write_issue_manage",
            json!({"action": "delete_category", "category_id": 3}),
        )
        .await;
    assert_sent(&h, "DELETE", "/api/v1/Issues/categories/3", Value::Null);
    let d = ok_data(&env);
    assert_eq!(
        fields(d, &["outcome", "category_id"]),
        json!(["completed", 3])
    );
    assert!(h.fake.with_data(|d| {
        d.writes
            .issue_categories
            .iter()
            .all(|c| c["id"] != json!(3))
    }));

    let h = as_alice().await;
    let env = h
        .call(
            "write_issue_manage",
            json!({"action": "delete_category", "category_id": 99}),
        )
        .await;
    assert_eq!(err_code(&env), "NOT_FOUND");
    no_write(&h);
}

#[tokio::test]
async fn delete_comment_and_an_unknown_comment() {
    let h = as_alice().await;
    let env = h
        .call(
            "write_issue_manage",
            json!({"action": "delete_comment", "comment_id": 2}),
        )
        .await;
    assert_sent(&h, "DELETE", "/api/v1/Issues/comments/2", Value::Null);
    assert_eq!(ok_data(&env)["comment_id"], 2);
    assert!(
        h.fake
            .with_data(|d| d.comments.iter().all(|c| c["id"] != json!(2)))
    );

    let env = h
        .call(
            "write_issue_manage",
            json!({"action": "delete_comment", "comment_id": 999}),
        )
        .await;
    assert_eq!(err_code(&env), "NOT_FOUND");
}

#[tokio::test]
async fn timeout_after_an_issue_delete_is_unknown_outcome_sent_once() {
    let h = with_timeout().await;
    h.fake
        .add_fault(Fault::on("DELETE", "/api/v1/Issues/1").apply_then_hang());
    let started = std::time::Instant::now();
    let env = h
        .call(
            "write_issue_manage",
            json!({"action": "delete", "issue_id": 1}),
        )
        .await;
    assert_eq!(err_code(&env), "UNKNOWN_OUTCOME");
    assert_eq!(env["error"]["retryable"], false);
    assert_eq!(h.fake.hits("DELETE", "/api/v1/Issues/1"), 1);
    assert!(issue(&h, 1).is_none());
    assert!(started.elapsed() < Duration::from_secs(10));
}

/// Issue status 3 is Ombi's `Deleted` (Issues.cs): the description says so,
/// and a completed `closed` warns that the issue left Ombi's UI and counts.
#[tokio::test]
async fn set_status_closed_says_the_issue_is_hidden() {
    let def = &ombi_mcp::tools::find("write_issue_manage").unwrap().def;
    assert!(def.description.contains("Ombi's `Deleted` state"));
    let rig = as_user(Some(ADMIN_USER)).await;
    let env = rig
        .ok(
            "write_issue_manage",
            json!({"action": "set_status", "issue_id": 1, "status": "closed"}),
        )
        .await;
    let warnings = env["warnings"].to_string();
    assert!(
        warnings.contains("`Deleted` state") && warnings.contains("issue counts"),
        "{warnings}"
    );
    let env = rig
        .ok(
            "write_issue_manage",
            json!({"action": "set_status", "issue_id": 1, "status": "resolved"}),
        )
        .await;
    assert!(env["warnings"].as_array().is_none_or(Vec::is_empty));
}
