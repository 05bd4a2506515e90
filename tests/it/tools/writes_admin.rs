//! The administration writes (write_settings_patch, write_integration_test,
//! write_job_run, write_user_manage, write_notification_send,
//! write_retry_remove) in process against the fake Ombi: for every action the
//! exact request Ombi received (method, route, `UserName`, body) and the
//! projected mutation result, validated against the tool's outputSchema by
//! the rig; each "Write-side decision" these tools follow; business failures
//! on HTTP 200; a write whose answer never comes. The last test runs the
//! real daemon at `RUST_LOG=trace` and proves a new user's password reaches
//! no output.

use std::sync::Arc;

use ombi_mcp::definition::BundleSet;
use ombi_mcp::policy::Identity;
use serde_json::{Value, json};

use crate::harness;
use crate::support;
use crate::support::fake_ombi::state::user_id;
use crate::support::fake_ombi::{self as fake, Fault, LoggedRequest, Options};
use crate::support::rig::{Rig, err_code, ok_data};

// ---------------------------------------------------------------- helpers

/// The API key acting as `user` (`UserName`), or as the bare API principal.
async fn start_as(options: Options, user: Option<&str>, timeout_secs: Option<&str>) -> Rig {
    let mut auth = vec![
        ("OMBI_AUTH_MODE", "api_key"),
        ("OMBI_API_KEY", fake::API_KEY),
    ];
    if let Some(t) = timeout_secs {
        auth.push(("OMBI_HTTP_TIMEOUT", t));
    }
    let mut rig = Rig::start_env(options, &auth).await;
    let mut identity = Identity::local(BundleSet::all(), false);
    identity.ombi_user = user.map(str::to_string);
    rig.ctx.identity = Arc::new(identity);
    rig
}

fn body(r: &LoggedRequest) -> Value {
    serde_json::from_str(&r.body).unwrap_or_else(|_| panic!("not JSON: {:?}", r.body))
}

/// Every non-GET request the fake received, as `METHOD /path`.
fn writes(rig: &Rig) -> Vec<String> {
    rig.paths()
        .into_iter()
        .filter(|p| !p.starts_with("GET "))
        .collect()
}

fn setting(rig: &Rig, key: &str) -> Value {
    rig.fake
        .with_data(|d| d.admin.settings.get(key).cloned().expect("section"))
}

async fn revision(rig: &Rig, section: &str) -> String {
    let env = rig.ok("read_settings", json!({"section": section})).await;
    env["data"]["revision"]
        .as_str()
        .expect("revision")
        .to_string()
}

/// UNKNOWN_OUTCOME, not retryable, and the POST reached Ombi exactly once.
fn assert_unknown_and_sent_once(rig: &Rig, env: &Value, path: &str) {
    assert_eq!(err_code(env), "UNKNOWN_OUTCOME", "{env}");
    assert_eq!(env["error"]["retryable"], false);
    assert_eq!(rig.fake.hits("POST", path), 1, "{path}");
}

/// write_settings_patch of `section` with `changes`, at its current revision.
async fn patch(rig: &Rig, section: &str, changes: Value) -> Value {
    let rev = revision(rig, section).await;
    rig.call(
        "write_settings_patch",
        json!({"section": section, "revision": rev, "changes": changes}),
    )
    .await
}

