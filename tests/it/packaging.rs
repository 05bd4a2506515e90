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

mod deb;
mod install;

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

/// The unit files in a temp dir, with ExecStart= pointing at the built daemon (verify checks
/// that the binary exists).
fn staged_units() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for unit in ["ombi-mcp.socket", "ombi-mcp.service"] {
        let src = std::fs::read_to_string(root().join("packaging/systemd").join(unit)).unwrap();
        let staged: String = src
            .lines()
            .map(|l| {
                if l.starts_with("ExecStart=") {
                    format!("ExecStart={DAEMON}\n")
                } else {
                    format!("{l}\n")
                }
            })
            .collect();
        std::fs::write(dir.path().join(unit), staged).unwrap();
    }
    dir
}

/// systemd-analyze `args` in a directory of the staged units; None (skipped)
/// without systemd-analyze.
fn analyze_staged_units(args: &[&str]) -> Option<Output> {
    let analyze = require_tool("systemd-analyze", "systemd")?;
    let dir = staged_units();
    Some(run(Command::new(&analyze)
        .current_dir(dir.path())
        .args(args)))
}

#[test]
fn systemd_units_verify_without_any_warning() {
    let verify = ["verify", "./ombi-mcp.socket", "./ombi-mcp.service"];
    let Some(out) = analyze_staged_units(&verify) else {
        return;
    };
    let all = format!("{}{}", text(&out.stdout), text(&out.stderr));
    // verify only warns (exit 0) about unknown keys or bad values: any output is a finding.
    assert!(
        out.status.success() && all.trim().is_empty(),
        "systemd-analyze verify:\n{all}"
    );
}

#[test]
fn service_exposure_is_at_most_1_5() {
    let threshold = format!("--threshold={MAX_EXPOSURE_TENTHS}");
    let security = [
        "security",
        "--offline=true",
        &threshold,
        "./ombi-mcp.service",
    ];
    let Some(out) = analyze_staged_units(&security) else {
        return;
    };
    let report = text(&out.stdout);
    let line = report
        .lines()
        .find(|l| l.contains("Overall exposure level"))
        .unwrap_or_else(|| panic!("no exposure in:\n{report}{}", text(&out.stderr)));
    println!("{line}");
    let level = line
        .split(':')
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .expect("exposure value");
    let tenths: u32 = level.replace('.', "").parse().expect("exposure like 1.2");
    assert!(tenths <= MAX_EXPOSURE_TENTHS, "{line}");
    assert!(out.status.success(), "over threshold:\n{report}");
}

