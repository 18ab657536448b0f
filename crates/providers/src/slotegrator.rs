//! Slotegrator GIS ("SlotsIntegrator") seamless wallet (PROTOCOLS.md §4, docs/providers/slotegrator.md).
//!
//! Slotegrator POSTs `application/x-www-form-urlencoded` to the one callback URL the
//! operator registered — served at `/api/providers/slotegrator/` under any path — with
//! `action=balance|bet|win|refund|rollback`, and reads JSON: `{balance, transaction_id}`, or
//! `{error_code, error_description}` (HTTP 200 either way).
//!
//! * **Signature**: headers `X-Merchant-Id` (= `PROVIDER_SLOTEGRATOR_MERCHANT_ID`; demo:
//!   [`DEMO_MERCHANT_ID`]), `X-Timestamp` (unix seconds, refused outside ±[`MAX_SKEW_S`]),
//!   `X-Nonce` and `X-Sign` = lower-hex HMAC-SHA1, keyed with the merchant key
//!   (`PROVIDER_SLOTEGRATOR_SECRET`), of PHP's `http_build_query(ksort(headers ∪ params))`:
//!   the three headers and every posted parameter as received (decoded, then encoded the
//!   way PHP's `urlencode` does), sorted by name. A nested parameter
//!   (`rollback_transactions[0][action]`) sorts under its top-level name and keeps its place
//!   among its siblings, as `ksort` of the PHP array would.
//! * **session_id** is our game session token; **player_id** our user id, which must be the
//!   session's (72 otherwise). A call without `session_id` (balance, free-spin wins) acts on
//!   the player's latest Slotegrator session.
//! * **transaction_id** is the ledger key `prov:slotegrator:{transaction_id}`: a replay
//!   answers the stored result (its balance then, our transaction id); the same id with
//!   another amount, round or game is refused. The reply's `transaction_id` is our ledger
//!   transaction id.
//! * **refund** cancels `bet_transaction_id` under its own `transaction_id`: an unknown bet
//!   succeeds and moves nothing (a tombstone refuses the late bet). **rollback** cancels every
//!   `rollback_transactions[i][transaction_id]` all-or-none, each under
//!   `{transaction_id}:{its transaction_id}`.
//! * **round_id** is the round; when Slotegrator sends none (older integrations), the round is
//!   `{session_id}:{game_uuid}` (a win then needs a bet of the player in that game session).
//! * Amounts are decimal major units; answers carry the currency's decimals.

use crate::amount;
use crate::glue::{form_encode, form_params, secure_eq, Money};
use crate::{Ctx, Inbound, JsonOut, Outbound, ProviderAdapter, ProviderSettings};
use async_trait::async_trait;
use casino::{GameSession, RollbackCall, WalletOp, WalletReply};
use hmac::{Hmac, Mac};
use kernel::{AppError, ErrorCode};
use sha1::Sha1;

pub const CODE: &str = "slotegrator";
/// The merchant id of demo mode (our local fake sends it).
pub const DEMO_MERCHANT_ID: &str = "demo-merchant";
/// How far `X-Timestamp` may be from our clock, in seconds.
pub const MAX_SKEW_S: i64 = 300;

/// Slotegrator's documented error codes: the two it knows. Every other refusal is
/// `INTERNAL_ERROR` with our reason in `error_description` (docs/providers/slotegrator.md).
pub mod code {
    pub const INSUFFICIENT_FUNDS: &str = "INSUFFICIENT_FUNDS";
    pub const INTERNAL_ERROR: &str = "INTERNAL_ERROR";
}

pub struct Slotegrator {
    secret: String,
    merchant_id: Option<String>,
}

impl Slotegrator {
    pub fn new(s: &ProviderSettings) -> Slotegrator {
        let merchant_id = s.value("merchant_id").map(String::from).or_else(|| s.demo.then(|| DEMO_MERCHANT_ID.to_string()));
        Slotegrator { secret: s.secret.clone().unwrap_or_default(), merchant_id }
    }
}

/// The top-level name of a form key: `a` of `a[0][b]`.
fn top_name(k: &str) -> &str {
    k.split('[').next().unwrap_or(k)
}

