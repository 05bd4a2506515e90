//! Media routes: v1/v2 search, discovery lists, details, music (Lidarr),
//! ratings/providers, recently added, calendar, artwork, reference lists.
//! Behaviour follows Ombi's controllers (docs/ombi-notes.md): 204 for null,
//! 500 where Ombi dereferences a null (unknown IMDb id or request id), 404
//! for an unknown TMDB keyword, recently added capped at 30 rows, the
//! watch-provider term ignored.
//! `GET /api/v1/Lidarr/enabled` and `recentlyRequested` are served by
//! `requests.rs` from the shared request data (`data.requests`).

pub mod data;

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};

use super::super::state::Data;
use super::super::{error_500, json, no_content, problem_400};
use super::{Access, Ctx, RouteDef, get, post, route};

const AUTH: Access = Access::Authenticated;

/// The fanart image routes (anonymous): `image_by_path` reads the kind from
/// the path.
const IMAGES: &[&str] = &[
    "api/v1/Images/poster/movie/{movieDbId}",
    "api/v1/Images/background/movie/{movieDbId}",
    "api/v1/Images/banner/movie/{movieDbId}",
    "api/v1/Images/poster/tv/tmdb/{tmdbId}",
    "api/v1/Images/background/tv/tmdb/{id}",
    "api/v1/Images/poster/tv/{tvdbid:int}",
    "api/v1/Images/background/tv/{tvdbid:int}",
    "api/v1/Images/tv/{tvdbid:int}",
];

pub fn routes() -> Vec<RouteDef> {
    let mut t = vec![
        // v1 search
        post("api/v1/Search/movie", movie_search),
        post("api/v1/Search/movie/actor", actor_search),
        get("api/v1/Search/tv/info/{tvdbId}", tv_v1_info),
        get("api/v1/Search/music/artist/{searchTerm}", |c| {
            lidarr_or_500(c, data::artist_search)
        }),
        get("api/v1/Search/music/album/{searchTerm}", album_lookup),
        get(
            "api/v1/Search/music/album/info/{foreignAlbumId}",
            album_info,
        ),
        // v2 lists
        get(
            "api/v2/Search/movie/{list}/{currentPosition:int}/{amountToLoad:int}",
            movie_list,
        ),
        get(
            "api/v2/Search/tv/{list}/{currentPosition:int}/{amountToLoad:int}",
            tv_list,
        ),
        post(
            "api/v2/Search/advancedSearch/movie/{currentPosition:int}/{amountToLoad:int}",
            advanced,
        ),
        post("api/v2/Search/movie/similar", similar),
        get("api/v2/Search/actor/{actorId:int}/movie", |c| {
            credits(c, "movie")
        }),
        get("api/v2/Search/actor/{actorId:int}/tv", |c| credits(c, "tv")),
        get(
            "api/v2/Search/movie/collection/{collectionId:int}",
            collection,
        ),
        // v2 details
        get("api/v2/Search/movie/{movieDbId:int}", movie_details),
        get("api/v2/Search/movie/imdb/{imdbid}", movie_by_imdb),
        get(
            "api/v2/Search/movie/request/{requestId:int}",
            movie_by_request,
        ),
        get("api/v2/Search/tv/moviedb/{moviedbid}", tv_details),
        get("api/v2/Search/tv/request/{requestId:int}", tv_by_request),
        get("api/v2/Search/artist/{artistId}", artist),
        get("api/v2/Search/artist/album/{albumId}", album),
        get(
            "api/v2/Search/artist/request/{requestId:int}",
            artist_by_request,
        ),
        get("api/v2/Search/ratings/movie/{name}/{year:int}", |c| {
            ratings(c, "movie")
        }),
        get("api/v2/Search/ratings/tv/{name}/{year:int}", |c| {
            ratings(c, "tv")
        }),
        get("api/v2/Search/stream/movie/{movieDbId:int}", |_| {
            json(data::streaming())
        }),
        get("api/v2/Search/stream/tv/{movieDbId:int}", |_| {
            json(data::streaming())
        }),
        // library
        get("api/v1/RecentlyAdded/movies", |c| {
            recently_added(c, "movie", false)
        }),
        get("api/v1/RecentlyAdded/tv", |c| {
            recently_added(c, "series", false)
        }),
        get("api/v1/RecentlyAdded/tv/grouped", |c| {
            recently_added(c, "series", true)
        }),
        get("api/v2/Calendar", |_| json(data::calendar())),
        get("api/v2/Search/releasegroupart/{musicBrainzId}", |c| {
            json(
                json!({"image": format!("https://coverartarchive.org/release-group/{}/front.jpg", c.param("musicBrainzId"))}),
            )
        }),
        // reference lists
        get("api/v2/Search/Genres/{media}", |c| {
            json(data::genres(c.param("media")))
        }),
        get("api/v2/Search/Languages", |_| json(data::languages())),
        get("api/v1/Identity/streamingcountry", |_| {
            json(json!(["US", "GB", "DE", "NL"]))
        }),
        get("api/v1/TheMovieDb/Keywords", keyword_search),
        get("api/v1/TheMovieDb/Keywords/{keywordId:int}", keyword),
        get("api/v1/TheMovieDb/WatchProviders/movie", watch_providers),
        get("api/v1/TheMovieDb/WatchProviders/tv", watch_providers),
        get("api/v1/Issues/categories", |c| {
            json(json!(c.shared.data.lock().unwrap().writes.issue_categories))
        }),
        route("GET", "api/v1/Identity/claims", Access::PowerUser, |_| {
            json(
                json!([{"value": "Admin", "enabled": false}, {"value": "RequestMovie", "enabled": false}, {"value": "PowerUser", "enabled": false}]),
            )
        }),
    ];
    t.extend(
        IMAGES
            .iter()
            .map(|&template| route("GET", template, Access::Anonymous, image_by_path)),
    );
    t
}

