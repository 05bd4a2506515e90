//! Lockdown (`OMBI_LOCKDOWN`, or `lockdown` in a peer's policy entry): the
//! text of issues (title, subject, description) and comments, and the
//! aliases requests are shown under, of anyone other than the acting user
//! or a holder of Ombi's `Admin` or `PowerUser` role is replaced by
//! [`WITHHELD`]; ids, dates, states and authors (login names) stay
//! (docs/security.md). Applied once per result, on the projected records,
//! by [`crate::tools::call`].
//!
//! Who wrote what: an issue names its reporter's id, checked against the
//! acting user's id (`GET /api/v1/Identity`) and Ombi's user directory
//! ([`crate::upstream::directory`], cached); a comment names its author only
//! by display name with Ombi's own `admin_comment` flag (Admin, PowerUser or
//! a system user), so a comment is the acting user's when the names match
//! and the directory, when readable, shows no other user by that name. A
//! request names its requester by id and by Ombi's `UserAlias` (the alias,
//! else the login name): the name stays when it is the requester's login
//! name in the directory. Whatever cannot be established is withheld.

use std::sync::Arc;

use serde_json::{Map, Value};

use super::CallCtx;
use crate::contract::{Family, Outcome};
use crate::upstream::directory::Directory;

/// What replaces withheld text.
pub const WITHHELD: &str = "[withheld: written by another user]";

/// The issue fields people write.
const ISSUE_TEXT: [&str; 3] = ["title", "subject", "description"];

/// Withholds, in a tool's outcome, what lockdown hides from this peer; one
/// warning says how many records it touched.
pub async fn apply(ctx: &CallCtx, outcome: &mut Outcome) {
    if !ctx.identity.lockdown {
        return;
    }
    let (data, warnings) = match outcome {
        Ok(r) => (&mut r.data, &mut r.warnings),
        Err(f) => match f.data.as_mut() {
            Some(d) => (d, &mut f.warnings),
            None => return,
        },
    };
    let family = Family::of(data);
    if !matches!(
        family,
        Some(Family::IssuePage | Family::GroupPage | Family::CommentPage | Family::RequestPage)
    ) {
        return;
    }
    let Some(Value::Array(items)) = data.get_mut("items") else {
        return;
    };
    if items.is_empty() {
        return;
    }
    let authors = Authors::read(ctx).await;
    let mut withheld = 0;
    for item in items.iter_mut().filter_map(Value::as_object_mut) {
        let hid = match family {
            Some(Family::CommentPage) => {
                !authors.wrote_comment(item) && withhold(item, &["comment"])
            }
            Some(Family::IssuePage) => authors.screen_issue(item),
            Some(Family::RequestPage) => authors.screen_request(item),
            _ => authors.screen_group(item),
        };
        withheld += usize::from(hid);
    }
    if withheld > 0 {
        warnings.push(format!(
            "lockdown: the text of {withheld} records written by other users is withheld"
        ));
    }
}

/// Whether a confirmation question may quote the text of an issue reported
/// by `reporter` (interaction.md §1: questions obey lockdown as results do).
pub async fn shows_issue_text(ctx: &CallCtx, reporter: Option<&str>) -> bool {
    !ctx.identity.lockdown || Authors::read(ctx).await.trusted(reporter)
}

/// The name a question may show a request under: `name` itself, or
/// [`WITHHELD`] when lockdown hides it from this peer (an alias someone
/// else chose), by the rule results follow.
pub async fn request_name_shown(ctx: &CallCtx, requester: Option<&str>, name: &str) -> String {
    if !ctx.identity.lockdown {
        return name.to_string();
    }
    let mut record = Map::new();
    if let Some(id) = requester {
        record.insert("requested_user_id".into(), id.into());
    }
    record.insert("requested_user_name".into(), name.into());
    Authors::read(ctx).await.screen_request(&mut record);
    match record.get("requested_user_name") {
        Some(Value::String(shown)) => shown.clone(),
        _ => WITHHELD.to_string(),
    }
}

