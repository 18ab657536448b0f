//! Habanero seamless wallet (PROTOCOLS.md §3, docs/providers/habanero.md).
//!
//! Habanero POSTs JSON to one URL — served at `/api/providers/habanero/` followed by any
//! path — and the top-level key names the request: `playerdetailrequest`,
//! `fundtransferrequest`, `queryrequest`, `altfundsrequest`. The reply is keyed the same way
//! (`playerdetailresponse`, `fundtransferresponse`, `altfundsresponse`; a query is answered
//! in a `fundtransferresponse`), always HTTP 200 with `status.success`.
//!
//! * **auth.passkey** is `PROVIDER_HABANERO_SECRET`, compared in constant time (a shared
//!   secret, not a signature: `autherror` otherwise).
//! * **token** is our game session token; **accountid**, when sent, is our user id and must
//!   be the token's player (`playerdetailresponse.accountid` tells Habanero which it is).
//! * **transferid** is the transaction id (ledger key `prov:habanero:{transferid}`); the
//!   round is `gameinstanceid`; a `fundinfo` amount below zero is a debit. A repeated
//!   transferid answers `success` with the current balance. `debitandcredit` (a bet and its
//!   win in one call) and any call with several `fundinfo` go through the wallet's
//!   all-or-none batch: both or neither.
//! * **isrefund**: `funds.refund{transferid, originaltransferid}` cancels the original under
//!   the refund's own transferid: `refundstatus` `"1"` when reversed (now or before), `"2"`
//!   when the original never arrived (a tombstone: the late original is refused).
//! * **isrecredit**: a credit resent because its first delivery failed; it is booked under
//!   the original credit's transferid (`originaltransferid`), so a credit that did land
//!   answers as before and one that did not lands once.
//! * **isretry** is informational: the transferid makes every resend idempotent.
//! * Amounts are decimal major units; answers carry the currency's decimals (TND: 3).

use crate::amount;
use crate::glue::{secure_eq, Money};
use crate::rawjson::{as_obj, Obj};
use crate::{Ctx, Inbound, JsonOut, Outbound, ProviderAdapter, ProviderSettings};
use async_trait::async_trait;
use casino::{GameSession, WalletCall, WalletOp};
use kernel::{AppError, ErrorCode};

pub const CODE: &str = "habanero";

/// The longest transferid accepted (the wallet takes 100).
const MAX_ID: usize = 100;
/// At most this many `fundinfo` entries in one call.
const MAX_FUNDS: usize = 10;

pub const NEVER_DEBITED: &str = "Original request never debited. So closing record.";

pub struct Habanero {
    passkey: String,
}

impl Habanero {
    pub fn new(s: &ProviderSettings) -> Habanero {
        Habanero { passkey: s.secret.clone().unwrap_or_default() }
    }
}

/// `status` of a reply.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Status {
    pub success: bool,
    pub autherror: bool,
    pub nofunds: bool,
    pub refundstatus: Option<&'static str>,
    pub message: String,
}

impl Status {
    pub fn ok() -> Status {
        Status { success: true, ..Status::default() }
    }
    pub fn failed(message: impl Into<String>) -> Status {
        Status { message: message.into(), ..Status::default() }
    }
    fn json(&self, money: bool) -> JsonOut {
        let j = JsonOut::new().bool("success", self.success).bool("autherror", self.autherror);
        let j = if money { j.bool("nofunds", self.nofunds).bool("successdebit", self.success).bool("successcredit", self.success) } else { j };
        let j = match self.refundstatus {
            Some(r) => j.str("refundstatus", r),
            None => j,
        };
        j.str("message", &self.message)
    }
}

/// Our refusal in Habanero's terms: no numeric codes exist, only `autherror`, `nofunds`
/// and a message.
pub fn refusal(e: &AppError) -> Status {
    let mut s = Status::failed(e.code.message());
    match e.code {
        ErrorCode::GameSessionInvalid | ErrorCode::NoSuchUser => s.autherror = true,
        ErrorCode::InsufficientBalance => s.nofunds = true,
        _ => {}
    }
    s
}

/// The player named is not the token's.
fn wrong_player() -> Status {
    Status { autherror: true, ..Status::failed("The account does not match the token.") }
}

