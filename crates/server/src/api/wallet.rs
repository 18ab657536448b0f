//! Balances and history (spec §7 `user/balance`, `payment/history/…`). Money moves only
//! through the ledger.

use super::envelope::{ok, ApiError, ApiResult, Envelope, ErrorEnvelope};
use super::extract::{session_token, QueryParams, Session};
use super::types::*;
use crate::app::AppState;
use accounts::{SessionJoin, User};
use axum::extract::State;
use axum::http::request::Parts;
use axum::routing::{get, patch};
use axum::Router;
use kernel::clock::{now_ms, parse_bound, to_rfc3339, DAY_MS};
use kernel::money::MajorUnits;
use kernel::{AppError, ErrorCode};
use std::collections::HashMap;
use wallet::{AccountRef, BalanceKind, HistoryQuery as LedgerHistoryQuery, LedgerError, PostingRequest, TxType};

/// Spec §9: the cashback minimum transfer is 10 (major units).
pub const CASHBACK_MIN_TRANSFER: i64 = 10;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/user/balance", get(balance))
        .route("/api/user/balance/move_cashback_to_real", patch(move_cashback_to_real))
        .route("/api/payment/history/payment-with-withdrawal", get(history))
        .route("/api/user/transactions", get(transactions))
}

async fn balance_reply(state: &AppState, user: &User) -> Result<BalanceReply, ApiError> {
    let balances = state.ledger.balances(user.id).await?;
    balance_reply_from(state, user, &balances).await
}

/// The reply from the balances: the promotions' part from the pools' snapshot (no query within
/// a second of the last) and the player's rows in one query (promotions::service::summary).
async fn balance_reply_from(state: &AppState, user: &User, balances: &[wallet::Balance]) -> Result<BalanceReply, ApiError> {
    let c = user.currency;
    let minor = |kind: BalanceKind| balances.iter().find(|b| b.kind == kind && b.currency == c).map(|b| b.amount).unwrap_or(0);
    let of = |kind: BalanceKind| MajorUnits::new(minor(kind), c);
    // The player's promotion rows are reused while these balances stay as they were (a free
    // bet activated or used, a bonus, a cashback payout move them); see promotions' summary.rs.
    let fingerprint = {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (minor(BalanceKind::FreeBet), minor(BalanceKind::Bonus), minor(BalanceKind::Cashback), c.code()).hash(&mut h);
        h.finish()
    };
    let (pools, mine) = tokio::try_join!(state.promotions.jackpots_snapshot(), state.promotions.player_promotions_cached(user.id, fingerprint))?;
    let now = now_ms();
    let mut free_bets = FreeBetsReply::default();
    // A free bet that expired since the rows were read is not offered.
    for fb in mine.free_bets.iter().filter(|f| f.expires_at > now).cloned() {
        if fb.status == "active" { free_bets.active.push(fb) } else { free_bets.inactive.push(fb) }
    }
    let image_of = |pool: &str| pools.iter().find(|p| p.pool == pool).map(|p| (p.image.clone(), p.name.clone()));
    Ok(BalanceReply {
        currency: c.code().to_string(),
        balance: of(BalanceKind::Real),
        bonus_balance: of(BalanceKind::Bonus),
        cashback_balance: of(BalanceKind::Cashback),
        free_bet_balance: of(BalanceKind::FreeBet),
        point_balance: of(BalanceKind::Points),
        weekly_cashback: MajorUnits::new(mine.weekly_accrued, c),
        is_banned: user.is_banned,
        free_bets,
        jackpots: pools
            .iter()
            .map(|p| JackpotReply {
                id: p.id,
                pool: p.pool.clone(),
                image: p.image.clone(),
                amount: p.amount,
                currency: p.currency.code().to_string(),
                name: p.name.clone(),
                timer: p.timer,
            })
            .collect(),
        won_jackpots: mine
            .unshown_wins
            .iter()
            .cloned()
            .map(|w| {
                let (image, name) = image_of(&w.pool).unwrap_or_else(|| (String::new(), w.pool.clone()));
                WonJackpotReply {
                    id: w.id.to_string(),
                    pool: w.pool,
                    image,
                    amount: MajorUnits::new(w.amount, w.currency),
                    currency: w.currency.code().to_string(),
                    name,
                    timer: (now - w.created_at).max(0) / 1000,
                }
            })
            .collect(),
    })
}