/// The string Slotegrator signs: the headers and the parameters, sorted by top-level name
/// (stable), `urlencode(k)=urlencode(v)` joined by `&`.
pub fn signed_string(merchant: &str, timestamp: &str, nonce: &str, params: &[(String, String)]) -> String {
    let headers = [("X-Merchant-Id", merchant), ("X-Nonce", nonce), ("X-Timestamp", timestamp)];
    let mut all: Vec<(&str, &str)> = headers.to_vec();
    all.extend(params.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    all.sort_by(|a, b| top_name(a.0).cmp(top_name(b.0)));
    all.iter().map(|(k, v)| format!("{}={}", form_encode(k), form_encode(v))).collect::<Vec<_>>().join("&")
}

/// `X-Sign`: lower-hex HMAC-SHA1 of [`signed_string`] keyed with the merchant key.
pub fn sign(key: &str, merchant: &str, timestamp: &str, nonce: &str, params: &[(String, String)]) -> String {
    let mut mac = Hmac::<Sha1>::new_from_slice(key.as_bytes()).expect("HMAC takes any key length");
    mac.update(signed_string(merchant, timestamp, nonce, params).as_bytes());
    hex::encode(mac.finalize().into_bytes())
}

fn fail(error_code: &str, description: &str) -> Outbound {
    JsonOut::new().str("error_code", error_code).str("error_description", description).reply(200)
}

/// Our refusal in Slotegrator's codes: only insufficient funds has its own; the rest is
/// `INTERNAL_ERROR` with our reason (its code name and text).
fn refusal(e: &AppError) -> Outbound {
    let error_code = match e.code {
        ErrorCode::InsufficientBalance | ErrorCode::InsufficientBonus | ErrorCode::FreeBetsEmpty => code::INSUFFICIENT_FUNDS,
        _ => code::INTERNAL_ERROR,
    };
    fail(error_code, &format!("{}: {}", e.code.name(), e.code.message()))
}

fn bad(description: &str) -> Outbound {
    fail(code::INTERNAL_ERROR, description)
}

struct Params(Vec<(String, String)>);

impl Params {
    fn get(&self, k: &str) -> Option<&str> {
        self.0.iter().find(|(name, _)| name == k).map(|(_, v)| v.as_str()).filter(|v| !v.is_empty())
    }
    fn need(&self, k: &str) -> Result<&str, Outbound> {
        self.get(k).filter(|v| v.len() <= 100).ok_or_else(|| bad(&format!("BadRequest: {k} is required (at most 100 characters)")))
    }
}

#[async_trait]
impl ProviderAdapter for Slotegrator {
    fn code(&self) -> &'static str {
        CODE
    }

    async fn callback(&self, ctx: &Ctx, req: Inbound<'_>) -> Outbound {
        let Some(params) = form_params(req.body) else {
            return bad("BadRequest: the body is not a form");
        };
        let p = Params(params);
        if let Err(reply) = self.verify(&req, &p, kernel::clock::now_ms() / 1000) {
            return reply;
        }
        let out = match p.get("action") {
            Some("balance") => self.balance(ctx, &p).await,
            Some("bet") => self.money(ctx, &p, true).await,
            Some("win") => self.money(ctx, &p, false).await,
            Some("refund") => self.refund(ctx, &p).await,
            Some("rollback") => self.rollback(ctx, &p).await,
            _ => Err(bad("BadRequest: unknown action")),
        };
        out.unwrap_or_else(|reply| reply)
    }
}

impl Slotegrator {
    /// The merchant, the time window and the signature; nothing is read before.
    fn verify(&self, req: &Inbound<'_>, p: &Params, now_s: i64) -> Result<(), Outbound> {
        let refused = || fail(code::INTERNAL_ERROR, "SignatureInvalid: invalid signature");
        let (Some(merchant), Some(ts), Some(nonce), Some(sent)) = (req.header("x-merchant-id"), req.header("x-timestamp"), req.header("x-nonce"), req.header("x-sign")) else {
            return Err(refused());
        };
        let Some(ours) = self.merchant_id.as_deref() else { return Err(refused()) };
        if self.secret.is_empty() || !secure_eq(merchant, ours, false) || nonce.is_empty() || nonce.len() > 100 {
            return Err(refused());
        }
        let expected = sign(&self.secret, merchant, ts, nonce, &p.0);
        if !secure_eq(sent, &expected, true) {
            return Err(refused());
        }
        // Signed, so the timestamp is the sender's: a stale one is a replayed request.
        match ts.parse::<i64>() {
            Ok(t) if (t - now_s).abs() <= MAX_SKEW_S => Ok(()),
            _ => Err(fail(code::INTERNAL_ERROR, "TimestampStale: X-Timestamp is outside the allowed window")),
        }
    }

