//! Golden Race virtual games ("Xpress" wallet; PROTOCOLS.md §5, docs/providers/goldenrace.md).
//!
//! Golden Race POSTs JSON to `{base}/{login,logout,balance,debit,credit,rollback}` — served
//! at `/api/providers/goldenrace/<action>` — and reads `{status, code, message, data{…,
//! fingerprint}}`, always HTTP 200.
//!
//! * **fingerprint** = md5 of every JSON scalar value of the body **in document order**
//!   (strings' contents, numbers' texts as sent, `true`/`false`, `null` as nothing) with
//!   the top-level `fingerprint`'s own value taken as empty, followed by the private key
//!   (`PROVIDER_GOLDENRACE_SECRET`); lower-case hex, compared case-insensitively in constant
//!   time. Computed over the bytes received ([`crate::ordered::scalars`]): spaces and a
//!   number's formatting are the sender's business, and reordered keys change the string.
//! * Our replies carry `data.fingerprint` computed the same way over `data`'s values. A reply
//!   to a call that failed verification carries no fingerprint: we never sign what an
//!   unauthenticated caller chose.
//! * **siteId** must be `PROVIDER_GOLDENRACE_SITE_ID` when that is set.
//! * **sessionId** (login: **token**) is our game session token, **playerId** our user id
//!   (the session's); **gameCycle** is the round, **transactionId** the transaction (ledger
//!   key `prov:goldenrace:{transactionId}`), `transactionAmount` a decimal,
//!   `transactionCategory` `bet` (debit) or `win`/`jackpotwin` (credit).
//! * A repeated debit or credit answers success with the current balance (replay); the same
//!   id with other details is refused (116).
//! * **rollback** names the transaction it cancels by its `transactionId` (with its
//!   `transactionType` `debit`/`credit`); the cancellation is booked under
//!   `rollback:{transactionId}`. An unknown transaction leaves a tombstone (success; the late
//!   original is refused with 118).
//! * Amounts are decimal major units; replies carry the currency's decimals (TND: 3).

use crate::amount;
use crate::glue::{secure_eq, Money};
use crate::ordered;
use crate::rawjson::Obj;
use crate::{Ctx, Inbound, JsonOut, Outbound, ProviderAdapter, ProviderSettings};
use async_trait::async_trait;
use casino::GameSession;
use kernel::{AppError, ErrorCode};
use md5::{Digest, Md5};

pub const CODE: &str = "goldenrace";

/// Golden Race's return codes (as IqSoft's gateway lists them; 200 is success).
pub mod code {
    pub const SUCCESS: i64 = 200;
    pub const INTERNAL_ERROR: i64 = 101;
    pub const INVALID_PLATFORM: i64 = 102;
    pub const MALFORMED: i64 = 103;
    pub const UNKNOWN_REQUEST: i64 = 104;
    pub const INVALID_SECURE_TOKEN: i64 = 106;
    pub const INSUFFICIENT_BALANCE: i64 = 107;
    pub const ACCOUNT_LOCKED: i64 = 108;
    pub const TRANSACTION_FAILED: i64 = 110;
    pub const UNSUPPORTED_GAME: i64 = 111;
    pub const GAME_CYCLE_NOT_EXISTS: i64 = 112;
    pub const SESSION_PARAMETERS: i64 = 113;
    pub const WRONG_PLAYER: i64 = 114;
    pub const TRANSACTION_EXISTS: i64 = 116;
    pub const TRANSACTION_NOT_EXISTS: i64 = 117;
    pub const GAME_CYCLE_CLOSED: i64 = 118;
}

const MAX_ID: usize = 90;

pub struct GoldenRace {
    key: String,
    site_id: Option<String>,
}

impl GoldenRace {
    pub fn new(s: &ProviderSettings) -> GoldenRace {
        GoldenRace { key: s.secret.clone().unwrap_or_default(), site_id: s.value("site_id").map(String::from) }
    }
}

/// md5 of `values` joined, followed by the private key (lower-case hex).
pub fn digest<'a>(values: impl IntoIterator<Item = &'a str>, key: &str) -> String {
    let mut md5 = Md5::new();
    for v in values {
        md5.update(v.as_bytes());
    }
    md5.update(key.as_bytes());
    hex::encode(md5.finalize())
}

