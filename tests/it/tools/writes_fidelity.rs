//! Write tools against the fake Ombi, third reading of Ombi's source (issue
//! 22) and answers an assistant can act on (issue 23, the write side): each
//! refusal Ombi answers on a 200 maps to the code that says what happened,
//! a vote or create reports what was saved and never a send, and every
//! mistake an assistant makes with ids, actions or arguments gets an error
//! that names the next step. The fake answers with the texts and codes of
//! Ombi v4.59.3 (each cited there).

use serde_json::{Value, json};

use super::{comment_err, create_err, create_ok, vote_err, vote_ok};
use crate::support::fake_ombi::state::user_id;
use crate::support::fake_ombi::state_writes::SendFailure;
use crate::support::fake_ombi::{ADMIN_USER, Options, PLAIN_USER};
use crate::support::rig::{Rig, err_code, err_message, writes};

// ------------------------------------------------------------ helpers

/// api_key mode acting as `user`.
async fn as_user(user: &str) -> Rig {
    Rig::start_with(Options::default(), Some(user)).await
}

/// A rig whose `user` holds exactly `roles`.
async fn with_roles(user: &str, roles: &[&str]) -> Rig {
    let mut options = Options::default();
    options.users.retain(|u| u.0 != user);
    options.users.push((
        user.into(),
        "pw".into(),
        roles.iter().map(|r| r.to_string()).collect(),
    ));
    Rig::start_with(options, Some(user)).await
}

fn message(env: &Value) -> &str {
    err_message(env)
}

fn set_quota(rig: &Rig, media: &str, limit: i64, remaining: i64) {
    rig.fake.with_data(|d| {
        for q in d.requests.quotas.iter_mut().filter(|q| q.0 == media) {
            q.1 = Some(
                json!({"hasLimit": true, "limit": limit, "remaining": remaining,
                              "nextRequest": "2026-05-01T00:00:00Z"}),
            );
        }
    });
}

fn param_desc(tool: &str, name: &str) -> &'static str {
    ombi_mcp::tools::find(tool)
        .unwrap()
        .def
        .params()
        .find(|f| f.name == name)
        .unwrap()
        .desc
}

// ------------------------------------------------------------ 1: closed hides

/// Issue status 3 is Ombi's `Deleted` (Issues.cs): the description says so,
/// and a completed `closed` warns that the issue left Ombi's UI and counts.
#[tokio::test]
async fn set_status_closed_says_the_issue_is_hidden() {
    let def = &ombi_mcp::tools::find("write_issue_manage").unwrap().def;
    assert!(def.description.contains("Ombi's `Deleted` state"));
    let rig = as_user(ADMIN_USER).await;
    let env = rig
        .ok(
            "write_issue_manage",
            json!({"action": "set_status", "issue_id": 1, "status": "closed"}),
        )
        .await;
    let warnings = env["warnings"].to_string();
    assert!(
        warnings.contains("`Deleted` state") && warnings.contains("issue counts"),
        "{warnings}"
    );
    let env = rig
        .ok(
            "write_issue_manage",
            json!({"action": "set_status", "issue_id": 1, "status": "resolved"}),
        )
        .await;
    assert!(env["warnings"].as_array().is_none_or(Vec::is_empty));
}

// ------------------------------------------------------------ 3: refusal codes

/// A TV parent id where a child id is needed: NOT_FOUND on `request_id`
/// listing the show's season requests with their seasons
/// (`ChildRequestDoesNotExist`, TvRequestEngine.cs).
#[tokio::test]
async fn moderating_a_tv_show_id_lists_its_season_requests() {
    let rig = as_user(ADMIN_USER).await;
    let env = rig
        .err(
            "write_request_moderate",
            json!({"action": "approve", "media": "tv", "request_id": 10}),
        )
        .await;
    assert_eq!(err_code(&env), "NOT_FOUND");
    assert_eq!(env["error"]["field"], "/request_id");
    let msg = message(&env);
    assert!(
        msg.contains("TV request 10 is the show *Breaking Bad*")
            && msg.contains("1396 (season 1")
            && msg.contains("12 (season 2"),
        "{msg}"
    );
    // An id that is nothing at all: NOT_FOUND without a hint.
    let env = rig
        .err(
            "write_request_moderate",
            json!({"action": "deny", "media": "tv", "request_id": 4242}),
        )
        .await;
    assert_eq!(err_code(&env), "NOT_FOUND");
    assert!(!message(&env).contains("is the show"));
}

