//! Every TV season (child) request the acting user can see, from one read
//! of Ombi's unpaged TV list (`GET api/v1/Request/tv`:
//! `TvRequestEngine.GetRequests()`, every parent with all its children,
//! their seasons and episodes; another user's children are left out there
//! when Ombi hides requests from other users). Ombi's paged v2 TV list
//! cannot be used for this: it keeps one child per show title after
//! sorting (`DistinctBy(x => x.ParentRequest.Title)`) while its total counts
//! them all (docs/ombi-notes.md, "The v2 TV request list merges shows by title
//! before paging").

use crate::contract::ToolError;
use crate::definition::params::RequestStatus;
use crate::projection::requests::{
    self as proj, ParentIndex, RequestRecord, WireChildWithSeasons, WireTvParent,
};
use crate::tools::CallCtx;
use crate::upstream::Route;

use super::reads::{SortDirection, add_parent_ids};

/// Every season request, each with its show's title, `parent_request_id`
/// and provider ids (seasons left out: a list item does not carry them),
/// and whether the read was cut by the read limit (then some are missing).
pub async fn every_child(
    ctx: &CallCtx,
    warnings: &mut Vec<String>,
) -> Result<(Vec<RequestRecord>, bool), ToolError> {
    let got = ctx
        .read_list::<WireTvParent<WireChildWithSeasons>>(Route::get("api/v1/Request/tv"), warnings)
        .await?;
    let mut out = Vec::new();
    let mut skipped = 0;
    for mut parent in got.value {
        let children = parent.child_requests.take().unwrap_or_default();
        let index = ParentIndex::ids_of(&parent);
        for child in children {
            let Ok(mut r) = proj::child(child) else {
                skipped += 1;
                continue;
            };
            // The show's title: a child's own title is whatever the show
            // was called when that season was asked for.
            if let Some(show) = parent.title.clone().filter(|t| !t.trim().is_empty()) {
                r.title = Some(show);
            }
            if let Some(p) = &index {
                r.parent_request_id.get_or_insert(p.id);
                add_parent_ids(&mut r, p);
            }
            r.seasons = None;
            out.push(r);
        }
    }
    if skipped > 0 {
        warnings.push(format!(
            "skipped {skipped} request record(s) without a usable id"
        ));
    }
    Ok((out, got.cut))
}

/// Whether a season request passes a status filter, by the rules of Ombi's
/// own TV filters (`TvRequestEngine.GetRequests` with a status,
/// `GetUnavailableRequests`).
pub fn status_matches(r: &RequestRecord, status: RequestStatus) -> bool {
    let (approved, available, denied) = (
        r.approved == Some(true),
        r.available == Some(true),
        r.denied == Some(true),
    );
    match status {
        RequestStatus::All => true,
        RequestStatus::Pending => !approved && !available && !denied,
        RequestStatus::Processing => approved && !available && !denied,
        RequestStatus::Available => available && !denied,
        RequestStatus::Denied => denied,
        RequestStatus::Unavailable => approved && !available,
    }
}

/// Orders records by request date (ISO dates order as text; undated ones
/// last either way), ties by id, as `direction` asks.
pub fn sort_by_date(records: &mut [RequestRecord], direction: SortDirection) {
    records.sort_by(|a, b| {
        let key = |r: &RequestRecord| (r.requested_date.clone(), r.target.id);
        match (a.requested_date.is_some(), b.requested_date.is_some()) {
            (true, false) => std::cmp::Ordering::Less,
            (false, true) => std::cmp::Ordering::Greater,
            _ if direction == SortDirection::Asc => key(a).cmp(&key(b)),
            _ => key(b).cmp(&key(a)),
        }
    });
}
