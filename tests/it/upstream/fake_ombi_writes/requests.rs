//! The request write routes: creates per media and their answers when a downloader refuses or throws,
//! TV selections and duplicates, collections, subscriptions, votes, attribution, moderation, advanced
//! options, re-processing, deletes, the retry queue, and faults that apply a write and then never
//! answer.

use serde_json::{Value, json};

use crate::support::fake_ombi::routes::media::data::{EMPTY_COLLECTION, HYBRID_THEORY};
use crate::support::fake_ombi::state::{NEVER, Vote, user_id};
use crate::support::fake_ombi::state_writes::Subscription;
use crate::support::fake_ombi::{Fault, Options};
use crate::support::rig::fields;
use crate::upstream::fake_ombi_writes::{
    ALICE, As, BOB, Ombi, answer, engine, episodes, refused, seasons, send_refused, success,
    vote_answer,
};

#[tokio::test]
async fn create_upvotes_as_the_caller_and_a_low_vote_max_approves_at_once() {
    let o = Ombi::start().await;
    o.set_vote_max("movieVoteMax", 1);
    let r = o.request_movie(BOB, 496243).await;
    let id = r["requestId"].as_i64().unwrap();
    assert_eq!(
        r,
        engine(
            true,
            json!("Parasite (2019) has been successfully added!"),
            Value::Null,
            Value::Null,
            id
        )
    );
    let row = o.movie_by_tmdb(496243).unwrap();
    assert_eq!(row["requestedUserId"], json!(user_id("bob")));
    // bob has no auto-approve role: his own upvote approved it (and sent it).
    assert_eq!(row["approved"], json!(true));
    assert_eq!(row["requestStatus"], "Common.ProcessingRequest");
    o.data(|d| {
        assert!(d.votes.iter().any(|v| v.user == "bob"
            && v.request_id == id
            && v.vote_type == 0
            && v.request_type == 1));
        assert!(d.writes.subscriptions.contains(&Subscription {
            user: "bob".into(),
            request_id: id,
            request_type: 1
        }));
        assert_eq!(d.writes.sent, vec![("radarr".to_string(), id)]);
    });
    // With the sample's VoteMax (10) a create stays pending.
    o.set_vote_max("movieVoteMax", 10);
    let r = o.request_movie(BOB, 27205).await;
    assert_eq!(r["result"], true);
    assert_eq!(o.movie_by_tmdb(27205).unwrap()["approved"], false);
}

#[tokio::test]
async fn movie_saved_then_failed_send_answers_result_false_without_id() {
    let o = Ombi::start().await;
    o.send_rejects("radarr", "Movie is already monitored");
    let r = o
        .post_ok(
            ALICE,
            "api/v1/Request/movie",
            json!({"theMovieDbId": 27205, "languageCode": "en"}),
        )
        .await;
    assert_eq!(r, send_refused("Movie is already monitored"));
    // Saved and approved (alice auto-approves) before the send failed; no upvote.
    let row = o.movie_by_tmdb(27205).expect("the request was saved");
    assert_eq!(row["approved"], true);
    o.data(|d| assert!(d.votes.is_empty() && d.writes.sent.is_empty()));
}

#[tokio::test]
async fn movie_send_that_throws_is_queued_and_answers_success() {
    let o = Ombi::start().await;
    o.send_throws("radarr", "Connection refused");
    let r = o.request_movie(ALICE, 27205).await;
    let id = r["requestId"].as_i64().unwrap();
    assert_eq!(r["result"], true);
    let q = o.queued(id).expect("queued");
    assert_eq!(
        fields(&q, &["type", "error", "retryCount"]),
        json!([1, "Connection refused", 0])
    );
}

