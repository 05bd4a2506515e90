//! Ombi settings sections → the `settings` family: an ALLOWLIST of
//! non-secret leaves per section, flattened to escaped JSON Pointers
//! (`/servers/0/name`; array indices are display paths only), the names of
//! everything withheld in `omitted_fields`, and a `revision` of the whole
//! section as read, which `write_settings_patch` compares before writing.
//!
//! Nothing is shown unless listed here: secrets (the fields Ombi keeps credentials in), and
//! destination URLs / hosts / delivery addresses (ip, port, subDir, baseUrl,
//! applicationUrl, serverHostname, webhook URLs, chat ids, topics, e-mail
//! addresses, phone numbers) are simply never listed.

use std::fmt::Write as _;
use std::sync::LazyLock;
use std::time::SystemTime;

use hmac::digest::Key;
use hmac::{Hmac, KeyInit, Mac};
use serde::Serialize;
use serde_json::Value;
use sha2::Sha256;

use crate::contract::Family;
use crate::contract::budget::shorten;
use crate::contract::canonical::canonical_json;

/// Values per result (`$defs/settings.values.maxItems`).
pub const MAX_VALUES: usize = 100;
/// Longest string value returned (custom CSS, notification templates).
pub const MAX_VALUE_CHARS: usize = 2000;
/// Serialized bytes of `values` per result, below the 64 KiB envelope budget.
pub const MAX_VALUES_BYTES: usize = 48 * 1024;

