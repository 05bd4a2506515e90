//! Watching resources: one read per URI and acting user per interval however many sessions watch,
//! nothing polled when nothing is watched, writes re-reading what they touched, lockdown polled apart,
//! back-off, and the bounds per session and per daemon.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use ombi_mcp::contract::TargetKind;
use ombi_mcp::definition::BundleSet;
use ombi_mcp::policy::Identity;
use ombi_mcp::projection::mutation::{Mutation, Outcome};
use ombi_mcp::resources::watch::{Deliver, MAX_PER_DAEMON, MAX_PER_SESSION, MAX_PER_UID, Watches};
use ombi_mcp::resources::{self, Touched};
use serde_json::json;
use tokio_util::sync::CancellationToken;

use crate::resources::uri;
use crate::support::fake_ombi::Fault;
use crate::support::rig::Rig;

/// Requests to movie request 1's route so far.
fn movie_reads(h: &Rig) -> usize {
    h.gets("/api/v1/Request/movie/info/1").len()
}

/// Records the URIs a session was told about.
#[derive(Default)]
struct Heard(Mutex<Vec<String>>);

impl Deliver for Heard {
    fn resource_updated(&self, uri: &str) {
        self.0.lock().unwrap().push(uri.to_string());
    }
}

impl Heard {
    fn take(&self) -> Vec<String> {
        std::mem::take(&mut self.0.lock().unwrap())
    }
}

struct Poller {
    watches: Arc<Watches>,
    stop: CancellationToken,
}

impl Poller {
    fn start(h: &Rig, interval: Duration) -> Poller {
        let watches = Arc::new(Watches::new(interval));
        let stop = CancellationToken::new();
        tokio::spawn(watches.clone().run(h.ctx.upstream.clone(), stop.clone()));
        Poller { watches, stop }
    }

    async fn subscribe(
        &self,
        h: &Rig,
        session: u64,
        heard: &Arc<Heard>,
        who: Option<&str>,
        u: &str,
    ) -> Result<(), String> {
        self.subscribe_as(h, session, heard, identity(who), u).await
    }

    async fn subscribe_as(
        &self,
        h: &Rig,
        session: u64,
        heard: &Arc<Heard>,
        id: Arc<Identity>,
        u: &str,
    ) -> Result<(), String> {
        let ctx = ombi_mcp::tools::CallCtx {
            identity: id.clone(),
            correlation_id: "t".into(),
            cancel: CancellationToken::new(),
            upstream: h.ctx.upstream.clone(),
            confirmer: ombi_mcp::confirm::Confirmer::off(),
        };
        let body = resources::read(&ctx, &uri(u)).await;
        self.watches
            .subscribe(session, heard.clone(), id, uri(u), &body)
    }
}

impl Drop for Poller {
    fn drop(&mut self) {
        self.stop.cancel();
    }
}

fn identity(user: Option<&str>) -> Arc<Identity> {
    let mut id = Identity::local(BundleSet::all(), false);
    id.ombi_user = user.map(str::to_string);
    Arc::new(id)
}

fn movie_1_becomes_available(h: &Rig) {
    h.fake.with_data(|d| {
        d.movie_request_mut(1).unwrap()["available"] = json!(true);
    });
}

/// A rig, and a poller every `interval` with one session (id 1) watching
/// movie request 1; what that session hears.
async fn watching_movie_1(interval: Duration) -> (Rig, Poller, Arc<Heard>) {
    let h = Rig::start().await;
    let p = Poller::start(&h, interval);
    let heard = Arc::new(Heard::default());
    p.subscribe(&h, 1, &heard, None, "ombi://request/movie/1")
        .await
        .unwrap();
    (h, p, heard)
}

#[tokio::test]
async fn one_read_per_uri_and_user_per_interval_however_many_sessions_watch() {
    let h = Rig::start().await;
    let p = Poller::start(&h, Duration::from_millis(300));
    let heard: Vec<Arc<Heard>> = (0..20).map(|_| Arc::new(Heard::default())).collect();
    for (i, s) in heard.iter().enumerate() {
        p.subscribe(&h, i as u64 + 1, s, None, "ombi://request/movie/1")
            .await
            .unwrap();
    }
    let before = movie_reads(&h);
    tokio::time::sleep(Duration::from_millis(1000)).await;
    let polled = movie_reads(&h) - before;
    // ~3 intervals: 2 to 4 reads, not 20 per interval.
    assert!((2..=4).contains(&polled), "{polled} reads");
    assert!(heard.iter().all(|s| s.take().is_empty()), "nothing changed");
    // A state change reaches every watcher within an interval and a read.
    movie_1_becomes_available(&h);
    tokio::time::sleep(Duration::from_millis(500)).await;
    for s in &heard {
        assert_eq!(s.take(), ["ombi://request/movie/1"]);
    }
}

