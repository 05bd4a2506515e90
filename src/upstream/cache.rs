//! Answers read from Ombi, kept briefly: the one home of the daemon's caches.
//! Every cache is a [`TtlCache`] field of [`Caches`], which the daemon's one
//! [`Upstream`](super::Upstream) holds, so each entry is keyed by what it was
//! read as (the acting Ombi user, a typed text) and dies with its TTL; no
//! cache is process-global (several Ombi clients in one process — the tests
//! — never share entries).

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::directory::{Directory, Me};

/// A small map whose entries expire `ttl` after they were put; at `max`
/// entries the expired go first, then everything (these hold a handful of
/// acting users or typed texts: no eviction order is worth more).
pub struct TtlCache<K, V> {
    ttl: Duration,
    max: usize,
    entries: Mutex<HashMap<K, (Instant, V)>>,
}

impl<K: Eq + Hash, V: Clone> TtlCache<K, V> {
    pub fn new(ttl: Duration, max: usize) -> TtlCache<K, V> {
        TtlCache {
            ttl,
            max,
            entries: Mutex::new(HashMap::new()),
        }
    }

    /// The value put within the TTL, if any.
    pub fn get(&self, key: &K) -> Option<V> {
        self.get_within(key, self.ttl)
    }

    /// The value put within `ttl` (at most the cache's own), if any: for
    /// entries that should live shorter (a failed read).
    pub fn get_within(&self, key: &K, ttl: Duration) -> Option<V> {
        let entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        let (at, v) = entries.get(key)?;
        (at.elapsed() < ttl.min(self.ttl)).then(|| v.clone())
    }

    pub fn put(&self, key: K, value: V) {
        let mut entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        if entries.len() >= self.max && !entries.contains_key(&key) {
            let ttl = self.ttl;
            entries.retain(|_, (at, _)| at.elapsed() < ttl);
            if entries.len() >= self.max {
                entries.clear();
            }
        }
        entries.insert(key, (Instant::now(), value));
    }

    /// Changes a live entry in place, keeping its age (what this daemon just
    /// wrote, e.g. the acting user's new language).
    pub fn update(&self, key: &K, change: impl FnOnce(&mut V)) {
        let mut entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((at, v)) = entries.get_mut(key)
            && at.elapsed() < self.ttl
        {
            change(v);
        }
    }
}

/// How long an acting user's `GET api/v1/Identity` and Ombi's user directory
/// are reused: a change in Ombi shows within this.
pub const USERS_TTL: Duration = Duration::from_secs(300);
/// How long a title completion's values are reused.
pub const TITLES_TTL: Duration = Duration::from_secs(60);

/// A title completion's key: acting user, media asked for, typed text.
pub type TitleKey = (Option<String>, Option<String>, String);

/// The daemon's caches. Keys hold the acting Ombi user (`None`: the bare
/// API key or the jwt login), so one user's answer never serves another.
pub struct Caches {
    /// The acting users as Ombi shows them (id, name, language): a search's
    /// language or lockdown's "who am I" costs one round trip, not two.
    pub acting_users: TtlCache<Option<String>, Arc<Me>>,
    /// Ombi's users and their Admin/PowerUser roles as the acting user reads
    /// them (`None`: the read failed, kept for a shorter time).
    pub directory: TtlCache<Option<String>, Option<Arc<Directory>>>,
    /// Title completions by acting user, media asked for and typed text.
    pub titles: TtlCache<TitleKey, Arc<[String]>>,
    /// Request-id completions: the acting user's own requests as (kind, id),
    /// read once per [`TITLES_TTL`], not per keystroke.
    pub request_ids: TtlCache<Option<String>, Arc<[(String, i64)]>>,
    /// Ombi's user directory as the daemon's own credentials read it (the
    /// API key alone, or the jwt login), for lockdown.
    pub own_directory: TtlCache<(), Option<Arc<Directory>>>,
    /// Whether the daemon said once that its jwt login cannot read the
    /// directory (lockdown then withholds).
    pub own_directory_refusal_logged: std::sync::atomic::AtomicBool,
    /// Ombi's `HideRequestsUsers`, as the daemon's own credentials read it
    /// (`None`: they could not, kept for a shorter time).
    pub hide_requests: TtlCache<(), Option<bool>>,
}

impl Default for Caches {
    fn default() -> Caches {
        Caches {
            acting_users: TtlCache::new(USERS_TTL, 64),
            directory: TtlCache::new(USERS_TTL, 64),
            titles: TtlCache::new(TITLES_TTL, 512),
            request_ids: TtlCache::new(TITLES_TTL, 64),
            own_directory: TtlCache::new(USERS_TTL, 1),
            own_directory_refusal_logged: Default::default(),
            hide_requests: TtlCache::new(USERS_TTL, 1),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_expire_and_a_full_cache_drops_the_expired_first() {
        let c: TtlCache<u32, &str> = TtlCache::new(Duration::from_millis(40), 2);
        c.put(1, "a");
        assert_eq!(c.get(&1), Some("a"));
        assert_eq!(c.get_within(&1, Duration::ZERO), None);
        std::thread::sleep(Duration::from_millis(50));
        assert_eq!(c.get(&1), None);
        c.put(2, "b");
        c.put(3, "c");
        assert_eq!((c.get(&2), c.get(&3)), (Some("b"), Some("c")));
        c.update(&2, |v| *v = "B");
        assert_eq!(c.get(&2), Some("B"));
        c.put(4, "d");
        assert_eq!(c.get(&4), Some("d"));
    }
}
