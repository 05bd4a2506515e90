//! `ombi-sample`: the fake Ombi the tests use, serving a sample data set, for
//! trying ombi-mcp without a real Ombi (`cargo run --features sample --bin ombi-sample`).
// The fake is test code (its state locks and sample literals unwrap), built
// here as a binary, so the crate's no-unwrap lints (for src/) do not apply.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod fake_ombi;

use std::net::SocketAddr;

const USAGE: &str = "usage: ombi-sample [--listen ADDR:PORT | --port PORT] [--base-path /ombi]";

#[tokio::main]
async fn main() {
    let mut options = fake_ombi::Options {
        listen: "127.0.0.1:5000".parse().expect("literal address"),
        ..fake_ombi::Options::default()
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| {
            args.next().unwrap_or_else(|| {
                eprintln!("ombi-sample: {name} needs a value\n{USAGE}");
                std::process::exit(2)
            })
        };
        match arg.as_str() {
            "--listen" => {
                let v = value("--listen");
                options.listen = v.parse::<SocketAddr>().unwrap_or_else(|_| {
                    eprintln!("ombi-sample: --listen {v:?} is not ADDR:PORT (e.g. 127.0.0.1:5000)");
                    std::process::exit(2)
                });
            }
            "--port" => {
                let v = value("--port");
                let port = v.parse::<u16>().unwrap_or_else(|_| {
                    eprintln!("ombi-sample: --port {v:?} is not a port number");
                    std::process::exit(2)
                });
                options.listen.set_port(port);
            }
            "--base-path" => options.base_path = Some(value("--base-path")),
            "-h" | "--help" => {
                println!("{USAGE}");
                return;
            }
            other => {
                eprintln!("ombi-sample: unknown argument {other:?}\n{USAGE}");
                std::process::exit(2);
            }
        }
    }
    let fake = fake_ombi::FakeOmbi::start(options).await;
    println!("{}", fake.url);
    println!(
        "users: {} / {} (Admin), {} / {}; API key: {}",
        fake_ombi::ADMIN_USER,
        fake_ombi::ADMIN_PASSWORD,
        fake_ombi::PLAIN_USER,
        fake_ombi::PLAIN_PASSWORD,
        fake_ombi::API_KEY
    );
    let _ = tokio::signal::ctrl_c().await;
}
