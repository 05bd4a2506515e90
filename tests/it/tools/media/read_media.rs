//! `read_media` against the fake Ombi: movie, TV and music details by each id, by request, ratings and
//! providers, cut answers, provider outages, album lookups, and the request state taken from the
//! request rather than from Ombi's 12-hour details cache.

use serde_json::{Value, json};

use crate::support::fake_ombi::Fault;
use crate::support::fake_ombi::routes::media::data;
use crate::support::rig::{Rig, err_code, err_message, items};
use crate::tools::media::{data_items, ids, pair, set_lidarr};
use crate::tools::{create_ok, plant_album_request, warnings};

fn musicbrainz(item: &Value) -> Option<&str> {
    item["identifiers"]
        .as_array()?
        .iter()
        .find(|i| i["namespace"] == "musicbrainz")?["value"]
        .as_str()
}

fn movie_state(env: &Value) -> (Value, Value) {
    let m = &items(env)[0];
    (m["requested"].clone(), m["available"].clone())
}

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
    let it = data_items(&env);
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
    assert_eq!(ids(&data_items(&env)[0])[0], pair("tmdb", "27205"));

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
    let it = data_items(&env);
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
    let it = data_items(&env);
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
        ids(&data_items(&env)[0]),
        vec![pair("musicbrainz", data::HYBRID_THEORY)]
    );
    let env = rig
        .ok(
            "read_media",
            json!({"action": "details", "media": "artist", "musicbrainz_id": data::LINKIN_PARK}),
        )
        .await;
    let it = data_items(&env);
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
    let a = &data_items(&env)[0];
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
    assert!(data_items(&env)[0].get("year").is_none());
    let env = rig
        .ok(
            "read_media",
            json!({"action": "by_request", "target": {"kind": "album", "id": 5}}),
        )
        .await;
    assert_eq!(data_items(&env)[0]["media"], "artist");
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
    assert_eq!(ids(&data_items(&env)[0])[0], pair("tmdb", "603"));
    let env = rig
        .ok(
            "read_media",
            json!({"action": "by_request", "target": {"kind": "tv_parent", "id": 10}}),
        )
        .await;
    assert_eq!(rig.fake.hits("GET", "/api/v2/Search/tv/request/10"), 1);
    assert_eq!(data_items(&env)[0]["title"], "Breaking Bad");
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
    assert_eq!(data_items(&env)[0]["media"], "artist");
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
    let r = &data_items(&env)[0]["ratings"];
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
    assert_eq!(data_items(&env)[0]["ratings"].as_array().unwrap().len(), 2);
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
    let it = data_items(&env);
    assert_eq!(ids(&it[0]), vec![pair("tmdb", "1396")]);
    assert_eq!(it[0]["providers"][0]["name"], "Netflix");
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
    let m = &data_items(&env)[0];
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
    let s = &data_items(&env)[0]["seasons"][0];
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

/// Ombi's v2 album route looks a MusicBrainz *release* up: every
/// release-group id the tools hand out fails there. Details go through
/// Lidarr's exact lookup instead, with the request state.
#[tokio::test]
async fn album_details_answer_for_release_group_ids() {
    let h = Rig::start().await;
    plant_album_request(&h);
    let env = h
        .ok(
            "read_media",
            json!({"action": "details", "media": "album", "musicbrainz_id": data::HYBRID_THEORY}),
        )
        .await;
    let album = &items(&env)[0];
    assert_eq!(album["title"], "Hybrid Theory");
    assert_eq!(musicbrainz(album), Some(data::HYBRID_THEORY));
    assert_eq!(album["requested"], true);
    assert_eq!(
        album["request_targets"],
        json!([{"kind": "album", "id": 7}])
    );
    assert_eq!(
        h.gets("/api/v1/Search/music/album/lidarr:")[0].path,
        format!("/api/v1/Search/music/album/lidarr:{}", data::HYBRID_THEORY)
    );
    assert!(h.gets("/api/v2/Search/artist/album").is_empty());
}

#[tokio::test]
async fn album_details_say_why_without_lidarr_or_for_an_unknown_id() {
    let h = Rig::start().await;
    let env = h
        .err(
            "read_media",
            json!({"action": "details", "media": "album", "musicbrainz_id": "11111111-2222-3333-4444-555555555555"}),
        )
        .await;
    assert_eq!(err_code(&env), "NOT_FOUND");
    assert!(err_message(&env).contains("release-group"));
    h.fake.with_data(|d| d.requests.lidarr_enabled = false);
    let env = h
        .err(
            "read_media",
            json!({"action": "details", "media": "album", "musicbrainz_id": data::HYBRID_THEORY}),
        )
        .await;
    assert_eq!(err_code(&env), "UNSUPPORTED_CAPABILITY");
}

/// Ombi's `available` on a show means "on the media server, possibly in
/// part"; details say `available` only when the whole show is there.
#[tokio::test]
async fn tv_details_are_available_only_when_fully_available() {
    let h = Rig::start().await;
    let env = h
        .ok(
            "read_media",
            json!({"action": "details", "media": "tv", "tmdb_id": 1396}),
        )
        .await;
    assert_eq!(items(&env)[0]["available"], false, "{env:#}");
}

