//! Who a call acts as: the acting user's `UserName` is sent and Ombi's rights for that user apply, an
//! unknown acting user is an authentication failure (not a network error, even when Ombi cuts the
//! connection), and two peers mapped to two Ombi users request and are audited as themselves (through the
//! real daemon).

use std::time::Duration;

use ombi_mcp::contract::ErrorCode;
use ombi_mcp::upstream::Route;
use serde_json::{Value, json};

use crate::support::fake_ombi::state::user_id;
use crate::support::fake_ombi::{self as fake, API_KEY, LoggedRequest, Options};
use crate::support::rig::{Rig, err_code};
use crate::tools::{message, read_integration, read_users};
use crate::{harness, support};

#[tokio::test]
async fn the_acting_user_is_sent_and_its_rights_apply() {
    let h = Rig::start_with(Options::default(), Some(fake::PLAIN_USER)).await;
    let r = read_users(&h, "me", json!({})).await;
    assert_eq!(r["data"]["items"][0]["user_name"], fake::PLAIN_USER);
    let sent = h.fake.requests().pop().unwrap();
    assert_eq!(sent.header("username"), Some(fake::PLAIN_USER));
    let r = read_users(&h, "list", json!({})).await;
    assert_eq!(err_code(&r), "FORBIDDEN");
    let r = read_integration(&h, "plex_servers", json!({})).await;
    assert_eq!(err_code(&r), "FORBIDDEN");
}

/// Two peers mapped to two Ombi users (peer policy `ombi_user`) create two
/// requests through the real daemon: Ombi records each under its own
/// `UserName`, and each audit record names its own peer uid and Ombi user.
#[tokio::test(flavor = "multi_thread")]
async fn two_peers_request_as_their_own_ombi_users_and_are_audited() {
    use harness::*;
    if !require(is_root(), "root (to run the shim as a second uid)") {
        return;
    }
    let (uid, gid) = test_user();
    let fake = support::fake_ombi::FakeOmbi::start(Options::default()).await;
    let policy = format!(
        r#"{{"peers":[{{"uid":0,"ombi_user":"alice"}},{{"uid":{uid},"ombi_user":"bob"}}]}}"#
    );
    let d = Daemon::start(DaemonOpts {
        env: vec![
            ("OMBI_URL".into(), fake.url.clone()),
            ("OMBI_AUTH_MODE".into(), "api_key".into()),
            ("OMBI_API_KEY".into(), API_KEY.into()),
        ],
        policy: Some(policy),
        ..DaemonOpts::default()
    });
    d.open_socket_to_all();
    let call = |tmdb: i64| {
        format!(
            "{INITIALIZE}\n{{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}}\n\
             {{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{{\"name\":\"write_request_create\",\
             \"arguments\":{{\"action\":\"movie\",\"tmdb_id\":{tmdb}}}}}}}\n"
        )
    };
    // root (uid 0) acts as alice, the second uid as bob.
    let socket = d.socket.clone();
    let (a, b) = (call(27205), call(496243));
    let runs = tokio::task::spawn_blocking(move || {
        let root = run_shim(&socket, &a, None, Duration::from_millis(1500));
        let peer = run_shim(&socket, &b, Some((uid, gid)), Duration::from_millis(1500));
        (root, peer)
    })
    .await
    .unwrap();
    for run in [&runs.0, &runs.1] {
        assert!(
            run.stdout.contains(r#""outcome":"completed""#),
            "stdout: {} stderr: {}\nlog: {}",
            run.stdout,
            run.stderr,
            d.logs()
        );
    }
    let posts: Vec<LoggedRequest> = fake
        .requests()
        .into_iter()
        .filter(|r| r.method == "POST" && r.path == "/api/v1/Request/movie")
        .collect();
    let users: Vec<Option<&str>> = posts.iter().map(|r| r.header("UserName")).collect();
    assert_eq!(users, vec![Some("alice"), Some("bob")]);
    let owner = |tmdb: i64| {
        fake.with_data(|dt| {
            dt.movie_requests
                .iter()
                .find(|r| r["theMovieDbId"] == json!(tmdb))
                .map(|r| r["requestedUserId"].clone())
        })
    };
    assert_eq!(owner(27205), Some(json!(user_id("alice"))));
    assert_eq!(owner(496243), Some(json!(user_id("bob"))));
    let logs = d.wait_log(&format!("peer_uid={uid}"));
    let audit: Vec<&str> = logs
        .lines()
        .filter(|l| l.contains(" audit ") && l.contains("peer_uid="))
        .collect();
    assert_eq!(audit.len(), 2, "{logs}");
    let alice = audit
        .iter()
        .find(|l| l.contains("tmdb_id=27205"))
        .expect("alice's record");
    let bob = audit
        .iter()
        .find(|l| l.contains("tmdb_id=496243"))
        .expect("bob's record");
    assert!(
        alice.contains("peer_uid=0") && alice.contains("ombi_user=\"alice\""),
        "{alice}"
    );
    assert!(
        bob.contains(&format!("peer_uid={uid}")) && bob.contains("ombi_user=\"bob\""),
        "{bob}"
    );
    for line in [alice, bob] {
        assert!(
            line.contains("tool=\"write_request_create\"")
                && line.contains("outcome=\"completed\""),
            "{line}"
        );
    }
}

#[tokio::test]
async fn an_unknown_acting_user_is_authentication_failed_not_a_network_error() {
    let h = Rig::start_with(Options::default(), Some("ghost")).await;
    let env = h.call("read_users", json!({"action": "me"})).await;
    assert_eq!(err_code(&env), "AUTHENTICATION_FAILED");
    assert_eq!(env["error"]["http_status"], 401, "the status line arrived");
    assert_eq!(env["error"]["retryable"], false);
    assert!(message(&env).contains("\"ghost\""), "{}", message(&env));
}

/// A connection cut before any status line, twice for the same acting user.
#[tokio::test]
async fn two_cut_connections_for_one_acting_user_are_authentication_failed() {
    use tokio::io::AsyncReadExt;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/", listener.local_addr().unwrap());
    let server = tokio::spawn(async move {
        loop {
            let (mut s, _) = listener.accept().await.unwrap();
            let mut buf = [0u8; 4096];
            let _ = s.read(&mut buf).await;
            drop(s);
        }
    });
    let as_ghost = support::client::api_key(&url, API_KEY, Some("ghost"));
    let e = as_ghost
        .get_json::<Value>(None, Route::get("api/v1/Identity"))
        .await
        .unwrap_err();
    assert_eq!(e.code, ErrorCode::AuthenticationFailed, "{e:?}");
    assert!(e.message.contains("\"ghost\""), "{}", e.message);
    // Without a UserName it stays a retryable network failure.
    let bare = support::client::api_key(&url, API_KEY, None);
    let e = bare
        .get_json::<Value>(None, Route::get("api/v1/Identity"))
        .await
        .unwrap_err();
    assert_eq!((e.code, e.retryable), (ErrorCode::UpstreamRejected, true));
    server.abort();
}
