//! `read_requests` against the fake Ombi: the routes and queries Ombi receives (list, get, children,
//! search, recent, mine, the retry queue), the projected request pages, the bounded scans and budgets,
//! and where Ombi's answers surprise (search routes that fail, totals that are not item counts,
//! same-title shows, album requests without Lidarr).

use serde_json::{Value, json};

use crate::support;
use crate::support::fake_ombi::state::{movie_request, user_id};
use crate::support::fake_ombi::state_requests::{tv_child, tv_parent};
use crate::support::fake_ombi::{API_KEY, Fault, Options};
use crate::support::rig::{Rig, err_code, err_message, fields, items, ok_data, targets, warned};
use crate::tools::{get_request, message, page, read_requests, warnings};

/// 250 shows requested after the known ones: the scan pages through the v2
/// TV list (most recent first) 100 at a time and stops as soon as it has
/// what it needs. Child `5000 + n` is at position `249 - n`.
fn many_parents(d: &mut support::fake_ombi::Data) {
    use support::fake_ombi::state_requests::{tv_child, tv_parent};
    let mut parents: Vec<Value> = (0..250)
        .map(|n| {
            let mut child = tv_child(5000 + n, 1000 + n, "x", "bob", (1, 1), false, false);
            child["requestedDate"] = json!(format!("2026-05-01T{:02}:{:02}:00Z", n / 60, n % 60));
            tv_parent(
                1000 + n,
                50_000 + n,
                60_000 + n,
                &format!("Show {n}"),
                vec![child],
            )
        })
        .collect();
    parents.append(&mut d.requests.tv_parents);
    d.requests.tv_parents = parents;
}

/// An item's target as `kind/id`, e.g. `movie/2`.
fn kind_id(item: &Value) -> String {
    let t = &item["target"];
    format!("{}/{}", t["kind"].as_str().unwrap(), t["id"])
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

#[tokio::test]
async fn list_movies_uses_the_v2_paged_route_with_upstream_total() {
    let h = Rig::start().await;
    let env = read_requests(
        &h,
        "list",
        json!({"media": "movie", "page": {"offset": 1, "limit": 2}}),
    )
    .await;
    let data = ok_data(&env);
    assert_eq!(data["kind"], "request_page");
    assert_eq!(data["page"]["mode"], "upstream");
    assert_eq!(data["page"]["total"], 3);
    assert_eq!(data["page"]["returned"], 2);
    assert_eq!(data["page"]["has_more"], false);
    let got = h.gets("/api/v2/Requests/movie");
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].path, "/api/v2/Requests/movie/2/1/requestedDate/desc");
    // a later page: that Ombi's pages have no snapshot is logged, not a warning
    assert_eq!(env["warnings"], json!([]), "{env}");
    for t in targets(&env) {
        assert_eq!(t["kind"], "movie");
    }
    // every item keeps its requester id only, never the embedded user
    assert!(
        items(&env)
            .iter()
            .all(|i| i["requested_user_id"].is_string())
    );
}

#[tokio::test]
async fn list_status_and_direction_become_route_segments() {
    let h = Rig::start().await;
    let env = read_requests(
        &h,
        "list",
        json!({"media": "movie", "status": "denied", "sort_direction": "asc"}),
    )
    .await;
    assert_eq!(items(&env).len(), 1);
    assert_eq!(items(&env)[0]["denied"], true);
    assert_eq!(items(&env)[0]["denied_reason"], "Already on the shelf");
    assert_eq!(
        h.gets("/api/v2/Requests/")[0].path,
        "/api/v2/Requests/movie/denied/20/0/requestedDate/asc"
    );
}

/// Audit #19: the fake's v2 status filters follow enums.md §21, so the
/// status pages match what Ombi itself returns for 4K-only and denied rows.
#[tokio::test]
async fn list_status_filters_follow_ombis_engine() {
    let h = Rig::start().await;
    h.fake.with_data(|d| {
        // 4K-only, 4K approved: HD flags are defaults, requestedDate MinValue
        let mut m = movie_request(40, 4040, "Four K Only", "bob");
        m["requestedDate"] = json!("0001-01-01T00:00:00Z");
        m["has4KRequest"] = json!(true);
        m["approved4K"] = json!(true);
        d.movie_requests.push(m);
        // approved then denied: not processing
        let mut m = movie_request(41, 4141, "Approved Then Denied", "bob");
        m["approved"] = json!(true);
        m["denied"] = json!(true);
        d.movie_requests.push(m);
    });
    let ids = |env: &Value| -> Vec<i64> {
        let mut v: Vec<i64> = targets(env)
            .iter()
            .map(|t| t["id"].as_i64().unwrap())
            .collect();
        v.sort();
        v
    };
    let page = |status: &str| json!({"media": "movie", "status": status, "page": {"limit": 50}});
    let env = read_requests(&h, "list", page("pending")).await;
    assert_eq!(ids(&env), [2], "4K-only approved is not pending");
    let env = read_requests(&h, "list", page("processing")).await;
    assert_eq!(
        ids(&env),
        [1, 40],
        "denied is not processing; 4K approved is"
    );
    let env = read_requests(&h, "list", page("denied")).await;
    assert_eq!(ids(&env), [3, 41]);
}

