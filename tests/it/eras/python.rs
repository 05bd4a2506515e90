//! The official MCP Python SDK 2.3 (its high-level `Client`) in each of its
//! modes through the real shim and daemon, against the fake Ombi: `auto`
//! (its default) must end on 2026-07-28, `2026-07-28` never sends
//! `initialize`, `legacy` stays on 2025-11-25; each lists and calls tools,
//! reads resources, gets prompts and completions with the same results.

use std::path::Path;

use serde_json::{Value, json};

use crate::clients::python_client::{ScriptClient, sdk_setup};
use crate::harness::*;

/// One SDK `Client` in `mode`, driven command by command
/// (tests/python/eras_driver.py).
pub type EraClient = ScriptClient;

/// Starts an [`EraClient`]; `answer` (before the connection) says how it
/// answers questions (`none`: it declares no elicitation capability).
pub fn start_era_client(python: &Path, socket: &Path, mode: &str, answer: &str) -> EraClient {
    let args = [mode.as_ref(), SHIM.as_ref(), socket.as_os_str()];
    let mut c = ScriptClient::start(python, "eras_driver.py", &args);
    assert_eq!(
        c.ask(json!({"op": "answer", "answer": answer})),
        json!({"ok": true})
    );
    c
}

/// What a client sees of every surface, era-independent parts only.
fn surfaces(c: &mut EraClient) -> Value {
    let tools = c.ask(json!({"op": "list_tools"}));
    let search = c.ask(json!({"op": "call", "tool": "read_requests",
        "args": {"action": "list", "media": "movie"}}));
    assert_eq!(search["structured"]["ok"], true, "{search}");
    let mine = c.ask(json!({"op": "read", "uri": "ombi://requests/mine"}));
    let languages = c.ask(json!({"op": "read", "uri": "ombi://reference/languages"}));
    let prompts = c.ask(json!({"op": "list_prompts"}));
    let prompt =
        c.ask(json!({"op": "get_prompt", "name": "request_media", "args": {"title": "Dune"}}));
    let kinds = c.ask(json!({"op": "complete",
        "ref": {"type": "ref/resource", "uri": "ombi://request/{kind}/{id}"},
        "argument": {"name": "kind", "value": "tv"}}));
    json!({
        "tools": tools["names"],
        "requests": search["structured"]["data"],
        "mine": mine["body"],
        "languages": languages["body"]["kind"],
        "prompts": prompts["names"],
        "prompt": prompt["messages"],
        "kinds": kinds["values"],
    })
}

/// Each mode: the era it ends on, the code of a missing resource there, and
/// what it sees — the same in every era.
#[test]
fn every_sdk_mode_sees_the_same_surfaces_in_its_era() {
    let Some((python, _fake, d, _dir)) = sdk_setup(60, &[]) else {
        return;
    };
    let mut seen = Vec::new();
    for (mode, era, missing_code) in [
        ("auto", "2026-07-28", -32602),
        ("2026-07-28", "2026-07-28", -32602),
        ("legacy", "2025-11-25", -32002),
    ] {
        let mut c = start_era_client(&python, &d.socket, mode, "accept");
        let init = c.ask(json!({"op": "init"}));
        assert_eq!(init["protocol"], era, "mode {mode}: {init}\n{}", d.logs());
        // A pinned client asks nothing before its first request: it knows
        // the server's info only from a discover of its own.
        if mode != "2026-07-28" {
            assert_eq!(init["server"], "ombi-mcp", "{init}");
            assert_eq!(
                init["capabilities"]["resources"]["subscribe"], true,
                "{init}"
            );
            assert!(
                init["instructions"]
                    .as_str()
                    .unwrap()
                    .contains("ombi://requests/mine")
            );
        }
        let missing = c.ask(json!({"op": "read", "uri": "ombi://request/movie/999"}));
        assert_eq!(
            missing["error"]["code"], missing_code,
            "mode {mode}: {missing}"
        );
        let surfaces = surfaces(&mut c);
        assert!(
            surfaces["tools"].as_array().unwrap().len() > 20,
            "{surfaces}"
        );
        assert_eq!(
            surfaces["kinds"],
            json!(["tv_parent", "tv_child"]),
            "{surfaces}"
        );
        seen.push((mode, surfaces));
        c.quit();
    }
    // Same answers whichever era asked (correlation ids and times aside:
    // the data objects are compared).
    let (first_mode, first) = &seen[0];
    for (mode, other) in &seen[1..] {
        assert_eq!(other, first, "{mode} and {first_mode} differ");
    }
    // The log says which era each connection spoke.
    let logs = d.logs();
    let era_lines: Vec<&str> = logs
        .lines()
        .filter(|l| l.contains("protocol era"))
        .collect();
    assert!(
        era_lines.iter().any(|l| l.contains("protocol=2026-07-28")),
        "{logs}"
    );
    assert!(
        era_lines
            .iter()
            .any(|l| l.contains("protocol=2025-11-25") && l.contains("initialize")),
        "{logs}"
    );
}

