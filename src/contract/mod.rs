//! The output contract (`docs/contract.md`): error codes, result families,
//! the result envelope, per-tool `outputSchema` composition and the budgets.
//! The bottom layer: it imports nothing else of the crate.

pub mod budget;
pub mod canonical;
pub mod envelope;
pub mod error;
pub mod family;
pub mod outcome;
pub mod schema;
pub mod target;

pub use envelope::{Envelope, envelope, render};
pub use error::{ErrorCode, ToolError};
pub use family::Family;
pub use outcome::{Failure, Outcome, Reply};
pub use target::{Target, TargetKind};
