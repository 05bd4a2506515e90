//! Ombi's search/discovery/detail models → `media_page` records.
//!
//! Wire structs name only the fields we project, so serde skips the rest of
//! each element unallocated — notably the hydrated `seasonRequests` trees of
//! the v2 TV lists, which browse structs do not declare at all. Missing
//! upstream values stay absent in the output (never false/0/"").

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::identifiers::{Identifier, Ids, Namespace, Origin, WireId};
use super::paging::Window;

/// Longest list we emit in a nested array (`maxItems: 100`).
const NESTED_MAX: usize = 100;
/// A details record above this many serialized bytes gets its season tree
/// thinned, so one record always fits the 64 KiB envelope with its siblings.
const DETAIL_BYTES: usize = 40 * 1024;

// ---------------------------------------------------------------- output

/// `$defs/target`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Target {
    pub kind: &'static str,
    pub id: i64,
}

/// `$defs/credit`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Credit {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub person_id: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub department: Option<String>,
}

/// `$defs/provider`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Provider {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub country: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub access: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}

/// `$defs/reference` as used for ratings.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Rating {
    pub name: String,
    pub value: Value,
    pub category: String,
}

/// `$defs/episode`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Episode {
    pub episode_number: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub requested: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub available: Option<bool>,
}

/// `$defs/season`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Season {
    pub season_number: i64,
    pub episodes: Vec<Episode>,
    pub truncated: bool,
}

/// `$defs/media`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Media {
    pub media: &'static str,
    pub identifiers: Vec<Identifier>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub overview: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub year: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub available: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub requested: Option<bool>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub request_targets: Vec<Target>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub genres: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub credits: Vec<Credit>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub providers: Option<Vec<Provider>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ratings: Vec<Rating>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seasons: Option<Vec<Season>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub artwork_uris: Vec<String>,
}

impl Media {
    pub fn new(media: &'static str, ids: Ids) -> Media {
        Media {
            media,
            identifiers: ids.into_vec(),
            title: None,
            overview: None,
            year: None,
            available: None,
            requested: None,
            request_targets: Vec::new(),
            genres: Vec::new(),
            credits: Vec::new(),
            providers: None,
            ratings: Vec::new(),
            seasons: None,
            artwork_uris: Vec::new(),
        }
    }

    /// The value of the first identifier in `ns`.
    pub fn id_in(&self, ns: Namespace) -> Option<&str> {
        self.identifiers
            .iter()
            .find(|i| i.namespace == ns)
            .map(|i| i.value.as_str())
    }
}

/// The `media_page` family object.
pub fn media_page(w: Window<Media>) -> Value {
    serde_json::json!({
        "kind": "media_page",
        "items": w.items,
        "page": w.page,
    })
}

// ---------------------------------------------------------------- helpers

/// A usable text value (Ombi sends `""` and whitespace for unknown).
fn text(s: Option<String>) -> Option<String> {
    s.filter(|s| !s.trim().is_empty())
}

/// The year of an ISO date / year text; `0001-01-01` (never set) is no year.
pub fn year_of(date: Option<&str>) -> Option<i64> {
    let d = date?.trim();
    let y: i64 = d.get(..4)?.parse().ok()?;
    (1800..=2300).contains(&y).then_some(y)
}

/// The year Ombi appends to multi-search movie titles: `"Title (1999)"`.
fn year_in_title(title: &str) -> Option<i64> {
    let inner = title.trim_end().strip_suffix(')')?;
    let (_, y) = inner.rsplit_once('(')?;
    year_of(Some(y)).filter(|_| y.len() == 4)
}

/// A displayable artwork URI: TMDB relative paths become TMDB image URLs;
/// absolute URLs must be http(s) without credentials. Anything else is dropped.
pub fn artwork_uri(path: Option<&str>) -> Option<String> {
    let p = path?.trim();
    if p.is_empty() {
        return None;
    }
    if p.starts_with('/') && !p.starts_with("//") {
        let safe = p
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-".contains(c))
            && !p.contains("..");
        return safe.then(|| format!("https://image.tmdb.org/t/p/original{p}"));
    }
    safe_url(p)
}

