//! The SoftSwiss-style aggregator's side: JSON POSTs to `play` (bets and wins, a balance
//! request when there are no actions) and `rollback`, signed with `X-Request-Sign` =
//! HMAC-SHA256 of the exact bytes sent; HTTP 200 is success, any other status a refusal
//! with `{code, message}`. The aggregator resends on a 5xx or no answer (a timeout), never
//! on a 4xx. Its replies carry no credentials.

use super::{Answer, Delivery, Dialect, Forge, Keys, Op, Outcome, Request};
use crate::softswiss::sign;
use serde_json::{json, Value};

/// The aggregator's side for one provider code of the dialect (`softswiss`, `tvbet`, `inbet`).
pub struct SoftSwissFake {
    pub code: &'static str,
}

impl Default for SoftSwissFake {
    fn default() -> SoftSwissFake {
        SoftSwissFake { code: crate::softswiss::CODE }
    }
}

impl SoftSwissFake {
    /// The method and body of `d`.
    fn call(d: &Delivery) -> Option<(&'static str, Value)> {
        let actions = match d.op {
            Op::Authenticate | Op::Balance => json!([]),
            Op::Bet => json!([{"action": "bet", "action_id": d.tx, "amount": d.amount}]),
            Op::Win => json!([{"action": "win", "action_id": d.tx, "amount": d.amount}]),
            Op::Rollback => json!([{"action": "rollback", "action_id": d.tx, "original_action_id": d.of.clone()?}]),
        };
        let method = if d.op == Op::Rollback { "rollback" } else { "play" };
        let mut body = json!({"user_id": d.player.to_string(), "currency": d.currency, "session_id": d.token, "actions": actions});
        if !matches!(d.op, Op::Authenticate | Op::Balance) {
            body["game"] = json!(d.game);
            body["game_id"] = json!(d.round);
            body["finished"] = json!(d.op != Op::Bet);
        }
        Some((method, body))
    }
}

