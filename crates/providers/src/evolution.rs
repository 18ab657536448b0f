//! Evolution "One Wallet" (PROTOCOLS.md §2, docs/providers/evolution.md).
//!
//! Evolution POSTs JSON to `{base}/{check,sid,balance,debit,credit,cancel,promo_payout}
//! ?authToken=…` — served at `/api/providers/evolution/<method>` — and reads
//! `{status, balance, bonus, uuid}` (`check`/`sid`: `{status, sid, uuid}`), always HTTP 200.
//!
//! * **authToken** (query) is `PROVIDER_EVOLUTION_SECRET`, compared in constant time;
//!   anything else is `INVALID_TOKEN_ID`. There is no body signature.
//! * **sid** is our game session token, **userId** our user id: the sid's session must be
//!   that player's (`INVALID_SID` otherwise). `check`, `sid` and `debit` need a live session;
//!   `credit`, `cancel` and `promo_payout` are honoured after expiry (money owed is paid).
//! * A bet is `transaction.refId`: the debit is booked under `debit:{refId}` in the round
//!   `refId`, so a second debit of a refId — a retry or not — is `BET_ALREADY_EXIST`, and a
//!   cancel finds the bet by its refId. A credit is booked under `credit:{transaction.id}`
//!   in the round `refId` (the wallet pays it only where this player has that bet); a cancel
//!   reverses `debit:{refId}` under `cancel:{transaction.id}`, or leaves a tombstone when the
//!   debit never arrived (answered `OK`: the late debit then gets `FINAL_ERROR_ACTION_FAILED`).
//! * A credit or cancel of a refId already credited or cancelled is `BET_ALREADY_SETTLED`
//!   (nothing moves); a credit or cancel of a refId this player never debited is
//!   `BET_DOES_NOT_EXIST`.
//! * **Every error carries the player's current balance** once the session is known.
//! * Amounts are decimal major units; replies write 6 fixed decimals (`12.500000`), and
//!   requests may carry up to 6 as long as those beyond the currency's are zeros.

use crate::amount;
use crate::glue::{form_params, secure_eq, Money};
use crate::rawjson::Obj;
use crate::{Ctx, Inbound, JsonOut, Outbound, ProviderAdapter, ProviderSettings};
use async_trait::async_trait;
use casino::{GameSession, RollbackCall, WalletCall, WalletOp};
use kernel::clock::now_ms;
use kernel::{AppError, Currency, ErrorCode};

pub const CODE: &str = "evolution";

/// Evolution's statuses (PROTOCOLS.md §2).
pub mod status {
    pub const OK: &str = "OK";
    pub const TEMPORARY_ERROR: &str = "TEMPORARY_ERROR";
    pub const UNKNOWN_ERROR: &str = "UNKNOWN_ERROR";
    pub const INVALID_TOKEN_ID: &str = "INVALID_TOKEN_ID";
    pub const INVALID_SID: &str = "INVALID_SID";
    pub const INVALID_PARAMETER: &str = "INVALID_PARAMETER";
    pub const ACCOUNT_LOCKED: &str = "ACCOUNT_LOCKED";
    pub const BET_ALREADY_SETTLED: &str = "BET_ALREADY_SETTLED";
    pub const BET_DOES_NOT_EXIST: &str = "BET_DOES_NOT_EXIST";
    pub const BET_ALREADY_EXIST: &str = "BET_ALREADY_EXIST";
    pub const INSUFFICIENT_FUNDS: &str = "INSUFFICIENT_FUNDS";
    pub const FINAL_ERROR_ACTION_FAILED: &str = "FINAL_ERROR_ACTION_FAILED";
    pub const CASINO_LIMIT_EXCEEDED_STAKE: &str = "CASINO_LIMIT_EXCEEDED_STAKE";
}

/// Decimals Evolution's amounts are written with.
pub const DECIMALS: u32 = 6;
/// The longest transaction id or refId accepted (our keys add a prefix; the wallet takes 100).
const MAX_ID: usize = 90;

pub struct Evolution {
    secret: String,
}

impl Evolution {
    pub fn new(s: &ProviderSettings) -> Evolution {
        Evolution { secret: s.secret.clone().unwrap_or_default() }
    }
}

