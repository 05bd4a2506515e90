//! `write_request_create` whatever the media: Ombi's permission rules and quotas, on-behalf and alias
//! requests, the wrong kind of TMDB id, conflicts naming the existing request, a send Ombi only queued.

use serde_json::json;

use crate::support::fake_ombi::state::user_id;
use crate::support::fake_ombi::state_writes::SendFailure;
use crate::support::fake_ombi::{ADMIN_USER, Options, PLAIN_USER};
use crate::support::rig::{Rig, err_code, err_message, writes};
use crate::tools::{as_user, create_err, create_ok};

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

/// CanRequestRule.cs: no request role → FORBIDDEN (movie: with
/// `NoPermissionsRequestMovie`; TV v2: the text only).
#[tokio::test]
async fn create_refused_by_permission_rules_is_forbidden() {
    let rig = with_roles("carol", &["RequestTv"]).await;
    let env = create_err(&rig, json!({"action": "movie", "tmdb_id": 27205})).await;
    assert_eq!(err_code(&env), "FORBIDDEN");
    assert!(err_message(&env).contains("You do not have permissions to Request a Movie"));
    // The role in words, and the next step.
    assert!(
        err_message(&env)
            .ends_with(": needs Ombi's RequestMovie role (carol has User); ask an Ombi admin"),
        "{env}"
    );
    let rig = with_roles("carol", &["RequestMovie"]).await;
    let env = create_err(
        &rig,
        json!({"action": "tv", "id": 1399, "selection": {"mode": "first_season"}}),
    )
    .await;
    assert_eq!(err_code(&env), "FORBIDDEN");
    assert!(err_message(&env).contains("You do not have permissions to Request a TV Show"));
}

/// RequestLimitRule.cs: an exhausted quota → RATE_LIMITED, not retryable,
/// quoting the quota; TV's rule failure carries the text only.
#[tokio::test]
async fn create_over_quota_is_rate_limited_quoting_the_quota() {
    let rig = as_user(Some(PLAIN_USER)).await;
    set_quota(&rig, "movie", 3, 0);
    let env = create_err(&rig, json!({"action": "movie", "tmdb_id": 27205})).await;
    assert_eq!(err_code(&env), "RATE_LIMITED");
    assert_eq!(env["error"]["retryable"], false);
    let msg = err_message(&env);
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
    assert!(err_message(&env).contains("Episode request quota"), "{env}");
    assert!(rig.fake.with_data(|d| {
        d.movie_requests
            .iter()
            .all(|r| r["theMovieDbId"] != json!(27205))
    }));
}

/// MovieSender.cs: a throwing Radarr is queued for retry and the create
/// answers success with the id. The result never says it was sent.
#[tokio::test]
async fn create_whose_send_was_queued_never_claims_a_send() {
    let rig = as_user(Some(ADMIN_USER)).await;
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

/// Ombi stores `requestOnBehalf` unchecked: an unknown user id is NOT_FOUND
/// on the argument, and nothing is sent.
#[tokio::test]
async fn on_behalf_of_an_unknown_user_is_not_found() {
    let rig = as_user(Some(ADMIN_USER)).await;
    let env = create_err(
        &rig,
        json!({"action": "movie", "tmdb_id": 27205, "on_behalf_user_id": "no-such-user"}),
    )
    .await;
    assert_eq!(err_code(&env), "NOT_FOUND");
    assert_eq!(env["error"]["field"], "/on_behalf_user_id");
    assert!(err_message(&env).contains("read_users"));
    assert!(writes(&rig).is_empty());
    // A known one goes through, as that user's.
    create_ok(
        &rig,
        json!({"action": "movie", "tmdb_id": 27205, "on_behalf_user_id": user_id("bob")}),
    )
    .await;
}

/// RequestController.cs / RequestsController.cs read `ApiAlias` on all
/// three request routes: movie and TV take `requested_by_alias` too.
#[tokio::test]
async fn requested_by_alias_goes_as_a_header_for_movies_and_tv() {
    let rig = as_user(Some(ADMIN_USER)).await;
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

/// A movie's TMDB id given to `tv` (and a show's to `movie`): NOT_FOUND on
/// the id, naming the action that takes it.
#[tokio::test]
async fn a_tmdb_id_of_the_other_kind_names_the_right_action() {
    let rig = as_user(Some(PLAIN_USER)).await;
    let env = create_err(
        &rig,
        json!({"action": "tv", "id": 27205, "selection": {"mode": "all"}}),
    )
    .await;
    assert_eq!(err_code(&env), "NOT_FOUND");
    assert_eq!(env["error"]["field"], "/id");
    assert!(
        err_message(&env).contains("is the movie *Inception*: request it with action `movie`"),
        "{env}"
    );
    let env = create_err(&rig, json!({"action": "movie", "tmdb_id": 1399})).await;
    assert_eq!(err_code(&env), "NOT_FOUND");
    assert_eq!(env["error"]["field"], "/tmdb_id");
    assert!(err_message(&env).contains("action `tv`"), "{env}");
    // Ombi answers a show's id on its movie route with a null dereference
    // (500): its exception text is never the answer.
    assert!(!err_message(&env).contains("Object reference"), "{env}");
    assert!(err_message(&env).contains("Game of Thrones"), "{env}");
    assert!(writes(&rig).is_empty());
}

/// CONFLICT names the request that is already there, with its state.
#[tokio::test]
async fn conflicts_name_the_existing_request() {
    let rig = as_user(Some(PLAIN_USER)).await;
    let env = create_err(&rig, json!({"action": "movie", "tmdb_id": 603})).await;
    assert_eq!(err_code(&env), "CONFLICT");
    let msg = err_message(&env);
    assert!(
        msg.contains("the movie request for *The Matrix* (request 1)"),
        "{msg}"
    );
    let env = create_err(&rig, json!({"action": "tv", "id": 1396, "selection": {"mode": "episodes", "seasons": [{"season_number": 2, "episodes": [1, 2]}]}}))
        .await;
    assert_eq!(err_code(&env), "CONFLICT");
    assert!(
        err_message(&env).contains("TV request 10 is the show *Breaking Bad*"),
        "{env}"
    );
}
