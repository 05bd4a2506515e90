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

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::CallCtx;
use crate::contract::{Failure, Family, Outcome, ToolError};
use crate::projection::issues::{CommentRecord, GroupRecord, IssueRecord};
use crate::projection::requests::RequestRecord;
use crate::upstream::directory::Directory;

/// What replaces withheld text.
pub const WITHHELD: &str = "[withheld: written by another user]";

/// Withholds, in a tool's outcome, what lockdown hides from this peer; one
/// warning says how many records it touched. The page's records are read
/// back as the projection's own types and screened field by field; a page
/// that does not read back is not shown at all.
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
    let Some(items) = data.get_mut("items") else {
        return;
    };
    if items.as_array().is_none_or(Vec::is_empty) {
        return;
    }
    let authors = Authors::read(ctx).await;
    let screened = match family {
        Some(Family::CommentPage) => screen(items, |c: &mut CommentRecord| {
            let hide = !authors.wrote_comment(c);
            if hide {
                c.comment = WITHHELD.into();
            }
            hide
        }),
        Some(Family::IssuePage) => screen(items, |i: &mut IssueRecord| authors.screen_issue(i)),
        Some(Family::RequestPage) => {
            screen(items, |r: &mut RequestRecord| authors.screen_request(r))
        }
        _ => screen(items, |g: &mut GroupRecord| authors.screen_group(g)),
    };
    match screened {
        Ok(0) => {}
        Ok(withheld) => warnings.push(format!(
            "lockdown: the text of {withheld} records written by other users is withheld"
        )),
        Err(e) => {
            *outcome = Err(Failure::from(ToolError::internal(format!(
                "lockdown could not read the records it screens ({e}); nothing is shown"
            ))));
        }
    }
}