/// The fingerprint a raw JSON document should carry, and the one it carries: `None` when
/// the document is not JSON or carries no (or several) top-level fingerprints.
pub fn fingerprints(raw: &[u8], key: &str) -> Option<(String, String)> {
    let scalars = ordered::scalars(raw)?;
    let mut sent = None;
    let mut values = Vec::with_capacity(scalars.len());
    for s in &scalars {
        if s.depth == 0 && s.key.as_deref() == Some("fingerprint") {
            if sent.replace(s.text.clone()).is_some() {
                return None;
            }
        } else {
            values.push(s.text.as_str());
        }
    }
    Some((digest(values, key), sent?))
}

/// Whether `raw` carries the right fingerprint for `key`.
pub fn verify(raw: &[u8], key: &str) -> bool {
    !key.is_empty() && fingerprints(raw, key).is_some_and(|(expected, sent)| secure_eq(&sent, &expected, true))
}

/// A reply's `data`: its fields in order, each with the text its value contributes to the
/// fingerprint.
#[derive(Debug, Clone, Default)]
pub struct Data {
    json: JsonOut,
    values: Vec<String>,
}

impl Data {
    pub fn str(mut self, k: &str, v: &str) -> Data {
        self.json = self.json.str(k, v);
        self.values.push(v.to_string());
        self
    }
    /// A decimal number written verbatim.
    pub fn num(mut self, k: &str, decimal: &str) -> Data {
        self.json = self.json.num(k, decimal);
        self.values.push(decimal.to_string());
        self
    }
    /// The object with its fingerprint last.
    pub fn signed(self, key: &str) -> JsonOut {
        let f = digest(self.values.iter().map(String::as_str), key);
        self.json.str("fingerprint", &f)
    }
}

/// `{status, code, message, data}`.
pub fn reply(code: i64, message: &str, data: JsonOut) -> Outbound {
    JsonOut::new().bool("status", code == code::SUCCESS).int("code", code).str("message", message).obj("data", data).reply(200)
}

/// Our refusal in Golden Race's codes. `session`: the error came from finding the session.
pub fn refusal(e: &AppError, session: bool) -> i64 {
    use code::*;
    match e.code {
        ErrorCode::InsufficientBalance => INSUFFICIENT_BALANCE,
        ErrorCode::GameSessionInvalid => INVALID_SECURE_TOKEN,
        ErrorCode::TransactionMismatch | ErrorCode::NoSuchUser if session => WRONG_PLAYER,
        ErrorCode::NoSuchUser => WRONG_PLAYER,
        // A rollback naming another player's transaction.
        ErrorCode::TransactionMismatch => TRANSACTION_NOT_EXISTS,
        ErrorCode::UserBanned | ErrorCode::BetsNotAllowed | ErrorCode::SelfExcluded | ErrorCode::CoolingOff => ACCOUNT_LOCKED,
        ErrorCode::AmountTooLarge | ErrorCode::BonusMaxBet | ErrorCode::BalanceLimit => TRANSACTION_FAILED,
        ErrorCode::RoundNotFound => GAME_CYCLE_NOT_EXISTS,
        ErrorCode::TransactionRolledBack => GAME_CYCLE_CLOSED,
        ErrorCode::IdempotencyConflict => TRANSACTION_EXISTS,
        ErrorCode::NotReversible => TRANSACTION_NOT_EXISTS,
        ErrorCode::GameNotFound => UNSUPPORTED_GAME,
        ErrorCode::CurrencyMismatch | ErrorCode::InvalidBet | ErrorCode::BadRequest => MALFORMED,
        _ if e.code.http_status() >= 500 => INTERNAL_ERROR,
        _ => TRANSACTION_FAILED,
    }
}

/// A refusal before the caller is known: no fingerprint, nothing echoed.
fn unsigned(code: i64, message: &str) -> Outbound {
    reply(code, message, JsonOut::new())
}

type Reply = Result<Outbound, Outbound>;

/// A verified call.
struct Call<'a> {
    body: Obj<'a>,
    request_id: String,
}

