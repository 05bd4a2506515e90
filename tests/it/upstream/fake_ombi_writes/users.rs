//! The user write routes: preferences, updates and deletes (and what a power user may do), mass e-mail
//! and mobile push.

use serde_json::json;

use crate::support;
use crate::support::fake_ombi::state::user_id;
use crate::support::rig::fields;
use crate::upstream::fake_ombi_writes::{ALICE, As, BOB, Ombi};

#[tokio::test]
async fn preferences_change_the_callers_row_and_other_users_need_power_user() {
    let o = Ombi::start().await;
    let r = o
        .post(BOB, "api/v1/Identity/language", json!({"lang": "de"}))
        .await;
    assert_eq!((r.status, r.body.as_str()), (200, ""));
    let r = o
        .post(
            BOB,
            "api/v1/Identity/streamingcountry",
            json!({"code": "DE"}),
        )
        .await;
    assert_eq!(r.status, 200);
    let me = o.get_ok(BOB, "api/v1/Identity").await;
    assert_eq!(
        fields(&me, &["language", "streamingCountry"]),
        json!(["de", "DE"])
    );
    // The bare API key writes Ombi's own `Api` user.
    o.post(As::Api, "api/v1/Identity/language", json!({"lang": "fr"}))
        .await
        .ok_empty();
    assert_eq!(o.user("Api")["language"], "fr");

    let (bob, alice) = (user_id("bob"), user_id("alice"));
    let own = json!([{"agent": 4, "userId": bob, "value": "12345", "enabled": true}]);
    assert_eq!(
        o.post_ok(BOB, "api/v1/Identity/NotificationPreferences", own)
            .await,
        json!(true)
    );
    let rows = o
        .get_ok(BOB, "api/v1/Identity/notificationpreferences")
        .await;
    assert_eq!(rows[0]["agent"], 4);
    assert_eq!(
        fields(&rows[0], &["value", "enabled"]),
        json!(["12345", false])
    );
    let other = json!([{"agent": 4, "userId": alice, "value": "x"}]);
    for who in [BOB, As::Api] {
        let r = o
            .post(
                who,
                "api/v1/Identity/NotificationPreferences",
                other.clone(),
            )
            .await;
        assert_eq!(r.status, 401);
    }
    let by_admin = json!([{"agent": 4, "userId": bob, "value": "999"}]);
    assert_eq!(
        o.post_ok(ALICE, "api/v1/Identity/NotificationPreferences", by_admin)
            .await,
        json!(true)
    );
    let stored = o.data(|d| {
        d.admin
            .notification_preferences
            .iter()
            .filter(|n| n["userId"] == json!(bob))
            .cloned()
            .collect::<Vec<_>>()
    });
    assert_eq!(stored.len(), 1);
    assert_eq!(stored[0]["value"], "999");
    let unknown = json!([{"agent": 4, "userId": "no-such-user", "value": "x"}]);
    assert_eq!(
        o.post(ALICE, "api/v1/Identity/NotificationPreferences", unknown)
            .await
            .status,
        404
    );
}

#[tokio::test]
async fn user_update_replaces_every_role_and_overwrites_the_fields() {
    let o = Ombi::start().await;
    let create = json!({
        "userName": "dave", "alias": "Dave D.", "emailAddress": "dave@example.org", "password": "pw",
        "movieRequestLimit": 3,
        "claims": [{"value": "RequestMovie", "enabled": true}, {"value": "RequestTv", "enabled": true}, {"value": "Admin", "enabled": false}]
    });
    assert_eq!(
        o.post_ok(As::Api, "api/v1/Identity", create).await,
        json!({"successful": true, "errors": null})
    );
    let id = user_id("dave");
    let dave = o
        .get_ok(As::Api, &format!("api/v1/Identity/User/{id}"))
        .await;
    assert_eq!(
        dave["movieRequestLimitType"], 1,
        "a null limit type reads as Week"
    );
    assert!(o.user("dave")["movieRequestLimitType"].is_null());
    let mut update = dave.clone();
    update["claims"] = json!([{"value": "RequestTv", "enabled": true}]);
    update.as_object_mut().unwrap().remove("alias");
    update
        .as_object_mut()
        .unwrap()
        .remove("movieRequestLimitType");
    assert_eq!(
        o.put_ok(As::Api, "api/v1/Identity", update).await,
        json!({"successful": true, "errors": null})
    );
    let row = o.user("dave");
    let roles = support::fake_ombi::state_writes::row_roles(&row);
    assert_eq!(roles, vec!["RequestTv".to_string()]);
    assert_eq!(
        fields(
            &row,
            &["alias", "movieRequestLimitType", "movieRequestLimit"]
        ),
        json!([null, 0, 3])
    );
    // The login table follows: dave now has RequestTv only.
    let r = o.request_movie(As::User("dave"), 27205).await;
    assert_eq!(r["errorCode"], "NoPermissionsRequestMovie");
    // A role that does not exist throws after the user was created.
    let wizard = json!({"userName": "wiz", "password": "pw",
        "claims": [{"value": "RequestTv", "enabled": true}, {"value": "Wizard", "enabled": true}]});
    let r = o.post(As::Api, "api/v1/Identity", wizard).await;
    assert_eq!(r.status, 500);
    assert_eq!(
        support::fake_ombi::state_writes::row_roles(&o.user("wiz")),
        vec!["RequestTv".to_string()]
    );
    // Null claims or password: 500.
    let r = o
        .post(
            As::Api,
            "api/v1/Identity",
            json!({"userName": "erin", "password": "pw"}),
        )
        .await;
    assert_eq!(r.status, 500);
    let r = o
        .post(
            As::Api,
            "api/v1/Identity",
            json!({"userName": "erin", "claims": []}),
        )
        .await;
    assert_eq!(r.status, 500);
    let r = o
        .put(
            As::Api,
            "api/v1/Identity",
            json!({"id": "nobody", "claims": []}),
        )
        .await;
    assert_eq!(r.status, 500);
}

