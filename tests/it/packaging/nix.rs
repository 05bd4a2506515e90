//! The Nix files: every one parses, the flake pins nixpkgs, and the package builds from exactly its
//! source set and runs the hermetic tests (checked by evaluation and by replaying its build here).

use super::*;

#[test]
fn every_nix_file_parses() {
    let Some(nix) = require_tool("nix-instantiate", "nix-bin") else {
        return;
    };
    let mut files = Vec::new();
    files_with_ext(root(), "nix", &mut files);
    for required in [
        "flake.nix",
        "nixos/module.nix",
        "nixos/package.nix",
        "nixos/tests/vm.nix",
    ] {
        assert!(
            files.contains(&root().join(required)),
            "{required} is missing"
        );
    }
    for file in &files {
        let out = run(Command::new(&nix).arg("--parse").arg(file));
        assert!(
            out.status.success(),
            "{} does not parse:\n{}",
            file.display(),
            text(&out.stderr)
        );
    }
    println!("parsed {} .nix files", files.len());
}

#[test]
fn flake_lock_pins_nixpkgs_by_revision_and_hash() {
    let lock: Value =
        serde_json::from_str(&std::fs::read_to_string(root().join("flake.lock")).unwrap()).unwrap();
    let root_inputs = &lock["nodes"][lock["root"].as_str().unwrap()]["inputs"];
    let node = root_inputs["nixpkgs"].as_str().expect("root input nixpkgs");
    let locked = &lock["nodes"][node]["locked"];
    let rev = locked["rev"].as_str().unwrap_or_default();
    assert_eq!(
        rev.len(),
        40,
        "nixpkgs must be locked to a full revision: {locked}"
    );
    assert!(rev.chars().all(|c| c.is_ascii_hexdigit()));
    assert!(
        locked["narHash"]
            .as_str()
            .is_some_and(|h| h.starts_with("sha256-")),
        "nixpkgs needs a narHash: {locked}"
    );
    assert!(locked["lastModified"].is_u64());
    // A supported NixOS: flake.nix asks for the branch the lock pins, and not one past its end
    // of life (NixOS supports a release for seven months: 25.11 ended on 2026-06-30).
    let branch = lock["nodes"][node]["original"]["ref"].as_str().unwrap();
    let flake = std::fs::read_to_string(root().join("flake.nix")).unwrap();
    assert!(
        flake.contains(&format!("\"github:NixOS/nixpkgs/{branch}\"")),
        "flake.nix does not ask for {branch}"
    );
    let release: f64 = branch.strip_prefix("nixos-").unwrap().parse().unwrap();
    assert!(release >= 26.05, "{branch} is past its end of life");
}

/// The paths of `lib.fileset.unions [ … ]` in nixos/package.nix, relative to the repo root:
/// one element per line, `(root + "/PATH")`, optionally inside `lib.fileset.maybeMissing`.
/// Anything else fails, so a new kind of element is taught here instead of being skipped.
fn package_fileset(package_nix: &str) -> Vec<String> {
    let start = package_nix
        .find("lib.fileset.unions [")
        .expect("nixos/package.nix: no `lib.fileset.unions [`")
        + "lib.fileset.unions [".len();
    let end = start
        + package_nix[start..]
            .find(']')
            .expect("nixos/package.nix: unclosed fileset list");
    package_nix[start..end]
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|element| {
            let inner = element
                .strip_prefix('(')
                .and_then(|e| e.strip_suffix(')'))
                .unwrap_or(element);
            let inner = inner
                .strip_prefix("lib.fileset.maybeMissing (")
                .and_then(|e| e.strip_suffix(')'))
                .unwrap_or(inner);
            inner
                .strip_prefix("root + \"/")
                .and_then(|e| e.strip_suffix('"'))
                .unwrap_or_else(|| {
                    panic!(
                        "nixos/package.nix: fileset element {element:?} is not (root + \"/PATH\"); \
                         teach package_fileset in tests/it/packaging/nix.rs to read it"
                    )
                })
                .to_string()
        })
        .collect()
}

fn copy_tree(from: &Path, to: &Path) {
    if from.is_dir() {
        std::fs::create_dir_all(to).unwrap();
        for entry in std::fs::read_dir(from).unwrap() {
            let entry = entry.unwrap();
            copy_tree(&entry.path(), &to.join(entry.file_name()));
        }
    } else {
        std::fs::copy(from, to).unwrap_or_else(|e| panic!("{}: {e}", from.display()));
    }
}