/// The error's code, and its message saying `needle`.
fn assert_error(env: &Value, code: &str, needle: &str) {
    assert_eq!(err_code(env), code, "{env}");
    let message = env["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains(needle), "{needle:?} not in {message:?}");
}

fn warnings(env: &Value) -> String {
    env["warnings"].to_string()
}

// ---------------------------------------------------------------- settings

/// The POST carries the whole object as read (secrets, templates) with only
/// the named leaves changed; the result names the new revision, which is
/// what read_settings now returns.
#[tokio::test]
async fn settings_patch_resends_the_raw_object_with_templates_and_secrets() {
    let rig = Rig::start().await;
    let before = setting(&rig, "notifications/email");
    let rev = revision(&rig, "notifications/email").await;
    let env = patch(
        &rig,
        "notifications/email",
        json!([
            {"name": "/senderName", "value": "Family Ombi"},
            {"name": "/notificationTemplates/1/subject", "value": "Ready to watch"}
        ]),
    )
    .await;
    let post = rig.last("POST", "/api/v1/Settings/notifications/email");
    let mut expected = before.clone();
    expected["senderName"] = json!("Family Ombi");
    expected["notificationTemplates"][1]["subject"] = json!("Ready to watch");
    assert_eq!(
        body(&post),
        expected,
        "the raw object with two leaves changed"
    );
    assert_eq!(post.header("UserName"), None);

    let data = &env["data"];
    assert_eq!(data["outcome"], "completed");
    assert_eq!(
        data["item_results"],
        json!([
            {"identifier": "/senderName", "outcome": "completed"},
            {"identifier": "/notificationTemplates/1/subject", "outcome": "completed"}
        ])
    );
    let new_rev = revision(&rig, "notifications/email").await;
    assert_ne!(new_rev, rev);
    assert!(
        data["message"].as_str().unwrap().ends_with(&new_rev),
        "{data}"
    );
    // The secrets Ombi holds are the ones it had.
    let after = setting(&rig, "notifications/email");
    for secret in ["password", "host", "username", "senderAddress", "port"] {
        assert_eq!(after[secret], before[secret], "{secret}");
    }
}

/// Radarr is posted with its 4K twin exactly as read.
#[tokio::test]
async fn radarr_patch_posts_the_4k_twin_too() {
    let rig = Rig::start().await;
    let before = setting(&rig, "radarr");
    let rev = revision(&rig, "radarr").await;
    rig.ok(
        "write_settings_patch",
        json!({"section": "radarr", "revision": rev,
               "changes": [{"name": "/radarr/minimumAvailability", "value": "InCinemas"}]}),
    )
    .await;
    let sent = body(&rig.last("POST", "/api/v1/Settings/radarr"));
    assert_eq!(sent["radarr4K"], before["radarr4K"]);
    assert_eq!(sent["radarr"]["apiKey"], before["radarr"]["apiKey"]);
    assert_eq!(sent["radarr"]["minimumAvailability"], "InCinemas");
    assert_eq!(
        setting(&rig, "radarr")["radarr4K"],
        before["radarr4K"],
        "the twin survives the save"
    );
}

/// A revision that no longer matches: CONFLICT, and not one write.
#[tokio::test]
async fn stale_revision_is_a_conflict_and_nothing_is_sent() {
    let rig = Rig::start().await;
    let rev = revision(&rig, "vote").await;
    rig.fake.with_data(|d| {
        d.admin.settings.get_mut("vote").unwrap()["movieVoteMax"] = json!(3);
    });
    let env = rig
        .err(
            "write_settings_patch",
            json!({"section": "vote", "revision": rev,
                   "changes": [{"name": "/enabled", "value": false}]}),
        )
        .await;
    assert_eq!(err_code(&env), "CONFLICT");
    assert!(writes(&rig).is_empty(), "{:?}", writes(&rig));
    assert_eq!(setting(&rig, "vote")["enabled"], true);
}

/// Secret leaves and destination addresses are refused before anything is
/// read or sent; so are names that are not there and values of another type.
#[tokio::test]
async fn secret_and_destination_leaves_are_refused_up_front() {
    let rig = Rig::start().await;
    let rev = revision(&rig, "plex").await;
    let before = rig.fake.requests().len();
    for name in [
        "/servers/0/plexAuthToken",
        "/servers/0/ip",
        "/servers/0/port",
        "/servers/0/serverHostname",
        "/installId",
    ] {
        let env = rig
            .err(
                "write_settings_patch",
                json!({"section": "plex", "revision": rev,
                       "changes": [{"name": "/enable", "value": true}, {"name": name, "value": "x"}]}),
            )
            .await;
        assert_eq!(err_code(&env), "INVALID_ARGUMENT", "{name}");
        assert_eq!(env["error"]["field"], "/changes/1/name", "{name}");
    }
    assert_eq!(
        rig.fake.requests().len(),
        before,
        "nothing read, nothing sent"
    );

    for (changes, field) in [
        (
            json!([{"name": "/servers/3/name", "value": "x"}]),
            "/changes/0/name",
        ),
        (
            json!([{"name": "/enable", "value": "yes"}]),
            "/changes/0/value",
        ),
        (
            json!([{"name": "/servers/0/episodeBatchSize", "value": 1.5}]),
            "/changes/0/value",
        ),
        (
            json!([{"name": "/enable", "value": true}, {"name": "/enable", "value": false}]),
            "/changes/1/name",
        ),
    ] {
        let env = rig
            .err(
                "write_settings_patch",
                json!({"section": "plex", "revision": rev, "changes": changes}),
            )
            .await;
        assert_eq!(env["error"]["field"], field, "{changes}");
    }
    assert!(writes(&rig).is_empty(), "{:?}", writes(&rig));
}

/// Ombi forces `wizard` on: the one change that did not stick is reported,
/// the other is completed, the whole is a partial failure; the API key the
/// section holds is re-sent, so API-key calls keep working.
#[tokio::test]
async fn ombi_section_reports_the_value_ombi_overrode() {
    let rig = Rig::start().await;
    let api_key = setting(&rig, "ombi")["apiKey"].clone();
    let env = patch(
        &rig,
        "ombi",
        json!([
            {"name": "/hideRequestsUsers", "value": false},
            {"name": "/wizard", "value": false}
        ]),
    )
    .await;
    assert_eq!(err_code(&env), "PARTIAL_FAILURE");
    let data = &env["data"];
    assert_eq!(data["outcome"], "partial");
    assert_eq!(data["item_results"][0]["outcome"], "completed");
    assert_eq!(data["item_results"][1]["identifier"], "/wizard");
    assert_eq!(data["item_results"][1]["outcome"], "rejected");
    assert_eq!(
        body(&rig.last("POST", "/api/v1/Settings/ombi"))["apiKey"],
        api_key
    );
    assert_eq!(setting(&rig, "ombi")["hideRequestsUsers"], false);
    // Still authenticated with the same key.
    rig.ok("read_settings", json!({"section": "ombi"})).await;
}

/// `jobs` answers `{result: false, message}` for an invalid CRON: a business
/// failure on HTTP 200 with Ombi's message; nothing saved.
#[tokio::test]
async fn jobs_with_an_invalid_cron_are_rejected_with_ombis_message() {
    let rig = Rig::start().await;
    let env = patch(
        &rig,
        "jobs",
        json!([{"name": "/sonarrSync", "value": "every tuesday"}]),
    )
    .await;
    assert_error(
        &env,
        "UPSTREAM_REJECTED",
        "SonarrSync does not have a valid CRON Expression",
    );
    assert_eq!(env["error"]["http_status"], 200);
    assert_eq!(setting(&rig, "jobs")["sonarrSync"], "0 10 */1 ? * *");
}

/// Enabled Emby settings are probed by Ombi before saving: a failure is a
/// 500 and nothing is saved, which the error says.
#[tokio::test]
async fn emby_probe_failure_saves_nothing_and_says_so() {
    let rig = Rig::start().await;
    rig.fake.with_data(|d| {
        d.writes.down.insert("emby".into());
    });
    let before = setting(&rig, "emby");
    let env = patch(
        &rig,
        "emby",
        json!([{"name": "/servers/0/name", "value": "Attic"}]),
    )
    .await;
    assert_error(&env, "UPSTREAM_REJECTED", "nothing was saved");
    assert_eq!(setting(&rig, "emby"), before);
}

/// Features: one call to the per-feature switch per change, names exact
/// (case-sensitive); an unknown name is refused before anything is sent.
#[tokio::test]
async fn features_use_the_per_feature_switch_with_exact_names() {
    let rig = Rig::start().await;
    let env = patch(
        &rig,
        "features",
        json!([{"name": "movie4krequests", "value": true}]),
    )
    .await;
    assert_eq!(env["error"]["field"], "/changes/0/name");
    assert!(writes(&rig).is_empty());

    let on: Vec<(String, bool)> = rig.fake.with_data(|d| d.features.clone());
    let (name, was) = on[0].clone();
    let env = patch(&rig, "features", json!([{"name": name, "value": !was}])).await;
    let route = if was {
        "/api/v2/Features/disable"
    } else {
        "/api/v2/Features/enable"
    };
    let post = rig.last("POST", route);
    assert_eq!(body(&post), json!({"name": name, "enabled": !was}));
    assert_eq!(writes(&rig), vec![format!("POST {route}")]);
    assert_eq!(env["data"]["outcome"], "completed");
    let new_rev = revision(&rig, "features").await;
    assert!(
        env["data"]["message"].as_str().unwrap().ends_with(&new_rev),
        "{env}"
    );
    assert_eq!(rig.fake.with_data(|d| d.features[0].1), !was);
}

/// The save was applied, the answer never came: UNKNOWN_OUTCOME, not
/// retryable, and the POST was sent exactly once.
#[tokio::test]
async fn settings_save_without_an_answer_is_unknown_and_sent_once() {
    let rig = start_as(Options::default(), None, Some("1")).await;
    let rev = revision(&rig, "issues").await;
    rig.fake
        .add_fault(Fault::on("POST", "/api/v1/Settings/Issues").apply_then_hang());
    let env = rig
        .err(
            "write_settings_patch",
            json!({"section": "issues", "revision": rev,
                   "changes": [{"name": "/enabled", "value": false}]}),
        )
        .await;
    assert_unknown_and_sent_once(&rig, &env, "/api/v1/Settings/Issues");
}

// ---------------------------------------------------------------- testers

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
    assert_eq!(writes(&rig), vec!["POST /api/v1/Tester/discord"]);
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

// ---------------------------------------------------------------- jobs

/// Ombi answers `true` whether it started the job or skipped it because it
/// was running: `accepted` both times, never `completed`.
#[tokio::test]
async fn job_run_is_accepted_even_when_ombi_skipped_it() {
    let rig = Rig::start().await;
    let env = rig
        .ok("write_job_run", json!({"job": "plexuserimporter"}))
        .await;
    assert_eq!(env["data"]["outcome"], "accepted");
    assert_eq!(writes(&rig), vec!["POST /api/v1/Job/plexuserimporter"]);
    assert_eq!(
        rig.fake.with_data(|d| d.writes.triggered_jobs.clone()),
        vec!["IPlexUserImporter"]
    );

    rig.fake.with_data(|d| {
        d.writes.running_jobs.insert("IPlexUserImporter".into());
    });
    let env = rig
        .ok("write_job_run", json!({"job": "plexuserimporter"}))
        .await;
    assert_eq!(env["data"]["outcome"], "accepted");
    assert!(
        env["data"]["message"]
            .as_str()
            .unwrap()
            .contains("already running"),
        "{env}"
    );
    assert_eq!(
        rig.fake.with_data(|d| d.writes.triggered_jobs.len()),
        1,
        "skipped"
    );
    // The Plex content job goes to the scheduler directly: no skip to claim.
    let env = rig
        .ok("write_job_run", json!({"job": "plexcontentcacher"}))
        .await;
    assert!(
        !env["data"]["message"].as_str().unwrap().contains("skipped"),
        "{env}"
    );

    for job in ["clearmediaserverdata", "autodeleterequests", "update"] {
        let env = rig.err("write_job_run", json!({"job": job})).await;
        assert_eq!(env["error"]["field"], "/job");
    }
    assert_eq!(writes(&rig).len(), 3);
}

// ---------------------------------------------------------------- users

/// A PowerUser named `pat`, in the login table and the Identity table.
fn with_power_user() -> Options {
    let mut o = Options::default();
    o.users.push((
        "pat".into(),
        "pats-Passw0rd".into(),
        vec!["PowerUser".into()],
    ));
    o.data
        .admin
        .users
        .push(support::fake_ombi::state_admin::user_view_model(
            "pat",
            None,
            None,
            "US",
            &["PowerUser"],
        ));
    o
}

/// Create sends `claims` (empty when no roles) and the password; Ombi
/// returns no id, so the new user is found by name.
#[tokio::test]
async fn create_sends_claims_and_password_and_resolves_the_id() {
    let rig = start_as(Options::default(), Some(fake::ADMIN_USER), None).await;
    let env = rig
        .ok(
            "write_user_manage",
            json!({"action": "create", "user": {"user_name": "dave", "password": "Dave-Passw0rd!",
                   "alias": "Dave", "movie_request_limit": 3}}),
        )
        .await;
    let post = rig.last("POST", "/api/v1/Identity");
    assert_eq!(post.header("UserName"), Some(fake::ADMIN_USER));
    assert_eq!(
        body(&post),
        json!({"userName": "dave", "claims": [], "password": "Dave-Passw0rd!", "alias": "Dave",
               "movieRequestLimit": 3})
    );
    let data = ok_data(&env);
    assert_eq!(data["outcome"], "completed");
    assert_eq!(data["user_id"], user_id("dave"));
    assert!(!env.to_string().contains("Dave-Passw0rd!"));

    let env = rig
        .ok(
            "write_user_manage",
            json!({"action": "create", "user": {"user_name": "erin", "password": "Erin-Passw0rd!",
                   "roles": ["RequestMovie", "RequestTv"]}}),
        )
        .await;
    assert_eq!(
        body(&rig.last("POST", "/api/v1/Identity"))["claims"],
        json!([{"value": "RequestMovie", "enabled": true}, {"value": "RequestTv", "enabled": true}])
    );
    assert_eq!(env["data"]["user_id"], user_id("erin"));
}

/// What Ombi would ignore or fail on is refused before anything is sent.
#[tokio::test]
async fn user_arguments_ombi_cannot_honour_are_refused_up_front() {
    let rig = Rig::start().await;
    for (args, field) in [
        (
            json!({"action": "create", "user": {"user_name": "x"}}),
            "/user/password",
        ),
        (
            json!({"action": "create", "user": {"user_name": "x", "password": "p", "language": "fr"}}),
            "/user/language",
        ),
        (
            json!({"action": "create", "user": {"user_name": "x", "password": "p",
                   "movie_request_limit_type": "day"}}),
            "/user/movie_request_limit_type",
        ),
        (
            json!({"action": "update", "user_id": "u", "user": {"user_name": "y"}}),
            "/user/user_name",
        ),
        (
            json!({"action": "update", "user_id": "u", "user": {"password": "p"}}),
            "/user/password",
        ),
    ] {
        let env = rig.err("write_user_manage", args.clone()).await;
        assert_eq!(err_code(&env), "INVALID_ARGUMENT", "{args}");
        assert_eq!(env["error"]["field"], field, "{args}");
    }
    // A password of the wrong type is not echoed back.
    let env = rig
        .err(
            "write_user_manage",
            json!({"action": "create", "user": {"user_name": "x", "password": 73519864}}),
        )
        .await;
    assert_eq!(env["error"]["field"], "/user/password");
    assert!(!env.to_string().contains("73519864"), "{env}");
    assert!(rig.fake.requests().is_empty());
}

/// A refusal carrying the password back never shows it; a taken name is a
/// CONFLICT.
#[tokio::test]
async fn create_refusals_never_show_the_password() {
    let rig = Rig::start().await;
    let env = rig
        .err(
            "write_user_manage",
            json!({"action": "create", "user": {"user_name": "bob", "password": "Bobs-New-Passw0rd"}}),
        )
        .await;
    assert_eq!(err_code(&env), "CONFLICT");
    rig.fake.add_fault(
        Fault::on("POST", "/api/v1/Identity").business(
            json!({"successful": false, "errors": ["'Sekr1t-Echoed-Back' is too common"]}),
        ),
    );
    let env = rig
        .err(
            "write_user_manage",
            json!({"action": "create", "user": {"user_name": "zed", "password": "Sekr1t-Echoed-Back"}}),
        )
        .await;
    assert_eq!(err_code(&env), "UPSTREAM_REJECTED");
    assert!(!env.to_string().contains("Sekr1t-Echoed-Back"), "{env}");
}

/// Update is a read-modify-write of the whole record: the given fields
/// changed, the current enabled roles re-sent (only those), no password.
#[tokio::test]
async fn update_keeps_roles_unless_given_and_resends_the_record() {
    let rig = Rig::start().await;
    let bob = user_id(fake::PLAIN_USER);
    let record = rig.fake.with_data(|d| {
        d.admin
            .users
            .iter()
            .find(|u| u["id"] == bob)
            .cloned()
            .unwrap()
    });
    let env = rig
        .ok(
            "write_user_manage",
            json!({"action": "update", "user_id": bob, "user": {"alias": "Bobby", "episode_request_limit": 20,
                   "episode_request_limit_type": "month"}}),
        )
        .await;
    let put = body(&rig.last("PUT", "/api/v1/Identity"));
    let mut expected = support::fake_ombi::state_writes::user_view(&record);
    expected["alias"] = json!("Bobby");
    expected["episodeRequestLimit"] = json!(20);
    expected["episodeRequestLimitType"] = json!(2);
    let enabled: Vec<Value> = record["claims"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["enabled"] == true)
        .cloned()
        .collect();
    assert_eq!(enabled.len(), 2);
    expected["claims"] = json!(enabled);
    assert_eq!(put, expected);
    assert_eq!(env["data"]["user_id"], bob);
    let roles = |rig: &Rig| {
        rig.fake.with_data(|d| {
            support::fake_ombi::state_writes::row_roles(
                d.admin.users.iter().find(|u| u["id"] == bob).unwrap(),
            )
        })
    };
    assert_eq!(roles(&rig).len(), 2);

    rig.ok(
        "write_user_manage",
        json!({"action": "update", "user_id": bob, "user": {"roles": ["RequestMusic"]}}),
    )
    .await;
    assert_eq!(roles(&rig), vec!["RequestMusic"]);
}

/// A limit period Ombi shows as Week may be an unset (rolling) one, which
/// the update cannot keep: warned.
#[tokio::test]
async fn update_warns_about_the_week_read_for_an_unset_period() {
    let rig = Rig::start().await;
    rig.ok(
        "write_user_manage",
        json!({"action": "create", "user": {"user_name": "fay", "password": "Fay-Passw0rd!", "movie_request_limit": 2}}),
    )
    .await;
    let env = rig
        .ok(
            "write_user_manage",
            json!({"action": "update", "user_id": user_id("fay"), "user": {"alias": "F"}}),
        )
        .await;
    assert!(warnings(&env).contains("the movie limit period"), "{env}");
    assert_eq!(
        body(&rig.last("PUT", "/api/v1/Identity"))["movieRequestLimitType"],
        1
    );
}

/// A PowerUser may change a plain user (only enabled roles are sent, so the
/// record's disabled Admin claim is not), never an Admin: FORBIDDEN saying why.
#[tokio::test]
async fn power_user_changes_plain_users_but_not_admins() {
    let rig = start_as(with_power_user(), Some("pat"), None).await;
    rig.ok(
        "write_user_manage",
        json!({"action": "update", "user_id": user_id("bob"), "user": {"alias": "B"}}),
    )
    .await;
    let env = rig
        .err(
            "write_user_manage",
            json!({"action": "update", "user_id": user_id("alice"), "user": {"alias": "A"}}),
        )
        .await;
    assert_error(&env, "FORBIDDEN", "only an Admin");
}

/// Unknown ids: update reads first (Ombi answers 500) and sends nothing;
/// delete is refused by Ombi with a message → NOT_FOUND.
#[tokio::test]
async fn unknown_users_are_not_found_and_delete_removes_the_user() {
    let rig = Rig::start().await;
    let env = rig
        .err(
            "write_user_manage",
            json!({"action": "update", "user_id": "no-such-user", "user": {"alias": "x"}}),
        )
        .await;
    assert_eq!(err_code(&env), "NOT_FOUND");
    assert!(writes(&rig).is_empty());
    let env = rig
        .err(
            "write_user_manage",
            json!({"action": "delete", "user_id": "no-such-user"}),
        )
        .await;
    assert_eq!(err_code(&env), "NOT_FOUND");

    let carol = user_id("carol");
    let env = rig
        .ok(
            "write_user_manage",
            json!({"action": "delete", "user_id": carol}),
        )
        .await;
    assert_eq!(
        rig.last("DELETE", "/api/v1/Identity/").path,
        format!("/api/v1/Identity/{carol}")
    );
    assert_eq!(env["data"]["outcome"], "completed");
    assert_eq!(env["data"]["user_id"], carol);
    assert!(
        rig.fake
            .with_data(|d| d.admin.users.iter().all(|u| u["id"] != carol))
    );
}

// ---------------------------------------------------------------- sending

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
    assert!(writes(&rig).is_empty());

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
    assert!(writes(&rig).is_empty());

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

// ---------------------------------------------------------------- retry queue

/// By queue id; an unknown one (Ombi: 500) is NOT_FOUND.
#[tokio::test]
async fn retry_remove_takes_the_queue_id() {
    let rig = Rig::start().await;
    let env = rig.ok("write_retry_remove", json!({"queue_id": 7})).await;
    assert_eq!(writes(&rig), vec!["DELETE /api/v1/RequestRetry/7"]);
    assert_eq!(
        env["data"],
        json!({"kind": "mutation", "outcome": "completed", "queue_id": 7,
               "message": "removed entry 7 from the retry queue; its request stays as it is"})
    );
    assert!(rig.fake.with_data(|d| d.requests.retry.is_empty()));
    let env = rig.err("write_retry_remove", json!({"queue_id": 7})).await;
    assert_eq!(err_code(&env), "NOT_FOUND");
}

// ---------------------------------------------------------------- secrets in logs

/// The real daemon at `RUST_LOG=trace` (rmcp's request logging included, if
/// it were not capped), reached over its socket: a password given to
/// `write_user_manage create` reaches Ombi and appears nowhere in the
/// daemon's output (stdout and stderr), nor in the result; the audit
/// record of the call is there.
#[tokio::test(flavor = "multi_thread")]
async fn a_new_users_password_reaches_no_daemon_output_at_trace() {
    use rmcp::model::CallToolRequestParams;
    const PASSWORD: &str = "Pw-7c1e5a9d-NeverLogged";
    let fake = fake::FakeOmbi::start(Options::default()).await;
    let d = harness::Daemon::start(harness::DaemonOpts {
        env: vec![
            ("OMBI_URL".into(), fake.url.clone()),
            ("OMBI_AUTH_MODE".into(), "api_key".into()),
            ("OMBI_API_KEY".into(), fake::API_KEY.into()),
            ("OMBI_USER_NAME".into(), fake::ADMIN_USER.into()),
            (
                "OMBI_BUNDLES".into(),
                "core,moderation,administration".into(),
            ),
            ("RUST_LOG".into(), "trace".into()),
        ],
        ..harness::DaemonOpts::default()
    });
    let client = harness::connect(&d).await;
    let mut call = CallToolRequestParams::new("write_user_manage");
    call.arguments = json!({"action": "create", "user": {"user_name": "gina", "password": PASSWORD,
                            "email_address": "gina@example.net"}})
    .as_object()
    .cloned();
    let result = client.call_tool(call).await.expect("a tool result");
    let sc = result.structured_content.expect("structuredContent");
    assert_eq!(sc["ok"], true, "{sc}");
    assert!(!format!("{sc}{:?}", result.content).contains(PASSWORD));
    client.cancel().await.unwrap();

    // Ombi got it: the guarantee is about everything else.
    assert!(
        fake.requests()
            .iter()
            .any(|r| r.method == "POST" && r.body.contains(PASSWORD))
    );
    let logs = d.wait_log("audit");
    assert!(
        logs.contains("TRACE") || logs.contains("DEBUG"),
        "the daemon did not log at trace:\n{logs}"
    );
    assert!(
        logs.contains("write_user_manage"),
        "no audit record:\n{logs}"
    );
    assert!(
        !logs.contains(PASSWORD),
        "the password is in the daemon's output"
    );
    assert!(
        !logs.contains("Pw-7c1e5a9d"),
        "part of the password is in the daemon's output"
    );
}
