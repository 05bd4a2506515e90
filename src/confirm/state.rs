//! The sealed `requestState` of a confirmation asked on MCP 2026-07-28
//! (docs/security.md, "Confirmations on 2026-07-28").
//!
//! On 2026-07-28 the daemon keeps nothing between the call that asks and the
//! retry that answers: the question goes out in an input-required result and
//! the client sends it back with its answer. What the daemon needs to trust
//! that retry travels in the state, sealed with HMAC-SHA-256 under a key
//! made from the OS's random source at start and never written anywhere.
//! The state names the key (a random id beside the seal), so a retry after a
//! restart is told apart from a forgery; it binds the peer uid, the acting
//! Ombi user, the tool, a digest of the arguments, a digest of the question,
//! a single-use id and its expiry. It holds no secret value (a digest of the
//! acting user's name, not the name) and is readable by anyone; it cannot
//! be altered unnoticed.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::Mutex;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use hmac::digest::Key;
use hmac::{Hmac, KeyInit, Mac};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use crate::contract::canonical::canonical_json;

use super::Confirmation;

/// The state format's prefix (`v1.<payload hex>.<seal hex>`).
const VERSION: &str = "v1";
/// Longest state accepted: a real one is about 600 bytes.
const MAX_STATE: usize = 4096;
/// The nonce counter when the random source fails.
static NONCES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// What a state is bound to: who asks, as whom, what.
#[derive(Debug, Clone, Copy)]
pub struct Binding<'a> {
    /// The peer's uid (SO_PEERCRED).
    pub uid: u32,
    /// The Ombi user the peer acts as (`None`: the bare API key).
    pub acting_user: Option<&'a str>,
    pub tool: &'a str,
    /// The call's arguments as the client sent them.
    pub arguments: Option<&'a Map<String, Value>>,
}

/// The sealed claims. Short names: the state travels twice per question.
#[derive(Debug, Serialize, Deserialize, PartialEq)]
struct Claims {
    /// The key id.
    k: String,
    /// Peer uid.
    u: u32,
    /// Digest of the acting Ombi user.
    a: String,
    /// Tool name.
    t: String,
    /// Digest of the arguments.
    d: String,
    /// Digest of the question.
    q: String,
    /// Single-use id.
    n: String,
    /// Expiry, Unix seconds.
    e: u64,
}

/// Why a retry's state is refused: each ends the call "Not confirmed: …"
/// with nothing sent to Ombi.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// Sealed under a key this daemon does not have: it was restarted.
    Restarted,
    /// Not a state, or its seal does not match.
    Forged,
    /// Its single-use id was already spent.
    Used,
    /// Past its expiry.
    Expired,
    /// Issued to another peer uid or acting Ombi user.
    OtherPeer,
    /// Issued for another tool or other arguments.
    ArgumentsChanged,
}

impl Refusal {
    /// The words after "Not confirmed: ".
    pub fn why(&self, timeout: Duration) -> String {
        match self {
            Refusal::Restarted => "the daemon restarted since the question; ask again".into(),
            Refusal::Forged => "the confirmation state is not one this daemon issued".into(),
            Refusal::Used => "this confirmation was already used".into(),
            Refusal::Expired => format!("no answer within {} seconds", timeout.as_secs()),
            Refusal::OtherPeer => "the confirmation was issued to another peer or Ombi user".into(),
            Refusal::ArgumentsChanged => "the arguments changed since the question".into(),
        }
    }
}

/// A state that passed every check: its question's digest, to compare
/// with the question the daemon would ask now.
#[derive(Debug)]
pub struct Opened {
    question: String,
}

impl Opened {
    /// The question asked then is the one that would be asked now.
    pub fn same_question(&self, now: &Confirmation) -> bool {
        self.question == question_digest(now)
    }
}

/// Seals and opens states; one per daemon, its key made at start.
pub struct Sealer {
    key: Key<Hmac<Sha256>>,
    key_id: String,
    /// Spent single-use ids with their expiry (pruned once expired).
    spent: Mutex<HashMap<String, u64>>,
}

impl std::fmt::Debug for Sealer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the key.
        f.debug_struct("Sealer")
            .field("key_id", &self.key_id)
            .finish()
    }
}

impl Sealer {
    /// A fresh random key (a full HMAC block) and key id.
    ///
    /// # Panics
    /// When the OS has no random source to give: the daemon cannot seal
    /// anything safely then, and refuses to start (it is made at start).
    pub fn new() -> Sealer {
        let mut key = Key::<Hmac<Sha256>>::default();
        let mut id = [0u8; 8];
        #[allow(clippy::expect_used)]
        {
            getrandom::fill(&mut key[..]).expect("the OS random source");
            getrandom::fill(&mut id).expect("the OS random source");
        }
        Sealer {
            key,
            key_id: hex(&id),
            spent: Mutex::new(HashMap::new()),
        }
    }