#[tokio::test]
async fn album_saved_then_failed_send_answers_result_false_without_id() {
    let o = Ombi::start().await;
    o.send_rejects("lidarr", "Album is already monitored");
    let r = o
        .post_ok(
            ALICE,
            "api/v1/request/music",
            json!({"foreignAlbumId": HYBRID_THEORY}),
        )
        .await;
    assert_eq!(r, send_refused("Album is already monitored"));
    o.data(|d| {
        let a = d
            .requests
            .albums
            .iter()
            .find(|a| a["foreignAlbumId"] == json!(HYBRID_THEORY))
            .expect("saved");
        assert_eq!(a["approved"], true);
    });
}

#[tokio::test]
async fn tv_create_when_sonarr_throws_is_false_not_error_with_the_child_id() {
    let o = Ombi::start().await;
    o.send_throws("sonarr", "Connection refused (sonarr.lan:54324)");
    let r = o
        .post_ok(
            ALICE,
            "api/v2/Requests/tv",
            json!({"theMovieDbId": 1399, "requestAll": true}),
        )
        .await;
    // A brand-new show's child id is the TMDB id.
    assert_eq!(
        r,
        json!({"result": false, "message": null, "isError": false, "errorMessage": null, "errorCode": null, "requestId": 1399})
    );
    let child = o.child(1399).expect("saved");
    assert_eq!(child["approved"], true);
    assert_eq!(episodes(&child).len(), 80);
    let q = o.queued(1399).expect("queued");
    assert_eq!(
        fields(&q, &["type", "title"]),
        json!([0, "Game of Thrones"])
    );
    o.data(|d| assert!(d.votes.is_empty(), "no upvote after result false"));
}

#[tokio::test]
async fn tv_custom_selection_keeps_known_episodes_and_seasons_null_is_500() {
    let o = Ombi::start().await;
    let r = o
        .post_ok(BOB, "api/v2/Requests/tv", json!({"theMovieDbId": 1399, "seasons": seasons(&[(1, &[1, 2]), (2, &[99]), (3, &[])])})).await;
    assert_eq!(r, success(1399));
    let child = o.child(1399).unwrap();
    assert_eq!(
        episodes(&child),
        vec![(1, 1), (1, 2)],
        "episode 99 is unknown to TMDB"
    );
    assert_eq!(child["approved"], false);
    o.data(|d| {
        assert!(
            d.votes
                .iter()
                .any(|v| v.user == "bob" && v.request_id == 1399 && v.request_type == 0)
        );
        let p = d
            .requests
            .tv_parents
            .iter()
            .find(|p| p["externalProviderId"] == json!(1399))
            .unwrap();
        assert_eq!(p["totalSeasons"], 3);
    });
    let r = o
        .post(
            BOB,
            "api/v2/Requests/tv",
            json!({"theMovieDbId": 66732, "requestAll": true, "seasons": null}),
        )
        .await;
    assert_eq!(r.status, 500);
    assert!(
        o.data(|d| d
            .requests
            .tv_parents
            .iter()
            .filter(|p| p["externalProviderId"] == json!(66732))
            .count())
            == 1
    );
}

#[tokio::test]
async fn tv_duplicates_answer_the_episodes_text_or_already_requested() {
    let o = Ombi::start().await;
    // Breaking Bad: parent 10, first child 1396 (S1 E1-3), child 12 (S2 E1-2).
    let r = o
        .post_ok(
            ALICE,
            "api/v2/Requests/tv",
            json!({"theMovieDbId": 1396, "seasons": seasons(&[(1, &[1, 2, 3])])}),
        )
        .await;
    assert_eq!(
        r,
        refused(
            "We already have episodes requested from series Breaking Bad",
            None
        )
    );
    let r = o
        .post_ok(
            ALICE,
            "api/v2/Requests/tv",
            json!({"theMovieDbId": 1396, "seasons": seasons(&[(2, &[1, 2])])}),
        )
        .await;
    assert_eq!(
        r,
        refused("This has already been requested", Some("AlreadyRequested"))
    );
    let r = o
        .post_ok(
            ALICE,
            "api/v2/Requests/tv",
            json!({"theMovieDbId": 1396, "seasons": seasons(&[(2, &[1, 2, 3])])}),
        )
        .await;
    let id = r["requestId"].as_i64().unwrap();
    assert_eq!(r, success(id));
    assert_ne!(id, 1396);
    assert_eq!(episodes(&o.child(id).unwrap()), vec![(2, 3)]);
    assert_eq!(o.child(id).unwrap()["parentRequestId"], 10);
}

