//! The read tools against Ombi v4.59.3 as its C# behaves where it surprises
//! (docs/ombi-notes.md, one section per behaviour): the fake answers these
//! routes the way Ombi does, and each test pins what the tool makes of it.

use ombi_mcp::contract::ErrorCode;
use ombi_mcp::upstream::Route;
use serde_json::{Value, json};

use super::{get_request, read_requests};
use crate::support;
use crate::support::fake_ombi::state::library_item;
use crate::support::fake_ombi::state_requests::{tv_child, tv_parent};
use crate::support::fake_ombi::{API_KEY, Fault, Options};
use crate::support::rig::{Rig, err_code, items, ok_data, targets};

fn warnings(env: &Value) -> String {
    env["warnings"].to_string()
}

fn message(env: &Value) -> String {
    env["error"]["message"].as_str().unwrap_or("").to_string()
}

/// A second show titled like parent 10 ("Breaking Bad"), with child 31.
fn plant_same_title_show(h: &Rig) {
    h.fake.with_data(|d| {
        let mut child = tv_child(31, 30, "Breaking Bad", "bob", (1, 4), false, false);
        child["requestedDate"] = json!("2026-03-01T08:00:00Z");
        d.requests
            .tv_parents
            .push(tv_parent(30, 424242, 424243, "Breaking Bad", vec![child]));
    });
}

// ------------------------------------------------------------ 1: TV request search

#[tokio::test]
async fn tv_request_search_scans_the_v2_list_since_ombis_search_route_fails() {
    let h = Rig::start().await;
    let env = read_requests(&h, "search", json!({"media": "tv", "query": "bad"})).await;
    assert_eq!(targets(&env), vec![json!({"kind": "tv_parent", "id": 10})]);
    assert_eq!(items(&env)[0]["title"], "Breaking Bad");
    assert!(
        items(&env)[0]["identifiers"]
            .as_array()
            .unwrap()
            .contains(&json!({"namespace": "tvdb", "value": "81189"}))
    );
    assert!(h.gets("/api/v1/Request/tv/search").is_empty());
    assert_eq!(
        h.gets("/api/v2/Requests/tv")[0].path,
        "/api/v2/Requests/tv/100/0/requestedDate/desc"
    );
    // Ombi's own route: a 500 for every term.
    let fake = reqwest::Client::new()
        .get(format!("{}api/v1/Request/tv/search/bad", h.fake.url))
        .header("ApiKey", API_KEY)
        .send()
        .await
        .unwrap();
    assert_eq!(fake.status().as_u16(), 500);
}

#[tokio::test]
async fn tv_request_search_is_bounded_and_says_when_the_scan_was_cut() {
    let h = Rig::start().await;
    h.fake.with_data(|d| {
        d.requests.tv_parents = (1..=1005)
            .map(|i| {
                let child = tv_child(
                    5000 + i,
                    i,
                    &format!("Show {i}"),
                    "bob",
                    (1, 1),
                    false,
                    false,
                );
                tv_parent(
                    i,
                    700_000 + i,
                    800_000 + i,
                    &format!("Show {i}"),
                    vec![child],
                )
            })
            .collect();
    });
    let env = read_requests(
        &h,
        "search",
        json!({"media": "tv", "query": "show", "page": {"limit": 5}}),
    )
    .await;
    assert_eq!(items(&env).len(), 5);
    assert_eq!(env["truncated"], true);
    assert_eq!(ok_data(&env)["page"]["total"], Value::Null);
    assert_eq!(h.gets("/api/v2/Requests/tv").len(), 10);
}

// ------------------------------------------------------------ 2: recently added

#[tokio::test]
async fn recently_added_tv_keeps_every_show_and_groups_its_seasons() {
    let h = Rig::start().await;
    h.fake.with_data(|d| {
        d.library = (1..=5)
            .map(|i| {
                library_item(
                    100 + i,
                    "series",
                    &format!("Show {i}"),
                    Some(9000 + i),
                    None,
                    1,
                    &[(1, 1), (1, 2)],
                )
            })
            .collect();
        d.library.push(library_item(
            200,
            "series",
            "Two Seasons",
            Some(9200),
            None,
            2,
            &[(2, 1), (1, 3), (2, 2)],
        ));
    });
    let env = h
        .call(
            "read_library",
            json!({"action": "recently_added", "media": "tv"}),
        )
        .await;
    let titles: Vec<&str> = items(&env)
        .iter()
        .map(|i| i["title"].as_str().unwrap())
        .collect();
    assert_eq!(
        titles,
        [
            "Show 1",
            "Show 2",
            "Show 3",
            "Show 4",
            "Show 5",
            "Two Seasons"
        ]
    );
    assert_eq!(
        items(&env)[5]["seasons"],
        json!([
            {"season_number": 1, "episodes": [{"episode_number": 3}], "truncated": false},
            {"season_number": 2, "episodes": [{"episode_number": 1}, {"episode_number": 2}], "truncated": false}
        ])
    );
    assert_eq!(ok_data(&env)["page"]["total"], 6);
    assert!(h.gets("/api/v1/RecentlyAdded/tv/grouped").is_empty());
    assert_eq!(h.gets("/api/v1/RecentlyAdded/tv").len(), 1);
}