/// One section `read_settings` offers.
#[derive(Debug)]
pub struct Section {
    /// The catalogue's name (`user_management`, `notifications/email`).
    pub name: &'static str,
    /// Ombi's GET route (its POST counterpart writes it).
    pub path: &'static str,
    /// Allowed leaves: JSON Pointer patterns, `*` standing for any array index.
    pub allow: &'static [&'static [&'static str]],
}

const TEMPLATES: &[&str] = &[
    "/notificationTemplates/*/notificationType",
    "/notificationTemplates/*/subject",
    "/notificationTemplates/*/message",
    "/notificationTemplates/*/enabled",
];
const ENABLED: &[&str] = &["/enabled"];

macro_rules! section {
    ($name:literal, $path:literal, $($group:expr),+ $(,)?) => {
        Section { name: $name, path: $path, allow: &[$($group),+] }
    };
}

/// Leaves Ombi serves but computes from others, never stores
/// (`LandingPageSettings.cs`: `[NotMapped]` getters; docs/ombi-notes.md,
/// "Settings leaves"): shown, never patched.
const COMPUTED: &[(&str, &str)] = &[
    ("landing_page", "/noticeEnabled"),
    ("landing_page", "/expired"),
];

/// Every section, in the catalogue's order. `features` is the v2 feature
/// list, shown as `{name: <feature>, value: <bool>}`.
#[rustfmt::skip]
pub static SECTIONS: &[Section] = &[
    section!("ombi", "api/v1/Settings/ombi", &[
        "/collectAnalyticData", "/wizard", "/doNotSendNotificationsForAutoApprove", "/hideRequestsUsers",
        "/disableHealthChecks", "/defaultLanguageCode", "/autoDeleteAvailableRequests",
        "/autoDeleteAfterDays", "/branch", "/hasMigratedOldTvDbData",
    ]),
    section!("customization", "api/v1/Settings/customization", &[
        "/applicationName", "/customCss", "/enableCustomDonations", "/customDonationMessage",
        "/recentlyAddedPage", "/useCustomPage", "/hideAvailableFromDiscover",
        "/hideAvailableRecentlyRequested",
    ]),
    section!("authentication", "api/v1/Settings/authentication", &[
        "/allowNoPassword", "/requireDigit", "/requiredLength", "/requireLowercase",
        "/requireNonAlphanumeric", "/requireUppercase", "/enableOAuth", "/enableHeaderAuth",
        "/headerAuthCreateUser",
    ]),
    section!("user_management", "api/v1/Settings/UserManagement", &[
        "/importPlexAdmin", "/importPlexUsers", "/cleanupPlexUsers", "/importEmbyUsers",
        "/importJellyfinUsers", "/movieRequestLimit", "/movieRequestLimitType", "/episodeRequestLimit",
        "/episodeRequestLimitType", "/musicRequestLimit", "/musicRequestLimitType",
        "/defaultStreamingCountry", "/defaultRoles/*", "/bannedPlexUserIds/*", "/bannedEmbyUserIds/*",
        "/bannedJellyfinUserIds/*",
    ]),
    section!("issues", "api/v1/Settings/Issues", &[
        "/enabled", "/enableInProgress", "/deleteIssues", "/daysAfterResolvedToDelete",
    ]),
    section!("vote", "api/v1/Settings/vote", &[
        "/enabled", "/movieVoteMax", "/musicVoteMax", "/tvShowVoteMax",
    ]),
    section!("landing_page", "api/v1/Settings/landingpage", &[
        "/enabled", "/noticeEnabled", "/noticeText", "/timeLimit", "/startDateTime", "/endDateTime",
        "/expired",
    ]),
    section!("the_movie_db", "api/v1/Settings/themoviedb", &[
        "/showAdultMovies", "/excludedKeywordIds/*", "/excludedMovieGenreIds/*", "/excludedTvGenreIds/*",
        "/originalLanguages/*",
    ]),
    section!("jobs", "api/v1/Settings/jobs", &[
        "/embyContentSync", "/embyRecentlyAddedSync", "/jellyfinContentSync",
        "/sonarrSync", "/radarrSync", "/plexContentSync", "/plexRecentlyAddedSync", "/couchPotatoSync",
        "/automaticUpdater", "/userImporter", "/sickRageSync", "/newsletter", "/lidarrArtistSync",
        "/issuesPurge", "/retryRequests", "/mediaDatabaseRefresh", "/autoDeleteRequests",
        "/plexWatchlistImport",
    ]),
    section!("update", "api/v1/Settings/Update", &[
        "/autoUpdateEnabled", "/processName", "/useScript", "/windowsServiceName", "/windowsService",
        "/testMode", "/updateSchedule",
    ]),
    section!("plex", "api/v1/Settings/plex", &[
        "/enable", "/enableWatchlistImport", "/monitorAll", "/servers/*/name", "/servers/*/ssl",
        "/servers/*/machineIdentifier", "/servers/*/episodeBatchSize",
        "/servers/*/plexSelectedLibraries/*/key", "/servers/*/plexSelectedLibraries/*/title",
        "/servers/*/plexSelectedLibraries/*/enabled",
    ]),
    section!("emby", "api/v1/Settings/emby", &[
        "/enable", "/servers/*/name", "/servers/*/ssl", "/servers/*/serverId",
        "/servers/*/enableEpisodeSearching", "/servers/*/embySelectedLibraries/*/key",
        "/servers/*/embySelectedLibraries/*/title", "/servers/*/embySelectedLibraries/*/collectionType",
        "/servers/*/embySelectedLibraries/*/enabled",
    ]),
    section!("jellyfin", "api/v1/Settings/jellyfin", &[
        "/enable", "/servers/*/name", "/servers/*/ssl", "/servers/*/serverId",
        "/servers/*/enableEpisodeSearching", "/servers/*/jellyfinSelectedLibraries/*/key",
        "/servers/*/jellyfinSelectedLibraries/*/title",
        "/servers/*/jellyfinSelectedLibraries/*/collectionType",
        "/servers/*/jellyfinSelectedLibraries/*/enabled",
    ]),
    section!("sonarr", "api/v1/Settings/sonarr", &[
        "/enabled", "/ssl", "/qualityProfile", "/seasonFolders", "/rootPath", "/qualityProfileAnime",
        "/rootPathAnime", "/animeTag", "/tag", "/sendUserTags", "/addOnly", "/languageProfile",
        "/languageProfileAnime", "/scanForAvailability", "/prioritizeArrAvailability",
    ]),
    section!("radarr", "api/v1/Settings/radarr", &[
        "/radarr/enabled", "/radarr/ssl", "/radarr/defaultQualityProfile", "/radarr/defaultRootPath",
        "/radarr/addOnly", "/radarr/minimumAvailability", "/radarr/scanForAvailability",
        "/radarr/prioritizeArrAvailability", "/radarr/tag", "/radarr/sendUserTags", "/radarr4K/enabled",
        "/radarr4K/ssl", "/radarr4K/defaultQualityProfile", "/radarr4K/defaultRootPath",
        "/radarr4K/addOnly", "/radarr4K/minimumAvailability", "/radarr4K/scanForAvailability",
        "/radarr4K/prioritizeArrAvailability", "/radarr4K/tag", "/radarr4K/sendUserTags",
    ]),
    section!("lidarr", "api/v1/Settings/lidarr", &[
        "/enabled", "/ssl", "/defaultQualityProfile", "/defaultRootPath", "/albumFolder",
        "/metadataProfileId", "/addOnly",
    ]),
    section!("notifications/email", "api/v1/Settings/notifications/email", TEMPLATES, &[
        "/enabled", "/senderName", "/authentication", "/disableTLS", "/disableCertificateChecking",
    ]),
    section!("notifications/discord", "api/v1/Settings/notifications/discord", TEMPLATES, &[
        "/enabled", "/username", "/hideUser",
    ]),
    section!("notifications/telegram", "api/v1/Settings/notifications/telegram", TEMPLATES, &[
        "/enabled", "/parseMode",
    ]),
    section!("notifications/pushbullet", "api/v1/Settings/notifications/pushbullet", TEMPLATES, ENABLED),
    section!("notifications/pushover", "api/v1/Settings/notifications/pushover", TEMPLATES, &[
        "/enabled", "/priority", "/sound",
    ]),
    section!("notifications/slack", "api/v1/Settings/notifications/slack", TEMPLATES, &[
        "/enabled", "/channel", "/username", "/iconEmoji",
    ]),
    section!("notifications/mattermost", "api/v1/Settings/notifications/mattermost", TEMPLATES, &[
        "/enabled", "/channel", "/username",
    ]),
    section!("notifications/twilio", "api/v1/Settings/notifications/twilio", &[
        "/whatsAppSettings/enabled", "/whatsAppSettings/notificationTemplates/*/notificationType",
        "/whatsAppSettings/notificationTemplates/*/subject",
        "/whatsAppSettings/notificationTemplates/*/message",
        "/whatsAppSettings/notificationTemplates/*/enabled",
    ]),
    section!("notifications/mobile", "api/v1/Settings/notifications/mobile", TEMPLATES),
    section!("notifications/gotify", "api/v1/Settings/notifications/gotify", TEMPLATES, &["/enabled", "/priority"]),
    section!("notifications/ntfy", "api/v1/Settings/notifications/ntfy", TEMPLATES, &["/enabled", "/priority"]),
    section!("notifications/webhook", "api/v1/Settings/notifications/webhook", ENABLED),
    section!("notifications/newsletter", "api/v1/Settings/notifications/newsletter", &[
        "/enabled", "/disableTv", "/disableMovies", "/disableMusic", "/notificationTemplate/subject",
        "/notificationTemplate/message", "/notificationTemplate/enabled",
    ]),
    section!("features", "api/v2/Features", &[]),
];

/// The section named `name` (as the catalogue spells it).
pub fn section(name: &str) -> Option<&'static Section> {
    SECTIONS.iter().find(|s| s.name == name)
}

