//! Digitain's wallet (PROTOCOLS §6, "Digitain RGS API v3.7" as one open-source integration
//! reads it): `POST /api/digitain/{authenticate,getBalance,refreshtoken,bet,win,refund,amend}`.
//!
//! **Signature** (the protocol's): requests carry `operatorId`, `timestamp` and `signature`
//! = lowercase hex `HMAC_SHA256(DIGITAIN_SECRET, timestamp + operatorId)`. The protocol does
//! not sign the body, so the body is parsed first (to read those fields). The scheme is
//! weak; our side is strong (issue 18):
//! * a ±300 s window on `timestamp` (Unix seconds or milliseconds), compared in constant
//!   time;
//! * **a timestamp and its signature are bound to the first body they came with**
//!   ([`super::seen`]): a retry of that body is answered as the first time ([`keeps_reply`]);
//!   any other body with that pair is refused (12). Digitain must give every request a timestamp of
//!   its own (milliseconds);
//! * a reply to a verified request carries the request's own `operatorId`, `timestamp` and
//!   `signature` (valid under the protocol's formula, and already bound to that request's
//!   body): we never emit a pair that could be used for another body;
//! * a reply to a request that failed verification carries only `errorCode`: no signature,
//!   no timestamp, no `operatorId`. A wrong `operatorId` is 15 only for a request signed
//!   with our secret (over the operator id it names), otherwise 12;
//! * the partner's addresses can be allow-listed (`DIGITAIN_ALLOWED_IPS`, checked by the
//!   handler).
//!
//! **Batches** `{providerId, allOrNone, items[…]}`: each item is answered
//! `{txId, externalTxId, balance, info, errorCode, metadata}` (`info` and `metadata`
//! echoed). Without `allOrNone` each item stands alone. With it, every item is checked,
//! then all postings go to the ledger in one database transaction
//! (`ProviderWallet::all_or_none`): a refusal of any item moves no money at all; the
//! refused item carries its code, the others 999, and the reply's `errorCode` is the
//! refused item's. Idempotent per `txId` (ledger key `prov:digitain:{txId}`): a retry
//! answers 1 with the original balance; the same `txId` with other parameters → 8.
//! Money follows the game (the wallet's own rules, `casino::ProviderRules`): a win needs
//! a bet of the player in its round (7); `refund` cancels the item's `originalTxId` of the
//! same player (an unknown one leaves a tombstone and answers 1; a second refund of the
//! same bet under another `txId` → 8); `amend` (`operationType` 37 credit, 38 debit of
//! `amendAmount`) needs `winTxId` to be a win of this very player (7 unknown, 4 another's).
//! Items without a token name their player: only a transaction of that player (its bet,
//! its win) can then move money.

use super::amount;
use super::PartnerState;
use casino::{GameSession, RollbackCall, WalletCall, WalletOp, WalletReply};
use hmac::{Hmac, Mac};
use kernel::{AppError, ErrorCode};
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use sha2::Sha256;
use subtle::ConstantTimeEq;

pub const SUCCESS: i64 = 1;
pub const SESSION_NOT_FOUND: i64 = 2;
pub const SESSION_EXPIRED: i64 = 3;
pub const PLAYER_MISMATCH: i64 = 4;
pub const LOW_BALANCE: i64 = 6;
pub const TX_NOT_FOUND: i64 = 7;
pub const ALREADY_EXISTS: i64 = 8;
pub const INVALID_SIGNATURE: i64 = 12;
pub const WRONG_OPERATOR: i64 = 15;
pub const CURRENCY_MISMATCH: i64 = 16;
pub const MISSING_PARAMETER: i64 = 17;
pub const BAD_OPERATION_TYPE: i64 = 19;
pub const GENERAL_ERROR: i64 = 999;

/// How far `timestamp` may be from our clock.
pub const WINDOW_S: i64 = 300;

/// `hex(HMAC_SHA256(secret, timestamp + operatorId))`.
pub fn sign(secret: &str, timestamp: &str, operator_id: &str) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("HMAC takes any key length");
    mac.update(timestamp.as_bytes());
    mac.update(operator_id.as_bytes());
    hex::encode(mac.finalize().into_bytes())
}

