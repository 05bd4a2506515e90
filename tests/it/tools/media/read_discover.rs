//! `read_discover` against the fake Ombi: upstream paging, bounded answers, request state and genres,
//! advanced discovery, credits, similar titles and collections, artist albums, and where Ombi's lists
//! stop or skip.

use serde_json::{Value, json};

use crate::support::fake_ombi::Fault;
use crate::support::fake_ombi::routes::media::data;
use crate::support::fake_ombi::state::search_tv;
use crate::support::rig::{Rig, err_code, err_message, fields, items};
use crate::tools::media::{data_items, ids, pair, set_lidarr};
use crate::tools::{page, warnings};

fn continuation(env: &Value) -> (Value, Value) {
    let page = &env["data"]["page"];
    (page["has_more"].clone(), page["next_offset"].clone())
}

#[tokio::test]
async fn discover_movie_lists_are_upstream_paged() {
    let rig = Rig::start().await;
    for (action, slug) in [
        ("popular", "popular"),
        ("now_playing", "nowplaying"),
        ("top_rated", "toprated"),
        ("upcoming", "upcoming"),
        ("seasonal", "seasonal"),
    ] {
        let env = rig
            .ok(
                "read_discover",
                json!({"action": action, "media": "movie", "page": {"offset": 2, "limit": 2}}),
            )
            .await;
        assert_eq!(
            rig.fake
                .hits("GET", &format!("/api/v2/Search/movie/{slug}/2/2")),
            1,
            "{action}"
        );
        let page = &env["data"]["page"];
        assert_eq!(page["mode"], "upstream");
        assert_eq!(page["total"], Value::Null);
        assert_eq!(
            (
                page["returned"].as_u64(),
                page["has_more"].clone(),
                page["next_offset"].as_u64()
            ),
            (Some(2), Value::Null, Some(4))
        );
    }
    // A short page is not proof of the end (Ombi hides titles after paging).
    let env = rig
        .ok(
            "read_discover",
            json!({"action": "popular", "media": "movie", "page": {"offset": 4, "limit": 10}}),
        )
        .await;
    let page = &env["data"]["page"];
    assert_eq!(
        (
            page["returned"].as_u64(),
            page["has_more"].as_bool(),
            page["next_offset"].clone()
        ),
        (Some(1), None, json!(14))
    );
}

#[tokio::test]
async fn discover_tv_lists_label_tmdb_and_drop_season_trees() {
    let rig = Rig::start().await;
    for (action, slug) in [
        ("popular", "popular"),
        ("trending", "trending"),
        ("anticipated", "anticipated"),
    ] {
        let env = rig
            .ok("read_discover", json!({"action": action, "media": "tv"}))
            .await;
        assert_eq!(
            rig.fake
                .hits("GET", &format!("/api/v2/Search/tv/{slug}/0/10")),
            1
        );
        let it = data_items(&env);
        assert_eq!(it.len(), 3);
        assert_eq!(ids(&it[0]), vec![pair("tmdb", "1399")]);
        assert!(it[0].get("seasons").is_none());
    }
}

/// The TV popular payload with hydrated `seasonRequests` near the 8 MiB read
/// cap: the page is complete, bounded (64 KiB) and schema-valid. (A TV page
/// holds at most the 10 titles Ombi serves per TMDB page.)
#[tokio::test]
async fn discover_tv_popular_near_8_mib_is_bounded() {
    let rig = Rig::start().await;
    let season_bytes = serde_json::to_vec(&data::heavy_tv(1, 1, 40)[0])
        .unwrap()
        .len()
        - serde_json::to_vec(&data::heavy_tv(1, 0, 40)[0])
            .unwrap()
            .len();
    let target = 7 * 1024 * 1024 + 700 * 1024; // ≈ 7.7 MiB for 10 shows
    let seasons = (target / 10 / season_bytes) as i64;
    let shows = data::heavy_tv(10, seasons, 40);
    let size = serde_json::to_vec(&shows).unwrap().len();
    assert!(
        size > 7 * 1024 * 1024 && size < 8 * 1024 * 1024,
        "payload {size}"
    );
    rig.fake.with_data(|d| d.tv = shows);
    let started = std::time::Instant::now();
    let env = rig
        .ok(
            "read_discover",
            json!({"action": "popular", "media": "tv", "page": {"limit": 20}}),
        )
        .await;
    eprintln!(
        "tv popular: upstream {size} bytes -> envelope {} bytes in {:?}",
        serde_json::to_vec(&env).unwrap().len(),
        started.elapsed()
    );
    assert_eq!(data_items(&env).len(), 10);
    assert_eq!(env["truncated"], false);
    assert!(serde_json::to_vec(&env).unwrap().len() <= 64 * 1024);
    assert!(!env.to_string().contains("episodeNumber"));
}

