//! Radarr / Sonarr / Lidarr options and Plex servers / libraries →
//! `reference_page` records (`category` says which list a record is from).
//! Only ids, names and labels: never URLs, API keys or tokens.

use serde::Deserialize;
use serde_json::Value;

use super::reference::Reference;
use super::wire::positive_id;
use crate::text::message::sanitize;

/// A quality / language / metadata profile: `{id, name}` (Radarr v3
/// profiles are passed through by Ombi; only these two fields are read).
#[derive(Debug, Deserialize)]
pub struct WireProfile {
    pub id: Option<i64>,
    pub name: Option<String>,
}

/// A root folder `{id, path, freespace}`.
#[derive(Debug, Deserialize)]
pub struct WireRootFolder {
    pub id: Option<i64>,
    pub path: Option<String>,
}

/// A tag `{id, label}`.
#[derive(Debug, Deserialize)]
pub struct WireTag {
    pub id: Option<i64>,
    pub label: Option<String>,
}

/// `GET /api/v1/Plex/servers`: `{success, servers: [{serverName, serverId, machineId}]}`
/// built from the saved Plex settings.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WirePlexServers {
    pub success: Option<bool>,
    #[serde(default)]
    pub servers: Option<Vec<WirePlexServer>>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WirePlexServer {
    pub server_name: Option<String>,
    pub machine_id: Option<String>,
}

/// `PlexLibrariesLiteResponse` (`GET /api/v1/Plex/Libraries/{machineId}`):
/// `{successful, message, data: [{id, key, type, title}]}`.
#[derive(Debug, Deserialize)]
pub struct WirePlexLibraries {
    pub successful: Option<bool>,
    pub message: Option<String>,
    pub data: Option<Vec<WirePlexSection>>,
}

#[derive(Debug, Deserialize)]
pub struct WirePlexSection {
    pub key: Option<String>,
    #[serde(rename = "type")]
    pub kind: Option<String>,
    pub title: Option<String>,
}

