//! `ombi-mcpd`: the ombi-mcp daemon. See `ombi-mcpd --help`.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use ombi_mcp::config::{Config, Env};
use ombi_mcp::daemon::{self, StopSignals};
use ombi_mcp::logging;
use ombi_mcp::policy::{LivePolicy, PolicySource};
use ombi_mcp::server::App;
use ombi_mcp::transport::listener::{self, Listener};
use ombi_mcp::upstream::Upstream;
use tokio_util::sync::CancellationToken;

/// sysexits.h: configuration error (systemd units use RestartPreventExitStatus=78).
const EXIT_CONFIG: u8 = 78;
/// sysexits.h: the socket is unavailable (in use, cannot bind).
const EXIT_UNAVAILABLE: u8 = 69;
const EXIT_USAGE: u8 = 64;

const HELP: &str = "\
ombi-mcpd — MCP server for a self-hosted Ombi, served on a Unix socket

USAGE:
    ombi-mcpd [--socket PATH]
    ombi-mcpd --check-config [--offline]

OPTIONS:
    --socket PATH    Socket to bind when not socket-activated
                     (default: $OMBI_MCP_SOCKET, else /run/ombi-mcp/mcp.sock)
    --check-config   Validate the configuration, reach Ombi once (login or
                     API-key probe), print a one-line report and exit
    --offline        With --check-config: skip reaching Ombi
    -h, --help       Print this help
    -V, --version    Print the version

Under systemd the listening socket comes from socket activation
(FileDescriptorName=mcp); run by hand, the daemon binds the socket itself
with mode 0660. MCP clients reach it through the `ombi-mcp` stdio shim.

ENVIRONMENT:
    OMBI_URL            Ombi base URL (a path prefix such as /ombi is kept)
    OMBI_AUTH_MODE      jwt | api_key
    OMBI_USERNAME       jwt: the Ombi user to log in as
    OMBI_PASSWORD_FILE  jwt: file holding the password (or credential
                        ombi-password; OMBI_PASSWORD is accepted, warned)
    OMBI_API_KEY_FILE   api_key: file holding the key (or credential
                        ombi-api-key; OMBI_API_KEY is accepted, warned)
    OMBI_USER_NAME      api_key: the Ombi user calls act as (UserName header)
                        when the peer's policy entry names none
    CREDENTIALS_DIRECTORY  set by systemd (LoadCredential=): read first
    OMBI_BUNDLES        core,moderation,administration (default core)
    OMBI_READ_ONLY      true hides every write_* tool
    OMBI_LOCKDOWN       true withholds text other Ombi users wrote from
                        every peer (default false)
    OMBI_CONFIRM        ask | require | off: asking the person before a
                        confirmed action (default ask)
    OMBI_CONFIRM_TIMEOUT  seconds a question waits, 1-600 (default 120)
    OMBI_POLL_INTERVAL  seconds between reads of a watched resource,
                        10-86400 (default 60)
    OMBI_HTTP_TIMEOUT   seconds per Ombi call, 1-600 (default 30)
    OMBI_MCP_INIT_TIMEOUT  seconds a connection may take to send
                        `initialize`, 1-600 (default 10)
    OMBI_MCP_SOCKET     socket path when not socket-activated
                        (default /run/ombi-mcp/mcp.sock)
    OMBI_MCP_POLICY     JSON peer policy file (default: own uid and root
                        only); SIGHUP reads it again
    RUST_LOG            log filter (default info,rmcp=warn); audit records
                        are kept whatever it says

SIGNALS:
    SIGTERM, SIGINT     stop: no new connections, in-flight calls finish
    SIGHUP              reload the policy file for new connections (open
                        sessions keep theirs; an invalid file is refused)

EXIT STATUS:
    0 stopped cleanly, 78 configuration error, 69 socket unavailable, 1 other.
";

struct Cli {
    socket: Option<PathBuf>,
    check_config: bool,
    offline: bool,
}

