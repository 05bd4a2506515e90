//! Reading resources: the bodies are the read tools' records and pages, unknown things are not found,
//! failures carry the error object, listings and templates are exactly the pages, and write results link
//! what they made.

use std::sync::Arc;

use ombi_mcp::definition::{Bundle, BundleSet};
use ombi_mcp::policy::Identity;
use ombi_mcp::projection::mutation::Mutation;
use ombi_mcp::resources::{self, ReadError, ResourceUri};
use ombi_mcp::tools::view::View;
use serde_json::{Value, json};

use crate::resources::read;
use crate::support::fake_ombi::{Fault, Options};
use crate::support::rig::{Rig, items, ok_data};

#[tokio::test]
async fn requests_mine_resource_is_the_mine_action_data() {
    let h = Rig::start_with(Options::default(), Some("bob")).await;
    let env = h.ok("read_requests", json!({"action": "mine"})).await;
    let body = read(&h, "ombi://requests/mine").await.unwrap();
    assert_eq!(&body, ok_data(&env));
    assert_eq!(body["kind"], "request_page");
}

#[tokio::test]
async fn single_resources_are_the_tools_one_record() {
    let h = Rig::start().await;
    let cases = [
        (
            "ombi://request/movie/1",
            "read_requests",
            json!({"action": "get", "target": {"kind": "movie", "id": 1}}),
        ),
        (
            "ombi://media/movie/603",
            "read_media",
            json!({"action": "details", "media": "movie", "tmdb_id": 603}),
        ),
    ];
    for (u, tool, args) in cases {
        let env = h.ok(tool, args).await;
        let body = read(&h, u).await.unwrap();
        assert_eq!(body, items(&env)[0], "{u}");
    }
    for (u, tool, args) in [
        (
            "ombi://reference/issue-categories",
            "read_reference",
            json!({"action": "issue_categories"}),
        ),
        (
            "ombi://reference/genres/tv",
            "read_reference",
            json!({"action": "genres", "media": "tv"}),
        ),
        (
            "ombi://reference/languages",
            "read_reference",
            json!({"action": "languages"}),
        ),
    ] {
        let env = h.ok(tool, args).await;
        assert_eq!(&read(&h, u).await.unwrap(), ok_data(&env), "{u}");
    }
}

#[tokio::test]
async fn unknown_things_are_not_found_and_failures_carry_the_error_object() {
    let h = Rig::start().await;
    match read(&h, "ombi://request/movie/999").await {
        Err(ReadError::NotFound(m)) => assert!(m.contains("999"), "{m}"),
        other => panic!("{other:?}"),
    }
    let e: rmcp::ErrorData = read(&h, "ombi://issue/9999").await.unwrap_err().into();
    assert_eq!(e.code.0, -32002, "{e:?}");
    h.fake.add_fault(
        Fault::on("GET", "/api/v1/Request/movie/info/1")
            .unavailable()
            .times(10),
    );
    let failed = read(&h, "ombi://request/movie/1").await.unwrap_err();
    let ReadError::Failed(error) = failed.clone() else {
        panic!("{failed:?}");
    };
    assert!(
        error["code"].is_string() && error["retryable"].is_boolean(),
        "{error}"
    );
    let e: rmcp::ErrorData = failed.into();
    assert_eq!(e.code.0, -32603);
    assert_eq!(e.data.as_ref().unwrap()["code"], error["code"]);
    for bad in ["ombi://nothing", "http://x/", "ombi://request/movie/abc"] {
        let e: rmcp::ErrorData = ResourceUri::parse(bad)
            .map_err(ReadError::from)
            .unwrap_err()
            .into();
        assert_eq!(e.code.0, -32602, "{bad}");
    }
}

fn every_bundle() -> View {
    View::policy(&Identity::local(BundleSet::all(), false))
}

