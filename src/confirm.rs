//! Confirmations: asking the person at the client before an action that
//! cannot be taken back or that reaches other people (the table is in
//! `docs/security.md`, "Confirmations").
//!
//! This module holds *what* is asked: the setting (`ask` | `require` |
//! `off`), the [`Confirmation`] a tool builds (the effect in plain words, and
//! for a deny the reason), the form it becomes, how each answer maps to an
//! outcome, and the audit label. *How* the question travels is an [`Asker`]:
//! on MCP 2025-11-25 a server→client `elicitation/create` request (in
//! `server.rs`); on 2026-07-28 an input-required result whose answer comes
//! back in the client's retry of the same call, with a sealed state
//! ([`state`]) instead of anything kept here (`server/input_required.rs`).
//!
//! A tool calls [`CallCtx::confirm`](crate::tools::CallCtx::confirm) once,
//! after validating its arguments and reading what the effect is, and before
//! sending anything to Ombi.

use std::collections::BTreeMap;
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures::future::BoxFuture;
use rmcp::model::{BooleanSchema, ElicitationSchema, PrimitiveSchemaDefinition, StringSchema};
use serde_json::Value;

use crate::contract::{ErrorCode, ToolError};

pub mod state;

/// Whether confirmed actions ask first (`OMBI_CONFIRM`, policy `confirm`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Ask when the client can; otherwise act, with a warning.
    Ask,
    /// Ask; a client that cannot be asked gets `UNSUPPORTED_CAPABILITY`.
    Require,
    /// Never ask.
    Off,
}

impl Mode {
    pub const NAMES: &'static str = "ask, require or off";

    pub fn parse(text: &str) -> Option<Mode> {
        match text.trim().to_ascii_lowercase().as_str() {
            "ask" => Some(Mode::Ask),
            "require" => Some(Mode::Require),
            "off" => Some(Mode::Off),
            _ => None,
        }
    }
}

/// The daemon-wide setting (`OMBI_CONFIRM`, `OMBI_CONFIRM_TIMEOUT`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    pub mode: Mode,
    /// How long the person has to answer.
    pub timeout: Duration,
}

pub const DEFAULT_TIMEOUT_SECS: u64 = 120;

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            mode: Mode::Ask,
            timeout: Duration::from_secs(DEFAULT_TIMEOUT_SECS),
        }
    }
}

/// The `ask` warning for a client without the elicitation capability.
pub const NOT_CONFIRMED_WARNING: &str =
    "not confirmed by the user: this client cannot ask for confirmation";

/// Longest reason the form accepts (the `reason` argument's own bound).
const MAX_REASON: u32 = 1000;

/// One question: the effect in plain words, and (for a deny) the reason
/// field, pre-filled with the reason the arguments gave.
#[derive(Debug, Clone, PartialEq)]
pub struct Confirmation {
    pub message: String,
    /// `Some` adds the optional `reason` field (pre-filled when inner `Some`).
    pub reason: Option<Option<String>>,
}

impl Confirmation {
    /// A question whose `message` names the effect, e.g. "Delete the movie
    /// request for Dune (request 12, requested by alice)? This cannot be undone."
    pub fn new(message: impl Into<String>) -> Confirmation {
        Confirmation {
            message: message.into(),
            reason: None,
        }
    }

    /// Adds the `reason` field, pre-filled with `given`.
    pub fn with_reason(mut self, given: Option<&str>) -> Confirmation {
        self.reason = Some(given.map(str::to_string));
        self
    }

    /// The form: a required boolean `confirm` (default false), and for a
    /// deny an optional string `reason`.
    pub fn schema(&self) -> ElicitationSchema {
        let confirm = BooleanSchema::new()
            .title("Confirm")
            .description("Tick to let the assistant do this.")
            .with_default(false);
        let mut properties = BTreeMap::new();
        properties.insert(
            "confirm".to_string(),
            PrimitiveSchemaDefinition::Boolean(confirm),
        );
        if let Some(given) = &self.reason {
            let mut reason = StringSchema::new()
                .title("Reason")
                .description("Why it is denied (shown to the requester).");
            reason.max_length = Some(MAX_REASON);
            if let Some(given) = given {
                reason = reason.with_default(given.clone());
            }
            properties.insert(
                "reason".to_string(),
                PrimitiveSchemaDefinition::String(reason),
            );
        }
        ElicitationSchema::new(properties).with_required(vec!["confirm".to_string()])
    }
}

/// What came back from asking, however it travelled.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// The form was submitted with this content.
    Accept(Option<Value>),
    Decline,
    Cancel,
    /// No answer in time.
    TimedOut,
    /// The client answered the question with an error, or it could not be sent.
    Failed(String),
    /// The answer cannot be trusted (on 2026-07-28: its sealed state was
    /// refused, [`state::Refusal`]); the words say why.
    Refused(String),
    /// The question went out and the call ends here; the answer comes with
    /// the client's retry of the call (2026-07-28).
    Pending,
}

