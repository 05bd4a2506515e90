//! A movie request's HD and 4K sides as lists of their own (`read_requests
//! list media movie quality 4k|hd`). Ombi's v2 movie list mixes the sides
//! (its status filters match a movie when either side matches, and a
//! 4K-only request sorts by the minimum date: docs/ombi-notes.md, "Request
//! dates and the 4K side"), so the side lists are made here from one read of
//! the unpaged movie list (`MovieRequestEngine.GetRequests()`), filtered by
//! the side's own state and ordered by the side's request date.

use serde::Deserialize;

use crate::contract::ToolError;
use crate::definition::params::RequestStatus;
use crate::projection::requests::{self as proj, RequestRecord, WireMovieRequest};
use crate::tools::CallCtx;
use crate::upstream::Route;

use super::reads::SortDirection;

pub const QUALITIES: &[&str] = &["any", "4k", "hd"];

/// A label of [`QUALITIES`]: which side of a movie request a list holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum Quality {
    #[serde(rename = "any")]
    Any,
    #[serde(rename = "4k")]
    FourK,
    #[serde(rename = "hd")]
    Hd,
}

impl Quality {
    pub const fn label(self) -> &'static str {
        match self {
            Quality::Any => "any",
            Quality::FourK => "4k",
            Quality::Hd => "hd",
        }
    }
}

/// One side's state, read from a projected record.
struct Side {
    asked: bool,
    approved: bool,
    available: bool,
    denied: bool,
    date: Option<String>,
}

fn side(r: &RequestRecord, quality: Quality) -> Side {
    let yes = |b: Option<bool>| b == Some(true);
    if quality == Quality::FourK {
        Side {
            asked: yes(r.is_4k),
            approved: yes(r.approved_4k),
            available: yes(r.available_4k),
            denied: yes(r.denied_4k),
            date: r.lifecycle.requested_date_4k.clone(),
        }
    } else {
        // A 4K-only request has no HD state (the projection leaves it out).
        Side {
            asked: r.approved.is_some() || r.available.is_some() || r.status_text.is_some(),
            approved: yes(r.approved),
            available: yes(r.available),
            denied: yes(r.denied),
            date: r.requested_date.clone(),
        }
    }
}

/// Whether a side passes a status filter, by Ombi's movie rules
/// (`MovieRequestEngine.GetRequestsByStatus`) applied to that side alone.
fn matches(s: &Side, status: RequestStatus) -> bool {
    let open = !s.available && !s.denied;
    match status {
        RequestStatus::All => true,
        RequestStatus::Pending => !s.approved && open,
        RequestStatus::Processing => s.approved && open,
        RequestStatus::Available => s.available,
        RequestStatus::Denied => s.denied && !s.available,
        RequestStatus::Unavailable => s.approved && !s.available,
    }
}

/// The movie requests with the `quality` side asked for, whose side passes
/// `status`, ordered by that side's request date; and whether the read was
/// cut.
pub async fn side_list(
    ctx: &CallCtx,
    quality: Quality,
    status: RequestStatus,
    direction: SortDirection,
    warnings: &mut Vec<String>,
) -> Result<(Vec<RequestRecord>, bool), ToolError> {
    let got = ctx
        .read_list::<WireMovieRequest>(Route::get("api/v1/Request/movie"), warnings)
        .await?;
    let records = proj::project_all(got.value, proj::movie, warnings);
    let mut kept: Vec<(Option<String>, RequestRecord)> = records
        .into_iter()
        .filter_map(|r| {
            let s = side(&r, quality);
            (s.asked && matches(&s, status)).then_some((s.date, r))
        })
        .collect();
    // ISO dates order as text; undated ones last either way; ties by id.
    kept.sort_by(|(da, a), (db, b)| {
        let (ka, kb) = ((da, a.target.id), (db, b.target.id));
        match (da.is_some(), db.is_some()) {
            (true, false) => std::cmp::Ordering::Less,
            (false, true) => std::cmp::Ordering::Greater,
            _ if direction == SortDirection::Asc => ka.cmp(&kb),
            _ => kb.cmp(&ka),
        }
    });
    Ok((kept.into_iter().map(|(_, r)| r).collect(), got.cut))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quality_mirrors_its_labels() {
        crate::definition::params::assert_mirrors(QUALITIES, Quality::label);
    }
}