#[tokio::test]
async fn discover_over_the_read_cap_returns_what_fit() {
    let rig = Rig::start().await;
    // The 10 shows Ombi serves for one TMDB page, over the cap together.
    let shows = data::heavy_tv(10, 120, 40);
    assert!(serde_json::to_vec(&shows).unwrap().len() > 8 * 1024 * 1024);
    rig.fake.with_data(|d| d.tv = shows);
    let env = rig
        .ok(
            "read_discover",
            json!({"action": "popular", "media": "tv", "page": {"limit": 10}}),
        )
        .await;
    let n = data_items(&env).len();
    assert!(n > 0 && n < 10, "{n}");
    assert_eq!(env["truncated"], true);
    assert!(env["warnings"].to_string().contains("8 MiB"));
    assert_eq!(env["data"]["page"]["has_more"], Value::Null);
}

#[tokio::test]
async fn discover_requested_and_its_fallback() {
    let rig = Rig::start().await;
    let env = rig
        .ok(
            "read_discover",
            json!({"action": "requested", "media": "tv"}),
        )
        .await;
    assert_eq!(rig.fake.hits("GET", "/api/v2/Search/tv/requested/0/20"), 1);
    let it = data_items(&env);
    assert_eq!(
        ids(&it[0])[..2],
        [pair("tmdb", "1396"), pair("tvdb", "81189")]
    );
    assert!(
        !ids(&it[0]).iter().any(|(ns, _)| ns == "tvmaze"),
        "v2 seriesId is not TVMaze"
    );
    assert!(it[0].get("seasons").is_none());

    rig.fake
        .add_fault(Fault::on("GET", "/api/v2/Search/movie/requested/*").nasty_500());
    let env = rig
        .ok(
            "read_discover",
            json!({"action": "requested", "media": "movie"}),
        )
        .await;
    assert_eq!(
        rig.fake.hits("GET", "/api/v2/Requests/recentlyRequested"),
        1
    );
    assert_eq!(env["truncated"], true);
    let page = &env["data"]["page"];
    assert_eq!(
        fields(page, &["total", "has_more", "next_offset"]),
        json!([null, null, null])
    );
    let it = data_items(&env);
    assert_eq!(it.len(), 1, "movies only");
    assert_eq!(
        it[0]["request_targets"],
        json!([{"kind": "movie", "id": 2}])
    );
    let env = rig
        .ok(
            "read_discover",
            json!({"action": "requested", "media": "tv"}),
        )
        .await;
    assert_eq!(env["truncated"], false, "the tv list did not fail");
}

#[tokio::test]
async fn discover_advanced_sends_the_discover_model() {
    let rig = Rig::start().await;
    let env = rig
        .ok(
            "read_discover",
            json!({"action": "advanced", "media": "movie", "filters": {"release_year": 2010, "genre_ids": [28], "watch_provider_ids": [8]}, "page": {"offset": 0, "limit": 5}}),
        )
        .await;
    let req = rig.last("POST", "/api/v2/Search/advancedSearch/movie/");
    assert_eq!(req.path, "/api/v2/Search/advancedSearch/movie/0/5");
    let body: Value = serde_json::from_str(&req.body).unwrap();
    assert_eq!(
        body,
        json!({"type": "movie", "releaseYear": 2010, "genreIds": [28], "watchProviders": [8]})
    );
    assert_eq!(data_items(&env)[0]["title"], "Inception");
}

