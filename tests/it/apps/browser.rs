//! The views in a real browser: headless Chromium (Debian's `chromium`)
//! loads the daemon's own `ui://` views into the test host of `tests/apps/`
//! (the extension's `AppBridge`, bundled with esbuild; driven by
//! puppeteer-core over a pipe), which reads them over MCP from the real
//! daemon against the fake Ombi and hands them real tool results.
//! `tests/apps/run.mjs` checks what is shown and clicks; this test holds its
//! report and the fake Ombi to what must have happened. `.ci/run` installs
//! chromium and the host's npm packages; `UPDATE_SCREENSHOTS=1` writes the
//! screenshots docs/apps.md shows into docs/images/.

use std::path::Path;
use std::time::Duration;

use serde_json::{Value, json};

use crate::harness::*;
use crate::support::fake_ombi::Options;
use crate::support::rig::Rig;

/// A title written as HTML, as anyone able to name a thing in Ombi could.
const PLANTED: &str = "<img src=x onerror=\"alert('planted')\">Parasite";
const CHROMIUM: &str = "/usr/bin/chromium";
const UNDECLARED_POSTER: &str = "https://img.example.org/p157336.jpg";

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[tokio::test(flavor = "multi_thread")]
async fn both_views_render_real_results_and_their_buttons_reach_ombi() {
    let host = repo().join("tests/apps");
    let ready = on_path("node")
        && Path::new(CHROMIUM).is_file()
        && host.join("node_modules/puppeteer-core").is_dir()
        && host
            .join("node_modules/@modelcontextprotocol/ext-apps")
            .is_dir();
    if !require(
        ready,
        "node, Debian's chromium and tests/apps/node_modules (npm ci --prefix tests/apps)",
    ) {
        return;
    }
    let mut options = Options::default();
    for movie in options.data.movies.iter_mut() {
        if movie["id"] == json!(496243) {
            movie["title"] = json!(PLANTED);
        }
        // An absolute poster URL on an origin no view declares: the view
        // skips it for the TMDB backdrop, so the CSP never has to refuse it.
        if movie["id"] == json!(157336) {
            movie["posterPath"] = json!(UNDECLARED_POSTER);
        }
    }
    for request in options.data.movie_requests.iter_mut() {
        if request["theMovieDbId"] == json!(129) {
            request["title"] = json!(PLANTED);
        }
    }
    let h = Rig::binaries(
        options,
        &[("OMBI_BUNDLES", "core,moderation")],
        DaemonOpts::default(),
    )
    .await;
    let update = std::env::var("UPDATE_SCREENSHOTS").is_ok_and(|v| v == "1");
    let scratch = tempfile::tempdir().unwrap();
    let shots = if update {
        repo().join("docs/images")
    } else {
        scratch.path().to_path_buf()
    };
    let run = tokio::process::Command::new("node")
        .arg(host.join("run.mjs"))
        .args(["test", "--socket"])
        .arg(&h.daemon().socket)
        .arg("--shots")
        .arg(&shots)
        .env("CHROMIUM", CHROMIUM)
        .kill_on_drop(true)
        .output();
    let out = tokio::time::timeout(Duration::from_secs(240), run)
        .await
        .expect("the browser test ends within 4 minutes")
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let report: Value = stdout
        .lines()
        .last()
        .and_then(|l| serde_json::from_str(l).ok())
        .unwrap_or_else(|| panic!("no report from run.mjs\nstdout:\n{stdout}\nstderr:\n{stderr}"));
    assert_eq!(
        report["failures"],
        json!([]),
        "what the browser saw: {report:#}\nstderr:\n{stderr}\ndaemon log:\n{}",
        h.daemon().logs()
    );
    assert!(out.status.success(), "{stderr}");

    // The host was told exactly the artwork origins, and nothing else left.
    assert_eq!(report["declared"], json!(ombi_mcp::views::ARTWORK_ORIGINS));
    assert_eq!(report["undeclared"], json!([]));
    let declared = |u: &Value| {
        let u = u.as_str().unwrap();
        ombi_mcp::views::ARTWORK_ORIGINS
            .iter()
            .any(|o| u.starts_with(&format!("{o}/")))
    };
    let images = report["images"].as_array().unwrap();
    assert!(images.iter().all(declared), "{report:#}");

    let interstellar = report["views"]["titles"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["title"] == "Interstellar")
        .expect("Interstellar's card");
    assert_eq!(interstellar["img"], "Poster: Interstellar");
    assert!(
        report["images"]
            .as_array()
            .unwrap()
            .contains(&json!("https://image.tmdb.org/t/p/original/b157336.jpg")),
        "{report:#}"
    );
    // Where the result carries no state (TV search rows), no badge claims one.
    assert_eq!(report["views"]["tv"][0]["badge"], Value::Null, "{report:#}");

    // The planted title is a card's text in both views, never an element.
    for view in ["titles", "requests"] {
        let cards = report["views"][view].as_array().unwrap();
        assert!(
            cards.iter().any(|c| c["title"] == PLANTED),
            "{view}: {cards:#?}"
        );
    }

    // The calls the views made went through the host to the daemon...
    let calls: Vec<(String, Value)> = report["calls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["name"].as_str().unwrap().to_string(),
                c["arguments"].clone(),
            )
        })
        .collect();
    let tmdb: i64 = report["outcomes"]["movie"]["tmdb"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    let request_id = report["outcomes"]["approve"]["request_id"]
        .as_i64()
        .unwrap();
    let deny_id = report["outcomes"]["deny"]["request_id"].as_i64().unwrap();
    // The last season the show's details list (the sample has not requested it).
    let season = report["outcomes"]["tv_seasons"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .clone();
    assert_eq!(
        calls,
        [
            (
                "write_request_create".into(),
                json!({"action": "movie", "tmdb_id": tmdb})
            ),
            (
                "read_media".into(),
                json!({"action": "details", "media": "tv", "tmdb_id": 1396})
            ),
            (
                "write_request_create".into(),
                json!({"action": "tv", "provider": "tmdb", "id": 1396, "selection": {"mode": "season", "season_numbers": [season]}})
            ),
            (
                "read_media".into(),
                json!({"action": "details", "media": "tv", "tmdb_id": 1396})
            ),
            (
                "write_request_create".into(),
                json!({"action": "tv", "provider": "tmdb", "id": 1396, "selection": {"mode": "season", "season_numbers": [season]}})
            ),
            (
                "write_request_moderate".into(),
                json!({"action": "approve", "media": "movie", "request_id": request_id})
            ),
            (
                "write_request_moderate".into(),
                json!({"action": "deny", "media": "album", "request_id": deny_id, "reason": "Not this season"})
            ),
        ],
        "{report:#}"
    );
    // ... and on to Ombi, whose answers the cards show: its refusal of a
    // season requested twice as an error, the rest as done.
    let refused = &report["outcomes"]["tv_refused"];
    assert_eq!(refused["error"], true, "{report:#}");
    assert!(
        refused["text"]
            .as_str()
            .unwrap()
            .contains("already been requested"),
        "{report:#}"
    );
    for done in ["movie", "tv", "approve", "deny"] {
        assert_eq!(
            report["outcomes"][done]["error"], false,
            "{done}: {report:#}"
        );
    }
    let writes = crate::support::rig::writes(&h);
    let movie = writes
        .iter()
        .find(|r| {
            r.path
                .to_ascii_lowercase()
                .ends_with("api/v1/request/movie")
        })
        .expect("the Request click reached Ombi");
    let body: Value = serde_json::from_str(&movie.body).unwrap();
    assert_eq!(body["theMovieDbId"], json!(tmdb));
    let approve = writes
        .iter()
        .find(|r| {
            r.path
                .to_ascii_lowercase()
                .ends_with("api/v1/request/movie/approve")
        })
        .expect("the Approve click reached Ombi");
    let body: Value = serde_json::from_str(&approve.body).unwrap();
    assert_eq!(body["id"], json!(request_id));
    let tv = writes
        .iter()
        .find(|r| r.path.to_ascii_lowercase().ends_with("api/v2/requests/tv"))
        .expect("the season request reached Ombi");
    let body: Value = serde_json::from_str(&tv.body).unwrap();
    assert_eq!(body["theMovieDbId"], json!(1396), "{body}");
    assert_eq!(body["seasons"][0]["seasonNumber"], json!(season), "{body}");
    assert_eq!(report["outcomes"]["tv"]["error"], false, "{report:#}");

    // Music artwork from its declared origin; one title's details as one card.
    let albums = report["views"]["albums"].as_array().unwrap();
    assert!(
        albums
            .iter()
            .any(|c| c["title"] == "Hybrid Theory" && c["img"] == "Poster: Hybrid Theory"),
        "{albums:#?}"
    );
    assert!(report["images"].as_array().unwrap().iter().any(|u| {
        u.as_str()
            .unwrap()
            .starts_with("https://coverartarchive.org/")
    }));
    let details = report["views"]["details"].as_array().unwrap();
    assert_eq!(details.len(), 1);
    assert_eq!(details[0]["title"], PLANTED);
    // A write_request_create result (the model's call, shown by the host):
    // one card with Ombi's outcome, and the request it made in Ombi.
    let created = report["views"]["created"].as_array().unwrap();
    assert_eq!(created.len(), 1, "{created:#?}");
    assert!(
        created[0].as_str().unwrap().contains("Request completed"),
        "{created:#?}"
    );
    assert_eq!(
        crate::support::rig::writes(&h)
            .iter()
            .filter(|r| r
                .path
                .to_ascii_lowercase()
                .ends_with("api/v1/request/movie"))
            .count(),
        2
    );

    // The deny, with the reason typed into the card, reached Ombi.
    let deny = writes
        .iter()
        .find(|r| r.path.to_ascii_lowercase().ends_with("/deny"))
        .unwrap_or_else(|| {
            panic!(
                "the Deny reached Ombi: {:?}",
                writes.iter().map(|r| &r.path).collect::<Vec<_>>()
            )
        });
    let body: Value = serde_json::from_str(&deny.body).unwrap();
    assert_eq!(body["id"], json!(deny_id), "{body}");
    assert_eq!(body["reason"], "Not this season", "{body}");

    // Cards carry the requester, the dates and the denial reason.
    let requests = report["views"]["requests"].as_array().unwrap();
    let text_of = |title: &str| {
        requests
            .iter()
            .find(|c| c["title"] == title)
            .unwrap_or_else(|| panic!("{title}: {requests:#?}"))["text"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let interstellar = text_of("Interstellar");
    assert!(
        interstellar.contains("by bob") && interstellar.contains("Requested 2026-04-01"),
        "{interstellar}"
    );
    let denied = text_of(PLANTED);
    assert!(
        denied.contains("Denied") && denied.contains("Reason: Already on the shelf"),
        "{denied}"
    );
    // Titles carry their year.
    assert!(
        report["views"]["titles"][0]["text"]
            .as_str()
            .unwrap()
            .contains("2010"),
        "{report:#}"
    );

    // States: loading until the result comes, an error result as an error,
    // an empty page as empty.
    assert_eq!(
        report["views"]["loading"],
        json!({"text": "Loading titles…", "busy": "true"})
    );
    assert_eq!(report["views"]["error_state"]["error"], true);
    assert_eq!(report["views"]["empty_state"], "No titles.");
    let shots: Vec<&str> = report["shots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    assert_eq!(shots.len(), 4, "{shots:?}");
    for shot in shots {
        assert!(std::fs::metadata(shot).unwrap().len() > 1000, "{shot}");
    }
}
