//! Music (Lidarr): artist and album search rows, release groups and the
//! artist details.

use serde::Deserialize;
use serde_json::Value;

use super::*;

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
    // Titles stay as Ombi sends them; the disambiguation is only a fallback
    // overview.
    m.title = text(w.artist_name);
    m.overview = text(w.overview).or(text(w.disambiguation));
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
    // The title as Ombi sends it; the artist (which the record has no field
    // for) goes to the overview.
    m.title = text(w.title);
    m.overview = text(w.artist_name).map(|a| format!("by {a}"));
    m.year = year_of(w.release_date.as_deref());
    m.genres = strings(w.genres);
    m.available = w.available;
    m.requested = w.requested;
    m.request_targets = target(TargetKind::Album, w.request_id);
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
    m.title = text(w.title);
    m.year = year_of(w.release_date.as_deref());
    m.available = w.available;
    m.requested = w.requested;
    m.request_targets = target(TargetKind::Album, w.request_id);
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
    m.title = text(w.name.clone());
    m.overview = text(w.overview.clone()).or(text(w.disambiguation.clone()));
    m.year = year_of(w.start_year.as_deref());
    m.artwork_uris = uris(&[w.poster.as_deref(), w.banner.as_deref()]);
    m
}
