//! Unit tests of the media projections, on wire JSON shaped like Ombi's
//! search and details models.

use serde_json::{Value, json};

use super::*;
use crate::definition::Page;
use crate::projection::family_schema::assert_family;
use crate::projection::paging;

fn ids(m: &Media) -> Vec<(String, String)> {
    m.identifiers
        .iter()
        .map(|i| {
            let ns = serde_json::to_value(i.namespace).unwrap();
            (ns.as_str().unwrap().to_string(), i.value.clone())
        })
        .collect()
}

fn pair(ns: &str, v: &str) -> (String, String) {
    (ns.into(), v.into())
}

fn page_of(items: Vec<Media>) -> Value {
    let w = paging::local(
        items,
        Page {
            offset: 0,
            limit: 20,
        },
        true,
        "media",
    );
    let v = media_page(w);
    assert_family("media_page", &v);
    v
}

fn episodes(n: i64) -> Value {
    Value::Array(
        (1..=n)
            .map(|e| {
                json!({"id": 0, "episodeNumber": e, "title": format!("Episode {e}"), "airDate": "0001-01-01T00:00:00Z",
                       "url": null, "available": e == 1, "approved": false, "requested": e <= 2, "denied": null,
                       "deniedReason": null, "seasonId": 0, "season": null, "airDateDisplay": "Unknown", "requestStatus": ""})
            })
            .collect(),
    )
}

fn season_requests(seasons: i64, eps: i64) -> Value {
    Value::Array(
        (1..=seasons)
            .map(|s| {
                json!({"id": 0, "seasonNumber": s, "overview": null, "episodes": episodes(eps),
                            "childRequestId": 0, "childRequest": null, "seasonAvailable": false})
            })
            .collect(),
    )
}

/// `SearchTvShowViewModel` from `GET /api/v1/Search/tv/{term}` (TVMaze).
fn v1_tv_search() -> Value {
    serde_json::from_str(r#"{
        "id": 81189, "approved": false, "denied": null, "deniedReason": null, "requested": true, "requestId": 5,
        "available": false, "plexUrl": null, "embyUrl": null, "jellyfinUrl": null, "quality": null, "type": 0,
        "imdbId": "tt0903747", "theTvDbId": null, "theMovieDbId": "81189", "subscribed": false, "showSubscribe": false,
        "title": "Breaking Bad", "aliases": null, "banner": "https://static.tvmaze.com/uploads/images/original_untouched/0/2400.jpg",
        "seriesId": 169, "status": "Ended", "firstAired": "2008-01-20", "network": "AMC", "networkId": null, "runtime": "60",
        "genre": ["Drama", "Crime"], "overview": "A chemistry teacher...", "lastUpdated": 0, "airsDayOfWeek": null,
        "airsTime": null, "rating": "9.3", "siteRating": 0, "trailer": null, "homepage": null,
        "seasonRequests": [], "requestAll": false, "firstSeason": false, "latestSeason": false,
        "fullyAvailable": false, "partlyAvailable": false, "backdropPath": null, "posterPath": null
    }"#).unwrap()
}

/// `SearchTvShowViewModel` from `GET /api/v2/Search/tv/popular/{p}/{n}`: TMDB id, hydrated seasons.
fn v2_tv_list_item(tmdb: i64) -> Value {
    let mut v: Value = serde_json::from_str(r#"{
        "id": 0, "approved": false, "denied": null, "deniedReason": null, "requested": false, "requestId": 0,
        "available": false, "plexUrl": null, "embyUrl": null, "jellyfinUrl": null, "quality": null, "type": 0,
        "imdbId": null, "theTvDbId": null, "theMovieDbId": null, "subscribed": false, "showSubscribe": false,
        "title": "Game of Thrones", "aliases": null, "banner": null, "seriesId": 0, "status": null,
        "firstAired": "2011-04-17", "network": null, "networkId": null, "runtime": null, "genre": null,
        "overview": "Seven noble families...", "lastUpdated": 0, "airsDayOfWeek": null, "airsTime": null, "rating": null,
        "siteRating": 0, "trailer": null, "homepage": null, "seasonRequests": [],
        "requestAll": false, "firstSeason": false, "latestSeason": false, "fullyAvailable": false,
        "partlyAvailable": false, "backdropPath": "/suopoADq0k8YZr4dQXcU6pToj6s.jpg", "posterPath": "/1XS1oqL89opfnbLl8WnZY1O1uJx.jpg"
    }"#).unwrap();
    v["id"] = json!(tmdb);
    v["seasonRequests"] = season_requests(8, 10);
    v
}

