//! `write_notification_send`: e-mail (recipients checked, sent once, an SMTP failure is an unknown
//! outcome) and mobile push (a registered device needed).

use serde_json::json;

use crate::support::fake_ombi::state::user_id;
use crate::support::rig::Rig;
use crate::tools::{assert_unknown_and_sent_once, body, write_paths};

/// Mass e-mail: recipients checked first (unknown → refused, nothing sent),
/// the body as Ombi takes it, the count of users with an address.
#[tokio::test]
async fn email_checks_recipients_then_sends_once() {
    let rig = Rig::start().await;
    let (alice, bob) = (user_id("alice"), user_id("bob"));
    let env = rig
        .err(
            "write_notification_send",
            json!({"action": "email", "subject": "Hi", "body": "Movie night", "user_ids": [alice, "nobody"]}),
        )
        .await;
    assert_eq!(env["error"]["field"], "/user_ids/1");
    assert!(write_paths(&rig).is_empty());

    let env = rig
        .ok(
            "write_notification_send",
            json!({"action": "email", "subject": "Hi", "body": "Movie night", "bcc": true,
                   "user_ids": [alice, bob]}),
        )
        .await;
    assert_eq!(
        body(&rig.last("POST", "/api/v1/Notifications/massemail")),
        json!({"subject": "Hi", "body": "Movie night", "bcc": true, "users": [{"id": alice}, {"id": bob}]})
    );
    assert_eq!(env["data"]["outcome"], "completed");
    assert_eq!(env["data"]["affected_count"], 2);
    assert_eq!(
        rig.fake.with_data(|d| d.writes.outbox.len()),
        1,
        "one bcc mail"
    );
}

/// An SMTP failure is a 500 after some mails may have gone out:
/// UNKNOWN_OUTCOME, never retried.
#[tokio::test]
async fn email_smtp_failure_is_an_unknown_outcome() {
    let rig = Rig::start().await;
    rig.fake.with_data(|d| {
        d.writes.down.insert("smtp".into());
    });
    let env = rig
        .err(
            "write_notification_send",
            json!({"action": "email", "subject": "Hi", "body": "x", "user_ids": [user_id("bob")]}),
        )
        .await;
    assert_unknown_and_sent_once(&rig, &env, "/api/v1/Notifications/massemail");
}

/// Push: Ombi answers the same empty 200 for a user without devices, so
/// the devices are checked first; with one, `accepted`.
#[tokio::test]
async fn mobile_push_needs_a_registered_device() {
    let rig = Rig::start().await;
    let env = rig
        .err(
            "write_notification_send",
            json!({"action": "mobile_push", "user_id": user_id("alice"), "message": "Hello"}),
        )
        .await;
    assert_eq!(env["error"]["field"], "/user_id");
    assert!(write_paths(&rig).is_empty());

    let bob = user_id("bob");
    let env = rig
        .ok(
            "write_notification_send",
            json!({"action": "mobile_push", "user_id": bob, "message": "Hello"}),
        )
        .await;
    assert_eq!(
        body(&rig.last("POST", "/api/v2/Mobile/Send")),
        json!({"userId": bob, "message": "Hello"})
    );
    assert_eq!(env["data"]["outcome"], "accepted");
    assert_eq!(env["data"]["user_id"], bob);
    assert!(!env.to_string().contains("fcm-token"), "no device token");
    assert_eq!(rig.fake.with_data(|d| d.writes.outbox.len()), 1);
}
