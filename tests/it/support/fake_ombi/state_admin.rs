//! The administration data set of the fake Ombi: users, notification
//! preferences, server status, settings sections, *arr / Plex / Emby /
//! Jellyfin options and a log file, in the real wire shapes of
//! shared/ombi/shapes.md §1, §7, §8. Every secret, URL, host, e-mail address
//! and delivery token is PLANTED with a value containing [`LEAK`] (or a
//! port in [`LEAK_PORTS`]) so tests can prove none reaches a tool result.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::state::user_id;

/// Marker inside every planted secret / destination value.
pub const LEAK: &str = "zz-leak";
/// Planted port numbers (ports are numbers: checked by value).
pub const LEAK_PORTS: &[i64] = &[54321, 54322, 54323, 54324, 54325, 54326];

#[derive(Clone, Debug)]
pub struct AdminData {
    /// The Identity table as `UserViewModel` rows (`claims` = every role,
    /// `enabled` for the user's roles; limit types may be null as stored).
    pub users: Vec<Value>,
    /// Stored `UserNotificationPreferences` rows of every user.
    pub notification_preferences: Vec<Value>,
    /// `ConnectedUsersViewModel` rows.
    pub connected: Vec<Value>,
    pub wizard_completed: bool,
    pub landing: Value,
    pub update: Value,
    pub updater_check: bool,
    /// Settings by lower-cased route tail (`usermanagement`, `notifications/email`).
    pub settings: BTreeMap<String, Value>,
    pub radarr_enabled: bool,
    pub radarr_profiles: Vec<Value>,
    pub radarr_root_folders: Vec<Value>,
    pub radarr_tags: Vec<Value>,
    /// `None`: the 4K instance is disabled (204 on RootFolders/4k).
    pub radarr4k_root_folders: Option<Vec<Value>>,
    pub radarr4k_profiles: Vec<Value>,
    pub sonarr_enabled: bool,
    pub sonarr_profiles: Vec<Value>,
    pub sonarr_root_folders: Vec<Value>,
    pub sonarr_language_profiles: Vec<Value>,
    pub sonarr_tags: Vec<Value>,
    pub lidarr_profiles: Vec<Value>,
    pub lidarr_root_folders: Vec<Value>,
    /// `PlexServersAddUserModel` rows (`GET /api/v1/Plex/servers`).
    pub plex_servers: Vec<Value>,
    /// Library sections by machine id.
    pub plex_sections: BTreeMap<String, Vec<Value>>,
    pub plex_friends: Vec<Value>,
    pub emby_users: Vec<Value>,
    pub jellyfin_users: Vec<Value>,
}

/// A `UserViewModel` with PII planted; `claims` lists
/// every role, enabled for `roles` (as `GetUserWithRoles` does).
pub fn user_view_model(
    name: &str,
    alias: Option<&str>,
    language: Option<&str>,
    country: &str,
    roles: &[&str],
) -> Value {
    let roles: Vec<String> = roles.iter().map(|r| r.to_string()).collect();
    let mut v = super::state::user_view(name, &roles);
    v["alias"] = json!(alias);
    v["emailAddress"] = json!(format!("{name}.{LEAK}@example.org"));
    v["language"] = json!(language);
    v["streamingCountry"] = json!(country);
    v
}

fn templates(agent: i64) -> Value {
    json!([
        {"id": 1, "notificationType": 0, "agent": agent, "subject": "New request", "message": "{Title} was requested by {UserName}", "enabled": true},
        {"id": 2, "notificationType": 2, "agent": agent, "subject": "Available", "message": "{Title} is now available", "enabled": true}
    ])
}

fn leak(what: &str) -> String {
    format!("{LEAK}-{what}")
}

