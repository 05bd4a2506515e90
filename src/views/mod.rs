//! The MCP Apps views (`io.modelcontextprotocol/ui`): two self-contained
//! HTML pages a host that renders apps shows beside a tool result — a poster
//! grid (`ui://ombi/titles`) and request cards (`ui://ombi/requests`). This
//! module is their one home: which tools declare which view (`_meta.ui` in
//! `tools/list`), their `resources/list` entries, and the body
//! `resources/read` serves a session. Hosts without apps never read them and
//! get the same tool results as before: nothing here touches a result.
//!
//! A view cannot list tools, so the daemon serves each session the body for
//! what it may do: the parts of a page between `/*<can TOOL>*/` and
//! `/*</can TOOL>*/` (its buttons and the code that calls `TOOL`) are cut out
//! for a session that cannot see `TOOL`. What the views do and why is in
//! docs/apps.md.

use rmcp::model::{MetaObject, Resource, ResourceContents, Tool};
use serde_json::{Map, Value, json};

/// The MCP Apps mimeType of an HTML view.
pub const MIME: &str = "text/html;profile=mcp-app";

/// The origins of every artwork URI the tools return, and so the only
/// origins a view loads anything from (`_meta.ui.csp.resourceDomains`):
/// TMDB's image server for movies, TV and people (our projection turns
/// Ombi's relative `posterPath`s into `https://image.tmdb.org/t/p/…` URLs);
/// for music, Lidarr's remote artwork as Ombi passes it on — album covers
/// from the Cover Art Archive and artist posters and banners from fanart.tv
/// (Ombi's `Ombi.Core/Engine/MusicSearchEngine.cs` and `V2/MusicSearchEngineV2.cs`).
pub const ARTWORK_ORIGINS: &[&str] = &[
    "https://image.tmdb.org",
    "https://coverartarchive.org",
    "https://assets.fanart.tv",
];

/// The most a view's body may weigh (the contract's budget: no bundle, no
/// CDN, so each page carries all it needs).
pub const MAX_BYTES: usize = 64 * 1024;

/// One view: its URI, its `resources/list` entry, its page, and the tools
/// whose results it shows.
pub struct View {
    pub uri: &'static str,
    pub title: &'static str,
    pub description: &'static str,
    /// The page as compiled in (`src/views/common.html`, the bridge and
    /// style both views share, then the view's own file), with its
    /// `<can TOOL>` sections.
    pub html: &'static str,
    /// The tools that declare this view (`_meta.ui.resourceUri`).
    pub tools: &'static [&'static str],
}

/// The poster grid.
pub static TITLES: View = View {
    uri: "ui://ombi/titles",
    title: "Titles",
    description: "A poster grid of movies, shows and albums with their state, and a Request button.",
    html: concat!(include_str!("common.html"), include_str!("titles.html")),
    tools: &["read_search", "read_discover", "read_library", "read_media"],
};

/// The request cards.
pub static REQUESTS: View = View {
    uri: "ui://ombi/requests",
    title: "Requests",
    description: "Request cards with requester, state and dates; Approve and Deny for moderators.",
    html: concat!(include_str!("common.html"), include_str!("requests.html")),
    tools: &["read_requests", "write_request_create"],
};

/// Every view, in `resources/list` order.
pub static VIEWS: &[&View] = &[&TITLES, &REQUESTS];

/// The view a tool's results are shown in, if any.
pub fn of_tool(tool: &str) -> Option<&'static View> {
    VIEWS.iter().copied().find(|v| v.tools.contains(&tool))
}

/// The view at `uri`, if it is one of ours.
pub fn find(uri: &str) -> Option<&'static View> {
    VIEWS.iter().copied().find(|v| v.uri == uri)
}

/// `tool` as `tools/list` shows it, declaring its view: `_meta.ui.resourceUri`
/// and the flat `_meta["ui/resourceUri"]` that some hosts read instead.
pub fn declare(mut tool: Tool) -> Tool {
    if let Some(view) = of_tool(&tool.name) {
        let meta = tool.meta.get_or_insert_with(|| MetaObject(Map::new()));
        meta.0
            .insert("ui".into(), json!({ "resourceUri": view.uri }));
        meta.0.insert("ui/resourceUri".into(), json!(view.uri));
    }
    tool
}

