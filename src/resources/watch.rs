//! Live updates: *what changed*. The registry of watched resources and the
//! one poller that re-reads them. Ombi has no event feed for request state,
//! so the daemon polls, and only what some session watches: one read per
//! URI and acting Ombi user per interval, however many sessions watch it.
//! A body that differs from the last one read is announced to each watching
//! session through its [`Deliver`] (how it travels is the server's concern:
//! `notifications/resources/updated` on 2025-11-25).

use std::collections::{HashMap, HashSet};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use futures::StreamExt;
use serde_json::Value;
use tokio::sync::Notify;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;
use tracing::{info, warn};

use super::{ReadError, ResourceUri, Touched, read};
use crate::policy::Identity;
use crate::tools::CallCtx;
use crate::upstream::Upstream;

/// Subscriptions one session may hold.
pub const MAX_PER_SESSION: usize = 32;
/// Subscriptions one peer uid may hold, all its sessions together.
pub const MAX_PER_UID: usize = 64;
/// Subscriptions the daemon holds, all sessions together.
pub const MAX_PER_DAEMON: usize = 256;
/// A failing read is retried after twice the last wait, up to this.
pub const MAX_BACKOFF: Duration = Duration::from_secs(600);
/// Reads the poller runs at once.
const READS_AT_ONCE: usize = 8;

/// A session of the daemon, as the registry knows it.
pub type SessionId = u64;

/// How a session hears that a resource it watches changed.
pub trait Deliver: Send + Sync {
    fn resource_updated(&self, uri: &str);
}

/// One watched resource as one acting user sees it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Key {
    uri: ResourceUri,
    /// The peer's acting Ombi user (`None`: the daemon's own).
    user: Option<String>,
    /// Under lockdown other users' text is withheld from the body: a peer
    /// under lockdown must not hear of changes to text it cannot see.
    lockdown: bool,
}

impl Key {
    fn of(uri: ResourceUri, identity: &Identity) -> Key {
        Key {
            uri,
            user: identity.ombi_user.clone(),
            lockdown: identity.lockdown,
        }
    }
}

struct Entry {
    /// Whose read this is (the first watcher's identity; same acting user).
    identity: Arc<Identity>,
    watchers: HashSet<SessionId>,
    /// A digest of the last body read (or of "not found"); bodies are up to
    /// 64 KiB, so they are not kept.
    last: u64,
    due: Instant,
    /// Set while reads fail: the current wait between attempts.
    backoff: Option<Duration>,
}

#[derive(Default)]
struct State {
    entries: HashMap<Key, Entry>,
    sessions: HashMap<SessionId, Arc<dyn Deliver>>,
    /// The peer uid of each session with a subscription.
    uids: HashMap<SessionId, u32>,
}

impl State {
    fn count(&self) -> usize {
        self.entries.values().map(|e| e.watchers.len()).sum()
    }

    fn count_of(&self, session: SessionId) -> usize {
        self.entries
            .values()
            .filter(|e| e.watchers.contains(&session))
            .count()
    }

    /// Subscriptions held by the sessions of peer `uid`.
    fn count_of_uid(&self, uid: u32) -> usize {
        self.entries
            .values()
            .flat_map(|e| &e.watchers)
            .filter(|s| self.uids.get(s) == Some(&uid))
            .count()
    }
}

/// The watch registry and its poller.
pub struct Watches {
    interval: Duration,
    state: Mutex<State>,
    wake: Notify,
    /// Poll reads made (every read after the subscribing one).
    reads: AtomicU64,
}

/// A digest of a body (the envelope's volatile fields are not in it: a
/// body is the envelope's `data`).
pub fn digest(body: &Result<Value, ReadError>) -> u64 {
    let mut h = DefaultHasher::new();
    match body {
        Ok(v) => v.to_string().hash(&mut h),
        Err(e) => format!("{e:?}").hash(&mut h),
    }
    h.finish()
}

impl Watches {
    pub fn new(interval: Duration) -> Watches {
        Watches {
            interval,
            state: Mutex::new(State::default()),
            wake: Notify::new(),
            reads: AtomicU64::new(0),
        }
    }

