//! GR8 Tech's seamless wallet: `POST /api/v2/wallet/{playerId}/transactions`
//! ("perform-transaction", PROTOCOLS §6). Speaks GR8's format, not our envelope.
//!
//! **Authentication** (GR8 does not publish how it authenticates to the operator; our
//! choice, agreed per partner): `X-Operator-Id` must be ours, `X-Brand` ours when one is
//! configured, and `X-Signature` = lowercase hex `HMAC_SHA256(GR8_SECRET, X-Timestamp +
//! "." + playerId + "." + raw body)`, where `playerId` is the path's segment exactly as
//! sent, with `X-Timestamp` in Unix seconds within ±300 s — checked on the raw bytes, in
//! constant time, before anything is parsed. The player is signed because GR8's body does
//! not name one (issue 18: a body signed for one player was applied to another's path). The
//! partner's addresses can be allow-listed (`GR8_ALLOWED_IPS`, checked by the handler).
//!
//! **Transactions.** `withdrawal` debits `amountBreakdown.cash` (a stake; needs the
//! player's live GR8 session, opened by `GET /gr8/game_link`), `deposit` credits it (a
//! settlement: honoured with an expired session or a blocked player, but only for a bet of
//! that player: a withdrawal under the same `context.betId`, else `decline.reference` — the
//! wallet's own rule), `rollback` cancels the transaction named by `context.parentId`, which
//! must be this player's (unknown → a tombstone; the late original is then declined). `bonus`, `locked` and `retract` must be zero (no bonus wallet at GR8
//! yet). Amounts are decimal strings in the currency's exponent ([`super::amount`]).
//! Idempotent by `id` (ledger key `prov:gr8:{id}`): a replay answers the same body with
//! `alreadyProcessed: true`; the same id with other parameters is a conflict.
//!
//! **Replies.** Success: HTTP 200, the request echoed plus `balances` and
//! `alreadyProcessed`. Refusal: `{error: {code, message, origin: "operator"},
//! alreadyProcessed: false}` with 400 (`validation.*`, `decline.*`), 401 (`auth.*`), 404
//! (`player.notfound`), 409 (`conflict.duplicate`), 503 (`internal.retry`: the outcome is
//! unknown, retry with the same id). A refusal changes nothing.

use super::amount::{self, AmountError};
use kernel::{AppError, Currency, ErrorCode, Minor};
use serde::Deserialize;
use serde_json::{json, Map, Value};
use std::str::FromStr;
use subtle::ConstantTimeEq;

/// A refusal in GR8's format.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Gr8Error {
    pub http: u16,
    pub code: &'static str,
    pub message: String,
}

impl Gr8Error {
    fn new(http: u16, code: &'static str, message: impl Into<String>) -> Gr8Error {
        Gr8Error { http, code, message: message.into() }
    }
    pub fn body(&self) -> Value {
        json!({ "error": { "code": self.code, "message": self.message, "origin": "operator" }, "alreadyProcessed": false })
    }
}

/// The headers of a call.
#[derive(Debug, Default, Clone)]
pub struct Gr8Headers<'a> {
    pub brand: Option<&'a str>,
    pub operator_id: Option<&'a str>,
    pub timestamp: Option<&'a str>,
    pub signature: Option<&'a str>,
}

/// Checks operator, brand and the signature over the path's player and the raw body
/// (before parsing).
pub fn verify(cfg: &super::PartnersConfig, h: &Gr8Headers, player_id: &str, body: &[u8], now_s: i64) -> Result<(), Gr8Error> {
    let Some(secret) = cfg.gr8_secret.as_deref().filter(|s| !s.is_empty()) else {
        return Err(Gr8Error::new(401, "auth.disabled", "the GR8 wallet is not configured"));
    };
    let op = h.operator_id.unwrap_or("").trim();
    if cfg.gr8_operator_id.is_empty() || !bool::from(op.as_bytes().ct_eq(cfg.gr8_operator_id.as_bytes())) {
        return Err(Gr8Error::new(401, "auth.operator", "unknown X-Operator-Id"));
    }
    if !cfg.gr8_brand.is_empty() && h.brand.unwrap_or("").trim() != cfg.gr8_brand {
        return Err(Gr8Error::new(401, "auth.brand", "unknown X-Brand"));
    }
    casino::signature::verify(secret, h.timestamp, h.signature, &signed_message(player_id, body), now_s).map_err(|e| match e.code {
        ErrorCode::TimestampStale => Gr8Error::new(401, "auth.timestamp", "X-Timestamp missing or outside ±300 s"),
        _ => Gr8Error::new(401, "auth.signature", "invalid X-Signature"),
    })
}

