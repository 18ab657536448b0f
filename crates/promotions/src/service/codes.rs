//! Promo codes: creation by the operator, `check_promocode` (state 2 valid / 1 invalid) and
//! activation, with every refusal its own code in 2200–2215 (`crate::codes`).
//!
//! Activation is one database transaction for the code's bookkeeping (the player's activation
//! row — once per player by its primary key — and the global use count, conditional on the
//! limit), then the grant, idempotent by its source key `code:{CODE}:{user}`: a retry after a
//! crash between the two completes the grant and answers success.

use super::{db_err, Promotions};
use crate::codes::{check, CodeTerms, Kind, PlayerFacts, Refusal};
use crate::freebets::FreeBetRule;
use kernel::clock::now_ms;
use kernel::ids::next_id;
use kernel::{AppError, Currency, ErrorCode, Minor};
use serde::{Deserialize, Serialize};
use std::str::FromStr;
use store::sqlx::{self, Row};
use wallet::TxType;

const HOUR_MS: i64 = 3_600_000;

/// Spec §9: the deposit bonus applies to each of the first 20 deposits (`limits.bonus.maxBetCount`).
pub const MAX_BONUS_DEPOSITS: i64 = 20;

/// A code as the operator creates it (amounts in minor units of `currency`, or of the
/// player's currency when `currency` is `None`).
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
pub struct CodeSpec {
    pub code: String,
    /// `bonus`, `free_bets`, `deposit_bonus`, `partner_referral`.
    pub kind: String,
    /// The bonus template (bonus and deposit-bonus codes).
    pub template: Option<String>,
    /// Free-bet codes: the value of each free bet (minor units) and how many.
    #[serde(default)]
    pub free_bet_amount: Minor,
    #[serde(default)]
    pub free_bet_count: i64,
    /// Partner referral codes: the partner's user id.
    pub partner_id: Option<i64>,
    pub valid_from: Option<i64>,
    pub valid_until: Option<i64>,
    #[serde(default)]
    pub max_uses: i64,
    #[serde(default)]
    pub new_players_only: bool,
    pub currency: Option<Currency>,
    #[serde(default)]
    pub min_deposits: i64,
    #[serde(default)]
    pub min_turnover: Minor,
}

/// What an activation gave.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Activated {
    pub code: String,
    pub kind: String,
    /// The bonus granted (bonus codes), as a string id.
    pub bonus_id: Option<String>,
    /// Free bets granted (free-bet codes), waiting for the player's activation.
    pub free_bets: i64,
}

pub fn refusal_code(r: Refusal) -> ErrorCode {
    match r {
        Refusal::NotFound => ErrorCode::PromoNotFound,
        Refusal::Expired => ErrorCode::PromoExpired,
        Refusal::AlreadyActivated => ErrorCode::PromoAlreadyActivated,
        Refusal::AnotherPartner => ErrorCode::PromoAnotherPartner,
        Refusal::OwnCode => ErrorCode::PromoOwnCode,
        Refusal::UnknownType => ErrorCode::PromoUnknownType,
        Refusal::Blocked => ErrorCode::PromoBlocked,
        Refusal::WithdrawalAfterDeposit => ErrorCode::PromoWithdrawalAfterDeposit,
        Refusal::TermsNotMet => ErrorCode::PromoTermsNotMet,
        Refusal::NotEnoughDeposits => ErrorCode::PromoNotEnoughDeposits,
        Refusal::NotYetValid => ErrorCode::PromoNotYetValid,
        Refusal::UsedUp => ErrorCode::PromoUsedUp,
        Refusal::NewPlayersOnly => ErrorCode::PromoNewPlayersOnly,
        Refusal::WrongCurrency => ErrorCode::PromoWrongCurrency,
        Refusal::SignupOnly => ErrorCode::PromoSignupOnly,
        Refusal::TooManyAttempts => ErrorCode::PromoTooManyAttempts,
    }
}

/// Codes are compared upper-case, without surrounding spaces; at most 40 characters.
pub fn normalise(code: &str) -> Option<String> {
    let c = code.trim().to_ascii_uppercase();
    (!c.is_empty()
        && c.len() <= 40
        && c.chars()
            .all(|ch| ch.is_ascii_alphanumeric() || ch == '-' || ch == '_'))
    .then_some(c)
}

