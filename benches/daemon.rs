//! Daemon figures: time to serve, session setup, tools/list and a read call
//! through the real shim, and the daemon's memory. Prints medians and ratios
//! (the machines are shared and noisy: compare runs, not absolute numbers).
//!
//!     cargo bench --bench daemon
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: see clippy.toml

#[path = "../tests/harness/mod.rs"]
mod harness;
#[path = "../tests/support/mod.rs"]
mod support;

use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::UnixStream;
use std::time::{Duration, Instant};

use harness::{Daemon, DaemonOpts};
use support::fake_ombi::{API_KEY, FakeOmbi, Options};

const SESSIONS: usize = 200;
const CALLS: usize = 300;

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn rss_kib(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with(field))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

/// A raw MCP session on the socket (no shim): initialize + initialized.
fn session(socket: &std::path::Path) -> (UnixStream, BufReader<UnixStream>) {
    let mut s = UnixStream::connect(socket).unwrap();
    let r = BufReader::new(s.try_clone().unwrap());
    writeln!(s, "{}", harness::INITIALIZE).unwrap();
    let mut r = r;
    let mut line = String::new();
    r.read_line(&mut line).unwrap();
    writeln!(
        s,
        r#"{{"jsonrpc":"2.0","method":"notifications/initialized"}}"#
    )
    .unwrap();
    (s, r)
}

fn request(s: &mut UnixStream, r: &mut BufReader<UnixStream>, body: &str) -> usize {
    writeln!(s, "{body}").unwrap();
    let mut line = String::new();
    r.read_line(&mut line).unwrap();
    line.len()
}

fn main() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let fake = rt.block_on(FakeOmbi::start(Options::default()));
    let env = vec![
        ("OMBI_URL".to_string(), fake.url.clone()),
        ("OMBI_AUTH_MODE".to_string(), "api_key".to_string()),
        ("OMBI_API_KEY".to_string(), API_KEY.to_string()),
        (
            "OMBI_BUNDLES".to_string(),
            "core,moderation,administration".to_string(),
        ),
    ];

    let t = Instant::now();
    let d = Daemon::start(DaemonOpts {
        env,
        ..DaemonOpts::default()
    });
    while !d.connectable() {
        std::thread::sleep(Duration::from_millis(1));
    }
    let start_to_serve = t.elapsed();
    let pid = d.child.id();
    let idle_rss = rss_kib(pid, "VmRSS:");

    // Session setup: connect + initialize, one after the other.
    let mut setup = Vec::new();
    for _ in 0..SESSIONS {
        let t = Instant::now();
        drop(session(&d.socket));
        setup.push(t.elapsed());
    }

    // tools/list and a cheap read call on one session.
    let (mut s, mut r) = session(&d.socket);
    let mut list = Vec::new();
    let mut list_bytes = 0;
    for i in 0..CALLS {
        let t = Instant::now();
        list_bytes = request(
            &mut s,
            &mut r,
            &format!(
                r#"{{"jsonrpc":"2.0","id":{},"method":"tools/list"}}"#,
                i + 10
            ),
        );
        list.push(t.elapsed());
    }
    let mut calls = Vec::new();
    for i in 0..CALLS {
        let t = Instant::now();
        request(
            &mut s,
            &mut r,
            &format!(
                r#"{{"jsonrpc":"2.0","id":{},"method":"tools/call","params":{{"name":"read_server","arguments":{{"action":"status"}}}}}}"#,
                i + 1000
            ),
        );
        calls.push(t.elapsed());
    }

    // Memory with 50 idle sessions open.
    let open: Vec<_> = (0..50).map(|_| session(&d.socket)).collect();
    let rss_50 = rss_kib(pid, "VmRSS:");
    drop(open);
    let hwm = rss_kib(pid, "VmHWM:");

    let size = |p: &str| std::fs::metadata(p).map(|m| m.len() / 1024).unwrap_or(0);
    println!("daemon bench ({SESSIONS} sessions, {CALLS} calls each)");
    println!("  start to serving socket:        {:>8.2?}", start_to_serve);
    println!(
        "  session setup (connect+init):   median {:>8.2?}",
        median(setup)
    );
    println!(
        "  tools/list ({list_bytes} bytes):     median {:>8.2?}",
        median(list)
    );
    println!(
        "  read_server status (fake Ombi): median {:>8.2?}",
        median(calls)
    );
    println!(
        "  RSS idle {idle_rss} KiB; with 50 open sessions {rss_50} KiB ({:.1} KiB/session); peak {hwm} KiB",
        (rss_50.saturating_sub(idle_rss)) as f64 / 50.0
    );
    println!(
        "  binaries: ombi-mcpd {} KiB, ombi-mcp (shim) {} KiB",
        size(harness::DAEMON),
        size(harness::SHIM)
    );
}
