//! Test harness: runs the real `ombi-mcpd` (self-bound or under
//! `systemd-socket-activate`) and reaches it through the real `ombi-mcp` shim. Also `#[path]`-included by
//! benches/figures.rs, which uses a part of it: hence `dead_code`.
#![allow(dead_code)]

use std::fs::File;
use std::io::{Read, Write};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;
use serde_json::{Value, json};
use tempfile::TempDir;

pub const DAEMON: &str = env!("CARGO_BIN_EXE_ombi-mcpd");
pub const SHIM: &str = env!("CARGO_BIN_EXE_ombi-mcp");
pub const SOCKET_ACTIVATE: &str = "/usr/bin/systemd-socket-activate";

/// True on CI, where a missing tool must fail the test instead of skipping it.
pub fn on_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true" || v == "1")
}

/// Set by the Nix package's checkPhase (nixos/package.nix): the sandbox offers loopback
/// sockets, the real binaries and the fake Ombi, nothing else, so every `require` skips.
pub fn hermetic() -> bool {
    std::env::var("OMBI_MCP_HERMETIC_TESTS").is_ok_and(|v| v == "1")
}

/// The one gate of every test that needs more than the fake Ombi and the binaries (a tool, a
/// client, root, a file beside the checkout): `cond` says whether `what` is here. Where it is not,
/// the test skips with a printed message, except under CI (`CI=true`), where no test may pass by
/// skipping: it fails, naming what is missing. In a hermetic run it always skips.
pub fn require(cond: bool, what: &str) -> bool {
    if hermetic() {
        eprintln!("SKIP: {what} (OMBI_MCP_HERMETIC_TESTS=1: the Nix build sandbox)");
        return false;
    }
    if !cond {
        assert!(
            !on_ci(),
            "missing: {what}. Under CI=true this test must run, not skip (.ci/run installs \
             what the tests need)"
        );
        eprintln!("SKIP: {what}");
    }
    cond
}

/// Whether `name` is an executable file in a `PATH` directory.
pub fn on_path(name: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(name).is_file()))
}

pub fn is_root() -> bool {
    nix::unistd::geteuid().is_root()
}

/// Environment of a daemon that never reaches a real Ombi (for transport tests).
pub fn offline_env() -> Vec<(String, String)> {
    vec![
        ("OMBI_URL".into(), "http://127.0.0.1:9/".into()),
        ("OMBI_AUTH_MODE".into(), "api_key".into()),
        (
            "OMBI_API_KEY".into(),
            "test-api-key-0123456789abcdef".into(),
        ),
    ]
}

pub struct DaemonOpts {
    pub env: Vec<(String, String)>,
    pub policy: Option<String>,
    pub activated: bool,
    pub extra_args: Vec<String>,
}

impl Default for DaemonOpts {
    fn default() -> Self {
        DaemonOpts {
            env: offline_env(),
            policy: None,
            activated: false,
            extra_args: Vec::new(),
        }
    }
}

/// A running daemon in its own temporary directory (world-traversable so
/// tests can connect as other users).
pub struct Daemon {
    pub child: Child,
    pub socket: PathBuf,
    pub dir: TempDir,
    log: PathBuf,
}

impl Daemon {
    pub fn start(opts: DaemonOpts) -> Daemon {
        let activated = opts.activated;
        let d = Daemon::spawn(opts);
        d.wait_for_socket(activated);
        d
    }

    /// Under `systemd-socket-activate`, not yet started: returns once the
    /// socket listens, without connecting (a connect would exec the daemon),
    /// so the caller's first connection meets a cold start.
    pub fn start_cold(opts: DaemonOpts) -> Daemon {
        let d = Daemon::spawn(DaemonOpts {
            activated: true,
            ..opts
        });
        let deadline = Instant::now() + Duration::from_secs(20);
        while !d.listening() {
            assert!(
                Instant::now() < deadline,
                "systemd-socket-activate never listened"
            );
            std::thread::sleep(Duration::from_millis(1));
        }
        d
    }

    /// Whether the socket is in the listening state (`/proc/net/unix` flag
    /// `__SO_ACCEPTCON`), seen without connecting to it.
    fn listening(&self) -> bool {
        let path = self.socket.to_string_lossy();
        std::fs::read_to_string("/proc/net/unix")
            .unwrap_or_default()
            .lines()
            .any(|l| {
                let f: Vec<&str> = l.split_whitespace().collect();
                f.len() == 8 && f[3] == "00010000" && f[7] == path
            })
    }

