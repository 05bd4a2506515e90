//! The tools in process against the fake Ombi, through the one rig (`support::rig`).

mod admin;
mod fidelity;
mod issues;
mod media;
mod reads_fidelity;
mod reference;
mod requests;
mod resources;
mod votes;
mod writes_admin;
mod writes_core;
mod writes_fidelity;
mod writes_moderation;

use serde_json::{Value, json};

use crate::support::rig::Rig;

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
