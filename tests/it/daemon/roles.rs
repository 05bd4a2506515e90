//! What a session lists follows the acting Ombi user's roles, over the real
//! socket with a real MCP client: the first `tools/list` reads the roles,
//! the later ones are answered from the same serialized listing.

use rmcp::model::CallToolRequestParams;
use serde_json::{Value, json};

use crate::harness::*;
use crate::support::fake_ombi::Options;
use crate::support::rig::Rig;

async fn listed(user: &str, options: Options) -> (Vec<Value>, Vec<String>, Rig) {
    let rig = Rig::binaries(
        options,
        &[
            ("OMBI_BUNDLES", "core,moderation,administration"),
            ("OMBI_USER_NAME", user),
        ],
        DaemonOpts::default(),
    )
    .await;
    let client = connect(rig.daemon()).await;
    let first = client.list_all_tools().await.unwrap();
    let second = client.list_all_tools().await.unwrap();
    assert_eq!(first, second, "the same listing both times");
    let prompts: Vec<String> = client
        .list_all_prompts()
        .await
        .unwrap()
        .into_iter()
        .map(|p| p.name.to_string())
        .collect();
    let tools = first
        .into_iter()
        .map(|t| serde_json::to_value(t).unwrap())
        .collect();
    client.cancel().await.unwrap();
    (tools, prompts, rig)
}

fn names(tools: &[Value]) -> Vec<&str> {
    tools.iter().map(|t| t["name"].as_str().unwrap()).collect()
}

fn action_enum(tools: &[Value], tool: &str) -> Value {
    tools.iter().find(|t| t["name"] == tool).unwrap()["inputSchema"]["properties"]["action"]["enum"]
        .clone()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_plain_users_session_lists_what_her_roles_let_her_do() {
    let (tools, prompts, rig) = listed("bob", Options::default()).await;
    let names = names(&tools);
    for hidden in [
        "read_settings",
        "read_logs",
        "write_request_moderate",
        "write_user_manage",
    ] {
        assert!(
            !names.contains(&hidden),
            "{hidden} listed to bob: {names:?}"
        );
    }
    assert!(
        names.contains(&"write_issue_manage"),
        "set_status needs no role"
    );
    assert_eq!(
        action_enum(&tools, "write_issue_manage"),
        json!(["set_status"])
    );
    assert_eq!(
        action_enum(&tools, "read_requests"),
        json!(["list", "get", "children", "search", "recent", "mine"])
    );
    // Prompts follow the tools: moderating needs write_request_moderate.
    assert!(
        !prompts.iter().any(|p| p == "moderate_pending"),
        "{prompts:?}"
    );
    assert!(prompts.iter().any(|p| p == "request_media"), "{prompts:?}");
    // A hidden tool called anyway is refused naming the role.
    let client = connect(rig.daemon()).await;
    let mut call = CallToolRequestParams::new("read_logs");
    call.arguments = json!({"action": "list"}).as_object().cloned();
    let result = client.call_tool(call).await.expect("a tool result");
    let sc = result.structured_content.unwrap();
    assert_eq!(sc["error"]["code"], "FORBIDDEN");
    assert_eq!(
        sc["error"]["message"],
        "needs Ombi's Admin role (bob has User); ask an Ombi admin"
    );
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn an_admins_session_lists_every_tool() {
    let (tools, prompts, _rig) = listed("alice", Options::default()).await;
    assert_eq!(tools.len(), ombi_mcp::tools::TOOLS.len());
    assert!(
        prompts.iter().any(|p| p == "moderate_pending"),
        "{prompts:?}"
    );
}
