//! Sample answers of the media routes, in Ombi's wire shapes (quirks:
//! docs/ombi-notes.md) — quirks included: `theMovieDbId` holding a
//! TVDB id on the v1 TVMaze routes, `seriesId` echoing the TMDB id on v2
//! details, `forignArtistId`, string MBIDs hiding int ids, nulls and
//! `0001-01-01` defaults, mojibake labels in the language list.

use serde_json::{Value, json};

use super::super::super::state::{NEVER, merge, search_tv};

pub const LINKIN_PARK: &str = "f59c5520-5f46-4d2c-b2c4-822eabf53419";
pub const HYBRID_THEORY: &str = "2a0981fb-9593-3019-864b-ce934d97a16e";
pub const METEORA: &str = "2c13d17e-7f1f-3f1e-a4c0-2b6a1d5d6a5b";
/// A movie with 150 cast members and 120 genres (more than one nested list holds).
pub const CROWD_MOVIE: i64 = 990001;
/// A show whose one season has 150 episodes.
pub const LONG_SEASON_SHOW: i64 = 990002;
/// A TMDB collection without parts.
pub const EMPTY_COLLECTION: i64 = 990003;

/// `SearchViewModel` base fields (§2.1), as a movie or show carries them.
fn base(id: i64, kind: i64, requested: bool, request_id: i64, available: bool) -> Value {
    json!({
        "id": id, "approved": requested, "denied": null, "deniedReason": null, "requested": requested,
        "requestId": request_id, "available": available, "plexUrl": null, "embyUrl": null, "jellyfinUrl": null,
        "quality": null, "type": kind, "imdbId": null, "theTvDbId": null, "theMovieDbId": null,
        "subscribed": false, "showSubscribe": false
    })
}

/// `MovieFullInfoViewModel` (§2.4): `theMovieDbId` null, `id` = TMDB id,
/// `belongsToCollection.id` = the COLLECTION's id.
pub fn movie_full(tmdb: i64) -> Option<Value> {
    let (title, imdb, release, collection, request_id): (
        &str,
        &str,
        &str,
        Option<(i64, &str)>,
        i64,
    ) = match tmdb {
        603 => (
            "The Matrix",
            "tt0133093",
            "1999-03-30T00:00:00Z",
            Some((2344, "The Matrix Collection")),
            1,
        ),
        27205 => ("Inception", "tt1375666", "2010-07-15T00:00:00Z", None, 0),
        CROWD_MOVIE => ("Crowd Scene", "tt9900001", "2020-01-01T00:00:00Z", None, 0),
        _ => return None,
    };
    let mut b = base(tmdb, 1, request_id > 0, request_id, false);
    b["imdbId"] = json!(imdb);
    let more = json!({
        "adult": false, "video": false, "alreadyInCp": false,
        "belongsToCollection": collection.map(|(id, name)| json!({"id": id, "name": name, "posterPath": "/col.jpg", "backdropPath": null})),
        "backdropPath": format!("/b{tmdb}.jpg"), "posterPath": format!("/p{tmdb}.jpg"), "originalLanguage": "en",
        "originalTitle": title, "overview": format!("Overview of {title}."), "title": title, "tagline": null,
        "status": "Released", "trailer": null, "homepage": null, "budget": 63000000, "revenue": 463517383.0, "runtime": 136
    });
    let genres = json!({
        "genres": [{"id": 28, "name": "Action"}, {"id": 878, "name": "Science Fiction"}],
        "productionCompanies": [{"id": 79, "logo_path": null, "name": "Village Roadshow Pictures", "origin_country": "US"}],
        "popularity": 81.2, "voteAverage": 8.2, "voteCount": 24500, "releaseDate": release,
        "rootPathOverride": 0, "qualityOverride": 0
    });
    let credits = json!({
        "videos": {"results": [{"id": "v1", "iso_639_1": "en", "iso_3166_1": "US", "key": "vKQi3bBA1y8", "name": "Trailer", "site": "YouTube", "size": 1080, "type": "Trailer"}]},
        "credits": {
            "cast": [
                {"cast_id": 34, "character": "Neo", "credit_id": "52fe425bc3a36847f80181c1", "gender": 2, "id": 6384, "name": "Keanu Reeves", "order": 0, "profile_path": "/k.jpg"},
                {"cast_id": 35, "character": "Morpheus", "credit_id": "52fe425bc3a36847f80181c5", "gender": 2, "id": 2975, "name": "Laurence Fishburne", "order": 1, "profile_path": null}
            ],
            "crew": [{"credit_id": "52fe425bc3a36847f8018207", "department": "Directing", "gender": 1, "id": 9340, "job": "Director", "name": "Lana Wachowski", "profile_path": null}]
        },
        "releaseDates": null, "digitalReleaseDate": null
    });
    let rest = json!({
        "similar": {"page": 1, "results": [], "total_pages": 0, "total_results": 0},
        "recommendations": null,
        "externalIds": {"imdbId": imdb, "facebookId": null, "instagramId": null, "twitterId": null},
        "keywords": {"keywordsValue": [{"id": 310, "name": "artificial intelligence"}]},
        "has4KRequest": false, "approved4K": false, "available4K": false, "denied4K": null, "deniedReason4K": null,
        "requestedDate4k": NEVER, "markedAsApproved4K": NEVER, "markedAsDenied4K": NEVER, "markedAsAvailable4K": null
    });
    let mut full = merge(merge(merge(merge(b, more), genres), credits), rest);
    if tmdb == CROWD_MOVIE {
        full["credits"]["cast"] = (1..=150)
            .map(|i| json!({"cast_id": i, "character": format!("Extra {i}"), "credit_id": format!("c{i}"), "gender": 0, "id": 100000 + i, "name": format!("Extra Actor {i}"), "order": i, "profile_path": null}))
            .collect();
        full["genres"] = (1..=120)
            .map(|i| json!({"id": i, "name": format!("Genre {i}")}))
            .collect();
    }
    Some(full)
}