    /// The state of `question`, asked now for `binding`, valid `timeout`.
    pub fn seal(&self, binding: Binding<'_>, question: &Confirmation, timeout: Duration) -> String {
        let mut nonce = [0u8; 16];
        // A nonce only needs to be unique; a failing source falls back to
        // the time and a counter (the seal still holds).
        if getrandom::fill(&mut nonce).is_err() {
            nonce[..8].copy_from_slice(&now_secs().to_le_bytes());
            let n = NONCES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            nonce[8..].copy_from_slice(&n.to_le_bytes());
        }
        let claims = Claims {
            k: self.key_id.clone(),
            u: binding.uid,
            a: user_digest(binding.acting_user),
            t: binding.tool.to_string(),
            d: arguments_digest(binding.arguments),
            q: question_digest(question),
            n: hex(&nonce),
            e: now_secs() + timeout.as_secs(),
        };
        let payload = serde_json::to_vec(&claims).unwrap_or_default();
        format!("{VERSION}.{}.{}", hex(&payload), hex(&self.mac(&payload)))
    }

    /// Checks a retry's `state` for `binding`: the seal first, then the
    /// single-use id (spent by this first retry whatever comes next), the
    /// expiry, the peer and the arguments.
    pub fn open(&self, state: &str, binding: Binding<'_>) -> Result<Opened, Refusal> {
        let claims = self.verify(state)?;
        let now = now_secs();
        {
            let mut spent = self.spent.lock().unwrap_or_else(|p| p.into_inner());
            spent.retain(|_, expiry| *expiry >= now);
            if spent.insert(claims.n.clone(), claims.e).is_some() {
                return Err(Refusal::Used);
            }
        }
        if now > claims.e {
            return Err(Refusal::Expired);
        }
        if claims.u != binding.uid || claims.a != user_digest(binding.acting_user) {
            return Err(Refusal::OtherPeer);
        }
        if claims.t != binding.tool || claims.d != arguments_digest(binding.arguments) {
            return Err(Refusal::ArgumentsChanged);
        }
        Ok(Opened { question: claims.q })
    }

    /// The claims of a state whose seal holds under this daemon's key.
    fn verify(&self, state: &str) -> Result<Claims, Refusal> {
        if state.len() > MAX_STATE {
            return Err(Refusal::Forged);
        }
        let mut parts = state.split('.');
        let (Some(VERSION), Some(payload), Some(seal), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(Refusal::Forged);
        };
        let (Some(payload), Some(seal)) = (unhex(payload), unhex(seal)) else {
            return Err(Refusal::Forged);
        };
        let mut mac = <Hmac<Sha256> as KeyInit>::new(&self.key);
        mac.update(&payload);
        if mac.verify_slice(&seal).is_ok() {
            return serde_json::from_slice(&payload).map_err(|_| Refusal::Forged);
        }
        // Not sealed by this key: an earlier run's (its key id, readable in
        // the payload, is not ours) or a forgery.
        match serde_json::from_slice::<Claims>(&payload) {
            Ok(claims) if claims.k != self.key_id => Err(Refusal::Restarted),
            _ => Err(Refusal::Forged),
        }
    }

    fn mac(&self, payload: &[u8]) -> Vec<u8> {
        let mut mac = <Hmac<Sha256> as KeyInit>::new(&self.key);
        mac.update(payload);
        mac.finalize().into_bytes().to_vec()
    }
}

impl Default for Sealer {
    fn default() -> Sealer {
        Sealer::new()
    }
}

fn now_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

fn sha256_hex(parts: &[&[u8]]) -> String {
    let mut digest = Sha256::new();
    for part in parts {
        // Length-prefixed, so ("ab", "c") and ("a", "bc") differ.
        digest.update((part.len() as u64).to_le_bytes());
        digest.update(part);
    }
    hex(&digest.finalize())
}

fn user_digest(user: Option<&str>) -> String {
    match user {
        Some(name) => sha256_hex(&[b"user", name.as_bytes()]),
        None => sha256_hex(&[b"api key"]),
    }
}

/// The digest of the arguments as given: key order does not count, every
/// value does (an absent object and an empty one are the same call).
fn arguments_digest(arguments: Option<&Map<String, Value>>) -> String {
    let canonical = match arguments {
        Some(map) => canonical_json(&Value::Object(map.clone())),
        None => "{}".to_string(),
    };
    sha256_hex(&[canonical.as_bytes()])
}

/// The digest of what the person is shown: the message and the form.
fn question_digest(question: &Confirmation) -> String {
    let schema = serde_json::to_string(&question.schema()).unwrap_or_default();
    sha256_hex(&[question.message.as_bytes(), schema.as_bytes()])
}