/// The player's balances. A banned player gets `isBanned: true` once (the app logs out
/// silently) and every session of theirs ends.
#[utoipa::path(get, path = "/api/user/balance", tag = "wallet",
    responses((status = 200, body = Envelope<BalanceReply>), (status = "default", description = "23 not signed in", body = ErrorEnvelope)))]
pub async fn balance(State(state): State<AppState>, parts: Parts) -> ApiResult<BalanceReply> {
    let token = session_token(&parts).ok_or(ErrorCode::NotAuthenticated)?;
    // The app polls this every 15 s: the session, the user and the balances come back in
    // one query.
    let join = SessionJoin { join: wallet::BALANCES_JOIN.0, columns: wallet::BALANCES_JOIN.1 };
    match state.accounts.authenticate_joined(&token, &join).await {
        Ok((user, rows)) => ok(balance_reply_from(&state, &user, &wallet::balances_from_rows(&rows, SessionJoin::FIRST_COLUMN)).await?),
        Err(e) if e.code == ErrorCode::UserBanned => {
            // authenticate() has ended the sessions; answer the balance shape with isBanned.
            let user = state.accounts.session_user_even_if_revoked(&token).await?.ok_or(ErrorCode::NotAuthenticated)?;
            ok(balance_reply(&state, &user).await?)
        }
        Err(e) => Err(e.into()),
    }
}

/// Moves the whole cashback balance to the real balance; refused below 10. Concurrent
/// requests move it once: the ledger's conditional debit lets only one through.
#[utoipa::path(patch, path = "/api/user/balance/move_cashback_to_real", tag = "wallet",
    params(("Idempotency-Key" = Option<String>, Header, description = "Optional: a retry with the same key answers the original result")),
    responses((status = 200, body = Envelope<BalanceReply>),
              (status = "default", description = "23 not signed in, 25 below the minimum, 26 key reused", body = ErrorEnvelope)))]
pub async fn move_cashback_to_real(State(state): State<AppState>, session: Session, parts: Parts) -> ApiResult<BalanceReply> {
    let user = &session.user;
    let c = user.currency;
    let cashback = state.ledger.balance(user.id, BalanceKind::Cashback, c).await?;
    let client_key = parts.headers.get("idempotency-key").and_then(|v| v.to_str().ok()).map(str::trim).filter(|k| !k.is_empty());
    let key = match client_key {
        Some(k) if k.len() <= 100 => format!("cashback:{}:{k}", user.id),
        Some(_) => return Err(super::envelope::bad_request("Idempotency-Key is longer than 100 characters")),
        None => format!("cashback:{}:{}", user.id, kernel::ids::next_id()),
    };
    if cashback < c.major(CASHBACK_MIN_TRANSFER) {
        // A retry (same client key) of a transfer that went through finds an empty
        // cashback balance: answer it as a success, like the first time.
        if client_key.is_some() && transfer_exists(&state, &key).await? {
            return ok(balance_reply(&state, user).await?);
        }
        return Err(ErrorCode::CashbackBelowMinimum.into());
    }
    let posting = PostingRequest::transfer(
        TxType::CashbackTransfer,
        key.clone(),
        Some(user.id),
        c,
        AccountRef::Player { user_id: user.id, kind: BalanceKind::Cashback },
        AccountRef::Player { user_id: user.id, kind: BalanceKind::Real },
        cashback,
    )
    .comment("Cashback moved to the real balance");
    match state.ledger.post(posting).await {
        Ok(_) => ok(balance_reply(&state, user).await?),
        // Another request moved it first.
        Err(LedgerError::Insufficient(_)) => Err(ErrorCode::CashbackBelowMinimum.into()),
        Err(e) => Err(e.into()),
    }
}

async fn transfer_exists(state: &AppState, key: &str) -> Result<bool, ApiError> {
    let row = store::sqlx::query("SELECT id FROM ledger_transactions WHERE idempotency_key = $1")
        .bind(key)
        .fetch_optional(state.db.reader())
        .await
        .map_err(AppError::internal)?;
    Ok(row.is_some())
}

