//! `write_request_reprocess`: re-sending an approved request per media, refusals, and a downloader that
//! refuses or throws.

use serde_json::{Value, json};

use crate::support::rig::{err_code, err_message, fields, ok_data};
use crate::tools::requests::{send_rejects, send_throws};
use crate::tools::{as_alice, assert_sent, no_write};

#[tokio::test]
async fn reprocess_movie_resends_an_approved_request_as_accepted() {
    let h = as_alice().await;
    let env = h
        .call(
            "write_request_reprocess",
            json!({"request_type": "movie", "request_id": 1}),
        )
        .await;
    assert_sent(
        &h,
        "POST",
        "/api/v2/Requests/reprocess/1/1/false",
        Value::Null,
    );
    let d = ok_data(&env);
    assert_eq!(d["outcome"], "accepted");
    assert_eq!(d["target"], json!({"kind": "movie", "id": 1}));
    assert!(d["message"].as_str().unwrap().contains("retry_queue"));
    assert_eq!(env["warnings"], json!([]));
    assert!(
        h.fake
            .with_data(|d| d.writes.sent.contains(&("radarr".into(), 1)))
    );
}

#[tokio::test]
async fn reprocess_tv_uses_the_child_id_and_completes() {
    let h = as_alice().await;
    let env = h
        .call(
            "write_request_reprocess",
            json!({"request_type": "tv", "request_id": 1396}),
        )
        .await;
    assert_sent(
        &h,
        "POST",
        "/api/v2/Requests/reprocess/0/1396/false",
        Value::Null,
    );
    let d = ok_data(&env);
    assert_eq!(d["outcome"], "completed");
    assert_eq!(d["target"], json!({"kind": "tv_child", "id": 1396}));
    assert!(
        h.fake
            .with_data(|d| d.writes.sent.contains(&("sonarr".into(), 1396)))
    );
}

#[tokio::test]
async fn reprocess_of_a_request_that_is_not_approved_is_refused_unsent() {
    for (media, id) in [("movie", 2), ("tv", 12)] {
        let h = as_alice().await;
        let env = h
            .call(
                "write_request_reprocess",
                json!({"request_type": media, "request_id": id}),
            )
            .await;
        assert_eq!(err_code(&env), "INVALID_ARGUMENT", "{media}");
        assert_eq!(env["error"]["field"], "/request_id");
        assert!(err_message(&env).contains("approve it first"));
        no_write(&h);
    }
    // a 4K reprocess looks at the 4K approval
    let h = as_alice().await;
    let env = h
        .call(
            "write_request_reprocess",
            json!({"request_type": "movie", "request_id": 1, "is_4k": true}),
        )
        .await;
    assert_eq!(err_code(&env), "INVALID_ARGUMENT");
    no_write(&h);
}

#[tokio::test]
async fn reprocess_tv_when_sonarr_throws_is_accepted_as_queued() {
    let h = as_alice().await;
    send_throws(&h, "sonarr", "timeout");
    let env = h
        .call(
            "write_request_reprocess",
            json!({"request_type": "tv", "request_id": 1396}),
        )
        .await;
    let d = ok_data(&env);
    assert_eq!(d["outcome"], "accepted");
    assert_eq!(
        fields(d, &["upstream_result", "upstream_is_error"]),
        json!([false, false])
    );
    assert!(d["message"].as_str().unwrap().contains("queued"));
    assert_eq!(env["warnings"], json!([]));
    assert!(h.fake.with_data(|d| {
        d.requests
            .retry
            .iter()
            .any(|r| r["requestId"] == json!(1396))
    }));
}

#[tokio::test]
async fn reprocess_movie_refused_by_radarr_is_rejected() {
    let h = as_alice().await;
    send_rejects(&h, "radarr", "Movie is already monitored");
    let env = h
        .call(
            "write_request_reprocess",
            json!({"request_type": "movie", "request_id": 1}),
        )
        .await;
    assert_eq!(err_code(&env), "UPSTREAM_REJECTED");
    assert!(err_message(&env).contains("already monitored"));
}
