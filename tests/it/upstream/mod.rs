//! The Ombi client against the fake over loopback, and the fake's own write routes.

mod fake_ombi_writes;
mod faults;
mod routes;
mod secrets;
mod session;