/// A reply keyed `key` with `status` and, when known, the balance.
pub fn reply(key: &str, status: &Status, balance: Option<&(i64, kernel::Currency)>) -> Outbound {
    reply_with(key, status, balance, key == "fundtransferresponse")
}

/// A query's answer: a `fundtransferresponse` whose status says only whether the transfer
/// exists (no debit/credit flags).
fn query_reply(status: Status) -> Outbound {
    reply_with("fundtransferresponse", &status, None, false)
}

fn reply_with(key: &str, status: &Status, balance: Option<&(i64, kernel::Currency)>, money: bool) -> Outbound {
    let mut inner = JsonOut::new().obj("status", status.json(money));
    if let Some((b, c)) = balance {
        inner = inner.num("balance", &amount::format(*b, *c)).str("currencycode", c.code());
    }
    JsonOut::new().obj(key, inner).reply(200)
}

/// The request kinds, by their top-level key, with the key of their reply.
const KINDS: [(&str, &str); 4] = [
    ("playerdetailrequest", "playerdetailresponse"),
    ("fundtransferrequest", "fundtransferresponse"),
    ("queryrequest", "fundtransferresponse"),
    ("altfundsrequest", "altfundsresponse"),
];

type Reply = Result<Outbound, Outbound>;

#[async_trait]
impl ProviderAdapter for Habanero {
    fn code(&self) -> &'static str {
        CODE
    }

    async fn callback(&self, ctx: &Ctx, req: Inbound<'_>) -> Outbound {
        let Some(doc) = Obj::parse(req.body) else {
            return reply("fundtransferresponse", &Status::failed("The request is not a JSON object."), None);
        };
        let Some((kind, answer_key, body)) = KINDS.iter().find_map(|(k, a)| doc.obj(k).map(|o| (*k, *a, o))) else {
            return reply("fundtransferresponse", &Status::failed("Unknown request."), None);
        };
        // The passkey first: nothing is read before the caller is known.
        let passkey = doc.obj("auth").and_then(|a| a.text("passkey"));
        if self.passkey.is_empty() || !passkey.is_some_and(|p| secure_eq(&p, &self.passkey, false)) {
            return reply(answer_key, &Status { autherror: true, ..Status::failed("Invalid passkey.") }, None);
        }
        let out = match kind {
            "playerdetailrequest" => player_detail(ctx, &body).await,
            "fundtransferrequest" => fund_transfer(ctx, &doc, &body).await,
            "queryrequest" => query(ctx, &body).await,
            _ => alt_funds(ctx, &body).await,
        };
        out.unwrap_or_else(|r| r)
    }
}

fn fail_fund(status: Status) -> Outbound {
    reply("fundtransferresponse", &status, None)
}

async fn with_balance(ctx: &Ctx, s: &GameSession, key: &str, status: Status, balance: Option<i64>) -> Outbound {
    let balance = match balance {
        Some(b) => Some(b),
        None => ctx.balance(s).await.ok(),
    };
    reply(key, &status, balance.map(|b| (b, s.currency)).as_ref())
}

async fn player_detail(ctx: &Ctx, body: &Obj<'_>) -> Reply {
    let key = "playerdetailresponse";
    let Some(token) = body.id("token", 200) else {
        return Err(reply(key, &Status { autherror: true, ..Status::failed("token is required") }, None));
    };
    let s = ctx.live_session(CODE, &token).await.map_err(|e| reply(key, &refusal(&e), None))?;
    let balance = ctx.balance(&s).await.map_err(|e| reply(key, &refusal(&e), None))?;
    let id = s.user_id.to_string();
    let inner = JsonOut::new()
        .obj("status", Status::ok().json(false))
        .str("accountid", &id)
        .str("accountname", &id)
        .num("balance", &amount::format(balance, s.currency))
        .str("currencycode", s.currency.code());
    Ok(JsonOut::new().obj(key, inner).reply(200))
}

/// One `fundinfo` entry, parsed.
struct Fund {
    transferid: String,
    /// Minor units, negative for a debit.
    amount: i64,
}

/// A signed decimal amount (`-1.50`) in minor units of the session's currency.
fn signed_amount(text: &str, s: &GameSession) -> Option<i64> {
    let (neg, digits) = match text.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, text),
    };
    let minor = amount::parse_padded(digits, s.currency).ok()?;
    Some(if neg { -minor } else { minor })
}