/// `url` if it is an http(s) URL with no user info and no credential-looking
/// query; the fragment is dropped.
pub fn safe_url(url: &str) -> Option<String> {
    let mut u = reqwest::Url::parse(url.trim()).ok()?;
    if !matches!(u.scheme(), "https" | "http") || !u.username().is_empty() || u.password().is_some()
    {
        return None;
    }
    if u.host_str().is_none_or(str::is_empty) {
        return None;
    }
    let secretish = u.query_pairs().any(|(k, _)| {
        let k = k.to_ascii_lowercase();
        [
            "key",
            "token",
            "auth",
            "secret",
            "password",
            "signature",
            "sig",
        ]
        .iter()
        .any(|s| k.contains(s))
    });
    if secretish {
        return None;
    }
    u.set_fragment(None);
    Some(u.to_string())
}

fn uris(paths: &[Option<&str>]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for u in paths.iter().filter_map(|p| artwork_uri(*p)) {
        if !out.contains(&u) {
            out.push(u);
        }
    }
    out
}

/// A request target when Ombi reports a request (`requestId` > 0).
fn target(kind: &'static str, request_id: Option<i64>) -> Vec<Target> {
    request_id
        .filter(|id| *id >= 1)
        .map(|id| vec![Target { kind, id }])
        .unwrap_or_default()
}

#[derive(Debug, Clone, Deserialize)]
pub struct Named {
    pub name: Option<String>,
}

fn genre_names(g: Option<Vec<Named>>) -> Vec<String> {
    g.unwrap_or_default()
        .into_iter()
        .filter_map(|n| text(n.name))
        .take(NESTED_MAX)
        .collect()
}

fn strings(g: Option<Vec<Value>>) -> Vec<String> {
    g.unwrap_or_default()
        .into_iter()
        .filter_map(|v| match v {
            Value::String(s) => text(Some(s)),
            Value::Object(m) => m
                .get("name")
                .and_then(Value::as_str)
                .and_then(|s| text(Some(s.to_string()))),
            _ => None,
        })
        .take(NESTED_MAX)
        .collect()
}

// ---------------------------------------------------------------- movies

/// `SearchMovieViewModel` (v1 search, actor search, v2 movie lists, similar,
/// advanced, requested).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchMovie {
    #[serde(default)]
    pub id: WireId,
    #[serde(default)]
    pub the_movie_db_id: WireId,
    pub imdb_id: Option<String>,
    pub title: Option<String>,
    pub overview: Option<String>,
    pub release_date: Option<String>,
    pub requested: Option<bool>,
    pub available: Option<bool>,
    pub request_id: Option<i64>,
    pub poster_path: Option<String>,
    pub backdrop_path: Option<String>,
}

