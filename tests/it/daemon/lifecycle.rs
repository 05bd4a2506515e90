//! The daemon, the socket and the shim, run as a user runs them.

use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::{UnixDatagram, UnixListener};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::harness::*;

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap()
}

async fn initialize_list_and_call(socket: &std::path::Path) {
    let client = client(socket).await;
    let info = client.peer_info().expect("server info");
    let server = info.server_info.as_ref().expect("serverInfo");
    assert_eq!(server.name, "ombi-mcp");
    assert_eq!(server.version, env!("CARGO_PKG_VERSION"));
    assert_eq!(info.protocol_version.to_string(), "2025-11-25");
    let tools_cap = info.capabilities.tools.as_ref().expect("tools capability");
    assert_eq!(
        tools_cap.list_changed, None,
        "listChanged must not be advertised"
    );
    let tools = client.list_all_tools().await.expect("tools/list");
    for t in &tools {
        assert!(
            t.name.starts_with("read_") || t.name.starts_with("write_"),
            "{}",
            t.name
        );
    }
    // A tool the session cannot see is an unknown tool: a JSON-RPC error, not a result.
    let err = client
        .call_tool(rmcp::model::CallToolRequestParams::new("write_nonexistent"))
        .await
        .expect_err("unknown tool must be a protocol error");
    assert!(err.to_string().contains("write_nonexistent"), "{err}");
    client.cancel().await.unwrap();
}

#[test]
fn self_bound_daemon_serves_mcp_through_the_shim() {
    let mut d = Daemon::start(DaemonOpts::default());
    let mode = std::fs::metadata(&d.socket).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o660, "self-bound socket mode");
    rt().block_on(initialize_list_and_call(&d.socket));
    let status = d.stop();
    assert!(
        status.success(),
        "SIGTERM must end with exit 0: {status:?}\n{}",
        d.logs()
    );
    assert!(
        !d.socket.exists(),
        "a self-bound socket is removed on shutdown"
    );
    let logs = d.logs();
    assert!(logs.contains("accepted peer"), "{logs}");
    assert!(
        !logs.contains("test-api-key-0123456789abcdef"),
        "secret in logs:\n{logs}"
    );
}

#[test]
fn socket_activated_daemon_serves_mcp_through_the_shim() {
    if !require(
        std::path::Path::new(SOCKET_ACTIVATE).exists(),
        "systemd-socket-activate",
    ) {
        return;
    }
    let mut d = Daemon::start(DaemonOpts {
        activated: true,
        ..DaemonOpts::default()
    });
    rt().block_on(initialize_list_and_call(&d.socket));
    // A second session on the same activated listener.
    rt().block_on(initialize_list_and_call(&d.socket));
    let status = d.stop();
    assert!(status.success(), "{status:?}\n{}", d.logs());
    assert!(d.logs().contains("socket-activated"), "{}", d.logs());
}

/// The daemon on `socket`, offline (not yet run).
fn daemon_on(socket: &Path) -> Command {
    let mut cmd = Command::new(DAEMON);
    cmd.arg("--socket").arg(socket).envs(offline_env());
    cmd
}

#[test]
fn refuses_to_start_over_a_live_daemon_and_replaces_a_stale_socket() {
    let d = Daemon::start(DaemonOpts::default());
    let out = daemon_on(&d.socket).output().unwrap();
    assert_eq!(out.status.code(), Some(69));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("already listening"), "{err}");
    assert!(d.socket.exists(), "the live daemon's socket must survive");

    // A stale socket (its listener is gone) is replaced.
    let dir = tempfile::tempdir().unwrap();
    let stale = dir.path().join("stale.sock");
    drop(UnixListener::bind(&stale).unwrap());
    assert!(stale.exists());
    let mut child = daemon_on(&stale).stderr(Stdio::null()).spawn().unwrap();
    let start = std::time::Instant::now();
    while std::os::unix::net::UnixStream::connect(&stale).is_err() {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "daemon did not take over the stale socket"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();

    // A path that is not a socket is never deleted.
    let file = dir.path().join("not-a-socket");
    std::fs::write(&file, "keep me").unwrap();
    let out = daemon_on(&file).output().unwrap();
    assert_eq!(out.status.code(), Some(69));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "keep me");
}

