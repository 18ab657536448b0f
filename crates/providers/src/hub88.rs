//! Hub88 Operator Wallet API (PROTOCOLS.md §4, docs/providers/hub88.md).
//!
//! Hub88 POSTs JSON to `/api/providers/hub88/{user/info, user/balance, transaction/bet,
//! transaction/win, transaction/rollback}` and reads `{user, status, request_uuid, currency,
//! balance}` (HTTP 200; the outcome is `status`, [`status`]).
//!
//! * **X-Hub88-Signature** = base64 RSA PKCS#1 v1.5 SHA-256 signature of the **raw body** by
//!   Hub88's private key, verified with its public key (`PROVIDER_HUB88_PUBLIC_KEY`, PEM:
//!   `BEGIN PUBLIC KEY` or `BEGIN RSA PUBLIC KEY`; `\n` escapes accepted). In demo mode
//!   without that setting the key is [`DEMO_PUBLIC_KEY`], the public half of the demo key
//!   our local fake signs with (`fake/hub88_demo_key.pem`, published: demo only). Outside
//!   demo mode without a key every call is refused. Checked over the bytes received.
//! * **token** is our game session token and **user** our user id, which must be the
//!   session's (`RS_ERROR_INVALID_TOKEN` otherwise). A stake on an expired session gets
//!   `RS_ERROR_TOKEN_EXPIRED`; wins and rollbacks never do (they are paid after expiry).
//! * **transaction_uuid** is the ledger key `prov:hub88:{transaction_uuid}`: an exact replay
//!   answers the original result (its balance then); the same uuid with another amount,
//!   round, game or kind gets `RS_ERROR_DUPLICATE_TRANSACTION`. **request_uuid** is echoed.
//! * **transaction/rollback** cancels `reference_transaction_uuid` under its own
//!   `transaction_uuid`; an unknown one succeeds and moves nothing (a tombstone: the late bet
//!   gets `RS_ERROR_TRANSACTION_ROLLED_BACK`). A win's `reference_transaction_uuid` (its bet)
//!   is informative: the wallet pays a win only in a round holding the player's bet.
//! * Amounts are integers of 1/100 000 of the major unit ("$3.56 is 356000"): exact in our
//!   minor units or refused (`RS_ERROR_WRONG_SYNTAX`); balances are answered in them.

use crate::glue::Money;
use crate::{Ctx, Inbound, JsonOut, Outbound, ProviderAdapter, ProviderSettings};
use async_trait::async_trait;
use base64::Engine;
use casino::GameSession;
use kernel::{AppError, Currency, ErrorCode};
use rsa::pkcs1::DecodeRsaPublicKey;
use rsa::pkcs1v15::{Signature, SigningKey, VerifyingKey};
use rsa::pkcs8::DecodePublicKey;
use rsa::signature::{SignatureEncoding, Signer, Verifier};
use rsa::{RsaPrivateKey, RsaPublicKey};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::Value;
use sha2::Sha256;

pub const CODE: &str = "hub88";
/// Hub88 amounts are integers of this many parts of the major unit.
pub const UNITS_PER_MAJOR: i64 = 100_000;

/// The public half of `fake/hub88_demo_key.pem` (DEMO ONLY: its private half is published).
pub const DEMO_PUBLIC_KEY: &str = "-----BEGIN PUBLIC KEY-----
MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAu6cYsPeQrFbjGP+0acOQ
/9veTIpgKacpK/sZcOhUiY4WmkNe8mkGSskcB5L7KtgRWAsP77YOIv6emYkN0/Xd
BYz4cRubF/XziIcH7sYWgkoiNCwebfaYimOYQVpn8BS1XXskw1MgmN+Si/Lsj8Vt
C8mIn+er3DfbMR+JiqoRKs3+Zouk/u+mDiMD2iDYZMqZajH6D1jvnKpeP6V19aRZ
GVzjrWRGB3LLu8sSehJzTsuU+jjc92jTpJVW+HfhnXjx00Rk0EC+X4kHgJoRwnTg
287+l5deRbwrAZOxdbUVGBuv4zNbo1pItPrhApCb605bJP2iPQo7gTD5ujo6VkYX
YwIDAQAB
-----END PUBLIC KEY-----
";

