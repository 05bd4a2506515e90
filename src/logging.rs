//! Logging: journald when the daemon runs under systemd and journald answers,
//! else stderr. The filter comes from `RUST_LOG` (default
//! [`DEFAULT_FILTER`]), but rmcp is capped at `warn` whatever it says: rmcp
//! logs whole requests and results at debug and trace, and a request can
//! carry a secret argument (a new user's password).
//!
//! The audit trail ([`AUDIT_TARGET`]) is always on: its directive is added
//! to whatever `RUST_LOG` says, so `RUST_LOG=warn` (or `off`) quiets the
//! daemon, never the record of who changed what. In the journal its records have priority
//! notice (5), or warning (4) for a refusal; ordinary `info` lines are
//! informational (6), so `journalctl -p notice` is the audit trail plus
//! the problems.

mod one_line;

use tracing::{Level, Metadata};
use tracing_journald::{Priority, PriorityMappings};
use tracing_subscriber::EnvFilter;
use tracing_subscriber::filter::filter_fn;
use tracing_subscriber::prelude::*;

pub const DEFAULT_FILTER: &str = "info,rmcp=warn";

/// The target of audit records (writes, refused peers): always recorded,
/// whatever `RUST_LOG` says.
pub const AUDIT_TARGET: &str = "ombi_mcp::audit";

fn is_audit(meta: &Metadata<'_>) -> bool {
    meta.target() == AUDIT_TARGET
}

/// Journal priorities of ordinary lines. tracing has no level between
/// `info` and `warn`, so `info` is informational (6) here and notice (5) is
/// left to the audit records ([`audit_priorities`]).
pub fn log_priorities() -> PriorityMappings {
    PriorityMappings {
        error: Priority::Error,
        warn: Priority::Warning,
        info: Priority::Informational,
        debug: Priority::Debug,
        trace: Priority::Debug,
    }
}

/// Journal priorities of audit records: a record is notice (5), a refusal
/// (emitted at `warn`) warning (4).
pub fn audit_priorities() -> PriorityMappings {
    PriorityMappings {
        error: Priority::Error,
        warn: Priority::Warning,
        info: Priority::Notice,
        debug: Priority::Notice,
        trace: Priority::Notice,
    }
}

/// Whether an event or span may be recorded at all: nothing of rmcp's
/// below `warn`, so no `RUST_LOG` (not `trace`, not `rmcp=trace`, not a span
/// directive) can bring its request logging back.
pub fn allowed(meta: &Metadata<'_>) -> bool {
    !(is_rmcp(meta.target()) && *meta.level() > Level::WARN)
}

fn is_rmcp(target: &str) -> bool {
    target == "rmcp" || target.starts_with("rmcp::")
}

/// Whether stderr is the journal stream systemd gave us. `JOURNAL_STREAM`
/// (`<device>:<inode>` of that stream) is inherited by everything the
/// service starts, so only a stderr with that device and inode counts: a
/// daemon started by hand from a unit's shell, or by a test that captures
/// its stderr, logs to that stderr (systemd.exec(5), "$JOURNAL_STREAM").
fn stderr_is_the_journal() -> bool {
    let Some(stream) = std::env::var_os("JOURNAL_STREAM") else {
        return false;
    };
    let Ok(stat) = nix::sys::stat::fstat(std::io::stderr()) else {
        return false;
    };
    names_stream(&stream.to_string_lossy(), stat.st_dev, stat.st_ino)
}

/// `JOURNAL_STREAM`'s value names the stream with this device and inode.
fn names_stream(value: &str, dev: u64, ino: u64) -> bool {
    value
        .split_once(':')
        .and_then(|(d, i)| Some((d.parse::<u64>().ok()?, i.parse::<u64>().ok()?)))
        == Some((dev, ino))
}

/// `RUST_LOG` (else [`DEFAULT_FILTER`]) with the audit target always on:
/// its directive is the most specific one for that target, so it wins over
/// `off`, `warn` or `ombi_mcp=error`. One global filter, as without audits:
/// disabled callsites stay disabled at no cost.
fn filter_from(rust_log: Option<&str>) -> EnvFilter {
    let filter = rust_log
        .and_then(|v| EnvFilter::try_new(v).ok())
        .unwrap_or_else(|| EnvFilter::new(DEFAULT_FILTER));
    let audits = format!("{AUDIT_TARGET}=info");
    match audits.parse() {
        Ok(directive) => filter.add_directive(directive),
        // `<target>=info` always parses (and the unit tests hold it).
        Err(_) => filter,
    }
}

/// The text subscriber (stderr, or a test's buffer).
fn text_subscriber<W>(
    writer: W,
    filter: EnvFilter,
    ansi: bool,
) -> impl tracing::Subscriber + Send + Sync
where
    W: for<'a> tracing_subscriber::fmt::MakeWriter<'a> + Send + Sync + 'static,
{
    tracing_subscriber::registry()
        .with(filter)
        .with(filter_fn(allowed))
        .with(
            tracing_subscriber::fmt::layer()
                .with_writer(writer)
                .with_ansi(ansi)
                .with_target(false),
        )
}