/// The package builds from exactly its fileset: every path Cargo.toml needs (targets, benches,
/// the sample bin under tests/) and every file a target reads while compiling must be in it.
/// Checked without a second build of the dependencies (a cold `cargo check` of the copy took two
/// minutes of CI): Cargo reads the copy's manifest and targets (`cargo metadata`, offline), the
/// compiler's own dependency lists of the targets this test run built name every source file
/// they read (modules, `#[path]`s, `include_str!`s), and the benches, not built by `cargo
/// test`, are read for the same three forms.
#[test]
fn package_source_set_holds_every_file_the_targets_read() {
    let package_nix = std::fs::read_to_string(root().join("nixos/package.nix")).unwrap();
    let paths = package_fileset(&package_nix);
    assert!(paths.iter().any(|p| p == "Cargo.toml"), "{paths:?}");
    let in_fileset = |file: &Path| {
        file.strip_prefix(root())
            .is_ok_and(|rel| paths.iter().any(|p| rel.starts_with(p)))
    };
    let work = Path::new(env!("CARGO_TARGET_TMPDIR")).join("package-source");
    if work.exists() {
        std::fs::remove_dir_all(&work).unwrap();
    }
    std::fs::create_dir_all(&work).unwrap();
    for path in &paths {
        let from = root().join(path);
        if from.exists() {
            if let Some(parent) = Path::new(path).parent() {
                std::fs::create_dir_all(work.join(parent)).unwrap();
            }
            copy_tree(&from, &work.join(path));
        } else {
            assert!(
                package_nix.contains(&format!("lib.fileset.maybeMissing (root + \"/{path}\")")),
                "nixos/package.nix names {path}, which does not exist"
            );
        }
    }

    // 1. Cargo finds the manifest, the lock and every target in the copy that it finds here
    //    (a missing bench file is not an error to `cargo metadata`: the target just vanishes).
    let targets_in = |dir: &Path| -> Vec<String> {
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let out = run(Command::new(cargo).current_dir(dir).args([
            "metadata",
            "--offline",
            "--locked",
            "--no-deps",
            "--format-version",
            "1",
        ]));
        assert!(
            out.status.success(),
            "cargo metadata in {} failed:\n{}",
            dir.display(),
            text(&out.stderr)
        );
        let metadata: Value = serde_json::from_slice(&out.stdout).unwrap();
        metadata["packages"][0]["targets"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| {
                let src = t["src_path"].as_str().unwrap();
                assert!(Path::new(src).is_file(), "{src}");
                format!("{} {}", t["kind"][0], t["name"])
            })
            .collect()
    };
    assert_eq!(
        targets_in(&work),
        targets_in(root()),
        "the package's source set {paths:?} loses Cargo targets"
    );
    std::fs::remove_dir_all(&work).unwrap();

    // 2. What the compiler read for the targets built for this run (rustc's dep-info beside
    //    this binary: the library, the binaries, this test binary).
    let deps = std::env::current_exe()
        .unwrap()
        .parent()
        .unwrap()
        .to_path_buf();
    let mut read = BTreeSet::new();
    for entry in std::fs::read_dir(&deps).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let ours = ["ombi_mcp-", "ombi_mcpd-", "ombi_sample-", "it-"]
            .iter()
            .any(|p| name.starts_with(p));
        if !(ours && name.ends_with(".d")) {
            continue;
        }
        let deps_text = std::fs::read_to_string(&path).unwrap();
        for line in deps_text.lines().filter(|l| !l.starts_with('#')) {
            let Some((_, inputs)) = line.split_once(": ") else {
                continue;
            };
            // Relative to the workspace, where Cargo runs rustc; the registry's are absolute.
            read.extend(
                inputs
                    .split_whitespace()
                    .map(|f| root().join(f))
                    .filter(|f| f.starts_with(root()) && f.is_file()),
            );
        }
    }
    assert!(
        read.iter().any(|f| f.ends_with("src/lib.rs"))
            && read.iter().any(|f| f.ends_with("tests/it/main.rs")),
        "no dep-info of the library and this test beside {}",
        deps.display()
    );

    // 3. The benches' own `#[path]`s and includes (they are not built by `cargo test`).
    for entry in std::fs::read_dir(root().join("benches")).unwrap() {
        let bench = entry.unwrap().path();
        read.insert(bench.clone());
        let source = std::fs::read_to_string(&bench).unwrap();
        for form in ["#[path = \"", "include_str!(\"", "include_bytes!(\""] {
            for (at, _) in source.match_indices(form) {
                let rest = &source[at + form.len()..];
                let rel = &rest[..rest.find('"').unwrap()];
                let named = bench.parent().unwrap().join(rel);
                let file = std::fs::canonicalize(&named).unwrap_or_else(|e| {
                    panic!("{} names {}: {e}", bench.display(), named.display())
                });
                read.insert(file);
            }
        }
    }
    let outside: Vec<_> = read.iter().filter(|f| !in_fileset(f)).collect();
    assert!(
        outside.is_empty(),
        "nixos/package.nix's fileset {paths:?} misses files the crate reads while compiling: \
         {outside:?}"
    );
}

