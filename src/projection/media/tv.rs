//! TV: search/discovery rows (TMDB or TVMaze origin), the details with
//! their season/episode tree, and thinning that tree to fit the envelope.

use serde::Deserialize;

use super::*;

// ---------------------------------------------------------------- TV

/// `SearchTvShowViewModel` as a list element. `seasonRequests` is not
/// declared: serde skips the hydrated episode trees without allocating them.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchTv {
    #[serde(default)]
    pub id: WireId,
    #[serde(default)]
    pub the_movie_db_id: WireId,
    #[serde(default)]
    pub the_tv_db_id: WireId,
    #[serde(default)]
    pub series_id: WireId,
    pub imdb_id: Option<String>,
    pub title: Option<String>,
    pub overview: Option<String>,
    pub first_aired: Option<String>,
    /// Search/browse rows and v1 details: names.
    pub genre: Option<Vec<String>>,
    /// `tv/requested` rows and v2 details (`SearchFullInfoTvShowViewModel`):
    /// `{id, name}`.
    pub genres: Option<Vec<Named>>,
    pub requested: Option<bool>,
    pub available: Option<bool>,
    pub fully_available: Option<bool>,
    pub request_id: Option<i64>,
    pub poster_path: Option<String>,
    pub banner: Option<String>,
}

impl SearchTv {
    /// The show's ids: its own in the origin's namespace, TVDB, the series id
    /// and IMDb.
    fn ids(&self, origin: Origin) -> Ids {
        let mut ids = Ids::new();
        ids.primary(origin, &self.the_movie_db_id, &self.id)
            .push_wire(Namespace::Tvdb, &self.the_tv_db_id)
            .series_id(origin, &self.series_id)
            .imdb(self.imdb_id.as_deref());
        ids
    }

    /// A TV record with these ids and the show's title, overview, year and
    /// genres.
    fn described(&mut self, ids: Ids, origin: Origin) -> Media {
        let mut m = Media::new("tv", ids);
        m.title = text(self.title.take());
        m.overview = overview_of(origin, self.overview.take());
        m.year = year_of(self.first_aired.as_deref());
        m.genres = genres_of(self.genre.take(), self.genres.take());
        m
    }
}

/// TVMaze summaries are HTML (`<p>…</p>`): tags are removed and the common
/// entities decoded, so the overview is plain text.
fn overview_of(origin: Origin, overview: Option<String>) -> Option<String> {
    let o = text(overview)?;
    if origin != Origin::TvMaze {
        return Some(o);
    }
    let mut out = String::with_capacity(o.len());
    let mut rest = o.as_str();
    while let Some(i) = rest.find('<') {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        let is_tag = tail[1..].starts_with(|c: char| c.is_ascii_alphabetic() || c == '/');
        match tail.find('>') {
            Some(end) if is_tag => rest = &tail[end + 1..],
            _ => {
                out.push('<');
                rest = &tail[1..];
            }
        }
    }
    out.push_str(rest);
    let plain = out
        .replace("&nbsp;", " ")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    text(Some(plain.trim().to_string()))
}

/// Genres as names (`genre`, search rows and v1) or `{id, name}`
/// (`genres`, full-info v2 shapes), whichever the shape carries.
fn genres_of(names: Option<Vec<String>>, named: Option<Vec<Named>>) -> Vec<String> {
    match named {
        Some(g) => genre_names(Some(g)),
        None => names
            .unwrap_or_default()
            .into_iter()
            .filter_map(|g| text(Some(g)))
            .collect(),
    }
}

/// Request state from a TVMaze route compares a TVDB id against TMDB-keyed
/// requests upstream, so it is not reported.
const TVMAZE_REQUEST_STATE: &str = "request state is not reported for TVMaze-backed records (Ombi matches it against the wrong id); use the TMDB id for request state";

pub fn tv_item(mut w: SearchTv, origin: Origin) -> Media {
    let mut m = w.described(w.ids(origin), origin);
    m.available = w.available.or(w.fully_available);
    if origin != Origin::TvMaze {
        m.requested = w.requested;
        m.request_targets = target(TargetKind::TvParent, w.request_id);
    }
    m.artwork_uris = uris(&[w.poster_path.as_deref(), w.banner.as_deref()]);
    m
}

/// `SeasonRequests`: the one season tree shape, in TV details and in TV
/// child requests alike.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WireSeason {
    pub season_number: Option<i64>,
    #[serde(default)]
    pub episodes: Option<Vec<WireEpisode>>,
}

/// `EpisodeRequests`.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WireEpisode {
    pub episode_number: Option<i64>,
    pub title: Option<String>,
    pub requested: Option<bool>,
    pub available: Option<bool>,
}

