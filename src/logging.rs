//! Logging: journald when the daemon runs under systemd and journald answers,
//! else stderr. The filter comes from `RUST_LOG`; rmcp stays at `warn` by
//! default because it logs whole requests and results at debug.

use tracing_subscriber::EnvFilter;
use tracing_subscriber::prelude::*;

pub const DEFAULT_FILTER: &str = "info,rmcp=warn";

/// Installs the global subscriber. Returns where logs go, for the first log line.
pub fn init() -> &'static str {
    let filter =
        EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(DEFAULT_FILTER));
    // JOURNAL_STREAM is set by systemd when stderr is connected to the journal.
    let under_journal = std::env::var_os("JOURNAL_STREAM").is_some();
    if under_journal && let Ok(journald) = tracing_journald::layer() {
        // Plain field names (`PEER_UID`, `TOOL`, ...), as docs/security.md
        // shows them, not the crate's default `F_` prefix.
        let journald = journald
            .with_syslog_identifier("ombi-mcpd".into())
            .with_field_prefix(None);
        tracing_subscriber::registry()
            .with(filter)
            .with(journald)
            .init();
        return "journald";
    }
    tracing_subscriber::registry()
        .with(filter)
        .with(
            tracing_subscriber::fmt::layer()
                .with_writer(std::io::stderr)
                .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
                .with_target(false),
        )
        .init();
    "stderr"
}
