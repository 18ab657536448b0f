//! A SoftSwiss-style universal wallet (the aggregator's "GCP" seamless protocol;
//! docs/providers/softswiss.md).
//!
//! The aggregator POSTs JSON to `/api/providers/softswiss/play` and `/rollback`, signed in
//! `X-Request-Sign` = lower-hex HMAC-SHA256 of the **raw body** keyed with
//! `PROVIDER_SOFTSWISS_SECRET` (checked over the bytes received: a body re-serialised on
//! the way no longer matches).
//!
//! * `/play` `{user_id, currency, game, game_id, session_id, finished, actions: [{action:
//!   "bet"|"win", action_id, amount}]}`: the actions are applied **all or none**
//!   (`casino::ProviderWallet::all_or_none`), in order — a win after a bet of the same batch
//!   counts that bet. No actions: a balance request. Reply `{balance, game_id,
//!   transactions: [{action_id, tx_id, processed_at}]}`.
//! * `/rollback` `{…, actions: [{action: "rollback", action_id, original_action_id}]}`:
//!   each cancels `original_action_id` under its own `action_id`, all or none; an unknown
//!   original leaves a tombstone (no money moves; the late original is refused).
//! * `user_id` is our user id, `session_id` our game session token (the session must be the
//!   player's); without `session_id` the player's latest SoftSwiss session is used.
//!   `game_id` is the round; `game` the game.
//! * `action_id` is the ledger key `prov:softswiss:{action_id}`: a repeated action answers
//!   its first processing (same `tx_id` and `processed_at`) with the current balance; the
//!   same id with another amount, round or game refuses the whole batch.
//! * Amounts and balances are integers in the currency's subunits (our minor units).
//! * Errors: an HTTP status with `{code, message}` ([`code`]); the aggregator's published
//!   error table is not in our sources, so the table is our assumption (the doc lists it).

use crate::glue::secure_eq;
use crate::{Ctx, Inbound, JsonOut, Outbound, ProviderAdapter, ProviderSettings};
use async_trait::async_trait;
use casino::{GameSession, RollbackCall, WalletCall, WalletOp, WalletReply};
use hmac::{Hmac, Mac};
use kernel::{AppError, ErrorCode};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::Value;
use sha2::Sha256;

pub const CODE: &str = "softswiss";
/// The providers served through this dialect: the aggregator itself, and studios whose own
/// wallet protocol is not public and which an operator connects through such an aggregator
/// (TV betting `tvbet`, and `inbet`, whose game page loads the provider's script; docs/providers/softswiss.md).
/// Each keeps its own path (`/api/providers/tvbet/play`), secret and ledger keys.
pub const SPEAKERS: [&str; 3] = [CODE, "tvbet", "inbet"];

/// The code of `name` when it speaks this dialect.
pub fn speaker(name: &str) -> Option<&'static str> {
    SPEAKERS.iter().copied().find(|c| *c == name)
}
/// At most this many actions in one call.
pub const MAX_ACTIONS: usize = 100;

/// Error codes and their HTTP statuses (docs/providers/softswiss.md).
pub mod code {
    /// 412: the player has not enough funds (the reply carries the balance).
    pub const NOT_ENOUGH_FUNDS: (u16, i64) = (412, 100);
    /// 412: the player or the session is unknown, expired, or not this player's.
    pub const PLAYER_INVALID: (u16, i64) = (412, 101);
    /// 412: a limit of the player's (bonus max bet, balance ceiling).
    pub const PLAYER_LIMIT: (u16, i64) = (412, 105);
    /// 412: above the maximum for one transaction.
    pub const BET_LIMIT: (u16, i64) = (412, 106);
    /// 412: the player may not play (banned, self-excluded, cooling off, not a player).
    pub const PLAYER_DISABLED: (u16, i64) = (412, 110);
    /// 400: malformed, or refused by a wallet rule (the message says which).
    pub const BAD_REQUEST: (u16, i64) = (400, 400);
    /// 403: `X-Request-Sign` missing or wrong.
    pub const FORBIDDEN: (u16, i64) = (403, 403);
    /// 404: no such method.
    pub const NOT_FOUND: (u16, i64) = (404, 404);
    /// 500: our failure (the aggregator resends).
    pub const UNKNOWN: (u16, i64) = (500, 500);
}

