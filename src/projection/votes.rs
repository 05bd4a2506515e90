//! Ombi votes → `vote_page` (docs/contract.md "vote_page"; Ombi's model).
//! `VoteType` codes stay numeric (0 up, 1 down). `myVote` reads 1 when the
//! caller has not voted, so it is only used when `alreadyVoted` is true.
//! Totals come from Ombi (`upvotes`/`downvotes`) or from counting a set we
//! received whole; never from a cut one.

use serde::Deserialize;
use serde_json::{Map, Value};

use super::wire::{positive_id, request_type_label, text};

/// `VoteViewModel` (`GET /api/v1/Vote`).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OpenVote {
    pub request_id: Option<i64>,
    pub request_type: Option<i64>,
    pub upvotes: Option<i64>,
    pub downvotes: Option<i64>,
    pub already_voted: Option<bool>,
    pub my_vote: Option<i64>,
}

/// A raw `Votes` row (`GET /api/v1/Vote/{movie|tv|music}/{id}`).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VoteRow {
    pub request_id: Option<i64>,
    pub vote_type: Option<i64>,
    pub request_type: Option<i64>,
    pub user_id: Option<String>,
    pub deleted: Option<bool>,
}

fn vote_code(code: i64) -> Option<i64> {
    matches!(code, 0 | 1).then_some(code)
}

fn media(o: &mut Map<String, Value>, code: Option<i64>, warnings: &mut Vec<String>) {
    if let Some(code) = code {
        match request_type_label(code) {
            Some(m) => {
                o.insert("media".into(), m.into());
            }
            None => warnings.push(format!("a vote row has an unknown request type {code}")),
        }
    }
}

/// One open request with Ombi's own tallies and, when the caller has voted,
/// the caller's vote code.
pub fn open(v: OpenVote, warnings: &mut Vec<String>) -> Option<Value> {
    let Some(id) = positive_id(v.request_id) else {
        warnings.push("skipped an open vote without a usable request id".into());
        return None;
    };
    let mut o = Map::new();
    o.insert("request_id".into(), id.into());
    media(&mut o, v.request_type, warnings);
    if v.already_voted == Some(true) {
        match v.my_vote.and_then(vote_code) {
            Some(c) => {
                o.insert("vote_code".into(), c.into());
            }
            None => warnings.push(format!(
                "your vote on request {id} has an unknown vote code"
            )),
        }
    }
    if let Some(up) = v.upvotes.filter(|n| *n >= 0) {
        o.insert("up".into(), up.into());
    }
    if let Some(down) = v.downvotes.filter(|n| *n >= 0) {
        o.insert("down".into(), down.into());
    }
    Some(Value::Object(o))
}

