//! Ombi users → `user_page`, and the caller's notification preferences →
//! `reference_page`. Only ids, user names/aliases and language / country /
//! online state come out, and for moderators roles, user type and quotas:
//! the wire types below simply have no field for e-mails, passwords or
//! tokens, so serde skips them unread.

use serde::{Deserialize, Deserializer, Serialize};

use super::metrics::{Metric, Quota, Scope, quota};
use super::reference::Reference;

/// `UserViewModel`: `GET /api/v1/Identity`, `/Identity/Users`,
/// `/Identity/User/{id}`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WireUser {
    pub id: Option<String>,
    pub user_name: Option<String>,
    pub alias: Option<String>,
    pub language: Option<String>,
    pub streaming_country: Option<String>,
    /// Every role with whether the user holds it (`ClaimCheckboxes`).
    #[serde(default)]
    pub claims: Vec<WireClaim>,
    pub user_type: Option<i64>,
    /// Computed by Ombi only where the user has a limit of their own
    /// (`IdentityController.GetUserWithRoles`), else null.
    pub movie_request_quota: Option<Quota>,
    pub episode_request_quota: Option<Quota>,
    pub music_request_quota: Option<Quota>,
}

/// `ClaimCheckboxes`.
#[derive(Debug, Deserialize)]
pub struct WireClaim {
    pub value: Option<String>,
    #[serde(default)]
    pub enabled: bool,
}

/// Ombi's `UserType` (`User.cs`).
fn user_type_label(code: i64) -> Option<&'static str> {
    Some(match code {
        0 => "system",
        1 => "local",
        2 => "plex",
        3 | 4 => "emby",
        5 => "jellyfin",
        _ => return None,
    })
}

/// `$defs/user`. Who a user is (ids and names), whether they are online
/// (online users only) and, for moderators, roles, user type and quotas.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct UserRecord {
    pub id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alias: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub streaming_country: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub online: Option<bool>,
    /// Present (possibly empty) exactly when a moderator reads the user.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub roles: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user_type: Option<&'static str>,
    /// `$defs/metric` records, scope `selected_user`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub quotas: Vec<Metric>,
}

impl UserRecord {
    fn new(id: &str) -> UserRecord {
        UserRecord {
            id: id.to_string(),
            ..UserRecord::default()
        }
    }
}

/// A user as a moderator (PowerUser or Admin) sees them: [`user`] plus
/// `roles`, `user_type` and `quotas` (the `metric` records `read_request_stats
/// quota` uses, scope `selected_user`, present where Ombi computed them).
pub fn user_for_moderator(u: &WireUser) -> Option<UserRecord> {
    let mut v = user(u)?;
    let roles: Vec<String> = u
        .claims
        .iter()
        .filter(|c| c.enabled)
        .filter_map(|c| non_empty(&c.value))
        .take(100)
        .map(str::to_string)
        .collect();
    v.roles = Some(roles);
    v.user_type = u.user_type.and_then(user_type_label);
    v.quotas = [
        ("movie", &u.movie_request_quota),
        ("tv", &u.episode_request_quota),
        ("album", &u.music_request_quota),
    ]
    .into_iter()
    .filter_map(|(media, q)| Some(quota(media, q.as_ref()?, true, Scope::SelectedUser)))
    .flatten()
    .collect();
    Some(v)
}

/// `ConnectedUsersViewModel` (`GET /api/v2/Hub/Users`): one row per live
/// SignalR connection, so a user can appear more than once.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WireConnectedUser {
    pub user_id: Option<String>,
    pub display_name: Option<String>,
}

/// `UsersViewModel` of the media servers (`GET /api/v1/{Plex/friends,
/// Emby/users,Jellyfin/users}`): `{username, id}` (ids are the media
/// server's, not Ombi's).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WireServerUser {
    pub id: Option<String>,
    pub username: Option<String>,
}

/// `UserNotificationPreferences`. `value` is a delivery
/// token (chat id, user key, phone number): only whether one is set is kept.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WirePreference {
    pub agent: Option<i64>,
    #[serde(default, rename = "value", deserialize_with = "is_set")]
    pub configured: bool,
}

/// Reads a string and keeps only whether it is non-empty.
pub fn is_set<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    let v: Option<String> = Option::deserialize(d)?;
    Ok(v.is_some_and(|s| !s.trim().is_empty()))
}

/// `NotificationAgent`, labelled as `write_user_preferences`
/// names the agents.
pub const NOTIFICATION_AGENTS: &[(i64, &str)] = &[
    (0, "email"),
    (1, "discord"),
    (2, "pushbullet"),
    (3, "pushover"),
    (4, "telegram"),
    (5, "slack"),
    (6, "mattermost"),
    (7, "mobile"),
    (8, "gotify"),
    (9, "webhook"),
    (10, "whatsapp"),
    (11, "ntfy"),
];

pub fn agent_label(code: i64) -> Option<&'static str> {
    NOTIFICATION_AGENTS
        .iter()
        .find(|(c, _)| *c == code)
        .map(|(_, l)| *l)
}

