//! Untrusted text through the real daemon (socket, rmcp client, the fake Ombi
//! in this process): hidden text planted in the fake's sample never reaches
//! the client, and `OMBI_LOCKDOWN=true` withholds a stranger's comment while
//! the acting user's and an admin's are shown.
use crate::harness::*;
use crate::support::fake_ombi::state_requests::HIDDEN_WORDS;
use crate::support::fake_ombi::{API_KEY, FakeOmbi, Options};
use ombi_mcp::text::untrusted::leaks;
use ombi_mcp::tools::lockdown::WITHHELD;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use serde_json::{Value, json};

fn comment(sc: &Value, id: i64) -> &Value {
    sc["data"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == json!(id))
        .unwrap()
}

/// `read_issues comments` of issue 2 from a daemon started with `env`
/// (kept running while the result is read).
async fn comments_of_issue_2(env: Vec<(String, String)>) -> (Daemon, CallToolResult) {
    let d = Daemon::start(DaemonOpts {
        env,
        ..DaemonOpts::default()
    });
    let client = connect(&d).await;
    let mut p = CallToolRequestParams::new("read_issues");
    p.arguments = json!({"action": "comments", "issue_id": 2})
        .as_object()
        .cloned();
    let result = client.call_tool(p).await.unwrap();
    (d, result)
}

#[tokio::test(flavor = "multi_thread")]
async fn the_daemon_under_lockdown_sends_no_hidden_text_and_withholds_strangers() {
    let fake = FakeOmbi::start(Options::default()).await;
    let mut env = vec![
        ("OMBI_URL".to_string(), fake.url.clone()),
        ("OMBI_AUTH_MODE".into(), "api_key".into()),
        ("OMBI_API_KEY".into(), API_KEY.into()),
        ("OMBI_USER_NAME".into(), "bob".into()),
        ("OMBI_LOCKDOWN".into(), "true".into()),
    ];
    let (d, result) = comments_of_issue_2(env.clone()).await;
    let text = result.content[0].as_text().unwrap().text.clone();
    assert!(!leaks(&text), "{text:?}");
    for w in HIDDEN_WORDS {
        assert!(!text.contains(w), "{w} reached the client: {text}");
    }
    let sc = result.structured_content.unwrap();
    assert_eq!(comment(&sc, 3)["comment"], WITHHELD); // carol
    assert_eq!(comment(&sc, 4)["comment"], "Same here"); // bob, the acting user
    assert_eq!(comment(&sc, 5)["comment"], "Fixed on our side"); // alice, Admin
    assert!(d.logs().contains("lockdown=true"), "{}", d.logs());
    drop(d);

    // Without lockdown the same daemon shows carol's words, cleaned, with the warning.
    env.retain(|(k, _)| k != "OMBI_LOCKDOWN");
    let (_d, result) = comments_of_issue_2(env).await;
    let sc = result.structured_content.unwrap();
    assert_eq!(comment(&sc, 3)["comment"], "Still no sound");
    let warnings = sc["warnings"].as_array().unwrap();
    assert_eq!(
        warnings
            .iter()
            .filter(|w| w.as_str().unwrap().starts_with("removed "))
            .count(),
        1,
        "{sc}"
    );
}
