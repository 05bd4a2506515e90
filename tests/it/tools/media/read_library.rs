//! `read_library` against the fake Ombi: recently added (TV grouped by show), the calendar and
//! artwork.

use serde_json::{Value, json};

use crate::support::fake_ombi::routes::media::data;
use crate::support::fake_ombi::state::library_item;
use crate::support::rig::{Rig, items, ok_data};
use crate::tools::media::{data_items, ids, pair};
use crate::tools::warnings;

#[tokio::test]
async fn library_recently_added() {
    let rig = Rig::start().await;
    let env = rig
        .ok(
            "read_library",
            json!({"action": "recently_added", "media": "movie"}),
        )
        .await;
    assert_eq!(rig.fake.hits("GET", "/api/v1/RecentlyAdded/movies"), 1);
    let it = data_items(&env);
    assert_eq!(
        ids(&it[0]),
        vec![pair("tmdb", "603"), pair("imdb", "tt0133093")]
    );
    assert_eq!(ids(&it[1]), Vec::<(String, String)>::new());
    // when the sync added each: The Matrix two days ago, Home Video one
    let added = |i: &Value| {
        i["added_date"]
            .as_str()
            .unwrap_or_else(|| panic!("{i}"))
            .to_string()
    };
    assert!(added(&it[1]) > added(&it[0]), "{env}");
    let env = rig
        .ok(
            "read_library",
            json!({"action": "recently_added", "media": "tv"}),
        )
        .await;
    assert_eq!(rig.fake.hits("GET", "/api/v1/RecentlyAdded/tv"), 1);
    assert_eq!(
        data_items(&env)[0]["seasons"],
        json!([{"season_number": 2, "episodes": [{"episode_number": 1}, {"episode_number": 2}], "truncated": false}])
    );
}

#[tokio::test]
async fn library_calendar() {
    let rig = Rig::start().await;
    let env = rig.ok("read_library", json!({"action": "calendar"})).await;
    assert_eq!(env["data"]["kind"], "calendar_page");
    let it = data_items(&env);
    assert_eq!(
        it[0]["identifiers"],
        json!([{"namespace": "tmdb", "value": "624860"}])
    );
    assert_eq!(it[0]["available"], false);
    assert_eq!(
        (
            it[1]["media"].as_str(),
            it[1]["identifiers"].as_array().unwrap().len()
        ),
        (Some("tv"), 0)
    );
    assert_eq!(env["data"]["page"]["unit"], "calendar_entries");
}

#[tokio::test]
async fn library_artwork_routes() {
    let rig = Rig::start().await;
    let env = rig
        .ok(
            "read_library",
            json!({"action": "artwork", "media": "movie", "tmdb_id": 603, "kind": "poster"}),
        )
        .await;
    assert_eq!(rig.fake.hits("GET", "/api/v1/Images/poster/movie/603"), 1);
    let a = &data_items(&env)[0];
    assert_eq!(
        (a["mime_type"].as_str(), a["kind"].as_str()),
        (Some("image/jpeg"), Some("poster"))
    );
    assert!(
        a["uri"]
            .as_str()
            .unwrap()
            .starts_with("https://assets.fanart.tv/")
    );
    assert_eq!(env["data"]["kind"], "artwork_page");

    rig.ok(
        "read_library",
        json!({"action": "artwork", "media": "tv", "tvdb_id": 81189, "kind": "banner"}),
    )
    .await;
    assert_eq!(rig.fake.hits("GET", "/api/v1/Images/tv/81189"), 1);
    rig.ok(
        "read_library",
        json!({"action": "artwork", "media": "tv", "tmdb_id": 1396, "kind": "background"}),
    )
    .await;
    assert_eq!(
        rig.fake
            .hits("GET", "/api/v1/Images/background/tv/tmdb/1396"),
        1
    );
    let env = rig
        .err(
            "read_library",
            json!({"action": "artwork", "media": "tv", "tmdb_id": 1396, "kind": "banner"}),
        )
        .await;
    assert_eq!(env["error"]["field"], "/tvdb_id");
    let env = rig.ok("read_library", json!({"action": "artwork", "media": "album", "musicbrainz_id": data::HYBRID_THEORY, "kind": "poster"})).await;
    assert_eq!(
        rig.fake.hits(
            "GET",
            &format!("/api/v2/Search/releasegroupart/{}", data::HYBRID_THEORY)
        ),
        1
    );
    assert_eq!(data_items(&env).len(), 1);
    let env = rig
        .ok(
            "read_library",
            json!({"action": "artwork", "media": "movie", "tmdb_id": 999999, "kind": "poster"}),
        )
        .await;
    assert_eq!(data_items(&env).len(), 0, "\"\" means no artwork");
    assert_eq!(env["data"]["page"]["returned"], 0);
}

/// `artwork` honours `page` like every paged action.
#[tokio::test]
async fn library_artwork_honours_the_page() {
    let rig = Rig::start().await;
    let env = rig
        .ok(
            "read_library",
            json!({"action": "artwork", "media": "movie", "tmdb_id": 603, "kind": "poster", "page": {"offset": 1, "limit": 5}}),
        )
        .await;
    let page = &env["data"]["page"];
    assert_eq!(
        (
            page["offset"].as_u64(),
            page["returned"].as_u64(),
            page["total"].as_u64()
        ),
        (Some(1), Some(0), Some(1))
    );
    assert!(data_items(&env).is_empty());
}

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
    // one item per show, added when its newest episode was
    assert!(
        items(&env).iter().all(|i| i["added_date"].is_string()),
        "{env}"
    );
    assert!(items(&env)[0]["added_date"].as_str() > items(&env)[5]["added_date"].as_str());
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