#[test]
fn sysusers_and_tmpfiles_apply_to_a_scratch_root() {
    let Some(sysusers) = require_tool("systemd-sysusers", "systemd") else {
        return;
    };
    let Some(tmpfiles) = require_tool("systemd-tmpfiles", "systemd") else {
        return;
    };
    let scratch = tempfile::tempdir().unwrap();
    let sysroot = scratch.path();
    for (dir, file) in [
        ("sysusers.d", "ombi-mcp.conf"),
        ("tmpfiles.d", "ombi-mcp.conf"),
    ] {
        std::fs::create_dir_all(sysroot.join("etc").join(dir)).unwrap();
        std::fs::copy(
            root().join("packaging").join(dir).join(file),
            sysroot.join("etc").join(dir).join(file),
        )
        .unwrap();
    }
    // systemd's own tmpfiles.d/credstore.conf (systemd >= 254; the host's copy where it has
    // one): a line of ours for the same path would be a "Duplicate line" warning.
    let credstore =
        std::fs::read_to_string("/usr/lib/tmpfiles.d/credstore.conf").unwrap_or_else(|_| {
            "d /etc/credstore 0000 root root\nd /etc/credstore.encrypted 0000 root root\n\
             z /run/credstore 0000 root root\nz /run/credstore.encrypted 0000 root root\n"
                .to_string()
        });
    std::fs::create_dir_all(sysroot.join("usr/lib/tmpfiles.d")).unwrap();
    std::fs::write(sysroot.join("usr/lib/tmpfiles.d/credstore.conf"), credstore).unwrap();
    let root_arg = format!("--root={}", sysroot.display());
    let out = run(Command::new(&sysusers).arg(&root_arg));
    assert!(
        out.status.success(),
        "systemd-sysusers:\n{}",
        text(&out.stderr)
    );
    let group = std::fs::read_to_string(sysroot.join("etc/group")).unwrap();
    assert!(
        group.lines().any(|l| l.starts_with("ombi-mcp:")),
        "group ombi-mcp not created:\n{group}"
    );
    let out = run(Command::new(&tmpfiles).arg(&root_arg).arg("--create"));
    let stderr = text(&out.stderr);
    assert!(
        out.status.success() && stderr.trim().is_empty(),
        "systemd-tmpfiles:\n{stderr}"
    );
    // The DynamicUser service reads the policy in it (packaging::install starts it so).
    let meta = std::fs::metadata(sysroot.join("etc/ombi-mcp")).unwrap();
    assert_eq!(meta.permissions().mode() & 0o7777, 0o755, "etc/ombi-mcp");
    assert!(
        sysroot.join("etc/credstore").is_dir(),
        "systemd's credstore.conf creates /etc/credstore"
    );
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

#[test]
fn example_env_and_policy_pass_check_config() {
    // The example policy names the socket's group, which the package (or sysusers.d) creates.
    if !crate::harness::require(
        crate::daemon::check_config::ensure_group("ombi-mcp"),
        "group ombi-mcp (root, to create it)",
    ) {
        return;
    }
    let (out, secret) = check_config(&[]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(
        out.status.success(),
        "ombi-mcpd --check-config --offline rejected the examples ({:?}):\n{stdout}{stderr}",
        out.status.code()
    );
    assert_eq!(
        stdout.trim().lines().count(),
        1,
        "want a one-line report, got:\n{stdout}"
    );
    assert!(
        !stdout.contains(&secret) && !stderr.contains(&secret),
        "secret printed"
    );
}

#[test]
fn a_policy_with_ombi_user_is_a_config_error_in_jwt_mode() {
    let dir = tempfile::tempdir().unwrap();
    let policy = dir.path().join("policy.json");
    std::fs::write(&policy, r#"{"peers":[{"uid":0,"ombi_user":"alice"}]}"#).unwrap();
    let (out, secret) = check_config(&[
        ("OMBI_AUTH_MODE", Some("jwt")),
        ("OMBI_USERNAME", Some("mcp")),
        ("OMBI_USER_NAME", None),
        ("OMBI_MCP_POLICY", policy.to_str()),
    ]);
    let stderr = text(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(78),
        "want EX_CONFIG, stderr:\n{stderr}"
    );
    assert!(
        stderr
            .lines()
            .any(|l| l.starts_with("ombi-mcpd: configuration error: OMBI_MCP_POLICY")),
        "want `ombi-mcpd: configuration error: OMBI_MCP_POLICY: ...`, got:\n{stderr}"
    );
    assert!(!stderr.contains(&secret));
}

/// The MCP server entry at `pointer` of the shipped client config
/// packaging/clients/`file`.
fn client_server(file: &str, pointer: &str) -> Value {
    let path = root().join("packaging/clients").join(file);
    let json: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap())
        .unwrap_or_else(|e| panic!("{file}: {e}"));
    json.pointer(pointer)
        .unwrap_or_else(|| panic!("{file}: no {pointer}"))
        .clone()
}

#[test]
fn client_configs_start_the_shim_with_socket() {
    let cases = [
        ("claude_desktop_config.json", "/mcpServers/ombi"),
        (".mcp.json", "/mcpServers/ombi"),
        (".vscode/mcp.json", "/servers/ombi"),
    ];
    for (file, pointer) in cases {
        let server = client_server(file, pointer);
        assert_eq!(server["command"], "ombi-mcp", "{file}");
        assert_eq!(
            server["args"],
            json!(["--socket", "/run/ombi-mcp/mcp.sock"]),
            "{file}"
        );
        if file != "claude_desktop_config.json" {
            assert_eq!(server["type"], "stdio", "{file}");
        }
    }
    let inspector = std::fs::read_to_string(root().join("packaging/clients/inspector.sh")).unwrap();
    assert!(inspector.contains("--cli ombi-mcp --socket"));
}

/// The markers around docs/tools.md's generated part.
const TOOLS_DOC_BEGIN: &str = "<!-- generated from tools::TOOLS: edit the tools, then UPDATE_DOCS=1 cargo test --all-features --test it packaging::tools_doc -->";
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

/// Words like `OMBI_URL` in a text.
fn env_names(text: &str) -> BTreeSet<String> {
    text.split(|c: char| !(c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_'))
        .filter(|w| w.starts_with("OMBI_") && w.len() > "OMBI_".len() && !w.ends_with('_'))
        .map(str::to_string)
        .collect()
}

#[test]
fn configuration_doc_covers_every_variable_the_daemon_reads() {
    let doc = std::fs::read_to_string(root().join("docs/configuration.md")).unwrap();
    let documented = env_names(&doc);
    let read = env_names(&std::fs::read_to_string(root().join("src/config.rs")).unwrap());
    assert!(
        read.len() >= 12,
        "src/config.rs names too few variables: {read:?}"
    );
    let example: BTreeSet<String> = env_file(&root().join("packaging/examples/ombi-mcp.env"))
        .into_iter()
        .map(|(k, _)| k)
        .filter(|k| k.starts_with("OMBI_"))
        .collect();
    let missing: Vec<_> = read
        .union(&example)
        .filter(|v| !documented.contains(*v))
        .collect();
    assert!(
        missing.is_empty(),
        "not in docs/configuration.md: {missing:?}"
    );
    for credential in [
        "ombi-password",
        "ombi-api-key",
        "RUST_LOG",
        "CREDENTIALS_DIRECTORY",
    ] {
        assert!(
            doc.contains(credential),
            "docs/configuration.md does not mention {credential}"
        );
    }
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

#[test]
fn nixos_module_renders_units_and_asserts() {
    let Some((nix, lib_dir)) = nix_with_lib() else {
        return;
    };

    let v = eval_module(&nix, &lib_dir, "api_key");
    assert_eq!(v["failedAssertions"], json!([]));
    let socket = &v["socket"];
    assert_eq!(socket["listenStreams"], json!(["/run/ombi/mcp.sock"]));
    assert_eq!(socket["wantedBy"], json!(["sockets.target"]));
    for (key, want) in [
        ("FileDescriptorName", "mcp"),
        ("SocketMode", "0660"),
        ("SocketGroup", "media"),
        ("DirectoryMode", "0755"),
    ] {
        assert_eq!(socket["socketConfig"][key], want, "socketConfig.{key}");
    }
    let svc = &v["service"];
    let sc = &svc["serviceConfig"];
    assert_eq!(
        sc["LoadCredential"],
        json!(["ombi-api-key:/run/secrets/ombi-api-key"])
    );
    assert_eq!(sc["DynamicUser"], true);
    assert_eq!(sc["Type"], "notify");
    assert_eq!(sc["RestartPreventExitStatus"], 78);
    // Room for 64 sessions and 16 Ombi calls; the syscall filter forbids raising it inside.
    assert_eq!(sc["LimitNOFILE"], 8192);
    assert!(
        sc.get("PrivateUsers").is_none(),
        "PrivateUsers hides peer uids"
    );
    assert!(
        sc.get("RuntimeDirectory").is_none(),
        "would delete the socket's directory"
    );
    // The module and the packaged unit keep the same hardening set. With every option set the
    // module adds the opt-in network allow-list, which the packaged unit shows commented out.
    let module_keys: BTreeSet<String> = sc.as_object().unwrap().keys().cloned().collect();
    let unit_keys = unit_service_keys();
    let only_unit: Vec<_> = unit_keys.difference(&module_keys).collect();
    let only_module: Vec<_> = module_keys.difference(&unit_keys).collect();
    assert!(
        only_unit.is_empty(),
        "keys only in packaging/systemd/ombi-mcp.service: {only_unit:?}"
    );
    assert_eq!(
        only_module,
        ["IPAddressAllow", "IPAddressDeny"],
        "keys only in nixos/module.nix"
    );
    let unit = std::fs::read_to_string(root().join("packaging/systemd/ombi-mcp.service")).unwrap();
    assert!(
        unit.contains("\n#IPAddressDeny=any\n") && unit.contains("\n#IPAddressAllow=localhost ")
    );
    assert!(unit.contains("\nLimitNOFILE=8192\n"));

    let env = &svc["environment"];
    for (key, want) in [
        ("OMBI_URL", "https://media.example.org/ombi"),
        ("OMBI_AUTH_MODE", "api_key"),
        ("OMBI_USER_NAME", "household"),
        ("OMBI_BUNDLES", "core,moderation"),
        ("OMBI_HTTP_TIMEOUT", "45"),
        ("OMBI_CONFIRM", "require"),
        ("OMBI_CONFIRM_TIMEOUT", "30"),
        ("OMBI_POLL_INTERVAL", "15"),
        ("OMBI_LOCKDOWN", "true"),
        ("OMBI_MCP_SOCKET", "/run/ombi/mcp.sock"),
        ("RUST_LOG", "debug,rmcp=warn"),
        ("EXTRA_FLAG", "1"),
    ] {
        assert_eq!(env[key], want, "environment.{key}");
    }
    for secret_var in [
        "OMBI_PASSWORD",
        "OMBI_API_KEY",
        "OMBI_API_KEY_FILE",
        "OMBI_PASSWORD_FILE",
    ] {
        assert!(
            env.get(secret_var).is_none(),
            "{secret_var} must not be in the environment"
        );
    }
    // A fixed path, the store file behind it a reload trigger: a new policy reloads the daemon
    // on a switch instead of restarting it.
    assert_eq!(env["OMBI_MCP_POLICY"], "/etc/ombi-mcp/policy.json");
    let store = v["policyStorePath"].as_str().unwrap();
    assert!(store.ends_with("-ombi-mcp-policy.json"), "{store}");
    assert_eq!(v["service"]["reloadTriggers"], json!([store]));
    assert_eq!(
        v["service"]["serviceConfig"]["ExecReload"],
        "kill -HUP $MAINPID"
    );
    let policy: Value = serde_json::from_str(v["policyText"].as_str().unwrap()).unwrap();
    let expected = json!({"peers": [
        {"uid": 1000, "bundles": ["core", "moderation"], "read_only": false, "ombi_user": "alice"},
        {"user": "bob", "bundles": ["core"], "read_only": true, "ombi_user": "bob"},
        {"group": "ombi-mcp", "bundles": ["core"], "read_only": true}
    ]});
    assert_eq!(
        policy, expected,
        "the module renders peers as docs/configuration.md's example"
    );

    let jwt = eval_module(&nix, &lib_dir, "jwt");
    assert_eq!(jwt["failedAssertions"], json!([]));
    let jwt_sc = &jwt["service"]["serviceConfig"];
    assert_eq!(
        jwt_sc["LoadCredential"],
        json!(["ombi-password:/run/secrets/ombi-password"])
    );
    assert_eq!(jwt["service"]["environment"]["OMBI_USERNAME"], "mcp");
    // The defaults of this wave's settings, as the daemon's own.
    for (key, want) in [
        ("OMBI_CONFIRM", "ask"),
        ("OMBI_CONFIRM_TIMEOUT", "120"),
        ("OMBI_POLL_INTERVAL", "60"),
        ("OMBI_LOCKDOWN", "false"),
    ] {
        assert_eq!(jwt["service"]["environment"][key], want, "default {key}");
    }
    for key in ["EnvironmentFile", "IPAddressDeny", "IPAddressAllow"] {
        assert!(jwt_sc.get(key).is_none(), "{key} is opt-in");
    }
    assert_eq!(
        jwt["service"]["environment"]["OMBI_MCP_POLICY"],
        Value::Null
    );
    assert_eq!(jwt["socket"]["socketConfig"]["SocketGroup"], "ombi-mcp");
    assert_eq!(jwt["groups"], json!(["ombi-mcp"]));

    for (case, needle) in [
        (
            "jwt_without_password",
            "needs both username and passwordFile",
        ),
        ("api_key_without_key", "needs apiKeyFile"),
        (
            "jwt_with_ombi_user",
            "ombiUser needs authMode = \"api_key\"",
        ),
        ("two_matchers", "exactly one of uid, user, group"),
    ] {
        let v = eval_module(&nix, &lib_dir, case);
        let failed = v["failedAssertions"].as_array().unwrap();
        assert!(
            failed.len() == 1 && failed[0].as_str().unwrap().contains(needle),
            "{case}: want one failed assertion containing {needle:?}, got {failed:?}"
        );
    }
}

// ---- The Nix package ----

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
                         teach package_fileset in tests/it/packaging.rs to read it"
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
    // This module reads what the package's source leaves out.
    let this_module = module_path!().split_once("::").unwrap().1;
    assert_eq!(
        v["checkFlags"],
        json!(["--skip", format!("{this_module}::")])
    );
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

#[test]
fn license_file_matches_cargo_toml() {
    let manifest = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    assert!(manifest.contains("license = \"MIT\""));
    let license = std::fs::read_to_string(root().join("LICENSE")).unwrap();
    assert!(license.starts_with("MIT License"), "{license}");
    assert!(license.contains("Permission is hereby granted, free of charge"));
    assert!(license.contains("THE SOFTWARE IS PROVIDED \"AS IS\""));
}

// ---- The NixOS module's checks ----

#[test]
fn nixos_module_keeps_secrets_out_of_the_url_and_the_store() {
    let Some((nix, lib_dir)) = nix_with_lib() else {
        return;
    };
    for (case, what) in [
        ("url_with_user_info", "user-info"),
        ("url_with_query", "a query"),
        ("url_with_fragment", "a fragment"),
    ] {
        let v = eval_module(&nix, &lib_dir, case);
        let failed = v["failedAssertions"].as_array().unwrap();
        assert_eq!(failed.len(), 1, "{case}: {failed:?}");
        let message = failed[0].as_str().unwrap();
        assert!(
            message.starts_with(&format!("services.ombi-mcp.url must not carry {what}")),
            "{case}: {message}"
        );
        assert!(
            !message.contains("hunter2-url-secret"),
            "{case}: the message repeats the secret"
        );
    }
    // The path type refuses them before any assertion: the evaluation itself fails.
    for (case, option) in [
        ("relative_secret", "passwordFile"),
        ("store_secret", "passwordFile"),
        ("store_api_key", "apiKeyFile"),
    ] {
        let stderr = eval_module_error(&nix, &lib_dir, case);
        assert!(
            stderr.contains(&format!("services.ombi-mcp.{option}"))
                && stderr.contains("absolute path not in the Nix store"),
            "{case}:\n{stderr}"
        );
    }
}

#[test]
fn nixos_module_warns_about_options_of_the_other_auth_mode() {
    let Some((nix, lib_dir)) = nix_with_lib() else {
        return;
    };
    let v = eval_module(&nix, &lib_dir, "jwt_with_api_key_options");
    assert_eq!(v["failedAssertions"], json!([]));
    assert_eq!(
        v["warnings"][0],
        "services.ombi-mcp: authMode = \"jwt\" ignores apiKeyFile and apiUserName (used only with authMode = \"api_key\")."
    );
    // Ignored indeed: neither the key nor the acting user reaches the service.
    let svc = &v["service"];
    assert_eq!(
        svc["serviceConfig"]["LoadCredential"],
        json!(["ombi-password:/run/secrets/ombi-password"])
    );
    assert!(svc["environment"].get("OMBI_USER_NAME").is_none());

    let v = eval_module(&nix, &lib_dir, "api_key_with_jwt_options");
    assert_eq!(
        v["warnings"],
        json!([
            "services.ombi-mcp: authMode = \"api_key\" ignores username (used only with authMode = \"jwt\")."
        ])
    );
    assert!(v["service"]["environment"].get("OMBI_USERNAME").is_none());
    for case in ["api_key", "peer_settings"] {
        assert_eq!(
            eval_module(&nix, &lib_dir, case)["warnings"],
            json!([]),
            "{case}"
        );
    }
}

const NO_PEER_WARNING: &str = "services.ombi-mcp.peers is empty: only root can connect, and every \
     other user's ombi-mcp exits 77. Set services.ombi-mcp.peers, e.g. [ { group = \"ombi-mcp\"; } ] \
     for the socket's group.";

/// With no peer only root passes the daemon's policy: the module says so, naming the option.
#[test]
fn nixos_module_warns_when_no_peer_is_configured() {
    let Some((nix, lib_dir)) = nix_with_lib() else {
        return;
    };
    let v = eval_module(&nix, &lib_dir, "jwt");
    assert_eq!(v["failedAssertions"], json!([]));
    assert_eq!(v["warnings"], json!([NO_PEER_WARNING]));
    let v = eval_module(&nix, &lib_dir, "jwt_with_api_key_options");
    assert_eq!(v["warnings"][1], NO_PEER_WARNING, "beside other warnings");
    // One peer is enough.
    assert_eq!(
        eval_module(&nix, &lib_dir, "peer_settings")["warnings"],
        json!([])
    );
}

/// What `--check-config` finds on the machine, the module finds where it can: a peer whose
/// bundles all lie outside `bundles` is asserted, a declared user outside the socket's group warned.
#[test]
fn nixos_module_checks_peers_like_check_config() {
    let Some((nix, lib_dir)) = nix_with_lib() else {
        return;
    };
    let v = eval_module(&nix, &lib_dir, "peer_outside_bundles");
    assert_eq!(
        v["failedAssertions"],
        json!([
            "services.ombi-mcp.peers.0 { bundles = [ \"administration\" ]; uid = 1000; }: none of its bundles is in services.ombi-mcp.bundles (core,moderation): every connection it matches would be refused."
        ])
    );
    let v = eval_module(&nix, &lib_dir, "peer_outside_socket_group");
    assert_eq!(v["failedAssertions"], json!([]));
    assert_eq!(
        v["warnings"],
        json!([
            "services.ombi-mcp.peers.0 { user = \"carol\"; }: users.users.carol is not in group ombi-mcp (services.ombi-mcp.socket.group), so the socket's mode 0660 keeps it out (its ombi-mcp exits 77). Add \"ombi-mcp\" to users.users.carol.extraGroups."
        ])
    );
}

/// confirm, confirmTimeout, pollInterval and lockdown, daemon-wide and per peer: typed (a wrong
/// value fails the evaluation, naming the option) and rendered under the daemon's names.
#[test]
fn nixos_module_types_and_renders_confirm_poll_and_lockdown() {
    let Some((nix, lib_dir)) = nix_with_lib() else {
        return;
    };
    for (case, option, type_text) in [
        (
            "bad_confirm",
            "services.ombi-mcp.confirm'",
            "one of \"ask\", \"require\", \"off\"",
        ),
        (
            "bad_confirm_timeout",
            "services.ombi-mcp.confirmTimeout'",
            "integer between 1 and 600",
        ),
        (
            "bad_poll_interval",
            "services.ombi-mcp.pollInterval'",
            "integer between 10 and 86400",
        ),
        ("bad_lockdown", "services.ombi-mcp.lockdown'", "boolean"),
        (
            "bad_peer_confirm",
            ".confirm'",
            "null or one of \"ask\", \"require\", \"off\"",
        ),
        ("bad_peer_lockdown", ".lockdown'", "null or boolean"),
    ] {
        let stderr = eval_module_error(&nix, &lib_dir, case);
        assert!(
            stderr.contains(option) && stderr.contains(&format!("is not of type `{type_text}")),
            "{case}:\n{stderr}"
        );
        if case.starts_with("bad_peer") {
            assert!(
                stderr.contains("services.ombi-mcp.peers."),
                "{case}:\n{stderr}"
            );
        }
    }
    // Per peer: set keys appear in the policy under the daemon's names; unset ones are left
    // out, so the daemon-wide setting applies.
    let v = eval_module(&nix, &lib_dir, "peer_settings");
    let policy: Value = serde_json::from_str(v["policyText"].as_str().unwrap()).unwrap();
    assert_eq!(
        policy,
        json!({"peers": [
            {"user": "alice", "confirm": "require", "lockdown": false, "read_only": false},
            {"group": "ombi-mcp", "confirm": "off", "lockdown": true, "read_only": false},
            {"uid": 1000, "read_only": false},
        ]})
    );
}

/// extraEnvironment cannot override what the module sets or checks (a URL with a password, a
/// secret, a typed setting): one failed assertion per variable, naming it and the option to
/// use, never repeating the value. Other variables pass.
#[test]
fn nixos_module_refuses_its_own_variables_in_extra_environment() {
    let Some((nix, lib_dir)) = nix_with_lib() else {
        return;
    };
    let v = eval_module(&nix, &lib_dir, "extra_environment_owned");
    let failed: Vec<&str> = v["failedAssertions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert_eq!(
        failed,
        [
            "services.ombi-mcp.extraEnvironment.OMBI_API_KEY: the module sets it from \
             services.ombi-mcp.apiKeyFile (a credential, never the world-readable store); set \
             that option instead.",
            "services.ombi-mcp.extraEnvironment.OMBI_CONFIRM: the module sets it from \
             services.ombi-mcp.confirm (typed and checked there); set that option instead.",
            "services.ombi-mcp.extraEnvironment.OMBI_URL: the module sets it from \
             services.ombi-mcp.url (typed and checked there); set that option instead.",
            "services.ombi-mcp.extraEnvironment.RUST_LOG: the module sets it from \
             services.ombi-mcp.logLevel (typed and checked there); set that option instead.",
        ]
    );
    assert!(failed.iter().all(|m| !m.contains("hunter2-env-secret")));
    assert_eq!(v["service"]["environment"]["OMBI_MCP_INIT_TIMEOUT"], "10");
    // Every variable the module renders is one it owns, so none can be overridden unasserted.
    let module = std::fs::read_to_string(root().join("nixos/module.nix")).unwrap();
    let api_key = eval_module(&nix, &lib_dir, "api_key");
    for key in api_key["service"]["environment"]
        .as_object()
        .unwrap()
        .keys()
    {
        if key != "EXTRA_FLAG" {
            assert!(
                module.contains(&format!("    {key} = \"")),
                "{key} is rendered but not in ownedVariables"
            );
        }
    }
}

/// environmentFile (sops/agenix templates) becomes EnvironmentFile=, outside the store only;
/// the plain secret variables are unset whatever their source, in the module and the packaged
/// unit alike.
#[test]
fn nixos_module_environment_file_never_carries_secrets() {
    let Some((nix, lib_dir)) = nix_with_lib() else {
        return;
    };
    let v = eval_module(&nix, &lib_dir, "api_key");
    let sc = &v["service"]["serviceConfig"];
    assert_eq!(sc["EnvironmentFile"], "/run/secrets/rendered/ombi-mcp.env");
    assert_eq!(
        sc["UnsetEnvironment"],
        json!(["OMBI_PASSWORD", "OMBI_API_KEY"])
    );
    let unit = std::fs::read_to_string(root().join("packaging/systemd/ombi-mcp.service")).unwrap();
    assert!(unit.contains("\nUnsetEnvironment=OMBI_PASSWORD OMBI_API_KEY\n"));
    let stderr = eval_module_error(&nix, &lib_dir, "store_environment_file");
    assert!(
        stderr.contains("services.ombi-mcp.environmentFile")
            && stderr.contains("absolute path not in the Nix store"),
        "{stderr}"
    );
}

/// restrictNetwork: off by default; on, IPAddressDeny=any with loopback and the admin's Ombi
/// addresses allowed; addresses only (a host name fails the type); without addresses only a
/// loopback URL passes.
#[test]
fn nixos_module_restricts_the_network_on_request() {
    let Some((nix, lib_dir)) = nix_with_lib() else {
        return;
    };
    let v = eval_module(&nix, &lib_dir, "api_key");
    let sc = &v["service"]["serviceConfig"];
    assert_eq!(sc["IPAddressDeny"], "any");
    assert_eq!(
        sc["IPAddressAllow"],
        json!(["localhost", "192.168.1.20", "fd00::20/128"])
    );
    let v = eval_module(&nix, &lib_dir, "restrict_loopback");
    assert_eq!(v["failedAssertions"], json!([]));
    assert_eq!(
        v["service"]["serviceConfig"]["IPAddressAllow"],
        json!(["localhost"])
    );
    let v = eval_module(&nix, &lib_dir, "restrict_without_addresses");
    assert_eq!(
        v["failedAssertions"],
        json!([
            "services.ombi-mcp.restrictNetwork.ombiAddresses is empty, but url names a host other \
             than loopback: with restrictNetwork.enable the daemon could not reach Ombi. List the \
             Ombi host's IP addresses."
        ])
    );
    let stderr = eval_module_error(&nix, &lib_dir, "restrict_by_host_name");
    assert!(
        stderr.contains("services.ombi-mcp.restrictNetwork.ombiAddresses"),
        "{stderr}"
    );
}

/// A socket.path other than the shim's default reaches the shim: the module puts a wrapper
/// named ombi-mcp ahead of the package's on PATH. Run here with the built shim against absent
/// sockets: it tries the module's path, a caller's OMBI_MCP_SOCKET or --socket still win. At
/// the default path no wrapper is installed.
#[test]
fn nixos_module_socket_path_reaches_the_shim() {
    let Some((nix, lib_dir)) = nix_with_lib() else {
        return;
    };
    let v = eval_module(&nix, &lib_dir, "api_key");
    let packages = v["systemPackages"].as_array().unwrap();
    assert_eq!(packages.len(), 2, "{packages:?}");
    let wrapper = &packages[1];
    assert_eq!(wrapper["name"], "ombi-mcp");
    assert!(
        wrapper["priority"].as_i64().unwrap() < 0,
        "the wrapper wins over the package's bin/ombi-mcp: {wrapper}"
    );
    let package_shim = "/nix/store/00000000000000000000000000000000-ombi-mcp-0.1.0/bin/ombi-mcp";
    let script = wrapper["text"].as_str().unwrap();
    assert!(script.contains(package_shim), "{script}");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ombi-mcp");
    std::fs::write(
        &path,
        script.replace(package_shim, env!("CARGO_BIN_EXE_ombi-mcp")),
    )
    .unwrap();
    let tried = |env: Option<&str>, args: &[&str]| -> String {
        let mut cmd = Command::new("sh");
        cmd.arg(&path)
            .args(args)
            .env_remove("OMBI_MCP_SOCKET")
            .stdin(std::process::Stdio::null());
        if let Some(socket) = env {
            cmd.env("OMBI_MCP_SOCKET", socket);
        }
        let out = run(&mut cmd);
        assert_eq!(out.status.code(), Some(69), "{}", text(&out.stderr));
        text(&out.stderr)
    };
    assert!(
        tried(None, &[]).contains("/run/ombi/mcp.sock"),
        "the wrapper's default is socket.path"
    );
    let own = dir.path().join("own.sock").display().to_string();
    assert!(
        tried(Some(&own), &[]).contains(&own),
        "OMBI_MCP_SOCKET wins"
    );
    let flag = dir.path().join("flag.sock").display().to_string();
    assert!(
        tried(Some(&own), &["--socket", &flag]).contains(&flag),
        "--socket wins"
    );

    let jwt = eval_module(&nix, &lib_dir, "jwt");
    assert_eq!(
        jwt["systemPackages"],
        json!([{"name": "ombi-mcp-0.1.0", "priority": null, "text": null}]),
        "the default path needs no wrapper"
    );
}

#[test]
fn nixos_module_names_a_peer_entry_without_matcher() {
    let Some((nix, lib_dir)) = nix_with_lib() else {
        return;
    };
    let v = eval_module(&nix, &lib_dir, "no_matcher");
    let failed = v["failedAssertions"].as_array().unwrap();
    assert_eq!(
        failed,
        &[json!(
            "services.ombi-mcp.peers.1 { bundles = [ \"core\" ]; ombiUser = \"household\"; }: set exactly one of uid, user, group."
        )]
    );
}

/// The VM test (nixos/tests/vm.nix) evaluates: its nodes pass the module's checks without a
/// warning, render the two set-ups it tests, and its Python parts compile.
#[test]
fn vm_test_evaluates_and_its_python_compiles() {
    let Some((nix, lib_dir)) = nix_with_lib() else {
        return;
    };
    // --readonly-mode: the test's own files get store paths without being copied.
    let out = run(Command::new(&nix)
        .current_dir(root())
        .args([
            "--eval",
            "--strict",
            "--json",
            "--readonly-mode",
            "nixos/tests/eval-vm.nix",
        ])
        .args(["--arg", "lib", &format!("import {lib_dir}")]));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let nodes = v["nodes"].as_object().unwrap();
    assert_eq!(
        nodes.keys().collect::<Vec<_>>(),
        ["apikey", "machine"],
        "the VM test's nodes"
    );
    for (name, node) in nodes {
        assert_eq!(node["failedAssertions"], json!([]), "{name}");
        assert_eq!(node["warnings"], json!([]), "{name}");
    }
    let env = |node: &str, key: &str| nodes[node]["service"]["environment"][key].clone();
    assert_eq!(env("machine", "OMBI_AUTH_MODE"), "jwt");
    assert_eq!(env("apikey", "OMBI_AUTH_MODE"), "api_key");
    assert!(
        env("apikey", "OMBI_URL")
            .as_str()
            .unwrap()
            .starts_with("https://")
    );

    let Some(python) = require_tool("python3", "python3") else {
        return;
    };
    let script = v["testScript"].as_str().unwrap();
    let mut child = Command::new(&python)
        .args([
            "-c",
            "import sys; compile(sys.stdin.read(), 'testScript', 'exec')",
        ])
        .stdin(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "testScript:\n{}", text(&out.stderr));
    for file in ["stub-ombi.py", "mcp-call.py"] {
        let path = root().join("nixos/tests").join(file);
        let out = run(Command::new(&python).args([
            "-c",
            "import sys; compile(open(sys.argv[1]).read(), sys.argv[1], 'exec')",
            path.to_str().unwrap(),
        ]));
        assert!(out.status.success(), "{file}:\n{}", text(&out.stderr));
    }
}

// ---- Packaging for other distributions ----

/// Names loaded by the active `LoadCredential=NAME:PATH` lines of the shipped unit.
fn unit_credentials() -> Vec<String> {
    std::fs::read_to_string(root().join("packaging/systemd/ombi-mcp.service"))
        .unwrap()
        .lines()
        .filter_map(|l| l.trim().strip_prefix("LoadCredential="))
        .map(|v| v.split(':').next().unwrap().to_string())
        .collect()
}

/// As shipped, the unit hands the daemon the credential the example environment's auth mode
/// needs, and the daemon accepts the configuration with exactly that.
#[test]
fn shipped_unit_loads_the_credential_the_example_env_selects() {
    let env = env_file(&root().join("packaging/examples/ombi-mcp.env"));
    let mode = env
        .iter()
        .find(|(k, _)| k == "OMBI_AUTH_MODE")
        .map(|(_, v)| v.as_str())
        .expect("the example sets OMBI_AUTH_MODE");
    let needed = match mode {
        "api_key" => "ombi-api-key",
        "jwt" => "ombi-password",
        other => panic!("unknown OMBI_AUTH_MODE {other}"),
    };
    let loaded = unit_credentials();
    assert_eq!(
        loaded,
        [needed],
        "packaging/systemd/ombi-mcp.service loads {loaded:?}; OMBI_AUTH_MODE={mode} needs {needed}"
    );
    let loaded: Vec<&str> = loaded.iter().map(String::as_str).collect();
    let (out, secret) = check_config_with(&loaded, &[]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(
        out.status.success(),
        "the examples fail as shipped ({:?}):\n{stdout}{stderr}",
        out.status.code()
    );
    assert!(!stdout.contains(&secret) && !stderr.contains(&secret));
}

#[test]
fn ssh_client_configs_run_the_shim_on_the_server() {
    for (file, pointer) in [
        ("ssh/claude_desktop_config.json", "/mcpServers/ombi"),
        ("ssh/.mcp.json", "/mcpServers/ombi"),
        ("ssh/.vscode/mcp.json", "/servers/ombi"),
    ] {
        let server = client_server(file, pointer);
        assert_eq!(server["command"], "ssh", "{file}");
        assert_eq!(
            server["args"],
            json!(["-T", "server", "ombi-mcp"]),
            "{file}"
        );
        if file != "ssh/claude_desktop_config.json" {
            assert_eq!(server["type"], "stdio", "{file}");
        }
    }
    let ssh_config =
        std::fs::read_to_string(root().join("packaging/clients/ssh/ssh_config")).unwrap();
    assert!(ssh_config.contains("Host server") && ssh_config.contains("BatchMode yes"));
    assert!(
        ssh_config.contains("IdentityFile ~/.ssh/ombi-mcp")
            && ssh_config.contains("IdentitiesOnly yes"),
        "the client uses a key of its own, the one authorized for the shim only"
    );
    for doc in ["docs/install-nixos.md", "packaging/clients/README.md"] {
        let text = std::fs::read_to_string(root().join(doc)).unwrap();
        assert!(
            text.contains(r#""args": ["-T", "server", "ombi-mcp"]"#),
            "{doc} documents the SSH bridge"
        );
        // The key is authorized for the shim alone (tests/ssh_bridge.rs uses the shipped line).
        assert!(
            text.contains(r#"restrict,command="ombi-mcp" ssh-ed25519 "#)
                && (text.contains("packaging/clients/ssh/authorized_keys")
                    || text.contains("`authorized_keys`")),
            "{doc} shows the restricted authorized_keys entry"
        );
    }
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
