//! The tools in process against the fake Ombi, through the one rig (`support::rig`), laid out as
//! `src/tools/` is: one folder per domain (`requests/`, `issues/`, `media/`, `users/`, `server/`), one
//! file per tool named after it (`write_request_create/` one per media, as its source is), holding every
//! test of that tool — what it sends, what it makes of Ombi's answers (surprises included: docs/ombi-notes.md)
//! and how it fails. Tests about no one tool sit beside: `acting_user` (who a call acts as) and `messages`
//! (descriptions and errors that name the true reason and the next step). The helpers below are shared by
//! more than one domain; a domain's own are in its `mod.rs`.

mod acting_user;
mod issues;
mod media;
mod messages;
mod requests;
mod roles;
mod server;
mod users;

use std::sync::Arc;

use ombi_mcp::definition::BundleSet;
use ombi_mcp::policy::Identity;
use serde_json::{Value, json};

use crate::support::fake_ombi::routes::media::data::HYBRID_THEORY;
use crate::support::fake_ombi::state_admin::LEAK;
use crate::support::fake_ombi::state_requests::album;
use crate::support::fake_ombi::{self as fake, ADMIN_USER, API_KEY, LoggedRequest, Options};
use crate::support::rig::{Rig, err_code, writes};

/// The sample's bob with `roles`: at login (the fake's principal) and in
/// Ombi's Identity table (what `GET api/v1/Identity` answers).
pub fn bob_with(roles: &[&str]) -> Options {
    let mut o = Options::default();
    o.users.retain(|(name, _, _)| name != fake::PLAIN_USER);
    o.users.push((
        fake::PLAIN_USER.into(),
        fake::PLAIN_PASSWORD.into(),
        roles.iter().map(|r| r.to_string()).collect(),
    ));
    for row in &mut o.data.admin.users {
        if row["userName"] == fake::PLAIN_USER {
            for claim in row["claims"].as_array_mut().into_iter().flatten() {
                let held = roles.iter().any(|r| claim["value"] == *r);
                claim["enabled"] = json!(held);
            }
        }
    }
    o
}

/// Calls `tool`'s `action` with the other `args` (an object): the envelope
/// (after the rig's checks).
async fn act(h: &Rig, tool: &str, action: &str, args: Value) -> Value {
    let mut args = args;
    args["action"] = json!(action);
    h.call(tool, args).await
}

/// read_issues' `action` with the other `args`.
async fn read_issues(h: &Rig, action: &str, args: Value) -> Value {
    act(h, "read_issues", action, args).await
}

/// read_requests' `action` with the other `args`.
async fn read_requests(h: &Rig, action: &str, args: Value) -> Value {
    act(h, "read_requests", action, args).await
}

/// read_requests' `get` of the request `kind`/`id`.
async fn get_request(h: &Rig, kind: &str, id: i64) -> Value {
    read_requests(h, "get", json!({"target": {"kind": kind, "id": id}})).await
}

/// write_request_create, which must succeed.
async fn create_ok(h: &Rig, args: Value) -> Value {
    h.ok("write_request_create", args).await
}

/// write_request_create, which must fail.
async fn create_err(h: &Rig, args: Value) -> Value {
    h.err("write_request_create", args).await
}

/// write_vote, which must succeed.
async fn vote_ok(h: &Rig, args: Value) -> Value {
    h.ok("write_vote", args).await
}

/// write_vote, which must fail.
async fn vote_err(h: &Rig, args: Value) -> Value {
    h.err("write_vote", args).await
}

/// write_issue_comment, which must succeed.
async fn comment_ok(h: &Rig, args: Value) -> Value {
    h.ok("write_issue_comment", args).await
}

/// write_issue_comment, which must fail.
async fn comment_err(h: &Rig, args: Value) -> Value {
    h.err("write_issue_comment", args).await
}

/// read_users' `action` with the other `args`.
async fn read_users(h: &Rig, action: &str, args: Value) -> Value {
    act(h, "read_users", action, args).await
}

/// read_server's `action` with the other `args`.
async fn read_server(h: &Rig, action: &str, args: Value) -> Value {
    act(h, "read_server", action, args).await
}

/// read_integration's `action` with the other `args`.
async fn read_integration(h: &Rig, action: &str, args: Value) -> Value {
    act(h, "read_integration", action, args).await
}

/// read_settings of one `section`.
async fn read_section(h: &Rig, section: &str) -> Value {
    h.call("read_settings", json!({"section": section})).await
}

/// read_logs' `action` with the other `args`.
async fn read_logs(h: &Rig, action: &str, args: Value) -> Value {
    act(h, "read_logs", action, args).await
}

fn warnings(env: &Value) -> String {
    env["warnings"].to_string()
}

fn message(env: &Value) -> String {
    env["error"]["message"].as_str().unwrap_or("").to_string()
}

fn page(env: &Value) -> &Value {
    &env["data"]["page"]
}

/// Album request 7 for Hybrid Theory (its release-group id).
fn plant_album_request(h: &Rig) {
    h.fake.with_data(|d| {
        d.requests.albums.push(album(
            7,
            HYBRID_THEORY,
            "Hybrid Theory",
            "Linkin Park",
            "bob",
            false,
        ))
    });
}

/// API key without UserName: the system user `Api` (Admin).
async fn start() -> Rig {
    Rig::start().await
}

fn assert_no_leak(v: &Value) {
    let text = v.to_string();
    assert!(!text.contains(LEAK), "a planted secret leaked: {text}");
    assert!(
        !text.contains("@example.org"),
        "an e-mail address leaked: {text}"
    );
}

