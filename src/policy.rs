//! Peer policy: who may connect, and what each peer may see.
//!
//! Without a policy file only the daemon's own uid and root may connect. The
//! file (`OMBI_MCP_POLICY`) lists peers by uid, user name or group; the first
//! matching entry wins. Bundles are always capped by `OMBI_BUNDLES`, and
//! `OMBI_READ_ONLY=true` makes every peer read-only.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::confirm;
use crate::definition::{Bundle, BundleSet, UnknownBundle};

pub mod check;
mod live;
pub use live::{LivePolicy, PolicySource};

/// The identity of one accepted connection, decided before any MCP byte is
/// read. It travels with the MCP session into every tool call.
#[derive(Debug, Clone)]
pub struct Identity {
    pub uid: u32,
    pub gid: u32,
    pub pid: Option<i32>,
    /// The peer's user name, when the system knows it.
    pub user_name: Option<String>,
    /// Bundles this peer sees (never more than `OMBI_BUNDLES`).
    pub bundles: BundleSet,
    /// True hides and refuses every `write_*` tool.
    pub read_only: bool,
    /// api_key mode: the Ombi user this peer acts as (`UserName` header).
    /// `None` falls back to `OMBI_USER_NAME`, then to no header.
    pub ombi_user: Option<String>,
    /// Text other users wrote is withheld from this peer's results
    /// (`OMBI_LOCKDOWN`, or `lockdown` in its policy entry).
    pub lockdown: bool,
    /// The policy's `confirm` for this peer; `None` follows `OMBI_CONFIRM`.
    pub confirm: Option<confirm::Mode>,
    /// Which rule admitted the peer (for logs).
    pub rule: String,
}

impl Identity {
    /// An identity for in-process tests and `--check-config`.
    pub fn local(bundles: BundleSet, read_only: bool) -> Identity {
        Identity {
            uid: nix::unistd::getuid().as_raw(),
            gid: nix::unistd::getgid().as_raw(),
            pid: Some(std::process::id() as i32),
            user_name: None,
            bundles,
            read_only,
            ombi_user: None,
            lockdown: false,
            confirm: None,
            rule: "local".into(),
        }
    }
}

/// Credentials of a connecting process (SO_PEERCRED).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PeerCred {
    pub uid: u32,
    pub gid: u32,
    pub pid: Option<i32>,
}

/// How an entry names its peers.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Selector {
    Uid(u32),
    User(String),
    Group(String),
}

#[derive(Debug, Clone)]
struct Entry {
    selector: Selector,
    /// What the entry asks for, and (`bundles`) what it gets within `OMBI_BUNDLES`.
    requested: BundleSet,
    bundles: BundleSet,
    read_only: bool,
    ombi_user: Option<String>,
    lockdown: bool,
    confirm: Option<confirm::Mode>,
}

/// The file format (see docs/configuration.md).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PolicyFile {
    peers: Vec<EntryFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EntryFile {
    uid: Option<u32>,
    user: Option<String>,
    group: Option<String>,
    bundles: Option<Vec<String>>,
    #[serde(default)]
    read_only: bool,
    ombi_user: Option<String>,
    #[serde(default)]
    lockdown: bool,
    confirm: Option<String>,
}

/// The loaded policy. Cheap to consult per connection.
#[derive(Debug, Clone)]
pub struct Policy {
    entries: Vec<Entry>,
    /// `OMBI_BUNDLES`.
    max_bundles: BundleSet,
    /// `OMBI_READ_ONLY`.
    global_read_only: bool,
    /// `OMBI_LOCKDOWN`.
    global_lockdown: bool,
    daemon_uid: u32,
}

/// Why a peer was refused (logged; never sent to the peer).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal(pub String);

/// What is wrong with a policy file's content; entries are named by their
/// index (`peers[2]`).
#[derive(Debug)]
pub enum PolicyError {
    Json(serde_json::Error),
    /// Not exactly one of `uid`, `user`, `group`.
    Selector {
        entry: usize,
    },
    Bundle {
        entry: usize,
        source: UnknownBundle,
    },
    /// `ombi_user` outside api_key mode.
    OmbiUserWithoutApiKey {
        entry: usize,
    },
    EmptyOmbiUser {
        entry: usize,
    },
    /// `confirm` is not `ask`, `require` or `off`.
    Confirm {
        entry: usize,
        value: String,
    },
}

