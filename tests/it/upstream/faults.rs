//! Every fault kind → its contract error, sanitized; the retry policy
//! (reads once on 429/503/drop, writes never); timeouts.

use std::time::Duration;

use ombi_mcp::contract::{ErrorCode, ToolError};
use ombi_mcp::upstream::{RequestEngineResult, Route, Upstream};
use serde_json::json;

use crate::support::client;
use crate::support::fake_ombi::faults::NASTY_FRAGMENTS;
use crate::support::fake_ombi::{ADMIN_PASSWORD, ADMIN_USER, API_KEY, FakeOmbi, Fault, Options};

const COUNT: &str = "/api/v1/Request/count";
const APPROVE: &str = "/api/v1/Request/movie/approve";

async fn read(up: &Upstream) -> Result<Option<serde_json::Value>, ToolError> {
    up.get_json(None, Route::get("api/v1/Request/count")).await
}

async fn approve(up: &Upstream) -> Result<RequestEngineResult, ToolError> {
    up.write(
        None,
        Route::post("api/v1/Request/movie/approve").json(&json!({"id": 2, "is4K": false})),
    )
    .await
}

/// The approve fails with UnknownOutcome, not retryable, and reached Ombi once.
async fn approve_is_unknown_outcome_sent_once(fake: &FakeOmbi, up: &Upstream) {
    let e = approve(up).await.unwrap_err();
    let got = (e.code, e.retryable);
    assert_eq!(got, (ErrorCode::UnknownOutcome, false), "{e:?}");
    assert_eq!(fake.hits("POST", APPROVE), 1);
}

fn assert_clean(e: &ToolError, extra: &[&str]) {
    for bad in NASTY_FRAGMENTS.iter().chain(extra) {
        assert!(!e.message.contains(bad), "{bad:?} leaked: {}", e.message);
    }
}

async fn jwt_fake() -> (FakeOmbi, Upstream) {
    let fake = FakeOmbi::start(Options::default()).await;
    let up = client::jwt(&fake.url, ADMIN_USER, ADMIN_PASSWORD);
    (fake, up)
}

#[tokio::test]
async fn each_status_fault_maps_to_its_code_with_status_and_clean_message() {
    let (fake, up) = jwt_fake().await;
    use ErrorCode::{Conflict, Forbidden, NotFound, RateLimited};
    use ErrorCode::{UpstreamRejected as Rejected, UpstreamSchemaMismatch as Mismatch};
    let count = || Fault::on("GET", COUNT);
    // (fault, expected code, status, retryable, hits on a read)
    let cases: Vec<(Fault, ErrorCode, u16, bool, usize)> = vec![
        (count().nasty_500(), Rejected, 500, false, 1),
        (count().problem_400(), Rejected, 400, false, 1),
        (count().status(403), Forbidden, 403, false, 1),
        (count().status(404), NotFound, 404, false, 1),
        (count().status(409), Conflict, 409, false, 1),
        (count().rate_limited(1), RateLimited, 429, true, 2),
        (count().unavailable(), Rejected, 503, true, 2),
        (count().html_200(), Mismatch, 200, false, 1),
        (
            count().respond(200, Some("application/json"), "{\"pending\":"),
            Mismatch,
            200,
            false,
            1,
        ),
    ];
    for (fault, code, status, retryable, hits) in cases {
        fake.clear_faults();
        let before = fake.hits("GET", COUNT);
        fake.add_fault(fault.clone());
        let e = read(&up).await.unwrap_err();
        assert_eq!(
            (e.code, e.http_status, e.retryable),
            (code, Some(status), retryable),
            "{fault:?}: {e:?}"
        );
        assert_eq!(fake.hits("GET", COUNT) - before, hits, "{fault:?}");
        assert_clean(&e, &[ADMIN_PASSWORD, "Sup3rSecret", "<"]);
        if code == ErrorCode::RateLimited {
            assert_eq!(e.retry_after_seconds, Some(1));
        }
    }
    fake.clear_faults();
    fake.add_fault(Fault::on("GET", COUNT).no_content());
    assert_eq!(read(&up).await.unwrap(), None);
}

#[tokio::test]
async fn the_500_message_keeps_the_gist_only() {
    let (fake, up) = jwt_fake().await;
    fake.add_fault(Fault::on("GET", COUNT).nasty_500());
    let e = read(&up).await.unwrap_err();
    assert!(
        e.message.contains("Object reference not set"),
        "{}",
        e.message
    );
    assert!(e.message.chars().count() < 500);
}

#[tokio::test]
async fn configured_secrets_and_the_live_jwt_never_reach_a_message() {
    let (fake, up) = jwt_fake().await;
    read(&up).await.unwrap();
    let bearer = fake
        .requests()
        .pop()
        .unwrap()
        .header("authorization")
        .unwrap()
        .to_string();
    let jwt = bearer.trim_start_matches("Bearer ").to_string();
    let body =
        json!({"error": format!("login {ADMIN_USER}:{ADMIN_PASSWORD} with token={jwt} and {jwt}")})
            .to_string();
    fake.add_fault(Fault::on("GET", COUNT).respond(500, Some("application/json"), &body));
    let e = read(&up).await.unwrap_err();
    assert_clean(&e, &[ADMIN_PASSWORD, &jwt, &jwt[..40]]);

    let key_up = client::api_key(&fake.url, API_KEY, None);
    let body = json!({"error": format!("bad key {API_KEY}")}).to_string();
    fake.clear_faults();
    fake.add_fault(Fault::on("GET", COUNT).respond(500, Some("application/json"), &body));
    assert_clean(&read(&key_up).await.unwrap_err(), &[API_KEY]);
}

