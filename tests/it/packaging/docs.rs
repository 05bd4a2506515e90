//! The user docs: `docs/tools.md`'s tables generated from `TOOLS` (`UPDATE_DOCS=1`), only served tools
//! named, and the licence file as Cargo.toml says.

use super::*;

/// The markers around docs/tools.md's generated part.
const TOOLS_DOC_BEGIN: &str = "<!-- generated from tools::TOOLS: edit the tools, then UPDATE_DOCS=1 cargo test --all-features --test it packaging::docs::tools_doc -->";
const TOOLS_DOC_END: &str = "<!-- end of the generated part -->";

/// docs/tools.md's generated part: the counts and, bundle by bundle, a row per served tool
/// (its description as models read it, its actions, whether it changes Ombi).
fn tools_doc_generated() -> String {
    use ombi_mcp::definition::Bundle;
    let defs: Vec<_> = ombi_mcp::tools::definitions().collect();
    let writes = defs.iter().filter(|d| d.is_write()).count();
    let mut out = format!(
        "{TOOLS_DOC_BEGIN}\n\n**Served: {} tools** ({} `read_*`, {writes} `write_*`); a tool that cannot be \
         served is never listed.\n",
        defs.len(),
        defs.len() - writes,
    );
    for bundle in Bundle::ALL {
        let in_bundle: Vec<_> = defs.iter().filter(|d| d.bundle == bundle).collect();
        let default = if bundle == Bundle::Core {
            " (the default bundle)"
        } else {
            ""
        };
        out += &format!(
            "\n## {bundle}{default}: {} tools\n\n| tool | what it does | actions | changes Ombi |\n|---|---|---|---|\n",
            in_bundle.len()
        );
        for d in in_bundle {
            let actions = if d.has_action_arg() {
                d.actions
                    .iter()
                    .map(|a| format!("`{}`", a.name))
                    .collect::<Vec<_>>()
                    .join(", ")
            } else {
                "(one)".to_string()
            };
            let changes = match (d.is_write(), d.destructive) {
                (false, _) => "no",
                (true, false) => "yes",
                (true, true) => "yes, **destructive**",
            };
            out += &format!(
                "| `{}` | {} | {actions} | {changes} |\n",
                d.name,
                d.description.replace('|', "\\|")
            );
        }
    }
    out + "\n" + TOOLS_DOC_END
}

/// docs/tools.md's tool tables are generated from `TOOLS` (like the snapshots): a drift fails,
/// `UPDATE_DOCS=1` rewrites the generated part (review the diff, then commit).
#[test]
fn tools_doc_is_generated_from_the_catalogue() {
    let path = root().join("docs/tools.md");
    let doc = std::fs::read_to_string(&path).unwrap();
    let (Some(begin), Some(end)) = (doc.find(TOOLS_DOC_BEGIN), doc.find(TOOLS_DOC_END)) else {
        panic!(
            "docs/tools.md lacks the generated-part markers {TOOLS_DOC_BEGIN:?} … {TOOLS_DOC_END:?}"
        );
    };
    let current = &doc[begin..end + TOOLS_DOC_END.len()];
    let want = tools_doc_generated();
    if current == want {
        return;
    }
    if std::env::var("UPDATE_DOCS").is_ok_and(|v| v == "1") {
        let rewritten = format!(
            "{}{want}{}",
            &doc[..begin],
            &doc[end + TOOLS_DOC_END.len()..]
        );
        std::fs::write(&path, rewritten).unwrap();
        return;
    }
    panic!(
        "docs/tools.md's tool tables differ from TOOLS: run with UPDATE_DOCS=1 and review the diff"
    );
}

/// Every `read_*`/`write_*` name the user docs mention outside the generated part is a served tool.
#[test]
fn user_docs_name_only_served_tools() {
    let served: BTreeSet<&str> = ombi_mcp::tools::definitions().map(|d| d.name).collect();
    for doc in [
        "README.md",
        "docs/tools.md",
        "docs/contract.md",
        "docs/configuration.md",
    ] {
        let text = std::fs::read_to_string(root().join(doc)).unwrap();
        let named = text
            .split(|c: char| !(c.is_ascii_lowercase() || c == '_'))
            .filter(|w| {
                (w.starts_with("read_") || w.starts_with("write_"))
                    && w.len() > "write_".len()
                    && *w != "read_only" // the policy key
            });
        for word in named {
            assert!(
                served.contains(word),
                "{doc} names `{word}`, which TOOLS does not serve"
            );
        }
    }
}

#[test]
fn license_file_matches_cargo_toml() {
    let manifest = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    assert!(manifest.contains("license = \"MIT\""));
    let license = std::fs::read_to_string(root().join("LICENSE")).unwrap();
    assert!(license.starts_with("MIT License"), "{license}");
    assert!(license.contains("Permission is hereby granted, free of charge"));
    assert!(license.contains("THE SOFTWARE IS PROVIDED \"AS IS\""));
}