    /// The session: `session_id`'s, which must be `player_id`'s; without `session_id`, the
    /// player's latest Slotegrator session.
    async fn session(&self, ctx: &Ctx, p: &Params) -> Result<GameSession, Outbound> {
        let player = p.need("player_id")?;
        let s = match p.get("session_id") {
            Some(token) => ctx.session_of(CODE, token, player).await,
            None => ctx.player_session(CODE, player).await,
        }
        .map_err(|e| refusal(&e))?;
        if let Some(currency) = p.get("currency") {
            if currency != s.currency.code() {
                return Err(refusal(&AppError::new(ErrorCode::CurrencyMismatch)));
            }
        }
        Ok(s)
    }

    async fn balance(&self, ctx: &Ctx, p: &Params) -> Result<Outbound, Outbound> {
        let s = self.session(ctx, p).await?;
        let balance = ctx.balance(&s).await.map_err(|e| refusal(&e))?;
        Ok(JsonOut::new().num("balance", &amount::format(balance, s.currency)).reply(200))
    }

    fn round(p: &Params) -> Result<String, Outbound> {
        match p.get("round_id") {
            Some(r) if r.len() <= 100 => Ok(r.to_string()),
            Some(_) => Err(bad("BadRequest: round_id is at most 100 characters")),
            None => Ok(format!("{}:{}", p.get("session_id").unwrap_or("-"), p.need("game_uuid")?)),
        }
    }

    /// The answer to a money call: the stored result's balance and our transaction id.
    async fn answer(ctx: &Ctx, s: &GameSession, reply: &WalletReply, key_for_tombstone: &str) -> Result<Outbound, Outbound> {
        let id = match reply.ledger_tx_id {
            Some(id) => id,
            // A refund that left a tombstone: the tombstone's id.
            None => ctx.lookup(CODE, key_for_tombstone).await.map_err(|e| refusal(&e))?.map(|t| t.tx_id).unwrap_or(0),
        };
        Ok(JsonOut::new().num("balance", &amount::format(reply.balance, s.currency)).str("transaction_id", &id.to_string()).reply(200))
    }

    async fn money(&self, ctx: &Ctx, p: &Params, bet: bool) -> Result<Outbound, Outbound> {
        let tx = p.need("transaction_id")?;
        let text = p.need("amount")?;
        let game = p.need("game_uuid")?;
        let round = Self::round(p)?;
        let s = self.session(ctx, p).await?;
        let minor = amount::parse_padded(text, s.currency).map_err(|_| bad("BadRequest: amount is not a decimal amount"))?;
        let m = Money { tx, round: &round, game, amount: minor };
        let reply = if bet { ctx.bet(CODE, &s, &m).await } else { ctx.win(CODE, &s, &m).await }.map_err(|e| refusal(&e))?;
        Self::answer(ctx, &s, &reply, tx).await
    }

    async fn refund(&self, ctx: &Ctx, p: &Params) -> Result<Outbound, Outbound> {
        let tx = p.need("transaction_id")?;
        let of = p.need("bet_transaction_id")?;
        let s = self.session(ctx, p).await?;
        if let Some(text) = p.get("amount") {
            // Informative (the bet's amount: the wallet reverses what was posted), but it
            // must be an amount.
            amount::parse_padded(text, s.currency).map_err(|_| bad("BadRequest: amount is not a decimal amount"))?;
        }
        let round = p.get("round_id").unwrap_or("");
        let reply = ctx.rollback(CODE, &s, tx, of, round, p.get("game_uuid").unwrap_or("")).await.map_err(|e| refusal(&e))?;
        Self::answer(ctx, &s, &reply, of).await
    }

