//! The MCP Apps views (`src/views/`, docs/apps.md): what the daemon declares
//! and serves over the real socket (`views`), and the views themselves in a
//! real browser under a host built on the extension's `AppBridge`
//! (`browser`, driven by `tests/apps/`).

mod browser;
mod views;
