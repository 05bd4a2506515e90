//! The policy in force, and reloading it (`SIGHUP`): the file is read again
//! and, if valid, replaces the policy for connections accepted from then on;
//! sessions already open keep the identity they were admitted with. An
//! invalid file is refused and the previous policy kept.

use std::path::PathBuf;
use std::sync::{Arc, RwLock};

use super::{Policy, PolicyFileError};
use crate::definition::BundleSet;

/// Where the policy comes from and the daemon-wide settings that shape it
/// (`OMBI_MCP_POLICY`, `OMBI_BUNDLES`, `OMBI_READ_ONLY`, `OMBI_LOCKDOWN`, the
/// auth mode): the start and every reload load it the same way.
#[derive(Debug, Clone)]
pub struct PolicySource {
    /// `None`: the daemon's own uid and root only.
    pub file: Option<PathBuf>,
    pub max_bundles: BundleSet,
    pub read_only: bool,
    pub lockdown: bool,
    pub api_key_mode: bool,
}

impl PolicySource {
    pub fn load(&self) -> Result<Policy, PolicyFileError> {
        let policy = match &self.file {
            None => Policy::default_only(self.max_bundles, self.read_only),
            Some(path) => Policy::load(path, self.max_bundles, self.read_only, self.api_key_mode)?,
        };
        Ok(policy.with_global_lockdown(self.lockdown))
    }
}

/// The policy each new connection is decided by.
#[derive(Debug)]
pub struct LivePolicy {
    source: PolicySource,
    current: RwLock<Arc<Policy>>,
}

impl LivePolicy {
    pub fn new(source: PolicySource, policy: Policy) -> LivePolicy {
        LivePolicy {
            source,
            current: RwLock::new(Arc::new(policy)),
        }
    }

    /// The policy for a connection being accepted now.
    pub fn current(&self) -> Arc<Policy> {
        self.current
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// Reads the file again; on success the new policy applies to every
    /// later connection. On failure nothing changes.
    pub fn reload(&self) -> Result<(), PolicyFileError> {
        let policy = self.source.load()?;
        *self.current.write().unwrap_or_else(|p| p.into_inner()) = Arc::new(policy);
        Ok(())
    }

    /// The policy file, if any (for log lines).
    pub fn file(&self) -> Option<&std::path::Path> {
        self.source.file.as_deref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::PeerCred;

    fn cred(uid: u32) -> PeerCred {
        PeerCred {
            uid,
            gid: uid,
            pid: None,
        }
    }

    #[test]
    fn a_reload_applies_a_valid_file_and_keeps_the_old_policy_on_a_bad_one() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("policy.json");
        std::fs::write(&path, r#"{"peers":[{"uid":4001}]}"#).unwrap();
        let source = PolicySource {
            file: Some(path.clone()),
            max_bundles: BundleSet::all(),
            read_only: false,
            lockdown: false,
            api_key_mode: true,
        };
        let live = LivePolicy::new(source.clone(), source.load().unwrap());
        let before = live.current();
        assert!(before.decide(cred(4001), None, &[], None).is_ok());

        std::fs::write(&path, r#"{"peers":[{"uid":4002,"read_only":true}]}"#).unwrap();
        live.reload().unwrap();
        let after = live.current();
        assert!(after.decide(cred(4001), None, &[], None).is_err());
        assert!(after.decide(cred(4002), None, &[], None).unwrap().read_only);
        // What a session took before the reload is unchanged.
        assert!(before.decide(cred(4001), None, &[], None).is_ok());

        std::fs::write(&path, r#"{"peers":[{"uid":"x"}]}"#).unwrap();
        let err = live.reload().unwrap_err().to_string();
        assert!(err.contains("policy.json"), "{err}");
        assert!(live.current().decide(cred(4002), None, &[], None).is_ok());
    }
}
