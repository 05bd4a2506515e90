//! `write_settings_patch`: its definition. Not served yet: it is in no tool list until its
//! handler exists.

use serde_json::{Map, Value};

use crate::catalogue::params::*;
use crate::catalogue::shape::{Field, Ty};
use crate::catalogue::{Bundle, ToolDef, action};
use crate::contract::{Family, ToolError};

pub static DEF: ToolDef = ToolDef {
    name: "write_settings_patch",
    title: "Change settings",
    bundle: Bundle::Administration,
    destructive: true,
    description: "Change individual non-secret settings of one section. Read the section first with read_settings and pass its `revision`; a stale revision is refused. Secret settings cannot be changed here.",
    families: &[Family::Mutation],
    params: &[
        SECTION,
        Field::opt(
            "revision",
            Ty::Str { min: 1, max: 200 },
            "The `revision` read_settings returned.",
        ),
        CHANGES,
    ],
    actions: &[action(
        "patch",
        "change settings",
        &["section", "revision", "changes"],
        &[],
    )],
    default_action: None,
    check: Some(features_bool),
};

fn features_bool(_action: &str, args: &Map<String, Value>) -> Result<(), ToolError> {
    if args.get("section").and_then(Value::as_str) != Some("features") {
        return Ok(());
    }
    let changes = args
        .get("changes")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[]);
    for (i, c) in changes.iter().enumerate() {
        if !c.get("value").is_some_and(Value::is_boolean) {
            return Err(ToolError::invalid(
                format!("/changes/{i}/value"),
                "section `features` takes boolean values (true to enable a feature)",
            ));
        }
    }
    Ok(())
}