/// A daemon with `policy` (else the default: root and its own uid), maybe
/// socket-activated, its socket open to every uid (the policy decides).
fn open_daemon(policy: Option<String>, activated: bool) -> Daemon {
    let d = Daemon::start(DaemonOpts {
        policy,
        activated,
        ..DaemonOpts::default()
    });
    d.open_socket_to_all();
    d
}

/// The shim, run as `peer` (uid, gid), sends MCP initialize to `d`.
fn initialize_as(d: &Daemon, peer: (u32, u32), wait: Duration) -> ShimRun {
    run_shim(&d.socket, &format!("{INITIALIZE}\n"), Some(peer), wait)
}

fn assert_initialized(run: &ShimRun) {
    let served = run.stdout.contains(r#""serverInfo""#);
    assert!(served, "stdout: {} stderr: {}", run.stdout, run.stderr);
}

#[test]
fn peer_policy_refuses_other_users_before_any_reply_and_admits_listed_ones() {
    if !require(is_root(), "root (to run the shim as a second uid)") {
        return;
    }
    let (uid, gid) = test_user();
    // Default policy: only root and the daemon's own uid.
    let d = open_daemon(None, false);
    let run = initialize_as(&d, (uid, gid), Duration::from_millis(300));
    assert_eq!(run.status.code(), Some(77), "stderr: {}", run.stderr);
    assert!(
        run.stdout.is_empty(),
        "a refused peer gets no MCP byte: {:?}",
        run.stdout
    );
    assert_eq!(
        run.stderr.lines().count(),
        1,
        "one clear line: {}",
        run.stderr
    );
    assert!(run.stderr.contains("refused"), "{}", run.stderr);
    let logs = d.wait_log("refused peer");
    assert!(logs.contains("refused peer"), "{logs}");
    assert!(logs.contains(&format!("uid={uid}")), "{logs}");
    assert!(logs.contains("pid="), "{logs}");

    // A policy that lists the uid admits it, with the bundles it grants.
    let policy = format!(r#"{{"peers":[{{"uid":{uid},"bundles":["core"],"read_only":true}}]}}"#);
    let d = open_daemon(Some(policy), false);
    let run = initialize_as(&d, (uid, gid), Duration::from_millis(500));
    assert_initialized(&run);
    assert_eq!(run.status.code(), Some(0), "{}", run.stderr);
    let logs = d.wait_log("accepted peer");
    assert!(logs.contains("read_only=true"), "{logs}");

    // By user name, under socket activation too.
    let policy = r#"{"peers":[{"user":"ombi-mcp-peer"}]}"#.to_string();
    if require(
        std::path::Path::new(SOCKET_ACTIVATE).exists(),
        "systemd-socket-activate (the by-name policy under socket activation)",
    ) {
        let d = open_daemon(Some(policy), true);
        assert_initialized(&initialize_as(&d, (uid, gid), Duration::from_millis(800)));
    }
}

#[test]
fn shim_reports_an_absent_daemon_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let socket = dir.path().join("nobody-home.sock");
    let run = run_shim(&socket, &format!("{INITIALIZE}\n"), None, Duration::ZERO);
    assert_eq!(run.status.code(), Some(69));
    assert!(run.stdout.is_empty());
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(
        run.stderr.contains(&socket.display().to_string()),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("no such socket"), "{}", run.stderr);

    // A socket file with nobody listening: connection refused.
    drop(UnixListener::bind(&socket).unwrap());
    let run = run_shim(&socket, &format!("{INITIALIZE}\n"), None, Duration::ZERO);
    assert_eq!(run.status.code(), Some(69));
    assert!(run.stderr.contains("connection refused"), "{}", run.stderr);
}

#[test]
fn shim_exits_nonzero_when_the_daemon_dies_mid_session() {
    use std::io::{BufRead, BufReader, Write};
    let mut d = Daemon::start(DaemonOpts::default());
    let mut shim = spawn_shim(&d.socket);
    let mut stdin = shim.stdin.take().unwrap();
    writeln!(stdin, "{INITIALIZE}").unwrap();
    let mut stdout = BufReader::new(shim.stdout.take().unwrap());
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    assert!(line.contains("serverInfo"), "{line}");
    d.child.kill().unwrap(); // SIGKILL: no graceful close
    d.child.wait().unwrap();
    let run = wait_output(shim, Duration::from_secs(10));
    drop(stdin);
    assert_eq!(run.status.code(), Some(74), "{}", run.stderr);
    assert!(run.stderr.contains("mid-session"), "{}", run.stderr);
}

#[test]
fn protocol_edges_discover_unknown_methods_and_garbage() {
    let d = Daemon::start(DaemonOpts::default());
    let input = concat!(
        r#"{"jsonrpc":"2.0","id":0,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"probe","version":"1"}}}}"#,
        "\n",
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"harness","version":"1"}}}"#,
        "\n",
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        "\n",
        "this is not json\n",
        r#"{"jsonrpc":"2.0","id":2,"method":"nope/nothing"}"#,
        "\n",
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/list"}"#,
        "\n",
    );
    // An over-long line (2 MiB, over the 1 MiB frame cap) is refused without
    // taking the session down: the requests after it are still answered.
    let huge = format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/list\",\"params\":{{\"pad\":\"{}\"}}}}\n",
        "a".repeat(2 * 1024 * 1024)
    );
    let (head, tail) = input.split_at(input.find("this is not json").unwrap());
    let input = format!("{head}{huge}{tail}");
    let run = run_shim(&d.socket, &input, None, Duration::from_millis(900));
    let replies: Vec<serde_json::Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("every stdout line is JSON-RPC"))
        .collect();
    let by_id = |id: i64| {
        replies
            .iter()
            .find(|r| r["id"] == id)
            .unwrap_or_else(|| panic!("no reply {id}: {}", run.stdout))
    };
    // server/discover is answered (MCP 2026-07-28); the connection may still
    // initialize on 2025-11-25 after the probe.
    assert!(
        by_id(0)["result"]["supportedVersions"].is_array(),
        "server/discover"
    );
    assert_eq!(by_id(1)["result"]["protocolVersion"], "2025-11-25");
    assert_eq!(by_id(2)["error"]["code"], -32601);
    assert!(by_id(3)["result"]["tools"].is_array());
    assert!(
        replies.iter().all(|r| r["id"] != 9),
        "the over-long line's id cannot be read"
    );
    // The garbage line and the over-long one: answered with id null.
    let mut anonymous: Vec<i64> = replies
        .iter()
        .filter(|r| r.as_object().unwrap().contains_key("id") && r["id"].is_null())
        .map(|r| r["error"]["code"].as_i64().unwrap())
        .collect();
    anonymous.sort();
    assert_eq!(anonymous, [-32700, -32600], "{}", run.stdout);
    assert_eq!(run.status.code(), Some(0), "{}", run.stderr);
}

