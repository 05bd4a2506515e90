//! Logging: journald when the daemon runs under systemd and journald answers,
//! else stderr. The filter comes from `RUST_LOG` (default
//! [`DEFAULT_FILTER`]), but rmcp is capped at `warn` whatever it says: rmcp
//! logs whole requests and results at debug and trace, and a request can
//! carry a secret argument (a new user's password).

mod one_line;

use tracing::{Level, Metadata};
use tracing_subscriber::EnvFilter;
use tracing_subscriber::filter::filter_fn;
use tracing_subscriber::prelude::*;

pub const DEFAULT_FILTER: &str = "info,rmcp=warn";

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

/// Installs the global subscriber. Returns where logs go, for the first log line.
pub fn init() -> &'static str {
    let filter =
        EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(DEFAULT_FILTER));
    let cap = filter_fn(allowed);
    if stderr_is_the_journal()
        && let Ok(journald) = tracing_journald::layer()
    {
        // Fields keep their own names (`TOOL=`, `PEER_UID=`, ...: the audit
        // record's fields are queried by name, see docs/security.md); none of
        // ours collides with a journal field of its own.
        let journald = journald
            .with_syslog_identifier("ombi-mcpd".into())
            .with_field_prefix(None);
        tracing_subscriber::registry()
            .with(filter)
            .with(cap)
            .with(journald)
            .init();
        return "journald";
    }
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    tracing_subscriber::registry()
        .with(filter)
        .with(cap)
        .with(
            tracing_subscriber::fmt::layer()
                .with_writer(one_line::OneLine { ansi })
                .with_ansi(ansi)
                .with_target(false),
        )
        .init();
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
