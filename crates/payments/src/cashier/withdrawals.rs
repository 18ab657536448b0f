//! Cashier withdrawals: the player asks (funds held at once), then either cancels it while
//! it is CREATED (funds back) or a cashier pays it in cash against the one-time code (the
//! hold moves to that cashier's float).
//!
//! ## Why a cancel racing a payout ends in exactly one of them
//!
//! The ledger posts on its own connection (SQLite's group-commit writer), so a status
//! change and a posting cannot share one database transaction. The order that makes a
//! double spend impossible instead:
//!
//! 1. **Claim the final state first** with one conditional statement: `UPDATE … SET status
//!    = 'PAID' | 'CANCELED' … WHERE id = $id AND status = 'CREATED'`. Both databases apply
//!    it atomically; exactly one of the racing requests sees one row changed, the other
//!    sees none and is refused (96 for the desk, 99 for the player). A request's status
//!    never leaves PAID or CANCELED again (except the revert of step 3).
//! 2. **Then post**, keyed by the request (`cwr:{id}:payout` or `cwr:{id}:release`): only
//!    the winner of step 1 ever posts, and a retry of its posting is a replay, never a
//!    second movement. `posted = 1` records that the posting is in.
//! 3. If the posting is *refused* (nothing was written: e.g. the float would pass its
//!    maximum), the winner puts the request back to CREATED (`WHERE status = $won AND
//!    posted = 0`), so the money stays held and the request payable or cancellable.
//!    If the posting's outcome is *unknown* (the ledger was unavailable), the request stays
//!    in its final state with `posted = 0` and [`Cashier::recover`] posts it again under the
//!    same key: it is a replay if the first attempt went through.
//!
//! The hold at creation follows the same rule: the row is written first as NEW (invisible,
//! not payable or cancellable), the hold is posted under `cwr:{id}:hold`, then the row
//! becomes CREATED. A refused hold (508) deletes the row. A row left NEW by a crash is
//! settled by [`Cashier::recover`]: it claims the hold's key with an empty *record* posting
//! — if that succeeds the hold can never be posted any more (its key is taken by a posting
//! with other legs) and the row becomes REFUSED; if the key was taken by the hold, the row
//! becomes CREATED.

use super::code;
use super::{db_err, Cashier, Player, Staff, ROLE_SUPER_AGENT};
use kernel::clock::{now_ms, to_rfc3339};
use kernel::money::parse_major;
use kernel::{AppError, Currency, ErrorCode, Minor};
use store::sqlx::{self, Row};
use wallet::{AccountRef, BalanceKind, HouseAccount, Leg, LedgerError, PostingRequest, TxType};

/// A request's status as the player sees it (spec §4: CREATED pending, PAID completed,
/// CANCELED rejected). NEW and REFUSED are internal and never listed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WithdrawalStatus {
    New,
    Created,
    Paid,
    Canceled,
    Refused,
}

impl WithdrawalStatus {
    pub const fn as_str(self) -> &'static str {
        match self {
            WithdrawalStatus::New => "NEW",
            WithdrawalStatus::Created => "CREATED",
            WithdrawalStatus::Paid => "PAID",
            WithdrawalStatus::Canceled => "CANCELED",
            WithdrawalStatus::Refused => "REFUSED",
        }
    }

    pub fn parse(s: &str) -> Option<WithdrawalStatus> {
        [WithdrawalStatus::New, WithdrawalStatus::Created, WithdrawalStatus::Paid, WithdrawalStatus::Canceled, WithdrawalStatus::Refused]
            .into_iter()
            .find(|v| v.as_str() == s)
    }

    /// The statuses a player may list and filter by.
    pub const VISIBLE: [WithdrawalStatus; 3] = [WithdrawalStatus::Created, WithdrawalStatus::Paid, WithdrawalStatus::Canceled];
}

/// One cashier withdrawal request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Withdrawal {
    pub id: i64,
    pub user_id: i64,
    pub cashier_id: Option<i64>,
    /// The chosen cashier's name (spec §3 cashier option), when one was chosen.
    pub cashier_name: Option<String>,
    pub amount: Minor,
    pub currency: Currency,
    pub status: WithdrawalStatus,
    pub cancel_reason: Option<String>,
    pub paid_by: Option<i64>,
    pub created_at: i64,
    pub closed_at: Option<i64>,
    /// The payout code while the request is payable (CREATED); `None` afterwards.
    pub code: Option<String>,
}

