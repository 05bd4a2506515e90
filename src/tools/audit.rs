//! The audit trail: one structured record per `write_*` call and per
//! refused peer, under the target [`AUDIT_TARGET`], which `RUST_LOG` cannot
//! silence (`crate::logging`). A record is `info` (journal priority notice),
//! a refusal (a refused peer, a `FORBIDDEN` write) `warn` (warning). Its key
//! fields are in the message itself (`audit uid=1000 user=alice
//! ombi_user=alice tool=write_vote ...`), so the default `journalctl` line
//! reads; every field is also a journal field of its own (`PEER_UID`, `TOOL`,
//! `OUTCOME`, ...; see `docs/security.md`). It names who asked (peer uid, pid
//! and user name), as whom Ombi saw it (the Ombi user), what was asked (tool,
//! action, the ids it named) and what came of it. Only ids and enum labels
//! are recorded: never free text, never a secret argument.

use std::time::Duration;

use serde_json::{Map, Value};
use tracing::{info, warn};

use super::CallCtx;
use crate::contract::Envelope;
use crate::definition::{Args, ToolDef};
use crate::logging::AUDIT_TARGET;
use crate::policy::PeerCred;
use crate::projection::mutation::Mutation;

/// Arguments that identify what a write acted on. Everything else (titles,
/// comments, messages, passwords, settings values) stays out of the record.
const ID_ARGUMENTS: &[&str] = &[
    "media",
    "request_type",
    "request_id",
    "parent_request_id",
    "target",
    "tmdb_id",
    "provider",
    "id",
    "musicbrainz_id",
    "collection_id",
    "issue_id",
    "comment_id",
    "category_id",
    "user_id",
    "queue_id",
    "job",
    "section",
];

/// Longest `targets` / `result_ids` text.
const MAX_SUMMARY: usize = 200;

/// Emits the record of one write call (`args` is `None` when validation
/// failed: the action and ids are then unknown).
pub fn record(
    def: &ToolDef,
    ctx: &CallCtx,
    args: Option<&Args>,
    envelope: &Envelope,
    elapsed: Duration,
) {
    let mutation = Mutation::of(envelope.value.get("data"));
    let outcome = match (envelope.error(), &mutation) {
        (Some(e), _) => e.code.label(),
        (None, Some(m)) => m.outcome.label(),
        (None, None) => "ok",
    };
    let action = args.map(Args::action).unwrap_or("");
    let targets = args
        .map(|a| summary(a.as_map(), ID_ARGUMENTS))
        .unwrap_or_default();
    let result_ids = mutation.as_ref().map(result_ids).unwrap_or_default();
    let identity = &ctx.identity;
    let peer_user = identity.user_name.as_deref().unwrap_or("");
    let ombi_user = ctx.ombi_user().unwrap_or("(API key)");
    let confirmation = ctx.confirmer.record().label;
    let line = Line {
        uid: identity.uid,
        peer_user,
        ombi_user,
        tool: def.name,
        action,
        targets: &targets,
        outcome,
        confirmation: confirmation.as_str(),
    }
    .to_string();
    macro_rules! emit {
        ($level:ident) => {
            $level!(
                target: AUDIT_TARGET,
                peer_uid = identity.uid,
                peer_pid = identity.pid,
                peer_user,
                ombi_user,
                tool = def.name,
                action,
                targets = targets.as_str(),
                outcome,
                result_ids = result_ids.as_str(),
                confirmation = confirmation.as_str(),
                correlation_id = ctx.correlation_id.as_str(),
                duration_ms = elapsed.as_millis() as u64,
                "{line}"
            )
        };
    }
    if outcome == "FORBIDDEN" {
        emit!(warn);
    } else {
        emit!(info);
    }
}

/// The record of a peer refused at connect (before any MCP byte was read).
/// At most one a uid per 10 s (`transport::refusals`): `suppressed` counts
/// that uid's refusals not recorded since its last line.
pub fn refused_peer(cred: PeerCred, user: Option<&str>, reason: &str, suppressed: u64) {
    let more = match suppressed {
        0 => String::new(),
        n => format!(" ({n} more refusals of this uid not logged since the last line)"),
    };
    warn!(
        target: AUDIT_TARGET,
        peer_uid = cred.uid,
        peer_gid = cred.gid,
        peer_pid = cred.pid,
        peer_user = user.unwrap_or(""),
        reason,
        suppressed,
        "refused peer uid={} user={}: {reason}{more}",
        cred.uid,
        user.unwrap_or("?"),
    );
}

/// The message of a write's record: its key fields, in a fixed order, as
/// `key=value` (values are ids, labels and account names, never free text).
struct Line<'a> {
    uid: u32,
    peer_user: &'a str,
    ombi_user: &'a str,
    tool: &'a str,
    action: &'a str,
    targets: &'a str,
    outcome: &'a str,
    confirmation: &'a str,
}

