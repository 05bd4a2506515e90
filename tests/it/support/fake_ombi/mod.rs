//! A fake Ombi v4.59.3 over real HTTP (loopback), for integration tests and
//! the `ombi-sample` binary. It behaves like the real server where tests
//! depend on it: authentication (shared/ombi/auth.md §2-§6), the SPA
//! fallback for unknown routes, 204 for null, business failures on HTTP 200,
//! and JSON shapes from shared/ombi/shapes.md. It records every request and
//! can inject faults per route.
//!
//! Adding routes: put a `routes()` table in a new file under `routes/` and
//! list it in `routes/mod.rs`; the data set lives in `state.rs`.
//!
//! Write tests steer Ombi's outside world through `Data.writes`
//! (state_writes.rs): `send_failures` (a Radarr/Sonarr/Lidarr send that
//! throws or refuses), `down` (unreachable integrations, SMTP, agents),
//! `running_jobs`; and read what Ombi did: `sent`, `outbox`,
//! `triggered_jobs`, `subscriptions`. Faults `apply_then_hang` /
//! `apply_then_drop` make a write happen and its answer never arrive.
#![allow(dead_code, unused_imports)]

pub mod auth;
pub mod faults;
pub mod routes;
pub mod state;
pub mod state_admin;
pub mod state_requests;
pub mod state_writes;

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State as AxState};
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};

pub use faults::{Fault, FaultAction};
pub use state::{Data, LoggedRequest};

/// How to start the fake.
#[derive(Clone, Debug)]
pub struct Options {
    /// Local users: (user name, password, roles).
    pub users: Vec<(String, String, Vec<String>)>,
    /// `OmbiSettings.ApiKey` (32 hex).
    pub api_key: String,
    /// Lifetime of issued JWTs (Ombi: 7 days without rememberMe).
    pub token_lifetime: Duration,
    /// `OmbiSettings.BaseUrl`, e.g. `/ombi`: both `/ombi/api/...` and `/api/...` route.
    pub base_path: Option<String>,
    /// `127.0.0.1:0` by default (a free port).
    pub listen: SocketAddr,
    /// The data set served.
    pub data: Data,
}

pub const ADMIN_USER: &str = "alice";
pub const ADMIN_PASSWORD: &str = "Wonderland-7x!";
pub const PLAIN_USER: &str = "bob";
pub const PLAIN_PASSWORD: &str = "bobs-Passw0rd";
pub const API_KEY: &str = "5d41402abc4b2a76b9719d911017c592";

impl Default for Options {
    fn default() -> Self {
        Options {
            users: vec![
                (
                    ADMIN_USER.into(),
                    ADMIN_PASSWORD.into(),
                    vec!["Admin".into()],
                ),
                (
                    PLAIN_USER.into(),
                    PLAIN_PASSWORD.into(),
                    vec!["RequestMovie".into(), "RequestTv".into()],
                ),
            ],
            api_key: API_KEY.into(),
            token_lifetime: Duration::from_secs(7 * 24 * 3600),
            base_path: None,
            listen: "127.0.0.1:0".parse().expect("literal address"),
            data: Data::sample(),
        }
    }
}

/// Everything the handlers share.
pub struct Shared {
    pub options: Mutex<Options>,
    pub data: Mutex<Data>,
    pub auth: auth::TokenStore,
    pub faults: faults::FaultTable,
    pub log: Mutex<Vec<LoggedRequest>>,
    /// TCP connections accepted so far: shows whether a client pools its
    /// connections (benches/figures.rs) without changing what Ombi answers.
    pub connections: AtomicUsize,
}

/// A running fake. Dropping it stops the server.
pub struct FakeOmbi {
    /// The base URL to configure as `OMBI_URL` (with the base path, ending in `/`).
    pub url: String,
    pub addr: SocketAddr,
    pub shared: Arc<Shared>,
    server: tokio::task::JoinHandle<()>,
}

impl Drop for FakeOmbi {
    fn drop(&mut self) {
        self.server.abort();
    }
}

