//! The MCP Inspector CLI (TypeScript SDK, as in Claude Desktop and VS Code)
//! drives the real shim: tools/list and a call whose structuredContent the
//! TypeScript client checks against the advertised outputSchema. `.ci/run`
//! installs it (with Node 22) into `.inspector/`.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: see clippy.toml

#[path = "harness/mod.rs"]
mod harness;
#[path = "support/mod.rs"]
mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

use harness::{Daemon, DaemonOpts, SHIM};
use serde_json::Value;
use support::fake_ombi::{API_KEY, FakeOmbi, Options};

fn inspector() -> Option<(PathBuf, PathBuf)> {
    let bin = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(".inspector/node_modules/.bin");
    let cli = bin.join("mcp-inspector-cli");
    let node = bin.join("node");
    (cli.exists() && node.exists()).then_some((cli, bin))
}

fn run(cli: &Path, bin: &Path, socket: &Path, args: &[&str]) -> Value {
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new(cli)
        .env("PATH", path)
        .arg("--cli")
        .arg(SHIM)
        .arg("--socket")
        .arg(socket)
        .args(args)
        .output()
        .expect("run the inspector");
    assert!(
        out.status.success(),
        "inspector failed: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("inspector prints JSON")
}

#[tokio::test(flavor = "multi_thread")]
async fn inspector_cli_lists_and_calls_through_the_shim() {
    let Some((cli, bin)) = inspector() else {
        // A bonus client (npm may not deliver it): skip, even on CI.
        eprintln!("SKIP: the MCP Inspector CLI in .inspector/ (run .ci/run)");
        return;
    };
    let fake = FakeOmbi::start(Options::default()).await;
    let d = Daemon::start(DaemonOpts {
        env: vec![
            ("OMBI_URL".into(), fake.url.clone()),
            ("OMBI_AUTH_MODE".into(), "api_key".into()),
            ("OMBI_API_KEY".into(), API_KEY.into()),
        ],
        ..DaemonOpts::default()
    });
    let socket = d.socket.clone();
    let (list, call) = tokio::task::spawn_blocking(move || {
        let list = run(&cli, &bin, &socket, &["--method", "tools/list"]);
        let call = run(
            &cli,
            &bin,
            &socket,
            &[
                "--method",
                "tools/call",
                "--tool-name",
                "read_search",
                "--tool-arg",
                "query=matrix",
            ],
        );
        (list, call)
    })
    .await
    .unwrap();
    let names: Vec<&str> = list["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"read_search") && names.iter().all(|n| n.starts_with("read_")),
        "{names:?}"
    );
    assert!(
        list["tools"]
            .as_array()
            .unwrap()
            .iter()
            .all(|t| t["outputSchema"].is_object())
    );
    assert_eq!(call["structuredContent"]["ok"], true, "{call}");
    assert_eq!(call["structuredContent"]["operation"], "read_search");
    assert_eq!(call["isError"], false);
}
