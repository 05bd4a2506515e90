//! The SSH bridge for MCP clients on another machine (packaging/clients/ssh/): a real `sshd` on
//! loopback, `ssh` run with the shipped client arguments (`-T server ombi-mcp`) and the shipped
//! `ssh_config`, a real rmcp client on its stdio, and a tool call through to the fake Ombi. The
//! daemon's peer policy applies to the SSH login user. Needs root (sshd, a login user) and
//! OpenSSH (Debian packages `openssh-server`, `openssh-client`).

use std::net::TcpListener;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
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
    let tools = on_path("ssh") && on_path("ssh-keygen") && Path::new(SSHD).is_file();
    if !require(is_root(), "root (to run sshd and log in as a second user)")
        || !require(tools, "OpenSSH: ssh, ssh-keygen, /usr/sbin/sshd")
    {
        return;
    }
    ssh_user();
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let client_key = dir.path().join("client");
    keygen(&client_key);
    let sshd = Sshd::start(dir.path(), &client_key.with_extension("pub"));
    let host_key = std::fs::read_to_string(dir.path().join("host.pub")).unwrap();
    let known_hosts = dir.path().join("known_hosts");
    std::fs::write(
        &known_hosts,
        format!("[127.0.0.1]:{} {host_key}", sshd.port),
    )
    .unwrap();

    // The daemon on the "server": api_key mode, and only the SSH user may connect, acting in
    // Ombi as bob.
    let fake = FakeOmbi::start(Options::default()).await;
    let policy = serde_json::json!({"peers": [{"user": SSH_USER, "ombi_user": PLAIN_USER}]});
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

    // The laptop: the shipped ssh_config, with where "server" really is given on the command
    // line (which takes precedence), and the shipped arguments, where the remote `ombi-mcp`
    // becomes the built shim and its socket.
    let mut ssh = tokio::process::Command::new("ssh");
    ssh.arg("-F")
        .arg(Path::new(ROOT).join("packaging/clients/ssh/ssh_config"));
    for option in [
        "HostName=127.0.0.1".to_string(),
        format!("Port={}", sshd.port),
        format!("User={SSH_USER}"),
        format!("IdentityFile={}", client_key.display()),
        format!("UserKnownHostsFile={}", known_hosts.display()),
        "StrictHostKeyChecking=yes".to_string(),
        "LogLevel=ERROR".to_string(),
    ] {
        ssh.arg("-o").arg(option);
    }
    let args = shipped_ssh_args();
    assert_eq!(args, ["-T", "server", "ombi-mcp"]);
    for arg in &args {
        if arg == "ombi-mcp" {
            ssh.arg(SHIM).arg("--socket").arg(&d.socket);
        } else {
            ssh.arg(arg);
        }
    }
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