fn non_empty(s: &Option<String>) -> Option<&str> {
    s.as_deref().map(str::trim).filter(|s| !s.is_empty())
}

/// One `$defs/user` from a `UserViewModel`; `None` without an id.
pub fn user(u: &WireUser) -> Option<UserRecord> {
    let text = |v: &Option<String>| non_empty(v).map(str::to_string);
    Some(UserRecord {
        user_name: text(&u.user_name),
        alias: text(&u.alias),
        language: text(&u.language),
        streaming_country: text(&u.streaming_country),
        ..UserRecord::new(non_empty(&u.id)?)
    })
}

/// Connected users, one record per user, all `online: true`. Ombi's
/// `displayName` is the alias when one is set, else the user name
/// (docs/ombi-notes.md): the user name comes from `users` (the user list),
/// and the display name is an `alias` only when it differs from it. A user
/// missing from `users` keeps its id only.
pub fn online_users(rows: &[WireConnectedUser], users: &[WireUser]) -> Vec<UserRecord> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for r in rows {
        let Some(id) = non_empty(&r.user_id) else {
            continue;
        };
        if !seen.insert(id.to_string()) {
            continue;
        }
        let mut record = UserRecord::new(id);
        let name = users
            .iter()
            .find(|u| non_empty(&u.id) == Some(id))
            .and_then(|u| non_empty(&u.user_name));
        if let Some(name) = name {
            record.user_name = Some(name.to_string());
            record.alias = non_empty(&r.display_name)
                .filter(|d| *d != name)
                .map(str::to_string);
        }
        record.online = Some(true);
        out.push(record);
    }
    out
}

/// Media-server accounts as `$defs/user` (id and user name only).
pub fn server_users(rows: &[WireServerUser]) -> Vec<UserRecord> {
    let mut seen = std::collections::HashSet::new();
    rows.iter()
        .filter_map(|r| {
            let id = non_empty(&r.id)?;
            if !seen.insert(id.to_string()) {
                return None;
            }
            Some(UserRecord {
                user_name: non_empty(&r.username).map(str::to_string),
                ..UserRecord::new(id)
            })
        })
        .collect()
}

