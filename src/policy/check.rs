//! `ombi-mcpd --check-config`'s look at the policy against this system: what
//! loads fine but cannot work. Errors (exit 78): an empty `peers` list, a
//! `user` or `group` the system does not know, an entry none of whose
//! bundles is within `OMBI_BUNDLES` (every connection it matches is refused),
//! a named user the socket's permissions keep out. Warnings: a `uid` with no
//! account, bundles partly outside `OMBI_BUNDLES` (capped), a group entry
//! the socket's permissions keep out, a socket not there to look at.

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;

use nix::unistd::{Gid, Group, Uid, User};

use super::{Policy, Selector, lookup_user};

/// What the check found, each line naming the entry (`peers[2].user`).
#[derive(Debug, Default)]
pub struct Findings {
    pub errors: Vec<String>,
    pub warnings: Vec<String>,
}

/// Checks a policy loaded from a file against the accounts of this system
/// and the socket at `socket` (the one the socket unit or `--socket` makes).
pub fn check(policy: &Policy, socket: &Path) -> Findings {
    let mut f = Findings::default();
    if policy.entries.is_empty() {
        f.errors.push(
            "peers: is empty, so only root and the daemon's own uid can connect; list peers, \
             or unset OMBI_MCP_POLICY for that"
                .into(),
        );
        return f;
    }
    let access = SocketAccess::read(socket);
    if let Err(why) = &access {
        f.warnings.push(format!(
            "{}: {why}; whether peers can reach the socket was not checked",
            socket.display()
        ));
    }
    for (i, e) in policy.entries.iter().enumerate() {
        if e.bundles.is_empty() {
            f.errors.push(format!(
                "peers[{i}].bundles: {} lies outside OMBI_BUNDLES ({}): every peer it matches is \
                 refused; widen OMBI_BUNDLES or change the entry",
                e.requested, policy.max_bundles
            ));
        } else if e.bundles != e.requested {
            f.warnings.push(format!(
                "peers[{i}].bundles: {} is capped to {} by OMBI_BUNDLES",
                e.requested, e.bundles
            ));
        }
        match &e.selector {
            Selector::User(name) => match User::from_name(name).ok().flatten() {
                None => f
                    .errors
                    .push(format!("peers[{i}].user: no user {name:?} on this system")),
                Some(u) => {
                    if let Ok(access) = &access
                        && !access.admits_user(u.uid.as_raw(), u.gid.as_raw())
                    {
                        f.errors.push(format!(
                            "peers[{i}].user: {name:?} cannot open {} ({}); add the user to \
                             group {}",
                            socket.display(),
                            access.describe(),
                            access.group_name()
                        ));
                    }
                }
            },
            Selector::Group(name) => match Group::from_name(name).ok().flatten() {
                None => f.errors.push(format!(
                    "peers[{i}].group: no group {name:?} on this system"
                )),
                Some(g) => {
                    if let Ok(access) = &access
                        && !access.admits_group(g.gid.as_raw())
                    {
                        f.warnings.push(format!(
                            "peers[{i}].group: members of {name:?} can open {} ({}) only if \
                             they are also in group {}",
                            socket.display(),
                            access.describe(),
                            access.group_name()
                        ));
                    }
                }
            },
            Selector::Uid(uid) => match User::from_uid(Uid::from_raw(*uid)).ok().flatten() {
                None => f.warnings.push(format!(
                    "peers[{i}].uid: no account has uid {uid} on this system"
                )),
                Some(u) => {
                    if let Ok(access) = &access
                        && !access.admits_user(*uid, u.gid.as_raw())
                    {
                        f.errors.push(format!(
                            "peers[{i}].uid: {uid} ({}) cannot open {} ({}); add the user to \
                             group {}",
                            u.name,
                            socket.display(),
                            access.describe(),
                            access.group_name()
                        ));
                    }
                }
            },
        }
    }
    f
}

/// Who may connect to the socket file: connecting takes write permission
/// on it (and search permission on its directories, not checked: the
/// units make them 0755).
struct SocketAccess {
    uid: u32,
    gid: u32,
    mode: u32,
}