    fn spawn(opts: DaemonOpts) -> Daemon {
        let dir = tempfile::Builder::new()
            .prefix("ombi-mcp-test")
            .tempdir()
            .unwrap();
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        let socket = dir.path().join("mcp.sock");
        let log = dir.path().join("daemon.log");
        let mut env = opts.env.clone();
        if let Some(policy) = &opts.policy {
            let path = dir.path().join("policy.json");
            std::fs::write(&path, policy).unwrap();
            env.push(("OMBI_MCP_POLICY".into(), path.display().to_string()));
        }
        if !env.iter().any(|(k, _)| k == "RUST_LOG") {
            env.push(("RUST_LOG".into(), "info,rmcp=warn".into()));
        }
        let mut cmd = if opts.activated {
            let mut c = Command::new(SOCKET_ACTIVATE);
            c.arg("-l").arg(&socket).arg("--fdname=mcp");
            for (k, v) in &env {
                c.arg("-E").arg(format!("{k}={v}"));
            }
            c.arg(DAEMON);
            c
        } else {
            let mut c = Command::new(DAEMON);
            c.arg("--socket").arg(&socket);
            c.envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())));
            c
        };
        cmd.args(&opts.extra_args);
        cmd.env_remove("NOTIFY_SOCKET");
        cmd.stdin(Stdio::null())
            .stdout(File::create(&log).unwrap())
            .stderr(File::create(&log).unwrap());
        let child = cmd.spawn().expect("spawn ombi-mcpd");
        Daemon {
            child,
            socket,
            dir,
            log,
        }
    }

    /// Waits until the daemon accepts connections, as a user's script would.
    /// Self-bound: the socket file appears only once it is listening (the
    /// daemon binds a staging name and renames it), so the file is enough.
    /// Activated: systemd-socket-activate's own bind() creates the file a
    /// moment before listen(), so wait for a successful connect (which also
    /// starts the daemon).
    fn wait_for_socket(&self, activated: bool) {
        let deadline = Instant::now() + Duration::from_secs(20);
        while Instant::now() < deadline {
            let ready = if activated {
                UnixStream::connect(&self.socket).is_ok()
            } else {
                self.socket.exists()
            };
            if ready {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        panic!("daemon never served its socket; log:\n{}", self.logs());
    }

    /// Lets anybody connect (systemd-socket-activate creates 0644 sockets;
    /// the self-bound one is 0660): the policy, not the mode, is under test.
    pub fn open_socket_to_all(&self) {
        std::fs::set_permissions(&self.socket, std::fs::Permissions::from_mode(0o666)).unwrap();
    }

    pub fn logs(&self) -> String {
        let mut s = String::new();
        if let Ok(mut f) = File::open(&self.log) {
            let _ = f.read_to_string(&mut s);
        }
        s
    }

    /// Waits until the log contains `needle` (logs are written asynchronously).
    pub fn wait_log(&self, needle: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let logs = self.logs();
            if logs.contains(needle) || Instant::now() > deadline {
                return logs;
            }
            std::thread::sleep(Duration::from_millis(25));
        }
    }

    pub fn pid(&self) -> Pid {
        Pid::from_raw(self.child.id() as i32)
    }

    /// SIGTERM and wait (bounded).
    pub fn stop(&mut self) -> ExitStatus {
        let _ = kill(self.pid(), Signal::SIGTERM);
        self.wait(Duration::from_secs(20))
            .expect("daemon did not stop after SIGTERM")
    }

    pub fn wait(&mut self, limit: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + limit;
        while Instant::now() < deadline {
            if let Some(status) = self.child.try_wait().unwrap() {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    }

    /// Connects once so a socket-activated daemon gets exec'd, then waits
    /// until it serves.
    pub fn connectable(&self) -> bool {
        UnixStream::connect(&self.socket).is_ok()
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A shim command for `socket` (for rmcp's child-process transport).
pub fn shim_command(socket: &Path) -> tokio::process::Command {
    let mut c = tokio::process::Command::new(SHIM);
    c.arg("--socket").arg(socket);
    c
}

/// Connects a real rmcp client through the real shim.
pub async fn client(socket: &Path) -> rmcp::service::RunningService<rmcp::RoleClient, ()> {
    use rmcp::ServiceExt;
    let transport =
        rmcp::transport::TokioChildProcess::new(shim_command(socket)).expect("spawn shim");
    ().serve(transport)
        .await
        .expect("MCP initialize through the shim")
}

/// Connects a real rmcp client through the real shim to `d`; on failure the
/// panic carries the daemon's log.
pub async fn connect(d: &Daemon) -> rmcp::service::RunningService<rmcp::RoleClient, ()> {
    use rmcp::ServiceExt;
    let transport =
        rmcp::transport::TokioChildProcess::new(shim_command(&d.socket)).expect("spawn shim");
    match ().serve(transport).await {
        Ok(c) => c,
        Err(e) => panic!(
            "MCP initialize through the shim: {e}\ndaemon log:\n{}",
            d.logs()
        ),
    }
}

/// The real shim on `socket` with all three pipes, for a test that talks to it line by line.
pub fn spawn_shim(socket: &Path) -> Child {
    Command::new(SHIM)
        .arg("--socket")
        .arg(socket)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn shim")
}

/// One JSON-RPC `initialize` line, as a client would send it.
pub const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"harness","version":"1"}}}"#;

/// The first part of an `initialize` frame, never finished (no newline).
pub const HALF_INITIALIZE: &str =
    r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11"#;

/// Output of a shim run with `input` on stdin.
pub struct ShimRun {
    pub status: ExitStatus,
    pub stdout: String,
    pub stderr: String,
}

/// Runs the shim (optionally as another user via setpriv) with `input`,
/// keeping stdin open `hold` after writing so replies can arrive.
pub fn run_shim(
    socket: &Path,
    input: &str,
    as_user: Option<(u32, u32)>,
    hold: Duration,
) -> ShimRun {
    let mut cmd = match as_user {
        Some((uid, gid)) => {
            let mut c = Command::new("setpriv");
            c.arg(format!("--reuid={uid}"))
                .arg(format!("--regid={gid}"))
                .arg("--clear-groups")
                .arg(SHIM);
            c
        }
        None => Command::new(SHIM),
    };
    cmd.arg("--socket").arg(socket);
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn shim");
    let mut stdin = child.stdin.take().unwrap();
    let _ = stdin.write_all(input.as_bytes());
    let _ = stdin.flush();
    std::thread::sleep(hold);
    drop(stdin);
    wait_output(child, Duration::from_secs(20))
}

/// Waits for `child` and collects its output. Its pipes are drained while
/// it runs: a child blocked on a full stdout pipe (a `tools/list` reply is
/// larger than the 64 KiB a pipe holds) would otherwise never exit.
pub fn wait_output(child: Child, limit: Duration) -> ShimRun {
    let pid = Pid::from_raw(child.id() as i32);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    let Ok(out) = rx.recv_timeout(limit) else {
        let _ = kill(pid, Signal::SIGKILL);
        panic!("process did not exit within {limit:?}");
    };
    let out = out.unwrap();
    ShimRun {
        status: out.status,
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// A system user for peer-policy tests (CI runs as root), created once.
pub fn test_user() -> (u32, u32) {
    test_user_named("ombi-mcp-peer")
}

/// A second one, for tests of one peer against another.
pub fn second_test_user() -> (u32, u32) {
    test_user_named("ombi-mcp-peer2")
}

/// Runs `f` on a thread of its own whose credentials are `uid`/`gid` (no
/// supplementary groups): what it connects or binds is that user's, as
/// `SO_PEERCRED` and the file system see it. Raw syscalls, because glibc's
/// wrappers change the credentials of every thread of the process; the
/// kernel keeps them per thread, and this thread ends with `f`. Needs root.
pub fn as_user<T: Send>(uid: u32, gid: u32, f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|scope| {
        scope
            .spawn(move || {
                // SAFETY: plain syscalls on this thread's own credentials.
                unsafe {
                    let none: *const libc::gid_t = std::ptr::null();
                    assert_eq!(libc::syscall(libc::SYS_setgroups, 0, none), 0);
                    assert_eq!(libc::syscall(libc::SYS_setresgid, gid, gid, gid), 0);
                    assert_eq!(libc::syscall(libc::SYS_setresuid, uid, uid, uid), 0);
                }
                f()
            })
            .join()
            .expect("the thread acting as another user")
    })
}

fn test_user_named(name: &str) -> (u32, u32) {
    if nix::unistd::User::from_name(name).unwrap().is_none() {
        let status = Command::new("useradd")
            .args([
                "--system",
                "--no-create-home",
                "--shell",
                "/usr/sbin/nologin",
                name,
            ])
            .status()
            .expect("run useradd");
        // Another test may have created it concurrently: re-check rather than trust the status.
        let _ = status;
    }
    let user = nix::unistd::User::from_name(name)
        .unwrap()
        .expect("test user exists");
    (user.uid.as_raw(), user.gid.as_raw())
}

/// A raw connection to the daemon's socket (no shim): JSON-RPC lines in and out.
pub struct Raw {
    pub stream: UnixStream,
    reader: std::io::BufReader<UnixStream>,
}

impl Raw {
    pub fn connect(socket: &Path) -> Raw {
        Raw::from_stream(UnixStream::connect(socket).expect("connect to the daemon"))
    }

    /// `stream`, connected elsewhere (as another user: [`as_user`]).
    pub fn from_stream(stream: UnixStream) -> Raw {
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .unwrap();
        let reader = std::io::BufReader::new(stream.try_clone().unwrap());
        Raw { stream, reader }
    }

    /// Sends `line` plus a newline.
    pub fn send(&mut self, line: &str) {
        self.stream
            .write_all(format!("{line}\n").as_bytes())
            .expect("write a line");
    }

    /// The next line, parsed; `None` at EOF.
    pub fn recv(&mut self) -> Option<serde_json::Value> {
        use std::io::BufRead;
        let mut line = String::new();
        match self.reader.read_line(&mut line) {
            Ok(0) => None,
            Ok(_) => Some(serde_json::from_str(&line).expect("every reply line is JSON")),
            Err(e) => panic!("reading a reply: {e}"),
        }
    }

    /// The buffered reader of the replies (for a test reading with its own deadline).
    pub fn reader(&mut self) -> &mut std::io::BufReader<UnixStream> {
        &mut self.reader
    }

    /// The next line, parsed; `None` at EOF or when the connection broke
    /// (a daemon closing a connection with unread bytes resets it).
    pub fn try_recv(&mut self) -> Option<serde_json::Value> {
        use std::io::BufRead;
        let mut line = String::new();
        match self.reader.read_line(&mut line) {
            Ok(0) | Err(_) => None,
            Ok(_) => Some(serde_json::from_str(&line).expect("every reply line is JSON")),
        }
    }

    /// `initialize` + `notifications/initialized`, checking the reply.
    pub fn initialize(&mut self) {
        self.send(INITIALIZE);
        let reply = self.recv().expect("initialize reply");
        assert_eq!(reply["id"], 1, "{reply}");
        assert!(reply["result"]["serverInfo"].is_object(), "{reply}");
        self.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    }
}

/// Figures of a running process from /proc.
pub struct ProcStats {
    pub rss_kib: u64,
    pub fds: usize,
    pub threads: usize,
}

/// A `Field: N kB` line of a /proc file (`/proc/<pid>/status`, `/proc/meminfo`).
pub fn proc_kib(file: &str, field: &str) -> Option<u64> {
    std::fs::read_to_string(file)
        .ok()?
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
}

pub fn proc_stats(pid: u32) -> ProcStats {
    let status = format!("/proc/{pid}/status");
    ProcStats {
        rss_kib: proc_kib(&status, "VmRSS:").unwrap_or_else(|| panic!("VmRSS: in {status}")),
        fds: std::fs::read_dir(format!("/proc/{pid}/fd"))
            .unwrap()
            .count(),
        threads: std::fs::read_dir(format!("/proc/{pid}/task"))
            .unwrap()
            .count(),
    }
}

/// The machine the benches ran on: CPUs, their model, memory.
pub fn machine() -> String {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpuinfo
        .lines()
        .find_map(|l| l.strip_prefix("model name"))
        .map(|v| v.trim_start_matches([' ', '\t', ':']).to_string())
        .unwrap_or_else(|| "unknown CPU".into());
    let cpus = std::thread::available_parallelism().map_or(0, |n| n.get());
    let mem = proc_kib("/proc/meminfo", "MemTotal:").unwrap_or(0) as f64 / 1024.0 / 1024.0;
    format!("{cpus} × {model}, {mem:.1} GiB memory")
}

/// The load average over 1, 5 and 15 minutes (as `uptime` prints it).
pub fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .unwrap_or_default()
        .split_whitespace()
        .take(3)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The runtime a bench drives the daemon from: two workers, as the
/// machine has two cores.
pub fn bench_runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

/// `OMBI_MCP_SOAK=1` runs the long variants of the reliability tests.
pub fn soak() -> bool {
    std::env::var("OMBI_MCP_SOAK").is_ok_and(|v| v == "1")
}

// ------------------------------------------------------------- fair share
//
// One hostile local user against the others (docs/security.md, "Fair
// share"): shared by tests/it/reliability/fair_share.rs (bounds) and
// benches/flood.rs (the release build's figures, docs/performance.md).

/// `n` connections to `socket` made by `uid` ([`as_user`]).
pub fn connect_as(socket: &Path, (uid, gid): (u32, u32), n: usize) -> Vec<UnixStream> {
    as_user(uid, gid, || {
        (0..n)
            .map(|_| UnixStream::connect(socket).expect("connect"))
            .collect()
    })
}

/// Sends `initialize` and says whether it was answered (a refused
/// connection is closed without a byte: EOF or a reset).
pub fn initializes(stream: UnixStream) -> Option<Raw> {
    let mut raw = Raw::from_stream(stream);
    // Generous: a debug daemon's first call builds the sanitizer's table
    // (seconds on a loaded machine); the bounds under test are timed apart.
    raw.stream
        .set_read_timeout(Some(Duration::from_secs(90)))
        .unwrap();
    if raw
        .stream
        .write_all(format!("{INITIALIZE}\n").as_bytes())
        .is_err()
    {
        return None;
    }
    let reply = raw.try_recv()?;
    assert_eq!(reply["id"], 1, "{reply}");
    raw.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    Some(raw)
}

/// A `tools/call` of `read_reference` with `action` as request `id`.
pub fn reference_call(id: u64, action: &str) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
           "params": {"name": "read_reference", "arguments": {"action": action}}})
    .to_string()
}

