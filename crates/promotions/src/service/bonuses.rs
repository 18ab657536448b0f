//! Bonuses: templates, grants, conversion, give-up, expiry and the sweep.
//!
//! Every closing of a bonus (conversion, give-up, expiry) is one ledger posting under the key
//! `bonus:{id}:close` whose attached write moves the bonus row out of `active`/`met`: a bonus
//! closes once, whichever way comes first, and its money moves exactly then.

use super::{db_err, Promotions};
use crate::terms::{Product, Template};
use crate::wagering;
use kernel::clock::now_ms;
use kernel::ids::next_id;
use kernel::money::MajorUnits;
use kernel::{AppError, Currency, ErrorCode, Minor};
use serde::Serialize;
use std::str::FromStr;
use store::sqlx::{self, AnyConnection, Row};
use wallet::{
    attached, AccountRef, BalanceKind, HouseAccount, LedgerError, Leg, PostingRequest, TxType,
};

const DAY_MS: i64 = 86_400_000;

/// A bonus as the player sees it (amounts in major units of its currency).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BonusView {
    pub id: String,
    pub template: String,
    /// `casino` or `sport`.
    pub product: String,
    /// `queued`, `active`, `met`, `converted`, `given_up`, `expired`.
    pub status: String,
    pub currency: Currency,
    #[schema(value_type = f64)]
    pub amount: MajorUnits,
    /// The wagering requirement and how much of it is done.
    #[schema(value_type = f64)]
    pub required: MajorUnits,
    #[schema(value_type = f64)]
    pub wagered: MajorUnits,
    #[schema(value_type = f64)]
    pub remaining: MajorUnits,
    /// The largest stake while wagering (0: none).
    #[schema(value_type = f64)]
    pub max_bet: MajorUnits,
    /// The most that converts to real money (0: no maximum).
    #[schema(value_type = f64)]
    pub max_conversion: MajorUnits,
    /// What converted to real money (after conversion).
    #[schema(value_type = f64)]
    pub converted: MajorUnits,
    /// Sport bonus: the least odds of every selection (e.g. 1.8).
    pub min_odds: f64,
    pub granted_at: i64,
    pub expires_at: Option<i64>,
    pub closed_at: Option<i64>,
}

/// How a grant ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Grant {
    /// Opened now (its money is in the bonus balance).
    Active(i64),
    /// Another bonus of the product is open: this one waits.
    Queued(i64),
    /// The source already had its bonus (a retry).
    Existing(i64),
}

impl Grant {
    pub fn id(&self) -> i64 {
        match self {
            Grant::Active(id) | Grant::Queued(id) | Grant::Existing(id) => *id,
        }
    }
}

/// A bonus row as the service reads it.
#[derive(Debug, Clone)]
pub(crate) struct BonusRow {
    pub id: i64,
    pub user_id: i64,
    pub product: Product,
    pub currency: Currency,
    pub status: String,
    pub amount: Minor,
    pub max_conversion: Minor,
    pub max_bet: Minor,
    pub required: Minor,
    pub wagered: Minor,
}

const ROW: &str = "SELECT id, user_id, product, currency, status, amount, max_conversion, max_bet, required, wagered FROM bonuses";

fn bonus_row(r: &store::sqlx::any::AnyRow) -> Result<BonusRow, AppError> {
    let product: String = r.get(2);
    let currency: String = r.get(3);
    Ok(BonusRow {
        id: r.get(0),
        user_id: r.get(1),
        product: Product::parse(&product)
            .ok_or_else(|| db_err(format!("unknown product {product}")))?,
        currency: Currency::from_str(&currency)
            .map_err(|_| db_err(format!("unknown currency {currency}")))?,
        status: r.get(4),
        amount: r.get(5),
        max_conversion: r.get(6),
        max_bet: r.get(7),
        required: r.get(8),
        wagered: r.get(9),
    })
}

