//! `write_request_create` for a movie: whose request it is and its state read back, duplicates, a save
//! Radarr refused, on-behalf and 4K refusals, an answer lost after the send.

use serde_json::json;

use crate::support::fake_ombi::Fault;
use crate::support::fake_ombi::state::user_id;
use crate::support::fake_ombi::state_writes::SendFailure;
use crate::support::rig::{err_code, err_message, writes};
use crate::tools::requests::movie_request_of;
use crate::tools::{as_user, create_err, create_ok, data, only_write};

#[tokio::test]
async fn movie_request_as_a_household_member_is_theirs_and_pending() {
    let rig = as_user(Some("bob")).await;
    let env = create_ok(
        &rig,
        json!({"action": "movie", "tmdb_id": 27205, "language": "de"}),
    )
    .await;
    let (route, body, req) = only_write(&rig);
    assert_eq!(route, "POST /api/v1/Request/movie");
    assert_eq!(req.header("UserName"), Some("bob"));
    assert_eq!(
        body,
        json!({"theMovieDbId": 27205, "languageCode": "de", "is4kRequest": false})
    );
    let row = movie_request_of(&rig, 27205).expect("saved");
    let id = row["id"].as_i64().unwrap();
    assert_eq!(row["requestedUserId"], json!(user_id("bob")));
    let d = data(&env);
    assert_eq!(d["outcome"], "completed");
    assert_eq!(d["target"], json!({"kind": "movie", "id": id}));
    assert_eq!(d["request_id"], id);
    assert_eq!(d["upstream_result"], true);
    let msg = d["message"].as_str().unwrap();
    assert!(
        msg.contains("Inception") && msg.contains("waiting for approval"),
        "{msg}"
    );
}

/// Every create upvotes as the caller; an admin's request is approved at
/// once, and the read-back says so.
#[tokio::test]
async fn movie_request_by_an_admin_reads_back_approved() {
    let rig = as_user(Some("alice")).await;
    let env = create_ok(&rig, json!({"action": "movie", "tmdb_id": 27205, "overrides": {"root_folder_id": 2, "quality_profile_id": 4}}))
        .await;
    let (_, body, _) = only_write(&rig);
    assert_eq!(body["rootFolderOverride"], 2);
    assert_eq!(body["qualityPathOverride"], 4);
    let msg = data(&env)["message"].as_str().unwrap();
    assert!(
        msg.contains("; it is approved, and Ombi sends approved requests to Radarr itself"),
        "{msg}"
    );
    assert!(rig.fake.with_data(|d| {
        d.votes
            .iter()
            .any(|v| v.user == "alice" && v.vote_type == 0)
    }));
}

/// The bare API key requests as Ombi's internal `Api` user: said, since
/// that request is no household member's.
#[tokio::test]
async fn movie_request_with_the_bare_api_key_says_whose_it_is() {
    let rig = as_user(None).await;
    let env = create_ok(&rig, json!({"action": "movie", "tmdb_id": 27205})).await;
    let (_, _, req) = only_write(&rig);
    assert!(req.header("UserName").is_none());
    assert!(
        env["warnings"]
            .to_string()
            .contains("the request is Ombi's internal API user's"),
        "{env}"
    );
}

#[tokio::test]
async fn movie_duplicate_is_a_conflict() {
    let rig = as_user(Some("bob")).await;
    let env = create_err(&rig, json!({"action": "movie", "tmdb_id": 603})).await;
    assert_eq!(err_code(&env), "CONFLICT");
    assert!(err_message(&env).contains("AlreadyRequested"));
    assert_eq!(writes(&rig).len(), 1);
}

/// Ombi saves an auto-approved movie before sending it; a refused send
/// answers `result: false` without the id. The read-back finds it.
#[tokio::test]
async fn movie_saved_then_refused_by_radarr_is_partial_with_its_id() {
    let rig = as_user(Some("alice")).await;
    rig.fake.with_data(|d| {
        d.writes.send_failures.insert(
            "radarr".into(),
            SendFailure::Rejects("Movie is already monitored".into()),
        )
    });
    let env = create_err(&rig, json!({"action": "movie", "tmdb_id": 27205})).await;
    assert_eq!(err_code(&env), "PARTIAL_FAILURE");
    let id = movie_request_of(&rig, 27205).unwrap()["id"]
        .as_i64()
        .unwrap();
    let d = data(&env);
    assert_eq!(d["outcome"], "partial");
    assert_eq!(d["request_id"], id);
    assert_eq!(d["upstream_result"], false);
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .contains("Movie is already monitored")
    );
    assert_eq!(writes(&rig).len(), 1);
}

/// Requesting on behalf needs PowerUser, as reading Ombi's users (the
/// check that the user exists) does: FORBIDDEN before anything is sent.
#[tokio::test]
async fn movie_on_behalf_without_power_user_is_forbidden() {
    let rig = as_user(Some("bob")).await;
    let env = create_err(
        &rig,
        json!({"action": "movie", "tmdb_id": 27205, "on_behalf_user_id": user_id("alice")}),
    )
    .await;
    assert_eq!(err_code(&env), "FORBIDDEN");
    assert!(err_message(&env).contains("on behalf"));
    assert!(env.get("data").is_none());
    assert!(writes(&rig).is_empty());
    assert!(movie_request_of(&rig, 27205).is_none());
}

#[tokio::test]
async fn movie_4k_without_the_feature_is_refused_before_sending() {
    let rig = as_user(Some("alice")).await;
    let env = create_err(
        &rig,
        json!({"action": "movie", "tmdb_id": 27205, "is_4k": true}),
    )
    .await;
    assert_eq!(err_code(&env), "UNSUPPORTED_CAPABILITY");
    assert!(writes(&rig).is_empty());
    // With the feature on, the flag goes through.
    rig.fake.with_data(|d| d.features[0].1 = true);
    create_ok(
        &rig,
        json!({"action": "movie", "tmdb_id": 27205, "is_4k": true}),
    )
    .await;
    let (_, body, _) = only_write(&rig);
    assert_eq!(body["is4kRequest"], true);
}

/// The connection dropped after Ombi applied the write: UNKNOWN_OUTCOME,
/// not retryable, and the write was sent exactly once.
#[tokio::test]
async fn movie_dropped_after_send_is_unknown_and_never_retried() {
    let rig = as_user(Some("bob")).await;
    rig.fake
        .add_fault(Fault::on("POST", "/api/v1/Request/movie").apply_then_drop());
    let env = create_err(&rig, json!({"action": "movie", "tmdb_id": 27205})).await;
    assert_eq!(err_code(&env), "UNKNOWN_OUTCOME");
    assert_eq!(env["error"]["retryable"], false);
    assert_eq!(rig.fake.hits("POST", "/api/v1/Request/movie"), 1);
    assert!(movie_request_of(&rig, 27205).is_some(), "Ombi did apply it");
}
