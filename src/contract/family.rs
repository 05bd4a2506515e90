//! The result families of the contract (`docs/contract.md` "Families"): each
//! is a `$defs` entry and the `kind` constant of the `data` object.

use serde_json::Value;

/// One result family. Producers name a family by this enum; its `$defs`
/// name exists only in [`Family::def_name`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    MediaPage,
    RequestPage,
    IssuePage,
    CommentPage,
    GroupPage,
    VotePage,
    UserPage,
    ReferencePage,
    Metrics,
    Settings,
    CalendarPage,
    ArtworkPage,
    RetryPage,
    Logs,
    Mutation,
}

impl Family {
    pub const ALL: [Family; 15] = [
        Family::MediaPage,
        Family::RequestPage,
        Family::IssuePage,
        Family::CommentPage,
        Family::GroupPage,
        Family::VotePage,
        Family::UserPage,
        Family::ReferencePage,
        Family::Metrics,
        Family::Settings,
        Family::CalendarPage,
        Family::ArtworkPage,
        Family::RetryPage,
        Family::Logs,
        Family::Mutation,
    ];

    /// The family's `$defs` name, which is also its `kind` constant.
    pub fn def_name(self) -> &'static str {
        match self {
            Family::MediaPage => "media_page",
            Family::RequestPage => "request_page",
            Family::IssuePage => "issue_page",
            Family::CommentPage => "comment_page",
            Family::GroupPage => "group_page",
            Family::VotePage => "vote_page",
            Family::UserPage => "user_page",
            Family::ReferencePage => "reference_page",
            Family::Metrics => "metrics",
            Family::Settings => "settings",
            Family::CalendarPage => "calendar_page",
            Family::ArtworkPage => "artwork_page",
            Family::RetryPage => "retry_page",
            Family::Logs => "logs",
            Family::Mutation => "mutation",
        }
    }

    /// The family a `data` object declares with its `kind`.
    pub fn of(data: &Value) -> Option<Family> {
        let kind = data.get("kind")?.as_str()?;
        Family::ALL.into_iter().find(|f| f.def_name() == kind)
    }
}
