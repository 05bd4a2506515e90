//! `write_user_manage`: create (claims and password sent, the new id resolved), update (roles kept
//! unless given), delete, refusals up front, what a power user may change; a new user's password reaches
//! no output of the real daemon, even at `RUST_LOG=trace`.

use serde_json::{Value, json};

use crate::support::fake_ombi::state::user_id;
use crate::support::fake_ombi::{self as fake, Fault, Options};
use crate::support::rig::{Rig, err_code, ok_data};
use crate::tools::{assert_error, body, start_as, warnings, write_paths};
use crate::{harness, support};

/// A PowerUser named `pat`, in the login table and the Identity table.
fn with_power_user() -> Options {
    let mut o = Options::default();
    o.users.push((
        "pat".into(),
        "pats-Passw0rd".into(),
        vec!["PowerUser".into()],
    ));
    o.data
        .admin
        .users
        .push(support::fake_ombi::state_admin::user_view_model(
            "pat",
            None,
            None,
            "US",
            &["PowerUser"],
        ));
    o
}

/// Create sends `claims` (empty when no roles) and the password; Ombi
/// returns no id, so the new user is found by name.
#[tokio::test]
async fn create_sends_claims_and_password_and_resolves_the_id() {
    let rig = start_as(Options::default(), Some(fake::ADMIN_USER), None).await;
    let env = rig
        .ok(
            "write_user_manage",
            json!({"action": "create", "user": {"user_name": "dave", "password": "Dave-Passw0rd!",
                   "alias": "Dave", "movie_request_limit": 3}}),
        )
        .await;
    let post = rig.last("POST", "/api/v1/Identity");
    assert_eq!(post.header("UserName"), Some(fake::ADMIN_USER));
    assert_eq!(
        body(&post),
        json!({"userName": "dave", "claims": [], "password": "Dave-Passw0rd!", "alias": "Dave",
               "movieRequestLimit": 3})
    );
    let data = ok_data(&env);
    assert_eq!(data["outcome"], "completed");
    assert_eq!(data["user_id"], user_id("dave"));
    assert!(!env.to_string().contains("Dave-Passw0rd!"));

    let env = rig
        .ok(
            "write_user_manage",
            json!({"action": "create", "user": {"user_name": "erin", "password": "Erin-Passw0rd!",
                   "roles": ["RequestMovie", "RequestTv"]}}),
        )
        .await;
    assert_eq!(
        body(&rig.last("POST", "/api/v1/Identity"))["claims"],
        json!([{"value": "RequestMovie", "enabled": true}, {"value": "RequestTv", "enabled": true}])
    );
    assert_eq!(env["data"]["user_id"], user_id("erin"));
}

/// What Ombi would ignore or fail on is refused before anything is sent.
#[tokio::test]
async fn user_arguments_ombi_cannot_honour_are_refused_up_front() {
    let rig = Rig::start().await;
    for (args, field) in [
        (
            json!({"action": "create", "user": {"user_name": "x"}}),
            "/user/password",
        ),
        (
            json!({"action": "create", "user": {"user_name": "x", "password": "p", "language": "fr"}}),
            "/user/language",
        ),
        (
            json!({"action": "create", "user": {"user_name": "x", "password": "p",
                   "movie_request_limit_type": "day"}}),
            "/user/movie_request_limit_type",
        ),
        (
            json!({"action": "update", "user_id": "u", "user": {"user_name": "y"}}),
            "/user/user_name",
        ),
        (
            json!({"action": "update", "user_id": "u", "user": {"password": "p"}}),
            "/user/password",
        ),
    ] {
        let env = rig.err("write_user_manage", args.clone()).await;
        assert_eq!(err_code(&env), "INVALID_ARGUMENT", "{args}");
        assert_eq!(env["error"]["field"], field, "{args}");
    }
    // A password of the wrong type is not echoed back.
    let env = rig
        .err(
            "write_user_manage",
            json!({"action": "create", "user": {"user_name": "x", "password": 73519864}}),
        )
        .await;
    assert_eq!(env["error"]["field"], "/user/password");
    assert!(!env.to_string().contains("73519864"), "{env}");
    assert!(rig.fake.requests().is_empty());
}

