//! Every read action and one action of every served write tool, driven by the official MCP Python SDK
//! through the real shim and a socket-activated daemon (jwt mode), against the
//! fake Ombi. The SDK validates each `structuredContent` against the tool's
//! `outputSchema` and raises on any mismatch, so one bad projection fails here.

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

use ombi_mcp::tools::{TOOLS, Tool};

use super::python_client::{admin_jwt_env, python_report};
use crate::harness::*;
use crate::support::bad_args;
use crate::support::fake_ombi::{ADMIN_PASSWORD, FakeOmbi, Options};

/// (tool, arguments, expected `ok`): every tool's `examples`, kept in the tool's own file
/// (`src/tools/*.rs`), one or more per action. Reads first, then writes (they change the
/// fake's state), each in catalogue order.
fn calls() -> Vec<(&'static str, Value, bool)> {
    let (reads, writes): (Vec<&Tool>, Vec<&Tool>) =
        TOOLS.iter().copied().partition(|t| !t.def.is_write());
    reads
        .into_iter()
        .chain(writes)
        .flat_map(|t| {
            t.examples
                .iter()
                .map(|(args, ok)| (t.def.name, bad_args::parse(t.def.name, args), *ok))
        })
        .collect()
}

/// The call table is the tools' own examples: every action of every served
/// read tool, and every served write tool, has a call (checked without Python, so a new tool or
/// action without a call fails everywhere, not only where the SDK is installed).
#[test]
fn the_call_table_covers_every_read_action_and_every_write_tool() {
    let calls = calls();
    let mut missing = Vec::new();
    for def in ombi_mcp::tools::definitions() {
        let of_tool: Vec<&Value> = calls
            .iter()
            .filter(|(t, _, _)| *t == def.name)
            .map(|(_, args, _)| args)
            .collect();
        if def.is_write() {
            if of_tool.is_empty() {
                missing.push(def.name.to_string());
            }
            continue;
        }
        for action in def.actions {
            let called = of_tool.iter().any(|args| {
                args.get("action")
                    .and_then(Value::as_str)
                    .or(def.default_action)
                    .map_or(!def.has_action_arg(), |a| a == action.name)
            });
            if !called {
                missing.push(format!("{} {}", def.name, action.name));
            }
        }
    }
    assert!(missing.is_empty(), "no call in the table for: {missing:?}");
}

/// The password `write_user_manage create` is given (its example in
/// `src/tools/users/write_user_manage.rs`): it must reach no log.
const NEW_USER_PASSWORD: &str = "Py-New-Passw0rd-91c2";

fn python() -> Option<PathBuf> {
    let venv = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(".venv/bin/python");
    let p = std::env::var_os("OMBI_MCP_PYTHON")
        .map(PathBuf::from)
        .unwrap_or(venv);
    let ok = Command::new(&p)
        .args(["-c", "import mcp"])
        .status()
        .is_ok_and(|s| s.success());
    ok.then_some(p)
}

#[tokio::test(flavor = "multi_thread")]
async fn every_read_action_passes_the_official_sdk_under_socket_activation() {
    let Some(python) = python() else {
        require(
            false,
            "the MCP Python SDK in .venv (run .ci/run, or set OMBI_MCP_PYTHON)",
        );
        return;
    };
    if !require(
        std::path::Path::new(SOCKET_ACTIVATE).exists(),
        "systemd-socket-activate",
    ) {
        return;
    }
    let fake = FakeOmbi::start(Options::default()).await;
    let (env, _dir) = admin_jwt_env(&fake.url);
    let d = Daemon::start(DaemonOpts {
        env,
        activated: true,
        ..DaemonOpts::default()
    });
    let calls = calls();
    assert!(
        calls
            .iter()
            .any(|(_, args, _)| args["user"]["password"] == NEW_USER_PASSWORD),
        "the write_user_manage example creates a user with NEW_USER_PASSWORD"
    );
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/python/e2e_client.py");
    let mut cmd = Command::new(&python);
    cmd.arg(script).arg(SHIM).arg(&d.socket);
    for (tool, args, _) in &calls {
        cmd.arg(tool).arg(args.to_string());
    }
    let report = python_report(cmd, &d, "the SDK rejected a result").await;
    let served: Vec<&str> = report["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    assert_eq!(
        served.len(),
        ombi_mcp::tools::TOOLS.len(),
        "every served tool is listed: {served:?}"
    );
    let catalogue: Vec<&str> = ombi_mcp::tools::TOOLS.iter().map(|t| t.def.name).collect();
    assert_eq!(served, catalogue, "every served tool is listed, in order");
    for tool in &served {
        assert!(
            calls.iter().any(|(t, _, _)| t == tool),
            "{tool} has no call in the table"
        );
    }
    let results = report["calls"].as_array().unwrap();
    assert_eq!(results.len(), calls.len());
    let mut failures = Vec::new();
    for ((tool, args, want_ok), got) in calls.iter().zip(results) {
        let sc = &got["structured"];
        let ok = sc["ok"].as_bool();
        // The text block is the same JSON as structuredContent.
        let text: Value =
            serde_json::from_str(got["text"][0].as_str().unwrap_or("null")).unwrap_or(Value::Null);
        if &text != sc {
            failures.push(format!(
                "{tool} {args}: text block differs from structuredContent"
            ));
        }
        if ok != Some(*want_ok) || got["isError"].as_bool() != Some(!want_ok) {
            failures.push(format!("{tool} {args}: expected ok={want_ok}, got {sc}"));
        }
        if sc["operation"] != *tool {
            failures.push(format!("{tool}: operation {}", sc["operation"]));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // jwt mode: one login served every call.
    assert_eq!(fake.logins(), 1, "one login for the whole session");
    let logs = d.logs();
    assert!(!logs.contains(ADMIN_PASSWORD), "password in the daemon log");
    assert!(
        !logs.contains(NEW_USER_PASSWORD),
        "a new user's password in the daemon log"
    );
}
