//! The MCP Inspector CLI (2.x, on the TypeScript SDK, as in Claude Desktop and VS Code) drives
//! the real shim in the legacy era (MCP 2025-11-25): tools/list, and calls whose structuredContent
//! the TypeScript client checks against the advertised outputSchema. `.ci/run` installs it (with
//! the Node 22 it needs) into `.inspector/`.

use std::path::{Path, PathBuf};
use std::process::Command;

use ombi_mcp::definition::{Bundle, BundleSet};
use ombi_mcp::tools::TOOLS;
use serde_json::Value;

use crate::harness::{DaemonOpts, SHIM, require};
use crate::support::examples::filled;
use crate::support::fake_ombi::Options;
use crate::support::rig::Rig;

/// The Inspector's launcher and the `.bin` directory holding it and its Node, when `.inspector/`
/// holds a 2.x Inspector; else `None`, after `require` (which fails under CI).
pub fn inspector() -> Option<(PathBuf, PathBuf)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(".inspector/node_modules");
    let bin = dir.join(".bin");
    let cli = bin.join("mcp-inspector");
    let version = std::fs::read(dir.join("@modelcontextprotocol/inspector/package.json"))
        .ok()
        .and_then(|b| serde_json::from_slice::<Value>(&b).ok())
        .and_then(|p| p["version"].as_str().map(str::to_owned));
    let ready = cli.exists()
        && bin.join("node").exists()
        && version.as_deref().is_some_and(|v| v.starts_with("2."));
    require(
        ready,
        "the MCP Inspector CLI 2.x and Node 22 in .inspector/ (run .ci/run)",
    )
    .then_some((cli, bin))
}

/// One Inspector CLI run against the shim on `socket` in the legacy era, as
/// packaging/clients/inspector.sh runs it: its JSON answer. A `tools/call` whose result is
/// `isError: true` exits 5 (the CLI's "tool error") with the result printed all the same; any
/// other failure fails the test.
fn run(cli: &Path, bin: &Path, socket: &Path, args: &[&str]) -> Value {
    run_in(cli, bin, socket, "legacy", args).0
}

/// [`run`] in the protocol era `era` (`legacy`: 2025-11-25, `modern`: 2026-07-28): its JSON
/// answer and what it wrote on stderr.
pub fn run_in(cli: &Path, bin: &Path, socket: &Path, era: &str, args: &[&str]) -> (Value, String) {
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
        .args(["--protocol-era", era])
        .args(args)
        .output()
        .expect("run the inspector");
    let failed = || {
        format!(
            "inspector {args:?} exited {:?}: {}\n{}",
            out.status.code(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    };
    let answer: Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|_| panic!("{}", failed()));
    let tool_error = out.status.code() == Some(5) && answer["isError"] == true;
    assert!(out.status.success() || tool_error, "{}", failed());
    (answer, String::from_utf8_lossy(&out.stderr).into_owned())
}

#[tokio::test(flavor = "multi_thread")]
async fn inspector_cli_lists_and_calls_through_the_shim() {
    let Some((cli, bin)) = inspector() else {
        return;
    };
    let h = Rig::binaries(Options::default(), &[], DaemonOpts::default()).await;
    let socket = h.daemon().socket.clone();
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
    // The default bundle: exactly the core tools the catalogue serves.
    let core: Vec<&str> = ombi_mcp::tools::visible(BundleSet::only(Bundle::Core), false)
        .map(|t| t.def.name)
        .collect();
    assert_eq!(names, core);
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

/// One call of every served write tool, as the TypeScript client sends it (`--tool-arg
/// key=<JSON>`): the tool's first example (`Tool::examples`, declared beside the tool), its
/// placeholders filled against the rig's sample Ombi. A new write tool is called here without
/// anyone editing this file.
async fn writes(rig: &Rig) -> Vec<(&'static str, Vec<String>)> {
    let mut calls = Vec::new();
    for t in TOOLS.iter().filter(|t| t.def.is_write()) {
        let (text, _) = t
            .examples
            .first()
            .unwrap_or_else(|| panic!("{} declares no example", t.def.name));
        let args = filled(rig, text).await;
        let argv = args
            .as_object()
            .expect("an example is an object")
            .iter()
            .map(|(name, value)| format!("{name}={value}"))
            .collect();
        calls.push((t.def.name, argv));
    }
    calls
}

#[tokio::test(flavor = "multi_thread")]
async fn inspector_cli_calls_every_write_tool() {
    let Some((cli, bin)) = inspector() else {
        return;
    };
    let h = Rig::binaries(
        Options::default(),
        &[
            ("OMBI_USER_NAME", "alice"),
            ("OMBI_BUNDLES", "core,moderation,administration"),
        ],
        DaemonOpts::default(),
    )
    .await;
    let calls = writes(&h).await;
    let socket = h.daemon().socket.clone();
    // Each call is a Node process of its own (about a second to start): four run at a time. The
    // assertions below hold whatever order the writes reach the fake in.
    let answers = tokio::task::spawn_blocking(move || {
        let call = |(tool, args): &(&'static str, Vec<String>)| {
            let mut argv = vec!["--method", "tools/call", "--tool-name", tool];
            for a in args {
                argv.extend(["--tool-arg", a.as_str()]);
            }
            (*tool, run(&cli, &bin, &socket, &argv))
        };
        std::thread::scope(|scope| {
            let workers: Vec<_> = calls
                .chunks(calls.len().div_ceil(4))
                .map(|chunk| scope.spawn(move || chunk.iter().map(call).collect::<Vec<_>>()))
                .collect();
            workers
                .into_iter()
                .flat_map(|w| w.join().unwrap())
                .collect::<Vec<_>>()
        })
    })
    .await
    .unwrap();
    for (tool, answer) in answers {
        let sc = &answer["structuredContent"];
        assert_eq!(sc["operation"], tool, "{answer}");
        assert_eq!(answer["isError"], sc["ok"] == false, "{answer}");
        // Arguments arrived typed: no type or shape error from the CLI's encoding
        // (a domain refusal such as "no device registered" is fine).
        let message = sc["error"]["message"].as_str().unwrap_or("");
        assert!(!message.contains("must be"), "{tool}: {answer}");
    }
    // The writes reached Ombi.
    assert!(h.fake.requests().iter().any(|r| r.method != "GET"));
}

/// The Inspector lists the prompts a core session sees (and reads a resource).
#[tokio::test(flavor = "multi_thread")]
async fn inspector_cli_lists_prompts_and_reads_a_resource() {
    let Some((cli, bin)) = inspector() else {
        return;
    };
    let h = Rig::binaries(
        Options::default(),
        &[("OMBI_USER_NAME", "bob")],
        DaemonOpts::default(),
    )
    .await;
    let socket = h.daemon().socket.clone();
    let (prompts, read) = tokio::task::spawn_blocking(move || {
        let prompts = run(&cli, &bin, &socket, &["--method", "prompts/list"]);
        let read = run(
            &cli,
            &bin,
            &socket,
            &[
                "--method",
                "resources/read",
                "--uri",
                "ombi://requests/mine",
            ],
        );
        (prompts, read)
    })
    .await
    .unwrap();
    let names: Vec<&str> = prompts["prompts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "request_media",
            "whats_new",
            "my_requests",
            "report_problem"
        ],
        "{prompts}"
    );
    assert!(
        prompts["prompts"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p["title"].is_string() && p["description"].is_string())
    );
    let body: Value = serde_json::from_str(read["contents"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(body["kind"], "request_page", "{read}");
    assert_eq!(
        body["items"].as_array().unwrap().len(),
        5,
        "bob's five requests"
    );
}