    pub fn interval(&self) -> Duration {
        self.interval
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Poll reads made so far.
    pub fn reads(&self) -> u64 {
        self.reads.load(Ordering::Relaxed)
    }

    /// Subscriptions held, all sessions together.
    pub fn count(&self) -> usize {
        self.state().count()
    }

    /// Distinct things polled (a URI as one acting user and lockdown
    /// setting sees it): what each interval reads.
    pub fn watched(&self) -> usize {
        self.state().entries.len()
    }

    /// `session` watches `uri`, whose body it just read (`body`). Watching
    /// the same URI again is no new subscription. Err: a bound is reached.
    pub fn subscribe(
        &self,
        session: SessionId,
        deliver: Arc<dyn Deliver>,
        identity: Arc<Identity>,
        uri: ResourceUri,
        body: &Result<Value, ReadError>,
    ) -> Result<(), String> {
        let key = Key::of(uri, &identity);
        let mut state = self.state();
        if state
            .entries
            .get(&key)
            .is_some_and(|e| e.watchers.contains(&session))
        {
            return Ok(());
        }
        if state.count_of(session) >= MAX_PER_SESSION {
            return Err(format!(
                "this session already watches {MAX_PER_SESSION} resources, the most one session may; unsubscribe from one first"
            ));
        }
        if state.count_of_uid(identity.uid) >= MAX_PER_UID {
            return Err(format!(
                "this user's sessions already watch {MAX_PER_UID} resources, the most one user may; unsubscribe from one first"
            ));
        }
        if state.count() >= MAX_PER_DAEMON {
            return Err(format!(
                "the daemon already holds {MAX_PER_DAEMON} subscriptions, the most it keeps; try again later"
            ));
        }
        state.sessions.entry(session).or_insert(deliver);
        state.uids.insert(session, identity.uid);
        let due = Instant::now() + self.interval;
        state
            .entries
            .entry(key)
            .or_insert_with(|| Entry {
                identity,
                watchers: HashSet::new(),
                last: digest(body),
                due,
                backoff: None,
            })
            .watchers
            .insert(session);
        drop(state);
        self.wake.notify_one();
        Ok(())
    }

    /// `session` stops watching `uri` (as its acting user sees it).
    pub fn unsubscribe(&self, session: SessionId, identity: &Identity, uri: &ResourceUri) {
        let key = Key::of(uri.clone(), identity);
        let mut state = self.state();
        if let Some(e) = state.entries.get_mut(&key) {
            e.watchers.remove(&session);
            if e.watchers.is_empty() {
                state.entries.remove(&key);
            }
        }
        if state.count_of(session) == 0 {
            state.sessions.remove(&session);
            state.uids.remove(&session);
        }
    }

    /// The session ended: its watches end with it.
    pub fn end_session(&self, session: SessionId) {
        let mut state = self.state();
        state.sessions.remove(&session);
        state.uids.remove(&session);
        state.entries.retain(|_, e| {
            e.watchers.remove(&session);
            !e.watchers.is_empty()
        });
    }

    /// A write went through this daemon: the watched things it may have
    /// changed (`touched`) are read now, not at the next interval.
    pub fn after_write(&self, touched: &Touched) {
        let now = Instant::now();
        let mut any = false;
        for (key, e) in self.state().entries.iter_mut() {
            if key.uri.changed_by(touched) && e.backoff.is_none() {
                e.due = now;
                any = true;
            }
        }
        if any {
            self.wake.notify_one();
        }
    }

    /// The poller: runs until `shutdown`. Sleeps while nothing is watched.
    pub async fn run(self: Arc<Self>, upstream: Arc<Upstream>, shutdown: CancellationToken) {
        loop {
            let next = self.state().entries.values().map(|e| e.due).min();
            let sleep = async {
                match next {
                    Some(at) => tokio::time::sleep_until(at).await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                _ = shutdown.cancelled() => return,
                _ = self.wake.notified() => continue,
                _ = sleep => {}
            }
            self.poll_due(&upstream, &shutdown).await;
        }
    }

    /// Reads every entry that is due, once each, and announces changes.
    async fn poll_due(&self, upstream: &Arc<Upstream>, shutdown: &CancellationToken) {
        let now = Instant::now();
        let due: Vec<(Key, Arc<Identity>)> = {
            let mut state = self.state();
            state
                .entries
                .iter_mut()
                .filter(|(_, e)| e.due <= now)
                .map(|(k, e)| {
                    // Not due again until this read is settled.
                    e.due = now + self.interval;
                    (k.clone(), e.identity.clone())
                })
                .collect()
        };
        let reads = futures::stream::iter(due)
            .map(|(key, identity)| async move {
                let ctx = CallCtx {
                    identity,
                    correlation_id: uuid::Uuid::new_v4().simple().to_string(),
                    cancel: shutdown.child_token(),
                    upstream: upstream.clone(),
                    // A poll is a read: nothing to confirm.
                    confirmer: crate::confirm::Confirmer::off(),
                };
                let body = read(&ctx, &key.uri).await;
                (key, body)
            })
            .buffer_unordered(READS_AT_ONCE);
        futures::pin_mut!(reads);
        while let Some((key, body)) = reads.next().await {
            self.reads.fetch_add(1, Ordering::Relaxed);
            self.settle(&key, &body);
        }
    }

    /// Records one poll read: announces a changed body, or backs off a
    /// failing read (logged when the state changes, not on every attempt).
    fn settle(&self, key: &Key, body: &Result<Value, ReadError>) {
        let mut state = self.state();
        let Some(e) = state.entries.get_mut(key) else {
            // Unwatched while it was read.
            return;
        };
        let uri = key.uri.to_string();
        if let Err(ReadError::Failed(error)) = body {
            let wait = e
                .backoff
                .map_or(self.interval * 2, |w| w * 2)
                .min(MAX_BACKOFF);
            if e.backoff.is_none() {
                let code = error["code"].as_str().unwrap_or("");
                warn!(%uri, %code, retry_s = wait.as_secs(), "a watched resource cannot be read; retrying with back-off");
            }
            e.backoff = Some(wait);
            e.due = Instant::now() + wait;
            return;
        }
        if e.backoff.take().is_some() {
            info!(%uri, "a watched resource can be read again");
        }
        let now = digest(body);
        if now == e.last {
            return;
        }
        e.last = now;
        let sessions: Vec<SessionId> = e.watchers.iter().copied().collect();
        let watchers: Vec<Arc<dyn Deliver>> = sessions
            .iter()
            .filter_map(|s| state.sessions.get(s).cloned())
            .collect();
        drop(state);
        for w in watchers {
            w.resource_updated(&uri);
        }
    }
}
