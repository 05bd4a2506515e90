//! Ombi requests → `request_page` / `retry_page` records (Ombi's quirks:
//! docs/ombi-notes.md).
//!
//! The rules that exist because of Ombi's quirks:
//! - the target id prefers `requestId` over `id`;
//! - v2 TV list items are *children* (`tv_child` + `parent_request_id`), v1
//!   parent records stay `tv_parent`; a child's provider ids live on its
//!   embedded `parentRequest`;
//! - standard and 4K state are kept apart, never merged into one status;
//! - embedded users (`requestedUser`) are read for their id and user name only;
//! - `recent` TV rows carry a *child* id: the parent is resolved by a bounded
//!   scan, and an unresolved row stays a `tv_child` target with a warning.

use serde::de::IgnoredAny;
use serde::{Deserialize, Serialize};

use super::lifecycle::{FourK, Lifecycle, Marks, approvable};
use super::wire::{UserRef, date, lenient_string, positive_id, request_type_label, text};
use crate::contract::budget::MAX_NESTED;
use crate::contract::{Target, TargetKind};
use crate::text::message::sanitize;

// ---------------------------------------------------------------- wire shapes

/// `RequestsViewModel<T>`: `{collection, total}`; `collection` may be null.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WireRequestsViewModel<T> {
    #[serde(default = "Option::default")]
    pub collection: Option<Vec<T>>,
    pub total: Option<i64>,
}

/// Ombi's request models as one wire type: `MovieRequests`, `ChildRequests`
/// and `AlbumRequest` derive from its `BaseRequest` (lifecycle and
/// requester), and each adds fields of its own, absent (`None`) from the
/// other two. One plain struct rather than a shared part with
/// `#[serde(flatten)]`: flatten buffers every field it does not name, which
/// doubled the cost of reading a request list (measured: 100 movie requests,
/// 0.22–0.30 ms plain against 0.49–0.60 ms flattened). `S` is how a child's
/// seasons are read: `Option<Vec<WireSeason>>` where they are projected,
/// [`IgnoredAny`] where they are skipped unparsed.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WireRequest<S = IgnoredAny> {
    pub id: Option<i64>,
    pub request_id: Option<i64>,
    pub title: Option<String>,
    // BaseRequest
    pub approved: Option<bool>,
    pub available: Option<bool>,
    pub denied: Option<bool>,
    pub denied_reason: Option<String>,
    pub requested_date: Option<String>,
    pub requested_user_id: Option<String>,
    pub requested_user: Option<UserRef>,
    pub request_status: Option<String>,
    pub can_approve: Option<bool>,
    pub marked_as_approved: Option<String>,
    pub marked_as_available: Option<String>,
    pub marked_as_denied: Option<String>,
    pub requested_by_alias: Option<String>,
    // MovieRequests
    pub subscribed: Option<bool>,
    pub show_subscribe: Option<bool>,
    pub the_movie_db_id: Option<i64>,
    pub imdb_id: Option<String>,
    #[serde(rename = "has4KRequest")]
    pub has_4k_request: Option<bool>,
    #[serde(rename = "approved4K")]
    pub approved_4k: Option<bool>,
    #[serde(rename = "available4K")]
    pub available_4k: Option<bool>,
    #[serde(rename = "denied4K")]
    pub denied_4k: Option<bool>,
    #[serde(rename = "deniedReason4K")]
    pub denied_reason_4k: Option<String>,
    #[serde(rename = "requestedDate4k")]
    pub requested_date_4k: Option<String>,
    #[serde(rename = "markedAsApproved4K")]
    pub marked_as_approved_4k: Option<String>,
    #[serde(rename = "markedAsAvailable4K")]
    pub marked_as_available_4k: Option<String>,
    #[serde(rename = "markedAsDenied4K")]
    pub marked_as_denied_4k: Option<String>,
    /// Radarr overrides (advanced options; 0 = none).
    pub root_path_override: Option<i64>,
    pub quality_override: Option<i64>,
    // ChildRequests
    pub parent_request_id: Option<i64>,
    pub parent_request: Option<WireParentRef>,
    #[serde(default)]
    pub season_requests: S,
    // AlbumRequest (no `subscribed`: docs/ombi-notes.md)
    pub artist_name: Option<String>,
    pub foreign_album_id: Option<String>,
}

/// `MovieRequests`, only what we project.
pub type WireMovieRequest = WireRequest;
/// `ChildRequests`, with its seasons read as `S`.
pub type WireChildRequest<S = IgnoredAny> = WireRequest<S>;
/// `AlbumRequest`.
pub type WireAlbumRequest = WireRequest;