trait Forbidden {
    fn assert_never_called_forbidden(&self);
}

impl Forbidden for Rig {
    /// Nothing forbidden was ever sent: demo toggle, updater run, another
    /// user's preferences, access tokens, raw log download, caller-URL POSTs.
    fn assert_never_called_forbidden(&self) {
        for p in self.paths() {
            let l = p.to_ascii_lowercase();
            assert!(!l.contains("status/demo"), "{p}");
            assert!(!l.starts_with("post /api/v1/job/"), "{p}");
            assert!(!l.contains("notificationpreferences/"), "{p}");
            assert!(!l.contains("accesstoken"), "{p}");
            assert!(!l.contains("/download/"), "{p}");
            assert!(
                !l.starts_with("post") || l == "post /api/v1/settings/testcron",
                "unexpected POST {p}"
            );
        }
    }
}

fn data(env: &Value) -> &Value {
    &env["data"]
}

/// The one write the call made: its method and path, and its JSON body.
fn only_write(rig: &Rig) -> (String, Value, LoggedRequest) {
    let w = writes(rig);
    assert_eq!(w.len(), 1, "exactly one write: {:?}", rig.paths());
    let r = w[0].clone();
    let body = if r.body.is_empty() {
        Value::Null
    } else {
        serde_json::from_str(&r.body).expect("JSON body")
    };
    (format!("{} {}", r.method, r.path), body, r)
}

/// api_key mode acting as `user` (`None`: the bare API key).
async fn as_user(user: Option<&str>) -> Rig {
    Rig::start_with(Options::default(), user).await
}

fn alice() -> Option<String> {
    Some(ADMIN_USER.to_string())
}

/// A rig acting as the Ombi admin `alice` (api_key mode, `UserName: alice`).
async fn as_alice() -> Rig {
    Rig::start_with(Options::default(), Some(ADMIN_USER)).await
}

/// The only write (non-GET) the fake received.
fn the_write(h: &Rig) -> LoggedRequest {
    let writes: Vec<LoggedRequest> = h
        .fake
        .requests()
        .into_iter()
        .filter(|r| r.method != "GET")
        .collect();
    assert_eq!(writes.len(), 1, "exactly one write: {:?}", h.paths());
    writes.into_iter().next().unwrap()
}

/// Method, path, `UserName` and JSON body of a logged request.
fn wire(r: &LoggedRequest) -> (String, String, Option<String>, Value) {
    let body = if r.body.is_empty() {
        Value::Null
    } else {
        serde_json::from_str(&r.body).expect("a JSON body")
    };
    (
        r.method.clone(),
        r.path.clone(),
        r.header("UserName").map(str::to_string),
        body,
    )
}

/// The one write Ombi received: `method path` with the JSON `body`
/// (`Value::Null`: none), as alice.
fn assert_sent(h: &Rig, method: &str, path: &str, body: Value) {
    let want = (method.into(), path.into(), alice(), body);
    assert_eq!(wire(&the_write(h)), want);
}

/// api_key mode as alice (`OMBI_USER_NAME`) with a 1 s timeout.
async fn with_timeout() -> Rig {
    Rig::start_env(
        Options::default(),
        &[
            ("OMBI_AUTH_MODE", "api_key"),
            ("OMBI_API_KEY", API_KEY),
            ("OMBI_USER_NAME", ADMIN_USER),
            ("OMBI_HTTP_TIMEOUT", "1"),
        ],
    )
    .await
}

fn no_write(h: &Rig) {
    let writes: Vec<String> = h
        .paths()
        .into_iter()
        .filter(|p| !p.starts_with("GET "))
        .collect();
    assert!(writes.is_empty(), "nothing may be sent: {writes:?}");
}

fn body(r: &LoggedRequest) -> Value {
    serde_json::from_str(&r.body).unwrap_or_else(|_| panic!("not JSON: {:?}", r.body))
}

/// Every non-GET request the fake received, as `METHOD /path`.
fn write_paths(rig: &Rig) -> Vec<String> {
    rig.paths()
        .into_iter()
        .filter(|p| !p.starts_with("GET "))
        .collect()
}

/// The error's code, and its message saying `needle`.
fn assert_error(env: &Value, code: &str, needle: &str) {
    assert_eq!(err_code(env), code, "{env}");
    let message = env["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains(needle), "{needle:?} not in {message:?}");
}

/// The API key acting as `user` (`UserName`), or as the bare API principal.
async fn start_as(options: Options, user: Option<&str>, timeout_secs: Option<&str>) -> Rig {
    let mut auth = vec![
        ("OMBI_AUTH_MODE", "api_key"),
        ("OMBI_API_KEY", fake::API_KEY),
    ];
    if let Some(t) = timeout_secs {
        auth.push(("OMBI_HTTP_TIMEOUT", t));
    }
    let mut rig = Rig::start_env(options, &auth).await;
    let mut identity = Identity::local(BundleSet::all(), false);
    identity.ombi_user = user.map(str::to_string);
    rig.ctx.identity = Arc::new(identity);
    rig
}

/// UNKNOWN_OUTCOME, not retryable, and the POST reached Ombi exactly once.
fn assert_unknown_and_sent_once(rig: &Rig, env: &Value, path: &str) {
    assert_eq!(err_code(env), "UNKNOWN_OUTCOME", "{env}");
    assert_eq!(env["error"]["retryable"], false);
    assert_eq!(rig.fake.hits("POST", path), 1, "{path}");
}
