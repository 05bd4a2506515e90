//! Text that reaches the model from other people: [`untrusted`] removes what
//! a person cannot see (hidden characters, HTML comments, script and style
//! elements) from every result, and [`lockdown`] withholds what other users
//! wrote when a peer runs under lockdown (docs/security.md).

pub mod lockdown;
pub mod untrusted;