impl fmt::Display for PolicyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PolicyError::Json(e) => write!(f, "invalid policy JSON: {e}"),
            PolicyError::Selector { entry } => write!(
                f,
                "peers[{entry}]: give exactly one of \"uid\", \"user\" or \"group\""
            ),
            PolicyError::Bundle { entry, source } => write!(
                f,
                "peers[{entry}].bundles: {source}; use core, moderation, administration"
            ),
            PolicyError::OmbiUserWithoutApiKey { entry } => write!(
                f,
                "peers[{entry}].ombi_user: only meaningful with OMBI_AUTH_MODE=api_key (jwt mode acts as OMBI_USERNAME)"
            ),
            PolicyError::EmptyOmbiUser { entry } => write!(f, "peers[{entry}].ombi_user: is empty"),
            PolicyError::Confirm { entry, value } => write!(
                f,
                "peers[{entry}].confirm: {value:?} is not one of {}",
                confirm::Mode::NAMES
            ),
        }
    }
}

impl std::error::Error for PolicyError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PolicyError::Json(e) => Some(e),
            PolicyError::Bundle { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// Why [`Policy::load`] failed, naming the file.
#[derive(Debug)]
pub enum PolicyFileError {
    Unreadable {
        path: PathBuf,
        source: std::io::Error,
    },
    Invalid {
        path: PathBuf,
        source: PolicyError,
    },
}

impl fmt::Display for PolicyFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PolicyFileError::Unreadable { path, source } => {
                write!(f, "{}: cannot read: {source}", path.display())
            }
            PolicyFileError::Invalid { path, source } => write!(f, "{}: {source}", path.display()),
        }
    }
}

impl std::error::Error for PolicyFileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PolicyFileError::Unreadable { source, .. } => Some(source),
            PolicyFileError::Invalid { source, .. } => Some(source),
        }
    }
}

impl Policy {
    /// The default policy: the daemon's own uid and root only.
    pub fn default_only(max_bundles: BundleSet, global_read_only: bool) -> Policy {
        Policy {
            entries: Vec::new(),
            max_bundles,
            global_read_only,
            global_lockdown: false,
            daemon_uid: nix::unistd::geteuid().as_raw(),
        }
    }

    /// Loads and validates a policy file. `api_key_mode` gates `ombi_user`.
    /// The error is one line naming the file and the entry.
    pub fn load(
        path: &Path,
        max_bundles: BundleSet,
        global_read_only: bool,
        api_key_mode: bool,
    ) -> Result<Policy, PolicyFileError> {
        let text = std::fs::read_to_string(path).map_err(|source| PolicyFileError::Unreadable {
            path: path.to_path_buf(),
            source,
        })?;
        Policy::parse(&text, max_bundles, global_read_only, api_key_mode).map_err(|source| {
            PolicyFileError::Invalid {
                path: path.to_path_buf(),
                source,
            }
        })
    }

    pub fn parse(
        text: &str,
        max_bundles: BundleSet,
        global_read_only: bool,
        api_key_mode: bool,
    ) -> Result<Policy, PolicyError> {
        let file: PolicyFile = serde_json::from_str(text).map_err(PolicyError::Json)?;
        let mut entries = Vec::with_capacity(file.peers.len());
        for (entry, e) in file.peers.into_iter().enumerate() {
            let selector = match (e.uid, e.user, e.group) {
                (Some(uid), None, None) => Selector::Uid(uid),
                (None, Some(u), None) if !u.is_empty() => Selector::User(u),
                (None, None, Some(g)) if !g.is_empty() => Selector::Group(g),
                _ => return Err(PolicyError::Selector { entry }),
            };
            let requested = match e.bundles {
                None => max_bundles,
                Some(names) => {
                    let mut set = BundleSet::EMPTY;
                    for n in names {
                        let bundle = Bundle::parse(&n).ok_or_else(|| PolicyError::Bundle {
                            entry,
                            source: UnknownBundle(n.clone()),
                        })?;
                        set.insert(bundle);
                    }
                    set
                }
            };
            // Never more than OMBI_BUNDLES: a wider entry is capped, not an error,
            // so narrowing OMBI_BUNDLES never needs a policy edit.
            let bundles = requested.intersect(max_bundles);
            let ombi_user = match e.ombi_user {
                Some(_) if !api_key_mode => {
                    return Err(PolicyError::OmbiUserWithoutApiKey { entry });
                }
                Some(u) if u.trim().is_empty() => return Err(PolicyError::EmptyOmbiUser { entry }),
                other => other,
            };
            let confirm = match e.confirm {
                None => None,
                Some(value) => Some(
                    confirm::Mode::parse(&value).ok_or(PolicyError::Confirm { entry, value })?,
                ),
            };
            entries.push(Entry {
                selector,
                requested,
                bundles,
                read_only: e.read_only,
                ombi_user,
                lockdown: e.lockdown,
                confirm,
            });
        }
        Ok(Policy {
            entries,
            max_bundles,
            global_read_only,
            global_lockdown: false,
            daemon_uid: nix::unistd::geteuid().as_raw(),
        })
    }

