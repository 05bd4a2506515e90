//! Fault injection per route: a matching request gets the fault's answer
//! instead of the real one (before authentication, like a proxy or a crash
//! would), optionally after a delay. The `apply_then_*` faults let the
//! route run first (the write happens) and then spoil the answer: the
//! "sent, outcome unknown" case of a timeout or a dropped connection.

use std::sync::Mutex;
use std::time::Duration;

use axum::body::Body;
use axum::http::{HeaderName, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

/// What a faulted request gets.
#[derive(Clone, Debug)]
pub enum FaultAction {
    /// This status, content type and body (plus extra headers).
    Respond {
        status: u16,
        content_type: Option<String>,
        body: String,
        headers: Vec<(String, String)>,
    },
    /// Send headers, then cut the connection mid-body.
    Drop,
    /// Wait, then answer normally (for timeouts).
    DelayOnly,
    /// Never answer: the connection stays open until the client gives up.
    Hang,
    /// A JSON array of `bytes` bytes, generated while streaming.
    Oversized { bytes: usize },
}

#[derive(Clone, Debug)]
pub struct Fault {
    /// `None` matches any method.
    pub method: Option<String>,
    /// A path after the base path, compared case-insensitively; a trailing
    /// `*` matches any suffix.
    pub path: String,
    /// How many requests it affects (`None`: all).
    pub times: Option<usize>,
    pub delay: Option<Duration>,
    pub action: FaultAction,
    /// Run the route (and its state change) first, then apply the fault.
    pub after_handler: bool,
}

impl Fault {
    pub fn on(method: &str, path: &str) -> FaultBuilder {
        FaultBuilder {
            method: (method != "*").then(|| method.to_ascii_uppercase()),
            path: path.to_string(),
        }
    }
}

pub struct FaultBuilder {
    method: Option<String>,
    path: String,
}

impl FaultBuilder {
    fn with(self, action: FaultAction) -> Fault {
        Fault {
            method: self.method,
            path: self.path,
            times: None,
            delay: None,
            action,
            after_handler: false,
        }
    }

    pub fn respond(self, status: u16, content_type: Option<&str>, body: &str) -> Fault {
        self.with(FaultAction::Respond {
            status,
            content_type: content_type.map(str::to_string),
            body: body.to_string(),
            headers: Vec::new(),
        })
    }

    pub fn status(self, status: u16) -> Fault {
        self.respond(status, None, "")
    }

    /// Ombi's ErrorHandlingMiddleware with a message full of things that
    /// must never reach a caller (see [`NASTY_ERROR`]).
    pub fn nasty_500(self) -> Fault {
        let body = serde_json::json!({ "error": NASTY_ERROR }).to_string();
        self.respond(500, Some("application/json"), &body)
    }

    /// An unknown GET route: the SPA's index.html with 200.
    pub fn html_200(self) -> Fault {
        self.respond(200, Some("text/html"), SPA_INDEX)
    }

    /// ValidationProblemDetails with planted secrets in an error text.
    pub fn problem_400(self) -> Fault {
        let body = serde_json::json!({
            "type": "https://tools.ietf.org/html/rfc7231#section-6.5.1",
            "title": "One or more validation errors occurred.",
            "status": 400,
            "traceId": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00",
            "errors": { "id": ["The value 'abc' is not valid. Server=db.internal;Password=Sup3rSecret;"] }
        });
        self.respond(
            400,
            Some("application/problem+json; charset=utf-8"),
            &body.to_string(),
        )
    }

    pub fn rate_limited(self, retry_after_secs: u64) -> Fault {
        let mut f = self.respond(429, Some("text/plain"), "Too Many Requests");
        if let FaultAction::Respond { headers, .. } = &mut f.action {
            headers.push(("Retry-After".into(), retry_after_secs.to_string()));
        }
        f
    }

    pub fn unavailable(self) -> Fault {
        self.respond(
            503,
            Some("text/html"),
            "<html><body>503 Service Unavailable</body></html>",
        )
    }

    pub fn no_content(self) -> Fault {
        self.status(204)
    }

    pub fn drop_connection(self) -> Fault {
        self.with(FaultAction::Drop)
    }

    /// The request is received and recorded, never processed nor answered.
    pub fn hang(self) -> Fault {
        self.with(FaultAction::Hang)
    }

    /// The route runs (the write is applied), the answer never comes.
    pub fn apply_then_hang(self) -> Fault {
        let mut f = self.with(FaultAction::Hang);
        f.after_handler = true;
        f
    }

    /// The route runs (the write is applied), then the connection is cut
    /// mid-answer.
    pub fn apply_then_drop(self) -> Fault {
        let mut f = self.with(FaultAction::Drop);
        f.after_handler = true;
        f
    }

    pub fn delay(self, delay: Duration) -> Fault {
        let mut f = self.with(FaultAction::DelayOnly);
        f.delay = Some(delay);
        f
    }

    pub fn oversized(self, bytes: usize) -> Fault {
        self.with(FaultAction::Oversized { bytes })
    }

    /// A business failure on HTTP 200.
    pub fn business(self, body: serde_json::Value) -> Fault {
        self.respond(
            200,
            Some("application/json; charset=utf-8"),
            &body.to_string(),
        )
    }
}

impl Fault {
    pub fn times(mut self, n: usize) -> Fault {
        self.times = Some(n);
        self
    }

    pub fn after(mut self, delay: Duration) -> Fault {
        self.delay = Some(delay);
        self
    }

    fn matches(&self, method: &str, path: &str) -> bool {
        if self.method.as_deref().is_some_and(|m| m != method) {
            return false;
        }
        match self.path.strip_suffix('*') {
            Some(prefix) => {
                path.len() >= prefix.len() && path[..prefix.len()].eq_ignore_ascii_case(prefix)
            }
            None => path.eq_ignore_ascii_case(&self.path),
        }
    }
}

/// Planted in faulted error bodies; none of it may reach a tool result.
pub const NASTY_ERROR: &str = "<html><body><h1>Unhandled</h1><script>alert(1)</script>Object reference not set to an instance of an object.\n   at Ombi.Core.Engine.MovieRequestEngine.GetRequest(Int32 requestId) in /src/Ombi.Core/Engine/MovieRequestEngine.cs:line 311\n   at Ombi.Controllers.V1.RequestController.GetRequest(Int32 requestId)\n--- End of inner exception stack trace ---\nServer=db.internal;Database=Ombi;User Id=ombi;Password=Sup3rSecret;\ncalling http://admin:hunter2@radarr.internal:7878/api/v3/movie?apikey=0123456789abcdef0123456789abcdef for owner@example.org\nAuthorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJlLXNlY3JldA ApiKey: fedcba9876543210fedcba9876543210</body></html>";

/// Fragments of [`NASTY_ERROR`] that must be absent after sanitizing.
pub const NASTY_FRAGMENTS: &[&str] = &[
    "<html",
    "<script",
    "alert(1)",
    "MovieRequestEngine.cs",
    "line 311",
    "End of inner exception",
    "db.internal",
    "Sup3rSecret",
    "Password=",
    "hunter2",
    "radarr.internal",
    "0123456789abcdef0123456789abcdef",
    "owner@example.org",
    "eyJhbGciOiJIUzI1NiJ9",
    "fedcba9876543210fedcba9876543210",
];

pub const SPA_INDEX: &str = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Ombi</title><base href=\"/\"></head><body><app-ombi></app-ombi><script src=\"main.js\"></script></body></html>";

#[derive(Default)]
pub struct FaultTable {
    faults: Mutex<Vec<Fault>>,
}

impl FaultTable {
    pub fn add(&self, fault: Fault) {
        self.faults.lock().unwrap().push(fault);
    }

    pub fn clear(&self) {
        self.faults.lock().unwrap().clear();
    }

    /// The first fault matching this request (consuming one of its `times`).
    pub fn take(&self, method: &str, path: &str) -> Option<Fault> {
        let mut faults = self.faults.lock().unwrap();
        let i = faults.iter().position(|f| f.matches(method, path))?;
        let fault = faults[i].clone();
        if let Some(n) = &mut faults[i].times {
            *n -= 1;
            if *n == 0 {
                faults.remove(i);
            }
        }
        Some(fault)
    }
}

/// The faulted answer, or `None` to continue normally (after a delay).
pub async fn apply(fault: Fault) -> Option<Response> {
    if let Some(d) = fault.delay {
        tokio::time::sleep(d).await;
    }
    match fault.action {
        FaultAction::DelayOnly => None,
        FaultAction::Hang => {
            std::future::pending::<()>().await;
            None
        }
        FaultAction::Respond {
            status,
            content_type,
            body,
            headers,
        } => {
            let mut resp = (
                StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
                body,
            )
                .into_response();
            let h = resp.headers_mut();
            h.remove(header::CONTENT_TYPE);
            if let Some(ct) = content_type {
                h.insert(
                    header::CONTENT_TYPE,
                    HeaderValue::from_str(&ct).expect("content type"),
                );
            }
            for (k, v) in headers {
                h.insert(
                    HeaderName::from_bytes(k.as_bytes()).expect("header name"),
                    HeaderValue::from_str(&v).expect("header value"),
                );
            }
            Some(resp)
        }
        FaultAction::Drop => {
            let stream = futures::stream::iter(vec![
                Ok::<_, std::io::Error>(axum::body::Bytes::from_static(b"[{\"id\":1,")),
                Err(std::io::Error::new(
                    std::io::ErrorKind::ConnectionReset,
                    "fault: drop",
                )),
            ]);
            let mut resp = Response::new(Body::from_stream(stream));
            resp.headers_mut().insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            );
            resp.headers_mut()
                .insert(header::CONTENT_LENGTH, HeaderValue::from_static("1000"));
            Some(resp)
        }
        FaultAction::Oversized { bytes } => {
            let mut resp = Response::new(Body::from_stream(super::state::big_array_stream(bytes)));
            resp.headers_mut().insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json; charset=utf-8"),
            );
            Some(resp)
        }
    }
}
