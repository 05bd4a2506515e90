//! `read_logs` against the fake Ombi: listing and reading with redaction, bounded reads, refused paths,
//! admins only, and lines that lose their tokens.

use serde_json::json;

use crate::support::fake_ombi::state_admin::{LEAK, sample_log};
use crate::support::fake_ombi::{self as fake, Options};
use crate::support::rig::{Rig, err_code, ok_data};
use crate::tools::server::metric;
use crate::tools::{Forbidden, assert_no_leak, read_logs, read_section, read_server, start};

async fn start_with(opts: Options, auth: &[(&str, &str)]) -> Rig {
    Rig::start_env(opts, auth).await
}

fn plant_log(h: &Rig, lines: usize) {
    let text: String = (0..lines)
        .map(|i| {
            if i % 10 == 3 {
                format!("2026-05-03 10:00:{:02} [ERR] Radarr refused movie {i}: apikey=s3cr3tRadarrKey\n", i % 60)
            } else {
                format!("2026-05-03 10:00:{:02} [INF] line {i}\n", i % 60)
            }
        })
        .collect();
    h.fake.with_data(|d| {
        d.logs.push(("log20260503.txt".into(), text));
        d.logs.push(("notes.json".into(), "{}".into()));
    });
}

#[tokio::test]
async fn logs_list_and_read_with_redaction() {
    let h = start().await;
    h.fake.with_data(|d| d.logs[0].1 = sample_log());
    let r = read_logs(&h, "list", json!({})).await;
    assert_eq!(
        r["data"]["files"][0],
        json!({"file_id": "log20260502.txt", "name": "log20260502.txt", "modified": "2026-05-02"})
    );
    let r = read_logs(
        &h,
        "read",
        json!({"file_id": "log20260502.txt", "offset": 1, "limit": 4}),
    )
    .await;
    assert_eq!(r["ok"], true, "{r}");
    let lines = r["data"]["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 4);
    assert_eq!(r["data"]["offset"], 1);
    assert_eq!(r["data"]["next_offset"], 5);
    assert_no_leak(&r);
    assert!(r.to_string().contains("[REDACTED"));
    let req = h
        .fake
        .requests()
        .into_iter()
        .find(|q| q.path == "/api/v2/System/logs/log20260502.txt")
        .unwrap();
    assert_eq!(req.header("accept"), Some("text/plain"));
    let r = read_logs(
        &h,
        "read",
        json!({"file_id": "log20260502.txt", "offset": 5}),
    )
    .await;
    assert_eq!(
        r["data"]["lines"],
        json!(["2026-05-02 10:00:05.006 +00:00 [INF] Plex content sync finished"])
    );
    assert!(r["data"]["next_offset"].is_null());
    h.assert_never_called_forbidden();
}

#[tokio::test]
async fn logs_refuse_paths_and_report_missing_files() {
    let h = start().await;
    for bad in ["../appsettings.json", "a/b.txt", "..\\x.txt"] {
        let r = read_logs(&h, "read", json!({"file_id": bad})).await;
        assert_eq!(err_code(&r), "INVALID_ARGUMENT", "{bad}");
        assert_eq!(r["error"]["field"], "/file_id");
    }
    assert!(h.fake.requests().is_empty(), "a bad file_id reached Ombi");
    let r = read_logs(&h, "read", json!({"file_id": "log19990101.txt"})).await;
    assert_eq!(err_code(&r), "NOT_FOUND");
}

#[tokio::test]
async fn a_2_mib_log_read_is_bounded() {
    let h = start().await;
    let mut big = String::new();
    let mut i = 0;
    while big.len() < 2 * 1024 * 1024 {
        big.push_str(&format!(
            "2026-05-03 00:00:{:02}.000 +00:00 [DBG] request {i} GET /api/v1/Search?apikey={LEAK}-{i} {}\n",
            i % 60,
            "x".repeat(60)
        ));
        i += 1;
    }
    h.fake
        .with_data(|d| d.logs.insert(0, ("log20260503.txt".into(), big)));
    let r = read_logs(
        &h,
        "read",
        json!({"file_id": "log20260503.txt", "offset": 1000, "limit": 500}),
    )
    .await;
    assert_eq!(r["ok"], true, "{r}");
    let lines = r["data"]["lines"].as_array().unwrap();
    assert!(
        !lines.is_empty() && lines.len() <= 500,
        "{} lines",
        lines.len()
    );
    assert!(lines[0].as_str().unwrap().contains("request 1000 "));
    assert_eq!(r["data"]["next_offset"], json!(1000 + lines.len()));
    eprintln!(
        "2 MiB log: {} lines from offset 1000, {} bytes of structuredContent",
        lines.len(),
        r.to_string().len()
    );
    assert_no_leak(&r);
}

#[tokio::test]
async fn logs_need_an_admin() {
    let h = start_with(
        Options::default(),
        &[
            ("OMBI_AUTH_MODE", "jwt"),
            ("OMBI_USERNAME", fake::PLAIN_USER),
            ("OMBI_PASSWORD", fake::PLAIN_PASSWORD),
        ],
    )
    .await;
    let r = read_logs(&h, "list", json!({})).await;
    assert_eq!(err_code(&r), "FORBIDDEN");
    let r = read_section(&h, "ombi").await;
    assert_eq!(err_code(&r), "FORBIDDEN");
    // The updater's own check needs Admin: left out with a warning, the feed stays.
    let r = read_server(&h, "update", json!({})).await;
    assert_eq!(r["ok"], true, "{r}");
    assert_eq!(metric(&r, "latest_version"), "v4.60.1");
    assert!(
        r["data"]["values"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m["name"] != "updater_reports_update"),
        "{r}"
    );
    assert!(r["warnings"][0].as_str().unwrap().contains("admin"));
    // read_settings needs Admin as a whole (docs/roles.md), although Ombi
    // serves a few sections to anyone: refused in words, nothing sent.
    let before = h.fake.requests().len();
    let r = read_section(&h, "issues").await;
    assert_eq!(
        r["error"]["message"],
        "needs Ombi's Admin role (bob has User); ask an Ombi admin"
    );
    assert!(
        h.fake.requests()[before..]
            .iter()
            .all(|q| !q.path.contains("Settings")),
        "nothing sent"
    );
}

#[tokio::test]
async fn the_default_sample_log_is_redacted() {
    let h = start().await;
    let r = read_logs(
        &h,
        "read",
        json!({"file_id": "log20260502.txt", "limit": 500}),
    )
    .await;
    assert_eq!(r["data"]["lines"].as_array().unwrap().len(), 40);
    let text = r.to_string();
    for secret in [
        "0123456789abcdef0123456789abcdef",
        "bob@example.org",
        "plexTok3nSecretValue123",
    ] {
        assert!(!text.contains(secret), "{secret} survived");
    }
    assert!(r["data"]["next_offset"].is_null());
}

#[tokio::test]
async fn log_lines_lose_password_reset_tokens() {
    let h = Rig::start().await;
    let token = "CfDJ8Hq3xZ9vKp2Lw0Rt5Ys7Ua1Bc4De6Fg8Hi0Jk2Lm4No6Pq8Rs0Tu2Vw4Xy6Za8Bc0De";
    h.fake.with_data(|d| {
        d.logs = vec![(
            "log20260601.txt".into(),
            format!("2026-06-01 10:00:00.000 +00:00 [Information] Password reset for bob (token {token})\n"),
        )];
    });
    let env = h
        .call(
            "read_logs",
            json!({"action": "read", "file_id": "log20260601.txt"}),
        )
        .await;
    let line = ok_data(&env)["lines"][0].as_str().unwrap().to_string();
    assert!(!line.contains(token) && !line.contains("CfDJ8"), "{line}");
    assert!(
        line.contains("Password reset for bob (token [REDACTED]"),
        "{line}"
    );
}

#[tokio::test]
async fn log_list_is_newest_first_with_the_day_of_each_file() {
    let h = Rig::start().await;
    plant_log(&h, 5);
    let env = h.ok("read_logs", json!({"action": "list"})).await;
    let files = env["data"]["files"].as_array().unwrap();
    // SystemController lists `*.txt` only, by name descending.
    assert_eq!(files[0]["file_id"], "log20260503.txt");
    assert_eq!(files[0]["modified"], "2026-05-03");
    assert!(files.iter().all(|f| f["file_id"] != "notes.json"));
}

#[tokio::test]
async fn log_read_tails_and_matches_after_redaction() {
    let h = Rig::start().await;
    plant_log(&h, 200);
    let env = h
        .ok(
            "read_logs",
            json!({"action": "read", "file_id": "log20260503.txt", "tail": 3}),
        )
        .await;
    let lines = env["data"]["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 3);
    assert!(lines[2].as_str().unwrap().ends_with("line 199"), "{env:#}");
    assert_eq!(env["data"]["offset"], 197);
    let env = h
        .ok(
            "read_logs",
            json!({"action": "read", "file_id": "log20260503.txt", "match": "RADARR REFUSED", "tail": 2}),
        )
        .await;
    let lines: Vec<&str> = env["data"]["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert!(lines[1].contains("movie 193"), "{lines:?}");
    assert!(lines.iter().all(|l| !l.contains("s3cr3t")));
    // A match never probes a redacted value.
    let env = h
        .ok(
            "read_logs",
            json!({"action": "read", "file_id": "log20260503.txt", "match": "s3cr3tRadarr"}),
        )
        .await;
    assert!(env["data"]["lines"].as_array().unwrap().is_empty());
}
