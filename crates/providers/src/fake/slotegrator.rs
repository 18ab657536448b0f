//! Slotegrator's side: form POSTs with `action=…`, signed in the `X-Merchant-Id`,
//! `X-Timestamp`, `X-Nonce`, `X-Sign` headers (HMAC-SHA1 over PHP's `http_build_query` of the
//! sorted headers and parameters), the JSON reply read by its `error_code`. Slotegrator
//! resends a win, refund or rollback answered with `INTERNAL_ERROR` (or not answered); a bet
//! it gives up on is refunded by a separate call. A cancel is a `refund` naming the bet's
//! `bet_transaction_id`. Its replies carry no credentials.

use super::{major, minor_of, Answer, Delivery, Dialect, Forge, Keys, Op, Outcome, Request};
use crate::slotegrator::{code, signed_headers, DEMO_MERCHANT_ID};

pub struct SlotegratorFake;

fn pairs(list: &[(&str, String)]) -> Vec<(String, String)> {
    list.iter().map(|(k, v)| (k.to_string(), v.clone())).collect()
}

impl SlotegratorFake {
    /// The parameters of `d`, in the order Slotegrator's PHP client builds them.
    fn params(d: &Delivery) -> Option<Vec<(String, String)>> {
        let who = [("player_id", d.player.to_string()), ("currency", d.currency.clone()), ("session_id", d.token.clone())];
        let mut p = match d.op {
            Op::Authenticate | Op::Balance => pairs(&[("action", "balance".into())]),
            Op::Bet => pairs(&[("action", "bet".into()), ("amount", major(d.amount, &d.currency)), ("type", "bet".into()), ("finished", "0".into())]),
            Op::Win => pairs(&[("action", "win".into()), ("amount", major(d.amount, &d.currency)), ("type", "win".into()), ("finished", "1".into())]),
            Op::Rollback => pairs(&[("action", "refund".into()), ("amount", major(d.amount, &d.currency)), ("bet_transaction_id", d.of.clone()?)]),
        };
        p.extend(pairs(&who));
        if !matches!(d.op, Op::Authenticate | Op::Balance) {
            p.extend(pairs(&[("game_uuid", d.game.clone()), ("transaction_id", d.tx.clone()), ("round_id", d.round.clone())]));
        }
        Some(p)
    }

    /// `d` signed at `timestamp` with `nonce`.
    pub fn request_at(d: &Delivery, keys: &Keys, timestamp: &str, nonce: &str) -> Option<Request> {
        if matches!(d.forge, Forge::Reserialised | Forge::OddFormatting | Forge::ReplyAsRequest) {
            return None;
        }
        let mut params = Self::params(d)?;
        let merchant = keys.extra.get("merchant_id").map(String::as_str).unwrap_or(DEMO_MERCHANT_ID);
        let key = if d.forge == Forge::WrongSecret { "not-the-secret" } else { keys.secret.as_str() };
        let mut headers = signed_headers(key, merchant, timestamp, nonce, &params);
        if let Forge::ForOther { player, token } = &d.forge {
            // Signed for this delivery's player, then pointed at the other one.
            for (k, v) in params.iter_mut() {
                match k.as_str() {
                    "player_id" => *v = player.to_string(),
                    "session_id" => *v = token.clone(),
                    _ => {}
                }
            }
        }
        headers.push(("content-type".into(), "application/x-www-form-urlencoded".into()));
        Some(Request { path: "callback".into(), query: String::new(), headers, body: crate::glue::form_body(&params).into_bytes() })
    }
}