/// Every settings section with every secret and destination planted.
pub fn sample_settings() -> BTreeMap<String, Value> {
    let server = |name: &str, port: i64| json!({"id": 1, "name": name, "ssl": false, "subDir": leak("subdir"), "ip": leak("host.lan"), "port": port});
    let with = |base: Value, extra: Value| super::state::merge(base, extra);
    let mut s = BTreeMap::new();
    s.insert("ombi".into(), json!({
        "id": 1, "baseUrl": leak("/ombi"), "collectAnalyticData": false, "wizard": true, "apiKey": leak("ombi-api-key"),
        "doNotSendNotificationsForAutoApprove": false, "hideRequestsUsers": false, "disableHealthChecks": false,
        "defaultLanguageCode": "en", "autoDeleteAvailableRequests": false, "autoDeleteAfterDays": 0, "branch": 1,
        "hasMigratedOldTvDbData": true, "set": false
    }));
    s.insert("customization".into(), json!({
        "id": 2, "applicationName": "Family Ombi", "applicationUrl": leak("https://ombi.example.org"), "customCss": "",
        "enableCustomDonations": true, "customDonationUrl": leak("https://donate.example.org"),
        "customDonationMessage": "Buy us a coffee", "logo": leak("https://img.example.org/logo.png"),
        "recentlyAddedPage": true, "useCustomPage": false, "hideAvailableFromDiscover": false,
        "favicon": leak("https://img.example.org/fav.ico"), "hideAvailableRecentlyRequested": false
    }));
    s.insert("authentication".into(), json!({
        "id": 3, "allowNoPassword": false, "requireDigit": true, "requiredLength": 8, "requireLowercase": true,
        "requireNonAlphanumeric": false, "requireUppercase": true, "enableOAuth": false, "enableHeaderAuth": true,
        "headerAuthVariable": leak("X-Remote-User"), "headerAuthCreateUser": false
    }));
    s.insert("usermanagement".into(), json!({
        "id": 4, "importPlexAdmin": true, "importPlexUsers": true, "cleanupPlexUsers": false, "importEmbyUsers": false,
        "importJellyfinUsers": false, "movieRequestLimit": 5, "movieRequestLimitType": 1, "episodeRequestLimit": 0,
        "episodeRequestLimitType": 1, "musicRequestLimit": 0, "musicRequestLimitType": 1,
        "defaultStreamingCountry": "GB", "defaultRoles": ["RequestMovie", "RequestTv"],
        "bannedPlexUserIds": ["12345"], "bannedEmbyUserIds": [], "bannedJellyfinUserIds": []
    }));
    s.insert("issues".into(), json!({"id": 5, "enabled": true, "enableInProgress": true, "deleteIssues": false, "daysAfterResolvedToDelete": 0}));
    s.insert("vote".into(), json!({"id": 6, "enabled": true, "movieVoteMax": 10, "musicVoteMax": 10, "tvShowVoteMax": 10}));
    s.insert("landingpage".into(), json!({
        "id": 7, "enabled": true, "noticeEnabled": true, "noticeText": "Maintenance on Sunday", "timeLimit": false,
        "startDateTime": "0001-01-01T00:00:00Z", "endDateTime": "0001-01-01T00:00:00Z", "expired": false
    }));
    s.insert("themoviedb".into(), json!({
        "id": 8, "showAdultMovies": false, "excludedKeywordIds": [9663], "excludedMovieGenreIds": [],
        "excludedTvGenreIds": [10764], "originalLanguages": ["en", "fr"]
    }));
    s.insert("jobs".into(), json!({
        "id": 9, "embyContentSync": "0 0 */1 ? * *", "sonarrSync": "0 10 */1 ? * *", "radarrSync": "0 15 */1 ? * *",
        "plexContentSync": "0 2 */1 ? * *", "plexRecentlyAddedSync": "0 0/30 * 1/1 * ? *", "couchPotatoSync": "0 30 */1 ? * *",
        "automaticUpdater": "0 0 */6 ? * *", "userImporter": "0 0 0/24 1/1 * ? *", "sickRageSync": "0 35 */1 ? * *",
        "newsletter": "0 0 12 ? * FRI *", "lidarrArtistSync": "0 0 0 1/1 * ? *", "issuesPurge": "0 0 0 1/1 * ? *",
        "retryRequests": "0 0 0 1/1 * ? *", "mediaDatabaseRefresh": "0 0 0 1/1 * ? *", "autoDeleteRequests": "0 0 0 1/1 * ? *",
        "embyRecentlyAddedSync": "0 0/30 * 1/1 * ? *", "jellyfinContentSync": "0 0 */1 ? * *",
        // JobSettings.cs has no jellyfinRecentlyAddedSync.
        "plexWatchlistImport": "0 0/30 * 1/1 * ? *"
    }));
    s.insert("update".into(), json!({
        "id": 10, "autoUpdateEnabled": false, "username": leak("update-user"), "password": leak("update-pass"),
        "processName": "Ombi", "useScript": false, "scriptLocation": leak("/opt/scripts/update.sh"),
        "windowsServiceName": "Ombi", "windowsService": false, "testMode": false, "updateSchedule": null
    }));
    // UpdateSettings.cs has no isWindows.
    s.insert("plex".into(), json!({
        "id": 11, "enable": true, "enableWatchlistImport": false, "monitorAll": false, "installId": leak("install-guid"),
        "servers": [with(server("Living room", 54321), json!({
            "plexAuthToken": leak("plex-token"), "machineIdentifier": "abc123", "episodeBatchSize": 150,
            "serverHostname": leak("https://plex.example.org"),
            "plexSelectedLibraries": [{"key": 1, "title": "Movies", "enabled": true}, {"key": 2, "title": "TV Shows", "enabled": false}]
        }))]
    }));
    for (name, libs, port) in [
        ("emby", "embySelectedLibraries", 54322),
        ("jellyfin", "jellyfinSelectedLibraries", 54323),
    ] {
        s.insert(name.into(), json!({
            "id": 12, "enable": true,
            "servers": [with(server("Basement", port), json!({
                "serverId": "srv-1", "apiKey": leak(&format!("{name}-api-key")), "administratorId": leak("admin-id"),
                "serverHostname": leak("https://media.example.org"), "enableEpisodeSearching": true,
                libs: [{"key": "k1", "title": "Films", "collectionType": "movies", "enabled": true}]
            }))]
        }));
    }
    s.insert("sonarr".into(), json!({
        "id": 13, "enabled": true, "ssl": false, "subDir": leak("subdir"), "ip": leak("sonarr.lan"), "port": 54324,
        "apiKey": leak("sonarr-api-key"), "qualityProfile": "1", "seasonFolders": true, "rootPath": "2",
        "qualityProfileAnime": "1", "rootPathAnime": "2", "animeTag": null, "tag": 3, "sendUserTags": false,
        "addOnly": false, "languageProfile": 1, "languageProfileAnime": 1, "scanForAvailability": true,
        "prioritizeArrAvailability": false
    }));
    let radarr = |port: i64, key: &str| {
        json!({
            "enabled": true, "ssl": false, "subDir": leak("subdir"), "ip": leak("radarr.lan"), "port": port,
            "apiKey": leak(key), "defaultQualityProfile": "4", "defaultRootPath": "/movies", "addOnly": false,
            "minimumAvailability": "Released", "scanForAvailability": true, "prioritizeArrAvailability": false,
            "tag": null, "sendUserTags": false
        })
    };
    s.insert("radarr".into(), json!({"radarr": radarr(54325, "radarr-api-key"), "radarr4K": radarr(54326, "radarr4k-api-key")}));
    s.insert("lidarr".into(), json!({
        "id": 14, "enabled": false, "ssl": false, "subDir": leak("subdir"), "ip": leak("lidarr.lan"), "port": 54321,
        "apiKey": leak("lidarr-api-key"), "defaultQualityProfile": "1", "defaultRootPath": "/music",
        "albumFolder": true, "metadataProfileId": 1, "addOnly": false
    }));
    s.insert("notifications/email".into(), json!({
        "id": 20, "enabled": true, "host": leak("smtp.example.org"), "password": leak("smtp-pass"), "port": 54322,
        "senderName": "Ombi", "senderAddress": format!("ombi.{LEAK}@example.org"), "username": leak("smtp-user"),
        "authentication": true, "disableTLS": false, "disableCertificateChecking": false, "notificationTemplates": templates(0)
    }));
    s.insert("notifications/discord".into(), json!({
        "id": 21, "enabled": true, "webhookUrl": leak("https://discord.com/api/webhooks/1/x"), "username": "Ombi bot",
        "icon": leak("https://img.example.org/i.png"), "hideUser": false, "notificationTemplates": templates(1)
    }));
    s.insert("notifications/telegram".into(), json!({
        "id": 22, "enabled": false, "botApi": leak("bot-api"), "chatId": leak("chat-id"), "parseMode": "Markdown",
        "notificationTemplates": templates(4)
    }));
    s.insert("notifications/pushbullet".into(), json!({
        "id": 23, "enabled": false, "accessToken": leak("pb-token"), "channelTag": leak("channel"), "notificationTemplates": templates(2)
    }));
    s.insert("notifications/pushover".into(), json!({
        "id": 24, "enabled": false, "accessToken": leak("po-token"), "userToken": leak("po-user"), "priority": 0,
        "sound": "pushover", "notificationTemplates": templates(3)
    }));
    s.insert("notifications/slack".into(), json!({
        "id": 25, "enabled": false, "webhookUrl": leak("https://hooks.slack.com/x"), "channel": "#media",
        "username": "ombi", "iconEmoji": ":tv:", "iconUrl": leak("https://img.example.org/s.png"), "notificationTemplates": templates(5)
    }));
    s.insert("notifications/mattermost".into(), json!({
        "id": 26, "webhookUrl": leak("https://mm.example.org/hooks/x"), "channel": "town-square", "username": "ombi",
        "iconUrl": leak("https://img.example.org/m.png"), "enabled": false, "notificationTemplates": templates(6)
    }));
    s.insert("notifications/twilio".into(), json!({
        "id": 27, "whatsAppSettings": {"enabled": false, "from": leak("+15550100"), "accountSid": leak("sid"),
            "authToken": leak("twilio-token"), "notificationTemplates": templates(10)}
    }));
    s.insert(
        "notifications/mobile".into(),
        json!({"id": 28, "notificationTemplates": templates(7)}),
    );
    s.insert("notifications/gotify".into(), json!({
        "id": 29, "enabled": false, "baseUrl": leak("https://gotify.example.org"), "applicationToken": leak("gotify-token"),
        "priority": 5, "notificationTemplates": templates(8)
    }));
    s.insert("notifications/ntfy".into(), json!({
        "id": 30, "enabled": false, "baseUrl": leak("https://ntfy.example.org"), "topic": leak("topic"),
        "authorizationHeader": leak("Bearer ntfy"), "priority": 3, "notificationTemplates": templates(11)
    }));
    s.insert("notifications/webhook".into(), json!({
        "id": 31, "enabled": false, "webhookUrl": leak("https://hook.example.org"), "applicationToken": leak("hook-token")
    }));
    s.insert("notifications/newsletter".into(), json!({
        "id": 32, "disableTv": false, "disableMovies": false, "disableMusic": true, "enabled": false,
        "externalEmails": [format!("friend.{LEAK}@example.org")],
        "notificationTemplate": {"id": 40, "notificationType": 11, "agent": 0, "subject": "Newsletter", "message": "New this week", "enabled": true}
    }));
    s
}