/// Paging and dates of a history query: 40 for bad paging, 46 for bad dates.
fn history_range(q: &HistoryQuery) -> Result<(i64, i64, i64, i64), ApiError> {
    // Malformed paging is a malformed request (40, as the contract's ranges say), whatever
    // the dates; the dates are checked next (46).
    let limit = q.limit.unwrap_or(200);
    let offset = q.offset.unwrap_or(0);
    if !(1..=500).contains(&limit) || offset < 0 {
        return Err(super::envelope::bad_request("limit must be 1 to 500 and offset not negative"));
    }
    let now = now_ms();
    let bound = |v: &Option<String>, end: bool, default: i64| -> Result<i64, ApiError> {
        match v.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
            None => Ok(default),
            Some(text) => parse_bound(text, end).ok_or_else(|| ApiError(AppError::new(ErrorCode::InvalidDateRange))),
        }
    };
    let from_ms = bound(&q.begin, false, now - 30 * DAY_MS)?;
    let to_ms = bound(&q.end, true, now + 1)?;
    if to_ms < from_ms {
        return Err(ErrorCode::InvalidDateRange.into());
    }
    Ok((from_ms, to_ms, limit, offset))
}

/// The pay history (spec §3 payment history entry): the player's deposits and withdrawals
/// only — provider payments, and (merged in by [`pay_history_extra`]) the cashier network's
/// cash deposits and cashier withdrawals — newest first. `status` is the payment's status,
/// `is_closed` true once it is final.
#[utoipa::path(get, path = "/api/payment/history/payment-with-withdrawal", tag = "wallet", params(HistoryQuery),
    responses((status = 200, body = Envelope<Vec<super::payments::PayHistoryEntryReply>>),
              (status = "default", description = "23 not signed in, 40 bad query, 46 invalid range", body = ErrorEnvelope)))]
pub async fn history(State(state): State<AppState>, session: Session, QueryParams(q): QueryParams<HistoryQuery>) -> ApiResult<Vec<super::payments::PayHistoryEntryReply>> {
    let (from_ms, to_ms, limit, offset) = history_range(&q)?;
    let extra = pay_history_extra(&state, session.user.id, from_ms, to_ms).await?;
    let all = state.payments.history(session.user.id, from_ms, to_ms, extra).await?;
    ok(all.iter().skip(offset as usize).take(limit as usize).map(super::payments::PayHistoryEntryReply::of).collect())
}

/// Pay-history entries from sources other than provider payments: the cashier network's
/// cash deposits (type 114) and cashier withdrawals (held with type 10) in `[from_ms, to_ms)`.
pub(crate) async fn pay_history_extra(state: &AppState, user_id: i64, from_ms: i64, to_ms: i64) -> Result<Vec<payments::PayHistoryEntry>, ApiError> {
    use payments::cashier::PayEntryKind;
    let entries = state.cashier.pay_history_entries(user_id, from_ms, to_ms).await?;
    Ok(entries
        .into_iter()
        .map(|e| {
            let deposit = e.kind == PayEntryKind::Deposit;
            payments::PayHistoryEntry {
                id: e.id,
                created_at: e.created_at_ms,
                value: if deposit { e.amount_minor } else { -e.amount_minor },
                currency: e.currency,
                kind: if deposit { "payment" } else { "withdrawal" },
                status: e.status,
                is_closed: e.is_closed,
                payment_mode: if deposit { TxType::CashierPayment.code() } else { TxType::Withdrawal.code() },
                purse: e.payment_mode.to_string(),
                comment: e.comment,
            }
        })
        .collect())
}

/// Every posting on the player's balances in a date range, newest first (bets, wins,
/// transfers, payments…): the operations history of the app, with the game and round of
/// casino postings.
#[utoipa::path(get, path = "/api/user/transactions", tag = "wallet", params(HistoryQuery),
    responses((status = 200, body = Envelope<Vec<HistoryEntryReply>>),
              (status = "default", description = "23 not signed in, 40 bad query, 46 invalid range", body = ErrorEnvelope)))]