/// The votes on one request: one record per live vote (deleted rows are
/// neither listed nor counted), so the page's `unit: votes` counts votes.
/// The up/down tally is stated in a warning, and only when it is computed
/// from the complete set: the list was not cut and every vote type is known
/// (docs/contract.md vote_page).
pub fn for_request(
    rows: Vec<VoteRow>,
    request_id: i64,
    media_label: &str,
    complete: bool,
    warnings: &mut Vec<String>,
) -> Vec<Value> {
    let live: Vec<VoteRow> = rows
        .into_iter()
        .filter(|r| r.deleted != Some(true))
        .collect();
    let (mut up, mut down, mut unknown) = (0, 0, 0);
    let mut out = Vec::with_capacity(live.len());
    for r in live {
        let mut o = Map::new();
        o.insert(
            "request_id".into(),
            positive_id(r.request_id).unwrap_or(request_id).into(),
        );
        o.insert("media".into(), media_label.into());
        if let Some(u) = text(r.user_id) {
            o.insert("user_id".into(), u.into());
        }
        match r.vote_type.and_then(vote_code) {
            Some(c) => {
                if c == 0 {
                    up += 1;
                } else {
                    down += 1;
                }
                o.insert("vote_code".into(), c.into());
            }
            None => unknown += 1,
        }
        out.push(Value::Object(o));
    }
    if unknown > 0 {
        warnings.push(format!(
            "{unknown} vote(s) have an unknown vote type: no tally is given"
        ));
    }
    if !complete {
        warnings.push("the vote list was cut by the read limit: no tally is given".into());
    } else if unknown == 0 {
        warnings.push(format!(
            "tally over all {} vote(s) on {media_label} request {request_id}: {up} up (vote_code 0), {down} down (vote_code 1)",
            up + down
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::contract::Family;
    use serde_json::json;

    use super::super::paging::{Paging, assert_def, page_object};
    use super::*;

    #[test]
    fn my_vote_is_ignored_unless_already_voted() {
        let rows: Vec<OpenVote> = serde_json::from_value(json!([
            {"requestId": 12, "requestType": 1, "image": "https://image.tmdb.org/t/p/w500/x.jpg", "background": null,
             "upvotes": 3, "downvotes": 1, "title": "Heat", "description": "d", "alreadyVoted": false, "myVote": 1},
            {"requestId": 603, "requestType": 0, "upvotes": 0, "downvotes": 2, "title": "Severance",
             "description": "Season: 2 - Episodes: 1<br />", "alreadyVoted": true, "myVote": 1}
        ]))
        .unwrap();
        let mut w = Vec::new();
        let items: Vec<Value> = rows.into_iter().filter_map(|v| open(v, &mut w)).collect();
        assert_eq!(
            items[0],
            json!({"request_id": 12, "media": "movie", "up": 3, "down": 1})
        );
        assert_eq!(
            items[1],
            json!({"request_id": 603, "media": "tv", "vote_code": 1, "up": 0, "down": 2})
        );
        assert!(w.is_empty());
        assert_def(
            "vote_page",
            &page_object(Family::VotePage, items, &Paging::single(2, "votes")),
        );
    }

    #[test]
    fn votes_are_the_only_records_and_the_tally_needs_a_complete_known_set() {
        let rows = |third: i64| -> Vec<VoteRow> {
            serde_json::from_value(json!([
                {"id": 1, "requestId": 12, "voteType": 0, "requestType": 1, "userId": "u-1", "date": "2026-04-01T00:00:00Z", "deleted": false, "user": null},
                {"id": 2, "requestId": 12, "voteType": 1, "requestType": 1, "userId": "u-2", "deleted": false},
                {"id": 3, "requestId": 12, "voteType": 0, "requestType": 1, "userId": "u-3", "deleted": true},
                {"id": 4, "requestId": 12, "voteType": third, "requestType": 1, "userId": "u-4", "deleted": false}
            ]))
            .unwrap()
        };
        let mut w = Vec::new();
        let items = for_request(rows(0), 12, "movie", true, &mut w);
        assert_eq!(items.len(), 3, "live votes only, no synthetic record");
        assert!(items.iter().all(|v| v.get("up").is_none()));
        assert_eq!(
            items[1],
            json!({"request_id": 12, "media": "movie", "user_id": "u-2", "vote_code": 1})
        );
        assert_eq!(w.len(), 1);
        assert!(w[0].contains("2 up") && w[0].contains("1 down"), "{w:?}");
        assert_def(
            "vote_page",
            &page_object(Family::VotePage, items, &Paging::single(3, "votes")),
        );
        let mut w = Vec::new();
        for_request(rows(0), 12, "movie", false, &mut w);
        assert!(w.iter().all(|m| !m.contains(" up")), "{w:?}");
        let mut w = Vec::new();
        let items = for_request(rows(7), 12, "movie", true, &mut w);
        assert_eq!(items.len(), 3);
        assert!(w.iter().all(|m| !m.contains(" up")), "{w:?}");
        let mut w = Vec::new();
        assert!(for_request(Vec::new(), 2, "movie", true, &mut w).is_empty());
        assert!(w[0].contains("0 up"));
    }
}
