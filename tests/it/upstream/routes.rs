//! Routes, typed helpers and bounded reading against the fake over loopback.

use std::time::{Duration, Instant};

use ombi_mcp::contract::ErrorCode;
use ombi_mcp::upstream::{RequestEngineResult, Route, VoteEngineResult};
use serde::Deserialize;
use serde_json::json;

use crate::support;
use crate::support::client;
use crate::support::fake_ombi::{ADMIN_PASSWORD, ADMIN_USER, API_KEY, FakeOmbi, Fault, Options};

#[derive(Deserialize, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
struct MovieRequestRow {
    id: i64,
    the_movie_db_id: i64,
    title: String,
    approved: bool,
    denied: Option<bool>,
    marked_as_approved: String,
}

/// A projection reads only what it needs; `seasonRequests` is skipped by serde.
#[derive(Deserialize, Debug)]
#[serde(rename_all = "camelCase")]
struct TvRow {
    id: i64,
    title: String,
}

async fn prefixed() -> (FakeOmbi, ombi_mcp::upstream::Upstream) {
    let fake = FakeOmbi::start(Options {
        base_path: Some("/ombi".into()),
        ..Options::default()
    })
    .await;
    // OMBI_URL without the trailing slash: the prefix must survive.
    let url = fake.url.trim_end_matches('/').to_string();
    assert!(url.ends_with("/ombi"));
    let up = client::jwt(&url, ADMIN_USER, ADMIN_PASSWORD);
    (fake, up)
}

#[tokio::test]
async fn keeps_the_prefix_and_encodes_hostile_titles_as_one_segment() {
    let (fake, up) = prefixed().await;
    for (term, raw) in [
        (
            "a/b?c#d %e",
            "/ombi/api/v2/Search/multi/a%2Fb%3Fc%23d%20%25e",
        ),
        (
            "Amélie 日本",
            "/ombi/api/v2/Search/multi/Am%C3%A9lie%20%E6%97%A5%E6%9C%AC",
        ),
        ("matrix", "/ombi/api/v2/Search/multi/matrix"),
    ] {
        let found = up
            .get_array::<serde_json::Value>(
                None,
                Route::post_read("api/v2/Search/multi").seg(term).json(
                    &json!({"movies": true, "tvShows": true, "music": false, "people": false}),
                ),
            )
            .await
            .unwrap();
        let last = fake.requests().pop().unwrap();
        assert_eq!(last.raw_path, raw);
        assert!(last.query.is_none());
        if term == "matrix" {
            assert_eq!(found.value[0]["id"], "603");
            assert_eq!(found.value[0]["title"], "The Matrix (1999)");
        } else {
            assert!(found.value.is_empty());
        }
    }
    assert_eq!(fake.requests()[0].raw_path, "/ombi/api/v1/Token");
}

#[tokio::test]
async fn query_pairs_are_encoded_and_unknown_routes_are_not_success() {
    let (fake, up) = prefixed().await;
    let e = up
        .get_json::<serde_json::Value>(
            None,
            Route::get("api/v1/NoSuchRoute").query("searchTerm", "a&b=c d"),
        )
        .await
        .unwrap_err();
    assert_eq!(
        fake.requests().pop().unwrap().query.as_deref(),
        Some("searchTerm=a%26b%3Dc+d")
    );
    // The SPA answers unknown GET routes with 200 text/html.
    assert_eq!(
        (e.code, e.http_status),
        (ErrorCode::UpstreamSchemaMismatch, Some(200))
    );
    assert!(e.message.contains("route was not found"), "{}", e.message);
    // Other verbs get a 500 from the SPA middleware.
    let e = up
        .write::<bool>(None, Route::post("api/v1/Nothing/here"))
        .await
        .unwrap_err();
    assert_eq!(e.code, ErrorCode::UpstreamSchemaMismatch);
}

#[tokio::test]
async fn typed_get_and_204() {
    let fake = FakeOmbi::start(Options::default()).await;
    let up = client::api_key(&fake.url, API_KEY, None);
    let row = up
        .get_json::<MovieRequestRow>(None, Route::get("api/v1/Request/movie/info").seg(1))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (
            row.id,
            row.the_movie_db_id,
            row.title.as_str(),
            row.approved
        ),
        (1, 603, "The Matrix", true)
    );
    let pending = up
        .get_json::<MovieRequestRow>(None, Route::get("api/v1/Request/movie/info").seg(2))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (pending.denied, pending.marked_as_approved.as_str()),
        (None, "0001-01-01T00:00:00Z")
    );
    fake.add_fault(Fault::on("GET", "/api/v1/Request/movie/info/9").no_content());
    let none = up
        .get_json::<MovieRequestRow>(None, Route::get("api/v1/Request/movie/info").seg(9))
        .await
        .unwrap();
    assert!(none.is_none());
    #[derive(Deserialize)]
    struct Page {
        collection: Vec<MovieRequestRow>,
        total: i64,
    }
    let page = up
        .get_json::<Page>(
            None,
            Route::get("api/v2/Requests/movie")
                .seg(2)
                .seg(0)
                .seg("requestedDate")
                .seg("desc"),
        )
        .await
        .unwrap()
        .unwrap();
    assert_eq!((page.collection.len(), page.total), (2, 3));
}

