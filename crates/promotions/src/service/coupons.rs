//! The coupon machine (spec §3, §9; docs/PROMOTIONS.md): a player's casino spins of the day
//! (stake postings of type 203, the operator's calendar day) earn one coupon when they reach
//! [`SPINS_PER_COUPON`], at most one a day (the unique index `(user_id, day)` decides, so a
//! repeat or two requests at once issue one). Coupons are issued when the player reads the
//! machine and by the hourly pass (players who never look still get theirs).
//!
//! Draws commit before they draw: [`Promotions::announce_coupon_draw`] stores a fresh seed and
//! publishes its SHA-256; [`Promotions::run_coupon_draw`] takes the coupons issued before the
//! announcement, draws the winners with [`crate::coupons::draw`] and reveals the seed, so anyone
//! can recompute the result from the published numbers.

use super::{db_err, Promotions};
use crate::coupons::{draw, earns_coupon, number, SPINS_PER_COUPON};
use crate::periods;
use kernel::clock::now_ms;
use kernel::ids::next_id;
use kernel::money::MajorUnits;
use kernel::{AppError, Currency, ErrorCode, Minor};
use serde::Serialize;
use std::str::FromStr;
use store::sqlx::{self, Row};
use wallet::{AccountRef, BalanceKind, HouseAccount, PostingRequest, TxType};

/// The machine's `main` part: the player's machine and today's spins.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MainCoupon {
    pub id: String,
    pub number: String,
    pub today_total_bets_count: i64,
    pub today_total_bets_limit: i64,
    /// When the machine was first used (Unix milliseconds).
    pub activated_date: i64,
}

/// An issued coupon.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CouponView {
    pub id: String,
    pub number: String,
    pub main_coupon_id: String,
    /// Unix milliseconds.
    pub issued_at: i64,
}

/// `coupon-machine` (spec §3): the number of coupons, the machine, the coupons (newest first,
/// the last 100).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct CouponMachine {
    pub total: i64,
    pub main: MainCoupon,
    pub list: Vec<CouponView>,
}

/// A coupon draw: the seed's hash from the announcement; the seed, the coupons that took part
/// and the winners once drawn.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CouponDraw {
    pub id: String,
    /// SHA-256 of the seed (hex), published when the draw is announced.
    pub seed_hash: String,
    /// The seed (hex), revealed at the draw.
    pub seed: Option<String>,
    pub winners_count: i64,
    /// The coupon numbers that took part (issued before the announcement), once drawn.
    pub coupons: Option<Vec<String>>,
    /// The winning numbers, best ticket first: `coupons::draw(seed, coupons, winnersCount)`.
    pub winners: Option<Vec<String>>,
    pub announced_at: i64,
    pub drawn_at: Option<i64>,
    /// What each winning coupon is paid (none: the draw only names its winners).
    pub prize: Option<PrizeView>,
    /// Winners paid their prize so far.
    pub prizes_paid: i64,
}

/// A draw's prize per winning coupon.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PrizeView {
    #[schema(value_type = f64)]
    pub amount: MajorUnits,
    pub currency: Currency,
    /// The balance it is paid into: `real`.
    pub kind: String,
}

/// A prize as the operator sets it: minor units of `currency`, paid into real money (a prize
/// in the bonus balance would be bonus money outside any bonus, which `ledger verify` flags).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DrawPrize {
    pub amount: Minor,
    pub currency: Currency,
}

const LIMIT: i64 = SPINS_PER_COUPON as i64;