#[tokio::test]
async fn list_tv_items_are_children_with_parent_ids() {
    let h = Rig::start().await;
    let env = read_requests(&h, "list", json!({"media": "tv"})).await;
    let its = items(&env);
    assert!(!its.is_empty());
    for i in its {
        assert_eq!(i["target"]["kind"], "tv_child");
        assert!(i["parent_request_id"].as_i64().unwrap() > 0);
        assert!(
            i["identifiers"]
                .as_array()
                .unwrap()
                .iter()
                .any(|x| x["namespace"] == "tmdb")
        );
        assert!(i.get("seasons").is_none());
    }
    assert_eq!(ok_data(&env)["page"]["total"], its.len());
    assert!(!warned(&env, "first child"), "{}", warnings(&env));
    // One read of the unpaged TV list; never Ombi's v2 TV list, which keeps
    // one child per show title.
    assert_eq!(h.gets("/api/v1/Request/tv").len(), 1, "{:?}", h.paths());
    assert!(h.gets("/api/v2/Requests/tv").is_empty(), "{:?}", h.paths());
}

/// What the fake Ombi answers an admin's GET, as JSON.
async fn ombi_get(h: &Rig, path: &str) -> Value {
    let url = format!("{}{path}", h.fake.url);
    let resp = reqwest::Client::new()
        .get(url)
        .header("ApiKey", API_KEY)
        .send()
        .await
        .unwrap();
    serde_json::from_str(&resp.text().await.unwrap()).unwrap()
}

/// Three more seasons of parent 10 and a second show titled "Breaking Bad"
/// (parent 30), with dates apart: Ombi's v2 list would show one row for
/// both shows.
fn plant_seasons(h: &Rig) {
    plant_same_title_show(h);
    h.fake.with_data(|d| {
        let p = d
            .requests
            .tv_parents
            .iter_mut()
            .find(|p| p["id"] == 10)
            .unwrap();
        let kids = p["childRequests"].as_array_mut().unwrap();
        for (id, season, day, approved) in
            [(13, 3, 10, true), (14, 4, 12, false), (15, 5, 11, false)]
        {
            let mut c = tv_child(
                id,
                10,
                "Breaking Bad",
                "carol",
                (season, 6),
                approved,
                false,
            );
            c["requestedDate"] = json!(format!("2026-04-{day}T08:00:00Z"));
            kids.push(c);
        }
    });
}

#[tokio::test]
async fn tv_list_holds_every_season_request_newest_first_with_its_shows_title() {
    let h = Rig::start().await;
    plant_seasons(&h);
    // Ombi's own v2 list merges the two "Breaking Bad" shows and their seasons.
    let v2 = ombi_get(&h, "api/v2/Requests/tv/100/0/requestedDate/desc").await;
    assert_eq!(v2["collection"].as_array().unwrap().len(), 2, "{v2}");
    assert_eq!(v2["total"], 7);
    let env = read_requests(&h, "list", json!({"media": "tv"})).await;
    let ids: Vec<String> = items(&env).iter().map(kind_id).collect();
    assert_eq!(
        ids,
        [
            "tv_child/14",
            "tv_child/15",
            "tv_child/13",
            "tv_child/1396",
            "tv_child/21",
            "tv_child/12",
            "tv_child/31"
        ],
        "every season request, newest first (equal dates by id)"
    );
    assert_eq!(ok_data(&env)["page"]["total"], 7);
    assert_eq!(ok_data(&env)["page"]["has_more"], false);
    let by_id = |id: i64| {
        items(&env)
            .iter()
            .find(|i| i["target"]["id"] == id)
            .unwrap()
    };
    assert_eq!(
        (
            by_id(31)["title"].clone(),
            by_id(31)["parent_request_id"].clone()
        ),
        (json!("Breaking Bad"), json!(30))
    );
    assert_eq!(by_id(14)["parent_request_id"], 10);
    assert_eq!(by_id(21)["title"], "Stranger Things");
    // oldest first
    let env = read_requests(&h, "list", json!({"media": "tv", "sort_direction": "asc"})).await;
    assert_eq!(kind_id(&items(&env)[0]), "tv_child/31");
}

#[tokio::test]
async fn tv_list_pages_count_season_requests_and_filters_apply_to_them() {
    let h = Rig::start().await;
    plant_seasons(&h);
    let page = |offset: u64| json!({"media": "tv", "page": {"offset": offset, "limit": 3}});
    let mut seen = Vec::new();
    for (offset, next) in [(0, json!(3)), (3, json!(6)), (6, Value::Null)] {
        let env = read_requests(&h, "list", page(offset)).await;
        let p = &ok_data(&env)["page"];
        assert_eq!((&p["total"], &p["next_offset"]), (&json!(7), &next), "{p}");
        seen.extend(items(&env).iter().map(kind_id));
    }
    assert_eq!(seen.len(), 7);
    seen.dedup();
    assert_eq!(seen.len(), 7, "no season request twice: {seen:?}");
    // approved, not available: 1396 and 13 (Ombi's processing rule)
    let env = read_requests(&h, "list", json!({"media": "tv", "status": "processing"})).await;
    let ids: Vec<String> = items(&env).iter().map(kind_id).collect();
    assert_eq!(ids, ["tv_child/13", "tv_child/1396"]);
    assert_eq!(ok_data(&env)["page"]["total"], 2);
    let env = read_requests(&h, "list", json!({"media": "tv", "status": "pending"})).await;
    assert_eq!(ok_data(&env)["page"]["total"], 4, "{env}");
}