struct StoredCode {
    terms: CodeTerms,
    template_id: Option<i64>,
    free_bet_amount: Minor,
    free_bet_count: i64,
}

impl Promotions {
    /// Creates a promo code (132 for a bad one: unknown kind, missing template, bad values).
    pub async fn create_code(&self, spec: &CodeSpec, actor: &str) -> Result<(), AppError> {
        let refuse =
            |why: &str| AppError::with_detail(ErrorCode::BonusTermsRefused, why.to_string());
        let code = normalise(&spec.code)
            .ok_or_else(|| refuse("a code is 1 to 40 letters, digits, - or _"))?;
        let kind = Kind::parse(&spec.kind).ok_or_else(|| refuse("unknown kind"))?;
        let template_id = match (&spec.template, kind) {
            (Some(name), Kind::Bonus | Kind::DepositBonus) => Some(
                self.template_id(name)
                    .await?
                    .ok_or_else(|| refuse("no such template"))?,
            ),
            (None, Kind::Bonus | Kind::DepositBonus) => {
                return Err(refuse("a bonus code needs a template"))
            }
            _ => None,
        };
        if kind == Kind::FreeBets {
            let currency = spec.currency.unwrap_or(Currency::Tnd);
            if spec.free_bet_count < 1
                || spec.free_bet_count > 20
                || !FreeBetRule::default().is_value(spec.free_bet_amount, currency)
            {
                return Err(refuse(
                    "free bets: 1 to 20 of one of the values 10, 50, 100, 250, 500",
                ));
            }
        }
        if kind == Kind::PartnerReferral && spec.partner_id.is_none() {
            return Err(refuse("a referral code names its partner"));
        }
        let now = now_ms();
        let inserted = sqlx::query(
            "INSERT INTO promo_codes (code, kind, template_id, free_bet_amount, free_bet_count, partner_id, blocked, valid_from, valid_until, \
             max_uses, uses, new_players_only, currency, min_deposits, min_turnover, created_by, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6, 0, $7, $8, $9, 0, $10, $11, $12, $13, $14, $15) ON CONFLICT (code) DO NOTHING",
        )
        .bind(&code)
        .bind(kind.as_str())
        .bind(template_id)
        .bind(spec.free_bet_amount)
        .bind(spec.free_bet_count)
        .bind(spec.partner_id)
        .bind(spec.valid_from.unwrap_or(now))
        .bind(spec.valid_until)
        .bind(spec.max_uses.max(0))
        .bind(spec.new_players_only as i64)
        .bind(spec.currency.map(|c| c.code()))
        .bind(spec.min_deposits.max(0))
        .bind(spec.min_turnover.max(0))
        .bind(actor)
        .bind(now)
        .execute(self.db().writer())
        .await
        .map_err(db_err)?;
        if inserted.rows_affected() == 0 {
            return Err(refuse("this code exists"));
        }
        Ok(())
    }

    /// Blocks or unblocks a code (2206 for players while blocked).
    pub async fn block_code(&self, code: &str, blocked: bool) -> Result<bool, AppError> {
        let code = normalise(code).ok_or(ErrorCode::PromoNotFound)?;
        let r = sqlx::query("UPDATE promo_codes SET blocked = $1 WHERE code = $2")
            .bind(blocked as i64)
            .bind(code)
            .execute(self.db().writer())
            .await
            .map_err(db_err)?;
        Ok(r.rows_affected() == 1)
    }

    async fn stored_code(&self, code: &str) -> Result<Option<StoredCode>, AppError> {
        let row = sqlx::query(
            "SELECT kind, blocked, valid_from, valid_until, max_uses, partner_id, new_players_only, currency, min_deposits, min_turnover, \
             template_id, free_bet_amount, free_bet_count, uses FROM promo_codes WHERE code = $1",
        )
        .bind(code)
        .fetch_optional(self.db().writer())
        .await
        .map_err(db_err)?;
        Ok(row.map(|r| StoredCode {
            terms: CodeTerms {
                kind: Kind::parse(&r.get::<String, _>(0)),
                blocked: r.get::<i64, _>(1) != 0,
                valid_from: r.get(2),
                valid_until: r.get(3),
                max_uses: r.get(4),
                partner_id: r.get(5),
                new_players_only: r.get::<i64, _>(6) != 0,
                currency: r.get(7),
                min_deposits: r.get(8),
                min_turnover: r.get(9),
            },
            template_id: r.get(10),
            free_bet_amount: r.get(11),
            free_bet_count: r.get(12),
        }))
    }