#[tokio::test]
async fn albums_are_never_deduplicated() {
    let o = Ombi::start().await;
    let v1 = format!("api/v1/Search/music/album/info/{HYBRID_THEORY}");
    assert_eq!(o.get_ok(As::Api, &v1).await["requested"], false);
    let mut ids = Vec::new();
    for _ in 0..2 {
        let r = o
            .post_ok(
                As::Api,
                "api/v1/request/music",
                json!({"foreignAlbumId": HYBRID_THEORY}),
            )
            .await;
        let id = r["requestId"].as_i64().unwrap();
        assert_eq!(
            r,
            engine(
                true,
                json!("Hybrid Theory has been successfully added!"),
                Value::Null,
                Value::Null,
                id
            )
        );
        ids.push(id);
    }
    assert_ne!(ids[0], ids[1]);
    o.data(|d| {
        assert_eq!(
            d.requests
                .albums
                .iter()
                .filter(|a| a["foreignAlbumId"] == json!(HYBRID_THEORY))
                .count(),
            2
        );
        assert_eq!(
            d.writes.sent,
            vec![
                ("lidarr".to_string(), ids[0]),
                ("lidarr".to_string(), ids[1])
            ]
        );
    });
    // The request state a caller can read first: the first request's.
    let lookup = format!("api/v1/Search/music/album/lidarr:{HYBRID_THEORY}");
    for path in [lookup, v1] {
        let mut a = o.get_ok(As::Api, &path).await;
        if a.is_array() {
            a = a[0].clone();
        }
        let state = (
            a["requested"].clone(),
            a["requestId"].clone(),
            a["approved"].clone(),
        );
        assert_eq!(state, (json!(true), json!(ids[0]), json!(true)), "{path}");
    }
}

#[tokio::test]
async fn collection_answers_the_first_parts_id_and_500_when_empty_or_unknown() {
    let o = Ombi::start().await;
    // Part 603 is already requested (request 1): the answer's id is its 0.
    let r = o
        .post_ok(BOB, "api/v2/Requests/movie/collection/2344", json!({}))
        .await;
    assert_eq!(
        r,
        answer(
            true,
            "The collection The Matrix Collection has been successfully added!"
        )
    );
    for tmdb in [604, 605] {
        let row = o.movie_by_tmdb(tmdb).expect("the other parts were created");
        assert_eq!(row["requestedUserId"], json!(user_id("bob")));
    }
    o.data(|d| assert!(d.votes.is_empty(), "a collection is not upvoted"));
    let fresh = Ombi::start().await;
    fresh.data(|d| d.movie_requests.retain(|r| r["id"] != json!(1)));
    let r = fresh
        .post_ok(BOB, "api/v2/Requests/movie/collection/2344", json!({}))
        .await;
    assert_eq!(r["requestId"], fresh.movie_by_tmdb(603).unwrap()["id"]);
    for id in [EMPTY_COLLECTION, 1] {
        let r = o
            .post(
                BOB,
                &format!("api/v2/Requests/movie/collection/{id}"),
                json!({}),
            )
            .await;
        assert_eq!(r.status, 500, "{id}");
        assert_eq!(
            r.json(),
            json!({"error": "Object reference not set to an instance of an object."})
        );
    }
}

