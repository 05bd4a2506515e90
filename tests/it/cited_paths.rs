//! Every path of this repository that the docs cite exists: the README, `docs/`, the READMEs under
//! `packaging/` and `Cargo.toml`'s comments name files (`src/tools/mod.rs`, `tests/it/resources/`,
//! `nixos/tests/eval*.nix`, ...) that a move or a split leaves stale unless a test notices. The Nix
//! package's source set holds none of the docs (nixos/package.nix): there the scan skips.

use std::path::{Path, PathBuf};

use crate::harness::require;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Where the citing text is: files, and folders whose `*.md` files are read.
const CITING: &[&str] = &["README.md", "Cargo.toml", "docs", "packaging", "nixos"];

/// The top-level folders a cited path starts with.
const CITED: &[&str] = &[
    "src/",
    "tests/",
    "benches/",
    "docs/",
    "packaging/",
    "nixos/",
    "fuzz/",
    "macros/",
    ".ci/",
];

/// The recipes' worked example (docs/architecture.md, "Adding a read tool"): the files it names are
/// the ones a reader creates.
const EXAMPLE: &str = "read_widgets";

fn citing_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    for c in CITING {
        let path = Path::new(ROOT).join(c);
        if path.is_dir() {
            walk(&path, &mut out);
        } else {
            out.push(path);
        }
    }
    out
}

/// The repository paths `text` cites: a `CITED` folder not preceded by a path character, up to the
/// first character no path has, without a sentence's closing punctuation.
fn cited(text: &str) -> Vec<String> {
    let is_path = |c: char| c.is_ascii_alphanumeric() || "_./*-".contains(c);
    let mut out = Vec::new();
    for start in CITED {
        for (at, _) in text.match_indices(start) {
            let before = text[..at].chars().next_back();
            if before.is_some_and(|c| is_path(c) || c == '/') {
                continue;
            }
            let path: String = text[at..].chars().take_while(|&c| is_path(c)).collect();
            out.push((at, path.trim_end_matches(['.', ',', ':', ';']).to_string()));
        }
    }
    out.sort();
    out.into_iter().map(|(_, path)| path).collect()
}

/// Whether `pattern` (`*` for any run of characters) matches `name`.
fn matches(pattern: &str, name: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == name,
        Some((head, tail)) => {
            name.starts_with(head)
                && (head.len()..=name.len())
                    .any(|i| name.is_char_boundary(i) && matches(tail, &name[i..]))
        }
    }
}

/// Whether a path (a `*` in any component) names something under the repository root.
fn exists(path: &str) -> bool {
    let mut found = vec![PathBuf::from(ROOT)];
    for part in path.split('/').filter(|p| !p.is_empty()) {
        found = found
            .into_iter()
            .flat_map(|dir| {
                if !part.contains('*') {
                    return vec![dir.join(part)];
                }
                std::fs::read_dir(&dir)
                    .into_iter()
                    .flatten()
                    .flatten()
                    .filter(|e| matches(part, &e.file_name().to_string_lossy()))
                    .map(|e| e.path())
                    .collect()
            })
            .filter(|p| p.exists())
            .collect();
    }
    !found.is_empty()
}

#[test]
fn every_path_the_docs_cite_exists() {
    if !require(Path::new(ROOT).join("docs").is_dir(), "docs/ beside tests/") {
        return;
    }
    let mut missing = Vec::new();
    let mut checked = 0;
    for file in citing_files() {
        let text = std::fs::read_to_string(&file).unwrap();
        for path in cited(&text) {
            if path.contains(EXAMPLE) {
                continue;
            }
            checked += 1;
            if !exists(&path) {
                let file = file.strip_prefix(ROOT).unwrap().display().to_string();
                missing.push(format!("{file}: {path}"));
            }
        }
    }
    assert!(
        checked > 100,
        "only {checked} cited paths found: the scan is broken"
    );
    assert!(
        missing.is_empty(),
        "cited paths that do not exist:\n{}",
        missing.join("\n")
    );
}

#[test]
fn the_scan_finds_paths_as_the_docs_write_them() {
    assert_eq!(
        cited("see `src/tools/mod.rs`, tests/it/tools/<domain>/ and (nixos/tests/eval*.nix)."),
        [
            "src/tools/mod.rs",
            "tests/it/tools/",
            "nixos/tests/eval*.nix"
        ]
    );
    // Another project's path, a URL's path: not ours.
    assert!(cited("ClientApp/src/app/x.ts and https://docs.rs/rmcp").is_empty());
    assert!(exists("tests/it/support/*.rs") && exists("tests/it/"));
    assert!(!exists("tests/fuzz_*.rs") && !exists("tests/ssh_bridge.rs"));
}
