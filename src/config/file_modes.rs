//! `--check-config`'s warnings about files others could change or read:
//! a policy file anyone but root or the daemon's user can write (they would
//! grant themselves every tool), a secret file readable by its group or by
//! everyone, a socket directory others can write (a squatter could plant
//! its own socket where clients look for the daemon's). Warnings, not
//! errors: the daemon still starts, as it did before the check existed.

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use super::Env;

/// One line per risky file, naming it, its mode and owner, and the fix.
/// `daemon_uid`: the user the daemon runs as.
pub fn risky_files(env: &Env, socket: &Path, daemon_uid: u32) -> Vec<String> {
    let mut found = Vec::new();
    if let Some(policy) = env.get("OMBI_MCP_POLICY") {
        policy_file(Path::new(policy), daemon_uid, &mut found);
    }
    for path in secret_files(env) {
        secret_file(&path, &mut found);
    }
    let dir = match socket.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    socket_dir(dir, &mut found);
    found
}

/// The secret files the configuration names (they need not all be used).
fn secret_files(env: &Env) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = ["OMBI_API_KEY_FILE", "OMBI_PASSWORD_FILE"]
        .into_iter()
        .filter_map(|var| env.get(var).map(PathBuf::from))
        .collect();
    if let Some(dir) = env.get("CREDENTIALS_DIRECTORY") {
        for credential in ["ombi-api-key", "ombi-password"] {
            files.push(Path::new(dir).join(credential));
        }
    }
    files
}

fn policy_file(path: &Path, daemon_uid: u32, found: &mut Vec<String>) {
    let Ok(meta) = std::fs::metadata(path) else {
        return;
    };
    let mode = meta.mode() & 0o7777;
    let trusted_owner = meta.uid() == 0 || meta.uid() == daemon_uid;
    let who = if mode & 0o002 != 0 {
        Some("everyone")
    } else if mode & 0o020 != 0 && meta.gid() != 0 {
        Some("its group")
    } else if !trusted_owner {
        Some("its owner, who is neither root nor the daemon's user")
    } else {
        None
    };
    if let Some(who) = who {
        found.push(format!(
            "the policy file {} (mode {mode:04o}, uid {}) can be changed by {who}, who could grant any peer every tool; make it owned by root and writable by root alone (chown root: {0}; chmod 0644 {0})",
            path.display(),
            meta.uid(),
        ));
    }
}

fn secret_file(path: &Path, found: &mut Vec<String>) {
    let Ok(meta) = std::fs::metadata(path) else {
        return;
    };
    let mode = meta.mode() & 0o7777;
    if mode & 0o044 != 0 {
        let who = if mode & 0o004 != 0 {
            "everyone"
        } else {
            "its group"
        };
        found.push(format!(
            "the secret file {} (mode {mode:04o}) is readable by {who}; make it readable by its owner alone (chmod 0600 {0}), or load it as a systemd credential",
            path.display(),
        ));
    }
}

fn socket_dir(dir: &Path, found: &mut Vec<String>) {
    let Ok(meta) = std::fs::metadata(dir) else {
        return;
    };
    let mode = meta.mode() & 0o7777;
    if mode & 0o002 != 0 {
        found.push(format!(
            "the socket directory {} (mode {mode:04o}) is writable by everyone: another user could put a socket there before the daemon does; use a directory only the daemon's user can write (/run/ombi-mcp)",
            dir.display(),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn chmod(path: &Path, mode: u32) {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
    }

    #[test]
    fn world_writable_policy_group_readable_key_and_open_socket_dir_are_named() {
        let dir = tempfile_dir();
        let (policy, key, run) = (dir.join("policy.json"), dir.join("key"), dir.join("run"));
        std::fs::write(&policy, "{}").unwrap();
        std::fs::write(&key, "k").unwrap();
        std::fs::create_dir(&run).unwrap();
        let (p, k) = (policy.display().to_string(), key.display().to_string());
        let env = Env::from_pairs([
            ("OMBI_MCP_POLICY", p.as_str()),
            ("OMBI_API_KEY_FILE", k.as_str()),
        ]);
        let me = nix::unistd::geteuid().as_raw();
        let socket = run.join("mcp.sock");

        chmod(&policy, 0o644);
        chmod(&key, 0o600);
        chmod(&run, 0o755);
        assert!(risky_files(&env, &socket, me).is_empty());

        chmod(&policy, 0o666);
        chmod(&key, 0o640);
        chmod(&run, 0o1777);
        let found = risky_files(&env, &socket, me);
        assert_eq!(found.len(), 3, "{found:#?}");
        assert!(
            found[0].contains("policy") && found[0].contains("everyone"),
            "{}",
            found[0]
        );
        assert!(
            found[1].contains(&k) && found[1].contains("its group"),
            "{}",
            found[1]
        );
        assert!(
            found[2].contains("socket directory") && found[2].contains("1777"),
            "{}",
            found[2]
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    fn tempfile_dir() -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "ombi-mcp-file-modes-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }
}