#[tokio::test]
async fn reads_retry_once_on_429_and_503_then_succeed() {
    let (fake, up) = jwt_fake().await;
    fake.add_fault(Fault::on("GET", COUNT).rate_limited(1).times(1));
    let started = std::time::Instant::now();
    assert!(read(&up).await.unwrap().is_some());
    assert!(
        started.elapsed() >= Duration::from_secs(1),
        "Retry-After honoured"
    );
    assert_eq!(fake.hits("GET", COUNT), 2);
    fake.add_fault(Fault::on("GET", COUNT).unavailable().times(1));
    assert!(read(&up).await.unwrap().is_some());
    assert_eq!(fake.hits("GET", COUNT), 4);
}

#[tokio::test]
async fn a_retry_after_beyond_the_deadline_is_not_waited_for() {
    let fake = FakeOmbi::start(Options::default()).await;
    let up = client::jwt_timeout(&fake.url, ADMIN_USER, ADMIN_PASSWORD, 2);
    fake.add_fault(Fault::on("GET", COUNT).rate_limited(30));
    let e = read(&up).await.unwrap_err();
    assert_eq!(
        (e.code, e.retry_after_seconds),
        (ErrorCode::RateLimited, Some(30))
    );
    assert_eq!(fake.hits("GET", COUNT), 1);
}

#[tokio::test]
async fn writes_are_never_replayed() {
    let (fake, up) = jwt_fake().await;
    for fault in [
        Fault::on("POST", APPROVE).unavailable(),
        Fault::on("POST", APPROVE).rate_limited(1),
    ] {
        fake.clear_faults();
        let before = fake.hits("POST", APPROVE);
        fake.add_fault(fault);
        let e = approve(&up).await.unwrap_err();
        assert!(
            matches!(e.code, ErrorCode::UpstreamRejected | ErrorCode::RateLimited),
            "{e:?}"
        );
        assert_eq!(fake.hits("POST", APPROVE) - before, 1);
    }
}

#[tokio::test]
async fn a_write_that_times_out_is_unknown_outcome_sent_once() {
    let fake = FakeOmbi::start(Options::default()).await;
    let up = client::jwt_timeout(&fake.url, ADMIN_USER, ADMIN_PASSWORD, 1);
    up.probe().await.unwrap();
    fake.add_fault(Fault::on("POST", APPROVE).delay(Duration::from_secs(3)));
    let started = std::time::Instant::now();
    approve_is_unknown_outcome_sent_once(&fake, &up).await;
    assert!(started.elapsed() < Duration::from_millis(2500));
}

#[tokio::test]
async fn a_read_that_times_out_is_timeout_and_retryable() {
    let fake = FakeOmbi::start(Options::default()).await;
    let up = client::jwt_timeout(&fake.url, ADMIN_USER, ADMIN_PASSWORD, 1);
    fake.add_fault(Fault::on("GET", COUNT).delay(Duration::from_secs(3)));
    let e = read(&up).await.unwrap_err();
    assert_eq!((e.code, e.retryable), (ErrorCode::Timeout, true));
    assert!(e.message.contains("1 s"), "{}", e.message);
}

#[tokio::test]
async fn a_dropped_connection_retries_a_read_and_is_unknown_for_a_write() {
    let (fake, up) = jwt_fake().await;
    fake.add_fault(Fault::on("GET", COUNT).drop_connection());
    let e = read(&up).await.unwrap_err();
    assert_eq!(
        (e.code, e.retryable),
        (ErrorCode::UpstreamRejected, true),
        "{e:?}"
    );
    assert_eq!(fake.hits("GET", COUNT), 2);
    fake.clear_faults();
    fake.add_fault(Fault::on("GET", COUNT).drop_connection().times(1));
    assert!(read(&up).await.unwrap().is_some(), "the retry succeeds");
    fake.add_fault(Fault::on("POST", APPROVE).drop_connection());
    approve_is_unknown_outcome_sent_once(&fake, &up).await;
}

#[tokio::test]
async fn business_failures_on_200_are_rejected_and_sanitized() {
    let (fake, up) = jwt_fake().await;
    fake.add_fault(Fault::on("POST", APPROVE).business(json!({
        "result": false, "message": null, "isError": true,
        "errorMessage": "Could not send to Radarr: Server=db.internal;Password=Sup3rSecret; http://radarr.internal/api?apikey=0123456789abcdef0123456789abcdef",
        "errorCode": null, "requestId": 0
    })));
    let e = approve(&up).await.unwrap_err();
    assert_eq!(
        (e.code, e.http_status),
        (ErrorCode::UpstreamRejected, Some(200))
    );
    assert!(
        e.message.contains("Could not send to Radarr"),
        "{}",
        e.message
    );
    assert_clean(&e, &[]);
    fake.clear_faults();
    fake.add_fault(Fault::on("POST", APPROVE).business(json!({"result": true})));
    assert!(approve(&up).await.is_ok(), "a minimal success body");
    fake.clear_faults();
    fake.add_fault(Fault::on("POST", APPROVE).status(200));
    let e = approve(&up).await.unwrap_err();
    assert_eq!(
        (e.code, e.retryable),
        (ErrorCode::UnknownOutcome, false),
        "empty 200 after a write: {e:?}"
    );
}

#[tokio::test]
async fn connection_refused_is_retryable_even_for_writes() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    let up = client::api_key(&format!("http://127.0.0.1:{port}/"), API_KEY, None);
    let e = up
        .write::<RequestEngineResult>(
            None,
            Route::post("api/v1/Request/movie/approve").json(&json!({"id": 1})),
        )
        .await
        .unwrap_err();
    assert_eq!(
        (e.code, e.retryable),
        (ErrorCode::UpstreamRejected, true),
        "{e:?}"
    );
    assert!(e.message.contains("cannot connect"), "{}", e.message);
}
