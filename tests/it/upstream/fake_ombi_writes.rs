//! The fake Ombi's write routes, driven over HTTP: each test pins one Ombi
//! v4.59.3 behaviour the write tools rely on (the exact answer and the
//! state change), as docs/ombi-notes.md "Write routes" describes it.

use std::time::Duration;

use serde_json::{Value, json};

use crate::support;
use crate::support::fake_ombi::routes::media::data::{EMPTY_COLLECTION, HYBRID_THEORY};
use crate::support::fake_ombi::state::{NEVER, Vote, user_id};
use crate::support::fake_ombi::state_writes::{SendFailure, Subscription};
use crate::support::fake_ombi::{API_KEY, Data, FakeOmbi, Fault, Options};
use crate::support::rig::fields;

struct Ombi {
    fake: FakeOmbi,
    http: reqwest::Client,
}

/// Who calls: the bare API key (Ombi's system user `Api`, roles Admin +
/// ApiUser) or the API key with a `UserName` header.
#[derive(Clone, Copy)]
enum As {
    Api,
    User(&'static str),
}

const BOB: As = As::User("bob");
const ALICE: As = As::User("alice");

struct Answer {
    status: u16,
    body: String,
}

impl Answer {
    fn json(&self) -> Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|_| panic!("not JSON ({}): {:?}", self.status, self.body))
    }

    /// A 200 with this JSON body.
    fn ok(&self) -> Value {
        assert_eq!(self.status, 200, "{}", self.body);
        self.json()
    }

    /// A void action: 200, no body.
    fn ok_empty(&self) {
        assert_eq!((self.status, self.body.as_str()), (200, ""));
    }
}

fn engine(result: bool, message: Value, error: Value, code: Value, id: i64) -> Value {
    let is_error = error.as_str().is_some_and(|e| !e.is_empty()) || !code.is_null();
    json!({"result": result, "message": message, "isError": is_error, "errorMessage": error,
           "errorCode": code, "requestId": id})
}

fn success(id: i64) -> Value {
    engine(true, Value::Null, Value::Null, Value::Null, id)
}

/// An engine result with only a message: no error, no id.
fn answer(result: bool, message: &str) -> Value {
    engine(result, json!(message), Value::Null, Value::Null, 0)
}

/// A refused engine result: `result: false` with this error (and code).
fn refused(error: &str, code: Option<&str>) -> Value {
    engine(false, Value::Null, json!(error), json!(code), 0)
}

/// A request saved, then refused by the *arr: result false, the message as
/// both message and error, no id.
fn send_refused(message: &str) -> Value {
    engine(false, json!(message), json!(message), Value::Null, 0)
}

fn vote_answer(error: Option<&str>) -> Value {
    json!({"result": error.is_none(), "message": null, "isError": error.is_some(), "errorMessage": error})
}

impl Ombi {
    async fn start() -> Ombi {
        Ombi::with(Options::default()).await
    }

    async fn with(options: Options) -> Ombi {
        let _ = rustls::crypto::ring::default_provider().install_default();
        Ombi {
            fake: FakeOmbi::start(options).await,
            http: reqwest::Client::builder()
                .timeout(Duration::from_secs(2))
                .build()
                .expect("client"),
        }
    }

    async fn try_call(
        &self,
        who: As,
        method: &str,
        path: &str,
        body: Option<Value>,
    ) -> reqwest::Result<Answer> {
        let url = format!("{}{}", self.fake.url, path.trim_start_matches('/'));
        let method = reqwest::Method::from_bytes(method.as_bytes()).expect("method");
        let mut req = self.http.request(method, url).header("ApiKey", API_KEY);
        if let As::User(name) = who {
            req = req.header("UserName", name);
        }
        if let Some(b) = body {
            req = req
                .header("Content-Type", "application/json")
                .body(b.to_string());
        }
        let resp = req.send().await?;
        let status = resp.status().as_u16();
        Ok(Answer {
            status,
            body: resp.text().await?,
        })
    }

    /// A movie request by TMDB id, as it comes: a fault may cut the answer.
    async fn try_request_movie(&self, who: As, tmdb: i64) -> reqwest::Result<Answer> {
        let body = json!({"theMovieDbId": tmdb});
        self.try_call(who, "POST", "api/v1/Request/movie", Some(body))
            .await
    }

