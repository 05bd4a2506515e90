//! The views as the daemon declares and serves them, over the real socket
//! through the real shim with an rmcp client, against the fake Ombi: every
//! rule of docs/apps.md that does not need a browser.

use rmcp::model::{CallToolRequestParams, ReadResourceRequestParams, ResourceContents};
use serde_json::{Value, json};

use crate::harness::*;
use crate::support::fake_ombi::Options;
use crate::support::rig::Rig;
use ombi_mcp::views::{self, ARTWORK_ORIGINS, MAX_BYTES, VIEWS};

const MIME: &str = "text/html;profile=mcp-app";

async fn rig(bundles: &str) -> Rig {
    Rig::binaries(
        Options::default(),
        &[("OMBI_BUNDLES", bundles)],
        DaemonOpts::default(),
    )
    .await
}

/// `resources/read` of `uri`: its one content item as JSON.
async fn read(client: &rmcp::service::RunningService<rmcp::RoleClient, ()>, uri: &str) -> Value {
    let result = client
        .read_resource(ReadResourceRequestParams::new(uri))
        .await
        .expect("a view reads");
    assert_eq!(result.contents.len(), 1, "{uri}");
    assert!(matches!(
        result.contents[0],
        ResourceContents::TextResourceContents { .. }
    ));
    serde_json::to_value(&result.contents[0]).unwrap()
}

/// The tools of §8 declare their view with both keys in `tools/list`, the
/// others declare none; the views are listed with the app mimeType and
/// their CSP and border; read, each is the page with exactly the artwork
/// origins as `resourceDomains`.
#[tokio::test(flavor = "multi_thread")]
async fn tools_declare_their_view_and_the_views_are_listed_and_read() {
    let h = rig("core,moderation,administration").await;
    let client = connect(h.daemon()).await;
    let want = [
        ("read_search", "ui://ombi/titles"),
        ("read_discover", "ui://ombi/titles"),
        ("read_library", "ui://ombi/titles"),
        ("read_media", "ui://ombi/titles"),
        ("read_requests", "ui://ombi/requests"),
        ("write_request_create", "ui://ombi/requests"),
    ];
    let listed = client.list_all_tools().await.unwrap();
    for tool in &listed {
        let meta = serde_json::to_value(&tool.meta).unwrap();
        match want.iter().find(|(name, _)| *name == tool.name) {
            Some((_, uri)) => {
                assert_eq!(meta["ui"], json!({"resourceUri": uri}), "{}", tool.name);
                assert_eq!(meta["ui/resourceUri"], json!(uri), "{}", tool.name);
            }
            None => assert!(meta.get("ui").is_none(), "{}: {meta}", tool.name),
        }
    }
    assert_eq!(
        listed.iter().filter(|t| t.meta.is_some()).count(),
        want.len()
    );

    let resources = client.list_all_resources().await.unwrap();
    let apps: Vec<&rmcp::model::Resource> = resources
        .iter()
        .filter(|r| r.uri.starts_with("ui://"))
        .collect();
    let uris: Vec<&str> = apps.iter().map(|r| r.uri.as_str()).collect();
    assert_eq!(uris, ["ui://ombi/titles", "ui://ombi/requests"]);
    let csp = json!({"csp": {"resourceDomains": ["https://image.tmdb.org", "https://coverartarchive.org", "https://assets.fanart.tv"]}, "prefersBorder": true});
    for r in apps {
        assert_eq!(r.mime_type.as_deref(), Some(MIME));
        assert_eq!(serde_json::to_value(&r.meta).unwrap()["ui"], csp);
        let item = read(&client, &r.uri).await;
        assert_eq!(item["uri"], json!(r.uri));
        assert_eq!(item["mimeType"], MIME);
        assert_eq!(item["_meta"]["ui"], csp, "{}", r.uri);
        let text = item["text"].as_str().unwrap();
        assert!(text.starts_with("<!doctype html>"), "{}", r.uri);
        assert!(text.len() <= MAX_BYTES, "{}: {} bytes", r.uri, text.len());
        // The page checks image URLs against the same list as the CSP.
        let origins = serde_json::to_string(ARTWORK_ORIGINS).unwrap();
        assert!(
            text.contains(&format!("var ORIGINS = {origins};")),
            "{}",
            r.uri
        );
    }
    // A ui:// URI that is not a view is an unknown resource, as any other.
    let e = client
        .read_resource(ReadResourceRequestParams::new("ui://ombi/nothing"))
        .await
        .unwrap_err();
    assert!(
        format!("{e}").contains("-32602") || format!("{e:?}").contains("-32602"),
        "{e:?}"
    );
}

/// A view cannot list tools: the body a session reads has the controls of
/// exactly the tools it can see. Core only: Request, no moderation; with
/// moderation: Approve/Deny; read-only: neither.
#[tokio::test(flavor = "multi_thread")]
async fn each_session_reads_the_view_for_what_it_may_do() {
    let cases = [
        ("core,moderation", "", true, true),
        ("core", "", true, false),
        ("core,moderation", "1", false, false),
    ];
    for (bundles, read_only, request, moderate) in cases {
        let h = Rig::binaries(
            Options::default(),
            &[("OMBI_BUNDLES", bundles), ("OMBI_READ_ONLY", read_only)],
            DaemonOpts::default(),
        )
        .await;
        let client = connect(h.daemon()).await;
        let titles = read(&client, "ui://ombi/titles").await;
        let titles = titles["text"].as_str().unwrap();
        let requests = read(&client, "ui://ombi/requests").await;
        let requests = requests["text"].as_str().unwrap();
        let case = format!("{bundles} read_only={read_only:?}");
        assert_eq!(titles.contains("write_request_create"), request, "{case}");
        assert_eq!(titles.contains("\"Request\""), request, "{case}");
        assert_eq!(
            requests.contains("write_request_moderate"),
            moderate,
            "{case}"
        );
        assert_eq!(requests.contains("\"Approve\""), moderate, "{case}");
        assert_eq!(requests.contains("\"Deny\""), moderate, "{case}");
        // What every session gets: the cards themselves.
        assert!(
            titles.contains("tool-result") && requests.contains("tool-result"),
            "{case}"
        );
    }
}

