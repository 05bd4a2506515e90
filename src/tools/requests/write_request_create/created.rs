//! What a movie or album create did, read back: Ombi's answer alone does not say (docs/ombi-notes.md).

use super::*;

use crate::contract::{ErrorCode, Outcome, ToolError};
use crate::definition::params::*;
use crate::tools::{CallCtx, reply};
use crate::upstream::{Answer, RequestEngineResult};

/// One movie or album create, for reporting.
pub(super) struct Created<'a> {
    pub(super) media: MediaKind,
    pub(super) name: &'a str,
    pub(super) is_4k: bool,
}

impl Created<'_> {
    /// Ombi accepted it: `completed`, with the state read back (a create can
    /// be approved at once: every create upvotes as the caller).
    pub(super) async fn completed(
        &self,
        ctx: &CallCtx,
        r: RequestEngineResult,
        mut warnings: Vec<String>,
    ) -> Outcome {
        let id = r.request_id;
        let mut m = Mutation::new(Done::Completed).on_request(self.media.target_kind(), id);
        m.upstream_result = Some(r.result);
        m.upstream_is_error = Some(r.is_error);
        let state = if id > 0 {
            match existing_request(ctx, self.media, id, &mut warnings).await {
                Ok(rec) => read_back_state(self.media, state_phrase(&rec, self.is_4k)),
                Err(e) => unread_state(&e),
            }
        } else {
            String::new()
        };
        let what = if self.is_4k { "4K request" } else { "request" };
        let m = m.message(if id > 0 {
            format!(
                "requested {} ({} {what} {id}){state}",
                self.name,
                self.media.noun()
            )
        } else {
            format!("requested {} (Ombi did not say the new id)", self.name)
        });
        Ok(reply(m.into_data(), warnings, false))
    }

    /// Ombi answered with a failure: `partial` (with the id) when a request
    /// was saved anyway, the failure itself when the read shows nothing was.
    pub(super) fn settle_failure(
        &self,
        ctx: &CallCtx,
        (answer, error): (Answer<RequestEngineResult>, ToolError),
        before: &Held,
        after: Result<Held, ToolError>,
        warnings: Vec<String>,
    ) -> Outcome {
        let r = answer.value;
        let saved = match after {
            Ok(after) if !before.has(self.is_4k) && after.has(self.is_4k) => after.id(),
            Ok(_) => None,
            Err(e) => {
                return Err(ToolError::new(
                    ErrorCode::UnknownOutcome,
                    format!(
                        "{}; whether Ombi saved the request anyway could not be read back ({}): \
                         check read_requests before retrying",
                        error.message, e.message
                    ),
                )
                .retryable(false)
                .into());
            }
        };
        let Some(id) = saved.or(Some(r.request_id).filter(|i| *i > 0)) else {
            return Err(error.into());
        };
        let mut m = Mutation::new(Done::Partial).on_request(self.media.target_kind(), id);
        m.upstream_result = Some(r.result);
        m.upstream_is_error = Some(r.is_error);
        let why = upstream_text(ctx, &r).unwrap_or_else(|| "no reason given".into());
        let m = m.message(format!(
            "Ombi saved {} as {} request {id} but did not send it on ({why})",
            self.name,
            self.media.noun()
        ));
        Err(partly_done(m, warnings))
    }
}

/// "; it is approved ..." for a create's message. Ombi answers an approved
/// create alike whether its send worked or threw and was queued
/// (`MovieSender.cs`, `MusicSender.cs`), so a send is never claimed.
pub(super) fn read_back_state(media: MediaKind, state: &str) -> String {
    if state == "approved" {
        format!(
            "; it is approved, and Ombi sends approved requests to {} itself (its answer does not say \
             whether that worked: a failed send waits in read_requests `retry_queue`)",
            media.downloader()
        )
    } else {
        format!("; it is {state}")
    }
}

/// The new request's state could not be read: said in the message, the
/// reason logged.
pub(super) fn unread_state(e: &ToolError) -> String {
    tracing::info!(error = %e.message, "create: the new request could not be read back");
    "; whether it is approved could not be read back (read_requests `get` shows it)".into()
}

/// Ombi's own words in a business answer, cleaned.
pub(super) fn upstream_text(ctx: &CallCtx, r: &RequestEngineResult) -> Option<String> {
    r.error_message
        .as_deref()
        .or(r.message.as_deref())
        .map(|t| ctx.upstream.clean(t))
        .filter(|t| !t.is_empty())
}
