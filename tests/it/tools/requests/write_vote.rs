//! `write_vote`: what an up or down vote sends and reports (a pending request, an approval at the
//! threshold, an approval that could not be sent), refusals, votes on a TV show's id, voting twice.

use serde_json::{Value, json};

use crate::support::fake_ombi::PLAIN_USER;
use crate::support::fake_ombi::state::Vote;
use crate::support::fake_ombi::state_writes::SendFailure;
use crate::support::rig::{Rig, err_code, err_message, writes};
use crate::tools::requests::movie_request_of;
use crate::tools::{as_user, data, only_write, vote_err, vote_ok};

fn set_vote(rig: &Rig, key: &str, value: Value) {
    rig.fake
        .with_data(|d| d.admin.settings.get_mut("vote").unwrap()[key] = value);
}

#[tokio::test]
async fn upvote_subscribes_and_reports_a_pending_request() {
    let rig = as_user(Some("bob")).await;
    let env = vote_ok(
        &rig,
        json!({"action": "up", "media": "tv", "request_id": 12}),
    )
    .await;
    let (route, _, req) = only_write(&rig);
    assert_eq!(route, "POST /api/v1/Vote/up/tv/12");
    assert_eq!(req.header("UserName"), Some("bob"));
    let d = data(&env);
    assert_eq!(d["target"], json!({"kind": "tv_child", "id": 12}));
    let msg = d["message"].as_str().unwrap();
    assert!(
        msg.contains("subscribed") && msg.contains("still waiting"),
        "{msg}"
    );
    assert!(rig.fake.with_data(|d| {
        d.votes
            .iter()
            .any(|v| v.user == "bob" && v.request_id == 12 && v.request_type == 0)
    }));
}

/// With a low threshold the upvote approves the request: read back and said.
#[tokio::test]
async fn upvote_that_reaches_the_threshold_reports_the_approval() {
    let rig = as_user(Some("bob")).await;
    set_vote(&rig, "movieVoteMax", json!(1));
    let env = vote_ok(
        &rig,
        json!({"action": "up", "media": "movie", "request_id": 2}),
    )
    .await;
    let msg = data(&env)["message"].as_str().unwrap();
    assert!(msg.contains("is approved now"), "{msg}");
}

/// "Voted succesfully but could not approve!" (VoteEngine.cs): the vote
/// and the approval are saved, only Radarr refused the send. The vote is
/// completed; the warning says the request is approved but not sent.
#[tokio::test]
async fn upvote_that_approves_but_cannot_send_is_completed_with_a_warning() {
    let rig = as_user(Some("bob")).await;
    set_vote(&rig, "movieVoteMax", json!(1));
    rig.fake.with_data(|d| {
        d.writes.send_failures.insert(
            "radarr".into(),
            SendFailure::Rejects("Movie is already monitored".into()),
        )
    });
    let env = vote_ok(
        &rig,
        json!({"action": "up", "media": "movie", "request_id": 2}),
    )
    .await;
    let d = data(&env);
    assert_eq!(d["outcome"], "completed");
    let msg = d["message"].as_str().unwrap();
    assert!(
        msg.contains("*Interstellar*") && msg.contains("approved now"),
        "{msg}"
    );
    let warnings = env["warnings"].to_string();
    assert!(
        warnings.contains("Radarr refused it, so it was not sent"),
        "{warnings}"
    );
    assert!(!msg.contains("could not approve"));
    assert!(
        rig.fake
            .with_data(|d| d.votes.iter().any(|v| v.user == "bob" && v.request_id == 2))
    );
    assert_eq!(
        movie_request_of(&rig, 157336).unwrap()["approved"],
        json!(true)
    );
}

#[tokio::test]
async fn vote_refusals_send_nothing() {
    // Voting off: Ombi would answer success and record nothing.
    let rig = as_user(Some("bob")).await;
    set_vote(&rig, "enabled", json!(false));
    let env = vote_err(
        &rig,
        json!({"action": "up", "media": "movie", "request_id": 2}),
    )
    .await;
    assert_eq!(err_code(&env), "UNSUPPORTED_CAPABILITY");
    // The bare API key has no user row to vote as.
    let api = as_user(None).await;
    let env = vote_err(
        &api,
        json!({"action": "down", "media": "movie", "request_id": 2}),
    )
    .await;
    assert_eq!(err_code(&env), "FORBIDDEN");
    assert!(err_message(&env).contains("OMBI_USER_NAME"));
    // Ombi does not check that the request exists; approved ones take no votes.
    let rig2 = as_user(Some("bob")).await;
    let env = rig2
        .err(
            "write_vote",
            json!({"action": "up", "media": "movie", "request_id": 999}),
        )
        .await;
    assert_eq!(err_code(&env), "NOT_FOUND");
    let env = rig2
        .err(
            "write_vote",
            json!({"action": "up", "media": "movie", "request_id": 1}),
        )
        .await;
    assert_eq!(env["error"]["field"], "/request_id");
    for r in [&rig, &api, &rig2] {
        assert!(writes(r).is_empty());
    }
}

/// Ombi finds the caller's earlier vote by request id alone: a vote on the
/// album request with the same id blocks an upvote, or is deleted by a
/// downvote. Both are said.
#[tokio::test]
async fn vote_on_another_media_with_the_same_id_is_reported() {
    let rig = as_user(Some("bob")).await;
    rig.fake.with_data(|d| {
        d.votes.push(Vote {
            user: "bob".into(),
            request_id: 2,
            vote_type: 0,
            request_type: 2,
        })
    });
    let env = vote_err(
        &rig,
        json!({"action": "up", "media": "movie", "request_id": 2}),
    )
    .await;
    assert_eq!(err_code(&env), "CONFLICT");
    let msg = err_message(&env);
    assert!(
        msg.contains("You have already voted!") && msg.contains("album request 2 (upvote)"),
        "{msg}"
    );
    let env = vote_ok(
        &rig,
        json!({"action": "down", "media": "movie", "request_id": 2}),
    )
    .await;
    assert!(env["warnings"].to_string().contains("album request 2"));
    assert!(
        data(&env)["message"]
            .as_str()
            .unwrap()
            .contains("unsubscribed")
    );
    assert!(rig.fake.with_data(|d| {
        !d.votes
            .iter()
            .any(|v| v.user == "bob" && v.request_type == 2)
    }));
}

/// Vote and reprocess read the child first: the same hint.
#[tokio::test]
async fn voting_on_a_tv_show_id_lists_its_season_requests() {
    let rig = as_user(Some(PLAIN_USER)).await;
    let env = vote_err(
        &rig,
        json!({"action": "up", "media": "tv", "request_id": 10}),
    )
    .await;
    assert_eq!(err_code(&env), "NOT_FOUND");
    assert_eq!(env["error"]["field"], "/request_id");
    assert!(
        err_message(&env).contains("season requests are 1396"),
        "{env}"
    );
    assert!(writes(&rig).is_empty());
}

/// "You have already voted!" (VoteEngine.cs) → CONFLICT.
#[tokio::test]
async fn voting_twice_is_a_conflict() {
    let rig = as_user(Some(PLAIN_USER)).await;
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
    assert!(err_message(&env).contains("You have already voted!"));
}

/// Write messages name the request from what the tool already read.
#[tokio::test]
async fn write_messages_name_the_request() {
    let rig = as_user(Some(PLAIN_USER)).await;
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
