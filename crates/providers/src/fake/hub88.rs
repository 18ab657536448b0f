//! Hub88's side: JSON POSTs to `user/balance` and `transaction/{bet,win,rollback}`, each
//! signed with Hub88's RSA private key over the exact bytes sent (`X-Hub88-Signature`,
//! base64 PKCS#1 v1.5 SHA-256), the reply read by its `status`. Amounts are integers of
//! 1/100 000 of the major unit. Hub88 resends a win or rollback answered with
//! `RS_ERROR_UNKNOWN` or not answered; a bet answered with anything but `RS_OK`,
//! `RS_ERROR_NOT_ENOUGH_MONEY` or `RS_ERROR_LIMIT_REACHED` it rolls back with a separate
//! call (left to the fake's caller: one delivery is one request). Its replies carry no
//! credentials.
//!
//! Keys: `keys.extra["private_key"]`, a PKCS#8 PEM (demo and tests: the published demo key
//! of `hub88_demo_key.pem`, see [`demo_private_key`]).

use super::{Answer, Delivery, Dialect, Forge, Keys, Op, Outcome, Request};
use crate::hub88::sign;
use rsa::pkcs8::DecodePrivateKey;
use rsa::RsaPrivateKey;
use serde_json::{json, Value};

pub struct Hub88Fake;

/// The demo key file: a label, then the PEM.
const DEMO_KEY_FILE: &str = include_str!("hub88_demo_key.pem");

/// The demo private key PEM (DEMO ONLY: published in this repository).
pub fn demo_private_key() -> &'static str {
    &DEMO_KEY_FILE[DEMO_KEY_FILE.find("-----BEGIN").unwrap_or(0)..]
}

/// A key that is not Hub88's (the wrong-key forgery); 1024 bits, tests only.
const FOREIGN_KEY: &str = "-----BEGIN PRIVATE KEY-----
MIICdwIBADANBgkqhkiG9w0BAQEFAASCAmEwggJdAgEAAoGBALyhkChyFVlurORz
HAznM5Eu/UtYReRYtAdfj9bg4+uxltkJZMGPN6J5PT2bkqC1omUOItbuHI4GNT9F
YixsQVyqazZIyED4Q75PbM1Rxz2JH77ULiDjvQfVB7xFaFjkRC4J9SyKuQcaGSmD
H9ZoNdRIv55//KWIHZR0H6BVJngtAgMBAAECgYBK6XLhzSTTZpO9CkXqjes5zkqD
oKPpIp0kjHwIXznFAbshqIxeHm1+1d1PWThrIJdEwM9vQhMPCEIfRYPOlpOB9hTB
Maq708w2SBXDZZ5o/kUY6GPWlYypiIxWhI5G0pfxPzgZih99ArnL4XEzN6fswz1K
3VqLYXHNOFtWOdIlVQJBANzeBoxxV8DHlTNYLagytrojT7vJbXvc7Bc4vjHUvEuN
3Wn1RdRArph25afSgMR+dTZ4p/1enaJcUiKqxBodX2sCQQDaoteuIxmp0Uy5AzWW
gBdhXRcKBoqm0rD65p4lyPLCuUl2fRDgk9X7OkYHLe6FXHaoB2HkhS2UPiEt6ewB
guTHAkEA2VeW5B8o9miwFp2AGFMHYzYaYTV/CnNE1DkfWFP6kvLgXkNhWtPnu9rM
dY/87N9wIpEq5nZz8nCc1sZqQTSETwJAPv+VLjQm/Ou2M8lc85TNJ9zu+pCP+ynS
nTk+cJzKdpl1NZMr/cobalyMOR1fEUZnWltmNba6P3D3lodE3dqdmQJBAMbYKgM6
hQZR5yAa8D5zogxzm1fDkyCZ9uftkzsYPXwGpHVXx7v/Gk4NwoXjqX6VLw8LuoKL
s5PfXXsE0VPkvrs=
-----END PRIVATE KEY-----
";

