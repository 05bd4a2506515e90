//! Ombi's *hide requests from other users* (`OmbiSettings.HideRequestsUsers`)
//! as `BaseMediaEngine.HideFromOtherUsers` applies it: a caller without
//! Admin or PowerUser who is not a system user sees only their own
//! requests in the lists and searches (`MovieRequestEngine`,
//! `MusicRequestEngine`), in the TV lists, a TV parent by id and its
//! children (`TvRequestEngine.GetTvRequest`, `FilterChildren`,
//! `GetAllChldren`) and in the recently-requested feed
//! (`RecentlyRequestedService`) — but not in `MovieRequestEngine.GetRequest`
//! (`GET api/v1/Request/movie/info/{id}`) nor the v2 movie-by-request
//! details, which return any user's movie request (Ombi's TODO): the leak
//! the daemon closes.

use serde_json::{Value, json};

use super::super::state::{Data, user_id};
use super::Ctx;

/// The caller's user id when Ombi hides other users' requests from them.
pub fn hidden_for(ctx: &Ctx, data: &Data) -> Option<String> {
    let p = ctx.principal.as_ref()?;
    if p.is_power_user() || p.api_user {
        return None;
    }
    let on = data.admin.settings.get("ombi")?["hideRequestsUsers"] == json!(true);
    on.then(|| user_id(&p.user_name))
}

/// Whether `r` (a request row) is `me`'s.
pub fn own(r: &Value, me: &str) -> bool {
    r["requestedUserId"] == json!(me) || r["userId"] == json!(me)
}

/// Keeps `me`'s rows only, when hiding applies.
pub fn keep_own(rows: Vec<Value>, me: Option<&str>) -> Vec<Value> {
    match me {
        Some(me) => rows.into_iter().filter(|r| own(r, me)).collect(),
        None => rows,
    }
}

/// A TV parent as the caller sees it: `None` when no child is theirs
/// (`TvRepository.Get(userId)`), else with the others' children removed
/// (`FilterChildren`).
pub fn parent_seen(mut parent: Value, me: Option<&str>) -> Option<Value> {
    let Some(me) = me else {
        return Some(parent);
    };
    let children = parent["childRequests"].as_array_mut()?;
    children.retain(|c| own(c, me));
    (!children.is_empty()).then_some(parent)
}