pub async fn transactions(State(state): State<AppState>, session: Session, QueryParams(q): QueryParams<HistoryQuery>) -> ApiResult<Vec<HistoryEntryReply>> {
    let (from_ms, to_ms, limit, offset) = history_range(&q)?;
    let kind = q.purse.map(Purse::kind);
    ok(history_entries(&state, &LedgerHistoryQuery { user_id: session.user.id, from_ms, to_ms, limit, offset, kind }).await?)
}

/// A player's ledger entries as the operations history shows them (also on the console's
/// player card): with the game and round of casino postings and the bet of sports ones.
pub(crate) async fn history_entries(state: &AppState, q: &LedgerHistoryQuery) -> Result<Vec<HistoryEntryReply>, ApiError> {
    let entries = state.ledger.history(q).await?;
    // Game names: one look-up per distinct game of the page.
    let mut names: HashMap<(String, String), (String, String)> = HashMap::new();
    // Sports bets: one look-up per distinct bet of the page (its kind and events).
    let mut bets: HashMap<i64, Option<HistoryBet>> = HashMap::new();
    for e in &entries {
        if let Some(g) = GameRef::of(&e.metadata) {
            let key = (g.provider.to_string(), g.game_id.to_string());
            if let std::collections::hash_map::Entry::Vacant(slot) = names.entry(key) {
                let found = state.casino.catalogue().names(g.provider, g.game_id).await?;
                slot.insert(found.unwrap_or_else(|| (g.provider.to_string(), g.game_id.to_string())));
            }
        }
        if let Some(id) = sport_bet_id(e.tx_type, &e.metadata) {
            if let std::collections::hash_map::Entry::Vacant(slot) = bets.entry(id) {
                let found = state.betting.bet(q.user_id, id).await?;
                slot.insert(Some(found.map_or_else(
                    || HistoryBet { id, kind: String::new(), events: vec![] },
                    |b| HistoryBet { id, kind: b.kind.clone(), events: bet_events(b.legs.iter().map(|l| l.event_name.as_str())) },
                )));
            }
        }
    }
    Ok(entries
        .into_iter()
        .map(|e| {
            let game_ref = GameRef::of(&e.metadata);
            let game = game_ref.as_ref().map(|g| {
                let (provider_name, game_name) = names[&(g.provider.to_string(), g.game_id.to_string())].clone();
                HistoryGame { provider: g.provider.to_string(), provider_name, game_id: g.game_id.to_string(), game_name }
            });
            let round_id = game_ref.as_ref().and_then(|g| g.round_id.map(str::to_string));
            let verifiable = game_ref.as_ref().is_some_and(|g| g.provider == casino::STUDIO && g.round_id.is_some());
            HistoryEntryReply {
                id: e.entry_id,
                transaction_id: e.tx_id,
                created_at: to_rfc3339(e.created_at),
                value: MajorUnits::new(e.amount, e.currency),
                currency: e.currency.code().to_string(),
                kind: if e.amount >= 0 { "payment" } else { "withdrawal" },
                is_closed: true,
                payment_mode: e.tx_type,
                purse: e.kind.as_str(),
                comment: if e.comment.is_empty() {
                    wallet::TxType::from_code(e.tx_type).map(|t| t.name().replace('_', " ")).unwrap_or_default()
                } else {
                    e.comment
                },
                balance_after: e.balance_after.map(|b| MajorUnits::new(b, e.currency)),
                game,
                round_id,
                verifiable,
                bet: sport_bet_id(e.tx_type, &e.metadata).and_then(|id| bets.get(&id).cloned().flatten()),
                payment: payment_of(e.tx_type, &e.metadata),
            }
        })
        .collect())
}

/// The sportsbook bet id of a stake, payout or resettlement (`metadata.bet`).
fn sport_bet_id(tx_type: i64, metadata: &serde_json::Value) -> Option<i64> {
    let sport = [TxType::SportStake, TxType::SportPayout, TxType::SportResettle].iter().any(|t| t.code() == tx_type);
    if !sport {
        return None;
    }
    metadata.get("bet").and_then(|v| v.as_i64())
}

