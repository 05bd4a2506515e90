//! Ombi down, slow, flapping, or rejecting the daemon's token, seen through
//! the real daemon and shim: calls fail fast with the right code, the
//! daemon recovers when Ombi does, and logins never storm (one in flight,
//! backoff between failures).

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use rmcp::model::CallToolRequestParams;
use serde_json::{Value, json};

use crate::harness::*;
use crate::support::fake_ombi::{
    ADMIN_PASSWORD, ADMIN_USER, API_KEY, Detached, FakeOmbi, Fault, Options,
};

const ROUTE: &str = "/api/v2/Search/Languages";
const TOKEN: &str = "/api/v1/Token";

type Client = rmcp::service::RunningService<rmcp::RoleClient, ()>;

fn ombi_at(listen: SocketAddr) -> Detached {
    FakeOmbi::start_detached(Options {
        listen,
        ..Options::default()
    })
}

/// A daemon for Ombi at `url`, logging in as the admin (jwt) or with the key.
fn daemon(url: &str, jwt: bool, timeout_secs: u32) -> Daemon {
    let mut env = vec![
        ("OMBI_URL".to_string(), url.to_string()),
        ("OMBI_HTTP_TIMEOUT".to_string(), timeout_secs.to_string()),
    ];
    if jwt {
        env.push(("OMBI_AUTH_MODE".into(), "jwt".into()));
        env.push(("OMBI_USERNAME".into(), ADMIN_USER.into()));
        env.push(("OMBI_PASSWORD".into(), ADMIN_PASSWORD.into()));
    } else {
        env.push(("OMBI_AUTH_MODE".into(), "api_key".into()));
        env.push(("OMBI_API_KEY".into(), API_KEY.into()));
    }
    Daemon::start(DaemonOpts {
        env,
        ..DaemonOpts::default()
    })
}

/// One `read_reference languages` call: its envelope and how long it took.
async fn call(client: &Client) -> (Value, Duration) {
    let started = Instant::now();
    let mut p = CallToolRequestParams::new("read_reference");
    p.arguments = json!({"action": "languages"}).as_object().cloned();
    let result = client.call_tool(p).await.expect("a tool result");
    let envelope = result.structured_content.expect("structuredContent");
    assert!(
        !envelope.to_string().contains(ADMIN_PASSWORD),
        "secret in a result"
    );
    (envelope, started.elapsed())
}

fn code(envelope: &Value) -> &str {
    envelope["error"]["code"].as_str().unwrap_or("OK")
}

