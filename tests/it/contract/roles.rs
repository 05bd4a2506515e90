//! The role each action needs is declared once, on the action
//! (`#[action(role = "…")]`): docs/roles.md's table is made from the
//! declarations, and each declaration is held to the routes its example
//! calls reach in the fake Ombi, whose route table carries Ombi's
//! `[Admin]`/`[PowerUser]` attributes.

use ombi_mcp::definition::{Held, Role, ToolDef};
use ombi_mcp::tools::{TOOLS, view};
use serde_json::Value;

use crate::support::examples::filled;
use crate::support::fake_ombi::Options;
use crate::support::fake_ombi::routes::{Access, access_of};
use crate::support::generated::check_generated;
use crate::support::rig::Rig;

const TABLE_BEGIN: &str = "<!-- generated from the actions' declarations (#[action(role = …)]): edit the tools, then UPDATE_DOCS=1 cargo test --all-features --test it contract::roles -->";
const TABLE_END: &str = "<!-- end of the generated role table -->";

/// docs/roles.md's table: every tool, and its actions grouped by the role
/// they need.
fn role_table() -> String {
    let mut out = format!(
        "{TABLE_BEGIN}\n\n| tool | User | PowerUser (or ManageOwnRequests for one's own) | PowerUser | Admin |\n|---|---|---|---|---|\n"
    );
    for t in TOOLS {
        let def: &ToolDef = &t.def;
        let cell = |role: Role| {
            let names: Vec<String> = def
                .actions
                .iter()
                .filter(|a| a.role == role)
                .map(|a| format!("`{}`", a.name))
                .collect();
            if names.len() == def.actions.len() && def.actions.len() > 1 {
                "all".to_string()
            } else if !def.has_action_arg() && !names.is_empty() {
                "(the one)".to_string()
            } else {
                names.join(", ")
            }
        };
        out += &format!(
            "| `{}` | {} | {} | {} | {} |\n",
            def.name,
            cell(Role::User),
            cell(Role::ManageOwnRequests),
            cell(Role::PowerUser),
            cell(Role::Admin)
        );
    }
    out + "\n" + TABLE_END
}

#[test]
fn the_roles_docs_table_is_made_from_the_declarations() {
    check_generated("docs/roles.md", TABLE_BEGIN, TABLE_END, &role_table());
}

fn role_of(access: Access) -> Role {
    match access {
        Access::Anonymous | Access::Authenticated => Role::User,
        Access::PowerUser => Role::PowerUser,
        Access::Admin => Role::Admin,
    }
}

/// Where the declaration is not the strongest route attribute, and why
/// (the engine's own check, or a route the action does without).
const NOT_BY_ATTRIBUTE: &[(&str, &str, &str)] = &[
    (
        "write_request_delete",
        "delete",
        "`[Authorize(Roles = \"Admin,PowerUser,ManageOwnRequests\")]` and CheckCanManageRequest",
    ),
    (
        "read_settings",
        "read",
        "Admin as a whole; Ombi lets power users read the radarr and sonarr sections",
    ),
    (
        "read_server",
        "update",
        "the admin-only `GET api/v1/Job/update` is left out with a warning",
    ),
    (
        "read_server",
        "media_servers",
        "the servers' names come from the admin-only settings, read only for an admin",
    ),
    (
        "read_request_stats",
        "period",
        "counted from the request lists any user reads; the figures are for Admin or PowerUser",
    ),
];

