//! The integration tests, in one binary (one link of the daemon library and
//! its dependencies instead of one per area). Modules by area:
//! - `contract`: arguments, actions, budgets, the catalogue, output schemas;
//! - `tools`: every tool in process against the fake Ombi, through the rig, by domain as `src/tools/`;
//! - `resources`: resources and live updates in process against the fake Ombi;
//! - `upstream`: routes, session and faults against the fake, and the fake's own write routes;
//! - `daemon`: the real binaries and the socket;
//! - `eras`: both protocol eras (2025-11-25, 2026-07-28) on one socket, raw and with real clients;
//! - `reliability`: the daemon under abuse (frames, connections, Ombi faults);
//! - `fuzz`: property tests (validation, projection, frames);
//! - `clients`: real MCP clients (Python SDK, Inspector CLI, SSH bridge, the NixOS VM test's parts);
//! - `untrusted`: hidden-text removal and lockdown (properties, corpus, rig, daemon);
//! - `cited_paths`: every repository path the docs cite exists;
//! - `packaging`: what ships beside the binaries (not run by the Nix build: `--skip packaging::`).
//!
//! `support` (the fake Ombi, the in-process rig, argument tables) and `harness`
//! (the real daemon and shim) are shared by all of them.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: see clippy.toml

mod harness;
mod support;

mod apps;
mod cited_paths;
mod clients;
mod contract;
mod daemon;
mod eras;
mod fuzz;
mod layers;
mod packaging;
mod reliability;
mod resources;
mod tools;
mod untrusted;
mod upstream;