impl Promotions {
    /// Creates a bonus template after checking it against the operator's limits (132 with the
    /// reason when refused: above the maximum wagering multiple, bad amounts, bad life).
    pub async fn create_template(
        &self,
        name: &str,
        currency: Currency,
        terms: &Template,
        actor: &str,
    ) -> Result<i64, AppError> {
        terms
            .validate(&self.limits())
            .map_err(|e| AppError::with_detail(ErrorCode::BonusTermsRefused, e.to_string()))?;
        let name = name.trim();
        if name.is_empty() || name.len() > 80 {
            return Err(AppError::with_detail(
                ErrorCode::BonusTermsRefused,
                "a template needs a name of 1 to 80 characters",
            ));
        }
        let id = next_id();
        let inserted = sqlx::query(
            "INSERT INTO bonus_templates (id, name, product, currency, terms, active, created_by, created_at) \
             VALUES ($1, $2, $3, $4, $5, 1, $6, $7) ON CONFLICT (name) DO NOTHING",
        )
        .bind(id)
        .bind(name)
        .bind(terms.product.as_str())
        .bind(currency.code())
        .bind(serde_json::to_string(terms).map_err(db_err)?)
        .bind(actor)
        .bind(now_ms())
        .execute(self.db().writer())
        .await
        .map_err(db_err)?;
        if inserted.rows_affected() == 0 {
            return Err(AppError::with_detail(
                ErrorCode::BonusTermsRefused,
                "a template with this name exists",
            ));
        }
        Ok(id)
    }

    /// A template by id: its currency and terms.
    pub async fn template(
        &self,
        id: i64,
    ) -> Result<Option<(String, Currency, Template)>, AppError> {
        let row = sqlx::query("SELECT name, currency, terms FROM bonus_templates WHERE id = $1")
            .bind(id)
            .fetch_optional(self.db().reader())
            .await
            .map_err(db_err)?;
        row.map(|r| {
            let currency: String = r.get(1);
            let terms: String = r.get(2);
            Ok((
                r.get(0),
                Currency::from_str(&currency).map_err(|_| db_err("template currency"))?,
                serde_json::from_str(&terms).map_err(db_err)?,
            ))
        })
        .transpose()
    }

    /// The id of the template named `name`.
    pub async fn template_id(&self, name: &str) -> Result<Option<i64>, AppError> {
        let row = sqlx::query("SELECT id FROM bonus_templates WHERE name = $1")
            .bind(name)
            .fetch_optional(self.db().reader())
            .await
            .map_err(db_err)?;
        Ok(row.map(|r| r.get(0)))
    }

    /// Grants a bonus of `template_id` to a player (idempotent per `source_key`): opened at
    /// once when no bonus of its product is open, else queued. `deposit` is the qualifying
    /// deposit (minor units) for a share-of-deposit bonus, 0 otherwise.
    pub async fn grant(
        &self,
        user_id: i64,
        currency: Currency,
        template_id: i64,
        deposit: Minor,
        source: &str,
        source_key: &str,
    ) -> Result<Grant, AppError> {
        if let Some(id) = self.bonus_by_source(source_key).await? {
            return Ok(Grant::Existing(id));
        }
        let (_, template_currency, terms) = self
            .template(template_id)
            .await?
            .ok_or_else(|| AppError::with_detail(ErrorCode::NotFound, "no such template"))?;
        if template_currency != currency {
            return Err(AppError::with_detail(
                ErrorCode::BonusTermsRefused,
                "the template is for another currency",
            ));
        }
        let amount = terms.grant_amount(deposit);
        if amount <= 0 {
            return Err(AppError::with_detail(
                ErrorCode::BonusTermsRefused,
                "the bonus would be zero",
            ));
        }
        let required = terms.requirement(amount, deposit, &self.limits());
        self.insert_queued(user_id, currency, template_id, &terms, amount, deposit, required, source, source_key).await?;
        let Some(id) = self.bonus_by_source(source_key).await? else {
            return Err(db_err("the granted bonus vanished"));
        };
        Ok(if self.open(id).await? {
            Grant::Active(id)
        } else {
            Grant::Queued(id)
        })
    }

