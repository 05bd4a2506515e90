//! The projection rules: one Ombi request model → one `$defs/request` record.

use serde::de::IgnoredAny;

use super::{
    Ids, Projected, RequestRecord, Season, WireAlbumRequest, WireChildRequest, WireMovieRequest,
    WireParentRef, WireRequest, WireSeason, WireTvParent,
};
use crate::contract::TargetKind;
use crate::contract::budget::MAX_NESTED;
use crate::projection::lifecycle::{FourK, Marks, approvable, partly_available};
use crate::projection::wire::{UserRef, date, positive_id, text};
use crate::text::message::sanitize;

/// The request id of a record: `requestId` when Ombi supplies it, else `id`.
pub fn target_id(request_id: Option<i64>, id: Option<i64>) -> Option<i64> {
    positive_id(request_id).or(positive_id(id))
}

/// `requestStatus` is a localisation key for the *standard* lifecycle only.
pub fn status_text(key: Option<String>) -> Option<String> {
    let key = text(key)?;
    let label = match key.as_str() {
        "Common.Available" => "Available",
        "Common.PartiallyAvailable" => "Partially available",
        "Common.Denied" => "Denied",
        "Common.ProcessingRequest" => "Processing request",
        "Common.PendingApproval" => "Pending approval",
        other => return Some(sanitize(other)),
    };
    Some(label.to_string())
}

/// The requester's id (the top-level field, else the embedded user's id)
/// and the name Ombi shows for them, when it embedded the user (the
/// embedded object itself is never forwarded).
fn requester(id: Option<String>, user: Option<UserRef>) -> (Option<String>, Option<String>) {
    let name = user.as_ref().and_then(UserRef::shown_name);
    (text(id).or_else(|| user.and_then(|u| text(u.id))), name)
}

impl<S> WireRequest<S> {
    /// The record's standard lifecycle (state, reason, status text, date),
    /// its requester and `can_approve`, as Ombi sent them (taken out).
    fn fill(&mut self, r: &mut RequestRecord) {
        r.approved = self.approved;
        r.available = self.available;
        r.denied = self.denied;
        r.denied_reason = text(self.denied_reason.take());
        r.status_text = status_text(self.request_status.take());
        r.requested_date = date(self.requested_date.take());
        (r.requested_user_id, r.requested_user_name) =
            requester(self.requested_user_id.take(), self.requested_user.take());
        r.requested_by_alias = text(self.requested_by_alias.take());
        let marks = self.hd_marks();
        [
            r.lifecycle.approved_date,
            r.lifecycle.available_date,
            r.lifecycle.denied_date,
        ] = marks.dates(self.approved, self.available, self.denied);
        r.can_approve = approvable(self.approved, self.available);
    }

    fn hd_marks(&mut self) -> Marks {
        Marks {
            approved: self.marked_as_approved.take(),
            available: self.marked_as_available.take(),
            denied: self.marked_as_denied.take(),
        }
    }
}

fn missing_id(what: &str) -> String {
    format!("skipped a {what} request without a usable id")
}

pub fn movie(mut m: WireMovieRequest) -> Projected {
    let id = target_id(m.request_id, m.id).ok_or_else(|| missing_id("movie"))?;
    let mut r = RequestRecord::new(TargetKind::Movie, id);
    r.title = text(m.title.take());
    let mut ids = Ids::default();
    ids.add_id("tmdb", m.the_movie_db_id);
    ids.add("imdb", text(m.imdb_id.take()));
    r.identifiers = ids.0;
    // A 4K-only request has no standard request: its standard flags are
    // defaults, not state (Ombi's model: requestedDate 0001-01-01).
    let four_k_only = m.has_4k_request == Some(true) && date(m.requested_date.clone()).is_none();
    let (approved, available) = (m.approved, m.available);
    if four_k_only {
        (r.requested_user_id, r.requested_user_name) =
            requester(m.requested_user_id.take(), m.requested_user.take());
        r.requested_by_alias = text(m.requested_by_alias.take());
        r.requested_date = date(m.requested_date_4k.clone());
    } else {
        m.fill(&mut r);
    }
    r.is_4k = m.has_4k_request;
    let has_4k = m.has_4k_request == Some(true);
    if has_4k {
        r.approved_4k = m.approved_4k;
        r.available_4k = m.available_4k;
        r.denied_4k = m.denied_4k;
        // The family's one reason field: the 4K reason only fills it when
        // there is no standard request it could be mistaken for
        // (`denied_reason_4k` always carries it).
        if four_k_only {
            r.denied_reason = text(m.denied_reason_4k.clone());
        }
        r.lifecycle.set_4k(FourK {
            approved: m.approved_4k,
            available: m.available_4k,
            denied: m.denied_4k,
            requested_date: m.requested_date_4k.take(),
            denied_reason: m.denied_reason_4k.take(),
            marks: Marks {
                approved: m.marked_as_approved_4k.take(),
                available: m.marked_as_available_4k.take(),
                denied: m.marked_as_denied_4k.take(),
            },
        });
    }
    // Ombi computes `subscribed` only for other users' requests
    // (`MovieRequestEngine.CheckForSubscription`); on the caller's own it
    // stays false, with `showSubscribe` false. A `true` is always computed, a
    // `false` only known when `showSubscribe` is true (set for others' only).
    r.subscribed = match (m.subscribed, m.show_subscribe) {
        (Some(true), _) => Some(true),
        (Some(false), Some(true)) => Some(false),
        _ => None,
    };
    // Ombi's movie `canApprove` ORs the HD and 4K sides even where no 4K
    // was asked for (its 4K flags are then defaults, so an available HD
    // movie reads approvable). Here only the sides that were requested
    // count: approvable when one of them is; the acting user's roles are
    // applied by the tools (`requests::approval`).
    let mut sides = Vec::new();
    if !four_k_only {
        sides.push(approvable(approved, available));
    }
    if has_4k {
        sides.push(approvable(m.approved_4k, m.available_4k));
    }
    r.can_approve = if sides.contains(&Some(true)) {
        Some(true)
    } else if sides.iter().all(Option::is_some) {
        Some(false)
    } else {
        None
    };
    Ok(r)
}

