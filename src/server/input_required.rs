//! Confirmations on MCP 2026-07-28: the same question as on 2025-11-25
//! (`confirm.rs` decides what is asked and what an answer means), delivered
//! as an input-required result instead of an `elicitation/create` request.
//!
//! The first `tools/call` of a confirmed action ends with `inputRequests`
//! holding one `confirm` entry (the form-mode elicitation of 2025-11-25) and
//! a sealed `requestState`; nothing is sent to Ombi. The client retries the
//! same call with `inputResponses.confirm` and the state; the tool runs
//! again, reads the effect again and, when its question is still the one
//! the state names, settles the answer — else it asks again.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::confirm::state::{Binding, Sealer};
use crate::confirm::{Answer, Asker, Confirmation};
use crate::policy::Identity;
use futures::future::BoxFuture;
use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ElicitRequest, ElicitRequestParams, ElicitResult,
    ElicitationAction, InputRequest, InputRequests, InputRequiredResult,
};

/// The key of the one input request: the confirmation.
pub const CONFIRM_KEY: &str = "confirm";

/// The 2026-07-28 [`Asker`] of one `tools/call`.
pub struct InputRequiredAsker {
    /// The request declared form elicitation in its own `_meta`.
    can_ask: bool,
    sealer: Arc<Sealer>,
    identity: Arc<Identity>,
    /// The call as the client sent it (tool, arguments, and on a retry its
    /// answer and state).
    call: CallToolRequestParams,
    /// The input-required result to answer instead of the call's result.
    pending: Mutex<Option<InputRequiredResult>>,
}

impl InputRequiredAsker {
    pub fn new(
        capabilities: Option<&ClientCapabilities>,
        sealer: Arc<Sealer>,
        identity: Arc<Identity>,
        call: &CallToolRequestParams,
    ) -> InputRequiredAsker {
        InputRequiredAsker {
            can_ask: capabilities.is_some_and(can_elicit_forms),
            sealer,
            identity,
            call: call.clone(),
            pending: Mutex::new(None),
        }
    }

    /// The input-required result this call ends with, if it asked.
    pub fn take_pending(&self) -> Option<InputRequiredResult> {
        self.pending
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take()
    }

    fn binding(&self) -> Binding<'_> {
        Binding {
            uid: self.identity.uid,
            acting_user: self.identity.ombi_user.as_deref(),
            tool: &self.call.name,
            arguments: self.call.arguments.as_ref(),
        }
    }

    /// Asks `question` in an input-required result (a fresh state).
    fn ask_anew(&self, question: &Confirmation, timeout: Duration) -> Answer {
        let state = self.sealer.seal(self.binding(), question, timeout);
        let params = ElicitRequestParams::FormElicitationParams {
            meta: None,
            message: question.message.clone(),
            requested_schema: question.schema(),
        };
        let mut requests = InputRequests::new();
        requests.insert(
            CONFIRM_KEY.to_string(),
            InputRequest::Elicitation(ElicitRequest::new(params)),
        );
        *self.pending.lock().unwrap_or_else(|p| p.into_inner()) =
            Some(InputRequiredResult::new(Some(requests), Some(state)));
        Answer::Pending
    }

    /// The retry's answer, once its state has passed every check.
    fn settle_retry(&self, question: &Confirmation, state: &str, timeout: Duration) -> Answer {
        let opened = match self.sealer.open(state, self.binding()) {
            Ok(opened) => opened,
            Err(refusal) => {
                let why = refusal.why(timeout);
                tracing::info!(uid = self.identity.uid, tool = %self.call.name, %why, "refused a confirmation state");
                return Answer::Refused(why);
            }
        };
        // What the question described changed since (a title, a state):
        // the person answered another question; ask this one.
        if !opened.same_question(question) {
            return self.ask_anew(question, timeout);
        }
        let response = self
            .call
            .input_responses
            .as_ref()
            .and_then(|r| r.get(CONFIRM_KEY));
        match response.map(|v| serde_json::from_value::<ElicitResult>(v.clone())) {
            None => Answer::Refused("the retry carried no answer to the question".into()),
            Some(Err(_)) => Answer::Failed("its answer was not an elicitation result".into()),
            Some(Ok(result)) => match result.action {
                ElicitationAction::Accept => Answer::Accept(result.content),
                ElicitationAction::Decline => Answer::Decline,
                ElicitationAction::Cancel => Answer::Cancel,
                _ => Answer::Failed("its answer was neither accept, decline nor cancel".into()),
            },
        }
    }
}

impl Asker for InputRequiredAsker {
    fn can_ask(&self) -> bool {
        self.can_ask
    }

    fn ask<'a>(&'a self, question: &'a Confirmation, timeout: Duration) -> BoxFuture<'a, Answer> {
        Box::pin(async move {
            match self.call.request_state.as_deref() {
                Some(state) => self.settle_retry(question, state, timeout),
                // An answer without the state it answers proves nothing.
                None if self.has_answer() => {
                    Answer::Refused("the answer came without its requestState".into())
                }
                None => self.ask_anew(question, timeout),
            }
        })
    }
}

impl InputRequiredAsker {
    /// The call carries an answer to the question.
    fn has_answer(&self) -> bool {
        self.call
            .input_responses
            .as_ref()
            .is_some_and(|r| r.contains_key(CONFIRM_KEY))
    }
}

/// The request's capabilities include form elicitation (an empty
/// `elicitation` object means form, as on 2025-11-25).
fn can_elicit_forms(capabilities: &ClientCapabilities) -> bool {
    capabilities
        .elicitation
        .as_ref()
        .is_some_and(|e| e.form.is_some() || e.url.is_none())
}