#[tokio::test]
async fn recently_added_stops_at_30_rows_so_a_full_answer_is_truncated() {
    let h = Rig::start().await;
    h.fake.with_data(|d| {
        d.library = (1..=31)
            .map(|i| library_item(i, "movie", &format!("Movie {i}"), Some(i), None, 1, &[]))
            .collect();
    });
    let env = h
        .call(
            "read_library",
            json!({"action": "recently_added", "media": "movie", "page": {"limit": 100}}),
        )
        .await;
    let page = &ok_data(&env)["page"];
    assert_eq!(items(&env).len(), 30);
    assert_eq!(env["truncated"], true);
    assert_eq!(
        (&page["total"], &page["has_more"]),
        (&Value::Null, &Value::Null)
    );
    assert!(warnings(&env).contains("30"), "{}", warnings(&env));
}

// ------------------------------------------------------------ 3: TV list paging

#[tokio::test]
async fn tv_list_pages_are_full_and_ombis_total_is_not_the_item_count() {
    let h = Rig::start().await;
    // 3 child requests, 2 show titles: Ombi lists 2 rows and says total 3.
    let page = |offset: u64| json!({"media": "tv", "page": {"offset": offset, "limit": 1}});
    let env = read_requests(&h, "list", page(0)).await;
    let p = &ok_data(&env)["page"];
    assert_eq!(items(&env).len(), 1);
    assert_eq!(
        (&p["total"], &p["has_more"], &p["next_offset"]),
        (&Value::Null, &json!(true), &json!(1))
    );
    assert!(warnings(&env).contains('3'), "{}", warnings(&env));
    assert!(!warnings(&env).contains("shorter"), "{}", warnings(&env));
    let env = read_requests(&h, "list", page(1)).await;
    let p = &ok_data(&env)["page"];
    assert_eq!(items(&env).len(), 1);
    assert_eq!(
        (&p["has_more"], &p["next_offset"]),
        (&json!(false), &Value::Null)
    );
    let env = read_requests(&h, "list", page(2)).await;
    assert!(items(&env).is_empty());
    assert_eq!(ok_data(&env)["page"]["has_more"], false);
}

#[tokio::test]
async fn a_child_of_a_same_title_show_is_found_through_the_parent_list() {
    let h = Rig::start().await;
    plant_same_title_show(&h);
    let env = get_request(&h, "tv_child", 31).await;
    let item = &items(&env)[0];
    assert_eq!(item["target"], json!({"kind": "tv_child", "id": 31}));
    assert_eq!(item["parent_request_id"], 30);
    assert!(
        item["identifiers"]
            .as_array()
            .unwrap()
            .contains(&json!({"namespace": "tmdb", "value": "424242"}))
    );
    assert!(!h.gets("/api/v1/Request/tvlite/").is_empty());
    // recent rows resolve the same way
    h.fake.with_data(|d| {
        d.requests.recent = vec![json!({"requestId": 31, "type": 0, "userId": "u", "username": "bob",
            "available": false, "tvPartiallyAvailable": false, "requestDate": "2026-03-01T08:00:00Z",
            "title": "Breaking Bad", "overview": null, "releaseDate": null, "approved": false, "denied": false,
            "mediaId": "0", "posterPath": null, "background": null})];
    });
    let env = read_requests(&h, "recent", json!({})).await;
    assert_eq!(targets(&env), vec![json!({"kind": "tv_parent", "id": 30})]);
}

#[tokio::test]
async fn an_unreachable_child_names_ombis_same_title_merge() {
    let h = Rig::start().await;
    plant_same_title_show(&h);
    h.fake
        .add_fault(Fault::on("GET", "/api/v1/Request/tvlite/*").nasty_500());
    let env = get_request(&h, "tv_child", 31).await;
    assert_eq!(err_code(&env), "NOT_FOUND");
    assert!(message(&env).contains("same title"), "{}", message(&env));
    // a child that exists nowhere, with every parent listed: a plain NOT_FOUND
    h.fake.clear_faults();
    let env = get_request(&h, "tv_child", 4242).await;
    assert_eq!(err_code(&env), "NOT_FOUND");
    assert!(
        message(&env).contains("all TV requests"),
        "{}",
        message(&env)
    );
}