/// One JSON Pointer token, escaped (`~` → `~0`, `/` → `~1`).
pub fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

impl Section {
    pub fn is_features(&self) -> bool {
        self.name == "features"
    }

    /// Whether the leaf at `pointer` may be patched: shown, and stored by
    /// Ombi (not computed from other leaves).
    pub fn writable(&self, pointer: &str) -> bool {
        self.allows(pointer)
            && !COMPUTED
                .iter()
                .any(|(section, p)| *section == self.name && *p == pointer)
    }

    /// Whether the leaf at `pointer` may be shown: its tokens match an
    /// allowed pattern, `*` matching an array index.
    pub fn allows(&self, pointer: &str) -> bool {
        let tokens: Vec<&str> = pointer.split('/').collect();
        self.allow.iter().flat_map(|g| g.iter()).any(|pattern| {
            let p: Vec<&str> = pattern.split('/').collect();
            p.len() == tokens.len()
                && p.iter().zip(&tokens).all(|(p, t)| {
                    *p == *t
                        || (*p == "*" && !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
                })
        })
    }
}

/// One shown leaf (`$defs/change`): its escaped JSON Pointer (a feature's
/// name in `features`), and its value as Ombi stores it, a scalar.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Setting {
    pub name: String,
    pub value: Value,
}

