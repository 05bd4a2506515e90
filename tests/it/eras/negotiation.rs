//! Negotiation: `server/discover`, `initialize`, -32022, and what a
//! 2026-07-28 request sees (the peer's policy, cache hints).

use serde_json::{Value, json};

use super::{modern, modern_with};
use crate::harness::*;

/// Sends `lines` on one raw connection; returns the replies by id.
fn exchange(d: &Daemon, lines: &[String]) -> Vec<Value> {
    let mut raw = Raw::connect(&d.socket);
    let mut replies = Vec::new();
    for line in lines {
        raw.send(line);
        replies.push(raw.recv().expect("a reply"));
    }
    replies
}

#[test]
fn discover_answers_both_eras_with_the_capabilities_of_initialize() {
    let d = Daemon::start(DaemonOpts::default());
    let got = exchange(&d, &[modern(0, "server/discover", json!({}))]);
    let discover = &got[0]["result"];
    let versions = discover["supportedVersions"]
        .as_array()
        .expect("supportedVersions");
    for v in ["2026-07-28", "2025-11-25"] {
        assert!(versions.contains(&json!(v)), "{discover}");
    }
    // The same capabilities and instructions as `initialize`.
    let mut raw = Raw::connect(&d.socket);
    raw.send(INITIALIZE);
    let init = raw.recv().unwrap();
    assert_eq!(init["result"]["protocolVersion"], "2025-11-25", "{init}");
    assert_eq!(discover["capabilities"], init["result"]["capabilities"]);
    assert_eq!(discover["instructions"], init["result"]["instructions"]);
    assert_eq!(discover["capabilities"]["resources"]["subscribe"], true);
    // The server's info where the 2026 schema puts it.
    let info = &discover["_meta"]["io.modelcontextprotocol/serverInfo"];
    assert_eq!(info["name"], "ombi-mcp", "{discover}");
    assert_eq!(info["version"], env!("CARGO_PKG_VERSION"));
}

#[test]
fn an_unsupported_version_is_refused_with_the_supported_ones() {
    let d = Daemon::start(DaemonOpts::default());
    let got = exchange(
        &d,
        &[
            modern_with(1, "tools/list", json!({}), "2099-01-01", json!({})),
            // The connection goes on: a supported request is answered.
            modern(2, "tools/list", json!({})),
            modern_with(3, "prompts/list", json!({}), "2030-01-01", json!({})),
        ],
    );
    for refused in [&got[0], &got[2]] {
        assert_eq!(refused["error"]["code"], -32022, "{refused}");
        let supported = refused["error"]["data"]["supported"].as_array().unwrap();
        assert!(supported.contains(&json!("2026-07-28")), "{refused}");
        assert!(supported.contains(&json!("2025-11-25")), "{refused}");
    }
    assert!(got[1]["result"]["tools"].is_array(), "{}", got[1]);
}

#[test]
fn a_modern_request_without_its_capabilities_is_invalid_params() {
    let d = Daemon::start(DaemonOpts::default());
    let line = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28"}}})
    .to_string();
    let got = exchange(&d, &[line]);
    assert_eq!(got[0]["error"]["code"], -32602, "{}", got[0]);
    assert!(
        got[0]["error"]["message"]
            .as_str()
            .unwrap()
            .contains("clientCapabilities"),
        "{}",
        got[0]
    );
}

/// Each of a list's results, as a 2026-07-28 request gets it: an hour's
/// `ttlMs`, `cacheScope: private`; the same lists on 2025-11-25 carry no hints.
#[test]
fn listings_carry_cache_hints_on_2026_only() {
    let d = Daemon::start(DaemonOpts::default());
    let methods = [
        "tools/list",
        "prompts/list",
        "resources/list",
        "resources/templates/list",
    ];
    // Twice: the first tools/list starts rmcp's session, the second is the
    // transport's own serialized answer; both must be the same.
    let mut lines: Vec<String> = Vec::new();
    for (i, m) in methods.iter().chain(methods.iter()).enumerate() {
        lines.push(modern(i as i64 + 1, m, json!({})));
    }
    let got = exchange(&d, &lines);
    for (reply, method) in got.iter().zip(methods.iter().chain(methods.iter())) {
        let result = &reply["result"];
        assert_eq!(result["ttlMs"], 3_600_000, "{method}: {reply}");
        assert_eq!(result["cacheScope"], "private", "{method}");
        assert_eq!(result["resultType"], "complete", "{method}");
    }
    assert_eq!(
        got[0]["result"], got[4]["result"],
        "tools/list by rmcp and by the transport"
    );

    let mut raw = Raw::connect(&d.socket);
    raw.initialize();
    for (i, m) in methods.iter().enumerate() {
        raw.send(&json!({"jsonrpc": "2.0", "id": i + 10, "method": m}).to_string());
        let reply = raw.recv().unwrap();
        let result = reply["result"].as_object().expect("a result");
        for hint in ["ttlMs", "cacheScope", "resultType"] {
            assert!(!result.contains_key(hint), "{m} on 2025-11-25 has {hint}");
        }
    }
}

/// The peer's policy holds for every 2026-07-28 request: a read-only peer
/// sees no write tool in either era's listing and cannot call one.
#[test]
fn a_modern_request_sees_what_the_peer_may_see() {
    let mut opts = DaemonOpts::default();
    opts.env.push(("OMBI_READ_ONLY".into(), "true".into()));
    let d = Daemon::start(opts);
    let got = exchange(
        &d,
        &[
            modern(1, "tools/list", json!({})),
            modern(2, "tools/list", json!({})),
            modern(
                3,
                "tools/call",
                json!({"name": "write_vote", "arguments": {}}),
            ),
        ],
    );
    for listed in &got[..2] {
        let names: Vec<&str> = listed["result"]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap())
            .collect();
        assert!(!names.is_empty());
        assert!(names.iter().all(|n| n.starts_with("read_")), "{names:?}");
    }
    assert_eq!(got[2]["error"]["code"], -32602, "{}", got[2]);
    assert!(
        got[2]["error"]["message"]
            .as_str()
            .unwrap()
            .contains("read-only"),
        "{}",
        got[2]
    );
}

/// `initialize` is unchanged, an older client version is honoured, and a
/// client asking `initialize` for 2026-07-28 (which has no handshake) gets
/// the handshake revision.
#[test]
fn initialize_negotiates_as_before() {
    let d = Daemon::start(DaemonOpts::default());
    for (asked, answered) in [
        ("2025-11-25", "2025-11-25"),
        ("2025-06-18", "2025-06-18"),
        ("2026-07-28", "2025-11-25"),
    ] {
        let mut raw = Raw::connect(&d.socket);
        raw.send(&INITIALIZE.replace("2025-11-25", asked));
        let reply = raw.recv().unwrap();
        assert_eq!(
            reply["result"]["protocolVersion"], answered,
            "{asked}: {reply}"
        );
    }
}
