//! JSON-RPC framing of one connection: newline-delimited JSON, each line
//! checked as a JSON-RPC 2.0 message before rmcp sees it.
//!
//! rmcp's own line transport drops an unparsable or over-long line without a
//! word and answers a malformed message without an `id` member; a client then
//! waits forever for its reply. Here every bad frame gets the error JSON-RPC
//! 2.0 prescribes (`-32700` parse error and `-32600` invalid request, with
//! `id` set to the request's id when it can be read, else `null`), and the
//! session goes on. Valid notifications and responses are never answered.
//!
//! It also bounds the requests a session has in flight: rmcp runs every
//! request it is handed at once, so a client pipelining requests faster than
//! they are answered (or never reading the answers) would grow the daemon
//! without limit. Past [`MAX_IN_FLIGHT`] unanswered requests, the next one
//! waits here: the client is slowed down instead. While it waits, the socket
//! is still read for responses and notifications, because the requests in
//! flight may be waiting for the client's answer to a request of ours (a
//! confirmation, `elicitation/create`); one more request read meanwhile is
//! kept too, and only then does reading stop. Responses pass through the
//! same line cap and checks as everything else. A request whose id is
//! already in flight is answered `-32600` and never run.

use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex as StdMutex};

use rmcp::RoleServer;
use rmcp::model::{
    ClientJsonRpcMessage, ClientNotification, ClientRequest, ContentBlock, GetMeta, JsonRpcMessage,
    RequestId, ServerJsonRpcMessage, ServerResult,
};
use rmcp::transport::Transport;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::{Mutex, Semaphore};
use tracing::debug;

/// JSON-RPC 2.0 error codes this layer answers with.
pub const PARSE_ERROR: i64 = -32700;
pub const INVALID_REQUEST: i64 = -32600;
pub const INVALID_PARAMS: i64 = -32602;

/// Requests of one session handed to rmcp and not yet answered (the answer
/// written), at most.
pub const MAX_IN_FLIGHT: usize = 32;

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
    max: usize,
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
    fn new(code: i64, message: impl Into<String>, id: Option<RequestId>) -> ErrorReply {
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
fn response_line(id: &RequestId, result: &str) -> Vec<u8> {
    let id = serde_json::to_string(id).unwrap_or_else(|_| "null".into());
    format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"result\":{result}}}\n").into_bytes()
}

type Writer<W> = Arc<Mutex<W>>;
type PendingWrite = Pin<Box<dyn Future<Output = io::Result<()>> + Send>>;

/// The requests in flight: a slot each, released when the answer is written
/// or the client cancels the request (rmcp then sends no answer).
struct InFlight {
    slots: Semaphore,
    /// Slots held per request id (a client may reuse an id).
    ids: StdMutex<HashMap<RequestId, u32>>,
    /// Ids run and not yet answered: an id leaves as its answer is handed
    /// to the writer, so a client may reuse it as soon as it reads it.
    live: StdMutex<std::collections::HashSet<RequestId>>,
}

impl InFlight {
    fn ids(&self) -> std::sync::MutexGuard<'_, HashMap<RequestId, u32>> {
        self.ids.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn hold(&self, id: RequestId) {
        self.live().insert(id.clone());
        *self.ids().entry(id).or_default() += 1;
    }

    fn live(&self) -> std::sync::MutexGuard<'_, std::collections::HashSet<RequestId>> {
        self.live.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Releases the slots of `id`, if it holds any.
    fn release(&self, id: &RequestId) {
        self.live().remove(id);
        let held = self.ids().remove(id);
        if let Some(n) = held {
            self.slots.add_permits(n as usize);
        }
    }
}

/// rmcp's transport for one connection: lines in through [`LineSplitter`]
/// and [`decode`], messages out one line each.
pub struct FramedTransport<R, W> {
    read: BufReader<R>,
    split: LineSplitter,
    write: Writer<W>,
    /// An error reply being written; kept here so a cancelled `receive`
    /// finishes it next time instead of leaving half a line on the wire.
    pending: Option<PendingWrite>,
    in_flight: Arc<InFlight>,
    /// A request read but waiting for an in-flight slot (kept across a
    /// cancelled `receive`, like `pending`).
    held: Option<ClientJsonRpcMessage>,
    /// The next request, read while `held` waited; reading stops until
    /// `held` has its slot.
    queued: Option<ClientJsonRpcMessage>,
    /// The socket ended (or failed) while `held` waited: it is still run.
    drained: bool,
    /// The session's `tools/list` result, serialized ([`Self::with_tools_list`]).
    tools_list: Option<Arc<super::ListingSlot>>,
    /// The client sent `notifications/initialized`: rmcp's handshake is over.
    initialized: bool,
}

