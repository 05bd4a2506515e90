//! `read_votes` against the fake Ombi: open votes, the votes of a request with their tally, and voting
//! switched off.

use serde_json::json;

use crate::support::fake_ombi::{Options, state_requests};
use crate::support::rig::{Rig, err_code, items, ok_data, warned};

#[tokio::test]
async fn open_votes_use_already_voted_not_my_vote() {
    let h = Rig::start_with(Options::default(), Some("bob")).await;
    h.fake.with_data(state_requests::plant_votes);
    let env = h.call("read_votes", json!({"action": "open"})).await;
    let data = ok_data(&env);
    assert_eq!(data["kind"], "vote_page");
    let by_id = |id: i64| {
        data["items"]
            .as_array()
            .unwrap()
            .iter()
            .find(|v| v["request_id"] == id)
            .cloned()
            .unwrap()
    };
    // bob downvoted movie 2: his vote code is known
    assert_eq!(
        by_id(2),
        json!({"request_id": 2, "media": "movie", "vote_code": 1, "up": 1, "down": 1})
    );
    // album 5: bob has not voted, Ombi says myVote 1 anyway
    assert!(by_id(5).get("vote_code").is_none());
    assert_eq!(h.gets("/api/v1/Vote")[0].path, "/api/v1/Vote");
}

#[tokio::test]
async fn votes_for_a_request_page_the_votes_and_state_the_tally() {
    let h = Rig::start().await;
    h.fake.with_data(state_requests::plant_votes);
    let env = h
        .call(
            "read_votes",
            json!({"action": "for_request", "media": "movie", "request_id": 2}),
        )
        .await;
    let its = items(&env);
    // audit #5: the items and the page count votes, no synthetic tally record
    assert_eq!(its.len(), 2);
    assert!(
        its.iter()
            .all(|v| v["user_id"].is_string() && v["vote_code"].is_i64())
    );
    assert_eq!(ok_data(&env)["page"]["total"], 2);
    assert_eq!(ok_data(&env)["page"]["returned"], 2);
    assert!(warned(&env, "1 up (vote_code 0), 1 down"), "{env}");
    // albums read from the `music` route
    let env = h
        .call(
            "read_votes",
            json!({"action": "for_request", "media": "album", "request_id": 5}),
        )
        .await;
    assert_eq!(items(&env).len(), 0, "no votes: an empty page");
    assert_eq!(ok_data(&env)["page"]["total"], 0);
    assert_eq!(h.gets("/api/v1/Vote/music/5").len(), 1);
    h.fake.with_data(|d| d.requests.lidarr_enabled = false);
    let env = h
        .call(
            "read_votes",
            json!({"action": "for_request", "media": "album", "request_id": 5}),
        )
        .await;
    assert_eq!(
        ok_data(&env)["page"]["total"],
        0,
        "album votes need no Lidarr"
    );
}

#[tokio::test]
async fn open_votes_need_voting_enabled() {
    let h = Rig::start().await;
    h.ok("read_votes", json!({"action": "open"})).await;
    h.fake.with_data(|d| {
        d.admin.settings.get_mut("vote").unwrap()["enabled"] = json!(false);
    });
    let env = h.err("read_votes", json!({"action": "open"})).await;
    assert_eq!(err_code(&env), "UNSUPPORTED_CAPABILITY");
}