/// How a question reaches the person. One per session and protocol revision.
pub trait Asker: Send + Sync {
    /// The client declared that it can be asked (form mode).
    fn can_ask(&self) -> bool;
    /// Asks and waits at most `timeout` for the answer.
    fn ask<'a>(&'a self, question: &'a Confirmation, timeout: Duration) -> BoxFuture<'a, Answer>;
}

/// The audit record's `confirmation` value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Label {
    Confirmed,
    Declined,
    Cancelled,
    TimedOut,
    /// The client cannot be asked (no capability, or it answered with an error).
    NotAsked,
    /// The setting is `off`.
    Off,
    /// The call asked nothing: an action that is not confirmed, or one that
    /// ended before its question (invalid arguments, a failed read).
    NotRequired,
    /// The question went out with this call's answer (2026-07-28): the call
    /// decided nothing; its retry carries the answer and gets the record.
    Asked,
}

impl Label {
    pub fn as_str(self) -> &'static str {
        match self {
            Label::Confirmed => "confirmed",
            Label::Declined => "declined",
            Label::Cancelled => "cancelled",
            Label::TimedOut => "timed_out",
            Label::NotAsked => "not_asked",
            Label::Off => "off",
            Label::NotRequired => "not_required",
            Label::Asked => "asked",
        }
    }
}

/// The go-ahead for a confirmed action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Proceed {
    /// The form's reason, when a form with a reason field was answered
    /// (inner `None`: the person cleared it).
    form_reason: Option<Option<String>>,
}

impl Proceed {
    /// The reason to send (a deny): the form's when one was answered, else
    /// the one the arguments gave.
    pub fn reason(self, given: Option<&str>) -> Option<String> {
        match self.form_reason {
            Some(answered) => answered,
            None => given.map(str::to_string),
        }
    }
}

const NOT_ASKED: Proceed = Proceed { form_reason: None };

/// What happened to one call's question, for the audit record and the
/// envelope's warnings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Record {
    pub label: Label,
    pub warning: Option<&'static str>,
}

/// One call's confirmation state: the resolved setting, the session's asker
/// and what happened.
pub struct Confirmer {
    mode: Mode,
    timeout: Duration,
    asker: Option<Arc<dyn Asker>>,
    record: Mutex<Record>,
}

impl Confirmer {
    pub fn new(settings: Settings, asker: Option<Arc<dyn Asker>>) -> Confirmer {
        Confirmer {
            mode: settings.mode,
            timeout: settings.timeout,
            asker,
            record: Mutex::new(Record {
                label: Label::NotRequired,
                warning: None,
            }),
        }
    }

    /// For in-process callers with nobody to ask.
    pub fn off() -> Confirmer {
        Confirmer::new(
            Settings {
                mode: Mode::Off,
                ..Settings::default()
            },
            None,
        )
    }

