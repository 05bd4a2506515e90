//! Checks of what ships beside the binaries: Nix files, systemd units, example configuration,
//! MCP client configurations and the user docs that list tools.
//!
//! External tools: `nix-instantiate` (Debian package `nix-bin`) and `systemd-analyze` (`systemd`).
//! Where one is missing the check fails under CI (`CI=true`) and is skipped with a printed
//! message elsewhere. The evaluations of the module, the package and the VM test need nixpkgs'
//! `lib`: set `NIXPKGS_LIB` to a directory holding `default.nix` of nixpkgs' `lib/` (see
//! docs/install-nixos.md, "Checking the module"; .ci/run sets it when a copy sits beside the
//! checkout); without it they are skipped with a message, and fail under CI.
//!
//! This file checks what the Nix package's source leaves out (docs/, packaging/, nixos/), so the
//! package's own build does not run it (nixos/package.nix).

mod clients;
mod config;
mod deb;
mod docs;
mod install;
mod nix;
mod nixos;
mod systemd;

use std::collections::BTreeSet;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{Value, json};

use crate::harness::require;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const DAEMON: &str = env!("CARGO_BIN_EXE_ombi-mcpd");
/// `systemd-analyze security` exposure allowed for the service, in tenths (1.5).
const MAX_EXPOSURE_TENTHS: u32 = 15;

fn root() -> &'static Path {
    Path::new(ROOT)
}

/// The tool's path, or `None` (skip) off CI. On CI a missing tool is a failure (`require`).
fn require_tool(name: &str, debian_package: &str) -> Option<PathBuf> {
    let found = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join(name))
            .find(|p| p.is_file())
    });
    let what = format!("{name} (install it with `apt-get install -y {debian_package}`)");
    if !require(found.is_some(), &what) {
        return None;
    }
    found
}

fn run(cmd: &mut Command) -> Output {
    cmd.output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn files_with_ext(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        if name == "target" || name == ".git" {
            continue;
        }
        if path.is_dir() {
            files_with_ext(&path, ext, out);
        } else if path.extension().is_some_and(|e| e == ext) {
            out.push(path);
        }
    }
}

/// `KEY=VALUE` lines of an EnvironmentFile, comments and blanks skipped.
fn env_file(path: &Path) -> Vec<(String, String)> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (k, v) = l
                .split_once('=')
                .unwrap_or_else(|| panic!("not KEY=VALUE: {l}"));
            (k.to_string(), v.to_string())
        })
        .collect()
}

/// Runs `ombi-mcpd --check-config --offline` with the example env file, the example policy
/// and a credentials directory holding both credentials.
fn check_config(overrides: &[(&str, Option<&str>)]) -> (Output, String) {
    check_config_with(&["ombi-api-key", "ombi-password"], overrides)
}

/// `check_config` with only the `credentials` named, as systemd hands over what the unit's
/// LoadCredential= lines load.
fn check_config_with(credentials: &[&str], overrides: &[(&str, Option<&str>)]) -> (Output, String) {
    let creds = tempfile::tempdir().unwrap();
    let secret = "example-secret-0f3a9c";
    for name in credentials {
        std::fs::write(creds.path().join(name), secret).unwrap();
    }
    let mut vars = env_file(&root().join("packaging/examples/ombi-mcp.env"));
    for (k, v) in &mut vars {
        if k == "OMBI_MCP_POLICY" {
            *v = root()
                .join("packaging/examples/policy.json")
                .display()
                .to_string();
        }
    }
    for (key, value) in overrides {
        vars.retain(|(k, _)| k != key);
        if let Some(v) = value {
            vars.push((key.to_string(), v.to_string()));
        }
    }
    let mut cmd = Command::new(DAEMON);
    cmd.env_clear()
        .args(["--check-config", "--offline"])
        .envs(vars)
        .env("CREDENTIALS_DIRECTORY", creds.path())
        .env("OMBI_MCP_SOCKET", creds.path().join("mcp.sock"));
    if let Some(path) = std::env::var_os("PATH") {
        cmd.env("PATH", path);
    }
    (run(&mut cmd), secret.to_string())
}

fn eval_case(nix: &Path, lib_dir: &str, case: &str) -> Output {
    run(Command::new(nix)
        .current_dir(root())
        .args(["--eval", "--strict", "--json", "nixos/tests/eval.nix"])
        .args(["--arg", "lib", &format!("import {lib_dir}")])
        .args(["--argstr", "case", case]))
}

/// Evaluates nixos/tests/eval.nix for one case.
fn eval_module(nix: &Path, lib_dir: &str, case: &str) -> Value {
    let out = eval_case(nix, lib_dir, case);
    assert!(out.status.success(), "eval {case}:\n{}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// `[Service]` keys of the packaged unit.
fn unit_service_keys() -> BTreeSet<String> {
    let unit = std::fs::read_to_string(root().join("packaging/systemd/ombi-mcp.service")).unwrap();
    let mut in_service = false;
    let mut keys = BTreeSet::new();
    for line in unit.lines().map(str::trim) {
        if line.starts_with('[') {
            in_service = line == "[Service]";
        } else if in_service
            && !line.starts_with('#')
            && let Some((k, _)) = line.split_once('=')
        {
            keys.insert(k.to_string());
        }
    }
    keys
}

/// `nix-instantiate` and nixpkgs' `lib` directory (`NIXPKGS_LIB`), or `None`: skip (off CI; on
/// CI a missing lib is a failure, `require`).
fn nix_with_lib() -> Option<(PathBuf, String)> {
    let lib_dir = std::env::var("NIXPKGS_LIB").ok().filter(|v| !v.is_empty());
    if !require(
        lib_dir.is_some(),
        "NIXPKGS_LIB, nixpkgs' lib directory, to evaluate the Nix files \
         (docs/install-nixos.md, \"Checking the module\")",
    ) {
        return None;
    }
    let lib_dir = lib_dir?;
    let lib_dir = std::fs::canonicalize(&lib_dir)
        .unwrap_or_else(|e| panic!("NIXPKGS_LIB={lib_dir}: {e}"))
        .display()
        .to_string();
    assert!(
        Path::new(&lib_dir).join("default.nix").is_file(),
        "NIXPKGS_LIB={lib_dir} holds no default.nix"
    );
    let nix = require_tool("nix-instantiate", "nix-bin")?;
    Some((nix, lib_dir))
}

/// Evaluates nixos/tests/eval.nix for a case that must fail evaluation; returns the error.
fn eval_module_error(nix: &Path, lib_dir: &str, case: &str) -> String {
    let out = eval_case(nix, lib_dir, case);
    assert!(
        !out.status.success(),
        "{case} must fail evaluation, got:\n{}",
        text(&out.stdout)
    );
    text(&out.stderr)
}
