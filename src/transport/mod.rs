//! Everything between the Unix socket and an MCP session: the listener
//! (systemd socket activation or a self-bound path) and the peer policy.

pub mod listener;
pub mod policy;

pub use policy::Identity;