/// Minor units of `currency` as Hub88 units (×100 000 of the major unit).
fn units(minor: i64, currency: &str) -> i64 {
    let exp = currency.parse::<kernel::Currency>().map(|c| c.exponent()).unwrap_or(3);
    if exp <= 5 {
        minor * 10_i64.pow(5 - exp)
    } else {
        minor / 10_i64.pow(exp - 5)
    }
}

/// Hub88 units as minor units of `currency` (the reply's balance).
fn minor(units: i64, currency: &str) -> i64 {
    let exp = currency.parse::<kernel::Currency>().map(|c| c.exponent()).unwrap_or(3);
    if exp <= 5 {
        units / 10_i64.pow(5 - exp)
    } else {
        units * 10_i64.pow(exp - 5)
    }
}

impl Hub88Fake {
    /// The method and body of `d`, with `request_uuid`.
    pub fn call(d: &Delivery, request_uuid: &str) -> Option<(&'static str, Value)> {
        let mut body = json!({"user": d.player.to_string(), "token": d.token, "request_uuid": request_uuid});
        let money = |body: &mut Value| {
            body["transaction_uuid"] = json!(d.tx);
            body["supplier_transaction_id"] = json!(format!("sup-{}", d.tx));
            body["round"] = json!(d.round);
            body["round_closed"] = json!(d.op != Op::Bet);
            body["game_code"] = json!(d.game);
            body["currency"] = json!(d.currency);
            body["is_free"] = json!(false);
            body["is_aggregated"] = json!(false);
            body["meta"] = json!({"selection": "spin"});
        };
        let method = match d.op {
            Op::Authenticate | Op::Balance => {
                body["game_code"] = json!(d.game);
                "user/balance"
            }
            Op::Bet => {
                money(&mut body);
                body["bet"] = json!("spin");
                body["amount"] = json!(units(d.amount, &d.currency));
                body["reward_uuid"] = Value::Null;
                "transaction/bet"
            }
            Op::Win => {
                money(&mut body);
                body["amount"] = json!(units(d.amount, &d.currency));
                body["reference_transaction_uuid"] = Value::Null;
                "transaction/win"
            }
            Op::Rollback => {
                body["transaction_uuid"] = json!(d.tx);
                body["reference_transaction_uuid"] = json!(d.of.clone()?);
                body["round"] = json!(d.round);
                body["round_closed"] = json!(true);
                body["game_code"] = json!(d.game);
                "transaction/rollback"
            }
        };
        Some((method, body))
    }

    pub fn request_with(d: &Delivery, keys: &Keys, request_uuid: &str) -> Option<Request> {
        let (method, body) = Self::call(d, request_uuid)?;
        let pem = if d.forge == Forge::WrongSecret { FOREIGN_KEY } else { keys.extra.get("private_key").map(String::as_str).unwrap_or("") };
        let key = RsaPrivateKey::from_pkcs8_pem(pem.trim()).ok()?;
        let compact = serde_json::to_string(&body).ok()?;
        let (sent, signature) = match &d.forge {
            Forge::None | Forge::WrongSecret => (compact.clone(), sign(&key, compact.as_bytes())),
            // Valid JSON with spaces and newlines, signed over exactly those bytes.
            Forge::OddFormatting => {
                let pretty = serde_json::to_string_pretty(&body).ok()?;
                let sig = sign(&key, pretty.as_bytes());
                (pretty, sig)
            }
            // Signed over the compact form, sent pretty.
            Forge::Reserialised => (serde_json::to_string_pretty(&body).ok()?, sign(&key, compact.as_bytes())),
            // Signed for this delivery's player, then pointed at the other one.
            Forge::ForOther { player, token } => {
                let mut other = body.clone();
                other["user"] = json!(player.to_string());
                other["token"] = json!(token);
                (serde_json::to_string(&other).ok()?, sign(&key, compact.as_bytes()))
            }
            Forge::ReplyAsRequest => return None,
        };
        Some(Request {
            path: method.into(),
            query: String::new(),
            headers: vec![("content-type".into(), "application/json".into()), ("X-Hub88-Signature".into(), signature)],
            body: sent.into_bytes(),
        })
    }
}