/// The `TvRequests` parent as embedded in a child (`parentRequest`). Its
/// `childRequests` are the child's siblings (the child itself is dropped as a
/// reference loop); only their ids are read, for the parent scan.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WireParentRef {
    pub id: Option<i64>,
    pub title: Option<String>,
    pub tv_db_id: Option<i64>,
    pub external_provider_id: Option<i64>,
    pub imdb_id: Option<String>,
    #[serde(default)]
    pub child_requests: Option<Vec<WireChildId>>,
}

impl WireParentRef {
    /// The embedded parent as a v1 parent (for [`parent`]).
    pub fn to_parent(&self) -> WireTvParent<WireChildId> {
        WireTvParent {
            id: self.id,
            title: self.title.clone(),
            tv_db_id: self.tv_db_id,
            external_provider_id: self.external_provider_id,
            imdb_id: self.imdb_id.clone(),
            // Not carried by the embedded parent: read the parent for them.
            root_folder: None,
            quality_override: None,
            language_profile: None,
            child_requests: self.child_requests.clone(),
        }
    }
}

pub type WireChildWithSeasons = WireChildRequest<Option<Vec<WireSeason>>>;

/// `TvRequests` (the v1 parent, Ombi's model) with its children `C`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WireTvParent<C = WireChildRequest> {
    pub id: Option<i64>,
    pub title: Option<String>,
    pub tv_db_id: Option<i64>,
    pub external_provider_id: Option<i64>,
    pub imdb_id: Option<String>,
    /// Sonarr overrides (advanced options; null or 0 = none).
    pub root_folder: Option<i64>,
    pub quality_override: Option<i64>,
    pub language_profile: Option<i64>,
    #[serde(default = "Option::default")]
    pub child_requests: Option<Vec<C>>,
}

/// Only the id of a child, for scans over parents.
#[derive(Debug, Clone, Deserialize)]
pub struct WireChildId {
    pub id: Option<i64>,
}

/// `RecentlyRequestedModel`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WireRecentRow {
    pub request_id: Option<i64>,
    #[serde(rename = "type")]
    pub request_type: Option<i64>,
    pub user_id: Option<String>,
    pub title: Option<String>,
    pub request_date: Option<String>,
    pub approved: Option<bool>,
    pub available: Option<bool>,
    pub denied: Option<bool>,
    #[serde(default, deserialize_with = "lenient_string")]
    pub media_id: Option<String>,
}

/// `FailedRequestViewModel`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WireFailedRequest {
    pub failed_id: Option<i64>,
    pub request_id: Option<i64>,
    #[serde(rename = "type")]
    pub request_type: Option<i64>,
    pub title: Option<String>,
    pub error: Option<String>,
}

// ---------------------------------------------------------------- output

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Identifier {
    pub namespace: &'static str,
    pub value: String,
}

/// Identifiers without blanks, zeros or duplicates (namespace + value).
#[derive(Debug, Default, Clone)]
pub struct Ids(pub Vec<Identifier>);

impl Ids {
    pub fn add(&mut self, namespace: &'static str, value: Option<String>) {
        let Some(value) = value.map(|v| v.trim().to_string()) else {
            return;
        };
        if value.is_empty()
            || value == "0"
            || self
                .0
                .iter()
                .any(|i| i.namespace == namespace && i.value == value)
        {
            return;
        }
        self.0.push(Identifier { namespace, value });
    }

    pub fn add_id(&mut self, namespace: &'static str, id: Option<i64>) {
        self.add(namespace, positive_id(id).map(|i| i.to_string()));
    }
}

// `$defs/episode` and `$defs/season` have one home: the media projection.
pub use super::media::{Episode, Season, WireSeason};

/// One `$defs/request` record.
#[derive(Debug, Serialize)]
pub struct RequestRecord {
    pub target: Target,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent_request_id: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub identifiers: Vec<Identifier>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub approved: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub available: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub denied: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status_text: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub requested_date: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub requested_user_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub requested_user_name: Option<String>,
    /// Ombi's `RequestedByAlias`: the name a script or voice assistant gave.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub requested_by_alias: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub denied_reason: Option<String>,
    #[serde(flatten)]
    pub lifecycle: Lifecycle,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_4k: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub approved_4k: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub available_4k: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub denied_4k: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subscribed: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub can_approve: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seasons: Option<Vec<Season>>,
}