/// The kind of call a refusal answers (a code can mean two statuses).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Session,
    Debit,
    Credit,
    Cancel,
    Promo,
}

/// Our refusal as an Evolution status.
pub fn refusal(kind: Kind, e: &AppError) -> &'static str {
    use status::*;
    match e.code {
        ErrorCode::InsufficientBalance => INSUFFICIENT_FUNDS,
        ErrorCode::GameSessionInvalid => INVALID_SID,
        // The sid in another player's name; a call naming another player's bet.
        ErrorCode::TransactionMismatch if kind == Kind::Session => INVALID_SID,
        ErrorCode::TransactionMismatch => BET_DOES_NOT_EXIST,
        ErrorCode::NoSuchUser => INVALID_PARAMETER,
        ErrorCode::UserBanned | ErrorCode::BetsNotAllowed | ErrorCode::SelfExcluded | ErrorCode::CoolingOff => ACCOUNT_LOCKED,
        ErrorCode::AmountTooLarge | ErrorCode::BonusMaxBet => CASINO_LIMIT_EXCEEDED_STAKE,
        // A credit the balance ceiling refuses: Evolution must not resend it; support settles it.
        ErrorCode::BalanceLimit => FINAL_ERROR_ACTION_FAILED,
        ErrorCode::RoundNotFound => BET_DOES_NOT_EXIST,
        // A debit whose refId was cancelled (before or after it arrived) is final.
        ErrorCode::TransactionRolledBack if kind == Kind::Debit => FINAL_ERROR_ACTION_FAILED,
        ErrorCode::TransactionRolledBack => BET_ALREADY_SETTLED,
        // The same refId (debit) or transaction id (credit, cancel) with other details.
        ErrorCode::IdempotencyConflict if kind == Kind::Debit => BET_ALREADY_EXIST,
        ErrorCode::IdempotencyConflict => BET_ALREADY_SETTLED,
        ErrorCode::NotReversible | ErrorCode::CurrencyMismatch | ErrorCode::InvalidBet | ErrorCode::BadRequest | ErrorCode::GameNotFound => INVALID_PARAMETER,
        _ if e.code.http_status() >= 500 => TEMPORARY_ERROR,
        _ => UNKNOWN_ERROR,
    }
}

/// `{status, balance, bonus, uuid}` (`retransmission` on a temporary error: Evolution resends).
pub fn answer(status: &str, balance: Option<(i64, Currency)>, uuid: &str) -> Outbound {
    let money = |minor: i64, c: Currency| amount::format_fixed(minor, c, DECIMALS);
    let (bal, bonus) = match balance {
        Some((b, c)) => (money(b, c), money(0, c)),
        None => ("0.000000".to_string(), "0.000000".to_string()),
    };
    let j = JsonOut::new().str("status", status).num("balance", &bal).num("bonus", &bonus).str("uuid", uuid);
    let j = if status == status::TEMPORARY_ERROR { j.bool("retransmission", true) } else { j };
    j.reply(200)
}

/// One parsed call: the common fields.
struct Call<'a> {
    body: Obj<'a>,
    uuid: String,
    sid: String,
    user: String,
}

impl<'a> Call<'a> {
    fn parse(body: Obj<'a>) -> Result<Call<'a>, &'static str> {
        let uuid = body.text("uuid").unwrap_or_default();
        let sid = body.id("sid", 200).ok_or("sid")?;
        let user = body.id("userId", 40).ok_or("userId")?;
        Ok(Call { body, uuid, sid, user })
    }

    /// The game's id in our ledger: the table's id, else the game type.
    fn game(&self) -> String {
        let game = self.body.obj("game");
        let table = game.as_ref().and_then(|g| g.obj("details")).and_then(|d| d.obj("table")).and_then(|t| t.id("id", 60));
        table.or_else(|| game.as_ref().and_then(|g| g.id("type", 60))).unwrap_or_else(|| CODE.to_string())
    }
}

/// `transaction{id, refId, amount}` (or `promoTransaction{id, amount, voucherId}`).
struct Tx {
    id: String,
    ref_id: String,
    amount: String,
}

