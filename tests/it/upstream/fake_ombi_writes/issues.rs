//! The issue write routes: creating, commenting, statuses and categories.

use serde_json::json;

use crate::support::fake_ombi::state::user_id;
use crate::support::rig::fields;
use crate::upstream::fake_ombi_writes::{As, BOB, Ombi};

#[tokio::test]
async fn issue_create_stores_status_id_and_resolved_date_from_the_body() {
    let o = Ombi::start().await;
    let body = json!({
        "id": 500, "title": "The Matrix", "requestType": 1, "providerId": "603", "requestId": 1,
        "subject": "Audio out of sync", "description": "From minute 12", "issueCategoryId": 2,
        "status": 2, "resovledDate": "2020-01-01T00:00:00Z"
    });
    assert_eq!(
        o.post_ok(BOB, "api/v1/Issues", body.clone()).await,
        json!(500)
    );
    let i = o.get_ok(BOB, "api/v1/Issues/500").await;
    assert_eq!(i["status"], 2);
    assert_eq!(i["resovledDate"], "2020-01-01T00:00:00Z");
    assert_eq!(i["userReportedId"], json!(user_id("bob")));
    assert_eq!(i["issueCategory"], json!({"id": 2, "value": "Subtitles"}));
    // The same id again, or an unknown category: the database refuses (500).
    assert_eq!(o.post(BOB, "api/v1/Issues", body.clone()).await.status, 500);
    let mut unknown = body;
    unknown["id"] = json!(0);
    unknown["issueCategoryId"] = json!(77);
    assert_eq!(o.post(BOB, "api/v1/Issues", unknown).await.status, 500);
    assert_eq!(o.data(|d| d.issues.len()), 6);
}

#[tokio::test]
async fn issue_comment_needs_a_user_row_and_unknown_issue_is_204() {
    let o = Ombi::start().await;
    let c = o
        .post_ok(
            BOB,
            "api/v1/Issues/comments",
            json!({"issueId": 1, "comment": "Still broken"}),
        )
        .await;
    assert_eq!(
        fields(&c, &["comment", "userId", "issuesId"]),
        json!(["Still broken", user_id("bob"), 1])
    );
    let r = o
        .post(
            As::Api,
            "api/v1/Issues/comments",
            json!({"issueId": 1, "comment": "x"}),
        )
        .await;
    assert_eq!(
        r.status, 500,
        "the bare API key has no user row under that name"
    );
    let r = o
        .post(
            BOB,
            "api/v1/Issues/comments",
            json!({"issueId": 404, "comment": "x"}),
        )
        .await;
    assert_eq!((r.status, r.body.as_str()), (204, ""));
    // The seed's five comments and the one added above; the 204 added none.
    assert_eq!(o.data(|d| d.comments.len()), 6);
}

#[tokio::test]
async fn issue_status_by_any_user_and_resolved_stamps_the_date() {
    let o = Ombi::start().await;
    assert_eq!(
        o.post_ok(
            BOB,
            "api/v1/Issues/status",
            json!({"issueId": 1, "status": 2})
        )
        .await,
        json!(true)
    );
    let i = o.data(|d| d.issues[0].clone());
    assert_eq!(i["status"], 2);
    assert!(i["resovledDate"].is_string());
    assert_eq!(
        o.post_ok(
            BOB,
            "api/v1/Issues/status",
            json!({"issueId": 999, "status": 1})
        )
        .await,
        json!(false)
    );
    assert_eq!(
        o.delete(As::Api, "api/v1/Issues/999").await.ok(),
        json!(false)
    );
    assert_eq!(
        o.delete(As::Api, "api/v1/Issues/comments/999").await.status,
        500
    );
    assert_eq!(o.delete(BOB, "api/v1/Issues/2").await.status, 403);
}

#[tokio::test]
async fn delete_category_cascades_to_its_issues_and_fails_on_comments() {
    let o = Ombi::start().await;
    // Every sample issue is in category 1; issue 1 has comments.
    let r = o.delete(As::Api, "api/v1/Issues/categories/1").await;
    assert_eq!(r.status, 500);
    o.data(|d| {
        assert_eq!(d.issues.len(), 5);
        assert!(
            d.writes
                .issue_categories
                .iter()
                .any(|c| c["id"] == json!(1))
        );
    });
    assert_eq!(o.delete(As::Api, "api/v1/Issues/1").await.ok(), json!(true));
    o.data(|d| {
        assert!(
            d.comments.iter().all(|c| c["issuesId"] != json!(1)),
            "the issue's comments went with it"
        )
    });
    // Issue 2 carries the seed's other comments: delete it too, so the
    // category's remaining issues have none.
    assert_eq!(o.delete(As::Api, "api/v1/Issues/2").await.ok(), json!(true));
    o.data(|d| assert!(d.comments.is_empty(), "no comment is left"));
    assert_eq!(
        o.delete(As::Api, "api/v1/Issues/categories/1").await.ok(),
        json!(true)
    );
    o.data(|d| assert!(d.issues.is_empty(), "the category took its issues"));
    assert_eq!(
        o.delete(As::Api, "api/v1/Issues/categories/12345")
            .await
            .status,
        500
    );
    assert_eq!(
        o.post_ok(
            As::Api,
            "api/v1/Issues/categories",
            json!({"value": "Video"})
        )
        .await,
        json!(true)
    );
    let cats = o.get_ok(As::Api, "api/v1/Issues/categories").await;
    assert!(
        cats.as_array()
            .unwrap()
            .iter()
            .any(|c| c["value"] == "Video" && c["id"].as_i64().unwrap() > 0)
    );
}
