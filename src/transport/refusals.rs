//! Refused connections are logged once per uid per [`WINDOW`]: a refused
//! peer that reconnects in a loop cannot flood the journal (journald drops
//! messages of a service that logs too fast, the audit trail included).
//! The next line after a quiet window says how many were not logged.
//! The accept loop's own failures (EMFILE) are kept to the same pace.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// One refusal line per uid per window.
pub const WINDOW: Duration = Duration::from_secs(10);
/// uids remembered at once; beyond that the oldest windows are forgotten
/// (a forgotten uid is simply logged again).
const MAX_UIDS: usize = 1024;

/// When each uid's refusal (or each kind of failure `K`) was last logged
/// and how many were not since.
pub struct RefusalLog<K = u32> {
    seen: Mutex<HashMap<K, (Instant, u64)>>,
}

impl<K> Default for RefusalLog<K> {
    fn default() -> Self {
        RefusalLog {
            seen: Mutex::new(HashMap::new()),
        }
    }
}

impl<K: Hash + Eq> RefusalLog<K> {
    /// `Some(n)` when this refusal of `uid` is to be logged, `n` being the
    /// refusals of that uid not logged since its last line; `None` when it
    /// is to be counted only.
    pub fn admit(&self, uid: K, now: Instant) -> Option<u64> {
        let mut seen = self.seen.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((last, suppressed)) = seen.get_mut(&uid) {
            if now.duration_since(*last) < WINDOW {
                *suppressed += 1;
                return None;
            }
            let missed = *suppressed;
            *last = now;
            *suppressed = 0;
            return Some(missed);
        }
        if seen.len() >= MAX_UIDS {
            seen.retain(|_, (last, _)| now.duration_since(*last) < WINDOW);
        }
        seen.insert(uid, (now, 0));
        Some(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_per_uid_per_window_with_the_count_of_the_rest() {
        let log = RefusalLog::default();
        let t0 = Instant::now();
        assert_eq!(log.admit(1001, t0), Some(0));
        for i in 1..=5 {
            assert_eq!(log.admit(1001, t0 + Duration::from_millis(i)), None);
        }
        assert_eq!(log.admit(1002, t0), Some(0), "per uid");
        assert_eq!(log.admit(1001, t0 + WINDOW), Some(5));
        assert_eq!(log.admit(1001, t0 + WINDOW * 3), Some(0));
    }
}
