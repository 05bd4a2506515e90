//! `write_request_create` for TV: the season and episode modes and what each sends, the child id
//! answered, refusals up front, duplicates, a save Sonarr refused, a timeout after the send.

use std::sync::Arc;

use ombi_mcp::definition::BundleSet;
use ombi_mcp::policy::Identity;
use serde_json::{Value, json};

use crate::support;
use crate::support::fake_ombi::state_writes::SendFailure;
use crate::support::fake_ombi::{API_KEY, Fault, Options};
use crate::support::rig::{Rig, err_code, err_message, fields, writes};
use crate::tools::{as_user, create_err, create_ok, data, only_write};

/// Like [`as_user`], with a 2 s upstream timeout (for the hang tests).
async fn impatient(user: &str) -> Rig {
    let mut rig = Rig::start_env(
        Options::default(),
        &[
            ("OMBI_AUTH_MODE", "api_key"),
            ("OMBI_API_KEY", API_KEY),
            ("OMBI_HTTP_TIMEOUT", "2"),
        ],
    )
    .await;
    let mut identity = Identity::local(BundleSet::all(), false);
    identity.ombi_user = Some(user.into());
    rig.ctx.identity = Arc::new(identity);
    rig
}

#[tokio::test]
async fn tv_timeout_after_send_is_unknown_and_never_retried() {
    let rig = impatient("alice").await;
    rig.fake
        .add_fault(Fault::on("POST", "/api/v2/Requests/tv").apply_then_hang());
    let env = create_err(
        &rig,
        json!({"action": "tv", "id": 1399, "selection": {"mode": "all"}}),
    )
    .await;
    assert_eq!(err_code(&env), "UNKNOWN_OUTCOME");
    assert_eq!(env["error"]["retryable"], false);
    assert_eq!(rig.fake.hits("POST", "/api/v2/Requests/tv"), 1);
}

#[tokio::test]
async fn tv_all_for_a_new_show_answers_the_child_id_never_as_a_provider_id() {
    let rig = as_user(Some("alice")).await;
    let env = create_ok(
        &rig,
        json!({"action": "tv", "id": 1399, "selection": {"mode": "all"}}),
    )
    .await;
    let (route, body, req) = only_write(&rig);
    assert_eq!(route, "POST /api/v2/Requests/tv");
    assert_eq!(req.header("UserName"), Some("alice"));
    assert_eq!(
        body,
        json!({"theMovieDbId": 1399, "requestAll": true, "latestSeason": false, "firstSeason": false, "source": 0})
    );
    let d = data(&env);
    // Ombi stores a brand-new show's child under the TMDB id.
    assert_eq!(d["target"], json!({"kind": "tv_child", "id": 1399}));
    assert_eq!(d["request_id"], 1399);
    let msg = d["message"].as_str().unwrap();
    assert!(msg.contains("not a TMDB or TVDB id"), "{msg}");
    assert!(msg.contains("it is approved"), "{msg}");
    assert!(!d.to_string().contains("tmdb"), "no provider label: {d}");
}

#[tokio::test]
async fn tv_first_and_latest_season_are_left_to_ombi() {
    for (mode, flag) in [
        ("first_season", "firstSeason"),
        ("latest_season", "latestSeason"),
    ] {
        let rig = as_user(Some("bob")).await;
        create_ok(
            &rig,
            json!({"action": "tv", "id": 1399, "selection": {"mode": mode}}),
        )
        .await;
        let (_, body, _) = only_write(&rig);
        assert_eq!(body[flag], true, "{mode}");
        assert!(body.get("seasons").is_none(), "never `seasons: null`");
    }
}

/// Mode `season` expands each season into its episodes (Ombi requests
/// nothing for `episodes: []`).
#[tokio::test]
async fn tv_season_mode_sends_every_episode_explicitly() {
    let rig = as_user(Some("bob")).await;
    let env = create_ok(&rig, json!({"action": "tv", "id": 1399, "selection": {"mode": "season", "season_numbers": [2, 3, 2]}}))
        .await;
    let (_, body, _) = only_write(&rig);
    let eps: Vec<Value> = (1..=10).map(|e| json!({"episodeNumber": e})).collect();
    assert_eq!(
        body["seasons"],
        json!([{"seasonNumber": 2, "episodes": eps}, {"seasonNumber": 3, "episodes": eps}])
    );
    assert_eq!(
        fields(&body, &["requestAll", "firstSeason"]),
        json!([false, false])
    );
    let id = data(&env)["request_id"].as_i64().unwrap();
    let child = rig
        .fake
        .with_data(|d| support::fake_ombi::state_writes::child(d, id).cloned())
        .expect("saved child");
    assert_eq!(child["seasonRequests"].as_array().unwrap().len(), 2);
    let msg = data(&env)["message"].as_str().unwrap();
    assert!(msg.contains("waiting for approval"), "{msg}");
    // what was requested, in words
    assert!(
        msg.starts_with(
            "requested seasons 2 and 3 (20 episodes) of Game of Thrones as TV child request"
        ),
        "{msg}"
    );
}

