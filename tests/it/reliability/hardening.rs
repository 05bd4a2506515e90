//! What a hostile local user tried beside starving the others
//! (docs/security.md, "Fair share and hardening"): one JSON-RPC id run
//! twice, a log line forged through an argument name, a socket planted
//! where the shim looks for the daemon, and files left open to others.

use std::io::{BufRead, BufReader, Read};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::UnixListener;
use std::process::Command;
use std::time::Duration;

use serde_json::json;

use crate::harness::*;
use crate::support::fake_ombi::{Fault, Options};
use crate::support::rig::Rig;

const LANGUAGES: &str = "/api/v2/Search/Languages";

/// A daemon against the fake, reached as root over a raw connection whose
/// reads wait long enough for a debug daemon's first call (it builds the
/// sanitizer's table: seconds on a loaded machine).
async fn raw_session() -> (Rig, Raw) {
    let rig = Rig::binaries(Options::default(), &[], DaemonOpts::default()).await;
    let socket = rig.daemon().socket.clone();
    let raw = tokio::task::spawn_blocking(move || {
        let mut raw = Raw::connect(&socket);
        raw.stream
            .set_read_timeout(Some(Duration::from_secs(120)))
            .unwrap();
        raw.initialize();
        raw
    })
    .await
    .unwrap();
    (rig, raw)
}

fn call(id: u64, arguments: serde_json::Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
           "params": {"name": "read_reference", "arguments": arguments}})
    .to_string()
}

/// Two requests with one id in flight: the second is answered -32600 and
/// never reaches Ombi; the first runs and is answered; once answered, the
/// id may be used again.
#[tokio::test(flavor = "multi_thread")]
async fn a_request_id_already_in_flight_is_refused_and_never_run() {
    let (rig, mut raw) = raw_session().await;
    rig.fake
        .add_fault(Fault::on("GET", LANGUAGES).delay(Duration::from_millis(1500)));
    let answers = tokio::task::spawn_blocking(move || {
        raw.send(&call(7, json!({"action": "languages"})));
        raw.send(&call(7, json!({"action": "issue_categories"})));
        let first = raw.recv().expect("the refusal");
        let second = raw.recv().expect("the first request's answer");
        raw.send(&call(7, json!({"action": "issue_categories"})));
        let third = raw.recv().expect("the id used again");
        (first, second, third)
    })
    .await
    .unwrap();
    let (refusal, answered, reused) = answers;
    assert_eq!(refusal["id"], 7, "{refusal}");
    assert_eq!(refusal["error"]["code"], -32600, "{refusal}");
    assert!(
        refusal["error"]["message"]
            .as_str()
            .unwrap()
            .contains("request id already in use"),
        "{refusal}"
    );
    assert_eq!(answered["id"], 7);
    let kind = &answered["result"]["structuredContent"]["data"]["items"][0]["category"];
    assert_eq!(
        answered["result"]["structuredContent"]["ok"], true,
        "{answered}"
    );
    assert!(
        answered.to_string().contains("English"),
        "the languages call: {kind}"
    );
    assert_eq!(
        reused["result"]["structuredContent"]["ok"], true,
        "{reused}"
    );
    let categories = rig
        .paths()
        .iter()
        .filter(|p| p.eq_ignore_ascii_case("GET /api/v1/Issues/categories"))
        .count();
    assert_eq!(
        categories,
        1,
        "only the reused id's call ran: {:?}",
        rig.paths()
    );
}

/// An argument name carrying a newline and a forged event reaches the log
/// in the failed call's `field`: in stderr mode it stays on its line.
#[tokio::test(flavor = "multi_thread")]
async fn a_log_field_cannot_forge_a_line() {
    let (rig, mut raw) = raw_session().await;
    let forged = "x\nFORGED\u{2028}F2\rF3";
    let reply = tokio::task::spawn_blocking(move || {
        raw.send(&call(2, json!({"action": "languages", forged: 1})));
        raw.recv().expect("an answer")
    })
    .await
    .unwrap();
    let env = &reply["result"]["structuredContent"];
    assert_eq!(env["error"]["code"], "INVALID_ARGUMENT", "{reply}");
    let logs = rig.daemon().wait_log("tool call failed");
    let line = logs
        .lines()
        .find(|l| l.contains("tool call failed"))
        .expect("the failed call's line");
    assert!(line.contains("\\nFORGED\\u{2028}F2\\rF3"), "{line}");
    assert!(
        !logs
            .lines()
            .any(|l| l.starts_with("FORGED") || l.starts_with("F2")),
        "a forged line: {logs}"
    );
}