fn tx_of(body: &Obj<'_>, key: &str) -> Option<Tx> {
    let t = body.obj(key)?;
    let id = t.id("id", MAX_ID)?;
    let ref_id = match key {
        "promoTransaction" => t.id("voucherId", MAX_ID).unwrap_or_else(|| id.clone()),
        _ => t.id("refId", MAX_ID)?,
    };
    Some(Tx { id, ref_id, amount: t.text("amount")? })
}

type Reply = Result<Outbound, Outbound>;

#[async_trait]
impl ProviderAdapter for Evolution {
    fn code(&self) -> &'static str {
        CODE
    }

    async fn callback(&self, ctx: &Ctx, req: Inbound<'_>) -> Outbound {
        let body = Obj::parse(req.body);
        let uuid = body.as_ref().and_then(|b| b.text("uuid")).unwrap_or_default();
        // The authToken first: nothing is read before the caller is known.
        let token = form_params(req.query.as_bytes()).and_then(|p| p.into_iter().find(|(k, _)| k == "authToken").map(|(_, v)| v));
        if self.secret.is_empty() || !token.is_some_and(|t| secure_eq(&t, &self.secret, false)) {
            return answer(status::INVALID_TOKEN_ID, None, &uuid);
        }
        let method = req.path.trim_end_matches('/');
        if !matches!(method, "check" | "sid" | "balance" | "debit" | "credit" | "cancel" | "promo_payout") {
            let mut out = answer(status::INVALID_PARAMETER, None, &uuid);
            out.status = 404;
            return out;
        }
        let Some(body) = body else {
            return answer(status::INVALID_PARAMETER, None, &uuid);
        };
        let call = match Call::parse(body) {
            Ok(c) => c,
            Err(_) => return answer(status::INVALID_PARAMETER, None, &uuid),
        };
        let out = match method {
            "check" | "sid" => check(ctx, &call).await,
            "balance" => balance(ctx, &call).await,
            "debit" => debit(ctx, &call).await,
            "credit" => credit(ctx, &call).await,
            "cancel" => cancel(ctx, &call).await,
            _ => promo(ctx, &call).await,
        };
        out.unwrap_or_else(|reply| reply)
    }
}

/// The sid's session, which must be `userId`'s; `INVALID_SID` otherwise.
async fn session(ctx: &Ctx, call: &Call<'_>) -> Result<GameSession, Outbound> {
    ctx.session_of(CODE, &call.sid, &call.user).await.map_err(|e| answer(refusal(Kind::Session, &e), None, &call.uuid))
}

/// An error with the player's balance now (a failed balance read answers without it).
async fn fail(ctx: &Ctx, s: &GameSession, status: &str, uuid: &str) -> Outbound {
    match ctx.balance(s).await {
        Ok(b) => answer(status, Some((b, s.currency)), uuid),
        Err(_) => answer(status, None, uuid),
    }
}

async fn ok(ctx: &Ctx, s: &GameSession, status: &str, balance: Option<i64>, uuid: &str) -> Reply {
    match balance {
        Some(b) => Ok(answer(status, Some((b, s.currency)), uuid)),
        None => Ok(fail(ctx, s, status, uuid).await),
    }
}

async fn check(ctx: &Ctx, call: &Call<'_>) -> Reply {
    let s = session(ctx, call).await?;
    if !s.is_live(now_ms()) {
        return Err(fail(ctx, &s, status::INVALID_SID, &call.uuid).await);
    }
    Ok(JsonOut::new().str("status", status::OK).str("sid", &call.sid).str("uuid", &call.uuid).reply(200))
}

/// The currency named, when named, must be the session's.
async fn same_currency(ctx: &Ctx, s: &GameSession, call: &Call<'_>) -> Result<(), Outbound> {
    match call.body.raw("currency") {
        None => Ok(()),
        Some(_) if call.body.text("currency").as_deref() == Some(s.currency.code()) => Ok(()),
        Some(_) => Err(fail(ctx, s, status::INVALID_PARAMETER, &call.uuid).await),
    }
}

async fn balance(ctx: &Ctx, call: &Call<'_>) -> Reply {
    let s = session(ctx, call).await?;
    same_currency(ctx, &s, call).await?;
    ok(ctx, &s, status::OK, None, &call.uuid).await
}

