//! The request projection, on the wire shapes Ombi really sends.

use crate::contract::Family;
use serde_json::{Value, json};

use super::*;
use crate::projection::family_schema::{assert_family, assert_reads_back};
use crate::projection::paging::{Paging, page_object};

/// An embedded OmbiUser as Ombi serializes it, secrets included.
pub(crate) fn ombi_user(id: &str) -> Value {
    json!({
        "id": id, "userName": "alice", "normalizedUserName": "ALICE",
        "email": "alice@example.org", "normalizedEmail": "ALICE@EXAMPLE.ORG",
        "phoneNumber": "+15550100", "alias": "Al",
        "userAccessToken": "UAT-SECRET-123", "mediaServerToken": "PLEX-SECRET-456",
        "notificationUserIds": [{"id": 1, "playerId": "PLAYER-SECRET", "userId": id}],
        "userNotificationPreferences": [{"agent": 4, "value": "CHAT-SECRET"}]
    })
}

fn assert_no_secret(v: &Value) {
    let s = v.to_string();
    for secret in [
        "UAT-SECRET",
        "PLEX-SECRET",
        "alice@example.org",
        "PLAYER-SECRET",
        "CHAT-SECRET",
        "+15550100",
    ] {
        assert!(!s.contains(secret), "{secret} leaked: {s}");
    }
}

fn as_page(records: Vec<RequestRecord>) -> Value {
    let n = records.len();
    page_object(
        crate::contract::Family::RequestPage,
        records.iter().map(RequestRecord::to_json).collect(),
        &Paging::single(n, "requests"),
    )
}

fn movie_wire() -> Value {
    let mut w: Value = serde_json::from_str(
        r#"{
        "id": 12, "title": "Heat", "approved": true, "markedAsApproved": "2026-04-01T00:00:00Z",
        "requestedDate": "2026-03-30T10:00:00Z", "available": false, "markedAsAvailable": null,
        "requestedUserId": "u-1", "denied": null, "markedAsDenied": "0001-01-01T00:00:00Z",
        "deniedReason": null, "requestType": 1, "requestedByAlias": null,
        "source": 0, "canApprove": true,
        "imdbId": "tt0113277", "overview": "x", "posterPath": "/p.jpg",
        "releaseDate": "1995-12-15T00:00:00Z", "theMovieDbId": 949, "issueId": null, "issues": null,
        "subscribed": true, "showSubscribe": true, "is4kRequest": false, "rootPathOverride": 0,
        "qualityOverride": 0, "has4KRequest": true, "approved4K": false, "available4K": false,
        "markedAsApproved4K": "0001-01-01T00:00:00Z", "requestedDate4k": "2026-04-02T00:00:00Z",
        "markedAsDenied4K": "2026-04-03T00:00:00Z", "markedAsAvailable4K": null, "denied4K": true,
        "deniedReason4K": "no 4K source", "requestCombination": 2, "langCode": "en",
        "requestStatus": "Common.ProcessingRequest", "watchedByRequestedUser": false, "playedByUsersCount": 0
    }"#,
    )
    .unwrap();
    w["requestedUser"] = ombi_user("u-1");
    w
}

#[test]
fn movie_keeps_standard_and_4k_state_apart() {
    let r = movie(serde_json::from_value(movie_wire()).unwrap()).unwrap();
    let v = r.to_json();
    assert_eq!(v["target"], json!({"kind": "movie", "id": 12}));
    assert_eq!(
        (v["approved"].clone(), v["available"].clone()),
        (json!(true), json!(false))
    );
    assert!(v.get("denied").is_none(), "null denied stays absent");
    assert!(
        v.get("denied_reason").is_none(),
        "the 4K reason is not the standard reason"
    );
    assert_eq!(
        (
            v["is_4k"].clone(),
            v["approved_4k"].clone(),
            v["denied_4k"].clone()
        ),
        (json!(true), json!(false), json!(true))
    );
    assert_eq!(v["status_text"], "Processing request");
    assert_eq!(v["requested_user_id"], "u-1");
    assert_eq!(
        v["identifiers"],
        json!([{"namespace": "tmdb", "value": "949"}, {"namespace": "imdb", "value": "tt0113277"}])
    );
    assert!(v.get("status").is_none());
    assert_no_secret(&v);
    // Lockdown reads records back: the 4K lifecycle (flattened) included.
    assert_reads_back::<RequestRecord>(&v);
    assert_family("request_page", &as_page(vec![r]));
}

