//! Movies: v2 search/discovery rows and the full movie details (credits,
//! ratings, external ids).

use serde::Deserialize;
use serde_json::Value;

use super::*;

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
    #[serde(rename = "has4KRequest")]
    pub has_4k_request: Option<bool>,
    pub poster_path: Option<String>,
    pub backdrop_path: Option<String>,
}

/// Ombi's movie `requested` is false for a 4K-only request (shapes §2.1)
/// while `requestId` points at it: a 4K request is a request.
fn movie_requested(requested: Option<bool>, has_4k: Option<bool>) -> Option<bool> {
    match (requested, has_4k) {
        (_, Some(true)) => Some(true),
        (r, _) => r,
    }
}

impl SearchMovie {
    /// The row's ids: its TMDB id (`theMovieDbId`, else `id`) and IMDb id.
    pub fn ids(&self) -> Ids {
        let mut ids = Ids::new();
        ids.primary(Origin::Tmdb, &self.the_movie_db_id, &self.id)
            .imdb(self.imdb_id.as_deref());
        ids
    }

    /// A movie record with these ids and the row's title, overview and year.
    pub fn described(&mut self, ids: Ids) -> Media {
        let mut m = Media::new("movie", ids);
        m.title = text(self.title.take());
        m.overview = text(self.overview.take());
        m.year = year_of(self.release_date.as_deref());
        m
    }

    /// [`SearchMovie::described`], with the request state, poster and backdrop.
    fn media(mut self, ids: Ids) -> Media {
        let mut m = self.described(ids);
        m.available = self.available;
        m.requested = movie_requested(self.requested, self.has_4k_request);
        m.request_targets = target(TargetKind::Movie, self.request_id);
        m.artwork_uris = uris(&[self.poster_path.as_deref(), self.backdrop_path.as_deref()]);
        m
    }
}

pub fn movie_item(w: SearchMovie) -> Media {
    let ids = w.ids();
    w.media(ids)
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
#[serde(rename_all = "camelCase")]
pub struct ExternalIds {
    pub imdb_id: Option<String>,
}

/// `MovieFullInfoViewModel` (`theMovieDbId` is null: `id` is the TMDB id).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MovieFull {
    /// What a search row carries too (one object: flattening it costs
    /// nothing that matters).
    #[serde(flatten)]
    pub row: SearchMovie,
    pub external_ids: Option<ExternalIds>,
    pub genres: Option<Vec<Named>>,
    pub credits: Option<WireCredits>,
    pub belongs_to_collection: Option<BelongsToCollection>,
    pub vote_average: Option<f64>,
    pub vote_count: Option<i64>,
}

/// Cast then crew.
fn movie_credits(c: Option<WireCredits>) -> Vec<Credit> {
    let Some(c) = c else {
        return Vec::new();
    };
    let mut all: Vec<Credit> = Vec::new();
    for p in c.cast.unwrap_or_default() {
        if let Some(name) = text(p.name) {
            all.push(Credit::cast(name, p.id.positive(), p.character));
        }
    }
    for p in c.crew.unwrap_or_default() {
        if let Some(name) = text(p.name) {
            all.push(Credit::crew(name, p.id.positive(), p.job, p.department));
        }
    }
    all
}

fn number(v: f64) -> Value {
    serde_json::Number::from_f64(v)
        .map(Value::Number)
        .unwrap_or(Value::Null)
}

/// Movie details → the movie, plus its collection as a record of its own
/// (`belongsToCollection.id` is the collection's TMDB id, never the movie's).
pub fn movie_details(w: MovieFull, notes: &mut Notes) -> Vec<Media> {
    let mut ids = w.row.ids();
    ids.imdb(w.external_ids.as_ref().and_then(|e| e.imdb_id.as_deref()));
    let mut m = w.row.media(ids);
    m.genres = genre_names(w.genres);
    m.credits = cap_credits(movie_credits(w.credits), notes);
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