const COLUMNS: &str = "w.id, w.user_id, w.cashier_id, w.amount, w.currency, w.status, w.cancel_reason, w.paid_by, w.created_at, w.closed_at, \
                       l.first_name, l.address, l.phone";
const FROM: &str = "cashier_withdrawals w LEFT JOIN cashier_locations l ON l.user_id = w.cashier_id";

/// The spec's history query (§3 cashier history query; defaults of §5: count 20, page 0,
/// statuses all).
#[derive(Debug, Clone)]
pub struct HistoryQuery {
    pub count: i64,
    pub page: i64,
    pub from_ms: i64,
    pub to_ms: i64,
    /// Empty: all visible statuses.
    pub statuses: Vec<WithdrawalStatus>,
}

#[derive(Debug, Clone)]
pub struct HistoryPage {
    pub items: Vec<Withdrawal>,
    pub total: i64,
    pub pages: i64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PayEntryKind {
    Deposit,
    Withdrawal,
}

impl PayEntryKind {
    pub const fn as_str(self) -> &'static str {
        match self {
            PayEntryKind::Deposit => "deposit",
            PayEntryKind::Withdrawal => "withdrawal",
        }
    }
}

/// One entry of the pay history from the cashier network (merged by the lead into
/// `GET /api/payment/history/payment-with-withdrawal`): a cash deposit or a cashier
/// withdrawal. `amount_minor` is positive for both; `kind` tells which.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CashierPayEntry {
    pub id: i64,
    pub created_at_ms: i64,
    pub amount_minor: Minor,
    pub currency: Currency,
    pub kind: PayEntryKind,
    pub status: String,
    pub is_closed: bool,
    /// Always `"cashier"`.
    pub payment_mode: &'static str,
    pub comment: String,
}

/// Reads `limits.payment.withdrawal` `{min, max}` (major units) of the settings document.
pub fn withdrawal_limits(settings: &serde_json::Value, currency: Currency) -> (Option<Minor>, Option<Minor>) {
    let read = |k: &str| {
        let v = &settings["limits"]["payment"]["withdrawal"][k];
        let text = match v {
            serde_json::Value::Number(n) => n.to_string(),
            serde_json::Value::String(s) => s.clone(),
            _ => return None,
        };
        parse_major(&text, currency).ok().filter(|m| *m >= 0)
    };
    (read("min"), read("max"))
}

fn row_to_withdrawal(r: &store::sqlx::any::AnyRow, secret: &[u8]) -> Result<Withdrawal, AppError> {
    let status: String = r.get(5);
    let status = WithdrawalStatus::parse(&status).ok_or_else(|| db_err("unknown cashier withdrawal status"))?;
    let id: i64 = r.get(0);
    let first: Option<String> = r.get(10);
    Ok(Withdrawal {
        id,
        user_id: r.get(1),
        cashier_id: r.get(2),
        cashier_name: first.map(|f| super::network::location_name(&f, &r.get::<String, _>(11), &r.get::<String, _>(12))),
        amount: r.get(3),
        currency: r.get::<String, _>(4).parse().map_err(|_| db_err("unknown currency"))?,
        status,
        cancel_reason: r.get(6),
        paid_by: r.get(7),
        created_at: r.get(8),
        closed_at: r.get(9),
        code: (status == WithdrawalStatus::Created).then(|| code::derive(secret, id)),
    })
}

impl Cashier {
    async fn load(&self, id: i64) -> Result<Option<Withdrawal>, AppError> {
        let secret = self.secret().await?;
        let row = sqlx::query(&format!("SELECT {COLUMNS} FROM {FROM} WHERE w.id = $1"))
            .bind(id)
            .fetch_optional(self.db.writer())
            .await
            .map_err(db_err)?;
        row.map(|r| row_to_withdrawal(&r, &secret)).transpose()
    }