/// Vote and reprocess read the child first: the same hint.
#[tokio::test]
async fn voting_on_a_tv_show_id_lists_its_season_requests() {
    let rig = as_user(PLAIN_USER).await;
    let env = vote_err(
        &rig,
        json!({"action": "up", "media": "tv", "request_id": 10}),
    )
    .await;
    assert_eq!(err_code(&env), "NOT_FOUND");
    assert_eq!(env["error"]["field"], "/request_id");
    assert!(message(&env).contains("season requests are 1396"), "{env}");
    assert!(writes(&rig).is_empty());
}

/// The reverse: a season request id where the show's id is needed names
/// the show's request.
#[tokio::test]
async fn a_season_request_id_where_the_show_is_needed_names_the_show() {
    let rig = as_user(ADMIN_USER).await;
    let env = rig
        .err(
            "write_request_options",
            json!({"action": "tv_root", "parent_request_id": 12, "root_folder_id": 1}),
        )
        .await;
    assert_eq!(err_code(&env), "NOT_FOUND");
    assert_eq!(env["error"]["field"], "/parent_request_id");
    assert!(
        message(&env).contains("season (child) request of TV request 10"),
        "{env}"
    );
    let env = rig
        .err(
            "write_request_delete",
            json!({"target": {"kind": "tv_parent", "id": 1396}}),
        )
        .await;
    assert_eq!(err_code(&env), "NOT_FOUND");
    assert_eq!(env["error"]["field"], "/target/id");
    assert!(message(&env).contains("pass 10"), "{env}");
}

/// CanRequestRule.cs: no request role → FORBIDDEN (movie: with
/// `NoPermissionsRequestMovie`; TV v2: the text only).
#[tokio::test]
async fn create_refused_by_permission_rules_is_forbidden() {
    let rig = with_roles("carol", &["RequestTv"]).await;
    let env = create_err(&rig, json!({"action": "movie", "tmdb_id": 27205})).await;
    assert_eq!(err_code(&env), "FORBIDDEN");
    assert!(message(&env).contains("You do not have permissions to Request a Movie"));
    let rig = with_roles("carol", &["RequestMovie"]).await;
    let env = create_err(
        &rig,
        json!({"action": "tv", "id": 1399, "selection": {"mode": "first_season"}}),
    )
    .await;
    assert_eq!(err_code(&env), "FORBIDDEN");
    assert!(message(&env).contains("You do not have permissions to Request a TV Show"));
}

/// RequestLimitRule.cs: an exhausted quota → RATE_LIMITED, not retryable,
/// quoting the quota; TV's rule failure carries the text only.
#[tokio::test]
async fn create_over_quota_is_rate_limited_quoting_the_quota() {
    let rig = as_user(PLAIN_USER).await;
    set_quota(&rig, "movie", 3, 0);
    let env = create_err(&rig, json!({"action": "movie", "tmdb_id": 27205})).await;
    assert_eq!(err_code(&env), "RATE_LIMITED");
    assert_eq!(env["error"]["retryable"], false);
    let msg = message(&env);
    assert!(
        msg.contains("You have exceeded your Movie request quota!")
            && msg.contains("your movie quota: 3 requests, 0 left")
            && msg.contains("2026-05-01"),
        "{msg}"
    );
    set_quota(&rig, "tv", 10, 1);
    let env = create_err(
        &rig,
        json!({"action": "tv", "id": 1399, "selection": {"mode": "season", "season_numbers": [2]}}),
    )
    .await;
    assert_eq!(err_code(&env), "RATE_LIMITED");
    assert!(message(&env).contains("Episode request quota"), "{env}");
    assert!(rig.fake.with_data(|d| {
        d.movie_requests
            .iter()
            .all(|r| r["theMovieDbId"] != json!(27205))
    }));
}

