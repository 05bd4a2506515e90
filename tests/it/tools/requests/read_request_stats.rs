//! `read_request_stats` against the fake Ombi: counts, totals, quotas and period statistics, their
//! scope (instance or principal), and partial answers.

use serde_json::{Value, json};

use crate::support::fake_ombi::state::{NEVER, movie_request, user_id};
use crate::support::fake_ombi::state_requests::album;
use crate::support::fake_ombi::{API_KEY, Fault, Options};
use crate::support::rig::{Rig, err_code, err_message, ok_data};

fn value<'a>(env: &'a Value, name: &str) -> Option<&'a Value> {
    ok_data(env)["values"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == name)
}

#[tokio::test]
async fn counts_are_instance_scoped() {
    let h = Rig::start().await;
    let env = h
        .call("read_request_stats", json!({"action": "counts"}))
        .await;
    let pending = value(&env, "pending").unwrap();
    assert_eq!(pending["scope"], "instance");
    // movies plus TV children (shapes.md §3.13; audit #18): Interstellar
    // and child 12 pending, Matrix and child 1396 approved, child 21
    // available, Spirited Away denied; albums never count
    assert_eq!(pending["value"], 2);
    assert_eq!(value(&env, "approved").unwrap()["value"], 2);
    assert_eq!(value(&env, "available").unwrap()["value"], 1);
    assert_eq!(value(&env, "denied").unwrap()["value"], 1);
    assert_eq!(h.gets("/api/v1/Request/count").len(), 1);
}

/// Album totals and quotas come from Ombi's database (MusicRequestController
/// `total`/`remaining`): Lidarr off changes nothing, and it is not asked.
#[tokio::test]
async fn totals_and_quotas_are_principal_scoped_and_include_albums_without_lidarr() {
    let h = Rig::start().await;
    let env = h
        .call("read_request_stats", json!({"action": "totals"}))
        .await;
    assert_eq!(value(&env, "movie.total").unwrap()["value"], 3);
    assert_eq!(value(&env, "tv.total").unwrap()["value"], 2);
    assert_eq!(value(&env, "album.total").unwrap()["scope"], "principal");
    h.fake.with_data(|d| d.requests.lidarr_enabled = false);
    let env = h
        .call("read_request_stats", json!({"action": "totals"}))
        .await;
    let album_total = value(&env, "album.total").unwrap()["value"].clone();
    assert!(album_total.as_i64().is_some_and(|n| n >= 1), "{env}");
    assert!(
        env["warnings"].as_array().is_none_or(|w| w.is_empty()),
        "{env}"
    );
    assert_eq!(h.gets("/api/v1/request/music/total").len(), 2);
    let env = h
        .call("read_request_stats", json!({"action": "quota"}))
        .await;
    assert!(value(&env, "album.has_limit").is_some(), "{env}");
    let env = h
        .call(
            "read_request_stats",
            json!({"action": "quota", "media": "album"}),
        )
        .await;
    assert!(value(&env, "has_limit").is_some(), "{env}");
    assert_eq!(h.gets("/api/v1/request/music/remaining").len(), 2);
    assert!(h.gets("/api/v1/Lidarr/enabled").is_empty());
}

#[tokio::test]
async fn partial_totals_are_a_partial_failure_with_data() {
    let h = Rig::start().await;
    h.fake
        .add_fault(Fault::on("GET", "/api/v1/Request/tv/total").nasty_500());
    let env = h
        .call("read_request_stats", json!({"action": "totals"}))
        .await;
    assert_eq!(err_code(&env), "PARTIAL_FAILURE");
    assert!(
        env["data"]["values"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["name"] == "movie.total")
    );
}

