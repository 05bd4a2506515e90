//! What the write routes change beyond `Data`'s request tables, the records
//! of Ombi's side effects (sends to the *arrs, mails, pushes, triggered
//! jobs), and the engine steps several write routes share (approve, send,
//! queue, vote, subscribe), done the way Ombi's engines do them
//! (docs/ombi-notes.md, "Write routes").

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Value, json};

use super::routes::media::data as tmdb;
use super::state::{self, Data, NEVER, Vote, user_id};

/// How an *arr send fails (`SenderResult` in Ombi).
#[derive(Clone, Debug, PartialEq)]
pub enum SendFailure {
    /// The API call throws: Ombi queues the request for retry.
    Throws(String),
    /// The *arr answers with an error (e.g. "Movie is already monitored").
    Rejects(String),
}

/// A `RequestSubscription` row.
#[derive(Clone, Debug, PartialEq)]
pub struct Subscription {
    pub user: String,
    pub request_id: i64,
    /// RequestType: 0 TV, 1 movie, 2 album.
    pub request_type: i64,
}

#[derive(Clone, Debug, Default)]
pub struct WriteData {
    /// Injected send failures by target: `radarr`, `radarr4k`, `sonarr`, `lidarr`.
    pub send_failures: BTreeMap<String, SendFailure>,
    /// Integrations Ombi cannot reach: `emby`, `jellyfin`, `plex`, `radarr`,
    /// `sonarr`, `lidarr`, `smtp`, `newsletter`, `mobile`, `whatsapp` or a
    /// notification agent name (`discord`, ...).
    pub down: BTreeSet<String>,
    /// What Ombi sent to an *arr: (target, request id).
    pub sent: Vec<(String, i64)>,
    pub subscriptions: Vec<Subscription>,
    /// `IssueCategory` rows.
    pub issue_categories: Vec<Value>,
    /// Quartz job names currently running (a trigger of one is skipped).
    pub running_jobs: BTreeSet<String>,
    /// Quartz job names triggered, in order.
    pub triggered_jobs: Vec<String>,
    /// Mails, pushes and test notifications that went out:
    /// `{channel, to, subject?, message}`.
    pub outbox: Vec<Value>,
    /// `MobileDevices` rows: `{id, token, userId, addedAt}`.
    pub mobile_devices: Vec<Value>,
}

impl WriteData {
    pub fn sample() -> WriteData {
        WriteData {
            // The order and the odd third name are what the read tests pin.
            issue_categories: vec![
                json!({"id": 2, "value": "Subtitles"}),
                json!({"id": 1, "value": "Audio"}),
                json!({"id": 3, "value": "?????"}),
            ],
            mobile_devices: vec![
                json!({"id": 1, "token": "fcm-token-bob-1", "userId": user_id("bob"), "addedAt": "2026-04-01T08:00:00Z"}),
            ],
            ..WriteData::default()
        }
    }

    /// Records a Quartz `TriggerJob`: skipped (not recorded) while the job runs.
    pub fn trigger_job(&mut self, name: &str) {
        if !self
            .running_jobs
            .iter()
            .any(|r| r.eq_ignore_ascii_case(name))
        {
            self.triggered_jobs.push(name.to_string());
        }
    }

    pub fn is_down(&self, what: &str) -> bool {
        self.down.contains(what)
    }
}

pub fn now() -> String {
    super::auth::iso(std::time::SystemTime::now())
}

fn flag(r: &Value, k: &str) -> bool {
    r[k].as_bool().unwrap_or(false)
}

/// Recomputes the entity's computed `requestStatus` and `canApprove`
/// (`MovieRequests.cs`, `ChildRequests.cs`, `AlbumRequest.cs`).
pub fn refresh(r: &mut Value) {
    let (approved, available, denied) =
        (flag(r, "approved"), flag(r, "available"), flag(r, "denied"));
    let status = if available {
        "Common.Available"
    } else if denied {
        "Common.Denied"
    } else if approved {
        "Common.ProcessingRequest"
    } else {
        "Common.PendingApproval"
    };
    r["requestStatus"] = json!(status);
    let mut can = !approved && !available;
    if r["requestType"] == json!(1) {
        can = can || !flag(r, "approved4K") && !flag(r, "available4K");
    }
    r["canApprove"] = json!(can);
}

