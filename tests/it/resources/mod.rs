//! Resources and live updates in process against the fake Ombi (`src/resources/`): `reads` (the
//! `ombi://` bodies are the read tools' `data` through the same call path; errors map to -32602 /
//! -32002 / -32603; listings, templates, the links of write results, and who may read them), `completions`
//! (`completion/complete`: cached request ids, titles by media) and `watch` (the registry's
//! poller reads each watched URI once per interval and acting user, announces changes, backs off, and
//! stops when unwatched).

mod completions;
mod reads;
mod watch;

use ombi_mcp::resources::{self, ReadError, ResourceUri};
use serde_json::Value;

use crate::support::rig::Rig;

async fn read(h: &Rig, s: &str) -> Result<Value, ReadError> {
    resources::read(&h.ctx, &uri(s)).await
}

fn uri(s: &str) -> ResourceUri {
    ResourceUri::parse(s).unwrap()
}