    /// Inserts a granted bonus as `queued` under `source_key` (its life counted from now);
    /// `false` when the key was taken already.
    #[allow(clippy::too_many_arguments)]
    pub(crate) async fn insert_queued(
        &self,
        user_id: i64,
        currency: Currency,
        template_id: i64,
        terms: &Template,
        amount: Minor,
        deposit: Minor,
        required: Minor,
        source: &str,
        source_key: &str,
    ) -> Result<bool, AppError> {
        let now = now_ms();
        let inserted = sqlx::query(
            "INSERT INTO bonuses (id, user_id, template_id, product, currency, status, amount, deposit, required, wagered, max_bet, \
             max_conversion, min_odds, converted, source, source_key, granted_at, activated_at, expires_at, closed_at) \
             VALUES ($1, $2, $3, $4, $5, 'queued', $6, $7, $8, 0, $9, $10, $11, 0, $12, $13, $14, NULL, $15, NULL) \
             ON CONFLICT (source_key) DO NOTHING",
        )
        .bind(next_id())
        .bind(user_id)
        .bind(template_id)
        .bind(terms.product.as_str())
        .bind(currency.code())
        .bind(amount)
        .bind(deposit.max(0))
        .bind(required)
        .bind(terms.max_bet)
        .bind(terms.max_conversion)
        .bind(terms.min_odds as i64)
        .bind(source)
        .bind(source_key)
        .bind(now)
        .bind(now + terms.life_days as i64 * DAY_MS)
        .execute(self.db().writer())
        .await
        .map_err(db_err)?;
        Ok(inserted.rows_affected() == 1)
    }

    pub(crate) async fn bonus_by_source(&self, source_key: &str) -> Result<Option<i64>, AppError> {
        let row = sqlx::query("SELECT id FROM bonuses WHERE source_key = $1")
            .bind(source_key)
            .fetch_optional(self.db().writer())
            .await
            .map_err(db_err)?;
        Ok(row.map(|r| r.get(0)))
    }

    async fn row(&self, id: i64) -> Result<Option<BonusRow>, AppError> {
        let row = sqlx::query(&format!("{ROW} WHERE id = $1"))
            .bind(id)
            .fetch_optional(self.db().writer())
            .await
            .map_err(db_err)?;
        row.as_ref().map(bonus_row).transpose()
    }

    /// Opens a queued bonus when no bonus of its product is open: its money moves into the
    /// bonus balance in the same transaction as its row becomes `active` (the unique index
    /// `bonuses_one_open` decides between two at once). `true` when it is open now.
    async fn open(&self, id: i64) -> Result<bool, AppError> {
        let Some(b) = self.row(id).await? else {
            return Ok(false);
        };
        if b.status != "queued" {
            return Ok(b.status == "active" || b.status == "met");
        }
        let now = now_ms();
        let (product, user_id, currency) = (b.product, b.user_id, b.currency);
        let (max_bet, required, wagered) = (b.max_bet, b.required, b.wagered);
        let posting = PostingRequest::transfer(
            TxType::BonusGrant,
            format!("bonus:{id}:grant"),
            Some(b.user_id),
            b.currency,
            AccountRef::House(HouseAccount::Bonuses),
            AccountRef::Player {
                user_id: b.user_id,
                kind: BalanceKind::Bonus,
            },
            b.amount,
        )
        .comment(format!("{} bonus", b.product.as_str()))
        .metadata(serde_json::json!({ "bonusId": id.to_string(), "product": b.product.as_str() }));
        let work = attached(move |conn| {
            Box::pin(async move {
                // Life counts from opening: a queued bonus does not age while it waits.
                let moved = sqlx::query(
                    "UPDATE bonuses SET status = 'active', activated_at = $1, \
                     expires_at = $1 + (expires_at - granted_at) WHERE id = $2 AND status = 'queued' \
                     AND NOT EXISTS (SELECT 1 FROM bonuses o WHERE o.user_id = bonuses.user_id AND o.product = bonuses.product AND o.status IN ('active', 'met'))",
                )
                .bind(now)
                .bind(id)
                .execute(&mut *conn)
                .await?;
                if moved.rows_affected() != 1 {
                    return Ok(false);
                }
                // Its terms on the account every stake of its product moves (wallet terms):
                // the maximum bet as the stake cap, and for a casino bonus the requirement as
                // the wagering target of the real account.
                let cap = (max_bet > 0).then_some(max_bet);
                match product {
                    Product::Casino => wallet::set_wager_terms(conn, user_id, BalanceKind::Real, currency, cap, Some(required - wagered), 0).await?,
                    Product::Sport => wallet::set_wager_terms(conn, user_id, BalanceKind::Bonus, currency, cap, None, 0).await?,
                }
                Ok(true)
            })
        });
        match self.ledger().post_with(posting, work).await {
            Ok(_) => Ok(true),
            Err(LedgerError::Declined) => Ok(false),
            // Two grants racing for the one open slot: the index refused the second.
            Err(LedgerError::Store(e)) if is_unique_violation(&e) => Ok(false),
            Err(e) => Err(e.into()),
        }
    }

