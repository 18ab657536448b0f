//! Pragmatic Play's side: form POSTs to `<method>.html` with `hash`, the JSON reply read
//! by its `error` code. Pragmatic resends on 100 ("internal error, retry") and on a
//! timeout; 120 is final. It sends no token with money calls (only `userId`), and a refund
//! names the bet's `reference`.

use super::{major, minor_of, Answer, Delivery, Dialect, Forge, Keys, Op, Outcome, Request};
use crate::pragmatic::{code, sign};

pub struct PragmaticFake;

fn pairs(list: &[(&str, String)]) -> Vec<(String, String)> {
    list.iter().map(|(k, v)| (k.to_string(), v.clone())).collect()
}

impl Dialect for PragmaticFake {
    fn code(&self) -> &'static str {
        crate::pragmatic::CODE
    }

    fn request(&self, d: &Delivery, keys: &Keys) -> Option<Request> {
        let common = [("providerId", "PragmaticPlay".to_string()), ("userId", d.player.to_string())];
        let money = |extra: &[(&str, String)]| {
            let mut p = pairs(&common);
            p.extend(pairs(&[
                ("gameId", d.game.clone()),
                ("roundId", d.round.clone()),
                ("amount", major(d.amount, &d.currency)),
                ("reference", d.tx.clone()),
                ("timestamp", "1700000000000".into()),
                ("roundDetails", "spin".into()),
            ]));
            p.extend(pairs(extra));
            p
        };
        let (method, mut params) = match d.op {
            Op::Authenticate => ("authenticate", pairs(&[("providerId", "PragmaticPlay".into()), ("token", d.token.clone()), ("gameId", d.game.clone())])),
            Op::Balance => ("balance", { let mut p = pairs(&common); p.push(("token".into(), d.token.clone())); p }),
            Op::Bet => ("bet", money(&[("platform", "MOBILE".into())])),
            Op::Win => ("result", money(&[])),
            // A refund names the bet; a rollback of something else is the same call.
            Op::Rollback => ("refund", { let mut p = pairs(&common); p.push(("reference".into(), d.of.clone()?)); p.push(("roundId".into(), d.round.clone())); p }),
        };
        let secret = if d.forge == Forge::WrongSecret { "not-the-secret" } else { keys.secret.as_str() };
        sign(&mut params, secret);
        if let Forge::ForOther { player, .. } = &d.forge {
            // The signed request, its userId changed afterwards.
            for (k, v) in params.iter_mut() {
                if k == "userId" {
                    *v = player.to_string();
                }
            }
        }
        if matches!(d.forge, Forge::Reserialised | Forge::OddFormatting | Forge::ReplyAsRequest) {
            return None;
        }
        Some(Request {
            path: format!("{method}.html"),
            query: String::new(),
            headers: vec![("content-type".into(), "application/x-www-form-urlencoded".into())],
            body: crate::glue::form_body(&params).into_bytes(),
        })
    }

    fn read(&self, d: &Delivery, status: u16, body: &[u8]) -> Answer {
        let Ok(v) = serde_json::from_slice::<serde_json::Value>(body) else {
            return Answer { retry: true, ..Answer::of(Outcome::Refused, format!("http {status}: not JSON"), None) };
        };
        let error = v["error"].as_i64().unwrap_or(-1);
        let currency = v["currency"].as_str().unwrap_or(&d.currency).to_string();
        let balance = minor_of(&v["cash"], &currency);
        match error {
            code::SUCCESS => Answer::of(Outcome::Done, "0", balance),
            code::RETRY => Answer { retry: true, ..Answer::of(Outcome::Refused, "100", balance) },
            e => Answer::of(Outcome::Refused, e.to_string(), balance),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bet_is_a_signed_form() {
        let d = Delivery { op: Op::Bet, player: 7, token: "t".into(), tx: "r1".into(), round: "rd".into(), game: "vs20".into(), amount: 1_500, currency: "TND".into(), of: None, forge: Forge::None };
        let r = PragmaticFake.request(&d, &Keys { secret: "k".into(), ..Default::default() }).unwrap();
        assert_eq!(r.path, "bet.html");
        let params = crate::glue::form_params(&r.body).unwrap();
        let get = |k: &str| params.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone()).unwrap();
        assert_eq!((get("amount").as_str(), get("reference").as_str(), get("userId").as_str()), ("1.500", "r1", "7"));
        assert_eq!(get("hash"), crate::pragmatic::hash(&params, "k"));
        // The other player's id with the signer's hash no longer matches.
        let other = Delivery { forge: Forge::ForOther { player: 8, token: String::new() }, ..d };
        let r = PragmaticFake.request(&other, &Keys { secret: "k".into(), ..Default::default() }).unwrap();
        let params = crate::glue::form_params(&r.body).unwrap();
        let hash = params.iter().find(|(n, _)| n == "hash").unwrap().1.clone();
        assert_ne!(hash, crate::pragmatic::hash(&params, "k"));
    }
}