impl<R, W> FramedTransport<R, W>
where
    R: AsyncRead + Send + Unpin,
    W: AsyncWrite + Send + Unpin + 'static,
{
    pub fn new(read: R, write: W, max_line: usize) -> FramedTransport<R, W> {
        FramedTransport {
            read: BufReader::new(read),
            split: LineSplitter::new(max_line),
            write: Arc::new(Mutex::new(write)),
            pending: None,
            in_flight: Arc::new(InFlight {
                slots: Semaphore::new(MAX_IN_FLIGHT),
                ids: StdMutex::new(HashMap::new()),
                live: StdMutex::new(Default::default()),
            }),
            held: None,
            queued: None,
            drained: false,
            tools_list: None,
            initialized: false,
        }
    }

    /// Answers `tools/list` after the handshake from `slot` (the session's listing, serialized once
    /// for the daemon's life; rmcp answers until it is filled) instead of handing it to rmcp,
    /// which would clone and serialize every tool definition again.
    pub fn with_tools_list(mut self, slot: Arc<super::ListingSlot>) -> Self {
        self.tools_list = Some(slot);
        self
    }

    /// The serialized `tools/list` answer for `request`, when this layer may
    /// give it; else `None` (rmcp answers): on 2025-11-25 after the handshake,
    /// once the session has filled its slot. A 2026-07-28 request (its
    /// `_meta` names a version) always reaches rmcp: its listing is made per
    /// request, and rmcp's session starts with its first request.
    fn tools_list_for(&self, request: &ClientRequest) -> Option<&'static str> {
        if !self.initialized
            || !matches!(request, ClientRequest::ListToolsRequest(_))
            || request.get_meta().protocol_version().is_some()
        {
            return None;
        }
        self.tools_list.as_ref()?.get().copied()
    }

    /// Whether a request with `id` is in flight or waiting here: a second
    /// one would share its answer (and both might run), so it is refused.
    fn id_in_use(&self, id: &RequestId) -> bool {
        let waiting = [&self.held, &self.queued]
            .into_iter()
            .any(|m| matches!(m, Some(JsonRpcMessage::Request(r)) if &r.id == id));
        waiting || self.in_flight.live().contains(id)
    }

    /// The next line event, or `None` at EOF or on a read error.
    async fn next_split(&mut self) -> Option<Split> {
        loop {
            let buf = match self.read.fill_buf().await {
                Ok([]) => return None,
                Ok(buf) => buf,
                Err(e) => {
                    debug!(error = %e, "reading from the client failed");
                    return None;
                }
            };
            let (used, event) = self.split.feed(buf);
            self.read.consume(used);
            if event.is_some() {
                return event;
            }
        }
    }
}

/// Writes one whole line under the lock, so lines never interleave.
async fn write_line<W: AsyncWrite + Unpin>(write: Writer<W>, line: Vec<u8>) -> io::Result<()> {
    let mut w = write.lock().await;
    w.write_all(&line).await?;
    w.flush().await
}

