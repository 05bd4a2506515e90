//! The Ombi session against the fake over loopback: JWT login, proactive
//! renewal, one renewal on 401, single-flight logins, API-key headers.

use std::sync::Arc;
use std::time::Duration;

use ombi_mcp::contract::ErrorCode;
use ombi_mcp::upstream::Route;
use serde::Deserialize;

use crate::support::client;
use crate::support::fake_ombi::{
    self, ADMIN_PASSWORD, ADMIN_USER, API_KEY, FakeOmbi, Fault, Options,
};

#[derive(Deserialize, Debug)]
#[serde(rename_all = "camelCase")]
struct Me {
    user_name: String,
}

async fn me(
    up: &ombi_mcp::upstream::Upstream,
    acting: Option<&str>,
) -> Result<String, ombi_mcp::contract::ToolError> {
    up.get_json::<Me>(acting, Route::get("api/v1/Identity"))
        .await
        .map(|m| m.expect("a user").user_name)
}

/// The method and path of each request, in order.
fn sequence(fake: &FakeOmbi) -> Vec<String> {
    fake.requests()
        .iter()
        .map(|r| format!("{} {}", r.method, r.path))
        .collect()
}

#[tokio::test]
async fn logs_in_once_for_many_calls() {
    let fake = FakeOmbi::start(Options::default()).await;
    let up = client::jwt(&fake.url, ADMIN_USER, ADMIN_PASSWORD);
    for _ in 0..20 {
        assert_eq!(me(&up, None).await.unwrap(), ADMIN_USER);
    }
    assert_eq!(fake.logins(), 1);
    assert_eq!(up.logins(), 1);
    let reqs = fake.requests();
    let login: serde_json::Value = serde_json::from_str(&reqs[0].body).unwrap();
    assert_eq!(
        login,
        serde_json::json!({"username": ADMIN_USER, "password": ADMIN_PASSWORD, "rememberMe": false})
    );
    for r in &reqs[1..] {
        assert!(r.header("authorization").unwrap().starts_with("Bearer eyJ"));
        assert!(r.header("apikey").is_none());
    }
}

#[tokio::test]
async fn renews_before_expiry_without_a_401() {
    let fake = FakeOmbi::start(Options::default()).await;
    fake.set_token_lifetime(Duration::from_secs(3));
    let up = client::jwt(&fake.url, ADMIN_USER, ADMIN_PASSWORD);
    me(&up, None).await.unwrap();
    // Within the last 10 % of the lifetime (or past it): renew first.
    tokio::time::sleep(Duration::from_millis(2800)).await;
    me(&up, None).await.unwrap();
    assert_eq!(
        sequence(&fake),
        [
            "POST /api/v1/Token",
            "GET /api/v1/Identity",
            "POST /api/v1/Token",
            "GET /api/v1/Identity"
        ]
    );
}

#[tokio::test]
async fn a_401_renews_once_and_retries_once() {
    let fake = FakeOmbi::start(Options::default()).await;
    let up = client::jwt(&fake.url, ADMIN_USER, ADMIN_PASSWORD);
    me(&up, None).await.unwrap();
    fake.invalidate_tokens();
    assert_eq!(me(&up, None).await.unwrap(), ADMIN_USER);
    assert_eq!(
        sequence(&fake),
        [
            "POST /api/v1/Token",
            "GET /api/v1/Identity",
            "GET /api/v1/Identity",
            "POST /api/v1/Token",
            "GET /api/v1/Identity"
        ]
    );
}

#[tokio::test]
async fn a_second_401_is_authentication_failed_without_a_loop() {
    let fake = FakeOmbi::start(Options::default()).await;
    fake.add_fault(Fault::on("GET", "/api/v1/Identity").status(401));
    let up = client::jwt(&fake.url, ADMIN_USER, ADMIN_PASSWORD);
    let e = me(&up, None).await.unwrap_err();
    assert_eq!(e.code, ErrorCode::AuthenticationFailed);
    assert_eq!(e.http_status, Some(401));
    assert_eq!(fake.hits("GET", "/api/v1/Identity"), 2);
    assert_eq!(fake.logins(), 2);
}

