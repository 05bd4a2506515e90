//! SIGHUP (`systemctl reload`, the units' `ExecReload=`): the policy file is read again for new
//! connections, open sessions keep going as they were admitted, and an invalid file is refused
//! with one log line, the policy in force kept.

use nix::sys::signal::{Signal, kill};
use rmcp::model::CallToolRequestParams;
use serde_json::json;

use crate::harness::{self, Daemon, DaemonOpts};
use crate::support::fake_ombi::{self as fake, FakeOmbi, Options};

async fn tool_names(client: &rmcp::service::RunningService<rmcp::RoleClient, ()>) -> Vec<String> {
    client
        .list_all_tools()
        .await
        .expect("tools/list")
        .into_iter()
        .map(|t| t.name.to_string())
        .collect()
}

fn writes(names: &[String]) -> usize {
    names.iter().filter(|n| n.starts_with("write_")).count()
}

async fn read_server_ok(client: &rmcp::service::RunningService<rmcp::RoleClient, ()>) {
    let mut call = CallToolRequestParams::new("read_server");
    call.arguments = json!({"action": "status"}).as_object().cloned();
    let result = client.call_tool(call).await.expect("a tool result");
    let sc = result.structured_content.expect("structuredContent");
    assert_eq!(sc["ok"], true, "{sc}");
}

/// Read-only by the first policy; the session opened then stays read-only and keeps working after
/// a reload that lifts it, while a new connection sees the write tools. A broken file then is
/// refused (one error line naming the file) and the second policy stays in force.
#[tokio::test(flavor = "multi_thread")]
async fn sighup_applies_a_changed_policy_to_new_connections_and_keeps_sessions() {
    let fake = FakeOmbi::start(Options::default()).await;
    let me = nix::unistd::geteuid().as_raw();
    let d = Daemon::start(DaemonOpts {
        env: vec![
            ("OMBI_URL".into(), fake.url.clone()),
            ("OMBI_AUTH_MODE".into(), "api_key".into()),
            ("OMBI_API_KEY".into(), fake::API_KEY.into()),
            ("OMBI_USER_NAME".into(), fake::PLAIN_USER.into()),
        ],
        policy: Some(format!(r#"{{"peers":[{{"uid":{me},"read_only":true}}]}}"#)),
        ..DaemonOpts::default()
    });
    let policy = d.dir.path().join("policy.json");

    let before = harness::connect(&d).await;
    assert_eq!(writes(&tool_names(&before).await), 0);

    std::fs::write(&policy, format!(r#"{{"peers":[{{"uid":{me}}}]}}"#)).unwrap();
    kill(d.pid(), Signal::SIGHUP).unwrap();
    let logs = d.wait_log("policy reloaded");
    assert!(logs.contains("policy reloaded"), "{logs}");

    // The open session: intact, and still read-only as admitted.
    assert_eq!(writes(&tool_names(&before).await), 0);
    read_server_ok(&before).await;
    // A new connection: the new policy.
    let after = harness::connect(&d).await;
    let names = tool_names(&after).await;
    assert!(writes(&names) > 0, "{names:?}");
    after.cancel().await.unwrap();

    std::fs::write(&policy, r#"{"peers":[{"uid":"root"}]}"#).unwrap();
    kill(d.pid(), Signal::SIGHUP).unwrap();
    let logs = d.wait_log("reload refused");
    let refused: Vec<&str> = logs
        .lines()
        .filter(|l| l.contains("reload refused"))
        .collect();
    assert_eq!(refused.len(), 1, "{logs}");
    assert!(refused[0].contains("policy.json"), "{}", refused[0]);
    assert!(
        refused[0].contains("previous policy stays in force"),
        "{}",
        refused[0]
    );

    let again = harness::connect(&d).await;
    assert!(writes(&tool_names(&again).await) > 0);
    read_server_ok(&again).await;
    read_server_ok(&before).await;
    again.cancel().await.unwrap();
    before.cancel().await.unwrap();
    assert!(d.connectable(), "the daemon is still serving");
}