    /// A movie request by TMDB id that must answer 200: the engine result.
    async fn request_movie(&self, who: As, tmdb: i64) -> Value {
        self.try_request_movie(who, tmdb)
            .await
            .expect("answered")
            .ok()
    }

    async fn call(&self, who: As, method: &str, path: &str, body: Option<Value>) -> Answer {
        self.try_call(who, method, path, body)
            .await
            .expect("answered")
    }

    async fn post(&self, who: As, path: &str, body: Value) -> Answer {
        self.call(who, "POST", path, Some(body)).await
    }

    async fn get(&self, who: As, path: &str) -> Answer {
        self.call(who, "GET", path, None).await
    }

    async fn put(&self, who: As, path: &str, body: Value) -> Answer {
        self.call(who, "PUT", path, Some(body)).await
    }

    async fn delete(&self, who: As, path: &str) -> Answer {
        self.call(who, "DELETE", path, None).await
    }

    /// A POST that must answer 200: its JSON body.
    async fn post_ok(&self, who: As, path: &str, body: Value) -> Value {
        self.post(who, path, body).await.ok()
    }

    /// A PUT that must answer 200: its JSON body.
    async fn put_ok(&self, who: As, path: &str, body: Value) -> Value {
        self.put(who, path, body).await.ok()
    }

    /// A GET that must answer 200: its JSON body.
    async fn get_ok(&self, who: As, path: &str) -> Value {
        self.get(who, path).await.ok()
    }

    fn data<R>(&self, f: impl FnOnce(&mut Data) -> R) -> R {
        self.fake.with_data(f)
    }

    /// The *arr `target` refuses every send with `message`.
    fn send_rejects(&self, target: &str, message: &str) {
        self.fail_send(target, SendFailure::Rejects(message.into()));
    }

    /// Every send to the *arr `target` throws `message` (Ombi queues it).
    fn send_throws(&self, target: &str, message: &str) {
        self.fail_send(target, SendFailure::Throws(message.into()));
    }

    /// `user`'s votes as (vote type, request type).
    fn votes_of(&self, user: &str) -> Vec<(i64, i64)> {
        self.data(|d| {
            let mine = d.votes.iter().filter(|v| v.user == user);
            mine.map(|v| (v.vote_type, v.request_type)).collect()
        })
    }

    /// The bare key denies request `id` of `kind` (`Request/movie`,
    /// `Request/tv`, `request/music`) with `reason`: the 200 body.
    async fn deny(&self, kind: &str, id: i64, reason: &str) -> Value {
        let body = json!({"id": id, "reason": reason});
        self.put_ok(As::Api, &format!("api/v1/{kind}/deny"), body)
            .await
    }

    /// The retry-queue entry of request `id`.
    fn queued(&self, id: i64) -> Option<Value> {
        self.data(|d| {
            let retry = &d.requests.retry;
            retry.iter().find(|q| q["requestId"] == json!(id)).cloned()
        })
    }

    fn fail_send(&self, target: &str, failure: SendFailure) {
        self.data(|d| d.writes.send_failures.insert(target.into(), failure));
    }

    fn set_vote_max(&self, key: &str, max: i64) {
        self.data(|d| d.admin.settings.get_mut("vote").unwrap()[key] = json!(max));
    }

    fn movie_by_tmdb(&self, tmdb: i64) -> Option<Value> {
        self.data(|d| {
            d.movie_requests
                .iter()
                .find(|r| r["theMovieDbId"] == json!(tmdb))
                .cloned()
        })
    }

    fn child(&self, id: i64) -> Option<Value> {
        self.data(|d| support::fake_ombi::state_writes::child(d, id).cloned())
    }

    fn user(&self, name: &str) -> Value {
        self.data(|d| {
            support::fake_ombi::state_writes::user_row(d, name)
                .cloned()
                .expect("user row")
        })
    }
}

