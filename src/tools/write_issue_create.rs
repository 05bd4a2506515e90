//! `write_issue_create`: its definition. Not served yet: it is in no tool list until its
//! handler exists.

use crate::catalogue::params::*;
use crate::catalogue::shape::{Field, Ty};
use crate::catalogue::{Bundle, ToolDef, action};
use crate::contract::Family;

pub static DEF: ToolDef = ToolDef {
    name: "write_issue_create",
    title: "Report an issue",
    bundle: Bundle::Core,
    destructive: false,
    description: "Report a problem with a title or request (bad quality, wrong language, missing episodes) so admins can fix it. Take `category_id` from read_reference `issue_categories`.",
    families: &[Family::Mutation],
    params: &[
        Field::opt(
            "title",
            Ty::Str { min: 1, max: 200 },
            "Title of the media the issue is about.",
        ),
        Field::opt(
            "description",
            Ty::Str { min: 1, max: 4000 },
            "What is wrong.",
        ),
        CATEGORY_ID,
        REQUEST_TYPE,
        Field::opt(
            "subject",
            Ty::Str { min: 1, max: 200 },
            "Short subject line.",
        ),
        REQUEST_ID,
        PROVIDER_ID,
    ],
    actions: &[action(
        "create",
        "report an issue",
        &["title", "description", "category_id", "request_type"],
        &["subject", "request_id", "provider_id"],
    )],
    default_action: None,
    check: None,
};