/// Hub88's statuses.
pub mod status {
    pub const OK: &str = "RS_OK";
    pub const UNKNOWN: &str = "RS_ERROR_UNKNOWN";
    pub const INVALID_PARTNER: &str = "RS_ERROR_INVALID_PARTNER";
    pub const INVALID_TOKEN: &str = "RS_ERROR_INVALID_TOKEN";
    pub const INVALID_GAME: &str = "RS_ERROR_INVALID_GAME";
    pub const WRONG_CURRENCY: &str = "RS_ERROR_WRONG_CURRENCY";
    pub const NOT_ENOUGH_MONEY: &str = "RS_ERROR_NOT_ENOUGH_MONEY";
    pub const USER_DISABLED: &str = "RS_ERROR_USER_DISABLED";
    pub const INVALID_SIGNATURE: &str = "RS_ERROR_INVALID_SIGNATURE";
    pub const TOKEN_EXPIRED: &str = "RS_ERROR_TOKEN_EXPIRED";
    pub const WRONG_SYNTAX: &str = "RS_ERROR_WRONG_SYNTAX";
    pub const WRONG_TYPES: &str = "RS_ERROR_WRONG_TYPES";
    pub const DUPLICATE_TRANSACTION: &str = "RS_ERROR_DUPLICATE_TRANSACTION";
    pub const TRANSACTION_DOES_NOT_EXIST: &str = "RS_ERROR_TRANSACTION_DOES_NOT_EXIST";
    pub const TRANSACTION_ROLLED_BACK: &str = "RS_ERROR_TRANSACTION_ROLLED_BACK";
    pub const LIMIT_REACHED: &str = "RS_ERROR_LIMIT_REACHED";
    pub const BET_LIMIT_EXCEEDED: &str = "RS_ERROR_BET_LIMIT_EXCEEDED";
}

pub struct Hub88 {
    key: Option<VerifyingKey<Sha256>>,
    operator_id: Option<String>,
}

/// A public key from PEM (SPKI or PKCS#1), with `\n` escapes as newlines (an environment
/// variable on one line).
pub fn public_key(pem: &str) -> Result<RsaPublicKey, String> {
    let pem = pem.replace("\\n", "\n");
    let pem = pem.trim();
    RsaPublicKey::from_public_key_pem(pem).or_else(|_| RsaPublicKey::from_pkcs1_pem(pem)).map_err(|e| format!("PROVIDER_HUB88_PUBLIC_KEY is not an RSA public key PEM: {e}"))
}

impl Hub88 {
    pub fn new(s: &ProviderSettings) -> Hub88 {
        let pem = s.value("public_key").map(String::from).or_else(|| s.demo.then(|| DEMO_PUBLIC_KEY.to_string()));
        let key = pem.and_then(|pem| match public_key(&pem) {
            Ok(k) => Some(VerifyingKey::<Sha256>::new(k)),
            Err(e) => {
                tracing::error!("{e}: every Hub88 call will be refused");
                None
            }
        });
        if key.is_none() {
            tracing::warn!("no Hub88 public key (PROVIDER_HUB88_PUBLIC_KEY): every Hub88 call will be refused");
        }
        Hub88 { key, operator_id: s.value("operator_id").map(String::from) }
    }
}

/// `X-Hub88-Signature` of a body (Hub88's side, and our fake's).
pub fn sign(key: &RsaPrivateKey, body: &[u8]) -> String {
    let sig = SigningKey::<Sha256>::new(key.clone()).sign(body);
    base64::engine::general_purpose::STANDARD.encode(sig.to_bytes())
}

/// Whether `signature` (base64) is `key`'s signature of `body`.
pub fn verify(key: &VerifyingKey<Sha256>, body: &[u8], signature: &str) -> bool {
    let Ok(bytes) = base64::engine::general_purpose::STANDARD.decode(signature.trim()) else { return false };
    let Ok(sig) = Signature::try_from(bytes.as_slice()) else { return false };
    key.verify(body, &sig).is_ok()
}

fn ten_pow(n: u32) -> i64 {
    10_i64.pow(n)
}