#[tokio::test]
async fn wrong_password_is_authentication_failed() {
    let fake = FakeOmbi::start(Options::default()).await;
    let up = client::jwt(&fake.url, ADMIN_USER, "not-the-password-42");
    // (pause before the call, logins so far): a failed login starts a
    // backoff (0.5 s, then 1 s, ...) in which calls fail at once without
    // a login, so a wrong password never hammers Ombi (or trips a lockout).
    for (pause, logins) in [(0, 1), (0, 1), (600, 2), (0, 2), (300, 2), (1000, 3)] {
        tokio::time::sleep(Duration::from_millis(pause)).await;
        let e = me(&up, None).await.unwrap_err();
        assert_eq!(e.code, ErrorCode::AuthenticationFailed);
        assert_eq!(e.http_status, Some(401));
        assert!(!e.retryable);
        assert!(!e.message.contains("not-the-password-42"), "{}", e.message);
        // Never a loop, and nothing but logins sent.
        assert_eq!(fake.logins(), logins);
        assert_eq!(fake.requests().len(), logins);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn fifty_concurrent_calls_at_expiry_share_one_login() {
    let fake = FakeOmbi::start(Options::default()).await;
    fake.set_token_lifetime(Duration::from_secs(1));
    let up = Arc::new(client::jwt(&fake.url, ADMIN_USER, ADMIN_PASSWORD));
    me(&up, None).await.unwrap();
    tokio::time::sleep(Duration::from_millis(1100)).await;
    // The renewed token lives long: a task delayed on a loaded machine must
    // not find it due for renewal again.
    fake.set_token_lifetime(Duration::from_secs(3600));
    let tasks: Vec<_> = (0..50)
        .map(|_| {
            let up = up.clone();
            tokio::spawn(async move { me(&up, None).await })
        })
        .collect();
    for t in tasks {
        assert_eq!(t.await.unwrap().unwrap(), ADMIN_USER);
    }
    assert_eq!(
        fake.logins(),
        2,
        "one initial login and exactly one renewal"
    );
    assert_eq!(
        fake.hits("GET", "/api/v1/Identity"),
        51,
        "no call needed a 401 retry"
    );
}

#[tokio::test]
async fn api_key_sends_the_header_never_the_query() {
    let fake = FakeOmbi::start(Options::default()).await;
    let up = client::api_key(&fake.url, API_KEY, None);
    assert_eq!(me(&up, None).await.unwrap(), "Api");
    let r = fake.requests().pop().unwrap();
    assert_eq!(r.header("apikey"), Some(API_KEY));
    assert!(r.query.is_none());
    assert!(
        r.header("username").is_none(),
        "no UserName unless configured"
    );
    assert!(r.header("authorization").is_none());
    // The acting user of a peer is sent per call.
    assert_eq!(me(&up, Some("bob")).await.unwrap(), "bob");
    assert_eq!(
        fake.requests().pop().unwrap().header("username"),
        Some("bob")
    );
    assert_eq!(up.logins(), 0);
    assert_eq!(fake.logins(), 0);
}

#[tokio::test]
async fn api_key_user_name_from_config_and_per_peer() {
    let fake = FakeOmbi::start(Options::default()).await;
    let up = client::api_key(&fake.url, API_KEY, Some("bob"));
    assert_eq!(me(&up, None).await.unwrap(), "bob");
    assert_eq!(
        fake.requests().pop().unwrap().header("username"),
        Some("bob")
    );
    assert_eq!(me(&up, Some("alice")).await.unwrap(), "alice");
    assert_eq!(
        me(&up, Some("")).await.unwrap(),
        "bob",
        "an empty acting user is never sent"
    );
    let e = me(&up, Some("mallory")).await.unwrap_err();
    assert_eq!(e.code, ErrorCode::AuthenticationFailed);
    assert!(e.message.contains("Invalid User"), "{}", e.message);
}

#[tokio::test]
async fn wrong_api_key_is_authentication_failed_on_anonymous_routes_too() {
    let fake = FakeOmbi::start(Options::default()).await;
    let bad = "ffffffffffffffffffffffffffffffff";
    let up = client::api_key(&fake.url, bad, None);
    let e = up
        .get_json::<i64>(None, Route::get("api/v1/Status"))
        .await
        .unwrap_err();
    assert_eq!(
        (e.code, e.http_status),
        (ErrorCode::AuthenticationFailed, Some(401))
    );
    assert!(
        e.message.contains("API key") && !e.message.contains(bad),
        "{}",
        e.message
    );
    // The key is compared case-insensitively, as Ombi does.
    let upper = client::api_key(&fake.url, &API_KEY.to_uppercase(), None);
    assert_eq!(
        upper
            .get_json::<i64>(None, Route::get("api/v1/Status"))
            .await
            .unwrap(),
        Some(200)
    );
}

#[tokio::test]
async fn probe_summarizes_without_secrets() {
    let fake = FakeOmbi::start(Options::default()).await;
    let up = client::jwt(&fake.url, ADMIN_USER, ADMIN_PASSWORD);
    let s = up.probe().await.unwrap();
    assert!(
        s.contains("logged in") && s.contains(ADMIN_USER) && s.contains("4.59.3"),
        "{s}"
    );
    assert!(!s.contains(ADMIN_PASSWORD) && !s.contains("eyJ"), "{s}");
    assert_eq!(fake.logins(), 1);
    let dbg = format!("{up:?}");
    assert!(
        !dbg.contains(ADMIN_PASSWORD) && !dbg.contains("eyJ"),
        "{dbg}"
    );

    let up = client::api_key(&fake.url, API_KEY, None);
    let s = up.probe().await.unwrap();
    assert!(s.contains("Api") && !s.contains(API_KEY), "{s}");
    assert!(!format!("{up:?}").contains(API_KEY));
    let bad = client::jwt(&fake.url, ADMIN_USER, "wrong");
    assert_eq!(
        bad.probe().await.unwrap_err().code,
        ErrorCode::AuthenticationFailed
    );
    let _ = fake_ombi::PLAIN_USER;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_calls_with_a_wrong_password_share_one_failed_login() {
    let fake = FakeOmbi::start(Options::default()).await;
    // A slow login, so every call is waiting on it.
    fake.add_fault(Fault::on("POST", "/api/v1/Token").delay(Duration::from_millis(300)));
    let up = Arc::new(client::jwt(&fake.url, ADMIN_USER, "wrong-password"));
    let tasks: Vec<_> = (0..20)
        .map(|_| {
            let up = up.clone();
            tokio::spawn(async move { me(&up, None).await })
        })
        .collect();
    for t in tasks {
        assert_eq!(
            t.await.unwrap().unwrap_err().code,
            ErrorCode::AuthenticationFailed
        );
    }
    assert_eq!(fake.logins(), 1);
}

#[tokio::test]
async fn a_write_timing_out_during_login_was_never_sent() {
    let fake = FakeOmbi::start(Options::default()).await;
    fake.add_fault(Fault::on("POST", "/api/v1/Token").delay(Duration::from_secs(3)));
    let up = client::jwt_timeout(&fake.url, ADMIN_USER, ADMIN_PASSWORD, 1);
    let e = up
        .write::<bool>(
            None,
            Route::post("api/v1/Issues/status")
                .json(&serde_json::json!({"issueId": 1, "status": 2})),
        )
        .await
        .unwrap_err();
    assert_eq!((e.code, e.retryable), (ErrorCode::Timeout, true), "{e:?}");
    assert_eq!(fake.hits("POST", "/api/v1/Issues/status"), 0);
}
