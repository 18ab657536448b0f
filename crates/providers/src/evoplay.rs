//! Evoplay seamless wallet, callback version 2 (PROTOCOLS.md §5, docs/providers/evoplay.md).
//!
//! Evoplay POSTs JSON `{token, callback_id, name: init|bet|win|refund, data{…}, signature}`
//! to the callback URL — served at `/api/providers/evoplay/` under any path — and reads
//! `{status:"ok", data{balance, currency}}` or `{status:"error", error{scope, no_refund,
//! message, code}}`, HTTP 200 either way.
//!
//! * **signature** = lower-hex md5 of `{project}*1*{values}*{key}` (project =
//!   `PROVIDER_EVOPLAY_PROJECT`, demo [`DEMO_PROJECT`]; key = `PROVIDER_EVOPLAY_SECRET`):
//!   `values` are the request's top-level fields **in document order**, `signature` left
//!   out, joined by `*`; a scalar field is its text (a string's decoded content, a number's
//!   exact text as sent, `null` empty, `true`/`false` as those words); an object or array
//!   field is every scalar inside it, in document order, joined by `:` (an empty one is an
//!   empty text). Empty values are kept (PHP's `implode` keeps them). Computed over the
//!   bytes received ([`signed_values`]), never over a re-serialisation.
//! * **token** is our game session token; Evoplay names no player, so the session's player
//!   is the one acted on. Money follows the session's game (Evoplay's data names none).
//! * **callback_id** is the idempotency key (IqSoft's reading): `prov:evoplay:{callback_id}`.
//!   A repeated callback answers as the first with the **current** balance; the same id with
//!   another amount or round is refused.
//! * **bet** / **win** are in `data.round_id`; a win needs the player's bet in the round.
//! * **refund** cancels the callback `data.refund_callback_id` under its own `callback_id`:
//!   an unknown one succeeds and moves nothing (a tombstone refuses the late bet).
//! * Amounts are decimal major units (a string or a number, read exactly; extra zero
//!   decimals accepted); balances are answered with the currency's decimals.

use crate::glue::{secure_eq, Money};
use crate::{amount, ordered};
use crate::{Ctx, Inbound, JsonOut, Outbound, ProviderAdapter, ProviderSettings};
use async_trait::async_trait;
use casino::GameSession;
use kernel::{AppError, ErrorCode};
use md5::{Digest, Md5};
use serde::de::{Deserializer, MapAccess, Visitor};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::Value;

pub const CODE: &str = "evoplay";
/// The project id of demo mode (our local fake signs with it).
pub const DEMO_PROJECT: &str = "4242";
/// The API version in the signed string.
pub const VERSION: &str = "1";

pub struct Evoplay {
    secret: String,
    project: Option<String>,
}

impl Evoplay {
    pub fn new(s: &ProviderSettings) -> Evoplay {
        let project = s.value("project").map(String::from).or_else(|| s.demo.then(|| DEMO_PROJECT.to_string()));
        Evoplay { secret: s.secret.clone().unwrap_or_default(), project }
    }
}

/// The top-level fields of a JSON object in document order, each with its raw value.
struct Fields(Vec<(String, Box<RawValue>)>);

impl<'de> Deserialize<'de> for Fields {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Fields, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Fields;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Fields, A::Error> {
                let mut out = Vec::new();
                while let Some(entry) = m.next_entry::<String, Box<RawValue>>()? {
                    out.push(entry);
                }
                Ok(Fields(out))
            }
        }
        d.deserialize_map(V)
    }
}

/// The values Evoplay signs, read from the raw body (see the module doc); `None` when the
/// body is not a JSON object.
pub fn signed_values(raw: &[u8]) -> Option<Vec<String>> {
    let fields: Fields = serde_json::from_slice(raw).ok()?;
    let mut out = Vec::with_capacity(fields.0.len());
    for (k, v) in &fields.0 {
        if k == "signature" {
            continue;
        }
        let texts: Vec<String> = ordered::scalars(v.get().as_bytes())?.into_iter().map(|s| s.text).collect();
        out.push(texts.join(":"));
    }
    Some(out)
}

/// md5 of `{project}*1*{values joined by *}*{key}`.
pub fn signature(project: &str, key: &str, values: &[String]) -> String {
    let mut parts: Vec<&str> = vec![project, VERSION];
    parts.extend(values.iter().map(String::as_str));
    parts.push(key);
    hex::encode(Md5::digest(parts.join("*").as_bytes()))
}