pub struct SoftSwiss {
    code: &'static str,
    secret: String,
}

impl SoftSwiss {
    /// The adapter of `s.name` (one of [`SPEAKERS`]; another name is served as `softswiss`).
    pub fn new(s: &ProviderSettings) -> SoftSwiss {
        SoftSwiss { code: speaker(&s.name).unwrap_or(CODE), secret: s.secret.clone().unwrap_or_default() }
    }
}

/// `X-Request-Sign` of a body.
pub fn sign(secret: &str, body: &[u8]) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("HMAC takes any key length");
    mac.update(body);
    hex::encode(mac.finalize().into_bytes())
}

fn fail((status, code): (u16, i64), message: &str) -> Outbound {
    JsonOut::new().int("code", code).str("message", message).reply(status)
}

fn bad(message: &str) -> Outbound {
    fail(code::BAD_REQUEST, message)
}

/// Where a refusal came from: finding the session, or the wallet's money rules.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    Session,
    Wallet,
}

/// Our refusal in this dialect's codes.
fn refusal(e: &AppError, stage: Stage) -> Outbound {
    let c = match e.code {
        ErrorCode::InsufficientBalance | ErrorCode::InsufficientBonus | ErrorCode::FreeBetsEmpty => code::NOT_ENOUGH_FUNDS,
        ErrorCode::GameSessionInvalid | ErrorCode::NoSuchUser => code::PLAYER_INVALID,
        // The session's token used in another player's name.
        ErrorCode::TransactionMismatch if stage == Stage::Session => code::PLAYER_INVALID,
        ErrorCode::UserBanned | ErrorCode::BetsNotAllowed | ErrorCode::SelfExcluded | ErrorCode::CoolingOff => code::PLAYER_DISABLED,
        ErrorCode::BonusMaxBet | ErrorCode::BalanceLimit => code::PLAYER_LIMIT,
        ErrorCode::AmountTooLarge => code::BET_LIMIT,
        // A rollback naming another player's transaction or a rollback, a win without its
        // bet, a stake after its rollback, a reused action id, a wrong currency: final.
        ErrorCode::TransactionMismatch
        | ErrorCode::NotReversible
        | ErrorCode::RoundNotFound
        | ErrorCode::TransactionRolledBack
        | ErrorCode::IdempotencyConflict
        | ErrorCode::CurrencyMismatch
        | ErrorCode::InvalidBet
        | ErrorCode::BadRequest => code::BAD_REQUEST,
        _ if e.code.http_status() >= 500 => code::UNKNOWN,
        _ => code::BAD_REQUEST,
    };
    fail(c, &format!("{}: {}", e.code.name(), e.code.message()))
}

#[derive(Deserialize)]
struct Body {
    user_id: Option<Value>,
    currency: Option<Value>,
    game: Option<Value>,
    game_id: Option<Value>,
    session_id: Option<Value>,
    #[serde(default)]
    actions: Vec<Action>,
}

#[derive(Deserialize)]
struct Action {
    action: Option<Value>,
    action_id: Option<Value>,
    amount: Option<Box<RawValue>>,
    original_action_id: Option<Value>,
}

/// A JSON string (1 to 100 characters) or an integer, as an id.
fn id_text(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::String(s) if !s.is_empty() && s.len() <= 100 => Some(s.clone()),
        Value::Number(n) if n.is_u64() || n.is_i64() => Some(n.to_string()),
        _ => None,
    }
}

/// An amount in subunits: a JSON integer, 0 or more, within 64 bits.
fn subunits(raw: Option<&RawValue>) -> Option<i64> {
    let text = raw?.get().trim();
    if text.is_empty() || text.len() > 19 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// ISO 8601 UTC with milliseconds.
fn iso(ms: i64) -> String {
    let t = time::OffsetDateTime::from_unix_timestamp_nanos(ms as i128 * 1_000_000).unwrap_or(time::OffsetDateTime::UNIX_EPOCH);
    format!("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z", t.year(), u8::from(t.month()), t.day(), t.hour(), t.minute(), t.second(), t.millisecond())
}

#[async_trait]
impl ProviderAdapter for SoftSwiss {
    fn code(&self) -> &'static str {
        self.code
    }

    async fn callback(&self, ctx: &Ctx, req: Inbound<'_>) -> Outbound {
        let rollback = match req.path.trim_end_matches('/') {
            "play" => false,
            "rollback" => true,
            _ => return fail(code::NOT_FOUND, "unknown method"),
        };
        // The signature over the raw bytes first: nothing is read before.
        let sent = req.header("x-request-sign").unwrap_or("");
        if self.secret.is_empty() || !secure_eq(sent, &sign(&self.secret, req.body), true) {
            return fail(code::FORBIDDEN, "Forbidden: the request signature does not match");
        }
        let Ok(body) = serde_json::from_slice::<Body>(req.body) else {
            return bad("the body is not a JSON object of this method's fields");
        };
        self.call(ctx, &body, rollback).await.unwrap_or_else(|reply| reply)
    }
}