fn hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(out, "{b:02x}");
    }
    out
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn args(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    fn binding<'a>(uid: u32, user: Option<&'a str>, a: &'a Map<String, Value>) -> Binding<'a> {
        Binding {
            uid,
            acting_user: user,
            tool: "write_request_delete",
            arguments: Some(a),
        }
    }

    const T: Duration = Duration::from_secs(120);

    #[test]
    fn a_state_opens_once_for_the_same_peer_and_arguments() {
        let s = Sealer::new();
        let a = args(json!({"media": "movie", "request_id": 12}));
        let q = Confirmation::new("Delete it?");
        let state = s.seal(binding(1000, Some("alice"), &a), &q, T);
        // Key order does not count.
        let same = args(json!({"request_id": 12, "media": "movie"}));
        let opened = s.open(&state, binding(1000, Some("alice"), &same)).unwrap();
        assert!(opened.same_question(&q));
        assert!(!opened.same_question(&Confirmation::new("Delete that?")));
        assert!(!opened.same_question(&Confirmation::new("Delete it?").with_reason(None)));
        assert_eq!(
            s.open(&state, binding(1000, Some("alice"), &a))
                .unwrap_err(),
            Refusal::Used
        );
    }

    #[test]
    fn every_refusal_is_told_apart() {
        let s = Sealer::new();
        let a = args(json!({"media": "movie", "request_id": 12}));
        let q = Confirmation::new("Delete it?");
        let seal = |b| s.seal(b, &q, T);
        // Another peer, another acting user (a state is spent by any retry
        // whose seal holds, so each case seals its own).
        let open = |state: &str, b| s.open(state, b).unwrap_err();
        assert_eq!(
            open(
                &seal(binding(1000, Some("alice"), &a)),
                binding(1001, Some("alice"), &a)
            ),
            Refusal::OtherPeer
        );
        assert_eq!(
            open(
                &seal(binding(1000, Some("alice"), &a)),
                binding(1000, Some("bob"), &a)
            ),
            Refusal::OtherPeer
        );
        assert_eq!(
            open(
                &seal(binding(1000, Some("alice"), &a)),
                binding(1000, None, &a)
            ),
            Refusal::OtherPeer
        );
        let other = args(json!({"media": "movie", "request_id": 13}));
        assert_eq!(
            open(&seal(binding(1000, None, &a)), binding(1000, None, &other)),
            Refusal::ArgumentsChanged
        );
        let mut tool = binding(1000, None, &a);
        tool.tool = "write_request_moderate";
        assert_eq!(
            open(&seal(binding(1000, None, &a)), tool),
            Refusal::ArgumentsChanged
        );
        // Expired: sealed with no time to answer, opened a second later.
        let state = s.seal(binding(1000, None, &a), &q, Duration::ZERO);
        std::thread::sleep(Duration::from_millis(1100));
        assert_eq!(open(&state, binding(1000, None, &a)), Refusal::Expired);
        // Altered: one claim changed, the seal kept.
        let state = seal(binding(1000, None, &a));
        let parts: Vec<&str> = state.split('.').collect();
        let mut claims: Claims = serde_json::from_slice(&unhex(parts[1]).unwrap()).unwrap();
        claims.u = 0;
        let altered = format!(
            "v1.{}.{}",
            hex(&serde_json::to_vec(&claims).unwrap()),
            parts[2]
        );
        assert_eq!(open(&altered, binding(0, None, &a)), Refusal::Forged);
        for junk in ["", "v1", "v1..", "v2.00.00", "v1.zz.00", &"a".repeat(5000)] {
            assert_eq!(
                open(junk, binding(1000, None, &a)),
                Refusal::Forged,
                "{junk}"
            );
        }
        // Another run's key: a restart, not a forgery.
        let earlier = Sealer::new().seal(binding(1000, None, &a), &q, T);
        assert_eq!(open(&earlier, binding(1000, None, &a)), Refusal::Restarted);
        // Each says why in words.
        assert_eq!(Refusal::Expired.why(T), "no answer within 120 seconds");
        assert!(Refusal::Used.why(T).contains("already used"));
        assert!(Refusal::Restarted.why(T).contains("restarted"));
    }

    #[test]
    fn a_state_names_no_user_and_shows_no_key() {
        let s = Sealer::new();
        let a = args(json!({"user_id": "u-1"}));
        let state = s.seal(binding(1000, Some("alice"), &a), &Confirmation::new("x"), T);
        let payload = String::from_utf8(unhex(state.split('.').nth(1).unwrap()).unwrap()).unwrap();
        assert!(!payload.contains("alice"), "{payload}");
        assert!(!format!("{s:?}").contains(&hex(&s.key)));
    }
}