// ------------------------------------------------------------ 4: watch providers

#[tokio::test]
async fn watch_providers_are_filtered_by_name_here_since_tmdb_ignores_the_term() {
    let h = Rig::start().await;
    let env = h
        .call(
            "read_reference",
            json!({"action": "watch_providers", "media": "movie", "query": "NET"}),
        )
        .await;
    let names: Vec<&str> = items(&env)
        .iter()
        .map(|i| i["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Netflix"]);
    assert_eq!(ok_data(&env)["page"]["total"], 1);
}

// ------------------------------------------------------------ 5: advanced discovery

#[tokio::test]
async fn advanced_discovery_offers_only_filters_ombi_applies() {
    let h = Rig::start().await;
    for (filters, field) in [
        (json!({"keyword_ids": [310]}), "/filters/keyword_ids"),
        (json!({"company_ids": [79]}), "/filters/company_ids"),
    ] {
        let env = h
            .call(
                "read_discover",
                json!({"action": "advanced", "media": "movie", "filters": filters}),
            )
            .await;
        assert_eq!(err_code(&env), "INVALID_ARGUMENT");
        assert_eq!(env["error"]["field"], field);
    }
    let env = h
        .call(
            "read_discover",
            json!({"action": "advanced", "media": "tv", "filters": {"release_year": 2016}}),
        )
        .await;
    assert_eq!(err_code(&env), "INVALID_ARGUMENT");
    assert_eq!(env["error"]["field"], "/filters/release_year");
    assert!(h.gets("/api/v2/Search/advancedSearch").is_empty());
    let schema =
        serde_json::to_string(&ombi_mcp::tools::find("read_discover").unwrap().mcp()).unwrap();
    assert!(!schema.contains("keyword_ids") && !schema.contains("company_ids"));
}

// ------------------------------------------------------------ 6: album subscribed

#[tokio::test]
async fn album_requests_carry_no_subscribed_flag() {
    let h = Rig::start().await;
    h.fake.with_data(|d| {
        for a in &mut d.requests.albums {
            a["subscribed"] = json!(true);
        }
    });
    for (action, args) in [
        ("list", json!({"media": "album"})),
        ("search", json!({"media": "album", "query": "k"})),
        ("get", json!({"target": {"kind": "album", "id": 6}})),
    ] {
        let env = read_requests(&h, action, args.clone()).await;
        assert!(!items(&env).is_empty(), "{action} {args}");
        for i in items(&env) {
            assert!(i.get("subscribed").is_none(), "{action} {args}: {i}");
        }
    }
}

// ------------------------------------------------------------ 7: quota dates