/// Who the acting user is and which authors are trusted, as far as known.
struct Authors {
    me_id: Option<String>,
    me_name: Option<String>,
    directory: Option<Arc<Directory>>,
}

impl Authors {
    async fn read(ctx: &CallCtx) -> Authors {
        let me = ctx.me_cached().await.ok();
        // Who holds Admin/PowerUser, as the daemon's own credentials see it:
        // a plain acting user cannot read Ombi's users.
        let directory = ctx.upstream.own_directory().await;
        Authors {
            me_id: me
                .as_ref()
                .and_then(|m| m.id.clone())
                .filter(|i| !i.is_empty()),
            me_name: me
                .as_ref()
                .and_then(|m| m.display_name().map(str::to_string)),
            directory,
        }
    }

    /// The acting user, or a user the directory shows holding Admin or
    /// PowerUser.
    fn trusted(&self, id: Option<&str>) -> bool {
        let Some(id) = id else { return false };
        self.me_id.as_deref() == Some(id) || self.directory.as_ref().is_some_and(|d| d.trusted(id))
    }

    fn wrote_comment(&self, c: &Map<String, Value>) -> bool {
        if c.get("admin_comment") == Some(&Value::Bool(true)) {
            return true;
        }
        let (Some(name), Some(me_name)) =
            (c.get("author_name").and_then(Value::as_str), &self.me_name)
        else {
            return false;
        };
        let me_id = self.me_id.as_deref().unwrap_or_default();
        name == me_name
            && !self
                .directory
                .as_ref()
                .is_some_and(|d| d.name_shared(name, me_id))
    }

    /// Withholds an issue's text unless its reporter is trusted.
    fn screen_issue(&self, issue: &mut Map<String, Value>) -> bool {
        let reporter = issue.get("reported_by_user_id").and_then(Value::as_str);
        let text = !self.trusted(reporter) && withhold(issue, &ISSUE_TEXT);
        let name = self.screen_name(issue, "reported_by_user_id", "reported_by_user_name");
        text || name
    }

    /// Withholds the name a request is shown under when it may be an alias
    /// someone else chose: shown when the requester is trusted or the name
    /// is their login name.
    fn screen_request(&self, request: &mut Map<String, Value>) -> bool {
        self.screen_name(request, "requested_user_id", "requested_user_name")
    }

    /// Withholds `name_key` (the name a person is shown under) when it may
    /// be an alias someone else chose, by the request rule above.
    fn screen_name(&self, record: &mut Map<String, Value>, id_key: &str, name_key: &str) -> bool {
        let requester = record.get(id_key).and_then(Value::as_str);
        let name = record.get(name_key).and_then(Value::as_str);
        let shown = match (requester, name) {
            (_, None) => true,
            (Some(id), Some(name)) => {
                self.trusted(Some(id))
                    || self
                        .directory
                        .as_ref()
                        .is_some_and(|d| d.is_user_name(id, name))
            }
            (None, Some(_)) => false,
        };
        !shown && withhold(record, &[name_key])
    }

    /// A group's nested issues, and its title (an issue title) unless every
    /// nested issue is known and trusted: the summary has none, so there it
    /// is withheld.
    fn screen_group(&self, group: &mut Map<String, Value>) -> bool {
        let mut all_trusted = false;
        let mut hid = false;
        if let Some(Value::Array(issues)) = group.get_mut("issues") {
            all_trusted = !issues.is_empty();
            for issue in issues.iter_mut().filter_map(Value::as_object_mut) {
                let trusted =
                    self.trusted(issue.get("reported_by_user_id").and_then(Value::as_str));
                all_trusted &= trusted;
                hid |= !trusted && withhold(issue, &ISSUE_TEXT);
            }
        }
        if !all_trusted {
            hid |= withhold(group, &["title"]);
        }
        hid
    }
}

/// Replaces the present string `fields` of `record`; true when one was.
fn withhold(record: &mut Map<String, Value>, fields: &[&str]) -> bool {
    let mut any = false;
    for f in fields {
        if let Some(v @ Value::String(_)) = record.get_mut(*f) {
            *v = Value::String(WITHHELD.into());
            any = true;
        }
    }
    any
}
