//! `read_users` against the fake Ombi: me, list, get, online users and notification agents, without
//! personal data or delivery values, and the roles, types and quotas moderators see.

use serde_json::json;

use crate::support;
use crate::support::fake_ombi::Fault;
use crate::support::rig::{Rig, err_code, items};
use crate::tools::{Forbidden, assert_no_leak, read_users, start};

#[tokio::test]
async fn users_me_is_the_api_system_user() {
    let h = start().await;
    let r = read_users(&h, "me", json!({})).await;
    assert_eq!(r["ok"], true);
    assert_eq!(r["data"]["kind"], "user_page");
    assert_eq!(r["data"]["items"][0]["user_name"], "Api");
    assert_eq!(r["data"]["page"]["mode"], "none");
    assert_eq!(h.fake.hits("GET", "/api/v1/Identity"), 1);
    assert!(!r.to_string().contains("claims") && !r.to_string().contains("Admin"));
}

#[tokio::test]
async fn users_list_is_windowed_locally_without_pii() {
    let h = start().await;
    let r = read_users(&h, "list", json!({"page": {"offset": 1, "limit": 1}})).await;
    assert_eq!(r["ok"], true, "{r}");
    assert_eq!(
        r["data"]["items"],
        json!([{"id": support::fake_ombi::state::user_id("bob"), "user_name": "bob", "streaming_country": "US",
                "roles": ["RequestTv", "RequestMovie"], "user_type": "local"}])
    );
    assert_eq!(
        r["data"]["page"],
        json!({"offset": 1, "limit": 1, "returned": 1, "total": 3, "has_more": true, "next_offset": 2, "mode": "local", "unit": "users"})
    );
    assert_no_leak(&r);
    let all = read_users(&h, "list", json!({})).await;
    assert_eq!(
        all["data"]["items"][2],
        json!({"id": support::fake_ombi::state::user_id("carol"), "user_name": "carol", "alias": "Caz", "language": "fr", "streaming_country": "FR",
               "roles": ["RequestMovie"], "user_type": "local"})
    );
    assert_no_leak(&all);
    assert_eq!(h.fake.hits("GET", "/api/v1/Identity/Users"), 2);
}

#[tokio::test]
async fn users_get_known_and_unknown() {
    let h = start().await;
    let id = support::fake_ombi::state::user_id("alice");
    let r = read_users(&h, "get", json!({"user_id": id})).await;
    assert_eq!(r["data"]["items"][0]["alias"], "Alice A.");
    assert_no_leak(&r);
    assert_eq!(
        h.fake.hits("GET", &format!("/api/v1/Identity/User/{id}")),
        1
    );
    let r = read_users(&h, "get", json!({"user_id": "no-such-user"})).await;
    assert_eq!(r["ok"], false);
    assert_eq!(err_code(&r), "NOT_FOUND");
    let r = read_users(&h, "get", json!({})).await;
    assert_eq!(err_code(&r), "INVALID_ARGUMENT");
}

#[tokio::test]
async fn users_online_deduplicates_connections() {
    let h = start().await;
    let r = read_users(&h, "online", json!({})).await;
    let items = r["data"]["items"].as_array().unwrap();
    assert_eq!(items.len(), 2);
    assert!(items.iter().all(|u| u["online"] == true));
    assert_eq!(h.fake.hits("GET", "/api/v2/Hub/Users"), 1);
}

#[tokio::test]
async fn notification_agents_never_return_delivery_values() {
    let h = start().await;
    let r = read_users(&h, "notification_agents", json!({})).await;
    assert_eq!(r["data"]["kind"], "reference_page");
    assert_eq!(
        r["data"]["items"][0],
        json!({"id": "4", "name": "telegram", "value": 4, "category": "configured"})
    );
    // audit #16: only the agents with a delivery value set; Ombi's
    // synthesized empty rows for the other agents are not listed
    assert_eq!(
        r["data"]["items"],
        json!([
            {"id": "4", "name": "telegram", "value": 4, "category": "configured"},
            {"id": "3", "name": "pushover", "value": 3, "category": "configured"}
        ])
    );
    assert_no_leak(&r);
    assert_eq!(
        h.fake
            .hits("GET", "/api/v1/Identity/notificationpreferences"),
        1
    );
    h.assert_never_called_forbidden();
}

#[tokio::test]
async fn users_list_upstream_500_is_an_error_not_a_page() {
    let h = start().await;
    h.fake
        .add_fault(Fault::on("GET", "/api/v1/Identity/Users").nasty_500());
    let r = read_users(&h, "list", json!({})).await;
    assert_eq!(r["ok"], false);
    assert_eq!(err_code(&r), "UPSTREAM_REJECTED");
}

#[tokio::test]
async fn online_users_show_an_alias_as_alias_never_as_the_user_name() {
    let h = Rig::start().await;
    let env = h.call("read_users", json!({"action": "online"})).await;
    assert_eq!(
        items(&env),
        &vec![
            json!({"id": items(&env)[0]["id"], "user_name": "alice", "alias": "Alice A.", "online": true}),
            json!({"id": items(&env)[1]["id"], "user_name": "bob", "online": true}),
        ]
    );
}

/// "Which users have hit their quota?" in one call: roles, user type and
/// the quotas Ombi's user list already computes, never contact details.
#[tokio::test]
async fn user_list_gives_moderators_roles_types_and_quotas() {
    let h = Rig::start().await;
    h.fake.with_data(|d| {
        let bob = d
            .admin
            .users
            .iter_mut()
            .find(|u| u["userName"] == "bob")
            .unwrap();
        bob["movieRequestLimit"] = json!(2);
        bob["movieRequestQuota"] =
            json!({"hasLimit": true, "limit": 2, "remaining": 0, "nextRequest": "2026-05-09T08:00:00Z"});
        // Without a limit of their own Ombi computes no quota.
        let carol = d
            .admin
            .users
            .iter_mut()
            .find(|u| u["userName"] == "carol")
            .unwrap();
        carol["movieRequestQuota"] = json!({"hasLimit": true, "limit": 9, "remaining": 9});
    });
    let env = h.ok("read_users", json!({"action": "list"})).await;
    let user = |name: &str| {
        items(&env)
            .iter()
            .find(|u| u["user_name"] == name)
            .unwrap()
            .clone()
    };
    let bob = user("bob");
    assert_eq!(bob["roles"], json!(["RequestTv", "RequestMovie"]));
    assert_eq!(bob["user_type"], "local");
    let remaining = bob["quotas"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == "movie.remaining")
        .unwrap()
        .clone();
    assert_eq!(remaining["value"], 0);
    assert_eq!(remaining["scope"], "selected_user");
    assert!(user("carol").get("quotas").is_none());
    assert_eq!(user("alice")["roles"], json!(["Admin"]));
    let text = env.to_string();
    assert!(!text.contains("example.org"), "no e-mail: {text}");
    // `get` is the same projection.
    let id = bob["id"].as_str().unwrap();
    let one = h
        .ok("read_users", json!({"action": "get", "user_id": id}))
        .await;
    assert_eq!(items(&one)[0], bob);
}
