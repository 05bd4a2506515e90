//! The contract's 13 error codes and the `error` object of the envelope.

use serde::{Deserialize, Serialize};

/// The `error.code` values of the contract, in its order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ErrorCode {
    InvalidArgument,
    AuthenticationFailed,
    Forbidden,
    NotFound,
    UnsupportedCapability,
    UpstreamRejected,
    RateLimited,
    Timeout,
    UnknownOutcome,
    Conflict,
    PartialFailure,
    UpstreamSchemaMismatch,
    InternalError,
}

impl ErrorCode {
    /// The code as `error.code` spells it.
    pub const fn label(self) -> &'static str {
        match self {
            ErrorCode::InvalidArgument => "INVALID_ARGUMENT",
            ErrorCode::AuthenticationFailed => "AUTHENTICATION_FAILED",
            ErrorCode::Forbidden => "FORBIDDEN",
            ErrorCode::NotFound => "NOT_FOUND",
            ErrorCode::UnsupportedCapability => "UNSUPPORTED_CAPABILITY",
            ErrorCode::UpstreamRejected => "UPSTREAM_REJECTED",
            ErrorCode::RateLimited => "RATE_LIMITED",
            ErrorCode::Timeout => "TIMEOUT",
            ErrorCode::UnknownOutcome => "UNKNOWN_OUTCOME",
            ErrorCode::Conflict => "CONFLICT",
            ErrorCode::PartialFailure => "PARTIAL_FAILURE",
            ErrorCode::UpstreamSchemaMismatch => "UPSTREAM_SCHEMA_MISMATCH",
            ErrorCode::InternalError => "INTERNAL_ERROR",
        }
    }

    /// Whether a caller may simply try again. Timeouts and rate limits are
    /// retryable only where replay is safe; constructors for writes override it.
    pub fn default_retryable(self) -> bool {
        matches!(self, ErrorCode::RateLimited | ErrorCode::Timeout)
    }
}

/// The envelope's `error` object. Messages are always sanitized text written
/// for the caller: never an upstream body, URL with credentials or secret.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolError {
    pub code: ErrorCode,
    pub message: String,
    pub retryable: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub http_status: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry_after_seconds: Option<u64>,
}

impl ToolError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        ToolError {
            code,
            message: message.into(),
            retryable: code.default_retryable(),
            http_status: None,
            field: None,
            retry_after_seconds: None,
        }
    }

    /// `INVALID_ARGUMENT` naming the offending argument (`/page/limit`, `/target/id`).
    pub fn invalid(field: impl Into<String>, message: impl Into<String>) -> Self {
        ToolError {
            field: Some(field.into()),
            ..ToolError::new(ErrorCode::InvalidArgument, message)
        }
    }

    pub fn internal(message: impl Into<String>) -> Self {
        ToolError::new(ErrorCode::InternalError, message)
    }

    /// Names the argument the error is about (`/request_id`).
    pub fn with_field(mut self, field: impl Into<String>) -> Self {
        self.field = Some(field.into());
        self
    }

    pub fn with_status(mut self, status: u16) -> Self {
        self.http_status = Some(status);
        self
    }

    pub fn retryable(mut self, retryable: bool) -> Self {
        self.retryable = retryable;
        self
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;
    use crate::contract::schema::DEFS;

    #[test]
    fn labels_are_the_schema_enum() {
        let labels = DEFS["error"]["properties"]["code"]["enum"]
            .as_array()
            .expect("error.code enum");
        for l in labels.iter().filter_map(Value::as_str) {
            let code: ErrorCode = serde_json::from_value(json!(l)).unwrap();
            assert_eq!(code.label(), l);
            assert_eq!(serde_json::to_value(code).unwrap(), json!(l));
        }
        assert_eq!(labels.len(), 13);
    }
}
