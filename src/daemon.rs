//! The daemon's run loop: accept connections, check each peer against the
//! policy before reading a byte, run one MCP session per connection, talk to
//! systemd (READY, STATUS, WATCHDOG, STOPPING, RELOADING), reload the policy
//! on SIGHUP and shut down gracefully.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use rmcp::service::serve_server_with_ct;
use sd_notify::NotifyState;
use tokio::net::{UnixListener, UnixStream};
use tokio::signal::unix::{Signal, SignalKind, signal};
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use tracing::{error, info, warn};

use crate::policy::{LivePolicy, PeerCred, Policy, lookup_user};
use crate::server::{App, McpService, Session};
use crate::tools;
use crate::transport::ListingSlot;
use crate::transport::frame::FramedTransport;
use crate::transport::heap::{HeapTrim, TRIM_EVERY};
use crate::transport::listener::Listener;
use crate::transport::refusals::RefusalLog;
use crate::transport::share::{SESSIONS_PER_UID, SessionShare};

/// Longest JSON-RPC line a client may send; tool arguments are small.
pub const MAX_LINE_BYTES: usize = 1024 * 1024;
/// Sessions served at once, to bound memory; further connections wait in
/// the listen backlog until one ends.
pub const MAX_SESSIONS: usize = 64;
/// How long in-flight tool calls may run on after SIGTERM.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(10);