/// The `_meta` of a view's listing entry and of its content item: the
/// origins it loads images from (nothing else: no connect, frame or base
/// origins) and that it wants the host's border.
fn ui_meta() -> MetaObject {
    let mut meta = Map::new();
    meta.insert(
        "ui".into(),
        json!({
            "csp": { "resourceDomains": ARTWORK_ORIGINS },
            "prefersBorder": true,
        }),
    );
    MetaObject(meta)
}

/// The views' `resources/list` entries.
pub fn listed() -> Vec<Resource> {
    VIEWS
        .iter()
        .map(|v| {
            Resource::new(v.uri, v.uri.trim_start_matches("ui://"))
                .with_title(v.title)
                .with_description(v.description)
                .with_mime_type(MIME)
                .with_meta(ui_meta())
        })
        .collect()
}

/// `resources/read` of a view for a session: `None` when `uri` is not a
/// view; else the page without the sections for tools `can_see` says the
/// session cannot see.
pub fn read(uri: &str, can_see: impl Fn(&str) -> bool) -> Option<ResourceContents> {
    let view = find(uri)?;
    Some(ResourceContents::TextResourceContents {
        uri: view.uri.into(),
        mime_type: Some(MIME.into()),
        text: body(view.html, can_see),
        meta: Some(ui_meta()),
    })
}

/// The page with the origins filled in and every `/*<can TOOL>*/ …
/// /*</can TOOL>*/` section cut for a tool the session cannot see.
pub fn body(html: &str, can_see: impl Fn(&str) -> bool) -> String {
    const OPEN: &str = "/*<can ";
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(at) = rest.find(OPEN) {
        out.push_str(&rest[..at]);
        let after = &rest[at + OPEN.len()..];
        let Some(end_name) = after.find(">*/") else {
            // A malformed marker is kept as written (the unit test catches it).
            out.push_str(&rest[at..]);
            return fill_origins(out);
        };
        let tool = &after[..end_name];
        let close = format!("/*</can {tool}>*/");
        let inner_start = end_name + ">*/".len();
        let Some(inner_len) = after[inner_start..].find(&close) else {
            out.push_str(&rest[at..]);
            return fill_origins(out);
        };
        if can_see(tool) {
            out.push_str(&after[inner_start..inner_start + inner_len]);
        }
        rest = &after[inner_start + inner_len + close.len()..];
    }
    out.push_str(rest);
    fill_origins(out)
}

/// The declared origins where the page names them (`"/*ORIGINS*/"`), so the
/// page's own check of an image URL and the CSP are one list.
fn fill_origins(html: String) -> String {
    html.replace(
        "\"/*ORIGINS*/\"",
        &Value::from(ARTWORK_ORIGINS.to_vec()).to_string(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_are_cut_for_tools_the_session_cannot_see() {
        let html = "a/*<can t1>*/B/*</can t1>*/c/*<can t2>*/D/*</can t2>*/e";
        assert_eq!(body(html, |t| t == "t1"), "aBce");
        assert_eq!(body(html, |_| false), "ace");
        assert_eq!(body(html, |_| true), "aBcDe");
    }

    #[test]
    fn every_section_of_the_pages_is_closed_and_names_a_tool() {
        for view in VIEWS {
            let opened = view.html.matches("/*<can ").count();
            let closed = view.html.matches("/*</can ").count();
            assert_eq!(opened, closed, "{}", view.uri);
            // Nothing of a marker survives, whatever the session sees.
            for see in [true, false] {
                let b = body(view.html, |_| see);
                assert!(
                    !b.contains("/*<can") && !b.contains("/*</can"),
                    "{}",
                    view.uri
                );
                assert!(!b.contains("/*ORIGINS*/"), "{}", view.uri);
            }
        }
    }

    #[test]
    fn declare_adds_both_keys_to_the_tools_of_a_view_only() {
        let schema = std::sync::Arc::new(Map::new());
        let t = declare(Tool::new("read_search", "d", schema.clone()));
        let meta = t.meta.expect("declared").0;
        assert_eq!(meta["ui"]["resourceUri"], "ui://ombi/titles");
        assert_eq!(meta["ui/resourceUri"], "ui://ombi/titles");
        assert!(declare(Tool::new("read_votes", "d", schema)).meta.is_none());
    }
}