fn parse_cli() -> Result<Option<Cli>, String> {
    let mut cli = Cli {
        socket: None,
        check_config: false,
        offline: false,
    };
    let mut args = std::env::args_os().skip(1);
    while let Some(arg) = args.next() {
        match arg.to_str() {
            Some("-h" | "--help") => {
                print!("{HELP}");
                return Ok(None);
            }
            Some("-V" | "--version") => {
                println!("ombi-mcpd {}", env!("CARGO_PKG_VERSION"));
                return Ok(None);
            }
            Some("--socket") => {
                let path = args.next().ok_or("--socket needs a path")?;
                cli.socket = Some(PathBuf::from(path));
            }
            Some(s) if s.starts_with("--socket=") => {
                cli.socket = Some(PathBuf::from(&s["--socket=".len()..]))
            }
            Some("--check-config") => cli.check_config = true,
            Some("--offline") => cli.offline = true,
            _ => return Err(format!("unknown argument {:?}; see --help", arg)),
        }
    }
    if cli.offline && !cli.check_config {
        return Err("--offline only goes with --check-config".into());
    }
    Ok(Some(cli))
}

fn main() -> ExitCode {
    // Before anything holds a secret: no core dumps, no ptrace by other users.
    let _ = nix::sys::prctl::set_dumpable(false);

    let cli = match parse_cli() {
        Ok(Some(cli)) => cli,
        Ok(None) => return ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("ombi-mcpd: {e}");
            return ExitCode::from(EXIT_USAGE);
        }
    };

    // Still single-threaded: take the activated socket and read the
    // environment, then scrub secrets from it, before any thread exists.
    // SAFETY: no other thread has been started yet.
    let activated = if cli.check_config {
        Ok(None)
    } else {
        unsafe { listener::take_activated() }
    };
    let env = Env::from_process();
    let config = Config::from_env(&env, cli.socket.clone());
    // --check-config: files others could change or read (paths only).
    let risky = match &config {
        Ok(c) if cli.check_config => ombi_mcp::config::file_modes::risky_files(
            &env,
            &c.socket,
            nix::unistd::geteuid().as_raw(),
        ),
        _ => Vec::new(),
    };
    // SAFETY: still single-threaded.
    unsafe { ombi_mcp::config::scrub_secret_env() };
    drop(env);

    let config = match config {
        Ok(c) => c,
        Err(e) => {
            eprintln!("ombi-mcpd: configuration error: {e}");
            return ExitCode::from(EXIT_CONFIG);
        }
    };
    let source = PolicySource {
        file: config.policy_file.clone(),
        max_bundles: config.bundles,
        read_only: config.read_only,
        lockdown: config.lockdown,
        api_key_mode: matches!(config.auth, ombi_mcp::config::AuthConfig::ApiKey { .. }),
    };
    let policy = match source.load() {
        Ok(p) => LivePolicy::new(source, p),
        Err(e) => {
            eprintln!("ombi-mcpd: configuration error: OMBI_MCP_POLICY: {e}");
            return ExitCode::from(EXIT_CONFIG);
        }
    };

    if cli.check_config {
        for w in &risky {
            eprintln!("ombi-mcpd: warning: {w}");
        }
        if !check_policy(&config, &policy) {
            return ExitCode::from(EXIT_CONFIG);
        }
        return check_config(&config, cli.offline);
    }

    // The runtime and its signal handlers come before the socket can be
    // seen: whoever connects or signals from then on meets a daemon that
    // stops gracefully.
    let rt = match runtime() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("ombi-mcpd: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let installed = {
        let _inside = rt.enter();
        StopSignals::install()
    };
    let signals = match installed {
        Ok(s) => s,
        Err(e) => {
            eprintln!("ombi-mcpd: cannot install signal handlers: {e}");
            return ExitCode::FAILURE;
        }
    };

    let listener = match activated {
        Ok(Some(l)) => l,
        Ok(None) => match listener::bind(&config.socket) {
            Ok(l) => l,
            Err(e) => {
                eprintln!("ombi-mcpd: {e}");
                return ExitCode::from(EXIT_UNAVAILABLE);
            }
        },
        Err(e) => {
            eprintln!("ombi-mcpd: {e}");
            return ExitCode::from(EXIT_UNAVAILABLE);
        }
    };

    let raised = raise_open_files_limit();
    let sink = logging::init();
    if let Some((from, to)) = raised {
        tracing::info!(from, to, "raised the open-files limit to the hard limit");
    }
    for w in &config.warnings {
        tracing::warn!("{w}");
    }
    tracing::info!(
        logs = sink,
        url = %config.ombi_url,
        auth = config.auth.mode_name(),
        bundles = %config.bundles,
        read_only = config.read_only,
        lockdown = config.lockdown,
        "configuration loaded"
    );

    run(rt, signals, listener, policy, config)
}