#[tokio::test]
async fn subscribe_is_always_true_without_an_existence_check() {
    let o = Ombi::start().await;
    for path in [
        "api/v1/Request/movie/subscribe/999",
        "api/v1/Request/tv/subscribe/12",
    ] {
        assert_eq!(o.post_ok(BOB, path, json!(null)).await, json!(true));
    }
    o.data(|d| {
        assert_eq!(
            d.writes.subscriptions,
            vec![
                Subscription {
                    user: "bob".into(),
                    request_id: 999,
                    request_type: 1
                },
                Subscription {
                    user: "bob".into(),
                    request_id: 12,
                    request_type: 0
                },
            ]
        )
    });
    let r = o
        .post(BOB, "api/v1/Request/movie/unsubscribe/999", json!(null))
        .await;
    assert_eq!(r.ok(), json!(true));
    o.data(|d| assert_eq!(d.writes.subscriptions.len(), 1));
}

#[tokio::test]
async fn vote_existing_vote_lookup_ignores_the_media_type() {
    let o = Ombi::start().await;
    o.data(|d| {
        d.votes.push(Vote {
            user: "bob".into(),
            request_id: 2,
            vote_type: 1,
            request_type: 1,
        })
    });
    // bob's movie downvote on id 2 is found for an ALBUM vote on id 2 and removed.
    let r = o.post_ok(BOB, "api/v1/Vote/up/album/2", json!(null)).await;
    assert_eq!(r, vote_answer(None));
    assert_eq!(o.votes_of("bob"), vec![(0, 2)]);
    // ...and that album upvote now blocks a TV upvote on id 2.
    let r = o.post_ok(BOB, "api/v1/Vote/up/tv/2", json!(null)).await;
    assert_eq!(r, vote_answer(Some("You have already voted!")));
    // A downvote replaces it and unsubscribes.
    let r = o.post_ok(BOB, "api/v1/Vote/down/tv/2", json!(null)).await;
    assert_eq!(r, vote_answer(None));
    assert_eq!(o.votes_of("bob"), vec![(1, 0)]);
}

#[tokio::test]
async fn votes_approve_at_vote_max_and_disabled_voting_records_nothing() {
    let o = Ombi::start().await;
    o.set_vote_max("movieVoteMax", 2);
    assert_eq!(
        o.post_ok(ALICE, "api/v1/Vote/up/movie/2", json!(null))
            .await,
        vote_answer(None)
    );
    assert_eq!(
        o.data(|d| d.movie_request(2).unwrap()["approved"].clone()),
        false
    );
    assert_eq!(
        o.post_ok(BOB, "api/v1/Vote/up/movie/2", json!(null)).await,
        vote_answer(None)
    );
    assert_eq!(
        o.data(|d| d.movie_request(2).unwrap()["approved"].clone()),
        true
    );
    // No existence check: the vote on a missing album is kept, the approval fails.
    o.set_vote_max("musicVoteMax", 0);
    let r = o
        .post_ok(BOB, "api/v1/Vote/up/album/999", json!(null))
        .await;
    assert_eq!(
        r,
        vote_answer(Some("Voted succesfully but could not approve!"))
    );
    assert!(o.data(|d| d.votes.iter().any(|v| v.request_id == 999)));
    // Voting off: `true`, nothing stored.
    o.data(|d| d.admin.settings.get_mut("vote").unwrap()["enabled"] = json!(false));
    assert_eq!(
        o.get_ok(As::Api, "api/v1/Settings/voteenabled").await,
        json!(false)
    );
    let before = o.data(|d| d.votes.len());
    assert_eq!(
        o.post_ok(ALICE, "api/v1/Vote/up/movie/3", json!(null))
            .await,
        vote_answer(None)
    );
    assert_eq!(o.data(|d| d.votes.len()), before);
}

