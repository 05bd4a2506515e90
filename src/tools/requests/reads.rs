//! The request reads the request-domain tools share: one request by id of
//! each kind (movie, TV parent, TV child, album — Ombi has no single-get
//! route for the last two, so they are found by bounded scans), the parent
//! of a TV child, and the acting user's own requests (`mine`). The Ombi
//! quirks they work around are in docs/ombi-notes.md.

use serde::Deserialize;
use serde::de::DeserializeOwned;

use crate::contract::{ErrorCode, ToolError};
use crate::definition::params::*;
use crate::projection::metrics::Quota;
use crate::projection::requests::{
    self as proj, ParentIndex, Projected, RequestRecord, WireAlbumRequest, WireChildId,
    WireChildRequest, WireChildWithSeasons, WireMovieRequest, WireTvParent,
};
use crate::tools::{CallCtx, not_found, not_found_on_500, note_read_limit};
use crate::upstream::Route;

/// Page size of the bounded scans (v2 album list, v1 TV parents).
pub const SCAN_PAGE: u64 = 100;

/// Pages a scan reads at most: 1,000 records.
pub const SCAN_PAGES: u64 = 10;

/// A v2 request list page: `take` records from `skip`, by request date.
pub fn v2_list(
    media: MediaKind,
    status: RequestStatus,
    take: u64,
    skip: u64,
    direction: SortDirection,
) -> Route {
    let mut route = Route::get("api/v2/Requests").seg(media.label());
    if status != RequestStatus::All {
        route = route.seg(status.label());
    }
    route
        .seg(take)
        .seg(skip)
        .seg("requestedDate")
        .seg(direction.label())
}

/// A movie request as Ombi answers it (`GET api/v1/Request/movie/info/{id}`;
/// Ombi answers an unknown id with a 500: `docs/ombi-notes.md`, "Reading
/// one request"), when the acting user may see it: Ombi returns any user's
/// here, whatever its hide-requests setting ([`super::privacy`]).
pub async fn movie(ctx: &CallCtx, id: i64) -> Result<WireMovieRequest, ToolError> {
    super::privacy::check_movie(ctx, id, movie_as_ombi_answers(ctx, id).await?).await
}

/// [`movie`] before the hide-requests check: only for who checks it.
pub async fn movie_as_ombi_answers(ctx: &CallCtx, id: i64) -> Result<WireMovieRequest, ToolError> {
    let what = format!("movie request {id}");
    ctx.get_json::<WireMovieRequest>(Route::get("api/v1/Request/movie/info").seg(id))
        .await
        .map_err(|e| not_found_on_500(e, &what))?
        .ok_or_else(|| not_found(&what))
}

/// One movie request by id (NOT_FOUND when Ombi does not know it).
pub async fn movie_by_id(ctx: &CallCtx, id: i64) -> Result<RequestRecord, ToolError> {
    proj::movie(movie(ctx, id).await?).map_err(|_| not_found(&format!("movie request {id}")))
}

/// A TV parent request with its children as `C` (`GET api/v1/Request/tv/{id}`;
/// an unknown id answers a 500).
pub async fn tv_parent<C: DeserializeOwned>(
    ctx: &CallCtx,
    id: i64,
) -> Result<WireTvParent<C>, ToolError> {
    let what = format!("TV parent request {id}");
    ctx.get_json::<WireTvParent<C>>(Route::get("api/v1/Request/tv").seg(id))
        .await
        .map_err(|e| not_found_on_500(e, &what))?
        .ok_or_else(|| not_found(&what))
}

/// Whether a TV parent request still exists, read after a delete: `None`
/// when the read itself failed.
pub async fn tv_parent_exists(ctx: &CallCtx, id: i64) -> Option<bool> {
    match tv_parent::<WireChildId>(ctx, id).await {
        Ok(_) => Some(true),
        Err(e) if e.code == ErrorCode::NotFound => Some(false),
        Err(_) => None,
    }
}

/// The request a write names by media and id (TV: the child request), read
/// first because Ombi's vote and subscribe routes do not check it exists;
/// NOT_FOUND when Ombi does not know it.
pub async fn existing_request(
    ctx: &CallCtx,
    media: MediaKind,
    id: i64,
    warnings: &mut Vec<String>,
) -> Result<RequestRecord, ToolError> {
    match media {
        MediaKind::Movie => movie_by_id(ctx, id).await,
        MediaKind::Album => album_by_id(ctx, id).await,
        MediaKind::Tv => tv_child(ctx, id, warnings).await,
    }
}

