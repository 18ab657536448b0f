//! Habanero's side: one JSON POST whose top-level key names the request, the passkey in
//! `auth`, amounts as JSON numbers (negative for a debit), the reply read by
//! `status.success`. Habanero resends a transfer it got no answer to (a timeout, a 5xx)
//! with the same transferids, and cancels a stake it is unsure of with a refund naming
//! it (`originaltransferid`). An explicit `success:false` is final.

use super::{Answer, Delivery, Dialect, Forge, Keys, Op, Outcome, Request};
use crate::habanero::CODE;
use crate::rawjson::Obj;
use serde::Serialize;
use serde_json::value::RawValue;

pub struct HabaneroFake;

#[derive(Serialize)]
struct Auth<'a> {
    username: &'a str,
    passkey: &'a str,
    machinename: &'a str,
    locale: &'a str,
    brandid: &'a str,
}

#[derive(Serialize)]
struct GameDetails<'a> {
    brandgameid: &'a str,
    keyname: &'a str,
}

#[derive(Serialize)]
struct PlayerDetail<'a> {
    token: &'a str,
    gamelaunch: bool,
}

#[derive(Serialize)]
struct FundInfo<'a> {
    gamestatemode: i64,
    transferid: &'a str,
    currencycode: &'a str,
    amount: &'a RawValue,
    jpwin: bool,
    isbonus: bool,
    initialdebittransferid: &'a str,
}

#[derive(Serialize)]
struct Refund<'a> {
    transferid: &'a str,
    originaltransferid: &'a str,
    amount: &'a RawValue,
    currencycode: &'a str,
}

#[derive(Serialize)]
struct Funds<'a> {
    debitandcredit: bool,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    fundinfo: Vec<FundInfo<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    refund: Option<Refund<'a>>,
}

#[derive(Serialize)]
struct FundTransfer<'a> {
    token: &'a str,
    accountid: &'a str,
    customplayertype: i64,
    gameinstanceid: &'a str,
    friendlygameinstanceid: i64,
    isretry: bool,
    retrycount: i64,
    isrefund: bool,
    isrecredit: bool,
    funds: Funds<'a>,
}

#[derive(Serialize)]
struct Envelope<'a> {
    #[serde(rename = "type")]
    kind: &'a str,
    dtsent: &'a str,
    auth: Auth<'a>,
    gamedetails: GameDetails<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    playerdetailrequest: Option<PlayerDetail<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    fundtransferrequest: Option<FundTransfer<'a>>,
}

/// A decimal amount as the JSON number Habanero writes (`-1.500`).
fn number(text: &str) -> Option<Box<RawValue>> {
    RawValue::from_string(text.to_string()).ok()
}

impl Dialect for HabaneroFake {
    fn code(&self) -> &'static str {
        CODE
    }

    fn request(&self, d: &Delivery, keys: &Keys) -> Option<Request> {
        // A shared passkey: no signature to re-serialise, nothing in a reply to reuse.
        if matches!(d.forge, Forge::Reserialised | Forge::OddFormatting | Forge::ReplyAsRequest) {
            return None;
        }
        let passkey = if d.forge == Forge::WrongSecret { "not-the-secret" } else { keys.secret.as_str() };
        // Built for this delivery's player, then pointed at another (the token stays ours).
        let account = match &d.forge {
            Forge::ForOther { player, .. } => player.to_string(),
            _ => d.player.to_string(),
        };
        let major = super::major(d.amount, &d.currency);
        let (credit, debit) = (number(&major)?, number(&format!("-{major}"))?);
        let transfer = |funds: Funds<'_>, isrefund: bool| -> String {
            let body = FundTransfer {
                token: &d.token,
                accountid: &account,
                customplayertype: 0,
                gameinstanceid: &d.round,
                friendlygameinstanceid: 1,
                isretry: false,
                retrycount: 0,
                isrefund,
                isrecredit: false,
                funds,
            };
            envelope(d, passkey, "fundtransferrequest", None, Some(body))
        };
        let body = match d.op {
            Op::Authenticate | Op::Balance => {
                envelope(d, passkey, "playerdetailrequest", Some(PlayerDetail { token: &d.token, gamelaunch: d.op == Op::Authenticate }), None)
            }
            Op::Bet | Op::Win => {
                let (amount, mode) = if d.op == Op::Bet { (&debit, 1) } else { (&credit, 2) };
                let info = FundInfo { gamestatemode: mode, transferid: &d.tx, currencycode: &d.currency, amount, jpwin: false, isbonus: false, initialdebittransferid: &d.tx };
                transfer(Funds { debitandcredit: false, fundinfo: vec![info], refund: None }, false)
            }
            Op::Rollback => {
                let of = d.of.as_deref()?;
                let refund = Refund { transferid: &d.tx, originaltransferid: of, amount: &credit, currencycode: &d.currency };
                transfer(Funds { debitandcredit: false, fundinfo: Vec::new(), refund: Some(refund) }, true)
            }
        };
        Some(Request { path: "wallet".into(), query: String::new(), headers: vec![("content-type".into(), "application/json".into())], body: body.into_bytes() })
    }

    fn read(&self, d: &Delivery, http: u16, body: &[u8]) -> Answer {
        let key = match d.op {
            Op::Authenticate | Op::Balance => "playerdetailresponse",
            _ => "fundtransferresponse",
        };
        let Some(reply) = Obj::parse(body).and_then(|o| o.obj(key)) else {
            return Answer { retry: true, ..Answer::of(Outcome::Refused, format!("http {http}: no {key}"), None) };
        };
        let currency = reply.text("currencycode").unwrap_or_else(|| d.currency.clone());
        let balance = reply.text("balance").and_then(|t| kernel::money::parse_major(&t, currency.parse().unwrap_or(kernel::Currency::Tnd)).ok());
        let status = reply.obj("status");
        let flag = |k: &str| status.as_ref().and_then(|s| s.bool(k)) == Some(true);
        if flag("success") {
            let code = match status.as_ref().and_then(|s| s.text("refundstatus")) {
                Some(r) => format!("refundstatus {r}"),
                None => "success".into(),
            };
            return Answer::of(Outcome::Done, code, balance);
        }
        let code = if flag("autherror") {
            "autherror"
        } else if flag("nofunds") {
            "nofunds"
        } else {
            "failed"
        };
        Answer::of(Outcome::Refused, code, balance)
    }
}

