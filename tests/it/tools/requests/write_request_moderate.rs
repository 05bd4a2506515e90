//! `write_request_moderate`: approve, deny and mark (un)available per media, with the exact request
//! Ombi received; saves a downloader refused, business failures on HTTP 200, unknown outcomes sent once,
//! a TV show's id where a season request's is needed.

use serde_json::{Value, json};

use crate::support::fake_ombi::{ADMIN_USER, Fault, Options, PLAIN_USER};
use crate::support::rig::{Rig, err_code, err_message, fields, ok_data};
use crate::tools::requests::{album, child, movie, send_rejects, send_throws};
use crate::tools::{as_alice, as_user, assert_sent, the_write, wire, with_timeout};

/// write_request_moderate's `action` on request `id` of `media`.
async fn moderate(h: &Rig, action: &str, media: &str, id: i64) -> Value {
    let args = json!({"action": action, "media": media, "request_id": id});
    h.call("write_request_moderate", args).await
}

#[tokio::test]
async fn approve_movie_posts_id_and_is4k_and_reports_the_saved_approval() {
    let h = as_alice().await;
    let env = moderate(&h, "approve", "movie", 2).await;
    assert_sent(
        &h,
        "POST",
        "/api/v1/Request/movie/approve",
        json!({"id": 2, "is4K": false}),
    );
    let d = ok_data(&env);
    assert_eq!(d["kind"], "mutation");
    assert_eq!(d["outcome"], "completed");
    assert_eq!(d["target"], json!({"kind": "movie", "id": 2}));
    assert_eq!(d["upstream_result"], true);
    // Never a claimed send; internal mechanics are no warning (issue 23).
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .contains("does not say whether that worked"),
        "{env}"
    );
    assert_eq!(env["warnings"], json!([]));
    assert_eq!(movie(&h, 2).unwrap()["approved"], true);
    assert!(
        h.fake
            .with_data(|d| d.writes.sent.contains(&("radarr".into(), 2)))
    );
}

#[tokio::test]
async fn approve_4k_movie_sends_is4k_true() {
    let h = as_alice().await;
    let env = h
        .call(
            "write_request_moderate",
            json!({"action": "approve", "media": "movie", "request_id": 2, "is_4k": true}),
        )
        .await;
    assert_eq!(wire(&the_write(&h)).3, json!({"id": 2, "is4K": true}));
    assert!(
        ok_data(&env)["message"].as_str().unwrap().starts_with(
            "the movie request for *Interstellar* (request 2, requested by bob) (4K) is approved"
        ),
        "{env}"
    );
    let m = movie(&h, 2).unwrap();
    assert_eq!(
        fields(&m, &["approved4K", "approved"]),
        json!([true, false])
    );
}

#[tokio::test]
async fn approve_tv_moderates_the_child_id_and_album_its_own_id() {
    let h = as_alice().await;
    let env = moderate(&h, "approve", "tv", 12).await;
    assert_sent(&h, "POST", "/api/v1/Request/tv/approve", json!({"id": 12}));
    assert_eq!(
        ok_data(&env)["target"],
        json!({"kind": "tv_child", "id": 12})
    );
    assert_eq!(child(&h, 12).unwrap()["approved"], true);

    let h = as_alice().await;
    let env = moderate(&h, "approve", "album", 5).await;
    assert_sent(
        &h,
        "POST",
        "/api/v1/request/music/approve",
        json!({"id": 5}),
    );
    assert_eq!(ok_data(&env)["target"], json!({"kind": "album", "id": 5}));
    assert_eq!(album(&h, 5).unwrap()["approved"], true);
}