impl RequestRecord {
    pub fn new(kind: TargetKind, id: i64) -> RequestRecord {
        RequestRecord {
            target: Target { kind, id },
            parent_request_id: None,
            title: None,
            identifiers: Vec::new(),
            approved: None,
            available: None,
            denied: None,
            status_text: None,
            requested_date: None,
            requested_user_id: None,
            requested_user_name: None,
            requested_by_alias: None,
            denied_reason: None,
            lifecycle: Lifecycle::default(),
            is_4k: None,
            approved_4k: None,
            available_4k: None,
            denied_4k: None,
            subscribed: None,
            can_approve: None,
            seasons: None,
        }
    }

    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or(serde_json::Value::Null)
    }
}

/// What projecting one record produced.
pub type Projected = Result<RequestRecord, String>;

// ---------------------------------------------------------------- rules

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
        .and_then(|(a, n)| super::lifecycle::partly_available(&r, a, n))
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
        let mut seasons: Vec<Season> = self?.into_iter().filter_map(super::media::season).collect();
        seasons.sort_by_key(|s| s.season_number);
        super::paging::cap(&mut seasons, MAX_NESTED);
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

// ---------------------------------------------------------------- recent

/// What the bounded parent scan learned about one parent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParentIndex {
    pub id: i64,
    pub tmdb: Option<i64>,
    pub tvdb: Option<i64>,
    pub imdb: Option<String>,
    pub child_ids: Vec<i64>,
}

impl ParentIndex {
    pub fn of(p: &WireTvParent<WireChildId>) -> Option<ParentIndex> {
        Some(ParentIndex {
            id: positive_id(p.id)?,
            tmdb: positive_id(p.external_provider_id),
            tvdb: positive_id(p.tv_db_id),
            imdb: text(p.imdb_id.clone()),
            child_ids: p
                .child_requests
                .iter()
                .flatten()
                .filter_map(|c| positive_id(c.id))
                .collect(),
        })
    }

    /// The parent of one v2 TV list item (a child with its `parentRequest`
    /// embedded): the item's own id plus its siblings' ids.
    /// A parent's provider ids, without its children's ids.
    pub fn ids_of<C>(p: &WireTvParent<C>) -> Option<ParentIndex> {
        Some(ParentIndex {
            id: positive_id(p.id)?,
            tmdb: positive_id(p.external_provider_id),
            tvdb: positive_id(p.tv_db_id),
            imdb: text(p.imdb_id.clone()),
            child_ids: Vec::new(),
        })
    }

    pub fn of_child(c: &WireChildRequest) -> Option<ParentIndex> {
        let p = c.parent_request.as_ref();
        let id = positive_id(c.parent_request_id).or_else(|| p.and_then(|p| positive_id(p.id)))?;
        let mut child_ids: Vec<i64> = target_id(c.request_id, c.id).into_iter().collect();
        if let Some(p) = p {
            child_ids.extend(
                p.child_requests
                    .iter()
                    .flatten()
                    .filter_map(|s| positive_id(s.id)),
            );
        }
        Some(ParentIndex {
            id,
            tmdb: p.and_then(|p| positive_id(p.external_provider_id)),
            tvdb: p.and_then(|p| positive_id(p.tv_db_id)),
            imdb: p.and_then(|p| text(p.imdb_id.clone())),
            child_ids,
        })
    }

    /// The parent's provider ids, added to a child record's identifiers.
    pub fn add_ids(&self, ids: &mut Ids) {
        ids.add_id("tmdb", self.tmdb);
        ids.add_id("tvdb", self.tvdb);
        ids.add("imdb", self.imdb.clone());
    }
}

/// Adds `p` to `seen`, merging with an entry for the same parent (v2 pages
/// list a parent once per child that survives Ombi's de-duplication).
pub fn merge_parent(seen: &mut Vec<ParentIndex>, p: ParentIndex) {
    match seen.iter_mut().find(|s| s.id == p.id) {
        Some(s) => {
            for c in p.child_ids {
                if !s.child_ids.contains(&c) {
                    s.child_ids.push(c);
                }
            }
            s.tmdb = s.tmdb.or(p.tmdb);
            s.tvdb = s.tvdb.or(p.tvdb);
            s.imdb = s.imdb.take().or(p.imdb);
        }
        None => seen.push(p),
    }
}

/// The parent of a recent TV row: a parent holding the child id first (a new
/// show's first child has `id == TMDB id`, so the id match must win), then a
/// parent whose TMDB (`externalProviderId`) or TVDB id equals `mediaId`.
pub fn resolve_parent<'a>(
    child_id: i64,
    media_id: Option<&str>,
    parents: &'a [ParentIndex],
) -> Option<&'a ParentIndex> {
    if let Some(p) = parents.iter().find(|p| p.child_ids.contains(&child_id)) {
        return Some(p);
    }
    let media: i64 = media_id?.trim().parse().ok().filter(|v| *v > 0)?;
    parents
        .iter()
        .find(|p| p.tmdb == Some(media))
        .or_else(|| parents.iter().find(|p| p.tvdb == Some(media)))
}

