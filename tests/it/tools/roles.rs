//! A missing Ombi role, in words: an action the acting user's roles do not
//! reach is refused `FORBIDDEN` naming the role and the next step before
//! anything is sent; Ombi's own refusal (403) is put the same way, never as
//! an HTTP route; roles that cannot be read leave the policy's view and the
//! refusal says why (docs/roles.md).

use serde_json::json;

use super::bob_with;
use crate::support::fake_ombi::{Fault, Options, PLAIN_USER};
use crate::support::rig::{Rig, err_code};

#[tokio::test]
async fn an_action_the_roles_do_not_reach_is_refused_naming_the_role() {
    let rig = Rig::start_with(Options::default(), Some(PLAIN_USER)).await;
    let env = rig
        .call("read_requests", json!({"action": "retry_queue"}))
        .await;
    assert_eq!(err_code(&env), "FORBIDDEN");
    assert_eq!(
        env["error"]["message"],
        "needs Ombi's Admin role (bob has User); ask an Ombi admin"
    );
    assert!(rig.gets("/api/v1/RequestRetry").is_empty(), "nothing sent");
    // A power user is told what the Admin role gives, and has PowerUser.
    let rig = Rig::start_with(bob_with(&["PowerUser"]), Some(PLAIN_USER)).await;
    let env = rig.call("read_logs", json!({"action": "list"})).await;
    assert_eq!(
        env["error"]["message"],
        "needs Ombi's Admin role (bob has PowerUser); ask an Ombi admin"
    );
    // What the roles reach runs as before.
    rig.ok("read_users", json!({"action": "list"})).await;
}

#[tokio::test]
async fn ombis_own_refusal_names_the_role_never_a_route() {
    // ManageOwnRequests keeps write_request_delete, but deleting a whole
    // show is PowerUser's alone in Ombi.
    let rig = Rig::start_with(bob_with(&["ManageOwnRequests"]), Some(PLAIN_USER)).await;
    let env = rig
        .call(
            "write_request_delete",
            json!({"target": {"kind": "tv_parent", "id": 10}}),
        )
        .await;
    assert_eq!(err_code(&env), "FORBIDDEN");
    let message = env["error"]["message"].as_str().unwrap();
    assert_eq!(
        message,
        "needs Ombi's PowerUser role (bob has ManageOwnRequests); ask an Ombi admin"
    );
    assert_eq!(env["error"]["http_status"], 403, "{env}");
    // A plain user is refused before Ombi is asked.
    let rig = Rig::start_with(Options::default(), Some(PLAIN_USER)).await;
    let env = rig
        .call(
            "write_request_delete",
            json!({"target": {"kind": "movie", "id": 1}}),
        )
        .await;
    assert_eq!(
        env["error"]["message"],
        "needs Ombi's PowerUser role (or ManageOwnRequests, for one's own requests) (bob has User); ask an Ombi admin"
    );
}

#[tokio::test]
async fn unread_roles_leave_the_policy_view_and_the_refusal_says_why() {
    let rig = Rig::start_with(Options::default(), Some(PLAIN_USER)).await;
    rig.fake
        .add_fault(Fault::on("GET", "/api/v1/Identity").status(503));
    let env = rig
        .call("read_requests", json!({"action": "retry_queue"}))
        .await;
    assert_eq!(err_code(&env), "FORBIDDEN");
    // Ombi was asked (the roles said nothing), and refused.
    assert_eq!(rig.gets("/api/v1/RequestRetry").len(), 1);
    let message = env["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("bob's Ombi roles could not be read")
            && message.contains("every tool the policy allows is shown")
            && message.contains("`retry_queue` needs Ombi's Admin role; ask an Ombi admin"),
        "{message}"
    );
    assert!(!message.contains("api/"), "{message}");
}

/// The bare API key acts as Ombi's system user `Api`, which holds Admin.
#[tokio::test]
async fn the_api_user_holds_admin() {
    let rig = Rig::start().await;
    rig.ok("read_requests", json!({"action": "retry_queue"}))
        .await;
    assert!(
        rig.gets("/api/v1/Identity").is_empty(),
        "no roles read for Api"
    );
}
