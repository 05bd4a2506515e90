//! The moderation writes (write_request_moderate, write_request_options,
//! write_request_reprocess, write_request_delete, write_issue_manage) in
//! process against the fake Ombi: for every action the exact request Ombi
//! received (method, route, `UserName`, body) and the projected mutation,
//! validated by the rig against the tool's outputSchema; then the cases
//! where Ombi's answer does not say what happened.

use std::time::Duration;

use serde_json::{Value, json};

use crate::support::fake_ombi::state_writes::SendFailure;
use crate::support::fake_ombi::{ADMIN_USER, API_KEY, Fault, LoggedRequest, Options, PLAIN_USER};
use crate::support::rig::{Rig, err_code, err_message, fields, ok_data};

/// A rig acting as the Ombi admin `alice` (api_key mode, `UserName: alice`).
async fn as_alice() -> Rig {
    Rig::start_with(Options::default(), Some(ADMIN_USER)).await
}

/// The only write (non-GET) the fake received.
fn the_write(h: &Rig) -> LoggedRequest {
    let writes: Vec<LoggedRequest> = h
        .fake
        .requests()
        .into_iter()
        .filter(|r| r.method != "GET")
        .collect();
    assert_eq!(writes.len(), 1, "exactly one write: {:?}", h.paths());
    writes.into_iter().next().unwrap()
}

/// Method, path, `UserName` and JSON body of a logged request.
fn wire(r: &LoggedRequest) -> (String, String, Option<String>, Value) {
    let body = if r.body.is_empty() {
        Value::Null
    } else {
        serde_json::from_str(&r.body).expect("a JSON body")
    };
    (
        r.method.clone(),
        r.path.clone(),
        r.header("UserName").map(str::to_string),
        body,
    )
}

fn no_write(h: &Rig) {
    let writes: Vec<String> = h
        .paths()
        .into_iter()
        .filter(|p| !p.starts_with("GET "))
        .collect();
    assert!(writes.is_empty(), "nothing may be sent: {writes:?}");
}

fn movie(h: &Rig, id: i64) -> Option<Value> {
    h.fake.with_data(|d| d.movie_request(id).cloned())
}

fn child(h: &Rig, id: i64) -> Option<Value> {
    h.fake.with_data(|d| {
        d.requests
            .tv_parents
            .iter()
            .flat_map(|p| p["childRequests"].as_array().cloned().unwrap_or_default())
            .find(|c| c["id"] == json!(id))
    })
}

fn parent(h: &Rig, id: i64) -> Option<Value> {
    h.fake.with_data(|d| {
        d.requests
            .tv_parents
            .iter()
            .find(|p| p["id"] == json!(id))
            .cloned()
    })
}

fn album(h: &Rig, id: i64) -> Option<Value> {
    h.fake.with_data(|d| {
        d.requests
            .albums
            .iter()
            .find(|a| a["id"] == json!(id))
            .cloned()
    })
}

/// write_request_moderate's `action` on request `id` of `media`.
async fn moderate(h: &Rig, action: &str, media: &str, id: i64) -> Value {
    let args = json!({"action": action, "media": media, "request_id": id});
    h.call("write_request_moderate", args).await
}

/// The *arr `target` refuses every send with `message`.
fn send_rejects(h: &Rig, target: &str, message: &str) {
    fail_send(h, target, SendFailure::Rejects(message.into()));
}

/// Every send to the *arr `target` throws `message` (Ombi queues it).
fn send_throws(h: &Rig, target: &str, message: &str) {
    fail_send(h, target, SendFailure::Throws(message.into()));
}

fn fail_send(h: &Rig, target: &str, failure: SendFailure) {
    h.fake
        .with_data(|d| d.writes.send_failures.insert(target.into(), failure));
}

/// The one write Ombi received: `method path` with the JSON `body`
/// (`Value::Null`: none), as alice.
fn assert_sent(h: &Rig, method: &str, path: &str, body: Value) {
    let want = (method.into(), path.into(), alice(), body);
    assert_eq!(wire(&the_write(h)), want);
}

