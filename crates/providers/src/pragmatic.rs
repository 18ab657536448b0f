//! Pragmatic Play seamless wallet ("Casino integration API", PROTOCOLS.md §1).
//!
//! Pragmatic POSTs `application/x-www-form-urlencoded` to `{base}/<method>.html` — served at
//! `/api/providers/pragmatic/<method>.html` — and reads JSON, always HTTP 200, with `error`
//! (0 = success) and `description`.
//!
//! * **hash** = lower-hex md5 of the received parameters except `hash`, sorted by name,
//!   `k=v` joined by `&`, followed by the secret key (`PROVIDER_PRAGMATIC_SECRET`). Computed
//!   over the parameters as received (decoded), so a field Pragmatic adds later is covered
//!   without a code change. Empty values are left out of the string (as bingo789's and a
//!   PHP client's readings do; docs/PROVIDERS.md records the assumption).
//! * **userId** is our player id (answered by `authenticate`); money calls carry no token,
//!   so they act on the player's latest Pragmatic session; a token, when sent, must be that
//!   player's.
//! * **reference** is the transaction id (ledger key `prov:pragmatic:{reference}`): a
//!   repeated reference answers the first transaction with the **current** balance; the same
//!   reference with another amount, round or game is refused (7).
//! * **refund** cancels the bet `reference` under the id `refund:{reference}`: an unknown
//!   bet succeeds and moves nothing (a tombstone: the bet arriving later is refused with
//!   120, final); a second refund answers the first.
//! * **result** / **jackpotWin** credit a round holding the player's bet; before the bet
//!   arrives they get 100 (Pragmatic retries). **bonusWin** is informational (the free-round
//!   total: spins' wins came through `result`) and moves nothing. **promoWin** is a campaign
//!   prize outside any round (`promo:{campaignId}`). **adjustment** (live re-settlement) is a
//!   credit, or a debit when negative, in the round. **endRound** confirms the round.
//! * Amounts are decimal major units; answers carry the currency's decimals (TND: 3).

use crate::amount;
use crate::glue::{form_params, secure_eq, Money};
use crate::{Ctx, Inbound, JsonOut, Outbound, ProviderAdapter, ProviderSettings};
use async_trait::async_trait;
use casino::GameSession;
use kernel::{AppError, ErrorCode};
use md5::{Digest, Md5};

pub const CODE: &str = "pragmatic";

/// Pragmatic's published error codes.
pub mod code {
    pub const SUCCESS: i64 = 0;
    pub const INSUFFICIENT: i64 = 1;
    pub const PLAYER_NOT_FOUND: i64 = 2;
    pub const BET_NOT_ALLOWED: i64 = 3;
    pub const AUTH_FAILED: i64 = 4;
    pub const INVALID_HASH: i64 = 5;
    pub const FROZEN: i64 = 6;
    pub const BAD_PARAMETERS: i64 = 7;
    pub const GAME_NOT_FOUND: i64 = 8;
    pub const BET_LIMIT: i64 = 50;
    pub const RETRY: i64 = 100;
    pub const FINAL: i64 = 120;
    pub const OUT_OF_LIMITS: i64 = 310;
}

pub struct Pragmatic {
    secret: String,
}

impl Pragmatic {
    pub fn new(s: &ProviderSettings) -> Pragmatic {
        Pragmatic { secret: s.secret.clone().unwrap_or_default() }
    }
}

/// The hash of a parameter list (every parameter but `hash`; empty values left out).
pub fn hash(params: &[(String, String)], secret: &str) -> String {
    let mut kv: Vec<(&str, &str)> = params.iter().filter(|(k, v)| k != "hash" && !v.is_empty()).map(|(k, v)| (k.as_str(), v.as_str())).collect();
    kv.sort();
    let joined: Vec<String> = kv.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let mut md5 = Md5::new();
    md5.update(joined.join("&").as_bytes());
    md5.update(secret.as_bytes());
    hex::encode(md5.finalize())
}

fn fail(error: i64, description: &str) -> Outbound {
    JsonOut::new().int("error", error).str("description", description).reply(200)
}

/// Our refusal in Pragmatic's codes.
fn refusal(e: &AppError) -> Outbound {
    let error = match e.code {
        ErrorCode::InsufficientBalance => code::INSUFFICIENT,
        ErrorCode::GameSessionInvalid => code::AUTH_FAILED,
        ErrorCode::NoSuchUser | ErrorCode::TransactionMismatch => code::PLAYER_NOT_FOUND,
        ErrorCode::UserBanned => code::FROZEN,
        ErrorCode::BetsNotAllowed | ErrorCode::SelfExcluded | ErrorCode::CoolingOff => code::BET_NOT_ALLOWED,
        ErrorCode::AmountTooLarge | ErrorCode::BonusMaxBet | ErrorCode::BalanceLimit => code::OUT_OF_LIMITS,
        // A result before its bet: the bet may still come (Pragmatic retries).
        ErrorCode::RoundNotFound => code::RETRY,
        // A bet after its refund, a win on a cancelled bet: final.
        ErrorCode::TransactionRolledBack => code::FINAL,
        ErrorCode::GameNotFound => code::GAME_NOT_FOUND,
        ErrorCode::IdempotencyConflict | ErrorCode::NotReversible | ErrorCode::CurrencyMismatch | ErrorCode::InvalidBet | ErrorCode::BadRequest => {
            code::BAD_PARAMETERS
        }
        _ if e.code.http_status() >= 500 => code::RETRY,
        _ => code::BAD_PARAMETERS,
    };
    fail(error, e.code.message())
}

