//! The audit trail through the real daemon: records that `RUST_LOG` cannot silence, whose message
//! alone names peer, user, tool and outcome, and (in the journal) their priorities: notice for a
//! record, warning for a refusal, informational for ordinary lines.

use std::collections::HashMap;
use std::os::unix::fs::MetadataExt;
use std::os::unix::net::UnixDatagram;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use rmcp::model::CallToolRequestParams;
use serde_json::json;

use crate::harness::{self, Daemon, DaemonOpts, INITIALIZE, is_root, require, run_shim, test_user};
use crate::support::fake_ombi::{self as fake, FakeOmbi, Options};

fn fake_env(fake: &FakeOmbi, rust_log: &str) -> Vec<(String, String)> {
    vec![
        ("OMBI_URL".into(), fake.url.clone()),
        ("OMBI_AUTH_MODE".into(), "api_key".into()),
        ("OMBI_API_KEY".into(), fake::API_KEY.into()),
        ("OMBI_USER_NAME".into(), fake::PLAIN_USER.into()),
        ("RUST_LOG".into(), rust_log.into()),
    ]
}

/// A movie request through the real client and shim.
async fn request_a_movie(socket: &Path) {
    let client = harness::client(socket).await;
    let mut call = CallToolRequestParams::new("write_request_create");
    call.arguments = json!({"action": "movie", "tmdb_id": 27205})
        .as_object()
        .cloned();
    let result = client.call_tool(call).await.expect("a tool result");
    let sc = result.structured_content.expect("structuredContent");
    assert_eq!(sc["ok"], true, "{sc}");
    client.cancel().await.unwrap();
}

/// `RUST_LOG=warn` silences the daemon's ordinary lines but not the audit record, whose message
/// names the peer's uid and user, the Ombi user, the tool, the action and the outcome.
#[tokio::test(flavor = "multi_thread")]
async fn quiet_logs_keep_every_write_audited_in_one_readable_line() {
    let fake = FakeOmbi::start(Options::default()).await;
    let d = Daemon::start(DaemonOpts {
        env: fake_env(&fake, "warn"),
        ..DaemonOpts::default()
    });
    request_a_movie(&d.socket).await;
    let logs = d.wait_log("audit uid=");
    let me = nix::unistd::geteuid().as_raw();
    let name = nix::unistd::User::from_uid(me.into())
        .unwrap()
        .map(|u| u.name)
        .unwrap_or("?".into());
    let want = format!(
        "audit uid={me} user={name} ombi_user={} tool=write_request_create action=movie \
         outcome=completed confirmation=",
        fake::PLAIN_USER
    );
    assert!(logs.contains(&want), "no {want:?} in:\n{logs}");
    assert!(logs.contains("[tmdb_id=27205]"), "{logs}");
    // The filter did apply to everything else.
    for silenced in ["accepted peer", "tool call ok", "listening"] {
        assert!(
            !logs.contains(silenced),
            "{silenced} logged at warn:\n{logs}"
        );
    }
}

/// `RUST_LOG=off`: a refused peer is still recorded, naming its uid, user and the reason.
#[test]
fn a_refused_peer_is_recorded_even_with_logging_off() {
    if !require(is_root(), "root (to connect as a second uid)") {
        return;
    }
    let (uid, gid) = test_user();
    let d = Daemon::start(DaemonOpts {
        env: harness::offline_env()
            .into_iter()
            .chain([("RUST_LOG".to_string(), "off".to_string())])
            .collect(),
        ..DaemonOpts::default()
    });
    d.open_socket_to_all();
    run_shim(
        &d.socket,
        INITIALIZE,
        Some((uid, gid)),
        Duration::from_millis(200),
    );
    let logs = d.wait_log("refused peer");
    let want = format!("refused peer uid={uid} user=ombi-mcp-peer: not the daemon's own uid");
    assert!(logs.contains(&want), "no {want:?} in:\n{logs}");
    assert_eq!(logs.matches("refused peer").count(), 1, "{logs}");
}

/// The journal's own socket, bound by the test (journald is not running here): removed, with
/// the directory if the test made it, when dropped.
struct FakeJournal {
    socket: UnixDatagram,
    path: PathBuf,
    made_dir: bool,
}

const JOURNAL_SOCKET: &str = "/run/systemd/journal/socket";

impl FakeJournal {
    fn bind() -> FakeJournal {
        let path = PathBuf::from(JOURNAL_SOCKET);
        let dir = path.parent().unwrap();
        let made_dir = !dir.exists();
        std::fs::create_dir_all(dir).unwrap();
        let socket = UnixDatagram::bind(&path).expect("bind the journal socket");
        socket
            .set_read_timeout(Some(Duration::from_millis(200)))
            .unwrap();
        FakeJournal {
            socket,
            path,
            made_dir,
        }
    }