impl Dialect for Hub88Fake {
    fn code(&self) -> &'static str {
        crate::hub88::CODE
    }

    fn signs_raw_body(&self) -> bool {
        true
    }

    fn request(&self, d: &Delivery, keys: &Keys) -> Option<Request> {
        let r: u128 = rand::random();
        let uuid = format!("{:08x}-{:04x}-4{:03x}-a{:03x}-{:012x}", (r >> 96) as u32, (r >> 80) as u16, (r >> 68) as u16 & 0xfff, (r >> 56) as u16 & 0xfff, r as u64 & 0xffff_ffff_ffff);
        Self::request_with(d, keys, &uuid)
    }

    fn read(&self, d: &Delivery, status: u16, body: &[u8]) -> Answer {
        let Ok(v) = serde_json::from_slice::<Value>(body) else {
            return Answer { retry: true, ..Answer::of(Outcome::Refused, format!("http {status}: not JSON"), None) };
        };
        let currency = v["currency"].as_str().unwrap_or(&d.currency).to_string();
        let balance = v["balance"].as_i64().map(|u| minor(u, &currency));
        match v["status"].as_str() {
            Some("RS_OK") if status == 200 => Answer::of(Outcome::Done, "RS_OK", balance),
            Some(s) => {
                let settles = matches!(d.op, Op::Win | Op::Rollback);
                Answer { retry: settles && s == "RS_ERROR_UNKNOWN", ..Answer::of(Outcome::Refused, s, balance) }
            }
            None => Answer::of(Outcome::Refused, format!("http {status}: no status"), None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine;
    use rsa::pkcs1v15::{Signature, VerifyingKey};
    use rsa::signature::Verifier;
    use sha2::Sha256;

    fn delivery(op: Op, forge: Forge) -> Delivery {
        Delivery { op, player: 7, token: "tok".into(), tx: "t1".into(), round: "r1".into(), game: "g".into(), amount: 1_500, currency: "TND".into(), of: Some("t0".into()), forge }
    }

    fn keys() -> Keys {
        Keys { secret: String::new(), extra: [("private_key".to_string(), demo_private_key().to_string())].into() }
    }

    fn header(r: &Request) -> &str {
        r.headers.iter().find(|(k, _)| k == "X-Hub88-Signature").map(|(_, v)| v.as_str()).unwrap()
    }

    /// Verified with the demo public key alone, without the adapter's helpers.
    fn valid(body: &[u8], sig: &str) -> bool {
        use rsa::pkcs8::DecodePublicKey;
        let key = VerifyingKey::<Sha256>::new(rsa::RsaPublicKey::from_public_key_pem(crate::hub88::DEMO_PUBLIC_KEY).unwrap());
        let bytes = base64::engine::general_purpose::STANDARD.decode(sig).unwrap();
        key.verify(body, &Signature::try_from(bytes.as_slice()).unwrap()).is_ok()
    }

    #[test]
    fn a_bet_is_signed_over_its_bytes() {
        let r = Hub88Fake::request_with(&delivery(Op::Bet, Forge::None), &keys(), "req-1").unwrap();
        assert_eq!(r.path, "transaction/bet");
        let body = String::from_utf8(r.body.clone()).unwrap();
        assert_eq!(
            body,
            r#"{"amount":150000,"bet":"spin","currency":"TND","game_code":"g","is_aggregated":false,"is_free":false,"meta":{"selection":"spin"},"request_uuid":"req-1","reward_uuid":null,"round":"r1","round_closed":false,"supplier_transaction_id":"sup-t1","token":"tok","transaction_uuid":"t1","user":"7"}"#
        );
        assert!(valid(&r.body, header(&r)));
        // PKCS#1 v1.5 is deterministic: this body's signature by the demo key, computed with
        // `printf '%s' "$body" | openssl dgst -sha256 -sign hub88_demo_key.pem | base64 -w0`.
        assert_eq!(header(&r), "J3KlmMeBufuqM74rm8MEjwqydkJYUSQ0YqtHwYkVZjm5d6dK6O6QenyRaMEmm5vhVnDqwhusGQBh9ZeuNtDOqQA8lk77yIrw8Jqsrav+cU6J4wgFqkL6q7DLRINoREkmaP4Y+6D5B5D32/eAOxCvrM4HcTKxk+GLw0KP0Ag8S0jlHMTFe1xf4KxVOCpavLhI0/WzZR3G7gF2MbRs6AUec/acm8VYAEdavMlMdYXrkxw+1nF9mAW5i8A/1shdrxmX/fowT3sksXJYdyHKCLxhfKR3iM+OvKTxeYn8NeJbMS8NhaV+TB8NstvfnxuI7Gq55G/rLTnxq/nKk1ZkxmoHVw==");
    }

    #[test]
    fn forgeries() {
        let wrong = Hub88Fake::request_with(&delivery(Op::Win, Forge::WrongSecret), &keys(), "r").unwrap();
        assert!(!valid(&wrong.body, header(&wrong)));
        let odd = Hub88Fake::request_with(&delivery(Op::Win, Forge::OddFormatting), &keys(), "r").unwrap();
        assert!(odd.body.contains(&b'\n') && valid(&odd.body, header(&odd)));
        let re = Hub88Fake::request_with(&delivery(Op::Win, Forge::Reserialised), &keys(), "r").unwrap();
        assert_eq!(re.body, odd.body);
        assert!(!valid(&re.body, header(&re)));
        let other = Hub88Fake::request_with(&delivery(Op::Bet, Forge::ForOther { player: 8, token: "tok8".into() }), &keys(), "r").unwrap();
        let v: Value = serde_json::from_slice(&other.body).unwrap();
        assert_eq!((v["user"].as_str(), v["token"].as_str()), (Some("8"), Some("tok8")));
        assert!(!valid(&other.body, header(&other)));
        assert!(Hub88Fake::request_with(&delivery(Op::Win, Forge::ReplyAsRequest), &keys(), "r").is_none());
        let rb = Hub88Fake::request_with(&delivery(Op::Rollback, Forge::None), &keys(), "r").unwrap();
        let v: Value = serde_json::from_slice(&rb.body).unwrap();
        assert_eq!((rb.path.as_str(), v["reference_transaction_uuid"].as_str()), ("transaction/rollback", Some("t0")));
    }

    #[test]
    fn replies() {
        let d = delivery(Op::Win, Forge::None);
        let ok = br#"{"user":"7","status":"RS_OK","request_uuid":"r","currency":"TND","balance":1250000}"#;
        assert_eq!(Hub88Fake.read(&d, 200, ok), Answer::of(Outcome::Done, "RS_OK", Some(12_500)));
        let a = Hub88Fake.read(&d, 200, br#"{"status":"RS_ERROR_UNKNOWN","request_uuid":"r"}"#);
        assert!(a.retry && a.outcome == Outcome::Refused);
        let a = Hub88Fake.read(&delivery(Op::Bet, Forge::None), 200, br#"{"status":"RS_ERROR_NOT_ENOUGH_MONEY","currency":"TND","balance":100}"#);
        assert_eq!((a.code.as_str(), a.balance, a.retry), ("RS_ERROR_NOT_ENOUGH_MONEY", Some(1), false));
        assert_eq!(units(1_500, "TND"), 150_000);
        assert_eq!(units(356, "USD"), 356_000);
    }
}
