//! `read_request_stats` against the fake Ombi: counts, totals, quotas and period statistics, their
//! scope (instance or principal), and partial answers.

use serde_json::{Value, json};

use crate::support::fake_ombi::Fault;
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

#[tokio::test]
async fn period_stats_give_numbers_only_and_degrade_on_empty_ranges() {
    let h = Rig::start().await;
    let env = h
        .call(
            "read_request_stats",
            json!({"action": "period", "from": "2026-04-01", "to": "2026-04-30"}),
        )
        .await;
    // 3 movies (04-01) + 3 TV children (04-02), computed by the fake per range
    assert_eq!(value(&env, "total_requests").unwrap()["value"], 6);
    // Ombi's numbers as sent (audit #7), the broken ones flagged
    assert_eq!(value(&env, "total_issues").unwrap()["value"], 0);
    assert_eq!(value(&env, "total_issues").unwrap()["unit"], "issues");
    assert_eq!(
        value(&env, "completed_requests_movies").unwrap()["value"],
        3
    );
    assert_eq!(value(&env, "completed_requests").unwrap()["value"], 3);
    assert_eq!(ok_data(&env)["values"].as_array().unwrap().len(), 7);
    let q = h.gets("/api/v1/Stats")[0].query.clone().unwrap();
    assert!(
        q.contains("from=2026-04-01T00%3A00%3A00") && q.contains("to=2026-04-30T23%3A59%3A59"),
        "{q}"
    );
    // 04-01 holds movie requests but no TV child request: Ombi's 500
    let env = h
        .call(
            "read_request_stats",
            json!({"action": "period", "from": "2026-04-01", "to": "2026-04-01"}),
        )
        .await;
    // tools-map.md: the documented 500 degrades to partial
    assert_eq!(err_code(&env), "PARTIAL_FAILURE");
    assert_eq!(env["data"]["values"], json!([]));
    assert!(err_message(&env).contains("no movie request or no TV request"));
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