#[test]
fn four_k_only_movie_has_no_standard_state() {
    let mut w = movie_wire();
    w["requestedDate"] = json!("0001-01-01T00:00:00Z");
    w["approved"] = json!(false);
    w["requestStatus"] = json!("Common.PendingApproval");
    let v = movie(serde_json::from_value(w).unwrap()).unwrap().to_json();
    for absent in ["approved", "available", "denied", "status_text"] {
        assert!(
            v.get(absent).is_none(),
            "{absent} must be absent on a 4K-only request: {v}"
        );
    }
    assert_eq!(v["requested_date"], "2026-04-02T00:00:00Z");
    assert_eq!(v["denied_4k"], true);
    assert_eq!(v["denied_reason"], "no 4K source");
}

#[test]
fn movie_can_approve_counts_only_the_requested_sides() {
    // HD only, approved: Ombi says canApprove true (its 4K half is
    // defaults); the standard lifecycle cannot be approved again.
    let mut w = movie_wire();
    w["has4KRequest"] = json!(false);
    w["canApprove"] = json!(true);
    let v = movie(serde_json::from_value(w.clone()).unwrap())
        .unwrap()
        .to_json();
    assert_eq!(v["can_approve"], false);
    // both sides, HD approved, 4K pending: the 4K side can be approved
    w["has4KRequest"] = json!(true);
    let v = movie(serde_json::from_value(w.clone()).unwrap())
        .unwrap()
        .to_json();
    assert_eq!(v["can_approve"], true, "{v}");
    // both approved: they agree
    w["approved4K"] = json!(true);
    let v = movie(serde_json::from_value(w.clone()).unwrap())
        .unwrap()
        .to_json();
    assert_eq!(v["can_approve"], false);
    // 4K only, pending: the 4K lifecycle decides
    w["requestedDate"] = json!("0001-01-01T00:00:00Z");
    w["approved4K"] = json!(false);
    let v = movie(serde_json::from_value(w).unwrap()).unwrap().to_json();
    assert_eq!(v["can_approve"], true);
}

#[test]
fn request_id_is_preferred_over_id() {
    assert_eq!(target_id(Some(7), Some(3)), Some(7));
    assert_eq!(target_id(Some(0), Some(3)), Some(3));
    assert_eq!(target_id(None, Some(0)), None);
    let mut w = movie_wire();
    w["requestId"] = json!(77);
    assert_eq!(
        movie(serde_json::from_value(w).unwrap()).unwrap().target.id,
        77
    );
}

fn child_wire() -> Value {
    let mut w = json!({
        "id": 603, "title": "Severance", "approved": false, "requestedDate": "2026-04-05T08:00:00Z",
        "available": false, "requestedUserId": null, "requestedUser": ombi_user("u-2"),
        "denied": false, "deniedReason": null, "requestType": 0, "canApprove": true,
        "parentRequestId": 31, "seriesType": 0, "subscribed": true, "showSubscribe": true,
        "releaseYear": "0001-01-01T00:00:00Z", "issues": null, "requestStatus": "Common.PendingApproval"
    });
    w["parentRequest"] = json!({
        "id": 31, "tvDbId": 371980, "externalProviderId": 95396, "imdbId": "tt11280740",
        "title": "Severance", "releaseDate": "2022-02-18T00:00:00Z", "totalSeasons": 2,
        "childRequests": [{"id": 604, "requestedUser": ombi_user("u-9"), "seasonRequests": []}]
    });
    let episode = json!({"id": 9, "episodeNumber": 1, "title": "Hello, Ms. Cobel", "airDate": "2025-01-17T00:00:00Z",
        "url": null, "available": false, "approved": false, "requested": true, "denied": null,
        "seasonId": 5, "season": null, "airDateDisplay": "01/17/2025", "requestStatus": "Common.PendingApproval"});
    w["seasonRequests"] = json!([
        {"id": 5, "seasonNumber": 2, "overview": null, "childRequestId": 603, "seasonAvailable": false, "episodes": [episode]},
        {"id": 4, "seasonNumber": 1, "episodes": []}
    ]);
    w
}

#[test]
fn v2_tv_item_is_a_child_with_parent_ids_from_parent_request() {
    let c: WireChildRequest = serde_json::from_value(child_wire()).unwrap();
    let r = child(c).unwrap();
    let v = r.to_json();
    assert_eq!(v["target"], json!({"kind": "tv_child", "id": 603}));
    assert_eq!(v["parent_request_id"], 31);
    assert_eq!(
        v["identifiers"],
        json!([{"namespace": "tmdb", "value": "95396"}, {"namespace": "tvdb", "value": "371980"}, {"namespace": "imdb", "value": "tt11280740"}])
    );
    assert_eq!(
        v["requested_user_id"], "u-2",
        "embedded user's id when requestedUserId is null"
    );
    assert!(v.get("seasons").is_none(), "list items skip seasons");
    assert!(v.get("subscribed").is_none());
    assert_no_secret(&v);
    assert_family("request_page", &as_page(vec![r]));
}

