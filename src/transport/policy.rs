//! Peer policy: who may connect, and what each peer may see.

use crate::catalogue::BundleSet;

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
            rule: "local".into(),
        }
    }
}
