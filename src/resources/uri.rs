//! The `ombi://` URI grammar: every resource the daemon serves, as a typed
//! value, and back to its one spelling.

use std::fmt;

use crate::definition::params::TargetKind;
use crate::projection::mutation::Mutation;

/// One resource the daemon serves.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ResourceUri {
    /// `ombi://requests/mine`
    RequestsMine,
    /// `ombi://reference/issue-categories`
    IssueCategories,
    /// `ombi://reference/genres/{movie|tv}`
    Genres(GenreMedia),
    /// `ombi://reference/languages`
    Languages,
    /// `ombi://request/{kind}/{id}`
    Request(TargetKind, i64),
    /// `ombi://issue/{id}`
    Issue(i64),
    /// `ombi://issue/{id}/comments`
    IssueComments(i64),
    /// `ombi://media/{movie|tv}/{tmdb id}` or `ombi://media/album/{musicbrainz id}`
    Media(MediaId),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GenreMedia {
    Movie,
    Tv,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum MediaId {
    Movie(i64),
    Tv(i64),
    Album(String),
}

/// The request kinds of `ombi://request/{kind}/{id}`, as spelled there.
pub const REQUEST_KINDS: &[&str] = &["movie", "tv_parent", "tv_child", "album"];
/// The media of `ombi://media/{media}/{id}`.
pub const MEDIA_KINDS: &[&str] = &["movie", "tv", "album"];

const SCHEME: &str = "ombi://";

/// Why a URI is not one of ours (JSON-RPC -32602).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadUri(pub String);

fn kind_label(kind: TargetKind) -> &'static str {
    match kind {
        TargetKind::Movie => "movie",
        TargetKind::TvParent => "tv_parent",
        TargetKind::TvChild => "tv_child",
        TargetKind::Album => "album",
    }
}

fn kind_of(label: &str) -> Option<TargetKind> {
    Some(match label {
        "movie" => TargetKind::Movie,
        "tv_parent" => TargetKind::TvParent,
        "tv_child" => TargetKind::TvChild,
        "album" => TargetKind::Album,
        _ => return None,
    })
}

/// A contract id: a positive whole number, digits only.
fn id(raw: &str, what: &str) -> Result<i64, BadUri> {
    raw.bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| raw.parse::<i64>().ok())
        .flatten()
        .filter(|n| *n > 0)
        .ok_or_else(|| {
            BadUri(format!(
                "{what} must be a positive whole number, not {raw:?}"
            ))
        })
}

/// A MusicBrainz id: a UUID in its 8-4-4-4-12 hex form.
fn musicbrainz_id(raw: &str) -> Result<String, BadUri> {
    let groups: Vec<&str> = raw.split('-').collect();
    let lengths: Vec<usize> = groups.iter().map(|g| g.len()).collect();
    let hex = groups
        .iter()
        .all(|g| g.bytes().all(|b| b.is_ascii_hexdigit()));
    if lengths == [8, 4, 4, 4, 12] && hex {
        Ok(raw.to_ascii_lowercase())
    } else {
        Err(BadUri(format!(
            "an album is named by its MusicBrainz id (a UUID), not {raw:?}"
        )))
    }
}

impl ResourceUri {
    pub fn parse(uri: &str) -> Result<ResourceUri, BadUri> {
        let unknown = || BadUri(format!("not a resource of this server: {uri:?}"));
        let rest = uri.strip_prefix(SCHEME).ok_or_else(unknown)?;
        let parts: Vec<&str> = rest.split('/').collect();
        Ok(match parts.as_slice() {
            ["requests", "mine"] => ResourceUri::RequestsMine,
            ["reference", "issue-categories"] => ResourceUri::IssueCategories,
            ["reference", "genres", "movie"] => ResourceUri::Genres(GenreMedia::Movie),
            ["reference", "genres", "tv"] => ResourceUri::Genres(GenreMedia::Tv),
            ["reference", "languages"] => ResourceUri::Languages,
            ["request", kind, raw] => {
                let kind = kind_of(kind).ok_or_else(|| {
                    BadUri(format!(
                        "the request kind must be one of {}, not {kind:?}",
                        REQUEST_KINDS.join(", ")
                    ))
                })?;
                ResourceUri::Request(kind, id(raw, "a request id")?)
            }
            ["issue", raw] => ResourceUri::Issue(id(raw, "an issue id")?),
            ["issue", raw, "comments"] => ResourceUri::IssueComments(id(raw, "an issue id")?),
            ["media", "movie", raw] => ResourceUri::Media(MediaId::Movie(id(raw, "a TMDB id")?)),
            ["media", "tv", raw] => ResourceUri::Media(MediaId::Tv(id(raw, "a TMDB id")?)),
            ["media", "album", raw] => ResourceUri::Media(MediaId::Album(musicbrainz_id(raw)?)),
            ["media", media, _] => {
                return Err(BadUri(format!(
                    "the media must be one of {}, not {media:?}",
                    MEDIA_KINDS.join(", ")
                )));
            }
            _ => return Err(unknown()),
        })
    }