/// A JSON scalar's text (`"abc"` → `abc`, `12` → `12`).
fn text(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// A verified request's frame: what its reply carries back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    pub operator_id: String,
    /// The request's `timestamp`, as sent.
    pub timestamp: String,
    /// Its signature (lowercase hex).
    pub signature: String,
    /// The timestamp in Unix milliseconds.
    pub at_ms: i64,
}

impl Frame {
    /// A reply to this request: signed with the request's own frame.
    fn reply(&self, error_code: i64) -> Reply {
        Reply {
            operator_id: Some(self.operator_id.clone()),
            timestamp: Some(self.timestamp.clone()),
            signature: Some(self.signature.clone()),
            error_code,
            ..Default::default()
        }
    }
}

/// Timestamp window and signature, then the operator. Pure. A wrong operator is 15 only
/// when the signature (over the operator id the request names) is ours: nobody without
/// the secret learns whether a guess of our operator id is right.
pub fn verify(secret: Option<&str>, operator_id: &str, body: &Map<String, Value>, now_s: i64) -> Result<Frame, i64> {
    let Some(secret) = secret.filter(|s| !s.is_empty()) else { return Err(INVALID_SIGNATURE) };
    let op = text(body.get("operatorId")).unwrap_or_default();
    let ts = text(body.get("timestamp")).unwrap_or_default();
    if ts.is_empty() || ts.len() > 20 || !ts.bytes().all(|b| b.is_ascii_digit()) {
        return Err(INVALID_SIGNATURE);
    }
    let t: i64 = ts.parse().map_err(|_| INVALID_SIGNATURE)?;
    let at_ms = if t > 100_000_000_000 { t } else { t.saturating_mul(1000) };
    if (now_s.saturating_mul(1000) - at_ms).abs() > WINDOW_S * 1000 {
        return Err(INVALID_SIGNATURE);
    }
    let given = text(body.get("signature")).unwrap_or_default().to_ascii_lowercase();
    let expected = sign(secret, &ts, &op);
    if given.len() != expected.len() || !bool::from(given.as_bytes().ct_eq(expected.as_bytes())) {
        return Err(INVALID_SIGNATURE);
    }
    if operator_id.is_empty() || !bool::from(op.as_bytes().ct_eq(operator_id.as_bytes())) {
        return Err(WRONG_OPERATOR);
    }
    Ok(Frame { operator_id: op, timestamp: ts, signature: expected, at_ms })
}

/// A reply (fields absent when `None`). Balances are exact decimal JSON numbers. A reply to
/// a request that failed verification is `{"errorCode": …}` alone.
#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Reply {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub operator_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
    pub error_code: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub player_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub currency_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub balance: Option<Box<RawValue>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub birth_date: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gender: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_real: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub items: Option<Vec<ItemReply>>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ItemReply {
    pub tx_id: Value,
    pub external_tx_id: Option<String>,
    pub balance: Option<Box<RawValue>>,
    pub info: Value,
    pub error_code: i64,
    pub metadata: Value,
}

fn number(minor: kernel::Minor, currency: kernel::Currency) -> Option<Box<RawValue>> {
    RawValue::from_string(amount::format(minor, currency)).ok()
}

/// Our refusal as a Digitain code.
pub fn code_of(e: &AppError) -> i64 {
    match e.code {
        ErrorCode::InsufficientBalance => LOW_BALANCE,
        ErrorCode::GameSessionInvalid => SESSION_EXPIRED,
        ErrorCode::IdempotencyConflict | ErrorCode::TransactionRolledBack => ALREADY_EXISTS,
        ErrorCode::CurrencyMismatch => CURRENCY_MISMATCH,
        ErrorCode::TransactionMismatch => PLAYER_MISMATCH,
        ErrorCode::NotReversible | ErrorCode::RoundNotFound => TX_NOT_FOUND,
        ErrorCode::BadRequest | ErrorCode::InvalidBet => MISSING_PARAMETER,
        _ => GENERAL_ERROR,
    }
}