pub fn movie_item(w: SearchMovie) -> Media {
    let mut ids = Ids::new();
    ids.primary(Origin::Tmdb, &w.the_movie_db_id, &w.id)
        .imdb(w.imdb_id.as_deref());
    let mut m = Media::new("movie", ids);
    m.title = text(w.title);
    m.overview = text(w.overview);
    m.year = year_of(w.release_date.as_deref());
    m.available = w.available;
    m.requested = w.requested;
    m.request_targets = target("movie", w.request_id);
    m.artwork_uris = uris(&[w.poster_path.as_deref(), w.backdrop_path.as_deref()]);
    m
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BelongsToCollection {
    #[serde(default)]
    pub id: WireId,
    pub name: Option<String>,
    pub poster_path: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct CastWire {
    #[serde(default)]
    pub id: WireId,
    pub name: Option<String>,
    pub character: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct CrewWire {
    #[serde(default)]
    pub id: WireId,
    pub name: Option<String>,
    pub job: Option<String>,
    pub department: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct MovieCredits {
    pub cast: Option<Vec<CastWire>>,
    pub crew: Option<Vec<CrewWire>>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExternalIds {
    pub imdb_id: Option<String>,
}

/// `MovieFullInfoViewModel` (`theMovieDbId` is null: `id` is the TMDB id).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MovieFull {
    #[serde(default)]
    pub id: WireId,
    #[serde(default)]
    pub the_movie_db_id: WireId,
    pub imdb_id: Option<String>,
    pub external_ids: Option<ExternalIds>,
    pub title: Option<String>,
    pub overview: Option<String>,
    pub release_date: Option<String>,
    pub genres: Option<Vec<Named>>,
    pub credits: Option<MovieCredits>,
    pub belongs_to_collection: Option<BelongsToCollection>,
    pub requested: Option<bool>,
    pub available: Option<bool>,
    pub request_id: Option<i64>,
    pub poster_path: Option<String>,
    pub backdrop_path: Option<String>,
    pub vote_average: Option<f64>,
    pub vote_count: Option<i64>,
}

/// Cast then crew, at most [`NESTED_MAX`] together (cast first: it is what
/// people ask about); returns the credits and how many were left out.
fn movie_credits(c: Option<MovieCredits>) -> (Vec<Credit>, usize) {
    let Some(c) = c else {
        return (Vec::new(), 0);
    };
    let mut all: Vec<Credit> = Vec::new();
    for p in c.cast.unwrap_or_default() {
        if let Some(name) = text(p.name) {
            all.push(Credit {
                name,
                person_id: p.id.positive(),
                role: text(p.character),
                department: Some("Acting".into()),
            });
        }
    }
    for p in c.crew.unwrap_or_default() {
        if let Some(name) = text(p.name) {
            all.push(Credit {
                name,
                person_id: p.id.positive(),
                role: text(p.job),
                department: text(p.department),
            });
        }
    }
    let dropped = all.len().saturating_sub(NESTED_MAX);
    all.truncate(NESTED_MAX);
    (all, dropped)
}

fn number(v: f64) -> Value {
    serde_json::Number::from_f64(v)
        .map(Value::Number)
        .unwrap_or(Value::Null)
}

/// Movie details → the movie, plus its collection as a record of its own
/// (`belongsToCollection.id` is the collection's TMDB id, never the movie's).
pub fn movie_details(w: MovieFull, warnings: &mut Vec<String>) -> Vec<Media> {
    let mut ids = Ids::new();
    ids.primary(Origin::Tmdb, &w.the_movie_db_id, &w.id)
        .imdb(w.imdb_id.as_deref())
        .imdb(w.external_ids.as_ref().and_then(|e| e.imdb_id.as_deref()));
    let mut m = Media::new("movie", ids);
    m.title = text(w.title);
    m.overview = text(w.overview);
    m.year = year_of(w.release_date.as_deref());
    m.available = w.available;
    m.requested = w.requested;
    m.request_targets = target("movie", w.request_id);
    m.genres = genre_names(w.genres);
    let (credits, dropped) = movie_credits(w.credits);
    if dropped > 0 {
        warnings.push(format!(
            "{dropped} further cast/crew credits were left out (at most {NESTED_MAX})"
        ));
    }
    m.credits = credits;
    if let Some(v) = w.vote_average.filter(|v| *v > 0.0) {
        m.ratings.push(Rating {
            name: "vote_average".into(),
            value: number(v),
            category: "tmdb".into(),
        });
    }
    if let Some(n) = w.vote_count.filter(|n| *n > 0) {
        m.ratings.push(Rating {
            name: "vote_count".into(),
            value: n.into(),
            category: "tmdb".into(),
        });
    }
    m.artwork_uris = uris(&[w.poster_path.as_deref(), w.backdrop_path.as_deref()]);
    let mut out = vec![m];
    if let Some(c) = w.belongs_to_collection {
        let mut ids = Ids::new();
        ids.push_wire(Namespace::Tmdb, &c.id);
        if !ids.as_slice().is_empty() {
            let mut col = Media::new("collection", ids);
            col.title = text(c.name);
            col.artwork_uris = uris(&[c.poster_path.as_deref()]);
            out.push(col);
        }
    }
    out
}

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
    pub genre: Option<Vec<String>>,
    pub requested: Option<bool>,
    pub available: Option<bool>,
    pub fully_available: Option<bool>,
    pub request_id: Option<i64>,
    pub poster_path: Option<String>,
    pub banner: Option<String>,
}

fn tv_ids(
    origin: Origin,
    tmdb_field: &WireId,
    id: &WireId,
    tvdb: &WireId,
    series: &WireId,
    imdb: Option<&str>,
) -> Ids {
    let mut ids = Ids::new();
    ids.primary(origin, tmdb_field, id)
        .push_wire(Namespace::Tvdb, tvdb)
        .series_id(origin, series)
        .imdb(imdb);
    ids
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

/// Request state from a TVMaze route compares a TVDB id against TMDB-keyed
/// requests upstream, so it is not reported.
const TVMAZE_REQUEST_STATE: &str = "request state is not reported for TVMaze-backed records (Ombi matches it against the wrong id); use the TMDB id for request state";

pub fn tv_item(w: SearchTv, origin: Origin) -> Media {
    let ids = tv_ids(
        origin,
        &w.the_movie_db_id,
        &w.id,
        &w.the_tv_db_id,
        &w.series_id,
        w.imdb_id.as_deref(),
    );
    let mut m = Media::new("tv", ids);
    m.title = text(w.title);
    m.overview = overview_of(origin, w.overview);
    m.year = year_of(w.first_aired.as_deref());
    m.genres = w
        .genre
        .unwrap_or_default()
        .into_iter()
        .filter_map(|g| text(Some(g)))
        .take(NESTED_MAX)
        .collect();
    m.available = w.available.or(w.fully_available);
    if origin != Origin::TvMaze {
        m.requested = w.requested;
        m.request_targets = target("tv_parent", w.request_id);
    }
    m.artwork_uris = uris(&[w.poster_path.as_deref(), w.banner.as_deref()]);
    m
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EpisodeWire {
    pub episode_number: Option<i64>,
    pub title: Option<String>,
    pub requested: Option<bool>,
    pub available: Option<bool>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SeasonWire {
    pub season_number: Option<i64>,
    pub episodes: Option<Vec<EpisodeWire>>,
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
    #[serde(default)]
    pub id: WireId,
    #[serde(default)]
    pub the_movie_db_id: WireId,
    #[serde(default)]
    pub the_tv_db_id: WireId,
    #[serde(default)]
    pub series_id: WireId,
    pub imdb_id: Option<String>,
    pub external_ids: Option<ExternalIds>,
    pub title: Option<String>,
    pub overview: Option<String>,
    pub first_aired: Option<String>,
    /// v1: names.
    pub genre: Option<Vec<String>>,
    /// v2: `{id, name}`.
    pub genres: Option<Vec<Named>>,
    pub cast: Option<Vec<TvCast>>,
    pub crew: Option<Vec<TvCrew>>,
    pub season_requests: Option<Vec<SeasonWire>>,
    pub requested: Option<bool>,
    pub available: Option<bool>,
    pub fully_available: Option<bool>,
    pub request_id: Option<i64>,
    pub poster_path: Option<String>,
    pub banner: Option<String>,
    pub images: Option<TvImages>,
    pub site_rating: Option<i64>,
}

fn seasons(s: Option<Vec<SeasonWire>>, warnings: &mut Vec<String>) -> Option<Vec<Season>> {
    let all = s?;
    let total = all.len();
    let mut cut_episodes = 0;
    let out: Vec<Season> = all
        .into_iter()
        .filter_map(|s| {
            let number = s.season_number.filter(|n| *n >= 0)?;
            let eps = s.episodes.unwrap_or_default();
            let n = eps.len();
            let episodes: Vec<Episode> = eps
                .into_iter()
                .filter_map(|e| {
                    Some(Episode {
                        episode_number: e.episode_number.filter(|n| *n >= 0)?,
                        title: text(e.title),
                        requested: e.requested,
                        available: e.available,
                    })
                })
                .take(NESTED_MAX)
                .collect();
            let truncated = n > NESTED_MAX;
            if truncated {
                cut_episodes += 1;
            }
            Some(Season {
                season_number: number,
                episodes,
                truncated,
            })
        })
        .take(NESTED_MAX)
        .collect();
    if total > NESTED_MAX {
        warnings.push(format!(
            "only the first {NESTED_MAX} of {total} seasons are listed"
        ));
    }
    if cut_episodes > 0 {
        warnings.push(format!(
            "{cut_episodes} seasons list only their first {NESTED_MAX} episodes"
        ));
    }
    Some(out)
}

pub fn tv_details(w: TvDetail, origin: Origin, warnings: &mut Vec<String>) -> Media {
    let mut ids = tv_ids(
        origin,
        &w.the_movie_db_id,
        &w.id,
        &w.the_tv_db_id,
        &w.series_id,
        w.imdb_id.as_deref(),
    );
    ids.imdb(w.external_ids.as_ref().and_then(|e| e.imdb_id.as_deref()));
    let mut m = Media::new("tv", ids);
    m.title = text(w.title);
    m.overview = overview_of(origin, w.overview);
    m.year = year_of(w.first_aired.as_deref());
    m.genres = match w.genres {
        Some(g) => genre_names(Some(g)),
        None => w
            .genre
            .unwrap_or_default()
            .into_iter()
            .filter_map(|g| text(Some(g)))
            .take(NESTED_MAX)
            .collect(),
    };
    m.available = w.available.or(w.fully_available);
    if origin == Origin::TvMaze {
        warnings.push(TVMAZE_REQUEST_STATE.into());
    } else {
        m.requested = w.requested;
        m.request_targets = target("tv_parent", w.request_id);
    }
    let mut credits: Vec<Credit> = Vec::new();
    for c in w.cast.unwrap_or_default() {
        if let Some(name) = text(c.person) {
            credits.push(Credit {
                name,
                person_id: c.id.positive(),
                role: text(c.character),
                department: Some("Acting".into()),
            });
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
    if credits.len() > NESTED_MAX {
        warnings.push(format!(
            "{} further cast/crew credits were left out (at most {NESTED_MAX})",
            credits.len() - NESTED_MAX
        ));
        credits.truncate(NESTED_MAX);
    }
    m.credits = credits;
    if let Some(r) = w.site_rating.filter(|r| *r > 0) {
        m.ratings.push(Rating {
            name: "site_rating".into(),
            value: r.into(),
            category: "ombi".into(),
        });
    }
    m.artwork_uris = uris(&[
        w.poster_path.as_deref(),
        w.images.as_ref().and_then(|i| i.original.as_deref()),
        w.banner.as_deref(),
    ]);
    m.seasons = seasons(w.season_requests, warnings);
    fit_seasons(&mut m, DETAIL_BYTES, warnings);
    m
}

/// Keeps a details record under `max` bytes: drops episode titles first,
/// then cuts each season's episode list (marking it `truncated`).
pub fn fit_seasons(m: &mut Media, max: usize, warnings: &mut Vec<String>) {
    let size = |m: &Media| serde_json::to_vec(m).map(|b| b.len()).unwrap_or(usize::MAX);
    if m.seasons.is_none() || size(m) <= max {
        return;
    }
    if let Some(seasons) = m.seasons.as_mut() {
        for e in seasons.iter_mut().flat_map(|s| s.episodes.iter_mut()) {
            e.title = None;
        }
    }
    warnings.push("episode titles were left out to fit the response size".into());
    let mut keep = NESTED_MAX;
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
    if keep < NESTED_MAX {
        warnings.push(format!(
            "seasons list at most {keep} episodes each to fit the response size"
        ));
    }
}

// ---------------------------------------------------------------- multi-search

/// `MultiSearchResult` (ids are strings).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MultiResult {
    #[serde(default)]
    pub id: WireId,
    pub media_type: Option<String>,
    pub title: Option<String>,
    pub poster: Option<String>,
    pub overview: Option<String>,
}

/// `mediaType` is TMDB's lowercase `movie`/`tv`/`person` or MusicBrainz's
/// `Artist`: matched case-insensitively. An unknown type keeps its id under
/// `provider_unknown` (with a warning) so it never feeds a provider write.
pub fn multi_item(w: MultiResult, warnings: &mut Vec<String>) -> Media {
    let kind = w
        .media_type
        .as_deref()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    let (media, ns) = match kind.as_str() {
        "movie" => ("movie", Namespace::Tmdb),
        "tv" => ("tv", Namespace::Tmdb),
        "person" => ("person", Namespace::Tmdb),
        "artist" => ("artist", Namespace::Musicbrainz),
        _ => {
            warnings.push(format!(
                "a result has an unknown media type {:?}; its id is reported as provider_unknown",
                w.media_type.as_deref().unwrap_or("")
            ));
            ("unknown", Namespace::ProviderUnknown)
        }
    };
    let mut ids = Ids::new();
    ids.push_wire(ns, &w.id);
    let mut m = Media::new(media, ids);
    m.year = w.title.as_deref().and_then(year_in_title);
    m.title = text(w.title);
    m.overview = text(w.overview);
    m.artwork_uris = uris(&[w.poster.as_deref()]);
    m
}

// ---------------------------------------------------------------- collections

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CollectionMember {
    #[serde(default)]
    pub id: WireId,
    #[serde(default)]
    pub the_movie_db_id: WireId,
    pub imdb_id: Option<String>,
    pub title: Option<String>,
    pub overview: Option<String>,
    pub release_date: Option<String>,
    pub poster_path: Option<String>,
}

/// `MovieCollectionsViewModel`.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CollectionWire {
    pub name: Option<String>,
    pub overview: Option<String>,
    pub collection: Option<Vec<CollectionMember>>,
}

/// The collection record (its own TMDB collection id) followed by its
/// members. Members' request flags are never filled upstream (an Ombi bug),
/// so they are not reported.
pub fn collection(w: CollectionWire, collection_id: i64) -> Vec<Media> {
    let mut ids = Ids::new();
    ids.push(Namespace::Tmdb, Some(&collection_id.to_string()));
    let mut col = Media::new("collection", ids);
    col.title = text(w.name);
    col.overview = text(w.overview);
    let mut out = vec![col];
    for c in w.collection.unwrap_or_default() {
        let mut ids = Ids::new();
        ids.primary(Origin::Tmdb, &c.the_movie_db_id, &c.id)
            .imdb(c.imdb_id.as_deref());
        let mut m = Media::new("movie", ids);
        m.title = text(c.title);
        m.overview = text(c.overview);
        m.year = year_of(c.release_date.as_deref());
        m.artwork_uris = uris(&[c.poster_path.as_deref()]);
        out.push(m);
    }
    out
}

// ---------------------------------------------------------------- music

/// `SearchArtistViewModel` (v1): the id field is misspelled `forignArtistId`.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ArtistSearch {
    pub artist_name: Option<String>,
    #[serde(alias = "foreignArtistId")]
    pub forign_artist_id: Option<String>,
    pub overview: Option<String>,
    pub disambiguation: Option<String>,
    pub poster: Option<String>,
    pub banner: Option<String>,
}

pub fn artist_item(w: ArtistSearch) -> Media {
    let mut ids = Ids::new();
    ids.push(Namespace::Musicbrainz, w.forign_artist_id.as_deref());
    let mut m = Media::new("artist", ids);
    m.title = match (text(w.artist_name), text(w.disambiguation)) {
        (Some(n), Some(d)) => Some(format!("{n} ({d})")),
        (n, _) => n,
    };
    m.overview = text(w.overview);
    m.artwork_uris = uris(&[w.poster.as_deref(), w.banner.as_deref()]);
    m
}

/// `SearchAlbumViewModel` (v1). `id` is 0 for albums; `foreignArtistId` is
/// the ARTIST's MBID and so is not an identifier of the album.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AlbumSearch {
    pub foreign_album_id: Option<String>,
    pub title: Option<String>,
    pub artist_name: Option<String>,
    pub release_date: Option<String>,
    pub cover: Option<String>,
    pub genres: Option<Vec<Value>>,
    pub requested: Option<bool>,
    pub available: Option<bool>,
    pub request_id: Option<i64>,
}

pub fn album_item(w: AlbumSearch) -> Media {
    let mut ids = Ids::new();
    ids.push(Namespace::Musicbrainz, w.foreign_album_id.as_deref());
    let mut m = Media::new("album", ids);
    m.title = match (text(w.title), text(w.artist_name)) {
        (Some(t), Some(a)) => Some(format!("{t} — {a}")),
        (t, _) => t,
    };
    m.year = year_of(w.release_date.as_deref());
    m.genres = strings(w.genres);
    m.available = w.available;
    m.requested = w.requested;
    m.request_targets = target("album", w.request_id);
    m.artwork_uris = uris(&[w.cover.as_deref()]);
    m
}

/// `ReleaseGroup` (v2): `id` is a string MBID hiding the base int id.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReleaseGroup {
    #[serde(default)]
    pub id: WireId,
    pub title: Option<String>,
    pub release_date: Option<String>,
    pub release_type: Option<String>,
    pub requested: Option<bool>,
    pub available: Option<bool>,
    pub request_id: Option<i64>,
}

pub fn release_group_item(w: ReleaseGroup) -> Media {
    let mut ids = Ids::new();
    // A numeric value here is the hidden base id (0), not an MBID.
    if w.id.positive().is_none() {
        ids.push_wire(Namespace::Musicbrainz, &w.id);
    }
    let mut m = Media::new("album", ids);
    m.title = match (text(w.title), text(w.release_type)) {
        (Some(t), Some(r)) => Some(format!("{t} ({r})")),
        (t, _) => t,
    };
    m.year = year_of(w.release_date.as_deref());
    m.available = w.available;
    m.requested = w.requested;
    m.request_targets = target("album", w.request_id);
    m
}

/// `ArtistInformation` (v2).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ArtistInfo {
    #[serde(default)]
    pub id: WireId,
    pub name: Option<String>,
    pub disambiguation: Option<String>,
    pub overview: Option<String>,
    pub start_year: Option<String>,
    pub poster: Option<String>,
    pub banner: Option<String>,
    pub release_groups: Option<Vec<ReleaseGroup>>,
}

pub fn artist_details(w: &ArtistInfo) -> Media {
    let mut ids = Ids::new();
    ids.push_wire(Namespace::Musicbrainz, &w.id);
    let mut m = Media::new("artist", ids);
    m.title = match (text(w.name.clone()), text(w.disambiguation.clone())) {
        (Some(n), Some(d)) => Some(format!("{n} ({d})")),
        (n, _) => n,
    };
    m.overview = text(w.overview.clone());
    m.year = year_of(w.start_year.as_deref());
    m.artwork_uris = uris(&[w.poster.as_deref(), w.banner.as_deref()]);
    m
}

// ---------------------------------------------------------------- credits

/// One entry of `ActorCredits.cast` / `.crew` (TMDB snake_case names).
#[derive(Debug, Clone, Deserialize)]
pub struct ActorCreditWire {
    #[serde(default)]
    pub id: WireId,
    pub title: Option<String>,
    /// TMDB's TV field; Ombi's model lacks it, but accept it if it appears.
    pub name: Option<String>,
    pub character: Option<String>,
    pub job: Option<String>,
    pub department: Option<String>,
    pub release_date: Option<String>,
    pub first_air_date: Option<String>,
    pub overview: Option<String>,
    pub poster_path: Option<String>,
}

/// `ActorCredits`: `{id, cast, crew}`; the person's name is NOT included.
#[derive(Debug, Clone, Deserialize)]
pub struct ActorCredits {
    pub cast: Option<Vec<ActorCreditWire>>,
    pub crew: Option<Vec<ActorCreditWire>>,
}

/// The titles a person is credited on, one record per title with the
/// person's roles on it. `name` is the caller's (Ombi returns only the id).
pub fn credits(media: &'static str, wire: ActorCredits, person_id: i64, name: &str) -> Vec<Media> {
    let mut out: Vec<Media> = Vec::new();
    let entries = wire
        .cast
        .unwrap_or_default()
        .into_iter()
        .map(|c| (c, true))
        .chain(
            wire.crew
                .unwrap_or_default()
                .into_iter()
                .map(|c| (c, false)),
        );
    for (c, acting) in entries {
        let Some(id) = c.id.known().map(str::to_string) else {
            continue;
        };
        let credit = Credit {
            name: name.to_string(),
            person_id: Some(person_id),
            role: if acting {
                text(c.character)
            } else {
                text(c.job)
            },
            department: if acting {
                Some("Acting".into())
            } else {
                text(c.department)
            },
        };
        if let Some(m) = out
            .iter_mut()
            .find(|m| m.id_in(Namespace::Tmdb) == Some(id.as_str()))
        {
            if !m.credits.contains(&credit) && m.credits.len() < NESTED_MAX {
                m.credits.push(credit);
            }
            continue;
        }
        let mut ids = Ids::new();
        ids.push(Namespace::Tmdb, Some(&id));
        let mut m = Media::new(media, ids);
        m.title = text(c.title).or(text(c.name));
        m.overview = text(c.overview);
        m.year = year_of(c.release_date.as_deref().or(c.first_air_date.as_deref()));
        m.artwork_uris = uris(&[c.poster_path.as_deref()]);
        m.credits.push(credit);
        out.push(m);
    }
    out
}

// ---------------------------------------------------------------- providers, ratings

/// `StreamingData`: a title's providers in the caller's streaming country.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StreamingData {
    pub order: Option<i64>,
    pub streaming_provider: Option<String>,
}

pub fn providers_item(media: &'static str, tmdb_id: i64, mut wire: Vec<StreamingData>) -> Media {
    let mut ids = Ids::new();
    ids.push(Namespace::Tmdb, Some(&tmdb_id.to_string()));
    let mut m = Media::new(media, ids);
    wire.sort_by_key(|s| s.order.unwrap_or(i64::MAX));
    let mut providers: Vec<Provider> = Vec::new();
    for s in wire {
        if let Some(name) = text(s.streaming_provider)
            && !providers.iter().any(|p| p.name == name)
        {
            providers.push(Provider {
                name,
                country: None,
                access: Some("stream".into()),
                url: None,
            });
        }
    }
    providers.truncate(NESTED_MAX);
    m.providers = Some(providers);
    m
}

/// `MovieRatings` and `TvRatings` (Rotten Tomatoes), in one struct.
#[derive(Debug, Clone, Deserialize)]
pub struct RatingsWire {
    pub critics_rating: Option<String>,
    pub critics_score: Option<i64>,
    pub audience_rating: Option<String>,
    pub audience_score: Option<i64>,
    pub class: Option<String>,
    pub score: Option<i64>,
}

pub fn ratings_item(media: &'static str, title: &str, year: i64, w: RatingsWire) -> Media {
    let mut m = Media::new(media, Ids::new());
    m.title = Some(title.to_string());
    m.year = Some(year);
    let rt = |name: &str, value: Value| Rating {
        name: name.into(),
        value,
        category: "rotten_tomatoes".into(),
    };
    let texts = [
        ("critics_rating", w.critics_rating),
        ("audience_rating", w.audience_rating),
        ("class", w.class),
    ];
    // A score of 0 is what Ombi sends for "no score"; absent, not zero.
    let scores = [
        ("critics_score", w.critics_score),
        ("audience_score", w.audience_score),
        ("score", w.score),
    ];
    for (n, v) in scores {
        if let Some(v) = v.filter(|v| *v > 0) {
            m.ratings.push(rt(n, v.into()));
        }
    }
    for (n, v) in texts {
        if let Some(v) = text(v) {
            m.ratings.push(rt(n, Value::String(v)));
        }
    }
    m
}

// ---------------------------------------------------------------- recently requested

/// `RecentlyRequestedModel` (the bounded fallback feed of `requested`).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RecentlyRequested {
    pub request_id: Option<i64>,
    #[serde(rename = "type")]
    pub kind: Option<i64>,
    pub title: Option<String>,
    pub overview: Option<String>,
    #[serde(default)]
    pub media_id: WireId,
    pub available: Option<bool>,
    pub release_date: Option<String>,
    pub poster_path: Option<String>,
}