/// An error in Evoplay's shape. `user`: shown to the player (scope `user`), else `internal`;
/// `no_refund`: "1" when nothing was taken (no refund is needed), "0" when the outcome is
/// unknown (an internal failure: Evoplay resends or refunds).
fn error(user: bool, no_refund: bool, message: &str, code: &str) -> Outbound {
    JsonOut::new()
        .str("status", "error")
        .obj(
            "error",
            JsonOut::new().str("scope", if user { "user" } else { "internal" }).str("no_refund", if no_refund { "1" } else { "0" }).str("message", message).str("code", code),
        )
        .reply(200)
}

fn bad(message: &str) -> Outbound {
    error(false, true, message, ErrorCode::BadRequest.name())
}

/// Our refusal in Evoplay's shape: a refusal the player can act on (funds, limits, an
/// expired session, a block) has scope `user`; every refusal moved nothing (`no_refund`
/// "1") but an internal failure ("0").
fn refusal(e: &AppError) -> Outbound {
    let message = match e.code {
        // The text Evoplay's games show for it.
        ErrorCode::InsufficientBalance => "Not enough money",
        c => c.message(),
    };
    let user = matches!(
        e.code,
        ErrorCode::InsufficientBalance
            | ErrorCode::InsufficientBonus
            | ErrorCode::FreeBetsEmpty
            | ErrorCode::GameSessionInvalid
            | ErrorCode::UserBanned
            | ErrorCode::BetsNotAllowed
            | ErrorCode::SelfExcluded
            | ErrorCode::CoolingOff
            | ErrorCode::AmountTooLarge
            | ErrorCode::BonusMaxBet
            | ErrorCode::BalanceLimit
    );
    let internal = e.code.http_status() >= 500;
    error(user, !internal, message, e.code.name())
}

/// A JSON string, or an integer written as an id.
fn id_text(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::String(s) if !s.is_empty() && s.len() <= 100 => Some(s.clone()),
        Value::Number(n) if n.is_u64() || n.is_i64() => Some(n.to_string()),
        _ => None,
    }
}

#[derive(Deserialize)]
struct Call {
    token: Option<Value>,
    callback_id: Option<Value>,
    name: Option<Value>,
    data: Option<Box<RawValue>>,
    signature: Option<Value>,
}

#[derive(Deserialize, Default)]
struct Data {
    round_id: Option<Value>,
    amount: Option<Box<RawValue>>,
    currency: Option<Value>,
    refund_callback_id: Option<Value>,
    refund_round_id: Option<Value>,
}

struct Parsed {
    token: String,
    callback_id: String,
    name: String,
    data: Data,
}

#[async_trait]
impl ProviderAdapter for Evoplay {
    fn code(&self) -> &'static str {
        CODE
    }

    async fn callback(&self, ctx: &Ctx, req: Inbound<'_>) -> Outbound {
        let call = match self.verify(req.body) {
            Ok(call) => call,
            Err(reply) => return reply,
        };
        let out = match call.name.as_str() {
            "init" => self.init(ctx, &call).await,
            "bet" => self.money(ctx, &call, true).await,
            "win" => self.money(ctx, &call, false).await,
            "refund" => self.refund(ctx, &call).await,
            _ => Err(bad("unknown callback name")),
        };
        out.unwrap_or_else(|reply| reply)
    }
}

impl Evoplay {
    /// The signature over the received bytes, then the fields.
    fn verify(&self, body: &[u8]) -> Result<Parsed, Outbound> {
        let refused = || error(false, true, "Invalid signature", ErrorCode::SignatureInvalid.name());
        let Some(values) = signed_values(body) else {
            return Err(bad("the body is not a JSON object"));
        };
        let call: Call = serde_json::from_slice(body).map_err(|_| bad("the body is not an Evoplay callback"))?;
        let Some(project) = self.project.as_deref() else { return Err(refused()) };
        let sent = match &call.signature {
            Some(Value::String(s)) => s.as_str(),
            _ => return Err(refused()),
        };
        if self.secret.is_empty() || !secure_eq(sent, &signature(project, &self.secret, &values), true) {
            return Err(refused());
        }
        let token = match &call.token {
            Some(Value::String(t)) => t.clone(),
            _ => return Err(bad("token must be a string")),
        };
        let name = match &call.name {
            Some(Value::String(n)) => n.clone(),
            _ => return Err(bad("name must be a string")),
        };
        let callback_id = id_text(call.callback_id.as_ref()).ok_or_else(|| bad("callback_id must be 1 to 100 characters"))?;
        let data = match &call.data {
            Some(raw) => serde_json::from_str::<Data>(raw.get()).map_err(|_| bad("data must be an object of the callback's fields"))?,
            None => Data::default(),
        };
        Ok(Parsed { token, callback_id, name, data })
    }

