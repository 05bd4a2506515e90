//! JSON-RPC framing of one connection: newline-delimited JSON, each line
//! checked as a JSON-RPC 2.0 message before rmcp sees it.
//!
//! rmcp's own line transport drops an unparsable or over-long line without a
//! word and answers a malformed message without an `id` member; a client then
//! waits forever for its reply. Here every bad frame gets the error JSON-RPC
//! 2.0 prescribes (`-32700` parse error and `-32600` invalid request, with
//! `id` set to the request's id when it can be read, else `null`), and the
//! session goes on. Valid notifications and responses are never answered.
//! The line codec (splitting, classifying, writing) is [`super::codec`].
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
    ClientJsonRpcMessage, ClientNotification, ClientRequest, GetMeta, JsonRpcMessage, RequestId,
    ServerJsonRpcMessage,
};
use rmcp::transport::Transport;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::{Mutex, Semaphore};
use tracing::debug;

use super::codec::{
    ErrorReply, Frame, INVALID_REQUEST, LineSplitter, Split, decode, encode, response_line,
};

/// Requests of one session handed to rmcp and not yet answered (the answer
/// written), at most.
pub const MAX_IN_FLIGHT: usize = 32;

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
    use rmcp::model::ServerResult;

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
}