/// Reads `items` as `T` records, applies `hide` to each (true when it
/// withheld something) and writes them back when any was changed; returns
/// how many were.
fn screen<T: Serialize + DeserializeOwned>(
    items: &mut Value,
    mut hide: impl FnMut(&mut T) -> bool,
) -> Result<usize, serde_json::Error> {
    let mut records: Vec<T> = serde_json::from_value(items.take())?;
    let withheld = records.iter_mut().map(|r| usize::from(hide(r))).sum();
    *items = serde_json::to_value(records)?;
    Ok(withheld)
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
    let mut shown = Some(name.to_string());
    Authors::read(ctx).await.screen_name(requester, &mut shown);
    shown.unwrap_or_else(|| WITHHELD.to_string())
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

    fn wrote_comment(&self, c: &CommentRecord) -> bool {
        if c.admin_comment == Some(true) {
            return true;
        }
        let (Some(name), Some(me_name)) = (c.author_name.as_deref(), &self.me_name) else {
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
    fn screen_issue(&self, issue: &mut IssueRecord) -> bool {
        let reporter = issue.reported_by_user_id.as_deref();
        let text = !self.trusted(reporter) && withhold(issue_text(issue));
        let name = self.screen_name(
            issue.reported_by_user_id.as_deref(),
            &mut issue.reported_by_user_name,
        );
        text || name
    }

    /// Withholds the name a request is shown under when it may be an alias
    /// someone else chose: shown when the requester is trusted or the name
    /// is their login name.
    fn screen_request(&self, request: &mut RequestRecord) -> bool {
        self.screen_name(
            request.requested_user_id.as_deref(),
            &mut request.requested_user_name,
        )
    }

    /// Withholds `name` (the name the person `id` is shown under) when it may
    /// be an alias someone else chose, by the request rule above.
    fn screen_name(&self, id: Option<&str>, name: &mut Option<String>) -> bool {
        let shown = match (id, name.as_deref()) {
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
        !shown && withhold([name])
    }

    /// A group's nested issues, as issue pages screen them (text and the
    /// reporter's shown name), and its title (an issue title) unless every
    /// nested issue is known and trusted: the summary has none, so there it
    /// is withheld.
    fn screen_group(&self, group: &mut GroupRecord) -> bool {
        let mut all_trusted = false;
        let mut hid = false;
        if let Some(issues) = &mut group.issues {
            all_trusted = !issues.is_empty();
            for issue in issues {
                all_trusted &= self.trusted(issue.reported_by_user_id.as_deref());
                hid |= self.screen_issue(issue);
            }
        }
        if !all_trusted {
            hid |= withhold([&mut group.title]);
        }
        hid
    }
}

/// The issue fields people write.
fn issue_text(issue: &mut IssueRecord) -> [&mut Option<String>; 3] {
    [&mut issue.title, &mut issue.subject, &mut issue.description]
}

/// Replaces each present text of `fields`; true when one was.
fn withhold<const N: usize>(fields: [&mut Option<String>; N]) -> bool {
    let mut any = false;
    for text in fields.into_iter().flatten() {
        *text = WITHHELD.into();
        any = true;
    }
    any
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// Screening reads a page's records as the projection's type and writes
    /// back only what it changed, in the record's key order; a page that
    /// does not read back is an error, never shown unscreened.
    #[test]
    fn screening_rewrites_typed_fields_in_place() {
        let mut items = json!([
            {"id": 4, "title": "Heat", "subject": "No audio", "status": "pending", "status_code": 0,
             "reported_by_user_id": "u-7", "reported_by_user_name": "Bobby"},
            {"id": 5, "status": "resolved", "status_code": 2, "reported_by_user_id": "u-1"}
        ]);
        let hidden = screen(&mut items, |i: &mut IssueRecord| {
            i.reported_by_user_id.as_deref() == Some("u-7") && withhold(issue_text(i))
        });
        assert_eq!(hidden.unwrap(), 1);
        assert_eq!(
            items.to_string(),
            json!([
                {"id": 4, "title": WITHHELD, "subject": WITHHELD, "status": "pending", "status_code": 0,
                 "reported_by_user_id": "u-7", "reported_by_user_name": "Bobby"},
                {"id": 5, "status": "resolved", "status_code": 2, "reported_by_user_id": "u-1"}
            ])
            .to_string()
        );
        let mut foreign = json!([{"id": 4, "comment": "x", "issue_id": 4, "extra": "?"}]);
        assert!(screen(&mut foreign, |_: &mut CommentRecord| false).is_err());
    }

    /// A group's nested issue is screened as on an issue page: a
    /// stranger's text and the name they are shown under are withheld.
    #[test]
    fn a_groups_nested_issues_are_screened_like_issue_pages() {
        let authors = Authors {
            me_id: Some("u-1".into()),
            me_name: Some("al".into()),
            directory: None,
        };
        let issue = |id: i64, reporter: &str| IssueRecord {
            id,
            title: Some("Heat".into()),
            subject: None,
            description: Some("No audio".into()),
            category_id: None,
            status: None,
            status_code: None,
            request_type: None,
            request_type_code: None,
            request_id: None,
            provider_id: None,
            created_date: None,
            resolved_date: None,
            reported_by_user_id: Some(reporter.into()),
            reported_by_user_name: Some("Bobby".into()),
        };
        let mut group = GroupRecord {
            provider_id: Some("949".into()),
            title: Some("Heat".into()),
            count: Some(2),
            issues: Some(vec![issue(1, "u-1"), issue(2, "u-7")]),
        };
        assert!(authors.screen_group(&mut group));
        let issues = group.issues.as_ref().unwrap();
        assert_eq!(issues[0], issue(1, "u-1"), "the acting user's own");
        assert_eq!(issues[1].description.as_deref(), Some(WITHHELD));
        assert_eq!(issues[1].reported_by_user_name.as_deref(), Some(WITHHELD));
        assert_eq!(group.title.as_deref(), Some(WITHHELD));
    }
}