impl SoftSwiss {
    async fn session(&self, ctx: &Ctx, body: &Body) -> Result<GameSession, Outbound> {
        let user = id_text(body.user_id.as_ref()).ok_or_else(|| bad("user_id is required"))?;
        let s = match &body.session_id {
            None | Some(Value::Null) => ctx.player_session(self.code, &user).await,
            Some(Value::String(token)) => ctx.session_of(self.code, token, &user).await,
            Some(_) => return Err(bad("session_id must be a string")),
        }
        .map_err(|e| refusal(&e, Stage::Session))?;
        match &body.currency {
            Some(Value::String(c)) if c == s.currency.code() => Ok(s),
            Some(Value::String(_)) => Err(refusal(&AppError::new(ErrorCode::CurrencyMismatch), Stage::Wallet)),
            _ => Err(bad("currency is required")),
        }
    }

    /// The wallet operation of one action.
    fn op(action: &Action, rollback: bool, round: &str, game: &str, s: &GameSession) -> Result<WalletOp, Outbound> {
        let id = id_text(action.action_id.as_ref()).ok_or_else(|| bad("action_id is required (1 to 100 characters)"))?;
        let kind = match &action.action {
            Some(Value::String(k)) => k.as_str(),
            _ => return Err(bad("action is required")),
        };
        match (kind, rollback) {
            ("rollback", true) => {
                let of = id_text(action.original_action_id.as_ref()).ok_or_else(|| bad("original_action_id is required"))?;
                Ok(WalletOp::Rollback(RollbackCall { session_token: String::new(), transaction_id: id, reference_transaction_id: of, round_id: round.into(), game_id: game.into() }))
            }
            ("bet" | "win", false) => {
                let amount = subunits(action.amount.as_deref()).ok_or_else(|| bad("amount must be a non-negative integer of subunits"))?;
                let call = WalletCall { session_token: String::new(), transaction_id: id, round_id: round.into(), game_id: game.into(), amount, currency: s.currency.code().into() };
                Ok(if kind == "bet" { WalletOp::Bet(call) } else { WalletOp::Win(call) })
            }
            _ => Err(bad(if rollback { "a rollback's actions are rollbacks" } else { "a play's actions are bets and wins" })),
        }
    }