/// A refusal carrying the password back never shows it; a taken name is a
/// CONFLICT.
#[tokio::test]
async fn create_refusals_never_show_the_password() {
    let rig = Rig::start().await;
    let env = rig
        .err(
            "write_user_manage",
            json!({"action": "create", "user": {"user_name": "bob", "password": "Bobs-New-Passw0rd"}}),
        )
        .await;
    assert_eq!(err_code(&env), "CONFLICT");
    rig.fake.add_fault(
        Fault::on("POST", "/api/v1/Identity").business(
            json!({"successful": false, "errors": ["'Sekr1t-Echoed-Back' is too common"]}),
        ),
    );
    let env = rig
        .err(
            "write_user_manage",
            json!({"action": "create", "user": {"user_name": "zed", "password": "Sekr1t-Echoed-Back"}}),
        )
        .await;
    assert_eq!(err_code(&env), "UPSTREAM_REJECTED");
    assert!(!env.to_string().contains("Sekr1t-Echoed-Back"), "{env}");
}

/// Update is a read-modify-write of the whole record: the given fields
/// changed, the current enabled roles re-sent (only those), no password.
#[tokio::test]
async fn update_keeps_roles_unless_given_and_resends_the_record() {
    let rig = Rig::start().await;
    let bob = user_id(fake::PLAIN_USER);
    let record = rig.fake.with_data(|d| {
        d.admin
            .users
            .iter()
            .find(|u| u["id"] == bob)
            .cloned()
            .unwrap()
    });
    let env = rig
        .ok(
            "write_user_manage",
            json!({"action": "update", "user_id": bob, "user": {"alias": "Bobby", "episode_request_limit": 20,
                   "episode_request_limit_type": "month"}}),
        )
        .await;
    let put = body(&rig.last("PUT", "/api/v1/Identity"));
    let mut expected = support::fake_ombi::state_writes::user_view(&record);
    expected["alias"] = json!("Bobby");
    expected["episodeRequestLimit"] = json!(20);
    expected["episodeRequestLimitType"] = json!(2);
    let enabled: Vec<Value> = record["claims"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["enabled"] == true)
        .cloned()
        .collect();
    assert_eq!(enabled.len(), 2);
    expected["claims"] = json!(enabled);
    assert_eq!(put, expected);
    assert_eq!(env["data"]["user_id"], bob);
    let roles = |rig: &Rig| {
        rig.fake.with_data(|d| {
            support::fake_ombi::state_writes::row_roles(
                d.admin.users.iter().find(|u| u["id"] == bob).unwrap(),
            )
        })
    };
    assert_eq!(roles(&rig).len(), 2);

    rig.ok(
        "write_user_manage",
        json!({"action": "update", "user_id": bob, "user": {"roles": ["RequestMusic"]}}),
    )
    .await;
    assert_eq!(roles(&rig), vec!["RequestMusic"]);
}

/// A limit period Ombi shows as Week may be an unset (rolling) one, which
/// the update cannot keep: warned.
#[tokio::test]
async fn update_warns_about_the_week_read_for_an_unset_period() {
    let rig = Rig::start().await;
    rig.ok(
        "write_user_manage",
        json!({"action": "create", "user": {"user_name": "fay", "password": "Fay-Passw0rd!", "movie_request_limit": 2}}),
    )
    .await;
    let env = rig
        .ok(
            "write_user_manage",
            json!({"action": "update", "user_id": user_id("fay"), "user": {"alias": "F"}}),
        )
        .await;
    assert!(warnings(&env).contains("the movie limit period"), "{env}");
    assert_eq!(
        body(&rig.last("PUT", "/api/v1/Identity"))["movieRequestLimitType"],
        1
    );
}

/// A PowerUser may change a plain user (only enabled roles are sent, so the
/// record's disabled Admin claim is not), never an Admin: FORBIDDEN saying why.
#[tokio::test]
async fn power_user_changes_plain_users_but_not_admins() {
    let rig = start_as(with_power_user(), Some("pat"), None).await;
    rig.ok(
        "write_user_manage",
        json!({"action": "update", "user_id": user_id("bob"), "user": {"alias": "B"}}),
    )
    .await;
    let env = rig
        .err(
            "write_user_manage",
            json!({"action": "update", "user_id": user_id("alice"), "user": {"alias": "A"}}),
        )
        .await;
    assert_error(&env, "FORBIDDEN", "only an Admin");
}