#[test]
fn v1_tvmaze_search_labels_tvdb_and_tvmaze_and_hides_request_state() {
    let w: SearchTv = serde_json::from_value(v1_tv_search()).unwrap();
    let m = tv_item(w, Origin::TvMaze);
    assert_eq!(
        ids(&m),
        vec![
            pair("tvdb", "81189"),
            pair("tvmaze", "169"),
            pair("imdb", "tt0903747")
        ]
    );
    assert!(m.requested.is_none() && m.request_targets.is_empty());
    assert_eq!(m.year, Some(2008));
    assert_eq!(m.genres, vec!["Drama", "Crime"]);
    page_of(vec![m]);
}

#[test]
fn v2_tv_list_labels_tmdb_ignores_series_id_and_drops_season_trees() {
    let w: SearchTv = serde_json::from_value(v2_tv_list_item(1399)).unwrap();
    let m = tv_item(w, Origin::Tmdb);
    assert_eq!(ids(&m), vec![pair("tmdb", "1399")]);
    assert_eq!(m.requested, Some(false));
    assert_eq!(m.available, Some(false));
    assert!(m.seasons.is_none());
    let v = page_of(vec![m]);
    assert!(!v.to_string().contains("seasonRequests"));
    assert!(
        v["items"][0]["artwork_uris"][0]
            .as_str()
            .unwrap()
            .starts_with("https://image.tmdb.org/t/p/")
    );
}

#[test]
fn v2_tv_series_id_echoing_tmdb_is_not_tvmaze() {
    let mut wire = v2_tv_list_item(1396);
    wire["seriesId"] = json!(1396);
    wire["theMovieDbId"] = json!("1396");
    let m = tv_item(serde_json::from_value(wire).unwrap(), Origin::Tmdb);
    assert_eq!(ids(&m), vec![pair("tmdb", "1396")]);
}

/// `SearchFullInfoTvShowViewModel` (`GET /api/v2/Search/tv/moviedb/1396`).
fn v2_tv_details() -> Value {
    let mut v: Value = serde_json::from_str(r#"{
        "id": 1396, "approved": false, "denied": null, "requested": true, "requestId": 12, "available": false,
        "type": 0, "imdbId": "tt0903747", "theTvDbId": "81189", "theMovieDbId": "1396", "title": "Breaking Bad",
        "aliases": null, "banner": null, "seriesId": 1396, "status": "Ended", "firstAired": "2008-01-20",
        "networkId": "174", "runtime": "45", "genres": [{"id": 18, "name": "Drama"}, {"id": 80, "name": "Crime"}],
        "overview": "Walter White...", "lastUpdated": 0, "airsDayOfWeek": null, "airsTime": null, "rating": null,
        "siteRating": 0, "certification": "TV-MA", "tagline": null, "trailer": "HhesaQXLuRY", "homepage": null,
        "network": {"id": 174, "name": "AMC", "country": {"code": "US"}}, "images": {"medium": null, "original": "/ggFHVNu6YYI5L9pCfOacjizRGt.jpg"},
        "cast": [{"id": 17419, "person": "Bryan Cranston", "character": "Walter White", "image": null, "self": false, "voice": false},
                 {"id": 84497, "person": "Aaron Paul", "character": "Jesse Pinkman", "image": null, "self": false, "voice": false}],
        "crew": [{"id": 66633, "url": null, "name": "Vince Gilligan", "image": null}],
        "keywords": {"keywordsValue": [{"id": 1, "name": "drug"}]}, "externalIds": {"imdbId": "tt0903747", "facebookId": null},
        "seasonRequests": [], "requestAll": false, "firstSeason": false, "latestSeason": false,
        "fullyAvailable": false, "partlyAvailable": true
    }"#).unwrap();
    v["seasonRequests"] = season_requests(5, 13);
    v
}