// ------------------------------------------------------------ lookups

pub fn child_mut(data: &mut Data, id: i64) -> Option<&mut Value> {
    data.requests
        .tv_parents
        .iter_mut()
        .flat_map(|p| p["childRequests"].as_array_mut().into_iter().flatten())
        .find(|c| c["id"] == json!(id))
}

pub fn child(data: &Data, id: i64) -> Option<&Value> {
    data.requests
        .tv_parents
        .iter()
        .flat_map(|p| p["childRequests"].as_array().into_iter().flatten())
        .find(|c| c["id"] == json!(id))
}

pub fn album_mut(data: &mut Data, id: i64) -> Option<&mut Value> {
    data.requests
        .albums
        .iter_mut()
        .find(|a| a["id"] == json!(id))
}

/// The request of `kind` (0 TV child, 1 movie, 2 album) with this id.
pub fn request(data: &Data, kind: i64, id: i64) -> Option<Value> {
    match kind {
        0 => child(data, id).cloned(),
        1 => data.movie_request(id).cloned(),
        _ => data
            .requests
            .albums
            .iter()
            .find(|a| a["id"] == json!(id))
            .cloned(),
    }
}

/// The Identity row of a user name (`NormalizedUserName` compare).
pub fn user_row<'a>(data: &'a Data, name: &str) -> Option<&'a Value> {
    data.admin.users.iter().find(|u| {
        u["userName"]
            .as_str()
            .is_some_and(|n| n.eq_ignore_ascii_case(name))
    })
}

/// The enabled roles of an Identity row (what `GetRolesAsync` returns).
pub fn row_roles(row: &Value) -> Vec<String> {
    row["claims"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|c| c["enabled"] == json!(true))
        .filter_map(|c| c["value"].as_str().map(str::to_string))
        .collect()
}

/// `GetUserWithRoles`: a null limit type reads as Week (1); a quota is
/// computed only for a media type the user has a limit of their own for
/// (`IdentityController.cs`), else it is null. (A planted quota stands for
/// what `RequestLimitService` would compute.)
pub fn user_view(row: &Value) -> Value {
    let mut v = row.clone();
    for (limit, quota) in [
        ("movieRequestLimit", "movieRequestQuota"),
        ("episodeRequestLimit", "episodeRequestQuota"),
        ("musicRequestLimit", "musicRequestQuota"),
    ] {
        if v[limit].as_i64().unwrap_or(0) <= 0 {
            v[quota] = Value::Null;
        }
    }
    for k in [
        "movieRequestLimitType",
        "episodeRequestLimitType",
        "musicRequestLimitType",
    ] {
        if v[k].is_null() {
            v[k] = json!(1);
        }
    }
    v
}

/// What TMDB knows of a movie: (title, release date).
pub fn tmdb_movie(data: &Data, id: i64) -> Option<(String, Option<String>)> {
    let pick = |m: &Value| {
        (
            m["title"].as_str().unwrap_or_default().to_string(),
            m["releaseDate"].as_str().map(str::to_string),
        )
    };
    if let Some(m) = data.movies.iter().find(|m| m["id"] == json!(id)) {
        return Some(pick(m));
    }
    if let Some(m) = tmdb::movie_full(id) {
        return Some(pick(&m));
    }
    tmdb::collection(2344)?["collection"]
        .as_array()?
        .iter()
        .find(|m| m["id"] == json!(id))
        .map(pick)
}

/// What TMDB knows of a show: (title, tvdb id, seasons of (number, episodes
/// of (number, title, air date))).
pub type Season = (i64, Vec<(i64, String, String)>);