#[tokio::test]
async fn list_albums_need_no_lidarr_and_have_no_unavailable_filter() {
    let h = Rig::start().await;
    let env = read_requests(&h, "list", json!({"media": "album"})).await;
    assert_eq!(items(&env).len(), 2);
    // AlbumRequest.title as sent, never rewritten with the artist (audit #11)
    let mut titles: Vec<&str> = items(&env)
        .iter()
        .map(|i| i["title"].as_str().unwrap())
        .collect();
    titles.sort();
    assert_eq!(titles, ["Kid A", "OK Computer"]);
    let env = read_requests(
        &h,
        "list",
        json!({"media": "album", "status": "unavailable"}),
    )
    .await;
    assert_eq!(err_code(&env), "INVALID_ARGUMENT");
    assert_eq!(env["error"]["field"], "/status");
    h.fake.with_data(|d| d.requests.lidarr_enabled = false);
    let env = read_requests(&h, "list", json!({"media": "album"})).await;
    assert_eq!(
        items(&env).len(),
        2,
        "album requests are read without Lidarr"
    );
}

#[tokio::test]
async fn budget_a_5000_item_list_gives_a_bounded_valid_page() {
    let h = Rig::start().await;
    h.fake.with_data(|d| {
        d.movie_requests = (1..=5000)
            .map(|i| {
                movie_request(
                    i,
                    10_000 + i,
                    &format!("Movie {i} {}", "x".repeat(200)),
                    "bob",
                )
            })
            .collect();
    });
    let env = read_requests(
        &h,
        "list",
        json!({"media": "movie", "page": {"offset": 0, "limit": 100}}),
    )
    .await;
    let data = ok_data(&env);
    assert_eq!(data["page"]["total"], 5000);
    assert!(data["items"].as_array().unwrap().len() <= 100);
    assert_eq!(
        data["page"]["returned"].as_u64().unwrap() as usize,
        data["items"].as_array().unwrap().len()
    );
    assert!(data["page"]["has_more"] == true);
    let bytes = env.to_string().len();
    eprintln!(
        "5000-item list, page of 100: {bytes} bytes, {} warnings",
        env["warnings"].as_array().unwrap().len()
    );
    assert!(bytes <= 64 * 1024);
    // searching: Ombi scans everything in memory; we window locally
    // searching: Ombi scans everything in memory and answers ~15 MB here;
    // we read under the 8 MiB cap and window locally over what fit
    let env = read_requests(
        &h,
        "search",
        json!({"media": "movie", "query": "Movie", "page": {"limit": 100}}),
    )
    .await;
    let data = ok_data(&env);
    assert_eq!(data["page"]["mode"], "local");
    assert_eq!(data["page"]["total"], Value::Null);
    assert_eq!(data["page"]["has_more"], true);
    assert_eq!(env["truncated"], true);
    assert!(data["items"].as_array().unwrap().len() <= 100);
    assert!(warned(&env, "8 MiB"));
}

#[tokio::test]
async fn an_oversized_tv_list_returns_what_fit() {
    let h = Rig::start().await;
    // 9 MiB of filler in the second show's season: the read cap cuts the
    // unpaged TV list after the first show.
    h.fake.with_data(|d| {
        let big = "e".repeat(1024 * 1024);
        let p = &mut d.requests.tv_parents[1];
        p["childRequests"][0]["seasonRequests"][0]["overview"] = json!(big.repeat(9));
    });
    let env = read_requests(&h, "list", json!({"media": "tv"})).await;
    let data = ok_data(&env);
    assert_eq!(env["truncated"], true);
    assert_eq!(data["page"]["total"], Value::Null);
    let ids: Vec<String> = items(&env).iter().map(kind_id).collect();
    assert_eq!(
        ids,
        ["tv_child/1396", "tv_child/12"],
        "the first show's seasons fit"
    );
    assert!(warned(&env, "8 MiB"));
}

#[tokio::test]
async fn get_movie_and_unknown_movie() {
    let h = Rig::start().await;
    let env = get_request(&h, "movie", 1).await;
    assert_eq!(targets(&env), vec![json!({"kind": "movie", "id": 1})]);
    assert_eq!(ok_data(&env)["page"]["mode"], "none");
    assert_eq!(items(&env)[0]["approved"], true);
    assert_eq!(items(&env)[0]["is_4k"], false);
    assert_eq!(
        h.gets("/api/v1/Request/movie/info")[0].path,
        "/api/v1/Request/movie/info/1"
    );
    // Ombi answers 500 for an unknown id
    let env = get_request(&h, "movie", 999).await;
    assert_eq!(err_code(&env), "NOT_FOUND");
}

#[tokio::test]
async fn get_tv_parent_lists_parent_then_children() {
    let h = Rig::start().await;
    let env = get_request(&h, "tv_parent", 10).await;
    assert_eq!(
        targets(&env),
        vec![
            json!({"kind": "tv_parent", "id": 10}),
            json!({"kind": "tv_child", "id": 1396}),
            json!({"kind": "tv_child", "id": 12})
        ]
    );
    assert_eq!(items(&env)[1]["parent_request_id"], 10);
    assert!(items(&env)[0].get("approved").is_none());
    let env = get_request(&h, "tv_parent", 77).await;
    assert_eq!(err_code(&env), "NOT_FOUND");
}

