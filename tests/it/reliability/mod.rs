//! The daemon under abuse. `OMBI_MCP_SOAK=1` runs longer variants.

mod connections;
mod fair_share;
mod hardening;
mod protocol;
mod upstream;
