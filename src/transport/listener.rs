//! The listening socket: inherited from systemd socket activation, or bound
//! here when the daemon is run by hand.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::os::unix::net::{UnixListener as StdUnixListener, UnixStream as StdUnixStream};
use std::path::{Path, PathBuf};

use nix::sys::socket::{
    AddressFamily, SockType, SockaddrLike, SockaddrStorage, getsockname, getsockopt, sockopt,
};
use nix::sys::stat::{Mode, umask};

/// Name systemd gives our fd (`FileDescriptorName=mcp`).
pub const FD_NAME: &str = "mcp";
/// Mode of a self-bound socket: owner and group may connect.
pub const SOCKET_MODE: u32 = 0o660;

/// Why no listener could be had. `Display` is one line for the user.
#[derive(Debug)]
pub enum ListenError {
    /// A live daemon already answers on the path.
    InUse(PathBuf),
    /// The path exists and is not a socket: never delete what we did not make.
    NotASocket(PathBuf),
    Io {
        what: String,
        path: PathBuf,
        err: io::Error,
    },
    Activation(String),
}

impl std::fmt::Display for ListenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ListenError::InUse(p) => write!(
                f,
                "another ombi-mcpd is already listening on {}; stop it first or choose another --socket",
                p.display()
            ),
            ListenError::NotASocket(p) => write!(
                f,
                "{} exists and is not a socket; remove it or choose another --socket",
                p.display()
            ),
            ListenError::Io { what, path, err } => {
                write!(f, "cannot {what} {}: {err}", path.display())?;
                if err.kind() == io::ErrorKind::PermissionDenied {
                    write!(f, "; choose a writable --socket path (or OMBI_MCP_SOCKET)")?;
                }
                Ok(())
            }
            ListenError::Activation(m) => write!(f, "socket activation: {m}"),
        }
    }
}

impl std::error::Error for ListenError {}

/// A listening socket, and the path to remove on shutdown if we bound it.
pub struct Listener {
    pub std: StdUnixListener,
    /// Removes the socket file on shutdown when this process bound it.
    pub guard: SocketGuard,
    /// Human description for logs and STATUS=.
    pub description: String,
}

/// The socket path this process bound, if any.
pub struct SocketGuard {
    bound: Option<BoundPath>,
}

struct BoundPath {
    path: PathBuf,
    dev: u64,
    ino: u64,
}

/// Takes the sockets systemd passed, if any, and clears `LISTEN_*`.
///
/// # Safety
/// Must run before any other thread exists (it edits the environment).
pub unsafe fn take_activated() -> Result<Option<Listener>, ListenError> {
    // SAFETY: forwarded from the caller: single-threaded.
    let fds = unsafe { sd_notify::listen_fds_with_names_and_unset_env() }
        .map_err(|e| ListenError::Activation(e.to_string()))?;
    let fds: Vec<(RawFd, String)> = fds.collect();
    if fds.is_empty() {
        return Ok(None);
    }
    // Prefer the fd named `mcp`; a single unnamed fd (`unknown`, as
    // systemd-socket-activate without --fdname passes) is accepted too.
    let chosen = fds
        .iter()
        .find(|(_, name)| name == FD_NAME)
        .or_else(|| (fds.len() == 1).then(|| &fds[0]))
        .ok_or_else(|| {
            let names: Vec<&str> = fds.iter().map(|(_, n)| n.as_str()).collect();
            ListenError::Activation(format!(
                "systemd passed {} sockets ({}) and none is named {FD_NAME:?}; set FileDescriptorName={FD_NAME}",
                fds.len(),
                names.join(", ")
            ))
        })?;
    // SAFETY: systemd hands these fds to us and nothing else owns them.
    let owned: Vec<OwnedFd> = fds
        .iter()
        .map(|(fd, _)| unsafe { OwnedFd::from_raw_fd(*fd) })
        .collect();
    // The others are closed as they drop.
    let fd = owned
        .into_iter()
        .find(|fd| fd.as_raw_fd() == chosen.0)
        .ok_or_else(|| ListenError::Activation("the chosen socket vanished".into()))?;
    check_unix_listener(&fd)?;
    let std = StdUnixListener::from(fd);
    std.set_nonblocking(true).map_err(|e| {
        ListenError::Activation(format!("cannot make the socket non-blocking: {e}"))
    })?;
    let description = match std
        .local_addr()
        .ok()
        .and_then(|a| a.as_pathname().map(Path::to_path_buf))
    {
        Some(p) => format!("{} (socket-activated)", p.display()),
        None => "socket-activated listener".to_string(),
    };
    Ok(Some(Listener {
        std,
        guard: SocketGuard { bound: None },
        description,
    }))
}

