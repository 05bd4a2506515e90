//! Live updates on MCP 2026-07-28: `subscriptions/listen`. The same watch
//! registry and poller as `resources/subscribe` on 2025-11-25
//! (`resources/watch.rs`: one read per URI and acting user per interval,
//! whichever era watches); a listen is one watcher there, so the bounds are
//! counted per listen.
//!
//! rmcp's own listen flow acknowledges a filter chosen without a read; here
//! the acknowledgment names only what this peer may watch and could read
//! just now, within the bounds (the rest is left out, the reason logged),
//! so the listen is served here: acknowledged, then one
//! `notifications/resources/updated` per change carrying the listen's id as
//! `io.modelcontextprotocol/subscriptionId`, until the client cancels the
//! listen or the connection closes.

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use rmcp::model::{
    ErrorData as McpError, GetMeta, ProtocolVersion, RequestId, ResourceUpdatedNotification,
    ResourceUpdatedNotificationParam, ServerNotification, ServerResult, SubscriptionFilter,
    SubscriptionsAcknowledgedNotification, SubscriptionsAcknowledgedNotificationParams,
    SubscriptionsListenRequestMethod, SubscriptionsListenRequestParams, SubscriptionsListenResult,
};
use rmcp::service::RequestContext;
use rmcp::{Peer, RoleServer};
use tracing::info;

use super::{NEXT_SESSION, Session, era};
use crate::resources::watch::{Deliver, SessionId, Watches};
use crate::resources::{self, ResourceUri};

/// Serves one `subscriptions/listen` until it is cancelled.
pub async fn serve(
    session: &Session,
    params: SubscriptionsListenRequestParams,
    context: RequestContext<RoleServer>,
) -> Result<ServerResult, McpError> {
    check_request(&context)?;
    let listen: SessionId = NEXT_SESSION.fetch_add(1, Ordering::Relaxed);
    let watches = session.app.watches.clone();
    // Whatever ends this future (cancel, connection closed, shutdown), the
    // listen's watches end with it.
    let _end = EndWatches(watches.clone(), listen);
    let deliver: Arc<dyn Deliver> = Arc::new(ListenDeliver {
        peer: context.peer.clone(),
        id: context.id.clone(),
    });
    let mut honored = Vec::new();
    let mut seen = HashSet::new();
    for raw in params.notifications.resource_subscriptions.iter().flatten() {
        if !seen.insert(raw.clone()) {
            continue;
        }
        match watch(session, &watches, listen, &deliver, raw, &context).await {
            Ok(()) => honored.push(raw.clone()),
            // Debug-quoted: a client's text stays on one escaped line.
            Err(why) => {
                info!(uid = session.identity.uid, uri = ?clip(raw), reason = ?clip(&why), "left a URI out of a listen")
            }
        }
    }
    // The list-changed notifications are not offered (`listChanged: false`).
    let accepted = SubscriptionFilter::builder()
        .resource_subscriptions(honored)
        .build();
    let mut ack = ServerNotification::SubscriptionsAcknowledgedNotification(
        SubscriptionsAcknowledgedNotification::new(
            SubscriptionsAcknowledgedNotificationParams::new(accepted),
        ),
    );
    ack.get_meta_mut().set_subscription_id(context.id.clone());
    context.peer.send_notification(ack).await.map_err(|e| {
        McpError::internal_error(format!("the acknowledgment could not be sent: {e}"), None)
    })?;
    context.ct.cancelled().await;
    Ok(ServerResult::SubscriptionsListenResult(
        SubscriptionsListenResult::complete(context.id.clone()),
    ))
}

/// What rmcp checks of every request before its handler, for this request
/// served outside it: a 2026-07-28 request (listen does not exist before),
/// its version supported, its `_meta` complete.
fn check_request(context: &RequestContext<RoleServer>) -> Result<(), McpError> {
    if let Some(version) = context.meta.protocol_version()
        && !era::supported().contains(&version)
    {
        return Err(McpError::unsupported_protocol_version(
            version,
            era::supported(),
        ));
    }
    if !era::is_modern(context) {
        return Err(McpError::method_not_found::<SubscriptionsListenRequestMethod>());
    }
    let missing = context
        .meta
        .missing_required_keys(&ProtocolVersion::V_2026_07_28);
    if !missing.is_empty() {
        return Err(McpError::invalid_params(
            format!(
                "request _meta is missing or has malformed required fields: {}",
                missing.join(", ")
            ),
            None,
        ));
    }
    Ok(())
}

/// One URI of the filter: watched, or why not.
async fn watch(
    session: &Session,
    watches: &Watches,
    listen: SessionId,
    deliver: &Arc<dyn Deliver>,
    raw: &str,
    context: &RequestContext<RoleServer>,
) -> Result<(), String> {
    let uri = ResourceUri::parse(raw).map_err(|e| resources::ReadError::from(e).message())?;
    if !uri.watchable() {
        return Err("it cannot be watched: only ombi://requests/mine, ombi://request/{kind}/{id} and ombi://issue/{id} can".into());
    }
    // Only what this peer can read now; its body is the baseline.
    let body = resources::read(&session.ctx(context.ct.clone()), &uri).await;
    if let Err(e) = &body {
        return Err(e.message());
    }
    watches.subscribe(
        listen,
        deliver.clone(),
        session.identity.clone(),
        uri,
        &body,
    )
}

/// At most 200 characters of a client's or Ombi's text, for the log.
fn clip(text: &str) -> &str {
    text.char_indices()
        .nth(200)
        .map_or(text, |(at, _)| &text[..at])
}

/// Ends a listen's watches when its future ends or is dropped.
struct EndWatches(Arc<Watches>, SessionId);

impl Drop for EndWatches {
    fn drop(&mut self) {
        self.0.end_session(self.1);
    }
}

/// Delivers a change to one listen: `notifications/resources/updated` with
/// the listen request's id as its subscription id.
struct ListenDeliver {
    peer: Peer<RoleServer>,
    id: RequestId,
}

impl Deliver for ListenDeliver {
    fn resource_updated(&self, uri: &str) {
        let mut update = ServerNotification::ResourceUpdatedNotification(
            ResourceUpdatedNotification::new(ResourceUpdatedNotificationParam::new(uri)),
        );
        update.get_meta_mut().set_subscription_id(self.id.clone());
        let peer = self.peer.clone();
        tokio::spawn(async move {
            // A listen that has just ended cannot be told; nothing to do.
            let _ = peer.send_notification(update).await;
        });
    }
}