/// The caller's configured notification agents as references: `id` the
/// code as text, `name` the label, `value` the code, `category`
/// `configured`. Ombi synthesizes an empty row (`value: null`) for every
/// agent the caller never set up and never stores `enabled`, so "a delivery
/// value is set" is what enabled means here (docs/contract.md: "exposes enabled
/// agent labels/codes"); the empty rows are not listed. Never the value
/// itself. Unknown codes keep the code as name, with a warning.
pub fn notification_agents(rows: &[WirePreference], warnings: &mut Vec<String>) -> Vec<Reference> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for r in rows.iter().filter(|r| r.configured) {
        let Some(code) = r.agent else { continue };
        if !seen.insert(code) {
            continue;
        }
        let name = match agent_label(code) {
            Some(l) => l.to_string(),
            None => {
                warnings.push(format!("notification agent code {code} has no known label"));
                code.to_string()
            }
        };
        out.push(Reference {
            id: Some(code.to_string()),
            name,
            value: code.into(),
            category: Some("configured".into()),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::family_schema::assert_family;
    use super::super::paging::{Paging, page_object};
    use super::*;
    use crate::contract::Family;
    use serde_json::{Value, json};

    fn as_json<T: Serialize>(v: T) -> Value {
        serde_json::to_value(v).unwrap()
    }

    /// A real `UserViewModel` with everything that must never come out.
    fn wire_user() -> Value {
        json!({
            "id": "9f3a2b1c-0000-4000-8000-000000000001", "userName": "carol", "alias": "Caz",
            "claims": [{"value": "Admin", "enabled": true}],
            "emailAddress": "carol@example.org", "password": null, "lastLoggedIn": null,
            "language": "fr", "hasLoggedIn": true, "userType": 1,
            "movieRequestLimit": 0, "episodeRequestLimit": 0, "musicRequestLimit": 0,
            "movieRequestLimitType": 1, "musicRequestLimitType": 1, "episodeRequestLimitType": 1,
            "streamingCountry": "FR", "episodeRequestQuota": null, "movieRequestQuota": null,
            "musicRequestQuota": null, "userAccessToken": "tok-SECRET-123",
            "userQualityProfiles": {"id": 0, "userId": "x", "radarrRootPath": 0}
        })
    }

    #[test]
    fn user_keeps_ids_names_language_country_only() {
        let u: WireUser = serde_json::from_value(wire_user()).unwrap();
        let out = as_json(user(&u).unwrap());
        assert_eq!(
            out,
            json!({"id": "9f3a2b1c-0000-4000-8000-000000000001", "user_name": "carol", "alias": "Caz",
                   "language": "fr", "streaming_country": "FR"})
        );
        let text = out.to_string();
        for secret in ["carol@example.org", "tok-SECRET-123", "Admin", "claims"] {
            assert!(!text.contains(secret), "{secret} leaked");
        }
    }

    #[test]
    fn null_alias_and_language_stay_absent() {
        let mut w = wire_user();
        w["alias"] = Value::Null;
        w["language"] = json!("");
        let out = as_json(user(&serde_json::from_value(w).unwrap()).unwrap());
        assert!(out.get("alias").is_none() && out.get("language").is_none());
    }

    #[test]
    fn user_without_id_is_skipped() {
        let u: WireUser = serde_json::from_value(json!({"userName": "x", "id": null})).unwrap();
        assert!(user(&u).is_none());
    }

    #[test]
    fn connected_users_are_deduplicated_and_online() {
        let rows: Vec<WireConnectedUser> = serde_json::from_value(json!([
            {"userId": "a", "displayName": "alice", "userType": 1},
            {"userId": "a", "displayName": "alice", "userType": 1},
            {"userId": "b", "displayName": null, "userType": 2},
            {"userId": "c", "displayName": "Caz", "userType": 1},
            {"userId": "d", "displayName": "Dee", "userType": 1}
        ]))
        .unwrap();
        let users: Vec<WireUser> = serde_json::from_value(json!([
            {"id": "a", "userName": "alice"}, {"id": "b", "userName": "bob"},
            {"id": "c", "userName": "carol", "alias": "Caz"}
        ]))
        .unwrap();
        assert_eq!(
            as_json(online_users(&rows, &users)),
            json!([
                json!({"id": "a", "user_name": "alice", "online": true}),
                json!({"id": "b", "user_name": "bob", "online": true}),
                json!({"id": "c", "user_name": "carol", "alias": "Caz", "online": true}),
                // not in the user list: the display name may be either
                json!({"id": "d", "online": true})
            ])
        );
    }

    #[test]
    fn notification_agents_never_carry_the_delivery_value() {
        let rows: Vec<WirePreference> = serde_json::from_value(json!([
            {"id": 3, "userId": "u", "agent": 4, "enabled": false, "value": "123456789-chat"},
            {"id": 0, "userId": "u", "agent": 3, "enabled": false, "value": null},
            {"id": 0, "userId": "u", "agent": 42, "enabled": false, "value": "user-key-XYZ"}
        ]))
        .unwrap();
        let mut warnings = Vec::new();
        let out = as_json(notification_agents(&rows, &mut warnings));
        assert_eq!(
            out[0],
            json!({"id": "4", "name": "telegram", "value": 4, "category": "configured"})
        );
        // the synthesized empty row (no value) is not a configured agent
        assert_eq!(out.as_array().map(Vec::len), Some(2));
        assert_eq!(out[1]["name"], "42");
        assert_eq!(warnings.len(), 1);
        let text = serde_json::to_string(&out).unwrap();
        assert!(!text.contains("123456789-chat") && !text.contains("user-key-XYZ"));
    }

    /// Every user record a tool pages (own, moderator's with roles and
    /// quotas, online, media-server account) fits `user_page`; the
    /// notification agents fit `reference_page`.
    #[test]
    fn user_records_fit_the_families() {
        let mut moderated = wire_user();
        moderated["movieRequestQuota"] = json!({"hasLimit": true, "limit": 10, "remaining": 4, "nextRequest": "2026-04-09T00:00:00Z"});
        let u: WireUser = serde_json::from_value(moderated).unwrap();
        let moderator_view = as_json(user_for_moderator(&u).unwrap());
        assert_eq!(moderator_view["roles"], json!(["Admin"]));
        assert_eq!(moderator_view["user_type"], "local");
        assert!(!moderator_view["quotas"].as_array().unwrap().is_empty());
        let online: Vec<WireConnectedUser> = serde_json::from_value(
            json!([{"userId": "9f3a2b1c-0000-4000-8000-000000000001", "displayName": "Caz"}]),
        )
        .unwrap();
        let server: Vec<WireServerUser> = serde_json::from_value(
            json!([{"id": "plex-42", "username": "dave"}, {"id": "plex-42"}]),
        )
        .unwrap();
        let mut items = vec![as_json(user(&u).unwrap()), moderator_view];
        items.extend(
            online_users(&online, std::slice::from_ref(&u))
                .into_iter()
                .map(as_json),
        );
        items.extend(server_users(&server).into_iter().map(as_json));
        assert_eq!(
            items[2],
            json!({"id": "9f3a2b1c-0000-4000-8000-000000000001", "user_name": "carol", "alias": "Caz", "online": true})
        );
        assert_eq!(items[3], json!({"id": "plex-42", "user_name": "dave"}));
        let n = items.len();
        assert_family(
            "user_page",
            &page_object(Family::UserPage, items, &Paging::single(n, "users")),
        );
        let prefs: Vec<WirePreference> = serde_json::from_value(
            json!([{"agent": 1, "value": "hook-id"}, {"agent": 99, "value": "x"}]),
        )
        .unwrap();
        let agents = notification_agents(&prefs, &mut Vec::new());
        assert_family(
            "reference_page",
            &page_object(
                Family::ReferencePage,
                agents,
                &Paging::single(2, "references"),
            ),
        );
    }
}
