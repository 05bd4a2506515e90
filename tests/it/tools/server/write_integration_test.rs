//! `write_integration_test`: what each target posts (its saved settings), testers that swallow
//! failures, and the acting user's e-mail address.

use serde_json::{Value, json};

use crate::support::fake_ombi::state::user_id;
use crate::support::fake_ombi::{self as fake, Options};
use crate::support::rig::{Rig, err_code};
use crate::tools::server::setting;
use crate::tools::{assert_error, body, start_as, warnings, write_paths};

/// A swallowing agent: the saved section is the body; `true` is only
/// `accepted`, with a warning that Ombi does not report delivery.
#[tokio::test]
async fn swallowing_agent_test_is_accepted_with_a_warning() {
    let rig = Rig::start().await;
    let saved = setting(&rig, "notifications/discord");
    let env = rig
        .ok("write_integration_test", json!({"target": "discord"}))
        .await;
    assert_eq!(body(&rig.last("POST", "/api/v1/Tester/discord")), saved);
    assert_eq!(env["data"]["outcome"], "accepted");
    assert!(warnings(&env).contains("whatever happened"), "{env}");
    assert_eq!(
        rig.fake.with_data(|d| d.writes.outbox.len()),
        1,
        "Ombi sent the test message"
    );
    assert_eq!(write_paths(&rig), vec!["POST /api/v1/Tester/discord"]);
}

/// The e-mail test goes to the acting user; the bare API key (Ombi's `Api`
/// user, no address) is refused before anything is sent; SMTP failing is a
/// rejected test.
#[tokio::test]
async fn email_test_goes_to_the_acting_users_address() {
    let bare = Rig::start().await;
    let env = bare
        .err("write_integration_test", json!({"target": "email"}))
        .await;
    assert_eq!(err_code(&env), "FORBIDDEN");
    assert!(bare.fake.requests().is_empty());

    let rig = start_as(Options::default(), Some(fake::ADMIN_USER), None).await;
    let saved = setting(&rig, "notifications/email");
    let env = rig
        .ok("write_integration_test", json!({"target": "email"}))
        .await;
    let post = rig.last("POST", "/api/v1/Tester/email");
    assert_eq!(post.header("UserName"), Some(fake::ADMIN_USER));
    assert_eq!(body(&post), saved);
    assert_eq!(env["data"]["outcome"], "completed");
    let (to, alice) = rig.fake.with_data(|d| {
        (
            d.writes.outbox[0]["to"].clone(),
            d.admin.users[0]["emailAddress"].clone(),
        )
    });
    assert_eq!(to, alice);

    rig.fake.with_data(|d| {
        d.writes.down.insert("smtp".into());
    });
    let env = rig
        .err("write_integration_test", json!({"target": "email"}))
        .await;
    assert_eq!(err_code(&env), "UPSTREAM_REJECTED");
}

/// Media servers: one server object per call, each an item.
#[tokio::test]
async fn media_server_test_sends_each_saved_server() {
    let rig = Rig::start().await;
    let saved = setting(&rig, "plex");
    let env = rig
        .ok("write_integration_test", json!({"target": "plex"}))
        .await;
    assert_eq!(
        body(&rig.last("POST", "/api/v1/Tester/plex")),
        saved["servers"][0]
    );
    assert_eq!(
        env["data"]["item_results"],
        json!([{"identifier": "server 0: Living room", "outcome": "completed"}])
    );
    assert_eq!(
        env["data"]["message"],
        "the connection test of plex passed for server 0: Living room"
    );

    // Jellyfin with no users answering: the test fails, as an item.
    let env = rig
        .err("write_integration_test", json!({"target": "jellyfin"}))
        .await;
    assert_eq!(err_code(&env), "UPSTREAM_REJECTED");
    assert_eq!(env["data"]["outcome"], "rejected");
    assert_eq!(env["data"]["item_results"][0]["outcome"], "rejected");
}