/// The session, the currency and the transaction of a money call.
async fn money_call(ctx: &Ctx, call: &Call<'_>, key: &str) -> Result<(GameSession, Tx, i64), Outbound> {
    let s = session(ctx, call).await?;
    same_currency(ctx, &s, call).await?;
    let Some(tx) = tx_of(&call.body, key) else {
        return Err(fail(ctx, &s, status::INVALID_PARAMETER, &call.uuid).await);
    };
    let Ok(minor) = amount::parse_padded(&tx.amount, s.currency) else {
        return Err(fail(ctx, &s, status::INVALID_PARAMETER, &call.uuid).await);
    };
    Ok((s, tx, minor))
}

/// The ledger key of the debit of a refId.
pub fn debit_key(ref_id: &str) -> String {
    format!("debit:{ref_id}")
}

async fn debit(ctx: &Ctx, call: &Call<'_>) -> Reply {
    let (s, tx, minor) = money_call(ctx, call, "transaction").await?;
    // An expired sid stakes nothing, whatever the refId (checked before the duplicates:
    // a new transaction in an old round is not a retry).
    if !s.is_live(now_ms()) {
        return Err(fail(ctx, &s, status::INVALID_SID, &call.uuid).await);
    }
    let key = debit_key(&tx.ref_id);
    let game = call.game();
    let m = Money { tx: &key, round: &tx.ref_id, game: &game, amount: minor };
    match ctx.bet(CODE, &s, &m).await {
        Ok(r) if r.replayed => Err(fail(ctx, &s, status::BET_ALREADY_EXIST, &call.uuid).await),
        Ok(r) => ok(ctx, &s, status::OK, Some(r.balance), &call.uuid).await,
        Err(e) => Err(fail(ctx, &s, refusal(Kind::Debit, &e), &call.uuid).await),
    }
}

/// What is known of the bet `ref_id` for this player: `Err` is the status to answer.
async fn open_bet(ctx: &Ctx, s: &GameSession, ref_id: &str) -> Result<Option<wallet::PostedTx>, &'static str> {
    let found = ctx.lookup(CODE, &debit_key(ref_id)).await.map_err(|e| refusal(Kind::Credit, &e))?;
    let Some(bet) = found else {
        return Ok(None);
    };
    if bet.user_id != Some(s.user_id) {
        return Err(status::BET_DOES_NOT_EXIST);
    }
    // A cancelled or credited bet is refused by its settlement marker (`settle`), in the
    // same operation as the payment: no read here can race it.
    if bet.tombstone {
        return Err(status::BET_ALREADY_SETTLED);
    }
    Ok(Some(bet))
}

/// The ledger key that marks the bet `ref_id` settled: a zero posting claimed by its first
/// credit or cancel, in the same all-or-none operation as that credit or cancel. Its game
/// field names the settling transaction, so another settlement of the same bet is a
/// conflicting duplicate (refused by the ledger's unique index, race-free) and the same one
/// sent again a replay: either way `BET_ALREADY_SETTLED`, and no money moves twice.
pub fn settle_key(ref_id: &str) -> String {
    format!("settle:{ref_id}")
}

fn wallet_call(s: &GameSession, tx: &str, round: &str, game: &str, amount: i64) -> WalletCall {
    WalletCall { session_token: String::new(), transaction_id: tx.into(), round_id: round.into(), game_id: game.into(), amount, currency: s.currency.code().into() }
}

/// The settlement marker of `ref_id` claimed by the transaction `by`.
fn marker(s: &GameSession, ref_id: &str, by: &str) -> (GameSession, WalletOp) {
    (s.clone(), WalletOp::Win(wallet_call(s, &settle_key(ref_id), ref_id, &format!("settled-by:{by}"), 0)))
}

/// Runs a settlement with its marker; the reply of the settlement itself.
async fn settle(ctx: &Ctx, s: &GameSession, ops: Vec<(GameSession, WalletOp)>, kind: Kind, uuid: &str) -> Reply {
    match ctx.casino.wallet().all_or_none(CODE, ops).await {
        Ok(replies) => match replies.last() {
            Some(r) if r.replayed => Err(fail(ctx, s, status::BET_ALREADY_SETTLED, uuid).await),
            Some(r) => ok(ctx, s, status::OK, Some(r.balance), uuid).await,
            None => Err(fail(ctx, s, status::UNKNOWN_ERROR, uuid).await),
        },
        // The marker claimed by another settlement of this bet.
        Err((0, e)) if e.code == ErrorCode::IdempotencyConflict => Err(fail(ctx, s, status::BET_ALREADY_SETTLED, uuid).await),
        Err((_, e)) => Err(fail(ctx, s, refusal(kind, &e), uuid).await),
    }
}