    /// `POST /api/payment/cashier_withdrawal_request`: limits (106 below the minimum, 84
    /// above the maximum), the chosen cashier (95), the other parts' rules (6252), then the
    /// hold (type 10, `cwr:{id}:hold`; 508 when the real balance does not cover it) and the
    /// payout code by SMS.
    pub async fn request_withdrawal(&self, player: &Player, amount: Minor, cashier_id: Option<i64>, settings: &serde_json::Value) -> Result<Withdrawal, AppError> {
        let currency = player.currency;
        if amount <= 0 {
            return Err(AppError::with_detail(ErrorCode::InvalidField, "amount must be positive"));
        }
        let (min, max) = withdrawal_limits(settings, currency);
        if let Some(min) = min.filter(|m| amount < *m) {
            return Err(AppError::new(ErrorCode::WithdrawalBelowMinimum).data(serde_json::json!({ "min": kernel::money::MajorUnits::new(min, currency) })));
        }
        if let Some(max) = max.filter(|m| amount > *m) {
            return Err(AppError::new(ErrorCode::WithdrawalAboveMaximum).data(serde_json::json!({ "max": kernel::money::MajorUnits::new(max, currency) })));
        }
        if let Some(c) = cashier_id {
            if !self.cashier_exists(c).await? {
                return Err(ErrorCode::CashierNotFound.into());
            }
        }
        self.withdrawal_rules_check(player.id, amount, currency).await?;
        if self.ledger.balance(player.id, BalanceKind::Real, currency).await? < amount {
            return Err(ErrorCode::InsufficientForWithdrawal.into());
        }
        let secret = self.secret().await?;
        // An id whose code no payable request has (a collision is ~1 in 10^8 per open request).
        let (id, code) = loop {
            let id = kernel::ids::next_id();
            let c = code::derive(&secret, id);
            let taken = sqlx::query("SELECT id FROM cashier_withdrawals WHERE code_hash = $1 AND status IN ('NEW', 'CREATED')")
                .bind(code::hash(&secret, &c))
                .fetch_optional(self.db.writer())
                .await
                .map_err(db_err)?;
            if taken.is_none() {
                break (id, c);
            }
        };
        let now = now_ms();
        sqlx::query(
            "INSERT INTO cashier_withdrawals (id, user_id, cashier_id, amount, currency, status, code_hash, posted, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, 'NEW', $6, 0, $7, $7)",
        )
        .bind(id)
        .bind(player.id)
        .bind(cashier_id)
        .bind(amount)
        .bind(currency.code())
        .bind(code::hash(&secret, &code))
        .bind(now)
        .execute(self.db.writer())
        .await
        .map_err(db_err)?;
        let hold = PostingRequest::transfer(
            TxType::Withdrawal,
            format!("cwr:{id}:hold"),
            Some(player.id),
            currency,
            AccountRef::Player { user_id: player.id, kind: BalanceKind::Real },
            AccountRef::House(HouseAccount::WithdrawalsPending),
            amount,
        )
        .comment("Cashier withdrawal requested")
        .metadata(serde_json::json!({ "cashier_withdrawal": id }));
        match self.ledger.post(hold).await {
            Ok(_) => {}
            Err(LedgerError::Unavailable(e)) => {
                // Outcome unknown: the row stays NEW and `recover` settles it.
                return Err(AppError::internal(e));
            }
            Err(e) => {
                sqlx::query("DELETE FROM cashier_withdrawals WHERE id = $1 AND status = 'NEW'").bind(id).execute(self.db.writer()).await.map_err(db_err)?;
                return Err(match e {
                    LedgerError::Insufficient(_) => ErrorCode::InsufficientForWithdrawal.into(),
                    e => e.into(),
                });
            }
        }
        sqlx::query("UPDATE cashier_withdrawals SET status = 'CREATED', updated_at = $1 WHERE id = $2 AND status = 'NEW'")
            .bind(now_ms())
            .bind(id)
            .execute(self.db.writer())
            .await
            .map_err(db_err)?;
        if let (Some(phone), Some(n)) = (player.phone.as_deref(), self.notifier.get()) {
            // The code is also in the player's history: a failed SMS does not undo the request.
            if let Err(e) = n.send_payout_code(player.id, phone, &code, amount, currency).await {
                tracing::warn!(error = %e, withdrawal = id, "payout code SMS not queued");
            }
        }
        self.load(id).await?.ok_or_else(|| db_err("the new withdrawal vanished"))
    }

