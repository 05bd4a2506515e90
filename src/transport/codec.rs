//! The JSON-RPC 2.0 line codec of a connection: the splitter that cuts the
//! byte stream into capped lines, each line's classification (a message for
//! rmcp, nothing, or the error JSON-RPC prescribes for it), and the writer
//! of outgoing lines. [`super::frame`] runs them on a socket.

use rmcp::model::{
    ClientJsonRpcMessage, ContentBlock, JsonRpcMessage, RequestId, ServerJsonRpcMessage,
    ServerResult,
};
use serde_json::{Value, json};
use tracing::debug;

/// JSON-RPC 2.0 error codes this layer answers with.
pub const PARSE_ERROR: i64 = -32700;
pub const INVALID_REQUEST: i64 = -32600;
pub const INVALID_PARAMS: i64 = -32602;

/// A line buffer this large or larger is released after use, so an idle
/// session that once received a big frame does not keep the memory.
const KEEP_LINE_CAPACITY: usize = 64 * 1024;

/// What [`LineSplitter::feed`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Split {
    /// A whole line is in [`LineSplitter::line`].
    Line,
    /// A line grew past the cap; it is dropped (its tail is skipped).
    Oversized,
}

/// Splits a byte stream into `\n`-terminated lines of at most `max` bytes
/// (newline excluded) without ever buffering more than `max` bytes. It is
/// fed whatever the socket gave, so a partial read is simply resumed: the
/// async reader stays cancel-safe (rmcp polls `receive` inside a `select!`).
#[derive(Debug)]
pub struct LineSplitter {
    line: Vec<u8>,
    pub(super) max: usize,
    /// Skipping the rest of an oversized line, up to its newline.
    discarding: bool,
    /// `line` holds a finished line, to be cleared on the next feed.
    complete: bool,
}

impl LineSplitter {
    pub fn new(max: usize) -> LineSplitter {
        LineSplitter {
            line: Vec::new(),
            max,
            discarding: false,
            complete: false,
        }
    }

    /// Takes bytes from the front of `input`: returns how many were used and
    /// whether a line (or an oversized one) ended there.
    pub fn feed(&mut self, input: &[u8]) -> (usize, Option<Split>) {
        if self.complete {
            self.complete = false;
            if self.line.capacity() >= KEEP_LINE_CAPACITY {
                self.line = Vec::new();
            } else {
                self.line.clear();
            }
        }
        let newline = input.iter().position(|b| *b == b'\n');
        let (body, used) = match newline {
            Some(i) => (&input[..i], i + 1),
            None => (input, input.len()),
        };
        if self.discarding {
            self.discarding = newline.is_none();
            return (used, None);
        }
        if self.line.len() + body.len() > self.max {
            self.line.clear();
            self.discarding = newline.is_none();
            return (used, Some(Split::Oversized));
        }
        self.line.extend_from_slice(body);
        if newline.is_some() {
            self.complete = true;
            (used, Some(Split::Line))
        } else {
            (used, None)
        }
    }

    /// The line [`Split::Line`] announced, without its `\n`.
    pub fn line(&self) -> &[u8] {
        &self.line
    }
}

/// A protocol error this layer answers itself.
#[derive(Debug, Clone, PartialEq)]
pub struct ErrorReply {
    pub code: i64,
    pub message: String,
    /// The request's id when it could be read; `null` on the wire otherwise.
    pub id: Option<RequestId>,
}

impl ErrorReply {
    pub(super) fn new(code: i64, message: impl Into<String>, id: Option<RequestId>) -> ErrorReply {
        ErrorReply {
            code,
            message: message.into(),
            id,
        }
    }

    /// The reply for a line over the frame cap (its id cannot be read).
    pub fn oversized(max: usize) -> ErrorReply {
        ErrorReply::new(
            INVALID_REQUEST,
            format!("Invalid Request: the message is longer than {max} bytes"),
            None,
        )
    }

    /// The JSON-RPC error object as one line, `id` always present.
    pub fn to_line(&self) -> Vec<u8> {
        let id = self
            .id
            .clone()
            .map_or(Value::Null, |id| id.into_json_value());
        let mut line = serde_json::to_vec(&json!({
            "jsonrpc": "2.0",
            "id": id,
            "error": { "code": self.code, "message": self.message },
        }))
        .unwrap_or_default();
        line.push(b'\n');
        line
    }
}

/// What one line is.
#[derive(Debug)]
pub enum Frame {
    /// A message for rmcp.
    Message(Box<ClientJsonRpcMessage>),
    /// Nothing to do: a blank line, or a notification or response rmcp
    /// cannot read (JSON-RPC never answers those).
    Skip,
    /// A protocol error to answer.
    Reply(ErrorReply),
}