/// "You have already voted!" (VoteEngine.cs) → CONFLICT.
#[tokio::test]
async fn voting_twice_is_a_conflict() {
    let rig = as_user(PLAIN_USER).await;
    vote_ok(
        &rig,
        json!({"action": "up", "media": "movie", "request_id": 2}),
    )
    .await;
    let env = vote_err(
        &rig,
        json!({"action": "up", "media": "movie", "request_id": 2}),
    )
    .await;
    assert_eq!(err_code(&env), "CONFLICT");
    assert!(message(&env).contains("You have already voted!"));
}

// ------------------------------------------------------------ 4: no claimed send

/// MovieSender.cs: a throwing Radarr is queued for retry and the create
/// answers success with the id. The result never says it was sent.
#[tokio::test]
async fn create_whose_send_was_queued_never_claims_a_send() {
    let rig = as_user(ADMIN_USER).await;
    rig.fake.with_data(|d| {
        d.writes.send_failures.insert(
            "radarr".into(),
            SendFailure::Throws("Connection refused".into()),
        )
    });
    let env = create_ok(&rig, json!({"action": "movie", "tmdb_id": 27205})).await;
    let msg = env["data"]["message"].as_str().unwrap();
    assert!(msg.contains("it is approved"), "{msg}");
    assert!(msg.contains("retry_queue"), "{msg}");
    assert!(!msg.contains("sent to Radarr"), "{msg}");
    assert!(rig.fake.with_data(|d| !d.requests.retry.is_empty()));
}

// ------------------------------------------------------------ 5: on behalf

/// Ombi stores `requestOnBehalf` unchecked: an unknown user id is NOT_FOUND
/// on the argument, and nothing is sent.
#[tokio::test]
async fn on_behalf_of_an_unknown_user_is_not_found() {
    let rig = as_user(ADMIN_USER).await;
    let env = create_err(
        &rig,
        json!({"action": "movie", "tmdb_id": 27205, "on_behalf_user_id": "no-such-user"}),
    )
    .await;
    assert_eq!(err_code(&env), "NOT_FOUND");
    assert_eq!(env["error"]["field"], "/on_behalf_user_id");
    assert!(message(&env).contains("read_users"));
    assert!(writes(&rig).is_empty());
    // A known one goes through, as that user's.
    create_ok(
        &rig,
        json!({"action": "movie", "tmdb_id": 27205, "on_behalf_user_id": user_id("bob")}),
    )
    .await;
}

// ------------------------------------------------------------ 6: alias

/// RequestController.cs / RequestsController.cs read `ApiAlias` on all
/// three request routes: movie and TV take `requested_by_alias` too.
#[tokio::test]
async fn requested_by_alias_goes_as_a_header_for_movies_and_tv() {
    let rig = as_user(ADMIN_USER).await;
    create_ok(
        &rig,
        json!({"action": "movie", "tmdb_id": 27205, "requested_by_alias": "Grandma"}),
    )
    .await;
    create_ok(&rig, json!({"action": "tv", "id": 1399, "selection": {"mode": "first_season"}, "requested_by_alias": "Grandma"}))
    .await;
    let w = writes(&rig);
    assert_eq!(w.len(), 2);
    for r in &w {
        assert_eq!(r.header("ApiAlias"), Some("Grandma"), "{}", r.path);
    }
    let stored = rig.fake.with_data(|d| {
        d.movie_requests
            .iter()
            .find(|r| r["theMovieDbId"] == json!(27205))
            .map(|r| r["requestedByAlias"].clone())
    });
    assert_eq!(stored, Some(json!("Grandma")));
}

// ------------------------------------------------------------ 7: descriptions

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
    let msg = message(&env);
    assert!(
        msg.contains("shared internal `Api` user") && msg.contains("nobody's"),
        "{msg}"
    );
}