/// Hub88 units to minor units of `c`: exact, or `None` (finer than the currency, or beyond
/// 64 bits).
pub fn to_minor(units: i64, c: Currency) -> Option<i64> {
    let exp = c.exponent();
    if exp <= 5 {
        let f = ten_pow(5 - exp);
        (units % f == 0).then_some(units / f)
    } else {
        units.checked_mul(ten_pow(exp - 5))
    }
}

/// Minor units of `c` as Hub88 units (a currency finer than Hub88's is rounded down: never
/// more than is held).
pub fn to_units(minor: i64, c: Currency) -> i64 {
    let exp = c.exponent();
    if exp <= 5 {
        minor.saturating_mul(ten_pow(5 - exp))
    } else {
        minor / ten_pow(exp - 5)
    }
}

#[derive(Deserialize)]
struct Call {
    user: Option<Value>,
    token: Option<Value>,
    request_uuid: Option<Value>,
    transaction_uuid: Option<Value>,
    reference_transaction_uuid: Option<Value>,
    round: Option<Value>,
    game_code: Option<Value>,
    currency: Option<Value>,
    amount: Option<Box<RawValue>>,
    operator_id: Option<Value>,
}

/// What every reply echoes.
struct Echo {
    user: Option<String>,
    request_uuid: Option<String>,
}

impl Echo {
    fn base(&self) -> JsonOut {
        let mut j = JsonOut::new();
        if let Some(u) = &self.user {
            j = j.str("user", u);
        }
        j
    }
    /// `j` with the status and the echoed `request_uuid`.
    fn finish(&self, j: JsonOut, status: &str) -> JsonOut {
        let j = j.str("status", status);
        match &self.request_uuid {
            Some(r) => j.str("request_uuid", r),
            None => j,
        }
    }
    fn reply(&self, j: JsonOut, status: &str) -> Outbound {
        self.finish(j, status).reply(200)
    }
    fn fail(&self, status: &str) -> Outbound {
        self.reply(self.base(), status)
    }
    /// `{user, status, request_uuid, currency, balance}`.
    fn balance(&self, s: &GameSession, balance: i64, status: &str) -> Outbound {
        self.finish(self.base(), status).str("currency", s.currency.code()).int("balance", to_units(balance, s.currency)).reply(200)
    }
}

/// Where a refusal came from.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// Finding the session the token names.
    Session,
    /// The wallet, for a stake.
    Stake,
    /// The wallet, for a win or a rollback (never `RS_ERROR_TOKEN_EXPIRED`).
    Settle,
}

/// Our refusal as Hub88's status.
fn status_of(e: &AppError, stage: Stage) -> &'static str {
    match e.code {
        ErrorCode::InsufficientBalance | ErrorCode::InsufficientBonus | ErrorCode::FreeBetsEmpty => status::NOT_ENOUGH_MONEY,
        // A live session was needed for a stake and the token's has expired.
        ErrorCode::GameSessionInvalid if stage == Stage::Stake => status::TOKEN_EXPIRED,
        ErrorCode::GameSessionInvalid | ErrorCode::NoSuchUser => status::INVALID_TOKEN,
        // The token used in another player's name.
        ErrorCode::TransactionMismatch if stage == Stage::Session => status::INVALID_TOKEN,
        // A rollback naming another player's transaction; a win in a round without the
        // player's bet; a rollback naming a rollback: no such transaction of theirs.
        ErrorCode::TransactionMismatch | ErrorCode::RoundNotFound | ErrorCode::NotReversible => status::TRANSACTION_DOES_NOT_EXIST,
        ErrorCode::TransactionRolledBack => status::TRANSACTION_ROLLED_BACK,
        ErrorCode::IdempotencyConflict => status::DUPLICATE_TRANSACTION,
        ErrorCode::UserBanned | ErrorCode::BetsNotAllowed | ErrorCode::SelfExcluded | ErrorCode::CoolingOff => status::USER_DISABLED,
        ErrorCode::AmountTooLarge | ErrorCode::BonusMaxBet => status::BET_LIMIT_EXCEEDED,
        ErrorCode::BalanceLimit => status::LIMIT_REACHED,
        ErrorCode::CurrencyMismatch => status::WRONG_CURRENCY,
        ErrorCode::GameNotFound => status::INVALID_GAME,
        ErrorCode::InvalidBet => status::WRONG_TYPES,
        ErrorCode::BadRequest => status::WRONG_SYNTAX,
        _ => status::UNKNOWN,
    }
}

