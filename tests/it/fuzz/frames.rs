//! Property tests of frame reading (`transport::codec`, `transport::frame`): the line splitter
//! agrees with a plain reference however the bytes are chunked, `decode`
//! never panics and its error replies are well-formed JSON-RPC, and the
//! whole transport hands rmcp exactly the valid messages, in order, while
//! answering every bad frame. `OMBI_MCP_SOAK=1` runs ten times as many cases.

use ombi_mcp::transport::codec::{
    ErrorReply, Frame, INVALID_PARAMS, INVALID_REQUEST, LineSplitter, PARSE_ERROR, Split, decode,
};
use ombi_mcp::transport::frame::FramedTransport;
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;

use super::{json_scalar, text};
use rmcp::model::{JsonRpcMessage, ServerJsonRpcMessage, ServerResult};
use rmcp::transport::Transport;
use serde_json::Value;
use tokio::io::AsyncReadExt;
use tokio::io::AsyncWriteExt;

fn cases() -> u32 {
    if std::env::var("OMBI_MCP_SOAK").is_ok_and(|v| v == "1") {
        10_000
    } else {
        1_000
    }
}

fn config(name: &'static str) -> ProptestConfig {
    ProptestConfig {
        cases: cases(),
        // Failing seeds are kept and replayed first on every run.
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(name))),
        ..ProptestConfig::default()
    }
}

/// What splitting `input` into lines under `max` must give: each
/// newline-terminated line, or `None` for one over the cap; an unterminated
/// tail shows only if it is already over the cap.
fn reference(input: &[u8], max: usize) -> Vec<Option<Vec<u8>>> {
    let mut out = Vec::new();
    let mut parts = input.split(|b| *b == b'\n').peekable();
    while let Some(part) = parts.next() {
        let terminated = parts.peek().is_some();
        if part.len() > max {
            out.push(None);
        } else if terminated {
            out.push(Some(part.to_vec()));
        }
    }
    out
}

fn split_in_chunks(input: &[u8], max: usize, chunks: &[usize]) -> Vec<Option<Vec<u8>>> {
    let mut s = LineSplitter::new(max);
    let mut out = Vec::new();
    let (mut at, mut k) = (0, 0);
    while at < input.len() {
        let end = (at + chunks[k % chunks.len()]).min(input.len());
        k += 1;
        let mut buf = &input[at..end];
        // Like the socket reader: feed what was read until it is used up.
        while !buf.is_empty() {
            let (used, event) = s.feed(buf);
            assert!(used > 0 && used <= buf.len());
            match event {
                Some(Split::Line) => out.push(Some(s.line().to_vec())),
                Some(Split::Oversized) => out.push(None),
                None => {}
            }
            buf = &buf[used..];
        }
        at = end;
    }
    out
}

/// Byte streams rich in newlines and in lines near the cap (built from a
/// seed: cheap to generate, and shrinking still shortens them).
fn stream() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec((0usize..300, any::<u64>(), any::<bool>()), 0..20).prop_map(|lines| {
        let mut out = Vec::new();
        for (len, seed, newline) in lines {
            let mut x = seed | 1;
            out.extend((0..len).map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                // Mostly plain bytes, some '\r' and a few stray newlines.
                match x % 64 {
                    0 => b'\n',
                    1..=4 => b'\r',
                    _ => x as u8 | 1,
                }
            }));
            if newline {
                out.push(b'\n');
            }
        }
        out
    })
}

fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        4 => json_scalar(),
        1 => prop_oneof![
            Just("2.0"),
            Just("1.0"),
            Just("ping"),
            Just("tools/call"),
            Just("tools/list"),
            Just("initialize"),
            Just("notifications/cancelled"),
            Just("jsonrpc"),
            Just("id"),
            Just("method"),
            Just("params"),
            Just("result"),
            Just("error"),
            Just("arguments"),
        ]
        .prop_map(|s| Value::String(s.into())),
        1 => text(8).prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 32, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map(
                prop_oneof![
                    Just("jsonrpc".to_string()),
                    Just("id".to_string()),
                    Just("method".to_string()),
                    Just("params".to_string()),
                    Just("result".to_string()),
                    Just("error".to_string()),
                    Just("name".to_string()),
                    Just("arguments".to_string()),
                    text(5),
                ],
                inner,
                0..6,
            )
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Lines a client might send: JSON-RPC-looking JSON (maybe cut short) or bytes.
fn line() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        3 => (any_json(), any::<prop::sample::Index>(), any::<bool>()).prop_map(|(v, cut, whole)| {
            let text = v.to_string().into_bytes();
            if whole { text } else { text[..cut.index(text.len() + 1)].to_vec() }
        }),
        1 => prop::collection::vec(any::<u8>(), 0..40),
    ]
    .prop_map(|mut l| {
        l.retain(|b| *b != b'\n');
        l
    })
}