pub fn tmdb_show(data: &Data, id: i64) -> Option<(String, i64, Vec<Season>)> {
    let show = data.tv.iter().find(|t| t["id"] == json!(id))?;
    let seasons = show["seasonRequests"]
        .as_array()?
        .iter()
        .map(|s| {
            let eps = s["episodes"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|e| {
                    (
                        e["episodeNumber"].as_i64().unwrap_or(0),
                        e["title"].as_str().unwrap_or_default().to_string(),
                        e["airDate"].as_str().unwrap_or(NEVER).to_string(),
                    )
                })
                .collect();
            (s["seasonNumber"].as_i64().unwrap_or(0), eps)
        })
        .collect();
    let tvdb = tmdb::tv_full(id)
        .and_then(|t| t["theTvDbId"].as_str().and_then(|s| s.parse().ok()))
        .unwrap_or(0);
    Some((
        show["title"].as_str().unwrap_or_default().to_string(),
        tvdb,
        seasons,
    ))
}

/// What Lidarr's album lookup finds: (title, artist, release date).
pub fn lidarr_album(data: &Data, mbid: &str) -> Option<(String, String, String)> {
    if let Some(rg) = tmdb::release_group(mbid) {
        return Some((
            rg["title"].as_str().unwrap_or_default().to_string(),
            "Linkin Park".to_string(),
            format!(
                "{}T00:00:00Z",
                rg["releaseDate"].as_str().unwrap_or("2000-01-01")
            ),
        ));
    }
    let a = data
        .requests
        .albums
        .iter()
        .find(|a| a["foreignAlbumId"] == json!(mbid))?;
    Some((
        a["title"].as_str().unwrap_or_default().to_string(),
        a["artistName"].as_str().unwrap_or_default().to_string(),
        a["releaseDate"].as_str().unwrap_or(NEVER).to_string(),
    ))
}

/// The search rules' `ExistingRule` for an album: the first album request
/// with this MusicBrainz id sets `requested`, `requestId`, `approved`,
/// `available` (and, on a `SearchAlbumViewModel`, `denied`/`deniedReason`).
pub fn overlay_album_request(data: &Data, mbid: &str, vm: &mut Value, with_denied: bool) {
    let Some(a) = data
        .requests
        .albums
        .iter()
        .find(|a| a["foreignAlbumId"] == json!(mbid))
    else {
        return;
    };
    vm["requested"] = json!(true);
    vm["requestId"] = a["id"].clone();
    vm["approved"] = a["approved"].clone();
    vm["available"] = a["available"].clone();
    if with_denied {
        vm["denied"] = a["denied"].clone();
        vm["deniedReason"] = a["deniedReason"].clone();
    }
}

// ------------------------------------------------------------ sending

/// Ombi's `SenderResult`.
pub struct Sent {
    pub success: bool,
    pub sent: bool,
    pub message: Option<String>,
}

/// `RequestQueue` on a throwing send: a new row, or the existing row of the
/// request with `retryCount + 1` (`MovieSender.cs`, `TvSender.cs`, `MusicSender.cs`).
fn queue(data: &mut Data, kind: i64, request_id: i64, error: &str) {
    if let Some(row) = data
        .requests
        .retry
        .iter_mut()
        .find(|r| r["requestId"] == json!(request_id))
    {
        row["retryCount"] = json!(row["retryCount"].as_i64().unwrap_or(0) + 1);
        row["error"] = json!(error);
        return;
    }
    let req = request(data, kind, request_id).unwrap_or(Value::Null);
    let title = if kind == 0 {
        data.requests
            .tv_parents
            .iter()
            .find(|p| p["id"] == req["parentRequestId"])
            .map(|p| p["title"].clone())
            .unwrap_or(Value::Null)
    } else {
        req["title"].clone()
    };
    let failed_id = data.next_id();
    data.requests.retry.push(json!({
        "failedId": failed_id, "title": title, "releaseYear": req["releaseDate"].clone(),
        "requestId": request_id, "type": kind, "dts": now(), "retryCount": 0, "error": error
    }));
}