/// The reply to a request that failed verification: its code, nothing else.
fn unsigned(error_code: i64) -> String {
    serde_json::json!({ "errorCode": error_code }).to_string()
}

/// The whole call: parse the object, verify, bind the signature to this body, dispatch.
/// Always a reply (HTTP 200).
pub async fn handle(state: &PartnerState<'_>, method: &str, body: &[u8]) -> String {
    let Ok(b) = serde_json::from_slice::<Map<String, Value>>(body) else {
        return unsigned(MISSING_PARAMETER);
    };
    let cfg = &state.partners.config;
    let frame = match verify(cfg.digitain_secret.as_deref(), &cfg.digitain_operator_id, &b, kernel::clock::now_ms() / 1000) {
        Ok(frame) => frame,
        Err(code) => return unsigned(code),
    };
    let seen = &state.partners.seen;
    let hash = super::seen::body_hash(method, body);
    match seen.claim(super::DIGITAIN, &frame.timestamp, &frame.signature, &hash, frame.at_ms, WINDOW_S * 1000).await {
        Ok(super::seen::Claim::New | super::seen::Claim::Again(None)) => {}
        Ok(super::seen::Claim::Again(Some(first))) => return first,
        Ok(super::seen::Claim::OtherBody) => return unsigned(INVALID_SIGNATURE),
        // Not knowing whether the pair was seen, nothing is done: Digitain retries.
        Err(e) => {
            tracing::warn!(error = %e.text(), "digitain: the signature could not be recorded");
            return unsigned(GENERAL_ERROR);
        }
    }
    let r = match method {
        "authenticate" => authenticate(state, &frame, &b, false).await,
        "getBalance" | "getbalance" => authenticate(state, &frame, &b, true).await,
        "refreshtoken" | "refreshToken" => refresh(state, &frame, &b).await,
        "bet" | "win" | "betwin" | "refund" | "amend" => batch(state, &frame, method, &b).await,
        _ => frame.reply(GENERAL_ERROR),
    };
    let text = serde_json::to_string(&r).unwrap_or_else(|_| unsigned(GENERAL_ERROR));
    if keeps_reply(&r) {
        if let Err(e) = seen.answer(super::DIGITAIN, &frame.timestamp, &frame.signature, &text).await {
            tracing::warn!(error = %e.text(), "digitain: a reply could not be recorded");
        }
    }
    text
}

/// Whether a retry of this very request must be answered from the stored reply: only a
/// refusal needs it (a refused bet retried after a deposit must not go through). A success
/// is answered again by the wallet's own replay of the same transactions (the same codes,
/// `externalTxId`s and balances from the stored receipts), and a read (`authenticate`, `getBalance`, `refreshtoken`) moves nothing;
/// neither costs a second write. An outcome we could not be sure of (999 outside an
/// all-or-none refusal) is not kept either: that request is processed again, idempotently.
fn keeps_reply(r: &Reply) -> bool {
    let Some(items) = &r.items else { return false };
    let unsure = r.error_code == GENERAL_ERROR || (r.error_code == SUCCESS && items.iter().any(|i| i.error_code == GENERAL_ERROR));
    !unsure && (r.error_code != SUCCESS || items.iter().any(|i| i.error_code != SUCCESS))
}

/// The session of a token: unknown → 2.
async fn session_of(state: &PartnerState<'_>, token: Option<String>) -> Result<GameSession, i64> {
    let token = token.filter(|t| !t.is_empty()).ok_or(MISSING_PARAMETER)?;
    match state.casino.sessions().find(&token).await {
        Ok(s) if s.provider == super::DIGITAIN => Ok(s),
        Ok(_) => Err(SESSION_NOT_FOUND),
        Err(e) if e.code == ErrorCode::GameSessionInvalid => Err(SESSION_NOT_FOUND),
        Err(_) => Err(GENERAL_ERROR),
    }
}