#[test]
fn v2_tv_details_keep_tmdb_tvdb_seasons_and_cast() {
    let mut notes = Notes::default();
    let m = tv_details(
        serde_json::from_value(v2_tv_details()).unwrap(),
        Origin::Tmdb,
        &mut notes,
    );
    assert_eq!(
        ids(&m),
        vec![
            pair("tmdb", "1396"),
            pair("tvdb", "81189"),
            pair("imdb", "tt0903747")
        ]
    );
    assert_eq!(
        m.request_targets,
        vec![Target {
            kind: TargetKind::TvParent,
            id: 12
        }]
    );
    let seasons = m.seasons.as_ref().unwrap();
    assert_eq!(seasons.len(), 5);
    assert_eq!(seasons[0].episodes.len(), 13);
    assert_eq!(seasons[0].episodes[0].available, Some(true));
    assert_eq!(seasons[0].episodes[2].requested, Some(false));
    assert_eq!(m.credits[0].name, "Bryan Cranston");
    assert_eq!(m.credits[0].role.as_deref(), Some("Walter White"));
    assert_eq!(m.genres, vec!["Drama", "Crime"]);
    assert!(notes.warnings.is_empty(), "{notes:?}");
    assert!(!notes.truncated);
    page_of(vec![m]);
}

#[test]
fn v1_tv_info_by_tvdb_is_tvmaze_origin_with_a_warning() {
    let mut wire = v1_tv_search();
    wire["seasonRequests"] = season_requests(2, 3);
    let mut notes = Notes::default();
    let m = tv_details(
        serde_json::from_value(wire).unwrap(),
        Origin::TvMaze,
        &mut notes,
    );
    assert_eq!(ids(&m)[..2], [pair("tvdb", "81189"), pair("tvmaze", "169")]);
    assert!(m.requested.is_none());
    assert_eq!(notes.warnings.len(), 1);
    assert!(!notes.truncated, "a note, not a cut");
    assert_eq!(m.seasons.as_ref().unwrap().len(), 2);
}

#[test]
fn huge_season_trees_are_thinned_to_fit() {
    let mut wire = v2_tv_details();
    wire["seasonRequests"] = season_requests(40, 150);
    let mut notes = Notes::default();
    let m = tv_details(
        serde_json::from_value(wire).unwrap(),
        Origin::Tmdb,
        &mut notes,
    );
    let size = serde_json::to_vec(&m).unwrap().len();
    assert!(size <= DETAIL_BYTES, "{size}");
    let s = m.seasons.as_ref().unwrap();
    assert!(s.iter().all(|s| s.truncated && s.episodes.len() < 100));
    assert!(s[0].episodes[0].title.is_none());
    assert!(notes.warnings.iter().any(|w| w.contains("episode titles")));
    assert!(notes.truncated, "thinning the tree is a cut");
    page_of(vec![m]);
}