async fn credit(ctx: &Ctx, call: &Call<'_>) -> Reply {
    let (s, tx, minor) = money_call(ctx, call, "transaction").await?;
    match open_bet(ctx, &s, &tx.ref_id).await {
        Ok(Some(_)) => {}
        Ok(None) => return Err(fail(ctx, &s, status::BET_DOES_NOT_EXIST, &call.uuid).await),
        Err(st) => return Err(fail(ctx, &s, st, &call.uuid).await),
    }
    let key = format!("credit:{}", tx.id);
    let game = call.game();
    let ops = vec![marker(&s, &tx.ref_id, &key), (s.clone(), WalletOp::Win(wallet_call(&s, &key, &tx.ref_id, &game, minor)))];
    settle(ctx, &s, ops, Kind::Credit, &call.uuid).await
}

async fn cancel(ctx: &Ctx, call: &Call<'_>) -> Reply {
    let (s, tx, _minor) = money_call(ctx, call, "transaction").await?;
    let open = match open_bet(ctx, &s, &tx.ref_id).await {
        Ok(open) => open,
        Err(st) => return Err(fail(ctx, &s, st, &call.uuid).await),
    };
    let own = format!("cancel:{}", tx.id);
    let game = call.game();
    let rollback = RollbackCall { session_token: String::new(), transaction_id: own.clone(), reference_transaction_id: debit_key(&tx.ref_id), round_id: tx.ref_id.clone(), game_id: game.clone() };
    if open.is_some() {
        return settle(ctx, &s, vec![marker(&s, &tx.ref_id, &own), (s.clone(), WalletOp::Rollback(rollback))], Kind::Cancel, &call.uuid).await;
    }
    // A debit never seen: a tombstone refuses it if it arrives (no marker: no bet to settle).
    match ctx.rollback(CODE, &s, &own, &debit_key(&tx.ref_id), &tx.ref_id, &game).await {
        Ok(r) if r.replayed => Err(fail(ctx, &s, status::BET_ALREADY_SETTLED, &call.uuid).await),
        Ok(r) => ok(ctx, &s, status::OK, Some(r.balance), &call.uuid).await,
        Err(e) => Err(fail(ctx, &s, refusal(Kind::Cancel, &e), &call.uuid).await),
    }
}