/// Unknown ids: update reads first (Ombi answers 500) and sends nothing;
/// delete is refused by Ombi with a message → NOT_FOUND.
#[tokio::test]
async fn unknown_users_are_not_found_and_delete_removes_the_user() {
    let rig = Rig::start().await;
    let env = rig
        .err(
            "write_user_manage",
            json!({"action": "update", "user_id": "no-such-user", "user": {"alias": "x"}}),
        )
        .await;
    assert_eq!(err_code(&env), "NOT_FOUND");
    assert!(write_paths(&rig).is_empty());
    let env = rig
        .err(
            "write_user_manage",
            json!({"action": "delete", "user_id": "no-such-user"}),
        )
        .await;
    assert_eq!(err_code(&env), "NOT_FOUND");

    let carol = user_id("carol");
    let env = rig
        .ok(
            "write_user_manage",
            json!({"action": "delete", "user_id": carol}),
        )
        .await;
    assert_eq!(
        rig.last("DELETE", "/api/v1/Identity/").path,
        format!("/api/v1/Identity/{carol}")
    );
    assert_eq!(env["data"]["outcome"], "completed");
    assert_eq!(env["data"]["user_id"], carol);
    assert!(
        rig.fake
            .with_data(|d| d.admin.users.iter().all(|u| u["id"] != carol))
    );
}

/// The real daemon at `RUST_LOG=trace` (rmcp's request logging included, if
/// it were not capped), reached over its socket: a password given to
/// `write_user_manage create` reaches Ombi and appears nowhere in the
/// daemon's output (stdout and stderr), nor in the result; the audit
/// record of the call is there.
#[tokio::test(flavor = "multi_thread")]
async fn a_new_users_password_reaches_no_daemon_output_at_trace() {
    use rmcp::model::CallToolRequestParams;
    const PASSWORD: &str = "Pw-7c1e5a9d-NeverLogged";
    let fake = fake::FakeOmbi::start(Options::default()).await;
    let d = harness::Daemon::start(harness::DaemonOpts {
        env: vec![
            ("OMBI_URL".into(), fake.url.clone()),
            ("OMBI_AUTH_MODE".into(), "api_key".into()),
            ("OMBI_API_KEY".into(), fake::API_KEY.into()),
            ("OMBI_USER_NAME".into(), fake::ADMIN_USER.into()),
            (
                "OMBI_BUNDLES".into(),
                "core,moderation,administration".into(),
            ),
            ("RUST_LOG".into(), "trace".into()),
        ],
        ..harness::DaemonOpts::default()
    });
    let client = harness::connect(&d).await;
    let mut call = CallToolRequestParams::new("write_user_manage");
    call.arguments = json!({"action": "create", "user": {"user_name": "gina", "password": PASSWORD,
                            "email_address": "gina@example.net"}})
    .as_object()
    .cloned();
    let result = client.call_tool(call).await.expect("a tool result");
    let sc = result.structured_content.expect("structuredContent");
    assert_eq!(sc["ok"], true, "{sc}");
    assert!(!format!("{sc}{:?}", result.content).contains(PASSWORD));
    client.cancel().await.unwrap();

    // Ombi got it: the guarantee is about everything else.
    assert!(
        fake.requests()
            .iter()
            .any(|r| r.method == "POST" && r.body.contains(PASSWORD))
    );
    let logs = d.wait_log("audit");
    assert!(
        logs.contains("TRACE") || logs.contains("DEBUG"),
        "the daemon did not log at trace:\n{logs}"
    );
    assert!(
        logs.contains("write_user_manage"),
        "no audit record:\n{logs}"
    );
    assert!(
        !logs.contains(PASSWORD),
        "the password is in the daemon's output"
    );
    assert!(
        !logs.contains("Pw-7c1e5a9d"),
        "part of the password is in the daemon's output"
    );
}