#[tokio::test]
async fn api_key_user_name_attribution() {
    let o = Ombi::start().await;
    let r = o.request_movie(As::User("BOB"), 27205).await;
    let id = r["requestId"].as_i64().unwrap();
    let row = o.movie_by_tmdb(27205).unwrap();
    assert_eq!(row["requestedUserId"], json!(user_id("bob")));
    assert_eq!(row["approved"], false, "bob's roles, not the key's");
    o.data(|d| {
        assert!(
            d.votes
                .iter()
                .any(|v| v.user == "bob" && v.request_id == id)
        )
    });
    // An unknown user: Ombi writes 401 "Invalid User", then dereferences the
    // missing user and the connection is cut mid-answer (docs/ombi-notes.md).
    let r = o.try_request_movie(As::User("mallory"), 157336).await;
    assert!(r.is_err(), "the answer is cut");
    // The bare key is Ombi's system user: auto-approved at once.
    let r = o.request_movie(As::Api, 496243).await;
    assert_eq!(r["result"], true);
    let row = o.movie_by_tmdb(496243).unwrap();
    assert_eq!(
        fields(&row, &["requestedUserId", "approved"]),
        json!([user_id("Api"), true])
    );
}

#[tokio::test]
async fn album_deny_answers_result_false_request_successfully_deleted() {
    let o = Ombi::start().await;
    let r = o.deny("request/music", 5, "No").await;
    assert_eq!(r, answer(false, "Request successfully deleted"));
    let album = o.data(|d| {
        d.requests
            .albums
            .iter()
            .find(|a| a["id"] == json!(5))
            .cloned()
    });
    assert_eq!(
        fields(
            &album.unwrap(),
            &["denied", "deniedReason", "requestStatus"]
        ),
        json!([true, "No", "Common.Denied"])
    );
}

#[tokio::test]
async fn moderation_answers_per_media() {
    let o = Ombi::start().await;
    let r = o.deny("Request/movie", 2, "x").await;
    assert_eq!(r, answer(true, "Request successfully deleted"));
    assert_eq!(
        o.data(|d| d.movie_request(2).unwrap()["markedAsDenied"].clone()),
        NEVER,
        "deny stamps no date"
    );
    let r = o.deny("Request/tv", 12, "x").await;
    assert_eq!(r, success(0));
    // TV approve ignores the send: a throwing Sonarr is queued, the answer is true.
    o.send_throws("sonarr", "timeout");
    let r = o
        .post_ok(As::Api, "api/v1/Request/tv/approve", json!({"id": 12}))
        .await;
    assert_eq!(r, success(0));
    let c = o.child(12).unwrap();
    assert_eq!(fields(&c, &["approved", "denied"]), json!([true, false]));
    assert!(o.data(|d| d.requests.retry.iter().any(|q| q["requestId"] == json!(12))));
    let r = o
        .post_ok(As::Api, "api/v1/Request/tv/approve", json!({"id": 777}))
        .await;
    assert_eq!(
        r,
        refused(
            "Child Request does not exist",
            Some("ChildRequestDoesNotExist")
        )
    );
    let r = o
        .post_ok(As::Api, "api/v1/Request/tv/available", json!({"id": 12}))
        .await;
    assert_eq!(r, answer(true, "Request is now available"));
    assert!(
        o.child(12).unwrap()["seasonRequests"][0]["episodes"]
            .as_array()
            .unwrap()
            .iter()
            .all(|e| e["available"] == true)
    );
    let r = o
        .post_ok(
            As::Api,
            "api/v1/Request/movie/unavailable",
            json!({"id": 1}),
        )
        .await;
    assert_eq!(r, answer(true, "Request is now unavailable"));
    let r = o
        .post_ok(As::Api, "api/v1/request/music/approve", json!({"id": 404}))
        .await;
    assert_eq!(r, refused("Request does not exist", None));
    assert_eq!(
        o.post(BOB, "api/v1/Request/movie/approve", json!({"id": 2}))
            .await
            .status,
        403
    );
}