    async fn facts(
        &self,
        user_id: i64,
        code: &str,
        at_signup: bool,
    ) -> Result<PlayerFacts, AppError> {
        let db = self.db().reader();
        let user = sqlx::query("SELECT currency, created_at, ref_id FROM users WHERE id = $1")
            .bind(user_id)
            .fetch_optional(db)
            .await
            .map_err(db_err)?
            .ok_or(ErrorCode::NoSuchUser)?;
        let ref_id: Option<String> = user.get(2);
        let count = |sql: String| async move {
            sqlx::query(&sql)
                .bind(user_id)
                .fetch_one(self.db().reader())
                .await
                .map_err(db_err)
                .map(|r| r.get::<i64, _>(0))
        };
        let deposit_types = [
            TxType::Deposit,
            TxType::PaymentService,
            TxType::CashierPayment,
            TxType::RefillBalance,
        ]
        .iter()
        .map(|t| t.code().to_string())
        .collect::<Vec<_>>()
        .join(", ");
        let deposits = count(format!("SELECT COUNT(*) FROM ledger_transactions WHERE user_id = $1 AND tx_type IN ({deposit_types})")).await?;
        let turnover = count(format!(
            "SELECT CAST(COALESCE(SUM(-e.amount), 0) AS BIGINT) FROM ledger_transactions t JOIN ledger_entries e ON e.tx_id = t.id \
             JOIN ledger_accounts a ON a.id = e.account_id \
             WHERE t.user_id = $1 AND t.tx_type IN ({}) AND a.is_house = 0 AND a.owner_id = t.user_id AND e.amount < 0",
            TxType::stake_codes_sql()
        ))
        .await?;
        let last_deposit = count(format!("SELECT COALESCE(MAX(created_at), 0) FROM ledger_transactions WHERE user_id = $1 AND tx_type IN ({deposit_types})")).await?;
        let last_withdrawal = count(format!("SELECT COALESCE(MAX(created_at), 0) FROM ledger_transactions WHERE user_id = $1 AND tx_type = {}", TxType::Withdrawal.code())).await?;
        let wrong: i64 =
            sqlx::query("SELECT COUNT(*) FROM promo_attempts WHERE user_id = $1 AND at > $2")
                .bind(user_id)
                .bind(now_ms() - HOUR_MS)
                .fetch_one(db)
                .await
                .map_err(db_err)?
                .get(0);
        let row = sqlx::query("SELECT uses FROM promo_codes WHERE code = $1")
            .bind(code)
            .fetch_optional(db)
            .await
            .map_err(db_err)?;
        let activated =
            sqlx::query("SELECT 1 FROM promo_activations WHERE code = $1 AND user_id = $2")
                .bind(code)
                .bind(user_id)
                .fetch_optional(db)
                .await
                .map_err(db_err)?
                .is_some();
        Ok(PlayerFacts {
            user_id,
            currency: user.get(0),
            registered_at: user.get(1),
            referred_by: ref_id.and_then(|r| r.trim().parse().ok()),
            already_activated: activated,
            uses_so_far: row.map(|r| r.get(0)).unwrap_or(0),
            deposits,
            turnover,
            withdrew_since_deposit: last_deposit > 0 && last_withdrawal > last_deposit,
            at_signup,
            recent_wrong_codes: wrong.max(0) as u32,
        })
    }

    async fn note_wrong(&self, user_id: i64) -> Result<(), AppError> {
        let now = now_ms();
        sqlx::query("DELETE FROM promo_attempts WHERE user_id = $1 AND at < $2")
            .bind(user_id)
            .bind(now - HOUR_MS)
            .execute(self.db().writer())
            .await
            .map_err(db_err)?;
        sqlx::query("INSERT INTO promo_attempts (id, user_id, at) VALUES ($1, $2, $3)")
            .bind(next_id())
            .bind(user_id)
            .bind(now)
            .execute(self.db().writer())
            .await
            .map_err(db_err)?;
        Ok(())
    }

