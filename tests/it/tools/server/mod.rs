//! The server tools (`src/tools/server/`): Ombi's status, integrations, settings and logs, and the
//! writes that patch settings, test integrations and run jobs. The helpers here are shared by several
//! of them.

mod read_integration;
mod read_logs;
mod read_server;
mod read_settings;
mod write_integration_test;
mod write_job_run;
mod write_settings_patch;

use serde_json::Value;

use crate::support::rig::Rig;

fn metric<'a>(r: &'a Value, name: &str) -> &'a Value {
    r["data"]["values"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == name)
        .map(|m| &m["value"])
        .unwrap_or_else(|| panic!("no metric {name} in {r}"))
}

fn setting(rig: &Rig, key: &str) -> Value {
    rig.fake
        .with_data(|d| d.admin.settings.get(key).cloned().expect("section"))
}
