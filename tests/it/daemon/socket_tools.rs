//! Tools over the real socket: the real daemon and shim, an rmcp client, and
//! the fake Ombi (real shapes) in this test process.

use std::time::Duration;

use rmcp::model::CallToolRequestParams;
use serde_json::Value;

use crate::harness::*;
use crate::support;
use crate::support::bad_args;
use crate::support::fake_ombi::{API_KEY, FakeOmbi, Options};
use crate::support::rig::Rig;

fn env_for(fake: &FakeOmbi, bundles: &str) -> Vec<(String, String)> {
    vec![
        ("OMBI_URL".into(), fake.url.clone()),
        ("OMBI_AUTH_MODE".into(), "api_key".into()),
        ("OMBI_API_KEY".into(), API_KEY.into()),
        ("OMBI_BUNDLES".into(), bundles.into()),
    ]
}

fn call(tool: &str, args: &Value) -> CallToolRequestParams {
    let mut p = CallToolRequestParams::new(tool.to_string());
    p.arguments = args.as_object().cloned();
    p
}

/// Every invalid call of the table whose tool is served answers
/// INVALID_ARGUMENT with the exact `field`, and nothing reaches Ombi.
#[tokio::test(flavor = "multi_thread")]
async fn invalid_arguments_are_refused_before_anything_leaves_the_process() {
    let h = Rig::binaries(
        Options::default(),
        &[("OMBI_BUNDLES", "core,moderation,administration")],
        DaemonOpts::default(),
    )
    .await;
    let (fake, d) = (&h.fake, h.daemon());
    let client = connect(d).await;
    let listed: Vec<String> = client
        .list_all_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.name.to_string())
        .collect();
    let before = fake.requests().len();
    let mut exercised = 0;
    for (tool, args, field) in bad_args::cases() {
        if !listed.iter().any(|t| t == tool) {
            continue;
        }
        exercised += 1;
        let result = client
            .call_tool(call(tool, &args))
            .await
            .expect("a tool result, not a protocol error");
        assert_eq!(result.is_error, Some(true), "{tool} {args}");
        let sc = result
            .structured_content
            .expect("structuredContent on errors too");
        assert_eq!(sc["ok"], false);
        assert_eq!(sc["operation"], tool);
        assert_eq!(
            sc["error"]["code"], "INVALID_ARGUMENT",
            "{tool} {args}: {sc}"
        );
        assert_eq!(sc["error"]["field"], field, "{tool} {args}: {sc}");
        assert!(!sc["error"]["message"].as_str().unwrap().is_empty());
        assert!(sc["correlation_id"].as_str().is_some_and(|c| !c.is_empty()));
    }
    assert_eq!(
        fake.requests().len(),
        before,
        "validation must fail before any Ombi request"
    );
    eprintln!(
        "exercised {exercised} invalid calls over the socket across {} tools",
        listed.len()
    );
    if listed.iter().filter(|t| t.starts_with("read_")).count() == 14 {
        assert!(exercised >= 60, "only {exercised} invalid calls exercised");
    }
    client.cancel().await.unwrap();
    // The log names each failure in plain values an operator can grep.
    let logs = d.logs();
    assert!(
        logs.contains("tool call failed") && logs.contains("code=INVALID_ARGUMENT field=/"),
        "{logs}"
    );
    assert!(!logs.contains("Some("), "{logs}");
}

/// The session's bundles and read-only flag decide what is listed and callable.
#[tokio::test(flavor = "multi_thread")]
async fn bundles_and_read_only_filter_list_and_call() {
    let h = Rig::binaries(
        Options::default(),
        &[("OMBI_BUNDLES", "core"), ("OMBI_READ_ONLY", "true")],
        DaemonOpts::default(),
    )
    .await;
    let d = h.daemon();
    let client = connect(d).await;
    let tools = client.list_all_tools().await.unwrap();
    for t in &tools {
        assert!(
            t.name.starts_with("read_"),
            "read-only session lists {}",
            t.name
        );
        let def = &ombi_mcp::tools::find(&t.name)
            .expect("listed tools are served tools")
            .def;
        assert_eq!(def.bundle, ombi_mcp::definition::Bundle::Core, "{}", t.name);
        assert!(t.output_schema.is_some(), "{} has an outputSchema", t.name);
    }
    // Tools of other bundles or write tools are unknown to this session.
    for name in [
        "read_settings",
        "read_logs",
        "write_request_create",
        "write_vote",
    ] {
        let err = client.call_tool(call(name, &serde_json::json!({}))).await;
        assert!(err.is_err(), "{name} must be unknown here");
    }
    client.cancel().await.unwrap();
}

/// SIGTERM while a call is in flight: the call finishes and is answered,
/// then the daemon exits 0 and removes its socket.
#[tokio::test(flavor = "multi_thread")]
async fn shutdown_lets_in_flight_calls_finish() {
    use support::fake_ombi::Fault;
    let fake = FakeOmbi::start(Options::default()).await;
    // Ombi answers the status read slowly, so SIGTERM lands mid-call.
    fake.add_fault(
        Fault::on("GET", "/api/v1/Status*")
            .delay(Duration::from_millis(1500))
            .times(1),
    );
    let mut d = Daemon::start(DaemonOpts {
        env: env_for(&fake, "core,moderation,administration"),
        ..DaemonOpts::default()
    });
    let client = connect(&d).await;
    let listed = client.list_all_tools().await.unwrap();
    assert!(
        listed.iter().any(|t| t.name == "read_server"),
        "read_server is served"
    );
    let started = std::time::Instant::now();
    let in_flight = tokio::spawn(async move {
        let r = client
            .call_tool(call(
                "read_server",
                &serde_json::json!({"action": "status"}),
            ))
            .await;
        (r, client)
    });
    // SIGTERM once the read has reached Ombi (the fake logs a request before
    // its delay), so the call is surely in flight in the daemon.
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while fake.hits("GET", "/api/v1/Status") == 0 {
        assert!(
            std::time::Instant::now() < deadline,
            "the read reached Ombi"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    nix::sys::signal::kill(d.pid(), nix::sys::signal::Signal::SIGTERM).unwrap();
    let (result, _client) = in_flight.await.unwrap();
    let result = result.expect("the in-flight call is answered during shutdown");
    assert!(
        started.elapsed() >= Duration::from_millis(1400),
        "the call was still waiting on Ombi when SIGTERM came"
    );
    assert_eq!(
        fake.hits("GET", "/api/v1/Status"),
        1,
        "the slow read reached Ombi"
    );
    let sc = result.structured_content.expect("structuredContent");
    assert_eq!(sc["ok"], true, "{sc}");
    let status = tokio::task::spawn_blocking(move || {
        let s = d
            .wait(Duration::from_secs(20))
            .expect("daemon exits after draining");
        (s, d)
    })
    .await
    .unwrap();
    assert!(status.0.success(), "{:?}\n{}", status.0, status.1.logs());
    assert!(!status.1.socket.exists());
}