    fn ok(s: &GameSession, balance: i64) -> Outbound {
        JsonOut::new()
            .str("status", "ok")
            .obj("data", JsonOut::new().num("balance", &amount::format(balance, s.currency)).str("currency", s.currency.code()))
            .reply(200)
    }

    /// The token's session; the currency named, when there is one, must be its own.
    async fn session(&self, ctx: &Ctx, call: &Parsed) -> Result<GameSession, Outbound> {
        let s = ctx.session(CODE, &call.token).await.map_err(|e| refusal(&e))?;
        match &call.data.currency {
            None => {}
            Some(Value::String(c)) if c == s.currency.code() => {}
            Some(Value::String(_)) => return Err(refusal(&AppError::new(ErrorCode::CurrencyMismatch))),
            Some(_) => return Err(bad("currency must be a string")),
        }
        Ok(s)
    }

    async fn init(&self, ctx: &Ctx, call: &Parsed) -> Result<Outbound, Outbound> {
        let s = ctx.live_session(CODE, &call.token).await.map_err(|e| refusal(&e))?;
        let balance = ctx.balance(&s).await.map_err(|e| refusal(&e))?;
        Ok(Self::ok(&s, balance))
    }

    fn amount(call: &Parsed, s: &GameSession) -> Result<i64, Outbound> {
        let raw = call.data.amount.as_ref().ok_or_else(|| bad("data.amount is required"))?;
        let text = raw.get().trim();
        let text = text.strip_prefix('"').and_then(|t| t.strip_suffix('"')).unwrap_or(text);
        amount::parse_padded(text, s.currency).map_err(|_| bad("data.amount is not a decimal amount"))
    }

    async fn money(&self, ctx: &Ctx, call: &Parsed, bet: bool) -> Result<Outbound, Outbound> {
        let round = id_text(call.data.round_id.as_ref()).ok_or_else(|| bad("data.round_id is required"))?;
        let s = self.session(ctx, call).await?;
        let minor = Self::amount(call, &s)?;
        let m = Money { tx: &call.callback_id, round: &round, game: &s.game_id, amount: minor };
        let reply = if bet { ctx.bet(CODE, &s, &m).await } else { ctx.win(CODE, &s, &m).await }.map_err(|e| refusal(&e))?;
        let balance = ctx.answer_balance(&s, &reply).await.map_err(|e| refusal(&e))?;
        Ok(Self::ok(&s, balance))
    }