#[tokio::test]
async fn approve_saved_but_refused_by_radarr_is_a_partial_failure() {
    let h = as_alice().await;
    send_rejects(&h, "radarr", "Movie is already monitored");
    let env = moderate(&h, "approve", "movie", 2).await;
    assert_eq!(err_code(&env), "PARTIAL_FAILURE");
    assert!(err_message(&env).contains("Movie is already monitored"));
    let d = &env["data"];
    assert_eq!(d["outcome"], "partial");
    assert_eq!(d["target"], json!({"kind": "movie", "id": 2}));
    assert_eq!(
        fields(d, &["upstream_result", "upstream_is_error"]),
        json!([false, true])
    );
    // read once for its name, and the approval read back before saying so
    assert_eq!(h.gets("/api/v1/Request/movie/info/2").len(), 2);
    assert_eq!(movie(&h, 2).unwrap()["approved"], true);
}

#[tokio::test]
async fn approve_album_whose_lidarr_send_throws_is_partial_and_queued() {
    let h = as_alice().await;
    send_throws(&h, "lidarr", "connection refused");
    let env = moderate(&h, "approve", "album", 5).await;
    assert_eq!(err_code(&env), "PARTIAL_FAILURE");
    assert_eq!(env["data"]["outcome"], "partial");
    assert_eq!(env["data"]["upstream_is_error"], false);
    assert!(
        env["data"]["message"]
            .as_str()
            .unwrap()
            .contains("queued it for another try")
    );
    assert!(
        h.fake
            .with_data(|d| d.requests.retry.iter().any(|r| r["requestId"] == json!(5)))
    );
}

/// `Request does not exist` on a 200 (MovieRequestEngine.cs): NOT_FOUND
/// on the id, with no read-back (the one read before is for its name).
#[tokio::test]
async fn approve_unknown_request_is_not_found_without_a_read_back() {
    let h = as_alice().await;
    let env = moderate(&h, "approve", "movie", 999).await;
    assert_eq!(err_code(&env), "NOT_FOUND");
    assert_eq!(env["error"]["field"], "/request_id");
    assert!(err_message(&env).contains("Request does not exist"));
    assert!(env.get("data").is_none());
    assert_eq!(h.gets("/api/v1/Request/movie/info").len(), 1);
}

#[tokio::test]
async fn deny_uses_put_with_the_reason_for_each_media() {
    for (media, id, path, body) in [
        (
            "movie",
            3_i64,
            "/api/v1/Request/movie/deny",
            json!({"id": 3, "is4K": false, "reason": "no space"}),
        ),
        (
            "tv",
            12,
            "/api/v1/Request/tv/deny",
            json!({"id": 12, "reason": "no space"}),
        ),
    ] {
        let h = as_alice().await;
        let env = h
            .call(
                "write_request_moderate",
                json!({"action": "deny", "media": media, "request_id": id, "reason": "no space"}),
            )
            .await;
        assert_sent(&h, "PUT", path, body);
        let d = ok_data(&env);
        assert_eq!(
            fields(d, &["outcome", "upstream_result"]),
            json!(["completed", true])
        );
        assert_eq!(env["warnings"], json!([]));
    }
    let h = as_alice().await;
    h.ok(
        "write_request_moderate",
        json!({"action": "deny", "media": "tv", "request_id": 12}),
    )
    .await;
    // no reason given: none sent
    assert_eq!(wire(&the_write(&h)).3, json!({"id": 12}));
    assert_eq!(child(&h, 12).unwrap()["denied"], true);
}

#[tokio::test]
async fn album_deny_answered_result_false_is_a_completed_deny_with_a_warning() {
    let h = as_alice().await;
    let env = h
        .call(
            "write_request_moderate",
            json!({"action": "deny", "media": "album", "request_id": 5, "reason": "wrong edition"}),
        )
        .await;
    assert_sent(
        &h,
        "PUT",
        "/api/v1/request/music/deny",
        json!({"id": 5, "reason": "wrong edition"}),
    );
    let d = ok_data(&env);
    assert_eq!(d["outcome"], "completed");
    assert_eq!(
        fields(d, &["upstream_result", "upstream_is_error"]),
        json!([false, false])
    );
    // Ombi's odd form of success is its mechanics: logged, not a warning;
    // `upstream_result: false` above keeps the fact.
    assert_eq!(env["warnings"], json!([]));
    let a = album(&h, 5).unwrap();
    assert_eq!(
        fields(&a, &["denied", "deniedReason"]),
        json!([true, "wrong edition"])
    );
}