/// Each action's declared role is the strongest `[Admin]`/`[PowerUser]` of
/// the routes its example calls reach as the acting user (run as an admin,
/// so every route answers): an action declared weaker would be listed to
/// users Ombi refuses, one declared stronger hidden from users Ombi serves.
#[tokio::test]
async fn each_declared_role_is_what_its_routes_need() {
    let mut wrong = Vec::new();
    for t in TOOLS {
        for (text, _) in t.examples {
            let rig = Rig::start_with(Options::default(), Some("alice")).await;
            let args = filled(&rig, text).await;
            let Some(action) = t.def.action_of(args.as_object()) else {
                continue;
            };
            let before = rig.fake.requests().len();
            rig.call(t.def.name, args.clone()).await;
            // Only what was sent as the acting user (the daemon's own reads
            // carry no UserName).
            let needed = rig.fake.requests()[before..]
                .iter()
                .filter(|r| r.header("UserName") == Some("alice"))
                .filter_map(|r| access_of(&r.method, &r.path).map(role_of))
                .max()
                .unwrap_or(Role::User);
            let excused = NOT_BY_ATTRIBUTE
                .iter()
                .any(|(tool, a, _)| *tool == t.def.name && *a == action.name);
            if needed != action.role && !excused {
                wrong.push(format!(
                    "{}.{} declares {} but {text} reaches routes needing {needed}",
                    t.def.name, action.name, action.role
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// Every action is listed to an admin, a power user sees all but the
/// Admin ones, a plain user only those needing no role; the narrowing
/// keeps the policy's bounds (bundles, read-only).
#[test]
fn the_view_lists_what_the_roles_reach_inside_the_policy() {
    use ombi_mcp::definition::{Bundle, BundleSet};
    use ombi_mcp::policy::Identity;
    let all = Identity::local(BundleSet::all(), false);
    let known = |held: Held| view::Roles::Known {
        held,
        user: "x".into(),
    };
    let actions = |v: &view::View| -> Vec<String> {
        v.tools()
            .flat_map(|t| {
                v.actions(t)
                    .into_iter()
                    .map(move |a| format!("{}.{}", t.def.name, a.name))
            })
            .collect()
    };
    let admin = view::view(&all, &known(Held::ADMIN));
    let every: usize = TOOLS.iter().map(|t| t.def.actions.len()).sum();
    assert_eq!(actions(&admin).len(), every);
    let power = view::view(&all, &known(Held::from_names(["PowerUser"])));
    let plain = view::view(&all, &known(Held::PLAIN));
    for t in TOOLS {
        for a in t.def.actions {
            let name = format!("{}.{}", t.def.name, a.name);
            assert_eq!(
                actions(&power).contains(&name),
                a.role <= Role::PowerUser,
                "{name}"
            );
            assert_eq!(
                actions(&plain).contains(&name),
                a.role == Role::User,
                "{name}"
            );
        }
    }
    // A tool with no action left is not listed at all.
    assert!(!plain.shows_tool("read_settings") && !plain.shows_tool("write_request_moderate"));
    assert!(
        plain.shows_tool("write_issue_manage"),
        "set_status needs no role in Ombi"
    );
    // Unknown roles: the policy's view.
    let unknown = view::view(&all, &view::Roles::Unknown("down".into()));
    assert_eq!(actions(&unknown).len(), every);
    // Inside the policy's bounds.
    let core_ro = Identity::local(BundleSet::only(Bundle::Core), true);
    let v = view::view(&core_ro, &known(Held::ADMIN));
    assert!(
        v.tools()
            .all(|t| t.def.bundle == Bundle::Core && !t.def.is_write())
    );
    // The listing shows only the kept actions in the enum and description.
    let listed: Value = serde_json::from_str(plain.listing()).unwrap();
    let read_users = listed["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "read_users")
        .unwrap();
    let action = &read_users["inputSchema"]["properties"]["action"];
    assert_eq!(
        action["enum"],
        serde_json::json!(["me", "notification_agents"])
    );
    let doc = action["description"].as_str().unwrap();
    assert!(
        !doc.contains("`online`") && !doc.contains("`list`"),
        "{doc}"
    );
    assert!(
        read_users["inputSchema"]["properties"]
            .get("user_id")
            .is_none()
    );
}

/// A plain user's tool descriptions speak only of what she can do: what an
/// action she lacks the role for does is said in its own line of the
/// `action` description, which her view leaves out.
#[test]
fn a_plain_users_descriptions_name_no_action_she_lacks() {
    use ombi_mcp::definition::BundleSet;
    use ombi_mcp::policy::Identity;
    let all = Identity::local(BundleSet::all(), false);
    let plain = view::view(
        &all,
        &view::Roles::Known {
            held: Held::PLAIN,
            user: "x".into(),
        },
    );
    let listed: Value = serde_json::from_str(plain.listing()).unwrap();
    // What the hidden actions do, in words a description would use.
    let hidden_words = [
        ("read_request_stats", "date range"),
        ("read_server", "cron"),
        ("read_users", "online"),
        ("read_users", "all users"),
        ("read_requests", "retry"),
        ("read_reference", "roles"),
        ("write_issue_manage", "delete an"),
        ("write_issue_manage", "comment"),
        ("write_issue_manage", "categor"),
    ];
    let mut checked = 0;
    for tool in listed["tools"].as_array().unwrap() {
        let name = tool["name"].as_str().unwrap();
        let def = &ombi_mcp::tools::find(name).unwrap().def;
        let shown: Vec<&str> = tool["inputSchema"]["properties"]["action"]["enum"]
            .as_array()
            .map(|e| e.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let text = format!(
            "{} {}",
            tool["description"].as_str().unwrap(),
            tool["inputSchema"]["properties"]["action"]["description"]
                .as_str()
                .unwrap_or_default()
        )
        .to_lowercase();
        for a in def
            .actions
            .iter()
            .filter(|a| !shown.is_empty() && !shown.contains(&a.name))
        {
            assert!(
                !text.contains(&format!("`{}`", a.name)),
                "{name}: {}",
                a.name
            );
            checked += 1;
        }
        for (_, words) in hidden_words.iter().filter(|(t, _)| *t == name) {
            assert!(!text.contains(words), "{name} speaks of {words}: {text}");
            checked += 1;
        }
    }
    assert!(checked >= 20, "{checked}");
}

/// `tools/list` bytes a session is sent, with and without `outputSchema`.
fn listing_sizes(view: &view::View) -> (usize, usize, usize) {
    let listing: Value = serde_json::from_str(view.listing()).unwrap();
    let mut tools = listing["tools"].as_array().unwrap().clone();
    for t in &mut tools {
        t.as_object_mut().unwrap().remove("outputSchema");
    }
    let without = serde_json::to_string(&serde_json::json!({"tools": tools})).unwrap();
    (tools.len(), view.listing().len(), without.len())
}

/// A plain user allowed every bundle is sent less than a power user, who is
/// sent less than an admin, who is sent everything; the figures are printed
/// (the bench prints them over the socket: docs/performance.md).
#[test]
fn each_role_is_sent_only_its_listing() {
    use ombi_mcp::definition::BundleSet;
    use ombi_mcp::policy::Identity;
    let all = Identity::local(BundleSet::all(), false);
    let known = |held: Held| view::Roles::Known {
        held,
        user: "x".into(),
    };
    let everything = listing_sizes(&view::View::policy(&all));
    let plain = listing_sizes(&view::view(&all, &known(Held::PLAIN)));
    let power = listing_sizes(&view::view(&all, &known(Held::from_names(["PowerUser"]))));
    let admin = listing_sizes(&view::view(&all, &known(Held::ADMIN)));
    for (who, (n, with, without)) in [
        ("plain user", plain),
        ("power user", power),
        ("admin", admin),
    ] {
        eprintln!(
            "tools/list, every bundle, {who}: {n} tools, {with} bytes (≈{} tokens); without outputSchema {without} bytes (≈{} tokens)",
            with / 4,
            without / 4
        );
    }
    assert_eq!(admin, everything);
    assert!(plain.0 < power.0 && power.0 < admin.0);
    // The goal: at most half of what everyone was sent before listings
    // followed roles (an admin's 52,940 bytes without outputSchema).
    assert!(plain.2 <= 52_940 / 2, "plain user: {} bytes", plain.2);
    assert!(plain.2 < power.2 && power.2 < admin.2 && plain.1 < power.1);
}
