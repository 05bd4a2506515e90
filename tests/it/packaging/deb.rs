//! The Debian package (`cargo deb`, `[package.metadata.deb]` in Cargo.toml) installed on this
//! machine with `dpkg -i`: every file where it belongs, the conffiles, the socket's group, the
//! socket enabled; then the daemon started as the installed units say (ExecStart with the
//! package's drop-in, EnvironmentFile=, LoadCredential=, as a dynamic uid) under
//! `systemd-socket-activate`, since systemd is not PID 1 here, with the socket's mode and group
//! as ombi-mcp.socket sets them; a member of the socket's group is served through the installed
//! shim, a user outside it is refused; `dpkg --purge` then leaves nothing behind.
//!
//! The .deb is the one .ci/run builds from the test build's binaries
//! (`target/debian/ombi-mcp.deb`); without it the test builds it with `cargo deb --no-build`.
//! Needs root, dpkg, cargo-deb, setpriv, useradd and systemd-socket-activate.

use std::fs::File;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::harness::*;
use crate::support::fake_ombi::{API_KEY, FakeOmbi, Options};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const DEB: &str = "target/debian/ombi-mcp.deb";
/// The uid the daemon runs as: one from systemd's DynamicUser range, owning nothing.
const DYNAMIC_UID: u32 = 61_874;

/// What the package installs, with its mode.
const FILES: &[(&str, u32)] = &[
    ("/usr/bin/ombi-mcpd", 0o755),
    ("/usr/bin/ombi-mcp", 0o755),
    ("/usr/lib/systemd/system/ombi-mcp.service", 0o644),
    ("/usr/lib/systemd/system/ombi-mcp.socket", 0o644),
    (
        "/usr/lib/systemd/system/ombi-mcp.service.d/package.conf",
        0o644,
    ),
    ("/usr/lib/sysusers.d/ombi-mcp.conf", 0o644),
    ("/usr/lib/tmpfiles.d/ombi-mcp.conf", 0o644),
    ("/etc/ombi-mcp/env", 0o640),
    ("/etc/ombi-mcp/policy.json", 0o644),
    ("/usr/share/doc/ombi-mcp/README.md", 0o644),
    ("/usr/share/doc/ombi-mcp/copyright", 0o644),
];
const ENABLED: &str = "/etc/systemd/system/sockets.target.wants/ombi-mcp.socket";
const CREDENTIAL: &str = "/etc/credstore/ombi-api-key";