/// `authenticate` (the token of `/digitain/front/token` → the player) and `getBalance`.
async fn authenticate(state: &PartnerState<'_>, f: &Frame, b: &Map<String, Value>, balance_only: bool) -> Reply {
    let s = match session_of(state, text(b.get("token"))).await {
        Ok(s) => s,
        Err(code) => return f.reply(code),
    };
    if !balance_only && !s.is_live(kernel::clock::now_ms()) {
        return f.reply(SESSION_EXPIRED);
    }
    if let Some(p) = text(b.get("playerId")) {
        if p != s.user_id.to_string() {
            return f.reply(PLAYER_MISMATCH);
        }
    }
    if let Some(c) = text(b.get("currencyId")) {
        if c != s.currency.code() {
            return f.reply(CURRENCY_MISMATCH);
        }
    }
    let Ok(balance) = state.ledger.balance(s.user_id, wallet::BalanceKind::Real, s.currency).await else {
        return f.reply(GENERAL_ERROR);
    };
    let mut r = f.reply(SUCCESS);
    r.player_id = Some(s.user_id.to_string());
    r.currency_id = Some(s.currency.code().into());
    r.balance = number(balance, s.currency);
    if balance_only {
        return r;
    }
    let Ok(Some(user)) = state.accounts.user_by_id(s.user_id).await else {
        return f.reply(PLAYER_MISMATCH);
    };
    r.user_name = Some(user.phone.clone().or(user.email.clone()).unwrap_or_else(|| format!("player{}", user.id)));
    r.first_name = Some(user.first_name.clone());
    r.last_name = Some(user.last_name.clone());
    r.birth_date = user.birth_date.clone();
    r.gender = match user.gender.as_deref() {
        Some("male" | "m" | "1") => Some(1),
        Some("female" | "f" | "2") => Some(2),
        _ => None,
    };
    r.email = user.email.clone();
    r.is_real = Some(true);
    r.token = text(b.get("token"));
    r
}

/// `refreshtoken`: a live session is extended and keeps its token (we never change it:
/// the token is the game session, ended with the player's sign-in).
async fn refresh(state: &PartnerState<'_>, f: &Frame, b: &Map<String, Value>) -> Reply {
    let token = text(b.get("token"));
    match state.casino.sessions().live(token.as_deref().unwrap_or("")).await {
        Ok(s) if s.provider == super::DIGITAIN => {
            let mut r = f.reply(SUCCESS);
            r.token = token;
            r
        }
        Ok(_) => f.reply(SESSION_NOT_FOUND),
        Err(_) => match session_of(state, token).await {
            Ok(_) => f.reply(SESSION_EXPIRED),
            Err(code) => f.reply(code),
        },
    }
}

/// One item resolved into a wallet operation (or its refusal code).
struct Resolved {
    session: GameSession,
    /// One operation; two for a `betwin` (its bet, then its win: together or not at all).
    ops: Vec<WalletOp>,
    /// A refund whose own txId we already hold (a retry: 1, not 8).
    seen: bool,
}

