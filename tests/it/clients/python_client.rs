//! The official MCP Python SDK (PyPI `mcp` 2.x, installed by `.ci/run` into
//! `.venv`) drives the real shim and daemon. The SDK probes `server/discover`
//! first and validates `structuredContent` against each tool's `outputSchema`.

use std::path::PathBuf;
use std::process::Command;

use crate::harness::*;

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
    // The SDK's server/discover probe must be answered at once (-32601), not
    // left to its 10 s timeout.
    assert!(report["init_seconds"].as_f64().unwrap() < 8.0, "{report}");
    assert!(report["tools"].is_array());
}
