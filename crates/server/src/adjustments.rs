//! Four eyes on manual adjustments (issue 22; docs/BACKOFFICE.md "Four-eyes adjustments").
//!
//! An adjustment posts at once while the player's direct adjustments of the last 24 hours,
//! this one included, stay within `ADJUST_FOUR_EYES_ABOVE` (major units of the player's
//! currency: a split or parallel calls count together). Beyond it the adjustment becomes a **request**: a row of
//! `adjust_requests` and its audit record, written together; nothing moves. Another staff
//! member holding the same permission approves it: the posting (key `adjust-request:{id}`,
//! audited `wallet.adjust` with the request and its requester) and the request's move to
//! `approved` are one transaction ([`wallet::Ledger::post_with`]), so a request is approved
//! exactly when its money moved, once, whoever approves twice or at the same time. The
//! requester can never approve their own request (140); a decided request cannot be decided
//! again (141). A rejection (by anyone holding the permission, the requester included: a
//! withdrawn request) and its audit record are one transaction too.

use crate::app::AppState;
use accounts::User;
use kernel::clock::{now_ms, DAY_MS};
use kernel::ids::next_id;
use kernel::{AppError, Currency, ErrorCode, Minor};
use sha2::{Digest, Sha256};
use std::str::FromStr;
use store::sqlx::{self, Row};
use wallet::{BalanceKind, LedgerError, Receipt, TxType};

/// A request as the console shows it.
#[derive(Debug, Clone, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdjustRequestView {
    pub id: i64,
    pub user_id: i64,
    pub currency: String,
    pub kind: String,
    /// Signed, in major units of the player's currency.
    pub amount: kernel::money::MajorUnits,
    pub reason: String,
    pub requested_by: i64,
    /// pending, approved or rejected.
    pub status: String,
    pub decided_by: Option<i64>,
    pub decision_note: Option<String>,
    /// The adjustment's ledger transaction once approved.
    pub transaction_id: Option<i64>,
    pub created_at: i64,
    pub decided_at: Option<i64>,
}

/// What an adjustment call did.
pub enum Adjusted {
    /// Posted at once (at most the four-eyes amount).
    Posted(Receipt),
    /// Waits for a second staff member; `replayed` when the key named an existing request.
    Requested { request: AdjustRequestView, replayed: bool },
}

/// The smallest size (minor units of `currency`) that needs a second staff member.
pub fn four_eyes_above(state: &AppState, currency: Currency) -> Minor {
    state.config.adjust_four_eyes_above_major.saturating_mul(10i64.pow(currency.exponent()))
}

fn request_hash(user_id: i64, kind: BalanceKind, amount: Minor, reason: &str) -> String {
    let mut h = Sha256::new();
    h.update(serde_json::json!([user_id, kind.as_str(), amount, reason]).to_string().as_bytes());
    hex::encode(h.finalize())
}

const COLUMNS: &str = "id, user_id, currency, kind, amount, reason, requested_by, status, decided_by, decision_note, tx_id, created_at, decided_at";

fn view(r: &store::sqlx::any::AnyRow) -> Result<AdjustRequestView, AppError> {
    let get = |e: sqlx::Error| AppError::internal(e);
    let currency: String = r.try_get(2).map_err(get)?;
    let c = Currency::from_str(&currency).map_err(AppError::internal)?;
    Ok(AdjustRequestView {
        id: r.try_get(0).map_err(get)?,
        user_id: r.try_get(1).map_err(get)?,
        currency,
        kind: r.try_get(3).map_err(get)?,
        amount: kernel::money::MajorUnits::new(r.try_get(4).map_err(get)?, c),
        reason: r.try_get(5).map_err(get)?,
        requested_by: r.try_get(6).map_err(get)?,
        status: r.try_get(7).map_err(get)?,
        decided_by: r.try_get(8).map_err(get)?,
        decision_note: r.try_get(9).map_err(get)?,
        transaction_id: r.try_get(10).map_err(get)?,
        created_at: r.try_get(11).map_err(get)?,
        decided_at: r.try_get(12).map_err(get)?,
    })
}

/// One request, or 43.
pub async fn get(state: &AppState, id: i64) -> Result<AdjustRequestView, AppError> {
    let row = sqlx::query(&format!("SELECT {COLUMNS} FROM adjust_requests WHERE id = $1"))
        .bind(id)
        .fetch_optional(state.db.reader())
        .await
        .map_err(AppError::internal)?
        .ok_or(ErrorCode::NotFound)?;
    view(&row)
}

