//! `ombi-mcpd --check-config` looks at the policy against this system: an entry that loads but
//! cannot work (a user or group the system lacks, bundles all outside `OMBI_BUNDLES`, a user the
//! socket's permissions keep out, an empty list) is a configuration error (exit 78), one line per
//! entry, each named.

use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::UnixListener;
use std::process::Command;

use crate::harness::{self, is_root, require, test_user};

/// Creates the system group `name` if missing (root only). Whether it exists afterwards.
pub fn ensure_group(name: &str) -> bool {
    if nix::unistd::Group::from_name(name).unwrap().is_none() && is_root() {
        // Another test may create it concurrently: re-check rather than trust the status.
        let _ = Command::new("groupadd")
            .args(["--system", "-f", name])
            .status();
    }
    nix::unistd::Group::from_name(name).unwrap().is_some()
}

struct Checked {
    code: Option<i32>,
    stderr: String,
}

/// `--check-config --offline` with `policy` and a socket at a known path, mode 0660, owned by
/// root and group `socket_group` (as ombi-mcp.socket makes it).
fn check(policy: &str, bundles: &str, socket_group: Option<u32>) -> Checked {
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = dir.path().join("policy.json");
    std::fs::write(&path, policy).unwrap();
    let socket = dir.path().join("mcp.sock");
    let _listener = UnixListener::bind(&socket).unwrap();
    std::fs::set_permissions(&socket, std::fs::Permissions::from_mode(0o660)).unwrap();
    if let Some(gid) = socket_group {
        std::os::unix::fs::chown(&socket, Some(0), Some(gid)).unwrap();
    }
    let out = Command::new(harness::DAEMON)
        .args(["--check-config", "--offline"])
        .env_clear()
        .envs(harness::offline_env())
        .env("OMBI_BUNDLES", bundles)
        .env("OMBI_MCP_POLICY", &path)
        .env("OMBI_MCP_SOCKET", &socket)
        .output()
        .unwrap();
    Checked {
        code: out.status.code(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

#[test]
fn each_entry_that_cannot_work_is_named_and_exits_78() {
    if !require(is_root(), "root (a test user, a socket owned by a group)") {
        return;
    }
    let (uid, _) = test_user();
    assert!(ensure_group("ombi-mcp-h35-sock"));
    let socket_gid = nix::unistd::Group::from_name("ombi-mcp-h35-sock")
        .unwrap()
        .unwrap()
        .gid
        .as_raw();
    let policy = format!(
        r#"{{"peers":[
            {{"user":"root"}},
            {{"user":"no-such-user-h35"}},
            {{"group":"no-such-group-h35"}},
            {{"uid":0,"bundles":["administration"]}},
            {{"user":"ombi-mcp-peer"}},
            {{"uid":{uid}}}
        ]}}"#
    );
    let got = check(&policy, "core,moderation", Some(socket_gid));
    assert_eq!(got.code, Some(78), "{}", got.stderr);
    let errors: Vec<&str> = got
        .stderr
        .lines()
        .filter(|l| l.starts_with("ombi-mcpd: configuration error: OMBI_MCP_POLICY"))
        .collect();
    let named = [
        "peers[1].user: no user \"no-such-user-h35\"",
        "peers[2].group: no group \"no-such-group-h35\"",
        "peers[3].bundles: administration lies outside OMBI_BUNDLES (core,moderation)",
        "peers[4].user: \"ombi-mcp-peer\" cannot open",
        &format!("peers[5].uid: {uid} (ombi-mcp-peer) cannot open"),
    ];
    assert_eq!(errors.len(), named.len(), "{}", got.stderr);
    for (line, want) in errors.iter().zip(named) {
        assert!(line.contains(want), "want {want:?} in {line:?}");
    }
    assert!(
        errors[3].contains("add the user to group ombi-mcp-h35-sock"),
        "{}",
        errors[3]
    );
    assert!(!got.stderr.contains("configuration ok"), "{}", got.stderr);
}

#[test]
fn a_policy_that_works_passes_and_an_empty_one_does_not() {
    let ok = check(r#"{"peers":[{"user":"root"}]}"#, "core", None);
    assert_eq!(ok.code, Some(0), "{}", ok.stderr);
    let empty = check(r#"{"peers":[]}"#, "core", None);
    assert_eq!(empty.code, Some(78), "{}", empty.stderr);
    assert!(empty.stderr.contains("peers: is empty"), "{}", empty.stderr);
}