pub fn imdb_to_tmdb(imdb: &str) -> Option<i64> {
    match imdb {
        "tt0133093" => Some(603),
        "tt1375666" => Some(27205),
        _ => None,
    }
}

fn season_requests(seasons: i64, episodes: i64, available_first: bool) -> Value {
    Value::Array(
        (1..=seasons)
            .map(|s| {
                let eps: Vec<Value> = (1..=episodes)
                    .map(|e| json!({
                        "id": 0, "episodeNumber": e, "title": format!("S{s:02}E{e:02}"), "airDate": "2008-01-20T00:00:00Z",
                        "url": null, "available": available_first && s == 1, "approved": false, "requested": s == 2,
                        "denied": null, "deniedReason": null, "seasonId": 0, "season": null,
                        "airDateDisplay": "01/20/2008 00:00:00", "requestStatus": ""
                    }))
                    .collect();
                json!({"id": 0, "seasonNumber": s, "overview": null, "episodes": eps, "childRequestId": 0, "childRequest": null, "seasonAvailable": false})
            })
            .collect(),
    )
}

/// `SearchFullInfoTvShowViewModel` (§2.5) for Breaking Bad: id = seriesId =
/// theMovieDbId = TMDB 1396, theTvDbId = TVDB "81189", requestId = PARENT 10.
pub fn tv_full(tmdb: i64) -> Option<Value> {
    if tmdb == LONG_SEASON_SHOW {
        let mut v = tv_full(1396)?;
        v["id"] = json!(LONG_SEASON_SHOW);
        v["theMovieDbId"] = json!(LONG_SEASON_SHOW.to_string());
        v["seriesId"] = json!(LONG_SEASON_SHOW);
        v["title"] = json!("Long Season");
        v["requested"] = json!(false);
        v["requestId"] = json!(0);
        v["seasonRequests"] = season_requests(1, 150, false);
        return Some(v);
    }
    if tmdb != 1396 {
        return None;
    }
    // On the media server in part: `MediaServerAvailabilityRule` sets
    // `available` for any episode, `partlyAvailable` beside it.
    let mut b = base(1396, 0, true, 10, true);
    b["imdbId"] = json!("tt0903747");
    b["theTvDbId"] = json!("81189");
    b["theMovieDbId"] = json!("1396");
    let more = json!({
        "title": "Breaking Bad", "banner": null, "status": "Ended", "firstAired": "2008-01-20", "networkId": "174",
        "runtime": "45", "overview": "A chemistry teacher turned drug maker.", "airsDayOfWeek": null, "airsTime": null,
        "rating": null, "certification": "TV-MA", "tagline": null, "trailer": "HhesaQXLuRY", "homepage": null,
        "aliases": null, "seriesId": 1396
    });
    let rest = json!({
        "genres": [{"id": 18, "name": "Drama"}, {"id": 80, "name": "Crime"}],
        "lastUpdated": 0, "siteRating": 0, "network": {"id": 174, "name": "AMC", "country": {"code": "US", "name": "United States"}},
        "images": {"medium": null, "original": "/ggFHVNu6YYI5L9pCfOacjizRGt.jpg"},
        "cast": [{"id": 17419, "person": "Bryan Cranston", "character": "Walter White", "image": null, "self": false, "voice": false}],
        "crew": [{"id": 66633, "url": null, "name": "Vince Gilligan", "image": null}],
        "keywords": {"keywordsValue": [{"id": 1, "name": "drug dealer"}]},
        "externalIds": {"imdbId": "tt0903747", "facebookId": null, "instagramId": null, "twitterId": null},
        "seasonRequests": season_requests(5, 13, true), "requestAll": false, "firstSeason": false, "latestSeason": false,
        "fullyAvailable": false, "partlyAvailable": true
    });
    Some(merge(merge(b, more), rest))
}