async fn resolve(state: &PartnerState<'_>, method: &str, item: &Map<String, Value>) -> Result<Resolved, i64> {
    // At most 96 characters: a betwin's return and a refund's second reversal add ":win".
    let tx_id = text(item.get("txId")).filter(|t| !t.is_empty() && t.len() <= 96).ok_or(MISSING_PARAMETER)?;
    let session = match (text(item.get("token")), text(item.get("playerId"))) {
        (Some(t), _) if !t.is_empty() => session_of(state, Some(t)).await?,
        // Wins and refunds may come without a token: the player's latest session.
        (_, Some(p)) if method != "bet" && method != "betwin" => {
            let id: i64 = p.parse().map_err(|_| PLAYER_MISMATCH)?;
            state.casino.sessions().latest(id, super::DIGITAIN).await.map_err(|_| GENERAL_ERROR)?.ok_or(PLAYER_MISMATCH)?
        }
        _ => return Err(MISSING_PARAMETER),
    };
    if let Some(p) = text(item.get("playerId")) {
        if p != session.user_id.to_string() {
            return Err(PLAYER_MISMATCH);
        }
    }
    if let Some(c) = text(item.get("currencyId")) {
        if c != session.currency.code() {
            return Err(CURRENCY_MISMATCH);
        }
    }
    let round = text(item.get("roundId")).filter(|r| !r.is_empty()).unwrap_or_else(|| tx_id.clone());
    let game = text(item.get("gameId")).filter(|g| !g.is_empty()).unwrap_or_else(|| super::SPORTSBOOK_GAME.into());
    let money = |field: &str| -> Result<kernel::Minor, i64> {
        let raw = item.get(field).ok_or(MISSING_PARAMETER)?;
        let raw = RawValue::from_string(raw.to_string()).map_err(|_| MISSING_PARAMETER)?;
        amount::parse_json(&raw, session.currency).map_err(|_| MISSING_PARAMETER)
    };
    let call = |amount| WalletCall {
        session_token: String::new(),
        transaction_id: tx_id.clone(),
        round_id: round.clone(),
        game_id: game.clone(),
        amount,
        currency: session.currency.code().into(),
    };
    let key = casino::wallet::ledger_key(super::DIGITAIN, &tx_id);
    let ops = match method {
        "bet" => vec![WalletOp::Bet(call(money("betAmount")?))],
        "win" => vec![WalletOp::Win(call(money("winAmount")?))],
        // A bet settled at once (an instant game, a cash-out): the stake under `txId`, the
        // return under `txId` + ":win" (a zero win is recorded too), in one transaction.
        "betwin" => {
            let mut win = call(money("winAmount")?);
            win.transaction_id = format!("{tx_id}:win");
            vec![WalletOp::Bet(call(money("betAmount")?)), WalletOp::Win(win)]
        }
        "refund" => {
            let original = text(item.get("originalTxId")).filter(|t| !t.is_empty() && t.len() <= 96).ok_or(MISSING_PARAMETER)?;
            let rollback = |tx: String, of: String| {
                WalletOp::Rollback(RollbackCall { session_token: String::new(), transaction_id: tx, reference_transaction_id: of, round_id: round.clone(), game_id: game.clone() })
            };
            // The bet, and with it a betwin's return (`:win`), in one transaction: a refunded
            // betwin takes its return back, even when the refund overtakes the betwin (both
            // are then tombstoned and the late betwin refused). For a plain bet the second
            // reversal only leaves a tombstone under a key nothing else uses.
            vec![rollback(tx_id.clone(), original.clone()), rollback(format!("{tx_id}:win"), format!("{original}:win"))]
        }
        _ => {
            let win = text(item.get("winTxId")).filter(|t| !t.is_empty() && t.len() <= 100).ok_or(MISSING_PARAMETER)?;
            // An unknown win is 7; whose win it is and that it is a win, the wallet checks
            // (a win of this very player, else 4).
            let held = state.ledger.lookup(&casino::wallet::ledger_key(super::DIGITAIN, &win)).await.map_err(|_| GENERAL_ERROR)?;
            if !held.is_some_and(|t| !t.tombstone) {
                return Err(TX_NOT_FOUND);
            }
            let debit = match item.get("operationType").and_then(Value::as_i64) {
                Some(37) => false,
                Some(38) => true,
                _ => return Err(BAD_OPERATION_TYPE),
            };
            vec![WalletOp::Amend { call: call(money("amendAmount")?), win_transaction_id: win, debit }]
        }
    };
    let seen = method == "refund" && state.ledger.lookup(&key).await.map_err(|_| GENERAL_ERROR)?.is_some();
    Ok(Resolved { session, ops, seen })
}

fn item_reply(item: &Map<String, Value>, code: i64, r: Option<&WalletReply>, session: Option<&GameSession>) -> ItemReply {
    ItemReply {
        tx_id: item.get("txId").cloned().unwrap_or(Value::Null),
        external_tx_id: r.and_then(|r| r.ledger_tx_id).map(|id| id.to_string()),
        balance: match (r, session) {
            (Some(r), Some(s)) => number(r.balance, s.currency),
            _ => None,
        },
        info: item.get("info").cloned().unwrap_or(Value::Null),
        error_code: code,
        metadata: item.get("metadata").cloned().unwrap_or(Value::Null),
    }
}