#[async_trait]
impl ProviderAdapter for GoldenRace {
    fn code(&self) -> &'static str {
        CODE
    }

    async fn callback(&self, ctx: &Ctx, req: Inbound<'_>) -> Outbound {
        let action = req.path.trim_end_matches('/');
        if !matches!(action, "login" | "logout" | "balance" | "debit" | "credit" | "rollback") {
            let mut out = unsigned(code::UNKNOWN_REQUEST, "unknown request");
            out.status = 404;
            return out;
        }
        // The fingerprint first, over the bytes received: nothing is read before it holds.
        if !verify(req.body, &self.key) {
            return unsigned(code::INVALID_SECURE_TOKEN, "invalid fingerprint");
        }
        let Some(body) = Obj::parse(req.body) else {
            return unsigned(code::MALFORMED, "the body is not a JSON object");
        };
        if let Some(site) = &self.site_id {
            if body.text("siteId").as_deref() != Some(site.as_str()) {
                return unsigned(code::INVALID_PLATFORM, "unknown siteId");
            }
        }
        if body.text("action").is_some_and(|a| a != action) {
            return unsigned(code::UNKNOWN_REQUEST, "action does not match the path");
        }
        let call = Call { request_id: body.text("requestId").unwrap_or_default(), body };
        let out = match action {
            "login" => self.login(ctx, &call).await,
            "logout" | "balance" => self.balance(ctx, &call).await,
            "debit" => self.money(ctx, &call, false).await,
            "credit" => self.money(ctx, &call, true).await,
            _ => self.rollback(ctx, &call).await,
        };
        out.unwrap_or_else(|r| r)
    }
}

fn timestamp() -> String {
    time::OffsetDateTime::now_utc().format(&time::format_description::well_known::Rfc3339).unwrap_or_default()
}

impl GoldenRace {
    /// A verified call's refusal: signed, echoing only what Golden Race itself sent.
    fn fail(&self, call: &Call<'_>, code: i64, message: &str) -> Outbound {
        reply(code, message, Data::default().str("timestamp", &timestamp()).str("requestId", &call.request_id).signed(&self.key))
    }

    fn refuse(&self, call: &Call<'_>, e: &AppError, session: bool) -> Outbound {
        self.fail(call, refusal(e, session), e.code.message())
    }

    fn ok(&self, data: Data) -> Outbound {
        reply(code::SUCCESS, "Success", data.signed(&self.key))
    }

    /// The head of every successful reply's data.
    fn head(s: &GameSession, balance: i64) -> Data {
        Data::default().str("playerId", &s.user_id.to_string()).str("currency", s.currency.code()).num("balance", &amount::format(balance, s.currency))
    }

    fn tail(&self, call: &Call<'_>, session_id: &str, data: Data) -> Data {
        data.str("sessionId", session_id).str("timestamp", &timestamp()).str("requestId", &call.request_id)
    }

    /// The session `sessionId` names, which must be `playerId`'s.
    async fn session(&self, ctx: &Ctx, call: &Call<'_>) -> Result<(GameSession, String), Outbound> {
        let (Some(sid), Some(player)) = (call.body.id("sessionId", 200), call.body.id("playerId", 40)) else {
            return Err(self.fail(call, code::MALFORMED, "sessionId and playerId are required"));
        };
        let s = ctx.session_of(CODE, &sid, &player).await.map_err(|e| self.refuse(call, &e, true))?;
        if call.body.has("currency") && call.body.text("currency").as_deref() != Some(s.currency.code()) {
            return Err(self.refuse(call, &AppError::new(ErrorCode::CurrencyMismatch), false));
        }
        Ok((s, sid))
    }

    async fn login(&self, ctx: &Ctx, call: &Call<'_>) -> Reply {
        let Some(token) = call.body.id("token", 200) else {
            return Err(self.fail(call, code::MALFORMED, "token is required"));
        };
        let s = ctx.live_session(CODE, &token).await.map_err(|e| self.refuse(call, &e, true))?;
        let balance = ctx.balance(&s).await.map_err(|e| self.refuse(call, &e, false))?;
        let data = Self::head(&s, balance).str("playerNickname", &format!("player{}", s.user_id));
        Ok(self.ok(self.tail(call, &token, data)))
    }