/// `$defs/settings`: the shown leaves, the patterns of the withheld ones,
/// and the section's `revision` when a patch can be offered.
#[derive(Debug, Clone, PartialEq, Serialize)]
struct SettingsSection {
    kind: &'static str,
    section: &'static str,
    values: Vec<Setting>,
    omitted_fields: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    revision: Option<String>,
}

/// A section's projection.
#[derive(Debug, Clone, PartialEq)]
pub struct Projected {
    /// The `settings` family object.
    pub data: Value,
    pub warnings: Vec<String>,
    pub truncated: bool,
}

/// The `settings` object for `section` as read (`raw`: the whole body, or
/// `Null` for a 204).
/// Ombi's landing-page `expired` is inverted (`LandingPageSettings.cs`:
/// `Expired => EndDateTime > DateTime.Now`, true while the notice runs):
/// the truth from the end date instead, null when it cannot be read. Ombi
/// writes it in its own local time (no zone): read as UTC, so it can be off
/// by the server's offset.
fn landing_notice_expired(raw: &Value, now: SystemTime) -> Value {
    let end = raw["endDateTime"].as_str().and_then(|d| {
        crate::text::time::parse_utc(d).or_else(|| crate::text::time::parse_utc(&format!("{d}Z")))
    });
    end.map_or(Value::Null, |end| Value::Bool(end <= now))
}

pub fn project(section: &Section, raw: &Value) -> Projected {
    let mut values = Vec::new();
    let mut omitted: Vec<String> = Vec::new();
    let mut warnings = Vec::new();
    let mut shortened = 0;
    let mut bytes = 0;
    let mut left_out = 0;
    if section.is_features() {
        features(raw, &mut values);
    } else {
        let mut leaves = Vec::new();
        leaves_of(raw, String::new(), String::new(), &mut leaves);
        for (pointer, pattern, value) in leaves {
            if !section.allows(&pointer) {
                if !omitted.contains(&pattern) {
                    omitted.push(pattern);
                }
                continue;
            }
            let value = match value {
                _ if section.name == "landing_page" && pointer == "/expired" => {
                    landing_notice_expired(raw, SystemTime::now())
                }
                Value::String(s) => match shorten(s, MAX_VALUE_CHARS) {
                    Some(short) => {
                        shortened += 1;
                        Value::String(short)
                    }
                    None => Value::String(s.clone()),
                },
                other => other.clone(),
            };
            let entry = Setting {
                name: pointer,
                value,
            };
            let size = serde_json::to_string(&entry).map_or(0, |e| e.len()) + 1;
            if bytes + size > MAX_VALUES_BYTES {
                left_out += 1;
                continue;
            }
            bytes += size;
            values.push(entry);
        }
    }
    if raw.is_null() {
        warnings.push(format!(
            "Ombi returned no settings for section {} (HTTP 204): no revision, as there is nothing a patch could merge into",
            section.name
        ));
    }
    if shortened > 0 {
        warnings.push(format!(
            "{shortened} long text values were shortened to {MAX_VALUE_CHARS} characters (ending in …)"
        ));
    }
    if left_out > 0 {
        warnings.push(format!(
            "{left_out} settings were left out to fit the result size"
        ));
    }
    let mut truncated = shortened > 0 || left_out > 0;
    if values.len() > MAX_VALUES {
        warnings.push(format!(
            "only the first {MAX_VALUES} of {} settings are shown",
            values.len()
        ));
        values.truncate(MAX_VALUES);
        truncated = true;
    }
    if omitted.len() > MAX_VALUES {
        warnings.push(format!(
            "only the first {MAX_VALUES} of {} omitted field names are listed",
            omitted.len()
        ));
        omitted.truncate(MAX_VALUES);
        truncated = true;
    }
    let data = SettingsSection {
        kind: Family::Settings.def_name(),
        section: section.name,
        values,
        omitted_fields: omitted,
        // docs/contract.md: `revision` only when a safe patch can be offered;
        // a section Ombi has no object for offers nothing to read-modify-write.
        revision: (!raw.is_null()).then(|| revision(raw)),
    };
    Projected {
        data: serde_json::to_value(data).unwrap_or(Value::Null),
        warnings,
        truncated,
    }
}