    /// Opens the oldest queued bonus of each product with none open (after a close).
    pub async fn open_next(&self, user_id: i64) -> Result<(), AppError> {
        for product in [Product::Casino, Product::Sport] {
            let next = sqlx::query("SELECT id FROM bonuses WHERE user_id = $1 AND product = $2 AND status = 'queued' ORDER BY granted_at, id LIMIT 1")
                .bind(user_id)
                .bind(product.as_str())
                .fetch_optional(self.db().writer())
                .await
                .map_err(db_err)?;
            if let Some(r) = next {
                self.open(r.get(0)).await?;
            }
        }
        Ok(())
    }

    /// What of the player's bonus balance belongs to bonus `b`: a casino bonus is never
    /// staked (its amount); a sport bonus is what the balance holds beyond an open casino bonus.
    async fn holding(&self, b: &BonusRow) -> Result<Minor, AppError> {
        let balance = self
            .ledger()
            .balance(b.user_id, BalanceKind::Bonus, b.currency)
            .await?;
        Ok(match b.product {
            Product::Casino => b.amount.min(balance),
            Product::Sport => {
                let casino: Option<i64> = sqlx::query(
                    "SELECT amount FROM bonuses WHERE user_id = $1 AND product = 'casino' AND currency = $2 AND status IN ('active', 'met')",
                )
                .bind(b.user_id)
                .bind(b.currency.code())
                .fetch_optional(self.db().writer())
                .await
                .map_err(db_err)?
                .map(|r| r.get(0));
                (balance - casino.unwrap_or(0)).max(0)
            }
        })
    }