fn run(cmd: &mut Command) -> (bool, String) {
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

fn the_deb() -> PathBuf {
    let deb = Path::new(ROOT).join(DEB);
    let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    // Missing, or older than the binaries it packages (a developer's earlier build).
    if modified(&deb) < modified(Path::new(DAEMON)) {
        let (ok, out) = run(Command::new("cargo").current_dir(ROOT).args([
            "deb",
            "--no-build",
            "--profile",
            "dev",
            "--no-strip",
            "--fast",
            "-o",
            DEB,
        ]));
        assert!(ok, "cargo deb:\n{out}");
    }
    deb
}

/// `KEY=` values of the installed unit and its drop-ins, in systemd's order (an empty value
/// resets the list).
fn unit_values(unit: &str, key: &str) -> Vec<String> {
    let base = Path::new("/usr/lib/systemd/system").join(unit);
    let mut files = vec![base.clone()];
    let dropins = base.with_file_name(format!("{unit}.d"));
    if let Ok(dir) = std::fs::read_dir(&dropins) {
        let mut more: Vec<PathBuf> = dir.map(|e| e.unwrap().path()).collect();
        more.sort();
        files.extend(more);
    }
    let mut values = Vec::new();
    for file in files {
        for line in std::fs::read_to_string(&file).unwrap().lines() {
            if let Some(v) = line
                .trim()
                .strip_prefix(key)
                .and_then(|r| r.strip_prefix('='))
            {
                if v.is_empty() {
                    values.clear();
                } else {
                    values.push(v.to_string());
                }
            }
        }
    }
    values
}

fn user(name: &str, groups: &[&str]) -> (u32, u32) {
    if nix::unistd::User::from_name(name).unwrap().is_none() {
        let mut cmd = Command::new("useradd");
        cmd.args([
            "--system",
            "--no-create-home",
            "--shell",
            "/usr/sbin/nologin",
        ]);
        if !groups.is_empty() {
            cmd.arg("--groups").arg(groups.join(","));
        }
        let _ = cmd.arg(name).status();
    }
    let u = nix::unistd::User::from_name(name).unwrap().expect("user");
    (u.uid.as_raw(), u.gid.as_raw())
}

/// The installed shim as `name`, with that user's groups, sending `initialize`.
fn shim_as(name: &str, socket: &Path) -> ShimRun {
    use std::io::Write;
    let (uid, gid) = user(name, &[]);
    let mut child = Command::new("setpriv")
        .arg(format!("--reuid={uid}"))
        .arg(format!("--regid={gid}"))
        .arg("--init-groups")
        .args(["/usr/bin/ombi-mcp", "--socket"])
        .arg(socket)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let _ = stdin.write_all(format!("{INITIALIZE}\n").as_bytes());
    std::thread::sleep(Duration::from_millis(1500));
    drop(stdin);
    wait_output(child, Duration::from_secs(20))
}

/// Purges the package and what the test added, whatever happened.
struct Installed;

impl Drop for Installed {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(CREDENTIAL);
        let _ = Command::new("dpkg").args(["--purge", "ombi-mcp"]).output();
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_deb_installs_serves_a_group_member_refuses_others_and_purges_clean() {
    let needs = is_root()
        && on_path("dpkg")
        && on_path("cargo-deb")
        && on_path("setpriv")
        && on_path("useradd")
        && Path::new(SOCKET_ACTIVATE).exists();
    if !require(
        needs,
        "root, dpkg, cargo-deb, setpriv, useradd, systemd-socket-activate",
    ) {
        return;
    }
    let deb = tokio::task::spawn_blocking(the_deb).await.unwrap();
    let _ = Command::new("dpkg").args(["--purge", "ombi-mcp"]).output();
    let had_credstore = Path::new("/etc/credstore").exists();
    let (ok, out) = run(Command::new("dpkg").arg("-i").arg(&deb));
    let installed = Installed;
    assert!(ok, "dpkg -i:\n{out}");

    // Every file, with its mode; the conffiles; the group; the socket enabled.
    for (path, mode) in FILES {
        let meta = std::fs::metadata(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(meta.permissions().mode() & 0o7777, *mode, "{path}");
        assert_eq!(meta.uid(), 0, "{path}");
    }
    let conffiles = std::fs::read_to_string("/var/lib/dpkg/info/ombi-mcp.conffiles").unwrap();
    let mut conffiles: Vec<&str> = conffiles.lines().collect();
    conffiles.sort();
    assert_eq!(
        conffiles,
        ["/etc/ombi-mcp/env", "/etc/ombi-mcp/policy.json"]
    );
    let group = nix::unistd::Group::from_name("ombi-mcp")
        .unwrap()
        .expect("the postinst created the group ombi-mcp");
    assert_eq!(
        std::fs::metadata("/etc/ombi-mcp")
            .unwrap()
            .permissions()
            .mode()
            & 0o7777,
        0o755
    );
    assert!(Path::new("/etc/credstore").is_dir());
    // deb-systemd-helper links through /lib (the same directory under Debian's merged /usr).
    assert_eq!(
        std::fs::canonicalize(ENABLED).unwrap(),
        std::fs::canonicalize("/usr/lib/systemd/system/ombi-mcp.socket").unwrap()
    );
    let (ok, out) = run(Command::new("/usr/bin/ombi-mcpd").arg("--version"));
    assert!(ok && out.starts_with("ombi-mcpd "), "{out}");

    // The admin's one step: the API key (a fresh Ombi: nothing else in the env to change but
    // its URL).
    std::fs::write(CREDENTIAL, API_KEY).unwrap();
    std::fs::set_permissions(CREDENTIAL, std::fs::Permissions::from_mode(0o600)).unwrap();
    let fake = FakeOmbi::start(Options::default()).await;

    // PID 1's part: EnvironmentFile= read as root, LoadCredential= copied into a directory
    // only the dynamic uid reads, ExecStart= exec'd as that uid on the first connection.
    assert_eq!(
        unit_values("ombi-mcp.service", "EnvironmentFile"),
        ["/etc/ombi-mcp/env"]
    );
    let exec = unit_values("ombi-mcp.service", "ExecStart");
    assert_eq!(exec, ["/usr/bin/ombi-mcpd"], "the package's drop-in");
    let mut env = super::env_file(Path::new("/etc/ombi-mcp/env"));
    for (k, v) in &mut env {
        if k == "OMBI_URL" {
            *v = fake.url.clone();
        }
    }
    let scratch = tempfile::tempdir().unwrap();
    std::fs::set_permissions(scratch.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let credentials = scratch.path().join("credentials");
    std::fs::create_dir(&credentials).unwrap();
    for spec in unit_values("ombi-mcp.service", "LoadCredential") {
        let (name, source) = spec.split_once(':').unwrap();
        let copy = credentials.join(name);
        std::fs::copy(source, &copy).unwrap();
        std::os::unix::fs::chown(&copy, Some(DYNAMIC_UID), Some(DYNAMIC_UID)).unwrap();
    }
    std::os::unix::fs::chown(&credentials, Some(DYNAMIC_UID), Some(DYNAMIC_UID)).unwrap();
    std::fs::set_permissions(&credentials, std::fs::Permissions::from_mode(0o500)).unwrap();
    env.push((
        "CREDENTIALS_DIRECTORY".into(),
        credentials.display().to_string(),
    ));

    // ombi-mcp.socket's socket, in a scratch directory (the real /run/ombi-mcp may be in use).
    assert_eq!(unit_values("ombi-mcp.socket", "SocketMode"), ["0660"]);
    assert_eq!(unit_values("ombi-mcp.socket", "SocketGroup"), ["ombi-mcp"]);
    let socket = scratch.path().join("mcp.sock");
    let log = scratch.path().join("daemon.log");
    let mut cmd = Command::new(SOCKET_ACTIVATE);
    cmd.arg("-l").arg(&socket).arg("--fdname=mcp");
    for (k, v) in &env {
        cmd.arg("-E").arg(format!("{k}={v}"));
    }
    let mut activate = cmd
        .arg("setpriv")
        .arg(format!("--reuid={DYNAMIC_UID}"))
        .arg(format!("--regid={DYNAMIC_UID}"))
        .arg("--clear-groups")
        .args(&exec)
        .stdin(Stdio::null())
        .stdout(File::create(&log).unwrap())
        .stderr(File::create(&log).unwrap())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    while !socket.exists() {
        assert!(Instant::now() < deadline, "the socket never appeared");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::os::unix::fs::chown(&socket, Some(0), Some(group.gid.as_raw())).unwrap();
    std::fs::set_permissions(&socket, std::fs::Permissions::from_mode(0o660)).unwrap();

    let member = "ombi-mcp-deb-member";
    user(member, &["ombi-mcp"]);
    let outsider = "ombi-mcp-deb-outsider";
    user(outsider, &[]);
    let s = socket.clone();
    let (served, refused) =
        tokio::task::spawn_blocking(move || (shim_as(member, &s), shim_as(outsider, &s)))
            .await
            .unwrap();
    let logs = std::fs::read_to_string(&log).unwrap_or_default();
    let _ = activate.kill();
    let _ = activate.wait();
    assert!(
        served.stdout.contains("\"serverInfo\""),
        "a member of ombi-mcp was not served: {} {}\n{logs}",
        served.stdout,
        served.stderr
    );
    assert_eq!(refused.status.code(), Some(77), "{}", refused.stderr);
    assert!(refused.stdout.is_empty(), "{}", refused.stdout);

    // Purge: nothing of the package is left.
    std::fs::remove_file(CREDENTIAL).unwrap();
    let (ok, out) = run(Command::new("dpkg").args(["--purge", "ombi-mcp"]));
    assert!(ok, "dpkg --purge:\n{out}");
    std::mem::forget(installed);
    for (path, _) in FILES {
        assert!(!Path::new(path).exists(), "{path} left after purge");
    }
    for path in [
        "/etc/ombi-mcp",
        "/usr/lib/systemd/system/ombi-mcp.service.d",
        "/usr/share/doc/ombi-mcp",
        ENABLED,
        "/var/lib/dpkg/info/ombi-mcp.conffiles",
        "/var/lib/systemd/deb-systemd-helper-enabled/ombi-mcp.socket.dsh-also",
    ] {
        assert!(
            std::fs::symlink_metadata(path).is_err(),
            "{path} left after purge"
        );
    }
    if !had_credstore {
        assert!(
            !Path::new("/etc/credstore").exists(),
            "/etc/credstore left after purge"
        );
    }
    let (_, status) = run(Command::new("dpkg").args(["-s", "ombi-mcp"]));
    assert!(
        status.contains("not installed") || status.contains("is not installed"),
        "{status}"
    );
}