/// Ombi keeps a details answer, request state included, for 12 hours by id;
/// the availability checkers and the Emby/Jellyfin syncs do not clear it.
/// A movie with a request takes its state from the request read, which is
/// current; when that read fails, the cached state comes with a warning.
#[tokio::test]
async fn movie_details_take_a_requests_state_from_the_request_not_ombis_cache() {
    let h = Rig::start().await;
    let args = json!({"action": "details", "media": "movie", "tmdb_id": 157336});
    let before = h.ok("read_media", args.clone()).await;
    assert_eq!(
        movie_state(&before),
        (json!(true), json!(false)),
        "{before:#}"
    );
    // Radarr's availability checker marks request 2 available: no purge.
    h.fake.with_data(|d| {
        d.movie_request_mut(2).unwrap()["available"] = json!(true);
    });
    let after = h.ok("read_media", args.clone()).await;
    assert_eq!(movie_state(&after), (json!(true), json!(true)), "{after:#}");
    assert_eq!(
        h.last("GET", "/api/v1/Request/movie/info").path,
        "/api/v1/Request/movie/info/2"
    );
    // The fake answers from its cache (as Ombi does): without the request
    // read the answer is the stale one, and says so.
    h.fake.add_fault(
        crate::support::fake_ombi::faults::Fault::on("GET", "/api/v1/Request/movie/info/*")
            .status(502),
    );
    let stale = h.ok("read_media", args).await;
    assert_eq!(
        movie_state(&stale),
        (json!(true), json!(false)),
        "{stale:#}"
    );
    assert!(warnings(&stale).contains("12 hours"), "{stale:#}");
}

/// A request write through Ombi purges its media cache: after an approve
/// and a mark-available through the daemon, details are fresh again.
#[tokio::test]
async fn request_writes_purge_ombis_details_cache() {
    let h = Rig::start().await;
    let args = json!({"action": "details", "media": "movie", "tmdb_id": 27205});
    let before = h.ok("read_media", args.clone()).await;
    assert_eq!(items(&before)[0]["requested"], false, "{before:#}");
    create_ok(&h, json!({"action": "movie", "tmdb_id": 27205})).await;
    let after = h.ok("read_media", args).await;
    assert_eq!(items(&after)[0]["requested"], true, "{after:#}");
    assert!(
        !items(&after)[0]["request_targets"]
            .as_array()
            .unwrap()
            .is_empty()
    );
}

/// A show's episodes take their availability from the child requests: the
/// cached details of Breaking Bad still say season 1 is not on the server
/// after Sonarr's checker marked it available.
#[tokio::test]
async fn tv_details_take_episode_state_from_the_requests() {
    let h = Rig::start().await;
    let args = json!({"action": "details", "media": "tv", "tmdb_id": 1396});
    let before = h.ok("read_media", args.clone()).await;
    let season_one = |env: &Value| {
        items(env)[0]["seasons"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["season_number"] == 1)
            .cloned()
            .unwrap()
    };
    let requested_available = |env: &Value| -> Vec<Value> {
        season_one(env)["episodes"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["requested"] == true)
            .map(|e| e["available"].clone())
            .collect()
    };
    assert_eq!(
        requested_available(&before),
        vec![json!(false); 3],
        "{before:#}"
    );
    h.fake.with_data(|d| {
        let child = crate::support::fake_ombi::state_writes::child_mut(d, 1396).unwrap();
        for e in child["seasonRequests"][0]["episodes"]
            .as_array_mut()
            .unwrap()
        {
            e["available"] = json!(true);
        }
    });
    let after = h.ok("read_media", args.clone()).await;
    assert_eq!(
        requested_available(&after),
        vec![json!(true); 3],
        "{after:#}"
    );
    assert_eq!(
        h.last("GET", "/api/v1/Request/tv/").path,
        "/api/v1/Request/tv/10"
    );
    // Ombi's own answer is still the cached one.
    h.fake.add_fault(
        crate::support::fake_ombi::faults::Fault::on("GET", "/api/v1/Request/tv/10").status(502),
    );
    let stale = h.ok("read_media", args).await;
    assert_eq!(
        requested_available(&stale),
        vec![json!(false); 3],
        "{stale:#}"
    );
}

/// A TMDB id that is no movie (here a show's) is Ombi's null dereference on
/// the movie details route: NOT_FOUND in our words, never the exception text.
#[tokio::test]
async fn a_show_id_asked_as_a_movie_is_not_found() {
    let rig = Rig::start().await;
    let env = rig
        .err(
            "read_media",
            json!({"action": "details", "media": "movie", "tmdb_id": 1399}),
        )
        .await;
    assert_eq!(env["error"]["code"], "NOT_FOUND", "{env:#}");
    let message = env["error"]["message"].as_str().unwrap();
    assert!(!message.contains("Object reference"), "{message}");
}
