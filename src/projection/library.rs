//! `read_library`: recently added titles (media_page), the release calendar
//! (calendar_page) and artwork URLs (artwork_page).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::identifiers::{Identifier, Ids, Namespace, Origin, WireId};
use super::media::{Episode, Media, Season, safe_url, year_of};
use super::paging::{self, Window, page_object};
use super::wire::date;
use crate::contract::Family;
use crate::contract::budget::MAX_NESTED;

// ---------------------------------------------------------------- recently added

/// `RecentlyAddedMovieModel` / `RecentlyAddedTvModel` (ids are strings; `id`
/// is Ombi's media-server content row, not a provider id).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RecentlyAdded {
    pub id: Option<i64>,
    pub title: Option<String>,
    pub overview: Option<String>,
    pub imdb_id: Option<String>,
    #[serde(default)]
    pub tv_db_id: WireId,
    #[serde(default)]
    pub the_movie_db_id: WireId,
    pub release_year: Option<String>,
    pub season_number: Option<i64>,
    pub episode_number: Option<i64>,
    /// `AddedAt`: when the media server sync stored the row.
    pub added_at: Option<String>,
}

pub fn recently_added_item(media: &'static str, w: RecentlyAdded) -> Media {
    let mut ids = Ids::new();
    ids.primary(Origin::Tmdb, &w.the_movie_db_id, &WireId(None))
        .push_wire(Namespace::Tvdb, &w.tv_db_id)
        .imdb(w.imdb_id.as_deref());
    let mut m = Media::new(media, ids);
    m.title = w.title.filter(|t| !t.trim().is_empty());
    m.overview = w.overview.filter(|t| !t.trim().is_empty());
    m.year = year_of(w.release_year.as_deref());
    m.added_date = date(w.added_at);
    if media == "tv"
        && let Some(season) = w.season_number.filter(|n| *n >= 0)
    {
        let episodes = w
            .episode_number
            .filter(|n| *n >= 1)
            .map(|n| {
                vec![Episode {
                    episode_number: n,
                    title: None,
                    requested: None,
                    available: None,
                }]
            })
            .unwrap_or_default();
        m.seasons = Some(vec![Season {
            season_number: season,
            episodes,
            truncated: false,
        }]);
    }
    m
}

/// The per-episode TV rows grouped into one record per show (Ombi's content
/// row, in the order the shows first appear) with its seasons and their
/// episodes, sorted. Ombi's own grouped route merges *all* shows by season
/// number (docs/ombi-notes.md), hence this.
pub fn recently_added_shows(rows: Vec<RecentlyAdded>) -> Vec<Media> {
    let mut shows: Vec<(Option<i64>, Media)> = Vec::new();
    for w in rows {
        let key = w.id.filter(|i| *i > 0);
        let (season, episode) = (w.season_number, w.episode_number);
        let added_at = w.added_at.clone();
        let at = match shows
            .iter()
            .position(|(k, m)| key.map_or(m.title == w.title, |id| *k == Some(id)))
        {
            Some(i) => i,
            None => {
                let mut m = recently_added_item(
                    "tv",
                    RecentlyAdded {
                        season_number: None,
                        ..w
                    },
                );
                m.seasons = Some(Vec::new());
                shows.push((key, m));
                shows.len() - 1
            }
        };
        // A show was added when its newest episode was (ISO dates order as text).
        let show = &mut shows[at].1;
        if let Some(d) = date(added_at)
            && show.added_date.as_ref().is_none_or(|known| *known < d)
        {
            show.added_date = Some(d);
        }
        let Some(season) = season.filter(|n| *n >= 0) else {
            continue;
        };
        let seasons = shows[at].1.seasons.get_or_insert_with(Vec::new);
        let i = match seasons.iter().position(|s| s.season_number == season) {
            Some(i) => i,
            None => {
                seasons.push(Season {
                    season_number: season,
                    episodes: Vec::new(),
                    truncated: false,
                });
                seasons.len() - 1
            }
        };
        let s = &mut seasons[i];
        if let Some(n) = episode.filter(|n| *n >= 1)
            && !s.episodes.iter().any(|e| e.episode_number == n)
        {
            s.episodes.push(Episode {
                episode_number: n,
                title: None,
                requested: None,
                available: None,
            });
        }
    }
    shows
        .into_iter()
        .map(|(_, mut m)| {
            if let Some(seasons) = &mut m.seasons {
                seasons.sort_by_key(|s| s.season_number);
                for s in seasons.iter_mut() {
                    s.episodes.sort_by_key(|e| e.episode_number);
                    s.truncated = paging::cap(&mut s.episodes, MAX_NESTED);
                }
                paging::cap(seasons, MAX_NESTED);
            }
            m
        })
        .collect()
}

// ---------------------------------------------------------------- calendar

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CalendarExtra {
    #[serde(default)]
    pub provider_id: WireId,
    pub request_status: Option<String>,
}

/// `CalendarViewModel`.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WireCalendar {
    pub title: Option<String>,
    pub start: Option<String>,
    #[serde(rename = "type")]
    pub kind: Option<i64>,
    pub extra_params: Option<Vec<CalendarExtra>>,
}

/// `$defs/calendar`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CalendarEntry {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    pub media: &'static str,
    pub identifiers: Vec<Identifier>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub available: Option<bool>,
}