#[tokio::test]
async fn get_tv_child_scans_parents_then_reads_the_children() {
    let h = Rig::start().await;
    let env = get_request(&h, "tv_child", 21).await;
    let item = &items(&env)[0];
    assert_eq!(item["target"], json!({"kind": "tv_child", "id": 21}));
    assert_eq!(item["parent_request_id"], 20);
    assert_eq!(item["seasons"][0]["season_number"], 1);
    assert_eq!(item["seasons"][0]["episodes"].as_array().unwrap().len(), 8);
    // the child's provider ids come from its parent (audit #12)
    assert_eq!(
        item["identifiers"],
        json!([{"namespace": "tmdb", "value": "66732"}, {"namespace": "tvdb", "value": "305288"},
               {"namespace": "imdb", "value": "tt0066732"}])
    );
    // the scan reads the allowed v2 TV list, never the avoided v1 tvlite pages
    assert_eq!(
        h.gets("/api/v2/Requests/tv")[0].path,
        "/api/v2/Requests/tv/100/0/requestedDate/desc"
    );
    assert!(h.gets("/api/v1/Request/tvlite").is_empty());
    assert_eq!(h.gets("/api/v1/Request/tv/20/child").len(), 1);
    let env = get_request(&h, "tv_child", 4242).await;
    assert_eq!(err_code(&env), "NOT_FOUND");
    assert!(err_message(&env).contains("all TV requests"));
}

#[tokio::test]
async fn get_album_is_a_bounded_scan_of_the_v2_album_list() {
    let h = Rig::start().await;
    let env = get_request(&h, "album", 6).await;
    assert_eq!(targets(&env), vec![json!({"kind": "album", "id": 6})]);
    assert_eq!(
        h.gets("/api/v2/Requests/album")[0].path,
        "/api/v2/Requests/album/100/0/requestedDate/desc"
    );
    assert!(
        h.gets("/api/v1/request/music").is_empty(),
        "never the unbounded v1 album list"
    );
    let env = get_request(&h, "album", 66).await;
    assert_eq!(err_code(&env), "NOT_FOUND");
}

#[tokio::test]
async fn children_of_a_parent_with_seasons() {
    let h = Rig::start().await;
    let env = read_requests(&h, "children", json!({"parent_request_id": 10})).await;
    assert_eq!(
        targets(&env),
        vec![
            json!({"kind": "tv_child", "id": 1396}),
            json!({"kind": "tv_child", "id": 12})
        ]
    );
    assert_eq!(ok_data(&env)["page"]["total"], 2);
    assert_eq!(items(&env)[1]["seasons"][0]["season_number"], 2);
    assert_eq!(
        h.gets("/api/v1/Request/tv/")[0].path,
        "/api/v1/Request/tv/10/child"
    );
    // the v1 children carry no parentRequest: the parent's ids are read once
    for item in items(&env) {
        assert!(
            item["identifiers"]
                .as_array()
                .unwrap()
                .contains(&json!({"namespace": "tvdb", "value": "81189"})),
            "{item}"
        );
    }
    assert_eq!(
        h.gets("/api/v1/Request/tv/10").len(),
        2,
        "child route + parent"
    );
}

#[tokio::test]
async fn a_tv_parent_with_more_than_99_children_is_truncated() {
    use support::fake_ombi::state_requests::{tv_child, tv_parent};
    let h = Rig::start().await;
    h.fake.with_data(|d| {
        let kids = (0..120)
            .map(|n| tv_child(7000 + n, 70, "Big", "bob", (1, 1), false, false))
            .collect();
        d.requests
            .tv_parents
            .push(tv_parent(70, 7070, 8080, "Big", kids));
    });
    let env = get_request(&h, "tv_parent", 70).await;
    assert_eq!(items(&env).len(), 100);
    assert_eq!(env["truncated"], true, "the child cap is a cut: {env}");
    let page = &ok_data(&env)["page"];
    assert_eq!(page["total"], 121, "parent + 120 children");
    assert_eq!(page["has_more"], true);
    assert!(warned(&env, "99 of 120"));
}

#[tokio::test]
async fn search_by_media_uses_the_v1_search_routes() {
    let h = Rig::start().await;
    let env = read_requests(&h, "search", json!({"media": "tv", "query": "bad"})).await;
    assert_eq!(targets(&env), vec![json!({"kind": "tv_parent", "id": 10})]);
    // Ombi's TV search route always fails: the v2 TV list is searched here
    assert!(h.gets("/api/v1/Request/tv/search").is_empty());
    let env = read_requests(&h, "search", json!({"media": "album", "query": "kid a"})).await;
    assert_eq!(targets(&env), vec![json!({"kind": "album", "id": 5})]);
    assert_eq!(
        h.gets("/api/v1/request/music/search")[0].path,
        "/api/v1/request/music/search/kid%20a"
    );
    let env = read_requests(&h, "search", json!({"media": "movie", "query": "matrix"})).await;
    assert_eq!(targets(&env), vec![json!({"kind": "movie", "id": 1})]);
}

#[tokio::test]
async fn recent_resolves_tv_parents_child_id_first() {
    let h = Rig::start().await;
    let env = read_requests(&h, "recent", json!({})).await;
    let its = items(&env);
    assert_eq!(its[0]["target"], json!({"kind": "movie", "id": 2}));
    // child id 1396 == TMDB id 1396: resolved through the child id, parent 10
    assert_eq!(its[1]["target"], json!({"kind": "tv_parent", "id": 10}));
    assert!(
        its[1]["identifiers"]
            .as_array()
            .unwrap()
            .contains(&json!({"namespace": "ombi_tv_child", "value": "1396"}))
    );
    // unknown child, provider fallback to parent 20
    assert_eq!(its[2]["target"], json!({"kind": "tv_parent", "id": 20}));
    // unresolvable: stays the child, with a warning; never id 0 or a provider id
    assert_eq!(its[3]["target"], json!({"kind": "tv_child", "id": 555}));
    assert!(warned(&env, "555"));
    assert_eq!(its[4]["target"], json!({"kind": "album", "id": 5}));
    assert_eq!(ok_data(&env)["page"]["mode"], "local");
    assert_eq!(ok_data(&env)["page"]["total"], 5);
    assert!(!h.gets("/api/v2/Requests/tv/").is_empty());
    // the parent list is read once, for the child the v2 list misses (555)
    assert_eq!(h.gets("/api/v1/Request/tvlite").len(), 1);
}

