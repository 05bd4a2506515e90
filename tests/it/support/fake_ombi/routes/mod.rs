//! The fake's route table: ASP.NET-style templates matched segment by
//! segment, case-insensitively, with `{name}` / `{name:int}` captures. A
//! path that matches nothing falls through to the SPA like the real server:
//! GET → `200 text/html`, other verbs → 500 `{error}`.

pub mod core;
pub mod hiding;
pub mod integration;
pub mod issues;
pub mod media;
pub mod requests;
pub mod search;
pub mod server;
pub mod settings;
pub mod users;
pub mod votes;
pub mod writes_admin;
pub mod writes_core;
pub mod writes_core_search;
pub mod writes_moderation;

use std::collections::HashMap;

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use super::auth::{self, Principal};
use super::{Call, Shared, faults};

/// Who may call a route (auth.md §5).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Access {
    Anonymous,
    Authenticated,
    PowerUser,
    Admin,
}

pub type Handler = fn(&Ctx) -> Response;

pub struct RouteDef {
    pub method: &'static str,
    pub template: &'static str,
    pub access: Access,
    pub handler: Handler,
}

/// One row of a route table.
pub fn route(
    method: &'static str,
    template: &'static str,
    access: Access,
    handler: Handler,
) -> RouteDef {
    RouteDef {
        method,
        template,
        access,
        handler,
    }
}

/// An authenticated GET route.
pub fn get(template: &'static str, handler: Handler) -> RouteDef {
    route("GET", template, Access::Authenticated, handler)
}

/// An authenticated POST route.
pub fn post(template: &'static str, handler: Handler) -> RouteDef {
    route("POST", template, Access::Authenticated, handler)
}

/// What a handler gets.
pub struct Ctx<'a> {
    pub shared: &'a Shared,
    pub call: &'a Call,
    /// Decoded captures by name.
    pub params: HashMap<String, String>,
    pub principal: Option<Principal>,
}

impl Ctx<'_> {
    pub fn param(&self, name: &str) -> &str {
        self.params.get(name).map(String::as_str).unwrap_or("")
    }

    pub fn int(&self, name: &str) -> i64 {
        self.param(name).parse().unwrap_or(0)
    }

    /// The acting user name (`Api` for the bare ApiKey principal).
    pub fn user(&self) -> String {
        self.principal
            .as_ref()
            .map(|p| p.user_name.clone())
            .unwrap_or_default()
    }

    /// The `[FromBody]` JSON, or `None` when absent or malformed (→ 400).
    pub fn body<T: serde::de::DeserializeOwned>(&self) -> Option<T> {
        serde_json::from_slice(&self.call.body).ok()
    }
}

/// Every route the fake serves. Other files add their tables here.
fn table() -> Vec<RouteDef> {
    let mut t = Vec::new();
    t.extend(core::routes());
    t.extend(requests::routes());
    t.extend(issues::routes());
    t.extend(votes::routes());
    t.extend(search::routes());
    // administration reads
    t.extend(users::routes());
    t.extend(server::routes());
    t.extend(integration::routes());
    t.extend(settings::routes());
    t.extend(media::routes());
    // writes
    t.extend(writes_core::routes());
    t.extend(writes_moderation::routes());
    t.extend(writes_admin::routes());
    t
}

/// Who may call `METHOD path` (a path after the base path, as logged), or
/// `None` when no route matches: what the role table is checked against.
pub fn access_of(method: &str, path: &str) -> Option<Access> {
    let segs: Vec<String> = path
        .split('?')
        .next()
        .unwrap_or("")
        .trim_matches('/')
        .split('/')
        .map(super::state::percent_decode)
        .collect();
    table()
        .into_iter()
        .find(|r| r.method == method && matches(r.template, &segs).is_some())
        .map(|r| r.access)
}

fn matches(template: &str, segs: &[String]) -> Option<HashMap<String, String>> {
    let parts: Vec<&str> = template.trim_matches('/').split('/').collect();
    if parts.len() != segs.len() {
        return None;
    }
    let mut params = HashMap::new();
    for (p, s) in parts.iter().zip(segs) {
        if let Some(inner) = p.strip_prefix('{').and_then(|p| p.strip_suffix('}')) {
            let (name, constraint) = inner.split_once(':').unwrap_or((inner, ""));
            if constraint == "int" && s.parse::<i32>().is_err() {
                return None;
            }
            params.insert(name.to_string(), s.clone());
        } else if !p.eq_ignore_ascii_case(s) {
            return None;
        }
    }
    Some(params)
}