/// A calendar entry. TV titles are EPISODE titles upstream, and TV provider
/// ids are usually 0 there (not loaded): a 0 id is simply left out.
pub fn calendar_entry(w: WireCalendar) -> CalendarEntry {
    let media = match w.kind {
        Some(1) => "movie",
        Some(0) => "tv",
        _ => "unknown",
    };
    let extra = w.extra_params.and_then(|e| e.into_iter().next());
    let mut ids = Ids::new();
    if media != "unknown"
        && let Some(e) = &extra
    {
        ids.push(
            Namespace::Tmdb,
            e.provider_id.positive().map(|n| n.to_string()).as_deref(),
        );
    }
    let available = extra
        .and_then(|e| e.request_status)
        .filter(|s| s.starts_with("Common."))
        .map(|s| s == "Common.Available");
    CalendarEntry {
        title: w.title.filter(|t| !t.trim().is_empty()),
        date: w.start.filter(|d| !d.starts_with("0001-01-01")),
        media,
        identifiers: ids.into_vec(),
        available,
    }
}

pub fn calendar_page(w: Window<CalendarEntry>) -> Value {
    page_object(Family::CalendarPage, w.items, &w.page)
}

// ---------------------------------------------------------------- artwork

/// `$defs/artwork`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Artwork {
    pub uri: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<&'static str>,
    pub name: String,
    pub kind: String,
}

/// The image type from the URL's extension, when it is a known image type.
fn mime_of(url: &str) -> Option<&'static str> {
    let path = url
        .split(['?', '#'])
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    let ext = path.rsplit_once('.').map(|(_, e)| e)?;
    match ext {
        "jpg" | "jpeg" => Some("image/jpeg"),
        "png" => Some("image/png"),
        "webp" => Some("image/webp"),
        "gif" => Some("image/gif"),
        _ => None,
    }
}

/// Ombi's Images routes answer one JSON string, `""` when there is none.
/// Only http(s) URLs without credentials pass; anything else is dropped with
/// a warning.
pub fn artwork(url: &str, name: String, kind: &str, warnings: &mut Vec<String>) -> Vec<Artwork> {
    let url = url.trim();
    if url.is_empty() {
        return Vec::new();
    }
    match safe_url(url) {
        Some(uri) => vec![Artwork {
            mime_type: mime_of(&uri),
            uri,
            name,
            kind: kind.to_string(),
        }],
        None => {
            warnings.push("Ombi returned an artwork location that is not a plain http(s) URL; it was left out".into());
            Vec::new()
        }
    }
}

pub fn artwork_page(w: Window<Artwork>) -> Value {
    page_object(Family::ArtworkPage, w.items, &w.page)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::definition::Page;
    use crate::projection::family_schema::assert_family;
    use crate::projection::media::media_page;
    use crate::projection::paging;

    #[test]
    fn calendar_entries_keep_known_values_only() {
        let wire: Vec<WireCalendar> = serde_json::from_value(json!([
            {"title": "The Matrix", "start": "2026-05-01T00:00:00Z", "backgroundColor": "#469c83", "type": 1, "borderColor": "#ff0000",
             "extraParams": [{"providerId": 603, "overview": "o", "type": 1, "releaseDate": "2026-05-01T00:00:00Z", "requestStatus": "Common.Available"}]},
            {"title": "Pilot", "start": "2026-05-02T00:00:00Z", "backgroundColor": "blue", "type": 0, "borderColor": "#00ff00",
             "extraParams": [{"providerId": 0, "overview": "", "type": 0, "releaseDate": "2026-05-02T00:00:00Z", "requestStatus": ""}]},
            {"title": "Album", "start": "0001-01-01T00:00:00Z", "type": 2, "extraParams": []}
        ]))
        .unwrap();
        let entries: Vec<CalendarEntry> = wire.into_iter().map(calendar_entry).collect();
        assert_eq!(entries[0].media, "movie");
        assert_eq!(entries[0].identifiers.len(), 1);
        assert_eq!(entries[0].available, Some(true));
        assert!(
            entries[1].identifiers.is_empty(),
            "a 0 provider id is not an id"
        );
        assert_eq!(entries[1].available, None);
        assert_eq!(entries[2].media, "unknown");
        assert_eq!(entries[2].date, None);
        let page = calendar_page(paging::local(
            entries,
            Page::default(),
            true,
            "calendar_entries",
        ));
        assert_family("calendar_page", &page);
    }

    #[test]
    fn artwork_urls_are_validated_and_typed() {
        let mut warnings = Vec::new();
        let a = artwork(
            "https://assets.fanart.tv/fanart/movies/603/movieposter/x.jpg",
            "poster".into(),
            "poster",
            &mut warnings,
        );
        assert_eq!(a[0].mime_type, Some("image/jpeg"));
        assert!(artwork("", "poster".into(), "poster", &mut warnings).is_empty());
        assert!(warnings.is_empty());
        assert!(
            artwork(
                "file:///etc/passwd",
                "poster".into(),
                "poster",
                &mut warnings
            )
            .is_empty()
        );
        assert_eq!(warnings.len(), 1);
        assert_family("artwork_page", &artwork_page(paging::single(a, "artwork")));
    }

    #[test]
    fn recently_added_tv_rows_carry_their_season() {
        let wire: RecentlyAdded = serde_json::from_value(json!({
            "id": 12, "title": "Breaking Bad", "overview": null, "imdbId": "tt0903747", "tvDbId": "81189",
            "theMovieDbId": "1396", "releaseYear": "2008", "addedAt": "2026-05-01T10:00:00Z", "quality": null,
            "seasonNumber": 2, "episodeNumber": 3
        }))
        .unwrap();
        let m = recently_added_item("tv", wire);
        assert_eq!(m.identifiers.len(), 3);
        assert_eq!(m.identifiers[0].value, "1396");
        assert_eq!(m.seasons.as_ref().unwrap()[0].episodes[0].episode_number, 3);
        assert!(m.available.is_none());
        assert_family(
            "media_page",
            &media_page(paging::local(vec![m], Page::default(), true, "media")),
        );
    }
}
