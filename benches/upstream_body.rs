//! Reading a 64 MiB upstream JSON array (hydrated TV shows) from the fake
//! Ombi over loopback: the bounded path (`Upstream::get_array`, 8 MiB cap,
//! element-wise parse into a small struct) versus a naive read of the whole
//! body into `serde_json::Value`. Each mode runs in its own child process so
//! its peak RSS (VmHWM) is its own.
//!
//! `cargo bench --bench upstream_body` (optionally `-- --runs N`).
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: see clippy.toml

#[path = "../tests/it/support/mod.rs"]
mod support;

use std::process::Command;
use std::time::{Duration, Instant};

use ombi_mcp::upstream::Route;
use serde::Deserialize;
use support::fake_ombi::{API_KEY, FakeOmbi, Fault, Options};

const BODY_BYTES: usize = 64 * 1024 * 1024;
const ROUTE: &str = "/api/v2/Search/tv/popular/*";

#[derive(Deserialize)]
#[allow(dead_code)]
struct TvRow {
    id: i64,
    title: String,
}

fn vm_hwm_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

async fn run_mode(mode: &str, runs: usize) {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let fake = FakeOmbi::start(Options::default()).await;
    fake.add_fault(Fault::on("GET", ROUTE).oversized(BODY_BYTES));
    let url = format!("{}api/v2/Search/tv/popular/0/100000", fake.url);
    let config = support::client::config(&[
        ("OMBI_URL", &fake.url),
        ("OMBI_AUTH_MODE", "api_key"),
        ("OMBI_API_KEY", API_KEY),
        ("OMBI_HTTP_TIMEOUT", "60"),
    ]);
    let up = ombi_mcp::upstream::Upstream::new(&config).expect("client");
    let naive = reqwest::Client::new();
    let base_hwm = vm_hwm_kib();
    let mut times = Vec::new();
    let mut records = 0;
    let mut cut = false;
    for _ in 0..runs {
        let started = Instant::now();
        match mode {
            "bounded" => {
                let rows = up
                    .get_array::<TvRow>(
                        None,
                        Route::get("api/v2/Search/tv/popular").seg(0).seg(100_000),
                    )
                    .await
                    .expect("bounded read");
                records = rows.value.len();
                cut = rows.cut;
            }
            _ => {
                let body = naive
                    .get(&url)
                    .send()
                    .await
                    .expect("send")
                    .bytes()
                    .await
                    .expect("body");
                let value: serde_json::Value = serde_json::from_slice(&body).expect("parse");
                records = value.as_array().map_or(0, Vec::len);
            }
        }
        times.push(started.elapsed());
    }
    println!(
        "{mode}\t{:.1}\t{}\t{}\t{records}\t{cut}",
        median(times).as_secs_f64() * 1000.0,
        vm_hwm_kib(),
        base_hwm
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let runs = args
        .iter()
        .position(|a| a == "--runs")
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(5);
    if let Some(i) = args.iter().position(|a| a == "--mode") {
        let mode = args[i + 1].clone();
        tokio::runtime::Runtime::new()
            .expect("runtime")
            .block_on(run_mode(&mode, runs));
        return;
    }
    println!(
        "upstream_body: a {} MiB JSON array from the fake Ombi, {runs} runs per mode",
        BODY_BYTES >> 20
    );
    println!(
        "{:<9} {:>12} {:>14} {:>16} {:>9} {:>5}",
        "mode", "median ms", "peak RSS MiB", "RSS before MiB", "records", "cut"
    );
    let exe = std::env::current_exe().expect("own path");
    for mode in ["bounded", "naive"] {
        let out = Command::new(&exe)
            .args(["--mode", mode, "--runs", &runs.to_string()])
            .output()
            .expect("run a mode");
        let text = String::from_utf8_lossy(&out.stdout);
        let Some(line) = text.lines().find(|l| l.starts_with(mode)) else {
            eprintln!("{mode} failed: {}", String::from_utf8_lossy(&out.stderr));
            std::process::exit(1);
        };
        let f: Vec<&str> = line.split('\t').collect();
        let kib = |s: &str| s.parse::<u64>().unwrap_or(0) as f64 / 1024.0;
        println!(
            "{:<9} {:>12} {:>14.1} {:>16.1} {:>9} {:>5}",
            f[0],
            f[1],
            kib(f[2]),
            kib(f[3]),
            f[4],
            f[5]
        );
    }
}