/// Calls every 100 ms until one succeeds; how long that took.
async fn until_ok(client: &Client, limit: Duration) -> Duration {
    let started = Instant::now();
    loop {
        let (envelope, _) = call(client).await;
        if envelope["ok"] == true {
            return started.elapsed();
        }
        assert!(
            started.elapsed() < limit,
            "not recovered after {limit:?}: {envelope}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Ombi unreachable from the start, then back, then flapping: every call
/// while it is down fails within a second with UPSTREAM_REJECTED, and the
/// daemon serves again within seconds of its return, with one login.
#[test]
fn down_then_back_then_flapping_fails_fast_and_recovers() {
    for jwt in [true, false] {
        let ombi = FakeOmbi::start_detached(Options::default());
        let (addr, url) = (ombi.addr, ombi.url.clone());
        ombi.stop();
        let d = daemon(&url, jwt, 5);
        rt().block_on(async {
            let client = connect(&d).await;
            let started = Instant::now();
            for _ in 0..10 {
                let (envelope, took) = call(&client).await;
                assert_eq!(code(&envelope), "UPSTREAM_REJECTED", "{envelope}");
                assert_eq!(envelope["error"]["retryable"], true, "{envelope}");
                // Fast: well before the 5 s HTTP timeout.
                assert!(took < Duration::from_secs(3), "{took:?}");
            }
            eprintln!(
                "jwt={jwt}: 10 calls with Ombi down in {:?}",
                started.elapsed()
            );
            let mut ombi = ombi_at(addr);
            let took = until_ok(&client, Duration::from_secs(5)).await;
            eprintln!("jwt={jwt}: recovered {took:?} after Ombi came back");
            assert_eq!(ombi.logins(), usize::from(jwt), "one login on return");
            for cycle in 0..3 {
                ombi.stop();
                let (envelope, took) = call(&client).await;
                assert_eq!(
                    code(&envelope),
                    "UPSTREAM_REJECTED",
                    "cycle {cycle}: {envelope}"
                );
                assert!(took < Duration::from_secs(3), "cycle {cycle}: {took:?}");
                ombi = ombi_at(addr);
                until_ok(&client, Duration::from_secs(5)).await;
                // A restarted Ombi does not know the old token: one login.
                assert_eq!(ombi.logins(), usize::from(jwt), "cycle {cycle}");
            }
            client.cancel().await.unwrap();
        });
    }
}

/// A login endpoint that fails (503: Ombi starting, or a proxy without it):
/// concurrent calls share one login, later calls back off instead of logging
/// in each time, each says Ombi is unavailable (not that the password is
/// wrong) and may be retried, and the first call after the endpoint recovers
/// (and the backoff ends) succeeds.
#[test]
fn failing_logins_back_off_and_never_storm() {
    let ombi = FakeOmbi::start_detached(Options::default());
    ombi.add_fault(Fault::on("POST", TOKEN).unavailable());
    let d = daemon(&ombi.url, true, 5);
    rt().block_on(async {
        let client = connect(&d).await;
        let burst_started = Instant::now();
        let burst = futures::future::join_all((0..20).map(|_| call(&client))).await;
        for (envelope, _) in &burst {
            assert_eq!(code(envelope), "UPSTREAM_REJECTED", "{envelope}");
            assert_eq!(envelope["error"]["retryable"], true, "{envelope}");
            assert_eq!(envelope["error"]["http_status"], 503, "{envelope}");
        }
        // One login on a quiet machine; a loaded one can spread the burst past
        // the first backoff window, which allows one more (counted by time).
        let allowed = logins_allowed(burst_started.elapsed());
        assert!(
            ombi.logins() <= allowed,
            "20 concurrent calls, {} logins (at most {allowed})",
            ombi.logins()
        );
        let calls = 15;
        for _ in 0..calls {
            let (envelope, took) = call(&client).await;
            assert_eq!(code(&envelope), "UPSTREAM_REJECTED", "{envelope}");
            assert!(took < Duration::from_secs(3), "{took:?}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let logins = ombi.logins();
        let allowed = logins_allowed(burst_started.elapsed());
        eprintln!(
            "{calls} calls in {:?} since the burst: {logins} logins in all (at most {allowed})",
            burst_started.elapsed()
        );
        assert!(
            logins <= allowed,
            "logins stormed: {logins} for {calls} calls"
        );
        ombi.clear_faults();
        let took = until_ok(&client, Duration::from_secs(5)).await;
        eprintln!("logged in {took:?} after the endpoint recovered");
        assert_eq!(ombi.logins(), logins + 1);
        client.cancel().await.unwrap();
    });
}

/// A token Ombi stops accepting: rotated keys cost exactly one login; a
/// token refused even when fresh costs a login per backoff, not per call.
#[test]
fn a_token_ombi_starts_rejecting_costs_one_login_not_one_per_call() {
    let ombi = FakeOmbi::start_detached(Options::default());
    let d = daemon(&ombi.url, true, 5);
    rt().block_on(async {
        let client = connect(&d).await;
        assert_eq!(call(&client).await.0["ok"], true);
        assert_eq!(ombi.logins(), 1);
        ombi.invalidate_tokens();
        assert_eq!(call(&client).await.0["ok"], true);
        assert_eq!(ombi.logins(), 2, "one renewal after the key rotated");

        ombi.add_fault(Fault::on("GET", ROUTE).status(401));
        let started = Instant::now();
        let calls = 10;
        for _ in 0..calls {
            let (envelope, took) = call(&client).await;
            assert_eq!(code(&envelope), "AUTHENTICATION_FAILED", "{envelope}");
            assert!(took < Duration::from_secs(3), "{took:?}");
            // Spread over more than one backoff window.
            tokio::time::sleep(Duration::from_millis(120)).await;
        }
        let extra = ombi.logins() - 2;
        let allowed = logins_allowed(started.elapsed());
        eprintln!(
            "{calls} calls in {:?} with every token refused: {extra} logins (at most {allowed})",
            started.elapsed()
        );
        assert!(extra <= allowed, "{extra} logins for {calls} calls");
        ombi.clear_faults();
        until_ok(&client, Duration::from_secs(5)).await;
        client.cancel().await.unwrap();
    });
}

/// A slow Ombi: a call fails with TIMEOUT at OMBI_HTTP_TIMEOUT while the
/// session keeps answering; a login that hangs is not retried by every call.
/// Timing is judged by what cannot happen on a loaded machine rather than by
/// how fast it goes: a call that tried to log in takes at least the 1 s
/// deadline (the login hangs 4 s), so one answered sooner was turned away by
/// the backoff; tools/list is not blocked if it ends before the slow read.
#[test]
fn a_slow_ombi_times_out_without_blocking_the_session() {
    let ombi = FakeOmbi::start_detached(Options::default());
    let d = daemon(&ombi.url, true, 1);
    rt().block_on(async {
        let client = connect(&d).await;
        // Every login hangs past the call's deadline until the fault is cleared.
        ombi.add_fault(Fault::on("POST", TOKEN).delay(Duration::from_secs(4)));
        let started = Instant::now();
        let (envelope, took) = call(&client).await;
        assert_eq!(code(&envelope), "TIMEOUT", "{envelope}");
        assert!(took < Duration::from_millis(3500), "{took:?}");
        let mut turned_away = 0;
        for _ in 0..4 {
            let (envelope, took) = call(&client).await;
            assert_eq!(code(&envelope), "TIMEOUT", "backing off: {envelope}");
            if took < Duration::from_millis(900) {
                turned_away += 1;
            }
        }
        assert!(
            turned_away >= 1,
            "no call was turned away during the backoff"
        );
        let logins = ombi.logins();
        let allowed = logins_allowed(started.elapsed());
        assert!(
            logins <= allowed,
            "{logins} logins into a hanging Ombi in {:?} (at most {allowed})",
            started.elapsed()
        );
        ombi.clear_faults();
        until_ok(&client, Duration::from_secs(10)).await;

        // A slow read: TIMEOUT at the deadline; tools/list meanwhile is answered
        // before the slow read ends.
        ombi.add_fault(
            Fault::on("GET", ROUTE)
                .delay(Duration::from_secs(4))
                .times(1),
        );
        let slow = async {
            let (envelope, took) = call(&client).await;
            (envelope, took, Instant::now())
        };
        let list = async {
            tokio::time::sleep(Duration::from_millis(200)).await;
            client.list_all_tools().await.expect("tools/list");
            Instant::now()
        };
        let ((envelope, took, slow_ended), list_ended) = tokio::join!(slow, list);
        assert_eq!(code(&envelope), "TIMEOUT", "{envelope}");
        assert!(
            took >= Duration::from_millis(900) && took < Duration::from_millis(3500),
            "{took:?}"
        );
        assert!(
            list_ended < slow_ended,
            "tools/list waited for the slow read"
        );
        assert_eq!(call(&client).await.0["ok"], true);
        client.cancel().await.unwrap();
    });
}

/// The most logins a backoff allows within `elapsed` of a first failing
/// one: the first, then one as each window ends (0.5 s, then doubling, so
/// windows end at 0.5·(2^k − 1) s). Counting by the time the calls took
/// keeps the bound true on a slow machine.
fn logins_allowed(elapsed: Duration) -> usize {
    1 + (2.0 * elapsed.as_secs_f64() + 1.0).log2().floor() as usize
}

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}
