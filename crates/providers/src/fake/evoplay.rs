//! Evoplay's side: JSON POSTs `{token, callback_id, name, data, signature}` with the md5
//! `*`-joined signature of the values in the order sent, the reply read by its `status`.
//! Evoplay resends a callback answered with an internal error whose outcome is unknown
//! (`scope: internal`, `no_refund: "0"`) or not answered. A cancel is a `refund` naming the
//! bet's `callback_id`. Its replies carry no credentials.

use super::{major, minor_of, Answer, Delivery, Dialect, Forge, Keys, Op, Outcome, Request};
use crate::evoplay::{DEMO_PROJECT, VERSION};
use crate::JsonOut;
use md5::{Digest, Md5};

pub struct EvoplayFake;

impl EvoplayFake {
    /// `data` of `d`: its fields in Evoplay's order, as (name, text) — every one a JSON string.
    fn data(d: &Delivery, callback: &str) -> Option<Vec<(&'static str, String)>> {
        let details = format!("{{\"game\":{{\"game_id\":\"{}\",\"action\":\"spin\"}}}}", d.game);
        let amount = major(d.amount, &d.currency);
        Some(match d.op {
            Op::Authenticate | Op::Balance => Vec::new(),
            Op::Bet => vec![("round_id", d.round.clone()), ("action_id", format!("{callback}-a")), ("amount", amount), ("currency", d.currency.clone()), ("details", details)],
            Op::Win => vec![
                ("round_id", d.round.clone()),
                ("action_id", format!("{callback}-a")),
                ("final_action", "1".into()),
                ("amount", amount),
                ("currency", d.currency.clone()),
                ("details", details),
            ],
            Op::Rollback => vec![
                ("refund_round_id", d.round.clone()),
                ("refund_action_id", format!("{}-a", d.of.clone()?)),
                ("refund_callback_id", d.of.clone()?),
                ("amount", amount),
                ("currency", d.currency.clone()),
                ("details", details),
            ],
        })
    }

    /// The body of `d` with `callback` as its id, signed with `key` for `token`, then sent
    /// with `sent_token`.
    pub fn body(d: &Delivery, project: &str, key: &str, callback: &str, sent_token: &str) -> Option<String> {
        let name = match d.op {
            Op::Authenticate | Op::Balance => "init",
            Op::Bet => "bet",
            Op::Win => "win",
            Op::Rollback => "refund",
        };
        let data = Self::data(d, callback)?;
        // What Evoplay's PHP signer does: project, version, each argument (an array's
        // values joined by ':'), the key, joined by '*'.
        let joined_data: Vec<&str> = data.iter().map(|(_, v)| v.as_str()).collect();
        let signed = [project, VERSION, &d.token, callback, name, &joined_data.join(":"), key].join("*");
        let signature = hex::encode(Md5::digest(signed.as_bytes()));
        let data_json = data.iter().fold(JsonOut::new(), |j, (k, v)| j.str(k, v));
        Some(JsonOut::new().str("token", sent_token).str("callback_id", callback).str("name", name).obj("data", data_json).str("signature", &signature).text())
    }
}

