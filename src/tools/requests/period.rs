//! `read_request_stats period`, counted from the request lists instead of
//! Ombi's `api/v1/Stats` (docs/ombi-notes.md, "Ombi's statistics
//! miscount"): the movie, TV season and album requests made in the range,
//! per media and per requester, and those marked available in it, per
//! media. Each list is one read of Ombi's unpaged route under the 8 MiB cap.

use std::collections::HashMap;

use crate::contract::ToolError;
use crate::projection::metrics::{Metric, Scope, metric};
use crate::projection::requests::{
    self as proj, RequestRecord, WireAlbumRequest, WireMovieRequest,
};
use crate::tools::CallCtx;
use crate::upstream::Route;

use super::tv_list;

/// Requesters listed one by one; the rest are summed.
pub const TOP_REQUESTERS: usize = 20;

/// The metric records of a range (`from`/`to` as `YYYY-MM-DD`, both days
/// included), and whether a read was cut (then the counts are lower
/// bounds, and a warning says so).
pub async fn counted(
    ctx: &CallCtx,
    from: &str,
    to: &str,
    warnings: &mut Vec<String>,
) -> Result<(Vec<Metric>, bool), ToolError> {
    let movies = ctx
        .read_list::<WireMovieRequest>(Route::get("api/v1/Request/movie"), warnings)
        .await?;
    let albums = ctx
        .read_list::<WireAlbumRequest>(Route::get("api/v1/request/music"), warnings)
        .await?;
    let (tv, tv_cut) = tv_list::every_child(ctx, warnings).await?;
    let cut = movies.cut || albums.cut || tv_cut;
    // (records, the made and completed metric names, their unit)
    let lists = [
        (
            proj::project_all(movies.value, proj::movie, warnings),
            ["total_movie_requests", "completed_requests_movies"],
            "requests",
        ),
        (
            tv,
            ["total_tv_requests", "completed_requests_tv"],
            "tv_child_requests",
        ),
        (
            proj::project_all(albums.value, proj::album, warnings),
            ["total_album_requests", "completed_requests_albums"],
            "requests",
        ),
    ];
    let within = |d: Option<&String>| d.is_some_and(|d| in_range(d, from, to));
    let mut values = Vec::new();
    let mut by_user: HashMap<String, (Option<String>, u64)> = HashMap::new();
    let (mut all, mut all_done) = (0, 0);
    for (records, [made_name, done_name], unit) in &lists {
        let made: Vec<&RequestRecord> = records
            .iter()
            .filter(|r| within(r.requested_date.as_ref()))
            .collect();
        let done = records
            .iter()
            .filter(|r| {
                within(r.lifecycle.available_date.as_ref())
                    || within(r.lifecycle.available_date_4k.as_ref())
            })
            .count();
        for r in &made {
            let id = r.requested_user_id.clone().unwrap_or_default();
            let entry = by_user.entry(id).or_insert((None, 0));
            entry.0 = entry.0.take().or_else(|| r.requested_user_name.clone());
            entry.1 += 1;
        }
        all += made.len();
        all_done += done;
        values.push(count(made_name, made.len(), unit));
        values.push(count(done_name, done, unit));
    }
    values.insert(0, count("total_requests", all, "requests"));
    values.insert(1, count("completed_requests", all_done, "requests"));
    values.extend(requesters(by_user));
    Ok((values, cut))
}

/// Whether an Ombi timestamp falls on a day from `from` to `to` (UTC, as
/// Ombi stores them).
fn in_range(timestamp: &str, from: &str, to: &str) -> bool {
    timestamp
        .get(..10)
        .is_some_and(|day| day >= from && day <= to)
}

fn count(name: &str, n: usize, unit: &'static str) -> Metric {
    metric(name, n.into(), Scope::Instance, Some(unit))
}

/// One `requests_by_user` record per requester, most requests first (ties
/// by name), the [`TOP_REQUESTERS`] largest; the rest as one
/// `requests_by_other_users` record.
fn requesters(by_user: HashMap<String, (Option<String>, u64)>) -> Vec<Metric> {
    let mut rows: Vec<(String, Option<String>, u64)> = by_user
        .into_iter()
        .map(|(id, (name, n))| (id, name, n))
        .collect();
    rows.sort_by(|a, b| {
        b.2.cmp(&a.2)
            .then_with(|| a.1.cmp(&b.1))
            .then_with(|| a.0.cmp(&b.0))
    });
    let rest: Vec<_> = rows.split_off(rows.len().min(TOP_REQUESTERS));
    let mut out: Vec<Metric> = rows
        .into_iter()
        .map(|(id, name, n)| {
            let mut m = metric(
                "requests_by_user",
                n.into(),
                Scope::SelectedUser,
                Some("requests"),
            );
            m.user_id = Some(id).filter(|id| !id.is_empty());
            m.user_name = name;
            m
        })
        .collect();
    if !rest.is_empty() {
        let n: u64 = rest.iter().map(|r| r.2).sum();
        out.push(metric(
            "requests_by_other_users",
            n.into(),
            Scope::Instance,
            Some("requests"),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_are_inclusive_and_compare_the_date_part() {
        assert!(in_range("2026-04-01T00:00:00Z", "2026-04-01", "2026-04-30"));
        assert!(in_range(
            "2026-04-30T23:59:59.9999",
            "2026-04-01",
            "2026-04-30"
        ));
        assert!(!in_range("2026-05-01T00:00:00", "2026-04-01", "2026-04-30"));
        assert!(!in_range("0001-01-01T00:00:00", "2026-04-01", "2026-04-30"));
        assert!(!in_range("2026", "2026-04-01", "2026-04-30"));
    }

    #[test]
    fn the_twenty_largest_requesters_then_one_others_record() {
        let by_user: HashMap<String, (Option<String>, u64)> = (0..25u64)
            .map(|n| (format!("u{n}"), (Some(format!("user {n:02}")), n + 1)))
            .collect();
        let out = requesters(by_user);
        assert_eq!(out.len(), 21);
        assert_eq!(out[0].value, 25);
        assert_eq!(out[0].user_id.as_deref(), Some("u24"));
        assert_eq!(out[0].scope, Scope::SelectedUser);
        assert_eq!(out[19].value, 6);
        // 1 + 2 + 3 + 4 + 5 requests of the five smallest
        assert_eq!(out[20].name, "requests_by_other_users");
        assert_eq!(out[20].value, 15);
        assert!(out[20].user_id.is_none());
        let v = crate::projection::metrics::metrics(out);
        assert_eq!(
            v["values"][0],
            serde_json::json!({"name": "requests_by_user", "value": 25, "scope": "selected_user",
                "unit": "requests", "user_id": "u24", "user_name": "user 24"})
        );
        crate::projection::family_schema::assert_family("metrics", &v);
    }
}
