//! Lists across media kinds: multi-search rows, collections, a person's
//! credits, streaming providers, ratings and the recently-requested feed.

use serde::Deserialize;
use serde_json::Value;

use super::*;

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

/// `MovieCollectionsViewModel`: its members are read as movie rows.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WireCollection {
    pub name: Option<String>,
    pub overview: Option<String>,
    pub collection: Option<Vec<SearchMovie>>,
}

/// The collection record (its own TMDB collection id) followed by its
/// members. Members' request flags are never filled upstream (an Ombi bug),
/// so they are not reported.
pub fn collection(w: WireCollection, collection_id: i64) -> Vec<Media> {
    let mut ids = Ids::new();
    ids.push(Namespace::Tmdb, Some(&collection_id.to_string()));
    let mut col = Media::new("collection", ids);
    col.title = text(w.name);
    col.overview = text(w.overview);
    let mut out = vec![col];
    for mut c in w.collection.unwrap_or_default() {
        let mut m = c.described(c.ids());
        m.artwork_uris = uris(&[c.poster_path.as_deref()]);
        out.push(m);
    }
    out
}

// ---------------------------------------------------------------- credits

/// The titles a person is credited on, one record per title with the
/// person's roles on it. `name` is the caller's (Ombi returns only the id).
pub fn credits(media: &'static str, wire: WireCredits, person_id: i64, name: &str) -> Vec<Media> {
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
        let credit = if acting {
            Credit::cast(name.to_string(), Some(person_id), c.character)
        } else {
            Credit::crew(name.to_string(), Some(person_id), c.job, c.department)
        };
        if let Some(m) = out
            .iter_mut()
            .find(|m| m.id_in(Namespace::Tmdb) == Some(id.as_str()))
        {
            if !m.credits.contains(&credit) {
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
    m.providers = Some(providers);
    m
}

/// `MovieRatings` and `TvRatings` (Rotten Tomatoes), in one struct.
#[derive(Debug, Clone, Deserialize)]
pub struct WireRatings {
    pub critics_rating: Option<String>,
    pub critics_score: Option<i64>,
    pub audience_rating: Option<String>,
    pub audience_score: Option<i64>,
    pub class: Option<String>,
    pub score: Option<i64>,
}

pub fn ratings_item(media: &'static str, title: &str, year: i64, w: WireRatings) -> Media {
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
        "movie" => (Namespace::Tmdb, TargetKind::Movie),
        "tv" => (Namespace::Tmdb, TargetKind::TvChild),
        _ => (Namespace::Musicbrainz, TargetKind::Album),
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
