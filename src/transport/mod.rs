//! Everything between the Unix socket and an MCP session: the listener
//! (systemd socket activation or a self-bound path) and the JSON-RPC framing
//! of each connection. Who the peer is and what it may see is
//! `crate::policy`.

pub mod frame;
pub mod listener;
mod listing;
