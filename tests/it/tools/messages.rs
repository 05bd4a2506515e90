//! What the write tools say across tools: descriptions and refusals that give the true reason, and
//! errors that name the next step (an argument, an action, an id, a tool).

use serde_json::{Value, json};

use crate::support::fake_ombi::{ADMIN_USER, Options};
use crate::support::rig::{Rig, err_code, err_message};
use crate::tools::{as_user, comment_err};

fn param_desc(tool: &str, name: &str) -> &'static str {
    ombi_mcp::tools::find(tool)
        .unwrap()
        .def
        .params()
        .find(|f| f.name == name)
        .unwrap()
        .desc
}

#[tokio::test]
async fn descriptions_and_refusals_say_the_true_reason() {
    for name in ["overrides", "language_profile_id", "on_behalf_user_id"] {
        assert!(
            param_desc("write_request_create", name).contains("PowerUser or Admin"),
            "{name}"
        );
    }
    let rig = Rig::start_with(Options::default(), None).await;
    let env = comment_err(&rig, json!({"issue_id": 1, "comment": "hi"})).await;
    assert_eq!(err_code(&env), "FORBIDDEN");
    let msg = err_message(&env);
    assert!(
        msg.contains("shared internal `Api` user") && msg.contains("nobody's"),
        "{msg}"
    );
}

/// The review's nine mistakes that reach write tools: each error names the
/// next step (an argument, an action, an id, a tool).
#[tokio::test]
async fn every_mistake_says_what_to_do_next() {
    let rig = as_user(Some(ADMIN_USER)).await;
    let cases: Vec<(&str, Value, &str, Option<&str>, &str)> = vec![
        // wrong id (a request id that is no request)
        (
            "write_request_moderate",
            json!({"action": "approve", "media": "movie", "request_id": 999}),
            "NOT_FOUND",
            Some("/request_id"),
            "Request does not exist",
        ),
        // missing argument
        (
            "write_request_create",
            json!({"action": "movie"}),
            "INVALID_ARGUMENT",
            Some("/tmdb_id"),
            "tmdb_id",
        ),
        // wrong action
        (
            "write_request_create",
            json!({"action": "show", "id": 1396}),
            "INVALID_ARGUMENT",
            Some("/action"),
            "movie",
        ),
        // TV without selection
        (
            "write_request_create",
            json!({"action": "tv", "id": 1396}),
            "INVALID_ARGUMENT",
            Some("/selection"),
            "selection",
        ),
        // movie id as TV
        (
            "write_request_create",
            json!({"action": "tv", "id": 27205, "selection": {"mode": "all"}}),
            "NOT_FOUND",
            Some("/id"),
            "action `movie`",
        ),
        // parent id as child
        (
            "write_request_moderate",
            json!({"action": "approve", "media": "tv", "request_id": 10}),
            "NOT_FOUND",
            Some("/request_id"),
            "season requests are",
        ),
        // unknown request on approve
        (
            "write_request_moderate",
            json!({"action": "approve", "media": "album", "request_id": 4242}),
            "NOT_FOUND",
            Some("/request_id"),
            "does not exist",
        ),
        // unknown issue
        (
            "write_issue_comment",
            json!({"issue_id": 4242, "comment": "hi"}),
            "NOT_FOUND",
            None,
            "issue 4242",
        ),
    ];
    for (tool, args, code, field, hint) in cases {
        let env = rig.err(tool, args.clone()).await;
        assert_eq!(err_code(&env), code, "{tool} {args}: {env}");
        if let Some(f) = field {
            assert_eq!(env["error"]["field"], f, "{tool} {args}: {env}");
        }
        assert!(err_message(&env).contains(hint), "{tool} {args}: {env}");
    }
    // wrong tool: a protocol error naming the tools meant
    // (`tools::unknown_tool`, unit-tested beside it).
}
