//! The session's `tools/list`, answered by the transport instead of rmcp
//! (which would clone and serialize every tool definition again per
//! request): the serialized answer of each protocol era, and when this layer
//! may give it.

use rmcp::model::{ClientRequest, GetMeta, RequestMetaObject};

/// The session's `tools/list` answers, serialized once for the daemon's life,
/// one per protocol era.
#[derive(Clone, Copy)]
pub struct ToolsListing {
    /// The result for a session that did `initialize` (2025-11-25).
    pub legacy: &'static str,
    /// The result for a 2026-07-28 request (with its cache hints).
    pub modern: &'static str,
    /// Whether a request's `_meta` makes it a 2026-07-28 request rmcp would
    /// serve (a supported version and the client's capabilities): anything
    /// else goes to rmcp, which answers it or says what is wrong.
    pub is_modern: fn(&RequestMetaObject) -> bool,
}

/// Whether rmcp's session runs: the transport answers only then, so rmcp's
/// handshake (and the daemon's timeout on it) sees every opening request.
#[derive(Debug, Default)]
pub struct Sessions {
    /// The client sent `notifications/initialized` (2025-11-25).
    pub initialized: bool,
    /// A 2026-07-28 request rmcp would serve was handed to it: rmcp's
    /// session runs without a handshake (its first such request starts it).
    pub modern_started: bool,
}

impl Sessions {
    /// The serialized `tools/list` answer for `request`, when this layer may
    /// give it; else `None` (rmcp answers). Called for every request, so it
    /// also notes the first 2026-07-28 request handed on.
    pub fn tools_list(
        &mut self,
        listing: Option<ToolsListing>,
        request: &ClientRequest,
    ) -> Option<&'static str> {
        let listing = listing?;
        let meta = request.get_meta();
        let is_list = matches!(request, ClientRequest::ListToolsRequest(_));
        if meta.protocol_version().is_some() {
            if !(listing.is_modern)(meta) {
                return None;
            }
            let answer = is_list && self.modern_started;
            if !matches!(request, ClientRequest::DiscoverRequest(_)) {
                self.modern_started = true;
            }
            return answer.then_some(listing.modern);
        }
        (self.initialized && is_list).then_some(listing.legacy)
    }
}
