//! The real daemon and shim over the real socket.

mod lifecycle;
mod roles;
mod socket_tools;
