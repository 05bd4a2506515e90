//! Identifier namespaces of media records (`docs/contract.md`, media_page).
//!
//! The namespace of an id is decided by the ROUTE the record came from, never
//! by the wire field name: Ombi's `theMovieDbId` holds a TVDB id on the
//! TVMaze-backed v1 TV routes, and `seriesId` echoes the TMDB id on the v2
//! routes. Every projection of a media record goes through [`Ids`], which
//! also drops empty/zero values and never emits the same namespace+value twice.

use serde::{Deserialize, Deserializer, Serialize};

/// The `identifier.namespace` values a media record can carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Namespace {
    Tmdb,
    Tvdb,
    Imdb,
    Musicbrainz,
    Tvmaze,
    ProviderUnknown,
}

/// One `{namespace, value}` entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Identifier {
    pub namespace: Namespace,
    pub value: String,
}

/// Where a record came from, which fixes how its id fields are labelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// v1 `Search/tv/{term}` and `Search/tv/info/{tvdbId}`: `id` and
    /// `theMovieDbId` are TVDB ids, `seriesId` is the TVMaze id.
    TvMaze,
    /// v1 movie search and every v2 TMDB-keyed route: `id` and `theMovieDbId`
    /// are TMDB ids; `seriesId` (TV) is not a TVMaze id.
    Tmdb,
    /// Lidarr / MusicBrainz-backed routes: string MBIDs.
    MusicBrainz,
}

impl Origin {
    /// The namespace of a record's primary id on this route.
    pub fn primary(self) -> Namespace {
        match self {
            Origin::TvMaze => Namespace::Tvdb,
            Origin::Tmdb => Namespace::Tmdb,
            Origin::MusicBrainz => Namespace::Musicbrainz,
        }
    }
}

/// An id as Ombi writes it: sometimes a number, sometimes a string
/// (`theMovieDbId`, multi-search `id`), often null or `0`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct WireId(pub Option<String>);

impl WireId {
    /// The value, when it identifies something (not empty, not `0`).
    pub fn known(&self) -> Option<&str> {
        let v = self.0.as_deref()?.trim();
        (!v.is_empty() && v != "0" && !v.starts_with('-')).then_some(v)
    }

    /// The value as a positive integer, when it is one.
    pub fn positive(&self) -> Option<i64> {
        self.known()?.parse::<i64>().ok().filter(|n| *n >= 1)
    }
}

impl<'de> Deserialize<'de> for WireId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        #[allow(dead_code)] // `Other` only swallows shapes that are not ids
        enum Raw {
            Int(i64),
            Float(f64),
            Str(String),
            Other(serde::de::IgnoredAny),
        }
        Ok(WireId(match Option::<Raw>::deserialize(d)? {
            Some(Raw::Int(n)) => Some(n.to_string()),
            // Ombi never sends fractional ids; a float here is not an id.
            Some(Raw::Float(_)) | Some(Raw::Other(_)) | None => None,
            Some(Raw::Str(s)) => Some(s),
        }))
    }
}

/// A record's identifiers, deduplicated, in insertion order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Ids(Vec<Identifier>);

impl Ids {
    pub fn new() -> Ids {
        Ids::default()
    }

    /// Adds `value` under `ns` unless it is empty/zero or already present.
    pub fn push(&mut self, ns: Namespace, value: Option<&str>) -> &mut Ids {
        let Some(v) = value.map(str::trim).filter(|v| !v.is_empty() && *v != "0") else {
            return self;
        };
        if !self.0.iter().any(|i| i.namespace == ns && i.value == v) {
            self.0.push(Identifier {
                namespace: ns,
                value: v.to_string(),
            });
        }
        self
    }

    pub fn push_wire(&mut self, ns: Namespace, id: &WireId) -> &mut Ids {
        self.push(ns, id.known())
    }

    /// The record's own id: `theMovieDbId` when present, else `id`, both in
    /// the origin's namespace (`theMovieDbId` lies about its namespace on
    /// TVMaze routes, so the field name never decides).
    pub fn primary(&mut self, origin: Origin, the_movie_db_id: &WireId, id: &WireId) -> &mut Ids {
        let ns = origin.primary();
        match the_movie_db_id.known() {
            Some(v) => self.push(ns, Some(v)),
            None => self.push(ns, id.known()),
        }
    }

    /// `seriesId`: the TVMaze id on TVMaze routes; an echo of the TMDB id
    /// (or 0) on v2 routes, where it is not emitted.
    pub fn series_id(&mut self, origin: Origin, series_id: &WireId) -> &mut Ids {
        if origin == Origin::TvMaze {
            self.push_wire(Namespace::Tvmaze, series_id);
        }
        self
    }

    pub fn imdb(&mut self, imdb_id: Option<&str>) -> &mut Ids {
        // Ombi sometimes writes "" or a bare number; only `tt…` ids are IMDb ids.
        let v = imdb_id.map(str::trim).filter(|v| v.starts_with("tt"));
        self.push(Namespace::Imdb, v)
    }

    pub fn contains(&self, ns: Namespace) -> bool {
        self.0.iter().any(|i| i.namespace == ns)
    }

    pub fn into_vec(self) -> Vec<Identifier> {
        self.0
    }

    pub fn as_slice(&self) -> &[Identifier] {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(v: &str) -> WireId {
        WireId(Some(v.into()))
    }

    #[test]
    fn tvmaze_route_labels_the_movie_db_id_as_tvdb_and_series_id_as_tvmaze() {
        let mut ids = Ids::new();
        ids.primary(Origin::TvMaze, &w("81189"), &w("81189"))
            .series_id(Origin::TvMaze, &w("169"));
        assert_eq!(
            ids.as_slice(),
            &[
                Identifier {
                    namespace: Namespace::Tvdb,
                    value: "81189".into()
                },
                Identifier {
                    namespace: Namespace::Tvmaze,
                    value: "169".into()
                },
            ]
        );
    }

    #[test]
    fn v2_route_labels_tmdb_and_never_series_id() {
        let mut ids = Ids::new();
        ids.primary(Origin::Tmdb, &WireId(None), &w("1396"))
            .series_id(Origin::Tmdb, &w("1396"));
        assert_eq!(
            ids.as_slice(),
            &[Identifier {
                namespace: Namespace::Tmdb,
                value: "1396".into()
            }]
        );
    }

    #[test]
    fn duplicates_and_zero_values_are_dropped() {
        let mut ids = Ids::new();
        ids.push(Namespace::Tvdb, Some("81189"))
            .push(Namespace::Tvdb, Some("81189"))
            .push(Namespace::Tmdb, Some("0"))
            .push(Namespace::Imdb, Some(""))
            .imdb(Some("tt0903747"))
            .imdb(Some("tt0903747"));
        assert_eq!(ids.as_slice().len(), 2);
    }

    #[test]
    fn wire_ids_accept_numbers_strings_and_null() {
        #[derive(Deserialize)]
        struct T {
            a: WireId,
            b: WireId,
            c: WireId,
            #[serde(default)]
            d: WireId,
        }
        let t: T = serde_json::from_str(r#"{"a": 603, "b": "603", "c": null}"#).unwrap();
        assert_eq!(t.a.known(), Some("603"));
        assert_eq!(t.b.positive(), Some(603));
        assert_eq!(t.c.known(), None);
        assert_eq!(t.d.known(), None);
        assert_eq!(WireId(Some("0".into())).known(), None);
    }
}