fn parse_fund(raw: &serde_json::value::RawValue, s: &GameSession, recredit: bool) -> Result<Fund, Status> {
    let f = as_obj(raw).ok_or_else(|| Status::failed("fundinfo entries must be objects"))?;
    let own = f.id("transferid", MAX_ID).ok_or_else(|| Status::failed("transferid is required"))?;
    // A re-credit is the original credit sent again: it lands under the original's id.
    let transferid = if recredit { f.id("originaltransferid", MAX_ID).unwrap_or(own) } else { own };
    let amount = f.text("amount").and_then(|t| signed_amount(&t, s)).ok_or_else(|| Status::failed("amount is not a decimal amount"))?;
    if f.has("currencycode") && f.text("currencycode").as_deref() != Some(s.currency.code()) {
        return Err(refusal(&AppError::new(ErrorCode::CurrencyMismatch)));
    }
    Ok(Fund { transferid, amount })
}

/// The game of a call: `gamedetails.keyname`, else `basegame.keyname`.
fn game_of(doc: &Obj<'_>) -> String {
    ["gamedetails", "basegame"]
        .iter()
        .find_map(|k| doc.obj(k).and_then(|g| g.id("keyname", 60)))
        .unwrap_or_else(|| CODE.to_string())
}

async fn fund_transfer(ctx: &Ctx, doc: &Obj<'_>, body: &Obj<'_>) -> Reply {
    let key = "fundtransferresponse";
    let Some(token) = body.id("token", 200) else {
        return Err(fail_fund(Status { autherror: true, ..Status::failed("token is required") }));
    };
    let session = match body.id("accountid", 40) {
        Some(account) => ctx.session_of(CODE, &token, &account).await,
        None if body.has("accountid") => return Err(fail_fund(wrong_player())),
        None => ctx.session(CODE, &token).await,
    };
    let s = session.map_err(|e| if e.code == ErrorCode::TransactionMismatch { fail_fund(wrong_player()) } else { fail_fund(refusal(&e)) })?;
    let Some(round) = body.id("gameinstanceid", MAX_ID) else {
        return Err(with_balance(ctx, &s, key, Status::failed("gameinstanceid is required"), None).await);
    };
    let game = game_of(doc);
    let Some(funds) = body.obj("funds") else {
        return Err(with_balance(ctx, &s, key, Status::failed("funds is required"), None).await);
    };
    if body.bool("isrefund") == Some(true) {
        return refund(ctx, &s, &funds, &round, &game).await;
    }
    let recredit = body.bool("isrecredit") == Some(true);
    let entries = funds.array("fundinfo").unwrap_or_default();
    if entries.is_empty() || entries.len() > MAX_FUNDS {
        return Err(with_balance(ctx, &s, key, Status::failed("fundinfo must hold 1 to 10 entries"), None).await);
    }
    let mut items = Vec::with_capacity(entries.len());
    for raw in entries {
        match parse_fund(raw, &s, recredit) {
            Ok(f) => items.push(f),
            Err(status) => return Err(with_balance(ctx, &s, key, status, None).await),
        }
    }
    let both = funds.bool("debitandcredit") == Some(true);
    if items.len() == 1 && !both {
        let f = &items[0];
        let m = Money { tx: &f.transferid, round: &round, game: &game, amount: f.amount.abs() };
        let done = if f.amount < 0 { ctx.bet(CODE, &s, &m).await } else { ctx.win(CODE, &s, &m).await };
        return match done {
            Ok(r) => {
                let balance = ctx.answer_balance(&s, &r).await.ok();
                Ok(with_balance(ctx, &s, key, Status::ok(), balance).await)
            }
            Err(e) => Err(with_balance(ctx, &s, key, refusal(&e), None).await),
        };
    }
    // A bet and its win (or several entries): both or neither.
    let ops: Vec<(GameSession, WalletOp)> = items
        .iter()
        .map(|f| {
            let call = WalletCall {
                session_token: String::new(),
                transaction_id: f.transferid.clone(),
                round_id: round.clone(),
                game_id: game.clone(),
                amount: f.amount.abs(),
                currency: s.currency.code().to_string(),
            };
            (s.clone(), if f.amount < 0 { WalletOp::Bet(call) } else { WalletOp::Win(call) })
        })
        .collect();
    match ctx.casino.wallet().all_or_none(CODE, ops).await {
        Ok(replies) => {
            let balance = match replies.last() {
                Some(r) if !replies.iter().any(|r| r.replayed) => Some(r.balance),
                _ => None,
            };
            Ok(with_balance(ctx, &s, key, Status::ok(), balance).await)
        }
        Err((_, e)) => Err(with_balance(ctx, &s, key, refusal(&e), None).await),
    }
}

