//! `completion/complete`: values for prompt arguments and resource template
//! variables while a person types. Titles come from Ombi's multi-search
//! through `read_search` (cached 60 s per acting user and text), request
//! ids from the acting user's own requests (the `ombi://requests/mine`
//! read), labels by prefix. An Ombi failure gives no values, never an error.

use std::collections::HashMap;
use std::sync::Arc;

use rmcp::model::{CompleteResult, CompletionInfo, Reference};
use serde_json::{Map, Value, json};

use crate::prompts;
use crate::resources::uri::{MEDIA_KINDS, REQUEST_KINDS};
use crate::resources::{self, ResourceUri};
use crate::tools::media::read_search;
use crate::tools::{self, CallCtx};

/// Values answered at most.
pub const MAX_VALUES: usize = 10;
/// Characters typed before a title is searched.
pub const MIN_TITLE_CHARS: usize = 2;
/// Why a completion was refused: an unknown prompt or template (-32602).
#[derive(Debug)]
pub struct UnknownRef(pub String);

impl From<UnknownRef> for rmcp::ErrorData {
    fn from(e: UnknownRef) -> rmcp::ErrorData {
        rmcp::ErrorData::invalid_params(e.0, None)
    }
}

/// The answer for `values` (all of them, or the first ten of more).
fn answer(mut values: Vec<String>) -> CompleteResult {
    let total = values.len();
    values.truncate(MAX_VALUES);
    let mut info = CompletionInfo::default();
    info.values = values;
    info.total = Some(total as u32);
    info.has_more = Some(total > MAX_VALUES);
    CompleteResult::new(info)
}

fn by_prefix(labels: &[&str], typed: &str) -> Vec<String> {
    labels
        .iter()
        .filter(|l| l.starts_with(typed))
        .map(|l| l.to_string())
        .collect()
}

pub async fn complete(
    ctx: &CallCtx,
    reference: &Reference,
    argument: &str,
    typed: &str,
    context: Option<&HashMap<String, String>>,
) -> Result<CompleteResult, UnknownRef> {
    let values = match reference {
        Reference::Prompt(p) => {
            let prompt = prompts::visible(tools::view::of_session(ctx).await)
                .find(|d| d.name == p.name)
                .ok_or_else(|| UnknownRef(format!("unknown prompt: {}", p.name)))?;
            match prompt.arg(argument) {
                Some(a) if a.name == "title" => {
                    let media = context.and_then(|c| c.get("media")).map(String::as_str);
                    titles(ctx, typed, media).await
                }
                Some(a) => a.values.map(|v| by_prefix(v, typed)).unwrap_or_default(),
                None => Vec::new(),
            }
        }
        Reference::Resource(r) => {
            // Completed only where the session sees the read tool it mirrors.
            if let Err(hidden) = resources::gate(tools::view::View::policy(&ctx.identity), &r.uri) {
                return Err(UnknownRef(hidden.message()));
            }
            match (r.uri.as_str(), argument) {
                ("ombi://request/{kind}/{id}", "kind") => by_prefix(REQUEST_KINDS, typed),
                ("ombi://request/{kind}/{id}", "id") => {
                    let kind = context.and_then(|c| c.get("kind")).map(String::as_str);
                    my_request_ids(ctx, kind, typed).await
                }
                ("ombi://media/{media}/{id}", "media") => by_prefix(MEDIA_KINDS, typed),
                ("ombi://request/{kind}/{id}" | "ombi://media/{media}/{id}", _)
                | ("ombi://issue/{id}" | "ombi://issue/{id}/comments", _) => Vec::new(),
                (other, _) => {
                    return Err(UnknownRef(format!("unknown resource template: {other}")));
                }
            }
        }
        _ => return Err(UnknownRef("unknown reference type".into())),
    };
    Ok(answer(values))
}

/// Distinct "Title (Year)" of Ombi's multi-search for `typed`; for `media`
/// movie or tv only titles of that kind (no artists); a show Ombi gives no
/// year for is "Title (TV series)", so it stays apart from a movie of the
/// same name.
async fn titles(ctx: &CallCtx, typed: &str, media: Option<&str>) -> Vec<String> {
    let cache = &ctx.upstream.caches.titles;
    let text = typed.trim();
    if text.chars().count() < MIN_TITLE_CHARS {
        return Vec::new();
    }
    let only = media.filter(|m| matches!(*m, "movie" | "tv"));
    let key = (
        ctx.identity.ombi_user.clone(),
        only.map(str::to_string),
        text.to_lowercase(),
    );
    if let Some(hit) = cache.get(&key) {
        return hit.to_vec();
    }
    let args: Map<String, Value> = match json!({"action": "multi", "query": text}) {
        Value::Object(m) => m,
        _ => Map::new(),
    };
    let envelope = tools::call(&read_search::TOOL, ctx, Some(&args)).await;
    if !envelope.ok() {
        // Not cached: the next keystroke asks again.
        return Vec::new();
    }
    let mut values: Vec<String> = Vec::new();
    for item in envelope.value["data"]["items"]
        .as_array()
        .into_iter()
        .flatten()
    {
        // People are not titles one requests; for a movie or a show only
        // that kind is.
        if item["media"] == "person" || only.is_some_and(|m| item["media"] != m) {
            continue;
        }
        let Some(title) = item["title"].as_str().filter(|t| !t.trim().is_empty()) else {
            continue;
        };
        // Ombi's multi-search already writes "Title (Year)" for dated titles.
        let shown = match item["year"].as_i64() {
            Some(y) if !title.ends_with(&format!("({y})")) => format!("{title} ({y})"),
            Some(_) => title.to_string(),
            None if item["media"] == "tv" => format!("{title} (TV series)"),
            None => title.to_string(),
        };
        if !values.contains(&shown) {
            values.push(shown);
        }
    }
    cache.put(key, Arc::from(values.as_slice()));
    values
}

/// The acting user's request ids of `kind` (any kind when not given) that
/// start with the typed digits, from the `ombi://requests/mine` read, kept
/// 60 s per acting user (that read is up to ~31 Ombi calls: once, not per
/// keystroke).
async fn my_request_ids(ctx: &CallCtx, kind: Option<&str>, typed: &str) -> Vec<String> {
    let cache = &ctx.upstream.caches.request_ids;
    let key = ctx.identity.ombi_user.clone();
    let mine = match cache.get(&key) {
        Some(hit) => hit,
        None => {
            let Ok(body) = resources::read(ctx, &ResourceUri::RequestsMine).await else {
                // Not cached: the next keystroke asks again.
                return Vec::new();
            };
            let targets: Arc<[(String, i64)]> = body["items"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|r| {
                    let kind = r["target"]["kind"].as_str()?.to_string();
                    Some((kind, r["target"]["id"].as_i64()?))
                })
                .collect();
            cache.put(key, targets.clone());
            targets
        }
    };
    let mut ids: Vec<String> = Vec::new();
    for (k, id) in mine.iter() {
        let id = id.to_string();
        if kind.is_none_or(|want| want == k) && id.starts_with(typed) && !ids.contains(&id) {
            ids.push(id);
        }
    }
    ids
}
