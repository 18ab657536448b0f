//! Who on the operator's staff may do what (issue 22): one permission matrix, checked by every
//! console endpoint through [`require`] before it reads or changes anything. Any other role
//! (players, partners, cashiers, super agents, staff without the permission) gets 24; a guest
//! gets 23 from the session extractor. The access-control matrix test
//! (`tests/api/access.rs`) calls every `/api/admin/` operation of the OpenAPI document as
//! each role, against its own table of who should pass.
//!
//! Staff sign in with their password and a TOTP code (`POST /api/staff/login`,
//! `accounts::totp`); a console call on any other session of a staff account (the player
//! sign-in) answers 142.

use super::envelope::ApiError;
use super::extract::{staff_session_token, Session};
use crate::app::AppState;
use accounts::Role;
use axum::extract::{FromRef, FromRequestParts};
use axum::http::request::Parts;
use kernel::{AppError, ErrorCode};
use std::marker::PhantomData;

/// What a console endpoint does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Permission {
    /// Read the audit trail and check its chain.
    AuditRead,
    /// Manual balance adjustments through the audited ledger path.
    MoneyAdjust,
    /// Promotions: templates, codes, grants, free bets, jackpots, draws, cashback runs.
    PromotionsManage,
    /// Find players and read their card.
    PlayersRead,
    /// Ban and unban players.
    PlayersBan,
    /// Write notes on a player's card.
    PlayersNote,
    /// The withdrawal queue: read it, approve and reject.
    WithdrawalsDecide,
    /// Reach the console at all (`GET /api/admin/me`): every staff role.
    Console,
    /// The GGR/NGR reports and their CSV export.
    ReportsRead,
}

impl Permission {
    pub const ALL: [Permission; 9] = [
        Permission::AuditRead,
        Permission::MoneyAdjust,
        Permission::PromotionsManage,
        Permission::PlayersRead,
        Permission::PlayersBan,
        Permission::PlayersNote,
        Permission::WithdrawalsDecide,
        Permission::Console,
        Permission::ReportsRead,
    ];

    /// The name the console's navigation reads (`GET /api/admin/me`).
    pub const fn name(self) -> &'static str {
        match self {
            Permission::AuditRead => "audit.read",
            Permission::MoneyAdjust => "money.adjust",
            Permission::PromotionsManage => "promotions.manage",
            Permission::PlayersRead => "players.read",
            Permission::PlayersBan => "players.ban",
            Permission::PlayersNote => "players.note",
            Permission::WithdrawalsDecide => "withdrawals.decide",
            Permission::Console => "console",
            Permission::ReportsRead => "reports.read",
        }
    }
}

/// The matrix: admin may do everything; support reads (players, the audit trail) and writes
/// notes; finance moves money, reads and writes notes; content edits the site (its endpoints come with the content
/// console).
pub const fn allowed(role: Role, permission: Permission) -> bool {
    match permission {
        Permission::AuditRead => matches!(role, Role::Admin | Role::Support | Role::Finance),
        Permission::MoneyAdjust => matches!(role, Role::Admin | Role::Finance),
        Permission::PromotionsManage => matches!(role, Role::Admin),
        Permission::PlayersRead => matches!(role, Role::Admin | Role::Support | Role::Finance),
        Permission::PlayersBan => matches!(role, Role::Admin),
        Permission::PlayersNote => matches!(role, Role::Admin | Role::Support | Role::Finance),
        Permission::WithdrawalsDecide => matches!(role, Role::Admin | Role::Finance),
        Permission::Console => role.is_staff(),
        Permission::ReportsRead => matches!(role, Role::Admin | Role::Finance),
    }
}

/// The permissions as types, for the [`Staff`] extractor.
pub mod perm {
    use super::Permission;

