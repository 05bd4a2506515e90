//! `read_issues` against the fake Ombi: routes, projections, paging by status, provider summaries and
//! details, counts, and where Ombi files an issue for a movie.

use serde_json::{Value, json};

use crate::support;
use crate::support::fake_ombi::Fault;
use crate::support::fake_ombi::state_requests::issue;
use crate::support::rig::{Rig, err_code, fields, items, ok_data, warned};
use crate::tools::read_issues;

fn ids(env: &Value) -> Vec<i64> {
    items(env)
        .iter()
        .map(|i| i["id"].as_i64().unwrap())
        .collect()
}

#[tokio::test]
async fn list_by_status_pages_upstream_take_then_skip() {
    let h = Rig::start().await;
    let env = read_issues(
        &h,
        "list",
        json!({"status": "pending", "page": {"offset": 0, "limit": 1}}),
    )
    .await;
    assert_eq!(ids(&env), vec![1]);
    let page = &ok_data(&env)["page"];
    assert_eq!(fields(page, &["mode", "total"]), json!(["upstream", null]));
    // No total: a full page does not prove more (04-results: null when uncertain).
    assert_eq!(fields(page, &["has_more", "next_offset"]), json!([null, 1]));
    assert_eq!(h.gets("/api/v1/Issues/")[0].path, "/api/v1/Issues/1/0/0");
    let env = read_issues(&h, "list", json!({"status": "closed"})).await;
    assert_eq!(ids(&env), vec![4]);
    let first = &items(&env)[0];
    assert_eq!(
        fields(first, &["status", "status_code"]),
        json!(["closed", 3])
    );
    assert_eq!(h.gets("/api/v1/Issues/20/0/3").len(), 1);
}

/// Audit #10: without `status`, the bounded per-status route is read for
/// each status in turn (never the unbounded `GET /api/v1/Issues`), asking
/// only for what the window still needs plus one.
#[tokio::test]
async fn list_without_status_reads_each_status_bounded() {
    let h = Rig::start().await;
    let env = read_issues(&h, "list", json!({"page": {"offset": 1, "limit": 2}})).await;
    // pending 1, 5; in progress 2; resolved 3; closed 4
    assert_eq!(ids(&env), vec![5, 2]);
    let page = &ok_data(&env)["page"];
    // the extra record (3) proves more; closed was never needed, so no total
    assert_eq!(
        fields(page, &["total", "has_more", "next_offset"]),
        json!([null, true, 3])
    );
    let paths: Vec<String> = h
        .gets("/api/v1/Issues")
        .into_iter()
        .map(|r| r.path)
        .collect();
    assert_eq!(
        paths,
        [
            "/api/v1/Issues/4/0/0",
            "/api/v1/Issues/2/0/1",
            "/api/v1/Issues/1/0/2"
        ]
    );
    // a window past the end of every status: the whole set, so a total
    let env = read_issues(&h, "list", json!({})).await;
    assert_eq!(ids(&env), vec![1, 5, 2, 3, 4]);
    let page = &ok_data(&env)["page"];
    assert_eq!(fields(page, &["total", "has_more"]), json!([5, false]));
    assert_eq!(h.gets("/api/v1/Issues/21/0/0").len(), 1);
    assert_eq!(h.gets("/api/v1/Issues/17/0/3").len(), 1);
    // a window inside the pending issues: one read, more is proven, no total
    let env = read_issues(&h, "list", json!({"page": {"offset": 0, "limit": 1}})).await;
    assert_eq!(ids(&env), vec![1]);
    let page = &ok_data(&env)["page"];
    assert_eq!(fields(page, &["total", "has_more"]), json!([null, true]));
    assert_eq!(h.gets("/api/v1/Issues/2/0/0").len(), 1);
    assert!(
        h.gets("/api/v1/Issues/")
            .iter()
            .all(|r| r.path != "/api/v1/Issues")
    );
    assert!(!h.paths().iter().any(|p| p == "GET /api/v1/Issues"));
}

