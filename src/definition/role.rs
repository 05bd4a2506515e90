//! The Ombi role an action needs ([`Role`], declared per action with
//! `#[action(role = "…")]`) and the roles an Ombi user holds ([`Held`]).
//! Read from Ombi v4.59.3's C#: the controllers' `[Admin]` / `[PowerUser]` /
//! `[Authorize(Roles = …)]` attributes and the engines' own role checks
//! (docs/roles.md is the table, made from the declarations).

use std::fmt;

/// The role an action needs in Ombi, weakest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Role {
    /// Any signed-in Ombi user (`[Authorize]`, or anonymous routes).
    User,
    /// `[Authorize(Roles = "Admin,PowerUser,ManageOwnRequests")]` with
    /// `BaseMediaEngine.CheckCanManageRequest`: Admin and PowerUser on any
    /// request, ManageOwnRequests on one's own.
    ManageOwnRequests,
    /// `[PowerUser]`: Admin or PowerUser.
    PowerUser,
    /// `[Admin]`.
    Admin,
}

impl Role {
    pub const ALL: [Role; 4] = [
        Role::User,
        Role::ManageOwnRequests,
        Role::PowerUser,
        Role::Admin,
    ];

    /// Ombi's name of the role (its `OmbiRoles` constant).
    pub fn name(self) -> &'static str {
        match self {
            Role::User => "User",
            Role::ManageOwnRequests => "ManageOwnRequests",
            Role::PowerUser => "PowerUser",
            Role::Admin => "Admin",
        }
    }

    /// The declaration's spelling (`#[action(role = "PowerUser")]`).
    pub fn parse(s: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.name() == s)
    }

    /// Who in Ombi holds what this role allows, in words for the docs table.
    pub fn holders(self) -> &'static str {
        match self {
            Role::User => "every user",
            Role::ManageOwnRequests => "Admin, PowerUser; ManageOwnRequests for one's own requests",
            Role::PowerUser => "Admin, PowerUser",
            Role::Admin => "Admin",
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The roles an Ombi user holds, as far as what actions need goes. Root's
/// peer and Ombi's system user `Api` (the bare API key) hold Admin.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Held {
    pub admin: bool,
    pub power_user: bool,
    pub manage_own_requests: bool,
}

impl Held {
    /// Everything (Admin).
    pub const ADMIN: Held = Held {
        admin: true,
        power_user: false,
        manage_own_requests: false,
    };
    /// A user with none of the roles actions ask for.
    pub const PLAIN: Held = Held {
        admin: false,
        power_user: false,
        manage_own_requests: false,
    };

    /// From Ombi's role names (a user's enabled claims).
    pub fn from_names<'a>(names: impl IntoIterator<Item = &'a str>) -> Held {
        let mut held = Held::PLAIN;
        for n in names {
            match n {
                "Admin" => held.admin = true,
                "PowerUser" => held.power_user = true,
                "ManageOwnRequests" => held.manage_own_requests = true,
                _ => {}
            }
        }
        held
    }

    /// Whether these roles reach an action needing `role`. ManageOwnRequests
    /// counts here: the action stays, and someone else's request is refused
    /// by Ombi (`CheckCanManageRequest`).
    pub fn allows(self, role: Role) -> bool {
        match role {
            Role::User => true,
            Role::ManageOwnRequests => self.admin || self.power_user || self.manage_own_requests,
            Role::PowerUser => self.admin || self.power_user,
            Role::Admin => self.admin,
        }
    }

    /// Whether other users' requests and texts are open to this user
    /// (Admin or PowerUser: Ombi's `HideFromOtherUsers` exempts them).
    pub fn trusted(self) -> bool {
        self.admin || self.power_user
    }

    /// The strongest role held, in words ("Admin", "PowerUser", "User").
    pub fn strongest(self) -> Role {
        if self.admin {
            Role::Admin
        } else if self.power_user {
            Role::PowerUser
        } else if self.manage_own_requests {
            Role::ManageOwnRequests
        } else {
            Role::User
        }
    }

    /// The role an action Ombi refused (403) must need, given what the user
    /// holds: the declared one when it is missing, else the next one up.
    pub fn refused_for(self, declared: Role) -> Role {
        if !self.allows(declared) {
            return declared;
        }
        Role::ALL
            .into_iter()
            .find(|r| *r > declared && !self.allows(*r))
            .unwrap_or(Role::Admin)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_reach_what_ombi_lets_them() {
        let plain = Held::from_names(["RequestMovie", "RequestTv"]);
        let own = Held::from_names(["ManageOwnRequests"]);
        let power = Held::from_names(["PowerUser"]);
        assert!(plain.allows(Role::User) && !plain.allows(Role::ManageOwnRequests));
        assert!(own.allows(Role::ManageOwnRequests) && !own.allows(Role::PowerUser));
        assert!(power.allows(Role::ManageOwnRequests) && power.allows(Role::PowerUser));
        assert!(!power.allows(Role::Admin) && Held::ADMIN.allows(Role::Admin));
        assert!(Held::ADMIN.allows(Role::PowerUser) && Held::ADMIN.trusted());
        assert_eq!(plain.strongest(), Role::User);
        assert_eq!(power.refused_for(Role::PowerUser), Role::Admin);
        assert_eq!(own.refused_for(Role::ManageOwnRequests), Role::PowerUser);
        assert_eq!(plain.refused_for(Role::PowerUser), Role::PowerUser);
        assert_eq!(Role::parse("PowerUser"), Some(Role::PowerUser));
        assert_eq!(Role::parse("Root"), None);
    }
}
