//! The real daemon and shim over the real socket.

mod audit;
mod lifecycle;
mod socket_tools;
