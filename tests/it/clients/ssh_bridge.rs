//! The SSH bridge for MCP clients on another machine (packaging/clients/ssh/): a real `sshd` on
//! loopback that knows the client's key only through the shipped `authorized_keys` line
//! (`restrict,command="ombi-mcp"`), `ssh` run with the shipped client arguments
//! (`-T server ombi-mcp`) and the shipped `ssh_config`, a real rmcp client on its stdio, and a
//! tool call through to the fake Ombi. The daemon's peer policy applies to the SSH login user;
//! the key opens no shell and no tunnel. Needs root (sshd, a login user) and OpenSSH (Debian
//! packages `openssh-server`, `openssh-client`).

use std::net::TcpListener;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use serde_json::Value;

use crate::harness::*;
use crate::support::fake_ombi::{API_KEY, FakeOmbi, Options, PLAIN_USER};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const SSHD: &str = "/usr/sbin/sshd";
/// The login user on the "server" (created once, like harness::test_user, but with a shell).
const SSH_USER: &str = "ombi-mcp-ssh";

fn ssh_user() {
    if nix::unistd::User::from_name(SSH_USER).unwrap().is_none() {
        // Another test run may create it concurrently: re-check rather than trust the status.
        let _ = Command::new("useradd")
            .args([
                "--system",
                "--no-create-home",
                "--home-dir",
                "/",
                "--shell",
                "/bin/sh",
                SSH_USER,
            ])
            .status()
            .expect("run useradd");
    }
    assert!(
        nix::unistd::User::from_name(SSH_USER).unwrap().is_some(),
        "user {SSH_USER} exists"
    );
    // "*": no password, but not locked (sshd refuses locked accounts, even for keys).
    let status = Command::new("usermod")
        .args(["-p", "*", SSH_USER])
        .status()
        .unwrap();
    assert!(status.success());
}

