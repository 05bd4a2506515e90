//! The fake Ombi's write routes, driven over HTTP: each test pins one Ombi v4.59.3 behaviour the write
//! tools rely on (the exact answer and the state change), as docs/ombi-notes.md "Write routes" describes
//! it; one file per domain of `src/tools/`. The client below (`Ombi`) calls as the bare API key or as a
//! user.

mod issues;
mod requests;
mod server;
mod users;

use std::time::Duration;

use serde_json::{Value, json};

use crate::support;
use crate::support::fake_ombi::state_writes::SendFailure;
use crate::support::fake_ombi::{API_KEY, Data, FakeOmbi, Options};

struct Ombi {
    fake: FakeOmbi,
    http: reqwest::Client,
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

fn engine(result: bool, message: Value, error: Value, code: Value, id: i64) -> Value {
    let is_error = error.as_str().is_some_and(|e| !e.is_empty()) || !code.is_null();
    json!({"result": result, "message": message, "isError": is_error, "errorMessage": error,
           "errorCode": code, "requestId": id})
}

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

/// Who calls: the bare API key (Ombi's system user `Api`, roles Admin +
/// ApiUser) or the API key with a `UserName` header.
#[derive(Clone, Copy)]
enum As {
    Api,
    User(&'static str),
}

const BOB: As = As::User("bob");

const ALICE: As = As::User("alice");

/// A request saved, then refused by the *arr: result false, the message as
/// both message and error, no id.
fn send_refused(message: &str) -> Value {
    engine(false, json!(message), json!(message), Value::Null, 0)
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

/// A refused engine result: `result: false` with this error (and code).
fn refused(error: &str, code: Option<&str>) -> Value {
    engine(false, Value::Null, json!(error), json!(code), 0)
}

fn seasons(list: &[(i64, &[i64])]) -> Value {
    json!(
        list.iter()
            .map(|(s, eps)| json!({"seasonNumber": s, "episodes": eps.iter().map(|e| json!({"episodeNumber": e})).collect::<Vec<_>>()}))
            .collect::<Vec<_>>()
    )
}

fn success(id: i64) -> Value {
    engine(true, Value::Null, Value::Null, Value::Null, id)
}

/// An engine result with only a message: no error, no id.
fn answer(result: bool, message: &str) -> Value {
    engine(result, json!(message), Value::Null, Value::Null, 0)
}

fn vote_answer(error: Option<&str>) -> Value {
    json!({"result": error.is_none(), "message": null, "isError": error.is_some(), "errorMessage": error})
}
