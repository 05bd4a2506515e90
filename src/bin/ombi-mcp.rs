//! `ombi-mcp`: the stdio shim. MCP clients start it as a stdio server; it
//! connects to the daemon's Unix socket and copies bytes both ways. It links
//! std only: no async runtime, no MCP or HTTP library. Nothing but the
//! daemon's bytes ever reaches stdout; every failure is one line on stderr.
//! Beside std it uses `libc`'s declaration of `getsockopt` alone: before
//! forwarding a byte it checks who holds the socket's server end
//! (`SO_PEERCRED`, which std keeps unstable), so a socket planted at the
//! path by another user never hears the conversation.

use std::io::{self, ErrorKind, Read, Write};
use std::net::Shutdown;
use std::os::fd::AsRawFd;
use std::os::unix::fs::MetadataExt;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread;

const DEFAULT_SOCKET: &str = "/run/ombi-mcp/mcp.sock";
// sysexits.h codes, documented in docs/troubleshooting.md.
const EXIT_USAGE: u8 = 64;
const EXIT_UNAVAILABLE: u8 = 69;
const EXIT_IOERR: u8 = 74;
const EXIT_NOPERM: u8 = 77;

const HELP: &str = "\
ombi-mcp — stdio bridge from an MCP client to the ombi-mcpd daemon

USAGE:
    ombi-mcp [--socket PATH]

Start this from your MCP client (Claude Desktop, Claude Code, VS Code, the
MCP Inspector) as a stdio server. It connects to the daemon's Unix socket and
forwards the MCP conversation both ways.

OPTIONS:
    --socket PATH   Daemon socket (default: $OMBI_MCP_SOCKET, else /run/ombi-mcp/mcp.sock)
    -h, --help      Print this help
    -V, --version   Print the version

EXIT STATUS:
    0 the client closed the session, 69 no daemon on the socket,
    77 not permitted (socket permissions, the daemon's peer policy or its
       per-user session limit, or the socket is not the daemon's),
    74 the daemon dropped the session, 64 usage error.
";

fn main() -> ExitCode {
    let socket = match parse_args() {
        Ok(Some(path)) => path,
        Ok(None) => return ExitCode::SUCCESS,
        Err(msg) => return fail(EXIT_USAGE, &msg),
    };
    let stream = match UnixStream::connect(&socket) {
        Ok(s) => s,
        Err(e) => return connect_failure(&socket, &e),
    };
    match server_uid(&stream) {
        Ok(server) if trusted_server(server, &socket) => {}
        Ok(server) => {
            return fail(
                EXIT_NOPERM,
                &format!(
                    "{} is held by uid {server}, which is not the daemon's: not root (a socket-activated daemon), not you (uid {}), and not the sole owner of the socket's directory; nothing was sent. Check the path (--socket, OMBI_MCP_SOCKET).",
                    socket.display(),
                    uid()
                ),
            );
        }
        Err(e) => {
            return fail(
                EXIT_IOERR,
                &format!(
                    "{}: cannot read who holds the socket: {e}",
                    socket.display()
                ),
            );
        }
    }
    forward(stream, &socket)
}

fn parse_args() -> Result<Option<PathBuf>, String> {
    let mut socket = None;
    let mut args = std::env::args_os().skip(1);
    while let Some(arg) = args.next() {
        match arg.to_str() {
            Some("-h" | "--help") => {
                // Help goes to stderr too: stdout is reserved for MCP bytes.
                eprint!("{HELP}");
                return Ok(None);
            }
            Some("-V" | "--version") => {
                eprintln!("ombi-mcp {}", env!("CARGO_PKG_VERSION"));
                return Ok(None);
            }
            Some("--socket") => {
                socket = Some(PathBuf::from(args.next().ok_or("--socket needs a path")?))
            }
            Some(s) if s.starts_with("--socket=") => {
                socket = Some(PathBuf::from(&s["--socket=".len()..]))
            }
            _ => return Err(format!("unknown argument {arg:?}; see --help")),
        }
    }
    Ok(Some(socket.unwrap_or_else(|| {
        std::env::var_os("OMBI_MCP_SOCKET")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from(DEFAULT_SOCKET))
    })))
}

fn fail(code: u8, msg: &str) -> ExitCode {
    eprintln!("ombi-mcp: {msg}");
    ExitCode::from(code)
}

/// Our effective uid.
fn uid() -> u32 {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() }
}

/// The uid of the process holding the socket's server end: the one that
/// called `listen` (systemd for a socket-activated daemon).
fn server_uid(stream: &UnixStream) -> io::Result<u32> {
    let mut cred = libc::ucred {
        pid: 0,
        uid: 0,
        gid: 0,
    };
    let mut len = std::mem::size_of::<libc::ucred>() as libc::socklen_t;
    // SAFETY: a valid socket fd, and a buffer of the size passed.
    let rc = unsafe {
        libc::getsockopt(
            stream.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_PEERCRED,
            (&mut cred as *mut libc::ucred).cast(),
            &mut len,
        )
    };
    if rc != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(cred.uid)
}

