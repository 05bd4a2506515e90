//! read_search, read_discover, read_media and read_library, in process:
//! the fake Ombi (real shapes) ← Upstream ← handler → envelope. Each test
//! checks the route and body Ombi received, the projection, and that
//! `structuredContent` validates against the tool's advertised outputSchema.

use serde_json::{Value, json};

use crate::support::fake_ombi::Fault;
use crate::support::fake_ombi::routes::media::data;
use crate::support::rig::{Rig, err_message, fields};

fn ids(item: &Value) -> Vec<(String, String)> {
    item["identifiers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["namespace"].as_str().unwrap().to_string(),
                i["value"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn pair(ns: &str, v: &str) -> (String, String) {
    (ns.into(), v.into())
}

fn items(env: &Value) -> &Vec<Value> {
    env["data"]["items"].as_array().expect("items")
}

/// Whether Ombi reports Lidarr enabled (`GET /api/v1/Lidarr/enabled`).
fn set_lidarr(rig: &Rig, enabled: bool) {
    rig.fake.with_data(|d| d.requests.lidarr_enabled = enabled);
}

// ---------------------------------------------------------------- read_search

#[tokio::test]
async fn search_multi_posts_the_filter_and_projects_tmdb_ids() {
    let rig = Rig::start().await;
    let env = rig.ok("read_search", json!({"query": "matrix"})).await;
    let req = rig.last("POST", "/api/v2/Search/multi/");
    assert_eq!(req.path, "/api/v2/Search/multi/matrix");
    let body: Value = serde_json::from_str(&req.body).unwrap();
    assert_eq!(
        body,
        json!({"movies": true, "tvShows": true, "music": true, "people": true})
    );
    let it = items(&env);
    assert_eq!(it[0]["media"], "movie");
    assert_eq!(ids(&it[0]), vec![pair("tmdb", "603")]);
    assert_eq!(it[0]["year"], 1999);
    assert!(
        it[0].get("requested").is_none(),
        "multi-search carries no request state"
    );
    let page = &env["data"]["page"];
    assert_eq!(
        (
            page["mode"].as_str(),
            page["total"].as_u64(),
            page["unit"].as_str()
        ),
        (Some("local"), Some(1), Some("media"))
    );
}

#[tokio::test]
async fn search_tv_is_multi_restricted_to_tv() {
    let rig = Rig::start().await;
    let env = rig
        .ok("read_search", json!({"action": "tv", "query": "breaking"}))
        .await;
    let req = rig.last("POST", "/api/v2/Search/multi/");
    let body: Value = serde_json::from_str(&req.body).unwrap();
    // Every TMDB kind, filtered here: so a full TMDB page is seen as such.
    assert_eq!(
        body,
        json!({"movies": true, "tvShows": true, "music": false, "people": true})
    );
    assert_eq!(
        rig.fake.hits("GET", "/api/v1/Search/tv/breaking"),
        0,
        "never the TVMaze search"
    );
    let it = items(&env);
    assert_eq!(it.len(), 1);
    assert_eq!(
        (it[0]["media"].as_str(), ids(&it[0])),
        (Some("tv"), vec![pair("tmdb", "1396")])
    );
}

#[tokio::test]
async fn search_multi_double_decoding_is_compensated() {
    let rig = Rig::start().await;
    rig.ok("read_search", json!({"query": "100% a/b"})).await;
    let req = rig.last("POST", "/api/v2/Search/multi/");
    // One encoding for routing, one for Ombi's second unescape.
    assert_eq!(req.path, "/api/v2/Search/multi/100%2525%20a%2Fb");
}

#[tokio::test]
async fn search_movie_sends_year_and_language() {
    let rig = Rig::start().await;
    let env = rig
        .ok(
            "read_search",
            json!({"action": "movie", "query": "the", "year": 1999, "language": "de"}),
        )
        .await;
    let body: Value = serde_json::from_str(&rig.last("POST", "/api/v1/Search/movie").body).unwrap();
    assert_eq!(
        body,
        json!({"searchTerm": "the", "year": 1999, "languageCode": "de"})
    );
    let it = items(&env);
    assert_eq!(it.len(), 1);
    assert_eq!(
        ids(&it[0]),
        vec![pair("tmdb", "603"), pair("imdb", "tt0133093")]
    );
    assert_eq!(it[0]["requested"], true, "sample movie request 1");
    assert_eq!(it[0]["available"], false);
}

#[tokio::test]
async fn search_person_movies_uses_the_actor_route() {
    let rig = Rig::start().await;
    let env = rig
        .ok(
            "read_search",
            json!({"action": "person_movies", "query": "Keanu Reeves"}),
        )
        .await;
    let body: Value =
        serde_json::from_str(&rig.last("POST", "/api/v1/Search/movie/actor").body).unwrap();
    assert_eq!(body["searchTerm"], "Keanu Reeves");
    assert_eq!(items(&env)[0]["title"], "The Matrix");
}

#[tokio::test]
async fn search_music_needs_lidarr() {
    let rig = Rig::start().await;
    set_lidarr(&rig, false);
    let env = rig
        .err(
            "read_search",
            json!({"action": "artist", "query": "linkin"}),
        )
        .await;
    assert_eq!(env["error"]["code"], "UNSUPPORTED_CAPABILITY");
    assert_eq!(rig.fake.hits("GET", "/api/v1/Lidarr/enabled"), 1);
    assert_eq!(
        rig.fake.hits("GET", "/api/v1/Search/music/artist/linkin"),
        0,
        "nothing sent to the music route"
    );
    let env = rig
        .err("read_search", json!({"action": "album", "query": "hybrid"}))
        .await;
    assert_eq!(env["error"]["code"], "UNSUPPORTED_CAPABILITY");
}

#[tokio::test]
async fn search_artist_reads_the_misspelled_id() {
    let rig = Rig::start().await;
    set_lidarr(&rig, true);
    let env = rig
        .ok(
            "read_search",
            json!({"action": "artist", "query": "linkin"}),
        )
        .await;
    assert_eq!(
        rig.fake.hits("GET", "/api/v1/Search/music/artist/linkin"),
        1
    );
    let it = items(&env);
    assert_eq!(
        (it[0]["media"].as_str(), ids(&it[0])),
        (Some("artist"), vec![pair("musicbrainz", data::LINKIN_PARK)])
    );
    let env = rig
        .ok("read_search", json!({"action": "album", "query": "hybrid"}))
        .await;
    let it = items(&env);
    assert_eq!(
        ids(&it[0]),
        vec![pair("musicbrainz", data::HYBRID_THEORY)],
        "the artist MBID is not the album's id"
    );
    assert_eq!(
        (it[0]["title"].as_str(), it[0]["overview"].as_str()),
        (Some("Hybrid Theory"), Some("by Linkin Park"))
    );
    assert_eq!(
        it[0]["request_targets"],
        json!([{"kind": "album", "id": 4}])
    );
}

#[tokio::test]
async fn search_local_window_pages_the_complete_array() {
    let rig = Rig::start().await;
    let env = rig
        .ok(
            "read_search",
            json!({"action": "movie", "query": "i", "page": {"offset": 1, "limit": 2}}),
        )
        .await;
    let page = &env["data"]["page"];
    // Inception, Interstellar, Spirited Away, The Matrix? ("i" matches 4 of 5 sample titles)
    let total = page["total"].as_u64().unwrap();
    assert_eq!(page["returned"], 2);
    assert_eq!(page["has_more"], json!(total > 3));
    assert_eq!(
        page["next_offset"],
        if total > 3 { json!(3) } else { Value::Null }
    );
}

#[tokio::test]
async fn search_upstream_failure_is_sanitized() {
    let rig = Rig::start().await;
    rig.fake
        .add_fault(Fault::on("POST", "/api/v2/Search/multi/*").nasty_500());
    let env = rig.err("read_search", json!({"query": "x"})).await;
    assert_eq!(env["error"]["code"], "UPSTREAM_REJECTED");
    assert!(!env.to_string().contains("Password="), "{env}");
}

// ---------------------------------------------------------------- read_discover

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
        let it = items(&env);
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
    assert_eq!(items(&env).len(), 10);
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
    let n = items(&env).len();
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
    let it = items(&env);
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
    let it = items(&env);
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
    assert_eq!(items(&env)[0]["title"], "Inception");
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
    assert_eq!(items(&env).len(), 4);

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
    let it = items(&env);
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
    let it = items(&env);
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
    assert_eq!(items(&env).len(), 2);
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
    let it = items(&env);
    assert_eq!(ids(&it[0]), vec![pair("musicbrainz", data::HYBRID_THEORY)]);
    assert_eq!(it[1]["title"], "Meteora", "Ombi's title, unchanged");
}

// ---------------------------------------------------------------- read_media

#[tokio::test]
async fn media_movie_details_by_tmdb_and_imdb() {
    let rig = Rig::start().await;
    let env = rig
        .ok(
            "read_media",
            json!({"action": "details", "media": "movie", "tmdb_id": 603}),
        )
        .await;
    assert_eq!(rig.fake.hits("GET", "/api/v2/Search/movie/603"), 1);
    let it = items(&env);
    assert_eq!(
        ids(&it[0]),
        vec![pair("tmdb", "603"), pair("imdb", "tt0133093")]
    );
    assert_eq!(
        (it[1]["media"].as_str(), ids(&it[1])),
        (Some("collection"), vec![pair("tmdb", "2344")])
    );
    assert_eq!(
        it[0]["credits"][0],
        json!({"name": "Keanu Reeves", "person_id": 6384, "role": "Neo", "department": "Acting"})
    );
    assert_eq!(
        it[0]["request_targets"],
        json!([{"kind": "movie", "id": 1}])
    );
    assert_eq!(env["data"]["page"]["mode"], "none");

    let env = rig
        .ok(
            "read_media",
            json!({"action": "details", "media": "movie", "imdb_id": "tt1375666"}),
        )
        .await;
    assert_eq!(
        rig.fake.hits("GET", "/api/v2/Search/movie/imdb/tt1375666"),
        1
    );
    assert_eq!(ids(&items(&env)[0])[0], pair("tmdb", "27205"));

    let env = rig
        .err(
            "read_media",
            json!({"action": "details", "media": "movie", "imdb_id": "tt0000001"}),
        )
        .await;
    assert_eq!(
        env["error"]["code"], "NOT_FOUND",
        "Ombi's 500 for an unknown IMDb id"
    );
    let env = rig
        .err(
            "read_media",
            json!({"action": "details", "media": "movie", "tmdb_id": 1}),
        )
        .await;
    assert_eq!(env["error"]["code"], "NOT_FOUND", "204");
}

#[tokio::test]
async fn media_tv_details_by_tmdb_and_by_tvdb() {
    let rig = Rig::start().await;
    let env = rig
        .ok(
            "read_media",
            json!({"action": "details", "media": "tv", "tmdb_id": 1396}),
        )
        .await;
    assert_eq!(rig.fake.hits("GET", "/api/v2/Search/tv/moviedb/1396"), 1);
    let it = items(&env);
    assert_eq!(
        ids(&it[0]),
        vec![
            pair("tmdb", "1396"),
            pair("tvdb", "81189"),
            pair("imdb", "tt0903747")
        ]
    );
    assert_eq!(it[0]["seasons"].as_array().unwrap().len(), 5);
    // Ombi's search rules copy the show's requests onto its episodes: S01E01
    // is in the sample's first child (approved, not available yet).
    assert_eq!(
        it[0]["seasons"][0]["episodes"][0],
        json!({"episode_number": 1, "title": "S01E01", "requested": true, "available": false})
    );
    assert_eq!(
        it[0]["seasons"][0]["episodes"][3],
        json!({"episode_number": 4, "title": "S01E04", "requested": false, "available": true})
    );
    assert_eq!(
        it[0]["request_targets"],
        json!([{"kind": "tv_parent", "id": 10}])
    );

    let env = rig
        .ok(
            "read_media",
            json!({"action": "details", "media": "tv", "tvdb_id": 81189}),
        )
        .await;
    assert_eq!(rig.fake.hits("GET", "/api/v1/Search/tv/info/81189"), 1);
    let it = items(&env);
    assert_eq!(
        ids(&it[0]),
        vec![
            pair("tvdb", "81189"),
            pair("tvmaze", "169"),
            pair("imdb", "tt0903747")
        ]
    );
    assert!(it[0].get("requested").is_none());
    assert!(!env["warnings"].as_array().unwrap().is_empty());
}

#[tokio::test]
async fn media_music_details() {
    let rig = Rig::start().await;
    let env = rig
        .ok(
            "read_media",
            json!({"action": "details", "media": "album", "musicbrainz_id": data::HYBRID_THEORY}),
        )
        .await;
    assert_eq!(
        ids(&items(&env)[0]),
        vec![pair("musicbrainz", data::HYBRID_THEORY)]
    );
    let env = rig
        .ok(
            "read_media",
            json!({"action": "details", "media": "artist", "musicbrainz_id": data::LINKIN_PARK}),
        )
        .await;
    let it = items(&env);
    assert_eq!(
        (it[0]["media"].as_str(), it[0]["year"].as_i64()),
        (Some("artist"), Some(1996))
    );
    assert_eq!(it[0]["title"], "Linkin Park");
}

/// The v2 artist lookup goes to MusicBrainz, so it works with Lidarr off
/// (Ombi then fills no artwork or overview). Albums by release-group id are
/// found only through Lidarr (Ombi's v2 album route looks up a release and
/// fails): without it, album details say so.
#[tokio::test]
async fn media_music_details_without_lidarr() {
    let rig = Rig::start().await;
    set_lidarr(&rig, false);
    let env = rig
        .err(
            "read_media",
            json!({"action": "details", "media": "album", "musicbrainz_id": data::HYBRID_THEORY}),
        )
        .await;
    assert_eq!(env["error"]["code"], "UNSUPPORTED_CAPABILITY");
    let env = rig
        .ok(
            "read_media",
            json!({"action": "details", "media": "artist", "musicbrainz_id": data::LINKIN_PARK}),
        )
        .await;
    let a = &items(&env)[0];
    assert_eq!(a["year"], 1996);
    for absent in ["overview", "artwork_uris"] {
        assert!(a.get(absent).is_none(), "{absent} stays absent: {a:#}");
    }
    // `startYear: ""` is an unknown year, not a parse failure or 0.
    let env = rig
        .ok(
            "read_media",
            json!({"action": "details", "media": "artist", "musicbrainz_id": data::NO_YEAR_ARTIST}),
        )
        .await;
    assert!(items(&env)[0].get("year").is_none());
    let env = rig
        .ok(
            "read_media",
            json!({"action": "by_request", "target": {"kind": "album", "id": 5}}),
        )
        .await;
    assert_eq!(items(&env)[0]["media"], "artist");
    assert_eq!(rig.fake.hits("GET", "/api/v2/Search/artist/request/5"), 1);
}

#[tokio::test]
async fn media_by_request() {
    let rig = Rig::start().await;
    let env = rig
        .ok(
            "read_media",
            json!({"action": "by_request", "target": {"kind": "movie", "id": 1}}),
        )
        .await;
    assert_eq!(rig.fake.hits("GET", "/api/v2/Search/movie/request/1"), 1);
    assert_eq!(ids(&items(&env)[0])[0], pair("tmdb", "603"));
    let env = rig
        .ok(
            "read_media",
            json!({"action": "by_request", "target": {"kind": "tv_parent", "id": 10}}),
        )
        .await;
    assert_eq!(rig.fake.hits("GET", "/api/v2/Search/tv/request/10"), 1);
    assert_eq!(items(&env)[0]["title"], "Breaking Bad");
    let env = rig
        .err(
            "read_media",
            json!({"action": "by_request", "target": {"kind": "movie", "id": 999}}),
        )
        .await;
    assert_eq!(env["error"]["code"], "NOT_FOUND");
    let env = rig
        .err(
            "read_media",
            json!({"action": "by_request", "target": {"kind": "tv_child", "id": 5}}),
        )
        .await;
    assert_eq!(
        (
            env["error"]["code"].as_str(),
            env["error"]["field"].as_str()
        ),
        (Some("INVALID_ARGUMENT"), Some("/target/kind"))
    );
    set_lidarr(&rig, true);
    let env = rig
        .ok(
            "read_media",
            json!({"action": "by_request", "target": {"kind": "album", "id": 5}}),
        )
        .await;
    assert_eq!(items(&env)[0]["media"], "artist");
}

#[tokio::test]
async fn media_ratings_and_providers() {
    let rig = Rig::start().await;
    let env = rig
        .ok(
            "read_media",
            json!({"action": "ratings", "media": "movie", "name": "The Matrix", "year": 1999}),
        )
        .await;
    assert_eq!(
        rig.fake
            .hits("GET", "/api/v2/Search/ratings/movie/The%20Matrix/1999"),
        1
    );
    let r = &items(&env)[0]["ratings"];
    assert_eq!(
        r[0],
        json!({"name": "critics_score", "value": 83, "category": "rotten_tomatoes"})
    );
    let env = rig
        .ok(
            "read_media",
            json!({"action": "ratings", "media": "tv", "name": "Breaking Bad", "year": 2008}),
        )
        .await;
    assert_eq!(items(&env)[0]["ratings"].as_array().unwrap().len(), 2);
    let env = rig
        .err(
            "read_media",
            json!({"action": "ratings", "media": "movie", "name": "Nope", "year": 2000}),
        )
        .await;
    assert_eq!(env["error"]["code"], "NOT_FOUND");

    let env = rig
        .ok(
            "read_media",
            json!({"action": "providers", "media": "tv", "tmdb_id": 1396}),
        )
        .await;
    assert_eq!(rig.fake.hits("GET", "/api/v2/Search/stream/tv/1396"), 1);
    let it = items(&env);
    assert_eq!(ids(&it[0]), vec![pair("tmdb", "1396")]);
    assert_eq!(it[0]["providers"][0]["name"], "Netflix");
}

// ---------------------------------------------------------------- read_library

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
    let it = items(&env);
    assert_eq!(
        ids(&it[0]),
        vec![pair("tmdb", "603"), pair("imdb", "tt0133093")]
    );
    assert_eq!(ids(&it[1]), Vec::<(String, String)>::new());
    let env = rig
        .ok(
            "read_library",
            json!({"action": "recently_added", "media": "tv"}),
        )
        .await;
    assert_eq!(rig.fake.hits("GET", "/api/v1/RecentlyAdded/tv"), 1);
    assert_eq!(
        items(&env)[0]["seasons"],
        json!([{"season_number": 2, "episodes": [{"episode_number": 1}, {"episode_number": 2}], "truncated": false}])
    );
}

#[tokio::test]
async fn library_calendar() {
    let rig = Rig::start().await;
    let env = rig.ok("read_library", json!({"action": "calendar"})).await;
    assert_eq!(env["data"]["kind"], "calendar_page");
    let it = items(&env);
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
    let a = &items(&env)[0];
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
    assert_eq!(items(&env).len(), 1);
    let env = rig
        .ok(
            "read_library",
            json!({"action": "artwork", "media": "movie", "tmdb_id": 999999, "kind": "poster"}),
        )
        .await;
    assert_eq!(items(&env).len(), 0, "\"\" means no artwork");
    assert_eq!(env["data"]["page"]["returned"], 0);
}

/// Real multi-search answers mix TMDB's lowercase types with MusicBrainz's
/// capitalised `Artist` (when Lidarr is on): matched case-insensitively.
#[tokio::test]
async fn search_multi_matches_media_types_case_insensitively() {
    let rig = Rig::start().await;
    let body = json!([
        {"id": "603", "mediaType": "movie", "title": "The Matrix (1999)", "poster": "/p603.jpg", "overview": "o"},
        {"id": "6384", "mediaType": "person", "title": "Keanu Reeves", "poster": null, "overview": null},
        {"id": data::LINKIN_PARK, "mediaType": "Artist", "title": "Linkin Park", "poster": null, "overview": null}
    ]);
    rig.fake
        .add_fault(Fault::on("POST", "/api/v2/Search/multi/*").respond(
            200,
            Some("application/json"),
            &body.to_string(),
        ));
    let env = rig.ok("read_search", json!({"query": "m"})).await;
    let it = items(&env);
    let kinds: Vec<&str> = it.iter().map(|m| m["media"].as_str().unwrap()).collect();
    assert_eq!(kinds, vec!["movie", "person", "artist"]);
    assert_eq!(ids(&it[2]), vec![pair("musicbrainz", data::LINKIN_PARK)]);
    let env = rig
        .ok("read_search", json!({"action": "tv", "query": "m"}))
        .await;
    assert!(items(&env).is_empty(), "tv keeps only tv rows");
}

/// Whatever a details projection cuts (credits over 100, a season's episodes
/// over 100, genres over 100) flags the result `truncated` with a warning.
#[tokio::test]
async fn media_details_cuts_set_truncated() {
    let rig = Rig::start().await;
    let env = rig
        .ok(
            "read_media",
            json!({"action": "details", "media": "movie", "tmdb_id": data::CROWD_MOVIE}),
        )
        .await;
    assert_eq!(env["truncated"], true, "{env:#}");
    let m = &items(&env)[0];
    assert_eq!(m["credits"].as_array().unwrap().len(), 100);
    assert_eq!(m["genres"].as_array().unwrap().len(), 100);
    let warnings = env["warnings"].to_string();
    assert!(warnings.contains("credits"), "{warnings}");
    assert!(
        warnings.contains("nested"),
        "genres cut by the budget: {warnings}"
    );

    let env = rig
        .ok(
            "read_media",
            json!({"action": "details", "media": "tv", "tmdb_id": data::LONG_SEASON_SHOW}),
        )
        .await;
    assert_eq!(env["truncated"], true, "{env:#}");
    let s = &items(&env)[0]["seasons"][0];
    assert_eq!(
        (s["episodes"].as_array().unwrap().len(), &s["truncated"]),
        (100, &json!(true))
    );
    assert!(env["warnings"].to_string().contains("episodes"));

    // Nothing cut: not truncated.
    let env = rig
        .ok(
            "read_media",
            json!({"action": "details", "media": "tv", "tmdb_id": 1396}),
        )
        .await;
    assert_eq!(env["truncated"], false);
}

fn continuation(env: &Value) -> (Value, Value) {
    let page = &env["data"]["page"];
    (page["has_more"].clone(), page["next_offset"].clone())
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
    assert_eq!(items(&env).len(), 1, "a full page");
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
    assert_eq!(items(&env).len(), 2);
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
    let it = items(&env);
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

/// A 500 means "unknown id" only on the routes that dereference a null
/// (imdb, requests); elsewhere it is a failing provider, not NOT_FOUND.
#[tokio::test]
async fn media_provider_outage_is_not_not_found() {
    let rig = Rig::start().await;
    let outage = r#"{"error":"The remote server returned an error: (503) Service Unavailable."}"#;
    for (path, args) in [
        (
            "/api/v2/Search/tv/moviedb/1396",
            json!({"action": "details", "media": "tv", "tmdb_id": 1396}),
        ),
        (
            "/api/v1/Search/tv/info/81189",
            json!({"action": "details", "media": "tv", "tvdb_id": 81189}),
        ),
        (
            "/api/v2/Search/movie/603",
            json!({"action": "details", "media": "movie", "tmdb_id": 603}),
        ),
        (
            &format!("/api/v2/Search/artist/{}", data::LINKIN_PARK),
            json!({"action": "details", "media": "artist", "musicbrainz_id": data::LINKIN_PARK}),
        ),
    ] {
        rig.fake
            .add_fault(Fault::on("GET", path).respond(500, Some("application/json"), outage));
        let env = rig.err("read_media", args).await;
        assert_eq!(env["error"]["code"], "UPSTREAM_REJECTED", "{path}: {env:#}");
    }
    rig.fake.add_fault(
        Fault::on("GET", "/api/v2/Search/movie/collection/2344").respond(
            500,
            Some("application/json"),
            outage,
        ),
    );
    let env = rig
        .err(
            "read_discover",
            json!({"action": "collection", "collection_id": 2344}),
        )
        .await;
    assert_eq!(env["error"]["code"], "UPSTREAM_REJECTED");
    // The request routes still read a 500 as an unknown request.
    let env = rig
        .err(
            "read_media",
            json!({"action": "by_request", "target": {"kind": "tv_parent", "id": 999}}),
        )
        .await;
    assert_eq!(env["error"]["code"], "NOT_FOUND");
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
    assert_eq!(items(&env)[0]["media"], "movie");
    assert_eq!(items(&env)[0]["title"], "The Matrix");
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
    let matrix = items(&env)
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
    let bb = items(&env)
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
    assert_eq!(items(&env)[0]["genres"], json!(["Drama", "Crime"]));
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
    assert!(items(&env).is_empty());
}

/// The multi-search honours `people` and `music`: person rows, and the
/// capital-A `Artist` rows Ombi adds only while Lidarr is enabled.
#[tokio::test]
async fn search_multi_people_and_artists() {
    let rig = Rig::start().await;
    let env = rig.ok("read_search", json!({"query": "keanu"})).await;
    let it = items(&env);
    assert_eq!(
        (it[0]["media"].as_str(), ids(&it[0])),
        (Some("person"), vec![pair("tmdb", "6384")])
    );
    let env = rig.ok("read_search", json!({"query": "linkin"})).await;
    let it = items(&env);
    assert_eq!(
        (it[0]["media"].as_str(), ids(&it[0])),
        (Some("artist"), vec![pair("musicbrainz", data::LINKIN_PARK)])
    );
    set_lidarr(&rig, false);
    let env = rig.ok("read_search", json!({"query": "linkin"})).await;
    assert!(items(&env).is_empty(), "no Artist rows without Lidarr");
    // `tv` asks for neither people nor music.
    set_lidarr(&rig, true);
    let env = rig
        .ok("read_search", json!({"action": "tv", "query": "linkin"}))
        .await;
    assert!(items(&env).is_empty());
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
    let it = items(&env);
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
    assert_eq!(items(&env).len(), 4, "Spirited Away hidden");
    assert_eq!(continuation(&env), (Value::Null, json!(5)));
    assert!(
        items(&env).iter().all(|m| m["title"] != "Spirited Away"),
        "the available title is hidden"
    );
}

/// Ombi's search models default `languageCode` to "en": without a
/// `language` argument the acting user's Ombi language is sent.
#[tokio::test]
async fn search_bodies_carry_the_users_language() {
    let rig = Rig::start().await;
    rig.fake.add_fault(Fault::on("GET", "/api/v1/Identity").respond(
        200,
        Some("application/json"),
        r#"{"id": "u1", "userName": "bob", "alias": null, "language": "de", "streamingCountry": "DE"}"#,
    ));
    rig.ok("read_search", json!({"action": "movie", "query": "matrix"}))
        .await;
    let body: Value = serde_json::from_str(&rig.last("POST", "/api/v1/Search/movie").body).unwrap();
    assert_eq!(body, json!({"searchTerm": "matrix", "languageCode": "de"}));
    rig.ok(
        "read_search",
        json!({"action": "person_movies", "query": "keanu", "language": "fr"}),
    )
    .await;
    let body: Value =
        serde_json::from_str(&rig.last("POST", "/api/v1/Search/movie/actor").body).unwrap();
    assert_eq!(body, json!({"searchTerm": "keanu", "languageCode": "fr"}));
    rig.ok(
        "read_discover",
        json!({"action": "similar", "tmdb_id": 603}),
    )
    .await;
    let body: Value =
        serde_json::from_str(&rig.last("POST", "/api/v2/Search/movie/similar").body).unwrap();
    assert_eq!(body, json!({"theMovieDbId": 603, "languageCode": "de"}));
    // The user's language was read once for both searches that needed it.
    assert_eq!(rig.fake.hits("GET", "/api/v1/Identity"), 1);
}