impl FakeOmbi {
    pub async fn start(options: Options) -> FakeOmbi {
        let listener = tokio::net::TcpListener::bind(options.listen)
            .await
            .expect("bind the fake Ombi");
        let addr = listener.local_addr().expect("local addr");
        let prefix = options
            .base_path
            .as_deref()
            .map(|p| format!("{}/", p.trim_end_matches('/')))
            .unwrap_or_else(|| "/".into());
        let shared = Arc::new(Shared {
            data: Mutex::new(options.data.clone()),
            options: Mutex::new(options),
            auth: auth::TokenStore::default(),
            faults: faults::FaultTable::default(),
            log: Mutex::new(Vec::new()),
            connections: AtomicUsize::new(0),
        });
        let app = axum::Router::new()
            .fallback(handle)
            .with_state(shared.clone());
        let counted = shared.clone();
        let listener = axum::serve::ListenerExt::tap_io(listener, move |_| {
            counted.connections.fetch_add(1, Ordering::Relaxed);
        });
        let server = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        FakeOmbi {
            url: format!("http://{addr}{prefix}"),
            addr,
            shared,
            server,
        }
    }

    /// Every request received so far, in order.
    pub fn requests(&self) -> Vec<LoggedRequest> {
        self.shared.log.lock().unwrap().clone()
    }

    /// How many requests matched `method` and this path (base path stripped,
    /// compared case-insensitively, raw encoding kept).
    pub fn hits(&self, method: &str, path: &str) -> usize {
        self.requests()
            .iter()
            .filter(|r| r.method == method && r.path.eq_ignore_ascii_case(path))
            .count()
    }

    /// Successful and failed logins (`POST /api/v1/Token`).
    pub fn logins(&self) -> usize {
        self.hits("POST", "/api/v1/Token")
    }

    /// TCP connections the fake has accepted.
    pub fn connections(&self) -> usize {
        self.shared.connections.load(Ordering::Relaxed)
    }

    pub fn add_fault(&self, fault: Fault) {
        self.shared.faults.add(fault);
    }

    pub fn clear_faults(&self) {
        self.shared.faults.clear();
    }

    /// Invalidates every token issued so far (as rotating Ombi's
    /// SecurityToken would); the next bearer call gets 401 invalid_token.
    pub fn invalidate_tokens(&self) {
        self.shared.auth.invalidate_all();
    }

    pub fn set_token_lifetime(&self, lifetime: Duration) {
        self.shared.options.lock().unwrap().token_lifetime = lifetime;
    }

    /// Mutable access to the data set (tests plant records).
    pub fn with_data<R>(&self, f: impl FnOnce(&mut Data) -> R) -> R {
        f(&mut self.shared.data.lock().unwrap())
    }
}

/// A fake on a runtime of its own: usable from a test body that blocks, and
/// able to go down for real ([`Detached::stop`] closes the listener and every
/// open connection, as a crashed Ombi would; a plain [`FakeOmbi`] drop leaves
/// kept-alive connections served).
pub struct Detached {
    pub fake: FakeOmbi,
    rt: Option<tokio::runtime::Runtime>,
}

impl FakeOmbi {
    pub fn start_detached(options: Options) -> Detached {
        std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(1)
                .enable_all()
                .build()
                .expect("a runtime for the fake");
            let fake = rt.block_on(FakeOmbi::start(options));
            Detached { fake, rt: Some(rt) }
        })
        .join()
        .expect("start the fake")
    }
}