    /// Checks a code for a player without activating it: the code's kind, or its refusal.
    /// A code that does not exist counts toward the hourly wrong-code limit (2215).
    pub async fn check_code(
        &self,
        user_id: i64,
        code: &str,
        at_signup: bool,
    ) -> Result<Kind, AppError> {
        let Some(code) = normalise(code) else {
            self.note_wrong(user_id).await?;
            return Err(AppError::new(ErrorCode::PromoNotFound));
        };
        let stored = self.stored_code(&code).await?;
        let facts = self.facts(user_id, &code, at_signup).await?;
        match check(stored.as_ref().map(|s| &s.terms), &facts, now_ms()) {
            Ok(kind) => Ok(kind),
            Err(r) => {
                if r == Refusal::NotFound {
                    self.note_wrong(user_id).await?;
                }
                let e = AppError::new(refusal_code(r));
                Err(if r == Refusal::TooManyAttempts {
                    e.data(serde_json::json!({ "retryAfterSeconds": 3600 }))
                } else {
                    e
                })
            }
        }
    }

    /// Checks a code for someone not signed in yet (the sign-up form, spec §5 state 2/1):
    /// the code's own terms only — it exists, is not blocked, is valid now and not used up.
    /// `subject` stands for the visitor in the wrong-code limit (a negative number derived
    /// from their address).
    pub async fn check_code_guest(&self, code: &str, subject: i64) -> Result<Kind, AppError> {
        let wrong: i64 =
            sqlx::query("SELECT COUNT(*) FROM promo_attempts WHERE user_id = $1 AND at > $2")
                .bind(subject)
                .bind(now_ms() - HOUR_MS)
                .fetch_one(self.db().reader())
                .await
                .map_err(db_err)?
                .get(0);
        let normal = normalise(code);
        let stored = match &normal {
            Some(c) => self.stored_code(c).await?,
            None => None,
        };
        let row_uses = match &normal {
            Some(c) => sqlx::query("SELECT uses FROM promo_codes WHERE code = $1")
                .bind(c)
                .fetch_optional(self.db().reader())
                .await
                .map_err(db_err)?
                .map(|r| r.get::<i64, _>(0))
                .unwrap_or(0),
            None => 0,
        };
        let facts = PlayerFacts {
            user_id: subject,
            currency: stored
                .as_ref()
                .and_then(|s| s.terms.currency.clone())
                .unwrap_or_default(),
            registered_at: now_ms(),
            referred_by: None,
            already_activated: false,
            uses_so_far: row_uses,
            deposits: i64::MAX,
            turnover: i64::MAX,
            withdrew_since_deposit: false,
            at_signup: true,
            recent_wrong_codes: wrong.max(0) as u32,
        };
        let mut terms = stored.as_ref().map(|s| s.terms.clone());
        if let Some(t) = terms.as_mut() {
            // Partner ownership is the player's matter, checked at activation.
            t.partner_id = None;
        }
        match check(terms.as_ref(), &facts, now_ms()) {
            Ok(kind) => Ok(kind),
            Err(r) => {
                if r == Refusal::NotFound {
                    self.note_wrong(subject).await?;
                }
                let e = AppError::new(refusal_code(r));
                Err(if r == Refusal::TooManyAttempts {
                    e.data(serde_json::json!({ "retryAfterSeconds": 3600 }))
                } else {
                    e
                })
            }
        }
    }

    /// Activates a code for a player (`at_signup`: right after registration).
    pub async fn activate_code(
        &self,
        user_id: i64,
        code: &str,
        at_signup: bool,
    ) -> Result<Activated, AppError> {
        self.activate_code_booking(user_id, code, at_signup).await.map(|(a, _)| a)
    }

    /// [`Self::activate_code`], and whether this call booked the activation (its row is
    /// unique per player and code: across instances, exactly one call books it; a retry or a
    /// racing call that completes the grant did not).
    pub async fn activate_code_booking(
        &self,
        user_id: i64,
        code: &str,
        at_signup: bool,
    ) -> Result<(Activated, bool), AppError> {
        let normal = normalise(code).unwrap_or_default();
        // A retry after the bookkeeping committed completes the grant.
        let already = self
            .facts(user_id, &normal, at_signup)
            .await
            .map(|f| f.already_activated)
            .unwrap_or(false);
        let (kind, booked) = if already {
            let stored = self
                .stored_code(&normal)
                .await?
                .ok_or(ErrorCode::PromoNotFound)?;
            if self.granted(user_id, &normal).await? {
                return Err(AppError::new(ErrorCode::PromoAlreadyActivated));
            }
            (stored.terms.kind.ok_or(ErrorCode::PromoUnknownType)?, false)
        } else {
            let kind = self.check_code(user_id, code, at_signup).await?;
            self.book_activation(user_id, &normal).await?;
            (kind, true)
        };
        Ok((self.grant_code(user_id, &normal, kind).await?, booked))
    }