struct Params(Vec<(String, String)>);

impl Params {
    fn get(&self, k: &str) -> Option<&str> {
        self.0.iter().find(|(name, _)| name == k).map(|(_, v)| v.as_str()).filter(|v| !v.is_empty())
    }
    fn need(&self, k: &str) -> Result<&str, Outbound> {
        self.get(k).filter(|v| v.len() <= 200).ok_or_else(|| fail(code::BAD_PARAMETERS, &format!("{k} is required")))
    }
}

#[async_trait]
impl ProviderAdapter for Pragmatic {
    fn code(&self) -> &'static str {
        CODE
    }

    async fn callback(&self, ctx: &Ctx, req: Inbound<'_>) -> Outbound {
        let Some(method) = req.path.strip_suffix(".html") else {
            return JsonOut::new().int("error", code::BAD_PARAMETERS).str("description", "unknown method").reply(404);
        };
        let Some(params) = form_params(req.body) else {
            return fail(code::BAD_PARAMETERS, "the body is not a form");
        };
        let p = Params(params);
        // The hash first: nothing is read before the caller is known.
        let expected = hash(&p.0, &self.secret);
        if self.secret.is_empty() || !p.get("hash").is_some_and(|h| secure_eq(h, &expected, true)) {
            return fail(code::INVALID_HASH, "Invalid hash code");
        }
        let out = match method {
            "authenticate" => self.authenticate(ctx, &p).await,
            "balance" | "endRound" => self.balance(ctx, &p).await,
            "bet" => self.money(ctx, &p, Kind::Bet).await,
            "result" | "jackpotWin" => self.money(ctx, &p, Kind::Win).await,
            "promoWin" => self.money(ctx, &p, Kind::Promo).await,
            "adjustment" => self.money(ctx, &p, Kind::Adjustment).await,
            "bonusWin" => self.balance_with_tx(ctx, &p).await,
            "refund" => self.refund(ctx, &p).await,
            "getBalancePerGame" => self.per_game(ctx, &p).await,
            _ => Err(JsonOut::new().int("error", code::BAD_PARAMETERS).str("description", "unknown method").reply(404)),
        };
        out.unwrap_or_else(|reply| reply)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Bet,
    Win,
    Promo,
    Adjustment,
}

fn success(s: &GameSession, balance: i64) -> JsonOut {
    JsonOut::new()
        .str("currency", s.currency.code())
        .num("cash", &amount::format(balance, s.currency))
        .num("bonus", &amount::format(0, s.currency))
}

fn done(j: JsonOut) -> Result<Outbound, Outbound> {
    Ok(j.int("error", code::SUCCESS).str("description", "Success").reply(200))
}

impl Pragmatic {
    /// The player's session: the token's (which must be the named player's) or, for calls
    /// that carry no token, the player's latest Pragmatic session.
    async fn session(&self, ctx: &Ctx, p: &Params) -> Result<GameSession, Outbound> {
        let user = p.need("userId")?;
        let s = match p.get("token") {
            Some(token) => ctx.session_of(CODE, token, user).await,
            None => ctx.player_session(CODE, user).await,
        };
        s.map_err(|e| refusal(&e))
    }

    async fn authenticate(&self, ctx: &Ctx, p: &Params) -> Result<Outbound, Outbound> {
        let token = p.need("token")?;
        let s = ctx.live_session(CODE, token).await.map_err(|e| refusal(&e))?;
        let balance = ctx.balance(&s).await.map_err(|e| refusal(&e))?;
        done(
            JsonOut::new()
                .str("userId", &s.user_id.to_string())
                .str("currency", s.currency.code())
                .num("cash", &amount::format(balance, s.currency))
                .num("bonus", &amount::format(0, s.currency))
                .str("token", token)
                .str("country", "TN"),
        )
    }

    async fn balance(&self, ctx: &Ctx, p: &Params) -> Result<Outbound, Outbound> {
        let s = self.session(ctx, p).await?;
        let balance = ctx.balance(&s).await.map_err(|e| refusal(&e))?;
        done(success(&s, balance))
    }

    /// `bonusWin`: informational, answered with the balance and no transaction.
    async fn balance_with_tx(&self, ctx: &Ctx, p: &Params) -> Result<Outbound, Outbound> {
        p.need("reference")?;
        let s = self.session(ctx, p).await?;
        let balance = ctx.balance(&s).await.map_err(|e| refusal(&e))?;
        done(JsonOut::new().str("transactionId", "0").str("currency", s.currency.code()).num("cash", &amount::format(balance, s.currency)).num("bonus", &amount::format(0, s.currency)))
    }