/// `MovieFullInfoViewModel` for The Matrix (theMovieDbId null; collection 2344).
fn movie_full() -> Value {
    serde_json::from_str(r#"{
        "id": 603, "approved": false, "denied": null, "requested": false, "requestId": 0, "available": true,
        "type": 1, "imdbId": "tt0133093", "theTvDbId": null, "theMovieDbId": null, "adult": false,
        "belongsToCollection": {"id": 2344, "name": "The Matrix Collection", "posterPath": "/bV9qTVHTVf0gkW0j7p7M0ILD4pG.jpg", "backdropPath": null},
        "backdropPath": "/icmmSD4vTTDKOq2vvdulafOGw93.jpg", "posterPath": "/f89U3ADr1oiB1s9GkdPOEpXUk5H.jpg",
        "budget": 63000000, "genres": [{"id": 28, "name": "Action"}, {"id": 878, "name": "Science Fiction"}],
        "originalLanguage": "en", "originalTitle": "The Matrix", "overview": "Set in the 22nd century...",
        "productionCompanies": [{"id": 79, "logo_path": null, "name": "Village Roadshow", "origin_country": "US"}],
        "popularity": 80.5, "releaseDate": "1999-03-30T00:00:00Z", "revenue": 463517383.0, "runtime": 136,
        "status": "Released", "tagline": "Welcome to the Real World.", "title": "The Matrix", "voteAverage": 8.2, "voteCount": 24000,
        "credits": {"cast": [{"cast_id": 34, "character": "Neo", "credit_id": "52fe", "gender": 2, "id": 6384, "name": "Keanu Reeves", "order": 0, "profile_path": null},
                             {"cast_id": 35, "character": "Trinity", "credit_id": "52ff", "gender": 1, "id": 530, "name": null, "order": 1, "profile_path": null}],
                    "crew": [{"credit_id": "53", "department": "Directing", "gender": 0, "id": 9340, "job": "Director", "name": "Lana Wachowski", "profile_path": null}]},
        "externalIds": {"imdbId": "tt0133093", "facebookId": null, "instagramId": null, "twitterId": null},
        "has4KRequest": false, "approved4K": false, "available4K": false, "denied4K": null,
        "markedAsApproved4K": "0001-01-01T00:00:00Z", "markedAsAvailable4K": null
    }"#).unwrap()
}

#[test]
fn movie_details_keep_the_collection_apart_from_the_movie() {
    let mut notes = Notes::default();
    let items = movie_details(serde_json::from_value(movie_full()).unwrap(), &mut notes);
    assert_eq!(items.len(), 2);
    assert_eq!(
        ids(&items[0]),
        vec![pair("tmdb", "603"), pair("imdb", "tt0133093")]
    );
    assert!(!ids(&items[0]).contains(&pair("tmdb", "2344")));
    assert_eq!(items[1].media, "collection");
    assert_eq!(ids(&items[1]), vec![pair("tmdb", "2344")]);
    assert_eq!(items[0].available, Some(true));
    assert!(items[0].request_targets.is_empty());
    // The unnamed cast member is skipped, not emitted with an empty name.
    let names: Vec<&str> = items[0].credits.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, vec!["Keanu Reeves", "Lana Wachowski"]);
    assert_eq!(items[0].credits[1].department.as_deref(), Some("Directing"));
    assert_eq!(items[0].ratings[0].name, "vote_average");
    assert_eq!(items[0].year, Some(1999));
    page_of(items);
}