    async fn refund(&self, ctx: &Ctx, call: &Parsed) -> Result<Outbound, Outbound> {
        let of = id_text(call.data.refund_callback_id.as_ref()).ok_or_else(|| bad("data.refund_callback_id is required"))?;
        let round = id_text(call.data.refund_round_id.as_ref()).unwrap_or_default();
        let s = self.session(ctx, call).await?;
        if call.data.amount.is_some() {
            // Informative (the wallet reverses what was posted), but it must be an amount.
            Self::amount(call, &s)?;
        }
        let reply = ctx.rollback(CODE, &s, &call.callback_id, &of, &round, &s.game_id).await.map_err(|e| refusal(&e))?;
        let balance = ctx.answer_balance(&s, &reply).await.map_err(|e| refusal(&e))?;
        Ok(Self::ok(&s, balance))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signed_values_follow_the_document() {
        let body = br#"{"token":"t","callback_id":"c1","name":"bet","data":{"round_id":"r1","action_id":7,"amount":"1.50","currency":"TND","details":"{\"game\":1}"},"signature":"x"}"#;
        assert_eq!(signed_values(body).unwrap(), ["t", "c1", "bet", "r1:7:1.50:TND:{\"game\":1}"]);
        // Another order is another string; nested arrays flatten; empty values stay.
        let odd = br#"{ "name" : "init", "data" : {}, "token" : "t", "x": [1, [2, null]], "e": "" }"#;
        assert_eq!(signed_values(odd).unwrap(), ["init", "", "t", "1:2:", ""]);
        for bad in [&b"[1]"[..], b"\"s\"", b"{", b"", b"{\"a\":}"] {
            assert!(signed_values(bad).is_none(), "{bad:?}");
        }
    }

    #[test]
    fn signature_is_md5_of_the_star_joined_string() {
        // md5("4242*1*t*c1*bet*r1:1.50*key"), computed by hand: python3 -c
        // 'import hashlib;print(hashlib.md5(b"4242*1*t*c1*bet*r1:1.50*key").hexdigest())'
        let values: Vec<String> = ["t", "c1", "bet", "r1:1.50"].iter().map(|s| s.to_string()).collect();
        assert_eq!(signature("4242", "key", &values), "7b71607ecabca0ae26727f3a4e00fd44");
    }

    /// Through `callback`: every malformed or forged call gets an Evoplay error, HTTP 200,
    /// never a panic (an empty database: no session exists).
    #[tokio::test]
    async fn callbacks_never_fail_outside_evoplays_format() {
        let (t, db) = store::testing::TestDb::migrated(store::Backend::Sqlite).await.unwrap();
        let ctx = Ctx { casino: casino::Casino::new(db.clone(), wallet::Ledger::new(db.clone())) };
        let a = Evoplay::new(&ProviderSettings::local(CODE, "key", "http://x"));
        let signed = |body: &str| {
            let sig = signature(DEMO_PROJECT, "key", &signed_values(body.as_bytes()).unwrap());
            format!("{},\"signature\":\"{sig}\"}}", &body[..body.len() - 1])
        };
        let huge = "9".repeat(400);
        let cases = [
            ("".to_string(), "BadRequest"),
            ("\u{0}\u{ff}".to_string(), "BadRequest"),
            (r#"{"token":"t","callback_id":"c","name":"init","data":{},"signature":"00"}"#.to_string(), "SignatureInvalid"),
            (r#"{"token":"t","callback_id":"c","name":"init","data":{},"signature":7}"#.to_string(), "SignatureInvalid"),
            (signed(r#"{"token":"t","callback_id":"c","name":"jackpot","data":{}}"#), "BadRequest"),
            (signed(r#"{"token":"t","callback_id":"c","name":"init","data":{}}"#), "GameSessionInvalid"),
            (signed(r#"{"token":"t","callback_id":"c","name":"bet","data":{"amount":"1"}}"#), "BadRequest"),
            (signed(&format!(r#"{{"token":"t","callback_id":"c","name":"bet","data":{{"round_id":"r","amount":{huge}}}}}"#)), "GameSessionInvalid"),
            (signed(r#"{"token":"t","callback_id":"c","name":"win","data":{"round_id":"r","amount":"1","currency":5}}"#), "GameSessionInvalid"),
            (signed(r#"{"token":"t","callback_id":"c","name":"refund","data":{}}"#), "BadRequest"),
            (signed(r#"{"token":"t","callback_id":"c","name":"refund","data":{"refund_callback_id":"b"}}"#), "GameSessionInvalid"),
        ];
        for (body, want) in cases {
            let headers = axum::http::HeaderMap::new();
            let out = a.callback(&ctx, Inbound { path: "cb", query: "", headers: &headers, body: body.as_bytes() }).await;
            let v: Value = serde_json::from_slice(&out.body).unwrap();
            assert_eq!((out.status, v["status"].as_str(), v["error"]["code"].as_str()), (200, Some("error"), Some(want)), "{body}");
            assert!(v["error"]["scope"].is_string() && v["error"]["no_refund"] == "1" && v["error"]["message"].is_string(), "{v}");
        }
        db.close().await;
        t.cleanup().await;
    }

    /// Against a real wallet: a repeated callback answers the balance now; refunds name
    /// callbacks; the currency must be the session's.
    #[tokio::test]
    async fn money_calls_against_the_wallet() {
        let k = crate::softswiss::testkit::kit().await;
        let a = Evoplay::new(&ProviderSettings::local(CODE, "key", "http://x"));
        let (p, token) = k.player(CODE, 10_000).await;
        let send = |name: &str, callback: &str, data: &str| {
            let body = format!(r#"{{"token":"{token}","callback_id":"{callback}","name":"{name}","data":{data}}}"#);
            let sig = signature(DEMO_PROJECT, "key", &signed_values(body.as_bytes()).unwrap());
            let body = format!("{},\"signature\":\"{sig}\"}}", &body[..body.len() - 1]);
            let (a, k) = (&a, &k);
            async move {
                let headers = axum::http::HeaderMap::new();
                let out = a.callback(&k.ctx, Inbound { path: "cb", query: "", headers: &headers, body: body.as_bytes() }).await;
                String::from_utf8(out.body).unwrap()
            }
        };
        let ok = |balance: &str| format!(r#"{{"status":"ok","data":{{"balance":{balance},"currency":"TND"}}}}"#);
        assert_eq!(send("init", "i1", "{}").await, ok("10.000"));
        let bet = r#"{"round_id":"r1","action_id":"a1","amount":"1.50","currency":"TND","details":"{}"}"#;
        assert_eq!(send("bet", "c1", bet).await, ok("8.500"));
        assert_eq!(send("win", "c2", r#"{"round_id":"r1","action_id":"a1","final_action":"1","amount":"2.000000","currency":"TND"}"#).await, ok("10.500"));
        // The bet again: accepted, with the balance now.
        assert_eq!(send("bet", "c1", bet).await, ok("10.500"));
        assert!(send("bet", "c3", r#"{"round_id":"r1","amount":"1","currency":"USD"}"#).await.contains("CurrencyMismatch"));
        // A refund of the bet's callback; of one never seen (a tombstone; the late bet refused).
        assert_eq!(send("refund", "c4", r#"{"refund_round_id":"r1","refund_callback_id":"c1","amount":"1.50","currency":"TND"}"#).await, ok("12.000"));
        assert_eq!(send("refund", "c5", r#"{"refund_round_id":"r9","refund_callback_id":"c9","amount":"1","currency":"TND"}"#).await, ok("12.000"));
        assert!(send("bet", "c9", r#"{"round_id":"r9","amount":"1","currency":"TND"}"#).await.contains("TransactionRolledBack"));
        assert_eq!(k.balance(p).await, 12_000);
        k.done().await;
    }

    #[test]
    fn malformed_calls_get_evoplay_errors() {
        let settings = ProviderSettings::local(CODE, "key", "http://x");
        let e = Evoplay::new(&settings);
        let values = |body: &str| signed_values(body.as_bytes()).unwrap();
        let signed = |body: &str| {
            let sig = signature(DEMO_PROJECT, "key", &values(body));
            format!("{}{}\"signature\":\"{sig}\"}}", &body[..body.len() - 1], if body.len() > 2 { "," } else { "" })
        };
        for (body, want) in [
            ("not json".to_string(), "BadRequest"),
            ("{\"token\":\"t\"}".to_string(), "SignatureInvalid"),
            (signed(r#"{"token":1,"callback_id":"c","name":"bet","data":{}}"#), "BadRequest"),
            (signed(r#"{"token":"t","callback_id":{},"name":"bet","data":{}}"#), "BadRequest"),
            (signed(r#"{"token":"t","callback_id":"c","name":"bet","data":"x"}"#), "BadRequest"),
            // Parsed; the round and the amount are refused when read (below).
            (signed(r#"{"token":"t","callback_id":"c","name":"bet","data":{"round_id":{"a":1}}}"#), ""),
            (signed(r#"{"token":"t","callback_id":"c","name":"bet","data":{"amount":[1]}}"#), ""),
        ] {
            match e.verify(body.as_bytes()) {
                Ok(_) => assert!(want.is_empty(), "{body}"),
                Err(out) => {
                    let v: Value = serde_json::from_slice(&out.body).unwrap();
                    assert_eq!((out.status, v["status"].as_str(), v["error"]["code"].as_str()), (200, Some("error"), Some(want)), "{body}");
                }
            }
        }
        // A well-signed call parses (its amount is read later, with the session's currency).
        let ok = signed(r#"{"token":"t","callback_id":17,"name":"bet","data":{"round_id":"r","amount":"1.5","currency":"TND"}}"#);
        let call = e.verify(ok.as_bytes()).ok().unwrap();
        assert_eq!((call.callback_id.as_str(), call.name.as_str()), ("17", "bet"));
        let s = GameSession {
            id: 1,
            user_id: 7,
            provider: CODE.into(),
            game_id: "9001".into(),
            currency: kernel::Currency::Tnd,
            lang: "en".into(),
            platform: "mobile".into(),
            created_at: 0,
            expires_at: 0,
            ends_at: 0,
            player_session_until: None,
            role: 0,
            banned: false,
            self_excluded_until: None,
            cool_off_until: None,
        };
        assert_eq!(Evoplay::amount(&call, &s).ok(), Some(1_500));
        let odd_round = e.verify(signed(r#"{"token":"t","callback_id":"c","name":"bet","data":{"round_id":{"a":1}}}"#).as_bytes()).ok().unwrap();
        assert_eq!(id_text(odd_round.data.round_id.as_ref()), None);
        for amount in ["[1]", "\"-1\"", "1e3", "\"1.0001\"", "99999999999999999999999", "null", "true"] {
            let body = signed(&format!(r#"{{"token":"t","callback_id":"c","name":"bet","data":{{"round_id":"r","amount":{amount}}}}}"#));
            let call = e.verify(body.as_bytes()).ok().unwrap();
            assert!(Evoplay::amount(&call, &s).is_err(), "{amount}");
        }
    }
}