impl std::fmt::Display for Line<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        fn or_unknown(s: &str) -> &str {
            if s.is_empty() { "?" } else { s }
        }
        write!(
            f,
            "audit uid={} user={} ombi_user={} tool={} action={} outcome={} confirmation={}",
            self.uid,
            or_unknown(self.peer_user),
            self.ombi_user,
            self.tool,
            or_unknown(self.action),
            self.outcome,
            self.confirmation,
        )?;
        if !self.targets.is_empty() {
            write!(f, " [{}]", self.targets)?;
        }
        Ok(())
    }
}

/// `name=value` pairs of the listed arguments (ids, labels and `target`
/// objects only), bounded.
fn summary(map: &Map<String, Value>, keys: &[&str]) -> String {
    let pairs = keys.iter().filter_map(|key| {
        let text = match map.get(*key)? {
            Value::Number(n) => n.to_string(),
            Value::String(s) => s.chars().take(64).collect(),
            Value::Object(o) => format!(
                "{}:{}",
                o.get("kind").and_then(Value::as_str).unwrap_or("?"),
                o.get("id").map(Value::to_string).unwrap_or_default()
            ),
            _ => return None,
        };
        Some((*key, text))
    });
    bounded(pairs)
}

/// The ids a mutation result carries, as `name=value` pairs, bounded.
fn result_ids(m: &Mutation) -> String {
    let number = |id: Option<i64>| id.map(|i| i.to_string());
    let pairs = [
        ("request_id", number(m.request_id)),
        ("issue_id", number(m.issue_id)),
        ("comment_id", number(m.comment_id)),
        ("category_id", number(m.category_id)),
        (
            "user_id",
            m.user_id.as_ref().map(|u| u.chars().take(64).collect()),
        ),
        ("queue_id", number(m.queue_id)),
    ];
    bounded(pairs.into_iter().filter_map(|(name, id)| Some((name, id?))))
}

/// `name=value` pairs joined by spaces, cut to [`MAX_SUMMARY`] bytes.
fn bounded<'a>(pairs: impl Iterator<Item = (&'a str, String)>) -> String {
    let mut out = String::new();
    for (name, text) in pairs {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(name);
        out.push('=');
        out.push_str(&text);
    }
    if out.len() > MAX_SUMMARY {
        let mut end = MAX_SUMMARY;
        while !out.is_char_boundary(end) {
            end -= 1;
        }
        out.truncate(end);
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn summary_keeps_ids_and_drops_free_text() {
        let args = json!({
            "action": "create", "media": "movie", "tmdb_id": 603,
            "comment": "secret plans", "user": {"password": "hunter2"},
            "target": {"kind": "tv_child", "id": 7}
        });
        let s = summary(args.as_object().unwrap(), ID_ARGUMENTS);
        assert_eq!(s, "media=movie target=tv_child:7 tmdb_id=603");
        assert!(!s.contains("secret") && !s.contains("hunter2"));
        let tv =
            json!({"action": "tv", "provider": "tmdb", "id": 1399, "selection": {"mode": "all"}});
        let s = summary(tv.as_object().unwrap(), ID_ARGUMENTS);
        assert_eq!(s, "provider=tmdb id=1399");
    }

    #[test]
    fn the_message_names_peer_user_tool_and_outcome() {
        let line = Line {
            uid: 1000,
            peer_user: "alice",
            ombi_user: "alice.o",
            tool: "write_request_moderate",
            action: "deny",
            targets: "media=movie request_id=3",
            outcome: "FORBIDDEN",
            confirmation: "declined",
        }
        .to_string();
        assert_eq!(
            line,
            "audit uid=1000 user=alice ombi_user=alice.o tool=write_request_moderate \
             action=deny outcome=FORBIDDEN confirmation=declined [media=movie request_id=3]"
        );
        let unknown = Line {
            uid: 7,
            peer_user: "",
            ombi_user: "(API key)",
            tool: "write_vote",
            action: "",
            targets: "",
            outcome: "INVALID_ARGUMENT",
            confirmation: "not_required",
        }
        .to_string();
        assert!(unknown.starts_with("audit uid=7 user=? "), "{unknown}");
        assert!(unknown.contains(" action=? "), "{unknown}");
    }

    #[test]
    fn summary_is_bounded() {
        let long = "x".repeat(500);
        let args = json!({"media": long, "job": long, "section": long, "user_id": long});
        assert!(summary(args.as_object().unwrap(), ID_ARGUMENTS).len() <= MAX_SUMMARY + 3);
    }
}