impl RecentlyRequested {
    /// RequestType: 0 TV, 1 movie, 2 album.
    pub fn media(&self) -> Option<&'static str> {
        match self.kind? {
            0 => Some("tv"),
            1 => Some("movie"),
            2 => Some("album"),
            _ => None,
        }
    }
}

/// A movie or TV row of the feed. TV `requestId` is a CHILD request id;
/// `mediaId` is the TMDB id (TV: the parent's). Albums' `overview` is the
/// artist name, so it is not used as an overview.
pub fn recently_requested_item(w: RecentlyRequested) -> Option<Media> {
    let media = w.media()?;
    let (ns, kind) = match media {
        "movie" => (Namespace::Tmdb, "movie"),
        "tv" => (Namespace::Tmdb, "tv_child"),
        _ => (Namespace::Musicbrainz, "album"),
    };
    let mut ids = Ids::new();
    ids.push_wire(ns, &w.media_id);
    let mut m = Media::new(media, ids);
    m.title = text(w.title);
    if media != "album" {
        m.overview = text(w.overview);
    }
    m.year = year_of(w.release_date.as_deref());
    m.available = w.available;
    m.request_targets = target(kind, w.request_id);
    m.artwork_uris = uris(&[w.poster_path.as_deref()]);
    Some(m)
}

#[cfg(test)]
#[path = "media_tests.rs"]
mod tests;
