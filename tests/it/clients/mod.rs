//! Real MCP clients and bridges against the real binaries.

pub mod confirm;
pub mod inspector_cli;
mod nixos_vm_parts;
pub mod python_client;
mod python_surfaces;
mod python_tools;
mod ssh_bridge;
