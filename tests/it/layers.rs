//! The layer order of `docs/architecture.md` ("Layers"), enforced over `src/`: a module names
//! (`crate::x`) only modules on a lower layer, so no import runs back up. A new top-level module
//! must be placed here (and in the doc) before it may import anything.

use std::path::Path;

/// `(module, layer)`: a module may use only modules of a lower layer. `confirm`, `resources`,
/// `prompts` and `completions` are the homes of the MCP surfaces being built (docs/architecture.md).
const LAYERS: &[(&str, u8)] = &[
    ("contract", 1),
    ("text", 1),
    ("secrets", 1),
    ("logging", 1),
    ("transport", 1),
    ("views", 1),
    ("definition", 2),
    ("confirm", 2),
    ("config", 3),
    ("policy", 3),
    ("upstream", 4),
    ("projection", 4),
    ("tools", 5),
    ("resources", 6),
    ("prompts", 7),
    ("completions", 8),
    ("server", 9),
    ("daemon", 10),
];

fn layer(module: &str) -> Option<u8> {
    LAYERS.iter().find(|(m, _)| *m == module).map(|(_, l)| *l)
}

/// Every `crate::x` a Rust file names outside comments.
fn crate_paths(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or_default();
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            let after = &rest[at + "crate::".len()..];
            let name: String = after
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                found.push(name);
            }
            rest = after;
        }
    }
    found
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn no_import_runs_back_up() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut violations = Vec::new();
    let mut checked = 0;
    for file in &files {
        let relative = file.strip_prefix(&src).unwrap();
        let top = relative.components().next().unwrap().as_os_str();
        let module = top.to_string_lossy().trim_end_matches(".rs").to_string();
        if module == "lib" || module == "bin" {
            continue; // the crate root and the binaries sit above every layer
        }
        let Some(own) = layer(&module) else {
            violations.push(format!(
                "src/{module}: no layer (place it in LAYERS and the doc)"
            ));
            continue;
        };
        checked += 1;
        for used in crate_paths(&std::fs::read_to_string(file).unwrap()) {
            if used == module {
                continue;
            }
            match layer(&used) {
                Some(l) if l < own => {}
                _ => violations.push(format!(
                    "src/{}: `crate::{used}` from `{module}` (layer {own}) runs back up or sideways",
                    relative.display()
                )),
            }
        }
    }
    assert!(checked > 50, "too few files read: {checked}");
    assert!(violations.is_empty(), "{}", violations.join("\n"));
}

#[test]
fn the_scanner_sees_uses_and_paths_but_not_comments() {
    let text = "use crate::contract::Family;\nlet x = crate::tools::find(\"a\"); // crate::server\n/// crate::daemon\n";
    assert_eq!(crate_paths(text), ["contract", "tools"]);
}

/// The tool module a file under `src/tools/` belongs to: `read_votes` for
/// `requests/read_votes.rs`, `write_request_create` for every file of
/// `requests/write_request_create/`; `None` for the shared domain modules.
fn tool_module(relative: &Path) -> Option<String> {
    relative
        .components()
        .map(|c| {
            c.as_os_str()
                .to_string_lossy()
                .trim_end_matches(".rs")
                .to_string()
        })
        .find(|part| part.starts_with("read_") || part.starts_with("write_"))
}

/// A tool's file is that tool only: what two tools share lives in their
/// domain's own modules (`tools/requests/reads.rs`, `tools/server/sections.rs`),
/// never in another tool's file.
#[test]
fn no_tool_file_uses_another_tool_file() {
    let tools = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/tools");
    let mut files = Vec::new();
    rust_files(&tools, &mut files);
    let modules: Vec<String> = files
        .iter()
        .filter_map(|f| tool_module(f.strip_prefix(&tools).unwrap()))
        .collect();
    let mut violations = Vec::new();
    let mut checked = 0;
    for file in &files {
        let relative = file.strip_prefix(&tools).unwrap();
        let Some(own) = tool_module(relative) else {
            continue;
        };
        checked += 1;
        for line in std::fs::read_to_string(file).unwrap().lines() {
            let code = line.split("//").next().unwrap_or_default();
            // Outside string literals (messages name tools to the reader).
            let code: String = code.split('"').step_by(2).collect();
            for other in modules.iter().filter(|m| **m != own) {
                if code.contains(&format!("{other}::"))
                    || code.contains(&format!("::{other}"))
                    || (code.contains("use ") && code.contains(&format!("{{{other}")))
                {
                    violations.push(format!("src/tools/{}: {}", relative.display(), line.trim()));
                }
            }
        }
    }
    assert!(checked >= 31, "too few tool files read: {checked}");
    assert!(violations.is_empty(), "{}", violations.join("\n"));
}

/// Files a reader can hold in their head: none in `src/` is over 700 lines.
#[test]
fn no_source_file_is_over_700_lines() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let long: Vec<String> = files
        .iter()
        .filter_map(|f| {
            let lines = std::fs::read_to_string(f).unwrap().lines().count();
            (lines > 700).then(|| format!("{}: {lines} lines", f.display()))
        })
        .collect();
    assert!(files.len() > 50, "too few files read: {}", files.len());
    assert!(long.is_empty(), "{}", long.join("\n"));
}
