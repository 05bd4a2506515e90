//! Confirmations as input-required results (2026-07-28) over the real
//! daemon and the fake Ombi, raw JSON-RPC so every state the client could
//! send back is tried: the question, its answers, and every refusal of the
//! sealed `requestState` — each witnessed by the fake's request log: nothing
//! was sent.

use serde_json::{Value, json};

use super::{modern, modern_with};
use crate::clients::confirm::{DELETE_MOVIE, writes};
use crate::clients::python_client::admin_jwt_env;
use crate::harness::*;
use crate::support::fake_ombi::{Detached, FakeOmbi, Options};

const QUESTION: &str = "Delete the movie request for *The Matrix* (request 1, requested by bob)? This cannot be undone.";

fn start(extra: &[(&str, &str)]) -> (Detached, Daemon, tempfile::TempDir) {
    let fake = FakeOmbi::start_detached(Options::default());
    let (mut env, dir) = admin_jwt_env(&fake.url);
    env.extend(extra.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    let d = Daemon::start(DaemonOpts {
        env,
        ..DaemonOpts::default()
    });
    (fake, d, dir)
}

fn can_ask() -> Value {
    json!({"elicitation": {}})
}

fn delete_args() -> Value {
    json!({"target": {"kind": "movie", "id": 1}})
}

/// A `tools/call` line: first (no answer) or a retry with `answer` and `state`.
fn call(id: i64, args: Value, answer: Option<Value>, state: Option<&str>) -> String {
    let mut params = json!({"name": "write_request_delete", "arguments": args});
    if let Some(answer) = answer {
        params["inputResponses"] = json!({"confirm": answer});
    }
    if let Some(state) = state {
        params["requestState"] = json!(state);
    }
    modern_with(id, "tools/call", params, "2026-07-28", can_ask())
}

fn accept() -> Value {
    json!({"action": "accept", "content": {"confirm": true}})
}

/// One request, its reply (a minute at most: a first call logs in to Ombi,
/// on a shared machine).
fn ask(raw: &mut Raw, line: &str) -> Value {
    raw.stream
        .set_read_timeout(Some(std::time::Duration::from_secs(60)))
        .unwrap();
    raw.send(line);
    raw.recv().expect("a reply")
}

/// The input-required result's state, after checking its question.
fn question_state(reply: &Value, question: &str) -> String {
    let result = &reply["result"];
    assert_eq!(result["resultType"], "input_required", "{reply}");
    let confirm = &result["inputRequests"]["confirm"];
    assert_eq!(confirm["method"], "elicitation/create", "{reply}");
    assert_eq!(confirm["params"]["message"], question, "{reply}");
    assert_eq!(
        confirm["params"]["requestedSchema"]["required"],
        json!(["confirm"])
    );
    result["requestState"]
        .as_str()
        .expect("a requestState")
        .to_string()
}

/// The call's envelope: a refusal "Not confirmed: …" saying `words`.
fn refused(reply: &Value, words: &str) {
    let envelope = &reply["result"]["structuredContent"];
    assert_eq!(envelope["ok"], false, "{reply}");
    assert_eq!(envelope["error"]["code"], "FORBIDDEN", "{reply}");
    let message = envelope["error"]["message"].as_str().unwrap();
    assert!(message.starts_with("Not confirmed: "), "{message}");
    assert!(message.contains(words), "wanted {words:?}: {message}");
}

#[test]
fn the_question_is_an_input_required_result_and_its_answer_decides() {
    let (fake, d, _dir) = start(&[]);
    let mut raw = Raw::connect(&d.socket);
    // Asked: nothing sent, the question of 2025-11-25 in an input request.
    let first = ask(&mut raw, &call(1, delete_args(), None, None));
    let state = question_state(&first, QUESTION);
    assert!(writes(&fake.requests()).is_empty());
    // Declined: refused, nothing sent; the state is spent.
    let declined = ask(
        &mut raw,
        &call(
            2,
            delete_args(),
            Some(json!({"action": "decline"})),
            Some(&state),
        ),
    );
    refused(&declined, "the person declined");
    d.wait_log("confirmation=\"declined\"");
    // Its replay: already used, whatever the answer now.
    let replay = ask(
        &mut raw,
        &call(3, delete_args(), Some(accept()), Some(&state)),
    );
    refused(&replay, "this confirmation was already used");
    // "No" in the form is a refusal too.
    let state = question_state(
        &ask(&mut raw, &call(4, delete_args(), None, None)),
        QUESTION,
    );
    let no = json!({"action": "accept", "content": {"confirm": false}});
    refused(
        &ask(&mut raw, &call(5, delete_args(), Some(no), Some(&state))),
        "the person answered no",
    );
    assert!(writes(&fake.requests()).is_empty(), "sent after a refusal");
    // Accepted: sent once, on a fresh connection (stateless: any connection
    // of the peer may carry the retry).
    let state = question_state(
        &ask(&mut raw, &call(6, delete_args(), None, None)),
        QUESTION,
    );
    let mut other = Raw::connect(&d.socket);
    let done = ask(
        &mut other,
        &call(7, delete_args(), Some(accept()), Some(&state)),
    );
    assert_eq!(done["result"]["structuredContent"]["ok"], true, "{done}");
    assert_eq!(writes(&fake.requests()), vec![DELETE_MOVIE]);
    d.wait_log("confirmation=\"confirmed\"");
    // One audit record per decided call (declined, replayed, answered no,
    // confirmed), none for the three calls that only asked.
    let logs = d.logs();
    let audits: Vec<&str> = logs
        .lines()
        .filter(|l| l.contains("confirmation="))
        .collect();
    assert_eq!(audits.len(), 4, "{logs}");
    assert!(!logs.contains("confirmation=\"asked\""), "{logs}");
}

#[test]
fn a_state_that_fails_any_check_sends_nothing() {
    let (fake, d, _dir) = start(&[]);
    let mut raw = Raw::connect(&d.socket);
    let fresh = |raw: &mut Raw, id| {
        question_state(&ask(raw, &call(id, delete_args(), None, None)), QUESTION)
    };
    // Forged: one character of the seal changed.
    let state = fresh(&mut raw, 1);
    let mut forged = state.clone();
    let last = forged.pop().unwrap();
    forged.push(if last == '0' { '1' } else { '0' });
    refused(
        &ask(
            &mut raw,
            &call(2, delete_args(), Some(accept()), Some(&forged)),
        ),
        "not one this daemon issued",
    );
    refused(
        &ask(
            &mut raw,
            &call(3, delete_args(), Some(accept()), Some("v1.00.00")),
        ),
        "not one this daemon issued",
    );
    // The arguments changed since the question (another request).
    let state = fresh(&mut raw, 4);
    let other = json!({"target": {"kind": "movie", "id": 2}});
    refused(
        &ask(&mut raw, &call(5, other, Some(accept()), Some(&state))),
        "the arguments changed since the question",
    );
    // An answer without its state; a state without an answer.
    refused(
        &ask(&mut raw, &call(6, delete_args(), Some(accept()), None)),
        "without its requestState",
    );
    let state = fresh(&mut raw, 7);
    refused(
        &ask(&mut raw, &call(8, delete_args(), None, Some(&state))),
        "no answer to the question",
    );
    assert!(writes(&fake.requests()).is_empty(), "sent after a refusal");
}

#[test]
fn an_expired_state_is_no_answer_in_time() {
    let (fake, d, _dir) = start(&[("OMBI_CONFIRM_TIMEOUT", "1")]);
    let mut raw = Raw::connect(&d.socket);
    let state = question_state(
        &ask(&mut raw, &call(1, delete_args(), None, None)),
        QUESTION,
    );
    std::thread::sleep(std::time::Duration::from_millis(2100));
    refused(
        &ask(
            &mut raw,
            &call(2, delete_args(), Some(accept()), Some(&state)),
        ),
        "no answer within 1 seconds",
    );
    assert!(writes(&fake.requests()).is_empty());
}

/// The key dies with the daemon: a state from before a restart is told
/// apart from a forgery, and sends nothing.
#[test]
fn a_restart_invalidates_outstanding_states() {
    let fake = FakeOmbi::start_detached(Options::default());
    let (env, _dir) = admin_jwt_env(&fake.url);
    let opts = || DaemonOpts {
        env: env.clone(),
        ..DaemonOpts::default()
    };
    let mut d = Daemon::start(opts());
    let state = {
        let mut raw = Raw::connect(&d.socket);
        question_state(
            &ask(&mut raw, &call(1, delete_args(), None, None)),
            QUESTION,
        )
    };
    d.stop();
    let d = Daemon::start(opts());
    let mut raw = Raw::connect(&d.socket);
    refused(
        &ask(
            &mut raw,
            &call(2, delete_args(), Some(accept()), Some(&state)),
        ),
        "the daemon restarted",
    );
    assert!(writes(&fake.requests()).is_empty());
}

/// Before acting, the effect is read again: when the question would now be
/// another (the title changed), the person is asked again, nothing sent.
#[test]
fn a_changed_question_is_asked_again() {
    let (fake, d, _dir) = start(&[]);
    let mut raw = Raw::connect(&d.socket);
    let state = question_state(
        &ask(&mut raw, &call(1, delete_args(), None, None)),
        QUESTION,
    );
    fake.with_data(|data| {
        data.movie_request_mut(1).unwrap()["title"] = json!("The Matrix Reloaded");
    });
    let again = ask(
        &mut raw,
        &call(2, delete_args(), Some(accept()), Some(&state)),
    );
    let new_state = question_state(
        &again,
        &QUESTION.replace("The Matrix", "The Matrix Reloaded"),
    );
    assert_ne!(new_state, state);
    assert!(
        writes(&fake.requests()).is_empty(),
        "acted on an answer to another question"
    );
    let done = ask(
        &mut raw,
        &call(3, delete_args(), Some(accept()), Some(&new_state)),
    );
    assert_eq!(done["result"]["structuredContent"]["ok"], true, "{done}");
    assert_eq!(writes(&fake.requests()), vec![DELETE_MOVIE]);
}

/// Whether to ask follows the request's own capabilities: without
/// elicitation in its `_meta`, `ask` acts with the warning and `require`
/// refuses, as on 2025-11-25.
#[test]
fn the_requests_own_capabilities_decide_whether_to_ask() {
    let (fake, d, _dir) = start(&[]);
    let mut raw = Raw::connect(&d.socket);
    // The first request of the connection declared elicitation; this one
    // does not: it is not asked.
    let first = ask(
        &mut raw,
        &call(1, json!({"target": {"kind": "movie", "id": 2}}), None, None),
    );
    assert_eq!(first["result"]["resultType"], "input_required", "{first}");
    let plain = modern(
        2,
        "tools/call",
        json!({"name": "write_request_delete", "arguments": delete_args()}),
    );
    let done = ask(&mut raw, &plain);
    let envelope = &done["result"]["structuredContent"];
    assert_eq!(envelope["ok"], true, "{done}");
    assert!(
        envelope["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|w| w.as_str().unwrap().contains("not confirmed by the user")),
        "{envelope}"
    );
    assert_eq!(writes(&fake.requests()), vec![DELETE_MOVIE]);

    let (fake, d, _dir) = start(&[("OMBI_CONFIRM", "require")]);
    let mut raw = Raw::connect(&d.socket);
    let refused = ask(&mut raw, &plain);
    assert_eq!(
        refused["result"]["structuredContent"]["error"]["code"], "UNSUPPORTED_CAPABILITY",
        "{refused}"
    );
    assert!(writes(&fake.requests()).is_empty());
}