/// The request writes after which Ombi purges its media cache (the 12-hour
/// details cache, `Data::media_cache`): `MovieRequestEngine.cs` (create,
/// approve, deny, available, unavailable, delete) and `TvRequestEngine.cs`
/// (create via `AfterRequest`, approve/deny child, available, unavailable,
/// delete child or show). Album writes, subscriptions, votes, advanced
/// options and reprocessing do not purge.
const PURGES_MEDIA_CACHE: &[(&str, &str)] = &[
    ("POST", "api/v1/Request/movie"),
    ("POST", "api/v2/Requests/tv"),
    ("POST", "api/v2/Requests/movie/collection/{collectionId}"),
    ("POST", "api/v1/Request/movie/approve"),
    ("PUT", "api/v1/Request/movie/deny"),
    ("POST", "api/v1/Request/movie/available"),
    ("POST", "api/v1/Request/movie/unavailable"),
    ("POST", "api/v1/Request/tv/approve"),
    ("PUT", "api/v1/Request/tv/deny"),
    ("POST", "api/v1/Request/tv/available"),
    ("POST", "api/v1/Request/tv/unavailable"),
    ("DELETE", "api/v1/Request/movie/{requestId:int}"),
    ("DELETE", "api/v1/Request/tv/child/{requestId:int}"),
    ("DELETE", "api/v1/Request/tv/{requestId:int}"),
];

/// Ombi's media cache in front of a details answer (`V2/SearchController.cs`:
/// `GetOrAddAsync(nameof(route) + id, …, 12 h)`): the first answer for `key`
/// is kept, whoever asks, until a request write purges it. `answer` is what
/// Ombi computes on a miss: a body, `None` for a 204 (cached like a body), or
/// `Err` with the message of a 500, which is not cached.
pub fn media_cached(
    shared: &Shared,
    key: String,
    answer: impl FnOnce(&super::state::Data) -> Result<Option<serde_json::Value>, &'static str>,
) -> Response {
    let mut data = shared.data.lock().unwrap();
    let cached = match data.media_cache.get(&key) {
        Some(v) => v.clone(),
        None => match answer(&data) {
            Ok(v) => {
                data.media_cache.insert(key, v.clone());
                v
            }
            Err(message) => return super::error_500(message),
        },
    };
    cached.map(super::json).unwrap_or_else(super::no_content)
}

pub fn dispatch(
    shared: &Shared,
    call: &Call,
    (principal, bearer_error): auth::AuthOutcome,
) -> Response {
    // ASP.NET decodes each segment; an encoded '/' stays inside its segment.
    let segs: Vec<String> = call
        .path
        .trim_matches('/')
        .split('/')
        .map(super::state::percent_decode)
        .collect();
    let method = call.method.as_str();
    let mut path_matched = false;
    for route in table() {
        let Some(params) = matches(route.template, &segs) else {
            continue;
        };
        path_matched = true;
        if route.method != method {
            continue;
        }
        match (route.access, &principal) {
            (Access::Anonymous, _) => {}
            (_, None) => return auth::challenge(bearer_error.as_deref()),
            (Access::Authenticated, Some(_)) => {}
            (Access::PowerUser, Some(p)) if p.is_power_user() => {}
            (Access::Admin, Some(p)) if p.is_admin() => {}
            _ => return StatusCode::FORBIDDEN.into_response(),
        }
        let ctx = Ctx {
            shared,
            call,
            params,
            principal,
        };
        let response = (route.handler)(&ctx);
        if response.status().is_success() && PURGES_MEDIA_CACHE.contains(&(method, route.template))
        {
            shared.data.lock().unwrap().media_cache.clear();
        }
        return response;
    }
    if path_matched {
        return StatusCode::METHOD_NOT_ALLOWED.into_response();
    }
    if method == "GET" {
        return (
            StatusCode::OK,
            [(axum::http::header::CONTENT_TYPE, "text/html")],
            faults::SPA_INDEX,
        )
            .into_response();
    }
    super::error_500(
        "The SPA default page middleware could not return the default page '/index.html' because it was not found, and no other middleware handled the request.",
    )
}