/// The parent of TV child `id`: the bounded scan of the v2 TV list, else (a
/// show hidden there behind another show's title, docs/ombi-notes.md) of the
/// v1 parent list; NOT_FOUND saying which lists were read when neither has it.
pub async fn parent_of_child(ctx: &CallCtx, id: i64) -> Result<ParentIndex, ToolError> {
    let holds = |seen: &[ParentIndex]| seen.iter().any(|p| p.child_ids.contains(&id));
    let (parents, _) = scan_parents(ctx, holds).await?;
    if let Some(p) = parents.into_iter().find(|p| p.child_ids.contains(&id)) {
        return Ok(p);
    }
    let (parents, complete, failure) = match scan_lite_parents(ctx, holds).await {
        Ok((seen, complete)) => (seen, complete, None),
        Err(e) => (Vec::new(), false, Some(e.message)),
    };
    parents
        .into_iter()
        .find(|p| p.child_ids.contains(&id))
        .ok_or_else(|| child_not_found(id, complete, failure))
}

/// Ombi has no route for one child by id: find its parent with the bounded
/// scan of the v2 TV list, else (a show hidden there behind another show's
/// title, docs/ombi-notes.md) of the v1 parent list, then read that parent's
/// children (with seasons).
pub async fn tv_child(
    ctx: &CallCtx,
    id: i64,
    warnings: &mut Vec<String>,
) -> Result<RequestRecord, ToolError> {
    let parent = parent_of_child(ctx, id).await?;
    let kids = ctx
        .read_list::<WireChildWithSeasons>(
            Route::get("api/v1/Request/tv").seg(parent.id).seg("child"),
            warnings,
        )
        .await?;
    let child = kids
        .value
        .into_iter()
        .find(|c| proj::target_id(c.request_id, c.id) == Some(id))
        .ok_or_else(|| not_found(&format!("TV child request {id}")))?;
    let mut r = proj::child(child).map_err(|_| not_found(&format!("TV child request {id}")))?;
    r.parent_request_id.get_or_insert(parent.id);
    add_parent_ids(&mut r, &parent);
    Ok(r)
}

/// NOT_FOUND for a child neither TV list showed; unless every parent was
/// listed, it may hide behind another show's title.
pub fn child_not_found(id: i64, complete: bool, failure: Option<String>) -> ToolError {
    let message = if complete {
        format!("no TV child request with id {id} among all TV requests")
    } else {
        let why = failure
            .map(|f| format!("the TV parent list could not be read ({f})"))
            .unwrap_or_else(|| {
                format!(
                    "only the {} most recent TV parent requests were scanned",
                    SCAN_PAGE * SCAN_PAGES
                )
            });
        format!(
            "no TV child request with id {id} was found: Ombi's TV request list shows one request per show title, so a show with the same title as another stays hidden there, and {why}"
        )
    };
    ToolError::new(ErrorCode::NotFound, message)
}

/// A child's provider ids live on its parent: added when the child's own
/// answer did not embed them.
pub fn add_parent_ids(r: &mut RequestRecord, parent: &ParentIndex) {
    let mut ids = proj::Ids(std::mem::take(&mut r.identifiers));
    parent.add_ids(&mut ids);
    r.identifiers = ids.0;
}

/// Page `n` of a bounded scan over a v2 request list, most recent first.
pub fn scan_route(media: MediaKind, n: u64) -> Route {
    v2_list(
        media,
        RequestStatus::All,
        SCAN_PAGE,
        n * SCAN_PAGE,
        SortDirection::Desc,
    )
}

/// Reads the v2 TV list (children with their `parentRequest` embedded, most
/// recent first) page by page, giving each page's rows to `visit` until it
/// returns true or the bound is reached. Returns whether the whole list was
/// read. Ombi merges the children of each show title before paging
/// (docs/ombi-notes.md), so pages are full up to the last: a short page is
/// the end (its `total` counts children before the merge and is not used).
pub async fn scan_tv_list(
    ctx: &CallCtx,
    mut visit: impl FnMut(Vec<WireChildRequest>) -> bool,
) -> Result<bool, ToolError> {
    let mut whole = true;
    for n in 0..SCAN_PAGES {
        let c = ctx
            .read_collection::<WireChildRequest>(scan_route(MediaKind::Tv, n))
            .await?;
        let (rows, cut) = (c.items, c.cut);
        let count = rows.len() as u64;
        // A cut page leaves the rows that did not fit unseen.
        whole &= !cut;
        if visit(rows) {
            return Ok(false);
        }
        if count == 0 || (count < SCAN_PAGE && !cut) {
            return Ok(whole);
        }
    }
    Ok(false)
}

