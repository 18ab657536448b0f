//! The standing offers (`limits.bonus` of the site settings, spec §9; [`crate::standing`]):
//!
//! - **Deposit bonus, opt-in.** A bonus locks withdrawals behind its wagering (6252), so the
//!   player chooses it (`deposit_bonus_choices`; no row = off). While it is on, each of the
//!   player's first `maxBetCount` credited deposits (types 11, 16, 114: whichever rail) grants
//!   a casino bonus of `min(deposit × maxBonusPercent, maxBonusSize)` under the standing
//!   template of its currency, keyed `deposit:{tx_id}` (once per deposit). Granted right after
//!   the deposit's commit (the `deposited` channel) and caught up by the sweep.
//! - **Registration bonus.** `registrationBonus` > 0: a new player's casino bonus at sign-up,
//!   keyed `registration:{user}`.
//!
//! The figures are read from the settings service at grant time; the terms (wagering multiple,
//! maximum bet, life) from the standing templates, created on first use within the operator's
//! limits (`deposit-standing-{CUR}`, `registration-{CUR}`).

use super::{db_err, Grant, Promotions};
use crate::standing::{standing, Standing, STANDING_LIFE_DAYS, STANDING_MULTIPLE};
use crate::terms::{Amount, Product, Template, WageringBase};
use kernel::clock::now_ms;
use kernel::money::MajorUnits;
use kernel::{AppError, Currency, ErrorCode, Minor};
use serde::Serialize;
use std::str::FromStr;
use store::sqlx::{self, Row};
use wallet::TxType;

const DAY_MS: i64 = 86_400_000;
/// How far back the sweep looks for a deposit whose bonus a restart left ungranted.
const SWEEP_WINDOW_MS: i64 = 3 * DAY_MS;