/// Audit #1: whatever the parent lookup answers, `recent` still returns
/// every row; TV rows keep their child as target (pinned decision).
#[tokio::test]
async fn recent_keeps_tv_child_targets_whatever_the_parent_scan_answers() {
    let faults: Vec<(&str, Fault)> = vec![
        ("html", Fault::on("GET", "/api/v2/Requests/tv/*").html_200()),
        ("404", Fault::on("GET", "/api/v2/Requests/tv/*").status(404)),
        ("500", Fault::on("GET", "/api/v2/Requests/tv/*").nasty_500()),
        ("403", Fault::on("GET", "/api/v2/Requests/tv/*").status(403)),
        (
            "dropped",
            Fault::on("GET", "/api/v2/Requests/tv/*").drop_connection(),
        ),
    ];
    for (what, fault) in faults {
        let h = Rig::start().await;
        h.fake.add_fault(fault);
        let env = read_requests(&h, "recent", json!({})).await;
        let its = items(&env);
        assert_eq!(its.len(), 5, "{what}: {env}");
        for (i, child) in [(1, 1396), (2, 999), (3, 555)] {
            assert_eq!(
                its[i]["target"],
                json!({"kind": "tv_child", "id": child}),
                "{what}"
            );
            assert!(
                its[i]["identifiers"]
                    .as_array()
                    .unwrap()
                    .contains(&json!({"namespace": "ombi_tv_child", "value": child.to_string()})),
                "{what}"
            );
        }
        assert!(warned(&env, "could not be read"), "{what}: {env}");
        assert!(h.gets("/api/v1/Request/tvlite").is_empty());
    }
}

#[tokio::test]
async fn retry_queue_ids_are_queue_ids() {
    let h = Rig::start().await;
    let env = read_requests(&h, "retry_queue", json!({})).await;
    let data = ok_data(&env);
    assert_eq!(data["kind"], "retry_page");
    assert_eq!(data["page"]["unit"], "queue_entries");
    let e = &data["items"][0];
    assert_eq!(fields(e, &["queue_id", "request_id"]), json!([7, 2]));
    assert_eq!(e["request_type"], "movie");
    assert!(e["reason"].is_string());
}

#[tokio::test]
async fn retry_queue_needs_admin() {
    let h = Rig::start_with(Options::default(), Some("bob")).await;
    let env = read_requests(&h, "retry_queue", json!({})).await;
    assert_eq!(err_code(&env), "FORBIDDEN");
}

#[tokio::test]
async fn upstream_errors_map_to_contract_codes() {
    let h = Rig::start().await;
    h.fake
        .add_fault(Fault::on("GET", "/api/v1/RequestRetry").nasty_500());
    let env = read_requests(&h, "retry_queue", json!({})).await;
    assert_eq!(err_code(&env), "UPSTREAM_REJECTED");
    h.fake
        .add_fault(Fault::on("GET", "/api/v2/Requests/recentlyRequested").no_content());
    let env = read_requests(&h, "recent", json!({})).await;
    assert_eq!(
        ok_data(&env)["items"],
        json!([]),
        "204 on a list is an empty page"
    );
    h.fake
        .add_fault(Fault::on("GET", "/api/v1/Request/movie/info/1").html_200());
    let env = get_request(&h, "movie", 1).await;
    assert_eq!(err_code(&env), "UPSTREAM_SCHEMA_MISMATCH");
}

#[tokio::test]
async fn tv_child_scan_pages_until_found() {
    let h = Rig::start().await;
    h.fake.with_data(many_parents);
    let env = get_request(&h, "tv_child", 21).await;
    assert_eq!(items(&env)[0]["parent_request_id"], 20);
    let scans: Vec<String> = h
        .gets("/api/v2/Requests/tv/")
        .into_iter()
        .map(|r| r.path)
        .collect();
    assert_eq!(
        scans,
        [
            "/api/v2/Requests/tv/100/0/requestedDate/desc",
            "/api/v2/Requests/tv/100/100/requestedDate/desc",
            "/api/v2/Requests/tv/100/200/requestedDate/desc"
        ]
    );
    // child 12 shares parent 10 with child 1396 on the same page: Ombi's
    // per-show de-duplication hides one of them, the sibling ids still place it
    let env = get_request(&h, "tv_child", 12).await;
    assert_eq!(items(&env)[0]["parent_request_id"], 10);
}

#[tokio::test]
async fn recent_scan_stops_once_every_child_is_placed() {
    let h = Rig::start().await;
    h.fake.with_data(|d| {
        many_parents(d);
        // only resolvable children in the feed
        d.requests
            .recent
            .retain(|r| r["requestId"] != 999 && r["requestId"] != 555);
        d.requests.recent[1]["requestId"] = json!(5200);
    });
    let env = read_requests(&h, "recent", json!({})).await;
    assert_eq!(
        items(&env)[1]["target"],
        json!({"kind": "tv_parent", "id": 1200})
    );
    assert_eq!(
        h.gets("/api/v2/Requests/tv/").len(),
        1,
        "child 5200 is on the first page"
    );
    assert!(env["warnings"].as_array().unwrap().is_empty(), "{env}");
}

