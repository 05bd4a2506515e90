//! The real daemon and shim over the real socket.

mod audit;
mod lifecycle;
mod reload;
mod socket_tools;