/// `IMovieSender.Send` / `ITvSender.Send` / `IMusicSender.Send` for an
/// approved request. `target`: radarr, radarr4k, sonarr or lidarr.
pub fn send(data: &mut Data, target: &str, kind: i64, request_id: i64) -> Sent {
    let enabled = match target {
        "radarr" => data.admin.radarr_enabled,
        "radarr4k" => data.admin.radarr4k_root_folders.is_some(),
        "sonarr" => data.admin.sonarr_enabled,
        _ => data.requests.lidarr_enabled,
    };
    if !enabled {
        // No provider: movies and TV "succeed" unsent; Lidarr says so.
        return match target {
            "lidarr" => Sent {
                success: false,
                sent: false,
                message: Some("Lidarr is not enabled".into()),
            },
            _ => Sent {
                success: true,
                sent: false,
                message: None,
            },
        };
    }
    match data.writes.send_failures.get(target).cloned() {
        Some(SendFailure::Throws(e)) => {
            queue(data, kind, request_id, &e);
            // MovieSender swallows into success; TV and music into failure.
            Sent {
                success: target.starts_with("radarr"),
                sent: false,
                message: None,
            }
        }
        // TvSender has no refusal path: a Sonarr that adds nothing falls
        // through to "no provider", a success.
        Some(SendFailure::Rejects(_)) if target == "sonarr" => Sent {
            success: true,
            sent: false,
            message: None,
        },
        Some(SendFailure::Rejects(m)) => Sent {
            success: false,
            sent: false,
            message: Some(m),
        },
        None => {
            data.writes.sent.push((target.to_string(), request_id));
            Sent {
                success: true,
                sent: true,
                message: None,
            }
        }
    }
}

// ------------------------------------------------------------ approving

fn missing(message: &str, code: Option<&str>) -> Value {
    state::engine_result(false, None, Some(message), code, 0)
}

/// `MovieRequestEngine.ApproveMovie` + `ProcessSendingMovie`.
pub fn approve_movie(data: &mut Data, id: i64, is4k: bool) -> Value {
    let Some(r) = data.movie_request_mut(id) else {
        return missing("Request does not exist", None);
    };
    let (flag, date, denied) = if is4k {
        ("approved4K", "markedAsApproved4K", "denied4K")
    } else {
        ("approved", "markedAsApproved", "denied")
    };
    r[flag] = json!(true);
    r[date] = json!(now());
    r[denied] = json!(false);
    refresh(r);
    process_movie(data, id, is4k)
}

/// `ProcessSendingMovie`: only an approved request is sent; a send that
/// "fails" by throwing is queued and answered as a success.
pub fn process_movie(data: &mut Data, id: i64, is4k: bool) -> Value {
    let approved = data
        .movie_request(id)
        .is_some_and(|r| flag(r, if is4k { "approved4K" } else { "approved" }));
    if approved {
        let s = send(data, if is4k { "radarr4k" } else { "radarr" }, 1, id);
        if !s.success {
            let m = s.message.as_deref();
            return json!({"result": false, "message": m, "isError": m.is_some_and(|m| !m.is_empty()),
                          "errorMessage": m, "errorCode": null, "requestId": 0});
        }
    }
    state::engine_result(true, None, None, None, 0)
}

/// `TvRequestEngine.ApproveChildRequest`: the send result is ignored.
pub fn approve_child(data: &mut Data, id: i64) -> Value {
    let Some(c) = child_mut(data, id) else {
        return missing(
            "Child Request does not exist",
            Some("ChildRequestDoesNotExist"),
        );
    };
    c["markedAsApproved"] = json!(now());
    c["approved"] = json!(true);
    c["denied"] = json!(false);
    for_each_episode(c, |e| {
        e["approved"] = json!(true);
        e["requested"] = json!(true);
    });
    refresh(c);
    send(data, "sonarr", 0, id);
    state::engine_result(true, None, None, None, 0)
}

/// `TvRequestEngine.ProcessSendingShow`: a throwing Sonarr leaves
/// `{result: false, isError: false, requestId}`.
pub fn process_child(data: &mut Data, id: i64) -> Value {
    if child(data, id).is_some_and(|c| flag(c, "approved")) {
        let s = send(data, "sonarr", 0, id);
        if !s.success {
            return json!({"result": false, "message": null, "isError": s.message.is_some(),
                          "errorMessage": s.message, "errorCode": null, "requestId": id});
        }
    }
    state::engine_result(true, None, None, None, id)
}