impl Detached {
    /// Ombi goes away: returns once its port refuses connections.
    pub fn stop(mut self) {
        let addr = self.fake.addr;
        if let Some(rt) = self.rt.take() {
            rt.shutdown_background();
        }
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while std::net::TcpStream::connect(addr).is_ok() {
            assert!(
                std::time::Instant::now() < deadline,
                "the fake did not stop"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl std::ops::Deref for Detached {
    type Target = FakeOmbi;
    fn deref(&self) -> &FakeOmbi {
        &self.fake
    }
}

impl Drop for Detached {
    fn drop(&mut self) {
        if let Some(rt) = self.rt.take() {
            rt.shutdown_background();
        }
    }
}

/// One decoded request, as handlers see it.
pub struct Call {
    pub method: Method,
    /// Path after the base path, raw (percent-encoded).
    pub path: String,
    pub query: Vec<(String, String)>,
    pub headers: HeaderMap,
    pub body: Bytes,
}

async fn handle(AxState(shared): AxState<Arc<Shared>>, req: Request) -> Response {
    let (parts, body) = req.into_parts();
    let body = axum::body::to_bytes(body, 16 * 1024 * 1024)
        .await
        .unwrap_or_default();
    let raw_path = parts.uri.path().to_string();
    let base = shared.options.lock().unwrap().base_path.clone();
    // UsePathBase: "/ombi/api/..." and "/api/..." both route.
    let path = match base.as_deref().map(|b| b.trim_end_matches('/')) {
        Some(b)
            if !b.is_empty()
                && raw_path.len() > b.len()
                && raw_path[..b.len()].eq_ignore_ascii_case(b) =>
        {
            raw_path[b.len()..].to_string()
        }
        _ => raw_path.clone(),
    };
    let query: Vec<(String, String)> = parts
        .uri
        .query()
        .map(|q| {
            q.split('&')
                .filter(|p| !p.is_empty())
                .map(|p| {
                    let (k, v) = p.split_once('=').unwrap_or((p, ""));
                    (state::form_decode(k), state::form_decode(v))
                })
                .collect()
        })
        .unwrap_or_default();
    shared.log.lock().unwrap().push(LoggedRequest {
        method: parts.method.to_string(),
        raw_path,
        path: path.clone(),
        query: parts.uri.query().map(str::to_string),
        headers: parts
            .headers
            .iter()
            .map(|(k, v)| {
                (
                    k.as_str().to_string(),
                    String::from_utf8_lossy(v.as_bytes()).into_owned(),
                )
            })
            .collect(),
        body: String::from_utf8_lossy(&body).into_owned(),
    });
    let call = Call {
        method: parts.method,
        path,
        query,
        headers: parts.headers,
        body,
    };
    let mut after = None;
    if let Some(fault) = shared.faults.take(call.method.as_str(), &call.path) {
        if fault.after_handler {
            after = Some(fault);
        } else if let Some(resp) = faults::apply(fault).await {
            return resp;
        }
    }
    // ApiKeyMiddlewear runs only for paths starting with /api.
    let resp = match auth::authenticate(&shared, &call) {
        Ok(p) => routes::dispatch(&shared, &call, p),
        Err(resp) => *resp,
    };
    if let Some(fault) = after
        && let Some(spoiled) = faults::apply(fault).await
    {
        return spoiled;
    }
    resp
}

/// `200 application/json` with `value`.
pub fn json(value: serde_json::Value) -> Response {
    (
        StatusCode::OK,
        [(
            axum::http::header::CONTENT_TYPE,
            "application/json; charset=utf-8",
        )],
        value.to_string(),
    )
        .into_response()
}

/// An action that returned `null`: 204, no body.
pub fn no_content() -> Response {
    StatusCode::NO_CONTENT.into_response()
}

/// A void action: 200 with an empty body.
pub fn ok_empty() -> Response {
    (StatusCode::OK, Body::empty()).into_response()
}

/// Ombi's ErrorHandlingMiddleware: 500 `{"error": message}`.
pub fn error_500(message: &str) -> Response {
    (
        StatusCode::INTERNAL_SERVER_ERROR,
        [(axum::http::header::CONTENT_TYPE, "application/json")],
        serde_json::json!({ "error": message }).to_string(),
    )
        .into_response()
}

/// `[ApiController]` client error from a bare status result (`NotFound()`,
/// `Unauthorized()`, `BadRequest()`): a ProblemDetails body.
pub fn problem(status: u16, title: &str) -> Response {
    let code = StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_REQUEST);
    (
        code,
        [(
            axum::http::header::CONTENT_TYPE,
            "application/problem+json; charset=utf-8",
        )],
        serde_json::json!({
            "type": match status {
                401 => "https://tools.ietf.org/html/rfc7235#section-3.1",
                403 => "https://tools.ietf.org/html/rfc7231#section-6.5.3",
                404 => "https://tools.ietf.org/html/rfc7231#section-6.5.4",
                _ => "https://tools.ietf.org/html/rfc7231#section-6.5.1",
            },
            "title": title,
            "status": status,
            "traceId": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00"
        })
        .to_string(),
    )
        .into_response()
}

/// `[ApiController]` binding failure: 400 ValidationProblemDetails.
pub fn problem_400(field: &str, message: &str) -> Response {
    (
        StatusCode::BAD_REQUEST,
        [(
            axum::http::header::CONTENT_TYPE,
            "application/problem+json; charset=utf-8",
        )],
        serde_json::json!({
            "type": "https://tools.ietf.org/html/rfc7231#section-6.5.1",
            "title": "One or more validation errors occurred.",
            "status": 400,
            "traceId": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00",
            "errors": { field: [message] }
        })
        .to_string(),
    )
        .into_response()
}
