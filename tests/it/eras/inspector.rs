//! The MCP Inspector CLI 2.x (the TypeScript SDK, as in Claude Desktop and VS Code) in its
//! modern (2026-07-28) and legacy (2025-11-25) eras through the real shim and daemon against
//! the fake Ombi: the era it ends on, its `--strict` tool-schema check (no input-schema error or
//! warning), tools, resources and prompts with the same answers in both. The CLI declares no
//! elicitation capability (it cannot ask a person), so under `OMBI_CONFIRM=require` a confirmed
//! action is refused in both eras with nothing sent. Its `--cli` mode has no completion or
//! subscription method; the Python SDK covers those in both eras (`eras::python`).

use serde_json::{Value, json};

use crate::clients::inspector_cli::{inspector, run_in};
use crate::harness::DaemonOpts;
use crate::support::fake_ombi::Options;
use crate::support::rig::Rig;

#[tokio::test(flavor = "multi_thread")]
async fn the_inspector_sees_the_same_in_both_eras() {
    let Some((cli, bin)) = inspector() else {
        return;
    };
    let h = Rig::binaries(
        Options::default(),
        &[
            // An Ombi admin: every tool is listed (a plain user is shown only
            // what her roles reach, and write_request_delete is not among them).
            ("OMBI_USER_NAME", "alice"),
            ("OMBI_BUNDLES", "core,moderation,administration"),
            ("OMBI_CONFIRM", "require"),
        ],
        DaemonOpts::default(),
    )
    .await;
    let socket = h.daemon().socket.clone();
    let seen = tokio::task::spawn_blocking(move || {
        let mut seen = Vec::new();
        for (era, version) in [("modern", "2026-07-28"), ("legacy", "2025-11-25")] {
            let run = |args: &[&str]| run_in(&cli, &bin, &socket, era, args);
            let (init, _) = run(&["--method", "initialize", "--format", "json"]);
            assert_eq!(init["result"]["protocolVersion"], version, "{era}: {init}");
            let (list, strict) = run(&["--method", "tools/list", "--strict"]);
            let schema_findings: Vec<&str> = strict
                .lines()
                .filter(|l| l.contains("Path: inputSchema") || l.starts_with("Error"))
                .collect();
            assert!(schema_findings.is_empty(), "{era}: {strict}");
            let (search, _) = run(&["--method", "tools/call", "--tool-name", "read_search", "--tool-arg", "query=matrix"]);
            assert_eq!(search["structuredContent"]["ok"], true, "{era}: {search}");
            let (mine, _) = run(&["--method", "resources/read", "--uri", "ombi://requests/mine"]);
            let mine: Value = serde_json::from_str(mine["contents"][0]["text"].as_str().unwrap()).unwrap();
            let (prompt, _) = run(&["--method", "prompts/get", "--prompt-name", "request_media", "--prompt-args", "title=Dune"]);
            let (refused, _) = run(&["--method", "tools/call", "--tool-name", "write_request_delete",
                "--tool-arg", r#"target={"kind":"movie","id":1}"#]);
            assert_eq!(refused["isError"], true, "{era}: {refused}");
            assert_eq!(refused["structuredContent"]["error"]["code"], "UNSUPPORTED_CAPABILITY", "{era}: {refused}");
            seen.push((
                era,
                json!({
                    "tools": list["tools"].as_array().unwrap().iter().map(|t| t["name"].clone()).collect::<Vec<_>>(),
                    "search": search["structuredContent"]["data"],
                    "mine": mine,
                    "prompt": prompt["messages"],
                }),
            ));
        }
        seen
    })
    .await
    .unwrap();
    assert_eq!(seen[0].1, seen[1].1, "modern and legacy differ");
    assert!(seen[0].1["tools"].as_array().unwrap().len() > 20);
    assert!(
        h.fake.requests().iter().all(|r| r.method != "DELETE"),
        "a refused confirmation sent something"
    );
}
