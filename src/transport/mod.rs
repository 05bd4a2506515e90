//! Everything between the Unix socket and an MCP session: the listener
//! (systemd socket activation or a self-bound path), the peer policy and
//! the JSON-RPC framing of each connection.

pub mod frame;
pub mod listener;
pub mod policy;

pub use policy::Identity;
