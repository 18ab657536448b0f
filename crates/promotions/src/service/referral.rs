//! Partner set-promocode (spec §4 "'betting' sets a promo code together with ref_id", §7
//! "Partner set promocode (betting, ref_id)"): a signed-in player who arrives by a partner's link
//! `?betting=CODE&ref_id=…` after having signed up is linked to the partner owning the code and
//! gets what the code gives (docs/PROMOTIONS.md "Partner set-promocode").
//!
//! - The partner is the code's owner (`promo_codes.partner_id`); a code without an owner takes
//!   `ref_id` when it names a partner account (a `ref_id` naming anyone else is ignored). A
//!   `ref_id` naming another partner than the code's owner: 2203.
//! - The partner's own code: 2204. A player already referred by another partner, or a partner
//!   account using another partner's code: 2203; a partner account with a code no partner owns: 24.
//! - A player is linked only while **new**: registered less than 24 hours ago and no deposit
//!   yet ([`NEW_PLAYER_MS`]). Linking needed but the player is not new: 2214 for a referral
//!   code (sign-up only), 2212 for any other code (new players only).
//! - The code is then activated as at sign-up while the player is new (so a referral code
//!   applies), with every other refusal of 2200–2215.
//! - Idempotent: the same call again answers the same result with `replayed` (a retry after a
//!   crash between the activation and the link completes both while the player is new).

use super::{db_err, Activated, Promotions};
use crate::codes::Kind;
use kernel::clock::now_ms;
use kernel::{AppError, ErrorCode};
use serde::Serialize;
use store::sqlx::{self, Row};
use wallet::TxType;

/// How long after registration a player counts as new (with no deposit yet).
pub const NEW_PLAYER_MS: i64 = 24 * 3_600_000;

/// What set-promocode did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PartnerCodeApplied {
    pub code: String,
    /// `bonus`, `free_bets`, `deposit_bonus`, `partner_referral`.
    pub kind: String,
    /// The bonus granted (bonus codes).
    pub bonus_id: Option<String>,
    /// Free bets granted (free-bet codes), waiting for the player's activation.
    pub free_bets: i64,
    /// The partner the player is referred by after the call (null: none).
    pub partner_id: Option<i64>,
    /// This call linked the player to `partnerId`.
    pub linked: bool,
    /// The code had been applied already by an earlier call: nothing new was granted.
    pub replayed: bool,
}

struct Player {
    created_at: i64,
    referred_by: Option<i64>,
    is_partner: bool,
}

impl Promotions {
    async fn referral_player(&self, user_id: i64) -> Result<Player, AppError> {
        let r = sqlx::query("SELECT created_at, ref_id, role, is_partner FROM users WHERE id = $1")
            .bind(user_id)
            .fetch_optional(self.db().writer())
            .await
            .map_err(db_err)?
            .ok_or(ErrorCode::NoSuchUser)?;
        let ref_id: Option<String> = r.get(1);
        Ok(Player {
            created_at: r.get(0),
            referred_by: ref_id.and_then(|s| s.trim().parse().ok()),
            is_partner: r.get::<i64, _>(2) == 1 || r.get::<i64, _>(3) != 0,
        })
    }

    /// Whether `id` is a partner's account.
    async fn is_partner_account(&self, id: i64) -> Result<bool, AppError> {
        let r = sqlx::query("SELECT role, is_partner FROM users WHERE id = $1")
            .bind(id)
            .fetch_optional(self.db().reader())
            .await
            .map_err(db_err)?;
        Ok(r.is_some_and(|r| r.get::<i64, _>(0) == 1 || r.get::<i64, _>(1) != 0))
    }

    async fn deposit_count(&self, user_id: i64) -> Result<i64, AppError> {
        let types = [TxType::Deposit, TxType::PaymentService, TxType::CashierPayment, TxType::RefillBalance]
            .iter()
            .map(|t| t.code().to_string())
            .collect::<Vec<_>>()
            .join(", ");
        Ok(sqlx::query(&format!("SELECT COUNT(*) FROM ledger_transactions WHERE user_id = $1 AND tx_type IN ({types})"))
            .bind(user_id)
            .fetch_one(self.db().reader())
            .await
            .map_err(db_err)?
            .get(0))
    }

    /// Links the player to `partner` unless already referred; `true` when this call linked.
    async fn link_partner(&self, user_id: i64, partner: i64) -> Result<bool, AppError> {
        let r = sqlx::query("UPDATE users SET ref_id = $1 WHERE id = $2 AND (ref_id IS NULL OR ref_id = '')")
            .bind(partner.to_string())
            .bind(user_id)
            .execute(self.db().writer())
            .await
            .map_err(db_err)?;
        Ok(r.rows_affected() == 1)
    }