/// `SearchTvShowViewModel` from the TVMaze-backed v1 routes: `id` AND
/// `theMovieDbId` are the TVDB id, `seriesId` the TVMaze id.
pub fn tv_v1_info(tvdb: i64) -> Option<Value> {
    if tvdb != 81189 {
        return None;
    }
    let mut b = base(81189, 0, false, 0, false);
    b["imdbId"] = json!("tt0903747");
    b["theMovieDbId"] = json!("81189");
    let more = json!({
        "title": "Breaking Bad", "aliases": null, "banner": "https://static.tvmaze.com/uploads/images/original_untouched/0/2400.jpg",
        "seriesId": 169, "status": "Ended", "firstAired": "2008-01-20", "network": "AMC", "networkId": "20", "runtime": "60",
        "genre": ["Drama", "Crime", "Thriller"]
    });
    let rest = json!({
        "overview": "<p>A high school chemistry teacher...</p>", "lastUpdated": 1700000000,
        "airsDayOfWeek": "Sunday", "airsTime": "22:00", "rating": "9.2", "siteRating": 9, "trailer": null, "homepage": null,
        "seasonRequests": season_requests(2, 3, false), "requestAll": false, "firstSeason": false, "latestSeason": false,
        "fullyAvailable": false, "partlyAvailable": false, "backdropPath": null, "posterPath": null
    });
    Some(merge(merge(b, more), rest))
}

/// `MovieCollectionsViewModel` (§2.7): members' flags never filled (bug).
pub fn collection(id: i64) -> Option<Value> {
    if id == EMPTY_COLLECTION {
        return Some(json!({"name": "Nothing Yet", "overview": "", "collection": []}));
    }
    if id != 2344 {
        return None;
    }
    let member = |tmdb: i64, title: &str, date: Option<&str>| {
        merge(
            base(tmdb, 1, false, 0, false),
            json!({"overview": format!("Overview of {title}."), "posterPath": format!("/p{tmdb}.jpg"), "title": title, "releaseDate": date}),
        )
    };
    Some(json!({
        "name": "The Matrix Collection", "overview": "The Matrix films.",
        "collection": [member(603, "The Matrix", Some("1999-03-30T00:00:00Z")), member(604, "The Matrix Reloaded", Some("2003-05-15T00:00:00Z")),
                       member(605, "The Matrix Revolutions", None)]
    }))
}

/// `SearchArtistViewModel` (§2.8, v1): note `forignArtistId`.
pub fn artist_search() -> Value {
    json!([{
        "artistName": "Linkin Park", "forignArtistId": LINKIN_PARK, "overview": "American rock band.", "disambiguation": "",
        "banner": null, "poster": "https://assets.fanart.tv/fanart/music/lp.jpg", "logo": null, "monitored": false,
        "artistType": "Group", "cleanName": "linkinpark", "links": [{"url": "https://linkinpark.com", "name": "homepage"}]
    }])
}

/// `SearchAlbumViewModel` (§2.8, v1): `id` 0, `foreignArtistId` is the artist's MBID.
pub fn album_search() -> Value {
    json!([merge(
        base(0, 2, true, 4, false),
        json!({
            "title": "Hybrid Theory", "foreignAlbumId": HYBRID_THEORY, "monitored": false, "albumType": "Album", "rating": 0.0,
            "releaseDate": "2000-10-24T00:00:00Z", "artistName": "Linkin Park", "foreignArtistId": LINKIN_PARK,
            "cover": "https://coverartarchive.org/release-group/2a0981fb/front.jpg", "disk": null, "percentOfTracks": 0.0,
            "genres": [], "partiallyAvailable": false, "fullyAvailable": false
        })
    )])
}