/// A self-bound daemon with a `NOTIFY_SOCKET` the test reads.
struct Notified {
    dir: tempfile::TempDir,
    notify: UnixDatagram,
    child: std::process::Child,
    /// Every notification so far, concatenated.
    seen: String,
}

impl Notified {
    fn start(extra_env: &[(&str, &str)], stderr: Stdio) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let notify_path = dir.path().join("notify.sock");
        let notify = UnixDatagram::bind(&notify_path).unwrap();
        notify
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        let child = daemon_on(&dir.path().join("mcp.sock"))
            .env("NOTIFY_SOCKET", &notify_path)
            .envs(extra_env.iter().copied())
            .stderr(stderr)
            .spawn()
            .unwrap();
        Notified {
            dir,
            notify,
            child,
            seen: String::new(),
        }
    }

    fn socket(&self) -> std::path::PathBuf {
        self.dir.path().join("mcp.sock")
    }

    /// Reads notifications until every one of `states` has been seen.
    fn wait_for(&mut self, states: &[&str]) {
        let mut buf = [0u8; 4096];
        while !states.iter().all(|s| self.seen.contains(s)) {
            let n = self
                .notify
                .recv(&mut buf)
                .unwrap_or_else(|e| panic!("{states:?} within 10 s ({e}); seen: {}", self.seen));
            self.seen.push_str(&String::from_utf8_lossy(&buf[..n]));
        }
    }

    fn sigterm(&self) {
        nix::sys::signal::kill(
            nix::unistd::Pid::from_raw(self.child.id() as i32),
            nix::sys::signal::Signal::SIGTERM,
        )
        .unwrap();
    }
}