/// A socket planted by another user where the shim looks (a directory
/// anyone may write, such as /tmp): the shim exits 77 naming the uid that
/// answered, and sends it nothing. The same user's socket in a directory
/// only that user can write is the daemon's, run by hand: forwarded.
#[test]
fn the_shim_sends_nothing_to_a_socket_another_user_planted() {
    if !require(is_root(), "root (to plant a socket as another user)") {
        return;
    }
    let (squatter, client) = (test_user(), second_test_user());
    let dir = tempfile::Builder::new()
        .prefix("ombi-mcp-squat")
        .tempdir()
        .unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o1777)).unwrap();
    let socket = dir.path().join("mcp.sock");
    let listener = as_user(squatter.0, squatter.1, || {
        let l = UnixListener::bind(&socket).expect("bind as the squatter");
        std::fs::set_permissions(&socket, std::fs::Permissions::from_mode(0o777)).unwrap();
        l
    });
    let run = run_shim(
        &socket,
        &format!("{INITIALIZE}\n"),
        Some(client),
        Duration::from_millis(300),
    );
    assert_eq!(run.status.code(), Some(77), "{}", run.stderr);
    assert!(run.stdout.is_empty());
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(
        run.stderr.contains(&format!("held by uid {}", squatter.0)),
        "{}",
        run.stderr
    );
    listener.set_nonblocking(true).unwrap();
    let (mut heard, _) = listener.accept().expect("the shim's connection");
    heard.set_nonblocking(false).unwrap();
    heard
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    let mut bytes = Vec::new();
    let _ = heard.read_to_end(&mut bytes);
    assert!(bytes.is_empty(), "forwarded to the squatter: {bytes:?}");
    drop(listener);

    // The owner of a directory only it can write is trusted: forwarded.
    let own = dir.path().join("own");
    std::fs::create_dir(&own).unwrap();
    nix::unistd::chown(&own, Some(squatter.0.into()), Some(squatter.1.into())).unwrap();
    std::fs::set_permissions(&own, std::fs::Permissions::from_mode(0o755)).unwrap();
    let socket = own.join("mcp.sock");
    let listener = as_user(squatter.0, squatter.1, || {
        let l = UnixListener::bind(&socket).expect("bind as the owner");
        std::fs::set_permissions(&socket, std::fs::Permissions::from_mode(0o777)).unwrap();
        l
    });
    let reader = std::thread::spawn(move || {
        let (stream, _) = listener.accept().unwrap();
        let mut line = String::new();
        BufReader::new(stream).read_line(&mut line).unwrap();
        line
    });
    let run = run_shim(
        &socket,
        &format!("{INITIALIZE}\n"),
        Some(client),
        Duration::from_millis(300),
    );
    assert!(!run.stderr.contains("not the daemon's"), "{}", run.stderr);
    assert_eq!(reader.join().unwrap().trim_end(), INITIALIZE);
}