/// Installs the global subscriber. Returns where logs go, for the first log line.
pub fn init() -> &'static str {
    let filter = filter_from(std::env::var("RUST_LOG").ok().as_deref());
    if stderr_is_the_journal()
        && let (Ok(logs), Ok(audits)) = (tracing_journald::layer(), tracing_journald::layer())
    {
        // Fields keep their own names (`TOOL=`, `PEER_UID=`, ...: the audit
        // record's fields are queried by name, see docs/security.md); none of
        // ours collides with a journal field of its own.
        let journald = |layer: tracing_journald::Layer, priorities| {
            layer
                .with_syslog_identifier("ombi-mcpd".into())
                .with_field_prefix(None)
                .with_priority_mappings(priorities)
        };
        // Two journald layers for two priority mappings, split by target
        // (what is recorded at all is the global filter's decision).
        tracing_subscriber::registry()
            .with(filter)
            .with(filter_fn(allowed))
            .with(journald(logs, log_priorities()).with_filter(filter_fn(|m| !is_audit(m))))
            .with(journald(audits, audit_priorities()).with_filter(filter_fn(is_audit)))
            .init();
        return "journald";
    }
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    text_subscriber(one_line::OneLine { ansi }, filter, ansi).init();
    "stderr"
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};
    use tracing_subscriber::fmt::MakeWriter;

    #[derive(Clone, Default)]
    struct Buf(Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Buf {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl<'a> MakeWriter<'a> for Buf {
        type Writer = Buf;
        fn make_writer(&'a self) -> Buf {
            self.clone()
        }
    }

    /// `RUST_LOG=off` and `warn` silence ordinary info lines, never an
    /// audit record (nor doubles it under `info`).
    #[test]
    fn audit_records_survive_any_filter() {
        for (directive, ordinary_kept) in [
            ("off", false),
            ("warn", false),
            ("ombi_mcp=error", false),
            ("ombi_mcp::audit=off", false),
            ("info", true),
        ] {
            let buf = Buf::default();
            let subscriber = text_subscriber(buf.clone(), filter_from(Some(directive)), false);
            tracing::subscriber::with_default(subscriber, || {
                tracing::info!(target: AUDIT_TARGET, tool = "write_vote", "audit-record");
                tracing::warn!(target: AUDIT_TARGET, "refused-peer");
                tracing::info!(target: "ombi_mcp::daemon", "ordinary-info");
            });
            let out = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
            assert_eq!(out.matches("audit-record").count(), 1, "{directive}: {out}");
            assert_eq!(out.matches("refused-peer").count(), 1, "{directive}: {out}");
            assert_eq!(
                out.contains("ordinary-info"),
                ordinary_kept,
                "{directive}: {out}"
            );
        }
    }

    /// Notice (5) is reachable only through a layer's own mapping (tracing
    /// has no level for it): audits get it, ordinary info lines do not.
    #[test]
    fn audits_are_notice_refusals_warning_info_informational() {
        assert_eq!(audit_priorities().info, Priority::Notice);
        assert_eq!(audit_priorities().warn, Priority::Warning);
        assert_eq!(log_priorities().info, Priority::Informational);
        assert_eq!(log_priorities().warn, Priority::Warning);
    }

    #[test]
    fn journal_stream_must_name_this_stream() {
        assert!(names_stream("64769:1234567", 64769, 1_234_567));
        assert!(!names_stream("64769:1234567", 64769, 7));
        assert!(!names_stream("64769:1234567", 1, 1_234_567));
        for bad in ["", "64769", ":", "x:1", "1:y", "1:2:3"] {
            assert!(!names_stream(bad, 1, 2), "{bad}");
        }
    }

    /// Under the most permissive filter, rmcp's debug/trace/info events are
    /// dropped, its warnings kept, and every other target logs as asked.
    #[test]
    fn rmcp_stays_at_warn_whatever_the_filter_says() {
        let buf = Buf::default();
        let subscriber = tracing_subscriber::registry()
            .with(EnvFilter::new("trace,rmcp=trace"))
            .with(filter_fn(allowed))
            .with(
                tracing_subscriber::fmt::layer()
                    .with_writer(buf.clone())
                    .with_ansi(false),
            );
        tracing::subscriber::with_default(subscriber, || {
            tracing::debug!(target: "rmcp::service", request = "pw-debug", "received request");
            tracing::trace!(target: "rmcp::service", evt = "pw-trace", "new event");
            tracing::info!(target: "rmcp", "rmcp-info");
            tracing::warn!(target: "rmcp::service", "rmcp-warning");
            tracing::trace!(target: "ombi_mcp::upstream", "own-trace");
            tracing::debug!(target: "rmcp_other", "not-rmcp");
        });
        let out = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
        for dropped in ["pw-debug", "pw-trace", "rmcp-info"] {
            assert!(!out.contains(dropped), "{dropped} logged:\n{out}");
        }
        for kept in ["rmcp-warning", "own-trace", "not-rmcp"] {
            assert!(out.contains(kept), "{kept} missing:\n{out}");
        }
    }
}