#[tokio::test]
async fn power_user_cannot_update_a_user_listing_admin_even_disabled() {
    let o = Ombi::start().await;
    let pat = json!({"userName": "pat", "password": "pw", "claims": [{"value": "PowerUser", "enabled": true}]});
    assert_eq!(
        o.post_ok(As::Api, "api/v1/Identity", pat).await["successful"],
        true
    );
    let bob = o
        .get_ok(
            As::User("pat"),
            &format!("api/v1/Identity/User/{}", user_id("bob")),
        )
        .await;
    assert!(
        bob["claims"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["value"] == "Admin" && c["enabled"] == false)
    );
    let mut update = bob.clone();
    update["alias"] = json!("Bobby");
    let r = o
        .put_ok(As::User("pat"), "api/v1/Identity", update.clone())
        .await;
    assert_eq!(
        r,
        json!({"successful": false, "errors": ["You do not have the correct permissions to create this user"]})
    );
    assert!(o.user("bob")["alias"].is_null());
    update["claims"] = json!(
        bob["claims"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["value"] != "Admin")
            .cloned()
            .collect::<Vec<_>>()
    );
    assert_eq!(
        o.put_ok(As::User("pat"), "api/v1/Identity", update).await["successful"],
        true
    );
    assert_eq!(o.user("bob")["alias"], "Bobby");
}

#[tokio::test]
async fn user_delete_removes_their_tv_children_and_keeps_the_parents() {
    let o = Ombi::start().await;
    let r = o
        .delete(As::Api, &format!("api/v1/Identity/{}", user_id("bob")))
        .await;
    // bob reported issue 1, which alice commented on: the delete fails halfway.
    assert_eq!(r.status, 500);
    o.data(|d| {
        assert!(
            d.movie_requests
                .iter()
                .all(|r| r["requestedUserId"] != json!(user_id("bob")))
        );
        assert_eq!(d.requests.tv_parents.len(), 2, "parents stay");
        assert!(
            d.requests.tv_parents[1]["childRequests"]
                .as_array()
                .unwrap()
                .is_empty()
        );
    });
    let r = o.delete(As::Api, "api/v1/Identity/nobody").await.ok();
    assert_eq!(
        r,
        json!({"successful": false, "errors": ["Could not find user to delete."]})
    );
    let r = o
        .delete(As::Api, &format!("api/v1/Identity/{}", user_id("carol")))
        .await
        .ok();
    assert_eq!(r["successful"], true);
    assert!(o.data(|d| d.admin.users.iter().all(|u| u["userName"] != "carol")));
}

#[tokio::test]
async fn mass_email_smtp_failure_is_500_and_unknown_user_500_after_earlier_mails() {
    let o = Ombi::start().await;
    let users = json!([{"id": user_id("alice")}, {"id": user_id("carol")}]);
    let body = json!({"subject": "Hi", "body": "Movie night", "bcc": false, "users": users});
    assert_eq!(
        o.post_ok(As::Api, "api/v1/Notifications/massemail", body.clone())
            .await,
        json!(true)
    );
    o.data(|d| assert_eq!(d.writes.outbox.len(), 2));
    o.data(|d| d.writes.down.insert("smtp".into()));
    assert_eq!(
        o.post(As::Api, "api/v1/Notifications/massemail", body)
            .await
            .status,
        500
    );
    o.data(|d| assert_eq!(d.writes.outbox.len(), 2));
    o.data(|d| d.writes.down.clear());
    let body = json!({"subject": "Hi", "body": "x", "bcc": false, "users": [{"id": user_id("alice")}, {"id": "nobody"}]});
    assert_eq!(
        o.post(As::Api, "api/v1/Notifications/massemail", body)
            .await
            .status,
        500
    );
    o.data(|d| assert_eq!(d.writes.outbox.len(), 3, "alice's mail still went"));
}

#[tokio::test]
async fn mobile_push_is_an_empty_200_even_without_devices() {
    let o = Ombi::start().await;
    for user in [user_id("alice"), "nobody".to_string()] {
        o.post(
            As::Api,
            "api/v2/Mobile/Send",
            json!({"userId": user, "message": "Hi"}),
        )
        .await
        .ok_empty();
    }
    o.data(|d| assert!(d.writes.outbox.is_empty()));
    o.post(
        As::Api,
        "api/v2/Mobile/Send",
        json!({"userId": user_id("bob"), "message": "Hi"}),
    )
    .await
    .ok_empty();
    o.data(|d| {
        assert_eq!(
            d.writes.outbox,
            vec![json!({"channel": "mobile", "to": "fcm-token-bob-1", "message": "Hi"})]
        )
    });
    let users = o.get_ok(As::Api, "api/v2/Mobile/Users").await;
    assert_eq!(users[0]["userId"], json!(user_id("bob")));
    assert_eq!(users[0]["devices"][0]["token"], "fcm-token-bob-1");
}