    async fn per_game(&self, ctx: &Ctx, p: &Params) -> Result<Outbound, Outbound> {
        let s = self.session(ctx, p).await?;
        let balance = ctx.balance(&s).await.map_err(|e| refusal(&e))?;
        let cash = amount::format(balance, s.currency);
        let games: Vec<String> = p
            .need("gameIdList")?
            .split(',')
            .map(str::trim)
            .filter(|g| !g.is_empty())
            .take(100)
            .map(|g| JsonOut::new().str("gameID", g).num("cash", &cash).num("bonus", &amount::format(0, s.currency)).text())
            .collect();
        let list = format!("[{}]", games.join(","));
        let value: serde_json::Value = serde_json::from_str(&list).unwrap_or_default();
        done(JsonOut::new().value("gamesBalances", &value))
    }

    async fn money(&self, ctx: &Ctx, p: &Params, kind: Kind) -> Result<Outbound, Outbound> {
        let reference = p.need("reference")?;
        let text = p.need("amount")?;
        let s = self.session(ctx, p).await?;
        let (negative, digits) = match text.strip_prefix('-') {
            Some(d) if kind == Kind::Adjustment => (true, d),
            _ => (false, text),
        };
        let minor = amount::parse_padded(digits, s.currency).map_err(|_| fail(code::BAD_PARAMETERS, "amount is not a decimal amount"))?;
        let campaign;
        let (round, game) = match kind {
            Kind::Promo => {
                campaign = format!("promo:{}", p.need("campaignId")?);
                (campaign.as_str(), p.get("gameId").unwrap_or("promo"))
            }
            _ => (p.need("roundId")?, p.need("gameId")?),
        };
        if let Some(currency) = p.get("currency") {
            if currency != s.currency.code() {
                return Err(refusal(&AppError::new(ErrorCode::CurrencyMismatch)));
            }
        }
        let m = Money { tx: reference, round, game, amount: minor };
        let reply = match kind {
            Kind::Bet => ctx.bet(CODE, &s, &m).await,
            Kind::Win => ctx.win(CODE, &s, &m).await,
            Kind::Promo => ctx.award(CODE, &s, &m).await,
            Kind::Adjustment if negative => ctx.bet(CODE, &s, &m).await,
            Kind::Adjustment => ctx.win(CODE, &s, &m).await,
        }
        .map_err(|e| refusal(&e))?;
        let balance = ctx.answer_balance(&s, &reply).await.map_err(|e| refusal(&e))?;
        let j = success(&s, balance).str("transactionId", &reply.ledger_tx_id.unwrap_or(0).to_string());
        let j = if kind == Kind::Bet { j.num("usedPromo", "0") } else { j };
        done(j)
    }

    async fn refund(&self, ctx: &Ctx, p: &Params) -> Result<Outbound, Outbound> {
        let reference = p.need("reference")?;
        let s = self.session(ctx, p).await?;
        let own = format!("refund:{reference}");
        let reply = ctx
            .rollback(CODE, &s, &own, reference, p.get("roundId").unwrap_or(""), p.get("gameId").unwrap_or(""))
            .await
            .map_err(|e| refusal(&e))?;
        done(JsonOut::new().str("transactionId", &reply.ledger_tx_id.unwrap_or(0).to_string()))
    }
}

/// Signs a parameter list as Pragmatic does (the fake's side).
pub fn sign(params: &mut Vec<(String, String)>, secret: &str) {
    params.retain(|(k, _)| k != "hash");
    let h = hash(params, secret);
    params.push(("hash".into(), h));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn hash_is_md5_of_the_sorted_pairs_and_the_secret() {
        // md5("amount=5.0&providerId=PragmaticPlay&reference=r1&userId=7" + "s3cr3t")
        let p = pairs(&[("userId", "7"), ("reference", "r1"), ("amount", "5.0"), ("providerId", "PragmaticPlay"), ("hash", "x"), ("bonusCode", "")]);
        let mut md5 = Md5::new();
        md5.update(b"amount=5.0&providerId=PragmaticPlay&reference=r1&userId=7s3cr3t");
        assert_eq!(hash(&p, "s3cr3t"), hex::encode(md5.finalize()));
        // Order sent does not matter; a changed value does.
        let mut q = p.clone();
        q.reverse();
        assert_eq!(hash(&p, "s3cr3t"), hash(&q, "s3cr3t"));
        q[0].1 = "8".into();
        let changed = pairs(&[("userId", "8"), ("reference", "r1"), ("amount", "5.0"), ("providerId", "PragmaticPlay")]);
        assert_ne!(hash(&p, "s3cr3t"), hash(&changed, "s3cr3t"));
    }

    #[test]
    fn sign_replaces_any_hash() {
        let mut p = pairs(&[("a", "1"), ("hash", "old")]);
        sign(&mut p, "k");
        assert_eq!(p.iter().filter(|(k, _)| k == "hash").count(), 1);
        assert_eq!(p.last().unwrap().1, hash(&p, "k"));
    }
}
