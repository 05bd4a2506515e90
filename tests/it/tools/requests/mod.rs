//! The request tools (`src/tools/requests/`): reading requests, their statistics and votes; creating,
//! voting on, subscribing to, moderating, re-processing and deleting them; the retry queue. The helpers
//! here are shared by several of them.

mod privacy;
mod read_request_stats;
mod read_requests;
mod read_votes;
mod write_request_create;
mod write_request_delete;
mod write_request_moderate;
mod write_request_options;
mod write_request_reprocess;
mod write_request_subscribe;
mod write_retry_remove;
mod write_vote;

use serde_json::{Value, json};

use crate::support::fake_ombi::state_writes::SendFailure;
use crate::support::rig::Rig;

fn movie_request_of(rig: &Rig, tmdb: i64) -> Option<Value> {
    rig.fake.with_data(|d| {
        d.movie_requests
            .iter()
            .find(|r| r["theMovieDbId"] == json!(tmdb))
            .cloned()
    })
}

fn movie(h: &Rig, id: i64) -> Option<Value> {
    h.fake.with_data(|d| d.movie_request(id).cloned())
}

fn child(h: &Rig, id: i64) -> Option<Value> {
    h.fake.with_data(|d| {
        d.requests
            .tv_parents
            .iter()
            .flat_map(|p| p["childRequests"].as_array().cloned().unwrap_or_default())
            .find(|c| c["id"] == json!(id))
    })
}

fn album(h: &Rig, id: i64) -> Option<Value> {
    h.fake.with_data(|d| {
        d.requests
            .albums
            .iter()
            .find(|a| a["id"] == json!(id))
            .cloned()
    })
}

/// The *arr `target` refuses every send with `message`.
fn send_rejects(h: &Rig, target: &str, message: &str) {
    fail_send(h, target, SendFailure::Rejects(message.into()));
}

fn fail_send(h: &Rig, target: &str, failure: SendFailure) {
    h.fake
        .with_data(|d| d.writes.send_failures.insert(target.into(), failure));
}

/// Every send to the *arr `target` throws `message` (Ombi queues it).
fn send_throws(h: &Rig, target: &str, message: &str) {
    fail_send(h, target, SendFailure::Throws(message.into()));
}

fn parent(h: &Rig, id: i64) -> Option<Value> {
    h.fake.with_data(|d| {
        d.requests
            .tv_parents
            .iter()
            .find(|p| p["id"] == json!(id))
            .cloned()
    })
}