#[test]
fn multi_search_media_type_is_case_insensitive() {
    let wire = json!([
        {"id": "603", "mediaType": "movie", "title": "The Matrix (1999)", "poster": "/p.jpg", "overview": "x"},
        {"id": "1396", "mediaType": "TV", "title": "Breaking Bad", "poster": null, "overview": null},
        {"id": "6384", "mediaType": "person", "title": "Keanu Reeves", "poster": null, "overview": null},
        {"id": "f59c5520-5f46-4d2c-b2c4-822eabf53419", "mediaType": "Artist", "title": "Linkin Park", "poster": null, "overview": null},
        {"id": "77", "mediaType": "collection", "title": "Odd", "poster": null, "overview": null}
    ]);
    let rows: Vec<MultiResult> = serde_json::from_value(wire).unwrap();
    let mut warnings = Vec::new();
    let items: Vec<Media> = rows
        .into_iter()
        .map(|r| multi_item(r, &mut warnings))
        .collect();
    let kinds: Vec<&str> = items.iter().map(|m| m.media).collect();
    assert_eq!(kinds, vec!["movie", "tv", "person", "artist", "unknown"]);
    assert_eq!(
        ids(&items[3]),
        vec![pair("musicbrainz", "f59c5520-5f46-4d2c-b2c4-822eabf53419")]
    );
    assert_eq!(ids(&items[4]), vec![pair("provider_unknown", "77")]);
    assert_eq!(items[0].year, Some(1999));
    assert!(items[0].requested.is_none() && items[0].available.is_none());
    assert_eq!(warnings.len(), 1);
    page_of(items);
}

#[test]
fn collections_keep_their_identity_and_members_without_bogus_flags() {
    let wire = json!({"name": "The Matrix Collection", "overview": "All of it", "collection": [
        {"id": 603, "approved": false, "requested": false, "requestId": 0, "available": false, "theMovieDbId": null,
         "imdbId": null, "overview": "Neo", "posterPath": "/a.jpg", "title": "The Matrix", "releaseDate": "1999-03-30T00:00:00Z"},
        {"id": 604, "approved": false, "requested": false, "requestId": 0, "available": false, "theMovieDbId": null,
         "imdbId": null, "overview": null, "posterPath": null, "title": "The Matrix Reloaded", "releaseDate": null}
    ]});
    let items = collection(serde_json::from_value(wire).unwrap(), 2344);
    assert_eq!(items[0].media, "collection");
    assert_eq!(ids(&items[0]), vec![pair("tmdb", "2344")]);
    assert_eq!(ids(&items[2]), vec![pair("tmdb", "604")]);
    assert!(
        items[1..]
            .iter()
            .all(|m| m.requested.is_none() && m.available.is_none())
    );
    page_of(items);
}

#[test]
fn music_search_uses_the_misspelled_artist_id_and_album_mbids() {
    let artist: ArtistSearch = serde_json::from_value(json!({
        "artistName": "Linkin Park", "forignArtistId": "f59c5520-5f46-4d2c-b2c4-822eabf53419", "overview": null,
        "disambiguation": "", "banner": null, "poster": "https://assets.fanart.tv/x.jpg", "logo": null,
        "monitored": false, "artistType": "Group", "cleanName": "linkinpark", "links": []
    }))
    .unwrap();
    let a = artist_item(artist);
    assert_eq!(
        ids(&a),
        vec![pair("musicbrainz", "f59c5520-5f46-4d2c-b2c4-822eabf53419")]
    );
    assert_eq!(a.title.as_deref(), Some("Linkin Park"));
    let album: AlbumSearch = serde_json::from_value(json!({
        "id": 0, "requested": true, "requestId": 4, "available": false, "type": 2, "theMovieDbId": null,
        "title": "Hybrid Theory", "foreignAlbumId": "7d4a5e3c-0000-4000-8000-000000000001", "monitored": false,
        "albumType": "Album", "rating": 0.0, "releaseDate": "2000-10-24T00:00:00Z", "artistName": "Linkin Park",
        "foreignArtistId": "f59c5520-5f46-4d2c-b2c4-822eabf53419", "cover": null, "disk": null, "percentOfTracks": 0,
        "genres": ["Nu Metal", {"name": "Rock"}, 3], "partiallyAvailable": false, "fullyAvailable": false
    }))
    .unwrap();
    let b = album_item(album);
    assert_eq!(
        ids(&b),
        vec![pair("musicbrainz", "7d4a5e3c-0000-4000-8000-000000000001")]
    );
    assert_eq!(
        b.request_targets,
        vec![Target {
            kind: TargetKind::Album,
            id: 4
        }]
    );
    assert_eq!(b.genres, vec!["Nu Metal", "Rock"]);
    page_of(vec![a, b]);
}

