//! Server status, about, media-server reachability, updates, features and
//! cron checks → `metrics` (scope `instance`) or `reference_page` (features).
//! `about` drops the storage paths and connection strings it carries.

use super::metrics::{Metric, metrics};
use serde::Deserialize;
use serde_json::Value;

use crate::text::message::sanitize;

/// `GET /api/v1/Status/Wizard`: `{result: wizardCompleted}`.
#[derive(Debug, Deserialize)]
pub struct WireWizard {
    pub result: Option<bool>,
}

/// `status`: the HTTP-status number `GET /api/v1/Status` answers (200), the
/// version string of `Status/info`, and whether the setup wizard is done.
/// A part that could not be read is left out (the handler warns).
pub fn status(code: Option<i64>, version: Option<&str>, wizard: Option<&WireWizard>) -> Value {
    let mut v = Vec::new();
    if let Some(c) = code {
        v.push(Metric::instance("status_code", c));
        v.push(Metric::instance("healthy", c == 200));
    }
    if let Some(s) = version.map(sanitize).filter(|s| !s.is_empty()) {
        v.push(Metric::instance("version", s));
    }
    if let Some(done) = wizard.and_then(|w| w.result) {
        v.push(Metric::instance("wizard_completed", done));
    }
    metrics(v)
}

/// `AboutViewModel`, minus `applicationBasePath`,
/// `storagePath` and the connection strings: they are never deserialized.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WireAbout {
    pub version: Option<String>,
    pub branch: Option<String>,
    pub framework_description: Option<String>,
    pub os_architecture: Option<String>,
    pub os_description: Option<String>,
    pub process_architecture: Option<String>,
    pub ombi_database_type: Option<String>,
    pub external_database_type: Option<String>,
    pub settings_database_type: Option<String>,
    pub not_supported: Option<bool>,
}

pub fn about(a: &WireAbout) -> Value {
    let texts = [
        ("version", &a.version),
        ("branch", &a.branch),
        ("framework", &a.framework_description),
        ("os_architecture", &a.os_architecture),
        ("os_description", &a.os_description),
        ("process_architecture", &a.process_architecture),
        ("ombi_database_type", &a.ombi_database_type),
        ("external_database_type", &a.external_database_type),
        ("settings_database_type", &a.settings_database_type),
    ];
    let mut v: Vec<Metric> = texts
        .iter()
        .filter_map(|(n, s)| s.as_deref().map(|s| Metric::instance(n, sanitize(s))))
        .collect();
    if let Some(b) = a.not_supported {
        v.push(Metric::instance("not_supported", b));
    }
    metrics(v)
}

/// `MediaSeverAvailibilityViewModel` (sic, `GET /api/v1/LandingPage`).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WireMediaServers {
    pub servers_available: Option<i64>,
    pub servers_unavailable: Option<i64>,
    pub partially_down: Option<bool>,
    pub completely_down: Option<bool>,
    pub fully_available: Option<bool>,
    pub total_servers: Option<i64>,
}

/// The counts and flags (the handler adds the server names, then makes
/// them a `metrics` object).
pub fn media_servers(m: &WireMediaServers) -> Vec<Metric> {
    let mut v = Vec::new();
    for (n, x) in [
        ("servers_available", m.servers_available),
        ("servers_unavailable", m.servers_unavailable),
        ("total_servers", m.total_servers),
    ] {
        if let Some(x) = x {
            v.push(Metric::instance(n, x));
        }
    }
    for (n, x) in [
        ("fully_available", m.fully_available),
        ("partially_down", m.partially_down),
        ("completely_down", m.completely_down),
    ] {
        if let Some(x) = x {
            v.push(Metric::instance(n, x));
        }
    }
    v
}

/// `UpdateModel` (`GET /api/v1/Update`): the latest release for the
/// configured branch. Change logs and download URLs are not returned.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WireUpdate {
    pub update_version_string: Option<String>,
    pub update_available: Option<bool>,
    pub update_date: Option<String>,
}

/// `update`: the release feed's answer, plus the updater's own check
/// (`GET /api/v1/Job/update`, Admin) when it could be read. The updater
/// answers `false` also when its check failed, hence the separate name.
pub fn update(u: Option<&WireUpdate>, updater_check: Option<bool>) -> Value {
    let mut v = Vec::new();
    if let Some(u) = u {
        if let Some(b) = u.update_available {
            v.push(Metric::instance("update_available", b));
        }
        if let Some(s) = u.update_version_string.as_deref() {
            v.push(Metric::instance("latest_version", sanitize(s)));
        }
        if let Some(d) = u.update_date.as_deref() {
            v.push(Metric::instance("checked_at", sanitize(d)));
        }
    }
    if let Some(b) = updater_check {
        v.push(Metric::instance("updater_reports_update", b));
    }
    metrics(v)
}