    pub trait Perm {
        const PERMISSION: Permission;
    }
    pub struct AuditRead;
    impl Perm for AuditRead {
        const PERMISSION: Permission = Permission::AuditRead;
    }
    pub struct MoneyAdjust;
    impl Perm for MoneyAdjust {
        const PERMISSION: Permission = Permission::MoneyAdjust;
    }
    pub struct Promotions;
    impl Perm for Promotions {
        const PERMISSION: Permission = Permission::PromotionsManage;
    }
    pub struct PlayersRead;
    impl Perm for PlayersRead {
        const PERMISSION: Permission = Permission::PlayersRead;
    }
    pub struct PlayersBan;
    impl Perm for PlayersBan {
        const PERMISSION: Permission = Permission::PlayersBan;
    }
    pub struct PlayersNote;
    impl Perm for PlayersNote {
        const PERMISSION: Permission = Permission::PlayersNote;
    }
    pub struct WithdrawalsDecide;
    impl Perm for WithdrawalsDecide {
        const PERMISSION: Permission = Permission::WithdrawalsDecide;
    }
    pub struct Console;
    impl Perm for Console {
        const PERMISSION: Permission = Permission::Console;
    }
    pub struct ReportsRead;
    impl Perm for ReportsRead {
        const PERMISSION: Permission = Permission::ReportsRead;
    }
}

/// A signed-in staff member holding `P`: resolved from the request's head, so it runs before
/// the body or the query is read — any other role gets 24 whatever it sent.
pub struct Staff<P> {
    /// As the audit trail names them (`admin:12`).
    pub actor: String,
    pub session: Session,
    perm: PhantomData<P>,
}

impl<S, P> FromRequestParts<S> for Staff<P>
where
    AppState: FromRef<S>,
    S: Send + Sync,
    P: perm::Perm + Send,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let state = AppState::from_ref(state);
        let token = staff_session_token(parts).ok_or(ErrorCode::NotAuthenticated)?;
        let (user, session_id) = state.accounts.authenticate_session(&token).await?;
        let session = Session { user, token, session_id };
        let actor = require(&session, P::PERMISSION)?;
        // The role first (any other role gets 24 whatever its session), then the session:
        // staff act only in a session opened with the second factor.
        if !state.accounts.session_has_second_factor(session.session_id).await? {
            return Err(ErrorCode::SecondFactorRequired.into());
        }
        Ok(Staff { actor, session, perm: PhantomData })
    }
}

/// A staff action's reason, trimmed: 1 to 500 characters (47 otherwise). Kept in the audit
/// trail (bans, provider blocks, withdrawal rejections).
pub fn valid_reason(text: &str) -> Result<&str, AppError> {
    let reason = text.trim();
    if reason.is_empty() || reason.chars().count() > 500 {
        return Err(AppError::with_detail(ErrorCode::InvalidField, "reason: 1 to 500 characters"));
    }
    Ok(reason)
}

/// The acting staff member as the audit trail names them (`admin:12`, `finance:34`), or 24.
pub fn require(session: &Session, permission: Permission) -> Result<String, AppError> {
    let role = session.user.role;
    if !allowed(role, permission) {
        return Err(AppError::new(ErrorCode::Forbidden));
    }
    Ok(format!("{}:{}", role.name(), session.user.id))
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: [Permission; 7] = [
        Permission::AuditRead,
        Permission::MoneyAdjust,
        Permission::PromotionsManage,
        Permission::PlayersRead,
        Permission::PlayersBan,
        Permission::PlayersNote,
        Permission::WithdrawalsDecide,
    ];

    #[test]
    fn only_staff_hold_any_permission() {
        for role in Role::ALL {
            for p in ALL {
                assert!(!allowed(role, p) || role.is_staff(), "{role:?} holds {p:?}");
            }
        }
        assert!(ALL.into_iter().all(|p| allowed(Role::Admin, p)), "admin holds every permission");
        assert!(allowed(Role::Support, Permission::AuditRead) && !allowed(Role::Support, Permission::MoneyAdjust), "support reads only");
        assert!(allowed(Role::Support, Permission::PlayersNote) && !allowed(Role::Support, Permission::PlayersBan), "and writes notes");
        assert!(ALL.into_iter().all(|p| !allowed(Role::Content, p)), "content edits the site only");
    }
}