#[test]
fn credits_carry_the_callers_name_and_merge_roles_per_title() {
    let wire: WireCredits = serde_json::from_value(json!({"id": 6384,
        "cast": [{"character": "Neo", "credit_id": "a", "poster_path": null, "id": 603, "video": false, "vote_count": 1,
                  "adult": false, "backdrop_path": null, "genre_ids": [], "original_language": "en", "original_title": "The Matrix",
                  "popularity": 1.0, "title": "The Matrix", "vote_average": 8.0, "overview": "o", "release_date": "1999-03-30"}],
        "crew": [{"id": 603, "department": "Production", "job": "Producer", "title": "The Matrix"},
                 {"id": 0, "department": "Writing", "job": "Writer", "title": "Nothing"}]}))
    .unwrap();
    let items = credits("movie", wire, 6384, "Keanu Reeves");
    assert_eq!(items.len(), 1);
    assert_eq!(items[0].credits.len(), 2);
    assert!(
        items[0]
            .credits
            .iter()
            .all(|c| c.name == "Keanu Reeves" && c.person_id == Some(6384))
    );
    assert_eq!(items[0].credits[1].role.as_deref(), Some("Producer"));
    page_of(items);
}

#[test]
fn tv_credits_without_titles_stay_untitled() {
    let wire: WireCredits =
        serde_json::from_value(json!({"id": 1, "cast": [{"id": 1396, "character": "Walter", "title": null, "release_date": null}], "crew": null}))
            .unwrap();
    let items = credits("tv", wire, 17419, "Bryan Cranston");
    assert!(items[0].title.is_none());
    assert_eq!(ids(&items[0]), vec![pair("tmdb", "1396")]);
}

#[test]
fn providers_and_ratings() {
    let p: Vec<StreamingData> = serde_json::from_value(json!([
        {"order": 2, "streamingProvider": "Max", "logo": "/l.jpg"},
        {"order": 1, "streamingProvider": "Netflix", "logo": "/n.jpg"},
        {"order": 3, "streamingProvider": "", "logo": null}
    ]))
    .unwrap();
    let m = providers_item("movie", 603, p);
    let names: Vec<&str> = m
        .providers
        .as_ref()
        .unwrap()
        .iter()
        .map(|p| p.name.as_str())
        .collect();
    assert_eq!(names, vec!["Netflix", "Max"]);
    let r: WireRatings =
        serde_json::from_value(json!({"critics_rating": "Certified Fresh", "critics_score": 83, "audience_rating": null, "audience_score": 0}))
            .unwrap();
    let rt = ratings_item("movie", "The Matrix", 1999, r);
    let names: Vec<&str> = rt.ratings.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, vec!["critics_score", "critics_rating"]);
    let tv: WireRatings = serde_json::from_value(json!({"class": "fresh", "score": 96})).unwrap();
    assert_eq!(
        ratings_item("tv", "Breaking Bad", 2008, tv).ratings.len(),
        2
    );
    page_of(vec![m, rt]);
}

#[test]
fn recently_requested_tv_rows_target_the_child() {
    let rows: Vec<RecentlyRequested> = serde_json::from_value(json!([
        {"requestId": 1396, "type": 0, "userId": "u", "username": "bob", "available": false, "tvPartiallyAvailable": false,
         "requestDate": "2026-04-01T00:00:00Z", "title": "Breaking Bad", "overview": "o", "releaseDate": "2008-01-20T00:00:00Z",
         "approved": false, "denied": false, "mediaId": "1396", "posterPath": null, "background": null},
        {"requestId": 3, "type": 2, "title": "Hybrid Theory", "overview": "Linkin Park", "mediaId": "7d4a5e3c-0000-4000-8000-000000000001"}
    ]))
    .unwrap();
    let items: Vec<Media> = rows
        .into_iter()
        .filter_map(recently_requested_item)
        .collect();
    assert_eq!(
        items[0].request_targets,
        vec![Target {
            kind: TargetKind::TvChild,
            id: 1396
        }]
    );
    assert!(items[1].overview.is_none());
    assert_eq!(
        ids(&items[1]),
        vec![pair("musicbrainz", "7d4a5e3c-0000-4000-8000-000000000001")]
    );
    page_of(items);
}