fn episodes(child: &Value) -> Vec<(i64, i64)> {
    let mut out = Vec::new();
    for s in child["seasonRequests"].as_array().unwrap() {
        for e in s["episodes"].as_array().unwrap() {
            out.push((
                s["seasonNumber"].as_i64().unwrap(),
                e["episodeNumber"].as_i64().unwrap(),
            ));
        }
    }
    out
}

fn seasons(list: &[(i64, &[i64])]) -> Value {
    json!(
        list.iter()
            .map(|(s, eps)| json!({"seasonNumber": s, "episodes": eps.iter().map(|e| json!({"episodeNumber": e})).collect::<Vec<_>>()}))
            .collect::<Vec<_>>()
    )
}

// ======================================================================= core

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
async fn issue_create_stores_status_id_and_resolved_date_from_the_body() {
    let o = Ombi::start().await;
    let body = json!({
        "id": 500, "title": "The Matrix", "requestType": 1, "providerId": "603", "requestId": 1,
        "subject": "Audio out of sync", "description": "From minute 12", "issueCategoryId": 2,
        "status": 2, "resovledDate": "2020-01-01T00:00:00Z"
    });
    assert_eq!(
        o.post_ok(BOB, "api/v1/Issues", body.clone()).await,
        json!(500)
    );
    let i = o.get_ok(BOB, "api/v1/Issues/500").await;
    assert_eq!(i["status"], 2);
    assert_eq!(i["resovledDate"], "2020-01-01T00:00:00Z");
    assert_eq!(i["userReportedId"], json!(user_id("bob")));
    assert_eq!(i["issueCategory"], json!({"id": 2, "value": "Subtitles"}));
    // The same id again, or an unknown category: the database refuses (500).
    assert_eq!(o.post(BOB, "api/v1/Issues", body.clone()).await.status, 500);
    let mut unknown = body;
    unknown["id"] = json!(0);
    unknown["issueCategoryId"] = json!(77);
    assert_eq!(o.post(BOB, "api/v1/Issues", unknown).await.status, 500);
    assert_eq!(o.data(|d| d.issues.len()), 6);
}

#[tokio::test]
async fn issue_comment_needs_a_user_row_and_unknown_issue_is_204() {
    let o = Ombi::start().await;
    let c = o
        .post_ok(
            BOB,
            "api/v1/Issues/comments",
            json!({"issueId": 1, "comment": "Still broken"}),
        )
        .await;
    assert_eq!(
        fields(&c, &["comment", "userId", "issuesId"]),
        json!(["Still broken", user_id("bob"), 1])
    );
    let r = o
        .post(
            As::Api,
            "api/v1/Issues/comments",
            json!({"issueId": 1, "comment": "x"}),
        )
        .await;
    assert_eq!(
        r.status, 500,
        "the bare API key has no user row under that name"
    );
    let r = o
        .post(
            BOB,
            "api/v1/Issues/comments",
            json!({"issueId": 404, "comment": "x"}),
        )
        .await;
    assert_eq!((r.status, r.body.as_str()), (204, ""));
    // The seed's five comments and the one added above; the 204 added none.
    assert_eq!(o.data(|d| d.comments.len()), 6);
}