/// Requests by status (all when `None`), newest first, at most 200.
pub async fn list(state: &AppState, status: Option<&str>) -> Result<Vec<AdjustRequestView>, AppError> {
    let rows = match status {
        Some(s) => sqlx::query(&format!("SELECT {COLUMNS} FROM adjust_requests WHERE status = $1 ORDER BY created_at DESC, id DESC LIMIT 200"))
            .bind(s)
            .fetch_all(state.db.reader())
            .await,
        None => sqlx::query(&format!("SELECT {COLUMNS} FROM adjust_requests ORDER BY created_at DESC, id DESC LIMIT 200")).fetch_all(state.db.reader()).await,
    }
    .map_err(AppError::internal)?;
    rows.iter().map(view).collect()
}

/// What staff moved to a player by hand without a second pair of eyes (direct adjustments:
/// keys `admin-adjust:…`) since `$3`, in minor units, credits and debits alike.
const DIRECT_SINCE: &str = "SELECT CAST(COALESCE(SUM(CASE WHEN e.amount < 0 THEN -e.amount ELSE e.amount END), 0) AS BIGINT) \
     FROM ledger_transactions t JOIN ledger_entries e ON e.tx_id = t.id JOIN ledger_accounts a ON a.id = e.account_id \
     WHERE t.user_id = $1 AND t.tx_type = $2 AND t.created_at > $3 AND a.is_house = 0 \
     AND t.idempotency_key >= 'admin-adjust:' AND t.idempotency_key < 'admin-adjust;'";

/// Adjusts `user`'s `kind` by `amount` at once, or files the request a second staff member
/// must approve. The four-eyes amount counts what was already moved: the player's direct
/// adjustments of the last 24 hours, this one included, must stay within
/// [`four_eyes_above`] — checked in the posting's own transaction, where the writer serialises
/// a player's postings, so neither a split into small adjustments nor parallel calls pass it.
/// `key` makes either retry-safe.
#[allow(clippy::too_many_arguments)]
pub async fn adjust(state: &AppState, user: &User, kind: BalanceKind, amount: Minor, reason: &str, key: &str, staff_id: i64, actor: &str) -> Result<Adjusted, AppError> {
    let hash = request_hash(user.id, kind, amount, reason);
    let request_key = format!("admin-adjust:{key}");
    // A request filed under this key answers as itself (a retry must never post it directly).
    if let Some(row) = sqlx::query(&format!("SELECT {COLUMNS}, request_hash FROM adjust_requests WHERE request_key = $1"))
        .bind(&request_key)
        .fetch_optional(state.db.reader())
        .await
        .map_err(AppError::internal)?
    {
        let existing: String = row.try_get(13).map_err(AppError::internal)?;
        if existing != hash {
            return Err(AppError::new(ErrorCode::IdempotencyConflict));
        }
        return Ok(Adjusted::Requested { request: view(&row)?, replayed: true });
    }
    let above = four_eyes_above(state, user.currency);
    if amount.abs() <= above {
        let posting = wallet::adjust_posting(user.id, user.currency, kind, amount, actor, reason, request_key.clone(), serde_json::Value::Null)?;
        let (user_id, since) = (user.id, now_ms() - DAY_MS);
        let within_window = wallet::attached(move |conn| {
            Box::pin(async move {
                let moved: i64 = sqlx::query(DIRECT_SINCE)
                    .bind(user_id)
                    .bind(TxType::ManualAdjustment.code())
                    .bind(since)
                    .fetch_one(&mut *conn)
                    .await?
                    .try_get(0)?;
                // Over the window: this posting is undone and becomes a request.
                Ok(moved <= above)
            })
        });
        match state.ledger.post_with(posting, within_window).await {
            Ok(receipt) => return Ok(Adjusted::Posted(receipt)),
            Err(LedgerError::Declined) => {}
            Err(e) => return Err(e.into()),
        }
    } else if state.ledger.lookup_committed(&request_key).await?.is_some() {
        // The key already moved money directly: another request under it.
        return Err(AppError::new(ErrorCode::IdempotencyConflict));
    }
    let id = next_id();
    let now = now_ms();
    let mut tx = state.db.writer().begin().await.map_err(AppError::internal)?;
    let inserted = sqlx::query(
        "INSERT INTO adjust_requests (id, user_id, currency, kind, amount, reason, request_key, request_hash, requested_by, status, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'pending', $10) ON CONFLICT (request_key) DO NOTHING",
    )
    .bind(id)
    .bind(user.id)
    .bind(user.currency.code())
    .bind(kind.as_str())
    .bind(amount)
    .bind(reason)
    .bind(&request_key)
    .bind(&hash)
    .bind(staff_id)
    .bind(now)
    .execute(&mut *tx)
    .await
    .map_err(AppError::internal)?
    .rows_affected();
    if inserted == 0 {
        // The same key filed at the same moment by a retry: answered as that request.
        drop(tx);
        return Box::pin(adjust(state, user, kind, amount, reason, key, staff_id, actor)).await;
    }
    let details = serde_json::json!({
        "request": id, "kind": kind.as_str(), "amount": amount, "currency": user.currency.code(), "reason": reason, "key": key,
    })
    .to_string();
    let subject = format!("user:{}", user.id);
    store::audit::append(&mut tx, &store::audit::Record { actor, action: "wallet.adjust.request", subject: &subject, details: &details }, now)
        .await
        .map_err(AppError::internal)?;
    tx.commit().await.map_err(AppError::internal)?;
    Ok(Adjusted::Requested { request: get(state, id).await?, replayed: false })
}

