//! Turns to call Ombi: at most [`IN_FLIGHT`] calls at once for the whole
//! daemon and [`PER_PEER`] for one peer uid (root included), so one local
//! user pipelining from many sessions cannot open hundreds of connections
//! to Ombi, run the daemon out of file descriptors and memory, or make the
//! others wait behind all of its calls. A call waits for its turn within
//! its `OMBI_HTTP_TIMEOUT`, then ends `TIMEOUT` (retryable, never sent). The
//! turn is taken per attempt, after the login (one in flight, shared).
//!
//! A turn that comes with less than [`MIN_LEFT`] of the call's time left is
//! given back at once, the call ending `TIMEOUT` unsent: when a flood's calls
//! time out together, each turn a timed-out call gives back would otherwise
//! go to the next call in line a moment before its own deadline, and each
//! would open a connection to Ombi only to drop it (~1,000 connections in the
//! 40 s of `cargo bench --bench flood`, for ~150 requests).
//!
//! The peer is the task's: `tools::call` runs each call inside [`as_peer`];
//! a call made outside one (the resource poller, `--check-config`) takes
//! only a daemon-wide turn.

use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::Instant;

use crate::contract::{ErrorCode, ToolError};

/// Ombi calls in flight for the whole daemon, at most.
pub const IN_FLIGHT: usize = 16;
/// Ombi calls in flight for one peer uid, at most.
pub const PER_PEER: usize = 4;
/// The least of a call's time worth starting a request with (a quarter of
/// a shorter `OMBI_HTTP_TIMEOUT`).
pub const MIN_LEFT: Duration = Duration::from_secs(1);

tokio::task_local! {
    /// The uid of the peer whose call the current task runs.
    static PEER_UID: u32;
}

/// Runs `call` as peer `uid`: every Ombi call it makes counts against that
/// uid's turns.
pub async fn as_peer<F: Future>(uid: u32, call: F) -> F::Output {
    PEER_UID.scope(uid, call).await
}

/// The daemon's turns and each busy peer's.
pub struct Turns {
    all: Arc<Semaphore>,
    in_flight: usize,
    per_peer: usize,
    /// Only peers with a call waiting or running have an entry.
    peers: Mutex<HashMap<u32, Arc<Semaphore>>>,
}

/// A call's turn, given back when dropped (also half-taken: a call
/// cancelled or timed out while it waits).
pub struct Turn<'a> {
    turns: &'a Turns,
    /// The peer whose turn this is, if the call runs as one.
    uid: Option<u32>,
    /// Held, never read: dropping them gives the turns back.
    _peer: Option<OwnedSemaphorePermit>,
    _all: Option<OwnedSemaphorePermit>,
}

impl Default for Turns {
    fn default() -> Self {
        Turns::new(IN_FLIGHT, PER_PEER)
    }
}

impl Turns {
    pub fn new(in_flight: usize, per_peer: usize) -> Turns {
        Turns {
            all: Arc::new(Semaphore::new(in_flight)),
            in_flight,
            per_peer,
            peers: Mutex::new(HashMap::new()),
        }
    }