/// Each event once, in leg order.
fn bet_events<'a>(names: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for n in names {
        if !n.is_empty() && !out.iter().any(|o| o == n) {
            out.push(n.to_string());
        }
    }
    out
}

/// The payment of a deposit, withdrawal hold or returned withdrawal, from the metadata the
/// payments crate records with it: `{intent, provider}` for provider payments,
/// `{cashier_withdrawal}` for cashier withdrawals, `{cashier}` for a cash deposit at a desk.
fn payment_of(tx_type: i64, metadata: &serde_json::Value) -> Option<HistoryPayment> {
    let payment_types = [TxType::PaymentService, TxType::Deposit, TxType::CashierPayment, TxType::Withdrawal, TxType::WithdrawalReleased];
    if !payment_types.iter().any(|t| t.code() == tx_type) {
        return None;
    }
    let int = |k: &str| metadata.get(k).and_then(|v| v.as_i64());
    if let Some(id) = int("cashier_withdrawal") {
        return Some(HistoryPayment { id: Some(id), method: "cashier".into() });
    }
    if tx_type == TxType::CashierPayment.code() {
        return Some(HistoryPayment { id: None, method: "cashier".into() });
    }
    let provider = metadata.get("provider").and_then(|v| v.as_str()).filter(|p| !p.is_empty())?;
    Some(HistoryPayment { id: int("intent"), method: provider.to_string() })
}

/// The game of a casino posting, from the metadata the provider wallet records with it
/// (`{provider, gameId, roundId}`; a rollback nests its call under `details`).
struct GameRef<'a> {
    provider: &'a str,
    game_id: &'a str,
    round_id: Option<&'a str>,
}

impl<'a> GameRef<'a> {
    fn of(metadata: &'a serde_json::Value) -> Option<GameRef<'a>> {
        let m = match metadata.get("details") {
            Some(d) if d.is_object() => d,
            _ => metadata,
        };
        let text = |k: &str| m.get(k).and_then(|v| v.as_str()).filter(|s| !s.is_empty());
        Some(GameRef { provider: text("provider")?, game_id: text("gameId")?, round_id: text("roundId") })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn payment_postings_name_their_method() {
        let card = json!({"intent": 41, "provider": "sandbox", "reference": "sbx_1"});
        assert_eq!(payment_of(16, &card), Some(HistoryPayment { id: Some(41), method: "sandbox".into() }));
        assert_eq!(payment_of(10, &json!({"intent": 42, "provider": "paykassma"})).unwrap().method, "paykassma");
        assert_eq!(payment_of(207, &json!({"intent": 42, "provider": "paykassma"})).unwrap().id, Some(42));
        assert_eq!(payment_of(11, &json!({"intent": 43, "provider": "crypto"})).unwrap().method, "crypto");
        let desk = json!({"cashier": 9, "cashier_name": "Demo cashier"});
        assert_eq!(payment_of(114, &desk), Some(HistoryPayment { id: None, method: "cashier".into() }));
        let cwr = json!({"cashier_withdrawal": 77});
        assert_eq!(payment_of(10, &cwr), Some(HistoryPayment { id: Some(77), method: "cashier".into() }));
        assert_eq!(payment_of(207, &cwr), Some(HistoryPayment { id: Some(77), method: "cashier".into() }));
        // Not a payment, or no method recorded.
        assert_eq!(payment_of(203, &card), None);
        assert_eq!(payment_of(16, &json!({})), None);
    }

    #[test]
    fn sport_postings_name_their_bet() {
        assert_eq!(sport_bet_id(211, &json!({"bet": 5, "kind": "single", "legs": 1})), Some(5));
        assert_eq!(sport_bet_id(212, &json!({"bet": 5})), Some(5));
        assert_eq!(sport_bet_id(213, &json!({"bet": 5})), Some(5));
        assert_eq!(sport_bet_id(203, &json!({"bet": 5})), None);
        assert_eq!(sport_bet_id(211, &json!({})), None);
        assert_eq!(bet_events(["A – B", "C – D", "A – B", ""].into_iter()), vec!["A – B".to_string(), "C – D".to_string()]);
    }
}