/// Runs until SIGTERM/SIGINT (or `shutdown` is cancelled), then drains.
/// SIGHUP reloads `policy` for the connections accepted after it.
/// A connection that has not completed `initialize` within `init_timeout`
/// is closed, so a silent or half-open peer cannot hold a session slot.
pub async fn run(
    listener: Listener,
    policy: Arc<LivePolicy>,
    app: Arc<App>,
    init_timeout: Duration,
    signals: StopSignals,
    shutdown: CancellationToken,
) -> std::io::Result<()> {
    let Listener {
        std,
        guard,
        description,
    } = listener;
    let tokio_listener = UnixListener::from_std(std)?;

    let signals = tokio::spawn(signals.wait(shutdown.clone(), policy.clone(), app.clone()));
    // The one poller of watched resources (idle while nothing is watched).
    let poller = tokio::spawn(
        app.watches
            .clone()
            .run(app.upstream.clone(), shutdown.clone()),
    );
    let watchdog = tokio::spawn(watchdog(shutdown.clone()));
    // Freed heap back to the system once a burst is over.
    let heap = Arc::new(HeapTrim::default());
    let trimmer = tokio::spawn({
        let (heap, calls, shutdown) = (heap.clone(), app.calls.clone(), shutdown.clone());
        async move { heap.run(calls, TRIM_EVERY, shutdown).await }
    });

    notify(&[
        NotifyState::Ready,
        NotifyState::Status(&format!("listening on {description}")),
    ]);
    info!(socket = %description, "ombi-mcpd {} listening", env!("CARGO_PKG_VERSION"));

    let sessions_ct = CancellationToken::new();
    let sessions = TaskTracker::new();
    let slots = Arc::new(Semaphore::new(MAX_SESSIONS));
    let admission = Arc::new(Admission {
        share: SessionShare::new(SESSIONS_PER_UID, nix::unistd::geteuid().as_raw()),
        refusals: RefusalLog::default(),
    });
    // Sessions being served (the accept loop's own waiting slot aside).
    let open = Arc::new(AtomicUsize::new(0));
    let mut saturated = false;
    let accept_failures: RefusalLog<std::io::ErrorKind> = RefusalLog::default();
    loop {
        // Take a slot before accepting, not after: a burst of connections
        // (even ones already closed by their peer) then waits in the backlog
        // while the sessions in hand end, instead of being refused.
        let full = slots.available_permits() == 0;
        if full && !saturated {
            warn!(
                limit = MAX_SESSIONS,
                "all session slots are busy; new connections wait"
            );
        }
        saturated = full;
        let slot = tokio::select! {
            biased;
            _ = shutdown.cancelled() => break,
            slot = slots.clone().acquire_owned() => match slot {
                Ok(slot) => slot,
                // Only a closed semaphore fails, and nothing closes it.
                Err(_) => break,
            },
        };
        tokio::select! {
            biased;
            _ = shutdown.cancelled() => break,
            accepted = tokio_listener.accept() => match accepted {
                Ok((stream, _)) => {
                    // The policy in force now decides this peer, even if a
                    // reload comes while its user is being looked up.
                    let (policy, app, ct) = (policy.current(), app.clone(), sessions_ct.child_token());
                    let (open, description, admission) = (open.clone(), description.clone(), admission.clone());
                    open.fetch_add(1, Ordering::SeqCst);
                    let heap = heap.clone();
                    heap.churn();
                    sessions.spawn(async move {
                        serve_connection(stream, &policy, &admission, app, init_timeout, ct).await;
                        heap.churn();
                        drop(slot);
                        let now = open.fetch_sub(1, Ordering::SeqCst) - 1;
                        notify(&[NotifyState::Status(&status_line(&description, now))]);
                    });
                }
                // Transient (EMFILE, ECONNABORTED): back off a little, go on;
                // logged once per window, so a descriptor shortage cannot
                // flood the journal (and make it drop audit records).
                Err(e) => {
                    if let Some(suppressed) = accept_failures.admit(e.kind(), std::time::Instant::now()) {
                        error!(error = %e, suppressed, "accept failed");
                    }
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            },
        }
    }

    notify(&[
        NotifyState::Stopping,
        NotifyState::Status("stopping: finishing in-flight calls"),
    ]);
    info!(
        "shutting down: no new connections; waiting up to {:?} for in-flight calls",
        SHUTDOWN_GRACE
    );
    drop(tokio_listener);
    app.calls.close();
    if tokio::time::timeout(SHUTDOWN_GRACE, app.calls.wait())
        .await
        .is_err()
    {
        warn!(
            left = app.calls.len(),
            "in-flight calls did not finish in time; cancelling them"
        );
    }
    sessions_ct.cancel();
    sessions.close();
    let _ = tokio::time::timeout(Duration::from_secs(2), sessions.wait()).await;
    guard.cleanup();
    signals.abort();
    watchdog.abort();
    trimmer.abort();
    poller.abort();
    info!("stopped");
    Ok(())
}

/// What a connection is held to beside the policy before its first MCP
/// byte: its uid's share of the slots, and the throttled refusal log.
struct Admission {
    share: Arc<SessionShare>,
    refusals: RefusalLog,
}

impl Admission {
    /// One line per refused uid per window (`transport::refusals`), with
    /// the count of the refusals not logged since the last one.
    fn refused(&self, cred: PeerCred, user: Option<&str>, reason: &str) {
        if let Some(suppressed) = self.refusals.admit(cred.uid, std::time::Instant::now()) {
            tools::audit::refused_peer(cred, user, reason, suppressed);
        }
    }
}

/// Checks the peer, then serves MCP on the stream until either side closes.
async fn serve_connection(
    stream: UnixStream,
    policy: &Policy,
    admission: &Admission,
    app: Arc<App>,
    init_timeout: Duration,
    ct: CancellationToken,
) {
    let deadline = tokio::time::Instant::now() + init_timeout;
    let cred = match stream.peer_cred() {
        Ok(c) => PeerCred {
            uid: c.uid(),
            gid: c.gid(),
            pid: c.pid(),
        },
        Err(e) => {
            warn!(error = %e, "refused a connection: cannot read its peer credentials");
            return;
        }
    };
    // Before the user database is asked: a uid over its share costs nothing more.
    let Some(_share) = admission.share.take(cred.uid) else {
        let reason =
            format!("the uid already holds {SESSIONS_PER_UID} sessions (the per-user limit)");
        admission.refused(cred, None, &reason);
        return;
    };
    // NSS lookups may block (LDAP, sssd): keep them off the runtime threads.
    let lookup = tokio::task::spawn_blocking(move || lookup_user(cred.uid, cred.gid));
    let Ok(looked_up) = tokio::time::timeout_at(deadline, lookup).await else {
        warn!(
            uid = cred.uid,
            "closed a connection: the user database did not answer in time"
        );
        return;
    };
    let (user, primary, groups) = looked_up.unwrap_or_default();
    let identity = match policy.decide(cred, user.as_deref(), &groups, primary.as_deref()) {
        Ok(identity) => identity,
        Err(refusal) => {
            // Dropping the stream closes it before any MCP byte was read.
            admission.refused(cred, user.as_deref(), &refusal.0);
            return;
        }
    };
    info!(
        uid = cred.uid, gid = cred.gid, pid = cred.pid, user = user.as_deref(), rule = %identity.rule,
        bundles = %identity.bundles, read_only = identity.read_only, lockdown = identity.lockdown, "accepted peer"
    );
    let (read, write) = stream.into_split();
    let listing = Arc::new(ListingSlot::new());
    let transport =
        FramedTransport::new(read, write, MAX_LINE_BYTES).with_tools_list(listing.clone());
    let session = Session::new(app.clone(), identity).with_listing(listing);
    let session_id = session.id();
    let init = serve_server_with_ct(McpService(session), transport, ct);
    match tokio::time::timeout_at(deadline, init).await {
        Ok(Ok(running)) => {
            let reason = match running.waiting().await {
                Ok(quit) => format!("{quit:?}"),
                Err(e) => e.to_string(),
            };
            // Its watches end with it.
            app.watches.end_session(session_id);
            info!(uid = cred.uid, pid = cred.pid, %reason, "session ended");
        }
        Ok(Err(e)) => {
            info!(uid = cred.uid, pid = cred.pid, error = %e, "session ended before initialization")
        }
        // Dropping the handshake drops the transport: the stream closes.
        Err(_) => info!(
            uid = cred.uid,
            pid = cred.pid,
            timeout_s = init_timeout.as_secs(),
            "closed a connection that did not initialize in time"
        ),
    }
}

/// systemd's STATUS while listening.
fn status_line(socket: &str, open: usize) -> String {
    match open {
        0 => format!("listening on {socket}"),
        1 => format!("listening on {socket}; 1 open connection"),
        n => format!("listening on {socket}; {n} open connections"),
    }
}

/// SIGTERM, SIGINT and SIGHUP, owned by the runtime. Install them before the
/// socket can be seen or READY is sent: systemd may stop (or reload) us at
/// once, and a signal that finds no handler kills the process without
/// STOPPING, draining or removing the socket.
pub struct StopSignals {
    term: Signal,
    int: Signal,
    hup: Signal,
}

impl StopSignals {
    /// Must be called inside the runtime (`Runtime::enter`).
    pub fn install() -> std::io::Result<Self> {
        Ok(Self {
            term: signal(SignalKind::terminate())?,
            int: signal(SignalKind::interrupt())?,
            hup: signal(SignalKind::hangup())?,
        })
    }

    async fn wait(mut self, shutdown: CancellationToken, policy: Arc<LivePolicy>, app: Arc<App>) {
        loop {
            tokio::select! {
                _ = self.term.recv() => info!("SIGTERM received"),
                _ = self.int.recv() => info!("SIGINT received"),
                _ = self.hup.recv() => {
                    reload(&policy, &app);
                    continue;
                }
            }
            break;
        }
        shutdown.cancel();
    }
}

/// SIGHUP: the policy file read again (`systemctl reload`, `ExecReload=`),
/// and the secret's file (`*_FILE`; a systemd credential is a copy made at
/// start). One line either way; a bad file leaves what is in force unchanged.
fn reload(policy: &LivePolicy, app: &App) {
    // RELOADING=1 with the time, then READY=1: the protocol of sd_notify(3).
    let mut reloading = vec![NotifyState::Reloading];
    reloading.extend(NotifyState::monotonic_usec_now().ok());
    notify(&reloading);
    let file = policy.file().map(|p| p.display().to_string());
    let file = file.as_deref().unwrap_or("(none: own uid and root only)");
    match policy.reload() {
        Ok(()) => info!(
            policy = file,
            "SIGHUP: policy reloaded; new connections use it, open sessions keep theirs"
        ),
        Err(e) => error!(
            policy = file,
            "SIGHUP: policy reload refused, the previous policy stays in force: {e}"
        ),
    }
    match app.upstream.reread_secret() {
        Ok(true) => info!("SIGHUP: the secret's file holds a new secret; calls use it from now on"),
        Ok(false) => {}
        Err(e) => error!(
            "SIGHUP: the secret's file cannot be read, the previous secret stays in use: {e}"
        ),
    }
    notify(&[NotifyState::Ready]);
}

/// Pings the systemd watchdog at half its interval while the runtime is alive.
async fn watchdog(shutdown: CancellationToken) {
    let Some(interval) = sd_notify::watchdog_enabled() else {
        return;
    };
    let mut tick = tokio::time::interval(interval / 2);
    loop {
        tokio::select! {
            _ = shutdown.cancelled() => return,
            _ = tick.tick() => notify(&[NotifyState::Watchdog]),
        }
    }
}

/// sd_notify is a no-op without NOTIFY_SOCKET; a failure is logged, not fatal.
pub fn notify(states: &[NotifyState]) {
    if let Err(e) = sd_notify::notify(states) {
        warn!(error = %e, "sd_notify failed");
    }
}