/// Classifies one line (without its `\n`). Valid messages take one parse;
/// only a line rmcp refuses is parsed again to say precisely why.
pub fn decode(line: &[u8]) -> Frame {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    // RFC 8259 §8.1 lets a parser ignore a byte order mark.
    let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    if line.iter().all(u8::is_ascii_whitespace) {
        return Frame::Skip;
    }
    match serde_json::from_slice::<ClientJsonRpcMessage>(line) {
        Ok(msg) => Frame::Message(Box::new(msg)),
        Err(_) => diagnose(line),
    }
}

/// Why rmcp refused `line`, as JSON-RPC 2.0 §5 and §4.2 say to answer it.
fn diagnose(line: &[u8]) -> Frame {
    let value = match serde_json::from_slice::<Value>(line) {
        Ok(v) => v,
        Err(e) => {
            return Frame::Reply(ErrorReply::new(
                PARSE_ERROR,
                format!("Parse error: {e}"),
                None,
            ));
        }
    };
    let invalid = |message: &str, id: Option<RequestId>| {
        Frame::Reply(ErrorReply::new(
            INVALID_REQUEST,
            format!("Invalid Request: {message}"),
            id,
        ))
    };
    let obj = match value {
        Value::Object(obj) => obj,
        Value::Array(items) if items.is_empty() => return invalid("an empty batch", None),
        // MCP 2025-06-18 dropped JSON-RPC batching.
        Value::Array(_) => return invalid("batches are not supported", None),
        _ => return invalid("a message must be a JSON object", None),
    };
    let id = match obj.get("id") {
        None => None,
        Some(raw) => match serde_json::from_value::<RequestId>(raw.clone()) {
            Ok(id) => Some(id),
            Err(_) => return invalid("`id` must be a string or an integer", None),
        },
    };
    if obj.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return invalid("`jsonrpc` must be \"2.0\"", id);
    }
    let (result, error) = (obj.contains_key("result"), obj.contains_key("error"));
    match obj.get("method") {
        Some(Value::String(method)) => {
            if result || error {
                return invalid("a message has `method` or `result`/`error`, not both", id);
            }
            if !matches!(
                obj.get("params"),
                None | Some(Value::Null | Value::Object(_) | Value::Array(_))
            ) {
                return invalid("`params` must be an object", id);
            }
            match id {
                // A notification rmcp cannot read: never answered.
                None => {
                    debug!(method = %method, "dropped an unreadable notification");
                    Frame::Skip
                }
                Some(id) => Frame::Reply(ErrorReply::new(
                    INVALID_PARAMS,
                    format!("Invalid params for {method}"),
                    Some(id),
                )),
            }
        }
        Some(_) => invalid("`method` must be a string", id),
        None if result && error => invalid("a response has `result` or `error`, not both", id),
        // A response (to a request this server never sent) rmcp cannot read.
        None if result || error => Frame::Skip,
        None => invalid("a request needs `method`", id),
    }
}

/// One outgoing message as a line. A `tools/call` result holds its envelope
/// twice: as `structuredContent` and as the text block, which is that same
/// JSON already serialized (`contract::Envelope`). The text is spliced in as
/// `structuredContent` instead of serializing the envelope a second time.
pub fn encode(mut item: ServerJsonRpcMessage) -> serde_json::Result<Vec<u8>> {
    let spliced = match &mut item {
        JsonRpcMessage::Response(r) => match &mut r.result {
            // The text block comes first; resource links may follow it.
            ServerResult::CallToolResult(result) => match result.content.as_slice() {
                [ContentBlock::Text(t), ..] => result.structured_content.take().map(|structured| {
                    debug_assert_eq!(
                        serde_json::from_str::<Value>(&t.text).ok().as_ref(),
                        Some(&structured),
                        "a tool result's text block must be its structuredContent"
                    );
                    t.text.clone()
                }),
                _ => None,
            },
            _ => None,
        },
        _ => None,
    };
    let mut line = serde_json::to_vec(&item)?;
    if let Some(json) = spliced {
        // `{"jsonrpc":..,"id":..,"result":{..}}`: `result` is the last member,
        // so the line ends with the result's `}` and then the message's.
        let (head, tail) = line.split_at(line.len().saturating_sub(2));
        let mut out = Vec::with_capacity(line.len() + json.len() + 24);
        out.extend_from_slice(head);
        out.extend_from_slice(b",\"structuredContent\":");
        out.extend_from_slice(json.as_bytes());
        out.extend_from_slice(tail);
        line = out;
    }
    line.push(b'\n');
    Ok(line)
}

