//! `write_request_subscribe`: subscribing and unsubscribing act for the caller; an unknown request
//! sends nothing.

use serde_json::{Value, json};

use crate::support;
use crate::support::fake_ombi::state_writes::Subscription;
use crate::support::rig::{err_code, fields, writes};
use crate::tools::{as_user, data, only_write};

#[tokio::test]
async fn subscribe_and_unsubscribe_act_for_the_caller() {
    let rig = as_user(Some("bob")).await;
    let env = rig
        .ok(
            "write_request_subscribe",
            json!({"action": "subscribe", "media": "movie", "request_id": 2}),
        )
        .await;
    let (route, body, req) = only_write(&rig);
    assert_eq!(route, "POST /api/v1/Request/movie/subscribe/2");
    assert_eq!(body, Value::Null);
    assert_eq!(req.header("UserName"), Some("bob"));
    let d = data(&env);
    assert_eq!(
        fields(d, &["outcome", "target"]),
        json!(["completed", {"kind": "movie", "id": 2}])
    );
    assert!(d["message"].as_str().unwrap().contains("Interstellar"));
    let bob_movie_2 = Subscription {
        user: "bob".into(),
        request_id: 2,
        request_type: 1,
    };
    assert!(
        rig.fake
            .with_data(|d| d.writes.subscriptions.contains(&bob_movie_2))
    );

    rig.fake
        .with_data(|d| support::fake_ombi::state_writes::subscribe(d, "bob", 12, 0));
    let env = rig
        .ok(
            "write_request_subscribe",
            json!({"action": "unsubscribe", "media": "tv", "request_id": 12}),
        )
        .await;
    assert_eq!(data(&env)["target"], json!({"kind": "tv_child", "id": 12}));
    assert_eq!(
        rig.fake.hits("POST", "/api/v1/Request/tv/unsubscribe/12"),
        1
    );
    assert!(
        rig.fake
            .with_data(|d| !d.writes.subscriptions.iter().any(|s| s.request_id == 12))
    );
}

/// Ombi answers `true` for any id: an unknown request is caught first.
#[tokio::test]
async fn subscribe_to_an_unknown_request_sends_nothing() {
    let rig = as_user(Some("bob")).await;
    let env = rig
        .err(
            "write_request_subscribe",
            json!({"action": "subscribe", "media": "movie", "request_id": 999}),
        )
        .await;
    assert_eq!(err_code(&env), "NOT_FOUND");
    let env = rig
        .err(
            "write_request_subscribe",
            json!({"action": "subscribe", "media": "tv", "request_id": 999}),
        )
        .await;
    assert_eq!(err_code(&env), "NOT_FOUND");
    assert!(writes(&rig).is_empty());
}