fn query<'a>(ctx: &'a Ctx, key: &str) -> Option<&'a str> {
    ctx.call
        .query
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(key))
        .map(|(_, v)| v.as_str())
}

/// The customization setting `hideAvailableFromDiscover`.
fn hide_available(ctx: &Ctx) -> bool {
    ctx.shared
        .data
        .lock()
        .unwrap()
        .admin
        .settings
        .get("customization")
        .and_then(|c| c["hideAvailableFromDiscover"].as_bool())
        .unwrap_or(false)
}

/// One `{currentPosition}/{amountToLoad}` page of a v2 discovery list.
/// With the customization setting `hideAvailableFromDiscover`, Ombi drops
/// available titles AFTER paging (ledger), so pages come back short.
pub fn window(items: Vec<Value>, ctx: &Ctx) -> Value {
    let hide = hide_available(ctx);
    Value::Array(
        items
            .into_iter()
            .skip(ctx.int("currentPosition").max(0) as usize)
            .take(ctx.int("amountToLoad").max(0) as usize)
            .filter(|t| !(hide && t["available"] == json!(true)))
            .collect(),
    )
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct SearchBody {
    search_term: Option<String>,
    year: Option<i64>,
}

/// A movie search POST: 400 without a body, no hits without `searchTerm`,
/// else what `hits` keeps of the movies for the lowercased term (and year).
fn search_movies(
    ctx: &Ctx,
    hits: impl FnOnce(Vec<Value>, &str, Option<i64>) -> Vec<Value>,
) -> Response {
    let Some(body) = ctx.body::<SearchBody>() else {
        return problem_400("model", "The model field is required.");
    };
    // A body without `searchTerm` (e.g. a mis-cased key) searches for
    // nothing upstream: no hits, never the whole catalogue.
    let Some(term) = body.search_term.map(|t| t.to_lowercase()) else {
        return json(json!([]));
    };
    let movies = ctx.shared.data.lock().unwrap().movies.clone();
    json(Value::Array(hits(movies, &term, body.year)))
}

fn movie_search(ctx: &Ctx) -> Response {
    search_movies(ctx, |movies, term, year| {
        movies
            .into_iter()
            .filter(|m| {
                m["title"]
                    .as_str()
                    .unwrap_or("")
                    .to_lowercase()
                    .contains(term)
            })
            .filter(|m| {
                year.is_none_or(|y| {
                    m["releaseDate"]
                        .as_str()
                        .unwrap_or("")
                        .starts_with(&y.to_string())
                })
            })
            // `MovieSearchEngine.Search`: `Take(ResultLimit)`, 10.
            .take(10)
            .collect()
    })
}

fn actor_search(ctx: &Ctx) -> Response {
    search_movies(ctx, |movies, term, _| {
        if term.contains("keanu") {
            movies
                .into_iter()
                .filter(|m| m["id"] == json!(603))
                .collect()
        } else {
            Vec::new()
        }
    })
}

fn movie_list(ctx: &Ctx) -> Response {
    let movies = ctx.shared.data.lock().unwrap().movies.clone();
    match ctx.param("list").to_ascii_lowercase().as_str() {
        "nowplaying" | "toprated" | "upcoming" | "seasonal" => json(window(movies, ctx)),
        // Ombi's requested list: titles of its own requests.
        "requested" => json(window(
            movies
                .into_iter()
                .filter(|m| m["id"] == json!(603))
                .collect(),
            ctx,
        )),
        _ => no_content(),
    }
}

/// The TV discovery lists page TMDB with Ombi's 10 as the page size
/// (`TvSearchEngineV2.cs`: `PaginationHelper.GetNextPages(position, amount,
/// ResultLimit)`), while a TMDB page holds 20: position `p` is TMDB page
/// `p / 10 + 1`, row `p % 10`, so ranks 11–20 of every TMDB page are never
/// served. `tv` stands for TMDB's ranking, in order.
pub fn tmdb_tv_window(tv: Vec<Value>, ctx: &Ctx) -> Value {
    let from = ctx.int("currentPosition").max(0) as usize;
    let amount = ctx.int("amountToLoad").max(0) as usize;
    let ranked: Vec<Value> = (from..from + amount)
        .filter_map(|p| tv.get(20 * (p / 10) + p % 10).cloned())
        .collect();
    let hide = hide_available(ctx);
    Value::Array(
        ranked
            .into_iter()
            .filter(|t| !(hide && t["available"] == json!(true)))
            .collect(),
    )
}

fn tv_list(ctx: &Ctx) -> Response {
    let tv = ctx.shared.data.lock().unwrap().tv.clone();
    match ctx.param("list").to_ascii_lowercase().as_str() {
        "trending" | "anticipated" | "mostwatched" => json(tmdb_tv_window(tv, ctx)),
        "requested" => json(data::tv_requested()),
        _ => no_content(),
    }
}

fn advanced(ctx: &Ctx) -> Response {
    let Some(body) = ctx.body::<Value>() else {
        return problem_400("model", "The model field is required.");
    };
    // TMDB discover by `type`; Ombi maps TV results through its movie
    // engine (SearchMovieViewModel: `releaseDate`, no seasons).
    let data = ctx.shared.data.lock().unwrap();
    let pool: Vec<Value> = match body["type"].as_str() {
        Some("movie") => data.movies.clone(),
        Some("tv") => data
            .tv
            .iter()
            .map(|t| {
                json!({"id": t["id"], "title": t["title"], "overview": t["overview"], "releaseDate": t["firstAired"],
                       "requested": false, "requestId": 0, "available": false, "theMovieDbId": null, "imdbId": null,
                       "posterPath": t["posterPath"], "backdropPath": t["backdropPath"], "type": 1})
            })
            .collect(),
        _ => Vec::new(),
    };
    drop(data);
    let genre = body["genreIds"]
        .as_array()
        .and_then(|g| g.first())
        .and_then(Value::as_i64);
    // TheMovieDbApi.AdvancedSearch: a decade becomes a date range; else a
    // release year after 1900 is sent as `year`, which only TMDB's movie
    // discovery reads. `keywordIds` go out as `with_keyword` (TMDB reads
    // `with_keywords`) and `companies` are never read: both do nothing.
    let decade = body["decade"].as_i64();
    let year = body["releaseYear"]
        .as_i64()
        .filter(|y| decade.is_none() && *y > 1900 && body["type"] == "movie");
    let year_of = |m: &Value| {
        m["releaseDate"]
            .as_str()
            .and_then(|d| d.get(..4))
            .and_then(|y| y.parse::<i64>().ok())
    };
    let hits: Vec<Value> = pool
        .into_iter()
        .filter(|m| year.is_none_or(|y| year_of(m) == Some(y)))
        .filter(|m| decade.is_none_or(|d| year_of(m).is_some_and(|y| (d..=d + 9).contains(&y))))
        .filter(|m| {
            genre.is_none_or(|g| {
                m["genreIds"]
                    .as_array()
                    .is_some_and(|ids| ids.contains(&json!(g)))
            })
        })
        .collect();
    json(window(hits, ctx))
}

fn similar(ctx: &Ctx) -> Response {
    let Some(body) = ctx.body::<Value>() else {
        return problem_400("model", "The model field is required.");
    };
    // No `theMovieDbId`: TMDB knows no movie 0, so nothing is similar.
    let Some(id) = body["theMovieDbId"].as_i64() else {
        return json(json!([]));
    };
    let movies = ctx.shared.data.lock().unwrap().movies.clone();
    json(Value::Array(
        movies
            .into_iter()
            .filter(|m| m["id"] != json!(id))
            .collect(),
    ))
}

fn credits(ctx: &Ctx, kind: &str) -> Response {
    match data::actor_credits(ctx.int("actorId"), kind) {
        Some(v) => json(v),
        None => json(json!({"id": ctx.int("actorId"), "cast": [], "crew": []})),
    }
}

fn collection(ctx: &Ctx) -> Response {
    data::collection(ctx.int("collectionId"))
        .map(json)
        .unwrap_or_else(no_content)
}

// The details routes answer through Ombi's 12-hour media cache
// (`super::media_cached`): request state and availability as of the first
// call since the last request write.

/// An id TMDB does not know as a movie (a show's id, say) is Ombi's null
/// dereference: 500 "Object reference not set…", not cached
/// (`MovieSearchEngineV2.GetFullMovieInformation` → `ProcessSingleMovie`).
fn movie_details(ctx: &Ctx) -> Response {
    let id = ctx.int("movieDbId");
    super::media_cached(ctx.shared, format!("GetMovieInfo{id}"), |d| {
        match super::writes_core_search::movie_details(d, id) {
            Some(v) => Ok(Some(v)),
            None => Err("Object reference not set to an instance of an object."),
        }
    })
}

/// The details `answer` gives for the TMDB id `tmdb_of` finds, cached under
/// `key`. Ombi's null dereference on an unknown id is a 500, which is not
/// cached.
fn cached_or_500(
    ctx: &Ctx,
    key: String,
    tmdb_of: impl FnOnce(&Data) -> Option<i64>,
    answer: fn(&Data, i64) -> Option<Value>,
) -> Response {
    super::media_cached(ctx.shared, key, |d| {
        match tmdb_of(d).and_then(|t| answer(d, t)) {
            Some(v) => Ok(Some(v)),
            None => Err("Object reference not set to an instance of an object."),
        }
    })
}

fn movie_by_imdb(ctx: &Ctx) -> Response {
    let imdb = ctx.param("imdbid");
    let key = format!("GetMovieInfoByImdbId{imdb}");
    let tmdb = |_: &Data| data::imdb_to_tmdb(imdb);
    cached_or_500(ctx, key, tmdb, super::writes_core_search::movie_details)
}

fn movie_by_request(ctx: &Ctx) -> Response {
    let id = ctx.int("requestId");
    let key = format!("GetMovieByRequest{id}");
    let tmdb = |d: &Data| d.movie_request(id)?["theMovieDbId"].as_i64();
    cached_or_500(ctx, key, tmdb, super::writes_core_search::movie_details)
}

fn tv_details(ctx: &Ctx) -> Response {
    let id = ctx.int("moviedbid");
    super::media_cached(ctx.shared, format!("GetTvInfoByMovieId{id}"), |d| {
        Ok(super::writes_core_search::tv_details(d, id))
    })
}

fn tv_by_request(ctx: &Ctx) -> Response {
    // The PARENT request's TMDB id (`externalProviderId`) → the show.
    let id = ctx.int("requestId");
    let key = format!("GetTvInfoByRequest{id}");
    let tmdb = |d: &Data| {
        let parent = d.requests.tv_parents.iter().find(|p| p["id"] == json!(id));
        parent?["externalProviderId"].as_i64()
    };
    cached_or_500(ctx, key, tmdb, super::writes_core_search::tv_details)
}

fn tv_v1_info(ctx: &Ctx) -> Response {
    let Ok(tvdb) = ctx.param("tvdbId").parse::<i64>() else {
        return error_500("Input string was not in a correct format.");
    };
    data::tv_v1_info(tvdb).map(json).unwrap_or_else(no_content)
}

fn lidarr(ctx: &Ctx) -> bool {
    ctx.shared.data.lock().unwrap().requests.lidarr_enabled
}

/// The v1 music searches call Lidarr with its saved settings: disabled
/// Lidarr makes them fail with a 500.
fn lidarr_or_500(ctx: &Ctx, answer: fn() -> Value) -> Response {
    if lidarr(ctx) {
        json(answer())
    } else {
        error_500("Lidarr is not enabled")
    }
}

fn artist(ctx: &Ctx) -> Response {
    data::artist_info(ctx.param("artistId"), lidarr(ctx))
        .map(json)
        .unwrap_or_else(no_content)
}

/// `GET api/v2/Search/artist/album/{albumId}` (`MusicSearchEngineV2.GetAlbum`)
/// asks MusicBrainz for a *release* by that id (`MusicBrainzApi.GetAlbumInformation`
/// → `Releases.GetAsync`, no `release-groups` include): a release-group id
/// (what every album request stores) is a MusicBrainz 404 that throws, and a
/// real release id comes back without its `ReleaseGroup`, which Ombi then
/// dereferences. Either way: a 500.
fn album(_: &Ctx) -> Response {
    error_500("Object reference not set to an instance of an object.")
}

/// `GET api/v1/Search/music/album/{searchTerm}` (`MusicSearchEngine.SearchAlbum`):
/// the term goes to Lidarr's `album/lookup?term=` as is. Lidarr reads a
/// `lidarr:{release-group id}` term as an exact lookup in its metadata (the
/// lookup Ombi's own `RequestAlbum` makes, `LidarrApi.GetAlbumByForeignId`):
/// that album or nothing. Each row gets the search rules' request state
/// (`ExistingRule`: the album request with that `ForeignAlbumId`).
fn album_lookup(ctx: &Ctx) -> Response {
    if !lidarr(ctx) {
        return error_500("Lidarr is not enabled");
    }
    let term = ctx.param("searchTerm");
    let Some(mbid) = term.strip_prefix("lidarr:") else {
        return json(data::album_search());
    };
    json(Value::Array(lidarr_album(ctx, mbid).into_iter().collect()))
}

/// A release group as Lidarr's album (`SearchAlbumViewModel`) with the
/// request state Ombi's search rules add; `None` when it is unknown.
fn lidarr_album(ctx: &Ctx, mbid: &str) -> Option<Value> {
    let rg = data::release_group(mbid)?;
    let mut vm = data::album_search()[0].clone();
    for k in ["requested", "approved", "available"] {
        vm[k] = json!(false);
    }
    vm["requestId"] = json!(0);
    vm["title"] = rg["title"].clone();
    vm["foreignAlbumId"] = json!(mbid);
    vm["releaseDate"] = json!(format!(
        "{}T00:00:00Z",
        rg["releaseDate"].as_str().unwrap_or("")
    ));
    let d = ctx.shared.data.lock().unwrap();
    super::super::state_writes::overlay_album_request(&d, mbid, &mut vm, true);
    Some(vm)
}

/// `GET /api/v1/Search/music/album/info/{foreignAlbumId}`: Lidarr's album
/// (`album?foreignAlbumId=`, its own library only) as a
/// `SearchAlbumViewModel` with its request state; an album Lidarr does not
/// hold is a null dereference (500).
fn album_info(ctx: &Ctx) -> Response {
    if !lidarr(ctx) {
        return error_500("Lidarr is not enabled");
    }
    match lidarr_album(ctx, ctx.param("foreignAlbumId")) {
        Some(vm) => json(vm),
        None => error_500("Object reference not set to an instance of an object."),
    }
}

fn artist_by_request(ctx: &Ctx) -> Response {
    // Any known album request resolves to its artist (the sample knows one).
    let known = ctx
        .shared
        .data
        .lock()
        .unwrap()
        .requests
        .albums
        .iter()
        .any(|a| a["id"] == json!(ctx.int("requestId")));
    let lidarr = lidarr(ctx);
    match known
        .then(|| data::artist_info(data::LINKIN_PARK, lidarr))
        .flatten()
    {
        Some(v) => json(v),
        None => error_500("Object reference not set to an instance of an object."),
    }
}

fn ratings(ctx: &Ctx, kind: &str) -> Response {
    data::ratings(kind, ctx.param("name"))
        .map(json)
        .unwrap_or_else(no_content)
}

/// Each Images route answers a JSON string: a fanart.tv URL, or `""`.
/// An image route's fanart kind follows from `Images/<what>/<media>`
/// (`Images/tv/{tvdbid}` is the TV banner).
fn image_by_path(ctx: &Ctx) -> Response {
    let path = ctx.call.path.to_ascii_lowercase();
    let after = path.split("images/").nth(1).unwrap_or("");
    let kind = match after.split('/').take(2).collect::<Vec<_>>()[..] {
        ["poster", "movie"] => "movieposter",
        ["background" | "banner", "movie"] => "moviebackground",
        ["poster", "tv"] => "tvposter",
        ["background", "tv"] => "showbackground",
        _ => "tvbanner",
    };
    image(ctx, kind)
}

fn image(ctx: &Ctx, kind: &str) -> Response {
    let id = ctx.params.values().next().cloned().unwrap_or_default();
    if id == "999999" {
        return json(json!(""));
    }
    json(json!(format!(
        "https://assets.fanart.tv/fanart/{kind}/{id}/{kind}-1.jpg"
    )))
}

fn keyword_search(ctx: &Ctx) -> Response {
    let term = query(ctx, "searchTerm").unwrap_or("").to_lowercase();
    let hits: Vec<Value> = data::keywords()
        .into_iter()
        .filter(|(_, n)| n.contains(&term))
        .map(|(id, name)| json!({"id": id, "name": name}))
        .collect();
    json(Value::Array(hits))
}

fn keyword(ctx: &Ctx) -> Response {
    match data::keywords()
        .into_iter()
        .find(|(id, _)| *id == ctx.int("keywordId"))
    {
        Some((id, name)) => json(json!({"id": id, "name": name})),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

/// `RecentlyAddedEngine`: content added in the last 7 days, in store
/// order; a show gives one row per episode (`RecentlyAddedTvModel`);
/// `grouped` keeps the first row of each *season number* across all shows
/// (`DistinctBy(SeasonNumber)`); every route stops at 30 rows.
fn recently_added(ctx: &Ctx, kind: &str, grouped: bool) -> Response {
    let now = std::time::SystemTime::now();
    let week_ago = now - std::time::Duration::from_secs(7 * 86_400);
    let library = ctx.shared.data.lock().unwrap().library.clone();
    let mut rows = Vec::new();
    for item in library.iter().filter(|i| i["type"] == kind) {
        let added = item["addedAt"]
            .as_str()
            .and_then(ombi_mcp::upstream::session::parse_utc);
        if !added.is_some_and(|a| a > week_ago && a < now) {
            continue;
        }
        let mut row = json!({
            "id": item["id"], "title": item["title"], "overview": null, "imdbId": item["imdbId"],
            "tvDbId": item["tvDbId"], "theMovieDbId": item["theMovieDbId"], "releaseYear": item["releaseYear"],
            "addedAt": item["addedAt"], "quality": item["quality"]
        });
        if kind == "movie" {
            rows.push(row);
            continue;
        }
        for ep in item["episodes"].as_array().into_iter().flatten() {
            row["seasonNumber"] = ep[0].clone();
            row["episodeNumber"] = ep[1].clone();
            rows.push(row.clone());
        }
    }
    if grouped {
        let mut seen = Vec::new();
        rows.retain(|r| {
            let fresh = !seen.contains(&r["seasonNumber"]);
            seen.push(r["seasonNumber"].clone());
            fresh
        });
    }
    rows.truncate(30);
    json(Value::Array(rows))
}

/// `TheMovieDbApi.SearchWatchProviders` passes `searchTerm` to TMDB's
/// `/watch/providers/{media}` as `query`, which TMDB ignores: the whole
/// catalogue comes back whatever the term.
fn watch_providers(_: &Ctx) -> Response {
    json(Value::Array(data::watch_providers()))
}
