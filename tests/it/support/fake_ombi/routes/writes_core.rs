//! Core write routes: request create (movie, TV, album, collection),
//! subscribe, vote, issue create and comment, the caller's preferences.
//! Each follows its Ombi controller and engine (docs/ombi-notes.md,
//! "Write routes"): rules and auto-approval for the CALLER, a save before
//! the send, the create's automatic upvote, business failures on HTTP 200.

use axum::response::Response;
use serde::Deserialize;
use serde_json::{Value, json};

use super::super::auth::Principal;
use super::super::state::{self, Data, NEVER, ombi_user, user_id};
use super::super::state_writes::{self as w, now};
use super::super::{error_500, json, no_content, ok_empty, problem, problem_400};
use super::requests::NRE;
use super::{Access, Ctx, RouteDef, get, post};

/// What EF Core on SQLite throws when a row names a missing parent row.
pub(crate) const FK_FAILED: &str =
    "An error occurred while saving the entity changes. See the inner exception for details.";

pub fn routes() -> Vec<RouteDef> {
    vec![
        post("api/v1/Request/movie", movie_create),
        post("api/v2/Requests/tv", tv_create),
        post("api/v1/request/music", album_create),
        post(
            "api/v2/Requests/movie/collection/{collectionId}",
            collection_create,
        ),
        post("api/v1/Request/movie/subscribe/{requestId:int}", |c| {
            subscription(c, 1, true)
        }),
        post("api/v1/Request/tv/subscribe/{requestId:int}", |c| {
            subscription(c, 0, true)
        }),
        post("api/v1/Request/movie/unsubscribe/{requestId:int}", |c| {
            subscription(c, 1, false)
        }),
        post("api/v1/Request/tv/unsubscribe/{requestId:int}", |c| {
            subscription(c, 0, false)
        }),
        post("api/v1/Vote/up/movie/{requestId:int}", |c| vote(c, 1, true)),
        post("api/v1/Vote/up/tv/{requestId:int}", |c| vote(c, 0, true)),
        post("api/v1/Vote/up/album/{requestId:int}", |c| vote(c, 2, true)),
        post("api/v1/Vote/down/movie/{requestId:int}", |c| {
            vote(c, 1, false)
        }),
        post("api/v1/Vote/down/tv/{requestId:int}", |c| vote(c, 0, false)),
        post("api/v1/Vote/down/album/{requestId:int}", |c| {
            vote(c, 2, false)
        }),
        post("api/v1/Issues", issue_create),
        post("api/v1/Issues/comments", add_comment),
        post("api/v1/Identity/language", |c| {
            profile_field(c, "lang", "language")
        }),
        post("api/v1/Identity/streamingcountry", |c| {
            profile_field(c, "code", "streamingCountry")
        }),
        post(
            "api/v1/Identity/NotificationPreferences",
            notification_preferences,
        ),
    ]
}

fn principal(ctx: &Ctx) -> Principal {
    ctx.principal.clone().expect("authenticated route")
}

/// `GetApiAlias`: the `ApiAlias` header, only next to an `ApiKey` header.
fn api_alias(ctx: &Ctx) -> Option<String> {
    let h = &ctx.call.headers;
    if !h.contains_key("apikey") {
        return None;
    }
    h.get("apialias")
        .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
}

/// `Username == "API"` or PowerUser or Admin: may request on behalf and override.
fn is_admin(p: &Principal) -> bool {
    p.user_name.eq_ignore_ascii_case("api") || p.is_power_user()
}

/// `CanRequestRule`: Admin and the system user pass; else the request or
/// auto-approve role of the media.
fn can_request(p: &Principal, roles: [&str; 2]) -> bool {
    p.api_user || p.is_admin() || roles.iter().any(|r| p.has_role(r))
}

/// `AutoApproveRule`: Admin and the system user always; else the role.
fn auto_approves(p: &Principal, role: &str) -> bool {
    p.api_user || p.is_admin() || p.has_role(role)
}