/// `--check-config` names a policy file anyone can write and a key file
/// anyone can read, and still passes (warnings, not errors).
#[test]
fn check_config_warns_about_files_others_could_change_or_read() {
    let dir = tempfile::tempdir().unwrap();
    let (policy, key) = (dir.path().join("policy.json"), dir.path().join("api-key"));
    std::fs::write(&policy, r#"{"peers":[{"uid":0,"bundles":["core"]}]}"#).unwrap();
    std::fs::write(&key, "test-api-key-0123456789abcdef\n").unwrap();
    let run = |policy_mode: u32, key_mode: u32| {
        std::fs::set_permissions(&policy, std::fs::Permissions::from_mode(policy_mode)).unwrap();
        std::fs::set_permissions(&key, std::fs::Permissions::from_mode(key_mode)).unwrap();
        let out = Command::new(DAEMON)
            .args(["--check-config", "--offline"])
            .env_clear()
            .envs([
                ("OMBI_URL", "http://127.0.0.1:9/"),
                ("OMBI_AUTH_MODE", "api_key"),
                ("OMBI_API_KEY_FILE", key.to_str().unwrap()),
                ("OMBI_MCP_POLICY", policy.to_str().unwrap()),
                (
                    "OMBI_MCP_SOCKET",
                    dir.path().join("mcp.sock").to_str().unwrap(),
                ),
            ])
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    // Only the files' warnings count here: the policy check also says the
    // socket is not there yet (its own test is daemon::check_config).
    let about_files = |out: &str| -> Vec<String> {
        out.lines()
            .filter(|l| l.contains("warning") && !l.contains("no socket there yet"))
            .map(str::to_string)
            .collect()
    };
    let quiet = run(0o644, 0o600);
    assert!(about_files(&quiet).is_empty(), "{quiet}");
    let warned = run(0o666, 0o644);
    let lines = about_files(&warned);
    assert_eq!(lines.len(), 2, "{warned}");
    assert!(
        lines[0].contains("policy file") && lines[0].contains("everyone"),
        "{warned}"
    );
    assert!(
        lines[1].contains("secret file") && lines[1].contains("0644"),
        "{warned}"
    );
    assert!(!warned.contains("test-api-key"), "no secret printed");
}

/// Run by hand under a shell's low soft limit, the daemon raises its soft
/// `RLIMIT_NOFILE` to the hard limit (the units set `LimitNOFILE=8192`).
#[test]
fn the_daemon_raises_its_open_files_limit_to_the_hard_limit() {
    use std::os::unix::process::CommandExt;
    let dir = tempfile::tempdir().unwrap();
    let socket = dir.path().join("mcp.sock");
    let mut cmd = Command::new(DAEMON);
    cmd.arg("--socket")
        .arg(&socket)
        .envs(offline_env())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    // SAFETY: setrlimit is async-signal-safe; nothing else runs in the child.
    unsafe {
        cmd.pre_exec(|| {
            nix::sys::resource::setrlimit(nix::sys::resource::Resource::RLIMIT_NOFILE, 256, 4096)
                .map_err(std::io::Error::from)
        });
    }
    let mut child = cmd.spawn().unwrap();
    let limits = format!("/proc/{}/limits", child.id());
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while !socket.exists() && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    let open_files = std::fs::read_to_string(&limits)
        .unwrap()
        .lines()
        .find(|l| l.starts_with("Max open files"))
        .map(|l| {
            l.split_whitespace()
                .skip(3)
                .take(2)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(open_files, "4096 4096");
}

/// Out of descriptors, the accept loop keeps trying every 100 ms but logs
/// one line per window (it logged every try: ten lines a second that made
/// journald drop messages, audit records included), and serves again as
/// soon as descriptors are free.
#[test]
fn out_of_descriptors_the_accept_loop_logs_once_and_recovers() {
    use std::os::unix::process::CommandExt;
    let dir = tempfile::tempdir().unwrap();
    let socket = dir.path().join("mcp.sock");
    let stderr = std::fs::File::create(dir.path().join("stderr")).unwrap();
    let mut cmd = Command::new(DAEMON);
    cmd.arg("--socket")
        .arg(&socket)
        .envs(offline_env())
        .stdout(std::process::Stdio::null())
        .stderr(stderr);
    // SAFETY: setrlimit is async-signal-safe; nothing else runs in the child.
    unsafe {
        cmd.pre_exec(|| {
            nix::sys::resource::setrlimit(nix::sys::resource::Resource::RLIMIT_NOFILE, 48, 48)
                .map_err(std::io::Error::from)
        });
    }
    let mut child = cmd.spawn().unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while !socket.exists() && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    // Connections the daemon holds open (its own uid has no per-user share)
    // until it has no descriptor left; the rest wait in the backlog.
    let held: Vec<Raw> = (0..60).map(|_| Raw::connect(&socket)).collect();
    let read_log = || std::fs::read_to_string(dir.path().join("stderr")).unwrap();
    let until = std::time::Instant::now() + Duration::from_secs(30);
    while !read_log().contains("accept failed") && std::time::Instant::now() < until {
        std::thread::sleep(Duration::from_millis(50));
    }
    // Three seconds out of descriptors: ~30 tries.
    std::thread::sleep(Duration::from_secs(3));
    let failures = read_log().matches("accept failed").count();
    // Descriptors come back: a new peer is served.
    drop(held);
    let mut late = Raw::connect(&socket);
    late.stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    late.initialize();
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(failures, 1, "{}", read_log());
}
