//! The output contract of `shared/spec/04-results.md`: error codes, the result
//! envelope, per-tool `outputSchema` composition and the response budgets.

pub mod error;

pub use error::{ErrorCode, ToolError};
