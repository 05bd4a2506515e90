//! Invalid and valid `tools/call` arguments, as data, for the catalogue's
//! validator (`tests/it/contract/args.rs`) and for over-the-socket tests: every
//! invalid call must answer `INVALID_ARGUMENT` with exactly this `field`. The
//! invalid calls live in each tool's file (`Tool::invalid`).

use serde_json::{Value, json};

/// `(tool, arguments, expected error.field)`: every tool's `invalid` calls,
/// kept in the tool's own file (`src/tools/*.rs`), in catalogue order.
pub fn cases() -> Vec<(&'static str, Value, &'static str)> {
    ombi_mcp::tools::TOOLS
        .iter()
        .flat_map(|t| {
            t.invalid
                .iter()
                .map(|(args, field)| (t.def.name, parse(t.def.name, args), *field))
        })
        .collect()
}

/// A tool file's arguments JSON text.
pub fn parse(tool: &str, args: &str) -> Value {
    serde_json::from_str(args).unwrap_or_else(|e| panic!("{tool} {args}: {e}"))
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