/// `promo_payout`: a prize outside any round (a tournament, free rounds' total), keyed by
/// the promo transaction's id in the round `promo:{voucherId}`.
async fn promo(ctx: &Ctx, call: &Call<'_>) -> Reply {
    let (s, tx, minor) = money_call(ctx, call, "promoTransaction").await?;
    let key = format!("promo:{}", tx.id);
    let round = format!("promo:{}", tx.ref_id);
    let game = call.game();
    let m = Money { tx: &key, round: &round, game: &game, amount: minor };
    match ctx.award(CODE, &s, &m).await {
        Ok(r) if r.replayed => Err(fail(ctx, &s, status::BET_ALREADY_SETTLED, &call.uuid).await),
        Ok(r) => ok(ctx, &s, status::OK, Some(r.balance), &call.uuid).await,
        Err(e) => Err(fail(ctx, &s, refusal(Kind::Promo, &e), &call.uuid).await),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_carry_six_decimals_and_the_uuid() {
        let out = answer(status::INSUFFICIENT_FUNDS, Some((12_500, Currency::Tnd)), "u-1");
        assert_eq!(out.status, 200);
        assert_eq!(String::from_utf8(out.body).unwrap(), r#"{"status":"INSUFFICIENT_FUNDS","balance":12.500000,"bonus":0.000000,"uuid":"u-1"}"#);
        let out = answer(status::TEMPORARY_ERROR, None, "");
        assert_eq!(String::from_utf8(out.body).unwrap(), r#"{"status":"TEMPORARY_ERROR","balance":0.000000,"bonus":0.000000,"uuid":"","retransmission":true}"#);
    }

    #[test]
    fn every_wallet_refusal_has_an_evolution_status() {
        let known = [
            status::TEMPORARY_ERROR,
            status::UNKNOWN_ERROR,
            status::INVALID_SID,
            status::INVALID_PARAMETER,
            status::ACCOUNT_LOCKED,
            status::BET_ALREADY_SETTLED,
            status::BET_DOES_NOT_EXIST,
            status::BET_ALREADY_EXIST,
            status::INSUFFICIENT_FUNDS,
            status::FINAL_ERROR_ACTION_FAILED,
            status::CASINO_LIMIT_EXCEEDED_STAKE,
        ];
        for kind in [Kind::Session, Kind::Debit, Kind::Credit, Kind::Cancel, Kind::Promo] {
            for code in ErrorCode::ALL {
                let st = refusal(kind, &AppError::new(*code));
                assert!(known.contains(&st), "{code:?} → {st}");
                assert_ne!(st, status::OK);
            }
        }
        let e = |c| AppError::new(c);
        assert_eq!(refusal(Kind::Debit, &e(ErrorCode::TransactionRolledBack)), status::FINAL_ERROR_ACTION_FAILED);
        assert_eq!(refusal(Kind::Credit, &e(ErrorCode::TransactionRolledBack)), status::BET_ALREADY_SETTLED);
        assert_eq!(refusal(Kind::Debit, &e(ErrorCode::IdempotencyConflict)), status::BET_ALREADY_EXIST);
        assert_eq!(refusal(Kind::Session, &e(ErrorCode::TransactionMismatch)), status::INVALID_SID);
        assert_eq!(refusal(Kind::Cancel, &e(ErrorCode::TransactionMismatch)), status::BET_DOES_NOT_EXIST);
        assert_eq!(refusal(Kind::Credit, &e(ErrorCode::RoundNotFound)), status::BET_DOES_NOT_EXIST);
        assert_eq!(refusal(Kind::Credit, &AppError::internal("db down")), status::TEMPORARY_ERROR);
    }

    #[test]
    fn transactions_parse_strictly() {
        let body = br#"{"sid":"s","userId":7,"uuid":"u","transaction":{"id":"D1","refId":"R1","amount":1.500000},"game":{"id":"g1","type":"roulette","details":{"table":{"id":"vip1","vid":null}}}}"#;
        let call = Call::parse(Obj::parse(body).unwrap()).ok().unwrap();
        assert_eq!((call.sid.as_str(), call.user.as_str(), call.uuid.as_str()), ("s", "7", "u"));
        assert_eq!(call.game(), "vip1");
        let tx = tx_of(&call.body, "transaction").unwrap();
        assert_eq!((tx.id.as_str(), tx.ref_id.as_str(), tx.amount.as_str()), ("D1", "R1", "1.500000"));
        assert_eq!(amount::parse_padded(&tx.amount, Currency::Tnd), Ok(1_500));
        // Missing or mistyped fields.
        for bad in [
            &br#"{"userId":"7"}"#[..],
            br#"{"sid":"s"}"#,
            br#"{"sid":{"a":1},"userId":"7"}"#,
            br#"{"sid":"s","userId":["7"]}"#,
            br#"{"sid":"","userId":"7"}"#,
        ] {
            assert!(Call::parse(Obj::parse(bad).unwrap()).is_err(), "{}", String::from_utf8_lossy(bad));
        }
        let call = Call::parse(Obj::parse(br#"{"sid":"s","userId":"7","transaction":{"id":"D1","amount":1}}"#).unwrap()).ok().unwrap();
        assert!(tx_of(&call.body, "transaction").is_none(), "refId is required");
        assert_eq!(call.game(), CODE);
        let call = Call::parse(Obj::parse(br#"{"sid":"s","userId":"7","transaction":{"id":"D1","refId":"R","amount":"-1.000000"}}"#).unwrap()).ok().unwrap();
        let tx = tx_of(&call.body, "transaction").unwrap();
        assert!(amount::parse_padded(&tx.amount, Currency::Tnd).is_err(), "a negative amount");
        for huge in ["1e400", "99999999999999999999.000000", "1.0000001"] {
            assert!(amount::parse_padded(huge, Currency::Tnd).is_err(), "{huge}");
        }
    }
}