/// One runtime for all cases (building one per case is most of the cost).
fn runtime() -> &'static tokio::runtime::Runtime {
    static RT: std::sync::LazyLock<tokio::runtime::Runtime> = std::sync::LazyLock::new(|| {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("a runtime")
    });
    &RT
}

fn check_reply(r: &ErrorReply) -> Result<(), TestCaseError> {
    prop_assert!(
        [PARSE_ERROR, INVALID_REQUEST, INVALID_PARAMS].contains(&r.code),
        "{:?}",
        r
    );
    let wire = r.to_line();
    prop_assert_eq!(wire.last(), Some(&b'\n'));
    prop_assert_eq!(wire.iter().filter(|b| **b == b'\n').count(), 1);
    let v: Value = serde_json::from_slice(&wire).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(&v["jsonrpc"], "2.0");
    prop_assert!(v.as_object().is_some_and(|o| o.contains_key("id")), "{}", v);
    prop_assert!(
        v["error"]["message"]
            .as_str()
            .is_some_and(|m| !m.is_empty())
    );
    Ok(())
}

proptest! {
    #![proptest_config(config("tests/proptest-regressions/fuzz_frames.txt"))]

    #[test]
    fn the_splitter_agrees_with_the_reference_however_bytes_arrive(
        input in stream(),
        max in 1usize..300,
        chunks in prop::collection::vec(1usize..400, 1..8),
    ) {
        prop_assert_eq!(split_in_chunks(&input, max, &chunks), reference(&input, max));
    }

    #[test]
    fn decode_never_panics_and_every_reply_is_well_formed(l in line()) {
        match decode(&l) {
            Frame::Reply(r) => check_reply(&r)?,
            Frame::Message(_) => {
                let l = l.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&l);
                prop_assert!(serde_json::from_slice::<Value>(l).is_ok());
            }
            Frame::Skip => {}
        }
    }

}

proptest! {
    // Each case is a whole stream of lines: fewer cases.
    #![proptest_config(ProptestConfig {
        cases: cases() / 5,
        ..config("tests/proptest-regressions/fuzz_frames.txt")
    })]

    #[test]
    fn the_transport_passes_valid_messages_in_order_and_answers_the_rest(
        lines in prop::collection::vec(line(), 0..40),
        chunk in 1usize..64,
    ) {
        const MAX: usize = 120;
        let mut bytes = Vec::new();
        let mut expected_messages = Vec::new();
        let mut expected_replies = 0;
        for l in &lines {
            bytes.extend_from_slice(l);
            bytes.push(b'\n');
            if l.len() > MAX {
                expected_replies += 1;
                continue;
            }
            match decode(l) {
                Frame::Message(m) => expected_messages.push(serde_json::to_value(&*m).unwrap()),
                Frame::Reply(_) => expected_replies += 1,
                Frame::Skip => {}
            }
        }
        let (got, replies, responses) = runtime().block_on(async move {
            let (mut client, server_read) = tokio::io::duplex(1 << 20);
            let (server_write, mut replies_from) = tokio::io::duplex(1 << 20);
            let mut t = FramedTransport::new(server_read, server_write, MAX);
            let writer = tokio::spawn(async move {
                for piece in bytes.chunks(chunk) {
                    client.write_all(piece).await.unwrap();
                }
            });
            let (mut got, mut responses) = (Vec::new(), 0);
            while let Some(m) = t.receive().await {
                // Answer requests, as rmcp would, so their slots come back.
                if let JsonRpcMessage::Request(r) = &m {
                    let answer = ServerJsonRpcMessage::response(ServerResult::EmptyResult(().into()), r.id.clone());
                    t.send(answer).await.unwrap();
                    responses += 1;
                }
                got.push(serde_json::to_value(&m).unwrap());
                if got.len() > 100 { break; }
            }
            writer.await.unwrap();
            t.close().await.unwrap();
            let mut out = String::new();
            replies_from.read_to_string(&mut out).await.unwrap();
            (got, out, responses)
        });
        prop_assert_eq!(got, expected_messages);
        let lines: Vec<Value> = replies
            .lines()
            .map(|l| serde_json::from_str(l).expect("every line written is JSON"))
            .collect();
        let errors = lines.iter().filter(|l| l.get("error").is_some()).count();
        prop_assert_eq!(errors, expected_replies);
        prop_assert_eq!(lines.len() - errors, responses);
    }
}
