//! The two protocol eras served on one socket (packaging/clients/README.md,
//! "Protocol eras"): 2025-11-25 opens with `initialize` and keeps the client's
//! capabilities for the session; 2026-07-28 has no handshake, and each
//! request names its protocol version and carries the client's capabilities
//! in `_meta`. rmcp checks a request's version against [`supported`]
//! (-32022 with `data.supported` otherwise) and fills the default cache
//! hints; what differs here is said per request, never remembered from an
//! earlier one.

use rmcp::RoleServer;
use rmcp::model::{CacheScope, ProtocolVersion};
use rmcp::service::RequestContext;

/// The handshake revision: `initialize` answers it (or an older one the
/// client asks for).
pub const HANDSHAKE: ProtocolVersion = ProtocolVersion::V_2025_11_25;

/// The newest revision served: stateless, `server/discover`, input-required
/// results, `subscriptions/listen`.
pub const MODERN: ProtocolVersion = ProtocolVersion::V_2026_07_28;

/// Every revision served, oldest first: what `server/discover` advertises and
/// what a request's `_meta` version is checked against.
pub fn supported() -> &'static [ProtocolVersion] {
    ProtocolVersion::known_up_to(&MODERN)
}

/// How long a listing stays fresh for a 2026-07-28 client (`ttlMs`): the
/// catalogue, prompts, resources and templates never change while the daemon
/// runs, and Ombi's reference lists (categories, genres, languages) seldom.
/// Everything else is read fresh (rmcp's default 0).
pub const LISTING_TTL_MS: u64 = 3_600_000;

/// This request is on 2026-07-28 or later: its own `_meta` says so, or (on a
/// connection that did `initialize`) the negotiated version does.
pub fn is_modern(context: &RequestContext<RoleServer>) -> bool {
    context
        .protocol_version()
        .is_some_and(|v| v.as_str() >= MODERN.as_str())
}

/// The cache hints of a result on 2026-07-28: `private` always (what a peer
/// sees depends on who it is), `ttl_ms` for what stays fresh. `None` on
/// 2025-11-25, whose results carry no hints.
pub fn cache_hints(modern: bool, ttl_ms: u64) -> (Option<u64>, Option<CacheScope>) {
    if modern {
        (Some(ttl_ms), Some(CacheScope::Private))
    } else {
        (None, None)
    }
}
