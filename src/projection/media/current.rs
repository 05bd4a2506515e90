//! A title's request state from the request read, over Ombi's cached
//! details. Ombi keeps a details answer, request state included, for 12
//! hours by id; the Emby/Jellyfin syncs and the availability checkers mark a
//! request available without clearing that cache (docs/ombi-notes.md,
//! "Details routes show a title's request state"). Where a request exists,
//! its own read is current: these put its state on the details record.

use super::{Media, WireSeason};

/// A movie request's state: requested, and available when the request is
/// (a request marked unavailable purges the cache, so a cached `available`
/// that the request does not share is the media server's, and stays).
pub fn movie_from_request(m: &mut Media, available: Option<bool>) {
    m.requested = Some(true);
    if available == Some(true) {
        m.available = Some(true);
    }
}

/// A show's request state from its child requests' seasons: each requested
/// episode is `requested`, and available when its request says so; the show is
/// `available` when every episode the details list is (and none was cut).
pub fn tv_from_requests<'a>(m: &mut Media, seasons: impl IntoIterator<Item = &'a WireSeason>) {
    m.requested = Some(true);
    let Some(listed) = m.seasons.as_mut() else {
        return;
    };
    for s in seasons {
        let Some(season) = listed
            .iter_mut()
            .find(|l| Some(l.season_number) == s.season_number)
        else {
            continue;
        };
        for e in s.episodes.iter().flatten() {
            if let Some(ep) = season
                .episodes
                .iter_mut()
                .find(|l| Some(l.episode_number) == e.episode_number)
            {
                ep.requested = Some(true);
                if e.available == Some(true) {
                    ep.available = Some(true);
                }
            }
        }
    }
    let whole = listed.iter().all(|s| !s.truncated)
        && listed.iter().any(|s| !s.episodes.is_empty())
        && listed
            .iter()
            .flat_map(|s| &s.episodes)
            .all(|e| e.available == Some(true));
    if whole {
        m.available = Some(true);
    }
}
