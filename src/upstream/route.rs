//! One Ombi call, described so tool code reads like the ledger:
//! `Route::get("api/v1/Request/movie/info").seg(id)`.

use std::fmt::{self, Display};

use reqwest::{Method, Url};
use serde::Serialize;

use crate::contract::{ErrorCode, ToolError};

/// Whether replaying the call is safe. Writes are never replayed; a write
/// whose fate is unknown is reported as `UNKNOWN_OUTCOME`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Read,
    Write,
}

/// What we ask Ombi to answer with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Accept {
    Json,
    /// Logs: the whole file as `text/plain`.
    Text,
}

#[derive(Clone)]
pub struct Route {
    pub(crate) method: Method,
    /// The fixed part, relative to `OMBI_URL` (`api/v1/Request/movie/info`).
    pub(crate) path: &'static str,
    /// Argument segments, each percent-encoded as exactly one segment.
    pub(crate) segs: Vec<String>,
    pub(crate) query: Vec<(&'static str, String)>,
    /// Extra request headers (Ombi's `ApiAlias`), checked in [`Route::url`]
    /// so a bad value fails before anything is sent.
    pub(crate) headers: Vec<(&'static str, String)>,
    /// The JSON body, or why it could not be encoded (reported at send time).
    pub(crate) body: Option<Result<Vec<u8>, String>>,
    pub(crate) kind: Kind,
    pub(crate) accept: Accept,
    /// Sent with the daemon's own credentials whoever the call is for
    /// ([`Route::own`]).
    pub(crate) own: bool,
}

impl Route {
    fn new(method: Method, path: &'static str, kind: Kind) -> Route {
        Route {
            method,
            path: path.trim_matches('/'),
            segs: Vec::new(),
            query: Vec::new(),
            headers: Vec::new(),
            body: None,
            kind,
            accept: Accept::Json,
            own: false,
        }
    }

    /// This route sent with the daemon's own credentials: in api_key mode the
    /// key alone, without any `UserName` (Ombi's `Api` user, Admin), in jwt
    /// mode the login. For what the daemon must know whoever the peer acts
    /// as (Ombi's hide-requests setting).
    pub fn own(mut self) -> Route {
        self.own = true;
        self
    }

    pub fn get(path: &'static str) -> Route {
        Route::new(Method::GET, path, Kind::Read)
    }

    /// A POST that changes state (create, approve, vote, ...).
    pub fn post(path: &'static str) -> Route {
        Route::new(Method::POST, path, Kind::Write)
    }

    /// A POST that only reads (Ombi's search endpoints take a body), so
    /// it may be retried like a GET.
    pub fn post_read(path: &'static str) -> Route {
        Route::new(Method::POST, path, Kind::Read)
    }

    pub fn put(path: &'static str) -> Route {
        Route::new(Method::PUT, path, Kind::Write)
    }

    pub fn delete(path: &'static str) -> Route {
        Route::new(Method::DELETE, path, Kind::Write)
    }

    /// Appends one path segment from an argument; `/`, `?`, `#`, `%`, spaces
    /// and unicode are encoded, so the argument never changes the route.
    pub fn seg(mut self, value: impl Display) -> Route {
        self.segs.push(value.to_string());
        self
    }

    /// Appends a query pair (encoded).
    pub fn query(mut self, key: &'static str, value: impl Display) -> Route {
        self.query.push((key, value.to_string()));
        self
    }

    /// Adds a request header (a plain value, not a secret).
    pub fn header(mut self, name: &'static str, value: impl Into<String>) -> Route {
        self.headers.push((name, value.into()));
        self
    }

    /// Sends `body` as JSON.
    pub fn json(mut self, body: &impl Serialize) -> Route {
        self.body = Some(serde_json::to_vec(body).map_err(|e| e.to_string()));
        self
    }

    /// Asks for `text/plain` (log files).
    pub fn text(mut self) -> Route {
        self.accept = Accept::Text;
        self
    }

    pub fn kind(&self) -> Kind {
        self.kind
    }

    pub fn method(&self) -> &Method {
        &self.method
    }

    /// The full URL under `base` (which ends in `/`, prefix kept).
    pub fn url(&self, base: &Url) -> Result<Url, ToolError> {
        if let Some(Err(e)) = &self.body {
            return Err(ToolError::internal(format!(
                "cannot encode the body of {self}: {e}"
            )));
        }
        if let Some((name, _)) = self
            .headers
            .iter()
            .find(|(_, v)| reqwest::header::HeaderValue::from_str(v).is_err())
        {
            return Err(ToolError::internal(format!(
                "the {name} header of {self} cannot carry its value"
            )));
        }
        let mut url = base
            .join(self.path)
            .map_err(|_| ToolError::internal(format!("bad route {}", self.path)))?;
        {
            let mut segs = url
                .path_segments_mut()
                .map_err(|_| ToolError::internal("OMBI_URL cannot take path segments"))?;
            segs.pop_if_empty();
            for s in &self.segs {
                // `url` drops "." and ".." segments (and WHATWG treats %2E%2E as
                // "..") so they cannot be sent as data: refuse them.
                if s == "." || s == ".." {
                    return Err(ToolError::new(
                        ErrorCode::InvalidArgument,
                        format!("{s:?} cannot be used as a name or search term"),
                    ));
                }
                segs.push(s);
            }
        }
        if !self.query.is_empty() {
            let mut pairs = url.query_pairs_mut();
            for (k, v) in &self.query {
                pairs.append_pair(k, v);
            }
        }
        Ok(url)
    }
}

/// `POST api/v1/Request/movie/{…}`: method and fixed path only, so error
/// messages and logs never echo argument text.
impl Display for Route {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.method, self.path)?;
        for _ in &self.segs {
            f.write_str("/{…}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Route {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Route({self}, {:?})", self.kind)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_prefix_and_encodes_each_argument_as_one_segment() {
        let base = Url::parse("https://host/ombi/").unwrap();
        let u = Route::post_read("api/v2/Search/multi")
            .seg("a/b?c#d %e")
            .seg("日本")
            .url(&base)
            .unwrap();
        assert_eq!(
            u.as_str(),
            "https://host/ombi/api/v2/Search/multi/a%2Fb%3Fc%23d%20%25e/%E6%97%A5%E6%9C%AC"
        );
        let u = Route::get("api/v1/TheMovieDb/Keywords")
            .query("searchTerm", "a&b=c d")
            .url(&base)
            .unwrap();
        assert_eq!(
            u.as_str(),
            "https://host/ombi/api/v1/TheMovieDb/Keywords?searchTerm=a%26b%3Dc+d"
        );
        assert_eq!(
            Route::get("api/v1/Request/movie/info").seg(7).to_string(),
            "GET api/v1/Request/movie/info/{…}"
        );
    }

    #[test]
    fn dot_segments_are_refused_not_dropped() {
        let base = Url::parse("http://h/").unwrap();
        let e = Route::get("api/v1/Search/movie")
            .seg("..")
            .url(&base)
            .unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidArgument);
        let u = Route::get("api/v1/Search/movie")
            .seg("...")
            .url(&base)
            .unwrap();
        assert_eq!(u.path(), "/api/v1/Search/movie/...");
    }
}