#[tokio::test]
async fn advanced_options_overwrite_root_and_quality_and_tv_language_only_above_zero() {
    let o = Ombi::start().await;
    let path = "api/v2/Requests/movie/advancedoptions";
    assert_eq!(
        o.post_ok(
            As::Api,
            path,
            json!({"requestId": 2, "rootPathOverride": 5, "qualityOverride": 7})
        )
        .await,
        success(0)
    );
    assert_eq!(
        o.post_ok(As::Api, path, json!({"requestId": 2, "qualityOverride": 9}))
            .await,
        success(0)
    );
    let m = o.data(|d| d.movie_request(2).cloned().unwrap());
    assert_eq!(
        fields(&m, &["rootPathOverride", "qualityOverride"]),
        json!([0, 9]),
        "omitted root = 0"
    );
    let path = "api/v2/Requests/tv/advancedoptions";
    let body =
        json!({"requestId": 10, "rootPathOverride": 2, "qualityOverride": 1, "languageProfile": 3});
    assert_eq!(o.post_ok(As::Api, path, body).await, success(0));
    assert_eq!(
        o.post_ok(
            As::Api,
            path,
            json!({"requestId": 10, "languageProfile": 0})
        )
        .await,
        success(0)
    );
    let p = o.data(|d| d.requests.tv_parents[0].clone());
    assert_eq!(
        fields(&p, &["rootFolder", "qualityOverride", "languageProfile"]),
        json!([0, 0, 3])
    );
    let r = o.post_ok(As::Api, path, json!({"requestId": 999})).await;
    assert_eq!(
        r,
        refused("Request does not exist", Some("RequestDoesNotExist"))
    );
    // root / quality by parent id: always `true`; unknown parent → 500.
    assert_eq!(
        o.call(As::Api, "PUT", "api/v1/Request/tv/root/10/4", None)
            .await
            .ok(),
        json!(true)
    );
    assert_eq!(
        o.data(|d| d.requests.tv_parents[0]["rootFolder"].clone()),
        4
    );
    assert_eq!(
        o.call(As::Api, "PUT", "api/v1/Request/tv/quality/999/4", None)
            .await
            .status,
        500
    );
}

#[tokio::test]
async fn reprocess_of_an_unapproved_request_answers_true_and_sends_nothing() {
    let o = Ombi::start().await;
    assert_eq!(
        o.post_ok(As::Api, "api/v2/Requests/reprocess/1/2/false", json!(null))
            .await,
        success(0)
    );
    assert_eq!(
        o.post_ok(
            As::Api,
            "api/v2/Requests/reprocess/TvShow/12/true",
            json!(null)
        )
        .await,
        success(12)
    );
    o.data(|d| assert!(d.writes.sent.is_empty()));
    assert_eq!(
        o.post_ok(
            As::Api,
            "api/v2/Requests/reprocess/Movie/1/false",
            json!(null)
        )
        .await,
        success(0)
    );
    o.data(|d| assert_eq!(d.writes.sent, vec![("radarr".to_string(), 1)]));
    let r = o
        .post_ok(
            As::Api,
            "api/v2/Requests/reprocess/1/9999/false",
            json!(null),
        )
        .await;
    assert_eq!(r, refused("Request does not exist", None));
    assert_eq!(
        o.post(As::Api, "api/v2/Requests/reprocess/2/5/false", json!(null))
            .await
            .status,
        400
    );
}