#[tokio::test]
async fn album_scan_stops_at_the_end_of_the_list() {
    let h = Rig::start().await;
    let env = get_request(&h, "album", 404).await;
    assert_eq!(err_code(&env), "NOT_FOUND");
    assert_eq!(
        h.gets("/api/v2/Requests/album").len(),
        1,
        "two albums: one page is the whole list"
    );
}

#[tokio::test]
async fn mine_lists_only_the_acting_users_requests_newest_first_with_tv_seasons() {
    let h = Rig::start_with(Options::default(), Some("bob")).await;
    let env = h.ok("read_requests", json!({"action": "mine"})).await;
    let got = items(&env);
    let targets: Vec<String> = got.iter().map(kind_id).collect();
    // bob: movies 1 and 2, TV children 1396 (Breaking Bad) and 21, album 5;
    // alice's movie 3, child 12 and album 6 are not his.
    let mut sorted = targets.clone();
    sorted.sort();
    assert_eq!(
        sorted,
        [
            "album/5",
            "movie/1",
            "movie/2",
            "tv_child/1396",
            "tv_child/21"
        ],
        "{env:#}"
    );
    let bob = user_id("bob");
    for r in got {
        assert_eq!(r["requested_user_id"], json!(bob), "{r}");
        assert_eq!(r["requested_user_name"], "bob", "{r}");
    }
    let dates: Vec<&str> = got
        .iter()
        .map(|r| r["requested_date"].as_str().unwrap_or(""))
        .collect();
    let mut newest_first = dates.clone();
    newest_first.sort_by(|a, b| b.cmp(a));
    assert_eq!(dates, newest_first);
    // A TV child carries its show's title and provider ids.
    let bb = got.iter().find(|r| r["target"]["id"] == 1396).unwrap();
    assert_eq!(bb["title"], "Breaking Bad");
    assert_eq!(bb["parent_request_id"], 10);
    assert!(!bb["identifiers"].as_array().unwrap().is_empty(), "{bb}");
    // Bounded reads only: paged v2 lists and the paged v1 TV parent list.
    for list in [
        "/api/v2/Requests/movie/100/0/",
        "/api/v2/Requests/album/100/0/",
        "/api/v1/Request/tvlite/100/0/",
    ] {
        assert!(h.gets(list).len() == 1, "{:?}", h.paths());
    }
}

#[tokio::test]
async fn mine_is_the_other_users_when_another_user_acts() {
    let h = Rig::start_with(Options::default(), Some("alice")).await;
    let env = h.ok("read_requests", json!({"action": "mine"})).await;
    let mut ids: Vec<String> = items(&env).iter().map(kind_id).collect();
    ids.sort();
    assert_eq!(ids, ["album/6", "movie/3", "tv_child/12"]);
}