    /// Every entry received so far (journald's native protocol: `KEY=value` lines, or `KEY`, a
    /// little-endian u64 length and the raw value for values holding a newline).
    fn entries(&self) -> Vec<HashMap<String, String>> {
        let mut out = Vec::new();
        let mut buf = vec![0u8; 256 * 1024];
        while let Ok(n) = self.socket.recv(&mut buf) {
            let mut entry = HashMap::new();
            let mut rest = &buf[..n];
            while !rest.is_empty() {
                let end = rest.iter().position(|b| *b == b'\n').unwrap_or(rest.len());
                let line = &rest[..end];
                if let Some(eq) = line.iter().position(|b| *b == b'=') {
                    entry.insert(
                        String::from_utf8_lossy(&line[..eq]).into_owned(),
                        String::from_utf8_lossy(&line[eq + 1..]).into_owned(),
                    );
                    rest = &rest[(end + 1).min(rest.len())..];
                } else {
                    let after = &rest[end + 1..];
                    let len = u64::from_le_bytes(after[..8].try_into().unwrap()) as usize;
                    let value = &after[8..8 + len];
                    entry.insert(
                        String::from_utf8_lossy(line).into_owned(),
                        String::from_utf8_lossy(value).into_owned(),
                    );
                    rest = &after[(8 + len + 1).min(after.len())..];
                }
            }
            if !entry.is_empty() {
                out.push(entry);
            }
        }
        out
    }
}

impl Drop for FakeJournal {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
        if self.made_dir {
            let _ = std::fs::remove_dir(self.path.parent().unwrap());
        }
    }
}

/// Under systemd (stderr is the journal stream), through journald's native protocol: a write's
/// record has priority 5 (notice) and its key fields in MESSAGE (what `journalctl -u` prints) as
/// well as fields of their own; a refused peer is 4 (warning); an ordinary info line 6.
#[tokio::test(flavor = "multi_thread")]
async fn in_the_journal_audits_are_notice_refusals_warning_and_the_message_reads() {
    if !require(
        is_root() && !Path::new(JOURNAL_SOCKET).exists(),
        "root, and no journald on this machine (the test binds its socket)",
    ) {
        return;
    }
    let journal = FakeJournal::bind();
    let fake = FakeOmbi::start(Options::default()).await;
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(
        dir.path(),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    let socket = dir.path().join("mcp.sock");
    let stderr_path = dir.path().join("stderr");
    let stderr = std::fs::File::create(&stderr_path).unwrap();
    let meta = stderr.metadata().unwrap();
    let mut daemon = Command::new(harness::DAEMON)
        .arg("--socket")
        .arg(&socket)
        .envs(fake_env(&fake, "info"))
        .env("JOURNAL_STREAM", format!("{}:{}", meta.dev(), meta.ino()))
        .env_remove("NOTIFY_SOCKET")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(stderr)
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    while !socket.exists() {
        assert!(Instant::now() < deadline, "the daemon never listened");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::fs::set_permissions(&socket, std::os::unix::fs::PermissionsExt::from_mode(0o666)).unwrap();
    request_a_movie(&socket).await;
    let (uid, gid) = test_user();
    let s = socket.clone();
    tokio::task::spawn_blocking(move || {
        run_shim(&s, INITIALIZE, Some((uid, gid)), Duration::from_millis(200))
    })
    .await
    .unwrap();

    let mut entries = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(10);
    while Instant::now() < deadline
        && !entries
            .iter()
            .any(|e: &HashMap<String, String>| e["MESSAGE"].starts_with("refused peer"))
    {
        entries.extend(journal.entries());
    }
    let _ = daemon.kill();
    let _ = daemon.wait();
    let text = std::fs::read_to_string(&stderr_path).unwrap();
    assert!(
        text.is_empty(),
        "logs went to stderr, not the journal:\n{text}"
    );
    let find = |prefix: &str| {
        entries
            .iter()
            .find(|e| e["MESSAGE"].starts_with(prefix))
            .unwrap_or_else(|| panic!("no {prefix:?} entry in {entries:#?}"))
    };
    let audit = find("audit uid=");
    assert_eq!(audit["PRIORITY"], "5", "{audit:?}");
    assert_eq!(audit["SYSLOG_IDENTIFIER"], "ombi-mcpd");
    assert_eq!(audit["TOOL"], "write_request_create");
    assert_eq!(audit["OUTCOME"], "completed");
    assert_eq!(audit["OMBI_USER"], fake::PLAIN_USER);
    for part in [
        format!("ombi_user={}", fake::PLAIN_USER),
        "tool=write_request_create".into(),
        "outcome=completed".into(),
    ] {
        assert!(audit["MESSAGE"].contains(&part), "{part}: {audit:?}");
    }
    let refused = find("refused peer");
    assert_eq!(refused["PRIORITY"], "4", "{refused:?}");
    assert_eq!(refused["PEER_UID"], uid.to_string());
    assert!(
        refused["MESSAGE"].contains(&format!("uid={uid} user=ombi-mcp-peer")),
        "{refused:?}"
    );
    assert_eq!(find("accepted peer")["PRIORITY"], "6");
    assert_eq!(find("tool call ok")["PRIORITY"], "6");
}
