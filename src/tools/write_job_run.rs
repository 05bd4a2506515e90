//! `write_job_run`: its definition. Not served yet: it is in no tool list until its
//! handler exists.

use crate::catalogue::params::*;
use crate::catalogue::shape::{Field, Ty};
use crate::catalogue::{Bundle, ToolDef, action};
use crate::contract::Family;

pub static DEF: ToolDef = ToolDef {
    name: "write_job_run",
    title: "Run a job",
    bundle: Bundle::Administration,
    destructive: true,
    description: "Start a background Ombi job now: media-server library syncs, user importers, availability checks, the Plex watchlist import (may create requests) or the newsletter (emails every user). Fire-and-forget: no progress is reported.",
    families: &[Family::Mutation],
    params: &[Field::opt("job", Ty::Enum(JOBS), "Job to start.")],
    actions: &[action("run", "start the job", &["job"], &[])],
    default_action: None,
    check: None,
};