/// With no acting user, "mine" is Ombi's shared `Api` user's: the result
/// (and the resource's `_meta`) says so once, naming the policy setting.
#[tokio::test]
async fn mine_without_an_acting_user_says_whose_it_is() {
    let says = |w: &Value| {
        w.as_str()
            .is_some_and(|w| w.contains("`ombi_user`") && w.contains("OMBI_USER_NAME"))
    };
    let h = Rig::start().await;
    let env = h.ok("read_requests", json!({"action": "mine"})).await;
    let named: Vec<&Value> = env["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|w| says(w))
        .collect();
    assert_eq!(named.len(), 1, "{env}");
    assert!(named[0].as_str().unwrap().contains("API user's"), "{env}");
    let (_, warnings) = ombi_mcp::resources::read_with_warnings(
        &h.ctx,
        &ombi_mcp::resources::ResourceUri::RequestsMine,
    )
    .await
    .unwrap();
    assert_eq!(warnings.iter().filter(|w| says(w)).count(), 1);
    // A person acting is told nothing of the kind.
    let h = Rig::start_with(Options::default(), Some("bob")).await;
    let env = h.ok("read_requests", json!({"action": "mine"})).await;
    assert!(
        !env["warnings"].as_array().unwrap().iter().any(says),
        "{env}"
    );
}

#[tokio::test]
async fn every_request_record_names_its_requester() {
    let h = Rig::start().await;
    let env = h
        .ok("read_requests", json!({"action": "list", "media": "movie"}))
        .await;
    for r in items(&env) {
        assert!(r["requested_user_name"].is_string(), "{r}");
    }
}

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

#[tokio::test]
async fn recent_requests_at_seven_per_type_do_not_claim_the_end() {
    let h = Rig::start().await;
    h.fake.with_data(|d| {
        let row = d.requests.recent[0].clone();
        d.requests.recent = (0..9)
            .map(|i| {
                let mut r = row.clone();
                r["requestId"] = json!(2);
                r["title"] = json!(format!("Movie {i}"));
                r
            })
            .collect();
    });
    let env = h.ok("read_requests", json!({"action": "recent"})).await;
    assert_eq!(items(&env).len(), 7);
    assert_eq!(page(&env)["has_more"], Value::Null);
    assert!(warnings(&env).contains("7 newest"), "{env:#}");
}

/// Ombi never computes `subscribed` on the caller's own movie requests.
#[tokio::test]
async fn movie_subscribed_is_absent_on_ones_own_requests() {
    let h = Rig::start_with(Default::default(), Some("bob")).await;
    let env = h
        .ok("read_requests", json!({"action": "list", "media": "movie"}))
        .await;
    let bob = user_id("bob");
    let mut own = 0;
    for r in items(&env) {
        if r["requested_user_id"] == json!(bob) {
            own += 1;
            assert!(r.get("subscribed").is_none(), "{r:#}");
        }
    }
    assert!(own > 0, "the sample has bob's requests: {env:#}");
}

/// A season request's id given as `tv_parent` (and a show's request id as
/// `tv_child`): NOT_FOUND on `/target`, naming the show and the id to pass.
#[tokio::test]
async fn get_with_the_other_tv_id_names_the_right_one() {
    let rig = Rig::start().await;
    let env = rig
        .err(
            "read_requests",
            json!({"action": "get", "target": {"kind": "tv_parent", "id": 12}}),
        )
        .await;
    assert_eq!(err_code(&env), "NOT_FOUND");
    assert_eq!(env["error"]["field"], "/target");
    let msg = err_message(&env);
    assert!(
        msg.contains("*Breaking Bad*, whose request is TV request 10: pass 10"),
        "{msg}"
    );
    let env = rig
        .err(
            "read_requests",
            json!({"action": "get", "target": {"kind": "tv_child", "id": 10}}),
        )
        .await;
    assert_eq!(err_code(&env), "NOT_FOUND");
    assert_eq!(env["error"]["field"], "/target");
    assert!(err_message(&env).contains("season request ids"), "{env}");
}

/// A movie request by `id` from a page of the movie list.
fn movie_item(env: &Value, id: i64) -> Value {
    items(env)
        .iter()
        .find(|i| i["target"] == json!({"kind": "movie", "id": id}))
        .cloned()
        .unwrap_or_else(|| panic!("movie {id}: {env}"))
}

#[tokio::test]
async fn requests_carry_the_dates_they_were_approved_made_available_and_denied() {
    let h = Rig::start().await;
    h.fake.with_data(|d| {
        // available since 04-20, approved 04-03; Ombi keeps an old
        // MarkedAsAvailable after "unavailable" (movie 1 stays approved only)
        let m = d.movie_request_mut(2).unwrap();
        m["approved"] = json!(true);
        m["markedAsApproved"] = json!("2026-04-03T10:00:00Z");
        m["available"] = json!(true);
        m["markedAsAvailable"] = json!("2026-04-20T10:00:00Z");
        m["requestedByAlias"] = json!("HomeAssistant");
        d.movie_request_mut(1).unwrap()["markedAsAvailable"] = json!("2026-04-04T10:00:00Z");
    });
    let env = read_requests(&h, "list", json!({"media": "movie"})).await;
    let m2 = movie_item(&env, 2);
    assert_eq!(
        fields(
            &m2,
            &["approved_date", "available_date", "requested_by_alias"]
        ),
        json!([
            "2026-04-03T10:00:00Z",
            "2026-04-20T10:00:00Z",
            "HomeAssistant"
        ])
    );
    assert_eq!(
        m2["requested_user_name"], "bob",
        "the alias beside the requester"
    );
    let m1 = movie_item(&env, 1);
    assert_eq!(m1["approved_date"], "2026-04-02T09:00:00Z");
    assert!(m1.get("available_date").is_none(), "not available: {m1}");
    // Ombi's minimum date is no date
    let m3 = movie_item(&env, 3);
    assert_eq!(m3["denied_date"], "2026-04-03T10:00:00Z");
    assert!(
        m3.get("approved_date").is_none() && m3.get("requested_by_alias").is_none(),
        "{m3}"
    );
    for side in ["requested_date_4k", "status_text_4k"] {
        assert!(
            m1.get(side).is_none(),
            "no 4K side without a 4K request: {m1}"
        );
    }
}

#[tokio::test]
async fn a_movies_4k_side_has_its_own_dates_status_and_reason() {
    let h = Rig::start().await;
    h.fake.with_data(|d| {
        // HD available, 4K asked and denied
        let m = d.movie_request_mut(1).unwrap();
        m["available"] = json!(true);
        m["markedAsAvailable"] = json!("2026-04-05T10:00:00Z");
        m["requestStatus"] = json!("Common.Available");
        m["has4KRequest"] = json!(true);
        m["requestedDate4k"] = json!("2026-04-06T10:00:00Z");
        m["denied4K"] = json!(true);
        m["deniedReason4K"] = json!("no 4K release yet");
        // 4K only, approved
        let mut k = movie_request(40, 4040, "Four K Only", "carol");
        k["requestedDate"] = json!("0001-01-01T00:00:00Z");
        k["has4KRequest"] = json!(true);
        k["requestedDate4k"] = json!("2026-04-07T10:00:00Z");
        k["approved4K"] = json!(true);
        k["markedAsApproved4K"] = json!("2026-04-08T10:00:00Z");
        d.movie_requests.push(k);
    });
    let env = read_requests(&h, "list", json!({"media": "movie"})).await;
    let m1 = movie_item(&env, 1);
    assert_eq!(
        fields(
            &m1,
            &[
                "status_text",
                "status_text_4k",
                "requested_date_4k",
                "denied_reason_4k"
            ]
        ),
        json!([
            "Available",
            "Denied",
            "2026-04-06T10:00:00Z",
            "no 4K release yet"
        ])
    );
    assert!(
        m1.get("denied_reason").is_none(),
        "the HD side was not denied: {m1}"
    );
    let k = movie_item(&env, 40);
    assert_eq!(
        fields(
            &k,
            &[
                "status_text_4k",
                "approved_date_4k",
                "requested_date_4k",
                "requested_date"
            ]
        ),
        json!([
            "Processing request",
            "2026-04-08T10:00:00Z",
            "2026-04-07T10:00:00Z",
            "2026-04-07T10:00:00Z"
        ])
    );
}

#[tokio::test]
async fn can_approve_says_whether_this_user_can_approve_it() {
    let state = |h: &Rig| {
        h.fake.with_data(|d| {
            // HD available, no 4K asked: Ombi's CanApprove still says true
            let m = d.movie_request_mut(3).unwrap();
            m["denied"] = json!(false);
            m["available"] = json!(true);
            m["canApprove"] = json!(true);
        })
    };
    let approvable = |env: &Value| -> Vec<(i64, Value)> {
        let mut v: Vec<(i64, Value)> = targets(env)
            .iter()
            .zip(items(env))
            .map(|(t, i)| (t["id"].as_i64().unwrap(), i["can_approve"].clone()))
            .collect();
        v.sort_by_key(|(id, _)| *id);
        v
    };
    // bob (RequestMovie, RequestTv): Ombi's flag says true on his own
    // pending Interstellar, but he cannot approve anything
    let h = Rig::start_with(Options::default(), Some("bob")).await;
    state(&h);
    let env = read_requests(&h, "list", json!({"media": "movie"})).await;
    assert_eq!(
        approvable(&env),
        [(1, json!(false)), (2, json!(false)), (3, json!(false))]
    );
    let env = read_requests(&h, "list", json!({"media": "tv"})).await;
    assert!(
        items(&env).iter().all(|i| i["can_approve"] == false),
        "{env}"
    );
    // alice (Admin): the pending one only
    let h = Rig::start_with(Options::default(), Some("alice")).await;
    state(&h);
    let env = read_requests(&h, "list", json!({"media": "movie"})).await;
    assert_eq!(
        approvable(&env),
        [(1, json!(false)), (2, json!(true)), (3, json!(false))]
    );
    let env = get_request(&h, "tv_child", 12).await;
    assert_eq!(items(&env)[0]["can_approve"], true);
}

#[tokio::test]
async fn a_season_partly_on_the_media_server_says_how_far_along() {
    let h = Rig::start().await;
    h.fake.with_data(|d| {
        // child 1396: approved, 3 episodes; 2 of them available
        let eps =
            &mut d.requests.tv_parents[0]["childRequests"][0]["seasonRequests"][0]["episodes"];
        eps[0]["available"] = json!(true);
        eps[1]["available"] = json!(true);
    });
    let env = read_requests(&h, "list", json!({"media": "tv"})).await;
    let c = items(&env)
        .iter()
        .find(|i| i["target"]["id"] == 1396)
        .unwrap()
        .clone();
    assert_eq!(c["status_text"], "Partly available: 2 of 3 episodes");
    assert!(c.get("seasons").is_none());
    let env = get_request(&h, "tv_child", 1396).await;
    assert_eq!(
        items(&env)[0]["status_text"],
        "Partly available: 2 of 3 episodes"
    );
    // nothing on the server yet: Ombi's own words
    let c = items(&read_requests(&h, "list", json!({"media": "tv"})).await)
        .iter()
        .find(|i| i["target"]["id"] == 12)
        .unwrap()
        .clone();
    assert_eq!(c["status_text"], "Pending approval");
}

#[tokio::test]
async fn the_4k_queue_is_one_list_with_status_applied_to_the_4k_side() {
    let h = Rig::start().await;
    h.fake.with_data(|d| {
        // HD approved, 4K asked on 04-06 and pending
        let m = d.movie_request_mut(1).unwrap();
        m["has4KRequest"] = json!(true);
        m["requestedDate4k"] = json!("2026-04-06T10:00:00Z");
        // 4K only, pending since 04-07; 4K only, denied
        for (id, day, denied) in [(40, 7, false), (41, 8, true)] {
            let mut k = movie_request(id, 4000 + id, "Four K", "carol");
            k["requestedDate"] = json!("0001-01-01T00:00:00Z");
            k["has4KRequest"] = json!(true);
            k["requestedDate4k"] = json!(format!("2026-04-{day:02}T10:00:00Z"));
            k["denied4K"] = json!(denied);
            d.movie_requests.push(k);
        }
    });
    let ids = |env: &Value| -> Vec<String> { items(env).iter().map(kind_id).collect() };
    let list = |quality: &str, status: &str| json!({"media": "movie", "quality": quality, "status": status});
    let env = read_requests(&h, "list", list("4k", "pending")).await;
    assert_eq!(
        ids(&env),
        ["movie/40", "movie/1"],
        "newest 4K request first"
    );
    assert_eq!(ok_data(&env)["page"]["total"], 2);
    assert_eq!(
        items(&env)[1]["status_text"],
        "Processing request",
        "the HD side"
    );
    assert_eq!(items(&env)[1]["status_text_4k"], "Pending approval");
    let env = read_requests(&h, "list", list("4k", "denied")).await;
    assert_eq!(ids(&env), ["movie/41"]);
    // HD: movie 1's HD side is approved, 40 and 41 have none
    let env = read_requests(&h, "list", list("hd", "pending")).await;
    assert_eq!(ids(&env), ["movie/2"]);
    let env = read_requests(&h, "list", list("hd", "all")).await;
    assert_eq!(ok_data(&env)["page"]["total"], 3);
    // Ombi's own pending list mixes the sides: 1 (4K pending), 2, 40
    let env = read_requests(&h, "list", list("any", "pending")).await;
    assert_eq!(ok_data(&env)["page"]["total"], 3, "{env}");
    let env = h
        .call(
            "read_requests",
            json!({"action": "list", "media": "album", "quality": "hd"}),
        )
        .await;
    assert_eq!(env["error"]["field"], "/quality", "{env}");
}
