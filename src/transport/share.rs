//! Each peer uid's share of the daemon's session slots: one local user
//! cannot hold every slot and lock the others out (docs/security.md, "Fair
//! share"). Root and the daemon's own uid are not counted: they administer
//! the daemon and can stop it anyway.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Sessions one peer uid may hold at once, of the daemon's 64.
pub const SESSIONS_PER_UID: usize = 16;

/// Open connections per uid (those past the policy and still open).
pub struct SessionShare {
    per_uid: usize,
    exempt: [u32; 2],
    open: Mutex<HashMap<u32, usize>>,
}

/// One connection's place in its uid's share, given back when dropped.
pub struct ShareGuard {
    share: Option<(Arc<SessionShare>, u32)>,
}

impl SessionShare {
    /// `per_uid` sessions for every uid but root and `daemon_uid`.
    pub fn new(per_uid: usize, daemon_uid: u32) -> Arc<SessionShare> {
        Arc::new(SessionShare {
            per_uid,
            exempt: [0, daemon_uid],
            open: Mutex::new(HashMap::new()),
        })
    }

    /// A place for one more connection of `uid`, or `None` when it already
    /// holds its share.
    pub fn take(self: &Arc<Self>, uid: u32) -> Option<ShareGuard> {
        if self.exempt.contains(&uid) {
            return Some(ShareGuard { share: None });
        }
        let mut open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        let held = open.entry(uid).or_insert(0);
        if *held >= self.per_uid {
            return None;
        }
        *held += 1;
        Some(ShareGuard {
            share: Some((self.clone(), uid)),
        })
    }

    /// Connections `uid` holds now.
    pub fn held(&self, uid: u32) -> usize {
        let open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        open.get(&uid).copied().unwrap_or(0)
    }
}

impl Drop for ShareGuard {
    fn drop(&mut self) {
        let Some((share, uid)) = self.share.take() else {
            return;
        };
        let mut open = share.open.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(held) = open.get_mut(&uid) {
            *held -= 1;
            if *held == 0 {
                // No entry per uid ever seen: the map stays as small as the
                // set of uids connected now.
                open.remove(&uid);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_uid_holds_its_share_and_gets_it_back() {
        let share = SessionShare::new(2, 1000);
        let a = share.take(1001).expect("first");
        let _b = share.take(1001).expect("second");
        assert!(share.take(1001).is_none(), "third of two");
        assert!(share.take(1002).is_some(), "another uid is not affected");
        drop(a);
        assert_eq!(share.held(1001), 1);
        assert!(share.take(1001).is_some());
    }

    #[test]
    fn root_and_the_daemons_uid_are_not_counted() {
        let share = SessionShare::new(1, 1000);
        let held: Vec<_> = (0..10)
            .map(|_| (share.take(0).unwrap(), share.take(1000).unwrap()))
            .collect();
        assert_eq!(share.held(0) + share.held(1000), 0);
        drop(held);
        let _one = share.take(5).unwrap();
        drop(share.take(5));
        assert!(share.open.lock().unwrap().len() == 1);
    }
}
