//! Who is who in Ombi: the acting user as `GET /api/v1/Identity` shows them
//! ([`Me`]), and Ombi's user directory as lockdown needs it
//! (`crate::tools::lockdown`): who holds the `Admin` or `PowerUser` role, and
//! each user's display name. The directory is read from `GET
//! /api/v1/Identity/Users` (PowerUser only; it leaves out system users) under
//! the read cap, as the acting user, and kept per acting user
//! ([`super::cache::Caches`]); a failed read is remembered for [`FAILED`], so
//! a peer Ombi refuses does not read it on every call. A missing directory
//! means "roles unknown": lockdown then withholds.

use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Deserializer};

use super::{Route, Upstream};

/// How long a failed directory read is remembered.
pub const FAILED: Duration = Duration::from_secs(30);

/// The acting user as `GET /api/v1/Identity` shows them (`UserViewModel`):
/// only what the tools use.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Me {
    pub id: Option<String>,
    pub user_name: Option<String>,
    pub alias: Option<String>,
    pub language: Option<String>,
    pub streaming_country: Option<String>,
    /// Of the e-mail address only whether one is set.
    #[serde(default, rename = "emailAddress", deserialize_with = "is_set")]
    pub has_email: bool,
    /// Whether the user holds Admin or PowerUser (Ombi's approve, deny and
    /// statistics routes need one of them); from `claims`, of which only
    /// this is kept.
    #[serde(default, rename = "claims", deserialize_with = "holds_trusted_role")]
    pub moderates: bool,
}

impl Me {
    /// Ombi's `UserAlias`: the alias when set, else the user name (how
    /// Ombi's comments route names authors).
    pub fn display_name(&self) -> Option<&str> {
        self.alias
            .as_deref()
            .filter(|a| !a.is_empty())
            .or(self.user_name.as_deref())
            .filter(|n| !n.is_empty())
    }
}

/// Whether an optional string is set and not blank; the value itself is
/// dropped as it is read (an e-mail address is never kept).
pub fn is_set<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    Ok(Option::<String>::deserialize(d)?.is_some_and(|s| !s.trim().is_empty()))
}

/// Whether a `claims` list enables Admin or PowerUser.
fn holds_trusted_role<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    let claims = Option::<Vec<WireClaim>>::deserialize(d)?.unwrap_or_default();
    Ok(claims.iter().any(|c| {
        c.enabled
            && c.value
                .as_deref()
                .is_some_and(|v| TRUSTED_ROLES.contains(&v))
    }))
}

/// The roles that make an author's text shown under lockdown.
const TRUSTED_ROLES: [&str; 2] = ["Admin", "PowerUser"];

/// Ombi's users as one acting user could read them.
#[derive(Debug)]
pub struct Directory {
    users: Vec<DirectoryUser>,
    /// False when the read hit the cap: users may be missing.
    pub complete: bool,
}

#[derive(Debug)]
struct DirectoryUser {
    id: String,
    /// The login name (what a request shows when its requester has no alias).
    user_name: String,
    /// `UserAlias`: the alias when set, else the user name (what Ombi's
    /// comments route names authors by).
    display_name: String,
    trusted: bool,
}

impl Directory {
    /// Whether user `id` holds Admin or PowerUser.
    pub fn trusted(&self, id: &str) -> bool {
        self.users.iter().any(|u| u.trusted && u.id == id)
    }

    /// Whether `name` is user `id`'s login name (not an alias they were given).
    pub fn is_user_name(&self, id: &str, name: &str) -> bool {
        self.users.iter().any(|u| u.id == id && u.user_name == name)
    }

    /// Whether a user other than `id` shows as `name` (or, the read being
    /// cut, might).
    pub fn name_shared(&self, name: &str, id: &str) -> bool {
        !self.complete
            || self
                .users
                .iter()
                .any(|u| u.id != id && u.display_name == name)
    }
}

