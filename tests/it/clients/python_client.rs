//! The official MCP Python SDK (PyPI `mcp` 2.x, installed by `.ci/run` into
//! `.venv`) drives the real shim and daemon, here with `initialize`
//! (2025-11-25; both eras in `eras::python`), and validates
//! `structuredContent` against each tool's `outputSchema`.

use std::ffi::OsStr;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::harness::*;
use crate::support::fake_ombi::{ADMIN_PASSWORD, ADMIN_USER, Detached, FakeOmbi, Options};

/// The Python with the MCP SDK: `OMBI_MCP_PYTHON`, else the worktree's `.venv`.
pub fn python() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("OMBI_MCP_PYTHON") {
        return Some(PathBuf::from(p));
    }
    let venv = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(".venv/bin/python");
    let ok = venv.exists()
        && Command::new(&venv)
            .args(["-c", "import mcp"])
            .status()
            .is_ok_and(|s| s.success());
    ok.then_some(venv)
}

/// The environment of a daemon logged in to the fake at `url` as the admin
/// `alice` in jwt mode with every bundle. The password file lives in the
/// returned directory: keep it as long as the daemon.
pub fn admin_jwt_env(url: &str) -> (Vec<(String, String)>, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let pw = dir.path().join("password");
    std::fs::write(&pw, format!("{ADMIN_PASSWORD}\n")).unwrap();
    let env = vec![
        ("OMBI_URL".into(), url.to_string()),
        ("OMBI_AUTH_MODE".into(), "jwt".into()),
        ("OMBI_USERNAME".into(), ADMIN_USER.into()),
        ("OMBI_PASSWORD_FILE".into(), pw.display().to_string()),
        (
            "OMBI_BUNDLES".into(),
            "core,moderation,administration".into(),
        ),
    ];
    (env, dir)
}

/// Runs a Python client `cmd` off the async runtime; it must succeed (else
/// `failure`, its stdout and stderr, and the daemon log); returns the JSON
/// report it printed.
pub async fn python_report(cmd: Command, d: &Daemon, failure: &str) -> serde_json::Value {
    let mut cmd = cmd;
    let out = tokio::task::spawn_blocking(move || cmd.output().unwrap())
        .await
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{failure}:\n{stdout}\n{}\ndaemon log:\n{}",
        String::from_utf8_lossy(&out.stderr),
        d.logs()
    );
    serde_json::from_str(stdout.trim()).unwrap()
}

/// Runs tests/python/e2e_client.py against `socket`; returns its JSON report.
pub fn run_python_client(
    python: &PathBuf,
    socket: &std::path::Path,
    calls: &[(&str, &str)],
) -> serde_json::Value {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/python/e2e_client.py");
    let mut cmd = Command::new(python);
    cmd.arg(script).arg(SHIM).arg(socket);
    for (tool, args) in calls {
        cmd.arg(tool).arg(args);
    }
    let out = cmd.output().expect("run python");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "python client failed:\n{}\n{}",
        stdout,
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_str(stdout.trim()).expect("python client report")
}

#[test]
fn official_python_sdk_initializes_and_lists_through_the_shim() {
    let Some(python) = python() else {
        require(
            false,
            "the MCP Python SDK in .venv (run .ci/run, or set OMBI_MCP_PYTHON)",
        );
        return;
    };
    let d = Daemon::start(DaemonOpts::default());
    let report = run_python_client(&python, &d.socket, &[]);
    assert_eq!(report["protocol"], "2025-11-25");
    assert_eq!(report["server"], "ombi-mcp");
    assert_eq!(report["version"], env!("CARGO_PKG_VERSION"));
    // The handshake is answered at once, not left to the SDK's timeout.
    assert!(report["init_seconds"].as_f64().unwrap() < 8.0, "{report}");
    assert!(report["tools"].is_array());
}

/// The SDK's Python, the fake and a daemon logged in to it as the admin `alice` (jwt mode,
/// every bundle), polling every `poll` seconds.
pub fn sdk_setup(
    poll: u64,
    extra: &[(&str, &str)],
) -> Option<(PathBuf, Detached, Daemon, tempfile::TempDir)> {
    let Some(python) = python() else {
        require(false, "the MCP Python SDK in .venv");
        return None;
    };
    let fake = FakeOmbi::start_detached(Options::default());
    let (mut env, dir) = admin_jwt_env(&fake.url);
    env.push(("OMBI_POLL_INTERVAL".into(), poll.to_string()));
    env.extend(extra.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    let d = Daemon::start(DaemonOpts {
        env,
        ..DaemonOpts::default()
    });
    Some((python, fake, d, dir))
}

/// A driver script of `tests/python/` run by the SDK's Python with `args`,
/// driven one JSON command per line, one JSON answer line each.
pub struct ScriptClient {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl ScriptClient {
    pub fn start(python: &Path, script: &str, args: &[&OsStr]) -> ScriptClient {
        let script = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/python")
            .join(script);
        let mut child = Command::new(python)
            .arg(script)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("run python");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        ScriptClient {
            child,
            stdin,
            stdout,
        }
    }

    pub fn ask(&mut self, cmd: Value) -> Value {
        writeln!(self.stdin, "{cmd}").unwrap();
        self.stdin.flush().unwrap();
        let mut line = String::new();
        self.stdout.read_line(&mut line).unwrap();
        serde_json::from_str(&line).unwrap_or_else(|_| panic!("{cmd}: no answer ({line:?})"))
    }

    /// Ends the session (the SDK closes the shim, the daemon sees EOF).
    pub fn quit(mut self) {
        let _ = writeln!(self.stdin, "{}", json!({"op": "quit"}));
        let _ = self.stdin.flush();
        let deadline = Instant::now() + Duration::from_secs(20);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
    }
}
