//! The media tools (`src/tools/media/`): search, discovery, details, the library and the reference
//! lists. The helpers here are shared by several of them.

mod read_discover;
mod read_library;
mod read_media;
mod read_reference;
mod read_search;

use serde_json::Value;

use crate::support::rig::Rig;

fn pair(ns: &str, v: &str) -> (String, String) {
    (ns.into(), v.into())
}

fn ids(item: &Value) -> Vec<(String, String)> {
    item["identifiers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["namespace"].as_str().unwrap().to_string(),
                i["value"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// The items of the envelope's data, whether the call succeeded or not (`support::rig::items`
/// wants success).
fn data_items(env: &Value) -> &Vec<Value> {
    env["data"]["items"].as_array().expect("items")
}

/// Whether Ombi reports Lidarr enabled (`GET /api/v1/Lidarr/enabled`).
fn set_lidarr(rig: &Rig, enabled: bool) {
    rig.fake.with_data(|d| d.requests.lidarr_enabled = enabled);
}
