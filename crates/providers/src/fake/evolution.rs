//! Evolution's side: JSON POSTs to `<method>?authToken=…` with `sid`, `userId`, `uuid` and
//! `transaction{id, refId, amount}` (6 fixed decimals), the reply read by its `status`.
//! Evolution resends on `TEMPORARY_ERROR` (`retransmission`), a 5xx or a timeout; it takes
//! `BET_ALREADY_EXIST` / `BET_ALREADY_SETTLED` as "delivered before". A bet is its refId,
//! which the fake takes from the delivery's round; a cancel names the bet by that refId
//! only (the delivery's `of` cannot be said), and the authentication the table asks for is
//! the `balance` call Evolution makes when a table opens (its `check` answers no balance).

use super::{Answer, Delivery, Dialect, Forge, Keys, Op, Outcome, Request};
use crate::evolution::{status, CODE, DECIMALS};
use crate::rawjson::Obj;
use crate::JsonOut;

pub struct EvolutionFake;

fn currency(d: &Delivery) -> kernel::Currency {
    d.currency.parse().unwrap_or(kernel::Currency::Tnd)
}

impl Dialect for EvolutionFake {
    fn code(&self) -> &'static str {
        CODE
    }

    fn request(&self, d: &Delivery, keys: &Keys) -> Option<Request> {
        // A shared secret in the query: no body signature to re-serialise, no reply to reuse.
        if matches!(d.forge, Forge::Reserialised | Forge::OddFormatting | Forge::ReplyAsRequest) {
            return None;
        }
        // Built for this delivery's player, then pointed at another (the sid stays ours).
        let user = match &d.forge {
            Forge::ForOther { player, .. } => player.to_string(),
            _ => d.player.to_string(),
        };
        let c = currency(d);
        let game = JsonOut::new()
            .str("id", &d.round)
            .str("type", "roulette")
            .obj("details", JsonOut::new().obj("table", JsonOut::new().str("id", &d.game).value("vid", &serde_json::Value::Null)));
        let transaction = JsonOut::new().str("id", &d.tx).str("refId", &d.round).num("amount", &crate::amount::format_fixed(d.amount, c, DECIMALS));
        let method = match d.op {
            Op::Authenticate | Op::Balance => "balance",
            Op::Bet => "debit",
            Op::Win => "credit",
            Op::Rollback => "cancel",
        };
        let uuid = format!("{method}-{}-{}", d.player, if d.tx.is_empty() { "0" } else { d.tx.as_str() });
        let mut body = JsonOut::new().str("sid", &d.token).str("userId", &user).str("currency", c.code()).obj("game", game);
        if method != "balance" {
            body = body.obj("transaction", transaction);
        }
        let body = body.str("uuid", &uuid);
        let secret = if d.forge == Forge::WrongSecret { "not-the-secret" } else { keys.secret.as_str() };
        Some(Request {
            path: method.into(),
            query: format!("authToken={}", crate::glue::form_encode(secret)),
            headers: vec![("content-type".into(), "application/json".into())],
            body: body.text().into_bytes(),
        })
    }

    fn read(&self, d: &Delivery, http: u16, body: &[u8]) -> Answer {
        let Some(reply) = Obj::parse(body) else {
            return Answer { retry: true, ..Answer::of(Outcome::Refused, format!("http {http}: not JSON"), None) };
        };
        let st = reply.text("status").unwrap_or_default();
        let balance = reply.text("balance").and_then(|t| crate::amount::parse_padded(&t, currency(d)).ok());
        match st.as_str() {
            status::OK => Answer::of(Outcome::Done, st, balance),
            status::BET_ALREADY_EXIST | status::BET_ALREADY_SETTLED => Answer::of(Outcome::Duplicate, st, balance),
            _ if st == status::TEMPORARY_ERROR || reply.bool("retransmission") == Some(true) => Answer { retry: true, ..Answer::of(Outcome::Refused, st, balance) },
            _ => Answer::of(Outcome::Refused, st, balance),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn delivery(op: Op) -> Delivery {
        Delivery { op, player: 7, token: "tok".into(), tx: "t1".into(), round: "r1".into(), game: "vip1".into(), amount: 1_500, currency: "TND".into(), of: Some("b1".into()), forge: Forge::None }
    }

    fn keys() -> Keys {
        Keys { secret: "s3cr&t".into(), ..Default::default() }
    }

    #[test]
    fn a_debit_is_json_with_the_token_in_the_query() {
        let r = EvolutionFake.request(&delivery(Op::Bet), &keys()).unwrap();
        assert_eq!((r.path.as_str(), r.query.as_str()), ("debit", "authToken=s3cr%26t"));
        assert_eq!(
            String::from_utf8(r.body).unwrap(),
            r#"{"sid":"tok","userId":"7","currency":"TND","game":{"id":"r1","type":"roulette","details":{"table":{"id":"vip1","vid":null}}},"transaction":{"id":"t1","refId":"r1","amount":1.500000},"uuid":"debit-7-t1"}"#
        );
        let r = EvolutionFake.request(&delivery(Op::Rollback), &keys()).unwrap();
        assert_eq!(r.path, "cancel");
        assert!(String::from_utf8(r.body).unwrap().contains(r#""transaction":{"id":"t1","refId":"r1""#), "a cancel names the bet's refId");
        let r = EvolutionFake.request(&Delivery { forge: Forge::WrongSecret, ..delivery(Op::Win) }, &keys()).unwrap();
        assert_eq!((r.path.as_str(), r.query.as_str()), ("credit", "authToken=not-the-secret"));
        let r = EvolutionFake.request(&Delivery { forge: Forge::ForOther { player: 8, token: "theirs".into() }, ..delivery(Op::Bet) }, &keys()).unwrap();
        let body = String::from_utf8(r.body).unwrap();
        assert!(body.contains(r#""sid":"tok","userId":"8""#), "{body}");
        for forge in [Forge::Reserialised, Forge::OddFormatting, Forge::ReplyAsRequest] {
            assert!(EvolutionFake.request(&Delivery { forge, ..delivery(Op::Win) }, &keys()).is_none());
        }
    }

    #[test]
    fn replies_read_by_status() {
        let d = delivery(Op::Bet);
        let a = EvolutionFake.read(&d, 200, br#"{"status":"OK","balance":98.500000,"bonus":0.000000,"uuid":"u"}"#);
        assert_eq!((a.outcome, a.code.as_str(), a.balance, a.retry), (Outcome::Done, "OK", Some(98_500), false));
        let a = EvolutionFake.read(&d, 200, br#"{"status":"BET_ALREADY_EXIST","balance":1.000000}"#);
        assert_eq!((a.outcome, a.balance), (Outcome::Duplicate, Some(1_000)));
        let a = EvolutionFake.read(&d, 200, br#"{"status":"INSUFFICIENT_FUNDS","balance":1.000000}"#);
        assert_eq!((a.outcome, a.retry), (Outcome::Refused, false));
        let a = EvolutionFake.read(&d, 200, br#"{"status":"TEMPORARY_ERROR","balance":0.000000,"retransmission":true}"#);
        assert_eq!((a.outcome, a.retry), (Outcome::Refused, true));
        let a = EvolutionFake.read(&d, 200, b"<html>");
        assert!(a.retry);
    }
}
