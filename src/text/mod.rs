//! Text from outside the daemon made safe to show a caller. The bottom layer
//! beside `contract` (imports nothing else of the crate), so that `upstream`,
//! `projection` and `tools` can all use it: [`message`] cleans Ombi's error
//! and status messages (exception text, stack traces, credentials);
//! [`untrusted`] removes what a person cannot see (hidden characters, HTML
//! comments, script and style elements) from every result (docs/security.md).

pub mod message;
pub mod time;
pub mod untrusted;