/// `UserViewModel`, only what the directory keeps; `claims` lists every
/// role with `enabled` for the ones the user holds.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct WireDirectoryUser {
    id: Option<String>,
    user_name: Option<String>,
    alias: Option<String>,
    #[serde(default)]
    claims: Option<Vec<WireClaim>>,
}

#[derive(Deserialize)]
struct WireClaim {
    value: Option<String>,
    #[serde(default)]
    enabled: bool,
}

impl Directory {
    fn from_wire(rows: Vec<WireDirectoryUser>, complete: bool) -> Directory {
        let users = rows
            .into_iter()
            .filter_map(|u| {
                let id = u.id.filter(|id| !id.is_empty())?;
                let user_name = u.user_name.unwrap_or_default();
                let display_name = u
                    .alias
                    .filter(|a| !a.is_empty())
                    .unwrap_or_else(|| user_name.clone());
                let trusted = u.claims.unwrap_or_default().iter().any(|c| {
                    c.enabled
                        && c.value
                            .as_deref()
                            .is_some_and(|v| TRUSTED_ROLES.contains(&v))
                });
                Some(DirectoryUser {
                    id,
                    user_name,
                    display_name,
                    trusted,
                })
            })
            .collect();
        Directory { users, complete }
    }
}

impl Upstream {
    /// Ombi's user directory as `acting_user` reads it, or `None` when it
    /// cannot be read (not a power user, Ombi down, an unreadable answer).
    pub async fn directory(&self, acting_user: Option<&str>) -> Option<Arc<Directory>> {
        let key = acting_user.map(str::to_string);
        let cache = &self.caches.directory;
        if let Some(known) = cache.get(&key).filter(Option::is_some) {
            return known;
        }
        if let Some(failed) = cache.get_within(&key, FAILED) {
            return failed;
        }
        let read = self
            .get_array::<WireDirectoryUser>(acting_user, Route::get("api/v1/Identity/Users"))
            .await;
        let dir = read
            .ok()
            .map(|got| Arc::new(Directory::from_wire(got.value, !got.cut)));
        cache.put(key, dir.clone());
        dir
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn claims(enabled: &[&str]) -> serde_json::Value {
        json!(
            ["Admin", "PowerUser", "RequestMovie", "Disabled"]
                .iter()
                .map(|r| json!({"value": r, "enabled": enabled.contains(r)}))
                .collect::<Vec<_>>()
        )
    }

    #[test]
    fn admin_and_power_user_holders_are_trusted_by_enabled_claims_only() {
        let rows: Vec<WireDirectoryUser> = serde_json::from_value(json!([
            {"id": "a", "userName": "alice", "alias": "Alice A.", "claims": claims(&["Admin"])},
            {"id": "p", "userName": "pat", "alias": "", "claims": claims(&["PowerUser"])},
            {"id": "b", "userName": "bob", "alias": null, "claims": claims(&["RequestMovie"])},
            {"id": "c", "userName": "carol", "claims": null},
            {"id": "", "userName": "ghost", "claims": claims(&["Admin"])}
        ]))
        .unwrap();
        let d = Directory::from_wire(rows, true);
        assert!(d.trusted("a") && d.trusted("p"));
        assert!(!d.trusted("b") && !d.trusted("c") && !d.trusted(""));
        // Display names are Ombi's `UserAlias`: the alias, else the user name.
        assert!(d.name_shared("Alice A.", "b") && !d.name_shared("Alice A.", "a"));
        assert!(d.name_shared("pat", "b") && !d.name_shared("alice", "b"));
        // A login name is told apart from an alias.
        assert!(d.is_user_name("a", "alice") && !d.is_user_name("a", "Alice A."));
        assert!(!d.is_user_name("b", "alice"));
        // A cut read cannot prove a name unique.
        let cut = Directory::from_wire(Vec::new(), false);
        assert!(cut.name_shared("anyone", "x"));
    }
}