/// The deposit types that count, whichever rail the money came by.
fn deposit_types() -> String {
    [TxType::Deposit, TxType::PaymentService, TxType::CashierPayment]
        .iter()
        .map(|t| t.code().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The standing deposit bonus as the player sees it (amounts in major units of their currency).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DepositBonusOffer {
    /// The player's choice (off until they turn it on).
    pub enabled: bool,
    /// The share of each deposit, in percent (25 for `maxBonusPercent` 0.25).
    pub percent: f64,
    /// The most one deposit's bonus can be.
    #[schema(value_type = f64)]
    pub max_bonus: MajorUnits,
    pub currency: Currency,
    /// How many of the first deposits earn it (`maxBetCount`).
    pub max_deposits: i64,
    /// How many of those the player has made (at most `maxDeposits`).
    pub deposits_made: i64,
    /// How many deposits can still earn it.
    pub deposits_left: i64,
    /// The bonus is wagered this many times before it converts to real money.
    pub wagering_multiple: u32,
    /// The largest stake while wagering.
    #[schema(value_type = f64)]
    pub max_bet: MajorUnits,
    /// Days to wager it, from its opening.
    pub life_days: u32,
}

/// Which standing offer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Offer {
    Deposit,
    Registration,
}

impl Offer {
    fn template_name(self, currency: Currency) -> String {
        match self {
            Offer::Deposit => format!("deposit-standing-{}", currency.code()),
            Offer::Registration => format!("registration-{}", currency.code()),
        }
    }
}

impl Promotions {
    /// Reads `limits.bonus` through this settings service (the server's, so an operator's
    /// change is seen at the next grant); without one, a fresh reader of the same database.
    pub fn use_content(&self, content: content::Content) {
        let _ = self.inner.content.set(content);
    }

    async fn standing_for(&self, currency: Currency) -> Result<Standing, AppError> {
        let doc = match self.inner.content.get() {
            Some(c) => c.settings().await?,
            None => content::Content::new(self.db().clone()).settings().await?,
        };
        Ok(standing(&doc, currency))
    }

    async fn user_currency(&self, user_id: i64) -> Result<Currency, AppError> {
        let currency: String = sqlx::query("SELECT currency FROM users WHERE id = $1")
            .bind(user_id)
            .fetch_optional(self.db().reader())
            .await
            .map_err(db_err)?
            .ok_or(ErrorCode::NoSuchUser)?
            .get(0);
        Currency::from_str(&currency).map_err(|_| db_err("user currency"))
    }

    /// The standing template of `offer` in `currency` (created on first use, within the
    /// operator's maximum multiple): its id and terms.
    async fn standing_template(
        &self,
        offer: Offer,
        currency: Currency,
        figures: &Standing,
    ) -> Result<(i64, Template), AppError> {
        let name = offer.template_name(currency);
        if self.template_id(&name).await?.is_none() {
            let terms = Template {
                product: Product::Casino,
                amount: match offer {
                    Offer::Deposit => Amount::PercentOfDeposit {
                        bps: figures.percent_bps.max(1),
                        cap: figures.max_bonus.max(1),
                    },
                    Offer::Registration => Amount::Fixed {
                        amount: figures.registration.max(1),
                    },
                },
                wagering_multiple: STANDING_MULTIPLE.min(self.limits().max_wagering_multiple),
                wagering_base: WageringBase::Bonus,
                max_bet: figures.max_bet,
                max_conversion: 0,
                life_days: STANDING_LIFE_DAYS.min(self.limits().max_life_days),
                min_odds: 0,
            };
            match self.create_template(&name, currency, &terms, "standing").await {
                Ok(_) => {}
                // Created at the same moment by another grant.
                Err(e) if e.code == ErrorCode::BonusTermsRefused => {}
                Err(e) => return Err(e),
            }
        }
        let id = self
            .template_id(&name)
            .await?
            .ok_or_else(|| db_err("the standing template vanished"))?;
        let (_, _, terms) = self
            .template(id)
            .await?
            .ok_or_else(|| db_err("the standing template vanished"))?;
        Ok((id, terms))
    }

    /// Grants a standing bonus of `amount` (idempotent per `source_key`): queued, then opened
    /// when no casino bonus is open (the oldest queued opens first).
    async fn grant_standing(
        &self,
        user_id: i64,
        currency: Currency,
        offer: Offer,
        figures: &Standing,
        amount: Minor,
        deposit: Minor,
        source_key: &str,
    ) -> Result<Option<Grant>, AppError> {
        if let Some(id) = self.bonus_by_source(source_key).await? {
            return Ok(Some(Grant::Existing(id)));
        }
        if amount <= 0 {
            return Ok(None);
        }
        let (template_id, terms) = self.standing_template(offer, currency, figures).await?;
        let required = terms.requirement(amount, deposit, &self.limits());
        let source = match offer {
            Offer::Deposit => "deposit",
            Offer::Registration => "registration",
        };
        let inserted = self.insert_queued(user_id, currency, template_id, &terms, amount, deposit, required, source, source_key).await?;
        let id = self
            .bonus_by_source(source_key)
            .await?
            .ok_or_else(|| db_err("the granted bonus vanished"))?;
        if !inserted {
            return Ok(Some(Grant::Existing(id)));
        }
        self.open_next(user_id).await?;
        let status: String = sqlx::query("SELECT status FROM bonuses WHERE id = $1")
            .bind(id)
            .fetch_one(self.db().writer())
            .await
            .map_err(db_err)?
            .get(0);
        Ok(Some(if status == "queued" {
            Grant::Queued(id)
        } else {
            Grant::Active(id)
        }))
    }

    /// The player's credited deposits, oldest first, at most `limit`: (tx id, time, amount,
    /// currency).
    async fn first_deposits(
        &self,
        user_id: i64,
        limit: i64,
    ) -> Result<Vec<(i64, i64, Minor, String)>, AppError> {
        let rows = sqlx::query(&format!(
            "SELECT t.id, t.created_at, e.amount, a.currency FROM ledger_transactions t JOIN ledger_entries e ON e.tx_id = t.id \
             JOIN ledger_accounts a ON a.id = e.account_id \
             WHERE t.user_id = $1 AND t.tx_type IN ({}) AND a.is_house = 0 AND a.owner_id = $1 AND a.kind = 'real' AND e.amount > 0 \
             ORDER BY t.created_at, t.id LIMIT {}",
            deposit_types(),
            limit.clamp(0, 10_000)
        ))
        .bind(user_id)
        .fetch_all(self.db().reader())
        .await
        .map_err(db_err)?;
        Ok(rows
            .iter()
            .map(|r| (r.get(0), r.get(1), r.get(2), r.get(3)))
            .collect())
    }

    /// The player's choice: `(enabled, enabled_at, disabled_at)`.
    async fn choice(&self, user_id: i64) -> Result<Option<(bool, Option<i64>, Option<i64>)>, AppError> {
        Ok(sqlx::query("SELECT enabled, enabled_at, disabled_at FROM deposit_bonus_choices WHERE user_id = $1")
            .bind(user_id)
            .fetch_optional(self.db().writer())
            .await
            .map_err(db_err)?
            .map(|r| (r.get::<i64, _>(0) != 0, r.get(1), r.get(2))))
    }

    /// The standing deposit bonus for a player: the figures in their currency, their choice
    /// and how many of the first deposits are left.
    pub async fn deposit_bonus_offer(&self, user_id: i64) -> Result<DepositBonusOffer, AppError> {
        let currency = self.user_currency(user_id).await?;
        let figures = self.standing_for(currency).await?;
        let enabled = self.choice(user_id).await?.is_some_and(|c| c.0);
        let made = self.first_deposits(user_id, figures.max_deposits).await?.len() as i64;
        let limits = self.limits();
        Ok(DepositBonusOffer {
            enabled,
            percent: figures.percent_bps as f64 / 100.0,
            max_bonus: MajorUnits::new(figures.max_bonus, currency),
            currency,
            max_deposits: figures.max_deposits,
            deposits_made: made,
            deposits_left: (figures.max_deposits - made).max(0),
            wagering_multiple: STANDING_MULTIPLE.min(limits.max_wagering_multiple),
            max_bet: MajorUnits::new(figures.max_bet, currency),
            life_days: STANDING_LIFE_DAYS.min(limits.max_life_days),
        })
    }

    /// The player turns the deposit bonus on or off. On: deposits credited from now on
    /// qualify (turning it on again keeps the earlier start); off: none from now on.
    pub async fn set_deposit_bonus(&self, user_id: i64, enabled: bool) -> Result<DepositBonusOffer, AppError> {
        self.user_currency(user_id).await?;
        let now = now_ms();
        if enabled {
            sqlx::query(
                "INSERT INTO deposit_bonus_choices (user_id, enabled, enabled_at, disabled_at, updated_at) VALUES ($1, 1, $2, NULL, $2) \
                 ON CONFLICT (user_id) DO UPDATE SET \
                 enabled_at = CASE WHEN deposit_bonus_choices.enabled = 1 THEN deposit_bonus_choices.enabled_at ELSE excluded.enabled_at END, \
                 enabled = 1, disabled_at = NULL, updated_at = excluded.updated_at",
            )
            .bind(user_id)
            .bind(now)
            .execute(self.db().writer())
            .await
            .map_err(db_err)?;
        } else {
            sqlx::query("UPDATE deposit_bonus_choices SET enabled = 0, disabled_at = $2, updated_at = $2 WHERE user_id = $1 AND enabled = 1")
                .bind(user_id)
                .bind(now)
                .execute(self.db().writer())
                .await
                .map_err(db_err)?;
        }
        self.deposit_bonus_offer(user_id).await
    }

    /// Grants the standing deposit bonus for each of the player's first `maxBetCount`
    /// deposits credited while their choice was on and not granted yet (`deposit:{tx_id}`).
    /// The number granted now.
    pub async fn grant_standing_deposit_bonuses(&self, user_id: i64) -> Result<usize, AppError> {
        let Some((enabled, Some(from), until)) = self.choice(user_id).await? else {
            return Ok(0);
        };
        if !enabled && until.is_none() {
            return Ok(0);
        }
        let Some(max) = self.standing_for(Currency::Tnd).await.ok().map(|s| s.max_deposits) else {
            return Ok(0);
        };
        let mut granted = 0;
        for (tx_id, at, amount, currency) in self.first_deposits(user_id, max).await? {
            if at < from || until.is_some_and(|u| at >= u) {
                continue;
            }
            let key = format!("deposit:{tx_id}");
            if self.bonus_by_source(&key).await?.is_some() {
                continue;
            }
            let Ok(currency) = Currency::from_str(&currency) else { continue };
            let figures = self.standing_for(currency).await?;
            let bonus = figures.deposit_bonus(amount);
            if let Some(Grant::Active(_) | Grant::Queued(_)) = self
                .grant_standing(user_id, currency, Offer::Deposit, &figures, bonus, amount, &key)
                .await?
            {
                granted += 1;
            }
        }
        Ok(granted)
    }

    /// Grants the deposit bonuses a restart left (part of the sweep): players with a deposit
    /// of the last three days credited while their choice was on and without its bonus.
    pub async fn sweep_standing_deposit_bonuses(&self) -> Result<usize, AppError> {
        let users = sqlx::query(&format!(
            "SELECT DISTINCT c.user_id FROM deposit_bonus_choices c JOIN ledger_transactions t ON t.user_id = c.user_id \
             WHERE (c.enabled = 1 OR c.disabled_at >= $1) AND t.tx_type IN ({}) AND t.created_at >= $1 AND c.enabled_at IS NOT NULL AND t.created_at >= c.enabled_at \
             AND (c.disabled_at IS NULL OR t.created_at < c.disabled_at) \
             AND NOT EXISTS (SELECT 1 FROM bonuses b WHERE b.source_key = 'deposit:' || CAST(t.id AS TEXT))",
            deposit_types()
        ))
        .bind(now_ms() - SWEEP_WINDOW_MS)
        .fetch_all(self.db().reader())
        .await
        .map_err(db_err)?;
        let mut n = 0;
        for u in users {
            let user_id: i64 = u.get(0);
            match self.grant_standing_deposit_bonuses(user_id).await {
                Ok(k) => n += k,
                Err(e) => tracing::warn!(user_id, error = %e.text(), "deposit bonus: left to the next sweep"),
            }
        }
        Ok(n)
    }

    /// The registration bonus (`limits.bonus.registrationBonus` > 0) for a new player, once
    /// (`registration:{user}`). `None` when the settings give none.
    pub async fn grant_registration_bonus(&self, user_id: i64) -> Result<Option<Grant>, AppError> {
        let currency = self.user_currency(user_id).await?;
        let figures = self.standing_for(currency).await?;
        let key = format!("registration:{user_id}");
        self.grant_standing(user_id, currency, Offer::Registration, &figures, figures.registration, 0, &key)
            .await
    }
}
