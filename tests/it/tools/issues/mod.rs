//! The issue tools (`src/tools/issues/`): reading issues and creating, commenting on and managing
//! them.

mod read_issues;
mod write_issue_comment;
mod write_issue_create;
mod write_issue_manage;
