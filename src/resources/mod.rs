//! The `ombi://` resources: what `resources/list` and
//! `resources/templates/list` show, and `resources/read`. A resource is a
//! read tool's answer by another door: reading one runs that tool through
//! [`tools::call`] (same validation, projection, budget, log) and takes the
//! envelope's `data` — the page, or its one record for a single thing.
//! Live updates of watched resources are in [`watch`].

pub mod uri;
pub mod watch;

use rmcp::model::{Resource, ResourceContents, ResourceTemplate};
use serde_json::{Map, Value, json};

use crate::definition::Link;
use crate::projection::mutation::Mutation;
use crate::tools::issues::read_issues;
use crate::tools::media::{read_media, read_reference};
use crate::tools::requests::read_requests;
use crate::tools::view::View;
use crate::tools::{self, CallCtx, Tool};
pub use uri::{BadUri, GenreMedia, MediaId, ResourceUri, Touched};

/// Every body is JSON text.
pub const MIME: &str = "application/json";

/// The static resources (`resources/list`): uri, title, description.
const LISTED: &[(&str, &str, &str)] = &[
    (
        "ombi://requests/mine",
        "My requests",
        "Your own movie, TV season and album requests, newest first (at most 100), with their approval and availability.",
    ),
    (
        "ombi://reference/issue-categories",
        "Issue categories",
        "The categories a problem report can be filed under.",
    ),
    (
        "ombi://reference/genres/movie",
        "Movie genres",
        "Movie genres with their ids.",
    ),
    (
        "ombi://reference/genres/tv",
        "TV genres",
        "TV genres with their ids.",
    ),
    (
        "ombi://reference/languages",
        "Languages",
        "The languages Ombi knows, with their codes.",
    ),
];

/// The templates (`resources/templates/list`): template, title, description.
const TEMPLATES: &[(&str, &str, &str)] = &[
    (
        "ombi://request/{kind}/{id}",
        "One request",
        "One media request by kind (movie, tv_parent, tv_child, album) and request id. Subscribe to hear when its state changes.",
    ),
    (
        "ombi://issue/{id}",
        "One issue",
        "One reported problem by issue id. Subscribe to hear when its state changes.",
    ),
    (
        "ombi://issue/{id}/comments",
        "Issue comments",
        "The comments on one issue.",
    ),
    (
        "ombi://media/{media}/{id}",
        "One title",
        "A movie or TV show by TMDB id, or an album by MusicBrainz id.",
    ),
];

/// The read tool a resource URI or template gives the data of: a session
/// lists, reads, subscribes to and completes the resource only when it sees
/// that tool (interaction.md §2).
pub fn read_tool_of(uri: &str) -> &'static str {
    if uri.starts_with("ombi://issue") {
        "read_issues"
    } else if uri.starts_with("ombi://media/") {
        "read_media"
    } else if uri.starts_with("ombi://reference/") {
        "read_reference"
    } else {
        "read_requests"
    }
}

/// `Err` (-32602 naming the tool and its bundle) when the session of `view`
/// cannot see the read tool `uri` mirrors.
pub fn gate(view: View, uri: &str) -> Result<(), ReadError> {
    let tool = read_tool_of(uri);
    if view.shows_tool(tool) {
        return Ok(());
    }
    Err(ReadError::BadUri(format!(
        "{uri} gives what {tool} reads, and {}",
        tools::unknown_tool(tool, view.bundles, view.read_only)
    )))
}

/// The resources a session of `view` lists: the static ones it may read,
/// then the apps' views ([`crate::views`]) of the tools it sees.
pub fn list(view: View) -> Vec<Resource> {
    LISTED
        .iter()
        .filter(|(uri, _, _)| gate(view, uri).is_ok())
        .map(|(uri, title, description)| {
            Resource::new(*uri, uri.trim_start_matches("ombi://"))
                .with_title(*title)
                .with_description(*description)
                .with_mime_type(MIME)
        })
        .chain(crate::views::listed().into_iter().filter(|r| {
            crate::views::find(&r.uri).is_some_and(|v| v.tools.iter().any(|t| view.shows_tool(t)))
        }))
        .collect()
}

/// The resource templates a session of `view` lists.
pub fn templates(view: View) -> Vec<ResourceTemplate> {
    TEMPLATES
        .iter()
        .filter(|(template, _, _)| gate(view, template).is_ok())
        .map(|(template, title, description)| {
            ResourceTemplate::new(*template, template.trim_start_matches("ombi://"))
                .with_title(*title)
                .with_description(*description)
                .with_mime_type(MIME)
        })
        .collect()
}

/// Why a resource could not be read, as `resources/read` answers it.
#[derive(Debug, Clone, PartialEq)]
pub enum ReadError {
    /// Not one of our URIs, or an invalid id: -32602.
    BadUri(String),
    /// Well-formed, but Ombi does not have it: -32002.
    NotFound(String),
    /// Anything else: -32603 with the contract's `error` object as `data`.
    Failed(Value),
}

impl ReadError {
    pub fn message(&self) -> String {
        match self {
            ReadError::BadUri(m) | ReadError::NotFound(m) => m.clone(),
            ReadError::Failed(e) => e["message"].as_str().unwrap_or("").to_string(),
        }
    }
}

impl From<BadUri> for ReadError {
    fn from(e: BadUri) -> ReadError {
        ReadError::BadUri(e.0)
    }
}

impl From<ReadError> for rmcp::ErrorData {
    fn from(e: ReadError) -> rmcp::ErrorData {
        match e {
            ReadError::BadUri(m) => rmcp::ErrorData::invalid_params(m, None),
            ReadError::NotFound(m) => {
                rmcp::ErrorData::resource_not_found(format!("Resource not found: {m}"), None)
            }
            ReadError::Failed(error) => {
                let message = error["message"].as_str().unwrap_or("").to_string();
                rmcp::ErrorData::internal_error(message, Some(error))
            }
        }
    }
}