/// Audit #2: a 200 whose body is the JSON literal `null` is an empty list
/// (04-results.md group_page), not a schema mismatch; other scalars still are.
#[tokio::test]
async fn a_null_list_body_is_an_empty_list() {
    let fake = FakeOmbi::start(Options::default()).await;
    let up = client::api_key(&fake.url, API_KEY, None);
    let route = || Route::get("api/v2/Issues").seg(0).seg(20).seg(0);
    fake.add_fault(
        Fault::on("GET", "/api/v2/Issues/0/20/0")
            .respond(200, Some("application/json; charset=utf-8"), " null\n")
            .times(1),
    );
    let got = up
        .get_array::<serde_json::Value>(None, route())
        .await
        .unwrap();
    assert!(got.value.is_empty() && !got.cut);
    fake.add_fault(
        Fault::on("GET", "/api/v2/Issues/0/20/0")
            .respond(200, Some("application/json"), "true")
            .times(1),
    );
    let err = up
        .get_array::<serde_json::Value>(None, route())
        .await
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::UpstreamSchemaMismatch);
}

/// Audit #21: GETs Ombi has no route for answer the SPA page (HTML 200),
/// in the fake too: an unknown vote type or notification agent.
#[tokio::test]
async fn unrouted_gets_are_the_spa_page() {
    let fake = FakeOmbi::start(Options::default()).await;
    let up = client::api_key(&fake.url, API_KEY, None);
    for route in [
        Route::get("api/v1/Vote").seg("book").seg(1),
        Route::get("api/v1/Settings/notifications/carrierpigeon"),
    ] {
        let err = up
            .get_json::<serde_json::Value>(None, route)
            .await
            .unwrap_err();
        assert_eq!(err.code, ErrorCode::UpstreamSchemaMismatch);
        assert_eq!(err.http_status, Some(200));
    }
}

#[tokio::test]
async fn writes_map_business_results() {
    let fake = FakeOmbi::start(Options::default()).await;
    let up = client::jwt(&fake.url, ADMIN_USER, ADMIN_PASSWORD);
    let ok: RequestEngineResult = up
        .write(
            None,
            Route::post("api/v1/Request/movie/approve").json(&json!({"id": 2, "is4K": false})),
        )
        .await
        .unwrap();
    // Ombi's approve answers no request id (docs/ombi-notes.md, "Write routes").
    assert!(ok.result);
    assert_eq!(ok.request_id, 0);
    let e = up
        .write::<RequestEngineResult>(
            None,
            Route::post("api/v1/Request/movie/approve").json(&json!({"id": 77, "is4K": false})),
        )
        .await
        .unwrap_err();
    // An unknown id on a 200 is NOT_FOUND (docs/ombi-notes.md, "Refusals
    // and what they mean").
    assert_eq!((e.code, e.http_status), (ErrorCode::NotFound, Some(200)));
    assert!(
        e.message.contains("Request does not exist"),
        "{}",
        e.message
    );
    let created: RequestEngineResult = up
        .write(
            None,
            Route::post("api/v1/Request/movie")
                .json(&json!({"theMovieDbId": 27205, "languageCode": "en", "is4kRequest": false})),
        )
        .await
        .unwrap();
    assert!(created.request_id > 0);
    assert_eq!(
        created.message.as_deref(),
        Some("Inception (2010) has been successfully added!")
    );
    let e = up
        .write::<RequestEngineResult>(
            None,
            Route::post("api/v1/Request/movie").json(&json!({"theMovieDbId": 27205})),
        )
        .await
        .unwrap_err();
    assert_eq!(e.code, ErrorCode::Conflict, "{}", e.message);
    let deny: RequestEngineResult = up
        .write(
            None,
            Route::put("api/v1/Request/movie/deny")
                .json(&json!({"id": 2, "is4K": false, "reason": "no"})),
        )
        .await
        .unwrap();
    assert_eq!(
        deny.message.as_deref(),
        Some("Request successfully deleted")
    );
    let v: VoteEngineResult = up
        .write(None, Route::post("api/v1/Vote/up/movie").seg(2))
        .await
        .unwrap();
    assert!(v.result);
    let e = up
        .write::<VoteEngineResult>(None, Route::post("api/v1/Vote/up/movie").seg(2))
        .await
        .unwrap_err();
    assert_eq!(e.code, ErrorCode::Conflict);
    assert!(e.message.contains("You have already voted!"));
    let comment = up
        .write_json::<serde_json::Value>(
            None,
            Route::post("api/v1/Issues/comments").json(&json!({"issueId": 1, "comment": "hi"})),
        )
        .await
        .unwrap()
        .unwrap();
    assert_eq!(comment["comment"], "hi");
    let none = up
        .write_json::<serde_json::Value>(
            None,
            Route::post("api/v1/Issues/comments").json(&json!({"issueId": 404, "comment": "x"})),
        )
        .await
        .unwrap();
    assert!(none.is_none(), "unknown issue: 204");
}