/// A `$defs/reference` keyed by `id`: `id` its text, `value` as typed.
fn reference(id: Value, name: String, category: &str) -> Reference {
    let id_text = match &id {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    Reference {
        id: Some(id_text),
        name,
        value: id,
        category: Some(category.to_string()),
    }
}

/// Profiles with a positive id; `category` e.g. `quality_profile`.
pub fn profiles(rows: &[WireProfile], category: &str) -> Vec<Reference> {
    rows.iter()
        .filter_map(|p| {
            let id = positive_id(p.id)?;
            let name = p
                .name
                .as_deref()
                .map(sanitize)
                .unwrap_or_else(|| id.to_string());
            Some(reference(id.into(), name, category))
        })
        .collect()
}

/// Root folders: the folder path is the name a moderator picks by.
pub fn root_folders(rows: &[WireRootFolder], category: &str) -> Vec<Reference> {
    rows.iter()
        .filter_map(|r| {
            let id = positive_id(r.id)?;
            let name = r
                .path
                .as_deref()
                .map(sanitize)
                .unwrap_or_else(|| id.to_string());
            Some(reference(id.into(), name, category))
        })
        .collect()
}

pub fn tags(rows: &[WireTag], category: &str) -> Vec<Reference> {
    rows.iter()
        .filter_map(|t| {
            let id = positive_id(t.id)?;
            let name = t
                .label
                .as_deref()
                .map(sanitize)
                .unwrap_or_else(|| id.to_string());
            Some(reference(id.into(), name, category))
        })
        .collect()
}

/// A version string as one reference (`sonarr_version`).
pub fn version(v: &str, category: &str) -> Option<Reference> {
    let v = sanitize(v);
    (!v.is_empty()).then(|| Reference {
        id: None,
        value: v.clone().into(),
        name: v,
        category: Some(category.to_string()),
    })
}

/// Saved Plex servers: `id`/`value` the machine id (what `plex_libraries` takes).
pub fn plex_servers(rows: &[WirePlexServer]) -> Vec<Reference> {
    rows.iter()
        .filter_map(|s| {
            let id = s.machine_id.as_deref().filter(|m| !m.is_empty())?;
            let name = s
                .server_name
                .as_deref()
                .map(sanitize)
                .unwrap_or_else(|| id.to_string());
            Some(reference(id.into(), name, "plex_server"))
        })
        .collect()
}

/// Plex library sections: `value` the section key, `category` its type
/// (`movie`, `show`, `artist`, ...).
pub fn plex_libraries(rows: &[WirePlexSection]) -> Vec<Reference> {
    rows.iter()
        .filter_map(|s| {
            let key = s.key.as_deref().filter(|k| !k.is_empty())?;
            let name = s
                .title
                .as_deref()
                .map(sanitize)
                .unwrap_or_else(|| key.to_string());
            let category = s
                .kind
                .as_deref()
                .filter(|k| !k.is_empty())
                .unwrap_or("library");
            Some(reference(
                key.into(),
                name,
                &format!("plex_library_{}", sanitize(category)),
            ))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::family_schema::assert_family;
    use super::super::paging::{Paging, page_object};
    use super::*;
    use crate::contract::Family;
    use serde_json::json;

    fn as_json(refs: Vec<Reference>) -> Value {
        serde_json::to_value(refs).unwrap()
    }

    #[test]
    fn radarr_v3_profiles_keep_id_and_name_only() {
        let rows: Vec<WireProfile> = serde_json::from_value(json!([
            {"id": 4, "name": "HD-1080p", "upgradeAllowed": true, "cutoff": 7, "items": [{"quality": {"id": 7}}]},
            {"id": 0, "name": "broken"}
        ]))
        .unwrap();
        assert_eq!(
            as_json(profiles(&rows, "quality_profile")),
            json!([{"id": "4", "name": "HD-1080p", "value": 4, "category": "quality_profile"}])
        );
    }

    #[test]
    fn root_folders_are_named_by_path() {
        let rows: Vec<WireRootFolder> =
            serde_json::from_value(json!([{"id": 1, "path": "/movies", "freespace": 123456789}]))
                .unwrap();
        assert_eq!(root_folders(&rows, "root_folder")[0].name, "/movies");
    }

    #[test]
    fn plex_servers_are_keyed_by_machine_id() {
        let s: WirePlexServers = serde_json::from_value(json!({
            "success": true, "servers": [{"serverName": "Living room", "serverId": 0, "machineId": "abc123"}]
        }))
        .unwrap();
        let out = as_json(plex_servers(s.servers.as_deref().unwrap()));
        assert_eq!(
            out,
            json!([
                {"id": "abc123", "name": "Living room", "value": "abc123", "category": "plex_server"}
            ])
        );
    }

    #[test]
    fn plex_sections_use_key_and_type() {
        let l: WirePlexLibraries = serde_json::from_value(json!({
            "successful": true, "message": null,
            "data": [{"id": null, "key": "1", "type": "movie", "title": "Movies"}, {"key": "", "title": "x"}]
        }))
        .unwrap();
        let out = as_json(plex_libraries(l.data.as_deref().unwrap()));
        assert_eq!(
            out,
            json!([
                {"id": "1", "name": "Movies", "value": "1", "category": "plex_library_movie"}
            ])
        );
    }

    /// Every integration list (profiles, folders, tags, versions, Plex
    /// servers and sections) fits `reference_page`.
    #[test]
    fn integration_references_fit_the_family() {
        let profiles_wire: Vec<WireProfile> =
            serde_json::from_value(json!([{"id": 4, "name": "HD-1080p"}, {"id": 6, "name": null}]))
                .unwrap();
        let folders: Vec<WireRootFolder> =
            serde_json::from_value(json!([{"id": 1, "path": "/tv", "freespace": 1}])).unwrap();
        let tag_rows: Vec<WireTag> =
            serde_json::from_value(json!([{"id": 2, "label": "kids"}])).unwrap();
        let servers: Vec<WirePlexServer> =
            serde_json::from_value(json!([{"serverName": "Den", "machineId": "m-1"}])).unwrap();
        let sections: Vec<WirePlexSection> =
            serde_json::from_value(json!([{"key": "2", "type": "show", "title": "TV"}])).unwrap();
        let mut items = profiles(&profiles_wire, "language_profile");
        items.extend(root_folders(&folders, "root_folder"));
        items.extend(tags(&tag_rows, "tag"));
        items.extend(version("4.0.15.2941", "sonarr_version"));
        items.extend(plex_servers(&servers));
        items.extend(plex_libraries(&sections));
        assert_eq!(items[1].name, "6", "an unnamed profile is named by its id");
        assert_eq!(
            serde_json::to_value(&items[4]).unwrap(),
            json!({"name": "4.0.15.2941", "value": "4.0.15.2941", "category": "sonarr_version"})
        );
        let n = items.len();
        assert_family(
            "reference_page",
            &page_object(
                Family::ReferencePage,
                items,
                &Paging::single(n, "references"),
            ),
        );
    }
}