pub fn for_each_episode(c: &mut Value, mut f: impl FnMut(&mut Value)) {
    for s in c["seasonRequests"].as_array_mut().into_iter().flatten() {
        for e in s["episodes"].as_array_mut().into_iter().flatten() {
            f(e);
        }
    }
}

/// `MusicRequestEngine.ApproveAlbum`.
pub fn approve_album(data: &mut Data, id: i64) -> Value {
    let Some(a) = album_mut(data, id) else {
        return missing("Request does not exist", None);
    };
    a["markedAsApproved"] = json!(now());
    a["approved"] = json!(true);
    a["denied"] = json!(false);
    refresh(a);
    let s = send(data, "lidarr", 2, id);
    if !s.success {
        let m = s.message.as_deref();
        return json!({"result": false, "message": m, "isError": m.is_some_and(|m| !m.is_empty()),
                      "errorMessage": m, "errorCode": null, "requestId": 0});
    }
    state::engine_result(true, None, None, None, 0)
}

// ------------------------------------------------------------ votes

/// `VoteSettings`: (enabled, max by RequestType 0 TV / 1 movie / 2 album).
pub fn vote_settings(data: &Data) -> (bool, [i64; 3]) {
    let v = data
        .admin
        .settings
        .get("vote")
        .cloned()
        .unwrap_or(Value::Null);
    let n = |k: &str| v[k].as_i64().unwrap_or(0);
    (
        v["enabled"].as_bool().unwrap_or(false),
        [n("tvShowVoteMax"), n("movieVoteMax"), n("musicVoteMax")],
    )
}

pub fn subscribe(data: &mut Data, user: &str, request_id: i64, request_type: i64) {
    let sub = Subscription {
        user: user.to_string(),
        request_id,
        request_type,
    };
    if !data.writes.subscriptions.contains(&sub) {
        data.writes.subscriptions.push(sub);
    }
}

pub fn unsubscribe(data: &mut Data, user: &str, request_id: i64, request_type: i64) {
    let sub = Subscription {
        user: user.to_string(),
        request_id,
        request_type,
    };
    data.writes.subscriptions.retain(|s| *s != sub);
}

fn vote_result(ok: bool, error: Option<&str>) -> Value {
    json!({"result": ok, "message": null, "isError": error.is_some(), "errorMessage": error})
}

/// `VoteEngine.UpVote`/`DownVote`. The existing-vote lookup matches request
/// id and user only (any media type) and removes just that first row; no
/// check that the request exists; an upvote subscribes and approves once
/// up − down ≥ the type's VoteMax.
pub fn vote(data: &mut Data, user: &str, request_id: i64, request_type: i64, up: bool) -> Value {
    let (enabled, max) = vote_settings(data);
    if !enabled {
        return vote_result(true, None);
    }
    let vote_type = if up { 0 } else { 1 };
    let current = data
        .votes
        .iter()
        .position(|v| v.request_id == request_id && v.user.eq_ignore_ascii_case(user));
    if let Some(i) = current {
        if data.votes[i].vote_type == vote_type {
            return vote_result(false, Some("You have already voted!"));
        }
        data.votes.remove(i);
    }
    if up {
        subscribe(data, user, request_id, request_type);
    } else {
        unsubscribe(data, user, request_id, request_type);
    }
    data.votes.push(Vote {
        user: user.to_string(),
        request_id,
        vote_type,
        request_type,
    });
    if !up {
        return vote_result(true, None);
    }
    let count = |t: i64| {
        data.votes
            .iter()
            .filter(|v| {
                v.request_id == request_id && v.request_type == request_type && v.vote_type == t
            })
            .count() as i64
    };
    if count(0) - count(1) >= max[request_type as usize] {
        let r = match request_type {
            0 => approve_child(data, request_id),
            1 => approve_movie(data, request_id, false),
            _ => approve_album(data, request_id),
        };
        if r["result"] != json!(true) {
            return vote_result(false, Some("Voted succesfully but could not approve!"));
        }
    }
    vote_result(true, None)
}