/// Each mode confirms through its era (an `elicitation/create` request on
/// 2025-11-25, an input-required result on 2026-07-28), declines with
/// nothing sent, and hears a watched request change (`subscriptions/listen`
/// or `resources/subscribe`).
#[test]
fn every_sdk_mode_confirms_declines_and_watches() {
    const QUESTION: &str = "Delete the movie request for *The Matrix* (request 1, requested by bob)? This cannot be undone.";
    const MOVIE_2: &str = "ombi://request/movie/2";
    for mode in ["auto", "2026-07-28", "legacy"] {
        let Some((python, fake, d, _dir)) = sdk_setup(60, &[]) else {
            return;
        };
        let deletes = || {
            fake.requests()
                .iter()
                .filter(|r| r.method == "DELETE")
                .count()
        };
        let mut c = start_era_client(&python, &d.socket, mode, "decline");
        let delete = json!({"op": "call", "tool": "write_request_delete",
            "args": {"target": {"kind": "movie", "id": 1}}});
        let declined = c.ask(delete.clone());
        assert_eq!(
            declined["questions"][0]["message"], QUESTION,
            "{mode}: {declined}"
        );
        let error = &declined["structured"]["error"];
        assert_eq!(error["code"], "FORBIDDEN", "{mode}: {declined}");
        assert!(
            error["message"]
                .as_str()
                .unwrap()
                .contains("Not confirmed: the person declined")
        );
        assert_eq!(deletes(), 0, "{mode}: sent after a decline");
        c.ask(json!({"op": "answer", "answer": "accept"}));
        let done = c.ask(delete);
        assert_eq!(
            done["structured"]["ok"],
            true,
            "{mode}: {done}\n{}",
            d.logs()
        );
        assert_eq!(
            done["questions"].as_array().unwrap().len(),
            1,
            "{mode}: asked once"
        );
        assert_eq!(deletes(), 1, "{mode}");

        let watched = c.ask(json!({"op": "watch", "uri": MOVIE_2}));
        assert_eq!(watched["honored"], json!([MOVIE_2]), "{mode}: {watched}");
        let approved = c.ask(json!({"op": "call", "tool": "write_request_moderate",
            "args": {"action": "approve", "media": "movie", "request_id": 2}}));
        assert_eq!(approved["structured"]["ok"], true, "{approved}");
        let heard = c.ask(json!({"op": "wait_update", "uri": MOVIE_2, "timeout": 10}));
        assert!(
            heard.get("seconds").is_some(),
            "{mode}: {heard}\n{}",
            d.logs()
        );
        assert_eq!(
            c.ask(json!({"op": "unwatch", "uri": MOVIE_2})),
            json!({"ok": true})
        );
        c.quit();
    }
}
