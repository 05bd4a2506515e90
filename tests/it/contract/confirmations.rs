//! Which actions ask the person first is declared once, on each action
//! (`#[action(confirm)]`, `#[action(confirm = "when …")]`): docs/security.md's
//! table is made from the declarations, and every action is held to its
//! declaration here — a confirmed action asked with a client that declines
//! sends nothing, and an action declared unconfirmed never asks.

use ombi_mcp::definition::{ActionDef, Confirm, ToolDef};
use ombi_mcp::tools::TOOLS;
use serde_json::Value;

use crate::support::declining::declining;
use crate::support::examples::filled;
use crate::support::fake_ombi::{LoggedRequest, Options};
use crate::support::generated::check_generated;
use crate::support::rig::Rig;

/// The writes the fake received (reads by POST are Ombi's searches).
fn writes(log: &[LoggedRequest]) -> Vec<String> {
    log.iter()
        .filter(|r| r.method != "GET" && !r.path.to_ascii_lowercase().contains("/search/"))
        .map(|r| format!("{} {}", r.method, r.path))
        .collect()
}

fn asks(a: &ActionDef) -> bool {
    a.confirm != Confirm::Never
}

/// The example calls of the actions that ask: `(tool, arguments as JSON text, action)`.
fn asking_examples() -> Vec<(&'static str, &'static str, &'static ActionDef)> {
    TOOLS
        .iter()
        .flat_map(|t| {
            t.examples.iter().filter_map(|(text, _)| {
                let args: Value = serde_json::from_str(text).ok()?;
                let action = t.def.action_of(args.as_object())?;
                asks(action).then_some((t.def.name, *text, action))
            })
        })
        .collect()
}

/// Every action that asks has an example call (in its tool's own file), so
/// the tests below can hold it to its declaration.
#[test]
fn every_confirmed_action_has_an_example() {
    let examples = asking_examples();
    let mut missing = Vec::new();
    for t in TOOLS {
        for a in t.def.actions.iter().filter(|a| asks(a)) {
            if !examples
                .iter()
                .any(|(tool, _, e)| *tool == t.def.name && e.name == a.name)
            {
                missing.push(format!("{}.{}", t.def.name, a.name));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "confirmed actions without an example: {missing:?}"
    );
}

/// A client that declines: every example of an action that always asks ends
/// "Not confirmed" and nothing reaches Ombi; an action that asks in one case
/// (`confirm = "when …"`) has an example in that case.
#[tokio::test]
async fn a_declined_confirmed_action_sends_nothing() {
    let mut asked_when = Vec::new();
    for (tool, text, action) in asking_examples() {
        let mut rig = Rig::start_with(Options::default(), Some("alice")).await;
        let args = filled(&rig, text).await;
        let before = rig.fake.requests().len();
        rig.ctx.confirmer = declining();
        let env = rig.call(tool, args.clone()).await;
        let message = env["error"]["message"].as_str().unwrap_or_default();
        let refused = message.starts_with("Not confirmed:");
        if action.confirm == Confirm::Always {
            assert!(refused, "{tool} {args}: {env:#}");
        }
        if refused {
            assert_eq!(env["error"]["code"], "FORBIDDEN", "{tool} {args}");
            let sent = writes(&rig.fake.requests()[before..]);
            assert!(sent.is_empty(), "{tool} {args} sent {sent:?}");
            asked_when.push((tool, action.name));
        }
    }
    for t in TOOLS {
        for a in t
            .def
            .actions
            .iter()
            .filter(|a| matches!(a.confirm, Confirm::When(_)))
        {
            assert!(
                asked_when.contains(&(t.def.name, a.name)),
                "{}.{}: no example asks ({:?})",
                t.def.name,
                a.name,
                a.confirm
            );
        }
    }
}

/// Every example call of an action declared not to ask runs without asking
/// (the declining client is never consulted).
#[tokio::test]
async fn an_unconfirmed_action_never_asks() {
    for t in TOOLS.iter().filter(|t| t.def.is_write()) {
        for (text, _) in t.examples {
            let args: Value = serde_json::from_str(text).unwrap();
            let action = t.def.action_of(args.as_object()).unwrap();
            if asks(action) {
                continue;
            }
            let mut rig = Rig::start_with(Options::default(), Some("alice")).await;
            let args = filled(&rig, text).await;
            rig.ctx.confirmer = declining();
            let env = rig.call(t.def.name, args.clone()).await;
            let message = env["error"]["message"].as_str().unwrap_or_default();
            assert!(
                !message.starts_with("Not confirmed"),
                "{} {args} asked: {env:#}",
                t.def.name
            );
            assert_eq!(
                rig.ctx.confirmer.record().label.as_str(),
                "not_required",
                "{} {args}",
                t.def.name
            );
        }
    }
}

const TABLE_BEGIN: &str = "<!-- generated from the actions' declarations (#[action(confirm)]): edit the tools, then UPDATE_DOCS=1 cargo test --all-features --test it contract::confirmations -->";
const TABLE_END: &str = "<!-- end of the generated confirmation table -->";

/// docs/security.md's confirmation table, made from the declarations.
fn confirmation_table() -> String {
    let mut out = format!("{TABLE_BEGIN}\n\n| tool | confirmed actions |\n|---|---|\n");
    for t in TOOLS {
        let def: &ToolDef = &t.def;
        let asking: Vec<&ActionDef> = def.actions.iter().filter(|a| asks(a)).collect();
        if asking.is_empty() {
            continue;
        }
        let all = asking.len() == def.actions.len()
            && asking.iter().all(|a| a.confirm == Confirm::Always);
        let cell = if all {
            "all".to_string()
        } else {
            asking
                .iter()
                .map(|a| match a.confirm {
                    Confirm::When(when) => format!("`{}` {when}", a.name),
                    _ => format!("`{}`", a.name),
                })
                .collect::<Vec<_>>()
                .join("; ")
        };
        out += &format!("| `{}` | {cell} |\n", def.name);
    }
    out + "\n" + TABLE_END
}

#[test]
fn the_security_docs_table_is_made_from_the_declarations() {
    check_generated(
        "docs/security.md",
        TABLE_BEGIN,
        TABLE_END,
        &confirmation_table(),
    );
}
