//! The core write tools in process against the fake Ombi (which answers as
//! Ombi v4.59.3 does, quirks included): for every action the exact request
//! Ombi received (method, route, `UserName`, body) and the projected
//! mutation, validated against the tool's outputSchema by the rig; then each
//! case where Ombi's answer does not say what happened. The attribution test
//! at the end runs the real daemon over its socket.

use std::sync::Arc;
use std::time::Duration;

use ombi_mcp::definition::BundleSet;
use ombi_mcp::policy::Identity;
use serde_json::{Value, json};

use super::{comment_err, comment_ok, create_err, create_ok, vote_err, vote_ok};
use crate::harness;
use crate::support;
use crate::support::fake_ombi::routes::media::data::{EMPTY_COLLECTION, HYBRID_THEORY, METEORA};
use crate::support::fake_ombi::state::{Vote, user_id};
use crate::support::fake_ombi::state_writes::{SendFailure, Subscription};
use crate::support::fake_ombi::{API_KEY, Fault, LoggedRequest, Options};
use crate::support::rig::{Rig, err_code, err_message, fields, writes};

// ------------------------------------------------------------ helpers

/// api_key mode acting as `user` (`None`: the bare API key).
async fn as_user(user: Option<&str>) -> Rig {
    Rig::start_with(Options::default(), user).await
}

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

fn data(env: &Value) -> &Value {
    &env["data"]
}

fn movie_request_of(rig: &Rig, tmdb: i64) -> Option<Value> {
    rig.fake.with_data(|d| {
        d.movie_requests
            .iter()
            .find(|r| r["theMovieDbId"] == json!(tmdb))
            .cloned()
    })
}

fn set_vote(rig: &Rig, key: &str, value: Value) {
    rig.fake
        .with_data(|d| d.admin.settings.get_mut("vote").unwrap()[key] = value);
}

// ------------------------------------------------------------ request: movie

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