/// The requester: the on-behalf user (by id; unknown → the FK failure), or the caller.
fn requester(data: &Data, p: &Principal, on_behalf: Option<&str>) -> Result<String, Box<Response>> {
    match on_behalf.filter(|s| !s.is_empty()) {
        None => Ok(p.user_name.clone()),
        Some(id) => data
            .admin
            .users
            .iter()
            .find(|u| u["id"] == json!(id))
            .and_then(|u| u["userName"].as_str().map(str::to_string))
            .ok_or_else(|| Box::new(error_500(FK_FAILED))),
    }
}

fn failure(message: &str, error: &str, code: Option<&str>) -> Value {
    let m = (!message.is_empty()).then_some(message);
    state::engine_result(false, m, Some(error), code, 0)
}

/// `RequestLimitRule`: the caller's quota for the media (`RequestQuotaCountModel`,
/// what `.../remaining` serves) refuses a movie or album when nothing is left,
/// and a TV request when its episodes exceed what is left; the failure
/// carries `errorCode` (the v2 TV route drops it, see `tv_create`).
fn over_quota(data: &Data, media: &str, episodes: i64) -> Option<(&'static str, &'static str)> {
    let q = data.requests.quota(media)?;
    if q["hasLimit"] != json!(true) {
        return None;
    }
    let remaining = q["remaining"].as_i64().unwrap_or(0);
    match media {
        "movie" if remaining < 1 => Some((
            "You have exceeded your Movie request quota!",
            "MovieRequestQuotaExceeded",
        )),
        "tv" if remaining - episodes < 0 => Some((
            "You have exceeded your Episode request quota!",
            "TvRequestQuotaExceeded",
        )),
        "album" if remaining < 1 => Some((
            "You have exceeded your Album request quota!",
            "AlbumRequestQuotaExceeded",
        )),
        _ => None,
    }
}

fn feature(data: &Data, name: &str) -> bool {
    data.features
        .iter()
        .any(|(n, on)| n.eq_ignore_ascii_case(name) && *on)
}

// ---------------------------------------------------------------- movie

/// What one movie request asks (`MovieRequestViewModel`).
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct MovieAsk {
    the_movie_db_id: i64,
    #[serde(default)]
    language_code: Option<String>,
    #[serde(default)]
    is4k_request: bool,
    #[serde(default)]
    request_on_behalf: Option<String>,
    #[serde(default)]
    root_folder_override: Option<i64>,
    #[serde(default)]
    quality_path_override: Option<i64>,
}