#[test]
fn notifies_systemd_ready_status_watchdog_and_stopping() {
    let mut d = Notified::start(&[("WATCHDOG_USEC", "400000")], Stdio::null());
    d.wait_for(&["READY=1", "WATCHDOG=1"]);
    assert!(d.seen.contains("STATUS=listening on"), "{}", d.seen);
    d.sigterm();
    d.wait_for(&["STOPPING=1"]);
    assert!(d.child.wait().unwrap().success());
}

/// STATUS counts the sessions being served: none once the last one ended (not the accept loop's
/// own waiting slot: "1 open connections" was shown forever). SIGHUP is a reload: RELOADING=1 with
/// the time, then READY=1, and the daemon goes on.
#[test]
fn status_counts_open_sessions_and_sighup_reloads() {
    let mut d = Notified::start(&[], Stdio::null());
    d.wait_for(&["READY=1"]);
    d.seen.clear();
    let socket = d.socket();
    let mut raw = Raw::connect(&socket);
    raw.initialize();
    drop(raw);
    // The one STATUS sent when the session has ended.
    d.wait_for(&["STATUS="]);
    let status = d
        .seen
        .split("STATUS=")
        .nth(1)
        .unwrap()
        .lines()
        .next()
        .unwrap();
    assert_eq!(status, format!("listening on {}", socket.display()));

    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(d.child.id() as i32),
        nix::sys::signal::Signal::SIGHUP,
    )
    .unwrap();
    d.seen.clear();
    d.wait_for(&["RELOADING=1", "MONOTONIC_USEC=", "READY=1"]);
    Raw::connect(&socket).initialize();
    d.sigterm();
    assert!(d.child.wait().unwrap().success());
}

/// systemd may send SIGTERM the moment READY=1 arrives (a quick `systemctl
/// restart`): the daemon must already own SIGTERM then, or it dies by the
/// signal without STOPPING, draining or removing its socket.
#[test]
fn sigterm_right_after_ready_still_stops_gracefully() {
    for round in 0..40 {
        let mut d = Notified::start(&[], Stdio::null());
        let socket = d.socket();
        // Odd rounds signal as soon as the socket file exists (a hand-run
        // daemon, a client that gives up), even rounds on READY (systemd).
        if round % 2 == 1 {
            let deadline = Instant::now() + Duration::from_secs(10);
            while !socket.exists() {
                assert!(Instant::now() < deadline, "socket within 10 s");
                std::hint::spin_loop();
            }
        } else {
            d.wait_for(&["READY=1"]);
        }
        d.sigterm();
        let status = d.child.wait().unwrap();
        assert!(
            status.success(),
            "round {round}: SIGTERM right after READY ended the daemon with {status}"
        );
        assert!(!socket.exists(), "round {round}: socket left behind");
    }
}