#[tokio::test]
async fn nothing_is_polled_when_nothing_is_watched_and_polling_stops_after_the_last_watcher() {
    let h = Rig::start().await;
    let p = Poller::start(&h, Duration::from_millis(100));
    let quiet = h.fake.requests().len();
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert_eq!(h.fake.requests().len(), quiet, "idle poller read Ombi");
    let (a, b) = (Arc::new(Heard::default()), Arc::new(Heard::default()));
    p.subscribe(&h, 1, &a, None, "ombi://request/movie/1")
        .await
        .unwrap();
    p.subscribe(&h, 2, &b, None, "ombi://request/movie/1")
        .await
        .unwrap();
    // Unsubscribe one, end the other session: the poll stops.
    p.watches
        .unsubscribe(1, &identity(None), &uri("ombi://request/movie/1"));
    tokio::time::sleep(Duration::from_millis(250)).await;
    assert!(movie_reads(&h) >= 2, "still watched by session 2");
    p.watches.end_session(2);
    assert_eq!(p.watches.count(), 0);
    tokio::time::sleep(Duration::from_millis(150)).await;
    let after = movie_reads(&h);
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert_eq!(movie_reads(&h), after, "polled after the last watcher left");
}

#[tokio::test]
async fn each_acting_user_is_read_separately() {
    let h = Rig::start().await;
    let p = Poller::start(&h, Duration::from_millis(200));
    let (a, b) = (Arc::new(Heard::default()), Arc::new(Heard::default()));
    p.subscribe(&h, 1, &a, Some("bob"), "ombi://request/movie/1")
        .await
        .unwrap();
    p.subscribe(&h, 2, &b, Some("alice"), "ombi://request/movie/1")
        .await
        .unwrap();
    let before = h
        .fake
        .requests()
        .iter()
        .filter(|r| r.path.contains("movie/info/1"))
        .count();
    tokio::time::sleep(Duration::from_millis(500)).await;
    let reads: Vec<_> = h
        .fake
        .requests()
        .into_iter()
        .filter(|r| r.path.contains("movie/info/1"))
        .skip(before)
        .collect();
    assert!(reads.len() >= 2, "{}", reads.len());
    assert_eq!(p.watches.count(), 2);
}

#[tokio::test]
async fn a_write_through_the_daemon_triggers_a_read_at_once() {
    let (h, p, heard) = watching_movie_1(Duration::from_secs(3600)).await;
    movie_1_becomes_available(&h);
    p.watches.after_write(&Touched::Unknown);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(heard.take(), ["ombi://request/movie/1"]);
}

/// A write re-reads what it touched (and the acting user's request list),
/// not every watched resource: a write to movie request 2 leaves the watch
/// on movie request 1 and on an issue to their interval.
#[tokio::test]
async fn a_write_rereads_only_what_it_touched() {
    let h = Rig::start().await;
    let p = Poller::start(&h, Duration::from_secs(3600));
    let heard = Arc::new(Heard::default());
    for u in [
        "ombi://request/movie/1",
        "ombi://request/movie/2",
        "ombi://requests/mine",
        "ombi://issue/1",
    ] {
        p.subscribe(&h, 1, &heard, None, u).await.unwrap();
    }
    let reads = |path: &str| h.gets(path).len();
    let before = (
        reads("/api/v1/Request/movie/info/1"),
        reads("/api/v1/Request/movie/info/2"),
        reads("/api/v1/Issues/1"),
    );
    let mine_before = h.paths().len();
    let movie_2 = Mutation::new(Outcome::Completed).on_request(TargetKind::Movie, 2);
    p.watches.after_write(&Touched::of(Some(&movie_2)));
    tokio::time::sleep(Duration::from_millis(500)).await;
    let after = (
        reads("/api/v1/Request/movie/info/1"),
        reads("/api/v1/Request/movie/info/2"),
        reads("/api/v1/Issues/1"),
    );
    assert_eq!(after.0, before.0, "movie 1 was not touched");
    assert_eq!(after.1, before.1 + 1, "movie 2 was");
    assert_eq!(after.2, before.2, "the issue was not");
    // requests/mine was read again too: more than the one movie read.
    assert!(h.paths().len() > mine_before + 1, "{:?}", h.paths());
    // An issue write re-reads that issue only.
    let mut issue_1 = Mutation::new(Outcome::Completed);
    issue_1.issue_id = Some(1);
    p.watches.after_write(&Touched::of(Some(&issue_1)));
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(reads("/api/v1/Issues/1") > before.2);
    assert_eq!(reads("/api/v1/Request/movie/info/2"), before.1 + 1);
}