impl<R, W> Transport<RoleServer> for FramedTransport<R, W>
where
    R: AsyncRead + Send + Unpin,
    W: AsyncWrite + Send + Unpin + 'static,
{
    type Error = io::Error;

    fn send(
        &mut self,
        item: ServerJsonRpcMessage,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let answers = match &item {
            JsonRpcMessage::Response(r) => Some(r.id.clone()),
            JsonRpcMessage::Error(e) => e.id.clone(),
            _ => None,
        };
        let encoded = encode(item);
        if let Some(id) = &answers {
            self.in_flight.live().remove(id);
        }
        let (write, in_flight) = (self.write.clone(), self.in_flight.clone());
        async move {
            let written = match encoded {
                Ok(line) => write_line(write, line).await,
                Err(e) => Err(io::Error::other(e)),
            };
            if let Some(id) = answers {
                in_flight.release(&id);
            }
            written
        }
    }

    async fn receive(&mut self) -> Option<ClientJsonRpcMessage> {
        loop {
            if let Some(pending) = self.pending.as_mut() {
                let written = pending.await;
                self.pending = None;
                if let Err(e) = written {
                    debug!(error = %e, "writing an error reply failed");
                    return None;
                }
            }
            if self.held.is_none() {
                self.held = self.queued.take();
            }
            if let Some(JsonRpcMessage::Request(request)) = &self.held {
                let id = request.id.clone();
                let in_flight = self.in_flight.clone();
                let slot = if self.queued.is_some() || self.drained {
                    Some(in_flight.slots.acquire().await.ok()?)
                } else {
                    // A free slot wins, so nothing overtakes a request that
                    // need not wait. Both are cancel-safe: a line is only
                    // consumed below.
                    tokio::select! {
                        biased;
                        slot = in_flight.slots.acquire() => Some(slot.ok()?),
                        _ = self.read.fill_buf() => None,
                    }
                };
                match slot {
                    Some(slot) => {
                        slot.forget();
                        self.in_flight.hold(id);
                        return self.held.take();
                    }
                    // The socket ended: no more lines, but `held` still runs.
                    None if self.read.buffer().is_empty() => {
                        self.drained = true;
                        continue;
                    }
                    // A line is coming: read it below.
                    None => {}
                }
            }
            let reply = match self.next_split().await? {
                Split::Oversized => ErrorReply::oversized(self.split.max),
                Split::Line => match decode(self.split.line()) {
                    Frame::Message(msg) => match *msg {
                        JsonRpcMessage::Request(r)
                            if let Some(result) = self.tools_list_for(&r.request) =>
                        {
                            let line = response_line(&r.id, result);
                            self.pending = Some(Box::pin(write_line(self.write.clone(), line)));
                            continue;
                        }
                        JsonRpcMessage::Request(r) if self.id_in_use(&r.id) => ErrorReply::new(
                            INVALID_REQUEST,
                            "Invalid Request: request id already in use",
                            Some(r.id),
                        ),
                        request @ JsonRpcMessage::Request(_) => {
                            if self.held.is_some() {
                                self.queued = Some(request);
                            } else {
                                self.held = Some(request);
                            }
                            continue;
                        }
                        JsonRpcMessage::Notification(n) => {
                            if let ClientNotification::InitializedNotification(_) = &n.notification
                            {
                                self.initialized = true;
                            }
                            // rmcp sends no answer to a cancelled request.
                            if let ClientNotification::CancelledNotification(c) = &n.notification
                                && let Some(id) = &c.params.request_id
                            {
                                self.in_flight.release(id);
                            }
                            return Some(JsonRpcMessage::Notification(n));
                        }
                        other => return Some(other),
                    },
                    Frame::Skip => continue,
                    Frame::Reply(reply) => reply,
                },
            };
            debug!(code = reply.code, message = %reply.message, "answered a bad frame");
            self.pending = Some(Box::pin(write_line(self.write.clone(), reply.to_line())));
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.write.lock().await.shutdown().await
    }
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

    /// A session whose every slot waits for the client's answer to a request
    /// of ours still reads that answer, though a further request waits.
    #[tokio::test]
    async fn answers_to_our_requests_pass_while_every_slot_is_taken() {
        use std::time::Duration;
        use tokio::io::AsyncWriteExt;
        let (client, server) = tokio::io::duplex(1 << 20);
        let (server_read, server_write) = tokio::io::split(server);
        let (_client_read, mut client_write) = tokio::io::split(client);
        let mut t = FramedTransport::new(server_read, server_write, 1 << 20);
        let request =
            |id: usize| format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"ping\"}}\n");
        let mut lines: String = (1..=MAX_IN_FLIGHT + 1).map(request).collect();
        // The answer to our elicitation, after a request that must wait,
        // and one more request.
        lines.push_str(
            "{\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{\"action\":\"accept\",\"content\":{\"confirm\":true}}}\n",
        );
        lines.push_str(&request(MAX_IN_FLIGHT + 2));
        client_write.write_all(lines.as_bytes()).await.unwrap();
        let five = Duration::from_secs(5);
        for _ in 0..MAX_IN_FLIGHT {
            let got = tokio::time::timeout(five, t.receive())
                .await
                .unwrap()
                .unwrap();
            assert!(matches!(got, JsonRpcMessage::Request(_)));
        }
        // Request 33 is held; the answer behind it still comes through.
        let got = tokio::time::timeout(five, t.receive())
            .await
            .expect("the answer was not read");
        match got {
            Some(JsonRpcMessage::Response(r)) => {
                assert_eq!(r.id, RequestId::Number(0));
                assert!(matches!(
                    r.result,
                    rmcp::model::ClientResult::ElicitResult(_)
                ));
            }
            other => panic!("expected the elicitation answer, got {other:?}"),
        }
        // No slot yet: nothing more.
        assert!(
            tokio::time::timeout(Duration::from_millis(100), t.receive())
                .await
                .is_err()
        );
        // Answering two requests frees two slots: 33, then 34.
        for id in [1, 2] {
            let done =
                ServerJsonRpcMessage::response(ServerResult::empty(()), RequestId::Number(id));
            Transport::send(&mut t, done).await.unwrap();
        }
        for want in [MAX_IN_FLIGHT as i64 + 1, MAX_IN_FLIGHT as i64 + 2] {
            match tokio::time::timeout(five, t.receive()).await.unwrap() {
                Some(JsonRpcMessage::Request(r)) => assert_eq!(r.id, RequestId::Number(want)),
                other => panic!("expected request {want}, got {other:?}"),
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