/// The answer to request `id` (skipping anything else).
pub fn answer(raw: &mut Raw, id: u64) -> Value {
    loop {
        let msg = raw.recv().expect("an answer before EOF");
        if msg["id"] == id {
            return msg;
        }
    }
}

/// Another user's whole first exchange: connect, `initialize`, and a small
/// call that reaches Ombi (`read_reference issue_categories`); how long it took.
pub fn second_peer_is_served(socket: &Path, peer: (u32, u32)) -> Duration {
    let started = Instant::now();
    let stream = connect_as(socket, peer, 1).pop().unwrap();
    let mut raw = initializes(stream).expect("the second peer is admitted");
    raw.send(&reference_call(2, "issue_categories"));
    let reply = answer(&mut raw, 2);
    assert_eq!(reply["result"]["structuredContent"]["ok"], true, "{reply}");
    started.elapsed()
}

/// One uid's flood of pipelined calls against a slowed Ombi route.
pub struct Flood {
    /// Connections the flooding uid opens and initializes; those past its
    /// share of the sessions are refused.
    pub connections: usize,
    /// Calls pipelined at once, spread over the sessions admitted.
    pub calls: usize,
    /// The `read_reference` action every call makes (the slowed route's).
    pub action: &'static str,
    /// Raw connects the flooding uid makes meanwhile, one after the other,
    /// each waiting for the daemon to close it.
    pub raw_connects: usize,
    /// How often another uid's first exchange is timed during the flood.
    pub other_every: Duration,
}