fn envelope(d: &Delivery, passkey: &str, kind: &str, player: Option<PlayerDetail<'_>>, transfer: Option<FundTransfer<'_>>) -> String {
    let e = Envelope {
        kind,
        dtsent: "2025-01-01T10:00:00.0000000Z",
        auth: Auth { username: "carthage", passkey, machinename: "fake-habanero", locale: "en", brandid: "00000000-0000-0000-0000-00000000demo" },
        gamedetails: GameDetails { brandgameid: "00000000-0000-0000-0000-000000000001", keyname: &d.game },
        playerdetailrequest: player,
        fundtransferrequest: transfer,
    };
    serde_json::to_string(&e).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn delivery(op: Op) -> Delivery {
        Delivery { op, player: 7, token: "tok".into(), tx: "t1".into(), round: "r1".into(), game: "SGDemoDragon".into(), amount: 1_500, currency: "TND".into(), of: Some("b1".into()), forge: Forge::None }
    }

    fn keys() -> Keys {
        Keys { secret: "pk".into(), ..Default::default() }
    }

    #[test]
    fn a_debit_is_a_negative_fundinfo_with_the_passkey() {
        let r = HabaneroFake.request(&delivery(Op::Bet), &keys()).unwrap();
        let body = String::from_utf8(r.body).unwrap();
        assert_eq!(
            body,
            concat!(
                r#"{"type":"fundtransferrequest","dtsent":"2025-01-01T10:00:00.0000000Z","auth":{"username":"carthage","passkey":"pk","machinename":"fake-habanero","locale":"en","brandid":"00000000-0000-0000-0000-00000000demo"},"#,
                r#""gamedetails":{"brandgameid":"00000000-0000-0000-0000-000000000001","keyname":"SGDemoDragon"},"#,
                r#""fundtransferrequest":{"token":"tok","accountid":"7","customplayertype":0,"gameinstanceid":"r1","friendlygameinstanceid":1,"isretry":false,"retrycount":0,"isrefund":false,"isrecredit":false,"#,
                r#""funds":{"debitandcredit":false,"fundinfo":[{"gamestatemode":1,"transferid":"t1","currencycode":"TND","amount":-1.500,"jpwin":false,"isbonus":false,"initialdebittransferid":"t1"}]}}}"#
            )
        );
        let r = HabaneroFake.request(&delivery(Op::Rollback), &keys()).unwrap();
        let body = String::from_utf8(r.body).unwrap();
        assert!(body.contains(r#""isrefund":true"#) && body.contains(r#""refund":{"transferid":"t1","originaltransferid":"b1","amount":1.500,"currencycode":"TND"}"#), "{body}");
        let r = HabaneroFake.request(&delivery(Op::Authenticate), &keys()).unwrap();
        assert!(String::from_utf8(r.body).unwrap().contains(r#""playerdetailrequest":{"token":"tok","gamelaunch":true}"#));
        let r = HabaneroFake.request(&Delivery { forge: Forge::WrongSecret, ..delivery(Op::Win) }, &keys()).unwrap();
        assert!(String::from_utf8(r.body).unwrap().contains(r#""passkey":"not-the-secret""#));
        let r = HabaneroFake.request(&Delivery { forge: Forge::ForOther { player: 8, token: "x".into() }, ..delivery(Op::Bet) }, &keys()).unwrap();
        assert!(String::from_utf8(r.body).unwrap().contains(r#""token":"tok","accountid":"8""#));
        assert!(HabaneroFake.request(&Delivery { forge: Forge::Reserialised, ..delivery(Op::Win) }, &keys()).is_none());
    }

    #[test]
    fn replies_read_by_success() {
        let d = delivery(Op::Rollback);
        let a = HabaneroFake.read(&d, 200, br#"{"fundtransferresponse":{"status":{"success":true,"refundstatus":"2"},"balance":10.000,"currencycode":"TND"}}"#);
        assert_eq!((a.outcome, a.code.as_str(), a.balance), (Outcome::Done, "refundstatus 2", Some(10_000)));
        let a = HabaneroFake.read(&d, 200, br#"{"fundtransferresponse":{"status":{"success":false,"nofunds":true},"balance":1.5}}"#);
        assert_eq!((a.outcome, a.code.as_str(), a.balance), (Outcome::Refused, "nofunds", Some(1_500)));
        let a = HabaneroFake.read(&delivery(Op::Authenticate), 200, br#"{"playerdetailresponse":{"status":{"success":true},"balance":2,"currencycode":"TND"}}"#);
        assert_eq!((a.outcome, a.balance), (Outcome::Done, Some(2_000)));
        assert!(HabaneroFake.read(&d, 502, b"bad gateway").retry);
    }
}