    /// Puts every peer under lockdown (`OMBI_LOCKDOWN`), whatever its entry says.
    pub fn with_global_lockdown(mut self, lockdown: bool) -> Policy {
        self.global_lockdown = lockdown;
        self
    }

    /// Decides one peer. `user_name` and `groups` are looked up by the caller
    /// (see [`lookup_user`]) so this stays a pure function.
    pub fn decide(
        &self,
        cred: PeerCred,
        user_name: Option<&str>,
        groups: &[String],
        primary_group: Option<&str>,
    ) -> Result<Identity, Refusal> {
        let identity = |bundles: BundleSet,
                        read_only: bool,
                        ombi_user: Option<String>,
                        lockdown: bool,
                        confirm: Option<confirm::Mode>,
                        rule: String| Identity {
            uid: cred.uid,
            gid: cred.gid,
            pid: cred.pid,
            user_name: user_name.map(str::to_string),
            bundles,
            read_only: read_only || self.global_read_only,
            ombi_user,
            lockdown: lockdown || self.global_lockdown,
            confirm,
            rule,
        };
        for (i, e) in self.entries.iter().enumerate() {
            let matched = match &e.selector {
                Selector::Uid(uid) => *uid == cred.uid,
                Selector::User(name) => user_name == Some(name.as_str()),
                Selector::Group(g) => {
                    primary_group == Some(g.as_str()) || groups.iter().any(|x| x == g)
                }
            };
            if matched {
                if e.bundles.is_empty() {
                    return Err(Refusal(format!(
                        "policy entry peers[{i}] matches but allows no bundle within OMBI_BUNDLES"
                    )));
                }
                return Ok(identity(
                    e.bundles,
                    e.read_only,
                    e.ombi_user.clone(),
                    e.lockdown,
                    e.confirm,
                    format!("peers[{i}]"),
                ));
            }
        }
        if cred.uid == 0 || cred.uid == self.daemon_uid {
            let rule = if cred.uid == 0 {
                "root"
            } else {
                "daemon's own uid"
            };
            return Ok(identity(
                self.max_bundles,
                false,
                None,
                false,
                None,
                rule.to_string(),
            ));
        }
        Err(Refusal(if self.entries.is_empty() {
            "not the daemon's own uid or root, and no policy file (OMBI_MCP_POLICY) allows other peers".to_string()
        } else {
            "no entry of the policy file matches this peer".to_string()
        }))
    }
}

