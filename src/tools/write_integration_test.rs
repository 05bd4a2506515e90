//! `write_integration_test`: its definition. Not served yet: it is in no tool list until its
//! handler exists.

use crate::catalogue::params::*;
use crate::catalogue::shape::{Field, Ty};
use crate::catalogue::{Bundle, ToolDef, action};
use crate::contract::Family;

pub static DEF: ToolDef = ToolDef {
    name: "write_integration_test",
    title: "Test an integration",
    bundle: Bundle::Administration,
    destructive: false,
    description: "Test a saved notification agent or connection (media server, Radarr/Sonarr/Lidarr). Notification tests send a real message.",
    families: &[Family::Mutation],
    params: &[Field::opt(
        "target",
        Ty::Enum(TEST_TARGETS),
        "Integration to test with its saved settings.",
    )],
    actions: &[action("test", "run the test", &["target"], &[])],
    default_action: None,
    check: None,
};
