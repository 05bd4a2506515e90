//! The install path for other distributions (docs/install-other.md), done as an admin would and
//! run as systemd would run it: the doc's own `sudo install …`, `systemd-sysusers` and
//! `systemd-tmpfiles` commands replayed into a scratch root (which stands for `/`, mode 0755
//! like `/`), then the installed daemon started by socket activation as an unprivileged uid
//! without supplementary groups (what `DynamicUser=yes` gives it), with the installed
//! environment file, the policy path it names and the credential the shipped unit loads. A call
//! through the shim must reach the fake Ombi. Needs root, `setpriv`, `systemd-tmpfiles`,
//! `systemd-sysusers` and `systemd-socket-activate`.
//!
//! Reads docs/ and packaging/, which the Nix package's source leaves out: part of `packaging`,
//! which the package's build skips (nixos/package.nix).

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;

use crate::harness::*;
use crate::support::fake_ombi::{API_KEY, FakeOmbi, Options};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
/// The uid and gid the test runs the daemon as: one from systemd's DynamicUser range
/// (61184–65519), so it owns nothing on the system and is in no group.
const DYNAMIC_UID: u32 = 61_873;

fn repo(path: &str) -> PathBuf {
    Path::new(ROOT).join(path)
}

/// The `sudo …` lines of the doc's ```sh blocks, as argument lists (trailing comments
/// dropped).
fn documented_sudo_commands(doc: &str) -> Vec<Vec<String>> {
    let mut in_sh = false;
    let mut commands = Vec::new();
    for line in doc.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with("```") {
            in_sh = !in_sh && trimmed == "```sh";
            continue;
        }
        if !in_sh {
            continue;
        }
        let Some(command) = trimmed.strip_prefix("sudo ") else {
            continue;
        };
        let command = command.split(" #").next().unwrap_or_default();
        commands.push(command.split_whitespace().map(str::to_string).collect());
    }
    commands
}

/// Replays the doc's install steps into `sysroot`: `install` with every absolute path moved
/// under it (sources from the repository; `target/release/X` is the binary this test run
/// built; `/dev/stdin` gets `secret`), `systemd-sysusers` and `systemd-tmpfiles` with `--root`.
/// Other commands (editors, systemctl, usermod, the encrypted-credential variant) change
/// nothing the start depends on. Returns the commands replayed.
fn replay_install_doc(sysroot: &Path, secret: &str) -> Vec<String> {
    let doc = std::fs::read_to_string(repo("docs/install-other.md")).unwrap();
    let under_root = |arg: &str| -> String {
        if arg == "/dev/stdin" {
            arg.to_string()
        } else if let Some(abs) = arg.strip_prefix('/') {
            sysroot.join(abs).display().to_string()
        } else if let Some(bin) = arg.strip_prefix("target/release/") {
            Path::new(DAEMON).with_file_name(bin).display().to_string()
        } else if arg.starts_with("packaging/") {
            repo(arg).display().to_string()
        } else {
            arg.to_string()
        }
    };
    // The directories every systemd distribution already has; everything else the doc creates
    // (Debian 12 has no /etc/sysusers.d: `install -D`).
    for dir in ["etc/systemd/system", "usr/local/bin"] {
        std::fs::create_dir_all(sysroot.join(dir)).unwrap();
    }
    let mut replayed = Vec::new();
    for argv in documented_sudo_commands(&doc) {
        let (program, args) = argv.split_first().unwrap();
        let mut cmd = Command::new(program);
        match program.as_str() {
            "install" => {}
            "systemd-sysusers" | "systemd-tmpfiles" => {
                cmd.arg(format!("--root={}", sysroot.display()));
            }
            _ => continue,
        }
        cmd.args(args.iter().map(|a| under_root(a)));
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("{argv:?}: {e}"));
        let mut stdin = child.stdin.take().unwrap();
        // Only `install … /dev/stdin …` reads it; the others may exit before it is written.
        let _ = stdin.write_all(secret.as_bytes());
        drop(stdin);
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "the doc's `sudo {}` failed:\n{}",
            argv.join(" "),
            String::from_utf8_lossy(&out.stderr)
        );
        replayed.push(argv.join(" "));
    }
    replayed
}