#[tokio::test]
async fn quota_placeholder_dates_before_1900_are_unknown() {
    let h = Rig::start().await;
    h.fake.with_data(|d| {
        d.requests.quotas = vec![(
            "movie".into(),
            Some(json!({"hasLimit": true, "limit": 5, "remaining": 5, "nextRequest": "0001-01-02T00:00:00Z"})),
        )];
    });
    let env = h
        .call(
            "read_request_stats",
            json!({"action": "quota", "media": "movie"}),
        )
        .await;
    let names: Vec<&str> = ok_data(&env)["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["has_limit", "limit", "remaining"]);
}

// ------------------------------------------------------------ 8: requested list

#[test]
fn discover_requested_is_described_as_recently_requested() {
    let tool = serde_json::to_string(&ombi_mcp::tools::find("read_discover").unwrap().mcp())
        .unwrap()
        .to_lowercase();
    assert!(!tool.contains("most requested"), "{tool}");
    assert!(tool.contains("recently requested"), "{tool}");
}

// ------------------------------------------------------------ 9: online users

#[tokio::test]
async fn online_users_show_an_alias_as_alias_never_as_the_user_name() {
    let h = Rig::start().await;
    let env = h.call("read_users", json!({"action": "online"})).await;
    assert_eq!(
        items(&env),
        &vec![
            json!({"id": items(&env)[0]["id"], "user_name": "alice", "alias": "Alice A.", "online": true}),
            json!({"id": items(&env)[1]["id"], "user_name": "bob", "online": true}),
        ]
    );
}

// ------------------------------------------------------------ 10: album reads without Lidarr

#[tokio::test]
async fn album_request_reads_need_no_lidarr() {
    let h = Rig::start().await;
    h.fake.with_data(|d| d.requests.lidarr_enabled = false);
    for (tool, args) in [
        ("read_requests", json!({"action": "list", "media": "album"})),
        (
            "read_requests",
            json!({"action": "search", "media": "album", "query": "kid"}),
        ),
        (
            "read_requests",
            json!({"action": "get", "target": {"kind": "album", "id": 5}}),
        ),
        (
            "read_votes",
            json!({"action": "for_request", "media": "album", "request_id": 5}),
        ),
    ] {
        let env = h.call(tool, args.clone()).await;
        assert_eq!(env["ok"], true, "{args}: {env:#}");
    }
    assert!(h.gets("/api/v1/Lidarr/enabled").is_empty());
    // searching for music still needs Lidarr
    let env = h
        .call(
            "read_search",
            json!({"action": "artist", "query": "radiohead"}),
        )
        .await;
    assert_eq!(err_code(&env), "UNSUPPORTED_CAPABILITY");
}

// ------------------------------------------------------------ 11: log redaction

#[tokio::test]
async fn log_lines_lose_password_reset_tokens() {
    let h = Rig::start().await;
    let token = "CfDJ8Hq3xZ9vKp2Lw0Rt5Ys7Ua1Bc4De6Fg8Hi0Jk2Lm4No6Pq8Rs0Tu2Vw4Xy6Za8Bc0De";
    h.fake.with_data(|d| {
        d.logs = vec![(
            "log20260601.txt".into(),
            format!("2026-06-01 10:00:00.000 +00:00 [Information] Password reset for bob (token {token})\n"),
        )];
    });
    let env = h
        .call(
            "read_logs",
            json!({"action": "read", "file_id": "log20260601.txt"}),
        )
        .await;
    let line = ok_data(&env)["lines"][0].as_str().unwrap().to_string();
    assert!(!line.contains(token) && !line.contains("CfDJ8"), "{line}");
    assert!(
        line.contains("Password reset for bob (token [REDACTED]"),
        "{line}"
    );
}

// ------------------------------------------------------------ 12: unknown acting user

#[tokio::test]
async fn an_unknown_acting_user_is_authentication_failed_not_a_network_error() {
    let h = Rig::start_with(Options::default(), Some("ghost")).await;
    let env = h.call("read_users", json!({"action": "me"})).await;
    assert_eq!(err_code(&env), "AUTHENTICATION_FAILED");
    assert_eq!(env["error"]["http_status"], 401, "the status line arrived");
    assert_eq!(env["error"]["retryable"], false);
    assert!(message(&env).contains("\"ghost\""), "{}", message(&env));
}

/// A connection cut before any status line, twice for the same acting user.
#[tokio::test]
async fn two_cut_connections_for_one_acting_user_are_authentication_failed() {
    use tokio::io::AsyncReadExt;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/", listener.local_addr().unwrap());
    let server = tokio::spawn(async move {
        loop {
            let (mut s, _) = listener.accept().await.unwrap();
            let mut buf = [0u8; 4096];
            let _ = s.read(&mut buf).await;
            drop(s);
        }
    });
    let as_ghost = support::client::api_key(&url, API_KEY, Some("ghost"));
    let e = as_ghost
        .get_json::<Value>(None, Route::get("api/v1/Identity"))
        .await
        .unwrap_err();
    assert_eq!(e.code, ErrorCode::AuthenticationFailed, "{e:?}");
    assert!(e.message.contains("\"ghost\""), "{}", e.message);
    // Without a UserName it stays a retryable network failure.
    let bare = support::client::api_key(&url, API_KEY, None);
    let e = bare
        .get_json::<Value>(None, Route::get("api/v1/Identity"))
        .await
        .unwrap_err();
    assert_eq!((e.code, e.retryable), (ErrorCode::UpstreamRejected, true));
    server.abort();
}

// ------------------------------------------------------------ 13: retry queue

#[tokio::test]
async fn a_deleted_request_in_the_retry_queue_is_explained_never_an_empty_queue() {
    let h = Rig::start().await;
    h.fake.with_data(|d| {
        d.requests.retry.push(json!({
            "failedId": 8, "title": null, "releaseYear": "0001-01-01T00:00:00Z", "requestId": 999, "type": 1,
            "dts": "2026-04-07T09:00:00Z", "retryCount": 1, "error": "Radarr timed out"
        }));
    });
    let env = read_requests(&h, "retry_queue", json!({})).await;
    assert_eq!(err_code(&env), "UPSTREAM_REJECTED");
    assert_eq!(env["error"]["http_status"], 500);
    assert!(message(&env).contains("deleted"), "{}", message(&env));
    assert!(env.get("data").is_none_or(Value::is_null));
}
