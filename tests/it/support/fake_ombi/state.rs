//! The fake's data set, in one place, built from the field lists of Ombi's
//! wire models (camelCase names, nullability, `0001-01-01T00:00:00Z`
//! defaults, the wire's misspellings; quirks in docs/ombi-notes.md). Route
//! files read and change it.

use axum::body::Bytes;
use serde_json::{Value, json};

/// Non-nullable DateTime never set (shapes.md §0).
pub const NEVER: &str = "0001-01-01T00:00:00Z";

/// One request as the fake received it.
#[derive(Clone, Debug)]
pub struct LoggedRequest {
    pub method: String,
    /// The path exactly as received (base path and percent-encoding kept).
    pub raw_path: String,
    /// The path after the base path (still percent-encoded).
    pub path: String,
    pub query: Option<String>,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl LoggedRequest {
    /// A header's value (names compared case-insensitively).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// A vote row (`Votes`): voteType 0 up / 1 down; requestType per RequestType.
#[derive(Clone, Debug)]
pub struct Vote {
    pub user: String,
    pub request_id: i64,
    pub vote_type: i64,
    pub request_type: i64,
}

#[derive(Clone, Debug)]
pub struct Data {
    pub version: String,
    /// `MovieRequests` rows (shapes.md §3.2), full wire shape incl. `requestedUser`.
    pub movie_requests: Vec<Value>,
    /// TMDB movies the search routes know (`SearchMovieViewModel`, §2.2).
    pub movies: Vec<Value>,
    /// TMDB shows for the v2 TV lists (`SearchTvShowViewModel`, §2.3), hydrated.
    pub tv: Vec<Value>,
    /// `Issues` rows (§4.1).
    pub issues: Vec<Value>,
    /// `IssueComments` rows (§4.2).
    pub comments: Vec<Value>,
    pub votes: Vec<Vote>,
    /// Log files (name, content), newest first.
    pub logs: Vec<(String, String)>,
    /// `/api/v2/Features`.
    pub features: Vec<(String, bool)>,
    /// Media-server content in store order (see [`library_item`]): what
    /// the RecentlyAdded routes read.
    pub library: Vec<Value>,
    /// Users, settings and integrations (state_admin.rs).
    pub admin: super::state_admin::AdminData,
    /// Request-domain reads (state_requests.rs).
    pub requests: super::state_requests::RequestData,
    /// What only the write routes change, and their side effects (state_writes.rs).
    pub writes: super::state_writes::WriteData,
    /// Ombi's media cache (`Ombi.Helpers/MediaCacheService.cs`): the details
    /// answers of `V2/SearchController.cs`, rules included, by route and id
    /// alone (not by user), for 12 hours: longer than any test. A 204 is
    /// cached as `None`; a 500 is not cached. Purged by the movie and TV
    /// request writes (`routes::PURGES_MEDIA_CACHE`), not by changes made
    /// with `FakeOmbi::with_data` (Ombi's Emby/Jellyfin syncs and
    /// availability checkers, which do not purge).
    pub media_cache: std::collections::HashMap<String, Option<Value>>,
    next_id: i64,
}

impl Data {
    /// The sample data set served by `ombi-sample` and the tests.
    pub fn sample() -> Data {
        let movies = vec![
            search_movie(27205, "Inception", "2010-07-15T00:00:00Z", "tt1375666"),
            search_movie(603, "The Matrix", "1999-03-30T00:00:00Z", "tt0133093"),
            search_movie(157336, "Interstellar", "2014-11-05T00:00:00Z", "tt0816692"),
            search_movie(496243, "Parasite", "2019-05-30T00:00:00Z", "tt6751668"),
            search_movie(129, "Spirited Away", "2001-07-20T00:00:00Z", "tt0245429"),
        ];
        let tv = vec![
            search_tv(1399, "Game of Thrones", 8, 10),
            search_tv(1396, "Breaking Bad", 5, 13),
            search_tv(66732, "Stranger Things", 4, 9),
        ];
        let mut data = Data {
            version: "4.59.3".into(),
            movie_requests: Vec::new(),
            movies,
            tv,
            issues: Vec::new(),
            comments: Vec::new(),
            votes: Vec::new(),
            logs: vec![
                ("log20260502.txt".into(), sample_log(40)),
                ("log20260501.txt".into(), sample_log(3)),
            ],
            features: vec![
                ("Movie4KRequests".into(), false),
                ("PlayedSync".into(), false),
            ],
            library: vec![
                library_item(
                    31,
                    "movie",
                    "The Matrix",
                    Some(603),
                    Some("tt0133093"),
                    2,
                    &[],
                ),
                library_item(32, "movie", "Home Video", None, None, 1, &[]),
                library_item(40, "movie", "Old Acquisition", Some(129), None, 30, &[]),
                library_item(
                    77,
                    "series",
                    "Breaking Bad",
                    Some(1396),
                    Some("tt0903747"),
                    3,
                    &[(2, 1), (2, 2)],
                ),
                library_item(
                    78,
                    "series",
                    "Stranger Things",
                    Some(66732),
                    None,
                    4,
                    &[(2, 1)],
                ),
            ],
            admin: super::state_admin::AdminData::sample(),
            requests: Default::default(),
            writes: super::state_writes::WriteData::sample(),
            media_cache: std::collections::HashMap::new(),
            next_id: 100,
        };
        let mut req = movie_request(1, 603, "The Matrix", "bob");
        req["approved"] = json!(true);
        req["markedAsApproved"] = json!("2026-04-02T09:00:00Z");
        req["requestStatus"] = json!("Common.ProcessingRequest");
        req["canApprove"] = json!(false);
        data.movie_requests.push(req);
        data.movie_requests
            .push(movie_request(2, 157336, "Interstellar", "bob"));
        let mut denied = movie_request(3, 129, "Spirited Away", "alice");
        denied["denied"] = json!(true);
        denied["deniedReason"] = json!("Already on the shelf");
        denied["markedAsDenied"] = json!("2026-04-03T10:00:00Z");
        denied["requestStatus"] = json!("Common.Denied");
        data.movie_requests.push(denied);
        data.issues.push(json!({
            "id": 1, "title": "The Matrix", "requestType": 1, "providerId": "603", "requestId": 1,
            "subject": "No subtitles", "description": "English subtitles are missing",
            "issueCategoryId": 1, "issueCategory": {"id": 1, "value": "Subtitles"}, "status": 0,
            "resovledDate": null, "createdDate": "2026-04-04T12:00:00Z", "userReportedId": user_id("bob"),
            "userReported": ombi_user("bob"), "comments": null, "posterPath": null
        }));
        super::state_requests::extend_sample(&mut data);
        data
    }

    pub fn next_id(&mut self) -> i64 {
        self.next_id += 1;
        self.next_id
    }

    pub fn movie_request(&self, id: i64) -> Option<&Value> {
        self.movie_requests.iter().find(|r| r["id"] == json!(id))
    }

    pub fn movie_request_mut(&mut self, id: i64) -> Option<&mut Value> {
        self.movie_requests
            .iter_mut()
            .find(|r| r["id"] == json!(id))
    }
}

/// A stable GUID-shaped user id.
pub fn user_id(name: &str) -> String {
    let mut h: u64 = 1469598103934665603;
    for b in name.bytes() {
        h = (h ^ b as u64).wrapping_mul(1099511628211);
    }
    let s = format!("{h:016x}{:016x}", h.rotate_left(17));
    format!(
        "{}-{}-{}-{}-{}",
        &s[0..8],
        &s[8..12],
        &s[12..16],
        &s[16..20],
        &s[20..32]
    )
}

/// The aliases of the seeded users (the Identity table of `state_admin`):
/// every place Ombi embeds a user (a request's `requestedUser`, an issue's
/// `userReported`) shows the same alias the Users list does.
pub fn seeded_alias(name: &str) -> Option<&'static str> {
    match name {
        "alice" => Some("Alice A."),
        "carol" => Some("Caz"),
        _ => None,
    }
}

/// `OmbiUser` (shapes.md §1.1), secrets included as the real wire does;
/// `userAlias` is Ombi's computed alias-else-user-name.
pub fn ombi_user(name: &str) -> Value {
    let alias = seeded_alias(name);
    json!({
        "id": user_id(name), "userName": name, "normalizedUserName": name.to_uppercase(),
        "email": format!("{name}@example.org"), "normalizedEmail": format!("{}@EXAMPLE.ORG", name.to_uppercase()),
        "emailConfirmed": false, "phoneNumber": null, "phoneNumberConfirmed": false, "twoFactorEnabled": false,
        "lockoutEnd": null, "lockoutEnabled": true, "accessFailedCount": 0,
        "alias": alias, "userType": 1, "providerUserId": null, "lastLoggedIn": "2026-04-01T08:00:00Z",
        "language": null, "streamingCountry": "US",
        "movieRequestLimit": null, "episodeRequestLimit": null, "musicRequestLimit": null,
        "movieRequestLimitType": null, "episodeRequestLimitType": null, "musicRequestLimitType": null,
        "userAccessToken": "a94a8fe5ccb19ba61c4c0873d391e987", "mediaServerToken": "plexTok3nSecretValue123",
        "notificationUserIds": [], "userNotificationPreferences": null,
        "isEmbyConnect": false, "emailLogin": false, "isSystemUser": false, "userAlias": alias.unwrap_or(name)
    })
}

/// Every role Ombi seeds (`OmbiRoles`), in the order the fake lists claims.
pub const ROLES: &[&str] = &[
    "Admin",
    "AutoApproveMovie",
    "AutoApproveTv",
    "AutoApproveMusic",
    "PowerUser",
    "RequestTv",
    "RequestMovie",
    "RequestMusic",
    "Disabled",
    "ReceivesNewsletter",
    "ManageOwnRequests",
    "EditCustomPage",
    "Request4KMovie",
    "AutoApprove4KMovie",
];

/// `UserViewModel` (shapes.md §1.2) for `GET /api/v1/Identity`.
pub fn user_view(name: &str, roles: &[String]) -> Value {
    json!({
        "id": user_id(name), "userName": name, "alias": null,
        "claims": ROLES.iter().map(|r| json!({"value": r, "enabled": roles.iter().any(|x| x == r)})).collect::<Vec<_>>(),
        "emailAddress": if name == "Api" { Value::Null } else { json!(format!("{name}@example.org")) },
        "password": null, "lastLoggedIn": "2026-04-01T08:00:00Z", "language": null, "hasLoggedIn": true,
        "userType": if name == "Api" { 0 } else { 1 },
        "movieRequestLimit": 0, "episodeRequestLimit": 0, "musicRequestLimit": 0,
        "movieRequestLimitType": 1, "musicRequestLimitType": 1, "episodeRequestLimitType": 1,
        "streamingCountry": "US", "episodeRequestQuota": null, "movieRequestQuota": null, "musicRequestQuota": null,
        "userQualityProfiles": {"id": 0, "userId": user_id(name), "sonarrQualityProfileAnime": 0, "sonarrRootPathAnime": 0,
            "sonarrRootPath": 0, "sonarrQualityProfile": 0, "radarrRootPath": 0, "radarrQualityProfile": 0,
            "radarr4KRootPath": 0, "radarr4KQualityProfile": 0}
    })
}

/// `MovieRequests` (shapes.md §3.1-3.2), pending HD request.
pub fn movie_request(id: i64, tmdb: i64, title: &str, user: &str) -> Value {
    let full = json!({
        "theMovieDbId": tmdb, "issueId": null, "issues": null, "subscribed": false, "showSubscribe": true,
        "is4kRequest": false, "rootPathOverride": 0, "qualityOverride": 0,
        "has4KRequest": false, "approved4K": false, "markedAsApproved4K": NEVER, "requestedDate4k": NEVER,
        "available4K": false, "markedAsAvailable4K": null, "denied4K": null, "markedAsDenied4K": NEVER,
        "deniedReason4K": null, "requestCombination": 0, "langCode": "en",
        "imdbId": format!("tt{:07}", tmdb), "overview": format!("Overview of {title}."), "posterPath": format!("/p{tmdb}.jpg"),
        "releaseDate": "2010-07-15T00:00:00Z", "digitalReleaseDate": null, "status": "Released",
        "background": format!("/b{tmdb}.jpg"), "released": true, "digitalRelease": false
    });
    let base = json!({
        "id": id, "title": title, "approved": false, "markedAsApproved": NEVER,
        "requestedDate": "2026-04-01T08:30:00Z", "available": false, "markedAsAvailable": null,
        "requestedUserId": user_id(user), "denied": null, "markedAsDenied": NEVER, "deniedReason": null,
        "requestType": 1, "requestedByAlias": null, "requestedUser": ombi_user(user), "source": 0,
        "requestStatus": "Common.PendingApproval", "canApprove": true,
        "watchedByRequestedUser": false, "playedByUsersCount": 0
    });
    merge(base, full)
}

/// `a`'s fields, then `b`'s (two `json!` halves: the macro's recursion limit).
/// One media-server content row (Plex/Emby/Jellyfin, as Ombi stores it):
/// `kind` `movie` or `series`, added `days_ago` days before now, with its
/// episodes as (season, episode). Ids are strings on the RecentlyAdded models.
pub fn library_item(
    id: i64,
    kind: &str,
    title: &str,
    tmdb: Option<i64>,
    imdb: Option<&str>,
    days_ago: u64,
    episodes: &[(i64, i64)],
) -> Value {
    let added = std::time::SystemTime::now() - std::time::Duration::from_secs(days_ago * 86_400);
    json!({
        "id": id, "type": kind, "title": title, "imdbId": imdb,
        "theMovieDbId": tmdb.map(|t| t.to_string()), "tvDbId": null, "releaseYear": null,
        "addedAt": super::auth::iso(added), "quality": if kind == "movie" { json!("1080p") } else { Value::Null },
        "episodes": episodes.iter().map(|(s, e)| json!([s, e])).collect::<Vec<_>>()
    })
}

pub fn merge(a: Value, b: Value) -> Value {
    let (Value::Object(mut a), Value::Object(b)) = (a, b) else {
        return Value::Null;
    };
    a.extend(b);
    Value::Object(a)
}

/// `SearchMovieViewModel` (shapes.md §2.1-2.2): ids are strings here.
/// `theMovieDbId` is null as on the v2 lists (use `id`); The Matrix carries
/// the request state of sample movie request 1; Spirited Away is available.
pub fn search_movie(tmdb: i64, title: &str, release: &str, imdb: &str) -> Value {
    let request_id = if tmdb == 603 { 1 } else { 0 };
    // Spirited Away is in the media server: discovery may hide it.
    let available = tmdb == 129;
    let base = json!({
        "id": tmdb, "approved": request_id > 0, "denied": null, "deniedReason": null, "requested": request_id > 0,
        "requestId": request_id, "available": available, "plexUrl": null, "embyUrl": null, "jellyfinUrl": null, "quality": null,
        "type": 1, "imdbId": imdb, "theTvDbId": null, "theMovieDbId": null, "subscribed": false, "showSubscribe": false
    });
    let more = json!({
        "adult": false, "backdropPath": format!("/b{tmdb}.jpg"), "posterPath": format!("/p{tmdb}.jpg"),
        "genreIds": [28, 878], "originalLanguage": "en", "originalTitle": title,
        "overview": format!("Overview of {title}."), "popularity": 88.5, "voteAverage": 8.3, "voteCount": 35000,
        "title": title, "releaseDate": release, "video": false, "alreadyInCp": false, "trailer": null, "homepage": null,
        "rootPathOverride": 0, "qualityOverride": 0, "releaseDates": null, "digitalReleaseDate": null,
        "has4KRequest": false, "approved4K": false, "available4K": false, "denied4K": null, "deniedReason4K": null,
        "markedAsApproved4K": NEVER, "requestedDate4k": NEVER, "markedAsDenied4K": NEVER, "markedAsAvailable4K": null
    });
    merge(base, more)
}

/// `EpisodeRequests` as hydrated in search results (ids 0, shapes.md §3.5).
fn episode(n: i64) -> Value {
    json!({
        "id": 0, "episodeNumber": n, "title": format!("Episode {n}"), "airDate": "2019-04-14T00:00:00Z", "url": null,
        "available": false, "approved": false, "requested": false, "denied": null, "deniedReason": null,
        "seasonId": 0, "season": null, "airDateDisplay": "04/14/2019 00:00:00", "requestStatus": ""
    })
}

/// `SearchTvShowViewModel` as the v2 TV lists return it (TMDB `id`,
/// `seriesId` 0, every season and episode hydrated: the size that matters).
/// Breaking Bad carries the request state of sample TV parent request 10.
pub fn search_tv(tmdb: i64, title: &str, seasons: i64, episodes: i64) -> Value {
    let request_id = if tmdb == 1396 { 10 } else { 0 };
    let season_requests: Vec<Value> = (1..=seasons)
        .map(|s| {
            json!({
                "id": 0, "seasonNumber": s, "overview": format!("Season {s} of {title}."),
                "episodes": (1..=episodes).map(episode).collect::<Vec<_>>(),
                "childRequestId": 0, "childRequest": null, "seasonAvailable": false
            })
        })
        .collect();
    let base = json!({
        "id": tmdb, "approved": false, "denied": null, "deniedReason": null, "requested": request_id > 0,
        "requestId": request_id, "available": false, "plexUrl": null, "embyUrl": null, "jellyfinUrl": null, "quality": null, "type": 0,
        "imdbId": null, "theTvDbId": null, "theMovieDbId": null, "subscribed": false, "showSubscribe": false
    });
    let more = json!({
        "title": title, "aliases": null, "banner": null, "seriesId": 0, "status": "Ended", "firstAired": "2011-04-17",
        "network": "HBO", "networkId": null, "runtime": "60", "genre": null, "overview": format!("Overview of {title}."),
        "lastUpdated": 0, "airsDayOfWeek": null, "airsTime": null, "rating": "8.4", "siteRating": 0,
        "trailer": null, "homepage": null, "seasonRequests": season_requests,
        "requestAll": false, "firstSeason": false, "latestSeason": false,
        "fullyAvailable": false, "partlyAvailable": false,
        "backdropPath": format!("/tb{tmdb}.jpg"), "posterPath": format!("/tp{tmdb}.jpg")
    });
    merge(base, more)
}

/// `RequestEngineResult` (shapes.md §3.10).
pub fn engine_result(
    ok: bool,
    message: Option<&str>,
    error: Option<&str>,
    code: Option<&str>,
    request_id: i64,
) -> Value {
    json!({
        "result": ok, "message": message,
        "isError": error.is_some_and(|e| !e.is_empty()) || code.is_some(),
        "errorMessage": error, "errorCode": code, "requestId": request_id
    })
}

/// `x-www-form-urlencoded` decoding of one query key or value.
pub fn form_decode(s: &str) -> String {
    percent_decode(&s.replace('+', " "))
}

/// Decodes `%XX` (a path segment as ASP.NET routing sees it).
pub fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%'
            && i + 2 < b.len()
            && let Some(v) = std::str::from_utf8(&b[i + 1..i + 3])
                .ok()
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            out.push(v);
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A JSON array of about `bytes` bytes of hydrated TV shows, generated while
/// streaming (the fake never holds it whole).
pub fn big_array_stream(
    bytes: usize,
) -> impl futures::Stream<Item = Result<Bytes, std::io::Error>> + Send {
    let template = search_tv(0, "Generated Show", 10, 24).to_string();
    let rest = template
        .strip_prefix("{\"id\":0,")
        .expect("id first")
        .to_string();
    let state = (0usize, 0i64, false);
    futures::stream::unfold(state, move |(sent, n, done)| {
        let rest = rest.clone();
        async move {
            if done {
                return None;
            }
            let mut chunk = String::with_capacity(300 * 1024);
            let mut sent = sent;
            let mut n = n;
            if sent == 0 {
                chunk.push('[');
            }
            while chunk.len() < 256 * 1024 {
                if sent + chunk.len() >= bytes {
                    chunk.push(']');
                    let len = chunk.len();
                    return Some((Ok(Bytes::from(chunk)), (sent + len, n, true)));
                }
                if n > 0 {
                    chunk.push(',');
                }
                n += 1;
                chunk.push_str(&format!("{{\"id\":{n},"));
                chunk.push_str(&rest);
            }
            sent += chunk.len();
            Some((Ok(Bytes::from(chunk)), (sent, n, false)))
        }
    })
}

/// Serilog lines, some carrying what `read_logs` must redact.
fn sample_log(lines: usize) -> String {
    (0..lines)
        .map(|i| match i % 4 {
            0 => format!("2026-05-02 10:{:02}:00.000 +00:00 [INF] Request finished in 12ms 200 application/json", i % 60),
            1 => format!("2026-05-02 10:{:02}:01.000 +00:00 [WRN] Radarr call http://radarr.lan:7878/api/v3/movie?apikey=0123456789abcdef0123456789abcdef failed", i % 60),
            2 => format!("2026-05-02 10:{:02}:02.000 +00:00 [INF] User bob@example.org logged in", i % 60),
            _ => format!("2026-05-02 10:{:02}:03.000 +00:00 [ERR] Plex sync: X-Plex-Token=plexTok3nSecretValue123 rejected", i % 60),
        })
        .collect::<Vec<_>>()
        .join("\n")
}
