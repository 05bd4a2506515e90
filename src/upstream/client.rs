//! The HTTP client to Ombi and its connection pool.

use std::time::Duration;

use crate::config::Config;
use crate::contract::{ErrorCode, ToolError};

/// Longest wait for a TCP/TLS connection, within the call's deadline.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// Idle connections kept to Ombi, at most (calls in flight are at most
/// `turns::IN_FLIGHT`; after a burst the rest close at once).
const POOL_MAX_IDLE: usize = 8;
/// An idle pooled connection closes after this long.
const POOL_IDLE: Duration = Duration::from_secs(90);

/// The HTTP client could not be built (TLS setup): at start for an `http://`
/// Ombi, on first use (every call then fails with this) for `https://`.
#[derive(Debug)]
pub struct ClientError(reqwest::Error);

impl std::fmt::Display for ClientError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot build the HTTP client: {}", self.0)
    }
}

impl std::error::Error for ClientError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.0)
    }
}

/// The HTTP client (connection pool, keep-alive, no redirects: a redirect
/// would mean OMBI_URL is wrong, and following one could carry credentials
/// elsewhere). For an `https://` Ombi it is built on first use, because that
/// loads and parses the system's TLS roots: a daemon started by its first
/// connection answers `initialize` without paying for them. An `http://` Ombi
/// needs no roots (redirects are never followed), so its client trusts none
/// and is built at once.
pub(super) struct HttpClient {
    connect_timeout: Duration,
    pub(super) built: std::sync::OnceLock<Result<reqwest::Client, String>>,
}

impl HttpClient {
    pub(super) fn new(config: &Config) -> Result<HttpClient, ClientError> {
        // Another part of the process may have installed it already.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let client = HttpClient {
            connect_timeout: CONNECT_TIMEOUT.min(config.http_timeout),
            built: std::sync::OnceLock::new(),
        };
        if config.ombi_url.scheme() == "http" {
            let built = client.build(false).map_err(ClientError)?;
            let _ = client.built.set(Ok(built));
        }
        Ok(client)
    }

    fn build(&self, tls_roots: bool) -> Result<reqwest::Client, reqwest::Error> {
        let builder = reqwest::Client::builder()
            .user_agent(concat!("ombi-mcp/", env!("CARGO_PKG_VERSION")))
            .connect_timeout(self.connect_timeout)
            .pool_idle_timeout(POOL_IDLE)
            .pool_max_idle_per_host(POOL_MAX_IDLE)
            .tcp_keepalive(Duration::from_secs(30))
            .redirect(reqwest::redirect::Policy::none());
        let builder = if tls_roots {
            builder
        } else {
            builder.tls_certs_only(Vec::new())
        };
        builder.build()
    }

    /// The client, built now if this is its first use.
    pub(super) fn get(&self) -> Result<&reqwest::Client, ToolError> {
        let built = self
            .built
            .get_or_init(|| self.build(true).map_err(|e| ClientError(e).to_string()));
        built
            .as_ref()
            .map_err(|why| ToolError::new(ErrorCode::InternalError, why.clone()))
    }
}