/// What a resource's body is made of: the tool's page, or its one record.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Body {
    Page,
    One,
}

/// The read tool call a resource is.
fn call_of(uri: &ResourceUri) -> (&'static Tool, Value, Body) {
    use Body::{One, Page};
    let (tool, args, body) = match uri {
        ResourceUri::RequestsMine => (&read_requests::TOOL, json!({"action": "mine"}), Page),
        ResourceUri::IssueCategories => (
            &read_reference::TOOL,
            json!({"action": "issue_categories"}),
            Page,
        ),
        ResourceUri::Genres(media) => {
            let media = match media {
                GenreMedia::Movie => "movie",
                GenreMedia::Tv => "tv",
            };
            (
                &read_reference::TOOL,
                json!({"action": "genres", "media": media}),
                Page,
            )
        }
        ResourceUri::Languages => (&read_reference::TOOL, json!({"action": "languages"}), Page),
        ResourceUri::Request(kind, id) => (
            &read_requests::TOOL,
            json!({"action": "get", "target": {"kind": kind, "id": id}}),
            One,
        ),
        ResourceUri::Issue(id) => (
            &read_issues::TOOL,
            json!({"action": "get", "issue_id": id}),
            One,
        ),
        ResourceUri::IssueComments(id) => (
            &read_issues::TOOL,
            json!({"action": "comments", "issue_id": id}),
            Page,
        ),
        ResourceUri::Media(id) => {
            let args = match id {
                MediaId::Movie(id) => json!({"action": "details", "media": "movie", "tmdb_id": id}),
                MediaId::Tv(id) => json!({"action": "details", "media": "tv", "tmdb_id": id}),
                MediaId::Album(id) => {
                    json!({"action": "details", "media": "album", "musicbrainz_id": id})
                }
            };
            (&read_media::TOOL, args, One)
        }
    };
    (tool, args, body)
}

/// The body of `uri` as the acting user of `ctx` sees it: the JSON object
/// the matching read tool puts in `data` (its one record for a single thing).
pub async fn read(ctx: &CallCtx, uri: &ResourceUri) -> Result<Value, ReadError> {
    read_with_warnings(ctx, uri).await.map(|(body, _)| body)
}

/// [`read`], with the read tool's warnings (whose "mine" it is, what was
/// cut), which `resources/read` gives the client in the contents' `_meta`.
pub async fn read_with_warnings(
    ctx: &CallCtx,
    uri: &ResourceUri,
) -> Result<(Value, Vec<Value>), ReadError> {
    gate(View::policy(&ctx.identity), &uri.to_string())?;
    let (tool, args, body) = call_of(uri);
    let args: Map<String, Value> = match args {
        Value::Object(m) => m,
        _ => Map::new(),
    };
    let mut envelope = tools::call(tool, ctx, Some(&args)).await;
    if let Some(error) = envelope.value.remove("error") {
        return Err(match error["code"].as_str() {
            Some("NOT_FOUND") => {
                ReadError::NotFound(error["message"].as_str().unwrap_or("").to_string())
            }
            Some("INVALID_ARGUMENT") => {
                ReadError::BadUri(error["message"].as_str().unwrap_or("").to_string())
            }
            _ => ReadError::Failed(error),
        });
    }
    let mut data = envelope.value.remove("data").unwrap_or(Value::Null);
    let warnings = match envelope.value.remove("warnings") {
        Some(Value::Array(w)) => w,
        _ => Vec::new(),
    };
    let body = match body {
        Body::Page => data,
        Body::One => match data.get_mut("items").and_then(Value::as_array_mut) {
            Some(items) if !items.is_empty() => items.swap_remove(0),
            _ => return Err(ReadError::NotFound(format!("Ombi has no {uri}"))),
        },
    };
    Ok((body, warnings))
}

/// The resource a successful write's result (`mutation`) links to, after
/// its text block, as its action declares it (`#[action(links = …)]`): the
/// request or the issue it made, when Ombi told their id.
pub fn links(link: Option<Link>, mutation: Option<&Mutation>) -> Vec<Resource> {
    let uri = match (link, mutation) {
        (None, _) | (_, None) => None,
        (Some(Link::Request), Some(m)) => m
            .target
            .map(|t| (ResourceUri::Request(t.kind, t.id), "the new request")),
        (Some(Link::Issue), Some(m)) => m
            .issue_id
            .filter(|id| *id > 0)
            .map(|id| (ResourceUri::Issue(id), "the new issue")),
    };
    uri.map(|(uri, title)| {
        let uri = uri.to_string();
        Resource::new(uri.clone(), uri.trim_start_matches("ombi://").to_string())
            .with_title(title)
            .with_mime_type(MIME)
    })
    .into_iter()
    .collect()
}

/// `resources/read`'s contents for a body.
pub fn contents(uri: &ResourceUri, body: &Value) -> ResourceContents {
    contents_with(uri, body, Vec::new())
}

/// [`contents`] with the read's warnings in `_meta.warnings` (none: no `_meta`).
pub fn contents_with(uri: &ResourceUri, body: &Value, warnings: Vec<Value>) -> ResourceContents {
    let meta = (!warnings.is_empty()).then(|| {
        let mut m = Map::new();
        m.insert("warnings".into(), Value::Array(warnings));
        rmcp::model::MetaObject(m)
    });
    ResourceContents::TextResourceContents {
        uri: uri.to_string(),
        mime_type: Some(MIME.into()),
        text: body.to_string(),
        meta,
    }
}