/// `JOURNAL_STREAM` is inherited by whatever a unit starts; it means "stderr
/// is the journal" only when it names stderr's own device and inode. A
/// daemon whose stderr is elsewhere (a pipe here) logs there.
#[test]
fn an_inherited_journal_stream_does_not_hide_the_logs() {
    let mut d = Notified::start(&[("JOURNAL_STREAM", "8:12345")], Stdio::piped());
    d.wait_for(&["READY=1"]);
    d.sigterm();
    let out = d.child.wait_with_output().unwrap();
    assert!(out.status.success());
    let logs = String::from_utf8_lossy(&out.stderr);
    assert!(logs.contains("logs=\"stderr\""), "{logs}");
    assert!(logs.contains("listening"), "{logs}");
}

#[test]
fn configuration_errors_name_the_variable_and_never_print_secrets() {
    let secret = "s3cr3t-Pa55w0rd-never-print";
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty");
    std::fs::write(&empty, "\n").unwrap();
    let base = [
        ("OMBI_URL", "http://ombi.lan:5000"),
        ("OMBI_AUTH_MODE", "jwt"),
        ("OMBI_USERNAME", "alice"),
        ("OMBI_PASSWORD", secret),
    ];
    let empty_s = empty.display().to_string();
    // (variables to set over `base`, variables to remove, the variable the error names)
    type Case<'a> = (Vec<(&'a str, &'a str)>, Vec<&'a str>, &'a str);
    /// `var` set to a bad `value`: the error names it.
    fn bad<'a>(var: &'a str, value: &'a str) -> Case<'a> {
        (vec![(var, value)], vec![], var)
    }
    /// `var` not set: the error names it.
    fn missing(var: &str) -> Case<'_> {
        (vec![], vec![var], var)
    }
    let cases: Vec<Case> = vec![
        missing("OMBI_URL"),
        bad("OMBI_URL", "ftp://ombi"),
        bad("OMBI_URL", "not a url"),
        bad("OMBI_URL", "http://u:s3cr3t-Pa55w0rd-never-print@h/"),
        bad("OMBI_URL", "http://h/?apikey=1"),
        bad("OMBI_URL", "http://h/#x"),
        missing("OMBI_AUTH_MODE"),
        bad("OMBI_AUTH_MODE", "basic"),
        missing("OMBI_USERNAME"),
        missing("OMBI_PASSWORD"),
        (
            vec![("OMBI_PASSWORD_FILE", "/nonexistent/pw")],
            vec!["OMBI_PASSWORD"],
            "OMBI_PASSWORD_FILE",
        ),
        (
            vec![("OMBI_PASSWORD_FILE", &empty_s)],
            vec!["OMBI_PASSWORD"],
            "OMBI_PASSWORD_FILE",
        ),
        (vec![("OMBI_AUTH_MODE", "api_key")], vec![], "OMBI_API_KEY"),
        (
            vec![
                ("OMBI_AUTH_MODE", "api_key"),
                ("OMBI_API_KEY", secret),
                ("OMBI_USER_NAME", " "),
            ],
            vec![],
            "OMBI_USER_NAME",
        ),
        bad("OMBI_BUNDLES", "core,admin"),
        bad("OMBI_BUNDLES", ","),
        bad("OMBI_READ_ONLY", "maybe"),
        bad("OMBI_HTTP_TIMEOUT", "0"),
        bad("OMBI_HTTP_TIMEOUT", "abc"),
        bad("OMBI_LOCKDOWN", "sometimes"),
        bad("OMBI_MCP_INIT_TIMEOUT", "0"),
        bad("OMBI_POLL_INTERVAL", "9"),
        bad("OMBI_POLL_INTERVAL", "1m"),
        bad("OMBI_MCP_POLICY", "/nonexistent/policy.json"),
    ];
    for (set, unset, var) in cases {
        let mut cmd = Command::new(DAEMON);
        cmd.arg("--check-config").arg("--offline").env_clear();
        for (k, v) in base.iter().chain(set.iter()) {
            if !unset.contains(k) {
                cmd.env(k, v);
            }
        }
        let out = cmd.output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(78), "{var}: {stderr}");
        let error_lines: Vec<&str> = stderr
            .lines()
            .filter(|l| l.contains("configuration error"))
            .collect();
        assert_eq!(error_lines.len(), 1, "{var}: one line: {stderr}");
        assert!(error_lines[0].contains(var), "{var} not named: {stderr}");
        assert!(
            !stderr.contains(secret) && !stdout.contains(secret),
            "{var}: secret printed: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{var}: {stderr}");
    }
    // A valid configuration passes, and the plain secret variable is warned about.
    let out = Command::new(DAEMON)
        .args(["--check-config", "--offline"])
        .env_clear()
        .envs(base)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("OMBI_PASSWORD is set in the environment"),
        "{stderr}"
    );
    assert!(!stderr.contains(secret) && !String::from_utf8_lossy(&out.stdout).contains(secret));
}