#[test]
fn child_seasons_are_sorted_and_episodes_capped() {
    let mut w = child_wire();
    let eps: Vec<Value> = (1..=130)
        .map(|n| json!({"episodeNumber": n, "requested": true}))
        .collect();
    w["seasonRequests"][1]["episodes"] = json!(eps);
    let c: WireChildWithSeasons = serde_json::from_value(w).unwrap();
    let r = child(c).unwrap();
    let v = r.to_json();
    assert_eq!(v["seasons"][0]["season_number"], 1);
    assert_eq!(v["seasons"][0]["episodes"].as_array().unwrap().len(), 100);
    assert_eq!(v["seasons"][0]["truncated"], true);
    assert_eq!(
        v["seasons"][1]["episodes"][0],
        json!({"episode_number": 1, "title": "Hello, Ms. Cobel", "requested": true, "available": false})
    );
    assert_eq!(v["seasons"][1]["truncated"], false);
    assert_reads_back::<RequestRecord>(&v);
    assert_family("request_page", &as_page(vec![r]));
}

#[test]
fn v1_parent_stays_a_parent() {
    let p: WireTvParent = serde_json::from_value(json!({
        "id": 31, "tvDbId": 371980, "externalProviderId": 95396, "imdbId": null, "title": "Severance",
        "qualityOverride": null, "rootFolder": null, "languageProfile": null, "totalSeasons": 2,
        "childRequests": [child_wire()]
    }))
    .unwrap();
    let v = parent(&p).unwrap().to_json();
    assert_eq!(v["target"], json!({"kind": "tv_parent", "id": 31}));
    assert!(v.get("approved").is_none(), "no invented parent state");
    assert_eq!(p.child_requests.unwrap().len(), 1);
}

#[test]
fn album_uses_the_release_group_mbid() {
    let a: WireAlbumRequest = serde_json::from_value(json!({
        "id": 5, "title": "Kid A", "artistName": "Radiohead", "approved": true, "available": true,
        "denied": null, "requestedDate": "2026-01-01T00:00:00Z", "requestedUserId": "u-3",
        "requestedUser": ombi_user("u-3"), "foreignAlbumId": "b8a7c51f-362c-4dcb-a259-bc6e0095f0a6",
        "foreignArtistId": "a74b1b7f-71a5-4011-9441-d0b5e4122711", "cover": "https://c/x.jpg",
        "rating": 4.5, "releaseDate": "2000-10-02T00:00:00Z", "subscribed": false, "showSubscribe": false,
        "requestStatus": "Common.Available", "canApprove": false
    }))
    .unwrap();
    let r = album(a).unwrap();
    let v = r.to_json();
    assert_eq!(v["target"], json!({"kind": "album", "id": 5}));
    assert_eq!(v["title"], "Kid A", "the upstream title, unchanged");
    assert_eq!(
        v["identifiers"],
        json!([{"namespace": "musicbrainz", "value": "b8a7c51f-362c-4dcb-a259-bc6e0095f0a6"}])
    );
    assert_eq!(v["status_text"], "Available");
    assert_no_secret(&v);
    assert_family("request_page", &as_page(vec![r]));
}

#[test]
fn records_without_ids_are_skipped_with_a_warning() {
    let mut warnings = Vec::new();
    let rows: Vec<WireMovieRequest> =
        serde_json::from_value(json!([{"id": 0, "title": "x"}, {"id": 4, "title": "y"}])).unwrap();
    let out = project_all(rows, movie, &mut warnings);
    assert_eq!(out.len(), 1);
    assert_eq!(warnings.len(), 1);
}

fn recent_rows() -> Vec<WireRecentRow> {
    serde_json::from_value(json!([
        {"requestId": 12, "type": 1, "userId": "u-1", "username": "Al", "available": false,
         "tvPartiallyAvailable": false, "requestDate": "2026-04-05T00:00:00Z", "title": "Heat",
         "overview": null, "releaseDate": "1995-12-15T00:00:00Z", "approved": true, "denied": false,
         "mediaId": "949", "posterPath": null, "background": null},
        // A new show's first child: child id == TMDB id.
        {"requestId": 95396, "type": 0, "userId": "u-2", "title": "Severance", "approved": false,
         "denied": false, "available": false, "requestDate": "2026-04-04T00:00:00Z", "mediaId": "95396"},
        // Child id unknown to the scan, provider fallback.
        {"requestId": 700, "type": 0, "title": "Andor", "mediaId": "83867", "requestDate": "2026-04-03T00:00:00Z"},
        // Nothing matches.
        {"requestId": 701, "type": 0, "title": "Lost", "mediaId": "4607", "requestDate": "2026-04-02T00:00:00Z"},
        {"requestId": 9, "type": 2, "title": "Kid A", "overview": "Radiohead", "mediaId": "b8a7c51f", "requestDate": "2026-04-01T00:00:00Z"}
    ]))
    .unwrap()
}