/// A required string field (1 to 100 characters), or `RS_ERROR_WRONG_TYPES`.
fn text(v: &Option<Value>, echo: &Echo) -> Result<String, Outbound> {
    match v {
        Some(Value::String(s)) if !s.is_empty() && s.len() <= 100 => Ok(s.clone()),
        Some(Value::String(_)) | None | Some(Value::Null) => Err(echo.fail(status::WRONG_SYNTAX)),
        Some(_) => Err(echo.fail(status::WRONG_TYPES)),
    }
}

/// The token (up to 255 characters, as Hub88's launch allows).
fn token(v: &Option<Value>, echo: &Echo) -> Result<String, Outbound> {
    match v {
        Some(Value::String(s)) if !s.is_empty() && s.len() <= 255 => Ok(s.clone()),
        Some(Value::String(_)) | None | Some(Value::Null) => Err(echo.fail(status::INVALID_TOKEN)),
        Some(_) => Err(echo.fail(status::WRONG_TYPES)),
    }
}

/// `amount`: a JSON integer ≥ 0 of Hub88 units.
fn units(raw: Option<&RawValue>, echo: &Echo) -> Result<i64, Outbound> {
    let text = raw.map(|r| r.get().trim()).ok_or_else(|| echo.fail(status::WRONG_SYNTAX))?;
    if !text.bytes().all(|b| b.is_ascii_digit()) || text.is_empty() {
        return Err(echo.fail(status::WRONG_TYPES));
    }
    if text.len() > 18 {
        return Err(echo.fail(status::BET_LIMIT_EXCEEDED));
    }
    text.parse().map_err(|_| echo.fail(status::WRONG_TYPES))
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Method {
    Info,
    Balance,
    Bet,
    Win,
    Rollback,
}

#[async_trait]
impl ProviderAdapter for Hub88 {
    fn code(&self) -> &'static str {
        CODE
    }

    async fn callback(&self, ctx: &Ctx, req: Inbound<'_>) -> Outbound {
        let nobody = Echo { user: None, request_uuid: None };
        let method = match req.path.trim_matches('/') {
            "user/info" => Method::Info,
            "user/balance" => Method::Balance,
            "transaction/bet" => Method::Bet,
            "transaction/win" => Method::Win,
            "transaction/rollback" => Method::Rollback,
            _ => return JsonOut::new().str("status", status::UNKNOWN).reply(404),
        };
        // The signature over the raw bytes first: nothing is read before.
        let signed = match (&self.key, req.header("x-hub88-signature")) {
            (Some(key), Some(sig)) => verify(key, req.body, sig),
            _ => false,
        };
        if !signed {
            return nobody.fail(status::INVALID_SIGNATURE);
        }
        if serde_json::from_slice::<serde::de::IgnoredAny>(req.body).is_err() {
            return nobody.fail(status::WRONG_SYNTAX);
        }
        let Ok(call) = serde_json::from_slice::<Call>(req.body) else {
            return nobody.fail(status::WRONG_TYPES);
        };
        let echo = Echo {
            user: match &call.user {
                Some(Value::String(u)) => Some(u.clone()),
                _ => None,
            },
            request_uuid: match &call.request_uuid {
                Some(Value::String(r)) => Some(r.clone()),
                _ => None,
            },
        };
        self.serve(ctx, method, &call, &echo).await.unwrap_or_else(|reply| reply)
    }
}