    /// What an earlier activation of `code` gave the player (a replay's answer).
    async fn activation_of(&self, user_id: i64, code: &str, kind: &str) -> Result<Activated, AppError> {
        let key = format!("code:{code}:{user_id}");
        let bonus: Option<i64> = sqlx::query("SELECT id FROM bonuses WHERE source_key = $1")
            .bind(&key)
            .fetch_optional(self.db().reader())
            .await
            .map_err(db_err)?
            .map(|r| r.get(0));
        let free: i64 = sqlx::query("SELECT COUNT(*) FROM free_bets WHERE source_key >= $1 AND source_key < $2")
            .bind(format!("{key}:"))
            .bind(format!("{key};"))
            .fetch_one(self.db().reader())
            .await
            .map_err(db_err)?
            .get(0);
        Ok(Activated { code: code.to_string(), kind: kind.to_string(), bonus_id: bonus.map(|b| b.to_string()), free_bets: free })
    }

    /// Partner set-promocode for a signed-in player (see the module's rules).
    pub async fn set_partner_code(&self, user_id: i64, betting: &str, ref_id: Option<&str>) -> Result<PartnerCodeApplied, AppError> {
        // `replayed` is false for the one call that books the activation (a unique row, so
        // exactly one of a double tap's calls, on any instances); every other call — a
        // retry, the racing twin, a code typed at sign-up — completes what is missing (the
        // grant is idempotent by its source key) and answers as a repeat.
        let Some(code) = super::normalise(betting) else {
            // Counted as a wrong code (2200, or 2215 when too many).
            return Err(self.check_code(user_id, betting, false).await.err().unwrap_or_else(|| AppError::new(ErrorCode::PromoNotFound)));
        };
        let row = sqlx::query("SELECT kind, partner_id FROM promo_codes WHERE code = $1")
            .bind(&code)
            .fetch_optional(self.db().writer())
            .await
            .map_err(db_err)?;
        let Some(row) = row else {
            return Err(self.check_code(user_id, &code, false).await.err().unwrap_or_else(|| AppError::new(ErrorCode::PromoNotFound)));
        };
        let kind_text: String = row.get(0);
        let owner: Option<i64> = row.get(1);
        let named = match ref_id.map(str::trim).filter(|r| !r.is_empty()).and_then(|r| r.parse::<i64>().ok()) {
            Some(id) if self.is_partner_account(id).await? => Some(id),
            _ => None,
        };
        if let (Some(owner), Some(named)) = (owner, named) {
            if owner != named {
                return Err(AppError::new(ErrorCode::PromoAnotherPartner));
            }
        }
        let partner = owner.or(named);
        if partner == Some(user_id) {
            return Err(AppError::new(ErrorCode::PromoOwnCode));
        }
        let player = self.referral_player(user_id).await?;
        if partner.is_some() && (player.is_partner || player.referred_by.is_some_and(|r| Some(r) != partner)) {
            return Err(AppError::new(ErrorCode::PromoAnotherPartner));
        }
        // A partner's account is told about partners' codes only; it takes no player's promotion.
        if player.is_partner {
            return Err(AppError::new(ErrorCode::Forbidden));
        }
        let need_link = partner.is_some() && player.referred_by.is_none();
        let activated_before = sqlx::query("SELECT 1 FROM promo_activations WHERE code = $1 AND user_id = $2")
            .bind(&code)
            .bind(user_id)
            .fetch_optional(self.db().writer())
            .await
            .map_err(db_err)?
            .is_some();
        let new = now_ms() - player.created_at < NEW_PLAYER_MS && self.deposit_count(user_id).await? == 0;
        let (activated, replayed) = if activated_before {
            // A retry (or the code typed at sign-up): complete what is missing, answer the same.
            match self.activate_code(user_id, &code, true).await {
                Ok(a) => (a, true),
                Err(e) if e.code == ErrorCode::PromoAlreadyActivated => (self.activation_of(user_id, &code, &kind_text).await?, true),
                Err(e) => return Err(e),
            }
        } else {
            if need_link && !new {
                return Err(AppError::new(if Kind::parse(&kind_text) == Some(Kind::PartnerReferral) {
                    ErrorCode::PromoSignupOnly
                } else {
                    ErrorCode::PromoNewPlayersOnly
                }));
            }
            match self.activate_code_booking(user_id, &code, new).await {
                Ok((a, booked)) => (a, !booked),
                // The same call running at the same time booked it first: answer as its repeat,
                // completing the grant (idempotent by its source key) if the other has not yet.
                Err(e) if e.code == ErrorCode::PromoAlreadyActivated => match self.activate_code(user_id, &code, new).await {
                    Ok(a) => (a, true),
                    Err(e) if e.code == ErrorCode::PromoAlreadyActivated => (self.activation_of(user_id, &code, &kind_text).await?, true),
                    Err(e) => return Err(e),
                },
                Err(e) => return Err(e),
            }
        };
        let mut linked = false;
        // Only a new player is linked (a code activated earlier by an old player links nothing).
        if let (true, true, Some(p)) = (need_link, new, partner) {
            linked = self.link_partner(user_id, p).await?;
            // A referral code links the player itself while it is activated.
            if !linked {
                linked = !replayed && self.referral_player(user_id).await?.referred_by == Some(p);
            }
        }
        let partner_id = self.referral_player(user_id).await?.referred_by;
        Ok(PartnerCodeApplied {
            code: activated.code,
            kind: activated.kind,
            bonus_id: activated.bonus_id,
            free_bets: activated.free_bets,
            partner_id,
            linked,
            replayed,
        })
    }
}