/// Whether `server` may be the daemon: root (systemd holds a socket-activated
/// listener), ourselves, or the owner of the socket's directory when no one
/// else can write there (then only that owner could have put a socket in it).
fn trusted_server(server: u32, socket: &Path) -> bool {
    if server == 0 || server == uid() {
        return true;
    }
    let dir = match socket.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    std::fs::metadata(dir).is_ok_and(|m| m.uid() == server && m.mode() & 0o022 == 0)
}

fn connect_failure(socket: &std::path::Path, e: &io::Error) -> ExitCode {
    let s = socket.display();
    match e.kind() {
        ErrorKind::NotFound => fail(
            EXIT_UNAVAILABLE,
            &format!(
                "cannot connect to {s}: no such socket; is ombi-mcpd running (systemctl status ombi-mcp.socket)? Set --socket or OMBI_MCP_SOCKET to point elsewhere."
            ),
        ),
        ErrorKind::ConnectionRefused => fail(
            EXIT_UNAVAILABLE,
            &format!(
                "cannot connect to {s}: connection refused; the socket exists but no daemon is listening (start ombi-mcpd or the ombi-mcp.socket unit)."
            ),
        ),
        ErrorKind::PermissionDenied => fail(
            EXIT_NOPERM,
            &format!(
                "cannot connect to {s}: permission denied for uid {}; join the socket's group (ls -l {s}) or ask the administrator to allow you.",
                uid()
            ),
        ),
        _ => fail(EXIT_UNAVAILABLE, &format!("cannot connect to {s}: {e}")),
    }
}

/// Copies stdin→socket on a thread and socket→stdout here, then decides how
/// the session ended.
fn forward(stream: UnixStream, socket: &std::path::Path) -> ExitCode {
    let sent = Arc::new(AtomicU64::new(0));
    let stdin_done = Arc::new(AtomicBool::new(false));
    let mut to_daemon = match stream.try_clone() {
        Ok(s) => s,
        Err(e) => return fail(EXIT_IOERR, &format!("{}: {e}", socket.display())),
    };
    {
        let (sent, stdin_done) = (sent.clone(), stdin_done.clone());
        thread::spawn(move || {
            let mut stdin = io::stdin().lock();
            let mut buf = vec![0u8; 64 * 1024];
            loop {
                match stdin.read(&mut buf) {
                    Ok(0) => break,
                    Ok(n) => {
                        if to_daemon.write_all(&buf[..n]).is_err() {
                            // The daemon went away; the reader below reports it.
                            return;
                        }
                        sent.fetch_add(n as u64, Ordering::SeqCst);
                    }
                    Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                    Err(_) => break,
                }
            }
            // Half-close: the daemon sees EOF, finishes its replies, then closes.
            stdin_done.store(true, Ordering::SeqCst);
            let _ = to_daemon.shutdown(Shutdown::Write);
        });
    }

    let mut from_daemon = stream;
    let mut stdout = io::stdout().lock();
    let mut buf = vec![0u8; 64 * 1024];
    let mut received: u64 = 0;
    let ended_with = loop {
        match from_daemon.read(&mut buf) {
            Ok(0) => break None,
            Ok(n) => {
                received += n as u64;
                if stdout
                    .write_all(&buf[..n])
                    .and_then(|_| stdout.flush())
                    .is_err()
                {
                    // The MCP client closed our stdout: it is gone, nothing to report to.
                    return ExitCode::SUCCESS;
                }
            }
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            // A reset is how a close with unread data arrives: same as EOF.
            Err(e) if e.kind() == ErrorKind::ConnectionReset => break None,
            Err(e) => break Some(e),
        }
    };
    let s = socket.display();
    if let Some(e) = ended_with {
        return fail(
            EXIT_IOERR,
            &format!("lost the connection to the daemon at {s}: {e}"),
        );
    }
    let client_done = stdin_done.load(Ordering::SeqCst);
    // A refused peer is closed right after accept, often before the client
    // has written anything: no byte ever came back, and the client had not
    // simply ended an empty session.
    if received == 0 && !(client_done && sent.load(Ordering::SeqCst) == 0) {
        return fail(
            EXIT_NOPERM,
            &format!(
                "the daemon at {s} closed the connection before answering: it refused this user (uid {}) by its peer policy, or because this user already holds 16 sessions (the per-user limit: close other MCP clients), or it is stopping; see OMBI_MCP_POLICY and the daemon's log (journalctl -u ombi-mcp).",
                uid()
            ),
        );
    }
    if client_done {
        return ExitCode::SUCCESS;
    }
    fail(
        EXIT_IOERR,
        &format!(
            "the daemon at {s} closed the connection mid-session (it stopped or restarted); restart this MCP server in your client."
        ),
    )
}