/// One season with at most [`MAX_NESTED`] episodes (`truncated` when more
/// were left out); `None` without a usable season number. Episodes without a
/// usable number are skipped.
pub fn season(s: WireSeason) -> Option<Season> {
    let season_number = s.season_number.filter(|n| *n >= 0)?;
    let mut episodes: Vec<Episode> = s
        .episodes
        .unwrap_or_default()
        .into_iter()
        .filter_map(|e| {
            Some(Episode {
                episode_number: e.episode_number.filter(|n| *n >= 0)?,
                title: text(e.title),
                requested: e.requested,
                available: e.available,
            })
        })
        .collect();
    let truncated = crate::projection::paging::cap(&mut episodes, MAX_NESTED);
    Some(Season {
        season_number,
        episodes,
        truncated,
    })
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TvCast {
    #[serde(default)]
    pub id: WireId,
    /// The actor's name (`person`), not the character.
    pub person: Option<String>,
    pub character: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TvCrew {
    pub name: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TvImages {
    pub original: Option<String>,
}

/// `SearchFullInfoTvShowViewModel` (v2 details) and the v1 TVMaze
/// `SearchTvShowViewModel` of `Search/tv/info/{tvdbId}`, with seasons.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TvDetail {
    /// What a list row carries too (one object: flattening it costs nothing
    /// that matters; the rows themselves are never flattened).
    #[serde(flatten)]
    pub row: SearchTv,
    pub external_ids: Option<ExternalIds>,
    pub cast: Option<Vec<TvCast>>,
    pub crew: Option<Vec<TvCrew>>,
    pub season_requests: Option<Vec<WireSeason>>,
    pub images: Option<TvImages>,
    pub site_rating: Option<i64>,
}

fn seasons(s: Option<Vec<WireSeason>>, notes: &mut Notes) -> Option<Vec<Season>> {
    let all = s?;
    let total = all.len();
    let out: Vec<Season> = all
        .into_iter()
        .filter_map(season)
        .take(MAX_NESTED)
        .collect();
    let cut_episodes = out.iter().filter(|s| s.truncated).count();
    if total > MAX_NESTED {
        notes.cut(format!(
            "only the first {MAX_NESTED} of {total} seasons are listed"
        ));
    }
    if cut_episodes > 0 {
        notes.cut(format!(
            "{cut_episodes} seasons list only their first {MAX_NESTED} episodes"
        ));
    }
    Some(out)
}

pub fn tv_details(w: TvDetail, origin: Origin, notes: &mut Notes) -> Media {
    let mut row = w.row;
    let mut ids = row.ids(origin);
    ids.imdb(w.external_ids.as_ref().and_then(|e| e.imdb_id.as_deref()));
    let mut m = row.described(ids, origin);
    // Ombi's `available` means "on the media server, possibly in part"
    // (`MediaServerAvailabilityRule.cs`); details say whether it is whole.
    m.available = match (row.fully_available, row.available) {
        (Some(full), _) => Some(full),
        (None, Some(false)) => Some(false),
        _ => None,
    };
    if origin == Origin::TvMaze {
        notes.note(TVMAZE_REQUEST_STATE);
    } else {
        m.requested = row.requested;
        m.request_targets = target(TargetKind::TvParent, row.request_id);
    }
    let mut credits: Vec<Credit> = Vec::new();
    for c in w.cast.unwrap_or_default() {
        if let Some(name) = text(c.person) {
            credits.push(Credit::cast(name, c.id.positive(), c.character));
        }
    }
    for c in w.crew.unwrap_or_default() {
        if let Some(name) = text(c.name) {
            credits.push(Credit {
                name,
                person_id: None,
                role: None,
                department: Some("Crew".into()),
            });
        }
    }
    m.credits = cap_credits(credits, notes);
    if let Some(r) = w.site_rating.filter(|r| *r > 0) {
        m.ratings.push(Rating {
            name: "site_rating".into(),
            value: r.into(),
            category: "ombi".into(),
        });
    }
    m.artwork_uris = uris(&[
        row.poster_path.as_deref(),
        w.images.as_ref().and_then(|i| i.original.as_deref()),
        row.banner.as_deref(),
    ]);
    m.seasons = seasons(w.season_requests, notes);
    fit_seasons(&mut m, DETAIL_BYTES, notes);
    m
}

/// Keeps a details record under `max` bytes: drops episode titles first,
/// then cuts each season's episode list (marking it `truncated`).
pub fn fit_seasons(m: &mut Media, max: usize, notes: &mut Notes) {
    let size = |m: &Media| serde_json::to_vec(m).map(|b| b.len()).unwrap_or(usize::MAX);
    if m.seasons.is_none() || size(m) <= max {
        return;
    }
    if let Some(seasons) = m.seasons.as_mut() {
        for e in seasons.iter_mut().flat_map(|s| s.episodes.iter_mut()) {
            e.title = None;
        }
    }
    notes.cut("episode titles were left out to fit the response size");
    let mut keep = MAX_NESTED;
    while size(m) > max && keep > 0 {
        keep /= 2;
        if let Some(seasons) = m.seasons.as_mut() {
            for s in seasons.iter_mut() {
                if s.episodes.len() > keep {
                    s.episodes.truncate(keep);
                    s.truncated = true;
                }
            }
        }
    }
    if keep < MAX_NESTED {
        notes.cut(format!(
            "seasons list at most {keep} episodes each to fit the response size"
        ));
    }
}