impl SocketAccess {
    fn read(socket: &Path) -> Result<SocketAccess, String> {
        let meta = std::fs::metadata(socket).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => {
                "no socket there yet (is ombi-mcp.socket started?)".to_string()
            }
            _ => format!("cannot read: {e}"),
        })?;
        Ok(SocketAccess {
            uid: meta.uid(),
            gid: meta.gid(),
            mode: meta.permissions().mode() & 0o777,
        })
    }

    fn admits_user(&self, uid: u32, primary_gid: u32) -> bool {
        if uid == 0 {
            return true;
        }
        if uid == self.uid {
            return self.mode & 0o200 != 0;
        }
        let in_group = primary_gid == self.gid || {
            let (_, _, groups) = lookup_user(uid, primary_gid);
            let name = self.group_name();
            groups.contains(&name)
        };
        if in_group {
            self.mode & 0o020 != 0
        } else {
            self.mode & 0o002 != 0
        }
    }

    fn admits_group(&self, gid: u32) -> bool {
        (gid == self.gid && self.mode & 0o020 != 0) || self.mode & 0o002 != 0
    }

    fn group_name(&self) -> String {
        Group::from_gid(Gid::from_raw(self.gid))
            .ok()
            .flatten()
            .map(|g| g.name)
            .unwrap_or_else(|| self.gid.to_string())
    }

    fn describe(&self) -> String {
        let owner = User::from_uid(Uid::from_raw(self.uid))
            .ok()
            .flatten()
            .map(|u| u.name)
            .unwrap_or_else(|| self.uid.to_string());
        format!("mode {:04o}, {owner}:{}", self.mode, self.group_name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::definition::{Bundle, BundleSet};

    fn findings(text: &str, max: BundleSet, socket: &Path) -> Findings {
        check(&Policy::parse(text, max, false, false).unwrap(), socket)
    }

    #[test]
    fn names_each_bad_entry() {
        let dir = tempfile::tempdir().unwrap();
        let socket = dir.path().join("mcp.sock");
        std::fs::write(&socket, "").unwrap();
        std::fs::set_permissions(&socket, std::fs::Permissions::from_mode(0o666)).unwrap();
        let text = r#"{"peers":[
            {"user":"root"},
            {"user":"no-such-user-h35"},
            {"group":"no-such-group-h35"},
            {"uid":0,"bundles":["administration"]},
            {"uid":0,"bundles":["core","administration"]},
            {"uid":4294967200}
        ]}"#;
        let f = findings(text, BundleSet::only(Bundle::Core), &socket);
        assert_eq!(f.errors.len(), 3, "{f:?}");
        assert!(f.errors[0].starts_with("peers[1].user: no user \"no-such-user-h35\""));
        assert!(f.errors[1].starts_with("peers[2].group: no group \"no-such-group-h35\""));
        assert!(f.errors[2].starts_with("peers[3].bundles: administration lies outside"));
        assert_eq!(f.warnings.len(), 2, "{f:?}");
        assert!(
            f.warnings[0].starts_with("peers[4].bundles: core,administration is capped to core")
        );
        assert!(f.warnings[1].starts_with("peers[5].uid: no account has uid 4294967200"));
    }

    #[test]
    fn an_empty_list_is_an_error() {
        let f = findings(
            r#"{"peers":[]}"#,
            BundleSet::all(),
            Path::new("/nonexistent"),
        );
        assert_eq!(f.errors.len(), 1);
        assert!(f.errors[0].starts_with("peers: is empty"));
    }

    #[test]
    fn socket_permissions_by_owner_group_and_others() {
        let a = SocketAccess {
            uid: 10,
            gid: 20,
            mode: 0o660,
        };
        assert!(a.admits_user(0, 0));
        assert!(a.admits_user(10, 99));
        assert!(a.admits_user(11, 20));
        assert!(a.admits_group(20));
        assert!(!a.admits_group(21));
        let open = SocketAccess { mode: 0o666, ..a };
        assert!(open.admits_group(21));
    }
}