#[test]
fn lists_and_templates_are_exactly_the_pages() {
    let listed: Vec<String> = resources::list(every_bundle())
        .into_iter()
        .map(|r| r.uri)
        .collect();
    assert_eq!(
        listed,
        [
            "ombi://requests/mine",
            "ombi://reference/issue-categories",
            "ombi://reference/genres/movie",
            "ombi://reference/genres/tv",
            "ombi://reference/languages",
            "ui://ombi/titles",
            "ui://ombi/requests"
        ]
    );
    let templates: Vec<String> = resources::templates(every_bundle())
        .into_iter()
        .map(|t| t.uri_template)
        .collect();
    assert_eq!(
        templates,
        [
            "ombi://request/{kind}/{id}",
            "ombi://issue/{id}",
            "ombi://issue/{id}/comments",
            "ombi://media/{media}/{id}"
        ]
    );
    for r in resources::list(every_bundle()) {
        let app = r.uri.starts_with("ui://");
        let want = if app {
            "text/html;profile=mcp-app"
        } else {
            "application/json"
        };
        assert_eq!(r.mime_type.as_deref(), Some(want), "{}", r.uri);
    }
}

/// A session reads, lists, subscribes to and completes a resource only
/// where it sees the read tool giving the same data (interaction.md §2):
/// otherwise -32602 naming the tool and its bundle.
#[tokio::test]
async fn resources_follow_the_read_tool_they_mirror() {
    let moderation_only = Identity::local(BundleSet::only(Bundle::Moderation), false);
    let view = View::policy(&moderation_only);
    assert!(resources::list(view).is_empty());
    assert!(resources::templates(view).is_empty());
    let mut h = Rig::start_with(Options::default(), Some("bob")).await;
    h.ctx.identity = Arc::new(moderation_only);
    let read = read(&h, "ombi://requests/mine").await;
    let Err(ReadError::BadUri(message)) = &read else {
        panic!("{read:?}");
    };
    assert!(
        message.contains("read_requests") && message.contains("`core` bundle"),
        "{message}"
    );
    let e: rmcp::ErrorData = read.unwrap_err().into();
    assert_eq!(e.code.0, -32602);
    assert!(h.fake.requests().is_empty(), "nothing read from Ombi");
    // Completing a template is gated the same way.
    let reference = rmcp::model::Reference::for_resource("ombi://request/{kind}/{id}");
    let refused = ombi_mcp::completions::complete(&h.ctx, &reference, "id", "1", None).await;
    let e: rmcp::ErrorData = refused.unwrap_err().into();
    assert_eq!(e.code.0, -32602);
    assert!(e.message.contains("read_requests"), "{}", e.message);
}

#[test]
fn write_results_link_the_request_or_issue_they_made() {
    // A successful write's `data`, read back as the mutation it declares.
    let env = |_tool: &str, data: Value| Mutation::of(Some(&data));
    // What each action declares it links to (`#[action(links = …)]`).
    let link = |tool: &str, args: Value| {
        let def = &ombi_mcp::tools::find(tool).unwrap().def;
        def.action_of(args.as_object()).and_then(|a| a.links)
    };
    let create = link("write_request_create", json!({"action": "movie"}));
    let links = resources::links(
        create,
        env(
            "write_request_create",
            json!({"kind": "mutation", "outcome": "completed", "target": {"kind": "movie", "id": 7}, "request_id": 7}),
        )
        .as_ref(),
    );
    assert_eq!(links.len(), 1);
    assert_eq!(links[0].uri, "ombi://request/movie/7");
    assert_eq!(links[0].mime_type.as_deref(), Some("application/json"));
    for action in ["tv", "album", "collection"] {
        assert_eq!(
            link("write_request_create", json!({"action": action})),
            create
        );
    }
    let links = resources::links(
        link("write_issue_create", json!({})),
        env(
            "write_issue_create",
            json!({"kind": "mutation", "outcome": "completed", "issue_id": 4}),
        )
        .as_ref(),
    );
    assert_eq!(links[0].uri, "ombi://issue/4");
    // No id, a failure, or another tool: no link.
    assert!(
        resources::links(
            create,
            env(
                "write_request_create",
                json!({"kind": "mutation", "outcome": "unknown"})
            )
            .as_ref()
        )
        .is_empty()
    );
    let vote = link("write_vote", json!({"action": "up"}));
    assert_eq!(vote, None);
    assert!(resources::links(
        vote,
        env("write_vote", json!({"kind": "mutation", "outcome": "completed", "request_id": 1, "target": {"kind": "movie", "id": 1}})).as_ref()
    )
    .is_empty());
}