#[tokio::test]
async fn get_projects_one_issue_and_204_is_not_found() {
    let h = Rig::start().await;
    let env = read_issues(&h, "get", json!({"issue_id": 3})).await;
    let i = &items(&env)[0];
    assert_eq!(i["resolved_date"], "2026-04-06T09:00:00Z");
    assert_eq!(
        fields(i, &["status", "request_type", "request_type_code"]),
        json!(["resolved", "movie", 1])
    );
    assert!(i["reported_by_user_id"].is_string());
    assert!(i.get("userReported").is_none() && i.get("comments").is_none());
    let env = read_issues(&h, "get", json!({"issue_id": 99})).await;
    assert_eq!(err_code(&env), "NOT_FOUND");
}

#[tokio::test]
async fn by_request_filters_the_ambiguous_id_by_type() {
    let h = Rig::start().await;
    for (media, want) in [("movie", vec![1, 3]), ("album", vec![5])] {
        let args = json!({"request_type": media, "request_id": 1});
        assert_eq!(
            ids(&read_issues(&h, "by_request", args).await),
            want,
            "{media}"
        );
    }
    assert_eq!(h.gets("/api/v1/Issues/request/1").len(), 2);
}

#[tokio::test]
async fn by_provider_and_comments() {
    let h = Rig::start().await;
    let env = read_issues(&h, "by_provider", json!({"provider_id": "603"})).await;
    assert_eq!(ids(&env), vec![1, 3]);
    let env = read_issues(&h, "comments", json!({"issue_id": 1})).await;
    let data = ok_data(&env);
    assert_eq!(data["kind"], "comment_page");
    assert_eq!(data["page"]["unit"], "comments");
    assert_eq!(
        data["items"][0],
        json!({"id": 1, "issue_id": 1, "comment": "Looking into it", "author_name": "Alice A.",
               "admin_comment": true, "created_date": "2026-04-05T10:00:00Z"})
    );
    assert_eq!(h.gets("/api/v1/Issues/1/comments").len(), 1);
}

#[tokio::test]
async fn provider_summary_is_a_page_of_groups() {
    let h = Rig::start().await;
    let env = read_issues(&h, "provider_summary", json!({"status": "pending"})).await;
    let data = ok_data(&env);
    assert_eq!(data["kind"], "group_page");
    assert_eq!(data["page"]["unit"], "provider_groups");
    // issue 1 (603) and issue 5 (mbid-1) are pending
    assert_eq!(data["page"]["total"], 2);
    assert!(
        data["items"]
            .as_array()
            .unwrap()
            .iter()
            .all(|g| g.get("issues").is_none())
    );
    assert_eq!(
        h.gets("/api/v2/Issues/")[0].path,
        "/api/v2/Issues/0/10000/0"
    );
    // an empty body, null or [] is an empty page
    for body in ["", "null", "[]"] {
        h.fake
            .add_fault(Fault::on("GET", "/api/v2/Issues/0/10000/1").respond(
                200,
                Some("application/json"),
                body,
            ));
        let env = read_issues(&h, "provider_summary", json!({"status": "in_progress"})).await;
        assert_eq!(ok_data(&env)["items"], json!([]), "body {body:?}");
    }
    h.fake
        .add_fault(Fault::on("GET", "/api/v2/Issues/0/10000/1").no_content());
    let env = read_issues(&h, "provider_summary", json!({"status": "in_progress"})).await;
    assert_eq!(ok_data(&env)["items"], json!([]));
    // no status: pending, said in a warning
    let env = read_issues(&h, "provider_summary", json!({})).await;
    assert!(warned(&env, "pending"));
}

/// Audit #2/#20: Ombi can answer the summary with 200 `null`.
#[tokio::test]
async fn provider_summary_null_body_is_an_empty_page() {
    let h = Rig::start().await;
    h.fake
        .add_fault(Fault::on("GET", "/api/v2/Issues/*").respond(
            200,
            Some("application/json; charset=utf-8"),
            "null",
        ));
    let env = read_issues(&h, "provider_summary", json!({"status": "pending"})).await;
    let data = ok_data(&env);
    assert_eq!(data["kind"], "group_page");
    assert_eq!(data["items"], json!([]));
    assert_eq!(data["page"]["total"], 0);
}

/// Audit #13: an issue without a usable id is not a page claiming one issue.
#[tokio::test]
async fn get_of_an_issue_without_a_usable_id_is_a_schema_mismatch() {
    let h = Rig::start().await;
    h.fake
        .add_fault(Fault::on("GET", "/api/v1/Issues/1").respond(
            200,
            Some("application/json"),
            r#"{"id": 0, "title": "x", "status": 0}"#,
        ));
    let env = read_issues(&h, "get", json!({"issue_id": 1})).await;
    assert_eq!(err_code(&env), "UPSTREAM_SCHEMA_MISMATCH");
}

