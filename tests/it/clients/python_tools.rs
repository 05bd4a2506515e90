//! Every read action and one action of every served write tool, driven by the official MCP Python SDK
//! through the real shim and a socket-activated daemon (jwt mode), against the
//! fake Ombi. The SDK validates each `structuredContent` against the tool's
//! `outputSchema` and raises on any mismatch, so one bad projection fails here.

use std::path::PathBuf;
use std::process::Command;

use serde_json::{Value, json};

use super::python_client::{admin_jwt_env, python_report};
use crate::harness::*;
use crate::support::fake_ombi::state::user_id;
use crate::support::fake_ombi::{ADMIN_PASSWORD, FakeOmbi, Options};

const LINKIN_PARK: &str = "f59c5520-5f46-4d2c-b2c4-822eabf53419";
const HYBRID_THEORY: &str = "2a0981fb-9593-3019-864b-ce934d97a16e";

/// (tool, arguments, expected `ok`). One or more calls per action.
fn calls() -> Vec<(&'static str, Value, bool)> {
    vec![
        // read_search
        ("read_search", json!({"query": "matrix"}), true),
        (
            "read_search",
            json!({"action": "movie", "query": "matrix", "year": 1999}),
            true,
        ),
        (
            "read_search",
            json!({"action": "tv", "query": "breaking"}),
            true,
        ),
        (
            "read_search",
            json!({"action": "person_movies", "query": "keanu"}),
            true,
        ),
        (
            "read_search",
            json!({"action": "artist", "query": "linkin"}),
            true,
        ),
        (
            "read_search",
            json!({"action": "album", "query": "hybrid"}),
            true,
        ),
        // read_discover
        (
            "read_discover",
            json!({"action": "popular", "media": "movie"}),
            true,
        ),
        (
            "read_discover",
            json!({"action": "popular", "media": "tv", "page": {"limit": 5}}),
            true,
        ),
        (
            "read_discover",
            json!({"action": "now_playing", "media": "movie"}),
            true,
        ),
        (
            "read_discover",
            json!({"action": "top_rated", "media": "movie"}),
            true,
        ),
        (
            "read_discover",
            json!({"action": "upcoming", "media": "movie"}),
            true,
        ),
        (
            "read_discover",
            json!({"action": "seasonal", "media": "movie"}),
            true,
        ),
        (
            "read_discover",
            json!({"action": "trending", "media": "tv"}),
            true,
        ),
        (
            "read_discover",
            json!({"action": "anticipated", "media": "tv"}),
            true,
        ),
        (
            "read_discover",
            json!({"action": "requested", "media": "movie"}),
            true,
        ),
        (
            "read_discover",
            json!({"action": "advanced", "media": "movie", "filters": {"release_year": 2010, "genre_ids": [28]}}),
            true,
        ),
        (
            "read_discover",
            json!({"action": "similar", "tmdb_id": 603}),
            true,
        ),
        (
            "read_discover",
            json!({"action": "credits", "person_id": 6384, "name": "Keanu Reeves", "media": "movie"}),
            true,
        ),
        (
            "read_discover",
            json!({"action": "collection", "collection_id": 2344}),
            true,
        ),
        (
            "read_discover",
            json!({"action": "artist_albums", "artist_id": LINKIN_PARK}),
            true,
        ),
        // read_media
        (
            "read_media",
            json!({"action": "details", "media": "movie", "tmdb_id": 603}),
            true,
        ),
        (
            "read_media",
            json!({"action": "details", "media": "movie", "imdb_id": "tt1375666"}),
            true,
        ),
        (
            "read_media",
            json!({"action": "details", "media": "tv", "tmdb_id": 1396}),
            true,
        ),
        (
            "read_media",
            json!({"action": "details", "media": "tv", "tvdb_id": 81189}),
            true,
        ),
        (
            "read_media",
            json!({"action": "details", "media": "album", "musicbrainz_id": HYBRID_THEORY}),
            true,
        ),
        (
            "read_media",
            json!({"action": "details", "media": "artist", "musicbrainz_id": LINKIN_PARK}),
            true,
        ),
        (
            "read_media",
            json!({"action": "by_request", "target": {"kind": "movie", "id": 1}}),
            true,
        ),
        (
            "read_media",
            json!({"action": "by_request", "target": {"kind": "tv_parent", "id": 10}}),
            true,
        ),
        (
            "read_media",
            json!({"action": "ratings", "media": "movie", "name": "The Matrix", "year": 1999}),
            true,
        ),
        (
            "read_media",
            json!({"action": "providers", "media": "tv", "tmdb_id": 1396}),
            true,
        ),
        (
            "read_media",
            json!({"action": "details", "media": "movie", "tmdb_id": 999999}),
            false,
        ),
        // read_reference
        (
            "read_reference",
            json!({"action": "genres", "media": "movie"}),
            true,
        ),
        ("read_reference", json!({"action": "languages"}), true),
        (
            "read_reference",
            json!({"action": "streaming_countries"}),
            true,
        ),
        (
            "read_reference",
            json!({"action": "keywords", "query": "dys"}),
            true,
        ),
        (
            "read_reference",
            json!({"action": "keyword", "keyword_id": 310}),
            true,
        ),
        (
            "read_reference",
            json!({"action": "watch_providers", "media": "movie"}),
            true,
        ),
        (
            "read_reference",
            json!({"action": "issue_categories"}),
            true,
        ),
        ("read_reference", json!({"action": "roles"}), true),
        ("read_reference", json!({"action": "features"}), true),
        // read_requests
        ("read_requests", json!({"action": "mine"}), true),
        (
            "read_requests",
            json!({"action": "list", "media": "movie"}),
            true,
        ),
        (
            "read_requests",
            json!({"action": "list", "media": "tv", "status": "pending", "sort_direction": "asc"}),
            true,
        ),
        (
            "read_requests",
            json!({"action": "list", "media": "album"}),
            true,
        ),
        (
            "read_requests",
            json!({"action": "get", "target": {"kind": "movie", "id": 1}}),
            true,
        ),
        (
            "read_requests",
            json!({"action": "get", "target": {"kind": "tv_parent", "id": 10}}),
            true,
        ),
        (
            "read_requests",
            json!({"action": "get", "target": {"kind": "tv_child", "id": 21}}),
            true,
        ),
        (
            "read_requests",
            json!({"action": "get", "target": {"kind": "album", "id": 6}}),
            true,
        ),
        (
            "read_requests",
            json!({"action": "children", "parent_request_id": 10}),
            true,
        ),
        (
            "read_requests",
            json!({"action": "search", "media": "movie", "query": "matrix"}),
            true,
        ),
        ("read_requests", json!({"action": "recent"}), true),
        ("read_requests", json!({"action": "retry_queue"}), true),
        (
            "read_requests",
            json!({"action": "get", "target": {"kind": "movie", "id": 999}}),
            false,
        ),
        // read_request_stats
        ("read_request_stats", json!({"action": "counts"}), true),
        ("read_request_stats", json!({"action": "totals"}), true),
        (
            "read_request_stats",
            json!({"action": "quota", "media": "movie"}),
            true,
        ),
        (
            "read_request_stats",
            json!({"action": "period", "from": "2026-04-01", "to": "2026-04-30"}),
            true,
        ),
        // read_issues
        ("read_issues", json!({"action": "list"}), true),
        (
            "read_issues",
            json!({"action": "list", "status": "closed"}),
            true,
        ),
        ("read_issues", json!({"action": "get", "issue_id": 3}), true),
        (
            "read_issues",
            json!({"action": "by_request", "request_type": "movie", "request_id": 1}),
            true,
        ),
        (
            "read_issues",
            json!({"action": "by_provider", "provider_id": "603"}),
            true,
        ),
        (
            "read_issues",
            json!({"action": "comments", "issue_id": 1}),
            true,
        ),
        ("read_issues", json!({"action": "provider_summary"}), true),
        (
            "read_issues",
            json!({"action": "provider_details", "provider_id": "603"}),
            true,
        ),
        ("read_issues", json!({"action": "counts"}), true),
        // read_votes
        ("read_votes", json!({"action": "open"}), true),
        (
            "read_votes",
            json!({"action": "for_request", "media": "movie", "request_id": 2}),
            true,
        ),
        // read_users
        ("read_users", json!({"action": "me"}), true),
        ("read_users", json!({"action": "list"}), true),
        ("read_users", json!({"action": "online"}), true),
        ("read_users", json!({"action": "notification_agents"}), true),
        (
            "read_users",
            json!({"action": "get", "user_id": "no-such-user"}),
            false,
        ),
        // read_library
        (
            "read_library",
            json!({"action": "recently_added", "media": "movie"}),
            true,
        ),
        (
            "read_library",
            json!({"action": "recently_added", "media": "tv"}),
            true,
        ),
        ("read_library", json!({"action": "calendar"}), true),
        (
            "read_library",
            json!({"action": "artwork", "media": "movie", "tmdb_id": 603, "kind": "poster"}),
            true,
        ),
        (
            "read_library",
            json!({"action": "artwork", "media": "album", "musicbrainz_id": HYBRID_THEORY, "kind": "poster"}),
            true,
        ),
        // read_server
        ("read_server", json!({"action": "status"}), true),
        ("read_server", json!({"action": "about"}), true),
        ("read_server", json!({"action": "media_servers"}), true),
        ("read_server", json!({"action": "update"}), true),
        ("read_server", json!({"action": "features"}), true),
        (
            "read_server",
            json!({"action": "cron_validate", "expression": "0 0 * * *"}),
            true,
        ),
        // read_integration
        (
            "read_integration",
            json!({"action": "radarr_options"}),
            true,
        ),
        (
            "read_integration",
            json!({"action": "sonarr_options"}),
            true,
        ),
        (
            "read_integration",
            json!({"action": "lidarr_options"}),
            true,
        ),
        ("read_integration", json!({"action": "plex_servers"}), true),
        (
            "read_integration",
            json!({"action": "plex_libraries", "machine_id": "abc123"}),
            true,
        ),
        (
            "read_integration",
            json!({"action": "media_server_users", "server": "plex"}),
            true,
        ),
        // read_settings
        ("read_settings", json!({"section": "ombi"}), true),
        ("read_settings", json!({"section": "sonarr"}), true),
        ("read_settings", json!({"section": "features"}), true),
        (
            "read_settings",
            json!({"section": "notifications/email"}),
            true,
        ),
        // read_logs
        ("read_logs", json!({"action": "list"}), true),
        (
            "read_logs",
            json!({"action": "read", "file_id": "log20260502.txt", "limit": 20}),
            true,
        ),
        // writes (after the reads: they change the fake's state)
        (
            "write_request_create",
            json!({"action": "movie", "tmdb_id": 27205}),
            true,
        ),
        (
            "write_request_subscribe",
            json!({"action": "subscribe", "media": "movie", "request_id": 2}),
            true,
        ),
        (
            "write_vote",
            json!({"action": "up", "media": "movie", "request_id": 2}),
            true,
        ),
        (
            "write_issue_create",
            json!({"title": "Inception", "description": "No sound", "category_id": 1, "request_type": "movie"}),
            true,
        ),
        (
            "write_issue_comment",
            json!({"issue_id": 1, "comment": "Looking into it"}),
            true,
        ),
        (
            "write_user_preferences",
            json!({"action": "streaming_country", "country": "GB"}),
            true,
        ),
        // moderation writes (after every read: they change the data set)
        (
            "write_request_moderate",
            json!({"action": "deny", "media": "movie", "request_id": 2, "reason": "e2e"}),
            true,
        ),
        (
            "write_request_options",
            json!({"action": "tv_quality", "parent_request_id": 10, "quality_profile_id": 6}),
            true,
        ),
        (
            "write_request_reprocess",
            json!({"request_type": "movie", "request_id": 1}),
            true,
        ),
        (
            "write_request_delete",
            json!({"target": {"kind": "tv_child", "id": 21}}),
            true,
        ),
        (
            "write_issue_manage",
            json!({"action": "create_category", "name": "E2E"}),
            true,
        ),
        // the administration writes, one action each
        (
            "write_settings_patch",
            json!({"section": "vote", "revision": "$revision(vote)",
                   "changes": [{"name": "/movieVoteMax", "value": 5}]}),
            true,
        ),
        ("write_integration_test", json!({"target": "discord"}), true),
        ("write_job_run", json!({"job": "arrAvailability"}), true),
        (
            "write_user_manage",
            json!({"action": "create", "user": {"user_name": "pyuser", "password": NEW_USER_PASSWORD}}),
            true,
        ),
        (
            "write_notification_send",
            json!({"action": "mobile_push", "user_id": user_id("bob"), "message": "Movie night"}),
            true,
        ),
        ("write_retry_remove", json!({"queue_id": 7}), true),
    ]
}