#[test]
fn help_and_version() {
    for bin in [DAEMON, SHIM] {
        let out = Command::new(bin).arg("--version").output().unwrap();
        assert!(out.status.success());
        let text = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        assert!(text.contains(env!("CARGO_PKG_VERSION")), "{text}");
        let out = Command::new(bin).arg("--help").output().unwrap();
        assert!(out.status.success());
        let text = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        assert!(text.contains("--socket"), "{text}");
        let out = Command::new(bin).arg("--bogus").output().unwrap();
        assert_eq!(out.status.code(), Some(64));
    }
    // Every setting the daemon reads is in its help.
    let out = Command::new(DAEMON).arg("--help").output().unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    for var in ombi_mcp::config::VARS.iter().chain(&["RUST_LOG", "SIGHUP"]) {
        assert!(help.contains(var), "--help does not name {var}");
    }
    // The shim never writes help to stdout: stdout is reserved for MCP bytes.
    let out = Command::new(SHIM).arg("--help").output().unwrap();
    assert!(out.stdout.is_empty());
}

#[test]
fn daemon_is_not_dumpable() {
    if !require(is_root(), "root (to run the daemon as a second uid)") {
        return;
    }
    use std::os::unix::fs::MetadataExt;
    let (uid, gid) = test_user();
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    let socket = dir.path().join("mcp.sock");
    let mut child = Command::new("setpriv")
        .arg(format!("--reuid={uid}"))
        .arg(format!("--regid={gid}"))
        .arg("--clear-groups")
        .arg(DAEMON)
        .arg("--socket")
        .arg(&socket)
        .envs(offline_env())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while !socket.exists() {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "daemon did not start as uid {uid}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // A non-dumpable process's /proc files belong to root, not to its uid:
    // other processes of the same user cannot ptrace it or read its memory.
    let owner = std::fs::metadata(format!("/proc/{}/mem", child.id()))
        .unwrap()
        .uid();
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(owner, 0, "PR_SET_DUMPABLE 0 makes /proc/PID/mem root-owned");
}

/// A script that waits for the socket file and connects at once is never
/// refused: the file appears only when the daemon is already listening.
#[test]
fn the_socket_file_appears_only_when_listening() {
    for _ in 0..20 {
        let dir = tempfile::tempdir().unwrap();
        let socket = dir.path().join("mcp.sock");
        let mut child = daemon_on(&socket).stderr(Stdio::null()).spawn().unwrap();
        let start = std::time::Instant::now();
        while !socket.exists() {
            assert!(start.elapsed() < Duration::from_secs(10), "no socket");
            std::hint::spin_loop();
        }
        let connected = std::os::unix::net::UnixStream::connect(&socket);
        child.kill().unwrap();
        child.wait().unwrap();
        connected.expect("connect right after the file appeared");
        let leftovers: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert!(
            leftovers.iter().all(|n| n == "mcp.sock"),
            "staging file left behind: {leftovers:?}"
        );
    }
}
