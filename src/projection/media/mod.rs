//! Ombi's search/discovery/detail models → `media_page` records.
//!
//! Wire structs name only the fields we project, so serde skips the rest of
//! each element unallocated — notably the hydrated `seasonRequests` trees of
//! the v2 TV lists, which browse structs do not declare at all. Missing
//! upstream values stay absent in the output (never false/0/"").
//!
//! The output record and shared helpers live here; the wire shapes and
//! projections by kind in `movie`, `tv`, `music` and `browse`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::identifiers::{Identifier, Ids, Namespace, Origin, WireId};
use super::paging::{Window, page_object};
use super::wire::text;

mod browse;
mod current;
mod movie;
mod music;
mod tv;

pub use browse::*;
pub use current::*;
pub use movie::*;
pub use music::*;
pub use tv::*;

// Nested lists cut here (seasons, episodes, credits) say so through
// [`Notes`]; lists not cut here (genres, providers, a credit's roles) are
// capped by the envelope budget, which warns and sets `truncated` itself.
use crate::contract::budget::MAX_NESTED;
use crate::contract::{Family, Target, TargetKind};
/// A details record above this many serialized bytes gets its season tree
/// thinned, so one record always fits the 64 KiB envelope with its siblings.
const DETAIL_BYTES: usize = 40 * 1024;

// ---------------------------------------------------------------- notes

/// What a projection reports besides its records: warnings, and whether it
/// cut anything (which the result must flag as `truncated`).
#[derive(Debug, Default)]
pub struct Notes {
    pub warnings: Vec<String>,
    pub truncated: bool,
}

impl Notes {
    /// A note that removes nothing.
    pub fn note(&mut self, w: impl Into<String>) {
        self.warnings.push(w.into());
    }

    /// Something was left out: say what, and mark the result truncated.
    pub fn cut(&mut self, w: impl Into<String>) {
        self.warnings.push(w.into());
        self.truncated = true;
    }
}

// ---------------------------------------------------------------- output

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

impl Credit {
    /// A cast credit: the character played, department "Acting".
    pub fn cast(name: String, person_id: Option<i64>, character: Option<String>) -> Credit {
        Credit {
            name,
            person_id,
            role: text(character),
            department: Some("Acting".into()),
        }
    }

    /// A crew credit: the job and its department.
    pub fn crew(
        name: String,
        person_id: Option<i64>,
        job: Option<String>,
        department: Option<String>,
    ) -> Credit {
        Credit {
            name,
            person_id,
            role: text(job),
            department: text(department),
        }
    }
}

/// TMDB credits as Ombi passes them on, `{cast, crew}`: a movie's
/// (`MovieFullInfoViewModel.credits`) or a person's (`ActorCredits`, which
/// does not include the person's name).
#[derive(Debug, Clone, Deserialize)]
pub struct WireCredits {
    pub cast: Option<Vec<WireCredit>>,
    pub crew: Option<Vec<WireCredit>>,
}

/// One cast or crew entry (TMDB snake_case names). On a movie's credits
/// `name` is the person's; on a person's, the entry is a title: `title` (a
/// movie) or `name` (TMDB's TV field; Ombi's model lacks it, but accept it if
/// it appears), with its date, overview and poster.
#[derive(Debug, Clone, Deserialize)]
pub struct WireCredit {
    #[serde(default)]
    pub id: WireId,
    pub title: Option<String>,
    pub name: Option<String>,
    pub character: Option<String>,
    pub job: Option<String>,
    pub department: Option<String>,
    pub release_date: Option<String>,
    pub first_air_date: Option<String>,
    pub overview: Option<String>,
    pub poster_path: Option<String>,
}

/// Keeps at most [`MAX_NESTED`] of a title's credits (cast first: it is
/// what people ask about), noting how many were left out.
fn cap_credits(mut credits: Vec<Credit>, notes: &mut Notes) -> Vec<Credit> {
    if credits.len() > MAX_NESTED {
        notes.cut(format!(
            "{} further cast/crew credits were left out (at most {MAX_NESTED})",
            credits.len() - MAX_NESTED
        ));
        credits.truncate(MAX_NESTED);
    }
    credits
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
    /// When the media server sync added it (recently added only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub added_date: Option<String>,
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
            added_date: None,
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
    page_object(Family::MediaPage, w.items, &w.page)
}

// ---------------------------------------------------------------- helpers

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
fn target(kind: TargetKind, request_id: Option<i64>) -> Vec<Target> {
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
        .collect()
}

#[cfg(test)]
mod tests;