#[tokio::test]
async fn quota_unlimited_has_no_limit_and_limited_has_all_four() {
    let h = Rig::start().await;
    let env = h
        .call("read_request_stats", json!({"action": "quota"}))
        .await;
    assert_eq!(value(&env, "movie.has_limit").unwrap()["value"], false);
    assert!(value(&env, "movie.limit").is_none() && value(&env, "movie.remaining").is_none());
    assert_eq!(value(&env, "tv.remaining").unwrap()["value"], 94);
    assert_eq!(value(&env, "tv.limit").unwrap()["value"], 100);
    assert_eq!(
        value(&env, "tv.next_request").unwrap()["scope"],
        "principal"
    );
    let env = h
        .call(
            "read_request_stats",
            json!({"action": "quota", "media": "tv"}),
        )
        .await;
    assert_eq!(ok_data(&env)["values"].as_array().unwrap().len(), 4);
    // one media: the contract's bare RequestQuota names (audit #8)
    assert_eq!(value(&env, "remaining").unwrap()["value"], 94);
    assert_eq!(value(&env, "has_limit").unwrap()["value"], true);
    assert!(value(&env, "tv.remaining").is_none());
    assert_eq!(h.gets("/api/v1/Request/tv/remaining").len(), 2);
    h.fake
        .with_data(|d| d.requests.quotas.iter_mut().for_each(|q| q.1 = None));
    let env = h
        .call(
            "read_request_stats",
            json!({"action": "quota", "media": "movie"}),
        )
        .await;
    assert_eq!(err_code(&env), "NOT_FOUND");
}

/// Beside the sample (movies 1-3 by bob, bob, alice on 04-01; TV seasons
/// 1396, 12, 21 by bob, alice, bob on 04-02; albums 5, 6 in March): a
/// 4K-only movie and an album by carol in April, movie 2 made available on
/// 04-20 and season 21 on 04-05.
fn plant_april(h: &Rig) {
    h.fake.with_data(|d| {
        let mut m = movie_request(40, 4040, "Four K Only", "carol");
        m["requestedDate"] = json!(NEVER);
        m["has4KRequest"] = json!(true);
        m["requestedDate4k"] = json!("2026-04-10T09:00:00Z");
        d.movie_requests.push(m);
        let m = d.movie_request_mut(2).unwrap();
        m["available"] = json!(true);
        m["markedAsAvailable"] = json!("2026-04-20T10:00:00Z");
        let mut a = album(
            7,
            "f0e2c1a4-0000-4000-8000-000000000007",
            "In Rainbows",
            "Radiohead",
            "carol",
            true,
        );
        a["requestedDate"] = json!("2026-04-11T10:00:00Z");
        d.requests.albums.push(a);
        let st = &mut d.requests.tv_parents[1]["childRequests"][0];
        st["markedAsAvailable"] = json!("2026-04-05T10:00:00Z");
    });
}

#[tokio::test]
async fn period_is_counted_from_the_lists_with_albums_4k_only_and_requesters() {
    let h = Rig::start().await;
    plant_april(&h);
    let env = h
        .call(
            "read_request_stats",
            json!({"action": "period", "from": "2026-04-01", "to": "2026-04-30"}),
        )
        .await;
    let n =
        |name: &str| value(&env, name).unwrap_or_else(|| panic!("{name}: {env}"))["value"].clone();
    // movies 1, 2, 3 and the 4K-only 40 (by its 4K date); seasons 1396, 12,
    // 21; album 7 (Ombi's own statistics say 6: no albums, no 4K-only)
    assert_eq!(n("total_requests"), 8);
    assert_eq!(n("total_movie_requests"), 4);
    assert_eq!(n("total_tv_requests"), 3);
    assert_eq!(n("total_album_requests"), 1);
    // marked available in the range: movie 2 and season 21 (Ombi: every movie)
    assert_eq!(n("completed_requests_movies"), 1);
    assert_eq!(n("completed_requests_tv"), 1);
    assert_eq!(n("completed_requests_albums"), 0);
    assert_eq!(n("completed_requests"), 2);
    let by_user: Vec<Value> = ok_data(&env)["values"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["name"] == "requests_by_user")
        .map(|m| json!([m["user_name"], m["value"], m["scope"]]))
        .collect();
    assert_eq!(
        by_user,
        [
            json!(["bob", 4, "selected_user"]),
            json!(["Alice A.", 2, "selected_user"]),
            json!(["Caz", 2, "selected_user"])
        ]
    );
    let bob = ok_data(&env)["values"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["user_name"] == "bob")
        .unwrap();
    assert_eq!(bob["user_id"], user_id("bob"));
    assert!(value(&env, "requests_by_other_users").is_none());
    // Ombi's statistics route is not asked; one read of each list
    assert!(h.gets("/api/v1/Stats").is_empty());
    for list in [
        "/api/v1/Request/movie",
        "/api/v1/request/music",
        "/api/v1/Request/tv",
    ] {
        assert_eq!(h.fake.hits("GET", list), 1, "{list}");
    }
    // A range without a TV request (Ombi answers 500 there) is counted too.
    let env = h
        .call(
            "read_request_stats",
            json!({"action": "period", "from": "2026-04-01", "to": "2026-04-01"}),
        )
        .await;
    assert_eq!(value(&env, "total_requests").unwrap()["value"], 3, "{env}");
    assert_eq!(value(&env, "total_tv_requests").unwrap()["value"], 0);
}