impl Dialect for EvoplayFake {
    fn code(&self) -> &'static str {
        crate::evoplay::CODE
    }

    fn request(&self, d: &Delivery, keys: &Keys) -> Option<Request> {
        let project = keys.extra.get("project").map(String::as_str).unwrap_or(DEMO_PROJECT);
        let key = match d.forge {
            Forge::None | Forge::ForOther { .. } => keys.secret.as_str(),
            Forge::WrongSecret => "not-the-secret",
            Forge::Reserialised | Forge::OddFormatting | Forge::ReplyAsRequest => return None,
        };
        let callback = match d.op {
            Op::Authenticate | Op::Balance => format!("init-{:016x}", rand::random::<u64>()),
            _ => d.tx.clone(),
        };
        // Signed for this delivery's session; sent with the other player's token.
        let sent_token = match &d.forge {
            Forge::ForOther { token, .. } => token.as_str(),
            _ => d.token.as_str(),
        };
        let body = Self::body(d, project, key, &callback, sent_token)?;
        Some(Request { path: "callback".into(), query: String::new(), headers: vec![("content-type".into(), "application/json".into())], body: body.into_bytes() })
    }

    fn read(&self, d: &Delivery, status: u16, body: &[u8]) -> Answer {
        let Ok(v) = serde_json::from_slice::<serde_json::Value>(body) else {
            return Answer { retry: true, ..Answer::of(Outcome::Refused, format!("http {status}: not JSON"), None) };
        };
        match v["status"].as_str() {
            Some("ok") => {
                let currency = v["data"]["currency"].as_str().unwrap_or(&d.currency).to_string();
                Answer::of(Outcome::Done, "ok", minor_of(&v["data"]["balance"], &currency))
            }
            _ => {
                let e = &v["error"];
                let code = e["code"].as_str().or(e["message"].as_str()).unwrap_or("error").to_string();
                let unknown_outcome = e["scope"] == "internal" && e["no_refund"] == "0";
                Answer { retry: unknown_outcome, ..Answer::of(Outcome::Refused, code, None) }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn delivery(op: Op) -> Delivery {
        Delivery { op, player: 7, token: "tok".into(), tx: "cb1".into(), round: "r1".into(), game: "9001".into(), amount: 1_500, currency: "TND".into(), of: None, forge: Forge::None }
    }

    #[test]
    fn a_bet_is_signed_over_its_values_in_order() {
        let body = EvoplayFake::body(&delivery(Op::Bet), "4242", "key", "cb1", "tok").unwrap();
        let details = r#"{\"game\":{\"game_id\":\"9001\",\"action\":\"spin\"}}"#;
        // md5("4242*1*tok*cb1*bet*r1:cb1-a:1.500:TND:{"game":{"game_id":"9001","action":"spin"}}*key"), by hand:
        // python3 -c 'import hashlib;print(hashlib.md5(b"4242*1*tok*cb1*bet*r1:cb1-a:1.500:TND:{\"game\":{\"game_id\":\"9001\",\"action\":\"spin\"}}*key").hexdigest())'
        let want = format!(
            r#"{{"token":"tok","callback_id":"cb1","name":"bet","data":{{"round_id":"r1","action_id":"cb1-a","amount":"1.500","currency":"TND","details":"{details}"}},"signature":"3a004274e768dcfe7ea5e714644a2763"}}"#
        );
        assert_eq!(body, want);
        // The adapter reads the same values from the bytes.
        let values = crate::evoplay::signed_values(body.as_bytes()).unwrap();
        assert_eq!(crate::evoplay::signature("4242", "key", &values), "3a004274e768dcfe7ea5e714644a2763");
    }

    #[test]
    fn forgeries() {
        let keys = Keys { secret: "key".into(), ..Default::default() };
        let sig = |r: &Request| serde_json::from_slice::<serde_json::Value>(&r.body).unwrap()["signature"].as_str().unwrap().to_string();
        let good = EvoplayFake.request(&delivery(Op::Win), &keys).unwrap();
        let wrong = EvoplayFake.request(&Delivery { forge: Forge::WrongSecret, ..delivery(Op::Win) }, &keys).unwrap();
        assert_ne!(sig(&good), sig(&wrong));
        let other = EvoplayFake.request(&Delivery { forge: Forge::ForOther { player: 8, token: "tok8".into() }, ..delivery(Op::Bet) }, &keys).unwrap();
        let own = EvoplayFake.request(&delivery(Op::Bet), &keys).unwrap();
        let v: serde_json::Value = serde_json::from_slice(&other.body).unwrap();
        assert_eq!((v["token"].as_str(), sig(&other)), (Some("tok8"), sig(&own)));
        for forge in [Forge::Reserialised, Forge::OddFormatting, Forge::ReplyAsRequest] {
            assert!(EvoplayFake.request(&Delivery { forge, ..delivery(Op::Win) }, &keys).is_none());
        }
        // A refund names the bet's callback.
        let refund = EvoplayFake.request(&Delivery { of: Some("cb0".into()), ..delivery(Op::Rollback) }, &keys).unwrap();
        let v: serde_json::Value = serde_json::from_slice(&refund.body).unwrap();
        assert_eq!((v["name"].as_str(), v["data"]["refund_callback_id"].as_str()), (Some("refund"), Some("cb0")));
    }

    #[test]
    fn replies() {
        let d = delivery(Op::Win);
        assert_eq!(EvoplayFake.read(&d, 200, br#"{"status":"ok","data":{"balance":12.500,"currency":"TND"}}"#), Answer::of(Outcome::Done, "ok", Some(12_500)));
        let a = EvoplayFake.read(&d, 200, br#"{"status":"error","error":{"scope":"internal","no_refund":"0","message":"x","code":"TransactionFailed"}}"#);
        assert!(a.retry && a.outcome == Outcome::Refused && a.code == "TransactionFailed");
        let a = EvoplayFake.read(&d, 200, br#"{"status":"error","error":{"scope":"user","no_refund":"1","message":"Not enough money"}}"#);
        assert!(!a.retry && a.code == "Not enough money");
    }
}
