use kernel::Currency;
use serde::Serialize;

/// Roles (spec §1, §6). Only players (0) may use the player app's session. The operator's
/// staff (issue 22) are admin (4), support (5: read-only and notes), finance (6: money) and
/// content (7: pages, slides, banners); what each may do is the server's permission matrix
/// (`server::api::staff`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Role {
    Player,
    Partner,
    Cashier,
    SuperAgent,
    Admin,
    Support,
    Finance,
    Content,
}

impl Role {
    pub const ALL: [Role; 8] =
        [Role::Player, Role::Partner, Role::Cashier, Role::SuperAgent, Role::Admin, Role::Support, Role::Finance, Role::Content];

    /// The operator's staff: the console's users.
    pub const fn is_staff(self) -> bool {
        matches!(self, Role::Admin | Role::Support | Role::Finance | Role::Content)
    }

    pub const fn code(self) -> i64 {
        match self {
            Role::Player => 0,
            Role::Partner => 1,
            Role::Cashier => 2,
            Role::SuperAgent => 3,
            Role::Admin => 4,
            Role::Support => 5,
            Role::Finance => 6,
            Role::Content => 7,
        }
    }

    pub fn from_code(code: i64) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.code() == code)
    }

    pub const fn name(self) -> &'static str {
        match self {
            Role::Player => "player",
            Role::Partner => "partner",
            Role::Cashier => "cashier",
            Role::SuperAgent => "super_agent",
            Role::Admin => "admin",
            Role::Support => "support",
            Role::Finance => "finance",
            Role::Content => "content",
        }
    }

    pub fn parse(s: &str) -> Option<Role> {
        let s = s.trim().to_ascii_lowercase().replace('-', "_");
        Role::ALL.into_iter().find(|r| r.name() == s || r.code().to_string() == s || (s == "superagent" && *r == Role::SuperAgent))
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct User {
    pub id: i64,
    pub email: Option<String>,
    pub phone: Option<String>,
    pub role: Role,
    pub currency: Currency,
    pub first_name: String,
    pub last_name: String,
    pub middle_name: String,
    pub birth_date: Option<String>,
    pub gender: Option<String>,
    pub number_document: Option<String>,
    pub address: Option<String>,
    pub card: Option<String>,
    pub yandex: Option<String>,
    pub lang: String,
    pub email_verified: bool,
    pub is_banned: bool,
    pub is_banned_on_betroute: bool,
    pub is_partner: bool,
    pub parent_cashier_id: Option<i64>,
    pub parent_super_agent_id: Option<i64>,
    pub parent_admin_id: Option<i64>,
    pub registered_via: String,
    pub created_at: i64,
    /// Responsible gambling: end of a self-exclusion ([`kernel::errors::RG_PERMANENT`] when
    /// permanent) and of a cool-off, epoch ms (see [`crate::rg`]).
    pub self_excluded_until: Option<i64>,
    pub cool_off_until: Option<i64>,
}

impl User {
    /// Spec §3: `login` comes from the e-mail field (the phone for phone accounts).
    pub fn login(&self) -> String {
        self.email.clone().or_else(|| self.phone.clone()).unwrap_or_default()
    }

    /// Spec §3: true when the user has no parent cashier, parent super admin or parent
    /// admin, or is the one special account (`special_user_id`).
    pub fn is_on_paykassma_payment(&self, special_user_id: Option<i64>) -> bool {
        (self.parent_cashier_id.is_none() && self.parent_super_agent_id.is_none() && self.parent_admin_id.is_none())
            || special_user_id == Some(self.id)
    }

    pub fn is_partner(&self) -> bool {
        self.is_partner || self.role == Role::Partner
    }
}

/// How a new account is created by the CLI and the seed.
#[derive(Debug, Clone)]
pub struct NewUser {
    pub email: Option<String>,
    pub phone: Option<String>,
    pub password: String,
    pub role: Role,
    pub currency: Currency,
    pub first_name: String,
    pub last_name: String,
    pub registered_via: &'static str,
}

/// Profile update (spec §7 `profile/additional/update`): only given fields change.
#[derive(Debug, Clone, Default)]
pub struct ProfileUpdate {
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub middle_name: Option<String>,
    pub birth_date: Option<String>,
    pub phone: Option<String>,
    pub number_document: Option<String>,
    pub gender: Option<String>,
}

/// A freshly signed-in session.
#[derive(Debug, Clone)]
pub struct SignedIn {
    pub user: User,
    /// The opaque session token (shown once; only its hash is stored).
    pub token: String,
    pub expires_at: i64,
}
