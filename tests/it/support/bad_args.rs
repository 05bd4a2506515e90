//! Invalid and valid `tools/call` arguments, as data, for the catalogue's
//! validator (`tests/it/contract/args.rs`) and for over-the-socket tests: every
//! invalid call must answer `INVALID_ARGUMENT` with exactly this `field`.

use serde_json::{Value, json};

/// `(tool, arguments, expected error.field)`.
pub fn cases() -> Vec<(&'static str, Value, &'static str)> {
    let long = "x".repeat(201);
    vec![
        // read_search
        ("read_search", json!({}), "/query"),
        ("read_search", json!({"query": ""}), "/query"),
        ("read_search", json!({"query": long}), "/query"),
        ("read_search", json!({"query": 5}), "/query"),
        (
            "read_search",
            json!({"query": "m", "page": {"limit": 0}}),
            "/page/limit",
        ),
        (
            "read_search",
            json!({"query": "m", "page": {"limit": 101}}),
            "/page/limit",
        ),
        (
            "read_search",
            json!({"query": "m", "page": {"limit": 1.5}}),
            "/page/limit",
        ),
        (
            "read_search",
            json!({"query": "m", "page": {"offset": -1}}),
            "/page/offset",
        ),
        (
            "read_search",
            json!({"query": "m", "page": {"size": 5}}),
            "/page/size",
        ),
        ("read_search", json!({"query": "m", "page": []}), "/page"),
        (
            "read_search",
            json!({"query": "m", "action": "films"}),
            "/action",
        ),
        ("read_search", json!({"query": "m", "foo": 1}), "/foo"),
        (
            "read_search",
            json!({"query": "m", "action": "movie", "year": "1999"}),
            "/year",
        ),
        ("read_search", json!({"query": "m", "year": 1999}), "/year"),
        // read_discover
        ("read_discover", json!({}), "/action"),
        ("read_discover", json!({"action": 3}), "/action"),
        ("read_discover", json!({"action": "similar"}), "/tmdb_id"),
        (
            "read_discover",
            json!({"action": "similar", "tmdb_id": 0}),
            "/tmdb_id",
        ),
        (
            "read_discover",
            json!({"action": "similar", "tmdb_id": "550"}),
            "/tmdb_id",
        ),
        (
            "read_discover",
            json!({"action": "similar", "tmdb_id": true}),
            "/tmdb_id",
        ),
        (
            "read_discover",
            json!({"action": "trending", "media": "movie"}),
            "/media",
        ),
        (
            "read_discover",
            json!({"action": "popular", "media": "album"}),
            "/media",
        ),
        (
            "read_discover",
            json!({"action": "credits", "person_id": 5}),
            "/name",
        ),
        (
            "read_discover",
            json!({"action": "advanced", "media": "movie", "filters": {"genre": 1}}),
            "/filters/genre",
        ),
        (
            "read_discover",
            json!({"action": "advanced", "media": "movie", "filters": {"genre_ids": []}}),
            "/filters/genre_ids",
        ),
        (
            "read_discover",
            json!({"action": "advanced", "media": "movie", "filters": {"genre_ids": [1, -2]}}),
            "/filters/genre_ids/1",
        ),
        // read_media
        (
            "read_media",
            json!({"action": "details", "media": "movie"}),
            "/tmdb_id",
        ),
        (
            "read_media",
            json!({"action": "details", "media": "movie", "tmdb_id": 1, "imdb_id": "tt1"}),
            "/imdb_id",
        ),
        (
            "read_media",
            json!({"action": "details", "media": "album", "tmdb_id": 5}),
            "/tmdb_id",
        ),
        (
            "read_media",
            json!({"action": "by_request", "target": {"kind": "show", "id": 1}}),
            "/target/kind",
        ),
        (
            "read_media",
            json!({"action": "by_request", "target": {"kind": "movie"}}),
            "/target/id",
        ),
        (
            "read_media",
            json!({"action": "by_request", "target": {"kind": "movie", "id": 1, "extra": true}}),
            "/target/extra",
        ),
        (
            "read_media",
            json!({"action": "ratings", "media": "album", "name": "x", "year": 2000}),
            "/media",
        ),
        // read_reference
        ("read_reference", json!({"action": "genres"}), "/media"),
        (
            "read_reference",
            json!({"action": "keyword", "keyword_id": true}),
            "/keyword_id",
        ),
        (
            "read_reference",
            json!({"action": "languages", "query": "en"}),
            "/query",
        ),
        // read_requests
        (
            "read_requests",
            json!({"action": "list", "media": "movie", "status": "open"}),
            "/status",
        ),
        (
            "read_requests",
            json!({"action": "list", "media": "movie", "sort_direction": "up"}),
            "/sort_direction",
        ),
        (
            "read_requests",
            json!({"action": "list", "media": "album", "status": "unavailable"}),
            "/status",
        ),
        (
            "read_requests",
            json!({"action": "get", "target": {"kind": "tv", "id": 3}}),
            "/target/kind",
        ),
        (
            "read_requests",
            json!({"action": "get", "status": "pending", "target": {"kind": "movie", "id": 3}}),
            "/status",
        ),
        (
            "read_requests",
            json!({"action": "children"}),
            "/parent_request_id",
        ),
        // read_request_stats
        (
            "read_request_stats",
            json!({"action": "period", "from": "2024-13-01", "to": "2024-12-31"}),
            "/from",
        ),
        (
            "read_request_stats",
            json!({"action": "period", "from": "2024-02-01"}),
            "/to",
        ),
        (
            "read_request_stats",
            json!({"action": "period", "from": "2024-05-01", "to": "2024-04-01"}),
            "/to",
        ),
        (
            "read_request_stats",
            json!({"action": "quota", "media": "book"}),
            "/media",
        ),
        // read_issues
        (
            "read_issues",
            json!({"action": "list", "status": "deleted"}),
            "/status",
        ),
        (
            "read_issues",
            json!({"action": "by_request", "request_type": "movie"}),
            "/request_id",
        ),
        (
            "read_issues",
            json!({"action": "get", "issue_id": -1}),
            "/issue_id",
        ),
        // read_votes, read_users
        (
            "read_votes",
            json!({"action": "for_request", "media": "movie"}),
            "/request_id",
        ),
        (
            "read_users",
            json!({"action": "get", "user_id": 42}),
            "/user_id",
        ),
        (
            "read_users",
            json!({"action": "me", "page": {"limit": 5}}),
            "/page",
        ),
        // read_library, read_server
        (
            "read_library",
            json!({"action": "artwork", "media": "movie", "kind": "poster"}),
            "/tmdb_id",
        ),
        (
            "read_library",
            json!({"action": "artwork", "media": "movie", "tmdb_id": 5, "kind": "thumbnail"}),
            "/kind",
        ),
        (
            "read_library",
            json!({"action": "recently_added", "media": "album"}),
            "/media",
        ),
        (
            "read_server",
            json!({"action": "cron_validate"}),
            "/expression",
        ),
        // write_request_create
        (
            "write_request_create",
            json!({"action": "movie", "tmdb_id": 603, "is_4k": "yes"}),
            "/is_4k",
        ),
        (
            "write_request_create",
            json!({"action": "tv", "id": 1, "selection": {"mode": "season"}}),
            "/selection/season_numbers",
        ),
        (
            "write_request_create",
            json!({"action": "tv", "id": 1, "selection": {"mode": "season", "season_numbers": [1, -1]}}),
            "/selection/season_numbers/1",
        ),
        (
            "write_request_create",
            json!({"action": "tv", "id": 1, "selection": {"mode": "episodes", "seasons": [{"season_number": 1}]}}),
            "/selection/seasons/0/episodes",
        ),
        (
            "write_request_create",
            json!({"action": "tv", "id": 1, "selection": {"mode": "all", "season_numbers": [1]}}),
            "/selection/season_numbers",
        ),
        (
            "write_request_create",
            json!({"action": "tv", "id": 1, "selection": {"mode": "all"}, "provider": "imdb"}),
            "/provider",
        ),
        (
            "write_request_create",
            json!({"action": "tv", "id": 1}),
            "/selection",
        ),
        (
            "write_request_create",
            json!({"action": "movie", "tmdb_id": 603, "overrides": {"root_folder": 1}}),
            "/overrides/root_folder",
        ),
        (
            "write_request_create",
            json!({"action": "album", "musicbrainz_id": "x", "is_4k": true}),
            "/is_4k",
        ),
        (
            "write_request_create",
            json!({"action": "tv", "id": 1, "selection": {"mode": "episodes", "seasons": [{"season_number": 1, "episodes": [1], "episode": 2}]}}),
            "/selection/seasons/0/episode",
        ),
        (
            "write_request_create",
            json!({"action": "tv", "id": 1, "selection": {"mode": "episodes", "seasons": [{"season_number": 1, "episodes": [1, 0]}]}}),
            "/selection/seasons/0/episodes/1",
        ),
        (
            "write_request_create",
            json!({"action": "movie", "tmdb_id": 2147483648u64}),
            "/tmdb_id",
        ),
        // core writes
        (
            "write_request_subscribe",
            json!({"action": "subscribe", "media": "album", "request_id": 1}),
            "/media",
        ),
        (
            "write_vote",
            json!({"action": "sideways", "media": "movie", "request_id": 1}),
            "/action",
        ),
        (
            "write_issue_create",
            json!({"title": "x", "description": "y", "category_id": 1}),
            "/request_type",
        ),
        (
            "write_issue_create",
            json!({"action": "create", "title": "x"}),
            "/action",
        ),
        (
            "write_issue_comment",
            json!({"issue_id": 1, "comment": ""}),
            "/comment",
        ),
        (
            "write_user_preferences",
            json!({"action": "notification_agents", "agents": [{"agent": "fax", "value": "1"}]}),
            "/agents/0/agent",
        ),
        (
            "write_user_preferences",
            json!({"action": "streaming_country", "country": "USA"}),
            "/country",
        ),
        // moderation
        (
            "read_integration",
            json!({"action": "media_server_users", "server": "kodi"}),
            "/server",
        ),
        (
            "read_integration",
            json!({"action": "sonarr_options", "is_4k": true}),
            "/is_4k",
        ),
        (
            "write_request_moderate",
            json!({"action": "approve", "media": "tv", "request_id": 1, "is_4k": true}),
            "/is_4k",
        ),
        (
            "write_request_moderate",
            json!({"action": "deny", "media": "movie", "request_id": 1.0}),
            "/request_id",
        ),
        (
            "write_request_options",
            json!({"action": "advanced", "media": "movie", "request_id": 1, "options": {}}),
            "/options",
        ),
        (
            "write_request_options",
            json!({"action": "advanced", "media": "movie", "request_id": 1, "options": {"language_profile_id": 2}}),
            "/options/language_profile_id",
        ),
        (
            "write_request_options",
            json!({"action": "advanced", "media": "tv", "request_id": 1, "options": {"language_profile_id": 0}}),
            "/options/language_profile_id",
        ),
        (
            "write_request_options",
            json!({"action": "advanced", "media": "tv", "request_id": 1, "options": {"root_folder_id": -1}}),
            "/options/root_folder_id",
        ),
        (
            "write_request_reprocess",
            json!({"request_type": "album", "request_id": 1}),
            "/request_type",
        ),
        (
            "write_request_delete",
            json!({"target": {"kind": "movie", "id": 0}}),
            "/target/id",
        ),
        (
            "write_issue_manage",
            json!({"action": "set_status", "issue_id": 1, "status": "done"}),
            "/status",
        ),
        // administration
        (
            "read_settings",
            json!({"section": "notifications/fax"}),
            "/section",
        ),
        (
            "read_logs",
            json!({"action": "read", "file_id": "a", "limit": 501}),
            "/limit",
        ),
        (
            "write_settings_patch",
            json!({"section": "features", "revision": "r", "changes": [{"name": "x", "value": "on"}]}),
            "/changes/0/value",
        ),
        (
            "write_settings_patch",
            json!({"section": "ombi", "revision": "r", "changes": [{"name": "x", "value": {"a": 1}}]}),
            "/changes/0/value",
        ),
        (
            "write_settings_patch",
            json!({"section": "ombi", "revision": "r", "changes": [{"name": "x", "value": 1, "path": "/x"}]}),
            "/changes/0/path",
        ),
        (
            "write_settings_patch",
            json!({"section": "ombi", "changes": [{"name": "x", "value": 1}]}),
            "/revision",
        ),
        (
            "write_integration_test",
            json!({"target": "couchpotato"}),
            "/target",
        ),
        (
            "write_job_run",
            json!({"job": "clearmediaserverdata"}),
            "/job",
        ),
        ("write_job_run", json!({"job": "update"}), "/job"),
        (
            "write_user_manage",
            json!({"action": "create", "user": {"user_name": "a", "is_admin": true}}),
            "/user/is_admin",
        ),
        (
            "write_user_manage",
            json!({"action": "update", "user_id": "abc", "user": {"password": "x"}}),
            "/user/password",
        ),
        (
            "write_user_manage",
            json!({"action": "create", "user": {"alias": "a"}}),
            "/user/user_name",
        ),
        (
            "write_notification_send",
            json!({"action": "email", "subject": "s", "body": "b", "user_ids": []}),
            "/user_ids",
        ),
        ("write_retry_remove", json!({"queue_id": true}), "/queue_id"),
        ("write_retry_remove", json!({}), "/queue_id"),
        (
            "write_retry_remove",
            json!({"request_id": 5}),
            "/request_id",
        ),
        // more read-tool cases (served today, exercised over the socket)
        ("read_issues", json!({"action": "get"}), "/issue_id"),
        (
            "read_issues",
            json!({"action": "get", "issue_id": 0}),
            "/issue_id",
        ),
        (
            "read_issues",
            json!({"action": "list", "status": "open"}),
            "/status",
        ),
        (
            "read_issues",
            json!({"action": "comments", "issue_id": "1"}),
            "/issue_id",
        ),
        (
            "read_votes",
            json!({"action": "for_request", "media": "movie"}),
            "/request_id",
        ),
        (
            "read_votes",
            json!({"action": "for_request", "media": "book", "request_id": 1}),
            "/media",
        ),
        ("read_users", json!({"action": "get"}), "/user_id"),
        ("read_users", json!({"action": "everyone"}), "/action"),
        (
            "read_server",
            json!({"action": "cron_validate"}),
            "/expression",
        ),
        (
            "read_server",
            json!({"action": "status", "verbose": true}),
            "/verbose",
        ),
        ("read_settings", json!({"section": "secrets"}), "/section"),
        ("read_settings", json!({}), "/section"),
        (
            "read_integration",
            json!({"action": "plex_libraries"}),
            "/machine_id",
        ),
        (
            "read_integration",
            json!({"action": "media_server_users", "server": "kodi"}),
            "/server",
        ),
        (
            "read_logs",
            json!({"action": "read", "file_id": "a.txt", "limit": 501}),
            "/limit",
        ),
        (
            "read_library",
            json!({"action": "recently_added", "media": "album"}),
            "/media",
        ),
        (
            "read_reference",
            json!({"action": "keyword", "keyword_id": -3}),
            "/keyword_id",
        ),
        (
            "read_requests",
            json!({"action": "children"}),
            "/parent_request_id",
        ),
    ]
}