    /// The player cancels a CREATED request: CANCELED first (conditional), then the release
    /// (207, `cwr:{id}:release`). 98 when it is not theirs, 99 when no longer CREATED.
    pub async fn cancel_withdrawal(&self, user_id: i64, id: i64) -> Result<Withdrawal, AppError> {
        let now = now_ms();
        let won = sqlx::query(
            "UPDATE cashier_withdrawals SET status = 'CANCELED', cancel_reason = 'player', closed_at = $1, updated_at = $1 \
             WHERE id = $2 AND user_id = $3 AND status = 'CREATED'",
        )
        .bind(now)
        .bind(id)
        .bind(user_id)
        .execute(self.db.writer())
        .await
        .map_err(db_err)?
        .rows_affected()
            == 1;
        let w = self.load(id).await?.filter(|w| w.user_id == user_id && WithdrawalStatus::VISIBLE.contains(&w.status));
        let w = w.ok_or(ErrorCode::CashierWithdrawalNotFound)?;
        if !won {
            return Err(ErrorCode::CashierWithdrawalNotCancellable.into());
        }
        self.finish(&w, WithdrawalStatus::Canceled).await?;
        Ok(w)
    }

    /// A desk pays a CREATED request by its code: PAID first (conditional), then the payout
    /// (208, `cwr:{id}:payout`: hold → the staff member's float). 96 for a code that matches
    /// no payable request; 97 when the player chose another cashier; 113 after too many
    /// wrong codes from this desk.
    pub async fn payout(&self, staff: &Staff, code_input: &str) -> Result<Withdrawal, AppError> {
        let now = now_ms();
        // Every entry is counted as a wrong code before it is evaluated (one serialised
        // count-and-record), and forgotten once it turns out to be a real code: so however
        // many arrive at once, at most `max_code_failures` wrong ones are ever evaluated.
        let attempt = self.take_code_attempt(staff.id, now).await?;
        let mut wrong = false;
        let result = self.payout_by_code(staff, code_input, now, &mut wrong).await;
        if !wrong {
            self.forget_code_attempt(attempt).await?;
        }
        result
    }

    /// Records a payout-code attempt of `staff_id` unless the desk already has
    /// `max_code_failures` in the window (113). The count and the insert are one transaction,
    /// serialised per desk: the staff member's user row is locked on PostgreSQL; SQLite's one
    /// writer connection runs such transactions one at a time.
    async fn take_code_attempt(&self, staff_id: i64, now: i64) -> Result<i64, AppError> {
        let mut tx = self.db.writer().begin().await.map_err(db_err)?;
        if self.db.backend() == store::Backend::Postgres {
            sqlx::query("SELECT id FROM users WHERE id = $1 FOR UPDATE").bind(staff_id).fetch_optional(&mut *tx).await.map_err(db_err)?;
        }
        let failures: i64 = sqlx::query("SELECT COUNT(*) FROM cashier_code_failures WHERE staff_id = $1 AND created_at >= $2")
            .bind(staff_id)
            .bind(now - self.cfg.code_failure_window_ms)
            .fetch_one(&mut *tx)
            .await
            .map_err(db_err)?
            .get(0);
        if failures >= self.cfg.max_code_failures {
            return Err(ErrorCode::PayoutCodeLocked.into());
        }
        let id = kernel::ids::next_id();
        sqlx::query("INSERT INTO cashier_code_failures (id, staff_id, created_at) VALUES ($1, $2, $3)")
            .bind(id)
            .bind(staff_id)
            .bind(now)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
        tx.commit().await.map_err(db_err)?;
        Ok(id)
    }

    /// An attempt that was not a wrong code no longer counts.
    async fn forget_code_attempt(&self, id: i64) -> Result<(), AppError> {
        sqlx::query("DELETE FROM cashier_code_failures WHERE id = $1").bind(id).execute(self.db.writer()).await.map_err(db_err)?;
        Ok(())
    }

