//! ombi-mcp: an MCP server for a self-hosted Ombi.
//!
//! Data flows one way: socket ([`transport`]) → MCP session ([`server`]) → tool
//! ([`tools`], described by [`catalogue`]) → Ombi ([`upstream`]) → projection
//! ([`projection`]) → result envelope ([`contract`]).

// A failed tool call carries its whole error envelope by value (`Failure`);
// calls are few and far between, so boxing it would buy nothing.
#![allow(clippy::result_large_err)]

pub mod catalogue;
pub mod config;
pub mod confirm;
pub mod contract;
pub mod daemon;
pub mod logging;
pub mod projection;
pub mod secrets;
pub mod server;
pub mod tools;
pub mod transport;
pub mod upstream;
