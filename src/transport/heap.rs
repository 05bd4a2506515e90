//! Freed heap given back to the system once a burst is over (issue #33:
//! the daemon's RSS back near idle after one user's flood). glibc's malloc
//! keeps what a burst of sessions and calls freed in its arenas, returning
//! only the free top of each heap, so a flood's peak stays resident after the
//! flood (+16.7 MiB two minutes after one in `cargo bench --bench flood`).
//! `malloc_trim(0)` also releases the free pages inside every arena.
//!
//! Trimmed when the daemon has gone quiet: at a tick with no tool call in
//! flight, after a tick that had one or after a connection came or went. An
//! idle daemon does not trim; a busy one trims at most once per tick.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

/// How often the daemon looks whether it went quiet.
pub const TRIM_EVERY: Duration = Duration::from_secs(10);

/// Whether there is freed heap worth giving back.
#[derive(Default)]
pub struct HeapTrim {
    /// A connection was accepted or ended since the last look.
    churned: AtomicBool,
}

impl HeapTrim {
    /// A connection was accepted or ended.
    pub fn churn(&self) {
        self.churned.store(true, Ordering::Relaxed);
    }

    /// Every `every` until `shutdown`: trims when no call of `calls` is in
    /// flight and there were calls at the last look or connections came and
    /// went since.
    pub async fn run(&self, calls: TaskTracker, every: Duration, shutdown: CancellationToken) {
        let mut tick = tokio::time::interval(every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut were_busy = false;
        loop {
            tokio::select! {
                _ = shutdown.cancelled() => return,
                _ = tick.tick() => {}
            }
            let busy = !calls.is_empty();
            let churned = self.churned.swap(false, Ordering::Relaxed);
            if !busy && (were_busy || churned) {
                trim();
            }
            were_busy = busy;
        }
    }
}

/// Returns the free pages of every malloc arena to the system.
fn trim() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only walks the allocator's own free lists, under
    // each arena's lock.
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn churn_is_looked_at_and_forgotten_at_the_next_tick() {
        let trim = std::sync::Arc::new(HeapTrim::default());
        let (calls, shutdown) = (TaskTracker::new(), CancellationToken::new());
        let running = tokio::spawn({
            let (trim, calls, shutdown) = (trim.clone(), calls.clone(), shutdown.clone());
            async move { trim.run(calls, Duration::from_millis(100), shutdown).await }
        });
        trim.churn();
        tokio::time::sleep(Duration::from_millis(350)).await;
        assert!(
            !trim.churned.load(Ordering::Relaxed),
            "looked at and cleared"
        );
        shutdown.cancel();
        running.await.unwrap();
    }
}