    /// Waits for a turn, the peer's first (so one peer's queue never holds
    /// daemon-wide turns), at most `wait`; `desc` names the call.
    pub async fn take(&self, wait: Duration, desc: &str) -> Result<Turn<'_>, ToolError> {
        self.take_by(Instant::now() + wait, wait, desc).await
    }

    /// [`Turns::take`] for a call that must end by `deadline` (its
    /// `OMBI_HTTP_TIMEOUT` of `wait` from its start): a turn with less than
    /// [`MIN_LEFT`] (or `wait` ÷ 4) left before it is not taken.
    pub async fn take_by(
        &self,
        deadline: Instant,
        wait: Duration,
        desc: &str,
    ) -> Result<Turn<'_>, ToolError> {
        let peer = PEER_UID.try_with(|uid| *uid).ok();
        let least = MIN_LEFT.min(wait / 4);
        let waited = tokio::time::timeout_at(deadline, async {
            // The turn exists before anything is waited for: dropped at any
            // point (timeout, cancelled call), it gives back what it holds.
            let mut turn = Turn {
                turns: self,
                uid: peer,
                _peer: None,
                _all: None,
            };
            if let Some(uid) = peer {
                turn._peer = Some(self.peer_gate(uid).acquire_owned().await.ok()?);
            }
            turn._all = Some(self.all.clone().acquire_owned().await.ok()?);
            Some(turn)
        })
        .await;
        match waited {
            Ok(Some(turn)) if deadline.saturating_duration_since(Instant::now()) >= least => {
                Ok(turn)
            }
            // Nothing closes the semaphores; a closed one is a timeout too.
            _ => Err(ToolError::new(
                ErrorCode::Timeout,
                format!(
                    "{desc} waited {} s (OMBI_HTTP_TIMEOUT) for its turn to call Ombi and was not sent: at most {} Ombi calls run at once, {} per user; try again",
                    wait.as_secs(),
                    self.in_flight,
                    self.per_peer
                ),
            )),
        }
    }

    fn peer_gate(&self, uid: u32) -> Arc<Semaphore> {
        let mut peers = self.peers.lock().unwrap_or_else(|p| p.into_inner());
        peers
            .entry(uid)
            .or_insert_with(|| Arc::new(Semaphore::new(self.per_peer)))
            .clone()
    }

    /// Drops `uid`'s entry when no call of it waits or runs.
    fn forget_idle(&self, uid: u32) {
        let mut peers = self.peers.lock().unwrap_or_else(|p| p.into_inner());
        if peers
            .get(&uid)
            .is_some_and(|gate| Arc::strong_count(gate) == 1)
        {
            peers.remove(&uid);
        }
    }

    /// Peers with an entry now (for tests).
    pub fn busy_peers(&self) -> usize {
        self.peers.lock().unwrap_or_else(|p| p.into_inner()).len()
    }
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        // The permit first, so the entry is seen unused.
        self._peer = None;
        if let Some(uid) = self.uid {
            self.turns.forget_idle(uid);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// 12 calls of one peer and 1 of another, with 4 daemon-wide turns and
    /// 2 per peer: never more than 2 of the first run at once, the second
    /// peer's call runs while they wait, and every entry is gone after.
    #[tokio::test]
    async fn a_peer_holds_at_most_its_turns_and_another_is_served_meanwhile() {
        let turns = Arc::new(Turns::new(4, 2));
        let (running, most) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
        let mut calls = Vec::new();
        for _ in 0..12 {
            let (turns, running, most) = (turns.clone(), running.clone(), most.clone());
            calls.push(tokio::spawn(as_peer(1001, async move {
                let _turn = turns.take(Duration::from_secs(30), "GET x").await.unwrap();
                let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                most.fetch_max(now, Ordering::SeqCst);
                tokio::time::sleep(Duration::from_millis(50)).await;
                running.fetch_sub(1, Ordering::SeqCst);
            })));
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
        let started = std::time::Instant::now();
        {
            let _other = as_peer(1002, turns.take(Duration::from_secs(30), "GET y"))
                .await
                .unwrap();
        }
        assert!(
            started.elapsed() < Duration::from_millis(40),
            "not behind the flood"
        );
        for c in calls {
            c.await.unwrap();
        }
        assert_eq!(most.load(Ordering::SeqCst), 2);
        assert_eq!(turns.busy_peers(), 0);
    }

    #[tokio::test]
    async fn a_call_cancelled_while_it_waits_leaves_nothing_behind() {
        let turns = Arc::new(Turns::new(4, 1));
        let held = as_peer(9, turns.take(Duration::from_secs(1), "GET a"))
            .await
            .unwrap();
        let t = turns.clone();
        let waiting = tokio::spawn(as_peer(9, async move {
            let _ = t.take(Duration::from_secs(30), "GET w").await;
        }));
        tokio::time::sleep(Duration::from_millis(20)).await;
        waiting.abort();
        let _ = waiting.await;
        drop(held);
        assert_eq!(turns.busy_peers(), 0);
        let _again = as_peer(9, turns.take(Duration::from_millis(50), "GET b"))
            .await
            .expect("its turn is free again");
    }

    /// A turn coming too late for the call to use it goes back unused.
    #[tokio::test]
    async fn a_turn_with_too_little_time_left_is_given_back_unsent() {
        let turns = Arc::new(Turns::new(1, 1));
        let held = turns.take(Duration::from_secs(1), "GET a").await.unwrap();
        let t = turns.clone();
        // 400 ms for the call: a turn with less than 100 ms left is not used.
        let wait = Duration::from_millis(400);
        let deadline = Instant::now() + wait;
        let late = tokio::spawn(async move {
            let taken = t.take_by(deadline, wait, "GET late").await;
            taken.err().map(|e| e.code)
        });
        tokio::time::sleep_until(deadline - Duration::from_millis(50)).await;
        drop(held);
        assert_eq!(late.await.unwrap(), Some(ErrorCode::Timeout));
        let _free = turns
            .take(Duration::from_millis(50), "GET b")
            .await
            .expect("given back");
    }

    #[tokio::test]
    async fn waiting_past_the_limit_is_a_retryable_timeout() {
        let turns = Turns::new(1, 1);
        let _held = turns.take(Duration::from_secs(1), "GET a").await.unwrap();
        let e = as_peer(7, turns.take(Duration::from_millis(50), "GET b"))
            .await
            .err()
            .unwrap();
        assert_eq!(e.code, ErrorCode::Timeout);
        assert!(e.retryable && e.message.contains("GET b"), "{e:?}");
        assert_eq!(turns.busy_peers(), 0);
    }
}