    /// One of Ombi's reference lists (issue categories, genres, languages):
    /// they seldom change, so a 2026-07-28 client may keep them an hour.
    pub fn is_reference(&self) -> bool {
        matches!(
            self,
            ResourceUri::IssueCategories | ResourceUri::Genres(_) | ResourceUri::Languages
        )
    }

    /// Whether `resources/subscribe` accepts it: the things whose state
    /// changes (a request, an issue, the acting user's requests).
    pub fn watchable(&self) -> bool {
        matches!(
            self,
            ResourceUri::RequestsMine | ResourceUri::Request(..) | ResourceUri::Issue(_)
        )
    }

    /// Whether a successful write that `touched` this may have changed its
    /// body: such watches are re-read right after the write, the others at
    /// their interval. A TV child's parent is not known from the write, so a
    /// TV write re-reads every watched TV request.
    pub fn changed_by(&self, touched: &Touched) -> bool {
        let tv = |k: TargetKind| matches!(k, TargetKind::TvParent | TargetKind::TvChild);
        match (self, touched) {
            (uri, Touched::Unknown) => uri.watchable(),
            (ResourceUri::RequestsMine, Touched::Request(..)) => true,
            (ResourceUri::Request(kind, id), Touched::Request(t_kind, t_id)) => {
                (kind, id) == (t_kind, t_id) || (tv(*kind) && tv(*t_kind))
            }
            (ResourceUri::Issue(id), Touched::Issue(t_id)) => id == t_id,
            _ => false,
        }
    }
}

/// What a successful write changed, as its result names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Touched {
    /// A request (the mutation's `target`).
    Request(TargetKind, i64),
    /// An issue or its comments (the mutation's `issue_id`).
    Issue(i64),
    /// Nothing named: whatever a write may change is re-read.
    Unknown,
}

impl Touched {
    /// What a write's result (its mutation record, when it has one) names.
    pub fn of(mutation: Option<&Mutation>) -> Touched {
        match mutation {
            Some(Mutation {
                target: Some(t), ..
            }) => Touched::Request(t.kind, t.id),
            Some(Mutation {
                issue_id: Some(id), ..
            }) if *id > 0 => Touched::Issue(*id),
            _ => Touched::Unknown,
        }
    }
}

impl fmt::Display for ResourceUri {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(SCHEME)?;
        match self {
            ResourceUri::RequestsMine => f.write_str("requests/mine"),
            ResourceUri::IssueCategories => f.write_str("reference/issue-categories"),
            ResourceUri::Genres(GenreMedia::Movie) => f.write_str("reference/genres/movie"),
            ResourceUri::Genres(GenreMedia::Tv) => f.write_str("reference/genres/tv"),
            ResourceUri::Languages => f.write_str("reference/languages"),
            ResourceUri::Request(kind, id) => write!(f, "request/{}/{id}", kind_label(*kind)),
            ResourceUri::Issue(id) => write!(f, "issue/{id}"),
            ResourceUri::IssueComments(id) => write!(f, "issue/{id}/comments"),
            ResourceUri::Media(MediaId::Movie(id)) => write!(f, "media/movie/{id}"),
            ResourceUri::Media(MediaId::Tv(id)) => write!(f, "media/tv/{id}"),
            ResourceUri::Media(MediaId::Album(id)) => write!(f, "media/album/{id}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shape_round_trips() {
        for uri in [
            "ombi://requests/mine",
            "ombi://reference/issue-categories",
            "ombi://reference/genres/movie",
            "ombi://reference/genres/tv",
            "ombi://reference/languages",
            "ombi://request/movie/1",
            "ombi://request/tv_parent/10",
            "ombi://request/tv_child/1396",
            "ombi://request/album/5",
            "ombi://issue/3",
            "ombi://issue/3/comments",
            "ombi://media/movie/603",
            "ombi://media/tv/1396",
            "ombi://media/album/2a0981fb-9593-3019-864b-ce934d97a16e",
        ] {
            assert_eq!(ResourceUri::parse(uri).unwrap().to_string(), uri);
        }
    }

    #[test]
    fn foreign_and_malformed_uris_are_refused() {
        for uri in [
            "",
            "file:///etc/passwd",
            "ombi://requests",
            "ombi://requests/mine/",
            "ombi://request/show/1",
            "ombi://request/movie/0",
            "ombi://request/movie/-1",
            "ombi://request/movie/+1",
            "ombi://request/movie/1x",
            "ombi://request/movie/99999999999999999999",
            "ombi://issue/abc",
            "ombi://media/book/1",
            "ombi://media/album/123",
            "ombi://reference/genres/album",
        ] {
            assert!(ResourceUri::parse(uri).is_err(), "{uri}");
        }
    }

    #[test]
    fn only_stateful_things_are_watchable() {
        let w = |u: &str| ResourceUri::parse(u).unwrap().watchable();
        assert!(w("ombi://requests/mine") && w("ombi://request/movie/1") && w("ombi://issue/1"));
        assert!(!w("ombi://issue/1/comments") && !w("ombi://media/movie/1"));
        assert!(!w("ombi://reference/languages"));
    }
}