/// `KEY=VALUE` lines of an EnvironmentFile, comments and blanks skipped.
fn env_file(path: &Path) -> Vec<(String, String)> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (k, v) = l.split_once('=').unwrap();
            (k.to_string(), v.to_string())
        })
        .collect()
}

/// Values of the active `KEY=` lines of a shipped unit file.
fn unit_values(unit: &str, key: &str) -> Vec<String> {
    std::fs::read_to_string(repo("packaging/systemd").join(unit))
        .unwrap()
        .lines()
        .filter_map(|l| l.trim().strip_prefix(key)?.strip_prefix('='))
        .map(str::to_string)
        .collect()
}

/// systemd-socket-activate (as root, like PID 1) exec'ing the daemon through setpriv as the
/// dynamic uid on the first connection; killed on drop.
struct Activated {
    child: Child,
    log: PathBuf,
}

impl Activated {
    fn logs(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

impl Drop for Activated {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn daemon_installed_as_documented_serves_a_call_as_a_dynamic_user() {
    let tools = ["setpriv", "systemd-tmpfiles", "systemd-sysusers"]
        .iter()
        .all(|t| on_path(t))
        && Path::new(SOCKET_ACTIVATE).is_file();
    if !require(
        is_root(),
        "root (to install files root-owned and drop to a uid)",
    ) || !require(
        tools,
        "setpriv, systemd-tmpfiles, systemd-sysusers, systemd-socket-activate",
    ) {
        return;
    }
    let scratch = tempfile::tempdir().unwrap();
    let sysroot = scratch.path();
    std::fs::set_permissions(sysroot, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();

    // 1–3 of the doc: binaries, group, directories, units, configuration and secret.
    let replayed = replay_install_doc(sysroot, API_KEY);
    for expected in ["/etc/ombi-mcp/env", "/etc/ombi-mcp/policy.json"] {
        assert!(
            replayed.iter().any(|c| c.ends_with(expected)),
            "docs/install-other.md no longer installs {expected}: {replayed:#?}"
        );
    }
    let daemon = sysroot.join("usr/local/bin/ombi-mcpd");
    assert!(
        daemon.is_file(),
        "the doc installs /usr/local/bin/ombi-mcpd"
    );

    // What PID 1 does at start: read EnvironmentFile= as root, copy LoadCredential= sources
    // into a directory only the service's user can read, then exec as that user.
    let environment_file = unit_values("ombi-mcp.service", "EnvironmentFile");
    assert_eq!(environment_file, ["/etc/ombi-mcp/env"]);
    let mut env = env_file(&sysroot.join("etc/ombi-mcp/env"));
    // A fresh Ombi: the example environment names no acting user it lacks.
    let fake = FakeOmbi::start(Options::default()).await;
    for (key, value) in &mut env {
        match key.as_str() {
            "OMBI_URL" => *value = fake.url.clone(),
            "OMBI_MCP_POLICY" => {
                let path = value.strip_prefix('/').expect("an absolute policy path");
                *value = sysroot.join(path).display().to_string();
            }
            _ => {}
        }
    }
    let credentials = sysroot.join("run/credentials/ombi-mcp.service");
    std::fs::create_dir_all(&credentials).unwrap();
    let loaded = unit_values("ombi-mcp.service", "LoadCredential");
    assert!(!loaded.is_empty(), "the shipped unit loads a credential");
    for spec in &loaded {
        let (name, source) = spec.split_once(':').unwrap();
        let copy = credentials.join(name);
        std::fs::copy(sysroot.join(source.trim_start_matches('/')), &copy).unwrap();
        std::os::unix::fs::chown(&copy, Some(DYNAMIC_UID), Some(DYNAMIC_UID)).unwrap();
        std::fs::set_permissions(&copy, std::os::unix::fs::PermissionsExt::from_mode(0o400))
            .unwrap();
    }
    std::os::unix::fs::chown(&credentials, Some(DYNAMIC_UID), Some(DYNAMIC_UID)).unwrap();
    std::fs::set_permissions(
        &credentials,
        std::os::unix::fs::PermissionsExt::from_mode(0o500),
    )
    .unwrap();
    env.push((
        "CREDENTIALS_DIRECTORY".into(),
        credentials.display().to_string(),
    ));

    // ombi-mcp.socket: its ListenStream= under the scratch root, in a root-owned 0755
    // directory (DirectoryMode=0755).
    let listen = unit_values("ombi-mcp.socket", "ListenStream");
    assert_eq!(listen.len(), 1, "{listen:?}");
    let socket = sysroot.join(listen[0].trim_start_matches('/'));
    std::fs::create_dir_all(socket.parent().unwrap()).unwrap();
    let log = sysroot.join("daemon.log");
    let mut cmd = Command::new(SOCKET_ACTIVATE);
    cmd.arg("-l").arg(&socket).arg("--fdname=mcp");
    for (k, v) in &env {
        cmd.arg("-E").arg(format!("{k}={v}"));
    }
    cmd.arg("setpriv")
        .arg(format!("--reuid={DYNAMIC_UID}"))
        .arg(format!("--regid={DYNAMIC_UID}"))
        .arg("--clear-groups")
        .arg(&daemon)
        .stdin(Stdio::null())
        .stdout(File::create(&log).unwrap())
        .stderr(File::create(&log).unwrap());
    let activated = Activated {
        child: cmd.spawn().expect("spawn systemd-socket-activate"),
        log,
    };
    let deadline = Instant::now() + Duration::from_secs(20);
    while !socket.exists() {
        assert!(Instant::now() < deadline, "the socket never appeared");
        std::thread::sleep(Duration::from_millis(20));
    }

    // The first connection starts the daemon; a configuration error (exit 78) ends the
    // session before `initialize` completes.
    let transport =
        rmcp::transport::TokioChildProcess::new(shim_command(&socket)).expect("spawn shim");
    let client = match tokio::time::timeout(Duration::from_secs(30), ().serve(transport)).await {
        Ok(Ok(client)) => client,
        other => panic!(
            "the daemon installed as docs/install-other.md says did not serve as uid \
             {DYNAMIC_UID} ({}); its log:\n{}",
            match other {
                Ok(Err(e)) => e.to_string(),
                _ => "timeout".to_string(),
            },
            activated.logs()
        ),
    };
    let mut call = CallToolRequestParams::new("read_server".to_string());
    call.arguments = serde_json::json!({"action": "status"}).as_object().cloned();
    let result = client.call_tool(call).await.expect("a tool result");
    let sc = result.structured_content.expect("structuredContent");
    assert_eq!(sc["ok"], true, "{sc}\n{}", activated.logs());
    client.cancel().await.unwrap();
    assert!(
        fake.requests()
            .iter()
            .any(|r| r.path.starts_with("/api/v1/Status")),
        "the call reached Ombi"
    );
    // It was the daemon itself (socket activation exec'd it in place), running as the dynamic
    // uid, not as root.
    let status = std::fs::read_to_string(format!("/proc/{}/status", activated.child.id())).unwrap();
    let uid_line = status.lines().find(|l| l.starts_with("Uid:")).unwrap();
    assert_eq!(
        uid_line.split_whitespace().skip(1).collect::<Vec<_>>(),
        vec![DYNAMIC_UID.to_string().as_str(); 4],
        "{uid_line}"
    );
    assert!(status.starts_with("Name:\tombi-mcpd"), "{status}");
}