/// A child's provider ids, from its embedded parent.
fn parent_ids(ids: &mut Ids, p: &WireParentRef) {
    ids.add_id("tmdb", p.external_provider_id);
    ids.add_id("tvdb", p.tv_db_id);
    ids.add("imdb", text(p.imdb_id.clone()));
}

/// A TV child (v2 list item or v1 `child` route); seasons when `S` carries them.
pub fn child<S: IntoSeasons>(mut c: WireChildRequest<S>) -> Projected {
    let id = target_id(c.request_id, c.id).ok_or_else(|| missing_id("TV child"))?;
    let mut r = RequestRecord::new(TargetKind::TvChild, id);
    r.parent_request_id = positive_id(c.parent_request_id)
        .or_else(|| c.parent_request.as_ref().and_then(|p| positive_id(p.id)));
    r.title = text(c.title.take()).or_else(|| {
        c.parent_request
            .as_ref()
            .and_then(|p| text(p.title.clone()))
    });
    let mut ids = Ids::default();
    if let Some(p) = &c.parent_request {
        parent_ids(&mut ids, p);
    }
    r.identifiers = ids.0;
    c.fill(&mut r);
    // TV `subscribed` is unreliable upstream (it compares a subscription id):
    // left out rather than reported wrong.
    if let Some(partly) = c
        .season_requests
        .episodes_available()
        .and_then(|(a, n)| partly_available(&r, a, n))
    {
        r.status_text = Some(partly);
    }
    r.seasons = c.season_requests.into_seasons();
    Ok(r)
}

pub fn album(mut a: WireAlbumRequest) -> Projected {
    let id = target_id(a.request_id, a.id).ok_or_else(|| missing_id("album"))?;
    let mut r = RequestRecord::new(TargetKind::Album, id);
    // The album's own title, as Ombi sends it: the request record has no
    // artist field, and an artist name is not a title.
    r.title = text(a.title.take());
    let mut ids = Ids::default();
    ids.add("musicbrainz", text(a.foreign_album_id.take()));
    r.identifiers = ids.0;
    a.fill(&mut r);
    // Ombi's album lists compute `subscribed` against movie subscriptions
    // (docs/ombi-notes.md): left out rather than reported wrong.
    Ok(r)
}

/// A v1 parent: a `tv_parent` target. Parents carry no lifecycle state of
/// their own (that lives on the children), so none is invented here.
pub fn parent<C>(p: &WireTvParent<C>) -> Projected {
    let id = positive_id(p.id).ok_or_else(|| missing_id("TV parent"))?;
    let mut r = RequestRecord::new(TargetKind::TvParent, id);
    r.title = text(p.title.clone());
    let mut ids = Ids::default();
    ids.add_id("tmdb", p.external_provider_id);
    ids.add_id("tvdb", p.tv_db_id);
    ids.add("imdb", text(p.imdb_id.clone()));
    r.identifiers = ids.0;
    Ok(r)
}

/// How a child's `seasonRequests` field turns into output seasons.
pub trait IntoSeasons {
    fn into_seasons(self) -> Option<Vec<Season>>;
    /// Episodes on the media server and episodes requested, where read.
    fn episodes_available(&self) -> Option<(usize, usize)> {
        None
    }
}

impl IntoSeasons for IgnoredAny {
    fn into_seasons(self) -> Option<Vec<Season>> {
        None
    }
}

impl IntoSeasons for Option<Vec<WireSeason>> {
    fn into_seasons(self) -> Option<Vec<Season>> {
        let mut seasons: Vec<Season> = self?
            .into_iter()
            .filter_map(crate::projection::media::season)
            .collect();
        seasons.sort_by_key(|s| s.season_number);
        crate::projection::paging::cap(&mut seasons, MAX_NESTED);
        Some(seasons)
    }

    fn episodes_available(&self) -> Option<(usize, usize)> {
        let episodes = self
            .iter()
            .flatten()
            .flat_map(|s| s.episodes.iter().flatten());
        let (mut on_server, mut all) = (0, 0);
        for e in episodes {
            all += 1;
            on_server += usize::from(e.available == Some(true));
        }
        Some((on_server, all))
    }
}

/// Projects a list, collecting a warning per record that could not be used.
pub fn project_all<T>(
    rows: Vec<T>,
    f: fn(T) -> Projected,
    warnings: &mut Vec<String>,
) -> Vec<RequestRecord> {
    let mut out = Vec::with_capacity(rows.len());
    let mut skipped = 0;
    for row in rows {
        match f(row) {
            Ok(r) => out.push(r),
            Err(_) => skipped += 1,
        }
    }
    if skipped > 0 {
        warnings.push(format!(
            "skipped {skipped} request record(s) without a usable id"
        ));
    }
    out
}