/// The call table is derived from `TOOLS`, not kept beside it: every action of every served
/// read tool, and every served write tool, has a call (checked without Python, so a new tool or
/// action without a call fails everywhere, not only where the SDK is installed).
#[test]
fn the_call_table_covers_every_read_action_and_every_write_tool() {
    let calls = calls();
    let mut missing = Vec::new();
    for def in ombi_mcp::tools::definitions() {
        let of_tool: Vec<&Value> = calls
            .iter()
            .filter(|(t, _, _)| *t == def.name)
            .map(|(_, args, _)| args)
            .collect();
        if def.is_write() {
            if of_tool.is_empty() {
                missing.push(def.name.to_string());
            }
            continue;
        }
        for action in def.actions {
            let called = of_tool.iter().any(|args| {
                args.get("action")
                    .and_then(Value::as_str)
                    .or(def.default_action)
                    .map_or(!def.has_action_arg(), |a| a == action.name)
            });
            if !called {
                missing.push(format!("{} {}", def.name, action.name));
            }
        }
    }
    assert!(missing.is_empty(), "no call in the table for: {missing:?}");
}

/// The password `write_user_manage create` is given: it must reach no log.
const NEW_USER_PASSWORD: &str = "Py-New-Passw0rd-91c2";

fn python() -> Option<PathBuf> {
    let venv = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(".venv/bin/python");
    let p = std::env::var_os("OMBI_MCP_PYTHON")
        .map(PathBuf::from)
        .unwrap_or(venv);
    let ok = Command::new(&p)
        .args(["-c", "import mcp"])
        .status()
        .is_ok_and(|s| s.success());
    ok.then_some(p)
}

