//! Malformed frames and invalid calls over the real socket: every one gets
//! the JSON-RPC 2.0 error it calls for (or, for notifications and responses,
//! nothing), the session goes on, and the daemon's memory stays flat.
//! `OMBI_MCP_SOAK=1` sends ten times as many.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::harness::*;
use crate::support::bad_args;

const PARSE_ERROR: i64 = -32700;
const INVALID_REQUEST: i64 = -32600;
const METHOD_NOT_FOUND: i64 = -32601;
const INVALID_PARAMS: i64 = -32602;
/// The daemon's frame cap (`daemon::MAX_LINE_BYTES`).
const FRAME_CAP: usize = 1024 * 1024;

/// What one frame must get back.
#[derive(Debug, Clone, PartialEq)]
enum Expect {
    /// A JSON-RPC error with this code, and this `id` (`Value::Null` when
    /// the request's id cannot be read).
    Error(i64, Value),
    /// A tool result: `INVALID_ARGUMENT` naming this field.
    InvalidArgument(Value, &'static str),
    /// A successful result (a `ping`).
    Ok(Value),
    /// No reply at all (notifications, responses, blank lines).
    Silent,
}

/// A tiny deterministic generator, so a failure names a reproducible frame.
fn mix(i: usize, salt: u64) -> u64 {
    let mut x = (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ salt;
    x ^= x >> 31;
    x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x ^ (x >> 29)
}

fn nested(depth: usize) -> String {
    format!("{}1{}", "[".repeat(depth), "]".repeat(depth))
}

/// Frame `i` of the stream, and what it must get back. `invalid_calls` are
/// (tool, arguments, field) triples for tools the session serves.
fn frame(i: usize, invalid_calls: &[(&'static str, Value, &'static str)]) -> (Vec<u8>, Expect) {
    use Expect::*;
    let id = json!(i);
    let err = |code| Error(code, json!(i));
    let null = |code| Error(code, Value::Null);
    let line = |s: String, e: Expect| (s.into_bytes(), e);
    if i % 1000 == 999 {
        // Over the frame cap: dropped, answered, and the session goes on.
        let pad = "a".repeat(FRAME_CAP + (i % 7) * 1000);
        return line(
            format!(
                r#"{{"jsonrpc":"2.0","id":{i},"method":"tools/list","params":{{"pad":"{pad}"}}}}"#
            ),
            null(INVALID_REQUEST),
        );
    }
    match i % 24 {
        0 => {
            // Truncated JSON: a request cut short anywhere.
            let full = format!(
                r#"{{"jsonrpc":"2.0","id":{i},"method":"tools/call","params":{{"name":"read_search","arguments":{{"query":"dune"}}}}}}"#
            );
            let cut = 1 + (mix(i, 1) as usize) % (full.len() - 1);
            line(full[..cut].to_string(), null(PARSE_ERROR))
        }
        1 => {
            // Bytes that are not JSON (and often not UTF-8).
            let mut bytes = vec![b'#'];
            let n = (mix(i, 2) % 200) as usize;
            bytes.extend(
                (0..n)
                    .map(|k| (mix(i * 256 + k, 3) as u8).max(1))
                    .filter(|b| *b != b'\n'),
            );
            (bytes, null(PARSE_ERROR))
        }
        2 => {
            let scalar = ["42", "\"x\"", "true", "null", "-1.5e3"][i / 24 % 5];
            line(scalar.to_string(), null(INVALID_REQUEST))
        }
        3 => line("[]".to_string(), null(INVALID_REQUEST)),
        4 => line(
            format!(r#"[{{"jsonrpc":"2.0","id":{i},"method":"ping"}}]"#),
            null(INVALID_REQUEST),
        ),
        5 => line("{}".to_string(), null(INVALID_REQUEST)),
        6 => line(
            format!(r#"{{"jsonrpc":"2.0","id":{i},"method":5}}"#),
            err(INVALID_REQUEST),
        ),
        7 => line(
            format!(r#"{{"jsonrpc":"1.0","id":{i},"method":"ping"}}"#),
            err(INVALID_REQUEST),
        ),
        8 => line(
            format!(r#"{{"id":"s-{i}","method":"tools/list"}}"#),
            Error(INVALID_REQUEST, json!(format!("s-{i}"))),
        ),
        9 => line(
            format!(r#"{{"jsonrpc":"2.0","id":{i}}}"#),
            err(INVALID_REQUEST),
        ),
        10 => {
            let bad_id = [r#"{"a":1}"#, "[1]", "true", "1.5", "null"][i / 24 % 5];
            line(
                format!(r#"{{"jsonrpc":"2.0","id":{bad_id},"method":"ping"}}"#),
                null(INVALID_REQUEST),
            )
        }
        11 => {
            let args = ["5", "\"x\"", "[1]", "true"][i / 24 % 4];
            line(
                format!(
                    r#"{{"jsonrpc":"2.0","id":{i},"method":"tools/call","params":{{"name":"read_search","arguments":{args}}}}}"#
                ),
                err(INVALID_PARAMS),
            )
        }
        12 => line(
            format!(r#"{{"jsonrpc":"2.0","id":{i},"method":"tools/call","params":{{"name":5}}}}"#),
            err(INVALID_PARAMS),
        ),
        13 => line(
            format!(
                r#"{{"jsonrpc":"2.0","id":{i},"method":"tools/call","params":{{"arguments":{{}}}}}}"#
            ),
            err(INVALID_PARAMS),
        ),
        14 => line(
            format!(
                r#"{{"jsonrpc":"2.0","id":{i},"method":"tools/call","params":{{"name":"read_nope_{i}","arguments":{{}}}}}}"#
            ),
            err(INVALID_PARAMS),
        ),
        15 => {
            let (tool, args, field) = &invalid_calls[i / 24 % invalid_calls.len()];
            let params = json!({"name": tool, "arguments": args});
            line(
                json!({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": params})
                    .to_string(),
                InvalidArgument(id, field),
            )
        }
        16 => line(
            format!(r#"{{"jsonrpc":"2.0","id":{i},"method":"nope/{i}"}}"#),
            err(METHOD_NOT_FOUND),
        ),
        17 => line(
            // Deeper than the JSON parser's recursion limit.
            format!(
                r#"{{"jsonrpc":"2.0","id":{i},"method":"tools/list","params":{{"a":{}}}}}"#,
                nested(200 + i % 50)
            ),
            null(PARSE_ERROR),
        ),
        18 => line(
            format!(
                r#"{{"jsonrpc":"2.0","id":{i},"method":"tools/call","params":{{"name":"read_search","arguments":{{"query":{}}}}}}}"#,
                nested(100)
            ),
            InvalidArgument(id, "/query"),
        ),
        19 => {
            let silent = [
                r#"{"jsonrpc":"2.0","method":"notifications/whatever"}"#,
                r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":{}}}"#,
                "   ",
                r#"{"jsonrpc":"2.0","method":"notifications/progress","params":[]}"#,
            ][i / 24 % 4];
            line(silent.to_string(), Silent)
        }
        20 => line(
            format!(r#"{{"jsonrpc":"2.0","id":"r-{i}","result":{{}}}}"#),
            Silent,
        ),
        21 => line(
            format!(r#"{{"jsonrpc":"2.0","id":{i},"method":"ping"}}"#),
            Ok(id),
        ),
        22 => line(
            format!(r#"{{"jsonrpc":"2.0","id":{i},"method":"tools/list","params":"x"}}"#),
            err(INVALID_REQUEST),
        ),
        _ => line(
            format!(r#"{{"jsonrpc":"2.0","id":{i},"method":"ping","result":{{}}}}"#),
            err(INVALID_REQUEST),
        ),
    }
}

/// A reply, cut for a failure message (a tools/list result is 100 KB).
fn short(reply: &Value) -> String {
    reply.to_string().chars().take(300).collect()
}

/// Checks one reply against its expectation.
fn check(reply: &Value, expect: &Expect) -> Result<(), String> {
    let reply_text = short(reply);
    let obj = reply.as_object().ok_or("a reply is an object")?;
    if obj.get("jsonrpc") != Some(&json!("2.0")) || !obj.contains_key("id") {
        return Err(format!(
            "not a JSON-RPC 2.0 reply with an id member: {reply_text}"
        ));
    }
    match expect {
        Expect::Error(code, id) => {
            let ok = reply["id"] == *id
                && reply["error"]["code"] == *code
                && reply["error"]["message"]
                    .as_str()
                    .is_some_and(|m| !m.is_empty());
            ok.then_some(())
                .ok_or_else(|| format!("want error {code} id {id}: {reply_text}"))
        }
        Expect::InvalidArgument(id, field) => {
            let sc = &reply["result"]["structuredContent"];
            let ok = reply["id"] == *id
                && reply["result"]["isError"] == true
                && sc["error"]["code"] == "INVALID_ARGUMENT"
                && sc["error"]["field"] == *field;
            ok.then_some(())
                .ok_or_else(|| format!("want INVALID_ARGUMENT {field} id {id}: {reply_text}"))
        }
        Expect::Ok(id) => (reply["id"] == *id && reply["result"].is_object())
            .then_some(())
            .ok_or_else(|| format!("want a result for id {id}: {reply_text}")),
        Expect::Silent => Err(format!("want no reply: {reply_text}")),
    }
}

/// The tools/call cases of the shared invalid-arguments table whose tool
/// this session serves.
fn served_invalid_calls(raw: &mut Raw) -> Vec<(&'static str, Value, &'static str)> {
    raw.send(r#"{"jsonrpc":"2.0","id":"list","method":"tools/list"}"#);
    let list = raw.recv().expect("tools/list reply");
    let names: Vec<&str> = list["result"]["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    let cases: Vec<_> = bad_args::cases()
        .into_iter()
        .filter(|(tool, _, _)| names.contains(tool))
        .collect();
    assert!(cases.len() >= 10, "too few served invalid calls: {names:?}");
    cases
}

/// Sends frames `range` on `raw` while a second thread reads, then checks
/// every reply: those with an id one by one, the id-less ones by code.
fn exchange(
    raw: &mut Raw,
    range: std::ops::Range<usize>,
    invalid_calls: &[(&'static str, Value, &'static str)],
) -> usize {
    let frames: Vec<(Vec<u8>, Expect)> = range.map(|i| frame(i, invalid_calls)).collect();
    let mut by_id: HashMap<String, Expect> = HashMap::new();
    let mut null_codes: HashMap<i64, usize> = HashMap::new();
    for (_, e) in &frames {
        match e {
            Expect::Error(code, Value::Null) => *null_codes.entry(*code).or_default() += 1,
            Expect::Error(_, id) | Expect::InvalidArgument(id, _) | Expect::Ok(id) => {
                assert!(
                    by_id.insert(id.to_string(), e.clone()).is_none(),
                    "duplicate id {id}"
                );
            }
            Expect::Silent => {}
        }
    }
    let want = by_id.len() + null_codes.values().sum::<usize>();
    let reader = raw.stream.try_clone().unwrap();
    let collector = std::thread::spawn(move || {
        let mut reader = BufReader::new(reader);
        let mut replies = Vec::with_capacity(want);
        while replies.len() < want {
            let mut line = String::new();
            match reader.read_line(&mut line) {
                Ok(0) | Err(_) => break,
                Ok(_) => replies.push(line),
            }
        }
        replies
    });
    let mut writer = raw.stream.try_clone().unwrap();
    // Should the collector give up (its read timed out on a loaded machine),
    // the daemon stops reading once its answers back up: fail, never hang.
    writer
        .set_write_timeout(Some(Duration::from_secs(120)))
        .unwrap();
    for (bytes, _) in &frames {
        writer.write_all(bytes).unwrap();
        writer.write_all(b"\n").unwrap();
    }
    let replies = collector.join().unwrap();
    assert_eq!(
        replies.len(),
        want,
        "replies missing (daemon stopped answering?)"
    );
    for line in &replies {
        let reply: Value = serde_json::from_str(line)
            .unwrap_or_else(|e| panic!("a reply that is not JSON ({e}): {line}"));
        if reply["id"].is_null() {
            let code = reply["error"]["code"].as_i64().unwrap_or_default();
            check(&reply, &Expect::Error(code, Value::Null)).unwrap();
            let left = null_codes.get_mut(&code).filter(|n| **n > 0);
            *left.unwrap_or_else(|| panic!("an unexpected id-less error: {reply}")) -= 1;
        } else {
            let expect = by_id
                .remove(&reply["id"].to_string())
                .unwrap_or_else(|| panic!("a reply nobody asked for: {reply}"));
            check(&reply, &expect).unwrap();
        }
    }
    assert!(
        by_id.is_empty(),
        "no reply for {:?}",
        by_id.keys().take(5).collect::<Vec<_>>()
    );
    // Nothing more arrives: silent frames stayed silent.
    raw.stream
        .set_read_timeout(Some(Duration::from_millis(300)))
        .unwrap();
    let mut extra = String::new();
    let more = BufReader::new(raw.stream.try_clone().unwrap()).read_line(&mut extra);
    assert!(
        !matches!(more, Ok(n) if n > 0),
        "an extra reply arrived: {extra}"
    );
    raw.stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    frames.len()
}

#[test]
fn ten_thousand_malformed_frames_each_get_the_right_error_and_memory_stays_flat() {
    let total = if soak() { 100_000 } else { 10_000 };
    let d = Daemon::start(DaemonOpts::default());
    let pid = d.child.id();
    let start = proc_stats(pid);
    let mut raw = Raw::connect(&d.socket);
    raw.initialize();
    let invalid_calls = served_invalid_calls(&mut raw);
    // Warm up (allocator arenas, rmcp's per-session state), then measure.
    let warm = 2_000;
    let began = Instant::now();
    exchange(&mut raw, 0..warm, &invalid_calls);
    let before = proc_stats(pid);
    exchange(&mut raw, warm..total, &invalid_calls);
    let elapsed = began.elapsed();
    let after = proc_stats(pid);
    eprintln!(
        "{total} frames in {elapsed:?}; VmRSS {} KiB at start, {} KiB after {warm} frames, {} KiB after {total}",
        start.rss_kib, before.rss_kib, after.rss_kib
    );
    assert!(d.child.id() == pid && std::fs::metadata(format!("/proc/{pid}")).is_ok());
    assert!(
        after.rss_kib <= before.rss_kib + 4 * 1024,
        "memory grew: {} KiB -> {} KiB",
        before.rss_kib,
        after.rss_kib
    );
    // The same session still works, and so does a new one through the shim.
    raw.send(r#"{"jsonrpc":"2.0","id":"after","method":"ping"}"#);
    assert_eq!(raw.recv().unwrap()["id"], "after");
    let run = run_shim(
        &d.socket,
        &format!("{INITIALIZE}\n"),
        None,
        Duration::from_millis(300),
    );
    assert!(run.stdout.contains("serverInfo"), "{}", run.stderr);
}

/// One of each protocol error, with the exact wire shape JSON-RPC 2.0 asks.
#[test]
fn each_protocol_error_case_is_answered_per_json_rpc() {
    let d = Daemon::start(DaemonOpts::default());
    let mut raw = Raw::connect(&d.socket);
    raw.initialize();
    let cases: &[(&str, Value)] = &[
        // Unparsable: -32700 with id null.
        (
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":",
            json!({"code": PARSE_ERROR, "id": null}),
        ),
        // An invalid request with a readable id echoes it.
        (
            "{\"jsonrpc\":\"1.0\",\"id\":7,\"method\":\"ping\"}",
            json!({"code": INVALID_REQUEST, "id": 7}),
        ),
        // …and with an unreadable id answers id null (the member is there).
        (
            "{\"jsonrpc\":\"2.0\",\"id\":[7],\"method\":\"ping\"}",
            json!({"code": INVALID_REQUEST, "id": null}),
        ),
        (
            "{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"result\":1}",
            json!({"code": INVALID_REQUEST, "id": null}),
        ),
        // tools/call with arguments that are not an object: -32602, not -32601.
        (
            "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/call\",\"params\":{\"name\":\"read_search\",\"arguments\":[1]}}",
            json!({"code": INVALID_PARAMS, "id": 8}),
        ),
        (
            "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\",\"params\":{\"name\":\"read_search\",\"arguments\":\"q\"}}",
            json!({"code": INVALID_PARAMS, "id": 9}),
        ),
        (
            "{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"nope\"}",
            json!({"code": METHOD_NOT_FOUND, "id": 10}),
        ),
    ];
    for (line, want) in cases {
        raw.send(line);
        let reply = raw.recv().expect("a reply");
        let obj = reply.as_object().unwrap();
        assert!(obj.contains_key("id"), "{line} -> {reply}");
        assert_eq!(reply["id"], want["id"], "{line} -> {reply}");
        assert_eq!(reply["error"]["code"], want["code"], "{line} -> {reply}");
    }
    // A line over the cap: answered, and the next request still works.
    raw.send(&format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"ping\",\"params\":{{\"pad\":\"{}\"}}}}",
        "b".repeat(FRAME_CAP + 10)
    ));
    let reply = raw.recv().unwrap();
    assert_eq!(
        (reply["id"].clone(), reply["error"]["code"].clone()),
        (Value::Null, json!(INVALID_REQUEST))
    );
    assert!(
        reply["error"]["message"]
            .as_str()
            .unwrap()
            .contains("longer than"),
        "{reply}"
    );
    raw.send("{\"jsonrpc\":\"2.0\",\"id\":12,\"method\":\"ping\"}");
    assert_eq!(raw.recv().unwrap()["id"], 12);
}

/// Garbage before `initialize` is answered the same way and does not stop
/// the handshake that follows.
#[test]
fn malformed_frames_before_initialize_are_answered_and_the_handshake_still_works() {
    let d = Daemon::start(DaemonOpts::default());
    let mut raw = Raw::connect(&d.socket);
    for i in 0..200 {
        let (bytes, expect) = frame(i * 24 + [0, 1, 2, 3, 5, 6, 7, 9, 10][i % 9], &[]);
        let Expect::Error(code, id) = expect else {
            unreachable!()
        };
        raw.stream.write_all(&bytes).unwrap();
        raw.stream.write_all(b"\n").unwrap();
        let reply = raw.recv().expect("a reply before initialize");
        check(&reply, &Expect::Error(code, id)).unwrap();
    }
    raw.initialize();
    raw.send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"read_search\",\"arguments\":5}}");
    assert_eq!(raw.recv().unwrap()["error"]["code"], INVALID_PARAMS);
}

/// A client that pipelines requests and reads nothing costs the daemon a
/// bounded amount of memory: past a few dozen unanswered requests it stops
/// reading that socket instead of queueing work and answers without limit.
#[test]
fn a_client_that_pipelines_and_does_not_read_cannot_grow_the_daemon() {
    let d = Daemon::start(DaemonOpts::default());
    let pid = d.child.id();
    let mut raw = Raw::connect(&d.socket);
    raw.initialize();
    let before = proc_stats(pid);
    let n = if soak() { 200_000 } else { 20_000 };
    let mut writer = raw.stream.try_clone().unwrap();
    let flood = std::thread::spawn(move || {
        let mut buf = Vec::new();
        for i in 0..n {
            buf.extend_from_slice(
                format!("{{\"jsonrpc\":\"2.0\",\"id\":{i},\"method\":\"ping\"}}\n").as_bytes(),
            );
        }
        writer.write_all(&buf).unwrap();
    });
    // Nobody reads for a while: the daemon must not buffer the flood.
    std::thread::sleep(Duration::from_millis(1500));
    let stalled = proc_stats(pid);
    let mut answered = 0;
    while answered < n {
        let reply = raw.recv().expect("every ping is answered once read");
        assert!(reply["result"].is_object(), "{reply}");
        answered += 1;
    }
    flood.join().unwrap();
    eprintln!(
        "VmRSS {} KiB before, {} KiB while {n} pings were pipelined unread",
        before.rss_kib, stalled.rss_kib
    );
    assert!(
        stalled.rss_kib <= before.rss_kib + 8 * 1024,
        "the daemon buffered the flood: {} KiB -> {} KiB",
        before.rss_kib,
        stalled.rss_kib
    );
}

/// Cancelled requests get no answer (MCP), so they must give their place
/// back: a client cancelling many calls is not stalled afterwards.
#[test]
fn cancelled_requests_free_their_place() {
    // Calls reach an Ombi that refuses connections: each is in flight for
    // the ~200 ms of its one retry, long enough to be cancelled.
    let d = Daemon::start(DaemonOpts::default());
    let mut raw = Raw::connect(&d.socket);
    raw.initialize();
    for i in 0..100 {
        raw.send(&format!(
            r#"{{"jsonrpc":"2.0","id":{i},"method":"tools/call","params":{{"name":"read_reference","arguments":{{"action":"languages"}}}}}}"#
        ));
        raw.send(&format!(
            r#"{{"jsonrpc":"2.0","method":"notifications/cancelled","params":{{"requestId":{i},"reason":"test"}}}}"#
        ));
    }
    raw.send(r#"{"jsonrpc":"2.0","id":"after","method":"ping"}"#);
    let started = Instant::now();
    loop {
        let reply = raw.recv().expect("the session goes on");
        if reply["id"] == "after" {
            break;
        }
        // A call that finished before its cancellation arrived may answer.
        assert!(reply["id"].is_number(), "{}", short(&reply));
    }
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
}

/// After the handshake the transport answers `tools/list` from the listing it
/// serialized once; before it, rmcp's handler answers. Both must say the same,
/// for a full session and a read-only one, with the caller's id echoed.
#[test]
fn tools_list_from_the_serialized_listing_equals_rmcps_answer() {
    for (bundles, read_only) in [("core,moderation,administration", false), ("core", true)] {
        let policy = format!(
            r#"{{"peers":[{{"uid":{},"bundles":["{}"],"read_only":{read_only}}}]}}"#,
            nix::unistd::getuid(),
            bundles.replace(',', "\",\"")
        );
        let mut env = offline_env();
        env.push(("OMBI_BUNDLES".into(), bundles.into()));
        let d = Daemon::start(DaemonOpts {
            env,
            policy: Some(policy),
            ..DaemonOpts::default()
        });
        let mut raw = Raw::connect(&d.socket);
        raw.send(INITIALIZE);
        raw.recv().expect("initialize reply");
        raw.send(r#"{"jsonrpc":"2.0","id":"before","method":"tools/list"}"#);
        let by_rmcp = raw.recv().expect("tools/list before initialized");
        raw.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        raw.send(r#"{"jsonrpc":"2.0","id":77,"method":"tools/list","params":{}}"#);
        let listed = raw.recv().expect("tools/list after initialized");
        assert_eq!(by_rmcp["id"], "before");
        assert_eq!(listed["id"], 77);
        assert_eq!(listed["jsonrpc"], "2.0");
        assert_eq!(
            listed["result"], by_rmcp["result"],
            "{bundles} read_only={read_only}"
        );
        let names: Vec<&str> = listed["result"]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap())
            .collect();
        assert!(!names.is_empty());
        assert_eq!(
            names.iter().any(|n| n.starts_with("write_")),
            !read_only,
            "{names:?}"
        );
        // The session goes on: a call after the served listing is answered.
        raw.send(r#"{"jsonrpc":"2.0","id":78,"method":"ping"}"#);
        assert_eq!(raw.recv().unwrap()["id"], 78);
    }
}