    /// `rollback`: every listed transaction cancelled, all or none.
    async fn rollback(&self, ctx: &Ctx, p: &Params) -> Result<Outbound, Outbound> {
        let tx = p.need("transaction_id")?;
        let originals = rollback_list(&p.0).ok_or_else(|| bad("BadRequest: rollback_transactions must list transaction ids"))?;
        let s = self.session(ctx, p).await?;
        let round = p.get("round_id").unwrap_or("").to_string();
        let game = p.get("game_uuid").unwrap_or("").to_string();
        let ops: Vec<(GameSession, WalletOp)> = originals
            .iter()
            .map(|of| {
                let call = RollbackCall {
                    session_token: String::new(),
                    transaction_id: format!("{tx}:{of}"),
                    reference_transaction_id: of.clone(),
                    round_id: round.clone(),
                    game_id: game.clone(),
                };
                (s.clone(), WalletOp::Rollback(call))
            })
            .collect();
        ctx.casino.wallet().all_or_none(CODE, ops).await.map_err(|(_, e)| refusal(&e))?;
        let balance = ctx.balance(&s).await.map_err(|e| refusal(&e))?;
        let ids = serde_json::Value::Array(originals.into_iter().map(serde_json::Value::String).collect());
        Ok(JsonOut::new().num("balance", &amount::format(balance, s.currency)).str("transaction_id", tx).value("rollback_transactions", &ids).reply(200))
    }
}

/// The transaction ids of `rollback_transactions[i][transaction_id]`, in order (1 to 100,
/// each 1 to 100 characters); `None` when there are none or one is malformed.
fn rollback_list(params: &[(String, String)]) -> Option<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    for (k, v) in params {
        let Some(rest) = k.strip_prefix("rollback_transactions[") else { continue };
        if rest.ends_with("][transaction_id]") {
            if v.is_empty() || v.len() > 100 || out.len() >= 100 {
                return None;
            }
            out.push(v.clone());
        }
    }
    (!out.is_empty()).then_some(out)
}