#[tokio::test]
async fn discover_similar_and_collection() {
    let rig = Rig::start().await;
    let env = rig
        .ok(
            "read_discover",
            json!({"action": "similar", "tmdb_id": 603}),
        )
        .await;
    let body: Value =
        serde_json::from_str(&rig.last("POST", "/api/v2/Search/movie/similar").body).unwrap();
    assert_eq!(body, json!({"theMovieDbId": 603}));
    assert_eq!(data_items(&env).len(), 4);

    let env = rig
        .ok(
            "read_discover",
            json!({"action": "collection", "collection_id": 2344}),
        )
        .await;
    assert_eq!(
        rig.fake.hits("GET", "/api/v2/Search/movie/collection/2344"),
        1
    );
    let it = data_items(&env);
    assert_eq!(
        (it[0]["media"].as_str(), ids(&it[0])),
        (Some("collection"), vec![pair("tmdb", "2344")])
    );
    assert_eq!(ids(&it[1]), vec![pair("tmdb", "603")]);
    assert!(it[1].get("requested").is_none() && it[1].get("available").is_none());
    assert_eq!(env["data"]["page"]["total"], 4);

    let env = rig
        .err(
            "read_discover",
            json!({"action": "collection", "collection_id": 1}),
        )
        .await;
    assert_eq!(env["error"]["code"], "NOT_FOUND");
}

#[tokio::test]
async fn discover_credits_use_the_callers_name_and_enrich_tv_titles() {
    let rig = Rig::start().await;
    let env = rig
        .ok(
            "read_discover",
            json!({"action": "credits", "person_id": 6384, "name": "Keanu Reeves"}),
        )
        .await;
    assert_eq!(rig.fake.hits("GET", "/api/v2/Search/actor/6384/movie"), 1);
    assert_eq!(rig.fake.hits("GET", "/api/v2/Search/actor/6384/tv"), 1);
    assert_eq!(
        rig.fake.hits("GET", "/api/v2/Search/tv/moviedb/1396"),
        1,
        "TV title looked up"
    );
    let it = data_items(&env);
    assert_eq!(it.len(), 3);
    let matrix = &it[0];
    assert_eq!(
        matrix["credits"].as_array().unwrap().len(),
        2,
        "actor and producer on one title"
    );
    assert!(
        matrix["credits"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["name"] == "Keanu Reeves" && c["person_id"] == 6384)
    );
    let tv = it.iter().find(|m| m["media"] == "tv").unwrap();
    assert_eq!(tv["title"], "Breaking Bad");

    let env = rig
        .ok("read_discover", json!({"action": "credits", "person_id": 6384, "name": "Keanu Reeves", "media": "movie"}))
        .await;
    assert_eq!(data_items(&env).len(), 2);
    assert_eq!(
        rig.fake.hits("GET", "/api/v2/Search/actor/6384/tv"),
        1,
        "tv not asked again"
    );
}

#[tokio::test]
async fn discover_artist_albums() {
    let rig = Rig::start().await;
    // The v2 artist route is a MusicBrainz lookup: it works without Lidarr.
    set_lidarr(&rig, false);
    let env = rig
        .ok(
            "read_discover",
            json!({"action": "artist_albums", "artist_id": data::LINKIN_PARK}),
        )
        .await;
    assert_eq!(
        rig.fake.hits(
            "GET",
            &format!("/api/v2/Search/artist/{}", data::LINKIN_PARK)
        ),
        1
    );
    let it = data_items(&env);
    assert_eq!(ids(&it[0]), vec![pair("musicbrainz", data::HYBRID_THEORY)]);
    assert_eq!(it[1]["title"], "Meteora", "Ombi's title, unchanged");
}

/// Ombi caches the requested lists without their position: a full page
/// offers no continuation (pages would repeat).
#[tokio::test]
async fn discover_requested_offers_no_continuation() {
    let rig = Rig::start().await;
    let env = rig
        .ok(
            "read_discover",
            json!({"action": "requested", "media": "tv", "page": {"offset": 0, "limit": 1}}),
        )
        .await;
    assert_eq!(data_items(&env).len(), 1, "a full page");
    assert_eq!(continuation(&env), (Value::Null, Value::Null));
    assert!(env["warnings"].to_string().contains("limit"));
}

/// `similar` is a random sample: a partial window has no continuation.
#[tokio::test]
async fn discover_similar_sample_has_no_continuation() {
    let rig = Rig::start().await;
    let env = rig
        .ok(
            "read_discover",
            json!({"action": "similar", "tmdb_id": 603, "page": {"offset": 0, "limit": 2}}),
        )
        .await;
    assert_eq!(data_items(&env).len(), 2);
    assert_eq!(continuation(&env), (Value::Null, Value::Null));
    let env = rig
        .ok(
            "read_discover",
            json!({"action": "similar", "tmdb_id": 603}),
        )
        .await;
    assert_eq!(
        continuation(&env),
        (json!(false), Value::Null),
        "whole sample"
    );
}