/// Approves request `id` as staff member `staff_id`: the adjustment posts and the request is
/// approved in one transaction. Approving again is answered with the request (the approver's
/// retry); another approver gets 141, the requester 140.
pub async fn approve(state: &AppState, id: i64, staff_id: i64, actor: &str) -> Result<AdjustRequestView, AppError> {
    let r = get(state, id).await?;
    match r.status.as_str() {
        "pending" => {}
        "approved" if r.decided_by == Some(staff_id) => return Ok(r),
        _ => return Err(AppError::new(ErrorCode::RequestDecided)),
    }
    if r.requested_by == staff_id {
        return Err(AppError::new(ErrorCode::OwnRequest));
    }
    let currency = Currency::from_str(&r.currency).map_err(AppError::internal)?;
    let kind = BalanceKind::from_str(&r.kind).map_err(|_| AppError::internal(format!("request {id}: kind {}", r.kind)))?;
    let amount = r.amount.minor;
    let key = format!("adjust-request:{id}");
    let posting = wallet::adjust_posting(
        r.user_id,
        currency,
        kind,
        amount,
        actor,
        &r.reason,
        key.clone(),
        serde_json::json!({ "request": id, "requestedBy": r.requested_by }),
    )?;
    let now = now_ms();
    let then = wallet::attached(move |conn| {
        Box::pin(async move {
            let tx_id: i64 = sqlx::query("SELECT id FROM ledger_transactions WHERE idempotency_key = $1").bind(&key).fetch_one(&mut *conn).await?.try_get(0)?;
            let n = sqlx::query("UPDATE adjust_requests SET status = 'approved', decided_by = $1, decided_at = $2, tx_id = $3 WHERE id = $4 AND status = 'pending'")
                .bind(staff_id)
                .bind(now)
                .bind(tx_id)
                .bind(id)
                .execute(&mut *conn)
                .await?
                .rows_affected();
            // Decided meanwhile (another approval, a rejection): this posting is undone.
            Ok(n == 1)
        })
    });
    match state.ledger.post_with(posting, then).await {
        // Booked now, or the key's posting exists (this approver's retry, or another's
        // approval that won the race), or declined (decided meanwhile): the request says who.
        Ok(_) | Err(LedgerError::Declined) | Err(LedgerError::IdempotencyConflict) => {
            let now = get(state, id).await?;
            if now.status == "approved" && now.decided_by == Some(staff_id) {
                Ok(now)
            } else {
                Err(AppError::new(ErrorCode::RequestDecided))
            }
        }
        Err(e) => Err(e.into()),
    }
}

/// Rejects request `id` with `note`; the rejection and its audit record are one transaction.
pub async fn reject(state: &AppState, id: i64, staff_id: i64, actor: &str, note: &str) -> Result<AdjustRequestView, AppError> {
    let now = now_ms();
    let mut tx = state.db.writer().begin().await.map_err(AppError::internal)?;
    let n = sqlx::query("UPDATE adjust_requests SET status = 'rejected', decided_by = $1, decided_at = $2, decision_note = $3 WHERE id = $4 AND status = 'pending'")
        .bind(staff_id)
        .bind(now)
        .bind(note)
        .bind(id)
        .execute(&mut *tx)
        .await
        .map_err(AppError::internal)?
        .rows_affected();
    if n == 0 {
        drop(tx);
        let r = get(state, id).await?;
        return Err(AppError::with_detail(ErrorCode::RequestDecided, format!("the request is {}", r.status)));
    }
    let details = serde_json::json!({ "request": id, "note": note }).to_string();
    let subject = format!("adjust-request:{id}");
    store::audit::append(&mut tx, &store::audit::Record { actor, action: "wallet.adjust.reject", subject: &subject, details: &details }, now)
        .await
        .map_err(AppError::internal)?;
    tx.commit().await.map_err(AppError::internal)?;
    get(state, id).await
}
