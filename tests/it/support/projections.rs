//! Every wire shape with its projection, run on one JSON value: reads the
//! value as each wire type Ombi's answer could be, projects what reads, and
//! checks the contract's invariants on the output (request ids ≥ 1,
//! identifier values trimmed, non-empty and not "0"). Shared by the property
//! test `tests/it/fuzz/projection.rs` and the `cargo fuzz` target
//! `fuzz/fuzz_targets/project_wire.rs`: add a projection here and both run it.
#![allow(dead_code)]

use ombi_mcp::projection::identifiers::Origin;
use ombi_mcp::projection::media::{self as media, Media, Notes};
use ombi_mcp::projection::{integration, issues, library, paging, requests, users, votes};
use serde::de::DeserializeOwned;
use serde_json::Value;

/// `v` as a `T`, when a JSON reader would take it.
fn read<T: DeserializeOwned>(v: &Value) -> Option<T> {
    serde_json::from_value(v.clone()).ok()
}

fn media_ok(items: Vec<Media>) -> Result<(), String> {
    for m in &items {
        for id in &m.identifiers {
            let value = id.value.as_str();
            if value.is_empty() || value.trim() != value || value == "0" {
                return Err(format!("identifier {id:?}"));
            }
        }
    }
    let page = media::media_page(paging::single(items, "media"));
    match page["kind"] == "media_page" {
        true => Ok(()),
        false => Err(format!("not a media_page: {page}")),
    }
}

fn request_ok(r: requests::Projected) -> Result<(), String> {
    match r {
        Ok(record) => {
            let json = record.to_json();
            match json["target"]["id"].as_i64() {
                Some(id) if id >= 1 => Ok(()),
                _ => Err(format!("request record without an id ≥ 1: {json}")),
            }
        }
        Err(_) => Ok(()),
    }
}

fn id_ok(record: Option<impl serde::Serialize>) -> Result<(), String> {
    let v = record.and_then(|r| serde_json::to_value(r).ok());
    match v.as_ref().and_then(|v| v.get("id")).and_then(Value::as_i64) {
        Some(id) if id < 1 => Err(format!("id {id} < 1: {}", v.unwrap_or_default())),
        _ => Ok(()),
    }
}

/// Projects `v` as every wire type it reads as; `Err` names a broken invariant.
pub fn project_any(v: &Value) -> Result<(), String> {
    let mut warnings = Vec::new();
    let mut notes = Notes::default();
    if let Some(w) = read(v) {
        request_ok(requests::movie(w))?;
    }
    if let Some(w) = read::<requests::WireChildRequest>(v) {
        request_ok(requests::child(w))?;
    }
    if let Some(w) = read::<requests::WireChildRequest<Option<Vec<requests::WireSeason>>>>(v) {
        request_ok(requests::child(w))?;
    }
    if let Some(w) = read(v) {
        request_ok(requests::album(w))?;
    }
    if let Some(w) = read::<requests::WireTvParent>(v) {
        request_ok(requests::parent(&w))?;
    }
    if let Some(w) = read(v) {
        let _ = requests::retry(w, &mut warnings);
    }
    if let Some(w) = read(v) {
        media_ok(vec![media::movie_item(w)])?;
    }
    if let Some(w) = read(v) {
        media_ok(media::movie_details(w, &mut notes))?;
    }
    for origin in [Origin::Tmdb, Origin::TvMaze] {
        if let Some(w) = read(v) {
            media_ok(vec![media::tv_item(w, origin)])?;
        }
        if let Some(w) = read(v) {
            media_ok(vec![media::tv_details(w, origin, &mut notes)])?;
        }
    }
    if let Some(w) = read(v) {
        media_ok(vec![media::multi_item(w, &mut warnings)])?;
    }
    if let Some(w) = read(v) {
        media_ok(media::recently_requested_item(w).into_iter().collect())?;
    }
    if let Some(w) = read(v) {
        media_ok(media::collection(w, 1))?;
    }
    if let Some(w) = read(v) {
        media_ok(media::credits("movie", w, 1, "someone"))?;
    }
    if let Some(w) = read(v) {
        media_ok(vec![media::ratings_item("movie", "t", 2000, w)])?;
    }
    if let Some(w) = read(v) {
        media_ok(vec![media::artist_item(w)])?;
    }
    if let Some(w) = read(v) {
        media_ok(vec![media::album_item(w)])?;
    }
    if let Some(w) = read(v) {
        media_ok(vec![media::release_group_item(w)])?;
    }
    if let Some(w) = read::<media::ArtistInfo>(v) {
        media_ok(vec![media::artist_details(&w)])?;
    }
    if let Some(w) = read(v) {
        media_ok(vec![library::recently_added_item("movie", w)])?;
    }
    if let Some(w) = read(v) {
        let _ = library::calendar_entry(w);
    }
    if let Some(w) = read(v) {
        id_ok(issues::issue(w, &mut warnings))?;
    }
    if let Some(w) = read(v) {
        id_ok(issues::comment(w, 1, &mut warnings))?;
    }
    if let Some(w) = read(v) {
        let _ = issues::group(w, &mut warnings);
    }
    if let Some(w) = read::<users::WireUser>(v) {
        let _ = users::user(&w);
    }
    if let Some(w) = read(v) {
        let _ = votes::open(w, &mut warnings);
    }
    if let Some(w) = read::<integration::WireProfile>(v) {
        let _ = integration::profiles(&[w], "radarr");
    }
    if let Some(w) = read::<integration::WireRootFolder>(v) {
        let _ = integration::root_folders(&[w], "radarr");
    }
    Ok(())
}
