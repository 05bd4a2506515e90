//! Tool handlers, by domain. A handler gets validated [`Args`] and a
//! [`CallCtx`], calls Ombi through [`crate::upstream`], projects the answer
//! with [`crate::projection`] and returns the family object as `data`.

// helpers shared by every domain
mod common;
// administration: users, server, integration, settings, logs
pub mod integration;
pub mod logs;
pub mod server;
pub mod settings;
pub mod users;
// requests, stats, issues, votes
pub mod issues;
pub mod request_stats;
pub mod requests;
pub mod votes;
// media: search, discovery, details, library, reference lists
pub mod discover;
pub mod library;
pub mod media;
pub mod reference;
pub mod search;

use std::sync::Arc;

use futures::future::BoxFuture;
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use crate::catalogue::Args;
use crate::contract::ToolError;
use crate::transport::Identity;

/// Everything a handler may use for one call.
pub struct CallCtx {
    /// Who called (bundles, read-only flag, acting Ombi user).
    pub identity: Arc<Identity>,
    /// Fresh for every call; also in the call's log line.
    pub correlation_id: String,
    /// Cancelled when the client cancels the call or the daemon shuts down.
    pub cancel: CancellationToken,
    /// The Ombi client (session, bounded reads, error mapping).
    pub upstream: Arc<crate::upstream::Upstream>,
}

/// A successful result: one family object (`{"kind": "media_page", ...}`).
#[derive(Debug, Clone)]
pub struct Reply {
    pub data: Value,
    pub warnings: Vec<String>,
    pub truncated: bool,
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

pub type Outcome = Result<Reply, Failure>;

/// A tool's implementation.
pub type Handler = for<'a> fn(&'a CallCtx, &'a Args) -> BoxFuture<'a, Outcome>;

/// The handler of a tool, if it is implemented. A tool without a handler is
/// never listed nor callable.
pub fn handler(name: &str) -> Option<Handler> {
    let h: Handler = match name {
        // administration reads (users, server, integration, settings, logs)
        "read_users" => users::read_users,
        "read_server" => server::read_server,
        "read_integration" => integration::read_integration,
        "read_settings" => settings::read_settings,
        "read_logs" => logs::read_logs,
        // requests, stats, issues, votes
        "read_requests" => requests::read_requests,
        "read_request_stats" => request_stats::read_request_stats,
        "read_issues" => issues::read_issues,
        "read_votes" => votes::read_votes,
        // media (search, discovery, details, library, reference lists)
        "read_search" => search::read_search,
        "read_discover" => discover::read_discover,
        "read_media" => media::read_media,
        "read_library" => library::read_library,
        "read_reference" => reference::read_reference,
        _ => return None,
    };
    Some(h)
}