    /// The payout once the attempt is recorded: a code matching no request is the one
    /// outcome that keeps counting (`wrong` set); every other answer forgets it.
    async fn payout_by_code(&self, staff: &Staff, code_input: &str, now: i64, wrong: &mut bool) -> Result<Withdrawal, AppError> {
        let secret = self.secret().await?;
        let hash = code::normalise(code_input).map(|c| code::hash(&secret, &c));
        let found = match &hash {
            Some(h) => sqlx::query("SELECT id, cashier_id, currency, status FROM cashier_withdrawals WHERE code_hash = $1 ORDER BY CASE WHEN status = 'CREATED' THEN 0 ELSE 1 END LIMIT 1")
                .bind(h)
                .fetch_optional(self.db.writer())
                .await
                .map_err(db_err)?,
            None => None,
        };
        // A real code of a request paid or cancelled meanwhile (a cancel won the race) is
        // refused without counting as a guess.
        if found.as_ref().is_some_and(|r| r.get::<String, _>(3) != "CREATED") {
            return Err(ErrorCode::PayoutCodeInvalid.into());
        }
        let Some(row) = found else {
            *wrong = true;
            return Err(ErrorCode::PayoutCodeInvalid.into());
        };
        let id: i64 = row.get(0);
        let chosen: Option<i64> = row.get(1);
        if chosen.is_some_and(|c| c != staff.id) && !(staff.role == ROLE_SUPER_AGENT && self.owns(staff.id, chosen.unwrap_or(0)).await?) {
            return Err(ErrorCode::WithdrawalAtAnotherCashier.into());
        }
        if row.get::<String, _>(2) != staff.currency.code() {
            return Err(ErrorCode::CurrencyMismatch.into());
        }
        let won = sqlx::query(
            "UPDATE cashier_withdrawals SET status = 'PAID', paid_by = $1, closed_at = $2, updated_at = $2 WHERE id = $3 AND status = 'CREATED'",
        )
        .bind(staff.id)
        .bind(now)
        .bind(id)
        .execute(self.db.writer())
        .await
        .map_err(db_err)?
        .rows_affected()
            == 1;
        if !won {
            // Cancelled or paid by someone else since we read it.
            return Err(ErrorCode::PayoutCodeInvalid.into());
        }
        let w = self.load(id).await?.ok_or_else(|| db_err("the paid withdrawal vanished"))?;
        self.finish(&w, WithdrawalStatus::Paid).await?;
        Ok(w)
    }

    async fn owns(&self, agent: i64, cashier: i64) -> Result<bool, AppError> {
        let row = sqlx::query("SELECT id FROM users WHERE id = $1 AND parent_super_agent_id = $2")
            .bind(cashier)
            .bind(agent)
            .fetch_optional(self.db.reader())
            .await
            .map_err(db_err)?;
        Ok(row.is_some())
    }

    /// Posts the final movement of a request whose final state `status` this caller won
    /// (or that [`Self::recover`] found unposted), then marks it posted. A refused posting
    /// puts the request back to CREATED (the money is still held).
    async fn finish(&self, w: &Withdrawal, status: WithdrawalStatus) -> Result<(), AppError> {
        let held = AccountRef::House(HouseAccount::WithdrawalsPending);
        let posting = match status {
            WithdrawalStatus::Paid => {
                let staff = w.paid_by.ok_or_else(|| db_err("a PAID withdrawal without its cashier"))?;
                PostingRequest::transfer(TxType::CashierPayout, format!("cwr:{}:payout", w.id), Some(w.user_id), w.currency, held, AccountRef::Player { user_id: staff, kind: BalanceKind::Float }, w.amount)
                    .comment("Cashier withdrawal paid in cash")
                    .metadata(serde_json::json!({ "cashier_withdrawal": w.id, "cashier": staff }))
            }
            WithdrawalStatus::Canceled => {
                PostingRequest::transfer(TxType::WithdrawalReleased, format!("cwr:{}:release", w.id), Some(w.user_id), w.currency, held, AccountRef::Player { user_id: w.user_id, kind: BalanceKind::Real }, w.amount)
                    .comment("Cashier withdrawal cancelled")
                    .metadata(serde_json::json!({ "cashier_withdrawal": w.id }))
            }
            _ => return Err(db_err("finish needs PAID or CANCELED")),
        };
        match self.ledger.post(posting).await {
            Ok(_) => {
                sqlx::query("UPDATE cashier_withdrawals SET posted = 1, updated_at = $1 WHERE id = $2 AND status = $3")
                    .bind(now_ms())
                    .bind(w.id)
                    .bind(status.as_str())
                    .execute(self.db.writer())
                    .await
                    .map_err(db_err)?;
                Ok(())
            }
            Err(LedgerError::Unavailable(e)) => Err(AppError::internal(e)),
            Err(e) => {
                sqlx::query(
                    "UPDATE cashier_withdrawals SET status = 'CREATED', paid_by = NULL, cancel_reason = NULL, closed_at = NULL, updated_at = $1 \
                     WHERE id = $2 AND status = $3 AND posted = 0",
                )
                .bind(now_ms())
                .bind(w.id)
                .bind(status.as_str())
                .execute(self.db.writer())
                .await
                .map_err(db_err)?;
                Err(match e {
                    LedgerError::BalanceLimit => ErrorCode::BalanceLimit.into(),
                    e => e.into(),
                })
            }
        }
    }

