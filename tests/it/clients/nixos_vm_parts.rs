//! The NixOS VM test's parts, run here without a VM: nixos/tests/stub-ombi.py (the stub Ombi)
//! and nixos/tests/mcp-call.py (the MCP client) against the real daemon and shim, in the VM's two
//! set-ups: jwt over HTTP, and api_key over HTTPS with a test CA (nixos/tests/make-test-ca.sh)
//! and a group peer with `ombi_user`. The VM itself needs full Nix and KVM (docs/install-nixos.md);
//! this keeps its scripts honest on every CI pass. Needs python3 and openssl.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::harness::*;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn vm_file(name: &str) -> PathBuf {
    Path::new(ROOT).join("nixos/tests").join(name)
}

/// stub-ombi.py on a free port; killed on drop.
struct Stub {
    child: Child,
    port: u16,
    log: PathBuf,
}

impl Stub {
    fn start(dir: &Path, args: &[&str]) -> Stub {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let log = dir.join("requests.jsonl");
        let child = Command::new("python3")
            .arg(vm_file("stub-ombi.py"))
            .args(["--port", &port.to_string(), "--log"])
            .arg(&log)
            .args(args)
            .stdout(Stdio::null())
            .spawn()
            .expect("run python3");
        let deadline = Instant::now() + Duration::from_secs(20);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "stub-ombi.py never listened");
            std::thread::sleep(Duration::from_millis(50));
        }
        Stub { child, port, log }
    }

    fn requests(&self) -> Vec<Value> {
        std::fs::read_to_string(&self.log)
            .unwrap_or_default()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }
}