/// The parameters and headers of a signed Slotegrator call (the fake's side): the headers to
/// send, `X-Sign` last.
pub fn signed_headers(key: &str, merchant: &str, timestamp: &str, nonce: &str, params: &[(String, String)]) -> Vec<(String, String)> {
    vec![
        ("X-Merchant-Id".into(), merchant.into()),
        ("X-Timestamp".into(), timestamp.into()),
        ("X-Nonce".into(), nonce.into()),
        ("X-Sign".into(), sign(key, merchant, timestamp, nonce, params)),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn the_signed_string_is_phps_http_build_query_of_the_sorted_union() {
        let p = pairs(&[("player_id", "7"), ("action", "bet"), ("amount", "1.50"), ("session_id", "tok en/1"), ("currency", "TND")]);
        assert_eq!(
            signed_string("m-1", "1700000000", "n1", &p),
            "X-Merchant-Id=m-1&X-Nonce=n1&X-Timestamp=1700000000&action=bet&amount=1.50&currency=TND&player_id=7&session_id=tok+en%2F1"
        );
        // Nested keys sort under their top-level name and keep their order.
        let nested = pairs(&[("rollback_transactions[0][type]", "bet"), ("action", "rollback"), ("rollback_transactions[0][action]", "bet")]);
        assert_eq!(
            signed_string("m", "1", "n", &nested),
            "X-Merchant-Id=m&X-Nonce=n&X-Timestamp=1&action=rollback&rollback_transactions%5B0%5D%5Btype%5D=bet&rollback_transactions%5B0%5D%5Baction%5D=bet"
        );
    }

    #[test]
    fn x_sign_is_hmac_sha1_hex() {
        // HMAC-SHA1("key", "X-Merchant-Id=m&X-Nonce=n&X-Timestamp=1&action=balance"), computed
        // independently: python3 -c 'import hmac,hashlib;print(hmac.new(b"key",b"X-Merchant-Id=m&X-Nonce=n&X-Timestamp=1&action=balance",hashlib.sha1).hexdigest())'
        assert_eq!(sign("key", "m", "1", "n", &pairs(&[("action", "balance")])), "e1d517ddf8f4bcd4320784a6ec680e87dcef23ae");
    }

    /// Every malformed or forged call gets a Slotegrator error naming the reason, HTTP 200,
    /// never a panic (an empty database: no session exists).
    #[tokio::test]
    async fn malformed_and_forged_calls_are_refused_in_slotegrator_terms() {
        let (t, db) = store::testing::TestDb::migrated(store::Backend::Sqlite).await.unwrap();
        let ctx = Ctx { casino: casino::Casino::new(db.clone(), wallet::Ledger::new(db.clone())) };
        let a = Slotegrator::new(&ProviderSettings::local(CODE, "k", "http://x"));
        let now = (kernel::clock::now_ms() / 1000).to_string();
        let call = |merchant: &str, ts: &str, key: &str, body: &str| {
            let params = form_params(body.as_bytes()).unwrap_or_default();
            let mut h = axum::http::HeaderMap::new();
            for (k, v) in signed_headers(key, merchant, ts, "n1", &params) {
                h.insert(axum::http::HeaderName::from_bytes(k.as_bytes()).unwrap(), v.parse().unwrap());
            }
            (h, body.to_string())
        };
        let long = "x".repeat(101);
        let bet = "action=bet&player_id=1&session_id=nope&currency=TND&game_uuid=g&transaction_id=t&round_id=r&amount=1.5";
        let cases = [
            (call(DEMO_MERCHANT_ID, &now, "k", "a=%zz"), "BadRequest: the body is not a form"),
            ((axum::http::HeaderMap::new(), "action=balance".to_string()), "SignatureInvalid"),
            (call(DEMO_MERCHANT_ID, &now, "wrong", "action=balance"), "SignatureInvalid"),
            (call("other-merchant", &now, "k", "action=balance"), "SignatureInvalid"),
            (call(DEMO_MERCHANT_ID, "1", "k", "action=balance"), "TimestampStale"),
            (call(DEMO_MERCHANT_ID, "soon", "k", "action=balance"), "TimestampStale"),
            (call(DEMO_MERCHANT_ID, &now, "k", "action=jackpot"), "BadRequest: unknown action"),
            (call(DEMO_MERCHANT_ID, &now, "k", "action=bet&player_id=1"), "BadRequest: transaction_id"),
            (call(DEMO_MERCHANT_ID, &now, "k", &format!("action=win&player_id=1&transaction_id={long}&amount=1&game_uuid=g")), "BadRequest: transaction_id"),
            (call(DEMO_MERCHANT_ID, &now, "k", "action=balance&player_id=abc"), "NoSuchUser"),
            (call(DEMO_MERCHANT_ID, &now, "k", bet), "GameSessionInvalid"),
            (call(DEMO_MERCHANT_ID, &now, "k", "action=refund&player_id=1&session_id=nope&transaction_id=t"), "BadRequest: bet_transaction_id"),
            (call(DEMO_MERCHANT_ID, &now, "k", "action=rollback&player_id=1&transaction_id=t"), "BadRequest: rollback_transactions"),
        ];
        for ((headers, body), want) in cases {
            let req = Inbound { path: "callback", query: "", headers: &headers, body: body.as_bytes() };
            let out = a.callback(&ctx, req).await;
            let v: serde_json::Value = serde_json::from_slice(&out.body).unwrap();
            assert_eq!((out.status, v["error_code"].as_str()), (200, Some(code::INTERNAL_ERROR)), "{body}");
            assert!(v["error_description"].as_str().unwrap().starts_with(want), "{body}: {v}");
        }
        // No merchant id outside demo mode without the setting: everything is refused.
        let mut prod = ProviderSettings::local(CODE, "k", "http://x");
        prod.demo = false;
        let (headers, body) = call(DEMO_MERCHANT_ID, &now, "k", "action=balance");
        let out = Slotegrator::new(&prod).callback(&ctx, Inbound { path: "", query: "", headers: &headers, body: body.as_bytes() }).await;
        assert!(String::from_utf8(out.body).unwrap().contains("SignatureInvalid"));
        db.close().await;
        t.cleanup().await;
    }

    /// Against a real wallet: replays answer the stored result, refunds leave tombstones,
    /// `rollback` cancels its list all or none.
    #[tokio::test]
    async fn money_calls_against_the_wallet() {
        let k = crate::softswiss::testkit::kit().await;
        let a = Slotegrator::new(&ProviderSettings::local(CODE, "k", "http://x"));
        let (p, token) = k.player(CODE, 10_000).await;
        let send = |body: String| {
            let a = &a;
            let k = &k;
            async move {
                let params = form_params(body.as_bytes()).unwrap();
                let mut h = axum::http::HeaderMap::new();
                let now = (kernel::clock::now_ms() / 1000).to_string();
                for (name, v) in signed_headers("k", DEMO_MERCHANT_ID, &now, "n", &params) {
                    h.insert(axum::http::HeaderName::from_bytes(name.as_bytes()).unwrap(), v.parse().unwrap());
                }
                let out = a.callback(&k.ctx, Inbound { path: "callback", query: "", headers: &h, body: body.as_bytes() }).await;
                String::from_utf8(out.body).unwrap()
            }
        };
        // The balance exactly as written (no float on the way), and the fields.
        let balance = |raw: &str| raw.strip_prefix("{\"balance\":").and_then(|r| r.split([',', '}']).next()).unwrap_or("none").to_string();
        let json = |raw: &str| serde_json::from_str::<serde_json::Value>(raw).unwrap();
        let who = format!("player_id={p}&session_id={token}&currency=TND&game_uuid=g1");
        let bet = |tx: &str, round: &str, amount: &str| format!("action=bet&{who}&transaction_id={tx}&round_id={round}&amount={amount}");
        let first = send(bet("t1", "r1", "1.000")).await;
        assert_eq!(balance(&first), "9.000", "{first}");
        assert_eq!(balance(&send(format!("action=win&{who}&transaction_id=w1&round_id=r1&amount=0.500")).await), "9.500");
        // The bet replayed: its stored result (the balance then, the same transaction id).
        assert_eq!(send(bet("t1", "r1", "1.000")).await, first);
        // The same id with another amount: refused.
        assert_eq!(json(&send(bet("t1", "r1", "2.000")).await)["error_code"], code::INTERNAL_ERROR);
        // Without round_id, the round is the session and the game.
        send(bet("t2", "", "1.000").replace("&round_id=", "")).await;
        assert_eq!(balance(&send(format!("action=win&{who}&transaction_id=w2&amount=0.250")).await), "8.750");
        // A refund of a bet never seen: a tombstone (its id answered), the late bet refused.
        let tomb = json(&send(format!("action=refund&{who}&transaction_id=f1&bet_transaction_id=t9&amount=1.000")).await);
        assert!(tomb["transaction_id"].as_str().unwrap() != "0", "{tomb}");
        assert_eq!(json(&send(bet("t9", "r9", "1.000")).await)["error_code"], code::INTERNAL_ERROR);
        // `rollback` of two bets at once; replayed, nothing more moves.
        send(bet("t3", "r3", "1.000")).await;
        send(bet("t4", "r3", "2.000")).await;
        assert_eq!(k.balance(p).await, 5_750);
        let rb = format!("action=rollback&{who}&transaction_id=x1&round_id=r3&rollback_transactions%5B0%5D%5Baction%5D=bet&rollback_transactions%5B0%5D%5Btransaction_id%5D=t3&rollback_transactions%5B1%5D%5Baction%5D=bet&rollback_transactions%5B1%5D%5Btransaction_id%5D=t4");
        let rolled = send(rb.clone()).await;
        assert_eq!((balance(&rolled), json(&rolled)["rollback_transactions"].clone()), ("8.750".to_string(), serde_json::json!(["t3", "t4"])), "{rolled}");
        assert_eq!(balance(&send(rb).await), "8.750");
        // A list naming another rollback refuses the whole list: t5 stays.
        send(bet("t5", "r5", "1.000")).await;
        let mixed = format!("action=rollback&{who}&transaction_id=x2&rollback_transactions%5B0%5D%5Btransaction_id%5D=t5&rollback_transactions%5B1%5D%5Btransaction_id%5D=x1:t3");
        assert_eq!(json(&send(mixed).await)["error_code"], code::INTERNAL_ERROR);
        assert_eq!(k.balance(p).await, 7_750);
        k.done().await;
    }

    #[test]
    fn rollback_lists_are_read_in_order() {
        let p = pairs(&[
            ("rollback_transactions[0][action]", "bet"),
            ("rollback_transactions[0][transaction_id]", "t1"),
            ("rollback_transactions[1][transaction_id]", "t2"),
        ]);
        assert_eq!(rollback_list(&p), Some(vec!["t1".to_string(), "t2".to_string()]));
        assert_eq!(rollback_list(&pairs(&[("rollback_transactions[0][transaction_id]", "")])), None);
        assert_eq!(rollback_list(&pairs(&[("action", "rollback")])), None);
    }
}