    async fn call(&self, ctx: &Ctx, body: &Body, rollback: bool) -> Result<Outbound, Outbound> {
        if body.actions.len() > MAX_ACTIONS {
            return Err(bad("too many actions"));
        }
        let game_id = match &body.game_id {
            Some(v @ (Value::String(_) | Value::Number(_))) if id_text(Some(v)).is_some() => Some(v.clone()),
            None | Some(Value::Null) if body.actions.is_empty() => None,
            _ => return Err(bad("game_id is required (1 to 100 characters)")),
        };
        let round = id_text(game_id.as_ref()).unwrap_or_default();
        let game = match &body.game {
            Some(Value::String(g)) if !g.is_empty() && g.len() <= 100 => g.clone(),
            None | Some(Value::Null) if body.actions.is_empty() => String::new(),
            _ => return Err(bad("game is required (1 to 100 characters)")),
        };
        let s = self.session(ctx, body).await?;
        let mut ops = Vec::with_capacity(body.actions.len());
        for action in &body.actions {
            ops.push((s.clone(), Self::op(action, rollback, &round, &game, &s)?));
        }
        let mut transactions = Vec::with_capacity(ops.len());
        let mut last: Option<WalletReply> = None;
        if !ops.is_empty() {
            let originals: Vec<Option<String>> = ops.iter().map(|(_, op)| if let WalletOp::Rollback(c) = op { Some(c.reference_transaction_id.clone()) } else { None }).collect();
            let replies = match ctx.casino.wallet().all_or_none(self.code, ops).await {
                Ok(replies) => replies,
                Err((_, e)) if e.code == ErrorCode::InsufficientBalance => {
                    // With the balance, so the game can show it.
                    let balance = ctx.balance(&s).await.map_err(|e| refusal(&e, Stage::Wallet))?;
                    let (status, c) = code::NOT_ENOUGH_FUNDS;
                    return Err(JsonOut::new().int("code", c).str("message", "Not enough funds.").int("balance", balance).reply(status));
                }
                Err((_, e)) => return Err(refusal(&e, Stage::Wallet)),
            };
            for (reply, original) in replies.iter().zip(originals) {
                transactions.push(self.transaction(ctx, reply, original.as_deref()).await?);
            }
            last = replies.into_iter().last();
        }
        // The balance after the batch; a batch replayed (wholly or partly) answers now's.
        let balance = match last {
            Some(r) if !r.replayed => r.balance,
            _ => ctx.balance(&s).await.map_err(|e| refusal(&e, Stage::Wallet))?,
        };
        let list = format!("[{}]", transactions.iter().map(JsonOut::text).collect::<Vec<_>>().join(","));
        let mut out = JsonOut::new().int("balance", balance);
        if let Some(g) = &game_id {
            out = out.value("game_id", g);
        }
        let list: Value = serde_json::from_str(&list).unwrap_or(Value::Array(Vec::new()));
        Ok(out.value("transactions", &list).reply(200))
    }

    /// One processed action: our transaction id and when it was first processed (a
    /// tombstone's, for a rollback of an unknown action).
    async fn transaction(&self, ctx: &Ctx, reply: &WalletReply, original: Option<&str>) -> Result<JsonOut, Outbound> {
        let own = reply.transaction_id.clone().unwrap_or_default();
        let mut found = ctx.lookup(self.code, &own).await.map_err(|e| refusal(&e, Stage::Wallet))?;
        if found.is_none() {
            if let Some(of) = original {
                found = ctx.lookup(self.code, of).await.map_err(|e| refusal(&e, Stage::Wallet))?;
            }
        }
        let tx_id = reply.ledger_tx_id.or(found.as_ref().map(|t| t.tx_id)).unwrap_or(0);
        let at = found.map(|t| t.created_at).unwrap_or_else(kernel::clock::now_ms);
        Ok(JsonOut::new().str("action_id", &own).str("tx_id", &tx_id.to_string()).str("processed_at", &iso(at)))
    }
}

/// What the adapters' database-backed tests share: a migrated SQLite database, a player with
/// a live game session of a provider and money, the ledger's verdict.
#[cfg(test)]
pub(crate) mod testkit {
    use crate::Ctx;
    use kernel::clock::now_ms;
    use kernel::Currency;
    use wallet::{AccountRef, BalanceKind, PostingRequest, TxType};

    pub struct Kit {
        t: store::testing::TestDb,
        pub db: store::Db,
        pub ctx: Ctx,
    }

    pub async fn kit() -> Kit {
        let (t, db) = store::testing::TestDb::migrated(store::Backend::Sqlite).await.expect("a test database");
        let ctx = Ctx { casino: casino::Casino::new(db.clone(), wallet::Ledger::new(db.clone())) };
        Kit { t, db, ctx }
    }