/// What a [`flood`] did to the daemon.
#[derive(Debug, Default)]
pub struct FloodFigures {
    /// Sessions of the flooding uid answered `initialize`.
    pub admitted: usize,
    pub ok: usize,
    /// Ended `TIMEOUT` (retryable): waited `OMBI_HTTP_TIMEOUT` for a turn.
    pub timed_out: usize,
    /// Failed for want of file descriptors ("Too many open files").
    pub no_descriptors: usize,
    /// Any other answer.
    pub other: Vec<Value>,
    /// Raw connects the daemon closed without a byte.
    pub raw_closed: usize,
    /// Raw connects whose `connect` itself failed.
    pub raw_failed: usize,
    /// The daemon's most descriptors and RSS, sampled every 50 ms.
    pub most_fds: usize,
    pub most_rss_kib: u64,
    /// Another uid's connect + `initialize` + small call, timed every
    /// `other_every` while the flood lasts.
    pub other_served: Vec<Duration>,
    /// From the first connection to the last answer.
    pub took: Duration,
}

/// Samples the daemon `pid`'s descriptors and RSS until `done`.
fn sample(pid: u32, done: &AtomicBool) -> (usize, u64) {
    let (mut fds, mut rss) = (0, 0);
    loop {
        let s = proc_stats(pid);
        fds = fds.max(s.fds);
        rss = rss.max(s.rss_kib);
        if done.load(Ordering::SeqCst) {
            return (fds, rss);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// `hog` floods the daemon `pid` on `socket` as `spec` says while `other`'s
/// first exchange is timed; returns once every call is answered and every
/// session of `hog` closed. Blocking (threads of its own): call it from
/// outside an async runtime's workers (`spawn_blocking`).
pub fn flood(
    socket: &Path,
    pid: u32,
    hog: (u32, u32),
    other: (u32, u32),
    spec: &Flood,
) -> FloodFigures {
    let started = Instant::now();
    let done = Arc::new(AtomicBool::new(false));
    let sampler = {
        let done = done.clone();
        std::thread::spawn(move || sample(pid, &done))
    };
    let sessions: Vec<Raw> = connect_as(socket, hog, spec.connections)
        .into_iter()
        .filter_map(initializes)
        .collect();
    let admitted = sessions.len();
    assert!(admitted > 0, "no session of the flooding uid was admitted");
    // Every session gets its calls in one write, then reads its answers
    // (in the order the calls end) on a thread of its own, so no session's
    // unread answers hold the daemon's writer for it.
    let readers: Vec<_> = sessions
        .into_iter()
        .enumerate()
        .map(|(n, mut raw)| {
            let ids: Vec<u64> = (0..spec.calls as u64)
                .filter(|i| *i as usize % admitted == n)
                .map(|i| 100 + i)
                .collect();
            let lines: String = ids
                .iter()
                .map(|id| reference_call(*id, spec.action) + "\n")
                .collect();
            raw.stream.write_all(lines.as_bytes()).expect("pipeline");
            raw.stream
                .set_read_timeout(Some(Duration::from_secs(300)))
                .unwrap();
            std::thread::spawn(move || {
                (0..ids.len())
                    .map(|_| raw.recv().expect("an answer to each call"))
                    .collect::<Vec<Value>>()
            })
        })
        .collect();
    let raw_flood = {
        let (socket, n) = (socket.to_path_buf(), spec.raw_connects);
        std::thread::spawn(move || {
            as_user(hog.0, hog.1, || {
                let (mut closed, mut failed) = (0, 0);
                for _ in 0..n {
                    let Ok(mut c) = UnixStream::connect(&socket) else {
                        failed += 1;
                        continue;
                    };
                    c.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
                    if matches!(c.read(&mut [0u8; 1]), Ok(0) | Err(_)) {
                        closed += 1;
                    }
                }
                (closed, failed)
            })
        })
    };
    let others = {
        let (socket, done, every) = (socket.to_path_buf(), done.clone(), spec.other_every);
        std::thread::spawn(move || {
            let mut took = Vec::new();
            loop {
                std::thread::sleep(every);
                took.push(second_peer_is_served(&socket, other));
                if done.load(Ordering::SeqCst) {
                    return took;
                }
            }
        })
    };
    let mut figures = FloodFigures {
        admitted,
        ..FloodFigures::default()
    };
    for reader in readers {
        for reply in reader.join().expect("a session's reader") {
            let env = &reply["result"]["structuredContent"];
            if env["ok"] == true {
                figures.ok += 1;
            } else if env["error"]["code"] == "TIMEOUT" {
                figures.timed_out += 1;
            } else if reply.to_string().contains("Too many open files")
                || reply.to_string().contains("os error 24")
            {
                figures.no_descriptors += 1;
            } else {
                figures.other.push(reply);
            }
        }
    }
    figures.took = started.elapsed();
    (figures.raw_closed, figures.raw_failed) = raw_flood.join().expect("the raw connects");
    done.store(true, Ordering::SeqCst);
    figures.other_served = others.join().expect("the other uid");
    (figures.most_fds, figures.most_rss_kib) = sampler.join().expect("the sampler");
    figures
}