    async fn balance(&self, ctx: &Ctx, call: &Call<'_>) -> Reply {
        let (s, sid) = self.session(ctx, call).await?;
        let balance = ctx.balance(&s).await.map_err(|e| self.refuse(call, &e, false))?;
        Ok(self.ok(self.tail(call, &sid, Self::head(&s, balance))))
    }

    async fn money(&self, ctx: &Ctx, call: &Call<'_>, credit: bool) -> Reply {
        let (s, sid) = self.session(ctx, call).await?;
        let b = &call.body;
        let (Some(round), Some(tx), Some(text)) = (b.id("gameCycle", MAX_ID), b.id("transactionId", MAX_ID), b.text("transactionAmount")) else {
            return Err(self.fail(call, code::MALFORMED, "gameCycle, transactionId and transactionAmount are required"));
        };
        let category = b.text("transactionCategory").unwrap_or_default();
        let fits = if credit { matches!(category.as_str(), "win" | "jackpotwin") } else { category == "bet" };
        if !fits {
            return Err(self.fail(call, code::MALFORMED, "transactionCategory does not fit the action"));
        }
        let Ok(minor) = amount::parse_padded(&text, s.currency) else {
            return Err(self.fail(call, code::MALFORMED, "transactionAmount is not a decimal amount"));
        };
        let game = b.id("gameId", 60).unwrap_or_else(|| CODE.to_string());
        let m = Money { tx: &tx, round: &round, game: &game, amount: minor };
        let r = if credit { ctx.win(CODE, &s, &m).await } else { ctx.bet(CODE, &s, &m).await }.map_err(|e| self.refuse(call, &e, false))?;
        let balance = ctx.answer_balance(&s, &r).await.map_err(|e| self.refuse(call, &e, false))?;
        let old = match (r.replayed, credit) {
            (true, _) => balance,
            (false, true) => balance - minor,
            (false, false) => balance + minor,
        };
        let data = Self::head(&s, balance)
            .num("oldBalance", &amount::format(old, s.currency))
            .str("transactionId", &r.ledger_tx_id.unwrap_or(0).to_string());
        Ok(self.ok(self.tail(call, &sid, data)))
    }