async fn refund(ctx: &Ctx, s: &GameSession, funds: &Obj<'_>, round: &str, game: &str) -> Reply {
    let key = "fundtransferresponse";
    let r = funds.obj("refund");
    let ids = r.as_ref().and_then(|r| Some((r.id("transferid", MAX_ID)?, r.id("originaltransferid", MAX_ID)?)));
    let Some((own, original)) = ids else {
        return Err(with_balance(ctx, s, key, Status::failed("refund.transferid and refund.originaltransferid are required"), None).await);
    };
    match ctx.rollback(CODE, s, &own, &original, round, game).await {
        Ok(reply) => {
            let status = match reply.ledger_tx_id {
                Some(_) => Status { refundstatus: Some("1"), ..Status::ok() },
                None => Status { refundstatus: Some("2"), message: NEVER_DEBITED.into(), ..Status::ok() },
            };
            Ok(with_balance(ctx, s, key, status, Some(reply.balance)).await)
        }
        Err(e) => Err(with_balance(ctx, s, key, refusal(&e), None).await),
    }
}

/// `queryrequest{transferid, queryamount}`: success when that transfer was applied (not a
/// tombstone) with that amount (compared in absolute value; no amount: existence only).
async fn query(ctx: &Ctx, body: &Obj<'_>) -> Reply {
    let Some(transferid) = body.id("transferid", MAX_ID) else {
        return Err(query_reply(Status::failed("transferid is required")));
    };
    let found = ctx.lookup(CODE, &transferid).await.map_err(|e| query_reply(refusal(&e)))?;
    let Some(tx) = found.filter(|t| !t.tombstone) else {
        return Ok(query_reply(Status::failed("No such transfer.")));
    };
    let Some(text) = body.text("queryamount") else {
        return Ok(query_reply(Status::ok()));
    };
    let Some(user) = tx.user_id else {
        return Ok(query_reply(Status::failed("No such transfer.")));
    };
    // Its entries carry their batch's clock, a few milliseconds from the transaction's.
    let q = wallet::HistoryQuery { user_id: user, from_ms: tx.created_at - 5_000, to_ms: tx.created_at + 5_000, limit: 500, offset: 0, kind: Some(wallet::BalanceKind::Real) };
    let entries = ctx.casino.wallet().ledger().history(&q).await.map_err(|e| query_reply(refusal(&AppError::from(e))))?;
    let posted = entries.iter().find(|e| e.tx_id == tx.tx_id);
    let same = posted.is_some_and(|e| {
        let digits = text.trim_start_matches('-');
        amount::parse_padded(digits, e.currency).is_ok_and(|m| m == e.amount.abs())
    });
    Ok(query_reply(if same { Status::ok() } else { Status::failed("The transfer's amount differs.") }))
}