/// The inherited fd must be a listening AF_UNIX stream socket.
fn check_unix_listener(fd: &OwnedFd) -> Result<(), ListenError> {
    let bad = |m: String| ListenError::Activation(m);
    let ty = getsockopt(fd, sockopt::SockType)
        .map_err(|e| bad(format!("passed fd is not a socket: {e}")))?;
    if ty != SockType::Stream {
        return Err(bad(
            "passed socket is not a stream socket (use ListenStream=)".into(),
        ));
    }
    let listening = getsockopt(fd, sockopt::AcceptConn).map_err(|e| bad(e.to_string()))?;
    if !listening {
        return Err(bad(
            "passed socket is not listening (Accept=no is required)".into(),
        ));
    }
    let addr: SockaddrStorage = getsockname(fd.as_raw_fd()).map_err(|e| bad(e.to_string()))?;
    if addr.family() != Some(AddressFamily::Unix) {
        return Err(bad(
            "passed socket is not a Unix socket (ListenStream= must be a path)".into(),
        ));
    }
    Ok(())
}

/// Binds `path` ourselves: refuses if a live daemon answers there, removes a
/// stale socket, creates the socket with mode 0660.
pub fn bind(path: &Path) -> Result<Listener, ListenError> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_socket() => match StdUnixStream::connect(path) {
            Ok(_) => return Err(ListenError::InUse(path.to_path_buf())),
            Err(_) => std::fs::remove_file(path).map_err(|err| ListenError::Io {
                what: "remove the stale socket".into(),
                path: path.to_path_buf(),
                err,
            })?,
        },
        Ok(_) => return Err(ListenError::NotASocket(path.to_path_buf())),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(err) => {
            return Err(ListenError::Io {
                what: "inspect".into(),
                path: path.to_path_buf(),
                err,
            });
        }
    }
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty())
        && !dir.exists()
    {
        std::fs::create_dir_all(dir).map_err(|err| ListenError::Io {
            what: "create the socket directory".into(),
            path: dir.to_path_buf(),
            err,
        })?;
    }
    // Bind and listen under a temporary name, then rename into place: the
    // path appears only once the socket is listening, so a client that waits
    // for the file is never refused (bind() creates the file before listen()).
    let staging = staging_path(path);
    let _ = std::fs::remove_file(&staging);
    let io_err = |what: &str, err| ListenError::Io {
        what: what.into(),
        path: path.to_path_buf(),
        err,
    };
    // umask before bind so the socket never exists with a wider mode; the
    // daemon is single-threaded here (bind runs before the runtime starts).
    let old = umask(Mode::from_bits_truncate(0o177));
    let bound = StdUnixListener::bind(&staging);
    umask(old);
    let std = bound.map_err(|err| io_err("bind", err))?;
    let placed = std::fs::set_permissions(&staging, std::fs::Permissions::from_mode(SOCKET_MODE))
        .map_err(|err| io_err("chmod", err))
        .and_then(|()| {
            std.set_nonblocking(true)
                .map_err(|err| io_err("configure", err))
        })
        .and_then(|()| {
            std::fs::rename(&staging, path).map_err(|err| io_err("place the socket at", err))
        });
    if let Err(e) = placed {
        let _ = std::fs::remove_file(&staging);
        return Err(e);
    }
    let meta = std::fs::metadata(path).map_err(|err| ListenError::Io {
        what: "inspect".into(),
        path: path.to_path_buf(),
        err,
    })?;
    Ok(Listener {
        std,
        guard: SocketGuard {
            bound: Some(BoundPath {
                path: path.to_path_buf(),
                dev: meta.dev(),
                ino: meta.ino(),
            }),
        },
        description: path.display().to_string(),
    })
}

/// `dir/.name.PID.tmp`: beside the final path (rename stays on one filesystem).
fn staging_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.{}.tmp", std::process::id()))
}

impl SocketGuard {
    /// Removes the socket file if this process bound it and it is still ours
    /// (another daemon may have replaced it meanwhile).
    pub fn cleanup(&self) {
        if let Some(b) = &self.bound
            && let Ok(meta) = std::fs::symlink_metadata(&b.path)
            && meta.dev() == b.dev
            && meta.ino() == b.ino
        {
            let _ = std::fs::remove_file(&b.path);
        }
    }

    pub fn owns_path(&self) -> bool {
        self.bound.is_some()
    }
}