/// An item done, from its operations' replies in order: the code from the first (a second
/// refund of a bet under a new txId is 8), the balance and `externalTxId` from the last (a
/// betwin's return).
fn done_reply(item: &Map<String, Value>, res: &Resolved, replies: &[WalletReply]) -> ItemReply {
    let (Some(first), Some(last)) = (replies.first(), replies.last()) else {
        return item_reply(item, GENERAL_ERROR, None, None);
    };
    let refund_again = matches!(res.ops.first(), Some(WalletOp::Rollback(_))) && first.replayed && !res.seen;
    item_reply(item, if refund_again { ALREADY_EXISTS } else { SUCCESS }, Some(last), Some(&res.session))
}

async fn batch(state: &PartnerState<'_>, f: &Frame, method: &str, b: &Map<String, Value>) -> Reply {
    let Some(items) = b.get("items").and_then(Value::as_array).filter(|i| !i.is_empty() && i.len() <= 100) else {
        return f.reply(MISSING_PARAMETER);
    };
    let items: Vec<Map<String, Value>> = items.iter().map(|i| i.as_object().cloned().unwrap_or_default()).collect();
    let all_or_none = b.get("allOrNone").and_then(Value::as_bool).unwrap_or(false);
    let wallet = state.casino.wallet();
    let mut out = Vec::with_capacity(items.len());
    if all_or_none {
        let mut resolved = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            match resolve(state, method, item).await {
                Ok(r) => resolved.push(r),
                Err(code) => return refused_all(f, &items, i, code),
            }
        }
        // Every item's operations in one all-or-none call; `owner[k]` is operation k's item.
        let mut ops = Vec::new();
        let mut owner = Vec::new();
        for (i, r) in resolved.iter().enumerate() {
            for op in &r.ops {
                ops.push((r.session.clone(), op.clone()));
                owner.push(i);
            }
        }
        match wallet.all_or_none(super::DIGITAIN, ops).await {
            Ok(replies) => {
                let mut at = 0;
                for (item, res) in items.iter().zip(&resolved) {
                    out.push(done_reply(item, res, &replies[at..at + res.ops.len()]));
                    at += res.ops.len();
                }
            }
            Err((k, e)) => return refused_all(f, &items, owner.get(k).copied().unwrap_or(0), code_of(&e)),
        }
        let mut r = f.reply(SUCCESS);
        r.items = Some(out);
        return r;
    }
    for item in &items {
        let res = match resolve(state, method, item).await {
            Ok(r) => r,
            Err(code) => {
                out.push(item_reply(item, code, None, None));
                continue;
            }
        };
        let s = &res.session;
        let done = match &res.ops[..] {
            [WalletOp::Bet(c)] => wallet.bet_with(super::DIGITAIN, s.clone(), c).await.map(|r| vec![r]),
            [WalletOp::Win(c)] => wallet.win_with(super::DIGITAIN, s, c).await.map(|r| vec![r]),
            // A betwin or a refund: its operations together or not at all.
            ops => wallet.all_or_none(super::DIGITAIN, ops.iter().map(|op| (s.clone(), op.clone())).collect()).await.map_err(|(_, e)| e),
        };
        out.push(match done {
            Ok(replies) => done_reply(item, &res, &replies),
            Err(e) => item_reply(item, code_of(&e), None, None),
        });
    }
    let mut r = f.reply(SUCCESS);
    r.items = Some(out);
    r
}