/// `altfundsrequest`: a tournament or prize credit to `accountid` (no token: the player's
/// latest Habanero session), outside any round.
async fn alt_funds(ctx: &Ctx, body: &Obj<'_>) -> Reply {
    let key = "altfundsresponse";
    let fail = |st: Status| reply(key, &st, None);
    let account = body.id("accountid", 40).ok_or_else(|| fail(Status::failed("accountid is required")))?;
    let transferid = body.id("transferid", MAX_ID).ok_or_else(|| fail(Status::failed("transferid is required")))?;
    let s = ctx.player_session(CODE, &account).await.map_err(|e| fail(refusal(&e)))?;
    if body.has("currencycode") && body.text("currencycode").as_deref() != Some(s.currency.code()) {
        return Err(with_balance(ctx, &s, key, refusal(&AppError::new(ErrorCode::CurrencyMismatch)), None).await);
    }
    let Some(minor) = body.text("amount").and_then(|t| amount::parse_padded(&t, s.currency).ok()) else {
        return Err(with_balance(ctx, &s, key, Status::failed("amount is not a decimal amount"), None).await);
    };
    let round = format!("promo:{transferid}");
    let m = Money { tx: &transferid, round: &round, game: "habanero-prize", amount: minor };
    match ctx.award(CODE, &s, &m).await {
        Ok(r) => {
            let balance = ctx.answer_balance(&s, &r).await.ok();
            Ok(with_balance(ctx, &s, key, Status::ok(), balance).await)
        }
        Err(e) => Err(with_balance(ctx, &s, key, refusal(&e), None).await),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kernel::Currency;

    #[test]
    fn replies_are_keyed_by_the_request() {
        let out = reply("fundtransferresponse", &Status { refundstatus: Some("2"), message: NEVER_DEBITED.into(), ..Status::ok() }, Some(&(9_750, Currency::Tnd)));
        assert_eq!(
            String::from_utf8(out.body).unwrap(),
            r#"{"fundtransferresponse":{"status":{"success":true,"autherror":false,"nofunds":false,"successdebit":true,"successcredit":true,"refundstatus":"2","message":"Original request never debited. So closing record."},"balance":9.750,"currencycode":"TND"}}"#
        );
        let out = reply("playerdetailresponse", &Status { autherror: true, ..Status::failed("Invalid passkey.") }, None);
        assert_eq!(String::from_utf8(out.body).unwrap(), r#"{"playerdetailresponse":{"status":{"success":false,"autherror":true,"message":"Invalid passkey."}}}"#);
    }

    #[test]
    fn every_wallet_refusal_is_a_failure() {
        for code in ErrorCode::ALL {
            let s = refusal(&AppError::new(*code));
            assert!(!s.success, "{code:?}");
            assert!(!s.message.is_empty(), "{code:?}");
        }
        assert!(refusal(&AppError::new(ErrorCode::InsufficientBalance)).nofunds);
        assert!(refusal(&AppError::new(ErrorCode::GameSessionInvalid)).autherror);
        assert!(!refusal(&AppError::new(ErrorCode::TransactionMismatch)).autherror, "another's transaction is not an auth error");
        assert!(!refusal(&AppError::new(ErrorCode::RoundNotFound)).autherror);
    }

    fn session() -> GameSession {
        GameSession {
            id: 1,
            user_id: 7,
            provider: CODE.into(),
            game_id: "g".into(),
            currency: Currency::Tnd,
            lang: "en".into(),
            platform: "web".into(),
            created_at: 0,
            expires_at: 0,
            ends_at: 0,
            player_session_until: None,
            role: 0,
            banned: false,
            self_excluded_until: None,
            cool_off_until: None,
        }
    }

    #[test]
    fn fund_entries_parse_signed_exact_amounts() {
        let s = session();
        let raw = |t: &str| serde_json::value::RawValue::from_string(t.to_string()).unwrap();
        let f = parse_fund(&raw(r#"{"transferid":"t1","amount":-1.50,"currencycode":"TND"}"#), &s, false).ok().unwrap();
        assert_eq!((f.transferid.as_str(), f.amount), ("t1", -1_500));
        let f = parse_fund(&raw(r#"{"transferid":"t2","originaltransferid":"t1","amount":"2.000"}"#), &s, true).ok().unwrap();
        assert_eq!((f.transferid.as_str(), f.amount), ("t1", 2_000));
        for bad in [
            r#"{"amount":-1}"#,
            r#"{"transferid":"t","amount":"x"}"#,
            r#"{"transferid":"t","amount":1e3}"#,
            r#"{"transferid":"t","amount":--1}"#,
            r#"{"transferid":"t","amount":1.0001}"#,
            r#"{"transferid":"t","amount":99999999999999999999}"#,
            r#"{"transferid":"t","amount":1,"currencycode":"EUR"}"#,
            r#"{"transferid":"t","amount":1,"currencycode":null}"#,
            r#"{"transferid":{"x":1},"amount":1}"#,
            r#"[1]"#,
        ] {
            let r = serde_json::value::RawValue::from_string(bad.to_string());
            if let Ok(r) = r {
                assert!(parse_fund(&r, &s, false).is_err(), "{bad}");
            }
        }
    }
}
