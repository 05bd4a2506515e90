//! Ombi votes → `vote_page` (docs/contract.md "vote_page"; Ombi's model).
//! `VoteType` codes stay numeric (0 up, 1 down). `myVote` reads 1 when the
//! caller has not voted, so it is only used when `alreadyVoted` is true.
//! Totals come from Ombi (`upvotes`/`downvotes`) or from counting a set we
//! received whole; never from a cut one.

use serde::{Deserialize, Serialize};

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

fn vote_code_of(code: i64) -> Option<i64> {
    matches!(code, 0 | 1).then_some(code)
}

/// `$defs/vote`: one request's tallies (open votes) or one user's vote on it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VoteRecord {
    pub request_id: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub media: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user_id: Option<String>,
    /// 0 up, 1 down (Ombi's `VoteType`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vote_code: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub up: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub down: Option<i64>,
}

/// The media label of a request type code, or a warning.
fn media(code: Option<i64>, warnings: &mut Vec<String>) -> Option<String> {
    let code = code?;
    let label = request_type_label(code);
    if label.is_none() {
        warnings.push(format!("a vote row has an unknown request type {code}"));
    }
    label.map(str::to_string)
}

/// One open request with Ombi's own tallies and, when the caller has voted,
/// the caller's vote code.
pub fn open(v: OpenVote, warnings: &mut Vec<String>) -> Option<VoteRecord> {
    let Some(id) = positive_id(v.request_id) else {
        warnings.push("skipped an open vote without a usable request id".into());
        return None;
    };
    let media = media(v.request_type, warnings);
    let mut vote_code = None;
    if v.already_voted == Some(true) {
        vote_code = v.my_vote.and_then(vote_code_of);
        if vote_code.is_none() {
            warnings.push(format!(
                "your vote on request {id} has an unknown vote code"
            ));
        }
    }
    Some(VoteRecord {
        request_id: id,
        media,
        user_id: None,
        vote_code,
        up: v.upvotes.filter(|n| *n >= 0),
        down: v.downvotes.filter(|n| *n >= 0),
    })
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
) -> Vec<VoteRecord> {
    let live: Vec<VoteRow> = rows
        .into_iter()
        .filter(|r| r.deleted != Some(true))
        .collect();
    let (mut up, mut down, mut unknown) = (0, 0, 0);
    let mut out = Vec::with_capacity(live.len());
    for r in live {
        let vote_code = r.vote_type.and_then(vote_code_of);
        match vote_code {
            Some(0) => up += 1,
            Some(_) => down += 1,
            None => unknown += 1,
        }
        out.push(VoteRecord {
            request_id: positive_id(r.request_id).unwrap_or(request_id),
            media: Some(media_label.to_string()),
            user_id: text(r.user_id),
            vote_code,
            up: None,
            down: None,
        });
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

    use super::super::family_schema::assert_family;
    use super::super::paging::{Paging, page_object};
    use super::*;
    use serde_json::Value;

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
        let items: Vec<VoteRecord> = rows.into_iter().filter_map(|v| open(v, &mut w)).collect();
        let items: Vec<Value> = items
            .iter()
            .map(|v| serde_json::to_value(v).unwrap())
            .collect();
        assert_eq!(
            items[0],
            json!({"request_id": 12, "media": "movie", "up": 3, "down": 1})
        );
        assert_eq!(
            items[1],
            json!({"request_id": 603, "media": "tv", "vote_code": 1, "up": 0, "down": 2})
        );
        assert!(w.is_empty());
        assert_family(
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
        let items: Vec<Value> = items
            .iter()
            .map(|v| serde_json::to_value(v).unwrap())
            .collect();
        assert_eq!(items.len(), 3, "live votes only, no synthetic record");
        assert!(items.iter().all(|v| v.get("up").is_none()));
        assert_eq!(
            items[1],
            json!({"request_id": 12, "media": "movie", "user_id": "u-2", "vote_code": 1})
        );
        assert_eq!(w.len(), 1);
        assert!(w[0].contains("2 up") && w[0].contains("1 down"), "{w:?}");
        assert_family(
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