impl Hub88 {
    async fn serve(&self, ctx: &Ctx, method: Method, call: &Call, echo: &Echo) -> Result<Outbound, Outbound> {
        text(&call.request_uuid, echo)?;
        if let (Some(ours), Some(theirs)) = (&self.operator_id, &call.operator_id) {
            let theirs = match theirs {
                Value::String(s) => s.clone(),
                Value::Number(n) => n.to_string(),
                _ => return Err(echo.fail(status::WRONG_TYPES)),
            };
            if theirs != *ours {
                return Err(echo.fail(status::INVALID_PARTNER));
            }
        }
        let user = text(&call.user, echo)?;
        let token = token(&call.token, echo)?;
        let s = ctx.session_of(CODE, &token, &user).await.map_err(|e| echo.fail(status_of(&e, Stage::Session)))?;
        if let Some(c) = &call.currency {
            match c {
                Value::String(c) if c == s.currency.code() => {}
                Value::String(_) => return Err(echo.fail(status::WRONG_CURRENCY)),
                _ => return Err(echo.fail(status::WRONG_TYPES)),
            }
        }
        let s = &s;
        let fail = |e: AppError, stage: Stage| async move {
            let st = status_of(&e, stage);
            if st == status::NOT_ENOUGH_MONEY {
                // Hub88 asks for the actual balance with it.
                if let Ok(balance) = ctx.balance(s).await {
                    return echo.balance(s, balance, st);
                }
            }
            echo.fail(st)
        };
        match method {
            Method::Info => {
                if !s.is_live(kernel::clock::now_ms()) {
                    return Err(echo.fail(status::TOKEN_EXPIRED));
                }
                Ok(echo.reply(echo.base().str("country", "TN"), status::OK))
            }
            Method::Balance => match ctx.balance(s).await {
                Ok(balance) => Ok(echo.balance(s, balance, status::OK)),
                Err(e) => Err(fail(e, Stage::Settle).await),
            },
            Method::Bet | Method::Win => {
                let tx = text(&call.transaction_uuid, echo)?;
                let round = text(&call.round, echo)?;
                let game = text(&call.game_code, echo)?;
                if call.currency.is_none() {
                    return Err(echo.fail(status::WRONG_SYNTAX));
                }
                if let Some(r) = &call.reference_transaction_uuid {
                    if !matches!(r, Value::String(_) | Value::Null) {
                        return Err(echo.fail(status::WRONG_TYPES));
                    }
                }
                let minor = to_minor(units(call.amount.as_deref(), echo)?, s.currency).ok_or_else(|| echo.fail(status::WRONG_SYNTAX))?;
                let m = Money { tx: &tx, round: &round, game: &game, amount: minor };
                let (reply, stage) = if method == Method::Bet { (ctx.bet(CODE, s, &m).await, Stage::Stake) } else { (ctx.win(CODE, s, &m).await, Stage::Settle) };
                match reply {
                    Ok(r) => Ok(echo.balance(s, r.balance, status::OK)),
                    Err(e) => Err(fail(e, stage).await),
                }
            }
            Method::Rollback => {
                let tx = text(&call.transaction_uuid, echo)?;
                let of = text(&call.reference_transaction_uuid, echo)?;
                let round = match &call.round {
                    Some(Value::String(r)) if r.len() <= 100 => r.clone(),
                    None | Some(Value::Null) => String::new(),
                    Some(_) => return Err(echo.fail(status::WRONG_TYPES)),
                };
                let game = match &call.game_code {
                    Some(Value::String(g)) if g.len() <= 100 => g.clone(),
                    _ => String::new(),
                };
                match ctx.rollback(CODE, s, &tx, &of, &round, &game).await {
                    Ok(r) => Ok(echo.balance(s, r.balance, status::OK)),
                    Err(e) => Err(fail(e, Stage::Settle).await),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rsa::pkcs8::{DecodePrivateKey, EncodePublicKey, LineEnding};

    fn demo_private() -> RsaPrivateKey {
        let file = include_str!("fake/hub88_demo_key.pem");
        RsaPrivateKey::from_pkcs8_pem(&file[file.find("-----BEGIN").unwrap()..]).unwrap()
    }

    #[test]
    fn the_demo_public_key_is_the_demo_private_keys() {
        let derived = RsaPublicKey::from(&demo_private()).to_public_key_pem(LineEnding::LF).unwrap();
        assert_eq!(derived, DEMO_PUBLIC_KEY);
        // Also read from one line with `\n` escapes, and as PKCS#1.
        assert!(public_key(&DEMO_PUBLIC_KEY.replace('\n', "\\n")).is_ok());
        assert!(public_key("not a key").is_err());
    }

    #[test]
    fn signatures_are_rsa_sha256_pkcs1_over_the_raw_body() {
        let key = VerifyingKey::<Sha256>::new(public_key(DEMO_PUBLIC_KEY).unwrap());
        let body = br#"{"user":"7","token":"t","request_uuid":"r"}"#;
        let sig = sign(&demo_private(), body);
        assert!(verify(&key, body, &sig));
        // PKCS#1 v1.5 is deterministic: the same bytes, the same signature.
        assert_eq!(sig, sign(&demo_private(), body));
        assert!(!verify(&key, br#"{"user":"7", "token":"t","request_uuid":"r"}"#, &sig));
        assert!(!verify(&key, body, "not base64!"));
        assert!(!verify(&key, body, "AAAA"));
        assert!(!verify(&key, body, ""));
    }

    /// Through `callback`: every malformed or forged call gets a Hub88 status, never a panic
    /// or a 5xx (an empty database: no session exists).
    #[tokio::test]
    async fn callbacks_never_fail_outside_hub88s_format() {
        let (t, db) = store::testing::TestDb::migrated(store::Backend::Sqlite).await.unwrap();
        let ctx = Ctx { casino: casino::Casino::new(db.clone(), wallet::Ledger::new(db.clone())) };
        let mut settings = ProviderSettings::local(CODE, "unused", "http://x");
        settings.values.insert("operator_id".into(), "42".into());
        let a = Hub88::new(&settings);
        let key = demo_private();
        let bet = r#""user":"1","token":"nope","request_uuid":"r1","transaction_uuid":"t","round":"r","game_code":"g","currency":"TND""#;
        let cases: Vec<(&str, String, bool, &str)> = vec![
            ("transaction/bet", "{}".into(), false, status::INVALID_SIGNATURE),
            ("transaction/bet", "not json".into(), true, status::WRONG_SYNTAX),
            ("transaction/bet", "[1]".into(), true, status::WRONG_TYPES),
            ("transaction/bet", r#"{"request_uuid":5}"#.into(), true, status::WRONG_TYPES),
            ("transaction/bet", r#"{"request_uuid":"r1"}"#.into(), true, status::WRONG_SYNTAX),
            ("user/balance", r#"{"request_uuid":"r1","user":"1","token":"nope","operator_id":7}"#.into(), true, status::INVALID_PARTNER),
            ("user/balance", r#"{"request_uuid":"r1","user":"1","token":"nope","operator_id":42}"#.into(), true, status::INVALID_TOKEN),
            ("user/info", r#"{"request_uuid":"r1","user":"1","token":"nope"}"#.into(), true, status::INVALID_TOKEN),
            ("user/balance", r#"{"request_uuid":"r1","user":"1","token":12}"#.into(), true, status::WRONG_TYPES),
            ("transaction/bet", format!(r#"{{{bet},"amount":100}}"#), true, status::INVALID_TOKEN),
            ("transaction/win", format!(r#"{{{bet},"amount":"x"}}"#), true, status::INVALID_TOKEN),
            ("transaction/rollback", r#"{"request_uuid":"r1","user":"1","token":"nope","transaction_uuid":"t"}"#.into(), true, status::INVALID_TOKEN),
        ];
        for (path, body, signed, want) in cases {
            let mut headers = axum::http::HeaderMap::new();
            if signed {
                headers.insert("x-hub88-signature", sign(&key, body.as_bytes()).parse().unwrap());
            }
            let out = a.callback(&ctx, Inbound { path, query: "", headers: &headers, body: body.as_bytes() }).await;
            let v: Value = serde_json::from_slice(&out.body).unwrap();
            assert_eq!((out.status, v["status"].as_str()), (200, Some(want)), "{path} {body}: {v}");
            if body.contains("\"request_uuid\":\"r1\"") && signed {
                assert_eq!(v["request_uuid"], "r1", "{v}");
            }
        }
        let headers = axum::http::HeaderMap::new();
        let out = a.callback(&ctx, Inbound { path: "user/nothing", query: "", headers: &headers, body: b"{}" }).await;
        assert_eq!(out.status, 404);
        // Outside demo mode without a public key, nothing is trusted.
        let mut prod = ProviderSettings::local(CODE, "unused", "http://x");
        prod.demo = false;
        let body = br#"{"request_uuid":"r1","user":"1","token":"nope"}"#;
        let mut headers = axum::http::HeaderMap::new();
        headers.insert("x-hub88-signature", sign(&key, body).parse().unwrap());
        let out = Hub88::new(&prod).callback(&ctx, Inbound { path: "user/balance", query: "", headers: &headers, body }).await;
        assert!(String::from_utf8(out.body).unwrap().contains(status::INVALID_SIGNATURE));
        db.close().await;
        t.cleanup().await;
    }

    /// Against a real wallet: exact replays answer the original result, statuses per case,
    /// never `RS_ERROR_TOKEN_EXPIRED` for a win.
    #[tokio::test]
    async fn money_calls_against_the_wallet() {
        let k = crate::softswiss::testkit::kit().await;
        let a = Hub88::new(&ProviderSettings::local(CODE, "unused", "http://x"));
        let key = demo_private();
        let (p, token) = k.player(CODE, 10_000).await;
        let (q, _) = k.player(CODE, 10_000).await;
        let send = |path: &'static str, body: Value| {
            let (a, k, key) = (&a, &k, &key);
            async move {
                let raw = body.to_string();
                let mut headers = axum::http::HeaderMap::new();
                headers.insert("x-hub88-signature", sign(key, raw.as_bytes()).parse().unwrap());
                let out = a.callback(&k.ctx, Inbound { path, query: "", headers: &headers, body: raw.as_bytes() }).await;
                assert_eq!(out.status, 200);
                serde_json::from_slice::<Value>(&out.body).unwrap()
            }
        };
        let who = serde_json::json!({"user": p.to_string(), "token": token, "request_uuid": "q1"});
        let money = |tx: &str, round: &str, amount: i64| {
            let mut b = who.clone();
            for (k, v) in [("transaction_uuid", Value::from(tx)), ("round", round.into()), ("game_code", "g1".into()), ("currency", "TND".into()), ("amount", amount.into())] {
                b[k] = v;
            }
            b
        };
        let info = send("user/info", who.clone()).await;
        assert_eq!((info["status"].as_str(), info["user"].as_str(), info["request_uuid"].as_str()), (Some(status::OK), Some(p.to_string().as_str()), Some("q1")));
        assert_eq!(send("user/balance", who.clone()).await["balance"], 1_000_000);
        let first = send("transaction/bet", money("b1", "r1", 150_000)).await;
        assert_eq!((first["status"].as_str(), first["balance"].as_i64(), first["currency"].as_str()), (Some(status::OK), Some(850_000), Some("TND")));
        assert_eq!(send("transaction/win", money("w1", "r1", 500_000)).await["balance"], 1_350_000);
        // The exact replay: the original result. Another payload: a duplicate.
        assert_eq!(send("transaction/bet", money("b1", "r1", 150_000)).await, first);
        assert_eq!(send("transaction/bet", money("b1", "r1", 160_000)).await["status"], status::DUPLICATE_TRANSACTION);
        // Finer than a millime; another currency; another player's id with this token.
        assert_eq!(send("transaction/bet", money("b2", "r2", 150_001)).await["status"], status::WRONG_SYNTAX);
        let mut usd = money("b2", "r2", 100_000);
        usd["currency"] = "USD".into();
        assert_eq!(send("transaction/bet", usd).await["status"], status::WRONG_CURRENCY);
        let mut theirs = money("b2", "r2", 100_000);
        theirs["user"] = q.to_string().into();
        assert_eq!(send("transaction/bet", theirs).await["status"], status::INVALID_TOKEN);
        // Not enough money: with the balance.
        let poor = send("transaction/bet", money("b3", "r3", 5_000_000)).await;
        assert_eq!((poor["status"].as_str(), poor["balance"].as_i64()), (Some(status::NOT_ENOUGH_MONEY), Some(1_350_000)));
        // A rollback of something never seen: RS_OK; the late bet is refused.
        let mut rb = money("x1", "r4", 0);
        rb["reference_transaction_uuid"] = "b4".into();
        assert_eq!(send("transaction/rollback", rb).await["status"], status::OK);
        assert_eq!(send("transaction/bet", money("b4", "r4", 100_000)).await["status"], status::TRANSACTION_ROLLED_BACK);
        // Expired: stakes and user/info say so; a win is paid.
        store::sqlx::query("UPDATE game_sessions SET expires_at = 1 WHERE user_id = $1").bind(p).execute(k.db.writer()).await.unwrap();
        assert_eq!(send("transaction/bet", money("b5", "r1", 100_000)).await["status"], status::TOKEN_EXPIRED);
        assert_eq!(send("user/info", who.clone()).await["status"], status::TOKEN_EXPIRED);
        assert_eq!(send("transaction/win", money("w2", "r1", 100_000)).await["balance"], 1_450_000);
        assert_eq!((k.balance(p).await, k.balance(q).await), (14_500, 10_000));
        k.done().await;
    }

    #[test]
    fn units_are_hundred_thousandths() {
        assert_eq!(to_minor(356_000, Currency::Usd), Some(356));
        assert_eq!(to_minor(1_500_000, Currency::Tnd), Some(15_000));
        assert_eq!(to_minor(356_001, Currency::Usd), None);
        assert_eq!(to_minor(7, Currency::Usdt), Some(70));
        assert_eq!(to_minor(i64::MAX, Currency::Usdt), None);
        assert_eq!(to_units(15_000, Currency::Tnd), 1_500_000);
        assert_eq!(to_units(79, Currency::Usdt), 7);
        assert_eq!(to_units(15, Currency::Pyg), 1_500_000);
    }

    #[test]
    fn malformed_fields_get_hub88_statuses() {
        let echo = Echo { user: Some("7".into()), request_uuid: Some("r".into()) };
        let st = |o: Outbound| serde_json::from_slice::<Value>(&o.body).unwrap()["status"].as_str().unwrap().to_string();
        let raw = |s: &str| RawValue::from_string(s.to_string()).unwrap();
        assert_eq!(units(Some(&raw("100")), &echo).ok(), Some(100));
        assert_eq!(st(units(Some(&raw("-1")), &echo).unwrap_err()), status::WRONG_TYPES);
        assert_eq!(st(units(Some(&raw("1.5")), &echo).unwrap_err()), status::WRONG_TYPES);
        assert_eq!(st(units(Some(&raw("\"100\"")), &echo).unwrap_err()), status::WRONG_TYPES);
        assert_eq!(st(units(Some(&raw("99999999999999999999999")), &echo).unwrap_err()), status::BET_LIMIT_EXCEEDED);
        assert_eq!(st(units(None, &echo).unwrap_err()), status::WRONG_SYNTAX);
        assert_eq!(st(text(&Some(Value::Bool(true)), &echo).unwrap_err()), status::WRONG_TYPES);
        assert_eq!(st(text(&None, &echo).unwrap_err()), status::WRONG_SYNTAX);
        assert_eq!(st(token(&Some(Value::String("x".repeat(256))), &echo).unwrap_err()), status::INVALID_TOKEN);
        // Every reply echoes the user and the request.
        let v: Value = serde_json::from_slice(&echo.fail(status::UNKNOWN).body).unwrap();
        assert_eq!(v, serde_json::json!({"user": "7", "status": "RS_ERROR_UNKNOWN", "request_uuid": "r"}));
    }

    #[test]
    fn the_token_never_expires_for_settlements() {
        let e = AppError::new(ErrorCode::GameSessionInvalid);
        assert_eq!(status_of(&e, Stage::Stake), status::TOKEN_EXPIRED);
        assert_eq!(status_of(&e, Stage::Settle), status::INVALID_TOKEN);
        assert_eq!(status_of(&e, Stage::Session), status::INVALID_TOKEN);
        for code in ErrorCode::ALL {
            let st = status_of(&AppError::new(*code), Stage::Settle);
            assert_ne!(st, status::TOKEN_EXPIRED, "{code:?}");
            assert!(st.starts_with("RS_ERROR_"), "{code:?}");
        }
    }
}