    /// Settles what a crash or an unavailable ledger left half done (run at start and by
    /// the housekeeping loop): requests NEW for over `min_age_ms` (their hold decided once
    /// and for all, see the module notes) and PAID / CANCELED requests whose posting is not
    /// recorded (posted again under the same key: a replay if it went through). Answers
    /// how many requests it settled.
    pub async fn recover(&self, min_age_ms: i64) -> Result<usize, AppError> {
        let mut settled = 0;
        let stale = sqlx::query("SELECT id, user_id, currency FROM cashier_withdrawals WHERE status = 'NEW' AND created_at < $1")
            .bind(now_ms() - min_age_ms)
            .fetch_all(self.db.writer())
            .await
            .map_err(db_err)?;
        for r in stale {
            let (id, user_id): (i64, i64) = (r.get(0), r.get(1));
            let currency: Currency = r.get::<String, _>(2).parse().map_err(|_| db_err("unknown currency"))?;
            // An empty record under the hold's key: if it is taken, the hold was posted.
            let record = PostingRequest {
                tx_type: TxType::Withdrawal,
                idempotency_key: format!("cwr:{id}:hold"),
                user_id: Some(user_id),
                comment: "Cashier withdrawal abandoned before its hold".into(),
                metadata: serde_json::json!({ "cashier_withdrawal": id, "abandoned": true }),
                legs: vec![
                    Leg::player(user_id, BalanceKind::Real, currency, 0),
                    Leg::house(HouseAccount::WithdrawalsPending, currency, 0),
                ],
                audit: None,
                fingerprint: Some("abandoned".into()),
                group: None,
            };
            let next = match self.ledger.post(record).await {
                Ok(r) if !r.replayed => "REFUSED",
                Ok(_) => continue,
                Err(LedgerError::IdempotencyConflict) => "CREATED",
                Err(e) => return Err(e.into()),
            };
            sqlx::query("UPDATE cashier_withdrawals SET status = $1, updated_at = $2 WHERE id = $3 AND status = 'NEW'")
                .bind(next)
                .bind(now_ms())
                .bind(id)
                .execute(self.db.writer())
                .await
                .map_err(db_err)?;
            settled += 1;
        }
        let unposted = sqlx::query("SELECT id FROM cashier_withdrawals WHERE status IN ('PAID', 'CANCELED') AND posted = 0")
            .fetch_all(self.db.writer())
            .await
            .map_err(db_err)?;
        for r in unposted {
            let Some(w) = self.load(r.get(0)).await? else { continue };
            if self.finish(&w, w.status).await.is_ok() {
                settled += 1;
            }
        }
        Ok(settled)
    }

    /// `GET /api/payment/cashier_withdrawal_request/history`: the player's requests in the
    /// range with the given statuses, newest first, one page.
    pub async fn history(&self, user_id: i64, q: &HistoryQuery) -> Result<HistoryPage, AppError> {
        let statuses: Vec<WithdrawalStatus> = if q.statuses.is_empty() { WithdrawalStatus::VISIBLE.to_vec() } else { q.statuses.clone() };
        let marks: Vec<String> = (0..statuses.len()).map(|i| format!("${}", i + 4)).collect();
        let filter = format!("w.user_id = $1 AND w.created_at >= $2 AND w.created_at < $3 AND w.status IN ({})", marks.join(", "));
        let n = statuses.len();
        let count_sql = format!("SELECT COUNT(*) FROM cashier_withdrawals w WHERE {filter}");
        let page_sql = format!("SELECT {COLUMNS} FROM {FROM} WHERE {filter} ORDER BY w.created_at DESC, w.id DESC LIMIT ${} OFFSET ${}", n + 4, n + 5);
        let mut count_q = sqlx::query(&count_sql).bind(user_id).bind(q.from_ms).bind(q.to_ms);
        let mut page_q = sqlx::query(&page_sql).bind(user_id).bind(q.from_ms).bind(q.to_ms);
        for s in &statuses {
            count_q = count_q.bind(s.as_str());
            page_q = page_q.bind(s.as_str());
        }
        let total: i64 = count_q.fetch_one(self.db.reader()).await.map_err(db_err)?.get(0);
        let rows = page_q.bind(q.count).bind(q.page.saturating_mul(q.count)).fetch_all(self.db.reader()).await.map_err(db_err)?;
        let secret = self.secret().await?;
        let items = rows.iter().map(|r| row_to_withdrawal(r, &secret)).collect::<Result<Vec<_>, _>>()?;
        Ok(HistoryPage { items, total, pages: (total + q.count - 1) / q.count })
    }

