//! `recent` rows: a TV row names a *child*, whose parent a bounded scan
//! over the parents resolves.

use super::{
    Ids, RequestRecord, WireChildId, WireChildRequest, WireRecentRow, WireTvParent, target_id,
};
use crate::contract::TargetKind;
use crate::projection::wire::{date, positive_id, request_type_label, text};

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