#[tokio::test]
async fn hydrated_tv_lists_parse_into_small_rows() {
    let fake = FakeOmbi::start(Options::default()).await;
    let up = client::api_key(&fake.url, API_KEY, None);
    let rows = up
        .get_array::<TvRow>(None, Route::get("api/v2/Search/tv/popular").seg(0).seg(2))
        .await
        .unwrap();
    assert!(!rows.cut);
    assert_eq!(
        rows.value
            .iter()
            .map(|r| (r.id, r.title.as_str()))
            .collect::<Vec<_>>(),
        [(1399, "Game of Thrones"), (1396, "Breaking Bad")]
    );
}

#[tokio::test]
async fn a_64_mib_array_returns_what_fits_in_8_mib_within_the_deadline() {
    let fake = FakeOmbi::start(Options::default()).await;
    fake.add_fault(Fault::on("GET", "/api/v2/Search/tv/popular/*").oversized(64 * 1024 * 1024));
    let up = client::jwt_timeout(&fake.url, ADMIN_USER, ADMIN_PASSWORD, 5);
    let started = Instant::now();
    let rows = up
        .get_array::<TvRow>(
            None,
            Route::get("api/v2/Search/tv/popular").seg(0).seg(100_000),
        )
        .await
        .unwrap();
    // The read ended inside its 5 s deadline (else an error); the margin is
    // for the parsing after it on a loaded machine.
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    assert!(rows.cut, "the cut is reported");
    let n = rows.value.len();
    assert!(n > 100, "{n} rows");
    // Ids are 1..=n in order: every element before the cap, none after.
    assert!(
        rows.value
            .iter()
            .enumerate()
            .all(|(i, r)| r.id == i as i64 + 1 && r.title == "Generated Show")
    );
    let element = support::fake_ombi::state::search_tv(0, "Generated Show", 10, 24)
        .to_string()
        .len();
    assert!(
        n * element <= 8 * 1024 * 1024 && (n + 2) * element > 8 * 1024 * 1024,
        "{n} × {element}"
    );
    // A non-list body over the cap is an error, not a partial parse.
    let e = up
        .get_json::<serde_json::Value>(None, Route::get("api/v2/Search/tv/popular").seg(0).seg(1))
        .await
        .unwrap_err();
    assert_eq!(e.code, ErrorCode::UpstreamSchemaMismatch);
    assert!(e.message.contains("8 MiB"), "{}", e.message);
}

#[tokio::test]
async fn log_files_are_read_as_capped_text() {
    let fake = FakeOmbi::start(Options::default()).await;
    let up = client::api_key(&fake.url, API_KEY, None);
    let names = up
        .get_array::<String>(None, Route::get("api/v2/System/logs"))
        .await
        .unwrap();
    assert_eq!(names.value, ["log20260502.txt", "log20260501.txt"]);
    let whole = up
        .get_text(
            None,
            Route::get("api/v2/System/logs").seg("log20260501.txt"),
            1 << 20,
        )
        .await
        .unwrap();
    assert!(!whole.cut);
    assert_eq!(whole.value.lines().count(), 3);
    assert_eq!(
        fake.requests().pop().unwrap().header("accept"),
        Some("text/plain")
    );
    let head = up
        .get_text(
            None,
            Route::get("api/v2/System/logs").seg("log20260502.txt"),
            200,
        )
        .await
        .unwrap();
    assert!(head.cut);
    assert_eq!(head.value.len(), 200);
    assert!(head.value.starts_with("2026-05-02 10:00:00.000"));
    // A bare ApiKey principal is Admin; a plain user is not.
    let bob = up
        .get_text(
            Some("bob"),
            Route::get("api/v2/System/logs").seg("log20260502.txt"),
            200,
        )
        .await
        .unwrap_err();
    assert_eq!(
        (bob.code, bob.http_status),
        (ErrorCode::Forbidden, Some(403))
    );
}