    /// Closes bonus `b` as `to` (`converted`, `given_up`, `expired`) from one of `from`: one
    /// posting under `bonus:{id}:close` moves its money (to real up to the maximum conversion
    /// when converted, else back to the house) with the row's new state.
    async fn close(
        &self,
        b: &BonusRow,
        from: &'static [&'static str],
        to: &'static str,
    ) -> Result<bool, AppError> {
        let (id, user_id, currency) = (b.id, b.user_id, b.currency);
        let max_conversion = b.max_conversion;
        if to == "converted" && b.product == Product::Sport {
            // A sport bonus met while bonus bets are still open converts once they settled
            // (their returns go to the bonus balance): the sweep converts it then.
            let open = sqlx::query("SELECT 1 FROM sb_bets WHERE user_id = $1 AND funding = 'bonus' AND currency = $2 AND status IN ('placing', 'open') LIMIT 1")
                .bind(user_id)
                .bind(currency.code())
                .fetch_optional(self.db().writer())
                .await
                .map_err(db_err)?;
            if open.is_some() {
                return Ok(false);
            }
        }
        let holding = self.holding(b).await?;
        let (converted, forfeited) = if to == "converted" {
            wagering::conversion(holding, max_conversion)
        } else {
            (0, holding)
        };
        let mut legs = vec![
            Leg::player(user_id, BalanceKind::Bonus, currency, -holding),
            Leg::house(HouseAccount::Bonuses, currency, forfeited),
        ];
        if converted > 0 {
            legs.push(Leg::player(user_id, BalanceKind::Real, currency, converted));
        }
        // A bonus with nothing left (a sport bonus staked away) closes with a record that
        // moves nothing but still claims the key.
        legs.retain(|l| l.amount != 0);
        if legs.is_empty() {
            legs = vec![
                Leg::player(user_id, BalanceKind::Bonus, currency, 0),
                Leg::house(HouseAccount::Bonuses, currency, 0),
            ];
        } else if legs.len() == 1 {
            legs.push(Leg::house(HouseAccount::Bonuses, currency, 0));
        }
        let (tx_type, comment) = match to {
            "converted" => (TxType::BonusConversion, "Bonus converted"),
            "given_up" => (TxType::BonusForfeit, "Bonus given up"),
            _ => (TxType::BonusForfeit, "Bonus expired"),
        };
        let posting = PostingRequest {
            tx_type,
            idempotency_key: format!("bonus:{id}:close"),
            user_id: Some(user_id),
            comment: comment.into(),
            metadata: serde_json::json!({ "bonusId": id.to_string(), "status": to, "converted": converted, "forfeited": forfeited }),
            legs,
            audit: None,
            fingerprint: Some(format!("bonus-close|{to}")),
            group: None,
        };
        let now = now_ms();
        let states = from
            .iter()
            .map(|s| format!("'{s}'"))
            .collect::<Vec<_>>()
            .join(", ");
        // An active casino bonus keeps the progress its account counted (wallet terms) as its
        // final `wagered`; the old status decides (SET reads the row as it was).
        let sql = format!(
            "UPDATE bonuses SET status = $1, closed_at = $2, converted = $3, \
             wagered = CASE WHEN status = 'active' AND product = 'casino' THEN (CASE WHEN $4 < required THEN $4 ELSE required END) ELSE wagered END \
             WHERE id = $5 AND status IN ({states})"
        );
        let product = b.product;
        let work = attached(move |conn| {
            Box::pin(async move {
                // The account's terms go with the bonus.
                let progress = match product {
                    Product::Casino => wallet::clear_wager_terms(conn, user_id, BalanceKind::Real, currency).await?,
                    Product::Sport => wallet::clear_wager_terms(conn, user_id, BalanceKind::Bonus, currency).await?,
                };
                let moved = sqlx::query(&sql)
                    .bind(to)
                    .bind(now)
                    .bind(converted)
                    .bind(progress.max(0))
                    .bind(id)
                    .execute(&mut *conn)
                    .await?;
                Ok(moved.rows_affected() == 1)
            })
        });
        let closed = match self.ledger().post_with(posting, work).await {
            Ok(r) => !r.replayed,
            Err(LedgerError::Declined | LedgerError::IdempotencyConflict) => false,
            Err(e) => return Err(e.into()),
        };
        if closed {
            self.open_next(user_id).await?;
        }
        Ok(closed)
    }

    /// Converts a wagered-through (`met`) bonus. `true` when this call converted it.
    pub async fn convert(&self, bonus_id: i64) -> Result<bool, AppError> {
        match self.row(bonus_id).await? {
            Some(b) if b.status == "met" => self.close(&b, &["met"], "converted").await,
            _ => Ok(false),
        }
    }

    /// The player gives a bonus up (one tap, any time): the bonus money is forfeited, real
    /// money stays. A queued bonus is simply dropped. 131 when it is not theirs or not open.
    pub async fn give_up(&self, user_id: i64, bonus_id: i64) -> Result<(), AppError> {
        let b = self
            .row(bonus_id)
            .await?
            .filter(|b| b.user_id == user_id)
            .ok_or_else(|| AppError::new(ErrorCode::NoSuchBonus))?;
        match b.status.as_str() {
            "queued" => {
                let moved = sqlx::query("UPDATE bonuses SET status = 'given_up', closed_at = $1 WHERE id = $2 AND status = 'queued'")
                    .bind(now_ms())
                    .bind(bonus_id)
                    .execute(self.db().writer())
                    .await
                    .map_err(db_err)?;
                if moved.rows_affected() == 1 {
                    Ok(())
                } else {
                    Err(AppError::new(ErrorCode::NoSuchBonus))
                }
            }
            "active" | "met" => {
                if self.close(&b, &["active", "met"], "given_up").await? {
                    Ok(())
                } else {
                    Err(AppError::new(ErrorCode::NoSuchBonus))
                }
            }
            _ => Err(AppError::new(ErrorCode::NoSuchBonus)),
        }
    }

    /// Gives up every open bonus of a player (a withdrawal the player confirmed knowing it).
    pub async fn give_up_all(&self, user_id: i64) -> Result<usize, AppError> {
        let rows = sqlx::query(
            "SELECT id FROM bonuses WHERE user_id = $1 AND status IN ('queued', 'active', 'met')",
        )
        .bind(user_id)
        .fetch_all(self.db().writer())
        .await
        .map_err(db_err)?;
        let mut n = 0;
        for r in rows {
            match self.give_up(user_id, r.get(0)).await {
                Ok(()) => n += 1,
                Err(e) if e.code == ErrorCode::NoSuchBonus => {}
                Err(e) => return Err(e),
            }
        }
        Ok(n)
    }

    /// What the player still has to wager on open bonuses (minor units), if any is open.
    pub async fn open_wagering(&self, user_id: i64) -> Result<Option<(Minor, Currency)>, AppError> {
        let rows = sqlx::query(&format!("SELECT b.required, {WAGERED}, b.currency FROM bonuses b {PROGRESS_JOIN} WHERE b.user_id = $1 AND b.status = 'active'"))
            .bind(user_id)
            .fetch_all(self.db().reader())
            .await
            .map_err(db_err)?;
        let mut open = None;
        for r in rows {
            let (required, wagered, currency): (i64, i64, String) = (r.get(0), r.get(1), r.get(2));
            let Ok(c) = Currency::from_str(&currency) else { continue };
            let (left, _) = open.get_or_insert((0, c));
            *left += wagering::remaining(required, wagered);
        }
        Ok(open)
    }

    /// Converts every `met` bonus, expires every bonus past its life and opens queued ones.
    /// Idempotent; run every minute by `serve` (one owner is not needed: every step is keyed).
    pub async fn sweep(&self) -> Result<(usize, usize), AppError> {
        let now = now_ms();
        let met = sqlx::query(&format!("{ROW} WHERE status = 'met'"))
            .fetch_all(self.db().reader())
            .await
            .map_err(db_err)?;
        let mut converted = 0;
        for r in &met {
            let b = bonus_row(r)?;
            if self.close(&b, &["met"], "converted").await? {
                converted += 1;
            }
        }
        let due = sqlx::query(&format!(
            "{ROW} WHERE status = 'active' AND expires_at <= $1"
        ))
        .bind(now)
        .fetch_all(self.db().reader())
        .await
        .map_err(db_err)?;
        let mut expired = 0;
        for r in &due {
            let b = bonus_row(r)?;
            if self.close(&b, &["active"], "expired").await? {
                expired += 1;
            }
        }
        let waiting = sqlx::query(
            "SELECT DISTINCT q.user_id FROM bonuses q WHERE q.status = 'queued' AND NOT EXISTS \
             (SELECT 1 FROM bonuses o WHERE o.user_id = q.user_id AND o.product = q.product AND o.status IN ('active', 'met'))",
        )
        .fetch_all(self.db().reader())
        .await
        .map_err(db_err)?;
        for r in waiting {
            self.open_next(r.get(0)).await?;
        }
        self.sweep_deposit_bonuses().await?;
        self.sweep_standing_deposit_bonuses().await?;
        Ok((converted, expired))
    }

    /// The player's bonuses: open and queued first, then the last closed ones.
    pub async fn bonuses(&self, user_id: i64) -> Result<Vec<BonusView>, AppError> {
        let rows = sqlx::query(
            &format!("SELECT b.id, t.name, b.product, b.status, b.currency, b.amount, b.required, {WAGERED}, b.max_bet, b.max_conversion, \
             b.converted, b.min_odds, b.granted_at, b.expires_at, b.closed_at FROM bonuses b JOIN bonus_templates t ON t.id = b.template_id {PROGRESS_JOIN} \
             WHERE b.user_id = $1 ORDER BY CASE WHEN b.status IN ('active', 'met', 'queued') THEN 0 ELSE 1 END, b.granted_at DESC, b.id DESC LIMIT 50"),
        )
        .bind(user_id)
        .fetch_all(self.db().reader())
        .await
        .map_err(db_err)?;
        rows.iter()
            .map(|r| {
                let currency: String = r.get(4);
                let currency =
                    Currency::from_str(&currency).map_err(|_| db_err("bonus currency"))?;
                let m = |i: usize| MajorUnits::new(r.get::<i64, _>(i), currency);
                let (required, wagered): (i64, i64) = (r.get(6), r.get::<i64, _>(7).clamp(0, r.get::<i64, _>(6)));
                Ok(BonusView {
                    id: r.get::<i64, _>(0).to_string(),
                    template: r.get(1),
                    product: r.get(2),
                    status: r.get(3),
                    currency,
                    amount: m(5),
                    required: m(6),
                    wagered: MajorUnits::new(wagered, currency),
                    remaining: MajorUnits::new(wagering::remaining(required, wagered), currency),
                    max_bet: m(8),
                    max_conversion: m(9),
                    converted: m(10),
                    min_odds: r.get::<i64, _>(11) as f64 / 1000.0,
                    granted_at: r.get(12),
                    expires_at: r.get(13),
                    closed_at: r.get(14),
                })
            })
            .collect()
    }
}