fn keygen(path: &Path) {
    let out = Command::new("ssh-keygen")
        .args(["-q", "-t", "ed25519", "-N", "", "-f"])
        .arg(path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "ssh-keygen: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// sshd on 127.0.0.1 with its own host key and one authorized client key; killed on drop.
struct Sshd {
    child: Child,
    port: u16,
    log: PathBuf,
}

impl Sshd {
    fn start(dir: &Path, authorized_key: &Path) -> Sshd {
        keygen(&dir.join("host"));
        // Privilege separation directory; the distribution's service would create it.
        std::fs::create_dir_all("/run/sshd").unwrap();
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let log = dir.join("sshd.log");
        let option = |kv: String| ["-o".to_string(), kv];
        let child = Command::new(SSHD)
            .args(["-D", "-e", "-f", "/dev/null"])
            .args(option(format!("ListenAddress=127.0.0.1:{port}")))
            .args(option(format!("HostKey={}", dir.join("host").display())))
            .args(option(format!(
                "AuthorizedKeysFile={}",
                authorized_key.display()
            )))
            .args(option("PasswordAuthentication=no".into()))
            .args(option("KbdInteractiveAuthentication=no".into()))
            .args(option("UsePAM=no".into()))
            // The key lives in a temporary directory, whose parents sshd would judge otherwise.
            .args(option("StrictModes=no".into()))
            .args(option("PidFile=none".into()))
            .args(option(format!("AllowUsers={SSH_USER}")))
            .stdin(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .expect("run sshd");
        let sshd = Sshd { child, port, log };
        let deadline = Instant::now() + Duration::from_secs(20);
        while !sshd.log().contains("Server listening") {
            assert!(
                Instant::now() < deadline,
                "sshd did not start:\n{}",
                sshd.log()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        sshd
    }

    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

impl Drop for Sshd {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The shipped authorized_keys line for `public_key` (the contents of a `.pub` file), with the
/// forced command's `ombi-mcp` made the built shim and the daemon's socket, as
/// `ombi-mcp` on the server's PATH would be.
fn shipped_authorized_key(public_key: &str, socket: &Path) -> String {
    let shipped =
        std::fs::read_to_string(Path::new(ROOT).join("packaging/clients/ssh/authorized_keys"))
            .unwrap();
    let lines: Vec<&str> = shipped
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .collect();
    assert_eq!(lines.len(), 1, "one key line: {lines:?}");
    let fields: Vec<&str> = lines[0].split_whitespace().collect();
    assert_eq!(fields.len(), 4, "options, type, key, comment: {fields:?}");
    assert_eq!(fields[0], r#"restrict,command="ombi-mcp""#);
    let options = fields[0].replace(
        r#"command="ombi-mcp""#,
        &format!(r#"command="{SHIM} --socket {}""#, socket.display()),
    );
    format!("{options} {}", public_key.trim())
}

/// `ssh` as the laptop runs it: the shipped ssh_config, with where "server" really is given on
/// the command line (which takes precedence).
fn laptop_ssh(dir: &Path, port: u16) -> tokio::process::Command {
    let mut ssh = tokio::process::Command::new("ssh");
    ssh.arg("-F")
        .arg(Path::new(ROOT).join("packaging/clients/ssh/ssh_config"));
    for option in [
        "HostName=127.0.0.1".to_string(),
        format!("Port={port}"),
        format!("User={SSH_USER}"),
        format!("IdentityFile={}", dir.join("client").display()),
        // The shipped StrictHostKeyChecking (accept-new) applies.
        format!("UserKnownHostsFile={}", dir.join("known_hosts").display()),
        "LogLevel=ERROR".to_string(),
    ] {
        ssh.arg("-o").arg(option);
    }
    ssh
}

/// Runs the laptop's ssh with `args` and nothing on its stdin, to its end.
async fn laptop_run(dir: &Path, port: u16, args: &[&str]) -> std::process::Output {
    let mut ssh = laptop_ssh(dir, port);
    ssh.args(args).stdin(Stdio::null());
    ssh.output().await.unwrap()
}

/// A server: sshd with the client's key authorized by the shipped restricted line for the
/// daemon's socket, and the client's known_hosts. Keys in `dir`.
fn server(dir: &Path, socket: &Path) -> Sshd {
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    let client_key = dir.join("client");
    keygen(&client_key);
    let authorized = dir.join("authorized_keys");
    let public_key = std::fs::read_to_string(client_key.with_extension("pub")).unwrap();
    std::fs::write(
        &authorized,
        format!("{}\n", shipped_authorized_key(&public_key, socket)),
    )
    .unwrap();
    let sshd = Sshd::start(dir, &authorized);
    let host_key = std::fs::read_to_string(dir.join("host.pub")).unwrap();
    std::fs::write(
        dir.join("known_hosts"),
        format!("[127.0.0.1]:{} {host_key}", sshd.port),
    )
    .unwrap();
    sshd
}

/// The daemon on the "server", in api_key mode with `policy`; its socket open to all (the
/// policy, not the mode, is under test).
fn server_daemon(fake: &FakeOmbi, policy: Value) -> Daemon {
    let d = Daemon::start(DaemonOpts {
        env: vec![
            ("OMBI_URL".into(), fake.url.clone()),
            ("OMBI_AUTH_MODE".into(), "api_key".into()),
            ("OMBI_API_KEY".into(), API_KEY.into()),
        ],
        policy: Some(policy.to_string()),
        ..DaemonOpts::default()
    });
    d.open_socket_to_all();
    d
}

fn ssh_available() -> bool {
    let tools = on_path("ssh") && on_path("ssh-keygen") && Path::new(SSHD).is_file();
    require(is_root(), "root (to run sshd and log in as a second user)")
        && require(tools, "OpenSSH: ssh, ssh-keygen, /usr/sbin/sshd")
}

/// The "server" (when SSH can run here): the fake Ombi, the daemon with
/// `policy` (see `server_daemon`) and sshd, its files in the returned directory.
async fn ssh_server(policy: Value) -> Option<(tempfile::TempDir, FakeOmbi, Daemon, Sshd)> {
    if !ssh_available() {
        return None;
    }
    ssh_user();
    let dir = tempfile::tempdir().unwrap();
    let fake = FakeOmbi::start(Options::default()).await;
    let d = server_daemon(&fake, policy);
    let sshd = server(dir.path(), &d.socket);
    Some((dir, fake, d, sshd))
}

/// `args` of packaging/clients/ssh/claude_desktop_config.json.
fn shipped_ssh_args() -> Vec<String> {
    let path = Path::new(ROOT).join("packaging/clients/ssh/claude_desktop_config.json");
    let json: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let server = &json["mcpServers"]["ombi"];
    assert_eq!(server["command"], "ssh");
    server["args"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap().to_string())
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_remote_client_calls_a_tool_over_ssh_as_the_ssh_user() {
    // The daemon on the "server": api_key mode, and only the SSH user may connect, acting in
    // Ombi as bob.
    let policy = serde_json::json!({"peers": [{"user": SSH_USER, "ombi_user": PLAIN_USER}]});
    let Some((dir, fake, d, sshd)) = ssh_server(policy).await else {
        return;
    };

    // The laptop runs the shipped arguments as they are: the key's forced command starts the
    // shim on the server, whatever the client names.
    let mut ssh = laptop_ssh(dir.path(), sshd.port);
    let args = shipped_ssh_args();
    assert_eq!(args, ["-T", "server", "ombi-mcp"]);
    ssh.args(&args);
    let transport = rmcp::transport::TokioChildProcess::new(ssh).expect("spawn ssh");
    let client = match ().serve(transport).await {
        Ok(c) => c,
        Err(e) => panic!(
            "MCP initialize over ssh: {e}\nsshd log:\n{}\ndaemon log:\n{}",
            sshd.log(),
            d.logs()
        ),
    };
    let mut call = CallToolRequestParams::new("read_server".to_string());
    call.arguments = serde_json::json!({"action": "status"}).as_object().cloned();
    let result = client.call_tool(call).await.expect("a tool result");
    let sc = result.structured_content.expect("structuredContent");
    assert_eq!(sc["ok"], true, "{sc}");
    client.cancel().await.unwrap();

    // The policy entry for the SSH user decided the session: Ombi saw its ombi_user.
    let status: Vec<_> = fake
        .requests()
        .into_iter()
        .filter(|r| r.path.starts_with("/api/v1/Status"))
        .collect();
    assert!(!status.is_empty());
    for r in &status {
        let user_name = r
            .headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case("username"))
            .map(|(_, v)| v.as_str());
        assert_eq!(user_name, Some(PLAIN_USER), "{:?}", r.headers);
    }
    let uid = nix::unistd::User::from_name(SSH_USER).unwrap().unwrap().uid;
    let logs = d.wait_log("accepted peer");
    assert!(
        logs.lines()
            .any(|l| l.contains("accepted peer") && l.contains(&format!("uid={uid}"))),
        "the daemon accepted the SSH user's uid {uid}:\n{logs}"
    );
}

/// What a stolen copy of the client's key gets: the forced command runs the shim, never the
/// shell command asked for; no terminal; no tunnel to another port (here the fake Ombi's).
/// The docs' first step works as written: with the shipped ssh_config (BatchMode, so no prompt),
/// the first connection to a server not yet in known_hosts records its key (accept-new) and goes
/// through; a server whose key then changes is refused.
#[tokio::test(flavor = "multi_thread")]
async fn the_first_connection_records_the_host_key_and_a_changed_one_is_refused() {
    let policy = serde_json::json!({"peers": [{"user": SSH_USER}]});
    let Some((dir, _fake, _d, sshd)) = ssh_server(policy).await else {
        return;
    };
    let known_hosts = dir.path().join("known_hosts");
    std::fs::remove_file(&known_hosts).unwrap();
    let first = laptop_run(dir.path(), sshd.port, &["-T", "server"]).await;
    assert!(
        first.status.success(),
        "first connection: {:?} {}\nsshd: {}",
        first.status,
        String::from_utf8_lossy(&first.stderr),
        sshd.log()
    );
    let host_key = std::fs::read_to_string(dir.path().join("host.pub")).unwrap();
    let key = host_key.split_whitespace().nth(1).unwrap();
    let recorded = std::fs::read_to_string(&known_hosts).unwrap();
    assert!(recorded.contains(key), "known_hosts: {recorded}");

    // Another key for the same name and port: refused, not accepted again.
    keygen(&dir.path().join("other_host"));
    let other = std::fs::read_to_string(dir.path().join("other_host.pub")).unwrap();
    std::fs::write(&known_hosts, format!("[127.0.0.1]:{} {other}", sshd.port)).unwrap();
    let changed = laptop_run(dir.path(), sshd.port, &["-T", "server"]).await;
    assert_eq!(changed.status.code(), Some(255));
    assert!(
        String::from_utf8_lossy(&changed.stderr).contains("Host key verification failed"),
        "{}",
        String::from_utf8_lossy(&changed.stderr)
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn the_restricted_key_runs_only_the_shim() {
    let policy = serde_json::json!({"peers": [{"user": SSH_USER}]});
    let Some((dir, fake, d, sshd)) = ssh_server(policy).await else {
        return;
    };

    // A shell command: it never runs; the shim runs instead and, with no client on its stdin,
    // ends the session after MCP's worth of nothing.
    let proof = dir.path().join("shell-ran");
    let marker = "shell-command-output-7f3e";
    let command = format!("echo {marker}; touch {}", proof.display());
    let out = laptop_run(dir.path(), sshd.port, &["-T", "server", &command]).await;
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(
        !stdout.contains(marker) && !stderr.contains(marker) && !proof.exists(),
        "a shell command ran through the restricted key:\n{stdout}{stderr}"
    );
    let logs = d.wait_log("accepted peer");
    assert!(
        logs.contains("accepted peer"),
        "the forced command (the shim) reached the daemon instead:\n{logs}\nsshd:\n{}",
        sshd.log()
    );

    // A terminal and a tunnel are refused by `restrict`.
    let out = laptop_run(dir.path(), sshd.port, &["-tt", "server", "ombi-mcp"]).await;
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("PTY allocation request failed"),
        "a terminal was granted:\n{stderr}"
    );
    let connections = || fake.shared.connections.load(Ordering::Relaxed);
    let before = connections();
    let ombi_port = format!("127.0.0.1:{}", fake.addr.port());
    let out = laptop_run(dir.path(), sshd.port, &["-W", &ombi_port, "server"]).await;
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && stderr.contains("stdio forwarding failed"),
        "a tunnel to Ombi's port was opened ({:?}):\n{stderr}",
        out.status
    );
    assert!(
        sshd.log().contains("refused local port forward"),
        "sshd refused it for the key's restrictions:\n{}",
        sshd.log()
    );
    assert_eq!(connections(), before, "no connection reached Ombi's port");
}