/// The package's build runs the unit tests and every integration test but this module (and
/// its `install`), with the hermetic switch, in the dev profile, on the source set read above; `nix run` starts the shim. Evaluated with
/// stand-ins for `rustPlatform` and `lib.fileset` (whose functions need a newer Nix than the
/// evaluation does), so the values are the ones nixos/package.nix passes to buildRustPackage.
#[test]
fn package_build_runs_the_hermetic_tests() {
    let Some((nix, lib_dir)) = nix_with_lib() else {
        return;
    };
    let expr = format!(
        r#"let
          lib = import {lib_dir};
          fileset = {{
            unions = paths: paths;
            maybeMissing = path: path;
            toSource = {{ root, fileset }}: map (p: lib.removePrefix "${{toString root}}/" (toString p)) fileset;
          }};
          package = import ./nixos/package.nix {{
            lib = lib // {{ inherit fileset; }};
            rustPlatform.buildRustPackage = args: args;
          }};
        in {{ inherit (package) src cargoTestFlags checkFlags env checkType; inherit (package.meta) mainProgram; }}"#
    );
    let out = run(Command::new(&nix)
        .current_dir(root())
        .args(["--eval", "--strict", "--json", "-E", &expr]));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();

    let package_nix = std::fs::read_to_string(root().join("nixos/package.nix")).unwrap();
    assert_eq!(
        v["src"],
        json!(package_fileset(&package_nix)),
        "the fileset as Nix sees it"
    );
    // Cargo's integration-test targets: `tests/NAME.rs` and `tests/NAME/main.rs`.
    let mut targets: Vec<String> = std::fs::read_dir(root().join("tests"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter_map(|p| {
            let target = if p.join("main.rs").is_file() {
                p.file_name()
            } else if p.extension().is_some_and(|e| e == "rs") {
                p.file_stem()
            } else {
                None
            };
            target.map(|t| t.to_string_lossy().into_owned())
        })
        .collect();
    targets.sort();
    let mut want = vec!["--lib".to_string(), "--bins".to_string()];
    for t in targets {
        want.extend(["--test".to_string(), t]);
    }
    assert_eq!(v["cargoTestFlags"], json!(want));
    // The packaging checks read what the package's source leaves out.
    let packaging = module_path!().split("::").nth(1).unwrap();
    assert_eq!(packaging, "packaging");
    assert_eq!(v["checkFlags"], json!(["--skip", format!("{packaging}::")]));
    assert_eq!(v["env"]["OMBI_MCP_HERMETIC_TESTS"], "1");
    // Tests build without the release profile's fat LTO (issue 16: Nix build time).
    assert_eq!(
        v["checkType"], "debug",
        "the check phase builds the tests in the dev profile"
    );
    assert_eq!(v["mainProgram"], "ombi-mcp", "`nix run` starts the shim");
}

/// The flake's default app: the shim, or its help when started from a terminal without
/// arguments (`script` gives it one).
#[test]
fn nix_run_app_prints_help_on_a_terminal_and_bridges_otherwise() {
    let Some(script) = require_tool("script", "util-linux") else {
        return;
    };
    let shim = env!("CARGO_BIN_EXE_ombi-mcp");
    let app = std::fs::read_to_string(root().join("nixos/ombi-mcp-app.sh")).unwrap();
    assert!(
        std::fs::read_to_string(root().join("flake.nix"))
            .unwrap()
            .contains("./nixos/ombi-mcp-app.sh"),
        "flake.nix builds the app from nixos/ombi-mcp-app.sh"
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("app");
    std::fs::write(&path, app.replace("@shim@", shim)).unwrap();
    let absent = dir.path().join("absent.sock");

    let out = run(Command::new(&script)
        .args(["-qec", &format!("sh {}", path.display()), "/dev/null"])
        .env("OMBI_MCP_SOCKET", &absent));
    let all = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{all}");
    assert!(
        all.contains("USAGE:") && all.contains("stdin is a terminal"),
        "{all}"
    );

    let out = run(Command::new("sh")
        .arg(&path)
        .stdin(std::process::Stdio::null())
        .env("OMBI_MCP_SOCKET", &absent));
    assert_eq!(out.status.code(), Some(69), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("cannot connect"),
        "{}",
        text(&out.stderr)
    );

    let out = run(Command::new("sh").arg(&path).arg("--version"));
    assert!(
        text(&out.stderr).starts_with("ombi-mcp "),
        "{}",
        text(&out.stderr)
    );
}

/// Users who add the flake as an input are told to make it follow their own nixpkgs (the
/// flake's pin is only its fallback), in the snippet they copy.
#[test]
fn install_doc_makes_the_flake_follow_the_system_nixpkgs() {
    let doc = std::fs::read_to_string(root().join("docs/install-nixos.md")).unwrap();
    let snippet = doc
        .split("```nix")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("a nix snippet in docs/install-nixos.md");
    assert!(
        snippet.contains(r#"inputs.ombi-mcp.inputs.nixpkgs.follows = "nixpkgs";"#),
        "the first snippet (the system's flake.nix) makes ombi-mcp follow nixpkgs:\n{snippet}"
    );
    let flake = std::fs::read_to_string(root().join("flake.nix")).unwrap();
    let pinned = flake
        .split("inputs.nixpkgs.url = \"github:NixOS/nixpkgs/")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("flake.nix pins a nixpkgs branch");
    assert!(
        doc.contains(&format!("pins `{pinned}`")),
        "docs/install-nixos.md names the flake's pin ({pinned}) and why follows matters"
    );
}