// ------------------------------------------------------------ 8: settings leaves

/// UpdateSettings.cs has no isWindows, JobSettings.cs no
/// jellyfinRecentlyAddedSync; LandingPageSettings.cs computes noticeEnabled
/// and expired: none can be patched.
#[tokio::test]
async fn settings_patch_refuses_leaves_ombi_does_not_store() {
    let rig = Rig::start().await;
    for (section, name) in [
        ("update", "/isWindows"),
        ("jobs", "/jellyfinRecentlyAddedSync"),
        ("landing_page", "/noticeEnabled"),
        ("landing_page", "/expired"),
    ] {
        let read = rig.ok("read_settings", json!({"section": section})).await;
        let revision = read["data"]["revision"].as_str().unwrap().to_string();
        let env = rig
            .err(
                "write_settings_patch",
                json!({"section": section, "revision": revision,
                       "changes": [{"name": name, "value": true}]}),
            )
            .await;
        assert_eq!(err_code(&env), "INVALID_ARGUMENT", "{name}");
        assert_eq!(env["error"]["field"], "/changes/0/name");
    }
    assert!(writes(&rig).is_empty());
}

// ------------------------------------------------------------ issue 23: next steps

/// A movie's TMDB id given to `tv` (and a show's to `movie`): NOT_FOUND on
/// the id, naming the action that takes it.
#[tokio::test]
async fn a_tmdb_id_of_the_other_kind_names_the_right_action() {
    let rig = as_user(PLAIN_USER).await;
    let env = create_err(
        &rig,
        json!({"action": "tv", "id": 27205, "selection": {"mode": "all"}}),
    )
    .await;
    assert_eq!(err_code(&env), "NOT_FOUND");
    assert_eq!(env["error"]["field"], "/id");
    assert!(
        message(&env).contains("is the movie *Inception*: request it with action `movie`"),
        "{env}"
    );
    let env = create_err(&rig, json!({"action": "movie", "tmdb_id": 1399})).await;
    assert_eq!(err_code(&env), "NOT_FOUND");
    assert_eq!(env["error"]["field"], "/tmdb_id");
    assert!(message(&env).contains("action `tv`"), "{env}");
    assert!(writes(&rig).is_empty());
}

/// CONFLICT names the request that is already there, with its state.
#[tokio::test]
async fn conflicts_name_the_existing_request() {
    let rig = as_user(PLAIN_USER).await;
    let env = create_err(&rig, json!({"action": "movie", "tmdb_id": 603})).await;
    assert_eq!(err_code(&env), "CONFLICT");
    let msg = message(&env);
    assert!(
        msg.contains("the movie request for *The Matrix* (request 1)"),
        "{msg}"
    );
    let env = create_err(&rig, json!({"action": "tv", "id": 1396, "selection": {"mode": "episodes", "seasons": [{"season_number": 2, "episodes": [1, 2]}]}}))
        .await;
    assert_eq!(err_code(&env), "CONFLICT");
    assert!(
        message(&env).contains("TV request 10 is the show *Breaking Bad*"),
        "{env}"
    );
}

/// Write messages name the request from what the tool already read.
#[tokio::test]
async fn write_messages_name_the_request() {
    let rig = as_user(PLAIN_USER).await;
    let env = vote_ok(
        &rig,
        json!({"action": "up", "media": "movie", "request_id": 2}),
    )
    .await;
    let msg = env["data"]["message"].as_str().unwrap();
    assert!(
        msg.contains("the movie request for *Interstellar* (request 2)"),
        "{msg}"
    );
}

/// The review's nine mistakes that reach write tools: each error names the
/// next step (an argument, an action, an id, a tool).
#[tokio::test]
async fn every_mistake_says_what_to_do_next() {
    let rig = as_user(ADMIN_USER).await;
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
        assert!(message(&env).contains(hint), "{tool} {args}: {env}");
    }
    // wrong tool: a protocol error naming the tools meant
    // (`tools::unknown_tool`, unit-tested beside it).
}