/// A response line around an already serialized `result`.
pub(super) fn response_line(id: &RequestId, result: &str) -> Vec<u8> {
    let id = serde_json::to_string(id).unwrap_or_else(|_| "null".into());
    format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"result\":{result}}}\n").into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reply(line: &str) -> ErrorReply {
        match decode(line.as_bytes()) {
            Frame::Reply(r) => r,
            other => panic!("{line}: expected an error reply, got {other:?}"),
        }
    }

    #[test]
    fn each_bad_frame_gets_its_json_rpc_error() {
        let num = |n| Some(RequestId::Number(n));
        let cases: &[(&str, i64, Option<RequestId>)] = &[
            ("{\"jsonrpc\":\"2.0\",\"id\":1,", PARSE_ERROR, None),
            ("not json", PARSE_ERROR, None),
            ("[]", INVALID_REQUEST, None),
            (
                "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]",
                INVALID_REQUEST,
                None,
            ),
            ("42", INVALID_REQUEST, None),
            (
                "{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"ping\"}",
                INVALID_REQUEST,
                None,
            ),
            (
                "{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}",
                INVALID_REQUEST,
                None,
            ),
            (
                "{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}",
                INVALID_REQUEST,
                None,
            ),
            (
                "{\"jsonrpc\":\"1.0\",\"id\":7,\"method\":\"ping\"}",
                INVALID_REQUEST,
                num(7),
            ),
            ("{\"id\":7,\"method\":\"ping\"}", INVALID_REQUEST, num(7)),
            (
                "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":5}",
                INVALID_REQUEST,
                num(7),
            ),
            ("{\"jsonrpc\":\"2.0\",\"id\":7}", INVALID_REQUEST, num(7)),
            (
                "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\",\"params\":3}",
                INVALID_REQUEST,
                num(7),
            ),
            (
                "{\"jsonrpc\":\"2.0\",\"method\":\"x\",\"result\":{}}",
                INVALID_REQUEST,
                None,
            ),
            (
                "{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"result\":{},\"error\":{}}",
                INVALID_REQUEST,
                Some(RequestId::String("a".into())),
            ),
        ];
        for (line, code, id) in cases {
            let r = reply(line);
            assert_eq!((r.code, &r.id), (*code, id), "{line}: {r:?}");
            let wire: Value = serde_json::from_slice(&r.to_line()).unwrap();
            assert!(wire.as_object().unwrap().contains_key("id"), "{wire}");
            assert_eq!(wire["jsonrpc"], "2.0");
        }
    }

    #[test]
    fn valid_messages_pass_and_unreadable_notifications_are_dropped() {
        for ok in [
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}",
            "\u{feff}{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"method\":\"ping\"}\r",
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
            "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}",
        ] {
            assert!(matches!(decode(ok.as_bytes()), Frame::Message(_)), "{ok}");
        }
        for skip in ["", "   ", "\r"] {
            assert!(matches!(decode(skip.as_bytes()), Frame::Skip), "{skip:?}");
        }
    }

    /// A tool result's envelope is written from its text block: the line is
    /// the same JSON as serializing the message whole.
    #[test]
    fn call_results_splice_their_text_as_structured_content() {
        use rmcp::model::CallToolResult;
        let envelope = json!({"ok": true, "operation": "t", "data": {"kind": "x", "s": "é\"\n"},
            "warnings": [], "truncated": false, "correlation_id": "c"});
        for result in [
            CallToolResult::structured(envelope.clone()),
            CallToolResult::structured_error(envelope.clone()),
            CallToolResult::success(vec![ContentBlock::text("plain")]),
            {
                let mut linked = CallToolResult::structured(envelope.clone());
                linked
                    .content
                    .push(ContentBlock::resource_link(rmcp::model::Resource::new(
                        "ombi://issue/1",
                        "issue 1",
                    )));
                linked
            },
        ] {
            for id in [RequestId::Number(7), RequestId::String("a\"b".into())] {
                let item = ServerJsonRpcMessage::response(
                    ServerResult::CallToolResult(result.clone()),
                    id,
                );
                let whole: Value = serde_json::to_value(&item).unwrap();
                let line = encode(item).unwrap();
                assert_eq!(line.last(), Some(&b'\n'));
                let spliced: Value = serde_json::from_slice(&line).unwrap();
                assert_eq!(spliced, whole);
            }
        }
    }

    #[test]
    fn splitter_caps_lines_and_resumes_partial_reads() {
        let mut s = LineSplitter::new(4);
        assert_eq!(s.feed(b"ab"), (2, None));
        assert_eq!(s.feed(b"c\nxyz"), (2, Some(Split::Line)));
        assert_eq!(s.line(), b"abc");
        assert_eq!(s.feed(b"toolong"), (7, Some(Split::Oversized)));
        assert_eq!(s.feed(b"still\nok\n"), (6, None));
        assert_eq!(s.feed(b"ok\n"), (3, Some(Split::Line)));
        assert_eq!(s.line(), b"ok");
        assert_eq!(s.feed(b"12345\n"), (6, Some(Split::Oversized)));
        assert_eq!(s.feed(b"1234\n"), (5, Some(Split::Line)));
        assert_eq!(s.line(), b"1234");
    }
}