#[tokio::test]
async fn deleting_the_last_tv_child_deletes_the_parent() {
    let o = Ombi::start().await;
    assert_eq!(
        o.delete(As::Api, "api/v1/Request/tv/child/21").await.ok(),
        success(0)
    );
    assert!(
        o.data(|d| d.requests.tv_parents.iter().all(|p| p["id"] != json!(20))),
        "parent 20 went with its only child"
    );
    assert_eq!(
        o.delete(As::Api, "api/v1/Request/tv/child/12").await.ok(),
        success(0)
    );
    let kids = o.data(|d| {
        d.requests
            .tv_parents
            .iter()
            .find(|p| p["id"] == json!(10))
            .unwrap()["childRequests"]
            .as_array()
            .unwrap()
            .len()
    });
    assert_eq!(kids, 1);
    assert_eq!(
        o.delete(As::Api, "api/v1/Request/tv/child/9999")
            .await
            .status,
        500
    );
    // The parent route answers an empty 200.
    o.delete(As::Api, "api/v1/Request/tv/10").await.ok_empty();
    assert!(o.data(|d| d.requests.tv_parents.is_empty()));
    assert_eq!(o.delete(As::Api, "api/v1/Request/tv/10").await.status, 500);
}

#[tokio::test]
async fn manage_own_requests_deletes_only_the_callers_own() {
    let mut options = Options::default();
    options.users.push((
        "mo".into(),
        "pw".into(),
        vec!["ManageOwnRequests".into(), "RequestMovie".into()],
    ));
    let o = Ombi::with(options).await;
    let r = o
        .delete(As::User("mo"), "api/v1/Request/movie/2")
        .await
        .ok();
    assert_eq!(
        r,
        engine(false, Value::Null, Value::Null, json!("NoPermissions"), 0)
    );
    assert!(o.data(|d| d.movie_request(2).is_some()));
    let id = o.request_movie(As::User("mo"), 27205).await["requestId"]
        .as_i64()
        .unwrap();
    assert_eq!(
        o.delete(As::User("mo"), &format!("api/v1/Request/movie/{id}"))
            .await
            .ok(),
        success(0)
    );
    assert_eq!(o.delete(BOB, "api/v1/Request/movie/2").await.status, 403);
    assert_eq!(
        o.delete(As::Api, "api/v1/request/music/5").await.ok(),
        success(0)
    );
    assert_eq!(
        o.delete(As::Api, "api/v1/request/music/5").await.status,
        500
    );
}

#[tokio::test]
async fn retry_remove_takes_the_queue_id_and_the_queue_fails_on_deleted_requests() {
    let o = Ombi::start().await;
    // Queue entry 7 is for movie request 2.
    assert_eq!(o.delete(As::Api, "api/v1/RequestRetry/2").await.status, 500);
    assert_eq!(
        o.get_ok(As::Api, "api/v1/RequestRetry")
            .await
            .as_array()
            .unwrap()
            .len(),
        1
    );
    o.data(|d| d.movie_requests.retain(|r| r["id"] != json!(2)));
    assert_eq!(o.get(As::Api, "api/v1/RequestRetry").await.status, 500);
    assert_eq!(
        o.delete(As::Api, "api/v1/RequestRetry/7").await.ok(),
        json!(true)
    );
    assert_eq!(o.get_ok(As::Api, "api/v1/RequestRetry").await, json!([]));
}

#[tokio::test]
async fn faults_can_apply_a_write_and_then_never_answer_or_drop() {
    let o = Ombi::start().await;
    let once = || Fault::on("POST", "/api/v1/Request/movie");
    o.fake.add_fault(once().apply_then_hang().times(1));
    let r = o.try_request_movie(BOB, 27205).await;
    assert!(r.is_err_and(|e| e.is_timeout()));
    assert_eq!(o.fake.hits("POST", "/api/v1/Request/movie"), 1);
    assert!(o.movie_by_tmdb(27205).is_some(), "the write happened");
    o.fake.add_fault(once().hang().times(1));
    assert!(o.try_request_movie(BOB, 496243).await.is_err());
    let never = o.movie_by_tmdb(496243);
    assert!(never.is_none(), "received, never processed");
    o.fake.add_fault(once().apply_then_drop().times(1));
    assert!(o.try_request_movie(BOB, 129).await.is_err());
    assert!(o.movie_by_tmdb(129).is_some());
    assert_eq!(o.fake.hits("POST", "/api/v1/Request/movie"), 3);
}