/// Credits without `media` read movie AND tv credits: one failing gives
/// PARTIAL_FAILURE with the part that arrived.
#[tokio::test]
async fn discover_credits_partial_failure_keeps_what_arrived() {
    let rig = Rig::start().await;
    rig.fake
        .add_fault(Fault::on("GET", "/api/v2/Search/actor/6384/tv").nasty_500());
    let env = rig
        .err(
            "read_discover",
            json!({"action": "credits", "person_id": 6384, "name": "Keanu Reeves"}),
        )
        .await;
    assert_eq!(env["error"]["code"], "PARTIAL_FAILURE", "{env:#}");
    assert!(err_message(&env).contains("TV"));
    let it = data_items(&env);
    assert_eq!(it.len(), 2, "the movie credits");
    assert!(it.iter().all(|m| m["media"] == "movie"));
    assert!(!env.to_string().contains("Password="), "{env}");

    // Both failing: the upstream error itself.
    rig.fake
        .add_fault(Fault::on("GET", "/api/v2/Search/actor/6384/movie").nasty_500());
    rig.fake
        .add_fault(Fault::on("GET", "/api/v2/Search/actor/6384/tv").nasty_500());
    let env = rig
        .err(
            "read_discover",
            json!({"action": "credits", "person_id": 6384, "name": "Keanu Reeves"}),
        )
        .await;
    assert_eq!(env["error"]["code"], "UPSTREAM_REJECTED");
}

/// The catalogue lists `advanced` with `filters` only: movies by default.
#[tokio::test]
async fn discover_advanced_without_media_is_movies() {
    let rig = Rig::start().await;
    let env = rig
        .ok(
            "read_discover",
            json!({"action": "advanced", "filters": {"release_year": 1999}}),
        )
        .await;
    let req = rig.last("POST", "/api/v2/Search/advancedSearch/movie/");
    let body: Value = serde_json::from_str(&req.body).unwrap();
    assert_eq!(body["type"], "movie");
    assert_eq!(data_items(&env)[0]["media"], "movie");
    assert_eq!(data_items(&env)[0]["title"], "The Matrix");
}

/// List rows carry Ombi's request state (the Matrix has movie request 1,
/// Breaking Bad TV parent 10); `theMovieDbId` is null on v2 lists, so the
/// TMDB id comes from `id`. Requested TV rows read `genres: [{id, name}]`.
#[tokio::test]
async fn discover_lists_carry_request_state_and_genres() {
    let rig = Rig::start().await;
    let env = rig
        .ok(
            "read_discover",
            json!({"action": "top_rated", "media": "movie"}),
        )
        .await;
    let matrix = data_items(&env)
        .iter()
        .find(|m| m["title"] == "The Matrix")
        .unwrap();
    assert_eq!(
        ids(matrix),
        vec![pair("tmdb", "603"), pair("imdb", "tt0133093")]
    );
    assert_eq!(matrix["requested"], true);
    assert_eq!(
        matrix["request_targets"],
        json!([{"kind": "movie", "id": 1}])
    );
    let env = rig
        .ok(
            "read_discover",
            json!({"action": "trending", "media": "tv"}),
        )
        .await;
    let bb = data_items(&env)
        .iter()
        .find(|m| m["title"] == "Breaking Bad")
        .unwrap();
    assert_eq!(
        bb["request_targets"],
        json!([{"kind": "tv_parent", "id": 10}])
    );

    let env = rig
        .ok(
            "read_discover",
            json!({"action": "requested", "media": "tv"}),
        )
        .await;
    assert_eq!(data_items(&env)[0]["genres"], json!(["Drama", "Crime"]));
}

/// `advanced` with `media: tv` posts `type: tv`; Ombi maps the shows through
/// its movie engine, so request state is left out.
#[tokio::test]
async fn discover_advanced_tv_sends_type_tv() {
    let rig = Rig::start().await;
    let env = rig
        .ok(
            "read_discover",
            json!({"action": "advanced", "media": "tv", "filters": {}}),
        )
        .await;
    let body: Value = serde_json::from_str(
        &rig.last("POST", "/api/v2/Search/advancedSearch/movie/")
            .body,
    )
    .unwrap();
    assert_eq!(body["type"], "tv");
    let it = data_items(&env);
    assert_eq!(it[0]["media"], "tv");
    assert_eq!(it[0]["title"], "Game of Thrones");
    assert!(it[0].get("requested").is_none());
}