#[tokio::test]
async fn period_lists_the_twenty_largest_requesters_and_sums_the_rest() {
    let h = Rig::start().await;
    h.fake.with_data(|d| {
        for n in 0..23 {
            let mut a = album(
                100 + n,
                "f0e2c1a4-0000-4000-8000-000000000100",
                "Album",
                "Artist",
                &format!("user{n:02}"),
                false,
            );
            a["requestedDate"] = json!("2026-06-02T10:00:00Z");
            d.requests.albums.push(a);
        }
    });
    let env = h
        .call(
            "read_request_stats",
            json!({"action": "period", "from": "2026-06-01", "to": "2026-06-30"}),
        )
        .await;
    let values = ok_data(&env)["values"].as_array().unwrap();
    assert_eq!(
        values
            .iter()
            .filter(|m| m["name"] == "requests_by_user")
            .count(),
        20
    );
    assert_eq!(value(&env, "requests_by_other_users").unwrap()["value"], 3);
    assert_eq!(value(&env, "total_requests").unwrap()["value"], 23);
}

#[tokio::test]
async fn period_needs_admin_or_power_user() {
    let h = Rig::start_with(Options::default(), Some("bob")).await;
    let env = h
        .call(
            "read_request_stats",
            json!({"action": "period", "from": "2026-04-01", "to": "2026-04-30"}),
        )
        .await;
    assert_eq!(err_code(&env), "FORBIDDEN", "{env}");
    assert!(err_message(&env).contains("PowerUser role"), "{env}");
    assert!(h.gets("/api/v1/Request/movie").is_empty());
    let h = Rig::start_with(Options::default(), Some("alice")).await;
    let env = h
        .call(
            "read_request_stats",
            json!({"action": "period", "from": "2026-04-01", "to": "2026-04-30"}),
        )
        .await;
    assert_eq!(value(&env, "total_requests").unwrap()["value"], 6, "{env}");
}

/// The fake keeps `UserStatsEngine.GetSummary`'s miscounts, should anything
/// read it: every movie counted completed, the user with the lowest id as
/// "most requested", albums and 4K-only movies left out.
#[tokio::test]
async fn ombis_own_statistics_miscount_as_ombi_does() {
    let h = Rig::start().await;
    plant_april(&h);
    let url = format!(
        "{}api/v1/Stats?from=2026-04-01T00:00:00&to=2026-04-30T23:59:59",
        h.fake.url
    );
    let resp = reqwest::Client::new()
        .get(url)
        .header("ApiKey", API_KEY)
        .send()
        .await
        .unwrap();
    let s: Value = serde_json::from_str(&resp.text().await.unwrap()).unwrap();
    assert_eq!(
        (
            s["totalRequests"].clone(),
            s["completedRequestsMovies"].clone()
        ),
        (json!(6), json!(3)),
        "{s}"
    );
    let lowest = [user_id("alice"), user_id("bob")]
        .into_iter()
        .min()
        .unwrap();
    assert_eq!(s["mostRequestedUserMovie"]["id"], lowest);
}

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