#[tokio::test]
async fn album_deny_of_an_unknown_id_is_still_a_failure() {
    let h = as_alice().await;
    let env = moderate(&h, "deny", "album", 999).await;
    assert_eq!(err_code(&env), "NOT_FOUND");
    assert_eq!(env["error"]["field"], "/request_id");
}

#[tokio::test]
async fn mark_available_and_unavailable_per_media() {
    for (action, verb, media, id, path, body, flag) in [
        (
            "mark_available",
            "available",
            "movie",
            2_i64,
            "/api/v1/Request/movie/available",
            json!({"id": 2, "is4K": false}),
            true,
        ),
        (
            "mark_unavailable",
            "unavailable",
            "movie",
            2,
            "/api/v1/Request/movie/unavailable",
            json!({"id": 2, "is4K": false}),
            false,
        ),
        (
            "mark_available",
            "available",
            "tv",
            12,
            "/api/v1/Request/tv/available",
            json!({"id": 12}),
            true,
        ),
        (
            "mark_unavailable",
            "unavailable",
            "tv",
            21,
            "/api/v1/Request/tv/unavailable",
            json!({"id": 21}),
            false,
        ),
        (
            "mark_available",
            "available",
            "album",
            5,
            "/api/v1/request/music/available",
            json!({"id": 5}),
            true,
        ),
        (
            "mark_unavailable",
            "unavailable",
            "album",
            6,
            "/api/v1/request/music/unavailable",
            json!({"id": 6}),
            false,
        ),
    ] {
        let h = as_alice().await;
        let env = h
            .call(
                "write_request_moderate",
                json!({"action": action, "media": media, "request_id": id}),
            )
            .await;
        assert_sent(&h, "POST", path, body);
        let d = ok_data(&env);
        assert_eq!(d["outcome"], "completed", "{action} {media}");
        assert!(
            d["message"]
                .as_str()
                .unwrap()
                .ends_with(&format!("marked {verb}"))
        );
        let row = match media {
            "movie" => movie(&h, id),
            "tv" => child(&h, id),
            _ => album(&h, id),
        }
        .unwrap();
        assert_eq!(row["available"], flag, "{action} {media}");
    }
}

#[test]
fn description_says_who_is_notified() {
    let def = &ombi_mcp::tools::find("write_request_moderate").unwrap().def;
    assert!(
        def.description
            .contains("mark_unavailable sends no notification")
    );
    assert!(
        def.description
            .contains("only when Ombi's notification rules allow")
    );
}

#[tokio::test]
async fn is_4k_for_tv_or_album_is_refused_before_anything_is_sent() {
    let h = as_alice().await;
    let env = h
        .call(
            "write_request_moderate",
            json!({"action": "approve", "media": "tv", "request_id": 12, "is_4k": true}),
        )
        .await;
    assert_eq!(err_code(&env), "INVALID_ARGUMENT");
    assert_eq!(env["error"]["field"], "/is_4k");
    assert!(h.fake.requests().is_empty());
}

#[tokio::test]
async fn business_failure_on_200_is_rejected_with_the_sanitized_message() {
    let h = as_alice().await;
    h.fake.add_fault(Fault::on("POST", "/api/v1/Request/tv/available").business(json!({
        "result": false, "message": null, "isError": true,
        "errorMessage": "Server=db.internal;Password=Sup3rSecret; failed", "errorCode": null, "requestId": 0
    })));
    let env = moderate(&h, "mark_available", "tv", 12).await;
    assert_eq!(err_code(&env), "UPSTREAM_REJECTED");
    assert_eq!(env["error"]["http_status"], 200);
    assert!(!err_message(&env).contains("Sup3rSecret"));
}

