//! The request state Ombi's search rules put on the movie and TV details
//! routes (`GET api/v2/Search/movie/{id}`, `.../tv/moviedb/{id}`; albums:
//! `state_writes::overlay_album_request`), from the requests the fake holds
//! when the answer is made. Ombi maps the TMDB record (no request flags), then
//! `ExistingRule` copies the stored request's state onto it
//! (`Ombi.Core/Rule/Rules/Search/ExistingRule.cs`); the controller then keeps
//! the whole answer, rules included, in its media cache for 12 hours
//! (`Ombi/Controllers/V2/SearchController.cs`, `super::media_cached`).
//! Titles TMDB knows beyond the detailed sample records are described from
//! what the create routes know of them.

use serde_json::{Value, json};

use super::super::state::{Data, NEVER, merge};
use super::super::state_writes as w;
use super::media::data;

/// `MovieFullInfoViewModel` of a movie TMDB knows, with its request state.
pub fn movie_details(d: &Data, tmdb: i64) -> Option<Value> {
    let mut v = match data::movie_full(tmdb) {
        Some(v) => v,
        None => {
            let (title, release) = w::tmdb_movie(d, tmdb)?;
            json!({
                "id": tmdb, "title": title, "releaseDate": release, "theMovieDbId": null, "imdbId": null,
                "overview": format!("Overview of {title}."), "type": 1, "quality": null,
                "plexUrl": null, "embyUrl": null, "jellyfinUrl": null, "subscribed": false, "showSubscribe": false,
                "requestedDate4k": NEVER, "markedAsApproved4K": NEVER, "markedAsDenied4K": NEVER
            })
        }
    };
    movie_rule(d, tmdb, &mut v);
    Some(v)
}

fn movie_rule(d: &Data, tmdb: i64, v: &mut Value) {
    let fresh = json!({
        "requested": false, "requestId": 0, "approved": false, "denied": false, "deniedReason": null,
        "available": false, "has4KRequest": false, "approved4K": false, "available4K": false,
        "denied4K": null, "deniedReason4K": null
    });
    *v = merge(v.clone(), fresh);
    let Some(r) = d
        .movie_requests
        .iter()
        .find(|r| r["theMovieDbId"] == json!(tmdb))
    else {
        return;
    };
    // A request whose standard date is the minimum holds only a 4K request.
    v["requested"] = json!(r["requestedDate"].as_str().is_some_and(|x| x != NEVER));
    v["requestId"] = r["id"].clone();
    v["approved"] = r["approved"].clone();
    v["denied"] = json!(r["denied"].as_bool().unwrap_or(false));
    v["deniedReason"] = r["deniedReason"].clone();
    v["available"] = r["available"].clone();
    for k in [
        "has4KRequest",
        "approved4K",
        "available4K",
        "denied4K",
        "deniedReason4K",
    ] {
        if let Some(x) = r.get(k) {
            v[k] = x.clone();
        }
    }
}

/// `SearchFullInfoTvShowViewModel` of a show TMDB knows, with its request
/// state (parent id, any child approved, per-episode flags).
pub fn tv_details(d: &Data, tmdb: i64) -> Option<Value> {
    let mut v = match data::tv_full(tmdb) {
        Some(v) => v,
        None => d.tv.iter().find(|t| t["id"] == json!(tmdb))?.clone(),
    };
    v["requested"] = json!(false);
    v["requestId"] = json!(0);
    v["approved"] = json!(false);
    for s in v["seasonRequests"].as_array_mut().into_iter().flatten() {
        for e in s["episodes"].as_array_mut().into_iter().flatten() {
            e["requested"] = json!(false);
            e["approved"] = json!(false);
        }
    }
    let Some(parent) = d
        .requests
        .tv_parents
        .iter()
        .find(|p| p["externalProviderId"] == json!(tmdb))
    else {
        return Some(v);
    };
    let children: Vec<&Value> = parent["childRequests"]
        .as_array()
        .into_iter()
        .flatten()
        .collect();
    v["requestId"] = parent["id"].clone();
    v["requested"] = json!(true);
    v["approved"] = json!(children.iter().any(|c| c["approved"] == json!(true)));
    for s in v["seasonRequests"].as_array_mut().into_iter().flatten() {
        let n = s["seasonNumber"].clone();
        for c in &children {
            let Some(asked) = c["seasonRequests"]
                .as_array()
                .into_iter()
                .flatten()
                .find(|x| x["seasonNumber"] == n)
            else {
                continue;
            };
            for ep in asked["episodes"].as_array().into_iter().flatten() {
                let Some(e) = s["episodes"]
                    .as_array_mut()
                    .into_iter()
                    .flatten()
                    .find(|e| e["episodeNumber"] == ep["episodeNumber"])
                else {
                    continue;
                };
                e["requested"] = json!(true);
                e["available"] = ep["available"].clone();
                e["approved"] = c["approved"].clone();
                e["denied"] = c["denied"].clone();
                e["deniedReason"] = c["deniedReason"].clone();
            }
        }
    }
    Some(v)
}