    /// For the pay history: the player's cash deposits (ledger type 114) and cashier
    /// withdrawals (visible statuses) created in `[from, to)`, newest first.
    pub async fn pay_history_entries(&self, user_id: i64, from_ms: i64, to_ms: i64) -> Result<Vec<CashierPayEntry>, AppError> {
        let deposits = sqlx::query(
            "SELECT t.id, t.created_at, e.amount, a.currency, t.comment FROM ledger_transactions t \
             JOIN ledger_entries e ON e.tx_id = t.id JOIN ledger_accounts a ON a.id = e.account_id \
             WHERE t.tx_type = $1 AND a.owner_id = $2 AND a.kind = 'real' AND a.is_house = 0 AND t.created_at >= $3 AND t.created_at < $4",
        )
        .bind(TxType::CashierPayment.code())
        .bind(user_id)
        .bind(from_ms)
        .bind(to_ms)
        .fetch_all(self.db.reader())
        .await
        .map_err(db_err)?;
        let mut out = Vec::new();
        for r in deposits {
            out.push(CashierPayEntry {
                id: r.get(0),
                created_at_ms: r.get(1),
                amount_minor: r.get(2),
                currency: r.get::<String, _>(3).parse().map_err(|_| db_err("unknown currency"))?,
                kind: PayEntryKind::Deposit,
                status: "succeeded".into(),
                is_closed: true,
                payment_mode: "cashier",
                comment: r.get(4),
            });
        }
        let rows = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM {FROM} WHERE w.user_id = $1 AND w.created_at >= $2 AND w.created_at < $3 AND w.status IN ('CREATED', 'PAID', 'CANCELED')"
        ))
        .bind(user_id)
        .bind(from_ms)
        .bind(to_ms)
        .fetch_all(self.db.reader())
        .await
        .map_err(db_err)?;
        let secret = self.secret().await?;
        for r in rows {
            let w = row_to_withdrawal(&r, &secret)?;
            out.push(CashierPayEntry {
                id: w.id,
                created_at_ms: w.created_at,
                amount_minor: w.amount,
                currency: w.currency,
                kind: PayEntryKind::Withdrawal,
                status: w.status.as_str().into(),
                is_closed: w.status != WithdrawalStatus::Created,
                payment_mode: "cashier",
                comment: match &w.cashier_name {
                    Some(n) => format!("Cashier withdrawal at {n}"),
                    None => "Cashier withdrawal".into(),
                },
            });
        }
        out.sort_by(|a, b| b.created_at_ms.cmp(&a.created_at_ms).then(b.id.cmp(&a.id)));
        Ok(out)
    }
}

/// An ISO time for replies.
pub fn iso(ms: i64) -> String {
    to_rfc3339(ms)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_are_read_exactly() {
        let s = serde_json::json!({ "limits": { "payment": { "withdrawal": { "min": 10, "max": 10000.5 } } } });
        assert_eq!(withdrawal_limits(&s, Currency::Tnd), (Some(10_000), Some(10_000_500)));
        let s = serde_json::json!({ "limits": { "payment": { "withdrawal": { "min": "0.001" } } } });
        assert_eq!(withdrawal_limits(&s, Currency::Tnd), (Some(1), None));
        assert_eq!(withdrawal_limits(&serde_json::json!({}), Currency::Tnd), (None, None));
    }

    #[test]
    fn statuses_round_trip() {
        for s in ["NEW", "CREATED", "PAID", "CANCELED", "REFUSED"] {
            assert_eq!(WithdrawalStatus::parse(s).map(|v| v.as_str()), Some(s));
        }
        assert_eq!(WithdrawalStatus::parse("created"), None);
    }
}
