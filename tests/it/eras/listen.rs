//! Live updates on 2026-07-28 (`subscriptions/listen`) over the real daemon
//! and the fake Ombi, beside a 2025-11-25 `resources/subscribe` watcher of
//! the same resource: the acknowledged subset, updates carrying the listen's
//! id, one poll read per URI whichever era watches, and cancel ending it.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::modern;
use crate::clients::python_client::admin_jwt_env;
use crate::harness::*;
use crate::support::fake_ombi::{FakeOmbi, Options};

/// Reads lines until one satisfies `want` (others are kept in `skipped`),
/// or `None` after `limit`.
fn recv_until(raw: &mut Raw, limit: Duration, want: impl Fn(&Value) -> bool) -> Option<Value> {
    let deadline = Instant::now() + limit;
    while Instant::now() < deadline {
        let left = deadline
            .saturating_duration_since(Instant::now())
            .max(Duration::from_millis(10));
        raw.stream.set_read_timeout(Some(left)).unwrap();
        let mut line = String::new();
        use std::io::BufRead;
        match raw.reader().read_line(&mut line) {
            Ok(0) => return None,
            Ok(_) => {
                let v: Value = serde_json::from_str(&line).unwrap();
                if want(&v) {
                    return Some(v);
                }
            }
            Err(_) => return None,
        }
    }
    None
}

fn updated(uri: &'static str) -> impl Fn(&Value) -> bool {
    move |v| v["method"] == "notifications/resources/updated" && v["params"]["uri"] == uri
}

const MINE: &str = "ombi://requests/mine";
const MOVIE_2: &str = "ombi://request/movie/2";
const MOVIE_3: &str = "ombi://request/movie/3";

#[test]
fn a_listen_hears_changes_beside_a_2025_subscriber_until_cancelled() {
    let fake = FakeOmbi::start_detached(Options::default());
    let (mut env, _dir) = admin_jwt_env(&fake.url);
    env.push(("OMBI_POLL_INTERVAL".into(), "10".into()));
    let d = Daemon::start(DaemonOpts {
        env,
        ..DaemonOpts::default()
    });
    let hits = |path: &str| fake.requests().iter().filter(|r| r.path == path).count();

    // The listen: only what this peer may watch and could read is honoured.
    let mut modern_conn = Raw::connect(&d.socket);
    let asked = [
        MINE,
        MOVIE_2,
        MOVIE_3,
        "ombi://reference/languages",
        "file:///etc/passwd",
        "ombi://request/movie/999",
        MOVIE_2,
    ];
    modern_conn.send(&modern(
        7,
        "subscriptions/listen",
        json!({"notifications": {"resourceSubscriptions": asked, "toolsListChanged": true}}),
    ));
    // Generous: the listen's six reads log in to Ombi first, on a shared machine.
    let ack = recv_until(&mut modern_conn, Duration::from_secs(40), |v| {
        v["method"] == "notifications/subscriptions/acknowledged"
    })
    .expect("an acknowledgment");
    assert_eq!(
        ack["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], 7,
        "{ack}"
    );
    assert_eq!(
        ack["params"]["notifications"],
        json!({"resourceSubscriptions": [MINE, MOVIE_2, MOVIE_3]}),
        "{ack}"
    );
    let logs = d.wait_log("left a URI out of a listen");
    for reason in ["cannot be watched", "not a resource", "999"] {
        assert!(
            logs.lines()
                .any(|l| l.contains("left a URI out") && l.contains(reason)),
            "{reason}: {logs}"
        );
    }

    // A 2025-11-25 session watches movie 3 too.
    let mut legacy = Raw::connect(&d.socket);
    legacy.initialize();
    legacy.send(&json!({"jsonrpc": "2.0", "id": 2, "method": "resources/subscribe", "params": {"uri": MOVIE_3}}).to_string());
    assert_eq!(legacy.recv().unwrap()["result"], json!({}));

    // A write through the daemon (another 2026 connection): heard at once,
    // with the listen's id.
    let mut writer = Raw::connect(&d.socket);
    writer.send(&modern(
        1,
        "tools/call",
        json!({"name": "write_request_moderate",
        "arguments": {"action": "approve", "media": "movie", "request_id": 2}}),
    ));
    assert_eq!(
        writer.recv().unwrap()["result"]["structuredContent"]["ok"],
        true
    );
    let heard = recv_until(&mut modern_conn, Duration::from_secs(15), updated(MOVIE_2))
        .unwrap_or_else(|| panic!("no update for movie 2\n{}", d.logs()));
    assert_eq!(
        heard["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], 7,
        "{heard}"
    );

    // A change in Ombi itself: both eras hear it within an interval.
    fake.with_data(|data| {
        data.movie_request_mut(3).unwrap()["available"] = json!(true);
    });
    let heard = recv_until(&mut modern_conn, Duration::from_secs(25), updated(MOVIE_3));
    assert!(heard.is_some(), "the listen missed movie 3\n{}", d.logs());
    let heard = recv_until(&mut legacy, Duration::from_secs(25), updated(MOVIE_3))
        .expect("the 2025 session missed movie 3");
    assert!(heard["params"].get("_meta").is_none(), "{heard}");

    // One read of movie 3 per interval, though two eras watch it.
    let before = hits("/api/v1/Request/movie/info/3");
    std::thread::sleep(Duration::from_secs(21));
    let polled = hits("/api/v1/Request/movie/info/3") - before;
    assert!(
        (1..=3).contains(&polled),
        "{polled} reads of movie 3 in 21 s at a 10 s interval"
    );

    // Cancelled: the listen's watches end (movie 2 was its alone).
    modern_conn.send(
        &json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 7}})
            .to_string(),
    );
    std::thread::sleep(Duration::from_millis(500));
    let before = hits("/api/v1/Request/movie/info/2");
    std::thread::sleep(Duration::from_secs(12));
    assert_eq!(
        hits("/api/v1/Request/movie/info/2"),
        before,
        "movie 2 polled after the listen was cancelled"
    );
    // Movie 3 is still the 2025 session's.
    let before = hits("/api/v1/Request/movie/info/3");
    assert!(before > 0);
    // The connection serves on after the cancel.
    modern_conn.send(&modern(8, "resources/list", json!({})));
    let listed =
        recv_until(&mut modern_conn, Duration::from_secs(20), |v| v["id"] == 8).expect("a reply");
    assert!(listed["result"]["resources"].is_array(), "{listed}");
}

/// `subscriptions/listen` is of 2026-07-28; `resources/subscribe` of 2025-11-25.
#[test]
fn each_era_watches_its_own_way() {
    let d = Daemon::start(DaemonOpts::default());
    let mut legacy = Raw::connect(&d.socket);
    legacy.initialize();
    legacy.send(
        &json!({"jsonrpc": "2.0", "id": 2, "method": "subscriptions/listen",
        "params": {"notifications": {"resourceSubscriptions": [MINE]}}})
        .to_string(),
    );
    assert_eq!(legacy.recv().unwrap()["error"]["code"], -32601);
    let mut raw = Raw::connect(&d.socket);
    raw.send(&modern(1, "resources/subscribe", json!({"uri": MINE})));
    assert_eq!(raw.recv().unwrap()["error"]["code"], -32601);
    raw.send(&super::modern_with(
        2,
        "subscriptions/listen",
        json!({"notifications": {"resourceSubscriptions": [MINE]}}),
        "2099-01-01",
        json!({}),
    ));
    assert_eq!(raw.recv().unwrap()["error"]["code"], -32022);
}