    /// What happened so far.
    pub fn record(&self) -> Record {
        *self.record.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Forgets a previous call's question (a context may serve several
    /// calls in process).
    pub fn reset(&self) {
        self.set(Label::NotRequired, None);
    }

    fn set(&self, label: Label, warning: Option<&'static str>) {
        *self.record.lock().unwrap_or_else(|p| p.into_inner()) = Record { label, warning };
    }

    /// Asks (or not, per the setting and the client) and says whether to
    /// proceed. `question` reads what the effect is and words it; it runs
    /// only when the person is to be asked (its error ends the call before
    /// any question). A refusal is `FORBIDDEN` "Not confirmed: …"; `require`
    /// with a client that cannot ask is `UNSUPPORTED_CAPABILITY`. Either way
    /// nothing may be sent to Ombi after an error.
    pub async fn confirm(
        &self,
        question: impl Future<Output = Result<Confirmation, ToolError>>,
    ) -> Result<Proceed, ToolError> {
        let asker = self.asker.as_ref().filter(|a| a.can_ask());
        let asker = match (self.mode, asker) {
            (Mode::Off, _) => {
                self.set(Label::Off, None);
                return Ok(NOT_ASKED);
            }
            (Mode::Ask, None) => {
                self.set(Label::NotAsked, Some(NOT_CONFIRMED_WARNING));
                return Ok(NOT_ASKED);
            }
            (Mode::Require, None) => {
                self.set(Label::NotAsked, None);
                return Err(ToolError::new(
                    ErrorCode::UnsupportedCapability,
                    "the policy requires the person to confirm this action, and this client cannot ask \
                     (it did not declare the elicitation capability); nothing was sent to Ombi",
                )
                .retryable(false));
            }
            (_, Some(asker)) => asker,
        };
        // The question quotes people's text (titles, names): cleaned like
        // every result, so nothing hidden reaches the person or the client.
        let mut question = question.await?;
        crate::text::untrusted::scrub_string(&mut question.message);
        if let Some(Some(reason)) = question.reason.as_mut() {
            crate::text::untrusted::scrub_string(reason);
        }
        let answer = asker.ask(&question, self.timeout).await;
        if answer == Answer::Pending {
            self.set(Label::Asked, None);
            return Err(ToolError::new(
                ErrorCode::Forbidden,
                "Not confirmed yet: the question went to the person; nothing was sent to Ombi",
            )
            .retryable(false));
        }
        let (label, outcome) = settle(&question, answer, self.timeout);
        self.set(label, None);
        outcome
    }
}

/// An answer → the audit label and the go-ahead or the refusal.
fn settle(
    question: &Confirmation,
    answer: Answer,
    timeout: Duration,
) -> (Label, Result<Proceed, ToolError>) {
    let refuse = |label, why: String| {
        let error = ToolError::new(
            ErrorCode::Forbidden,
            format!("Not confirmed: {why}; nothing was sent to Ombi"),
        )
        .retryable(false);
        (label, Err(error))
    };
    let content = match answer {
        Answer::Accept(content) => content,
        Answer::Decline => return refuse(Label::Declined, "the person declined".into()),
        Answer::Cancel => {
            return refuse(Label::Cancelled, "the person dismissed the question".into());
        }
        Answer::TimedOut => {
            return refuse(
                Label::TimedOut,
                format!("no answer within {} seconds", timeout.as_secs()),
            );
        }
        Answer::Failed(why) => {
            return refuse(
                Label::NotAsked,
                format!("the client could not ask the person ({why})"),
            );
        }
        Answer::Refused(why) => return refuse(Label::NotAsked, why),
        Answer::Pending => {
            return refuse(Label::Asked, "the question is waiting for an answer".into());
        }
    };
    let form = content.as_ref().and_then(Value::as_object);
    match form.and_then(|f| f.get("confirm")) {
        Some(Value::Bool(true)) => {}
        Some(Value::Bool(false)) => {
            return refuse(Label::Declined, "the person answered no".into());
        }
        _ => {
            return refuse(
                Label::NotAsked,
                "the client's answer did not carry the `confirm` box".into(),
            );
        }
    }
    let reason = match (&question.reason, form.and_then(|f| f.get("reason"))) {
        (None, _) => None,
        // The form's reason is the one sent; a cleared field sends none.
        (Some(_), Some(Value::String(r))) => {
            let r = r.trim();
            if r.chars().count() > MAX_REASON as usize {
                return refuse(
                    Label::NotAsked,
                    format!("the reason given in the form is longer than {MAX_REASON} characters"),
                );
            }
            (!r.is_empty()).then(|| r.to_string())
        }
        (Some(given), Some(Value::Null) | None) => given.clone(),
        (Some(_), Some(_)) => {
            return refuse(
                Label::NotAsked,
                "the client's answer carried a reason that is not text".into(),
            );
        }
    };
    let form_reason = question.reason.is_some().then_some(reason);
    (Label::Confirmed, Ok(Proceed { form_reason }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    struct Scripted(Option<Answer>);

    impl Asker for Scripted {
        fn can_ask(&self) -> bool {
            self.0.is_some()
        }
        fn ask<'a>(&'a self, _: &'a Confirmation, _: Duration) -> BoxFuture<'a, Answer> {
            Box::pin(async move { self.0.clone().unwrap_or(Answer::Cancel) })
        }
    }

    fn confirmer(mode: Mode, answer: Option<Answer>) -> Confirmer {
        let settings = Settings {
            mode,
            timeout: Duration::from_secs(5),
        };
        Confirmer::new(settings, Some(Arc::new(Scripted(answer))))
    }

    async fn run(
        mode: Mode,
        answer: Option<Answer>,
        q: Confirmation,
    ) -> (Record, Result<Proceed, ToolError>) {
        let c = confirmer(mode, answer);
        let out = c.confirm(async { Ok(q) }).await;
        (c.record(), out)
    }

    #[tokio::test]
    async fn each_answer_maps_as_the_contract_says() {
        let q = || Confirmation::new("Delete it?");
        let accept = |v: Value| Some(Answer::Accept(Some(v)));
        let cases = [
            (accept(json!({"confirm": true})), Label::Confirmed, None),
            (
                accept(json!({"confirm": false})),
                Label::Declined,
                Some("answered no"),
            ),
            (Some(Answer::Decline), Label::Declined, Some("declined")),
            (Some(Answer::Cancel), Label::Cancelled, Some("dismissed")),
            (
                Some(Answer::TimedOut),
                Label::TimedOut,
                Some("within 5 seconds"),
            ),
            (
                Some(Answer::Failed("boom".into())),
                Label::NotAsked,
                Some("could not ask"),
            ),
            (accept(json!({})), Label::NotAsked, Some("`confirm`")),
            (
                Some(Answer::Accept(None)),
                Label::NotAsked,
                Some("`confirm`"),
            ),
        ];
        for (answer, label, refusal) in cases {
            let (record, out) = run(Mode::Ask, answer.clone(), q()).await;
            assert_eq!(record.label, label, "{answer:?}");
            match (refusal, out) {
                (None, Ok(p)) => assert_eq!(p.reason(None), None),
                (Some(words), Err(e)) => {
                    assert_eq!(e.code, ErrorCode::Forbidden);
                    assert!(!e.retryable);
                    assert!(e.message.starts_with("Not confirmed: "), "{}", e.message);
                    assert!(e.message.contains(words), "{}", e.message);
                }
                (want, got) => panic!("{answer:?}: wanted {want:?}, got {got:?}"),
            }
        }
    }

    #[tokio::test]
    async fn settings_decide_whether_to_ask() {
        let q = || Confirmation::new("Run it?").with_reason(Some("dup"));
        // A client that cannot ask.
        let (r, out) = run(Mode::Ask, None, q()).await;
        assert_eq!(
            (r.label, r.warning),
            (Label::NotAsked, Some(NOT_CONFIRMED_WARNING))
        );
        assert_eq!(out.unwrap().reason(Some("dup")).as_deref(), Some("dup"));
        let (r, out) = run(Mode::Require, None, q()).await;
        assert_eq!(r.label, Label::NotAsked);
        assert_eq!(out.unwrap_err().code, ErrorCode::UnsupportedCapability);
        // `off` never asks, even a client that could answer no.
        let (r, out) = run(Mode::Off, Some(Answer::Decline), q()).await;
        assert_eq!((r.label, r.warning), (Label::Off, None));
        assert!(out.is_ok());
        let none = Confirmer::new(Settings::default(), None);
        assert!(none.confirm(async { Ok(q()) }).await.is_ok());
        assert_eq!(none.record().label, Label::NotAsked);
    }

    #[tokio::test]
    async fn the_forms_reason_is_the_one_sent() {
        let q = || Confirmation::new("Deny it?").with_reason(Some("duplicate"));
        let accept = |v: Value| Some(Answer::Accept(Some(v)));
        let reason = |out: Result<Proceed, ToolError>| out.unwrap().reason(Some("given"));
        let (_, out) = run(
            Mode::Ask,
            accept(json!({"confirm": true, "reason": "not here"})),
            q(),
        )
        .await;
        assert_eq!(reason(out).as_deref(), Some("not here"));
        let (_, out) = run(
            Mode::Ask,
            accept(json!({"confirm": true, "reason": " "})),
            q(),
        )
        .await;
        assert_eq!(reason(out), None);
        let (_, out) = run(Mode::Ask, accept(json!({"confirm": true})), q()).await;
        assert_eq!(reason(out).as_deref(), Some("duplicate"));
        // A question without the field leaves the arguments' reason.
        let plain = Confirmation::new("Approve?");
        let (_, out) = run(Mode::Ask, accept(json!({"confirm": true})), plain).await;
        assert_eq!(reason(out).as_deref(), Some("given"));
        let (r, out) = run(
            Mode::Ask,
            accept(json!({"confirm": true, "reason": 5})),
            q(),
        )
        .await;
        assert_eq!(r.label, Label::NotAsked);
        assert_eq!(out.unwrap_err().code, ErrorCode::Forbidden);
        let long = "x".repeat(1001);
        let (_, out) = run(
            Mode::Ask,
            accept(json!({"confirm": true, "reason": long})),
            q(),
        )
        .await;
        assert!(out.is_err());
    }

    #[test]
    fn the_form_has_confirm_and_for_a_deny_the_reason() {
        let plain = serde_json::to_value(Confirmation::new("x").schema()).unwrap();
        assert_eq!(plain["required"], json!(["confirm"]));
        assert_eq!(plain["properties"]["confirm"]["type"], "boolean");
        assert_eq!(plain["properties"]["confirm"]["default"], false);
        assert!(plain["properties"].get("reason").is_none());
        let deny =
            serde_json::to_value(Confirmation::new("x").with_reason(Some("dup")).schema()).unwrap();
        assert_eq!(deny["properties"]["reason"]["type"], "string");
        assert_eq!(deny["properties"]["reason"]["default"], "dup");
        assert_eq!(deny["required"], json!(["confirm"]));
    }

    #[test]
    fn modes_parse() {
        assert_eq!(Mode::parse("ask"), Some(Mode::Ask));
        assert_eq!(Mode::parse(" Require "), Some(Mode::Require));
        assert_eq!(Mode::parse("off"), Some(Mode::Off));
        assert_eq!(Mode::parse("no"), None);
    }
}
