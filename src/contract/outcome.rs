//! What a tool hands to the envelope: a [`Reply`] (one family object) or a
//! [`Failure`] (an error, with data where a partial result is known).

use serde_json::Value;

use super::{Family, ToolError};

/// A successful result: one family object (`{"kind": "media_page", ...}`).
#[derive(Debug, Clone)]
pub struct Reply {
    pub data: Value,
    pub warnings: Vec<String>,
    pub truncated: bool,
}

impl Reply {
    pub fn new(data: Value, warnings: Vec<String>, truncated: bool) -> Reply {
        Reply {
            data,
            warnings,
            truncated,
        }
    }

    /// The family `data` declares (`None` is a bug the call path reports).
    pub fn family(&self) -> Option<Family> {
        Family::of(&self.data)
    }
}

/// A failed result: the error, and data where a partial result is known.
#[derive(Debug, Clone)]
pub struct Failure {
    pub error: ToolError,
    pub data: Option<Value>,
    pub warnings: Vec<String>,
}

impl From<ToolError> for Failure {
    fn from(error: ToolError) -> Self {
        Failure {
            error,
            data: None,
            warnings: Vec::new(),
        }
    }
}

/// The result of one tool call before it is put in the envelope.
pub type Outcome = Result<Reply, Failure>;