/// `MovieRequestEngine.RequestMovie`; `Err` is a 500.
fn request_movie(
    data: &mut Data,
    p: &Principal,
    ask: &MovieAsk,
    alias: Option<String>,
) -> Result<Value, Box<Response>> {
    let Some((title, release)) = w::tmdb_movie(data, ask.the_movie_db_id) else {
        return Err(Box::new(error_500(
            "The remote server returned an error: (404) Not Found.",
        )));
    };
    let year = release.as_deref().and_then(|d| d.get(..4));
    let full = match year {
        Some(y) => format!("{title} ({y})"),
        None => title.clone(),
    };
    let admin = is_admin(p);
    let on_behalf = ask.request_on_behalf.as_deref().filter(|s| !s.is_empty());
    if on_behalf.is_some() && !admin {
        let m = "You do not have the correct permissions to request on behalf of users!";
        return Ok(failure(m, m, None));
    }
    if (ask.root_folder_override.is_some() || ask.quality_path_override.is_some()) && !admin {
        let m = "You do not have the correct permissions!";
        return Ok(failure(m, m, None));
    }
    let feature4k = feature(data, "Movie4KRequests");
    let is4k = ask.is4k_request;
    let existing = data
        .movie_requests
        .iter()
        .position(|r| r["theMovieDbId"] == json!(ask.the_movie_db_id));
    let mut model = match existing {
        Some(i) if feature4k => {
            let mut m = data.movie_requests[i].clone();
            if is4k {
                m["is4kRequest"] = json!(true);
                m["requestedDate4k"] = json!(now());
            } else {
                m["requestedDate"] = json!(now());
            }
            m
        }
        _ => {
            let user = requester(data, p, on_behalf)?;
            let mut m = state::movie_request(0, ask.the_movie_db_id, &title, &user);
            m["releaseDate"] = json!(release.clone().unwrap_or_else(|| NEVER.into()));
            m["requestedDate"] = json!(if is4k { NEVER.to_string() } else { now() });
            m["requestedDate4k"] = json!(if is4k { now() } else { NEVER.to_string() });
            m["is4kRequest"] = json!(is4k);
            m["langCode"] = json!(ask.language_code.clone().unwrap_or_else(|| "en".into()));
            m["requestedByAlias"] = json!(alias);
            m["rootPathOverride"] = json!(ask.root_folder_override.unwrap_or(0));
            m["qualityOverride"] = json!(ask.quality_path_override.unwrap_or(0));
            m
        }
    };
    // Rules in Ombi's order; the first failure answers.
    let approve_flag = if is4k && feature4k {
        "approved4K"
    } else {
        "approved"
    };
    let auto_role = if is4k {
        "AutoApprove4KMovie"
    } else {
        "AutoApproveMovie"
    };
    if auto_approves(p, auto_role) {
        model[approve_flag] = json!(true);
    }
    let request_role = if is4k {
        "Request4KMovie"
    } else {
        "RequestMovie"
    };
    if !can_request(p, [request_role, auto_role]) {
        return Ok(failure(
            "",
            "You do not have permissions to Request a Movie",
            Some("NoPermissionsRequestMovie"),
        ));
    }
    // ExistingMovieRequestRule sees the tracked row: the existing one as just modified.
    let dup = existing.map(|i| {
        if feature4k {
            &model
        } else {
            &data.movie_requests[i]
        }
    });
    if let Some(e) = dup {
        let hd_requested = e["requestedDate"].as_str().is_some_and(|d| d != NEVER);
        let has4k = e["has4KRequest"] == json!(true);
        let found = match (is4k, feature4k) {
            (true, true) => has4k,
            (false, true) => hd_requested,
            (_, false) => hd_requested || has4k,
        };
        if found {
            return Ok(failure(
                "",
                &format!("\"{title}\" has already been requested"),
                Some("AlreadyRequested"),
            ));
        }
    }
    if let Some((m, code)) = over_quota(data, "movie", 1) {
        return Ok(failure("", m, Some(code)));
    }
    // AddMovieRequest: the row is saved before any send.
    if is4k && feature4k {
        model["has4KRequest"] = json!(true);
    }
    let id = match existing {
        Some(i) if feature4k => {
            let id = model["id"].as_i64().unwrap_or(0);
            w::refresh(&mut model);
            data.movie_requests[i] = model;
            id
        }
        _ => {
            let id = data.next_id();
            model["id"] = json!(id);
            w::refresh(&mut model);
            data.movie_requests.push(model);
            id
        }
    };
    let added = state::engine_result(
        true,
        Some(&format!("{full} has been successfully added!")),
        None,
        None,
        id,
    );
    let approved = data
        .movie_request(id)
        .is_some_and(|r| r["approved"] == json!(true) || r["approved4K"] == json!(true));
    if approved {
        let sent = w::approve_movie(data, id, is4k);
        if sent["isError"] == json!(true) {
            // Saved and approved, but the answer carries no id.
            return Ok(
                json!({"result": false, "message": sent["message"], "isError": true,
                             "errorMessage": sent["message"], "errorCode": null, "requestId": 0}),
            );
        }
    }
    Ok(added)
}

/// `RequestController.RequestMovie`: a success is upvoted as the caller.
fn movie_create(ctx: &Ctx) -> Response {
    let Some(ask) = ctx.body::<MovieAsk>() else {
        return problem_400("movie", "The movie field is required.");
    };
    let p = principal(ctx);
    let alias = api_alias(ctx);
    let mut data = ctx.shared.data.lock().unwrap();
    let result = match request_movie(&mut data, &p, &ask, alias) {
        Ok(r) => r,
        Err(resp) => return *resp,
    };
    upvote_created(&mut data, &p, &result, 1);
    json(result)
}