#[tokio::test]
async fn a_power_user_route_as_a_plain_user_is_forbidden() {
    let h = Rig::start_with(Options::default(), Some(PLAIN_USER)).await;
    let env = moderate(&h, "approve", "movie", 2).await;
    assert_eq!(err_code(&env), "FORBIDDEN");
    assert_eq!(movie(&h, 2).unwrap()["approved"], false);
}

#[tokio::test]
async fn timeout_after_the_approve_was_sent_is_unknown_outcome_sent_once() {
    let h = with_timeout().await;
    h.fake
        .add_fault(Fault::on("POST", "/api/v1/Request/movie/approve").apply_then_hang());
    let env = moderate(&h, "approve", "movie", 2).await;
    assert_eq!(err_code(&env), "UNKNOWN_OUTCOME");
    assert_eq!(env["error"]["retryable"], false);
    assert_eq!(h.fake.hits("POST", "/api/v1/Request/movie/approve"), 1);
    // it did happen upstream
    assert_eq!(movie(&h, 2).unwrap()["approved"], true);
}

#[tokio::test]
async fn dropped_connection_after_a_deny_is_unknown_outcome_sent_once() {
    let h = as_alice().await;
    h.fake
        .add_fault(Fault::on("PUT", "/api/v1/Request/tv/deny").apply_then_drop());
    let env = moderate(&h, "deny", "tv", 12).await;
    assert_eq!(err_code(&env), "UNKNOWN_OUTCOME");
    assert_eq!(env["error"]["retryable"], false);
    assert_eq!(h.fake.hits("PUT", "/api/v1/Request/tv/deny"), 1);
}

/// A TV parent id where a child id is needed: NOT_FOUND on `request_id`
/// listing the show's season requests with their seasons
/// (`ChildRequestDoesNotExist`, TvRequestEngine.cs).
#[tokio::test]
async fn moderating_a_tv_show_id_lists_its_season_requests() {
    let rig = as_user(Some(ADMIN_USER)).await;
    let env = rig
        .err(
            "write_request_moderate",
            json!({"action": "approve", "media": "tv", "request_id": 10}),
        )
        .await;
    assert_eq!(err_code(&env), "NOT_FOUND");
    assert_eq!(env["error"]["field"], "/request_id");
    let msg = err_message(&env);
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
    assert!(!err_message(&env).contains("is the show"));
}

#[tokio::test]
async fn moderation_results_name_the_title_the_requester_and_the_reason_sent() {
    let h = as_alice().await;
    let env = moderate(&h, "approve", "movie", 2).await;
    let message = ok_data(&env)["message"].as_str().unwrap().to_string();
    assert!(
        message.starts_with("the movie request for *Interstellar* (request 2, requested by bob) is approved; Ombi sends it to Radarr"),
        "{message}"
    );
    let env = h
        .call(
            "write_request_moderate",
            json!({"action": "deny", "media": "tv", "request_id": 12, "reason": "We have it on DVD"}),
        )
        .await;
    assert_eq!(
        ok_data(&env)["message"],
        "the TV child request for *Breaking Bad* (request 12, requested by Alice A.) is denied with the reason \u{201c}We have it on DVD\u{201d}",
        "{env}"
    );
    let env = h
        .call(
            "write_request_moderate",
            json!({"action": "deny", "media": "album", "request_id": 5}),
        )
        .await;
    assert_eq!(
        ok_data(&env)["message"],
        "the album request for *Kid A* (request 5, requested by bob) is denied without a reason"
    );
    let env = moderate(&h, "mark_available", "movie", 1).await;
    assert_eq!(
        ok_data(&env)["message"],
        "the movie request for *The Matrix* (request 1, requested by bob) is marked available"
    );
}