fn alice() -> Option<String> {
    Some(ADMIN_USER.to_string())
}

// ------------------------------------------------------------ moderate

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
        ok_data(&env)["message"]
            .as_str()
            .unwrap()
            .starts_with("4K movie request 2")
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
    // the approval was read back before saying so
    assert_eq!(h.gets("/api/v1/Request/movie/info/2").len(), 1);
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
/// on the id, with no read-back.
#[tokio::test]
async fn approve_unknown_request_is_not_found_without_a_read_back() {
    let h = as_alice().await;
    let env = moderate(&h, "approve", "movie", 999).await;
    assert_eq!(err_code(&env), "NOT_FOUND");
    assert_eq!(env["error"]["field"], "/request_id");
    assert!(err_message(&env).contains("Request does not exist"));
    assert!(env.get("data").is_none());
    assert!(h.gets("/api/v1/Request/movie/info").is_empty());
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

/// api_key mode as alice (`OMBI_USER_NAME`) with a 1 s timeout.
async fn with_timeout() -> Rig {
    Rig::start_env(
        Options::default(),
        &[
            ("OMBI_AUTH_MODE", "api_key"),
            ("OMBI_API_KEY", API_KEY),
            ("OMBI_USER_NAME", ADMIN_USER),
            ("OMBI_HTTP_TIMEOUT", "1"),
        ],
    )
    .await
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

// ------------------------------------------------------------ options

fn plant_movie_overrides(h: &Rig, id: i64, root: i64, quality: i64) {
    h.fake.with_data(|d| {
        let m = d.movie_request_mut(id).unwrap();
        m["rootPathOverride"] = json!(root);
        m["qualityOverride"] = json!(quality);
    });
}

fn plant_parent_overrides(h: &Rig, id: i64, root: i64, quality: i64, language: i64) {
    h.fake.with_data(|d| {
        let p = d
            .requests
            .tv_parents
            .iter_mut()
            .find(|p| p["id"] == json!(id))
            .unwrap();
        p["rootFolder"] = json!(root);
        p["qualityOverride"] = json!(quality);
        p["languageProfile"] = json!(language);
    });
}

#[tokio::test]
async fn advanced_movie_reads_the_request_and_resends_the_value_not_given() {
    let h = as_alice().await;
    plant_movie_overrides(&h, 2, 4, 7);
    let env = h
        .call(
            "write_request_options",
            json!({"action": "advanced", "media": "movie", "request_id": 2, "options": {"quality_profile_id": 9}}),
        )
        .await;
    assert_eq!(
        h.paths(),
        vec![
            "GET /api/v1/Request/movie/info/2".to_string(),
            "POST /api/v2/Requests/movie/advancedoptions".to_string()
        ]
    );
    assert_sent(
        &h,
        "POST",
        "/api/v2/Requests/movie/advancedoptions",
        json!({"requestId": 2, "rootPathOverride": 4, "qualityOverride": 9}),
    );
    let d = ok_data(&env);
    assert_eq!(d["outcome"], "completed");
    assert_eq!(d["target"], json!({"kind": "movie", "id": 2}));
    assert_eq!(
        d["message"],
        "the movie request for *Interstellar* (request 2): overrides now root folder 4, quality profile 9"
    );
    let m = movie(&h, 2).unwrap();
    assert_eq!(
        fields(&m, &["rootPathOverride", "qualityOverride"]),
        json!([4, 9])
    );
}

#[tokio::test]
async fn advanced_tv_targets_the_parent_and_keeps_the_language_unless_given() {
    let h = as_alice().await;
    plant_parent_overrides(&h, 10, 3, 5, 1);
    let env = h
        .call(
            "write_request_options",
            json!({"action": "advanced", "media": "tv", "request_id": 10, "options": {"root_folder_id": 8}}),
        )
        .await;
    assert_sent(
        &h,
        "POST",
        "/api/v2/Requests/tv/advancedoptions",
        json!({"requestId": 10, "rootPathOverride": 8, "qualityOverride": 5, "languageProfile": 0}),
    );
    assert_eq!(
        ok_data(&env)["target"],
        json!({"kind": "tv_parent", "id": 10})
    );
    let p = parent(&h, 10).unwrap();
    assert_eq!(
        fields(&p, &["rootFolder", "qualityOverride", "languageProfile"]),
        json!([8, 5, 1])
    );

    let h = as_alice().await;
    plant_parent_overrides(&h, 10, 3, 5, 1);
    h.ok(
        "write_request_options",
        json!({"action": "advanced", "media": "tv", "request_id": 10, "options": {"language_profile_id": 2, "quality_profile_id": 0}}),
    )
    .await;
    assert_eq!(
        wire(&the_write(&h)).3,
        json!({"requestId": 10, "rootPathOverride": 3, "qualityOverride": 0, "languageProfile": 2})
    );
    let p = parent(&h, 10).unwrap();
    assert_eq!(
        fields(&p, &["rootFolder", "qualityOverride", "languageProfile"]),
        json!([3, 0, 2])
    );
}

#[tokio::test]
async fn advanced_refuses_a_language_for_movies_clearing_it_for_tv_and_empty_options() {
    for (args, field) in [
        (
            json!({"action": "advanced", "media": "movie", "request_id": 2, "options": {"language_profile_id": 2}}),
            "/options/language_profile_id",
        ),
        (
            json!({"action": "advanced", "media": "tv", "request_id": 10, "options": {"language_profile_id": 0}}),
            "/options/language_profile_id",
        ),
        (
            json!({"action": "advanced", "media": "tv", "request_id": 10, "options": {}}),
            "/options",
        ),
    ] {
        let h = as_alice().await;
        let env = h.call("write_request_options", args.clone()).await;
        assert_eq!(err_code(&env), "INVALID_ARGUMENT", "{args}");
        assert_eq!(env["error"]["field"], field, "{args}");
        assert!(h.fake.requests().is_empty(), "{args}: nothing read or sent");
    }
}

#[tokio::test]
async fn advanced_on_an_unknown_request_is_not_found_and_sends_nothing() {
    let h = as_alice().await;
    let env = h
        .call(
            "write_request_options",
            json!({"action": "advanced", "media": "movie", "request_id": 999, "options": {"root_folder_id": 1}}),
        )
        .await;
    assert_eq!(err_code(&env), "NOT_FOUND");
    no_write(&h);
}

#[tokio::test]
async fn tv_root_and_quality_put_the_parent_and_value_in_the_route() {
    for (action, arg, value, path, key) in [
        (
            "tv_root",
            "root_folder_id",
            4,
            "/api/v1/Request/tv/root/10/4",
            "rootFolder",
        ),
        (
            "tv_quality",
            "quality_profile_id",
            6,
            "/api/v1/Request/tv/quality/10/6",
            "qualityOverride",
        ),
    ] {
        let h = as_alice().await;
        let env = h
            .call(
                "write_request_options",
                json!({"action": action, "parent_request_id": 10, arg: value}),
            )
            .await;
        assert_sent(&h, "PUT", path, Value::Null);
        let d = ok_data(&env);
        assert_eq!(d["target"], json!({"kind": "tv_parent", "id": 10}));
        assert_eq!(parent(&h, 10).unwrap()[key], value);
    }
    let h = as_alice().await;
    let env = h
        .call(
            "write_request_options",
            json!({"action": "tv_root", "parent_request_id": 999, "root_folder_id": 4}),
        )
        .await;
    assert_eq!(err_code(&env), "NOT_FOUND");
}

// ------------------------------------------------------------ reprocess

#[tokio::test]
async fn reprocess_movie_resends_an_approved_request_as_accepted() {
    let h = as_alice().await;
    let env = h
        .call(
            "write_request_reprocess",
            json!({"request_type": "movie", "request_id": 1}),
        )
        .await;
    assert_sent(
        &h,
        "POST",
        "/api/v2/Requests/reprocess/1/1/false",
        Value::Null,
    );
    let d = ok_data(&env);
    assert_eq!(d["outcome"], "accepted");
    assert_eq!(d["target"], json!({"kind": "movie", "id": 1}));
    assert!(d["message"].as_str().unwrap().contains("retry_queue"));
    assert_eq!(env["warnings"], json!([]));
    assert!(
        h.fake
            .with_data(|d| d.writes.sent.contains(&("radarr".into(), 1)))
    );
}

#[tokio::test]
async fn reprocess_tv_uses_the_child_id_and_completes() {
    let h = as_alice().await;
    let env = h
        .call(
            "write_request_reprocess",
            json!({"request_type": "tv", "request_id": 1396}),
        )
        .await;
    assert_sent(
        &h,
        "POST",
        "/api/v2/Requests/reprocess/0/1396/false",
        Value::Null,
    );
    let d = ok_data(&env);
    assert_eq!(d["outcome"], "completed");
    assert_eq!(d["target"], json!({"kind": "tv_child", "id": 1396}));
    assert!(
        h.fake
            .with_data(|d| d.writes.sent.contains(&("sonarr".into(), 1396)))
    );
}

#[tokio::test]
async fn reprocess_of_a_request_that_is_not_approved_is_refused_unsent() {
    for (media, id) in [("movie", 2), ("tv", 12)] {
        let h = as_alice().await;
        let env = h
            .call(
                "write_request_reprocess",
                json!({"request_type": media, "request_id": id}),
            )
            .await;
        assert_eq!(err_code(&env), "INVALID_ARGUMENT", "{media}");
        assert_eq!(env["error"]["field"], "/request_id");
        assert!(err_message(&env).contains("approve it first"));
        no_write(&h);
    }
    // a 4K reprocess looks at the 4K approval
    let h = as_alice().await;
    let env = h
        .call(
            "write_request_reprocess",
            json!({"request_type": "movie", "request_id": 1, "is_4k": true}),
        )
        .await;
    assert_eq!(err_code(&env), "INVALID_ARGUMENT");
    no_write(&h);
}

#[tokio::test]
async fn reprocess_tv_when_sonarr_throws_is_accepted_as_queued() {
    let h = as_alice().await;
    send_throws(&h, "sonarr", "timeout");
    let env = h
        .call(
            "write_request_reprocess",
            json!({"request_type": "tv", "request_id": 1396}),
        )
        .await;
    let d = ok_data(&env);
    assert_eq!(d["outcome"], "accepted");
    assert_eq!(
        fields(d, &["upstream_result", "upstream_is_error"]),
        json!([false, false])
    );
    assert!(d["message"].as_str().unwrap().contains("queued"));
    assert_eq!(env["warnings"], json!([]));
    assert!(h.fake.with_data(|d| {
        d.requests
            .retry
            .iter()
            .any(|r| r["requestId"] == json!(1396))
    }));
}

#[tokio::test]
async fn reprocess_movie_refused_by_radarr_is_rejected() {
    let h = as_alice().await;
    send_rejects(&h, "radarr", "Movie is already monitored");
    let env = h
        .call(
            "write_request_reprocess",
            json!({"request_type": "movie", "request_id": 1}),
        )
        .await;
    assert_eq!(err_code(&env), "UPSTREAM_REJECTED");
    assert!(err_message(&env).contains("already monitored"));
}

// ------------------------------------------------------------ delete

#[tokio::test]
async fn delete_movie_and_album_use_their_routes_never_delete_all() {
    for (kind, id, path) in [
        ("movie", 2_i64, "/api/v1/Request/movie/2"),
        ("album", 5, "/api/v1/request/music/5"),
    ] {
        let h = as_alice().await;
        let env = h
            .call(
                "write_request_delete",
                json!({"target": {"kind": kind, "id": id}}),
            )
            .await;
        assert_sent(&h, "DELETE", path, Value::Null);
        let d = ok_data(&env);
        assert_eq!(d["outcome"], "completed");
        assert_eq!(d["target"], json!({"kind": kind, "id": id}));
        assert_eq!(d["affected_count"], 1);
        let gone = if kind == "movie" {
            movie(&h, id)
        } else {
            album(&h, id)
        };
        assert!(gone.is_none());
        assert_eq!(h.fake.hits("DELETE", "/api/v1/Request/movie/all"), 0);
    }
}

#[tokio::test]
async fn delete_unknown_movie_is_not_found() {
    let h = as_alice().await;
    let env = h
        .call(
            "write_request_delete",
            json!({"target": {"kind": "movie", "id": 999}}),
        )
        .await;
    assert_eq!(err_code(&env), "NOT_FOUND");
}

#[tokio::test]
async fn delete_tv_child_keeps_a_parent_with_other_children() {
    let h = as_alice().await;
    let env = h
        .call(
            "write_request_delete",
            json!({"target": {"kind": "tv_child", "id": 12}}),
        )
        .await;
    assert_sent(&h, "DELETE", "/api/v1/Request/tv/child/12", Value::Null);
    let d = ok_data(&env);
    assert_eq!(d["target"], json!({"kind": "tv_child", "id": 12}));
    assert_eq!(d["affected_count"], 1);
    assert!(d.get("item_results").is_none());
    assert_eq!(env["warnings"], json!([]));
    assert!(child(&h, 12).is_none() && parent(&h, 10).is_some());
}

#[tokio::test]
async fn delete_last_tv_child_reports_the_parent_deleted_with_it() {
    let h = as_alice().await;
    let env = h
        .call(
            "write_request_delete",
            json!({"target": {"kind": "tv_child", "id": 21}}),
        )
        .await;
    let d = ok_data(&env);
    assert_eq!(d["outcome"], "completed");
    assert_eq!(d["affected_count"], 2);
    assert_eq!(
        d["item_results"],
        json!([
            {"identifier": "tv_child:21", "outcome": "completed"},
            {"identifier": "tv_parent:20", "outcome": "completed", "message": "deleted by Ombi with its last child request"}
        ])
    );
    assert!(
        env["warnings"][0]
            .as_str()
            .unwrap()
            .contains("TV parent request 20")
    );
    assert!(parent(&h, 20).is_none());
    // the parent was read back after the delete
    assert_eq!(h.paths().last().unwrap(), "GET /api/v1/Request/tv/20");
}

#[tokio::test]
async fn delete_tv_parent_reads_its_children_and_confirms_the_empty_answer() {
    let h = as_alice().await;
    let env = h
        .call(
            "write_request_delete",
            json!({"target": {"kind": "tv_parent", "id": 10}}),
        )
        .await;
    assert_eq!(
        h.paths(),
        vec![
            "GET /api/v1/Request/tv/10".to_string(),
            "DELETE /api/v1/Request/tv/10".to_string(),
            "GET /api/v1/Request/tv/10".to_string()
        ]
    );
    assert_eq!(the_write(&h).header("UserName"), Some(ADMIN_USER));
    let d = ok_data(&env);
    assert_eq!(d["target"], json!({"kind": "tv_parent", "id": 10}));
    assert_eq!(d["affected_count"], 3);
    let ids: Vec<&str> = d["item_results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["identifier"].as_str().unwrap())
        .collect();
    assert_eq!(ids, vec!["tv_child:1396", "tv_child:12"]);
    assert!(parent(&h, 10).is_none());
}

#[tokio::test]
async fn manage_own_requests_may_delete_only_their_own() {
    let mut options = Options::default();
    for u in options.users.iter_mut().filter(|u| u.0 == PLAIN_USER) {
        u.2.push("ManageOwnRequests".into());
    }
    let h = Rig::start_with(options, Some(PLAIN_USER)).await;
    // movie 3 is alice's
    let env = h
        .call(
            "write_request_delete",
            json!({"target": {"kind": "movie", "id": 3}}),
        )
        .await;
    // `errorCode: NoPermissions` (BaseMediaEngine.cs CheckCanManageRequest).
    assert_eq!(err_code(&env), "FORBIDDEN");
    assert!(err_message(&env).contains("NoPermissions"));
    assert!(movie(&h, 3).is_some());
    // movie 2 is bob's
    h.ok(
        "write_request_delete",
        json!({"target": {"kind": "movie", "id": 2}}),
    )
    .await;
    assert!(movie(&h, 2).is_none());
}

// ------------------------------------------------------------ issues

fn issue(h: &Rig, id: i64) -> Option<Value> {
    h.fake
        .with_data(|d| d.issues.iter().find(|i| i["id"] == json!(id)).cloned())
}

#[tokio::test]
async fn set_status_posts_the_status_code() {
    let h = as_alice().await;
    let env = h
        .call(
            "write_issue_manage",
            json!({"action": "set_status", "issue_id": 1, "status": "resolved"}),
        )
        .await;
    assert_sent(
        &h,
        "POST",
        "/api/v1/Issues/status",
        json!({"issueId": 1, "status": 2}),
    );
    let d = ok_data(&env);
    assert_eq!(fields(d, &["outcome", "issue_id"]), json!(["completed", 1]));
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .contains("notifies the reporter")
    );
    let i = issue(&h, 1).unwrap();
    assert_eq!(i["status"], 2);
    assert!(i["resovledDate"].is_string());

    let h = as_alice().await;
    h.ok(
        "write_issue_manage",
        json!({"action": "set_status", "issue_id": 1, "status": "closed"}),
    )
    .await;
    assert_eq!(wire(&the_write(&h)).3, json!({"issueId": 1, "status": 3}));
}

#[tokio::test]
async fn set_status_or_delete_of_an_unknown_issue_is_not_found() {
    for args in [
        json!({"action": "set_status", "issue_id": 999, "status": "pending"}),
        json!({"action": "delete", "issue_id": 999}),
    ] {
        let h = as_alice().await;
        let env = h.call("write_issue_manage", args.clone()).await;
        assert_eq!(err_code(&env), "NOT_FOUND", "{args}");
    }
}

#[tokio::test]
async fn delete_issue_takes_its_comments() {
    let h = as_alice().await;
    let env = h
        .call(
            "write_issue_manage",
            json!({"action": "delete", "issue_id": 1}),
        )
        .await;
    assert_sent(&h, "DELETE", "/api/v1/Issues/1", Value::Null);
    assert_eq!(ok_data(&env)["issue_id"], 1);
    assert!(issue(&h, 1).is_none());
    assert!(
        h.fake
            .with_data(|d| d.comments.iter().all(|c| c["issuesId"] != json!(1)))
    );
}

#[tokio::test]
async fn create_category_resolves_the_new_id_by_reading_before_and_after() {
    let h = as_alice().await;
    let env = h
        .call(
            "write_issue_manage",
            json!({"action": "create_category", "name": "Video"}),
        )
        .await;
    assert_eq!(
        h.paths(),
        vec![
            "GET /api/v1/Issues/categories".to_string(),
            "POST /api/v1/Issues/categories".to_string(),
            "GET /api/v1/Issues/categories".to_string()
        ]
    );
    assert_sent(
        &h,
        "POST",
        "/api/v1/Issues/categories",
        json!({"value": "Video"}),
    );
    let d = ok_data(&env);
    let new_id = h.fake.with_data(|d| {
        d.writes
            .issue_categories
            .iter()
            .find(|c| c["value"] == "Video")
            .unwrap()["id"]
            .clone()
    });
    assert_eq!(d["category_id"], new_id);
    assert_eq!(env["warnings"], json!([]));

    // a second category of the same name: Ombi keeps both, the new id is still found
    let env = h
        .call(
            "write_issue_manage",
            json!({"action": "create_category", "name": "Video"}),
        )
        .await;
    let d = ok_data(&env);
    assert!(d["category_id"].as_i64().unwrap() > new_id.as_i64().unwrap());
    assert!(
        env["warnings"][0]
            .as_str()
            .unwrap()
            .contains("already exists")
    );
}

#[tokio::test]
async fn delete_category_with_issues_is_refused_naming_the_count() {
    let h = as_alice().await;
    let in_one = h.fake.with_data(|d| {
        d.issues
            .iter()
            .filter(|i| i["issueCategoryId"] == json!(1))
            .count()
    });
    assert!(in_one > 1);
    let env = h
        .call(
            "write_issue_manage",
            json!({"action": "delete_category", "category_id": 1}),
        )
        .await;
    assert_eq!(err_code(&env), "CONFLICT");
    let msg = err_message(&env);
    assert!(
        msg.contains(&format!("still has {in_one} issue(s)")),
        "{msg}"
    );
    no_write(&h);
    // every status was looked at
    for status in 0..=3 {
        assert_eq!(h.gets(&format!("/api/v1/Issues/100/0/{status}")).len(), 1);
    }
    assert_eq!(issue(&h, 1).unwrap()["issueCategoryId"], 1);
}

#[tokio::test]
async fn delete_empty_category_and_unknown_category() {
    let h = as_alice().await;
    let env = h
        .call(
            "write_issue_manage",
            json!({"action": "delete_category", "category_id": 3}),
        )
        .await;
    assert_sent(&h, "DELETE", "/api/v1/Issues/categories/3", Value::Null);
    let d = ok_data(&env);
    assert_eq!(
        fields(d, &["outcome", "category_id"]),
        json!(["completed", 3])
    );
    assert!(h.fake.with_data(|d| {
        d.writes
            .issue_categories
            .iter()
            .all(|c| c["id"] != json!(3))
    }));

    let h = as_alice().await;
    let env = h
        .call(
            "write_issue_manage",
            json!({"action": "delete_category", "category_id": 99}),
        )
        .await;
    assert_eq!(err_code(&env), "NOT_FOUND");
    no_write(&h);
}

#[tokio::test]
async fn delete_comment_and_an_unknown_comment() {
    let h = as_alice().await;
    let env = h
        .call(
            "write_issue_manage",
            json!({"action": "delete_comment", "comment_id": 2}),
        )
        .await;
    assert_sent(&h, "DELETE", "/api/v1/Issues/comments/2", Value::Null);
    assert_eq!(ok_data(&env)["comment_id"], 2);
    assert!(
        h.fake
            .with_data(|d| d.comments.iter().all(|c| c["id"] != json!(2)))
    );

    let env = h
        .call(
            "write_issue_manage",
            json!({"action": "delete_comment", "comment_id": 999}),
        )
        .await;
    assert_eq!(err_code(&env), "NOT_FOUND");
}

#[tokio::test]
async fn timeout_after_an_issue_delete_is_unknown_outcome_sent_once() {
    let h = with_timeout().await;
    h.fake
        .add_fault(Fault::on("DELETE", "/api/v1/Issues/1").apply_then_hang());
    let started = std::time::Instant::now();
    let env = h
        .call(
            "write_issue_manage",
            json!({"action": "delete", "issue_id": 1}),
        )
        .await;
    assert_eq!(err_code(&env), "UNKNOWN_OUTCOME");
    assert_eq!(env["error"]["retryable"], false);
    assert_eq!(h.fake.hits("DELETE", "/api/v1/Issues/1"), 1);
    assert!(issue(&h, 1).is_none());
    assert!(started.elapsed() < Duration::from_secs(10));
}