fn upvote_created(data: &mut Data, p: &Principal, result: &Value, kind: i64) {
    if result["result"] == json!(true) {
        let id = result["requestId"].as_i64().unwrap_or(0);
        w::vote(data, &p.user_name, id, kind, true);
    }
}

/// `MovieRequestEngine.RequestCollection`: every part through the movie
/// flow (no upvote); always `result: true` with the FIRST part's id (0 when
/// that part failed); an unknown or empty collection is a 500.
fn collection_create(ctx: &Ctx) -> Response {
    let Ok(collection_id) = ctx.param("collectionId").parse::<i64>() else {
        return problem_400(
            "collectionId",
            &format!("The value '{}' is not valid.", ctx.param("collectionId")),
        );
    };
    let Some(collection) = super::media::data::collection(collection_id) else {
        return error_500(NRE);
    };
    let p = principal(ctx);
    let mut data = ctx.shared.data.lock().unwrap();
    let lang = w::user_row(&data, &p.user_name)
        .and_then(|u| u["language"].as_str().map(str::to_string))
        .unwrap_or_else(|| "en".into());
    let mut first = None;
    for part in collection["collection"].as_array().into_iter().flatten() {
        let ask = MovieAsk {
            the_movie_db_id: part["id"].as_i64().unwrap_or(0),
            language_code: Some(lang.clone()),
            ..MovieAsk::default()
        };
        match request_movie(&mut data, &p, &ask, None) {
            Ok(r) => {
                first.get_or_insert(r["requestId"].as_i64().unwrap_or(0));
            }
            Err(resp) => return *resp,
        }
    }
    let Some(first) = first else {
        return error_500(NRE);
    };
    let name = collection["name"].as_str().unwrap_or_default();
    json(state::engine_result(
        true,
        Some(&format!(
            "The collection {name} has been successfully added!"
        )),
        None,
        None,
        first,
    ))
}

// ---------------------------------------------------------------- TV

fn field<'a>(v: &'a Value, name: &str) -> &'a Value {
    v.as_object()
        .and_then(|o| o.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)))
        .map(|(_, v)| v)
        .unwrap_or(&Value::Null)
}

fn present(v: &Value, name: &str) -> bool {
    v.as_object()
        .is_some_and(|o| o.keys().any(|k| k.eq_ignore_ascii_case(name)))
}

fn new_episode(id: i64, season_id: i64, (n, title, air): &(i64, String, String)) -> Value {
    json!({
        "id": id, "episodeNumber": n, "title": title, "airDate": air, "url": null, "available": false,
        "approved": false, "requested": false, "denied": null, "deniedReason": null, "seasonId": season_id,
        "season": null, "airDateDisplay": air, "requestStatus": "Common.PendingApproval"
    })
}

/// `TvShowRequestBuilderV2.BuildEpisodes`: the seasons and episodes asked,
/// from what TMDB knows (unknown episodes are dropped).
fn build_seasons(body: &Value, show: &[w::Season]) -> Vec<w::Season> {
    let pick = |season: i64| -> Vec<w::Season> {
        show.iter().filter(|(n, _)| *n == season).cloned().collect()
    };
    if field(body, "requestAll") == &json!(true) {
        return show.to_vec();
    }
    if field(body, "latestSeason") == &json!(true) {
        return show
            .iter()
            .map(|(n, _)| *n)
            .max()
            .map(pick)
            .unwrap_or_default();
    }
    if field(body, "firstSeason") == &json!(true) {
        return show
            .iter()
            .map(|(n, _)| *n)
            .filter(|n| *n != 0)
            .min()
            .map(pick)
            .unwrap_or_default();
    }
    let asked = |season: i64, ep: i64| {
        field(body, "seasons")
            .as_array()
            .into_iter()
            .flatten()
            .any(|s| {
                field(s, "seasonNumber") == &json!(season)
                    && field(s, "episodes")
                        .as_array()
                        .into_iter()
                        .flatten()
                        .any(|e| field(e, "episodeNumber") == &json!(ep))
            })
    };
    show.iter()
        .map(|(n, eps)| {
            let kept = eps.iter().filter(|e| asked(*n, e.0)).cloned().collect();
            (*n, kept)
        })
        .filter(|(_, eps): &w::Season| !eps.is_empty())
        .collect()
}