impl Dialect for SlotegratorFake {
    fn code(&self) -> &'static str {
        crate::slotegrator::CODE
    }

    fn request(&self, d: &Delivery, keys: &Keys) -> Option<Request> {
        let now = (kernel::clock::now_ms() / 1000).to_string();
        let nonce = format!("{:032x}", rand::random::<u128>());
        Self::request_at(d, keys, &now, &nonce)
    }

    fn read(&self, d: &Delivery, status: u16, body: &[u8]) -> Answer {
        let Ok(v) = serde_json::from_slice::<serde_json::Value>(body) else {
            return Answer { retry: true, ..Answer::of(Outcome::Refused, format!("http {status}: not JSON"), None) };
        };
        let balance = minor_of(&v["balance"], &d.currency);
        match v["error_code"].as_str() {
            None if status == 200 && balance.is_some() => Answer::of(Outcome::Done, "ok", balance),
            None => Answer::of(Outcome::Refused, format!("http {status}: no balance"), None),
            Some(c) => {
                let settles = matches!(d.op, Op::Win | Op::Rollback);
                Answer { retry: settles && c == code::INTERNAL_ERROR, ..Answer::of(Outcome::Refused, c, None) }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn delivery(op: Op) -> Delivery {
        Delivery { op, player: 7, token: "tok".into(), tx: "t1".into(), round: "r1".into(), game: "g-1".into(), amount: 1_500, currency: "TND".into(), of: None, forge: Forge::None }
    }

    fn keys() -> Keys {
        Keys { secret: "merchant-key".into(), ..Default::default() }
    }

    fn header<'a>(r: &'a Request, name: &str) -> &'a str {
        r.headers.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str()).unwrap()
    }

    #[test]
    fn a_bet_is_a_signed_form() {
        let r = SlotegratorFake::request_at(&delivery(Op::Bet), &keys(), "1700000000", "n-1").unwrap();
        let body = String::from_utf8(r.body.clone()).unwrap();
        assert_eq!(body, "action=bet&amount=1.500&type=bet&finished=0&player_id=7&currency=TND&session_id=tok&game_uuid=g-1&transaction_id=t1&round_id=r1");
        assert_eq!((header(&r, "X-Merchant-Id"), header(&r, "X-Timestamp"), header(&r, "X-Nonce")), ("demo-merchant", "1700000000", "n-1"));
        // By hand: HMAC-SHA1("merchant-key", the sorted query) — python3 hmac.new(...).hexdigest().
        let signed = "X-Merchant-Id=demo-merchant&X-Nonce=n-1&X-Timestamp=1700000000&action=bet&amount=1.500&currency=TND&finished=0&game_uuid=g-1&player_id=7&round_id=r1&session_id=tok&transaction_id=t1&type=bet";
        assert_eq!(crate::slotegrator::signed_string("demo-merchant", "1700000000", "n-1", &crate::glue::form_params(&r.body).unwrap()), signed);
        assert_eq!(header(&r, "X-Sign"), "8b11695407264d89cf77438835269a22ced8b189");
    }

    #[test]
    fn forgeries() {
        let good = SlotegratorFake::request_at(&delivery(Op::Win), &keys(), "1", "n").unwrap();
        let wrong = SlotegratorFake::request_at(&Delivery { forge: Forge::WrongSecret, ..delivery(Op::Win) }, &keys(), "1", "n").unwrap();
        assert_eq!(good.body, wrong.body);
        assert_ne!(header(&good, "X-Sign"), header(&wrong, "X-Sign"));
        let other = SlotegratorFake::request_at(&Delivery { forge: Forge::ForOther { player: 8, token: "tok8".into() }, ..delivery(Op::Bet) }, &keys(), "1", "n").unwrap();
        let body = String::from_utf8(other.body.clone()).unwrap();
        assert!(body.contains("player_id=8") && body.contains("session_id=tok8"), "{body}");
        let params = crate::glue::form_params(&other.body).unwrap();
        assert_ne!(header(&other, "X-Sign"), crate::slotegrator::sign("merchant-key", "demo-merchant", "1", "n", &params));
        for forge in [Forge::Reserialised, Forge::OddFormatting, Forge::ReplyAsRequest] {
            assert!(SlotegratorFake::request_at(&Delivery { forge, ..delivery(Op::Win) }, &keys(), "1", "n").is_none());
        }
    }

    #[test]
    fn replies() {
        let d = delivery(Op::Win);
        assert_eq!(SlotegratorFake.read(&d, 200, br#"{"balance":12.500,"transaction_id":"9"}"#), Answer::of(Outcome::Done, "ok", Some(12_500)));
        let a = SlotegratorFake.read(&d, 200, br#"{"error_code":"INTERNAL_ERROR","error_description":"x"}"#);
        assert!(a.retry && a.outcome == Outcome::Refused);
        let a = SlotegratorFake.read(&delivery(Op::Bet), 200, br#"{"error_code":"INSUFFICIENT_FUNDS","error_description":"x"}"#);
        assert!(!a.retry && a.code == "INSUFFICIENT_FUNDS");
    }
}