impl Dialect for SoftSwissFake {
    fn code(&self) -> &'static str {
        self.code
    }

    fn signs_raw_body(&self) -> bool {
        true
    }

    fn request(&self, d: &Delivery, keys: &Keys) -> Option<Request> {
        let (method, body) = Self::call(d)?;
        let compact = serde_json::to_string(&body).ok()?;
        let (sent, signature) = match &d.forge {
            Forge::None => (compact.clone(), sign(&keys.secret, compact.as_bytes())),
            Forge::WrongSecret => (compact.clone(), sign("not-the-secret", compact.as_bytes())),
            // Valid JSON with spaces and newlines, signed over exactly those bytes.
            Forge::OddFormatting => {
                let pretty = serde_json::to_string_pretty(&body).ok()?;
                let sig = sign(&keys.secret, pretty.as_bytes());
                (pretty, sig)
            }
            // Signed over the compact form, sent pretty.
            Forge::Reserialised => (serde_json::to_string_pretty(&body).ok()?, sign(&keys.secret, compact.as_bytes())),
            // Signed for this delivery's player, then pointed at the other one.
            Forge::ForOther { player, token } => {
                let mut other = body.clone();
                other["user_id"] = json!(player.to_string());
                other["session_id"] = json!(token);
                (serde_json::to_string(&other).ok()?, sign(&keys.secret, compact.as_bytes()))
            }
            Forge::ReplyAsRequest => return None,
        };
        Some(Request {
            path: method.into(),
            query: String::new(),
            headers: vec![("content-type".into(), "application/json".into()), ("X-Request-Sign".into(), signature)],
            body: sent.into_bytes(),
        })
    }

    fn read(&self, _: &Delivery, status: u16, body: &[u8]) -> Answer {
        let Ok(v) = serde_json::from_slice::<Value>(body) else {
            return Answer { retry: status >= 500, ..Answer::of(Outcome::Refused, format!("http {status}: not JSON"), None) };
        };
        // Subunits are our minor units: an integer.
        let balance = v["balance"].as_i64();
        if status == 200 && balance.is_some() {
            return Answer::of(Outcome::Done, "200", balance);
        }
        let code = v["code"].as_i64().map(|c| c.to_string()).unwrap_or_else(|| format!("http {status}"));
        Answer::of(Outcome::Refused, code, balance)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn delivery(op: Op, forge: Forge) -> Delivery {
        Delivery { op, player: 7, token: "tok".into(), tx: "a1".into(), round: "r1".into(), game: "g".into(), amount: 1_500, currency: "TND".into(), of: Some("a0".into()), forge }
    }

    fn keys() -> Keys {
        Keys { secret: "secret".into(), ..Default::default() }
    }

    fn header(r: &Request) -> &str {
        r.headers.iter().find(|(k, _)| k == "X-Request-Sign").map(|(_, v)| v.as_str()).unwrap()
    }

    #[test]
    fn a_bet_is_signed_over_its_bytes() {
        let r = SoftSwissFake::default().request(&delivery(Op::Bet, Forge::None), &keys()).unwrap();
        let body = String::from_utf8(r.body.clone()).unwrap();
        assert_eq!(r.path, "play");
        assert_eq!(
            body,
            r#"{"actions":[{"action":"bet","action_id":"a1","amount":1500}],"currency":"TND","finished":false,"game":"g","game_id":"r1","session_id":"tok","user_id":"7"}"#
        );
        // By hand: python3 -c 'import hmac,hashlib;print(hmac.new(b"secret", body, hashlib.sha256).hexdigest())'
        assert_eq!(header(&r), "79a696bf93a37ab71af9418cf5cf5215bf8758f0c4901c1fbc735f4a18f00cfe");
        let rb = SoftSwissFake::default().request(&delivery(Op::Rollback, Forge::None), &keys()).unwrap();
        assert_eq!(rb.path, "rollback");
        assert!(String::from_utf8(rb.body).unwrap().contains(r#"{"action":"rollback","action_id":"a1","original_action_id":"a0"}"#));
    }

    #[test]
    fn forgeries() {
        let good = SoftSwissFake::default().request(&delivery(Op::Win, Forge::None), &keys()).unwrap();
        let wrong = SoftSwissFake::default().request(&delivery(Op::Win, Forge::WrongSecret), &keys()).unwrap();
        assert_eq!(good.body, wrong.body);
        assert_ne!(header(&good), header(&wrong));
        let odd = SoftSwissFake::default().request(&delivery(Op::Win, Forge::OddFormatting), &keys()).unwrap();
        assert!(odd.body.contains(&b'\n'));
        assert_eq!(header(&odd), sign("secret", &odd.body));
        let re = SoftSwissFake::default().request(&delivery(Op::Win, Forge::Reserialised), &keys()).unwrap();
        assert_eq!(re.body, odd.body);
        assert_eq!(header(&re), header(&good));
        let other = SoftSwissFake::default().request(&delivery(Op::Bet, Forge::ForOther { player: 8, token: "tok8".into() }), &keys()).unwrap();
        let v: Value = serde_json::from_slice(&other.body).unwrap();
        assert_eq!((v["user_id"].as_str(), v["session_id"].as_str()), (Some("8"), Some("tok8")));
        assert_ne!(header(&other), sign("secret", &other.body));
        assert!(SoftSwissFake::default().request(&delivery(Op::Win, Forge::ReplyAsRequest), &keys()).is_none());
    }

    #[test]
    fn replies() {
        let d = delivery(Op::Bet, Forge::None);
        assert_eq!(SoftSwissFake::default().read(&d, 200, br#"{"balance":8500,"game_id":"r1","transactions":[]}"#), Answer::of(Outcome::Done, "200", Some(8_500)));
        assert_eq!(SoftSwissFake::default().read(&d, 412, br#"{"code":100,"message":"Not enough funds.","balance":10}"#), Answer::of(Outcome::Refused, "100", Some(10)));
        assert_eq!(SoftSwissFake::default().read(&d, 403, br#"{"code":403,"message":"Forbidden"}"#).code, "403");
    }
}