    impl Kit {
        /// A player signed in, credited with `credit` millimes, with a live session of
        /// `provider`: (user id, game session token).
        pub async fn player(&self, provider: &str, credit: i64) -> (i64, String) {
            let (id, sid, now) = (kernel::ids::next_id(), kernel::ids::next_id(), now_ms());
            store::sqlx::query("INSERT INTO users (id, email, password_hash, currency, registered_via, created_at, updated_at) VALUES ($1, $2, 'x', 'TND', 'email', $3, $3)")
                .bind(id)
                .bind(format!("{id}@example.com"))
                .bind(now)
                .execute(self.db.writer())
                .await
                .expect("a user");
            store::sqlx::query("INSERT INTO sessions (id, token_hash, user_id, created_at, last_seen_at, idle_expires_at, absolute_expires_at) VALUES ($1, $2, $3, $4, $4, $5, $5)")
                .bind(sid)
                .bind(format!("h{sid}"))
                .bind(id)
                .bind(now)
                .bind(now + 3_600_000)
                .execute(self.db.writer())
                .await
                .expect("a player session");
            let new = casino::sessions::NewSession { user_id: id, player_session_id: Some(sid), provider, game_id: "g1", currency: Currency::Tnd, lang: "en", platform: "mobile" };
            let token = self.ctx.casino.sessions().create(new).await.expect("a game session");
            let credit = PostingRequest::transfer(
                TxType::ManualAdjustment,
                format!("test-credit:{id}"),
                Some(id),
                Currency::Tnd,
                AccountRef::House(BalanceKind::Real.funding_house()),
                AccountRef::Player { user_id: id, kind: BalanceKind::Real },
                credit,
            );
            self.ctx.casino.wallet().ledger().post(credit).await.expect("a credit");
            (id, token)
        }

        pub async fn balance(&self, user: i64) -> i64 {
            self.ctx.casino.wallet().ledger().balance(user, BalanceKind::Real, Currency::Tnd).await.expect("a balance")
        }

        /// Ledger rows under a provider's key.
        pub async fn rows(&self, provider: &str, tx: &str) -> usize {
            usize::from(self.ctx.casino.wallet().ledger().lookup(&casino::wallet::ledger_key(provider, tx)).await.expect("a lookup").is_some())
        }