/// Two peers acting as the same Ombi user, one under lockdown, are polled
/// apart: the locked-down one must not hear of changes to text withheld
/// from it.
#[tokio::test]
async fn lockdown_and_open_peers_of_one_user_are_polled_apart() {
    let h = Rig::start().await;
    let p = Poller::start(&h, Duration::from_secs(3600));
    let open = Arc::new(Heard::default());
    let locked = Arc::new(Heard::default());
    let mut locked_id = Identity::local(BundleSet::all(), false);
    locked_id.lockdown = true;
    p.subscribe(&h, 1, &open, None, "ombi://issue/1")
        .await
        .unwrap();
    p.subscribe_as(&h, 2, &locked, Arc::new(locked_id), "ombi://issue/1")
        .await
        .unwrap();
    assert_eq!(p.watches.count(), 2);
    assert_eq!(p.watches.watched(), 2, "one entry per lockdown setting");
}

#[tokio::test]
async fn a_failing_poll_backs_off_and_resumes_without_ending_the_watch() {
    let (h, p, heard) = watching_movie_1(Duration::from_millis(100)).await;
    h.fake.add_fault(
        Fault::on("GET", "/api/v1/Request/movie/info/1")
            .unavailable()
            .times(1000),
    );
    let start = movie_reads(&h);
    tokio::time::sleep(Duration::from_millis(1600)).await;
    // Back-off 200, 400, 800 ms: about 4 attempts in 1.6 s instead of 16
    // (each attempt may retry inside the upstream client).
    let failing = movie_reads(&h) - start;
    assert!(failing <= 10, "{failing} reads while failing");
    assert!(heard.take().is_empty(), "a failure is not a change");
    assert_eq!(p.watches.count(), 1, "the watch survives");
    h.fake.clear_faults();
    movie_1_becomes_available(&h);
    tokio::time::sleep(Duration::from_millis(2500)).await;
    assert_eq!(heard.take(), ["ombi://request/movie/1"]);
}

#[tokio::test]
async fn subscriptions_are_bounded_per_session_and_per_daemon() {
    let h = Rig::start().await;
    let watches = Watches::new(Duration::from_secs(3600));
    let heard = Arc::new(Heard::default());
    let body = Ok(json!({}));
    // Session `session` (no acting user) watches `u`.
    let watch = |session: u64, u: &str| {
        watches.subscribe(session, heard.clone(), identity(None), uri(u), &body)
    };
    for i in 1..=MAX_PER_SESSION as i64 {
        watch(1, &format!("ombi://issue/{i}")).unwrap();
    }
    // The same URI again is no new subscription.
    watch(1, "ombi://issue/1").unwrap();
    let over = watch(1, "ombi://issue/999").unwrap_err();
    assert!(over.contains("32"), "{over}");
    // Sessions of many peers (each uid holds fewer than its 64) fill the daemon.
    let mut session = 2;
    while watches.count() < MAX_PER_DAEMON {
        let peer = as_uid(1000 + session as u32 / 8);
        watches
            .subscribe(
                session,
                heard.clone(),
                peer,
                uri("ombi://requests/mine"),
                &body,
            )
            .unwrap();
        session += 1;
    }
    let over = watches
        .subscribe(
            session,
            heard.clone(),
            as_uid(5000),
            uri("ombi://requests/mine"),
            &body,
        )
        .unwrap_err();
    assert!(over.contains("256"), "{over}");
    drop(h);
}

fn as_uid(uid: u32) -> Arc<Identity> {
    let mut id = Identity::local(BundleSet::all(), false);
    id.uid = uid;
    Arc::new(id)
}

/// One peer uid holds at most 64 subscriptions across its sessions (three
/// sessions of 32, 32 and 1 here); another uid is not affected, and one
/// ended session gives its share back.
#[tokio::test]
async fn one_peer_uid_holds_at_most_64_subscriptions_across_its_sessions() {
    let watches = Watches::new(Duration::from_secs(3600));
    let heard = Arc::new(Heard::default());
    let body = Ok(json!({}));
    let watch = |session: u64, uid: u32, id: usize| {
        let u = uri(&format!("ombi://issue/{id}"));
        watches.subscribe(session, heard.clone(), as_uid(uid), u, &body)
    };
    for i in 0..MAX_PER_UID {
        watch(1 + (i / MAX_PER_SESSION) as u64, 1001, i + 1).unwrap();
    }
    let over = watch(3, 1001, 999).unwrap_err();
    assert!(over.contains("user") && over.contains("64"), "{over}");
    watch(4, 1002, 1).unwrap();
    watches.end_session(1);
    watch(3, 1001, 999).unwrap();
    assert_eq!(watches.count(), MAX_PER_UID - MAX_PER_SESSION + 2);
}
