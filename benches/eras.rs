//! `cargo bench --bench eras`: the two protocol eras side by side
//! (docs/performance.md, "Protocol eras"). Against the fake Ombi, the real
//! `ombi-mcpd` on its real Unix socket (the shim only copies bytes, the same
//! in both eras, so it is left out here):
//! - cold start to the first answer: a socket-activated daemon not yet
//!   running, connect → the first `tools/call` result. 2025-11-25 sends
//!   `initialize` (and `notifications/initialized`) first; 2026-07-28 sends
//!   the call at once, its version and capabilities in `_meta`;
//! - a small call's latency on a warm connection in each era, and the
//!   direct keep-alive HTTP GET of its Ombi route it is compared with.
//!
//! Medians of interleaved runs; the machine is shared: compare the eras
//! within one run, not runs.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: see clippy.toml

#[path = "../tests/it/harness/mod.rs"]
mod harness;
#[path = "../tests/it/support/mod.rs"]
mod support;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::time::{Duration, Instant};

use harness::{Daemon, DaemonOpts, INITIALIZE};
use serde_json::Value;
use support::fake_ombi::{API_KEY, FakeOmbi, Options};

const COLD_RUNS: usize = 15;
const ROUNDS: usize = 5;
const CALLS: usize = 200;
const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
const GENRES_ROUTE: &str = "/api/v2/Search/Genres/movie";

/// The small read: `read_reference genres`, in `era`.
fn call(id: usize, modern: bool) -> String {
    let meta = if modern {
        r#","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1"}}"#
    } else {
        ""
    };
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"read_reference","arguments":{{"action":"genres","media":"movie"}}{meta}}}}}"#
    )
}

struct Conn {
    w: UnixStream,
    r: BufReader<UnixStream>,
    line: String,
}

impl Conn {
    fn open(socket: &Path) -> Conn {
        let s = UnixStream::connect(socket).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        Conn {
            r: BufReader::new(s.try_clone().unwrap()),
            w: s,
            line: String::new(),
        }
    }

    fn send(&mut self, line: &str) {
        self.w.write_all(line.as_bytes()).unwrap();
        self.w.write_all(b"\n").unwrap();
    }

    fn call(&mut self, line: &str) -> &str {
        self.send(line);
        self.line.clear();
        self.r.read_line(&mut self.line).unwrap();
        &self.line
    }

    /// The era's opening: `initialize` on 2025-11-25, nothing on 2026-07-28.
    fn open_era(&mut self, modern: bool) {
        if !modern {
            let reply = self.call(INITIALIZE);
            assert!(reply.contains("serverInfo"), "{reply}");
            self.send(INITIALIZED);
        }
    }
}

fn ok(reply: &str) -> bool {
    serde_json::from_str::<Value>(reply)
        .is_ok_and(|v| v["result"]["structuredContent"]["ok"] == true)
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.3} ms", d.as_secs_f64() * 1e3)
}

fn env(url: &str) -> Vec<(String, String)> {
    [
        ("OMBI_URL", url),
        ("OMBI_AUTH_MODE", "api_key"),
        ("OMBI_API_KEY", API_KEY),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect()
}

/// One keep-alive HTTP GET of the route the small call reads.
fn direct_get(s: &mut BufReader<TcpStream>, request: &[u8]) {
    s.get_mut().write_all(request).unwrap();
    let mut line = String::new();
    let mut length = 0;
    loop {
        line.clear();
        s.read_line(&mut line).unwrap();
        if line == "\r\n" {
            break;
        }
        if let Some((k, v)) = line.split_once(':')
            && k.eq_ignore_ascii_case("content-length")
        {
            length = v.trim().parse().unwrap();
        }
    }
    let mut body = vec![0; length];
    s.read_exact(&mut body).unwrap();
}

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        println!("eras: run with `cargo bench --bench eras`");
        return;
    }
    let rt = harness::bench_runtime();
    let fake = rt.block_on(FakeOmbi::start(Options::default()));
    println!("| figure | 2025-11-25 | 2026-07-28 |\n|---|---|---|");

    if Path::new(harness::SOCKET_ACTIVATE).exists() {
        let (mut cold, mut hello) = ([Vec::new(), Vec::new()], [Vec::new(), Vec::new()]);
        for _ in 0..COLD_RUNS {
            for modern in [false, true] {
                let d = Daemon::start_cold(DaemonOpts {
                    env: env(&fake.url),
                    ..DaemonOpts::default()
                });
                let s = Instant::now();
                let mut c = Conn::open(&d.socket);
                c.open_era(modern);
                let opened = s.elapsed();
                let reply = c.call(&call(1, modern)).to_string();
                assert!(ok(&reply), "{reply}");
                cold[usize::from(modern)].push(s.elapsed());
                hello[usize::from(modern)].push(opened);
            }
        }
        let [c25, c26] = cold.map(median);
        let [h25, _] = hello.map(median);
        println!(
            "| cold start: socket-activated connect → first tools/call result | {} | {} |",
            ms(c25),
            ms(c26)
        );
        println!(
            "|   of which the initialize round trip | {} | none |",
            ms(h25)
        );
    } else {
        println!(
            "note: {} missing: no cold-start figures",
            harness::SOCKET_ACTIVATE
        );
    }

    let d = Daemon::start(DaemonOpts {
        env: env(&fake.url),
        ..DaemonOpts::default()
    });
    let mut conns = [Conn::open(&d.socket), Conn::open(&d.socket)];
    for (modern, c) in [false, true].into_iter().zip(conns.iter_mut()) {
        c.open_era(modern);
        let reply = c.call(&call(1, modern)).to_string();
        assert!(ok(&reply), "{reply}");
    }
    let mut http = BufReader::new(TcpStream::connect(fake.addr).unwrap());
    http.get_ref().set_nodelay(true).unwrap();
    let request = format!(
        "GET {GENRES_ROUTE} HTTP/1.1\r\nHost: {}\r\nApiKey: {API_KEY}\r\nAccept: application/json\r\n\r\n",
        fake.addr
    )
    .into_bytes();
    let (mut direct, mut eras) = (Vec::new(), [Vec::new(), Vec::new()]);
    for _ in 0..ROUNDS {
        for _ in 0..CALLS {
            let s = Instant::now();
            direct_get(&mut http, &request);
            direct.push(s.elapsed());
        }
        for (era, c) in conns.iter_mut().enumerate() {
            let line = call(2, era == 1);
            for _ in 0..CALLS {
                let s = Instant::now();
                c.call(&line);
                eras[era].push(s.elapsed());
            }
        }
    }
    let direct = median(direct);
    let [w25, w26] = eras.map(median);
    println!(
        "| small tools/call, warm connection (median) | {} | {} |",
        ms(w25),
        ms(w26)
    );
    println!(
        "|   added over a direct HTTP GET of its route ({}) | {} | {} |",
        ms(direct),
        ms(w25.saturating_sub(direct)),
        ms(w26.saturating_sub(direct))
    );
}
