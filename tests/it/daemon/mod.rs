//! The real daemon and shim over the real socket.

mod lifecycle;
mod socket_tools;