/// With `hideAvailableFromDiscover`, Ombi drops available titles after
/// paging: a short page is not the end, so `has_more` stays unknown and the
/// continuation is `offset + limit`.
#[tokio::test]
async fn discover_short_page_from_hidden_titles_is_not_the_end() {
    let rig = Rig::start().await;
    rig.fake.with_data(|d| {
        d.admin.settings.get_mut("customization").unwrap()["hideAvailableFromDiscover"] =
            json!(true)
    });
    let env = rig
        .ok(
            "read_discover",
            json!({"action": "top_rated", "media": "movie", "page": {"offset": 0, "limit": 5}}),
        )
        .await;
    assert_eq!(data_items(&env).len(), 4, "Spirited Away hidden");
    assert_eq!(continuation(&env), (Value::Null, json!(5)));
    assert!(
        data_items(&env)
            .iter()
            .all(|m| m["title"] != "Spirited Away"),
        "the available title is hidden"
    );
}

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

#[test]
fn discover_requested_is_described_as_recently_requested() {
    let tool = serde_json::to_string(&ombi_mcp::tools::find("read_discover").unwrap().mcp())
        .unwrap()
        .to_lowercase();
    assert!(!tool.contains("most requested"), "{tool}");
    assert!(tool.contains("recently requested"), "{tool}");
}

#[tokio::test]
async fn artist_albums_at_musicbrainzs_embed_cap_do_not_claim_the_end() {
    let h = Rig::start().await;
    let env = h
        .ok(
            "read_discover",
            json!({"action": "artist_albums", "artist_id": data::PROLIFIC_ARTIST, "page": {"limit": 100}}),
        )
        .await;
    assert_eq!(items(&env).len(), 25);
    assert_eq!(page(&env)["has_more"], Value::Null);
    assert!(warnings(&env).contains("25 albums"), "{env:#}");
    let env = h
        .ok(
            "read_discover",
            json!({"action": "artist_albums", "artist_id": data::LINKIN_PARK}),
        )
        .await;
    assert_eq!(page(&env)["has_more"], false);
}

/// Ombi serves TMDB ranks 1–10, 21–30, ... of its TV lists: a page stops at
/// each gap and says so, and the next offset continues past it.
#[tokio::test]
async fn tv_discover_pages_stop_where_ombi_skips_ranks() {
    let h = Rig::start().await;
    h.fake.with_data(|d| {
        d.tv = (1..=40)
            .map(|i| search_tv(700_000 + i, &format!("Rank {i}"), 1, 1))
            .collect();
    });
    let env = h
        .ok(
            "read_discover",
            json!({"action": "trending", "media": "tv", "page": {"offset": 5, "limit": 20}}),
        )
        .await;
    let titles: Vec<&str> = items(&env)
        .iter()
        .map(|i| i["title"].as_str().unwrap())
        .collect();
    assert_eq!(titles, ["Rank 6", "Rank 7", "Rank 8", "Rank 9", "Rank 10"]);
    assert_eq!(page(&env)["has_more"], true);
    assert_eq!(page(&env)["next_offset"], 10);
    assert!(warnings(&env).contains("ranks 1–10 of every 20"), "{env:#}");
    assert_eq!(
        h.gets("/api/v2/Search/tv/trending")[0].path,
        "/api/v2/Search/tv/trending/5/5"
    );
    let env = h
        .ok(
            "read_discover",
            json!({"action": "trending", "media": "tv", "page": {"offset": 10, "limit": 3}}),
        )
        .await;
    assert_eq!(items(&env)[0]["title"], "Rank 21");
    assert!(!warnings(&env).contains("ranks 1–10"));
}

/// A first discovery page carries no warning about paging mechanics: only
/// a later page, where titles can have shifted, says so.
#[tokio::test]
async fn a_first_discover_page_has_no_paging_warning() {
    let h = Rig::start().await;
    let env = h
        .ok(
            "read_discover",
            json!({"action": "popular", "media": "movie"}),
        )
        .await;
    assert_eq!(env["warnings"], json!([]), "{env:#}");
    let env = h
        .ok(
            "read_discover",
            json!({"action": "popular", "media": "movie", "page": {"offset": 2, "limit": 2}}),
        )
        .await;
    assert!(warnings(&env).contains("shifted"), "{env:#}");
}