#[tokio::test]
async fn tv_episodes_mode_sends_exactly_the_episodes() {
    let rig = as_user(Some("bob")).await;
    create_ok(&rig, json!({"action": "tv", "id": 1399, "selection": {"mode": "episodes", "seasons": [ {"season_number": 1, "episodes": [3, 1]}, {"season_number": 1, "episodes": [1, 2]}]}}))
    .await;
    let (_, body, _) = only_write(&rig);
    assert_eq!(
        body["seasons"],
        json!([{"seasonNumber": 1, "episodes": [{"episodeNumber": 3}, {"episodeNumber": 1}, {"episodeNumber": 2}]}])
    );
}

/// Ombi silently drops what TMDB does not list: refused with the field,
/// nothing sent.
#[tokio::test]
async fn tv_unknown_seasons_or_episodes_and_tvdb_ids_are_refused_up_front() {
    let rig = as_user(Some("bob")).await;
    for (args, field) in [
        (
            json!({"action": "tv", "id": 1399, "selection": {"mode": "season", "season_numbers": [9]}}),
            "/selection/season_numbers",
        ),
        (
            json!({"action": "tv", "id": 1399, "selection": {"mode": "season", "season_numbers": [0]}}),
            "/selection/season_numbers",
        ),
        (
            json!({"action": "tv", "id": 1399, "selection": {"mode": "episodes", "seasons": [
                {"season_number": 1, "episodes": [1]}, {"season_number": 2, "episodes": [11]}]}}),
            "/selection/seasons/1/episodes",
        ),
        (
            json!({"action": "tv", "id": 1399, "selection": {"mode": "episodes", "seasons": [
                {"season_number": 12, "episodes": [1]}]}}),
            "/selection/seasons/0/season_number",
        ),
        (
            json!({"action": "tv", "provider": "tvdb", "id": 81189, "selection": {"mode": "all"}}),
            "/provider",
        ),
    ] {
        let env = create_err(&rig, args.clone()).await;
        assert_eq!(err_code(&env), "INVALID_ARGUMENT", "{args}");
        assert_eq!(env["error"]["field"], field, "{args}");
    }
    assert!(writes(&rig).is_empty());
    let env = create_err(
        &rig,
        json!({"action": "tv", "id": 424242, "selection": {"mode": "all"}}),
    )
    .await;
    assert_eq!(err_code(&env), "NOT_FOUND");
    assert!(writes(&rig).is_empty());
}

/// TV duplicates come as a bare text or as `AlreadyRequested`: both CONFLICT.
#[tokio::test]
async fn tv_duplicates_are_conflicts_in_both_forms() {
    let rig = as_user(Some("alice")).await;
    // Season 1, episodes 1-3 are the show's first child.
    let env = create_err(&rig, json!({"action": "tv", "id": 1396, "selection": {"mode": "episodes", "seasons": [{"season_number": 1, "episodes": [1, 2]}]}}))
        .await;
    assert_eq!(err_code(&env), "CONFLICT");
    assert!(err_message(&env).contains("We already have episodes requested"));
    // Season 2, episodes 1-2 are in a later child.
    let env = create_err(&rig, json!({"action": "tv", "id": 1396, "selection": {"mode": "episodes", "seasons": [{"season_number": 2, "episodes": [1, 2]}]}}))
        .await;
    assert_eq!(err_code(&env), "CONFLICT");
    assert!(err_message(&env).contains("AlreadyRequested"));
}

/// A TV request whose Sonarr send throws is queued and answered
/// `{result: false, isError: false, requestId}`: saved, not sent.
#[tokio::test]
async fn tv_queued_after_sonarr_threw_is_partial_with_the_child_id() {
    let rig = as_user(Some("alice")).await;
    rig.fake.with_data(|d| {
        d.writes.send_failures.insert(
            "sonarr".into(),
            SendFailure::Throws("Connection refused".into()),
        )
    });
    let env = create_err(&rig, json!({"action": "tv", "id": 1399, "selection": {"mode": "first_season"}, "language_profile_id": 1}))
        .await;
    assert_eq!(err_code(&env), "PARTIAL_FAILURE");
    let d = data(&env);
    assert_eq!(d["outcome"], "partial");
    assert_eq!(d["target"], json!({"kind": "tv_child", "id": 1399}));
    assert_eq!(
        fields(d, &["upstream_result", "upstream_is_error"]),
        json!([false, false])
    );
    assert!(d["message"].as_str().unwrap().contains("retry queue"));
    let (_, body, _) = only_write(&rig);
    assert_eq!(body["languageProfile"], 1);
}

#[tokio::test]
async fn tv_for_a_requested_show_warns_about_ignored_and_show_wide_options() {
    let rig = as_user(Some("alice")).await;
    let env = create_ok(&rig, json!({"action": "tv", "id": 1396, "selection": {"mode": "season", "season_numbers": [4]}, "language_profile_id": 2, "overrides": {"quality_profile_id": 3}}))
        .await;
    let w = env["warnings"].to_string();
    assert!(w.contains("ignores `language_profile_id`"), "{w}");
    assert!(w.contains("whole show"), "{w}");
    assert_eq!(data(&env)["target"]["kind"], "tv_child");
}
