//! Test harness: runs the real `ombi-mcpd` (self-bound or under
//! `systemd-socket-activate`) and reaches it through the real `ombi-mcp` shim. Also `#[path]`-included by
//! benches/figures.rs, which uses a part of it: hence `dead_code`.
#![allow(dead_code)]

use std::fs::File;
use std::io::Read;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;
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
    use std::io::Write;
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
        use std::io::Write;
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

/// `OMBI_MCP_SOAK=1` runs the long variants of the reliability tests.
pub fn soak() -> bool {
    std::env::var("OMBI_MCP_SOAK").is_ok_and(|v| v == "1")
}