/// `FeatureEnablement` (`GET /api/v2/Features`).
#[derive(Debug, Deserialize)]
pub struct WireFeature {
    pub name: Option<String>,
    pub enabled: Option<bool>,
}

/// Whether the named feature is on (`Movie4KRequests`, `PlayedSync`).
pub fn feature_enabled(rows: &[WireFeature], name: &str) -> bool {
    rows.iter().any(|f| {
        f.name
            .as_deref()
            .is_some_and(|n| n.eq_ignore_ascii_case(name))
            && f.enabled == Some(true)
    })
}

/// `CronTestModel` (`POST /api/v1/Settings/testcron`): `{success, message}`.
#[derive(Debug, Deserialize)]
pub struct WireCronTest {
    pub success: Option<bool>,
    pub message: Option<String>,
}

pub fn cron(c: &WireCronTest, expression: &str) -> Value {
    let mut v = vec![Metric::instance("expression", expression)];
    if let Some(b) = c.success {
        v.push(Metric::instance("valid", b));
    }
    if let Some(m) = c.message.as_deref().map(sanitize).filter(|m| !m.is_empty()) {
        v.push(Metric::instance("message", m));
    }
    metrics(v)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::family_schema::assert_family;
    use super::*;

    fn metric(name: &str, value: Value) -> Value {
        json!({"name": name, "value": value, "scope": "instance"})
    }

    #[test]
    fn about_drops_paths_and_connection_strings() {
        let a: WireAbout = serde_json::from_value(json!({
            "version": "4.59.3", "branch": "Stable", "frameworkDescription": ".NET 8.0.4",
            "osArchitecture": "X64", "osDescription": "Linux 6.8.0", "processArchitecture": "X64",
            "applicationBasePath": "/srv/secret-install", "ombiDatabaseType": "Sqlite",
            "externalDatabaseType": "MySQL", "settingsDatabaseType": "Sqlite",
            "ombiConnectionString": "Server=db;Password=hunter2", "externalConnectionString": null,
            "settingsConnectionString": null, "storagePath": "/var/lib/ombi-data", "notSupported": false
        }))
        .unwrap();
        let out = about(&a);
        let text = out.to_string();
        assert!(!text.contains("/srv/secret-install") && !text.contains("/var/lib/ombi-data"));
        assert!(!text.contains("hunter2"));
        assert!(
            out["values"]
                .as_array()
                .unwrap()
                .contains(&metric("version", json!("4.59.3")))
        );
        assert!(
            out["values"]
                .as_array()
                .unwrap()
                .contains(&metric("not_supported", json!(false)))
        );
        assert_family("metrics", &out);
    }

    #[test]
    fn status_reports_number_version_and_wizard() {
        let w = WireWizard { result: Some(true) };
        let out = status(Some(200), Some("4.59.3"), Some(&w));
        assert_eq!(
            out["values"],
            json!([
                metric("status_code", json!(200)),
                metric("healthy", json!(true)),
                metric("version", json!("4.59.3")),
                metric("wizard_completed", json!(true))
            ])
        );
    }

    #[test]
    fn missing_parts_stay_absent() {
        let out = status(None, None, None);
        assert_eq!(out["values"], json!([]));
        let u: WireUpdate =
            serde_json::from_value(json!({"updateVersionString": "v4.60.0"})).unwrap();
        let out = update(Some(&u), None);
        assert_eq!(
            out["values"],
            json!([metric("latest_version", json!("v4.60.0"))])
        );
    }

    #[test]
    fn feature_switches_by_name() {
        let rows: Vec<WireFeature> =
            serde_json::from_value(json!([{"name": "Movie4KRequests", "enabled": true}, {"name": "PlayedSync", "enabled": false}]))
                .unwrap();
        assert!(feature_enabled(&rows, "movie4krequests"));
        assert!(!feature_enabled(&rows, "PlayedSync"));
    }

    #[test]
    fn media_servers_counts_and_flags() {
        let m: WireMediaServers = serde_json::from_value(json!({
            "serversAvailable": 1, "serversUnavailable": 1, "partiallyDown": true,
            "completelyDown": false, "fullyAvailable": false, "totalServers": 2
        }))
        .unwrap();
        let out = media_servers(&m);
        assert_eq!(out.len(), 6);
        assert!(out.contains(&Metric::instance("partially_down", true)));
    }
}
