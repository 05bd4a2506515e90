//! The real daemon and shim over the real socket.

mod audit;
pub mod check_config;
mod lifecycle;
mod reload;
mod roles;
mod socket_tools;