/// The parents the v2 TV list shows (each with the child ids it is known
/// to hold), until `done(seen so far)` holds; and whether the whole list
/// was seen. A show sharing its title with another is missing from it.
pub async fn scan_parents(
    ctx: &CallCtx,
    done: impl Fn(&[ParentIndex]) -> bool,
) -> Result<(Vec<ParentIndex>, bool), ToolError> {
    let mut seen = Vec::new();
    let complete = scan_tv_list(ctx, |rows| {
        for p in rows.iter().filter_map(ParentIndex::of_child) {
            proj::merge_parent(&mut seen, p);
        }
        done(&seen)
    })
    .await?;
    Ok((seen, complete))
}

/// Page `n` of the v1 paged TV parent list (its filters are ignored).
pub fn tvlite_route(n: u64) -> Route {
    Route::get("api/v1/Request/tvlite")
        .seg(SCAN_PAGE)
        .seg(n * SCAN_PAGE)
        .seg(0)
        .seg(0)
        .seg(0)
}

/// Every TV parent with its children's ids, from the v1 paged parent list
/// (not merged by title; its filters are ignored and its total is always 0,
/// so a short page is the end), until `done` holds; and whether the whole
/// list was seen. Used only where the v2 list missed a child.
pub async fn scan_lite_parents(
    ctx: &CallCtx,
    done: impl Fn(&[ParentIndex]) -> bool,
) -> Result<(Vec<ParentIndex>, bool), ToolError> {
    let mut seen = Vec::new();
    for n in 0..SCAN_PAGES {
        let route = tvlite_route(n);
        let c = ctx
            .read_collection::<WireTvParent<WireChildId>>(route)
            .await?;
        let (rows, cut) = (c.items, c.cut);
        let count = rows.len() as u64;
        seen.extend(rows.iter().filter_map(ParentIndex::of));
        if done(&seen) {
            return Ok((seen, false));
        }
        if cut {
            return Ok((seen, false));
        }
        if count < SCAN_PAGE {
            return Ok((seen, true));
        }
    }
    Ok((seen, false))
}

/// Albums have no single-get route: a bounded scan of the v2 album list.
pub async fn album_by_id(ctx: &CallCtx, id: i64) -> Result<RequestRecord, ToolError> {
    for n in 0..SCAN_PAGES {
        let c = ctx
            .read_collection::<WireAlbumRequest>(scan_route(MediaKind::Album, n))
            .await?;
        let (rows, total, cut) = (c.items, c.total, c.cut);
        let count = rows.len() as u64;
        if let Some(a) = rows
            .into_iter()
            .find(|a| proj::target_id(a.request_id, a.id) == Some(id))
        {
            return proj::album(a).map_err(|_| not_found(&format!("album request {id}")));
        }
        let end = (n + 1) * SCAN_PAGE;
        if (count < SCAN_PAGE && !cut) || total.is_some_and(|t| t as u64 <= end) {
            return Err(not_found(&format!("album request {id}")));
        }
    }
    Err(ToolError::new(
        ErrorCode::NotFound,
        format!(
            "no album request with id {id} among the {} most recent album requests scanned",
            SCAN_PAGE * SCAN_PAGES
        ),
    ))
}

/// At most this many of the acting user's requests are listed by `mine`.
pub const MINE_MAX: usize = 100;

