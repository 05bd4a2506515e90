//! The output contract of `shared/spec/04-results.md`: error codes, the result
//! envelope, per-tool `outputSchema` composition and the response budgets.

pub mod budget;
pub mod envelope;
pub mod error;
pub mod schema;

pub use envelope::{envelope, render};
pub use error::{ErrorCode, ToolError};