#[tokio::test]
async fn preferences_change_the_callers_row_and_other_users_need_power_user() {
    let o = Ombi::start().await;
    let r = o
        .post(BOB, "api/v1/Identity/language", json!({"lang": "de"}))
        .await;
    assert_eq!((r.status, r.body.as_str()), (200, ""));
    let r = o
        .post(
            BOB,
            "api/v1/Identity/streamingcountry",
            json!({"code": "DE"}),
        )
        .await;
    assert_eq!(r.status, 200);
    let me = o.get_ok(BOB, "api/v1/Identity").await;
    assert_eq!(
        fields(&me, &["language", "streamingCountry"]),
        json!(["de", "DE"])
    );
    // The bare API key writes Ombi's own `Api` user.
    o.post(As::Api, "api/v1/Identity/language", json!({"lang": "fr"}))
        .await
        .ok_empty();
    assert_eq!(o.user("Api")["language"], "fr");

    let (bob, alice) = (user_id("bob"), user_id("alice"));
    let own = json!([{"agent": 4, "userId": bob, "value": "12345", "enabled": true}]);
    assert_eq!(
        o.post_ok(BOB, "api/v1/Identity/NotificationPreferences", own)
            .await,
        json!(true)
    );
    let rows = o
        .get_ok(BOB, "api/v1/Identity/notificationpreferences")
        .await;
    assert_eq!(rows[0]["agent"], 4);
    assert_eq!(
        fields(&rows[0], &["value", "enabled"]),
        json!(["12345", false])
    );
    let other = json!([{"agent": 4, "userId": alice, "value": "x"}]);
    for who in [BOB, As::Api] {
        let r = o
            .post(
                who,
                "api/v1/Identity/NotificationPreferences",
                other.clone(),
            )
            .await;
        assert_eq!(r.status, 401);
    }
    let by_admin = json!([{"agent": 4, "userId": bob, "value": "999"}]);
    assert_eq!(
        o.post_ok(ALICE, "api/v1/Identity/NotificationPreferences", by_admin)
            .await,
        json!(true)
    );
    let stored = o.data(|d| {
        d.admin
            .notification_preferences
            .iter()
            .filter(|n| n["userId"] == json!(bob))
            .cloned()
            .collect::<Vec<_>>()
    });
    assert_eq!(stored.len(), 1);
    assert_eq!(stored[0]["value"], "999");
    let unknown = json!([{"agent": 4, "userId": "no-such-user", "value": "x"}]);
    assert_eq!(
        o.post(ALICE, "api/v1/Identity/NotificationPreferences", unknown)
            .await
            .status,
        404
    );
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

// ================================================================= moderation

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
async fn issue_status_by_any_user_and_resolved_stamps_the_date() {
    let o = Ombi::start().await;
    assert_eq!(
        o.post_ok(
            BOB,
            "api/v1/Issues/status",
            json!({"issueId": 1, "status": 2})
        )
        .await,
        json!(true)
    );
    let i = o.data(|d| d.issues[0].clone());
    assert_eq!(i["status"], 2);
    assert!(i["resovledDate"].is_string());
    assert_eq!(
        o.post_ok(
            BOB,
            "api/v1/Issues/status",
            json!({"issueId": 999, "status": 1})
        )
        .await,
        json!(false)
    );
    assert_eq!(
        o.delete(As::Api, "api/v1/Issues/999").await.ok(),
        json!(false)
    );
    assert_eq!(
        o.delete(As::Api, "api/v1/Issues/comments/999").await.status,
        500
    );
    assert_eq!(o.delete(BOB, "api/v1/Issues/2").await.status, 403);
}

#[tokio::test]
async fn delete_category_cascades_to_its_issues_and_fails_on_comments() {
    let o = Ombi::start().await;
    // Every sample issue is in category 1; issue 1 has comments.
    let r = o.delete(As::Api, "api/v1/Issues/categories/1").await;
    assert_eq!(r.status, 500);
    o.data(|d| {
        assert_eq!(d.issues.len(), 5);
        assert!(
            d.writes
                .issue_categories
                .iter()
                .any(|c| c["id"] == json!(1))
        );
    });
    assert_eq!(o.delete(As::Api, "api/v1/Issues/1").await.ok(), json!(true));
    o.data(|d| {
        assert!(
            d.comments.iter().all(|c| c["issuesId"] != json!(1)),
            "the issue's comments went with it"
        )
    });
    // Issue 2 carries the seed's other comments: delete it too, so the
    // category's remaining issues have none.
    assert_eq!(o.delete(As::Api, "api/v1/Issues/2").await.ok(), json!(true));
    o.data(|d| assert!(d.comments.is_empty(), "no comment is left"));
    assert_eq!(
        o.delete(As::Api, "api/v1/Issues/categories/1").await.ok(),
        json!(true)
    );
    o.data(|d| assert!(d.issues.is_empty(), "the category took its issues"));
    assert_eq!(
        o.delete(As::Api, "api/v1/Issues/categories/12345")
            .await
            .status,
        500
    );
    assert_eq!(
        o.post_ok(
            As::Api,
            "api/v1/Issues/categories",
            json!({"value": "Video"})
        )
        .await,
        json!(true)
    );
    let cats = o.get_ok(As::Api, "api/v1/Issues/categories").await;
    assert!(
        cats.as_array()
            .unwrap()
            .iter()
            .any(|c| c["value"] == "Video" && c["id"].as_i64().unwrap() > 0)
    );
}

// ============================================================= administration

#[tokio::test]
async fn settings_post_overwrites_the_whole_object() {
    let o = Ombi::start().await;
    assert_eq!(
        o.post_ok(As::Api, "api/v1/Settings/vote", json!({"enabled": true}))
            .await,
        json!(true)
    );
    assert_eq!(
        o.get_ok(As::Api, "api/v1/Settings/vote").await,
        json!({"id": 6, "enabled": true, "movieVoteMax": 0, "musicVoteMax": 0, "tvShowVoteMax": 0})
    );
    // ombi: `wizard` forced on; a changed apiKey is the key from now on.
    let mut ombi = o.get_ok(As::Api, "api/v1/Settings/ombi").await;
    ombi["wizard"] = json!(false);
    assert_eq!(
        o.post_ok(As::Api, "api/v1/Settings/ombi", ombi.clone())
            .await,
        json!(true)
    );
    assert_eq!(
        o.get_ok(As::Api, "api/v1/Settings/ombi").await["wizard"],
        true
    );
    ombi["apiKey"] = json!("");
    assert_eq!(
        o.post_ok(As::Api, "api/v1/Settings/ombi", ombi).await,
        json!(true)
    );
    let r = o.get(As::Api, "api/v1/Settings/ombi").await;
    assert_eq!((r.status, r.body.as_str()), (401, "Invalid API Key"));
}

#[tokio::test]
async fn radarr_needs_its_4k_twin_and_agents_their_templates() {
    let o = Ombi::start().await;
    let saved = o.get_ok(As::Api, "api/v1/Settings/radarr").await;
    let mut hd = saved["radarr"].clone();
    hd["enabled"] = json!(false);
    let r = o
        .post(As::Api, "api/v1/Settings/radarr", json!({"radarr": hd}))
        .await;
    assert_eq!(r.status, 500);
    let now = o.get_ok(As::Api, "api/v1/Settings/radarr").await;
    assert_eq!(now["radarr"]["enabled"], false, "the first save landed");
    assert_eq!(now["radarr4K"], saved["radarr4K"]);
    assert_eq!(
        o.post_ok(As::Api, "api/v1/Settings/radarr", now).await,
        json!(true)
    );
    o.data(|d| assert!(d.writes.triggered_jobs.contains(&"IRadarrSync".to_string())));

    let mut discord = o
        .get_ok(As::Api, "api/v1/Settings/notifications/discord")
        .await;
    let templates = discord["notificationTemplates"].clone();
    discord["username"] = json!("Butler");
    discord
        .as_object_mut()
        .unwrap()
        .remove("notificationTemplates");
    let r = o
        .post(
            As::Api,
            "api/v1/Settings/notifications/discord",
            discord.clone(),
        )
        .await;
    assert_eq!(r.status, 500);
    let now = o
        .get_ok(As::Api, "api/v1/Settings/notifications/discord")
        .await;
    assert_eq!(
        now["username"], "Butler",
        "saved before the templates failed"
    );
    assert_eq!(now["notificationTemplates"], templates);
    discord["notificationTemplates"] = json!([templates[0].clone()]);
    assert_eq!(
        o.post_ok(As::Api, "api/v1/Settings/notifications/discord", discord)
            .await,
        json!(true)
    );
    let now = o
        .get_ok(As::Api, "api/v1/Settings/notifications/discord")
        .await;
    assert_eq!(now["notificationTemplates"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn emby_with_enable_true_is_probed_and_a_failure_saves_nothing() {
    let o = Ombi::start().await;
    let mut emby = o.get_ok(As::Api, "api/v1/Settings/emby").await;
    emby["servers"][0]["name"] = json!("Attic");
    o.data(|d| d.writes.down.insert("emby".into()));
    let before = o.get_ok(As::Api, "api/v1/Settings/emby").await;
    assert_eq!(
        o.post(As::Api, "api/v1/Settings/emby", emby.clone())
            .await
            .status,
        500
    );
    assert_eq!(o.get_ok(As::Api, "api/v1/Settings/emby").await, before);
    o.data(|d| d.writes.down.clear());
    assert_eq!(
        o.post_ok(As::Api, "api/v1/Settings/emby", emby).await,
        json!(true)
    );
    let now = o.get_ok(As::Api, "api/v1/Settings/emby").await;
    assert_eq!(
        (
            now["servers"][0]["name"].clone(),
            now["servers"][0]["administratorId"].clone()
        ),
        (json!("Attic"), json!("e-1"))
    );
}

#[tokio::test]
async fn features_switch_one_named_feature_case_sensitively() {
    let o = Ombi::start().await;
    let r = o
        .post_ok(
            As::Api,
            "api/v2/Features/enable",
            json!({"name": "Movie4KRequests"}),
        )
        .await;
    assert_eq!(
        r,
        json!([{"name": "Movie4KRequests", "enabled": true}, {"name": "PlayedSync", "enabled": false}])
    );
    assert_eq!(
        o.post(
            As::Api,
            "api/v2/Features/disable",
            json!({"name": "movie4krequests"})
        )
        .await
        .status,
        500
    );
    let r = o
        .post_ok(
            As::Api,
            "api/v2/Features/disable",
            json!({"name": "Movie4KRequests"}),
        )
        .await;
    assert_eq!(r[0]["enabled"], false);
}

#[tokio::test]
async fn jobs_answer_true_even_when_skipped_because_running() {
    let o = Ombi::start().await;
    o.data(|d| d.writes.running_jobs.insert("IPlexUserImporter".into()));
    assert_eq!(
        o.post_ok(As::Api, "api/v1/Job/plexuserimporter", json!(null))
            .await,
        json!(true)
    );
    assert_eq!(
        o.post_ok(As::Api, "api/v1/Job/newsletter", json!(null))
            .await,
        json!(true)
    );
    o.data(|d| assert_eq!(d.writes.triggered_jobs, vec!["INewsletterJob".to_string()]));
    // Jobs settings validate every CRON.
    let mut jobs = o.get_ok(As::Api, "api/v1/Settings/jobs").await;
    jobs["radarrSync"] = json!("every day");
    let r = o.post_ok(As::Api, "api/v1/Settings/jobs", jobs).await;
    assert_eq!(
        r,
        json!({"result": false, "message": "RadarrSync does not have a valid CRON Expression"})
    );
}

#[tokio::test]
async fn the_nine_swallowing_testers_answer_true_whatever_happened() {
    let o = Ombi::start().await;
    let discord = o
        .get_ok(As::Api, "api/v1/Settings/notifications/discord")
        .await;
    o.data(|d| d.writes.down.insert("discord".into()));
    assert_eq!(
        o.post_ok(As::Api, "api/v1/Tester/discord", discord.clone())
            .await,
        json!(true)
    );
    assert_eq!(
        o.post_ok(As::Api, "api/v1/Tester/slack", json!({"webhookUrl": ""}))
            .await,
        json!(true)
    );
    o.data(|d| assert!(d.writes.outbox.is_empty(), "nothing was delivered"));
    o.data(|d| d.writes.down.clear());
    assert_eq!(
        o.post_ok(As::Api, "api/v1/Tester/discord", discord).await,
        json!(true)
    );
    o.data(|d| assert_eq!(d.writes.outbox.len(), 1));
    // Email goes to the caller; the bare key's `Api` user has no address.
    let email = o
        .get_ok(As::Api, "api/v1/Settings/notifications/email")
        .await;
    assert_eq!(
        o.post_ok(As::Api, "api/v1/Tester/email", email.clone())
            .await,
        json!(false)
    );
    assert_eq!(
        o.post_ok(ALICE, "api/v1/Tester/email", email.clone()).await,
        json!(true)
    );
    o.data(|d| assert_eq!(d.writes.outbox[1]["to"], d.admin.users[0]["emailAddress"]));
    o.data(|d| d.writes.down.insert("smtp".into()));
    assert_eq!(
        o.post_ok(ALICE, "api/v1/Tester/email", email).await,
        json!(false)
    );
    let radarr = o.get_ok(As::Api, "api/v1/Settings/radarr").await["radarr"].clone();
    let r = o.post_ok(As::Api, "api/v1/Tester/radarr", radarr).await;
    assert_eq!(
        r,
        json!({"isValid": true, "version": null, "expectedSubDir": "zz-leak-subdir", "additionalInformation": null})
    );
    let r = o
        .post_ok(
            As::Api,
            "api/v1/Tester/sonarr",
            json!({"ip": "sonarr.lan", "port": 8989}),
        )
        .await;
    assert_eq!(r["additionalInformation"], "NullApiKey");
}

#[tokio::test]
async fn user_update_replaces_every_role_and_overwrites_the_fields() {
    let o = Ombi::start().await;
    let create = json!({
        "userName": "dave", "alias": "Dave D.", "emailAddress": "dave@example.org", "password": "pw",
        "movieRequestLimit": 3,
        "claims": [{"value": "RequestMovie", "enabled": true}, {"value": "RequestTv", "enabled": true}, {"value": "Admin", "enabled": false}]
    });
    assert_eq!(
        o.post_ok(As::Api, "api/v1/Identity", create).await,
        json!({"successful": true, "errors": null})
    );
    let id = user_id("dave");
    let dave = o
        .get_ok(As::Api, &format!("api/v1/Identity/User/{id}"))
        .await;
    assert_eq!(
        dave["movieRequestLimitType"], 1,
        "a null limit type reads as Week"
    );
    assert!(o.user("dave")["movieRequestLimitType"].is_null());
    let mut update = dave.clone();
    update["claims"] = json!([{"value": "RequestTv", "enabled": true}]);
    update.as_object_mut().unwrap().remove("alias");
    update
        .as_object_mut()
        .unwrap()
        .remove("movieRequestLimitType");
    assert_eq!(
        o.put_ok(As::Api, "api/v1/Identity", update).await,
        json!({"successful": true, "errors": null})
    );
    let row = o.user("dave");
    let roles = support::fake_ombi::state_writes::row_roles(&row);
    assert_eq!(roles, vec!["RequestTv".to_string()]);
    assert_eq!(
        fields(
            &row,
            &["alias", "movieRequestLimitType", "movieRequestLimit"]
        ),
        json!([null, 0, 3])
    );
    // The login table follows: dave now has RequestTv only.
    let r = o.request_movie(As::User("dave"), 27205).await;
    assert_eq!(r["errorCode"], "NoPermissionsRequestMovie");
    // A role that does not exist throws after the user was created.
    let wizard = json!({"userName": "wiz", "password": "pw",
        "claims": [{"value": "RequestTv", "enabled": true}, {"value": "Wizard", "enabled": true}]});
    let r = o.post(As::Api, "api/v1/Identity", wizard).await;
    assert_eq!(r.status, 500);
    assert_eq!(
        support::fake_ombi::state_writes::row_roles(&o.user("wiz")),
        vec!["RequestTv".to_string()]
    );
    // Null claims or password: 500.
    let r = o
        .post(
            As::Api,
            "api/v1/Identity",
            json!({"userName": "erin", "password": "pw"}),
        )
        .await;
    assert_eq!(r.status, 500);
    let r = o
        .post(
            As::Api,
            "api/v1/Identity",
            json!({"userName": "erin", "claims": []}),
        )
        .await;
    assert_eq!(r.status, 500);
    let r = o
        .put(
            As::Api,
            "api/v1/Identity",
            json!({"id": "nobody", "claims": []}),
        )
        .await;
    assert_eq!(r.status, 500);
}

#[tokio::test]
async fn power_user_cannot_update_a_user_listing_admin_even_disabled() {
    let o = Ombi::start().await;
    let pat = json!({"userName": "pat", "password": "pw", "claims": [{"value": "PowerUser", "enabled": true}]});
    assert_eq!(
        o.post_ok(As::Api, "api/v1/Identity", pat).await["successful"],
        true
    );
    let bob = o
        .get_ok(
            As::User("pat"),
            &format!("api/v1/Identity/User/{}", user_id("bob")),
        )
        .await;
    assert!(
        bob["claims"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["value"] == "Admin" && c["enabled"] == false)
    );
    let mut update = bob.clone();
    update["alias"] = json!("Bobby");
    let r = o
        .put_ok(As::User("pat"), "api/v1/Identity", update.clone())
        .await;
    assert_eq!(
        r,
        json!({"successful": false, "errors": ["You do not have the correct permissions to create this user"]})
    );
    assert!(o.user("bob")["alias"].is_null());
    update["claims"] = json!(
        bob["claims"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["value"] != "Admin")
            .cloned()
            .collect::<Vec<_>>()
    );
    assert_eq!(
        o.put_ok(As::User("pat"), "api/v1/Identity", update).await["successful"],
        true
    );
    assert_eq!(o.user("bob")["alias"], "Bobby");
}

#[tokio::test]
async fn user_delete_removes_their_tv_children_and_keeps_the_parents() {
    let o = Ombi::start().await;
    let r = o
        .delete(As::Api, &format!("api/v1/Identity/{}", user_id("bob")))
        .await;
    // bob reported issue 1, which alice commented on: the delete fails halfway.
    assert_eq!(r.status, 500);
    o.data(|d| {
        assert!(
            d.movie_requests
                .iter()
                .all(|r| r["requestedUserId"] != json!(user_id("bob")))
        );
        assert_eq!(d.requests.tv_parents.len(), 2, "parents stay");
        assert!(
            d.requests.tv_parents[1]["childRequests"]
                .as_array()
                .unwrap()
                .is_empty()
        );
    });
    let r = o.delete(As::Api, "api/v1/Identity/nobody").await.ok();
    assert_eq!(
        r,
        json!({"successful": false, "errors": ["Could not find user to delete."]})
    );
    let r = o
        .delete(As::Api, &format!("api/v1/Identity/{}", user_id("carol")))
        .await
        .ok();
    assert_eq!(r["successful"], true);
    assert!(o.data(|d| d.admin.users.iter().all(|u| u["userName"] != "carol")));
}

#[tokio::test]
async fn mass_email_smtp_failure_is_500_and_unknown_user_500_after_earlier_mails() {
    let o = Ombi::start().await;
    let users = json!([{"id": user_id("alice")}, {"id": user_id("carol")}]);
    let body = json!({"subject": "Hi", "body": "Movie night", "bcc": false, "users": users});
    assert_eq!(
        o.post_ok(As::Api, "api/v1/Notifications/massemail", body.clone())
            .await,
        json!(true)
    );
    o.data(|d| assert_eq!(d.writes.outbox.len(), 2));
    o.data(|d| d.writes.down.insert("smtp".into()));
    assert_eq!(
        o.post(As::Api, "api/v1/Notifications/massemail", body)
            .await
            .status,
        500
    );
    o.data(|d| assert_eq!(d.writes.outbox.len(), 2));
    o.data(|d| d.writes.down.clear());
    let body = json!({"subject": "Hi", "body": "x", "bcc": false, "users": [{"id": user_id("alice")}, {"id": "nobody"}]});
    assert_eq!(
        o.post(As::Api, "api/v1/Notifications/massemail", body)
            .await
            .status,
        500
    );
    o.data(|d| assert_eq!(d.writes.outbox.len(), 3, "alice's mail still went"));
}

#[tokio::test]
async fn mobile_push_is_an_empty_200_even_without_devices() {
    let o = Ombi::start().await;
    for user in [user_id("alice"), "nobody".to_string()] {
        o.post(
            As::Api,
            "api/v2/Mobile/Send",
            json!({"userId": user, "message": "Hi"}),
        )
        .await
        .ok_empty();
    }
    o.data(|d| assert!(d.writes.outbox.is_empty()));
    o.post(
        As::Api,
        "api/v2/Mobile/Send",
        json!({"userId": user_id("bob"), "message": "Hi"}),
    )
    .await
    .ok_empty();
    o.data(|d| {
        assert_eq!(
            d.writes.outbox,
            vec![json!({"channel": "mobile", "to": "fcm-token-bob-1", "message": "Hi"})]
        )
    });
    let users = o.get_ok(As::Api, "api/v2/Mobile/Users").await;
    assert_eq!(users[0]["userId"], json!(user_id("bob")));
    assert_eq!(users[0]["devices"][0]["token"], "fcm-token-bob-1");
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