/// One `recent` row. `parents` is what the bounded scan found; `None` when
/// no scan was needed (no TV rows).
pub fn recent(
    row: WireRecentRow,
    parents: &[ParentIndex],
    warnings: &mut Vec<String>,
) -> Option<RequestRecord> {
    let Some(code) = row.request_type else {
        warnings.push("skipped a recent request without a media type".into());
        return None;
    };
    let Some(id) = positive_id(row.request_id) else {
        warnings.push("skipped a recent request without a usable id".into());
        return None;
    };
    let mut ids = Ids::default();
    let mut r = match request_type_label(code) {
        Some("movie") => {
            ids.add("tmdb", row.media_id.clone());
            RequestRecord::new(TargetKind::Movie, id)
        }
        Some("album") => {
            ids.add("musicbrainz", row.media_id.clone());
            RequestRecord::new(TargetKind::Album, id)
        }
        Some(_) => {
            // TV: `requestId` is the CHILD id; `mediaId` the parent's TMDB id.
            ids.add("ombi_tv_child", Some(id.to_string()));
            ids.add("tmdb", row.media_id.clone());
            match resolve_parent(id, row.media_id.as_deref(), parents) {
                Some(p) => {
                    ids.add_id("tvdb", p.tvdb);
                    ids.add_id("tmdb", p.tmdb);
                    RequestRecord::new(TargetKind::TvParent, p.id)
                }
                None => {
                    warnings.push(format!(
                        "the TV parent of child request {id} was not found by the bounded scan: its target is the child request"
                    ));
                    RequestRecord::new(TargetKind::TvChild, id)
                }
            }
        }
        None => {
            warnings.push(format!(
                "skipped a recent request of unknown media type {code}"
            ));
            return None;
        }
    };
    r.identifiers = ids.0;
    r.title = text(row.title);
    r.approved = row.approved;
    r.available = row.available;
    r.denied = row.denied;
    r.requested_date = date(row.request_date);
    r.requested_user_id = text(row.user_id);
    Some(r)
}

// ---------------------------------------------------------------- retry queue

/// One `$defs/retry` record: `queue_id` is the queue entry (`failedId`),
/// never the request id.
pub fn retry(f: WireFailedRequest, warnings: &mut Vec<String>) -> Option<serde_json::Value> {
    let Some(queue_id) = positive_id(f.failed_id) else {
        warnings.push("skipped a retry-queue entry without a queue id".into());
        return None;
    };
    let mut o = serde_json::Map::new();
    o.insert("queue_id".into(), queue_id.into());
    if let Some(id) = positive_id(f.request_id) {
        o.insert("request_id".into(), id.into());
    }
    if let Some(code) = f.request_type {
        match request_type_label(code) {
            Some(label) => {
                o.insert("request_type".into(), label.into());
                o.insert("request_type_code".into(), code.into());
            }
            None => warnings.push(format!(
                "retry entry {queue_id} has an unknown request type {code}"
            )),
        }
    }
    if let Some(t) = text(f.title) {
        o.insert("title".into(), t.into());
    }
    // The error can hold *arr URLs with keys and exception text.
    if let Some(e) = text(f.error)
        .map(|e| sanitize(&e))
        .filter(|e| !e.is_empty())
    {
        o.insert("reason".into(), e.into());
    }
    Some(serde_json::Value::Object(o))
}

#[cfg(test)]
mod tests {
    use crate::contract::Family;
    use serde_json::{Value, json};

    use super::super::paging::{Paging, assert_def, page_object};
    use super::*;

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
        assert_def("request_page", &as_page(vec![r]));
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
        assert_def("request_page", &as_page(vec![r]));
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
        assert_def("request_page", &as_page(vec![r]));
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
        assert_def("request_page", &as_page(vec![r]));
    }

    #[test]
    fn records_without_ids_are_skipped_with_a_warning() {
        let mut warnings = Vec::new();
        let rows: Vec<WireMovieRequest> =
            serde_json::from_value(json!([{"id": 0, "title": "x"}, {"id": 4, "title": "y"}]))
                .unwrap();
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
        }
        assert_def("request_page", &as_page(out));
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
        assert!(
            items[1].get("request_type").is_none() && items[1].get("request_type_code").is_none()
        );
        assert_eq!(warnings.len(), 2);
        let page = page_object(
            Family::RetryPage,
            items,
            &Paging::single(2, "queue_entries"),
        );
        assert_def("retry_page", &page);
    }
}