/// `[{name, enabled}]` → `{name: <feature>, value: <bool>}`.
fn features(raw: &Value, values: &mut Vec<Setting>) {
    for f in raw.as_array().into_iter().flatten() {
        if let (Some(name), Some(enabled)) = (
            f.get("name").and_then(Value::as_str),
            f.get("enabled").and_then(Value::as_bool),
        ) {
            values.push(Setting {
                name: name.to_string(),
                value: enabled.into(),
            });
        }
    }
}

/// Every scalar leaf: (pointer with indices, pattern with `*`, value).
fn leaves_of<'a>(
    v: &'a Value,
    pointer: String,
    pattern: String,
    out: &mut Vec<(String, String, &'a Value)>,
) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                let t = escape(k);
                leaves_of(x, format!("{pointer}/{t}"), format!("{pattern}/{t}"), out);
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                leaves_of(x, format!("{pointer}/{i}"), format!("{pattern}/*"), out);
            }
        }
        _ if pointer.is_empty() => {}
        leaf => out.push((pointer, pattern, leaf)),
    }
}

/// Per-process key of the revision digest: a revision is a keyed digest so
/// that it says nothing about the secrets it covers (no offline guessing of
/// a password from its digest). A daemon restart makes older revisions
/// stale, which `write_settings_patch` reports as a conflict: read again.
/// A full HMAC block of random bytes (the key HMAC uses as is).
static REVISION_KEY: LazyLock<Key<Hmac<Sha256>>> = LazyLock::new(|| {
    let mut key = Key::<Hmac<Sha256>>::default();
    for part in key.chunks_mut(16) {
        part.copy_from_slice(uuid::Uuid::new_v4().as_bytes());
    }
    key
});