/// An all-or-none batch refused at item `at`: nothing moved.
fn refused_all(f: &Frame, items: &[Map<String, Value>], at: usize, code: i64) -> Reply {
    let mut r = f.reply(code);
    r.items = Some(items.iter().enumerate().map(|(i, item)| item_reply(item, if i == at { code } else { GENERAL_ERROR }, None, None)).collect());
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(ts: &str, op: &str, sig: &str) -> Map<String, Value> {
        serde_json::json!({"operatorId": op, "timestamp": ts, "signature": sig}).as_object().unwrap().clone()
    }

    #[test]
    fn signature_is_hmac_of_timestamp_and_operator() {
        let sig = sign("k", "1000", "op1");
        assert_eq!(sig.len(), 64);
        let frame = Frame { operator_id: "op1".into(), timestamp: "1000".into(), signature: sig.clone(), at_ms: 1_000_000 };
        assert_eq!(verify(Some("k"), "op1", &body("1000", "op1", &sig), 1000), Ok(frame.clone()));
        assert_eq!(verify(Some("k"), "op1", &body("1000", "op1", &sig.to_uppercase()), 1200), Ok(frame));
        // Another operator id: 15 only when the signature over it is ours; else 12 (no oracle).
        assert_eq!(verify(Some("k"), "op1", &body("1000", "op2", &sign("k", "1000", "op2")), 1000), Err(WRONG_OPERATOR));
        assert_eq!(verify(Some("k"), "op1", &body("1000", "op2", &sig), 1000), Err(INVALID_SIGNATURE));
        assert_eq!(verify(Some("other"), "op1", &body("1000", "op1", &sig), 1000), Err(INVALID_SIGNATURE));
        assert_eq!(verify(Some("k"), "op1", &body("1000", "op1", &sig), 1301), Err(INVALID_SIGNATURE));
        assert_eq!(verify(None, "op1", &body("1000", "op1", &sig), 1000), Err(INVALID_SIGNATURE));
        // Only digits: "+1000" or " 1000" would be other texts with other signatures.
        for ts in ["+1000", " 1000", "1000.5", "", "-1000"] {
            assert_eq!(verify(Some("k"), "op1", &body(ts, "op1", &sign("k", ts, "op1")), 1000), Err(INVALID_SIGNATURE), "{ts:?}");
        }
        // Milliseconds are accepted (the signature is over the text as sent).
        let ms = sign("k", "1000000000000", "op1");
        assert_eq!(verify(Some("k"), "op1", &body("1000000000000", "op1", &ms), 1_000_000_000).map(|f| f.at_ms), Ok(1_000_000_000_000));
    }

    #[test]
    fn only_refusals_are_kept_for_retries() {
        let item = |code| ItemReply { tx_id: Value::Null, external_tx_id: None, balance: None, info: Value::Null, error_code: code, metadata: Value::Null };
        let batch = |top, codes: &[i64]| Reply { error_code: top, items: Some(codes.iter().map(|c| item(*c)).collect()), ..Default::default() };
        assert!(!keeps_reply(&batch(SUCCESS, &[SUCCESS, SUCCESS])), "a success replays from the ledger");
        assert!(keeps_reply(&batch(SUCCESS, &[SUCCESS, LOW_BALANCE])));
        assert!(keeps_reply(&batch(LOW_BALANCE, &[GENERAL_ERROR, LOW_BALANCE])), "an all-or-none refusal");
        assert!(!keeps_reply(&batch(SUCCESS, &[SUCCESS, GENERAL_ERROR])), "an unknown outcome is retried");
        assert!(!keeps_reply(&batch(GENERAL_ERROR, &[])));
        assert!(!keeps_reply(&Reply { error_code: SESSION_NOT_FOUND, ..Default::default() }), "a read");
    }

    #[test]
    fn replies_to_unverified_requests_carry_only_the_code() {
        assert_eq!(unsigned(INVALID_SIGNATURE), r#"{"errorCode":12}"#);
        let f = Frame { operator_id: "op1".into(), timestamp: "1000".into(), signature: "ab".into(), at_ms: 1_000_000 };
        let r = serde_json::to_value(f.reply(SUCCESS)).unwrap();
        assert_eq!(r, serde_json::json!({"operatorId": "op1", "timestamp": "1000", "signature": "ab", "errorCode": 1}));
    }
}