/// The records of [`mine`](super::read_requests::mine), and whether every
/// list was read to its end (or to the [`MINE_MAX`] newest of that kind).
pub async fn mine_records(
    ctx: &CallCtx,
) -> Result<(Vec<RequestRecord>, bool, Vec<String>), ToolError> {
    let me = ctx.caller_id().await?;
    let mut warnings = Vec::new();
    let is_mine = |r: &RequestRecord| r.requested_user_id.as_deref() == Some(me.as_str());
    let (mut records, movies_whole) =
        scan_mine(ctx, MediaKind::Movie, proj::movie, is_mine, &mut warnings).await?;
    let (albums, albums_whole) =
        scan_mine(ctx, MediaKind::Album, proj::album, is_mine, &mut warnings).await?;
    records.extend(albums);
    // TV: the v1 parent list, not the v2 one, which shows one child per
    // show title (docs/ombi-notes.md) and would hide the user's seasons.
    let mut tv_whole = false;
    for n in 0..SCAN_PAGES {
        let route = tvlite_route(n);
        let c = ctx.read_collection::<WireTvParent>(route).await?;
        let count = c.items.len() as u64;
        for parent in c.items {
            let index = ParentIndex::ids_of(&parent);
            let show = parent.title.clone();
            for child in parent.child_requests.unwrap_or_default() {
                let Ok(mut r) = proj::child(child) else {
                    continue;
                };
                if !is_mine(&r) {
                    continue;
                }
                r.title = r.title.or_else(|| show.clone());
                if let Some(p) = &index {
                    r.parent_request_id.get_or_insert(p.id);
                    add_parent_ids(&mut r, p);
                }
                records.push(r);
            }
        }
        if c.cut {
            note_read_limit(true, &mut warnings);
            break;
        }
        if count < SCAN_PAGE {
            tv_whole = true;
            break;
        }
    }
    // Newest first: ISO dates order as text; undated records last.
    records.sort_by(|a, b| b.requested_date.cmp(&a.requested_date));
    let all = records.len();
    records.truncate(MINE_MAX);
    let complete = movies_whole && albums_whole && tv_whole && all <= MINE_MAX;
    if !complete {
        warnings.push(format!(
            "only the {MINE_MAX} newest of your requests are listed, from the {} most recent requests of each kind",
            SCAN_PAGE * SCAN_PAGES
        ));
    }
    Ok((records, complete, warnings))
}

/// The acting user's requests of one v2 list, newest first: pages are read
/// until [`MINE_MAX`] of theirs are found or the list ends (at most
/// [`SCAN_PAGES`] pages). Returns them and whether the scan was whole.
pub async fn scan_mine<T: DeserializeOwned>(
    ctx: &CallCtx,
    media: MediaKind,
    f: fn(T) -> Projected,
    is_mine: impl Fn(&RequestRecord) -> bool,
    warnings: &mut Vec<String>,
) -> Result<(Vec<RequestRecord>, bool), ToolError> {
    let mut found = Vec::new();
    for n in 0..SCAN_PAGES {
        let c = ctx.read_collection::<T>(scan_route(media, n)).await?;
        let count = c.items.len() as u64;
        found.extend(
            proj::project_all(c.items, f, warnings)
                .into_iter()
                .filter(&is_mine),
        );
        if c.cut {
            note_read_limit(true, warnings);
            return Ok((found, false));
        }
        if found.len() >= MINE_MAX {
            return Ok((found, true));
        }
        if count < SCAN_PAGE || c.total.is_some_and(|t| t as u64 <= (n + 1) * SCAN_PAGE) {
            return Ok((found, true));
        }
    }
    Ok((found, false))
}

pub const SORT_DIRECTIONS: &[&str] = &["asc", "desc"];

/// A label of [`SORT_DIRECTIONS`] (Ombi's route segment, as is).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SortDirection {
    Asc,
    Desc,
}

impl SortDirection {
    pub const fn label(self) -> &'static str {
        match self {
            SortDirection::Asc => "asc",
            SortDirection::Desc => "desc",
        }
    }
}

/// The acting user's quota for one media type (`None`: Ombi could not
/// resolve the user, 204).
pub async fn quota_of(ctx: &CallCtx, media: MediaKind) -> Result<Option<Quota>, ToolError> {
    let path = QUOTAS
        .iter()
        .find(|(m, _)| *m == media)
        .map_or(QUOTAS[0].1, |(_, p)| p);
    ctx.get_json::<Quota>(Route::get(path)).await
}

pub const QUOTAS: [(MediaKind, &str); 3] = [
    (MediaKind::Movie, "api/v1/Request/movie/remaining"),
    (MediaKind::Tv, "api/v1/Request/tv/remaining"),
    (MediaKind::Album, "api/v1/request/music/remaining"),
];