#[tokio::test]
async fn provider_details_strips_users_and_comments_and_204_is_empty() {
    let h = Rig::start().await;
    let env = read_issues(&h, "provider_details", json!({"provider_id": "603"})).await;
    let g = &items(&env)[0];
    assert_eq!(g["provider_id"], "603");
    assert_eq!(g["count"], 2);
    assert_eq!(g["issues"].as_array().unwrap().len(), 2);
    assert!(g["issues"][0].get("comments").is_none());
    let env = read_issues(&h, "provider_details", json!({"provider_id": "nothing"})).await;
    assert_eq!(ok_data(&env)["items"], json!([]));
    assert_eq!(ok_data(&env)["page"]["returned"], 0);
}

#[tokio::test]
async fn provider_details_truncates_nested_issues() {
    let h = Rig::start().await;
    h.fake.with_data(|d| {
        for n in 0..130 {
            d.issues.push(support::fake_ombi::state_requests::issue(
                100 + n,
                "Busy",
                1,
                Some("777"),
                None,
                0,
                "bob",
            ));
        }
    });
    let env = read_issues(&h, "provider_details", json!({"provider_id": "777"})).await;
    assert_eq!(items(&env)[0]["issues"].as_array().unwrap().len(), 100);
    assert_eq!(items(&env)[0]["count"], 130);
    assert_eq!(env["truncated"], true);
}

#[tokio::test]
async fn issue_counts_are_metrics() {
    let h = Rig::start().await;
    let env = read_issues(&h, "counts", json!({})).await;
    let v = ok_data(&env)["values"].as_array().unwrap().clone();
    assert_eq!(
        v[0],
        json!({"name": "pending", "value": 2, "scope": "instance", "unit": "issues"})
    );
    assert_eq!(v[1]["name"], "in_progress");
}

#[tokio::test]
async fn issue_errors_map_to_contract_codes() {
    let h = Rig::start().await;
    h.fake
        .add_fault(Fault::on("GET", "/api/v1/Issues/1/comments").nasty_500());
    let env = read_issues(&h, "comments", json!({"issue_id": 1})).await;
    assert_eq!(err_code(&env), "UPSTREAM_REJECTED");
    let env = read_issues(&h, "get", json!({})).await;
    assert_eq!(err_code(&env), "INVALID_ARGUMENT");
}

/// Ombi's UI files a movie's issues under its IMDb id: by_provider for a
/// movie finds those beside the TMDB-filed ones.
#[tokio::test]
async fn issues_by_provider_for_a_movie_find_its_imdb_filed_issues() {
    let h = Rig::start().await;
    h.fake.with_data(|d| {
        d.issues.push(issue(
            9,
            "The Matrix",
            1,
            Some("tt0133093"),
            Some(1),
            0,
            "bob",
        ))
    });
    for args in [
        json!({"action": "by_provider", "provider_id": "603", "request_type": "movie"}),
        json!({"action": "by_provider", "provider_id": "tt0133093"}),
    ] {
        let env = h.ok("read_issues", args.clone()).await;
        let mut ids: Vec<i64> = items(&env)
            .iter()
            .map(|i| i["id"].as_i64().unwrap())
            .collect();
        ids.sort();
        assert_eq!(ids, vec![1, 3, 9], "{args}: {env:#}");
    }
}

#[tokio::test]
async fn issues_name_their_reporter_beside_the_id() {
    let h = Rig::start().await;
    // issue 3 is alice's (alias "Alice A."), issue 4 bob's (no alias)
    let env = read_issues(&h, "get", json!({"issue_id": 3})).await;
    let i = &items(&env)[0];
    assert_eq!(
        fields(i, &["reported_by_user_id", "reported_by_user_name"]),
        json!([support::fake_ombi::state::user_id("alice"), "Alice A."])
    );
    let env = read_issues(&h, "get", json!({"issue_id": 4})).await;
    assert_eq!(items(&env)[0]["reported_by_user_name"], "bob");
    assert!(!env.to_string().contains("bob@example.org"));
}