    /// Grants the deposit bonuses a player activated (kind `deposit_bonus`) and has since
    /// deposited for: the first deposit after the activation qualifies, among the player's
    /// first `limits.bonus.maxBetCount` (20) deposits. Idempotent (`code:{CODE}:{user}`).
    pub async fn grant_deposit_bonuses(&self, user_id: i64) -> Result<usize, AppError> {
        let pending = sqlx::query(
            "SELECT a.code, a.activated_at, c.template_id FROM promo_activations a JOIN promo_codes c ON c.code = a.code \
             WHERE a.user_id = $1 AND c.kind = 'deposit_bonus' AND c.template_id IS NOT NULL",
        )
        .bind(user_id)
        .fetch_all(self.db().reader())
        .await
        .map_err(db_err)?;
        let deposit_types = [TxType::Deposit, TxType::PaymentService, TxType::CashierPayment].iter().map(|t| t.code().to_string()).collect::<Vec<_>>().join(", ");
        let mut granted = 0;
        for r in pending {
            let (code, activated_at, template): (String, i64, i64) = (r.get(0), r.get(1), r.get(2));
            let key = Self::source_key(user_id, &code);
            if self.granted_bonus(&key).await? {
                continue;
            }
            let first = sqlx::query(&format!(
                "SELECT t.id, e.amount, a.currency, t.created_at FROM ledger_transactions t JOIN ledger_entries e ON e.tx_id = t.id \
                 JOIN ledger_accounts a ON a.id = e.account_id \
                 WHERE t.user_id = $1 AND t.tx_type IN ({deposit_types}) AND t.created_at >= $2 AND a.is_house = 0 AND a.kind = 'real' AND e.amount > 0 \
                 ORDER BY t.created_at, t.id LIMIT 1"
            ))
            .bind(user_id)
            .bind(activated_at)
            .fetch_optional(self.db().reader())
            .await
            .map_err(db_err)?;
            let Some(d) = first else { continue };
            let (deposit, currency, at): (i64, String, i64) = (d.get(1), d.get(2), d.get(3));
            let before: i64 = sqlx::query(&format!("SELECT COUNT(*) FROM ledger_transactions WHERE user_id = $1 AND tx_type IN ({deposit_types}) AND created_at < $2"))
                .bind(user_id)
                .bind(at)
                .fetch_one(self.db().reader())
                .await
                .map_err(db_err)?
                .get(0);
            if before >= MAX_BONUS_DEPOSITS {
                continue;
            }
            let currency = Currency::from_str(&currency).map_err(|_| db_err("deposit currency"))?;
            match self.grant(user_id, currency, template, deposit, "deposit", &key).await {
                Ok(_) => granted += 1,
                // A template of another currency, a zero bonus: this code gives nothing here.
                Err(e) if e.code == ErrorCode::BonusTermsRefused => {}
                Err(e) => return Err(e),
            }
        }
        Ok(granted)
    }

    /// Grants deposit bonuses a restart left (part of the sweep).
    pub async fn sweep_deposit_bonuses(&self) -> Result<usize, AppError> {
        let users = sqlx::query(
            "SELECT DISTINCT a.user_id FROM promo_activations a JOIN promo_codes c ON c.code = a.code \
             WHERE c.kind = 'deposit_bonus' AND NOT EXISTS \
             (SELECT 1 FROM bonuses b WHERE b.source_key = 'code:' || a.code || ':' || CAST(a.user_id AS TEXT))",
        )
        .fetch_all(self.db().reader())
        .await
        .map_err(db_err)?;
        let mut n = 0;
        for u in users {
            n += self.grant_deposit_bonuses(u.get(0)).await?;
        }
        Ok(n)
    }