/// Removes from `asked` every episode `child` already has; drops empty seasons.
fn remove_requested(asked: &mut [w::Season], child: &Value) {
    for s in child["seasonRequests"].as_array().into_iter().flatten() {
        let n = s["seasonNumber"].as_i64().unwrap_or(-1);
        for (_, eps) in asked.iter_mut().filter(|(sn, _)| *sn == n) {
            eps.retain(|e| {
                !s["episodes"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .any(|x| x["episodeNumber"] == json!(e.0))
            });
        }
    }
}

/// `TvRequestEngine.RequestTvShow(TvRequestViewModelV2)`.
fn tv_create(ctx: &Ctx) -> Response {
    let Some(body) = ctx.body::<Value>().filter(Value::is_object) else {
        return problem_400("tv", "The tv field is required.");
    };
    let p = principal(ctx);
    let admin = is_admin(&p);
    let on_behalf = field(&body, "requestOnBehalf")
        .as_str()
        .filter(|s| !s.is_empty());
    if on_behalf.is_some() && !admin {
        let m = "You do not have the correct permissions to request on behalf of users!";
        return json(failure(m, m, Some("NoPermissionsOnBehalf")));
    }
    let overrides = [
        "rootFolderOverride",
        "qualityPathOverride",
        "languageProfile",
    ];
    if overrides.iter().any(|k| !field(&body, k).is_null()) && !admin {
        let m = "You do not have the correct permissions!";
        return json(failure(m, m, Some("NoPermissions")));
    }
    let tmdb_id = field(&body, "theMovieDbId").as_i64().unwrap_or(0);
    let mut data = ctx.shared.data.lock().unwrap();
    let Some((title, tvdb, show)) = w::tmdb_show(&data, tmdb_id) else {
        return error_500("The remote server returned an error: (404) Not Found.");
    };
    // CreateTvList: `seasons: null`, or a season with `episodes: null`, dereferences null.
    let seasons = field(&body, "seasons");
    if present(&body, "seasons") && !seasons.is_array()
        || seasons
            .as_array()
            .into_iter()
            .flatten()
            .any(|s| !field(s, "episodes").is_array())
    {
        return error_500(NRE);
    }
    let user = match requester(&data, &p, on_behalf) {
        Ok(u) => u,
        Err(resp) => return *resp,
    };
    let mut asked = build_seasons(&body, &show);
    let approved = auto_approves(&p, "AutoApproveTv");
    if !can_request(&p, ["RequestTv", "AutoApproveTv"]) {
        // V2 returns only the rule's message: no errorCode.
        return json(failure(
            "",
            "You do not have permissions to Request a TV Show",
            None,
        ));
    }
    let parent_idx = data
        .requests
        .tv_parents
        .iter()
        .position(|t| t["externalProviderId"] == json!(tmdb_id));
    if let Some(pi) = parent_idx {
        // ExistingTvRequestRule compares with the parent's FIRST child only.
        if let Some(first) = data.requests.tv_parents[pi]["childRequests"].get(0) {
            remove_requested(&mut asked, first);
            if asked.iter().all(|(_, e)| e.is_empty()) {
                return json(failure(
                    "",
                    &format!("We already have episodes requested from series {title}"),
                    None,
                ));
            }
        }
    }
    // RequestLimitRule runs after ExistingTVRequestRule, on the episodes the
    // rules left; like every TV rule failure it answers its text only.
    let episodes: i64 = asked.iter().map(|(_, e)| e.len() as i64).sum();
    if let Some((m, _)) = over_quota(&data, "tv", episodes) {
        return json(failure("", m, None));
    }
    if let Some(pi) = parent_idx {
        // The engine then removes what any child has.
        let children = data.requests.tv_parents[pi]["childRequests"].clone();
        for c in children.as_array().into_iter().flatten() {
            remove_requested(&mut asked, c);
        }
        asked.retain(|(_, e)| !e.is_empty());
        if asked.is_empty() {
            return json(failure(
                "",
                "This has already been requested",
                Some("AlreadyRequested"),
            ));
        }
    }
    let child_id = match parent_idx {
        Some(_) => data.next_id(),
        // A brand-new show's child keeps the TMDB id the builder gave it.
        None if w::child(&data, tmdb_id).is_some() => return error_500(FK_FAILED),
        None => tmdb_id,
    };
    let parent_id = match parent_idx {
        Some(pi) => data.requests.tv_parents[pi]["id"].as_i64().unwrap_or(0),
        None => data.next_id(),
    };
    let mut child = super::super::state_requests::tv_child(
        child_id,
        parent_id,
        &title,
        &user,
        (1, 0),
        approved,
        false,
    );
    let mut season_rows = Vec::new();
    for (n, eps) in &asked {
        let season_id = data.next_id();
        let rows: Vec<Value> = eps
            .iter()
            .map(|e| {
                let mut ep = new_episode(data.next_id(), season_id, e);
                if approved {
                    ep["approved"] = json!(true);
                    ep["requested"] = json!(true);
                    ep["requestStatus"] = json!("Common.ProcessingRequest");
                }
                ep
            })
            .collect();
        season_rows.push(json!({
            "id": season_id, "seasonNumber": n, "overview": null, "childRequestId": child_id,
            "childRequest": null, "seasonAvailable": false, "episodes": rows
        }));
    }
    child["seasonRequests"] = json!(season_rows);
    child["requestedDate"] = json!(now());
    child["requestedByAlias"] = json!(api_alias(ctx));
    w::refresh(&mut child);
    let root = field(&body, "rootFolderOverride").as_i64().unwrap_or(0);
    let quality = field(&body, "qualityPathOverride").as_i64().unwrap_or(0);
    match parent_idx {
        Some(pi) => {
            let parent = &mut data.requests.tv_parents[pi];
            // Overrides > 0 overwrite the parent, i.e. every child's.
            if quality > 0 {
                parent["qualityOverride"] = json!(quality);
            }
            if root > 0 {
                parent["rootFolder"] = json!(root);
            }
            parent["childRequests"]
                .as_array_mut()
                .expect("children")
                .push(child);
        }
        None => {
            let mut parent = super::super::state_requests::tv_parent(
                parent_id,
                tmdb_id,
                tvdb,
                &title,
                vec![child],
            );
            parent["rootFolder"] = json!(root);
            parent["qualityOverride"] = json!(quality);
            parent["languageProfile"] =
                json!(field(&body, "languageProfile").as_i64().unwrap_or(0));
            parent["totalSeasons"] = json!(seasons.as_array().map_or(0, Vec::len));
            data.requests.tv_parents.push(parent);
        }
    }
    let result = w::process_child(&mut data, child_id);
    upvote_created(&mut data, &p, &result, 0);
    json(result)
}

// ---------------------------------------------------------------- album

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct AlbumAsk {
    foreign_album_id: Option<String>,
}

/// `MusicRequestEngine.RequestAlbum`: no duplicate rule at all.
fn album_create(ctx: &Ctx) -> Response {
    let Some(ask) = ctx.body::<AlbumAsk>() else {
        return problem_400("album", "The album field is required.");
    };
    let p = principal(ctx);
    let mbid = ask.foreign_album_id.unwrap_or_default();
    let mut data = ctx.shared.data.lock().unwrap();
    if data.writes.is_down("lidarr") {
        return error_500("Connection refused (lidarr.lan:54321)");
    }
    let Some((title, artist, release)) = w::lidarr_album(&data, &mbid) else {
        return json(failure(
            "There was an issue adding this album!",
            "Please try again later",
            None,
        ));
    };
    if !can_request(&p, ["RequestMusic", "AutoApproveMusic"]) {
        return json(failure(
            "",
            "You do not have permissions to Request an Album",
            None,
        ));
    }
    if let Some((m, code)) = over_quota(&data, "album", 1) {
        return json(failure("", m, Some(code)));
    }
    let approved = auto_approves(&p, "AutoApproveMusic");
    let id = data.next_id();
    let mut row =
        super::super::state_requests::album(id, &mbid, &title, &artist, &p.user_name, false);
    row["requestedDate"] = json!(now());
    row["releaseDate"] = json!(release);
    row["requestedByAlias"] = json!(api_alias(ctx));
    row["approved"] = json!(approved);
    w::refresh(&mut row);
    data.requests.albums.push(row);
    let added = state::engine_result(
        true,
        Some(&format!("{title} has been successfully added!")),
        None,
        None,
        id,
    );
    let mut result = added.clone();
    if approved {
        let sent = w::approve_album(&mut data, id);
        if sent["isError"] == json!(true) {
            result = json!({"result": false, "message": sent["message"], "isError": true,
                            "errorMessage": sent["message"], "errorCode": null, "requestId": 0});
        }
    }
    upvote_created(&mut data, &p, &result, 2);
    json(result)
}

// ---------------------------------------------------------------- follow, vote

/// Always `true`: no check that the request exists.
fn subscription(ctx: &Ctx, kind: i64, on: bool) -> Response {
    let user = ctx.user();
    let id = ctx.int("requestId");
    let mut data = ctx.shared.data.lock().unwrap();
    if on {
        w::subscribe(&mut data, &user, id, kind);
    } else {
        w::unsubscribe(&mut data, &user, id, kind);
    }
    json(json!(true))
}

fn vote(ctx: &Ctx, kind: i64, up: bool) -> Response {
    let user = ctx.user();
    let id = ctx.int("requestId");
    json(w::vote(
        &mut ctx.shared.data.lock().unwrap(),
        &user,
        id,
        kind,
        up,
    ))
}

// ---------------------------------------------------------------- issues

fn int_or_name(v: &Value, names: &[&str]) -> Option<i64> {
    v.as_i64().or_else(|| {
        let s = v.as_str()?;
        s.parse().ok().or_else(|| {
            names
                .iter()
                .position(|n| n.eq_ignore_ascii_case(s))
                .map(|i| i as i64)
        })
    })
}

pub(crate) const ISSUE_STATUS: &[&str] = &["Pending", "InProgress", "Resolved", "Deleted"];

/// `IssuesController.CreateIssue`: the body is the `Issues` entity, stored
/// as sent (its `id`, `status`, `resovledDate` too); the reporter and the
/// creation date are the server's; answers the new id.
fn issue_create(ctx: &Ctx) -> Response {
    let Some(body) = ctx.body::<Value>().filter(Value::is_object) else {
        return problem_400("i", "The i field is required.");
    };
    let Some(status) = int_or_name(field(&body, "status"), ISSUE_STATUS)
        .or(field(&body, "status").is_null().then_some(0))
    else {
        return problem_400("i.status", "The value is not valid.");
    };
    let p = principal(ctx);
    let mut data = ctx.shared.data.lock().unwrap();
    let cat_id = field(&body, "issueCategoryId").as_i64().unwrap_or(0);
    let Some(category) = data
        .writes
        .issue_categories
        .iter()
        .find(|c| c["id"] == json!(cat_id))
        .cloned()
    else {
        return error_500(FK_FAILED);
    };
    let id = match field(&body, "id").as_i64().filter(|i| *i > 0) {
        Some(i) if data.issues.iter().any(|x| x["id"] == json!(i)) => return error_500(FK_FAILED),
        Some(i) => i,
        None => data.next_id(),
    };
    let s = |k: &str| field(&body, k).clone();
    data.issues.push(json!({
        "id": id, "title": s("title"), "requestType": field(&body, "requestType").as_i64().unwrap_or(0),
        "providerId": s("providerId"), "requestId": s("requestId"), "subject": s("subject"),
        "description": s("description"), "issueCategoryId": cat_id, "issueCategory": category,
        "status": status, "resovledDate": s("resovledDate"), "createdDate": now(),
        "userReportedId": user_id(&p.user_name), "userReported": ombi_user(&p.user_name),
        "comments": null, "posterPath": s("posterPath")
    }));
    json(json!(id))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct NewIssueCommentViewModel {
    issue_id: i64,
    comment: String,
}

/// The raw `IssueComments` entity; unknown issue → 204; the bare ApiKey
/// principal `API` does not match the stored `Api` (case-sensitive) → 500.
fn add_comment(ctx: &Ctx) -> Response {
    let Some(model) = ctx.body::<NewIssueCommentViewModel>() else {
        return problem_400("comment", "The comment field is required.");
    };
    let p = principal(ctx);
    if p.api_user {
        return error_500(NRE);
    }
    let mut data = ctx.shared.data.lock().unwrap();
    let Some(issue) = data
        .issues
        .iter()
        .find(|i| i["id"] == json!(model.issue_id))
        .cloned()
    else {
        return no_content();
    };
    let id = data.next_id();
    let comment = json!({
        "id": id, "userId": user_id(&p.user_name), "comment": model.comment, "issuesId": model.issue_id,
        "date": now(), "issues": issue, "user": ombi_user(&p.user_name)
    });
    data.comments.push(comment.clone());
    json(comment)
}

// ---------------------------------------------------------------- preferences

/// `SetCurrentUserLanguage` / `SetCurrentUserCountryStreaming`: the
/// caller's row (the bare ApiKey principal's is Ombi's `Api` user); 200, no body.
fn profile_field(ctx: &Ctx, body_key: &str, row_key: &str) -> Response {
    let Some(body) = ctx.body::<Value>().filter(Value::is_object) else {
        return problem_400("model", "The model field is required.");
    };
    let user = ctx.user();
    let mut data = ctx.shared.data.lock().unwrap();
    let Some(row) = data.admin.users.iter_mut().find(|u| {
        u["userName"]
            .as_str()
            .is_some_and(|n| n.eq_ignore_ascii_case(&user))
    }) else {
        return error_500(NRE);
    };
    row[row_key] = field(&body, body_key).clone();
    ok_empty()
}

/// `AddUserNotificationPreference`: entry by entry (earlier entries stay
/// saved when a later one fails); another user's entries need the caller's
/// stored roles to hold PowerUser or Admin (the `Api` user has none → 401);
/// `enabled` is never stored.
fn notification_preferences(ctx: &Ctx) -> Response {
    let Some(prefs) = ctx.body::<Vec<Value>>() else {
        return problem_400("preferences", "The preferences field is required.");
    };
    let me = ctx.user();
    let mut data = ctx.shared.data.lock().unwrap();
    let Some(me_row) = w::user_row(&data, &me).cloned() else {
        return error_500(NRE);
    };
    for pref in prefs {
        let target = field(&pref, "userId")
            .as_str()
            .unwrap_or_default()
            .to_string();
        if !data.admin.users.iter().any(|u| u["id"] == json!(target)) {
            return problem(404, "Not Found");
        }
        if !me_row["id"]
            .as_str()
            .is_some_and(|id| id.eq_ignore_ascii_case(&target))
        {
            let roles = w::row_roles(&me_row);
            if !roles.iter().any(|r| r == "PowerUser" || r == "Admin") {
                return problem(401, "Unauthorized");
            }
        }
        let agent = field(&pref, "agent").as_i64().unwrap_or(0);
        let value = field(&pref, "value").clone();
        let rows = &mut data.admin.notification_preferences;
        match rows
            .iter_mut()
            .find(|r| r["userId"] == json!(target) && r["agent"] == json!(agent))
        {
            Some(r) => r["value"] = value,
            None => {
                let id = rows
                    .iter()
                    .filter_map(|r| r["id"].as_i64())
                    .max()
                    .unwrap_or(0)
                    + 1;
                rows.push(json!({"id": id, "userId": target, "agent": agent, "enabled": false, "value": value}));
            }
        }
    }
    json(json!(true))
}