fn draw_id_ok(id: &str) -> bool {
    (1..=64).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

impl Promotions {
    fn today(&self) -> Result<(String, i64, i64), AppError> {
        let tz = periods::zone(periods::DEFAULT_ZONE).map_err(db_err)?;
        periods::day_of(now_ms() / 1000, &tz).map_err(db_err)
    }

    /// The player's machine row (created on first use): `(id, number, activated_at)`.
    async fn machine(&self, user_id: i64) -> Result<(i64, String, i64), AppError> {
        for _ in 0..8 {
            let row = sqlx::query("SELECT id, number, activated_at FROM coupon_machines WHERE user_id = $1")
                .bind(user_id)
                .fetch_optional(self.db().writer())
                .await
                .map_err(db_err)?;
            if let Some(r) = row {
                return Ok((r.get(0), r.get(1), r.get(2)));
            }
            let seq: i64 = sqlx::query("SELECT CAST(COALESCE(MAX(seq), 0) + 1 AS BIGINT) FROM coupon_machines")
                .fetch_one(self.db().writer())
                .await
                .map_err(db_err)?
                .get(0);
            // A unique violation (another request took the player or the number): look again.
            let r = sqlx::query("INSERT INTO coupon_machines (user_id, id, seq, number, activated_at) VALUES ($1, $2, $3, $4, $5)")
                .bind(user_id)
                .bind(next_id())
                .bind(seq)
                .bind(number(seq))
                .bind(now_ms())
                .execute(self.db().writer())
                .await;
            if let Err(e) = r {
                if !store::is_unique_violation(&e) {
                    return Err(db_err(e));
                }
            }
        }
        Err(db_err("coupon machine: too many concurrent creations"))
    }

    /// The player's casino spins (stake postings, type 203) in `[start_ms, end_ms)`.
    async fn spins(&self, user_id: i64, start_ms: i64, end_ms: i64) -> Result<i64, AppError> {
        Ok(sqlx::query("SELECT COUNT(*) FROM ledger_transactions WHERE user_id = $1 AND tx_type = $2 AND created_at >= $3 AND created_at < $4")
            .bind(user_id)
            .bind(TxType::BetStake.code())
            .bind(start_ms)
            .bind(end_ms)
            .fetch_one(self.db().reader())
            .await
            .map_err(db_err)?
            .get(0))
    }

    /// Issues the player's coupon of `day` when `spins` reached the limit and none was issued
    /// that day. Idempotent; returns whether this call issued it.
    async fn issue_coupon(&self, user_id: i64, day: &str, spins: i64) -> Result<bool, AppError> {
        for _ in 0..8 {
            let issued = sqlx::query("SELECT 1 FROM coupons WHERE user_id = $1 AND day = $2")
                .bind(user_id)
                .bind(day)
                .fetch_optional(self.db().writer())
                .await
                .map_err(db_err)?
                .is_some();
            let limit = LIMIT as u32;
            if !earns_coupon(0, spins.clamp(0, u32::MAX as i64) as u32, limit, issued) {
                return Ok(false);
            }
            let (main_id, _, _) = self.machine(user_id).await?;
            let seq: i64 = sqlx::query("SELECT CAST(COALESCE(MAX(seq), 0) + 1 AS BIGINT) FROM coupons")
                .fetch_one(self.db().writer())
                .await
                .map_err(db_err)?
                .get(0);
            let r = sqlx::query("INSERT INTO coupons (id, user_id, day, seq, number, main_id, spins, issued_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)")
                .bind(next_id())
                .bind(user_id)
                .bind(day)
                .bind(seq)
                .bind(number(seq))
                .bind(main_id)
                .bind(spins)
                .bind(now_ms())
                .execute(self.db().writer())
                .await;
            match r {
                Ok(_) => return Ok(true),
                // The day's coupon issued meanwhile (the loop then stops), or the number taken.
                Err(e) if store::is_unique_violation(&e) => continue,
                Err(e) => return Err(db_err(e)),
            }
        }
        Err(db_err("coupons: too many concurrent issues"))
    }

    /// `coupon-machine`: today's spins, the coupon they earned (issued now if due), the list.
    pub async fn coupon_machine(&self, user_id: i64) -> Result<CouponMachine, AppError> {
        let (day, start, end) = self.today()?;
        let spins = self.spins(user_id, start * 1000, end * 1000).await?;
        self.issue_coupon(user_id, &day, spins).await?;
        let (id, number, activated_at) = self.machine(user_id).await?;
        let total: i64 = sqlx::query("SELECT COUNT(*) FROM coupons WHERE user_id = $1")
            .bind(user_id)
            .fetch_one(self.db().writer())
            .await
            .map_err(db_err)?
            .get(0);
        let list = sqlx::query("SELECT id, number, main_id, issued_at FROM coupons WHERE user_id = $1 ORDER BY issued_at DESC, seq DESC LIMIT 100")
            .bind(user_id)
            .fetch_all(self.db().writer())
            .await
            .map_err(db_err)?
            .iter()
            .map(|r| CouponView {
                id: r.get::<i64, _>(0).to_string(),
                number: r.get(1),
                main_coupon_id: r.get::<i64, _>(2).to_string(),
                issued_at: r.get(3),
            })
            .collect();
        Ok(CouponMachine {
            total,
            main: MainCoupon {
                id: id.to_string(),
                number,
                today_total_bets_count: spins,
                today_total_bets_limit: LIMIT,
                activated_date: activated_at,
            },
            list,
        })
    }

    /// The hourly pass: issues the coupons of yesterday and today that players earned without
    /// opening the machine. Set-based: one count per range of players. Returns coupons issued.
    pub async fn issue_coupons_pass(&self) -> Result<i64, AppError> {
        let (day, start, end) = self.today()?;
        let tz = periods::zone(periods::DEFAULT_ZONE).map_err(db_err)?;
        let (yesterday, y_start, y_end) = periods::day_of(start - 1, &tz).map_err(db_err)?;
        let mut issued = 0;
        for (day, start, end) in [(yesterday, y_start, y_end), (day, start, end)] {
            let mut after = i64::MIN;
            loop {
                let owners = self.players_after(after).await?;
                let (Some(&lo), Some(&hi)) = (owners.first(), owners.last()) else { break };
                after = hi;
                let due = sqlx::query(
                    "SELECT a.owner_id, COUNT(*) FROM ledger_accounts a \
                     JOIN ledger_entries e ON e.account_id = a.id AND e.created_at >= $3 AND e.created_at < $4 \
                     JOIN ledger_transactions t ON t.id = e.tx_id AND t.tx_type = $5 \
                     WHERE a.owner_id >= $1 AND a.owner_id <= $2 AND a.kind = 'real' AND a.is_house = 0 AND e.amount < 0 \
                     AND NOT EXISTS (SELECT 1 FROM coupons c WHERE c.user_id = a.owner_id AND c.day = $6) \
                     GROUP BY a.owner_id HAVING COUNT(*) >= $7",
                )
                .bind(lo)
                .bind(hi)
                .bind(start * 1000)
                .bind(end * 1000)
                .bind(TxType::BetStake.code())
                .bind(&day)
                .bind(LIMIT)
                .fetch_all(self.db().reader())
                .await
                .map_err(db_err)?;
                for r in due {
                    if self.issue_coupon(r.get(0), &day, r.get(1)).await? {
                        issued += 1;
                    }
                }
            }
        }
        Ok(issued)
    }

    /// Announces a draw: a fresh seed is stored and its SHA-256 published. Idempotent per id
    /// (the same hash again); another winner count for the same id is refused.
    /// `prize`: what each winning coupon is paid when the draw runs (real money).
    pub async fn announce_coupon_draw(&self, id: &str, winners: i64, prize: Option<DrawPrize>, actor: &str) -> Result<CouponDraw, AppError> {
        if !draw_id_ok(id) {
            return Err(AppError::with_detail(ErrorCode::InvalidField, "id: 1 to 64 letters, digits, - or _"));
        }
        if !(1..=1_000).contains(&winners) {
            return Err(AppError::with_detail(ErrorCode::InvalidField, "winners: 1 to 1000"));
        }
        if let Some(p) = prize {
            if p.amount <= 0 || p.amount > self.ledger().limits().max_amount(p.currency) {
                return Err(AppError::with_detail(ErrorCode::InvalidField, "prize.amount: a positive amount within the posting limit"));
            }
        }
        let seed = studio::fair::new_server_seed();
        let hash = studio::fair::hex32(&studio::fair::seed_hash(&seed));
        sqlx::query(
            "INSERT INTO coupon_draws (id, seed_hash, seed, winners_count, announced_at, created_by, prize_amount, prize_currency, prize_kind) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (id) DO NOTHING",
        )
        .bind(id)
        .bind(&hash)
        .bind(studio::fair::hex32(&seed))
        .bind(winners)
        .bind(now_ms())
        .bind(actor)
        .bind(prize.map_or(0, |p| p.amount))
        .bind(prize.map(|p| p.currency.code()))
        .bind(prize.map(|_| "real"))
        .execute(self.db().writer())
        .await
        .map_err(db_err)?;
        let d = self.coupon_draw(id).await?.ok_or_else(|| db_err("draw vanished"))?;
        if d.winners_count != winners {
            return Err(AppError::with_detail(ErrorCode::InvalidField, "id: this draw was announced with another number of winners"));
        }
        let same_prize = match (&d.prize, prize) {
            (None, None) => true,
            (Some(v), Some(p)) => v.currency == p.currency && v.amount == MajorUnits::new(p.amount, p.currency),
            _ => false,
        };
        if !same_prize {
            return Err(AppError::with_detail(ErrorCode::InvalidField, "id: this draw was announced with another prize"));
        }
        Ok(d)
    }

    /// Draws the winners of an announced draw among the coupons issued before its
    /// announcement, reveals its seed and pays each winning coupon its prize (if the draw has
    /// one) under `coupon:{draw}:{number}`. Idempotent: a drawn draw answers its result, and a
    /// run again (or at once) pays the prizes a first run left unpaid and nothing twice.
    pub async fn run_coupon_draw(&self, id: &str) -> Result<CouponDraw, AppError> {
        let row = sqlx::query("SELECT seed, winners_count, announced_at, drawn_at FROM coupon_draws WHERE id = $1")
            .bind(id)
            .fetch_optional(self.db().writer())
            .await
            .map_err(db_err)?
            .ok_or(ErrorCode::NotFound)?;
        let (seed, winners, announced_at, drawn_at): (String, i64, i64, Option<i64>) = (row.get(0), row.get(1), row.get(2), row.get(3));
        if drawn_at.is_none() {
            let seed = studio::fair::parse_hex32(&seed).ok_or_else(|| db_err("draw seed"))?;
            let numbers: Vec<String> = sqlx::query("SELECT number FROM coupons WHERE issued_at < $1 ORDER BY seq")
                .bind(announced_at)
                .fetch_all(self.db().writer())
                .await
                .map_err(db_err)?
                .iter()
                .map(|r| r.get(0))
                .collect();
            let won = draw(&seed, numbers.iter().map(String::as_str), winners as usize);
            sqlx::query("UPDATE coupon_draws SET numbers = $1, winners = $2, drawn_at = $3 WHERE id = $4 AND drawn_at IS NULL")
                .bind(serde_json::to_string(&numbers).map_err(db_err)?)
                .bind(serde_json::to_string(&won).map_err(db_err)?)
                .bind(now_ms())
                .bind(id)
                .execute(self.db().writer())
                .await
                .map_err(db_err)?;
        }
        let d = self.coupon_draw(id).await?.ok_or_else(|| db_err("draw vanished"))?;
        if d.prize.is_some() && d.prizes_paid < d.winners.as_ref().map_or(0, |w| w.len() as i64) {
            self.pay_coupon_prizes(id).await?;
            return self.coupon_draw(id).await?.ok_or_else(|| db_err("draw vanished"));
        }
        Ok(d)
    }

    /// Pays every winning coupon of a drawn draw its prize (keyed: once each).
    async fn pay_coupon_prizes(&self, id: &str) -> Result<(), AppError> {
        let row = sqlx::query("SELECT winners, prize_amount, prize_currency FROM coupon_draws WHERE id = $1 AND drawn_at IS NOT NULL")
            .bind(id)
            .fetch_one(self.db().writer())
            .await
            .map_err(db_err)?;
        let (winners, amount, currency): (Option<String>, i64, Option<String>) = (row.get(0), row.get(1), row.get(2));
        let winners: Vec<String> = winners.and_then(|w| serde_json::from_str(&w).ok()).unwrap_or_default();
        let Some(currency) = currency.and_then(|c| Currency::from_str(&c).ok()) else { return Ok(()) };
        if amount <= 0 || winners.is_empty() {
            return Ok(());
        }
        let sql = format!("SELECT number, user_id FROM coupons WHERE number IN {}", store::values(1, winners.len(), 1));
        let mut q = sqlx::query(&sql);
        for n in &winners {
            q = q.bind(n.as_str());
        }
        let owners: std::collections::HashMap<String, i64> = q
            .fetch_all(self.db().writer())
            .await
            .map_err(db_err)?
            .iter()
            .map(|r| (r.get(0), r.get(1)))
            .collect();
        let mut reqs = Vec::with_capacity(winners.len());
        for (rank, number) in winners.iter().enumerate() {
            let Some(&user) = owners.get(number) else { continue };
            reqs.push(
                PostingRequest::transfer(
                    TxType::CouponPrize,
                    format!("coupon:{id}:{number}"),
                    Some(user),
                    currency,
                    AccountRef::House(HouseAccount::Bonuses),
                    AccountRef::Player { user_id: user, kind: BalanceKind::Real },
                    amount,
                )
                .comment(format!("Coupon draw {id}: coupon {number} won"))
                .metadata(serde_json::json!({ "draw": id, "coupon": number, "rank": rank + 1 })),
            );
        }
        let mut paid = 0i64;
        for r in self.ledger().post_many(reqs).await {
            match r {
                Ok(_) => paid += 1,
                Err(e) => tracing::warn!(draw = id, error = %e, "coupon draw: a prize was refused; paid by the next run"),
            }
        }
        sqlx::query("UPDATE coupon_draws SET prizes_paid = $1 WHERE id = $2 AND prizes_paid < $1")
            .bind(paid)
            .bind(id)
            .execute(self.db().writer())
            .await
            .map_err(db_err)?;
        Ok(())
    }

    /// A draw as anyone may read it: the seed only once drawn.
    pub async fn coupon_draw(&self, id: &str) -> Result<Option<CouponDraw>, AppError> {
        let row = sqlx::query(&format!("{DRAW} WHERE id = $1"))
            .bind(id)
            .fetch_optional(self.db().writer())
            .await
            .map_err(db_err)?;
        Ok(row.as_ref().map(|r| draw_of(r, true)))
    }

    /// The latest draws, newest first (at most `limit`, 1–50): what the coupon-machine page
    /// lists; each draw's coupons are left out (`coupon_draw` has them).
    pub async fn coupon_draws(&self, limit: i64) -> Result<Vec<CouponDraw>, AppError> {
        let rows = sqlx::query(&format!("{DRAW} ORDER BY announced_at DESC, id DESC LIMIT $1"))
            .bind(limit.clamp(1, 50))
            .fetch_all(self.db().reader())
            .await
            .map_err(db_err)?;
        Ok(rows.iter().map(|r| draw_of(r, false)).collect())
    }
}

const DRAW: &str = "SELECT id, seed_hash, seed, winners_count, numbers, winners, announced_at, drawn_at, prize_amount, prize_currency, prize_kind, prizes_paid FROM coupon_draws";

/// A draw as [`DRAW`] reads it; its coupons' numbers only when `with_coupons` (the list of
/// draws leaves them out).
fn draw_of(r: &store::sqlx::any::AnyRow, with_coupons: bool) -> CouponDraw {
    let drawn_at: Option<i64> = r.get(7);
    let list = |v: Option<String>| v.and_then(|t| serde_json::from_str::<Vec<String>>(&t).ok());
    CouponDraw {
        id: r.get(0),
        seed_hash: r.get(1),
        seed: drawn_at.map(|_| r.get(2)),
        winners_count: r.get(3),
        coupons: if with_coupons { list(r.get(4)) } else { None },
        winners: list(r.get(5)),
        announced_at: r.get(6),
        drawn_at,
        prize: match (r.get::<i64, _>(8), r.get::<Option<String>, _>(9).and_then(|c| Currency::from_str(&c).ok())) {
            (amount, Some(currency)) if amount > 0 => Some(PrizeView {
                amount: MajorUnits::new(amount, currency),
                currency,
                kind: r.get::<Option<String>, _>(10).unwrap_or_else(|| "real".into()),
            }),
            _ => None,
        },
        prizes_paid: r.get(11),
    }
}