/// `ReleaseGroup` (§2.8): the string MBID `id` hides the base int id.
pub fn release_group(mbid: &str) -> Option<Value> {
    let (title, date) = match mbid {
        HYBRID_THEORY => ("Hybrid Theory", "2000-10-24"),
        METEORA => ("Meteora", "2003-03-25"),
        _ => return None,
    };
    let mut b = base(0, 2, false, 0, false);
    b["id"] = json!(mbid);
    Some(merge(
        b,
        json!({
            "title": title, "releaseDate": date, "releaseType": "Album", "percentOfTracks": 0.0, "monitored": false,
            "partiallyAvailable": false, "fullyAvailable": false
        }),
    ))
}

/// An artist with 40 albums, of which MusicBrainz embeds 25.
pub const PROLIFIC_ARTIST: &str = "7a2b1c3d-0000-4000-8000-000000000040";

/// An artist MusicBrainz knows without a start year (Ombi writes `""`).
pub const NO_YEAR_ARTIST: &str = "0b30341b-b59d-4979-8130-b66c0e475321";

/// `ArtistInformation` (§2.8, v2). Ombi's `MusicSearchEngineV2` reads it from
/// MusicBrainz; only when Lidarr is enabled (and has the artist) does it add
/// `poster`/`banner`/`logo`/`fanArt`/`overview`, else those stay null.
/// Unknown years are `""`.
pub fn artist_info(mbid: &str, lidarr: bool) -> Option<Value> {
    let (name, start, groups) = match mbid {
        LINKIN_PARK => (
            "Linkin Park",
            "1996",
            json!([release_group(HYBRID_THEORY), release_group(METEORA)]),
        ),
        NO_YEAR_ARTIST => ("Nameless Ensemble", "", json!([])),
        // MusicBrainz embeds at most 25 release groups in an artist lookup
        // (`MusicBrainzApi.GetArtistInformation`, `release-groups` include).
        PROLIFIC_ARTIST => (
            "Prolific Ensemble",
            "1970",
            Value::Array(
                (1..=40)
                    .map(|i| {
                        let mut rg = release_group(HYBRID_THEORY).unwrap();
                        rg["id"] = json!(format!("00000000-0000-4000-8000-{i:012}"));
                        rg["title"] = json!(format!("Album {i}"));
                        rg
                    })
                    .take(25)
                    .collect(),
            ),
        ),
        _ => return None,
    };
    let (poster, overview) = if lidarr {
        (
            json!("https://assets.fanart.tv/fanart/music/lp.jpg"),
            json!("American rock band."),
        )
    } else {
        (Value::Null, Value::Null)
    };
    Some(json!({
        "name": name, "id": mbid, "startYear": start, "endYear": "", "isEnded": false, "type": "Group",
        "country": "US", "region": "United States", "disambiguation": "", "banner": null, "logo": null,
        "poster": poster, "fanArt": null, "overview": overview,
        "releaseGroups": groups,
        "links": {"image": null, "imdb": null, "lastFm": null, "discogs": null, "allMusic": null, "homePage": "https://linkinpark.com",
                  "youTube": null, "facebook": null, "twitter": null, "bbcMusic": null, "mySpace": null, "onlineCommunity": null,
                  "spotify": null, "instagram": null, "vk": null, "deezer": null, "google": null, "apple": null},
        "members": [{"name": "Mike Shinoda", "attributes": ["vocals"], "isCurrentMember": true, "start": "1996", "end": null}]
    }))
}