    async fn granted_bonus(&self, key: &str) -> Result<bool, AppError> {
        Ok(sqlx::query("SELECT 1 FROM bonuses WHERE source_key = $1").bind(key).fetch_optional(self.db().writer()).await.map_err(db_err)?.is_some())
    }

    /// The activation row and the use count, in one transaction.
    async fn book_activation(&self, user_id: i64, code: &str) -> Result<(), AppError> {
        let mut tx = self.db().writer().begin().await.map_err(db_err)?;
        let mine = sqlx::query("INSERT INTO promo_activations (code, user_id, activated_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING")
            .bind(code)
            .bind(user_id)
            .bind(now_ms())
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
        if mine.rows_affected() == 0 {
            return Err(AppError::new(ErrorCode::PromoAlreadyActivated));
        }
        let counted = sqlx::query("UPDATE promo_codes SET uses = uses + 1 WHERE code = $1 AND (max_uses = 0 OR uses < max_uses)")
            .bind(code)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
        if counted.rows_affected() == 0 {
            return Err(AppError::new(ErrorCode::PromoUsedUp));
        }
        tx.commit().await.map_err(db_err)?;
        Ok(())
    }

    fn source_key(user_id: i64, code: &str) -> String {
        format!("code:{code}:{user_id}")
    }

    /// Whether the grant of an activated code exists.
    async fn granted(&self, user_id: i64, code: &str) -> Result<bool, AppError> {
        let key = Self::source_key(user_id, code);
        let bonus = sqlx::query("SELECT 1 FROM bonuses WHERE source_key = $1")
            .bind(&key)
            .fetch_optional(self.db().writer())
            .await
            .map_err(db_err)?;
        let free = sqlx::query("SELECT 1 FROM free_bets WHERE source_key LIKE $1")
            .bind(format!("{key}:%"))
            .fetch_optional(self.db().writer())
            .await
            .map_err(db_err)?;
        let kind: Option<String> = sqlx::query("SELECT kind FROM promo_codes WHERE code = $1")
            .bind(code)
            .fetch_optional(self.db().writer())
            .await
            .map_err(db_err)?
            .map(|r| r.get(0));
        // Referral and deposit-bonus codes grant nothing at activation.
        Ok(bonus.is_some()
            || free.is_some()
            || matches!(
                kind.as_deref(),
                Some("partner_referral") | Some("deposit_bonus")
            ))
    }

    async fn grant_code(
        &self,
        user_id: i64,
        code: &str,
        kind: Kind,
    ) -> Result<Activated, AppError> {
        let stored = self
            .stored_code(code)
            .await?
            .ok_or(ErrorCode::PromoNotFound)?;
        let currency: String = sqlx::query("SELECT currency FROM users WHERE id = $1")
            .bind(user_id)
            .fetch_one(self.db().reader())
            .await
            .map_err(db_err)?
            .get(0);
        let currency = Currency::from_str(&currency).map_err(|_| db_err("user currency"))?;
        let key = Self::source_key(user_id, code);
        let mut out = Activated {
            code: code.to_owned(),
            kind: kind.as_str().into(),
            bonus_id: None,
            free_bets: 0,
        };
        match kind {
            Kind::Bonus => {
                let template = stored.template_id.ok_or(ErrorCode::PromoUnknownType)?;
                let g = self
                    .grant(user_id, currency, template, 0, "code", &key)
                    .await?;
                out.bonus_id = Some(g.id().to_string());
            }
            Kind::FreeBets => {
                out.free_bets = self
                    .grant_free_bets(
                        user_id,
                        currency,
                        stored.free_bet_amount,
                        stored.free_bet_count,
                        &key,
                    )
                    .await?;
            }
            // The deposit bonus is granted by the player's next deposit; a referral links the
            // account to its partner.
            Kind::DepositBonus => {}
            Kind::PartnerReferral => {
                if let Some(partner) = stored.terms.partner_id {
                    sqlx::query("UPDATE users SET ref_id = $1 WHERE id = $2 AND (ref_id IS NULL OR ref_id = '')")
                        .bind(partner.to_string())
                        .bind(user_id)
                        .execute(self.db().writer())
                        .await
                        .map_err(db_err)?;
                }
            }
        }
        Ok(out)
    }
}