#[test]
fn artwork_uris_are_safe() {
    assert_eq!(
        artwork_uri(Some("/abc.jpg")).as_deref(),
        Some("https://image.tmdb.org/t/p/original/abc.jpg")
    );
    assert_eq!(artwork_uri(Some("/../etc")), None);
    assert_eq!(artwork_uri(Some("javascript:alert(1)")), None);
    assert_eq!(artwork_uri(Some("https://user:pw@example.org/a.jpg")), None);
    assert_eq!(
        artwork_uri(Some("https://example.org/a.jpg?api_key=1")),
        None
    );
    assert_eq!(
        artwork_uri(Some("https://assets.fanart.tv/a.jpg#x")).as_deref(),
        Some("https://assets.fanart.tv/a.jpg")
    );
    assert_eq!(year_of(Some("0001-01-01T00:00:00Z")), None);
}

#[test]
fn tvmaze_html_summaries_become_plain_text() {
    let mut wire = v1_tv_search();
    wire["overview"] = json!("<p>A <b>chemistry</b> teacher &amp; his <i>partner</i> &lt;3</p>");
    let m = tv_item(serde_json::from_value(wire).unwrap(), Origin::TvMaze);
    assert_eq!(
        m.overview.as_deref(),
        Some("A chemistry teacher & his partner <3")
    );
    let mut wire = v2_tv_list_item(1);
    wire["overview"] = json!("x < y <b>");
    let m = tv_item(serde_json::from_value(wire).unwrap(), Origin::Tmdb);
    assert_eq!(
        m.overview.as_deref(),
        Some("x < y <b>"),
        "TMDB text is left alone"
    );
}

/// A 4K-only request: Ombi's `requested` is false but `has4KRequest` and
/// `requestId` say a request exists.
#[test]
fn movie_4k_only_request_counts_as_requested() {
    let w: SearchMovie = serde_json::from_value(json!({
        "id": 603, "theMovieDbId": null, "title": "The Matrix", "requested": false,
        "requestId": 7, "has4KRequest": true
    }))
    .unwrap();
    let m = movie_item(w);
    assert_eq!(m.requested, Some(true));
    assert_eq!(
        m.request_targets,
        vec![Target {
            kind: TargetKind::Movie,
            id: 7
        }]
    );
    let w: SearchMovie =
        serde_json::from_value(json!({"id": 603, "requested": false, "has4KRequest": false}))
            .unwrap();
    assert_eq!(movie_item(w).requested, Some(false));
}

/// Music titles are Ombi's own; extra context goes to the overview.
#[test]
fn music_titles_stay_as_sent() {
    let a: ArtistSearch = serde_json::from_value(json!({
        "artistName": "Genesis", "forignArtistId": "8e3fcd7d-bda1-4ca0-b987-b8528d2ee74e",
        "overview": null, "disambiguation": "English rock band"
    }))
    .unwrap();
    let m = artist_item(a);
    assert_eq!(m.title.as_deref(), Some("Genesis"));
    assert_eq!(m.overview.as_deref(), Some("English rock band"));
    let rg: ReleaseGroup = serde_json::from_value(json!({
        "id": "2a0981fb-9593-3019-864b-ce934d97a16e", "title": "Hybrid Theory", "releaseType": "Album"
    }))
    .unwrap();
    assert_eq!(
        release_group_item(rg).title.as_deref(),
        Some("Hybrid Theory")
    );
}
