//! Ombi's request models as read off the wire (only what is projected).

use serde::Deserialize;
use serde::de::IgnoredAny;

use super::WireSeason;
use crate::projection::wire::{UserRef, lenient_string};

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
    /// The embedded parent as a v1 parent (for [`super::parent`]).
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
