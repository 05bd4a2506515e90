//! Both protocol eras on one socket (docs/clients.md, "Protocol eras"):
//! 2025-11-25 with `initialize`, 2026-07-28 stateless with `_meta` on every
//! request — negotiation, per-request policy and results per era over the
//! real daemon, raw JSON-RPC lines so each byte of the contract is visible.

mod confirm;
mod inspector;
mod listen;
mod negotiation;
mod python;

use serde_json::{Value, json};

/// `_meta` of a 2026-07-28 request: its version, the client's capabilities
/// and identity.
pub fn modern_meta(version: &str, capabilities: Value) -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": version,
        "io.modelcontextprotocol/clientCapabilities": capabilities,
        "io.modelcontextprotocol/clientInfo": {"name": "eras-test", "version": "1"},
    })
}

/// One 2026-07-28 request line (`params` gets the `_meta`).
pub fn modern(id: i64, method: &str, params: Value) -> String {
    modern_with(id, method, params, "2026-07-28", json!({}))
}

/// A 2026-07-28 request line naming `version` and `capabilities`.
pub fn modern_with(
    id: i64,
    method: &str,
    params: Value,
    version: &str,
    capabilities: Value,
) -> String {
    let mut params = params;
    params["_meta"] = modern_meta(version, capabilities);
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string()
}
