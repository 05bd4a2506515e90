//! The tools in process against the fake Ombi, through the one rig (`support::rig`).

mod admin;
mod fidelity;
mod issues;
mod media;
mod reads_fidelity;
mod reference;
mod requests;
mod resources;
mod votes;
mod writes_admin;
mod writes_core;
mod writes_moderation;