impl Drop for Stub {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// mcp-call.py: initialize, initialized, `read_server {"action":"status"}` through the shim.
fn call_status(socket: &Path) -> Value {
    let out = Command::new("python3")
        .arg(vm_file("mcp-call.py"))
        .args(["read_server", r#"{"action":"status"}"#, SHIM, "--socket"])
        .arg(socket)
        .output()
        .expect("run python3");
    assert!(
        out.status.success(),
        "mcp-call.py: {:?}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("mcp-call.py prints the reply")
}

fn expect_ok(reply: &Value, d: &Daemon) {
    assert_eq!(
        reply["result"]["structuredContent"]["ok"],
        true,
        "{reply}\n{}",
        d.logs()
    );
}

fn status_requests(requests: &[Value]) -> Vec<&Value> {
    requests
        .iter()
        .filter(|r| r["path"].as_str().unwrap().starts_with("/api/v1/Status"))
        .collect()
}

fn ready() -> bool {
    require(
        on_path("python3") && on_path("openssl"),
        "python3 and openssl (the NixOS VM test's stub Ombi and client)",
    )
}

#[test]
fn jwt_over_http_logs_in_once_with_the_configured_password() {
    if !ready() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let password = "vm-parts-password-93b1";
    std::fs::write(dir.path().join("password"), password).unwrap();
    let stub = Stub::start(
        dir.path(),
        &[
            "--username",
            "mcp",
            "--password-file",
            dir.path().join("password").to_str().unwrap(),
        ],
    );
    let creds = dir.path().join("creds");
    std::fs::create_dir(&creds).unwrap();
    std::fs::write(creds.join("ombi-password"), password).unwrap();
    let d = Daemon::start(DaemonOpts {
        env: vec![
            ("OMBI_URL".into(), format!("http://127.0.0.1:{}", stub.port)),
            ("OMBI_AUTH_MODE".into(), "jwt".into()),
            ("OMBI_USERNAME".into(), "mcp".into()),
            ("CREDENTIALS_DIRECTORY".into(), creds.display().to_string()),
        ],
        ..DaemonOpts::default()
    });
    expect_ok(&call_status(&d.socket), &d);
    let requests = stub.requests();
    let logins: Vec<_> = requests
        .iter()
        .filter(|r| r["path"] == "/api/v1/Token")
        .collect();
    assert_eq!(logins.len(), 1, "{requests:?}");
    assert_eq!(logins[0]["login_ok"], true, "{requests:?}");
    let status = status_requests(&requests);
    assert_eq!(status.len(), 3, "{requests:?}");
    assert!(status.iter().all(|r| r["bearer"] == true), "{requests:?}");
    assert!(!d.logs().contains(password), "password in the daemon's log");
}

/// The api_key node: HTTPS with a certificate from the test CA, a group peer with `ombi_user`.
/// Trusting the CA (here `SSL_CERT_FILE`; in the VM `security.pki.certificateFiles`) makes the
/// call work, and without it the certificate is refused: verification is on.
#[test]
fn api_key_over_https_with_the_test_ca_sends_the_key_and_the_peers_user_name() {
    if !ready() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let tls = dir.path().join("tls");
    let made = Command::new("sh")
        .arg(vm_file("make-test-ca.sh"))
        .arg(&tls)
        .arg("localhost")
        .output()
        .unwrap();
    assert!(
        made.status.success(),
        "make-test-ca.sh: {}",
        String::from_utf8_lossy(&made.stderr)
    );
    let api_key = "0123456789abcdef0123456789abcdef";
    std::fs::write(dir.path().join("api-key"), api_key).unwrap();
    let stub = Stub::start(
        dir.path(),
        &[
            "--api-key-file",
            dir.path().join("api-key").to_str().unwrap(),
            "--cert",
            tls.join("server.crt").to_str().unwrap(),
            "--key",
            tls.join("server.key").to_str().unwrap(),
        ],
    );
    let creds = dir.path().join("creds");
    std::fs::create_dir(&creds).unwrap();
    std::fs::write(creds.join("ombi-api-key"), api_key).unwrap();
    // The VM's peer is the group ombi-mcp; here the test's own primary group.
    let group = nix::unistd::Group::from_gid(nix::unistd::getgid())
        .unwrap()
        .expect("the test's primary group has a name")
        .name;
    let policy = serde_json::json!({"peers": [{"group": group, "ombi_user": "alice-in-ombi"}]});
    let env = |trust_ca: bool| {
        let mut env = vec![
            (
                "OMBI_URL".to_string(),
                format!("https://localhost:{}", stub.port),
            ),
            ("OMBI_AUTH_MODE".into(), "api_key".into()),
            ("CREDENTIALS_DIRECTORY".into(), creds.display().to_string()),
        ];
        if trust_ca {
            env.push((
                "SSL_CERT_FILE".into(),
                tls.join("ca.crt").display().to_string(),
            ));
        }
        env
    };

    let d = Daemon::start(DaemonOpts {
        env: env(true),
        policy: Some(policy.to_string()),
        ..DaemonOpts::default()
    });
    expect_ok(&call_status(&d.socket), &d);
    let requests = stub.requests();
    let status = status_requests(&requests);
    assert_eq!(status.len(), 3, "{requests:?}");
    for r in &status {
        assert_eq!(r["api_key_ok"], true, "{requests:?}");
        assert_eq!(r["user_name"], "alice-in-ombi", "{requests:?}");
    }
    assert!(
        !requests.iter().any(|r| r["path"] == "/api/v1/Token"),
        "no login in api_key mode: {requests:?}"
    );
    assert!(!d.logs().contains(api_key), "API key in the daemon's log");
    drop(d);

    let untrusting = Daemon::start(DaemonOpts {
        env: env(false),
        policy: Some(policy.to_string()),
        ..DaemonOpts::default()
    });
    let before = stub.requests().len();
    let reply = call_status(&untrusting.socket);
    let sc = &reply["result"]["structuredContent"];
    assert_eq!(
        sc["ok"], false,
        "an untrusted certificate must fail: {reply}"
    );
    assert_eq!(sc["error"]["code"], "UPSTREAM_REJECTED", "{reply}");
    let message = sc["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("certificate"),
        "names the cause: {message}"
    );
    assert_eq!(stub.requests().len(), before, "no request got through TLS");
}