/// A small day's log with credentials in it.
pub fn sample_log() -> String {
    [
        "2026-05-02 10:00:00.001 +00:00 [INF] Ombi starting",
        &format!("2026-05-02 10:00:01.002 +00:00 [DBG] GET http://radarr.lan:7878/api/v3/movie?apikey={LEAK}-radarr-key"),
        &format!("2026-05-02 10:00:02.003 +00:00 [DBG] GET https://plex.tv/api/users?X-Plex-Token={LEAK}-plex-token"),
        &format!("2026-05-02 10:00:03.004 +00:00 [WRN] Authorization: Bearer {LEAK}-jwt.payload.sig"),
        &format!("2026-05-02 10:00:04.005 +00:00 [INF] Sent mail to carol.{LEAK}@example.org"),
        "2026-05-02 10:00:05.006 +00:00 [INF] Plex content sync finished",
    ]
    .join("\n")
        + "\n"
}

impl AdminData {
    pub fn sample() -> AdminData {
        AdminData {
            // The Identity table: the three people (roles as the fake's
            // login users have them) and Ombi's system user `Api` (userType
            // 0, no roles), which the Users list leaves out.
            users: vec![
                user_view_model(
                    "alice",
                    super::state::seeded_alias("alice"),
                    None,
                    "US",
                    &["Admin"],
                ),
                user_view_model("bob", None, None, "US", &["RequestMovie", "RequestTv"]),
                user_view_model(
                    "carol",
                    super::state::seeded_alias("carol"),
                    Some("fr"),
                    "FR",
                    &["RequestMovie"],
                ),
                {
                    let mut api = user_view_model("Api", None, None, "US", &[]);
                    api["userType"] = json!(0);
                    api["emailAddress"] = Value::Null;
                    api
                },
            ],
            // Stored rows only; the read route adds Ombi's synthesized defaults.
            notification_preferences: vec![
                json!({"id": 7, "userId": user_id("Api"), "agent": 4, "enabled": false, "value": leak("telegram-chat")}),
                json!({"id": 8, "userId": user_id("Api"), "agent": 3, "enabled": false, "value": leak("pushover-key")}),
            ],
            connected: vec![
                json!({"userId": user_id("alice"), "displayName": "alice", "userType": 1}),
                json!({"userId": user_id("alice"), "displayName": "alice", "userType": 1}),
                json!({"userId": user_id("bob"), "displayName": "bob", "userType": 1}),
            ],
            wizard_completed: true,
            landing: json!({"serversAvailable": 1, "serversUnavailable": 1, "partiallyDown": true,
                "completelyDown": false, "fullyAvailable": false, "totalServers": 2}),
            update: json!({"updateVersionString": "v4.60.1", "updateVersion": 4601, "updateDate": "2026-05-02T09:00:00Z",
                "updateAvailable": true, "changeLogs": "Fixes", "downloads": [{"name": "linux-x64.tar.gz", "url": leak("https://github.example.org/dl")}]}),
            updater_check: true,
            settings: sample_settings(),
            radarr_enabled: true,
            radarr_profiles: vec![
                json!({"id": 4, "name": "HD-1080p", "upgradeAllowed": true, "cutoff": 7, "items": []}),
                json!({"id": 6, "name": "Ultra-HD", "upgradeAllowed": false, "cutoff": 19, "items": []}),
            ],
            radarr_root_folders: vec![
                json!({"id": 1, "path": "/movies", "freespace": 1_000_000_000_000i64}),
            ],
            radarr_tags: vec![json!({"id": 2, "label": "family"})],
            radarr4k_root_folders: Some(vec![
                json!({"id": 3, "path": "/movies-4k", "freespace": 2_000_000_000_000i64}),
            ]),
            radarr4k_profiles: vec![
                json!({"id": 9, "name": "UHD-2160p", "upgradeAllowed": true, "cutoff": 19, "items": []}),
            ],
            sonarr_enabled: true,
            sonarr_profiles: vec![json!({"name": "HD-720p", "id": 1})],
            sonarr_root_folders: vec![json!({"id": 2, "path": "/tv", "freespace": 5})],
            sonarr_language_profiles: vec![
                json!({"name": "English", "upgradeAllowed": true, "cutoff": {"id": 1, "name": "English"},
                "languages": [{"languages": {"id": 1, "name": "English"}, "allowed": true}], "id": 1}),
            ],
            sonarr_tags: vec![json!({"id": 3, "label": "anime"})],
            lidarr_profiles: vec![json!({"name": "Lossless", "id": 2})],
            lidarr_root_folders: vec![json!({"id": 5, "path": "/music", "freespace": 9})],
            plex_servers: vec![
                json!({"serverName": "Living room", "serverId": 1, "machineId": "abc123"}),
            ],
            plex_sections: BTreeMap::from([(
                "abc123".to_string(),
                vec![
                    json!({"id": null, "key": "1", "type": "movie", "title": "Movies"}),
                    json!({"id": null, "key": "2", "type": "show", "title": "TV Shows"}),
                ],
            )]),
            plex_friends: vec![
                json!({"username": "dave", "id": "p-100"}),
                json!({"username": "erin", "id": "p-101"}),
            ],
            emby_users: vec![json!({"username": "frank", "id": "e-1"})],
            jellyfin_users: Vec::new(),
        }
    }
}