/// `ActorCredits` (§2.9): no person name; TV items have no title.
pub fn actor_credits(person: i64, kind: &str) -> Option<Value> {
    if person != 6384 {
        return None;
    }
    Some(match kind {
        "movie" => json!({"id": 6384,
            "cast": [
                {"character": "Neo", "credit_id": "52fe425bc3a36847f80181c1", "poster_path": "/p603.jpg", "id": 603, "video": false,
                 "vote_count": 24500, "adult": false, "backdrop_path": null, "genre_ids": [28, 878], "original_language": "en",
                 "original_title": "The Matrix", "popularity": 81.2, "title": "The Matrix", "vote_average": 8.2,
                 "overview": "Overview of The Matrix.", "release_date": "1999-03-30"},
                {"character": "John Wick", "credit_id": "54", "poster_path": null, "id": 245891, "video": false, "vote_count": 1,
                 "adult": false, "backdrop_path": null, "genre_ids": [], "original_language": "en", "original_title": "John Wick",
                 "popularity": 1.0, "title": "John Wick", "vote_average": 7.4, "overview": null, "release_date": "2014-10-22"}
            ],
            "crew": [{"id": 603, "department": "Production", "job": "Executive Producer", "credit_id": "c1", "title": "The Matrix",
                      "release_date": "1999-03-30", "poster_path": null}]}),
        _ => json!({"id": 6384,
            "cast": [{"character": "Himself", "credit_id": "t1", "poster_path": null, "id": 1396, "video": false, "vote_count": 0,
                      "adult": false, "backdrop_path": null, "genre_ids": [], "original_language": "en", "original_title": null,
                      "popularity": 0.0, "title": null, "vote_average": 0.0, "overview": null, "release_date": null}],
            "crew": []}),
    })
}

pub fn ratings(kind: &str, name: &str) -> Option<Value> {
    match (kind, name) {
        ("movie", "The Matrix") => Some(
            json!({"critics_rating": "Certified Fresh", "critics_score": 83, "audience_rating": "Upright", "audience_score": 85}),
        ),
        ("tv", "Breaking Bad") => Some(json!({"class": "certified_fresh", "score": 96})),
        _ => None,
    }
}

pub fn streaming() -> Value {
    json!([
        {"order": 2, "streamingProvider": "Max", "logo": "/max.jpg"},
        {"order": 1, "streamingProvider": "Netflix", "logo": "/netflix.jpg"}
    ])
}

/// The v2 TV "requested" list element: a full-info show with its season graph.
pub fn tv_requested() -> Value {
    json!([tv_full(1396)])
}

/// `CalendarViewModel[]` (§6): TV title = episode title, TV providerId 0.
pub fn calendar() -> Value {
    json!([
        {"title": "The Matrix Resurrections", "start": "2026-05-20T00:00:00Z", "backgroundColor": "blue", "type": 1, "borderColor": "#ff0000",
         "extraParams": [{"providerId": 624860, "overview": "Return to the Matrix.", "type": 1, "releaseDate": "2026-05-20T00:00:00Z", "requestStatus": "Common.ProcessingRequest"}]},
        {"title": "Ozymandias", "start": "2026-05-21T00:00:00Z", "backgroundColor": "#469c83", "type": 0, "borderColor": "#00ff00",
         "extraParams": [{"providerId": 0, "overview": "", "type": 0, "releaseDate": "2026-05-21T00:00:00Z", "requestStatus": ""}]}
    ])
}

pub fn genres(media: &str) -> Value {
    match media {
        "tv" => json!([{"id": 10759, "name": "Action & Adventure"}, {"id": 18, "name": "Drama"}]),
        _ => {
            json!([{"id": 878, "name": "Science Fiction"}, {"id": 28, "name": "Action"}, {"id": 18, "name": "Drama"}])
        }
    }
}

/// TMDB languages, with the mojibake real instances show for native names.
pub fn languages() -> Value {
    json!([
        {"iso_639_1": "ja", "english_name": "Japanese", "name": "???"},
        {"iso_639_1": "en", "english_name": "English", "name": "English"},
        {"iso_639_1": "ka", "english_name": "", "name": "\u{FFFD}\u{FFFD}\u{FFFD}"},
        {"iso_639_1": "de", "english_name": "German", "name": "Deutsch"}
    ])
}

pub fn keywords() -> Vec<(i64, &'static str)> {
    vec![
        (310, "artificial intelligence"),
        (4565, "dystopia"),
        (9715, "superhero"),
    ]
}

pub fn watch_providers() -> Vec<Value> {
    vec![
        json!({"provider_id": 8, "logo_path": "/n.jpg", "provider_name": "Netflix", "origin_country": null}),
        json!({"provider_id": 337, "logo_path": "/d.jpg", "provider_name": "Disney Plus", "origin_country": null}),
        json!({"provider_id": 1899, "logo_path": "/m.jpg", "provider_name": "Max", "origin_country": null}),
    ]
}

/// A v2 TV list of `n` shows, each with `seasons`×`episodes` hydrated.
pub fn heavy_tv(n: i64, seasons: i64, episodes: i64) -> Vec<Value> {
    (0..n)
        .map(|i| search_tv(90000 + i, &format!("Show {i}"), seasons, episodes))
        .collect()
}
