//! Connections that misbehave: bursts of half-finished handshakes, silent
//! peers, a thousand connects and disconnects (some mid-request), and the
//! daemon killed mid-call under socket activation.
//! `OMBI_MCP_SOAK=1` runs ten times as many cycles.

use std::io::{BufRead, BufReader, Read, Write};
use std::os::fd::{AsFd, AsRawFd, BorrowedFd};
use std::os::unix::net::{UnixListener, UnixStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::harness::*;
use crate::support::fake_ombi::{API_KEY, FakeOmbi, Fault, Options};

fn env_with(extra: &[(&str, &str)]) -> Vec<(String, String)> {
    let mut env = offline_env();
    env.extend(extra.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    env
}

/// A whole MCP session through the shim: initialize and tools/list.
fn session_works(socket: &Path) {
    let run = run_shim(
        socket,
        &format!(
            "{INITIALIZE}\n{{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}}\n{{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}}\n"
        ),
        None,
        Duration::from_millis(500),
    );
    assert!(
        run.stdout.contains("serverInfo") && run.stdout.contains("read_search"),
        "exit {:?}; stderr: {}",
        run.status,
        run.stderr
    );
}

/// Waits until `cond` holds (polling), up to `limit`.
fn eventually(limit: Duration, mut cond: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + limit;
    loop {
        if cond() {
            return true;
        }
        if Instant::now() > deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn a_burst_of_half_initializes_then_closes_never_locks_out_a_real_session() {
    let cycles = if soak() { 3_000 } else { 300 };
    let d = Daemon::start(DaemonOpts::default());
    for _ in 0..cycles {
        let mut s = UnixStream::connect(&d.socket).unwrap();
        let _ = s.write_all(HALF_INITIALIZE.as_bytes());
    }
    session_works(&d.socket);
    let logs = d.logs();
    assert!(!logs.contains("refused a connection"), "{logs}");
    // Every one of them ended, none holds a slot.
    assert!(
        eventually(Duration::from_secs(10), || d
            .logs()
            .matches("session ended before initialization")
            .count()
            >= cycles),
        "{}",
        d.logs()
    );
}

#[test]
fn silent_and_half_open_connections_time_out_and_give_their_slot_back() {
    let d = Daemon::start(DaemonOpts {
        env: env_with(&[("OMBI_MCP_INIT_TIMEOUT", "2")]),
        ..DaemonOpts::default()
    });
    // An initialized session idles longer than the timeout and stays open.
    let mut live = Raw::connect(&d.socket);
    live.initialize();
    // Every other slot taken by peers that never finish `initialize`.
    let started = Instant::now();
    let mut silent: Vec<UnixStream> = (0..63)
        .map(|i| {
            let mut s = UnixStream::connect(&d.socket).unwrap();
            if i % 2 == 0 {
                s.write_all(HALF_INITIALIZE.as_bytes()).unwrap();
            }
            s
        })
        .collect();
    // A real client arriving now waits for a slot instead of being refused.
    session_works(&d.socket);
    assert!(
        started.elapsed() >= Duration::from_millis(1900),
        "served before any slot was free: {:?}",
        started.elapsed()
    );
    for s in &mut silent {
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        let mut buf = [0u8; 64];
        let n = s
            .read(&mut buf)
            .expect("closed by the daemon, not left open");
        assert_eq!(n, 0, "a silent peer gets nothing but EOF");
    }
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    live.send(r#"{"jsonrpc":"2.0","id":"still","method":"ping"}"#);
    assert_eq!(live.recv().expect("the live session")["id"], "still");
    let logs = d.logs();
    assert!(logs.contains("did not initialize in time"), "{logs}");
}

/// What one client of the flood does.
fn misbehave(socket: &Path, i: usize) {
    let Ok(mut s) = UnixStream::connect(socket) else {
        panic!("connect {i} refused");
    };
    let call = r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read_reference","arguments":{"action":"languages"}}}"#;
    match i % 5 {
        // Connect and go.
        0 => {}
        // Half a frame, then go.
        1 => {
            let _ = s.write_all(HALF_INITIALIZE.as_bytes());
        }
        // A full handshake, then go without reading.
        2 => {
            let _ = writeln!(s, "{INITIALIZE}");
        }
        // Go mid-request: a call in flight (Ombi refuses; the one retry
        // keeps it busy ~200 ms) when the connection closes.
        3 => {
            let _ = writeln!(
                s,
                "{INITIALIZE}\n{{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}}\n{call}"
            );
            let mut first = String::new();
            let _ = BufReader::new(&s).read_line(&mut first);
        }
        // Half-close after a call: the answer still comes back.
        _ => {
            let _ = writeln!(
                s,
                "{INITIALIZE}\n{{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}}\n{call}"
            );
            let _ = s.shutdown(std::net::Shutdown::Write);
            let mut all = String::new();
            let _ = s.read_to_string(&mut all);
            assert!(
                all.contains(r#""id":2"#),
                "the call was not answered: {all}"
            );
        }
    }
}

#[test]
fn a_thousand_connects_and_disconnects_leak_no_descriptor_or_thread() {
    let total = if soak() { 10_000 } else { 1_000 };
    let d = Daemon::start(DaemonOpts::default());
    let pid = d.child.id();
    let at_start = proc_stats(pid);
    // Descriptors opened lazily by a first session are not a leak.
    session_works(&d.socket);
    let baseline = proc_stats(pid);
    let workers = 8;
    let threads: Vec<_> = (0..workers)
        .map(|w| {
            let socket = d.socket.clone();
            std::thread::spawn(move || {
                for i in (w..total).step_by(workers) {
                    misbehave(&socket, i);
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    let peak = proc_stats(pid);
    // Sessions closed mid-call drain (up to 5 s); idle blocking threads
    // (user-database lookups) exit after 10 s.
    let settled = eventually(Duration::from_secs(30), || {
        let now = proc_stats(pid);
        now.fds <= baseline.fds && now.threads <= at_start.threads
    });
    let end = proc_stats(pid);
    eprintln!(
        "fds {} at start, {} after one session, {} right after {total} connections, {} settled; \
         threads {} / {} / {} / {}; VmRSS {} / {} / {} / {} KiB",
        at_start.fds,
        baseline.fds,
        peak.fds,
        end.fds,
        at_start.threads,
        baseline.threads,
        peak.threads,
        end.threads,
        at_start.rss_kib,
        baseline.rss_kib,
        peak.rss_kib,
        end.rss_kib
    );
    assert!(settled, "descriptors or threads left behind");
    session_works(&d.socket);
}

/// A stand-in for a systemd socket unit: it holds the listening socket for
/// the daemon's whole life, passes it as fd 3 (`LISTEN_FDS`, `LISTEN_PID`,
/// `LISTEN_FDNAMES`) and starts the daemon whenever a connection waits and
/// no daemon runs, so a connection made while the daemon is dead is queued,
/// not refused. (`systemd-socket-activate` cannot show this: it execs the
/// daemon in its own place, so the listener dies with it.)
struct SocketUnit {
    path: PathBuf,
    state: Arc<Mutex<UnitState>>,
    _dir: tempfile::TempDir,
}

struct UnitState {
    current: Option<Child>,
    pids: Vec<u32>,
    stop: bool,
}

impl SocketUnit {
    fn start(env: Vec<(String, String)>) -> SocketUnit {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("mcp.sock");
        let listener = UnixListener::bind(&path).unwrap();
        let log = dir.path().join("daemon.log");
        let state = Arc::new(Mutex::new(UnitState {
            current: None,
            pids: Vec::new(),
            stop: false,
        }));
        let watch = state.clone();
        std::thread::spawn(move || {
            use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
            loop {
                let mut fds = [PollFd::new(listener.as_fd(), PollFlags::POLLIN)];
                let ready = poll(&mut fds, PollTimeout::from(50u16)).unwrap_or(0) > 0;
                let mut st = watch.lock().unwrap();
                if st.stop {
                    return;
                }
                let running = st
                    .current
                    .as_mut()
                    .is_some_and(|c| c.try_wait().unwrap().is_none());
                if ready && !running {
                    let child = spawn_activated(&listener, &env, &log);
                    st.pids.push(child.id());
                    st.current = Some(child);
                }
            }
        });
        SocketUnit {
            path,
            state,
            _dir: dir,
        }
    }

    fn pids(&self) -> Vec<u32> {
        self.state.lock().unwrap().pids.clone()
    }

    fn kill_current(&self) {
        let mut st = self.state.lock().unwrap();
        let child = st.current.as_mut().expect("a daemon runs");
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
    }
}

impl Drop for SocketUnit {
    fn drop(&mut self) {
        let mut st = self.state.lock().unwrap();
        st.stop = true;
        if let Some(c) = st.current.as_mut() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

fn spawn_activated(listener: &UnixListener, env: &[(String, String)], log: &Path) -> Child {
    let fd = listener.as_raw_fd();
    let mut cmd = Command::new("/bin/sh");
    // `exec` keeps the shell's pid, so LISTEN_PID names the daemon.
    cmd.arg("-c")
        .arg("export LISTEN_PID=$$; exec \"$0\"")
        .arg(DAEMON)
        .env("LISTEN_FDS", "1")
        .env("LISTEN_FDNAMES", "mcp")
        .env("RUST_LOG", "info,rmcp=warn")
        .env_remove("NOTIFY_SOCKET")
        .envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .stdin(Stdio::null())
        .stdout(
            std::fs::File::options()
                .create(true)
                .append(true)
                .open(log)
                .unwrap(),
        )
        .stderr(
            std::fs::File::options()
                .create(true)
                .append(true)
                .open(log)
                .unwrap(),
        );
    // SAFETY: only async-signal-safe calls (dup2, fcntl) between fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            use nix::fcntl::{FcntlArg, FdFlag, fcntl};
            let listening = BorrowedFd::borrow_raw(fd);
            let fd3 = nix::unistd::dup2_raw(listening, 3)?;
            fcntl(&fd3, FcntlArg::F_SETFD(FdFlag::empty()))?;
            std::mem::forget(fd3);
            Ok(())
        });
    }
    cmd.spawn().expect("start the daemon")
}

/// A write is the call whose interruption matters: Ombi applied it, nobody
/// saw the answer. The killed daemon's successor must not send it again.
#[test]
fn killed_mid_write_the_shim_fails_in_one_line_the_next_connection_gets_a_fresh_daemon_and_the_write_is_not_replayed()
 {
    const ROUTE: &str = "/api/v1/Request/movie";
    const TMDB: i64 = 27205;
    let ombi = FakeOmbi::start_detached(Options::default());
    // The write is applied by Ombi, whose answer never comes: the daemon is
    // killed while it waits.
    ombi.add_fault(Fault::on("POST", ROUTE).apply_then_hang().times(1));
    let unit = SocketUnit::start(vec![
        ("OMBI_URL".into(), ombi.url.clone()),
        ("OMBI_AUTH_MODE".into(), "api_key".into()),
        ("OMBI_API_KEY".into(), API_KEY.into()),
        ("OMBI_USER_NAME".into(), "alice".into()),
    ]);
    let create = format!(
        r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"name":"write_request_create","arguments":{{"action":"movie","tmdb_id":{TMDB}}}}}}}"#
    );
    let read = r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"read_requests","arguments":{"action":"list","media":"movie","page":{"limit":100}}}}"#;
    let mut shim = spawn_shim(&unit.path);
    let mut stdin = shim.stdin.take().unwrap();
    writeln!(
        stdin,
        "{INITIALIZE}\n{{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}}\n{create}"
    )
    .unwrap();
    let mut stdout = BufReader::new(shim.stdout.take().unwrap());
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    assert!(line.contains("serverInfo"), "{line}");
    assert!(
        eventually(Duration::from_secs(10), || ombi.hits("POST", ROUTE) == 1),
        "the write never reached Ombi"
    );
    let first = unit.pids();
    assert_eq!(first.len(), 1);
    unit.kill_current();

    let mut rest = String::new();
    stdout.read_to_string(&mut rest).unwrap();
    let run = wait_output(shim, Duration::from_secs(10));
    drop(stdin);
    assert!(
        rest.is_empty(),
        "no answer to the interrupted write: {rest}"
    );
    assert_eq!(run.status.code(), Some(74), "{}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(run.stderr.contains("mid-session"), "{}", run.stderr);

    // The next connection starts a fresh daemon, which serves it.
    let run = run_shim(
        &unit.path,
        &format!(
            "{INITIALIZE}\n{{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}}\n{read}\n"
        ),
        None,
        Duration::from_millis(1500),
    );
    assert_eq!(run.status.code(), Some(0), "{}", run.stderr);
    let answered = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|r| r["id"] == 3)
        .unwrap_or_else(|| panic!("no answer from the fresh daemon: {}", run.stdout));
    let envelope = &answered["result"]["structuredContent"];
    assert_eq!(envelope["ok"], true, "{answered}");
    // Ombi applied the write once, and the fresh daemon reads it back.
    let requested = envelope["data"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| {
            r["identifiers"].as_array().unwrap().iter().any(|i| {
                i["namespace"] == "tmdb" && i["value"] == serde_json::json!(TMDB.to_string())
            })
        })
        .count();
    assert_eq!(requested, 1, "{envelope}");
    let pids = unit.pids();
    assert_eq!(pids.len(), 2, "one fresh daemon");
    assert_ne!(pids[0], pids[1]);
    // The interrupted write was not replayed by anyone.
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(ombi.hits("POST", ROUTE), 1);
}