/// The peer's user name, primary group name and supplementary group names,
/// from the system's user and group databases.
pub fn lookup_user(uid: u32, gid: u32) -> (Option<String>, Option<String>, Vec<String>) {
    use nix::unistd::{Gid, Group, Uid, User};
    let user = User::from_uid(Uid::from_raw(uid)).ok().flatten();
    let primary = Group::from_gid(Gid::from_raw(gid))
        .ok()
        .flatten()
        .map(|g| g.name);
    let mut groups = Vec::new();
    if let Some(u) = &user
        && let Ok(name) = std::ffi::CString::new(u.name.clone())
        && let Ok(gids) = nix::unistd::getgrouplist(&name, u.gid)
    {
        for g in gids {
            if let Ok(Some(group)) = Group::from_gid(g) {
                groups.push(group.name);
            }
        }
    }
    (user.map(|u| u.name), primary, groups)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all() -> BundleSet {
        BundleSet::all()
    }

    fn cred(uid: u32) -> PeerCred {
        PeerCred {
            uid,
            gid: uid,
            pid: Some(42),
        }
    }

    #[test]
    fn default_allows_root_and_self_only() {
        let p = Policy::default_only(all(), false);
        assert!(p.decide(cred(0), None, &[], None).is_ok());
        let me = nix::unistd::geteuid().as_raw();
        assert!(p.decide(cred(me), None, &[], None).is_ok());
        let other = if me == 4242 { 4243 } else { 4242 };
        assert!(p.decide(cred(other), None, &[], None).is_err());
    }

    #[test]
    fn entries_cap_bundles_and_first_match_wins() {
        let core = BundleSet::only(Bundle::Core);
        let text = r#"{"peers":[
            {"uid": 5000, "bundles": ["core","administration"], "ombi_user": "alice"},
            {"user": "bob", "read_only": true},
            {"group": "media", "bundles": ["moderation"]}
        ]}"#;
        let p = Policy::parse(text, core, false, true).unwrap();
        let a = p.decide(cred(5000), Some("alice"), &[], None).unwrap();
        assert_eq!(a.bundles, core);
        assert_eq!(a.ombi_user.as_deref(), Some("alice"));
        let b = p.decide(cred(5001), Some("bob"), &[], None).unwrap();
        assert!(b.read_only);
        // moderation ∩ core is empty: refused, not silently widened.
        assert!(
            p.decide(cred(5002), Some("carol"), &["media".into()], None)
                .is_err()
        );
        assert!(p.decide(cred(5003), Some("dave"), &[], None).is_err());
    }

    #[test]
    fn confirm_per_peer_overrides_the_daemon() {
        let text = r#"{"peers":[{"uid":7,"confirm":"require"},{"uid":8}]}"#;
        let p = Policy::parse(text, all(), false, false).unwrap();
        let seven = p.decide(cred(7), None, &[], None).unwrap();
        assert_eq!(seven.confirm, Some(confirm::Mode::Require));
        assert_eq!(p.decide(cred(8), None, &[], None).unwrap().confirm, None);
    }

    #[test]
    fn global_read_only_wins() {
        let p = Policy::parse(r#"{"peers":[{"uid":7}]}"#, all(), true, false).unwrap();
        assert!(p.decide(cred(7), None, &[], None).unwrap().read_only);
    }

    #[test]
    fn lockdown_per_peer_and_global() {
        let text = r#"{"peers":[{"uid":7,"lockdown":true},{"uid":8}]}"#;
        let p = Policy::parse(text, all(), false, false).unwrap();
        assert!(p.decide(cred(7), None, &[], None).unwrap().lockdown);
        assert!(!p.decide(cred(8), None, &[], None).unwrap().lockdown);
        assert!(!p.decide(cred(0), None, &[], None).unwrap().lockdown);
        let p = p.with_global_lockdown(true);
        assert!(p.decide(cred(8), None, &[], None).unwrap().lockdown);
        assert!(p.decide(cred(0), None, &[], None).unwrap().lockdown);
        let bad = Policy::parse(
            r#"{"peers":[{"uid":7,"lockdown":"yes"}]}"#,
            all(),
            false,
            false,
        );
        assert!(bad.is_err());
    }

    #[test]
    fn rejects_bad_files() {
        let bad = [
            (r#"{"peers":[{"uid":1,"user":"x"}]}"#, "exactly one"),
            (r#"{"peers":[{}]}"#, "exactly one"),
            (
                r#"{"peers":[{"uid":1,"bundles":["admin"]}]}"#,
                "unknown bundle",
            ),
            (r#"{"peers":[{"uid":1,"colour":"red"}]}"#, "unknown field"),
            (r#"{"peers":[{"uid":1,"ombi_user":"a"}]}"#, "api_key"),
            (r#"not json"#, "invalid policy JSON"),
            (
                r#"{"peers":[{"uid":1,"confirm":"never"}]}"#,
                "peers[0].confirm",
            ),
        ];
        for (text, want) in bad {
            let err = Policy::parse(text, all(), false, false)
                .unwrap_err()
                .to_string();
            assert!(err.contains(want), "{text} -> {err}");
        }
    }
}