/// An active casino bonus's progress is its real account's (wallet terms); any other bonus's
/// is its row's. With [`PROGRESS_JOIN`].
const WAGERED: &str = "CASE WHEN b.status = 'active' AND b.product = 'casino' THEN COALESCE(a.wager_progress, 0) ELSE b.wagered END";
const PROGRESS_JOIN: &str = "LEFT JOIN ledger_accounts a ON a.owner_id = b.user_id AND a.kind = 'real' AND a.currency = b.currency AND a.is_house = 0";

/// The stake that met the real account's wagering target (wallet terms): the open casino
/// bonus becomes `met` and the account's terms are lifted, in the stake's transaction. The
/// bonus's id, when one was open.
pub(crate) async fn mark_met(conn: &mut AnyConnection, user_id: i64, currency: Currency) -> Result<Option<i64>, sqlx::Error> {
    let row = sqlx::query(
        "UPDATE bonuses SET status = 'met', wagered = required WHERE user_id = $1 AND product = 'casino' AND currency = $2 AND status = 'active' RETURNING id",
    )
    .bind(user_id)
    .bind(currency.code())
    .fetch_optional(&mut *conn)
    .await?;
    wallet::clear_wager_terms(conn, user_id, BalanceKind::Real, currency).await?;
    Ok(row.map(|r| r.get(0)))
}

/// Whether a statement failed on a unique index (both databases).
pub(crate) fn is_unique_violation(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::Database(d) => {
            d.code()
                .is_some_and(|c| c == "23505" || c == "2067" || c == "1555")
                || d.message().contains("UNIQUE constraint failed")
        }
        _ => false,
    }
}