/// `(tool, arguments, expected validated arguments with defaults filled)`.
pub fn valid() -> Vec<(&'static str, Value, Value)> {
    vec![
        (
            "read_search",
            json!({"query": "matrix"}),
            json!({"action": "multi", "query": "matrix", "page": {"offset": 0, "limit": 20}}),
        ),
        (
            "read_search",
            json!({"action": "movie", "query": "matrix", "year": 1999, "page": {"limit": 5}}),
            json!({"action": "movie", "query": "matrix", "year": 1999, "page": {"offset": 0, "limit": 5}}),
        ),
        (
            "read_requests",
            json!({"action": "list", "media": "movie"}),
            json!({"action": "list", "media": "movie", "status": "all", "sort_direction": "desc", "page": {"offset": 0, "limit": 20}}),
        ),
        (
            "read_requests",
            json!({"action": "get", "target": {"kind": "tv_child", "id": 7}}),
            json!({"action": "get", "target": {"kind": "tv_child", "id": 7}}),
        ),
        (
            "write_request_create",
            json!({"action": "movie", "tmdb_id": 603}),
            json!({"action": "movie", "tmdb_id": 603, "is_4k": false}),
        ),
        (
            "write_request_create",
            json!({"action": "tv", "id": 1399, "selection": {"mode": "season", "season_numbers": [1, 2]}}),
            json!({"action": "tv", "provider": "tmdb", "id": 1399, "selection": {"mode": "season", "season_numbers": [1, 2]}}),
        ),
        (
            "read_integration",
            json!({"action": "radarr_options"}),
            json!({"action": "radarr_options", "is_4k": false}),
        ),
        (
            "read_media",
            json!({"action": "details", "media": "tv", "tvdb_id": 81189}),
            json!({"action": "details", "media": "tv", "tvdb_id": 81189}),
        ),
        (
            "read_request_stats",
            json!({"action": "period", "from": "2024-01-01", "to": "2024-12-31"}),
            json!({"action": "period", "from": "2024-01-01", "to": "2024-12-31"}),
        ),
        (
            "write_retry_remove",
            json!({"queue_id": 3}),
            json!({"action": "remove", "queue_id": 3}),
        ),
        (
            "write_settings_patch",
            json!({"section": "features", "revision": "r1", "changes": [{"name": "Movie4KRequests", "value": true}]}),
            json!({"action": "patch", "section": "features", "revision": "r1", "changes": [{"name": "Movie4KRequests", "value": true}]}),
        ),
        (
            "write_user_manage",
            json!({"action": "update", "user_id": "9b1c", "user": {"roles": ["RequestMovie"]}}),
            json!({"action": "update", "user_id": "9b1c", "user": {"roles": ["RequestMovie"]}}),
        ),
        (
            "read_logs",
            json!({"action": "read", "file_id": "log-2024", "limit": 500}),
            json!({"action": "read", "file_id": "log-2024", "offset": 0, "limit": 500}),
        ),
        (
            "read_logs",
            json!({"action": "read", "file_id": "log-2024"}),
            json!({"action": "read", "file_id": "log-2024", "offset": 0, "limit": 100}),
        ),
        (
            "read_logs",
            json!({"action": "list"}),
            json!({"action": "list"}),
        ),
    ]
}
