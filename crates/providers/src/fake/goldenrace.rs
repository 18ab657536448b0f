//! Golden Race's side: flat JSON POSTs to `<action>` carrying a `fingerprint` = md5 of every
//! value in the order written (the fingerprint's own as empty) followed by the private key,
//! the reply read by `status`/`code` (a success must carry `data.fingerprint`). Golden Race
//! resends on 101 (internal error), a 5xx or a timeout. A rollback names the transaction it
//! cancels by its `transactionId`.
//!
//! The signing here is written apart from the adapter's verification: the fake signs the
//! values it writes, as it writes them, never by reading its own bytes back.

use super::{Answer, Delivery, Dialect, Forge, Keys, Op, Outcome, Request};
use crate::goldenrace::{code, digest, CODE};
use crate::rawjson::Obj;

pub struct GoldenRaceFake;

/// One field of a request: its key, its JSON text and the text it signs.
#[derive(Debug, Clone)]
struct Field {
    key: &'static str,
    json: String,
    value: String,
}

fn s(key: &'static str, v: &str) -> Field {
    Field { key, json: serde_json::Value::String(v.to_string()).to_string(), value: v.to_string() }
}

fn n(key: &'static str, v: &str) -> Field {
    Field { key, json: v.to_string(), value: v.to_string() }
}

fn b(key: &'static str, v: bool) -> Field {
    Field { key, json: v.to_string(), value: v.to_string() }
}

/// Compact (`{"k":v,…}`) or spread over lines with spaces around the colons.
fn render(fields: &[Field], pretty: bool) -> String {
    let parts: Vec<String> = fields.iter().map(|f| format!("\"{}\"{}{}", f.key, if pretty { " : " } else { ":" }, f.json)).collect();
    if pretty {
        format!("{{\n  {}\n}}\n", parts.join(",\n  "))
    } else {
        format!("{{{}}}", parts.join(","))
    }
}

/// The fingerprint of `fields` in their order (the fingerprint itself excluded).
fn sign(fields: &[Field], key: &str) -> String {
    digest(fields.iter().filter(|f| f.key != "fingerprint").map(|f| f.value.as_str()), key)
}

