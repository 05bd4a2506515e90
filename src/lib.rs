//! ombi-mcp: an MCP server for a self-hosted Ombi.
//!
//! Data flows one way: socket ([`transport`]) → MCP session ([`server`], for a
//! peer admitted by [`policy`]) → tool ([`tools`], described in the language
//! of [`definition`]) → Ombi ([`upstream`]) → projection ([`projection`]) →
//! people's text screened ([`text`]) → result envelope ([`contract`]). Modules import only modules below them in
//! the layer order of docs/architecture.md.

// A failed tool call carries its whole error envelope by value (`Failure`);
// calls are few and far between, so boxing it would buy nothing.
#![allow(clippy::result_large_err)]

pub mod completions;
pub mod config;
pub mod confirm;
pub mod contract;
pub mod daemon;
pub mod definition;
pub mod logging;
pub mod policy;
pub mod projection;
pub mod prompts;
pub mod resources;
pub mod secrets;
pub mod server;
pub mod text;
pub mod tools;
pub mod transport;
pub mod upstream;
pub mod views;