/// The `revision` of a section as read: HMAC-SHA-256 over its canonical
/// JSON (object keys sorted), hex. Any change anywhere in the section,
/// secrets included, changes it; key order does not.
pub fn revision(raw: &Value) -> String {
    let canonical = canonical_json(raw);
    let mut mac = <Hmac<Sha256> as KeyInit>::new(&REVISION_KEY);
    mac.update(canonical.as_bytes());
    let digest = mac.finalize().into_bytes();
    let mut hex = String::with_capacity(64);
    for b in digest.iter() {
        let _ = write!(hex, "{b:02x}");
    }
    hex
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::family_schema::assert_family;
    use super::*;

    fn names(p: &Projected) -> Vec<String> {
        p.data["values"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v["name"].as_str().unwrap().to_string())
            .collect()
    }

    #[test]
    fn every_catalogue_section_has_a_route() {
        for name in crate::definition::params::SETTINGS_SECTIONS {
            assert!(section(name).is_some(), "{name} has no route");
        }
        assert_eq!(
            SECTIONS.len(),
            crate::definition::params::SETTINGS_SECTIONS.len()
        );
    }

    #[test]
    fn plex_tokens_and_hosts_never_come_out() {
        let raw = json!({
            "enable": true, "enableWatchlistImport": false, "monitorAll": false,
            "installId": "0c7f3c7e-1111-4222-8333-444455556666", "id": 3,
            "servers": [{
                "id": 1, "name": "Living room", "ssl": true, "subDir": "/plex", "ip": "10.1.2.3", "port": 32400,
                "plexAuthToken": "PLEX-TOKEN-SECRET", "machineIdentifier": "abc123", "episodeBatchSize": 150,
                "serverHostname": "https://plex.example.org",
                "plexSelectedLibraries": [{"key": 1, "title": "Movies", "enabled": true}]
            }]
        });
        let p = project(section("plex").unwrap(), &raw);
        let text = p.data.to_string();
        for leak in [
            "PLEX-TOKEN-SECRET",
            "10.1.2.3",
            "32400",
            "/plex\"",
            "plex.example.org",
            "0c7f3c7e",
        ] {
            assert!(!text.contains(leak), "{leak} leaked: {text}");
        }
        assert!(names(&p).contains(&"/servers/0/plexSelectedLibraries/0/title".to_string()));
        assert!(names(&p).contains(&"/servers/0/name".to_string()));
        let omitted = p.data["omitted_fields"].as_array().unwrap();
        assert!(omitted.contains(&json!("/servers/*/plexAuthToken")));
        assert!(omitted.contains(&json!("/servers/*/ip")));
        assert_eq!(
            p.data["values"][0],
            json!({"name": "/enable", "value": true})
        );
        assert_eq!(p.data["revision"].as_str().map(str::len), Some(64));
        assert_family("settings", &p.data);
    }

    #[test]
    fn keys_with_slashes_are_escaped() {
        assert_eq!(escape("a/b~c"), "a~1b~0c");
        let s = Section {
            name: "t",
            path: "x",
            allow: &[&["/a~1b"]],
        };
        let p = project(&s, &json!({"a/b": 1, "c": 2}));
        assert_eq!(p.data["values"], json!([{"name": "/a~1b", "value": 1}]));
        assert_eq!(p.data["omitted_fields"], json!(["/c"]));
    }

    #[test]
    fn revision_follows_content_not_key_order() {
        let a = json!({"enabled": true, "apiKey": "k1", "port": 7878});
        let b = json!({"port": 7878, "apiKey": "k1", "enabled": true});
        let c = json!({"enabled": true, "apiKey": "k2", "port": 7878});
        assert_eq!(revision(&a), revision(&b));
        assert_ne!(revision(&a), revision(&c));
        assert_eq!(revision(&a).len(), 64);
    }

    #[test]
    fn features_are_named_booleans() {
        let p = project(
            section("features").unwrap(),
            &json!([{"name": "Movie4KRequests", "enabled": true}, {"name": "PlayedSync", "enabled": false}]),
        );
        assert_eq!(
            p.data["values"],
            json!([{"name": "Movie4KRequests", "value": true}, {"name": "PlayedSync", "value": false}])
        );
        assert_family("settings", &p.data);
        let none = project(section("vote").unwrap(), &Value::Null);
        assert_eq!(
            none.data,
            json!({"kind": "settings", "section": "vote", "values": [], "omitted_fields": []})
        );
        assert_family("settings", &none.data);
    }

    #[test]
    fn long_text_is_shortened_and_flagged() {
        let raw = json!({"applicationName": "Ombi", "customCss": "a".repeat(5000)});
        let p = project(section("customization").unwrap(), &raw);
        assert!(p.truncated);
        let css = p.data["values"][1]["value"].as_str().unwrap();
        assert_eq!(css.chars().count(), MAX_VALUE_CHARS + 1);
    }

    #[test]
    fn many_long_values_stay_within_the_byte_budget() {
        let templates: Vec<Value> = (0..60)
            .map(|i| json!({"id": i, "notificationType": i, "agent": 0, "subject": "s", "message": "m".repeat(1500), "enabled": true}))
            .collect();
        let p = project(
            section("notifications/email").unwrap(),
            &json!({"enabled": true, "notificationTemplates": templates}),
        );
        assert!(p.truncated);
        assert!(p.data.to_string().len() < 60 * 1024);
        assert!(p.warnings.iter().any(|w| w.contains("left out")));
    }

    #[test]
    fn index_wildcard_matches_digits_only() {
        let s = section("user_management").unwrap();
        assert!(s.allows("/defaultRoles/0"));
        assert!(!s.allows("/defaultRoles/x"));
        assert!(!s.allows("/defaultRoles"));
    }
}