/// Radarr: one `RadarrSettings` per call — the standard instance, and the
/// 4K one when enabled; the *arr answer's `isValid` decides.
#[tokio::test]
async fn radarr_test_sends_each_instance_and_sonarr_reports_why_it_failed() {
    let rig = Rig::start().await;
    let saved = setting(&rig, "radarr");
    let env = rig
        .ok("write_integration_test", json!({"target": "radarr"}))
        .await;
    let posts: Vec<Value> = rig
        .fake
        .requests()
        .iter()
        .filter(|r| r.method == "POST")
        .map(body)
        .collect();
    assert_eq!(
        posts,
        vec![saved["radarr"].clone(), saved["radarr4K"].clone()]
    );
    assert_eq!(env["data"]["item_results"].as_array().unwrap().len(), 2);
    assert_eq!(
        env["data"]["message"],
        "the connection test of radarr passed for radarr and radarr 4K"
    );
    // Sonarr answers with its version: the result names it.
    let env = rig
        .ok("write_integration_test", json!({"target": "sonarr"}))
        .await;
    assert_eq!(
        env["data"]["message"],
        "the connection test of sonarr passed (version 4.0.9.2244)"
    );

    rig.fake.with_data(|d| {
        d.admin.settings.get_mut("sonarr").unwrap()["apiKey"] = json!("");
    });
    let env = rig
        .err("write_integration_test", json!({"target": "sonarr"}))
        .await;
    assert_error(&env, "UPSTREAM_REJECTED", "no API key is saved");
}

/// WhatsApp takes the inner object; mobile takes `{userId, settings}` for
/// the acting user, and is only `accepted`.
#[tokio::test]
async fn whatsapp_and_mobile_bodies() {
    let rig = start_as(Options::default(), Some(fake::ADMIN_USER), None).await;
    let twilio = setting(&rig, "notifications/twilio");
    let mobile = setting(&rig, "notifications/mobile");
    // Alice has no WhatsApp number: Twilio is never reached, the test fails.
    let env = rig
        .err("write_integration_test", json!({"target": "whatsapp"}))
        .await;
    assert_eq!(err_code(&env), "UPSTREAM_REJECTED");
    assert_eq!(
        body(&rig.last("POST", "/api/v1/Tester/whatsapp")),
        twilio["whatsAppSettings"]
    );
    let env = rig
        .ok("write_integration_test", json!({"target": "mobile"}))
        .await;
    assert_eq!(
        body(&rig.last("POST", "/api/v1/Tester/mobile")),
        json!({"userId": user_id(fake::ADMIN_USER), "settings": mobile})
    );
    assert_eq!(env["data"]["outcome"], "accepted");
}

/// Every target: the body is built from the saved section (never from the
/// caller), and what Ombi's answer can prove decides the outcome.
#[tokio::test]
async fn every_target_posts_its_saved_settings() {
    let rig = start_as(Options::default(), Some(fake::ADMIN_USER), None).await;
    let section = |key: &str| setting(&rig, key);
    let agent = |t: &str| section(&format!("notifications/{t}"));
    let server0 = |key: &str| section(key)["servers"][0].clone();
    let me = user_id(fake::ADMIN_USER);
    let mut cases: Vec<(&str, Value, &str)> = [
        "discord",
        "pushbullet",
        "pushover",
        "gotify",
        "ntfy",
        "webhook",
        "mattermost",
        "slack",
        "telegram",
    ]
    .into_iter()
    .map(|t| (t, agent(t), "accepted"))
    .collect();
    cases.extend([
        ("email", agent("email"), "completed"),
        (
            "whatsapp",
            agent("twilio")["whatsAppSettings"].clone(),
            "UPSTREAM_REJECTED",
        ),
        (
            "mobile",
            json!({"userId": me, "settings": agent("mobile")}),
            "accepted",
        ),
        ("newsletter", agent("newsletter"), "accepted"),
        ("plex", server0("plex"), "completed"),
        ("emby", server0("emby"), "completed"),
        ("jellyfin", server0("jellyfin"), "UPSTREAM_REJECTED"),
        ("radarr", section("radarr")["radarr4K"].clone(), "completed"),
        ("sonarr", section("sonarr"), "completed"),
        ("lidarr", section("lidarr"), "completed"),
    ]);
    assert_eq!(
        cases.len(),
        ombi_mcp::definition::params::TEST_TARGETS.len()
    );
    for (target, sent, expected) in cases {
        let env = rig
            .call("write_integration_test", json!({"target": target}))
            .await;
        let got = match env["ok"].as_bool() {
            Some(true) => env["data"]["outcome"].as_str().unwrap_or_default(),
            _ => err_code(&env),
        };
        assert_eq!(got, expected, "{target}: {env}");
        let post = rig.last("POST", &format!("/api/v1/Tester/{target}"));
        assert_eq!(body(&post), sent, "{target}");
        assert_eq!(post.header("UserName"), Some(fake::ADMIN_USER), "{target}");
    }
}