#[tokio::test(flavor = "multi_thread")]
async fn every_read_action_passes_the_official_sdk_under_socket_activation() {
    let Some(python) = python() else {
        require(
            false,
            "the MCP Python SDK in .venv (run .ci/run, or set OMBI_MCP_PYTHON)",
        );
        return;
    };
    if !require(
        std::path::Path::new(SOCKET_ACTIVATE).exists(),
        "systemd-socket-activate",
    ) {
        return;
    }
    let fake = FakeOmbi::start(Options::default()).await;
    let (env, _dir) = admin_jwt_env(&fake.url);
    let d = Daemon::start(DaemonOpts {
        env,
        activated: true,
        ..DaemonOpts::default()
    });
    let calls = calls();
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/python/e2e_client.py");
    let mut cmd = Command::new(&python);
    cmd.arg(script).arg(SHIM).arg(&d.socket);
    for (tool, args, _) in &calls {
        cmd.arg(tool).arg(args.to_string());
    }
    let report = python_report(cmd, &d, "the SDK rejected a result").await;
    let served: Vec<&str> = report["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    assert_eq!(
        served.len(),
        ombi_mcp::tools::TOOLS.len(),
        "every served tool is listed: {served:?}"
    );
    let catalogue: Vec<&str> = ombi_mcp::tools::TOOLS.iter().map(|t| t.def.name).collect();
    assert_eq!(served, catalogue, "every served tool is listed, in order");
    for tool in &served {
        assert!(
            calls.iter().any(|(t, _, _)| t == tool),
            "{tool} has no call in the table"
        );
    }
    let results = report["calls"].as_array().unwrap();
    assert_eq!(results.len(), calls.len());
    let mut failures = Vec::new();
    for ((tool, args, want_ok), got) in calls.iter().zip(results) {
        let sc = &got["structured"];
        let ok = sc["ok"].as_bool();
        // The text block is the same JSON as structuredContent.
        let text: Value =
            serde_json::from_str(got["text"][0].as_str().unwrap_or("null")).unwrap_or(Value::Null);
        if &text != sc {
            failures.push(format!(
                "{tool} {args}: text block differs from structuredContent"
            ));
        }
        if ok != Some(*want_ok) || got["isError"].as_bool() != Some(!want_ok) {
            failures.push(format!("{tool} {args}: expected ok={want_ok}, got {sc}"));
        }
        if sc["operation"] != *tool {
            failures.push(format!("{tool}: operation {}", sc["operation"]));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // jwt mode: one login served every call.
    assert_eq!(fake.logins(), 1, "one login for the whole session");
    let logs = d.logs();
    assert!(!logs.contains(ADMIN_PASSWORD), "password in the daemon log");
    assert!(
        !logs.contains(NEW_USER_PASSWORD),
        "a new user's password in the daemon log"
    );
}