/// Run by hand, the daemon raises its soft `RLIMIT_NOFILE` to the hard
/// limit (64 sessions and 16 Ombi calls need more than a shell's 1024 on a
/// busy day). Under the units the syscall filter forbids it (EPERM) and
/// `LimitNOFILE=8192` holds instead. `Some((from, to))` when raised.
fn raise_open_files_limit() -> Option<(u64, u64)> {
    use nix::sys::resource::{Resource, getrlimit, setrlimit};
    let (soft, hard) = getrlimit(Resource::RLIMIT_NOFILE).ok()?;
    if soft >= hard {
        return None;
    }
    setrlimit(Resource::RLIMIT_NOFILE, hard, hard).ok()?;
    Some((soft, hard))
}

fn runtime() -> std::io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
}

fn run(
    rt: tokio::runtime::Runtime,
    signals: StopSignals,
    listener: Listener,
    policy: LivePolicy,
    config: Config,
) -> ExitCode {
    let upstream = match Upstream::new(&config) {
        Ok(u) => u,
        Err(e) => {
            tracing::error!(error = %e, "cannot build the Ombi client");
            return ExitCode::FAILURE;
        }
    };
    let app = Arc::new(App::new(upstream, config.poll_interval, config.confirm));
    let result = rt.block_on(daemon::run(
        listener,
        Arc::new(policy),
        app,
        config.init_timeout,
        signals,
        CancellationToken::new(),
    ));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            tracing::error!(error = %e, "daemon failed");
            ExitCode::FAILURE
        }
    }
}

/// `--check-config`: the policy file against this system's accounts and the
/// socket's permissions (`policy::check`). One line per finding; false when
/// an entry cannot work.
fn check_policy(config: &Config, policy: &LivePolicy) -> bool {
    let Some(file) = &config.policy_file else {
        return true;
    };
    let findings = ombi_mcp::policy::check::check(&policy.current(), &config.socket);
    for w in &findings.warnings {
        eprintln!(
            "ombi-mcpd: warning: OMBI_MCP_POLICY: {}: {w}",
            file.display()
        );
    }
    for e in &findings.errors {
        eprintln!(
            "ombi-mcpd: configuration error: OMBI_MCP_POLICY: {}: {e}",
            file.display()
        );
    }
    findings.errors.is_empty()
}

fn check_config(config: &Config, offline: bool) -> ExitCode {
    for w in &config.warnings {
        eprintln!("ombi-mcpd: warning: {w}");
    }
    let summary = format!(
        "configuration ok: Ombi {} ({} auth), bundles {}, read-only {}, socket {}",
        config.ombi_url,
        config.auth.mode_name(),
        config.bundles,
        config.read_only,
        config.socket.display()
    );
    if offline {
        println!("ombi-mcpd: {summary}; Ombi not contacted (--offline)");
        return ExitCode::SUCCESS;
    }
    let probe = runtime().map_err(|e| e.to_string()).and_then(|rt| {
        let upstream = Upstream::new(config).map_err(|e| e.to_string())?;
        rt.block_on(upstream.probe()).map_err(|e| e.message)
    });
    match probe {
        Ok(report) => {
            println!("ombi-mcpd: {summary}; {report}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!(
                "ombi-mcpd: configuration loads, but Ombi at {} is not usable: {e}",
                config.ombi_url
            );
            ExitCode::from(EXIT_UNAVAILABLE)
        }
    }
}