        /// `ledger verify` is green; then the database is dropped.
        pub async fn done(self) {
            let r = self.ctx.casino.wallet().ledger().verify().await.expect("verify");
            assert!(r.balance_mismatches.is_empty() && r.unbalanced_transactions.is_empty() && r.negative_balances.is_empty(), "{r:?}");
            self.db.close().await;
            self.t.cleanup().await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn post(a: &SoftSwiss, ctx: &Ctx, path: &str, body: &str) -> (u16, Value) {
        let mut headers = axum::http::HeaderMap::new();
        headers.insert("x-request-sign", sign("secret", body.as_bytes()).parse().unwrap());
        let out = a.callback(ctx, Inbound { path, query: "", headers: &headers, body: body.as_bytes() }).await;
        (out.status, serde_json::from_slice(&out.body).unwrap())
    }

    /// Batches against a real wallet: all or none, replays, rollbacks with tombstones.
    #[tokio::test]
    async fn batches_are_all_or_none() {
        let k = testkit::kit().await;
        let a = SoftSwiss::new(&ProviderSettings::local(CODE, "secret", "http://x"));
        let (p, token) = k.player(CODE, 10_000).await;
        let (q, _) = k.player(CODE, 10_000).await;
        let head = |round: &str| format!(r#""user_id":"{p}","currency":"TND","game":"g1","game_id":"{round}","session_id":"{token}""#);
        // A bet and its win in one call.
        let play = format!(r#"{{{},"finished":true,"actions":[{{"action":"bet","action_id":"b1","amount":1000}},{{"action":"win","action_id":"w1","amount":3000}}]}}"#, head("r1"));
        let (status, first) = post(&a, &k.ctx, "play", &play).await;
        assert_eq!((status, first["balance"].as_i64(), first["game_id"].as_str()), (200, Some(12_000), Some("r1")), "{first}");
        assert_eq!(first["transactions"].as_array().unwrap().len(), 2);
        // Replayed: the same transactions, nothing moves.
        let (status, again) = post(&a, &k.ctx, "play", &play).await;
        assert_eq!((status, &again["transactions"], again["balance"].as_i64()), (200, &first["transactions"], Some(12_000)));
        // A second bet the balance cannot cover refuses the whole batch: the first moves nothing.
        let over = format!(r#"{{{},"actions":[{{"action":"bet","action_id":"b2","amount":500}},{{"action":"bet","action_id":"b3","amount":20000}}]}}"#, head("r2"));
        let (status, refused) = post(&a, &k.ctx, "play", &over).await;
        assert_eq!((status, refused["code"].as_i64(), refused["balance"].as_i64()), (412, Some(100), Some(12_000)), "{refused}");
        assert_eq!((k.balance(p).await, k.rows(CODE, "b2").await), (12_000, 0));
        // A win before its bet in the same batch: refused, nothing moves.
        let early = format!(r#"{{{},"actions":[{{"action":"win","action_id":"w3","amount":500}},{{"action":"bet","action_id":"b4","amount":100}}]}}"#, head("r3"));
        assert_eq!(post(&a, &k.ctx, "play", &early).await.0, 400);
        assert_eq!((k.balance(p).await, k.rows(CODE, "b4").await), (12_000, 0));
        // Rollbacks: the bet, and an action never seen (a tombstone), together.
        let rb = format!(r#"{{{},"actions":[{{"action":"rollback","action_id":"x1","original_action_id":"b1"}},{{"action":"rollback","action_id":"x2","original_action_id":"never"}}]}}"#, head("r1"));
        let (status, rolled) = post(&a, &k.ctx, "rollback", &rb).await;
        assert_eq!((status, rolled["balance"].as_i64()), (200, Some(13_000)), "{rolled}");
        assert!(rolled["transactions"].as_array().unwrap().iter().all(|t| t["tx_id"].as_str().unwrap() != "0"), "{rolled}");
        let late = format!(r#"{{{},"actions":[{{"action":"bet","action_id":"never","amount":100}}]}}"#, head("r4"));
        assert_eq!(post(&a, &k.ctx, "play", &late).await.0, 400);
        // Another player's id with this session: refused.
        let theirs = play.replace(&format!(r#""user_id":"{p}""#), &format!(r#""user_id":"{q}""#));
        assert_eq!(post(&a, &k.ctx, "play", &theirs).await.1["code"].as_i64(), Some(101));
        // A balance request.
        let (status, bal) = post(&a, &k.ctx, "play", &format!(r#"{{"user_id":{p},"currency":"TND","session_id":"{token}","actions":[]}}"#)).await;
        assert_eq!((status, bal["balance"].as_i64()), (200, Some(13_000)));
        assert_eq!((k.balance(p).await, k.balance(q).await), (13_000, 10_000));
        k.done().await;
    }

    /// Through `callback`: every malformed or forged call gets a 4xx `{code, message}`,
    /// never a panic or a 5xx (an empty database: no session exists).
    #[tokio::test]
    async fn callbacks_never_fail_outside_the_dialect() {
        let (t, db) = store::testing::TestDb::migrated(store::Backend::Sqlite).await.unwrap();
        let ctx = Ctx { casino: casino::Casino::new(db.clone(), wallet::Ledger::new(db.clone())) };
        let a = SoftSwiss::new(&ProviderSettings::local(CODE, "secret", "http://x"));
        let many: Vec<String> = (0..101).map(|i| format!(r#"{{"action":"bet","action_id":"a{i}","amount":1}}"#)).collect();
        let many = format!(r#"{{"user_id":"1","currency":"TND","game":"g","game_id":"r","actions":[{}]}}"#, many.join(","));
        let base = r#""user_id":"1","currency":"TND","session_id":"nope""#;
        let cases: Vec<(&str, String, bool, (u16, i64))> = vec![
            ("play", "{}".into(), false, code::FORBIDDEN),
            ("nothing", "{}".into(), true, code::NOT_FOUND),
            ("play", "".into(), true, code::BAD_REQUEST),
            ("play", "[1,2]".into(), true, code::BAD_REQUEST),
            ("play", r#"{"actions":"bet"}"#.into(), true, code::BAD_REQUEST),
            ("play", r#"{"actions":[{"action":"bet","amount":{"x":1}}]}"#.into(), true, code::BAD_REQUEST),
            ("play", many, true, code::BAD_REQUEST),
            ("play", format!(r#"{{{base},"game":"g","actions":[{{"action":"bet","action_id":"a","amount":1}}]}}"#), true, code::BAD_REQUEST),
            ("play", format!(r#"{{{base},"game":"g","game_id":{{}},"actions":[]}}"#), true, code::BAD_REQUEST),
            ("play", format!(r#"{{{base},"actions":[]}}"#), true, code::PLAYER_INVALID),
            ("play", r#"{"user_id":"abc","currency":"TND","actions":[]}"#.into(), true, code::PLAYER_INVALID),
            ("play", r#"{"user_id":[],"currency":"TND","actions":[]}"#.into(), true, code::BAD_REQUEST),
            ("rollback", format!(r#"{{{base},"game":"g","game_id":"r","actions":[{{"action":"rollback","action_id":"a","original_action_id":"b"}}]}}"#), true, code::PLAYER_INVALID),
        ];
        for (path, body, signed, want) in cases {
            let mut headers = axum::http::HeaderMap::new();
            if signed {
                headers.insert("x-request-sign", sign("secret", body.as_bytes()).parse().unwrap());
            }
            let out = a.callback(&ctx, Inbound { path, query: "", headers: &headers, body: body.as_bytes() }).await;
            let v: Value = serde_json::from_slice(&out.body).unwrap();
            assert_eq!((out.status, v["code"].as_i64()), (want.0, Some(want.1)), "{path} {body}: {v}");
        }
        db.close().await;
        t.cleanup().await;
    }

    #[test]
    fn the_signature_is_hmac_sha256_of_the_raw_body() {
        // By hand: python3 -c 'import hmac,hashlib;print(hmac.new(b"secret",b"{\"a\":1}",hashlib.sha256).hexdigest())'
        assert_eq!(sign("secret", br#"{"a":1}"#), "aa9e2e3575f5d7098b6caccd790888c36d5fdb63342a73bada2d6a51747a8494");
        assert_ne!(sign("secret", br#"{ "a": 1 }"#), sign("secret", br#"{"a":1}"#));
    }

    #[test]
    fn every_refusal_has_a_code_and_only_our_failures_are_5xx() {
        for c in ErrorCode::ALL {
            for stage in [Stage::Session, Stage::Wallet] {
                let out = refusal(&AppError::new(*c), stage);
                let v: Value = serde_json::from_slice(&out.body).unwrap();
                assert!(v["code"].is_i64() && v["message"].as_str().unwrap().starts_with(c.name()), "{c:?}");
                assert_eq!(out.status >= 500, c.http_status() >= 500, "{c:?}");
            }
        }
        assert_eq!(refusal(&AppError::new(ErrorCode::InsufficientBalance), Stage::Wallet).status, 412);
        assert_eq!(refusal(&AppError::new(ErrorCode::TransactionMismatch), Stage::Session).body, fail(code::PLAYER_INVALID, "TransactionMismatch: The referenced transaction does not match this player or round.").body);
    }

    #[test]
    fn amounts_are_integer_subunits() {
        let raw = |s: &str| RawValue::from_string(s.to_string()).unwrap();
        assert_eq!(subunits(Some(&raw("1500"))), Some(1_500));
        assert_eq!(subunits(Some(&raw("0"))), Some(0));
        for bad in ["-1", "1.5", "\"15\"", "1e3", "99999999999999999999", "9223372036854775808", "null", "[1]"] {
            assert_eq!(subunits(Some(&raw(bad))), None, "{bad}");
        }
        assert_eq!(subunits(None), None);
    }

    #[test]
    fn processed_at_is_iso_utc() {
        assert_eq!(iso(1_700_000_000_123), "2023-11-14T22:13:20.123Z");
        assert_eq!(iso(0), "1970-01-01T00:00:00.000Z");
    }

    #[test]
    fn malformed_bodies_are_400_never_a_panic() {
        for body in [&b""[..], b"[]", b"{", br#"{"actions":{}}"#, br#"{"actions":[1]}"#, br#"{"actions":[{"amount":"x"}], "user_id": {}}"#] {
            // Either not a Body, or one whose fields are then refused.
            if let Ok(b) = serde_json::from_slice::<Body>(body) {
                assert!(id_text(b.user_id.as_ref()).is_none());
            }
        }
        let b: Body = serde_json::from_slice(br#"{"user_id":7,"currency":"TND","game":"g","game_id":12,"actions":[{"action":"bet","action_id":"a1","amount":1500}],"extra":true}"#).unwrap();
        assert_eq!(id_text(b.user_id.as_ref()).as_deref(), Some("7"));
        assert_eq!(id_text(b.game_id.as_ref()).as_deref(), Some("12"));
        assert_eq!(subunits(b.actions[0].amount.as_deref()), Some(1_500));
        let out = fail(code::NOT_ENOUGH_FUNDS, "x");
        assert_eq!((out.status, String::from_utf8(out.body).unwrap()), (412, r#"{"code":100,"message":"x"}"#.to_string()));
    }
}