fn scanned_parents() -> Vec<ParentIndex> {
    let parents: Vec<WireTvParent<WireChildId>> = serde_json::from_value(json!([
        // A parent whose TMDB id equals the other show's child id: the
        // child-id match must win over the provider match.
        {"id": 40, "externalProviderId": 95396, "tvDbId": 1, "title": "Decoy", "childRequests": [{"id": 41}]},
        {"id": 31, "externalProviderId": 111, "tvDbId": 371980, "title": "Severance", "childRequests": [{"id": 95396}]},
        {"id": 50, "externalProviderId": 83867, "tvDbId": 393189, "title": "Andor", "childRequests": null}
    ]))
    .unwrap();
    parents.iter().filter_map(ParentIndex::of).collect()
}

#[test]
fn recent_tv_rows_resolve_the_parent_child_id_first() {
    let parents = scanned_parents();
    let mut warnings = Vec::new();
    let out: Vec<RequestRecord> = recent_rows()
        .into_iter()
        .filter_map(|r| recent(r, &parents, &mut warnings))
        .collect();
    let v: Vec<Value> = out.iter().map(RequestRecord::to_json).collect();
    assert_eq!(v[0]["target"], json!({"kind": "movie", "id": 12}));
    assert_eq!(
        v[0]["identifiers"],
        json!([{"namespace": "tmdb", "value": "949"}])
    );
    // child-id match: parent 31, not the decoy 40 whose TMDB id is 95396
    assert_eq!(v[1]["target"], json!({"kind": "tv_parent", "id": 31}));
    assert_eq!(
        v[1]["identifiers"][0],
        json!({"namespace": "ombi_tv_child", "value": "95396"})
    );
    // provider fallback
    assert_eq!(v[2]["target"], json!({"kind": "tv_parent", "id": 50}));
    assert!(
        v[2]["identifiers"]
            .as_array()
            .unwrap()
            .contains(&json!({"namespace": "tvdb", "value": "393189"}))
    );
    // unresolved: the child stays the target, never id 0, never a provider id
    assert_eq!(v[3]["target"], json!({"kind": "tv_child", "id": 701}));
    assert_eq!(
        v[3]["identifiers"],
        json!([{"namespace": "ombi_tv_child", "value": "701"}, {"namespace": "tmdb", "value": "4607"}])
    );
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].contains("701"));
    assert_eq!(v[4]["target"], json!({"kind": "album", "id": 9}));
    assert_eq!(
        v[4]["identifiers"],
        json!([{"namespace": "musicbrainz", "value": "b8a7c51f"}])
    );
    for r in &v {
        assert_ne!(r["target"]["id"], 0);
        assert_reads_back::<RequestRecord>(r);
    }
    assert_family("request_page", &as_page(out));
}

#[test]
fn retry_entries_keep_queue_and_request_ids_apart() {
    let rows: Vec<WireFailedRequest> = serde_json::from_value(json!([
        {"failedId": 3, "title": "Heat", "releaseYear": "1995-12-15T00:00:00Z", "requestId": 12, "type": 1,
         "dts": "2026-04-05T00:00:00Z", "error": "Radarr: 401 at http://radarr:7878/api/v3/movie?apikey=abcdef0123456789", "retryCount": 2},
        {"failedId": 4, "title": "Odd", "requestId": 13, "type": 9, "error": null},
        {"failedId": 0, "requestId": 14, "type": 0}
    ]))
    .unwrap();
    let mut warnings = Vec::new();
    let items: Vec<Value> = rows
        .into_iter()
        .filter_map(|f| retry(f, &mut warnings))
        .map(|r| serde_json::to_value(r).unwrap())
        .collect();
    assert_eq!(items.len(), 2);
    assert_eq!(items[0]["queue_id"], 3);
    assert_eq!(items[0]["request_id"], 12);
    assert_eq!(
        (
            items[0]["request_type"].clone(),
            items[0]["request_type_code"].clone()
        ),
        (json!("movie"), json!(1))
    );
    assert!(
        !items[0]["reason"]
            .as_str()
            .unwrap()
            .contains("abcdef0123456789"),
        "{}",
        items[0]["reason"]
    );
    assert!(items[1].get("request_type").is_none() && items[1].get("request_type_code").is_none());
    assert_eq!(warnings.len(), 2);
    let page = page_object(
        Family::RetryPage,
        items,
        &Paging::single(2, "queue_entries"),
    );
    assert_family("retry_page", &page);
}
