//! Untrusted text (docs/security.md): the sanitizer's properties and an
//! injection corpus, the fake's planted hidden text through the rig and the
//! real daemon, and lockdown.

mod daemon;
mod questions;
mod text;