/// What follows `X-Timestamp + "."` under the HMAC: `playerId + "." + raw body`.
fn signed_message(player_id: &str, body: &[u8]) -> Vec<u8> {
    let mut m = Vec::with_capacity(player_id.len() + 1 + body.len());
    m.extend_from_slice(player_id.as_bytes());
    m.push(b'.');
    m.extend_from_slice(body);
    m
}

/// The signature GR8 (or a test's fake of it) puts in `X-Signature` for a transaction on
/// `player_id`'s path: `HMAC_SHA256(secret, timestamp + "." + player_id + "." + body)`.
pub fn sign(secret: &str, timestamp: &str, player_id: &str, body: &[u8]) -> String {
    casino::signature::sign(secret, timestamp, &signed_message(player_id, body))
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Body {
    currency: String,
    #[serde(default)]
    platform: Option<String>,
    id: String,
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    context: Context,
    amount_breakdown: Breakdown,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Context {
    #[serde(default)]
    product: Option<String>,
    #[serde(default)]
    bet_id: Option<Value>,
    #[serde(default)]
    parent_id: Option<Value>,
}

#[derive(Debug, Deserialize)]
struct Breakdown {
    cash: String,
    #[serde(default)]
    bonus: Option<String>,
    #[serde(default)]
    locked: Option<String>,
    #[serde(default)]
    retract: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Withdrawal,
    Deposit,
    Rollback,
}

/// A parsed transaction: the wallet command and the request to echo.
#[derive(Debug, Clone)]
pub struct Command {
    pub kind: Kind,
    pub id: String,
    pub currency: Currency,
    /// Minor units (a rollback's is what it says; the wallet reverses the original's).
    pub amount: Minor,
    /// `context.betId` (the wallet's round), else the id.
    pub bet_id: String,
    /// `context.parentId`: what a rollback cancels.
    pub parent_id: Option<String>,
    pub echo: Map<String, Value>,
}

fn id_text(v: &Option<Value>) -> Option<String> {
    match v {
        Some(Value::String(s)) => Some(s.clone()),
        Some(Value::Number(n)) => Some(n.to_string()),
        _ => None,
    }
}

fn bad(message: impl Into<String>) -> Gr8Error {
    Gr8Error::new(400, "validation.invalid", message)
}

fn valid_id(s: &str) -> bool {
    !s.trim().is_empty() && s.len() <= 50 && !s.chars().any(|c| c.is_control())
}

/// Parses a (verified) body into a command. Pure.
pub fn parse(body: &[u8]) -> Result<Command, Gr8Error> {
    let echo: Map<String, Value> = serde_json::from_slice(body).map_err(|_| bad("the body must be a JSON object"))?;
    let b: Body = serde_json::from_value(Value::Object(echo.clone())).map_err(|e| bad(format!("malformed transaction: {e}")))?;
    let kind = match b.kind.as_str() {
        "withdrawal" => Kind::Withdrawal,
        "deposit" => Kind::Deposit,
        "rollback" => Kind::Rollback,
        other => return Err(Gr8Error::new(400, "validation.unsupported", format!("transaction type {other:?} is not supported"))),
    };
    if !valid_id(&b.id) {
        return Err(bad("id must be 1 to 50 printable characters"));
    }
    if b.platform.as_deref().is_some_and(|p| p != "sport") || b.context.product.as_deref().is_some_and(|p| p != "sportsbook") {
        return Err(bad("platform must be sport and context.product sportsbook"));
    }
    let currency = Currency::from_str(&b.currency).ok().filter(|c| c.code() == b.currency).ok_or_else(|| Gr8Error::new(400, "validation.currency", "unknown currency"))?;
    let money = |text: &str| {
        amount::parse(text, currency).map_err(|e| match e {
            AmountError::TooPrecise => bad(format!("{text:?} has more decimals than {currency}")),
            AmountError::Overflow => bad("amount out of range"),
            AmountError::Invalid => bad(format!("{text:?} is not a decimal amount")),
        })
    };
    let cash = money(&b.amount_breakdown.cash)?;
    for other in [&b.amount_breakdown.bonus, &b.amount_breakdown.locked, &b.amount_breakdown.retract].into_iter().flatten() {
        if money(other)? != 0 {
            return Err(Gr8Error::new(400, "validation.unsupported", "bonus, locked and retract amounts are not supported"));
        }
    }
    let bet_id = id_text(&b.context.bet_id).unwrap_or_else(|| b.id.clone());
    if !valid_id(&bet_id) {
        return Err(bad("context.betId must be 1 to 50 printable characters"));
    }
    let parent_id = id_text(&b.context.parent_id);
    if kind == Kind::Rollback {
        match &parent_id {
            Some(p) if valid_id(p) && *p != b.id => {}
            _ => return Err(bad("a rollback names the transaction it cancels in context.parentId")),
        }
    }
    Ok(Command { kind, id: b.id, currency, amount: cash, bet_id, parent_id, echo })
}

/// The success reply: the request echoed, the balances after, `alreadyProcessed`.
pub fn render_ok(mut echo: Map<String, Value>, cash: Minor, currency: Currency, already: bool) -> Value {
    let zero = amount::format(0, currency);
    echo.insert("balances".into(), json!({ "cash": amount::format(cash, currency), "bonus": zero, "locked": zero, "retract": zero }));
    echo.insert("alreadyProcessed".into(), Value::Bool(already));
    Value::Object(echo)
}

/// Our refusal in GR8's words.
pub fn error_of(e: &AppError) -> Gr8Error {
    let msg = e.text();
    match e.code {
        ErrorCode::InsufficientBalance => Gr8Error::new(400, "decline.lowbalance", msg),
        ErrorCode::GameSessionInvalid => Gr8Error::new(400, "decline.session", msg),
        ErrorCode::UserBanned | ErrorCode::BetsNotAllowed | ErrorCode::SelfExcluded | ErrorCode::CoolingOff => {
            Gr8Error::new(400, "decline.player_blocked", msg)
        }
        ErrorCode::TransactionRolledBack => Gr8Error::new(400, "decline.rolledback", msg),
        ErrorCode::IdempotencyConflict => Gr8Error::new(409, "conflict.duplicate", msg),
        ErrorCode::CurrencyMismatch => Gr8Error::new(400, "validation.currency", msg),
        ErrorCode::AmountTooLarge | ErrorCode::BalanceLimit => Gr8Error::new(400, "decline.limit", msg),
        ErrorCode::NotReversible | ErrorCode::TransactionMismatch | ErrorCode::RoundNotFound => Gr8Error::new(400, "decline.reference", msg),
        ErrorCode::Internal => Gr8Error::new(503, "internal.retry", "the outcome is unknown: retry with the same id"),
        _ => Gr8Error::new(400, "validation.invalid", msg),
    }
}

/// The whole call: verify → parse → the wallet → GR8's reply (status, body). Every
/// refusal happens before money moves; no input answers 5xx (503 only when the
/// database's outcome is unknown).
pub async fn perform(state: &super::PartnerState<'_>, player_id: &str, h: &Gr8Headers<'_>, body: &[u8]) -> (u16, Value) {
    match perform_inner(state, player_id, h, body).await {
        Ok(v) => (200, v),
        Err(e) => (e.http, e.body()),
    }
}

async fn perform_inner(state: &super::PartnerState<'_>, player_id: &str, h: &Gr8Headers<'_>, body: &[u8]) -> Result<Value, Gr8Error> {
    verify(&state.partners.config, h, player_id, body, kernel::clock::now_ms() / 1000)?;
    let cmd = parse(body)?;
    let not_found = || Gr8Error::new(404, "player.notfound", "unknown player");
    let user_id: i64 = player_id.parse().ok().filter(|id| *id > 0).ok_or_else(not_found)?;
    let wallet = state.casino.wallet();
    // GR8 names the player, not a session: the player's latest GR8 session (opened by
    // `game_link`) carries the stake rules (live, signed in, not banned or excluded).
    let session = state.casino.sessions().latest(user_id, super::GR8).await.map_err(|e| error_of(&e))?.ok_or_else(not_found)?;
    if cmd.currency != session.currency {
        return Err(Gr8Error::new(400, "validation.currency", "the currency does not match the player's wallet"));
    }
    let call = casino::WalletCall {
        session_token: String::new(),
        transaction_id: cmd.id.clone(),
        round_id: cmd.bet_id.clone(),
        game_id: super::SPORTSBOOK_GAME.into(),
        amount: cmd.amount,
        currency: cmd.currency.code().into(),
    };
    let reply = match cmd.kind {
        Kind::Withdrawal => wallet.bet_with(super::GR8, session.clone(), &call).await,
        Kind::Deposit => wallet.win_with(super::GR8, &session, &call).await,
        Kind::Rollback => {
            // A retry of a rollback (its own id already in the ledger) is already processed.
            let seen = wallet.ledger().lookup(&casino::wallet::ledger_key(super::GR8, &cmd.id)).await.map_err(|e| error_of(&AppError::from(e)))?.is_some();
            let rollback = casino::RollbackCall {
                session_token: String::new(),
                transaction_id: cmd.id.clone(),
                reference_transaction_id: cmd.parent_id.clone().unwrap_or_default(),
                round_id: cmd.bet_id.clone(),
                game_id: super::SPORTSBOOK_GAME.into(),
            };
            wallet.rollback_with(super::GR8, &session, &rollback).await.map(|mut r| {
                r.replayed |= seen;
                r
            })
        }
    }
    .map_err(|e| error_of(&e))?;
    Ok(render_ok(cmd.echo, reply.balance, cmd.currency, reply.replayed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use hmac::{Hmac, Mac};

    fn body(kind: &str, cash: &str) -> String {
        json!({"currency": "TND", "platform": "sport", "id": "t1", "type": kind, "initiatedAt": "2024-01-01T00:00:00Z",
               "createdAt": "2024-01-01T00:00:00Z", "context": {"product": "sportsbook", "reason": "bet", "betId": "b1", "parentId": "t0"},
               "amountBreakdown": {"cash": cash, "bonus": "0", "locked": "0", "retract": "0"}})
        .to_string()
    }

    #[test]
    fn parses_the_documented_body() {
        let c = parse(body("withdrawal", "1.250").as_bytes()).unwrap();
        assert_eq!((c.kind, c.amount, c.bet_id.as_str(), c.currency), (Kind::Withdrawal, 1250, "b1", Currency::Tnd));
        let c = parse(body("rollback", "1.25").as_bytes()).unwrap();
        assert_eq!(c.parent_id.as_deref(), Some("t0"));
        let r = render_ok(c.echo, 5000, Currency::Tnd, true);
        assert_eq!(r["balances"]["cash"], "5.000");
        assert_eq!(r["alreadyProcessed"], true);
        assert_eq!(r["context"]["reason"], "bet");
    }

    #[test]
    fn refuses_bad_bodies() {
        for cash in ["-1", "1e3", "NaN", "1.0001", "", " 1"] {
            assert_eq!(parse(body("deposit", cash).as_bytes()).unwrap_err().http, 400, "{cash:?}");
        }
        assert_eq!(parse(body("award", "1").as_bytes()).unwrap_err().code, "validation.unsupported");
        assert_eq!(parse(b"[1]").unwrap_err().code, "validation.invalid");
        assert_eq!(parse(b"\xff").unwrap_err().code, "validation.invalid");
        let no_parent = body("rollback", "1").replace("\"parentId\":\"t0\"", "\"parentId\":null");
        assert!(parse(no_parent.as_bytes()).is_err());
        let lower = body("deposit", "1").replace("\"TND\"", "\"tnd\"");
        assert_eq!(parse(lower.as_bytes()).unwrap_err().code, "validation.currency");
    }

    #[test]
    fn signature_over_the_player_and_the_raw_body() {
        let cfg = super::super::PartnersConfig::from_lookup(&|_: &str| None, true).unwrap();
        let b = body("deposit", "1");
        let sig = sign(super::super::DEMO_GR8_SECRET, "1000", "42", b.as_bytes());
        // Independently: HMAC over "1000.42." + body.
        let mut m = Hmac::<sha2::Sha256>::new_from_slice(super::super::DEMO_GR8_SECRET.as_bytes()).unwrap();
        m.update(format!("1000.42.{b}").as_bytes());
        assert_eq!(sig, hex::encode(m.finalize().into_bytes()));
        let h = Gr8Headers { brand: Some("carthage"), operator_id: Some("carthage-demo"), timestamp: Some("1000"), signature: Some(&sig) };
        assert!(verify(&cfg, &h, "42", b.as_bytes(), 1000).is_ok());
        // Another player's path, the same digits spelt otherwise, a changed body: refused.
        for player in ["43", "042", "4", "42 ", ""] {
            assert_eq!(verify(&cfg, &h, player, b.as_bytes(), 1000).unwrap_err().code, "auth.signature", "{player:?}");
        }
        assert_eq!(verify(&cfg, &h, "42", b.replace("\"1\"", "\"2\"").as_bytes(), 1000).unwrap_err().code, "auth.signature");
        // The former scheme (no player) is refused.
        let old = casino::signature::sign(super::super::DEMO_GR8_SECRET, "1000", b.as_bytes());
        assert_eq!(verify(&cfg, &Gr8Headers { signature: Some(&old), ..h.clone() }, "42", b.as_bytes(), 1000).unwrap_err().code, "auth.signature");
        assert_eq!(verify(&cfg, &Gr8Headers { operator_id: Some("x"), ..h.clone() }, "42", b.as_bytes(), 1000).unwrap_err().code, "auth.operator");
        assert_eq!(verify(&cfg, &h, "42", b.as_bytes(), 2000).unwrap_err().code, "auth.timestamp");
    }
}