    async fn rollback(&self, ctx: &Ctx, call: &Call<'_>) -> Reply {
        let (s, sid) = self.session(ctx, call).await?;
        let b = &call.body;
        let Some(tx) = b.id("transactionId", MAX_ID) else {
            return Err(self.fail(call, code::MALFORMED, "transactionId is required"));
        };
        let round = b.id("gameCycle", MAX_ID).unwrap_or_default();
        let game = b.id("gameId", 60).unwrap_or_default();
        // The type named must be the transaction's, when it is known.
        if let Some(kind) = b.text("transactionType") {
            let wanted = match kind.as_str() {
                "debit" => "bet",
                "credit" => "win",
                _ => return Err(self.fail(call, code::MALFORMED, "transactionType is debit or credit")),
            };
            let found = ctx.lookup(CODE, &tx).await.map_err(|e| self.refuse(call, &e, false))?;
            if found.is_some_and(|t| !t.tombstone && t.user_id == Some(s.user_id) && t.metadata["kind"] != wanted) {
                return Err(self.fail(call, code::TRANSACTION_NOT_EXISTS, "no such transaction of that type"));
            }
        }
        let own = format!("rollback:{tx}");
        let r = ctx.rollback(CODE, &s, &own, &tx, &round, &game).await.map_err(|e| self.refuse(call, &e, false))?;
        let balance = ctx.balance(&s).await.map_err(|e| self.refuse(call, &e, false))?;
        let data = Self::head(&s, balance).str("transactionId", &r.ledger_tx_id.unwrap_or(0).to_string());
        Ok(self.ok(self.tail(call, &sid, data)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn md5_hex(s: &str) -> String {
        let mut m = Md5::new();
        m.update(s.as_bytes());
        hex::encode(m.finalize())
    }

    #[test]
    fn the_fingerprint_is_md5_of_the_values_in_order_and_the_key() {
        // Values: debit, tok, 10100, 7, TND, r1, t1, 1.50, bet, false, "" (fingerprint), k.
        let body = r#"{"action":"debit","sessionId":"tok","gameId":10100,"playerId":"7","currency":"TND","gameCycle":"r1","transactionId":"t1","transactionAmount":1.50,"transactionCategory":"bet","gameCycleClosed":false,"fingerprint":"FP"}"#;
        let expected = md5_hex("debittok101007TNDr1t11.50betfalsek3y");
        let (computed, sent) = fingerprints(body.as_bytes(), "k3y").unwrap();
        assert_eq!((computed.as_str(), sent.as_str()), (expected.as_str(), "FP"));
        let signed = body.replace("\"FP\"", &format!("\"{}\"", expected.to_uppercase()));
        assert!(verify(signed.as_bytes(), "k3y"), "case-insensitive");
        assert!(!verify(signed.as_bytes(), "other"));
        assert!(!verify(signed.as_bytes(), ""), "no key, no caller");
        // Spaces change nothing; a reformatted number or a reordered key does.
        let spaced = signed.replace(",", ",\n  ").replace(":", " : ");
        assert!(verify(spaced.as_bytes(), "k3y"));
        assert!(!verify(signed.replace("1.50", "1.5").as_bytes(), "k3y"));
        let reordered = signed.replace(r#""action":"debit","sessionId":"tok""#, r#""sessionId":"tok","action":"debit""#);
        assert!(!verify(reordered.as_bytes(), "k3y"));
        // The fingerprint's place does not matter (its value counts as empty wherever it is).
        let first = format!(r#"{{"fingerprint":"{expected}","action":"debit","sessionId":"tok","gameId":10100,"playerId":"7","currency":"TND","gameCycle":"r1","transactionId":"t1","transactionAmount":1.50,"transactionCategory":"bet","gameCycleClosed":false}}"#);
        assert!(verify(first.as_bytes(), "k3y"));
    }

    #[test]
    fn malformed_or_unsigned_bodies_never_verify() {
        for bad in ["", "{", "[]", r#"{"action":"debit"}"#, r#"{"fingerprint":"a","fingerprint":"a"}"#, r#"{"fingerprint":{"x":"y"}}"#, "\u{0}"] {
            assert!(!verify(bad.as_bytes(), "k"), "{bad:?}");
        }
        // A nested "fingerprint" is a value like any other, not the signature.
        let nested = format!(r#"{{"a":{{"fingerprint":"x"}},"fingerprint":"{}"}}"#, md5_hex("xk"));
        assert!(verify(nested.as_bytes(), "k"));
    }

    #[test]
    fn a_reply_is_signed_over_its_data_and_does_not_sign_a_request() {
        let data = Data::default().str("playerId", "7").str("currency", "TND").num("balance", "10.000").str("requestId", "rq");
        let out = reply(code::SUCCESS, "Success", data.signed("k"));
        let text = String::from_utf8(out.body).unwrap();
        let fp = md5_hex("7TND10.000rqk");
        assert_eq!(text, format!(r#"{{"status":true,"code":200,"message":"Success","data":{{"playerId":"7","currency":"TND","balance":10.000,"requestId":"rq","fingerprint":"{fp}"}}}}"#));
        // The reply's data verifies as a document; the same fingerprint on a credit does not.
        let data = Obj::parse(text.as_bytes()).unwrap().raw("data").unwrap();
        assert!(verify(data.as_bytes(), "k"));
        let credit = format!(r#"{{"action":"credit","sessionId":"tok","playerId":"7","currency":"TND","gameCycle":"r1","transactionId":"t9","transactionAmount":100,"transactionCategory":"win","requestId":"rq","fingerprint":"{fp}"}}"#);
        assert!(!verify(credit.as_bytes(), "k"));
    }

    #[test]
    fn every_wallet_refusal_has_a_code() {
        for e in kernel::ErrorCode::ALL {
            for session in [false, true] {
                let c = refusal(&AppError::new(*e), session);
                assert!((101..=118).contains(&c), "{e:?} → {c}");
            }
        }
        assert_eq!(refusal(&AppError::new(ErrorCode::TransactionMismatch), true), code::WRONG_PLAYER);
        assert_eq!(refusal(&AppError::new(ErrorCode::TransactionMismatch), false), code::TRANSACTION_NOT_EXISTS);
        assert_eq!(refusal(&AppError::internal("x"), false), code::INTERNAL_ERROR);
    }
}
