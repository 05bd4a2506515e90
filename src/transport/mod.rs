//! Everything between the Unix socket and an MCP session: the listener
//! (systemd socket activation or a self-bound path) and the JSON-RPC framing
//! of each connection. Who the peer is and what it may see is
//! `crate::policy`.

pub mod frame;
pub mod listener;

/// A session's serialized `tools/list` result, filled by the session once it
/// has read what its peer sees (the acting user's roles); the connection's
/// transport answers from it.
pub type ListingSlot = std::sync::OnceLock<&'static str>;