/// A host without apps gets exactly today's results: a declared tool's
/// result over the socket is the envelope as its text block and as
/// `structuredContent`, with no `_meta` and nothing of a view in it.
#[tokio::test(flavor = "multi_thread")]
async fn results_of_declared_tools_are_unchanged() {
    let h = rig("core,moderation").await;
    let client = connect(h.daemon()).await;
    let calls = [
        ("read_search", json!({"query": "matrix"})),
        ("read_requests", json!({"action": "list", "media": "movie"})),
        (
            "read_media",
            json!({"action": "details", "media": "movie", "tmdb_id": 603}),
        ),
    ];
    for (tool, args) in calls {
        let mut p = CallToolRequestParams::new(tool.to_string());
        p.arguments = args.as_object().cloned();
        let result = client.call_tool(p).await.unwrap();
        let v = serde_json::to_value(&result).unwrap();
        assert!(v.get("_meta").is_none(), "{tool}: {v}");
        assert_eq!(result.content.len(), 1, "{tool}");
        let text = result.content[0]
            .as_text()
            .expect("a text block")
            .text
            .clone();
        assert!(!text.contains("ui://"), "{tool}");
        let parsed: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(Some(parsed), result.structured_content, "{tool}");
    }
}

/// Safe by construction, as far as the page's text can show it: within the
/// budget; Ombi's text only ever set as `textContent`; no network API, no
/// external script, style, font or frame; no height tied to the viewport
/// (which would loop with size-changed). The browser test shows the rest.
#[test]
fn the_pages_are_self_contained_and_use_no_html_sinks() {
    let forbidden = [
        "innerHTML",
        "outerHTML",
        "insertAdjacentHTML",
        "document.write",
        "eval(",
        "new Function",
        "fetch(",
        "XMLHttpRequest",
        "WebSocket",
        "EventSource",
        "sendBeacon",
        "import(",
        "<link",
        "<iframe",
        "@import",
        "@font-face",
        "url(",
        "src=\"",
        "100vh",
        "window.open",
        "location.",
    ];
    for view in VIEWS {
        let body = views::body(view.html, |_| true);
        assert!(
            body.len() <= MAX_BYTES,
            "{}: {} bytes",
            view.uri,
            body.len()
        );
        for bad in forbidden {
            assert!(!body.contains(bad), "{} contains {bad:?}", view.uri);
        }
        // Exactly one image sink, fed by the origin check.
        assert_eq!(body.matches(".src = ").count(), 1, "{}", view.uri);
        assert!(body.contains("img.src = src;") && body.contains("posterOf(uris)"));
        assert!(
            body.contains("img.alt = "),
            "{}: images carry alt text",
            view.uri
        );
        for state in ["Loading", "No ", "error"] {
            assert!(body.contains(state), "{}: no {state} state", view.uri);
        }
        assert!(body.contains("ui/notifications/size-changed"));
        assert!(body.contains("prefers-color-scheme: dark") && body.contains("data-theme"));
    }
}

/// The CSP names exactly the artwork origins the titles view's tools return:
/// every example call of those tools against the sample Ombi (whose artwork
/// is Ombi's: TMDB paths, Lidarr's Cover Art Archive and fanart.tv URLs)
/// gives artwork only on declared origins — but for the TVMaze banners of
/// Ombi's v1 TV rows, which the view never shows (it takes the TMDB poster
/// first, docs/apps.md) — and every declared origin is used by some result.
#[tokio::test]
async fn the_declared_origins_are_those_of_the_artwork_the_tools_return() {
    const NOT_SHOWN: &[&str] = &["https://static.tvmaze.com"];
    let rig = Rig::start().await;
    let mut seen: Vec<String> = Vec::new();
    for name in views::TITLES.tools {
        let tool = ombi_mcp::tools::find(name).unwrap();
        for (args, ok) in tool.examples {
            let args = crate::support::examples::filled(&rig, args).await;
            let env = rig.call(name, args.clone()).await;
            assert_eq!(env["ok"], json!(*ok), "{name} {args}: {env}");
            for item in env["data"]["items"].as_array().into_iter().flatten() {
                let uris = item["artwork_uris"].as_array().into_iter().flatten();
                for uri in uris.filter_map(Value::as_str) {
                    let origin = reqwest::Url::parse(uri)
                        .unwrap()
                        .origin()
                        .ascii_serialization();
                    if !seen.contains(&origin) {
                        seen.push(origin);
                    }
                }
            }
        }
    }
    let undeclared: Vec<&String> = seen
        .iter()
        .filter(|o| !ARTWORK_ORIGINS.contains(&o.as_str()) && !NOT_SHOWN.contains(&o.as_str()))
        .collect();
    assert!(
        undeclared.is_empty(),
        "artwork on undeclared origins: {undeclared:?}"
    );
    for origin in ARTWORK_ORIGINS {
        assert!(
            seen.iter().any(|o| o == origin),
            "{origin} is declared but no result uses it: {seen:?}"
        );
    }
}