// ------------------------------------------------------------ request: tv

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
    assert!(
        data(&env)["message"]
            .as_str()
            .unwrap()
            .contains("waiting for approval")
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

// ------------------------------------------------------------ request: album

#[tokio::test]
async fn album_request_then_a_repeat_is_a_conflict_not_a_second_row() {
    let rig = as_user(Some("alice")).await;
    let env = create_ok(&rig, json!({"action": "album", "musicbrainz_id": METEORA})).await;
    let (route, body, req) = only_write(&rig);
    assert_eq!(route, "POST /api/v1/request/music");
    assert_eq!(body, json!({"foreignAlbumId": METEORA}));
    assert_eq!(req.header("UserName"), Some("alice"));
    assert!(req.header("ApiAlias").is_none());
    let d = data(&env);
    assert_eq!(d["target"]["kind"], "album");
    assert_eq!(d["outcome"], "completed");
    let env = create_err(&rig, json!({"action": "album", "musicbrainz_id": METEORA})).await;
    assert_eq!(err_code(&env), "CONFLICT");
    assert_eq!(writes(&rig).len(), 1, "the repeat was never sent");
    let rows = rig.fake.with_data(|d| {
        d.requests
            .albums
            .iter()
            .filter(|a| a["foreignAlbumId"] == json!(METEORA))
            .count()
    });
    assert_eq!(rows, 1);
}

/// The alias goes in the `ApiAlias` header (Ombi ignores the body's) in
/// api_key mode, and is refused in jwt mode.
#[tokio::test]
async fn album_alias_is_a_header_in_api_key_mode_only() {
    let rig = as_user(Some("alice")).await;
    create_ok(&rig, json!({"action": "album", "musicbrainz_id": HYBRID_THEORY, "requested_by_alias": "Grandma"}))
    .await;
    let (_, body, req) = only_write(&rig);
    assert_eq!(req.header("ApiAlias"), Some("Grandma"));
    assert!(body.get("requestedByAlias").is_none());
    let row = rig.fake.with_data(|d| {
        d.requests
            .albums
            .iter()
            .find(|a| a["foreignAlbumId"] == json!(HYBRID_THEORY))
            .cloned()
    });
    assert_eq!(row.unwrap()["requestedByAlias"], "Grandma");
    let env = create_err(
        &rig,
        json!({"action": "album", "musicbrainz_id": METEORA, "requested_by_alias": "Zoë"}),
    )
    .await;
    assert_eq!(env["error"]["field"], "/requested_by_alias");

    let jwt = Rig::start_env(
        Options::default(),
        &[
            ("OMBI_AUTH_MODE", "jwt"),
            ("OMBI_USERNAME", support::fake_ombi::ADMIN_USER),
            ("OMBI_PASSWORD", support::fake_ombi::ADMIN_PASSWORD),
        ],
    )
    .await;
    let env = jwt
        .err(
            "write_request_create",
            json!({"action": "album", "musicbrainz_id": METEORA, "requested_by_alias": "Grandma"}),
        )
        .await;
    assert_eq!(env["error"]["field"], "/requested_by_alias");
    assert!(writes(&jwt).iter().all(|r| r.path == "/api/v1/Token"));
}

#[tokio::test]
async fn album_saved_then_refused_by_lidarr_is_partial() {
    let rig = as_user(Some("alice")).await;
    rig.fake.with_data(|d| {
        d.writes.send_failures.insert(
            "lidarr".into(),
            SendFailure::Rejects("Album is already monitored".into()),
        )
    });
    let env = create_err(&rig, json!({"action": "album", "musicbrainz_id": METEORA})).await;
    assert_eq!(err_code(&env), "PARTIAL_FAILURE");
    let id = rig.fake.with_data(|d| {
        d.requests
            .albums
            .iter()
            .find(|a| a["foreignAlbumId"] == json!(METEORA))
            .and_then(|a| a["id"].as_i64())
    });
    assert_eq!(data(&env)["request_id"], json!(id.unwrap()));
}

// ------------------------------------------------------------ request: collection

/// Ombi answers with the first part's id only: each member's outcome comes
/// from reading it before and after.
#[tokio::test]
async fn collection_reports_each_member_from_a_read_back() {
    let rig = as_user(Some("alice")).await;
    let env = create_err(&rig, json!({"action": "collection", "collection_id": 2344})).await;
    let (route, body, _) = only_write(&rig);
    assert_eq!(route, "POST /api/v2/Requests/movie/collection/2344");
    assert_eq!(body, Value::Null);
    assert_eq!(err_code(&env), "PARTIAL_FAILURE");
    let d = data(&env);
    assert_eq!(d["outcome"], "partial");
    assert_eq!(d["affected_count"], 2);
    assert!(
        d.get("request_id").is_none(),
        "Ombi's id is one part's only"
    );
    let items = d["item_results"].as_array().unwrap();
    let by = |id: &str| {
        items
            .iter()
            .find(|i| i["identifier"] == id)
            .unwrap_or_else(|| panic!("{id}: {items:?}"))
            .clone()
    };
    assert_eq!(by("tmdb:603")["outcome"], "rejected");
    assert!(
        by("tmdb:603")["message"]
            .as_str()
            .unwrap()
            .contains("already requested")
    );
    assert_eq!(by("tmdb:604")["outcome"], "completed");
    assert_eq!(by("tmdb:605")["outcome"], "completed");
}

#[tokio::test]
async fn collection_of_new_movies_completes_and_bad_ids_are_refused() {
    let rig = as_user(Some("alice")).await;
    rig.fake
        .with_data(|d| d.movie_requests.retain(|r| r["theMovieDbId"] != json!(603)));
    let env = create_ok(&rig, json!({"action": "collection", "collection_id": 2344})).await;
    assert_eq!(data(&env)["outcome"], "completed");
    assert_eq!(data(&env)["affected_count"], 3);
    let again = create_err(&rig, json!({"action": "collection", "collection_id": 2344})).await;
    assert_eq!(err_code(&again), "CONFLICT");
    assert_eq!(data(&again)["outcome"], "rejected");

    let rig = as_user(Some("alice")).await;
    let env = create_err(
        &rig,
        json!({"action": "collection", "collection_id": EMPTY_COLLECTION}),
    )
    .await;
    assert_eq!(env["error"]["field"], "/collection_id");
    let env = create_err(&rig, json!({"action": "collection", "collection_id": 777})).await;
    assert_eq!(err_code(&env), "NOT_FOUND");
    assert!(writes(&rig).is_empty());
}

// ------------------------------------------------------------ subscribe

#[tokio::test]
async fn subscribe_and_unsubscribe_act_for_the_caller() {
    let rig = as_user(Some("bob")).await;
    let env = rig
        .ok(
            "write_request_subscribe",
            json!({"action": "subscribe", "media": "movie", "request_id": 2}),
        )
        .await;
    let (route, body, req) = only_write(&rig);
    assert_eq!(route, "POST /api/v1/Request/movie/subscribe/2");
    assert_eq!(body, Value::Null);
    assert_eq!(req.header("UserName"), Some("bob"));
    let d = data(&env);
    assert_eq!(
        fields(d, &["outcome", "target"]),
        json!(["completed", {"kind": "movie", "id": 2}])
    );
    assert!(d["message"].as_str().unwrap().contains("Interstellar"));
    let bob_movie_2 = Subscription {
        user: "bob".into(),
        request_id: 2,
        request_type: 1,
    };
    assert!(
        rig.fake
            .with_data(|d| d.writes.subscriptions.contains(&bob_movie_2))
    );

    rig.fake
        .with_data(|d| support::fake_ombi::state_writes::subscribe(d, "bob", 12, 0));
    let env = rig
        .ok(
            "write_request_subscribe",
            json!({"action": "unsubscribe", "media": "tv", "request_id": 12}),
        )
        .await;
    assert_eq!(data(&env)["target"], json!({"kind": "tv_child", "id": 12}));
    assert_eq!(
        rig.fake.hits("POST", "/api/v1/Request/tv/unsubscribe/12"),
        1
    );
    assert!(
        rig.fake
            .with_data(|d| !d.writes.subscriptions.iter().any(|s| s.request_id == 12))
    );
}

/// Ombi answers `true` for any id: an unknown request is caught first.
#[tokio::test]
async fn subscribe_to_an_unknown_request_sends_nothing() {
    let rig = as_user(Some("bob")).await;
    let env = rig
        .err(
            "write_request_subscribe",
            json!({"action": "subscribe", "media": "movie", "request_id": 999}),
        )
        .await;
    assert_eq!(err_code(&env), "NOT_FOUND");
    let env = rig
        .err(
            "write_request_subscribe",
            json!({"action": "subscribe", "media": "tv", "request_id": 999}),
        )
        .await;
    assert_eq!(err_code(&env), "NOT_FOUND");
    assert!(writes(&rig).is_empty());
}

// ------------------------------------------------------------ vote

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

// ------------------------------------------------------------ issues

#[tokio::test]
async fn issue_create_sends_only_the_fields_it_sets() {
    let rig = as_user(Some("bob")).await;
    let env = rig
        .ok(
            "write_issue_create",
            json!({"title": "The Matrix", "description": "Audio out of sync", "category_id": 1,
                   "request_type": "movie", "subject": "Sync", "request_id": 1, "provider_id": "603"}),
        )
        .await;
    let (route, body, req) = only_write(&rig);
    assert_eq!(route, "POST /api/v1/Issues");
    assert_eq!(req.header("UserName"), Some("bob"));
    // Filed under the IMDb id, as Ombi's movie page files and shows issues.
    assert_eq!(
        body,
        json!({"title": "The Matrix", "requestType": 1, "providerId": "tt0133093", "requestId": 1,
               "subject": "Sync", "description": "Audio out of sync", "issueCategoryId": 1})
    );
    let d = data(&env);
    let id = d["issue_id"].as_i64().unwrap();
    assert_eq!(d["outcome"], "completed");
    assert_eq!(d["category_id"], 1);
    let issue = rig
        .fake
        .with_data(|d| d.issues.iter().find(|i| i["id"] == json!(id)).cloned())
        .unwrap();
    assert_eq!(
        fields(&issue, &["status", "userReportedId"]),
        json!([0, user_id("bob")])
    );
}

#[tokio::test]
async fn issue_create_with_an_unknown_category_sends_nothing() {
    let rig = as_user(Some("bob")).await;
    let env = rig
        .err(
            "write_issue_create",
            json!({"title": "X", "description": "Y", "category_id": 42, "request_type": "tv"}),
        )
        .await;
    assert_eq!(env["error"]["field"], "/category_id");
    assert!(writes(&rig).is_empty());
}

#[tokio::test]
async fn issue_comment_as_the_caller() {
    let rig = as_user(Some("bob")).await;
    let env = comment_ok(&rig, json!({"issue_id": 1, "comment": "Still broken"})).await;
    let (route, body, req) = only_write(&rig);
    assert_eq!(route, "POST /api/v1/Issues/comments");
    assert_eq!(req.header("UserName"), Some("bob"));
    assert_eq!(body, json!({"issueId": 1, "comment": "Still broken"}));
    let d = data(&env);
    assert_eq!(d["issue_id"], 1);
    let id = d["comment_id"].as_i64().unwrap();
    assert!(
        rig.fake
            .with_data(|d| d.comments.iter().any(|c| c["id"] == json!(id)))
    );
    // Ombi answers 204 for an unknown issue, having added nothing.
    let env = comment_err(&rig, json!({"issue_id": 77, "comment": "?"})).await;
    assert_eq!(err_code(&env), "NOT_FOUND");
    // The bare API key's comment would fail inside Ombi (500): refused first.
    let api = as_user(None).await;
    let env = comment_err(&api, json!({"issue_id": 1, "comment": "x"})).await;
    assert_eq!(err_code(&env), "FORBIDDEN");
    assert!(writes(&api).is_empty());
}

// ------------------------------------------------------------ preferences

#[tokio::test]
async fn language_and_country_change_the_callers_row_and_are_read_back() {
    let rig = as_user(Some("bob")).await;
    let env = rig
        .ok(
            "write_user_preferences",
            json!({"action": "language", "language": "de"}),
        )
        .await;
    let (route, body, req) = only_write(&rig);
    assert_eq!(route, "POST /api/v1/Identity/language");
    assert_eq!(body, json!({"lang": "de"}));
    assert_eq!(req.header("UserName"), Some("bob"));
    assert_eq!(data(&env)["user_id"], json!(user_id("bob")));
    // The next request uses the new language at once.
    create_ok(&rig, json!({"action": "movie", "tmdb_id": 27205})).await;
    let last = rig.last("POST", "/api/v1/Request/movie");
    assert_eq!(
        serde_json::from_str::<Value>(&last.body).unwrap()["languageCode"],
        "de"
    );

    let rig = as_user(Some("bob")).await;
    rig.ok(
        "write_user_preferences",
        json!({"action": "streaming_country", "country": "gb"}),
    )
    .await;
    let (route, body, _) = only_write(&rig);
    assert_eq!(route, "POST /api/v1/Identity/streamingcountry");
    assert_eq!(body, json!({"code": "GB"}));
    let env = rig
        .err(
            "write_user_preferences",
            json!({"action": "streaming_country", "country": "ZZ"}),
        )
        .await;
    assert_eq!(env["error"]["field"], "/country");
    assert_eq!(writes(&rig).len(), 1);
}

/// Delivery values are sent to Ombi and appear nowhere else.
#[tokio::test]
async fn notification_agents_are_set_for_the_caller_without_echoing_values() {
    let rig = as_user(Some("bob")).await;
    let env = rig
        .ok(
            "write_user_preferences",
            json!({"action": "notification_agents", "agents": [
                {"agent": "telegram", "value": "tg-chat-31337"}, {"agent": "discord", "value": ""}]}),
        )
        .await;
    let (route, body, _) = only_write(&rig);
    assert_eq!(route, "POST /api/v1/Identity/NotificationPreferences");
    assert_eq!(
        body,
        json!([{"agent": 4, "userId": user_id("bob"), "value": "tg-chat-31337"},
               {"agent": 1, "userId": user_id("bob"), "value": ""}])
    );
    assert!(!env.to_string().contains("tg-chat-31337"));
    assert_eq!(
        data(&env)["message"],
        "saved your delivery values for telegram, discord"
    );
    assert_eq!(data(&env)["user_id"], json!(user_id("bob")));
    let env = rig
        .err(
            "write_user_preferences",
            json!({"action": "notification_agents", "agents": [
                {"agent": "slack", "value": "a"}, {"agent": "slack", "value": "b"}]}),
        )
        .await;
    assert_eq!(env["error"]["field"], "/agents/1/agent");
    // The bare API key would change Ombi's internal `Api` user.
    let api = as_user(None).await;
    let env = api
        .err(
            "write_user_preferences",
            json!({"action": "language", "language": "fr"}),
        )
        .await;
    assert_eq!(err_code(&env), "FORBIDDEN");
    assert!(writes(&api).is_empty());
}

// ------------------------------------------------------------ attribution

/// Two peers mapped to two Ombi users (peer policy `ombi_user`) create two
/// requests through the real daemon: Ombi records each under its own
/// `UserName`, and each audit record names its own peer uid and Ombi user.
#[tokio::test(flavor = "multi_thread")]
async fn two_peers_request_as_their_own_ombi_users_and_are_audited() {
    use harness::*;
    if !require(is_root(), "root (to run the shim as a second uid)") {
        return;
    }
    let (uid, gid) = test_user();
    let fake = support::fake_ombi::FakeOmbi::start(Options::default()).await;
    let policy = format!(
        r#"{{"peers":[{{"uid":0,"ombi_user":"alice"}},{{"uid":{uid},"ombi_user":"bob"}}]}}"#
    );
    let d = Daemon::start(DaemonOpts {
        env: vec![
            ("OMBI_URL".into(), fake.url.clone()),
            ("OMBI_AUTH_MODE".into(), "api_key".into()),
            ("OMBI_API_KEY".into(), API_KEY.into()),
        ],
        policy: Some(policy),
        ..DaemonOpts::default()
    });
    d.open_socket_to_all();
    let call = |tmdb: i64| {
        format!(
            "{INITIALIZE}\n{{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}}\n\
             {{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{{\"name\":\"write_request_create\",\
             \"arguments\":{{\"action\":\"movie\",\"tmdb_id\":{tmdb}}}}}}}\n"
        )
    };
    // root (uid 0) acts as alice, the second uid as bob.
    let socket = d.socket.clone();
    let (a, b) = (call(27205), call(496243));
    let runs = tokio::task::spawn_blocking(move || {
        let root = run_shim(&socket, &a, None, Duration::from_millis(1500));
        let peer = run_shim(&socket, &b, Some((uid, gid)), Duration::from_millis(1500));
        (root, peer)
    })
    .await
    .unwrap();
    for run in [&runs.0, &runs.1] {
        assert!(
            run.stdout.contains(r#""outcome":"completed""#),
            "stdout: {} stderr: {}\nlog: {}",
            run.stdout,
            run.stderr,
            d.logs()
        );
    }
    let posts: Vec<LoggedRequest> = fake
        .requests()
        .into_iter()
        .filter(|r| r.method == "POST" && r.path == "/api/v1/Request/movie")
        .collect();
    let users: Vec<Option<&str>> = posts.iter().map(|r| r.header("UserName")).collect();
    assert_eq!(users, vec![Some("alice"), Some("bob")]);
    let owner = |tmdb: i64| {
        fake.with_data(|dt| {
            dt.movie_requests
                .iter()
                .find(|r| r["theMovieDbId"] == json!(tmdb))
                .map(|r| r["requestedUserId"].clone())
        })
    };
    assert_eq!(owner(27205), Some(json!(user_id("alice"))));
    assert_eq!(owner(496243), Some(json!(user_id("bob"))));
    let logs = d.wait_log(&format!("peer_uid={uid}"));
    let audit: Vec<&str> = logs
        .lines()
        .filter(|l| l.contains(" audit ") && l.contains("peer_uid="))
        .collect();
    assert_eq!(audit.len(), 2, "{logs}");
    let alice = audit
        .iter()
        .find(|l| l.contains("tmdb_id=27205"))
        .expect("alice's record");
    let bob = audit
        .iter()
        .find(|l| l.contains("tmdb_id=496243"))
        .expect("bob's record");
    assert!(
        alice.contains("peer_uid=0") && alice.contains("ombi_user=\"alice\""),
        "{alice}"
    );
    assert!(
        bob.contains(&format!("peer_uid={uid}")) && bob.contains("ombi_user=\"bob\""),
        "{bob}"
    );
    for line in [alice, bob] {
        assert!(
            line.contains("tool=\"write_request_create\"")
                && line.contains("outcome=\"completed\""),
            "{line}"
        );
    }
}
