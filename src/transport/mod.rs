//! Everything between the Unix socket and an MCP session: the listener
//! (systemd socket activation or a self-bound path), each uid's share of the
//! session slots, the throttled log of refusals, the JSON-RPC framing of
//! each connection, and the freed heap given back once connections are quiet. Who the peer is and what it may see is `crate::policy`.

pub mod codec;
pub mod frame;
pub mod heap;
pub mod listener;
pub mod refusals;
pub mod share;

/// A session's serialized `tools/list` result, filled by the session once it
/// has read what its peer sees (the acting user's roles); the connection's
/// transport answers from it.
pub type ListingSlot = std::sync::OnceLock<&'static str>;
