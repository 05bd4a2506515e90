//! `write_user_preferences`: language, streaming country and notification agents change the caller's
//! row and are read back, without echoing delivery values.

use serde_json::{Value, json};

use crate::support::fake_ombi::state::user_id;
use crate::support::rig::{err_code, writes};
use crate::tools::{as_user, create_ok, data, only_write};

#[tokio::test]
async fn language_and_country_change_the_callers_row_and_are_read_back() {
    let rig = as_user(Some("bob")).await;
    let env = rig
        .ok(
            "write_user_preferences",
            json!({"action": "language", "language": "de"}),
        )
        .await;
    let (route, body, req) = only_write(&rig);
    assert_eq!(route, "POST /api/v1/Identity/language");
    assert_eq!(body, json!({"lang": "de"}));
    assert_eq!(req.header("UserName"), Some("bob"));
    assert_eq!(data(&env)["user_id"], json!(user_id("bob")));
    // The next request uses the new language at once.
    create_ok(&rig, json!({"action": "movie", "tmdb_id": 27205})).await;
    let last = rig.last("POST", "/api/v1/Request/movie");
    assert_eq!(
        serde_json::from_str::<Value>(&last.body).unwrap()["languageCode"],
        "de"
    );

    let rig = as_user(Some("bob")).await;
    rig.ok(
        "write_user_preferences",
        json!({"action": "streaming_country", "country": "gb"}),
    )
    .await;
    let (route, body, _) = only_write(&rig);
    assert_eq!(route, "POST /api/v1/Identity/streamingcountry");
    assert_eq!(body, json!({"code": "GB"}));
    let env = rig
        .err(
            "write_user_preferences",
            json!({"action": "streaming_country", "country": "ZZ"}),
        )
        .await;
    assert_eq!(env["error"]["field"], "/country");
    assert_eq!(writes(&rig).len(), 1);
}

/// Delivery values are sent to Ombi and appear nowhere else.
#[tokio::test]
async fn notification_agents_are_set_for_the_caller_without_echoing_values() {
    let rig = as_user(Some("bob")).await;
    let env = rig
        .ok(
            "write_user_preferences",
            json!({"action": "notification_agents", "agents": [
                {"agent": "telegram", "value": "tg-chat-31337"}, {"agent": "discord", "value": ""}]}),
        )
        .await;
    let (route, body, _) = only_write(&rig);
    assert_eq!(route, "POST /api/v1/Identity/NotificationPreferences");
    assert_eq!(
        body,
        json!([{"agent": 4, "userId": user_id("bob"), "value": "tg-chat-31337"},
               {"agent": 1, "userId": user_id("bob"), "value": ""}])
    );
    assert!(!env.to_string().contains("tg-chat-31337"));
    assert_eq!(
        data(&env)["message"],
        "saved your delivery values for telegram, discord"
    );
    assert_eq!(data(&env)["user_id"], json!(user_id("bob")));
    let env = rig
        .err(
            "write_user_preferences",
            json!({"action": "notification_agents", "agents": [
                {"agent": "slack", "value": "a"}, {"agent": "slack", "value": "b"}]}),
        )
        .await;
    assert_eq!(env["error"]["field"], "/agents/1/agent");
    // The bare API key would change Ombi's internal `Api` user.
    let api = as_user(None).await;
    let env = api
        .err(
            "write_user_preferences",
            json!({"action": "language", "language": "fr"}),
        )
        .await;
    assert_eq!(err_code(&env), "FORBIDDEN");
    assert!(writes(&api).is_empty());
}
