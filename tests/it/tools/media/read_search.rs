//! `read_search` against the fake Ombi: the routes and bodies each search sends, the projected
//! identifiers, Lidarr, the user's language, and lists Ombi caps that must not claim their end.

use serde_json::{Value, json};

use crate::support::fake_ombi::Fault;
use crate::support::fake_ombi::routes::media::data;
use crate::support::fake_ombi::state::search_movie;
use crate::support::rig::{Rig, items};
use crate::tools::media::{data_items, ids, pair, set_lidarr};
use crate::tools::{page, warnings};

fn plant_movies(h: &Rig, n: i64) {
    h.fake.with_data(|d| {
        for i in 0..n {
            d.movies.push(search_movie(
                800_000 + i,
                &format!("Alien Saga {i}"),
                "1990-01-01",
                &format!("tt{:07}", 800_000 + i),
            ));
        }
    });
}

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
    let it = data_items(&env);
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
    let it = data_items(&env);
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
    let it = data_items(&env);
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
    assert_eq!(data_items(&env)[0]["title"], "The Matrix");
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
    let it = data_items(&env);
    assert_eq!(
        (it[0]["media"].as_str(), ids(&it[0])),
        (Some("artist"), vec![pair("musicbrainz", data::LINKIN_PARK)])
    );
    let env = rig
        .ok("read_search", json!({"action": "album", "query": "hybrid"}))
        .await;
    let it = data_items(&env);
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
    let it = data_items(&env);
    let kinds: Vec<&str> = it.iter().map(|m| m["media"].as_str().unwrap()).collect();
    assert_eq!(kinds, vec!["movie", "person", "artist"]);
    assert_eq!(ids(&it[2]), vec![pair("musicbrainz", data::LINKIN_PARK)]);
    let env = rig
        .ok("read_search", json!({"action": "tv", "query": "m"}))
        .await;
    assert!(data_items(&env).is_empty(), "tv keeps only tv rows");
}

/// The multi-search honours `people` and `music`: person rows, and the
/// capital-A `Artist` rows Ombi adds only while Lidarr is enabled.
#[tokio::test]
async fn search_multi_people_and_artists() {
    let rig = Rig::start().await;
    let env = rig.ok("read_search", json!({"query": "keanu"})).await;
    let it = data_items(&env);
    assert_eq!(
        (it[0]["media"].as_str(), ids(&it[0])),
        (Some("person"), vec![pair("tmdb", "6384")])
    );
    let env = rig.ok("read_search", json!({"query": "linkin"})).await;
    let it = data_items(&env);
    assert_eq!(
        (it[0]["media"].as_str(), ids(&it[0])),
        (Some("artist"), vec![pair("musicbrainz", data::LINKIN_PARK)])
    );
    set_lidarr(&rig, false);
    let env = rig.ok("read_search", json!({"query": "linkin"})).await;
    assert!(data_items(&env).is_empty(), "no Artist rows without Lidarr");
    // `tv` asks for neither people nor music.
    set_lidarr(&rig, true);
    let env = rig
        .ok("read_search", json!({"action": "tv", "query": "linkin"}))
        .await;
    assert!(data_items(&env).is_empty());
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

#[tokio::test]
async fn movie_search_at_ombis_ten_result_cap_does_not_claim_the_end() {
    let h = Rig::start().await;
    plant_movies(&h, 12);
    let env = h
        .ok(
            "read_search",
            json!({"action": "movie", "query": "alien saga"}),
        )
        .await;
    assert_eq!(items(&env).len(), 10);
    assert_eq!(page(&env)["has_more"], Value::Null);
    assert_eq!(page(&env)["total"], Value::Null);
    assert!(warnings(&env).contains("at most 10 movies"), "{env:#}");
    // Below the cap the list is Ombi's whole answer.
    let env = h
        .ok("read_search", json!({"action": "movie", "query": "matrix"}))
        .await;
    assert_eq!(page(&env)["has_more"], false);
    assert!(!warnings(&env).contains("at most"));
}

#[tokio::test]
async fn multi_search_at_tmdbs_first_page_does_not_claim_the_end() {
    let h = Rig::start().await;
    plant_movies(&h, 25);
    let env = h
        .ok(
            "read_search",
            json!({"action": "multi", "query": "alien saga"}),
        )
        .await;
    assert_eq!(items(&env).len(), 20);
    assert_eq!(page(&env)["has_more"], Value::Null);
    assert!(warnings(&env).contains("TMDB's first page"), "{env:#}");
    // `tv` filters TMDB's page here: its fullness is still seen.
    let env = h
        .ok(
            "read_search",
            json!({"action": "tv", "query": "alien saga"}),
        )
        .await;
    assert!(items(&env).is_empty());
    assert_eq!(page(&env)["has_more"], Value::Null);
}