impl Dialect for GoldenRaceFake {
    fn code(&self) -> &'static str {
        CODE
    }

    fn signs_raw_body(&self) -> bool {
        true
    }

    fn request(&self, d: &Delivery, keys: &Keys) -> Option<Request> {
        let currency: kernel::Currency = d.currency.parse().unwrap_or(kernel::Currency::Tnd);
        let mut amount = crate::amount::format(d.amount, currency);
        if d.forge == Forge::OddFormatting {
            // `1.5000` for `1.500`: a valid number written otherwise, signed as written.
            amount.push('0');
        }
        let site = keys.extra.get("site_id").map(String::as_str).unwrap_or("demo-site");
        let request_id = format!("rq-{}-{}", d.player, if d.tx.is_empty() { "0" } else { d.tx.as_str() });
        let timestamp = "2025-01-01T10:00:00.000Z";
        let player = d.player.to_string();
        let game_id = if d.game.bytes().all(|c| c.is_ascii_digit()) && !d.game.is_empty() { n("gameId", &d.game) } else { s("gameId", &d.game) };
        let (action, mut fields) = match d.op {
            Op::Authenticate => ("login", vec![s("action", "login"), s("token", &d.token), game_id, s("clientPlatform", "desktop"), s("clientIp", "127.0.0.1")]),
            Op::Balance => ("balance", vec![s("action", "balance"), s("sessionId", &d.token), game_id, s("playerId", &player), s("currency", &d.currency)]),
            Op::Bet | Op::Win => {
                let (action, category) = if d.op == Op::Bet { ("debit", "bet") } else { ("credit", "win") };
                let f = vec![
                    s("action", action),
                    s("sessionId", &d.token),
                    game_id,
                    s("playerId", &player),
                    s("currency", &d.currency),
                    s("gameCycle", &d.round),
                    s("transactionId", &d.tx),
                    n("transactionAmount", &amount),
                    s("transactionCategory", category),
                    b("gameCycleClosed", d.op == Op::Win),
                ];
                (action, f)
            }
            Op::Rollback => {
                let of = d.of.as_deref()?;
                let f = vec![
                    s("action", "rollback"),
                    s("sessionId", &d.token),
                    game_id,
                    s("playerId", &player),
                    s("currency", &d.currency),
                    s("gameCycle", &d.round),
                    s("transactionId", of),
                    n("transactionAmount", &amount),
                    s("transactionCategory", "bet"),
                    s("transactionType", "debit"),
                    b("gameCycleClosed", true),
                ];
                ("rollback", f)
            }
        };
        fields.extend([s("timestamp", timestamp), s("requestId", &request_id), s("siteId", site)]);
        let secret = if d.forge == Forge::WrongSecret { "not-the-secret" } else { keys.secret.as_str() };
        let fingerprint = match &d.forge {
            // Signed over a canonical re-serialisation (keys sorted), sent in the original order.
            Forge::Reserialised => {
                let mut sorted = fields.clone();
                sorted.sort_by_key(|f| f.key);
                sign(&sorted, secret)
            }
            // What our wallet signs a balance reply of this player with, put on this request.
            Forge::ReplyAsRequest => {
                let reply = [s("playerId", &player), s("currency", &d.currency), n("balance", "10.000"), s("sessionId", &d.token), s("timestamp", timestamp), s("requestId", &request_id)];
                sign(&reply, secret)
            }
            _ => sign(&fields, secret),
        };
        fields.push(s("fingerprint", &fingerprint));
        if let Forge::ForOther { player, token } = &d.forge {
            // Signed for this delivery's player, then pointed at another with the fingerprint kept.
            for f in fields.iter_mut() {
                match f.key {
                    "playerId" => *f = s("playerId", &player.to_string()),
                    "sessionId" | "token" => *f = s(f.key, token),
                    _ => {}
                }
            }
        }
        Some(Request {
            path: action.into(),
            query: String::new(),
            headers: vec![("content-type".into(), "application/json".into())],
            body: render(&fields, d.forge == Forge::OddFormatting).into_bytes(),
        })
    }

    fn read(&self, d: &Delivery, http: u16, body: &[u8]) -> Answer {
        let Some(reply) = Obj::parse(body) else {
            return Answer { retry: true, ..Answer::of(Outcome::Refused, format!("http {http}: not JSON"), None) };
        };
        let c = reply.text("code").unwrap_or_default();
        let data = reply.obj("data");
        let currency = data.as_ref().and_then(|x| x.text("currency")).unwrap_or_else(|| d.currency.clone());
        let balance = data.as_ref().and_then(|x| x.text("balance")).and_then(|t| kernel::money::parse_major(&t, currency.parse().unwrap_or(kernel::Currency::Tnd)).ok());
        match reply.bool("status") {
            Some(true) if data.as_ref().is_some_and(|x| x.text("fingerprint").is_some()) => Answer::of(Outcome::Done, c, balance),
            Some(true) => Answer::of(Outcome::Refused, "unsigned reply", balance),
            _ if c == code::INTERNAL_ERROR.to_string() => Answer { retry: true, ..Answer::of(Outcome::Refused, c, balance) },
            _ => Answer::of(Outcome::Refused, c, balance),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use md5::{Digest, Md5};

    fn md5_hex(s: &str) -> String {
        let mut m = Md5::new();
        m.update(s.as_bytes());
        hex::encode(m.finalize())
    }

    fn delivery(op: Op) -> Delivery {
        Delivery { op, player: 7, token: "tok".into(), tx: "t1".into(), round: "r1".into(), game: "10100".into(), amount: 1_500, currency: "TND".into(), of: Some("b1".into()), forge: Forge::None }
    }

    fn keys() -> Keys {
        Keys { secret: "k3y".into(), ..Default::default() }
    }

    fn body(d: &Delivery) -> String {
        String::from_utf8(GoldenRaceFake.request(d, &keys()).unwrap().body).unwrap()
    }

    #[test]
    fn a_credit_is_signed_over_its_values_in_order() {
        let fp = md5_hex("credittok101007TNDr1t11.500wintrue2025-01-01T10:00:00.000Zrq-7-t1demo-sitek3y");
        assert_eq!(
            body(&delivery(Op::Win)),
            format!(
                r#"{{"action":"credit","sessionId":"tok","gameId":10100,"playerId":"7","currency":"TND","gameCycle":"r1","transactionId":"t1","transactionAmount":1.500,"transactionCategory":"win","gameCycleClosed":true,"timestamp":"2025-01-01T10:00:00.000Z","requestId":"rq-7-t1","siteId":"demo-site","fingerprint":"{fp}"}}"#
            )
        );
        assert!(crate::goldenrace::verify(body(&delivery(Op::Win)).as_bytes(), "k3y"));
        // A rollback names the bet.
        let rb = body(&delivery(Op::Rollback));
        assert!(rb.contains(r#""transactionId":"b1","transactionAmount":1.500,"transactionCategory":"bet","transactionType":"debit""#), "{rb}");
        assert!(crate::goldenrace::verify(rb.as_bytes(), "k3y"));
    }

    #[test]
    fn forgeries() {
        let d = delivery(Op::Win);
        let forged = |forge: Forge| body(&Delivery { forge, ..d.clone() });
        // Odd formatting: spaces, newlines and `1.5000`, signed as written — valid.
        let odd = forged(Forge::OddFormatting);
        assert!(odd.contains("\"transactionAmount\" : 1.5000,\n"), "{odd}");
        let fp = md5_hex("credittok101007TNDr1t11.5000wintrue2025-01-01T10:00:00.000Zrq-7-t1demo-sitek3y");
        assert!(odd.contains(&fp));
        assert!(crate::goldenrace::verify(odd.as_bytes(), "k3y"));
        // Signed over the sorted keys' values, sent in the original order — invalid.
        let re = forged(Forge::Reserialised);
        // action, currency, gameCycle, gameCycleClosed, gameId, playerId, requestId, sessionId,
        // siteId, timestamp, transactionAmount, transactionCategory, transactionId.
        let expected = md5_hex("creditTNDr1true101007rq-7-t1tokdemo-site2025-01-01T10:00:00.000Z1.500wint1k3y");
        assert!(re.contains(&expected), "{re}");
        assert!(!crate::goldenrace::verify(re.as_bytes(), "k3y"));
        // A reply's fingerprint on a request — invalid.
        let reply = md5_hex("7TND10.000tok2025-01-01T10:00:00.000Zrq-7-t1k3y");
        let rr = forged(Forge::ReplyAsRequest);
        assert!(rr.contains(&reply), "{rr}");
        assert!(!crate::goldenrace::verify(rr.as_bytes(), "k3y"));
        // Another player's id and session with this player's fingerprint — invalid.
        let other = forged(Forge::ForOther { player: 8, token: "theirs".into() });
        assert!(other.contains(r#""sessionId":"theirs""#) && other.contains(r#""playerId":"8""#));
        assert!(!crate::goldenrace::verify(other.as_bytes(), "k3y"));
        assert!(!crate::goldenrace::verify(forged(Forge::WrongSecret).as_bytes(), "k3y"));
    }

    #[test]
    fn replies_read_by_status() {
        let d = delivery(Op::Bet);
        let a = GoldenRaceFake.read(&d, 200, br#"{"status":true,"code":200,"message":"Success","data":{"playerId":"7","currency":"TND","balance":8.500,"fingerprint":"ab"}}"#);
        assert_eq!((a.outcome, a.code.as_str(), a.balance), (Outcome::Done, "200", Some(8_500)));
        let a = GoldenRaceFake.read(&d, 200, br#"{"status":true,"code":200,"data":{"balance":8.500}}"#);
        assert_eq!(a.outcome, Outcome::Refused, "a success must be signed");
        let a = GoldenRaceFake.read(&d, 200, br#"{"status":false,"code":107,"message":"x","data":{}}"#);
        assert_eq!((a.outcome, a.code.as_str(), a.retry), (Outcome::Refused, "107", false));
        assert!(GoldenRaceFake.read(&d, 200, br#"{"status":false,"code":101,"data":{}}"#).retry);
    }
}
