//! Confirmations through MCP elicitation, with real clients over the real
//! daemon socket and the fake Ombi: the official Python SDK (its
//! `elicitation_callback`) through the real shim, and rmcp's client. Every
//! refusal is checked against the fake's request log: nothing was sent.

use std::path::PathBuf;
use std::process::Command;
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};

use super::python_client::{admin_jwt_env, python, python_report};
use crate::harness::*;
use crate::support::fake_ombi::{FakeOmbi, LoggedRequest, Options};

/// A self-bound daemon in jwt mode (the admin) against `fake`, every bundle,
/// with `extra` environment (OMBI_CONFIRM, ...) and an optional policy.
fn daemon(
    fake: &FakeOmbi,
    extra: &[(&str, &str)],
    policy: Option<String>,
) -> (Daemon, tempfile::TempDir) {
    let (mut env, dir) = admin_jwt_env(&fake.url);
    env.extend(extra.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    let d = Daemon::start(DaemonOpts {
        env,
        policy,
        ..DaemonOpts::default()
    });
    (d, dir)
}

/// Runs tests/python/confirm_client.py; returns its report.
async fn python_client(
    python: &PathBuf,
    d: &Daemon,
    answer: &str,
    reason: Option<&str>,
    calls: &[(&str, Value)],
) -> Value {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/python/confirm_client.py");
    let mut cmd = Command::new(python);
    cmd.arg(script)
        .arg(SHIM)
        .arg(&d.socket)
        .arg(answer)
        .arg(reason.unwrap_or("-"));
    for (tool, args) in calls {
        cmd.arg(tool).arg(args.to_string());
    }
    python_report(cmd, d, "python client failed").await
}

/// The writes the fake saw, as "METHOD path" (logins left out).
pub fn writes(log: &[LoggedRequest]) -> Vec<String> {
    log.iter()
        .filter(|r| r.method != "GET")
        .map(|r| format!("{} {}", r.method, r.path.trim_start_matches('/')))
        .filter(|call| !call.eq_ignore_ascii_case("POST api/v1/Token"))
        .collect()
}

pub const DELETE_MOVIE: &str = "DELETE api/v1/Request/movie/1";

fn delete_movie() -> (&'static str, Value) {
    (
        "write_request_delete",
        json!({"target": {"kind": "movie", "id": 1}}),
    )
}

#[tokio::test(flavor = "multi_thread")]
async fn python_sdk_answers_decide_and_refusals_send_nothing() {
    let Some(python) = python() else {
        require(false, "the MCP Python SDK in .venv (or OMBI_MCP_PYTHON)");
        return;
    };
    let fake = FakeOmbi::start(Options::default()).await;
    let (d, _dir) = daemon(&fake, &[("OMBI_CONFIRM_TIMEOUT", "1")], None);
    for (answer, words, label) in [
        ("accept_no", "the person answered no", "declined"),
        ("decline", "the person declined", "declined"),
        ("cancel", "the person dismissed the question", "cancelled"),
        ("slow", "no answer within 1 seconds", "timed_out"),
        ("error", "the client could not ask the person", "not_asked"),
    ] {
        let report = python_client(&python, &d, answer, None, &[delete_movie()]).await;
        let question = &report["questions"][0];
        assert_eq!(
            question["message"],
            "Delete the movie request for *The Matrix* (request 1, requested by bob)? This cannot be undone.",
            "{answer}: {report}"
        );
        assert_eq!(question["schema"]["required"], json!(["confirm"]));
        assert_eq!(
            question["schema"]["properties"]["confirm"]["type"],
            "boolean"
        );
        let envelope = &report["calls"][0];
        assert_eq!(envelope["ok"], false, "{answer}: {envelope}");
        assert_eq!(envelope["error"]["code"], "FORBIDDEN");
        assert_eq!(envelope["error"]["retryable"], false);
        let message = envelope["error"]["message"].as_str().unwrap();
        assert!(message.starts_with("Not confirmed: "), "{message}");
        assert!(message.contains(words), "{answer}: {message}");
        assert!(
            writes(&fake.requests()).is_empty(),
            "{answer}: sent after a refusal"
        );
        d.wait_log(&format!("confirmation=\"{label}\""));
    }
    // The slow answer came after the daemon gave up: still nothing sent.
    tokio::time::sleep(std::time::Duration::from_secs(1)).await;
    assert!(writes(&fake.requests()).is_empty());

    // Accepted: the request is deleted, once.
    let report = python_client(&python, &d, "accept", None, &[delete_movie()]).await;
    assert_eq!(report["calls"][0]["ok"], true, "{report}");
    assert_eq!(writes(&fake.requests()), vec![DELETE_MOVIE]);
    d.wait_log("confirmation=\"confirmed\"");
}

/// Every confirmed action of the table asks, naming its effect, before
/// anything is sent; actions outside the table ask nothing.
#[tokio::test(flavor = "multi_thread")]
async fn python_sdk_is_asked_before_each_confirmed_action() {
    let Some(python) = python() else {
        require(false, "the MCP Python SDK in .venv (or OMBI_MCP_PYTHON)");
        return;
    };
    let fake = FakeOmbi::start(Options::default()).await;
    let (d, _dir) = daemon(&fake, &[], None);
    let cases: Vec<((&str, Value), &str)> = vec![
        (
            (
                "write_request_moderate",
                json!({"action": "mark_unavailable", "media": "movie", "request_id": 2}),
            ),
            "Mark the movie request for *Interstellar* (request 2, requested by bob) as not available?",
        ),
        (
            (
                "write_issue_manage",
                json!({"action": "set_status", "issue_id": 3, "status": "closed"}),
            ),
            "Close issue 3 “The Matrix” (reported by alice)?",
        ),
        (
            (
                "write_issue_manage",
                json!({"action": "delete", "issue_id": 4}),
            ),
            "Delete issue 4 “Kid A” (reported by bob) with its comments?",
        ),
        (
            ("write_job_run", json!({"job": "newsletter"})),
            "Start the newsletter (e-mails recently added media to every user who receives it) now?",
        ),
    ];
    for ((tool, args), words) in cases {
        let report = python_client(&python, &d, "decline", None, &[(tool, args.clone())]).await;
        let message = report["questions"][0]["message"]
            .as_str()
            .unwrap_or_default();
        assert!(message.starts_with(words), "{tool} {args}: {message:?}");
        assert_eq!(report["calls"][0]["error"]["code"], "FORBIDDEN", "{report}");
        assert!(
            writes(&fake.requests()).is_empty(),
            "{tool}: sent after a refusal"
        );
    }
    // Not in the table: approve asks nothing.
    let approve = (
        "write_request_moderate",
        json!({"action": "approve", "media": "movie", "request_id": 2}),
    );
    let report = python_client(&python, &d, "decline", None, &[approve]).await;
    assert_eq!(report["questions"], json!([]), "{report}");
    assert_eq!(report["calls"][0]["ok"], true, "{report}");
}

/// `deny`'s form carries the reason, pre-filled; the form's reason is sent.
#[tokio::test(flavor = "multi_thread")]
async fn python_sdk_deny_sends_the_reason_from_the_form() {
    let Some(python) = python() else {
        require(false, "the MCP Python SDK in .venv (or OMBI_MCP_PYTHON)");
        return;
    };
    let fake = FakeOmbi::start(Options::default()).await;
    let (d, _dir) = daemon(&fake, &[], None);
    let deny = (
        "write_request_moderate",
        json!({"action": "deny", "media": "movie", "request_id": 2, "reason": "duplicate"}),
    );
    let report = python_client(&python, &d, "accept", Some("not in our region"), &[deny]).await;
    let schema = &report["questions"][0]["schema"];
    assert_eq!(schema["properties"]["reason"]["type"], "string", "{report}");
    assert_eq!(schema["properties"]["reason"]["default"], "duplicate");
    assert_eq!(report["calls"][0]["ok"], true, "{report}");
    let sent: Vec<LoggedRequest> = fake
        .requests()
        .into_iter()
        .filter(|r| r.method == "PUT")
        .collect();
    assert_eq!(sent.len(), 1);
    let body: Value = serde_json::from_str(&sent[0].body).unwrap();
    assert_eq!(body["reason"], "not in our region");
}

/// A client without the capability under each setting, daemon-wide and
/// per peer.
#[tokio::test(flavor = "multi_thread")]
async fn python_sdk_without_elicitation_under_each_setting() {
    let Some(python) = python() else {
        require(false, "the MCP Python SDK in .venv (or OMBI_MCP_PYTHON)");
        return;
    };
    // require: refused, nothing sent.
    let fake = FakeOmbi::start(Options::default()).await;
    let (d, _dir) = daemon(&fake, &[("OMBI_CONFIRM", "require")], None);
    let report = python_client(&python, &d, "none", None, &[delete_movie()]).await;
    let envelope = &report["calls"][0];
    assert_eq!(
        envelope["error"]["code"], "UNSUPPORTED_CAPABILITY",
        "{report}"
    );
    assert!(
        envelope["error"]["message"]
            .as_str()
            .unwrap()
            .contains("requires the person to confirm")
    );
    assert!(writes(&fake.requests()).is_empty());
    d.wait_log("confirmation=\"not_asked\"");
    drop(d);

    // ask (the default): done, with the warning.
    let fake = FakeOmbi::start(Options::default()).await;
    let (d, _dir) = daemon(&fake, &[], None);
    let report = python_client(&python, &d, "none", None, &[delete_movie()]).await;
    let envelope = &report["calls"][0];
    assert_eq!(envelope["ok"], true, "{report}");
    assert!(
        envelope["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|w| w == "not confirmed by the user: this client cannot ask for confirmation"),
        "{envelope}"
    );
    assert_eq!(writes(&fake.requests()), vec![DELETE_MOVIE]);
    drop(d);

    // off: done without a warning, even for a client that could be asked;
    // here set per peer over OMBI_CONFIRM=require.
    let me = nix::unistd::geteuid().as_raw();
    let policy = json!({"peers": [{"uid": me, "confirm": "off"}]}).to_string();
    let fake = FakeOmbi::start(Options::default()).await;
    let (d, _dir) = daemon(&fake, &[("OMBI_CONFIRM", "require")], Some(policy));
    for answer in ["none", "decline"] {
        let report = python_client(
            &python,
            &d,
            answer,
            None,
            &[("write_job_run", json!({"job": "newsletter"}))],
        )
        .await;
        assert_eq!(report["questions"], json!([]), "{report}");
        let envelope = &report["calls"][0];
        assert_eq!(envelope["ok"], true, "{report}");
        assert!(
            !envelope["warnings"]
                .to_string()
                .contains("not confirmed by the user"),
            "{envelope}"
        );
    }
    d.wait_log("confirmation=\"off\"");
}

/// A bad setting is a startup error naming the variable (exit 78).
#[test]
fn bad_confirm_settings_stop_the_daemon_at_startup() {
    for (var, value) in [("OMBI_CONFIRM", "maybe"), ("OMBI_CONFIRM_TIMEOUT", "0")] {
        let out = Command::new(DAEMON)
            .arg("--check-config")
            .arg("--offline")
            .envs(offline_env())
            .env(var, value)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(78), "{var}={value}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(var), "{stderr}");
    }
}

// ------------------------------------------------------------ rmcp client

mod rmcp_client {
    use super::*;
    use rmcp::ClientHandler;
    use rmcp::model::{
        CallToolRequestParams, ClientCapabilities, ClientConfig, ElicitRequestParams, ElicitResult,
        ElicitationAction, ElicitationCapability, Implementation,
    };
    use rmcp::service::{RequestContext, RoleClient, ServiceExt};

    /// Each question asked, with the writes the fake had received by then.
    type Questions = Arc<Mutex<Vec<(String, Vec<String>)>>>;

    /// Answers every question as `accept` decides, and records what the
    /// fake had received when the question came.
    #[derive(Clone)]
    struct Person {
        accept: bool,
        fake: Arc<FakeOmbi>,
        seen: Questions,
    }

    impl ClientHandler for Person {
        fn get_info(&self) -> ClientConfig {
            let mut caps = ClientCapabilities::default();
            caps.elicitation = Some(ElicitationCapability::default());
            ClientConfig::new(caps, Implementation::new("confirm-test", "0"))
        }

        async fn create_elicitation(
            &self,
            request: ElicitRequestParams,
            _context: RequestContext<RoleClient>,
        ) -> Result<ElicitResult, rmcp::ErrorData> {
            let message = match &request {
                ElicitRequestParams::FormElicitationParams { message, .. } => message.clone(),
                _ => String::new(),
            };
            let sent = writes(&self.fake.requests());
            self.seen.lock().unwrap().push((message, sent));
            Ok(if self.accept {
                ElicitResult::new(ElicitationAction::Accept).with_content(json!({"confirm": true}))
            } else {
                ElicitResult::new(ElicitationAction::Decline)
            })
        }
    }

    #[tokio::test(flavor = "multi_thread")]
    async fn rmcp_client_is_asked_before_anything_is_sent() {
        let fake = Arc::new(FakeOmbi::start(Options::default()).await);
        let (d, _dir) = daemon(&fake, &[], None);
        for accept in [false, true] {
            let seen = Arc::new(Mutex::new(Vec::new()));
            let person = Person {
                accept,
                fake: fake.clone(),
                seen: seen.clone(),
            };
            let stream = tokio::net::UnixStream::connect(&d.socket).await.unwrap();
            let client = person.serve(stream).await.unwrap();
            let args = json!({"action": "delete", "issue_id": 2});
            let result = client
                .call_tool(
                    CallToolRequestParams::new("write_issue_manage")
                        .with_arguments(args.as_object().unwrap().clone()),
                )
                .await
                .unwrap();
            let envelope = result.structured_content.unwrap();
            let seen = seen.lock().unwrap().clone();
            assert_eq!(seen.len(), 1, "asked once: {seen:?}");
            assert!(
                seen[0]
                    .0
                    .starts_with("Delete issue 2 “Breaking Bad” (reported by alice)"),
                "{seen:?}"
            );
            assert!(seen[0].1.is_empty(), "sent before the answer: {seen:?}");
            if accept {
                assert_eq!(envelope["ok"], true, "{envelope}");
                assert_eq!(writes(&fake.requests()), vec!["DELETE api/v1/Issues/2"]);
            } else {
                assert_eq!(envelope["error"]["code"], "FORBIDDEN", "{envelope}");
                assert!(writes(&fake.requests()).is_empty());
            }
            client.cancel().await.unwrap();
        }
    }
}
