//! The daemon under abuse. `OMBI_MCP_SOAK=1` runs longer variants.

mod connections;
mod fair_share;
mod protocol;
mod upstream;
