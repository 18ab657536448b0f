//! The Evolution, Habanero and Golden Race adapters against a real wallet (SQLite, and
//! PostgreSQL when `TEST_DATABASE_URL` is set): the dialect rules the shared conformance
//! table cannot say (Evolution's settled/final statuses, Habanero's debit-and-credit batch,
//! refund statuses, re-credits and queries, Golden Race's signed replies), and malformed
//! input of every kind answered in the dialect, never with a 5xx.

use axum::http::HeaderMap;
use casino::sessions::NewSession;
use casino::Casino;
use kernel::clock::now_ms;
use kernel::ids::next_id;
use kernel::Currency;
use providers::rawjson::Obj;
use providers::{evolution, goldenrace, habanero, Ctx, Inbound, Outbound, ProviderAdapter, ProviderSettings};
use store::sqlx;
use store::testing::with_each_backend;
use store::Db;
use wallet::{AccountRef, BalanceKind, HouseAccount, Ledger, PostingRequest, TxType};

struct World {
    ctx: Ctx,
    ledger: Ledger,
}

/// A signed-in player credited with 10.000 TND and a live session of `provider`.
struct Player {
    id: i64,
    token: String,
}

impl World {
    fn new(db: &Db) -> World {
        let ledger = Ledger::new(db.clone());
        World { ctx: Ctx { casino: Casino::new(db.clone(), ledger.clone()) }, ledger }
    }

    async fn player(&self, db: &Db, provider: &str) -> Player {
        let (id, now) = (next_id(), now_ms());
        sqlx::query("INSERT INTO users (id, email, password_hash, currency, registered_via, created_at, updated_at) VALUES ($1, $2, 'x', 'TND', 'email', $3, $3)")
            .bind(id)
            .bind(format!("p{id}@example.com"))
            .bind(now)
            .execute(db.writer())
            .await
            .expect("user");
        let signed_in = next_id();
        sqlx::query("INSERT INTO sessions (id, token_hash, user_id, created_at, last_seen_at, idle_expires_at, absolute_expires_at) VALUES ($1, $2, $3, $4, $4, $5, $5)")
            .bind(signed_in)
            .bind(format!("h{signed_in}"))
            .bind(id)
            .bind(now)
            .bind(now + 3_600_000)
            .execute(db.writer())
            .await
            .expect("player session");
        let credit = PostingRequest::transfer(
            TxType::ManualAdjustment,
            format!("test-credit:{id}"),
            Some(id),
            Currency::Tnd,
            AccountRef::House(HouseAccount::Adjustments),
            AccountRef::Player { user_id: id, kind: BalanceKind::Real },
            10_000,
        )
        .comment("test credit");
        self.ledger.post(credit).await.expect("credit");
        let s = NewSession { user_id: id, player_session_id: Some(signed_in), provider, game_id: "g", currency: Currency::Tnd, lang: "en", platform: "web" };
        let token = self.ctx.casino.sessions().create(s).await.expect("game session");
        Player { id, token }
    }

    async fn balance(&self, p: &Player) -> i64 {
        self.ledger.balance(p.id, BalanceKind::Real, Currency::Tnd).await.expect("balance")
    }

    async fn call(&self, a: &dyn ProviderAdapter, path: &str, query: &str, body: &str) -> (u16, String) {
        let headers = HeaderMap::new();
        let out: Outbound = a.callback(&self.ctx, Inbound { path, query, headers: &headers, body: body.as_bytes() }).await;
        assert!(out.status < 500, "{path} {body}: HTTP {}", out.status);
        (out.status, String::from_utf8(out.body).expect("UTF-8"))
    }
}

fn field(json: &str, path: &[&str]) -> Option<String> {
    let (last, objs) = path.split_last()?;
    let mut o = Obj::parse(json.as_bytes())?;
    for k in objs {
        o = o.obj(k)?;
    }
    o.text(last)
}

const EVO_SECRET: &str = "evo-key";

struct Evo<'a> {
    w: &'a World,
    a: evolution::Evolution,
}

impl Evo<'_> {
    /// (status, balance text) of a call.
    async fn send(&self, method: &str, p: &Player, tx: Option<(&str, &str, &str)>) -> (String, String) {
        let mut body = format!(r#"{{"sid":"{}","userId":"{}","currency":"TND","game":{{"id":"g1","type":"blackjack","details":{{"table":{{"id":"bj1","vid":null}}}}}},"uuid":"u-{method}""#, p.token, p.id);
        if let Some((id, ref_id, amount)) = tx {
            let key = if method == "promo_payout" { "promoTransaction" } else { "transaction" };
            body.push_str(&format!(r#","{key}":{{"id":"{id}","refId":"{ref_id}","amount":{amount}}}"#));
        }
        body.push('}');
        let (_, reply) = self.w.call(&self.a, method, &format!("authToken={EVO_SECRET}"), &body).await;
        assert_eq!(field(&reply, &["uuid"]).as_deref(), Some(format!("u-{method}").as_str()), "{reply}");
        (field(&reply, &["status"]).unwrap_or_default(), field(&reply, &["balance"]).unwrap_or_default())
    }
}

#[tokio::test]
async fn evolution_settles_each_bet_once() {
    with_each_backend(|db| async move {
        let w = World::new(&db);
        let evo = Evo { w: &w, a: evolution::Evolution::new(&ProviderSettings::local("evolution", EVO_SECRET, "http://127.0.0.1")) };
        let p = w.player(&db, "evolution").await;
        let st = |s: &str, b: &str| (s.to_string(), b.to_string());

        assert_eq!(evo.send("debit", &p, Some(("d1", "R1", "1.500000"))).await, st("OK", "8.500000"));
        // A retry, and another transaction of the same bet: BET_ALREADY_EXIST, nothing moves.
        assert_eq!(evo.send("debit", &p, Some(("d1", "R1", "1.500000"))).await, st("BET_ALREADY_EXIST", "8.500000"));
        assert_eq!(evo.send("debit", &p, Some(("d1b", "R1", "2.000000"))).await, st("BET_ALREADY_EXIST", "8.500000"));
        assert_eq!(evo.send("credit", &p, Some(("c1", "R1", "3.000000"))).await, st("OK", "11.500000"));
        // Settled: a second credit, the credit's retry and a cancel all move nothing.
        assert_eq!(evo.send("credit", &p, Some(("c2", "R1", "3.000000"))).await, st("BET_ALREADY_SETTLED", "11.500000"));
        assert_eq!(evo.send("credit", &p, Some(("c1", "R1", "3.000000"))).await, st("BET_ALREADY_SETTLED", "11.500000"));
        assert_eq!(evo.send("cancel", &p, Some(("x1", "R1", "1.500000"))).await, st("BET_ALREADY_SETTLED", "11.500000"));

        // A cancel reverses the debit once; the bet is then settled and its refId final.
        assert_eq!(evo.send("debit", &p, Some(("d2", "R2", "2.000000"))).await, st("OK", "9.500000"));
        assert_eq!(evo.send("cancel", &p, Some(("x2", "R2", "2.000000"))).await, st("OK", "11.500000"));
        assert_eq!(evo.send("cancel", &p, Some(("x2", "R2", "2.000000"))).await, st("BET_ALREADY_SETTLED", "11.500000"));
        assert_eq!(evo.send("credit", &p, Some(("c3", "R2", "9.000000"))).await, st("BET_ALREADY_SETTLED", "11.500000"));
        assert_eq!(evo.send("debit", &p, Some(("d2", "R2", "2.000000"))).await, st("FINAL_ERROR_ACTION_FAILED", "11.500000"));

        // A cancel of a debit never seen: OK and a tombstone; the late debit is final.
        assert_eq!(evo.send("cancel", &p, Some(("x3", "R3", "1.000000"))).await, st("OK", "11.500000"));
        assert_eq!(evo.send("debit", &p, Some(("d3", "R3", "1.000000"))).await, st("FINAL_ERROR_ACTION_FAILED", "11.500000"));
        // A credit without a debit, another player's bet, too much: refused with the balance.
        assert_eq!(evo.send("credit", &p, Some(("c4", "R4", "1.000000"))).await, st("BET_DOES_NOT_EXIST", "11.500000"));
        let q = w.player(&db, "evolution").await;
        assert_eq!(evo.send("debit", &q, Some(("qd", "RQ", "1.000000"))).await, st("OK", "9.000000"));
        assert_eq!(evo.send("credit", &p, Some(("c5", "RQ", "5.000000"))).await, st("BET_DOES_NOT_EXIST", "11.500000"));
        assert_eq!(evo.send("cancel", &p, Some(("x5", "RQ", "1.000000"))).await, st("BET_DOES_NOT_EXIST", "11.500000"));
        assert_eq!(evo.send("debit", &p, Some(("d6", "R6", "11.501000"))).await, st("INSUFFICIENT_FUNDS", "11.500000"));
        // A promotion: paid once.
        assert_eq!(evo.send("promo_payout", &p, Some(("pr1", "v1", "0.500000"))).await, st("OK", "12.000000"));
        assert_eq!(evo.send("promo_payout", &p, Some(("pr1", "v1", "0.500000"))).await, st("BET_ALREADY_SETTLED", "12.000000"));
        assert_eq!(evo.send("balance", &p, None).await, st("OK", "12.000000"));
        assert_eq!(w.balance(&p).await, 12_000);
        assert_eq!(w.balance(&q).await, 9_000);

        // check answers the sid; in another's name it is INVALID_SID.
        let (_, reply) = w.call(&evo.a, "check", &format!("authToken={EVO_SECRET}"), &format!(r#"{{"sid":"{}","userId":"{}","uuid":"c","channel":{{"type":"P"}}}}"#, p.token, p.id)).await;
        assert_eq!(reply, format!(r#"{{"status":"OK","sid":"{}","uuid":"c"}}"#, p.token));
        let (_, reply) = w.call(&evo.a, "check", &format!("authToken={EVO_SECRET}"), &format!(r#"{{"sid":"{}","userId":"{}","uuid":"c"}}"#, p.token, q.id)).await;
        assert_eq!(field(&reply, &["status"]).as_deref(), Some("INVALID_SID"));
        assert!(w.ledger.verify().await.expect("verify").is_consistent());
    })
    .await;
}

#[tokio::test]
async fn evolution_pays_one_of_twenty_racing_settlements() {
    with_each_backend(|db| async move {
        let w = World::new(&db);
        let evo = Evo { w: &w, a: evolution::Evolution::new(&ProviderSettings::local("evolution", EVO_SECRET, "http://127.0.0.1")) };
        let p = w.player(&db, "evolution").await;
        assert_eq!(evo.send("debit", &p, Some(("d1", "R1", "1.000000"))).await.0, "OK");
        // Twenty different settlements of one bet at once: ten credits of 5, ten cancels.
        let ids: Vec<(String, &str)> = (0..20).map(|i| (format!("s{i}"), if i % 2 == 0 { "credit" } else { "cancel" })).collect();
        let answers = futures::future::join_all(ids.iter().map(|(id, method)| evo.send(method, &p, Some((id, "R1", if *method == "credit" { "5.000000" } else { "1.000000" }))))).await;
        let ok: Vec<_> = answers.iter().filter(|(s, _)| s == "OK").collect();
        assert_eq!(ok.len(), 1, "{answers:?}");
        assert!(answers.iter().all(|(s, _)| s == "OK" || s == "BET_ALREADY_SETTLED"), "{answers:?}");
        // 10 − 1 + (5 if a credit won, else the stake back).
        let b = w.balance(&p).await;
        assert!(b == 9_000 + 5_000 || b == 10_000, "balance {b}");
        assert!(w.ledger.verify().await.expect("verify").is_consistent());
    })
    .await;
}

#[tokio::test]
async fn evolution_answers_malformed_calls_in_its_dialect() {
    with_each_backend(|db| async move {
        let w = World::new(&db);
        let a = evolution::Evolution::new(&ProviderSettings::local("evolution", EVO_SECRET, "http://127.0.0.1"));
        let p = w.player(&db, "evolution").await;
        let q = format!("authToken={EVO_SECRET}");
        let head = format!(r#""sid":"{}","userId":"{}","uuid":"u""#, p.token, p.id);
        for (path, query, body, expected) in [
            ("debit", "", format!("{{{head}}}"), "INVALID_TOKEN_ID"),
            ("debit", "authToken=evo-key2", format!("{{{head}}}"), "INVALID_TOKEN_ID"),
            ("debit", "authToken=%zz", format!("{{{head}}}"), "INVALID_TOKEN_ID"),
            ("debit", q.as_str(), "not json".to_string(), "INVALID_PARAMETER"),
            ("debit", q.as_str(), "[1,2]".to_string(), "INVALID_PARAMETER"),
            ("debit", q.as_str(), "{}".to_string(), "INVALID_PARAMETER"),
            ("debit", q.as_str(), format!("{{{head}}}"), "INVALID_PARAMETER"),
            ("debit", q.as_str(), format!(r#"{{{head},"transaction":"x"}}"#), "INVALID_PARAMETER"),
            ("debit", q.as_str(), format!(r#"{{{head},"transaction":{{"id":"t","refId":"r","amount":"abc"}}}}"#), "INVALID_PARAMETER"),
            ("debit", q.as_str(), format!(r#"{{{head},"transaction":{{"id":"t","refId":"r","amount":-1}}}}"#), "INVALID_PARAMETER"),
            ("debit", q.as_str(), format!(r#"{{{head},"transaction":{{"id":"t","refId":"r","amount":1e400}}}}"#), "INVALID_PARAMETER"),
            ("debit", q.as_str(), format!(r#"{{{head},"transaction":{{"id":"t","refId":"r","amount":123456789012345678901234567890}}}}"#), "INVALID_PARAMETER"),
            ("debit", q.as_str(), format!(r#"{{{head},"transaction":{{"id":"t","refId":"r","amount":0.0000001}}}}"#), "INVALID_PARAMETER"),
            ("debit", q.as_str(), format!(r#"{{{head},"currency":"EUR","transaction":{{"id":"t","refId":"r","amount":1}}}}"#), "INVALID_PARAMETER"),
            ("debit", q.as_str(), format!(r#"{{{head},"transaction":{{"id":"{}","refId":"r","amount":1}}}}"#, "x".repeat(500)), "INVALID_PARAMETER"),
            ("debit", q.as_str(), format!(r#"{{"sid":"nope","userId":"{}","transaction":{{"id":"t","refId":"r","amount":1}}}}"#, p.id), "INVALID_SID"),
            ("debit", q.as_str(), format!(r#"{{"sid":"{}","userId":"abc","transaction":{{"id":"t","refId":"r","amount":1}}}}"#, p.token), "INVALID_SID"),
            ("credit", q.as_str(), format!(r#"{{{head},"transaction":{{"id":"t","refId":"r","amount":null}}}}"#), "INVALID_PARAMETER"),
            ("nope", q.as_str(), format!("{{{head}}}"), "INVALID_PARAMETER"),
        ] {
            let (_, reply) = w.call(&a, path, query, &body).await;
            assert_eq!(field(&reply, &["status"]).as_deref(), Some(expected), "{path}?{query} {body}: {reply}");
        }
        assert_eq!(w.balance(&p).await, 10_000);
    })
    .await;
}

const HAB_KEY: &str = "hab-key";

fn hab_transfer(p: &Player, passkey: &str, round: &str, flags: &str, funds: &str) -> String {
    format!(
        r#"{{"type":"fundtransferrequest","auth":{{"passkey":"{passkey}","brandid":"b"}},"gamedetails":{{"keyname":"SGDemoKoi"}},"fundtransferrequest":{{"token":"{}","accountid":"{}","gameinstanceid":"{round}",{flags}"funds":{funds}}}}}"#,
        p.token, p.id
    )
}

fn fund(id: &str, amount: &str) -> String {
    format!(r#"{{"transferid":"{id}","amount":{amount},"currencycode":"TND","gamestatemode":1}}"#)
}

/// (success, nofunds, refundstatus, balance) of a fund transfer reply.
fn hab_status(reply: &str) -> (String, String, String, String) {
    let g = |path: &[&str]| field(reply, path).unwrap_or_default();
    (g(&["fundtransferresponse", "status", "success"]), g(&["fundtransferresponse", "status", "nofunds"]), g(&["fundtransferresponse", "status", "refundstatus"]), g(&["fundtransferresponse", "balance"]))
}

#[tokio::test]
async fn habanero_batches_refunds_recredits_and_queries() {
    with_each_backend(|db| async move {
        let w = World::new(&db);
        let a = habanero::Habanero::new(&ProviderSettings::local("habanero", HAB_KEY, "http://127.0.0.1"));
        let p = w.player(&db, "habanero").await;
        let send = |body: String| {
            let (w, a) = (&w, &a);
            async move { hab_status(&w.call(a, "", "", &body).await.1) }
        };
        let t = |s: &str, n: &str, r: &str, b: &str| (s.to_string(), n.to_string(), r.to_string(), b.to_string());

        // A bet and its win in one call: both, once.
        let both = format!(r#"{{"debitandcredit":true,"fundinfo":[{},{}]}}"#, fund("hd1", "-1.000"), fund("hc1", "2.5"));
        assert_eq!(send(hab_transfer(&p, HAB_KEY, "g1", "", &both)).await, t("true", "false", "", "11.500"));
        assert_eq!(send(hab_transfer(&p, HAB_KEY, "g1", r#""isretry":true,"#, &both)).await, t("true", "false", "", "11.500"));
        // Neither when the stake is refused.
        let broke = format!(r#"{{"debitandcredit":true,"fundinfo":[{},{}]}}"#, fund("hd2", "-100"), fund("hc2", "50"));
        assert_eq!(send(hab_transfer(&p, HAB_KEY, "g2", "", &broke)).await, t("false", "true", "", "11.500"));
        // A win alone in a round never bet: refused.
        let lone = format!(r#"{{"debitandcredit":false,"fundinfo":[{}]}}"#, fund("hc3", "5"));
        assert_eq!(send(hab_transfer(&p, HAB_KEY, "g3", "", &lone)).await.0, "false");

        // Refunds: "1" when reversed (again under a new id: the first reversal), "2" when
        // the original never arrived (the late original is then refused).
        let bet = format!(r#"{{"debitandcredit":false,"fundinfo":[{}]}}"#, fund("hd4", "-2"));
        assert_eq!(send(hab_transfer(&p, HAB_KEY, "g4", "", &bet)).await, t("true", "false", "", "9.500"));
        let refund = |own: &str, of: &str| format!(r#"{{"debitandcredit":false,"refund":{{"transferid":"{own}","originaltransferid":"{of}","amount":2,"currencycode":"TND"}}}}"#);
        assert_eq!(send(hab_transfer(&p, HAB_KEY, "g4", r#""isrefund":true,"#, &refund("hr4", "hd4"))).await, t("true", "false", "1", "11.500"));
        assert_eq!(send(hab_transfer(&p, HAB_KEY, "g4", r#""isrefund":true,"#, &refund("hr4b", "hd4"))).await, t("true", "false", "1", "11.500"));
        assert_eq!(send(hab_transfer(&p, HAB_KEY, "g5", r#""isrefund":true,"#, &refund("hr5", "hd5"))).await, t("true", "false", "2", "11.500"));
        let late = format!(r#"{{"debitandcredit":false,"fundinfo":[{}]}}"#, fund("hd5", "-1"));
        assert_eq!(send(hab_transfer(&p, HAB_KEY, "g5", "", &late)).await.0, "false");
        // A refund naming a refund: refused.
        assert_eq!(send(hab_transfer(&p, HAB_KEY, "g4", r#""isrefund":true,"#, &refund("hr4c", "hr4"))).await.0, "false");

        // A re-credit lands under the original credit's id: once.
        let bet = format!(r#"{{"debitandcredit":false,"fundinfo":[{}]}}"#, fund("hd6", "-1"));
        assert_eq!(send(hab_transfer(&p, HAB_KEY, "g6", "", &bet)).await.3, "10.500");
        let recredit = |own: &str| format!(r#"{{"debitandcredit":false,"fundinfo":[{{"transferid":"{own}","originaltransferid":"hc6","amount":4,"currencycode":"TND"}}]}}"#);
        assert_eq!(send(hab_transfer(&p, HAB_KEY, "g6", r#""isretry":true,"isrecredit":true,"#, &recredit("hc6r1"))).await, t("true", "false", "", "14.500"));
        assert_eq!(send(hab_transfer(&p, HAB_KEY, "g6", r#""isretry":true,"isrecredit":true,"#, &recredit("hc6r2"))).await, t("true", "false", "", "14.500"));
        let original = format!(r#"{{"debitandcredit":false,"fundinfo":[{}]}}"#, fund("hc6", "4"));
        assert_eq!(send(hab_transfer(&p, HAB_KEY, "g6", "", &original)).await, t("true", "false", "", "14.500"));
        assert_eq!(w.balance(&p).await, 14_500);

        // Queries: the transfer applied with that amount.
        let query = |id: &str, amount: &str| format!(r#"{{"type":"queryrequest","auth":{{"passkey":"{HAB_KEY}"}},"queryrequest":{{"transferid":"{id}","queryamount":{amount}}}}}"#);
        for (id, amount, ok) in [("hd4", "-2", "true"), ("hd4", "-3", "false"), ("hc1", "2.50", "true"), ("hd5", "-1", "false"), ("nope", "1", "false")] {
            let (_, reply) = w.call(&a, "", "", &query(id, amount)).await;
            assert_eq!(field(&reply, &["fundtransferresponse", "status", "success"]).as_deref(), Some(ok), "{id} {amount}: {reply}");
        }

        // Player details; another's account with this token; a prize.
        let detail = format!(r#"{{"type":"playerdetailrequest","auth":{{"passkey":"{HAB_KEY}"}},"playerdetailrequest":{{"token":"{}","gamelaunch":true}}}}"#, p.token);
        let (_, reply) = w.call(&a, "", "", &detail).await;
        assert_eq!(field(&reply, &["playerdetailresponse", "accountid"]), Some(p.id.to_string()));
        assert_eq!(field(&reply, &["playerdetailresponse", "balance"]).as_deref(), Some("14.500"));
        let q = w.player(&db, "habanero").await;
        let theirs = hab_transfer(&Player { id: q.id, token: p.token.clone() }, HAB_KEY, "g7", "", &format!(r#"{{"debitandcredit":false,"fundinfo":[{}]}}"#, fund("hd7", "-1")));
        let (_, reply) = w.call(&a, "", "", &theirs).await;
        assert_eq!(field(&reply, &["fundtransferresponse", "status", "autherror"]).as_deref(), Some("true"), "{reply}");
        let prize = format!(r#"{{"type":"altfundsrequest","auth":{{"passkey":"{HAB_KEY}"}},"altfundsrequest":{{"accountid":"{}","amount":1.5,"currencycode":"TND","transferid":"ha1"}}}}"#, q.id);
        let (_, reply) = w.call(&a, "", "", &prize).await;
        assert_eq!(field(&reply, &["altfundsresponse", "balance"]).as_deref(), Some("11.500"), "{reply}");
        assert_eq!(w.balance(&p).await, 14_500);
        assert!(w.ledger.verify().await.expect("verify").is_consistent());
    })
    .await;
}

#[tokio::test]
async fn habanero_answers_malformed_calls_in_its_dialect() {
    with_each_backend(|db| async move {
        let w = World::new(&db);
        let a = habanero::Habanero::new(&ProviderSettings::local("habanero", HAB_KEY, "http://127.0.0.1"));
        let p = w.player(&db, "habanero").await;
        let ok_funds = format!(r#"{{"debitandcredit":false,"fundinfo":[{}]}}"#, fund("m1", "-1"));
        for body in [
            "".to_string(),
            "nonsense".into(),
            "[]".into(),
            "{}".into(),
            r#"{"fundtransferrequest":"x"}"#.into(),
            r#"{"fundtransferrequest":{}}"#.into(),
            hab_transfer(&p, "wrong", "g", "", &ok_funds),
            format!(r#"{{"auth":{{"passkey":"{HAB_KEY}"}},"fundtransferrequest":{{}}}}"#),
            format!(r#"{{"auth":{{"passkey":"{HAB_KEY}"}},"fundtransferrequest":{{"token":"nope","gameinstanceid":"g","funds":{ok_funds}}}}}"#),
            hab_transfer(&p, HAB_KEY, "g", "", "[]"),
            hab_transfer(&p, HAB_KEY, "g", "", r#"{"fundinfo":[]}"#),
            hab_transfer(&p, HAB_KEY, "g", "", r#"{"fundinfo":{"a":1}}"#),
            hab_transfer(&p, HAB_KEY, "g", "", &format!(r#"{{"fundinfo":[{}]}}"#, fund("m2", "\"ten\""))),
            hab_transfer(&p, HAB_KEY, "g", "", &format!(r#"{{"fundinfo":[{}]}}"#, fund("m3", "-1e9999"))),
            hab_transfer(&p, HAB_KEY, "g", "", &format!(r#"{{"fundinfo":[{}]}}"#, fund("m4", "-99999999999999999999999"))),
            hab_transfer(&p, HAB_KEY, "g", "", &format!(r#"{{"fundinfo":[{}]}}"#, vec![fund("m5", "-1"); 11].join(","))),
            hab_transfer(&p, HAB_KEY, "g", r#""isrefund":true,"#, r#"{"refund":{"transferid":"r"}}"#),
            hab_transfer(&p, HAB_KEY, "", "", &ok_funds),
            format!(r#"{{"auth":{{"passkey":"{HAB_KEY}"}},"queryrequest":{{}}}}"#),
            format!(r#"{{"auth":{{"passkey":"{HAB_KEY}"}},"altfundsrequest":{{"accountid":"x","transferid":"t","amount":1}}}}"#),
        ] {
            let (status, reply) = w.call(&a, "any/path", "", &body).await;
            assert_eq!(status, 200, "{body}");
            let response = ["fundtransferresponse", "playerdetailresponse", "altfundsresponse"].iter().find_map(|k| field(&reply, &[k, "status", "success"]));
            assert_eq!(response.as_deref(), Some("false"), "{body}: {reply}");
        }
        assert_eq!(w.balance(&p).await, 10_000);
    })
    .await;
}

const GR_KEY: &str = "gr-key";

/// `body` (with `"fingerprint":""`) signed with `key`.
fn gr_signed(body: &str, key: &str) -> String {
    let (fp, _) = goldenrace::fingerprints(body.as_bytes(), key).expect("a JSON body with a fingerprint");
    body.replace(r#""fingerprint":"""#, &format!(r#""fingerprint":"{fp}""#))
}

fn gr_money(action: &str, p: &Player, cycle: &str, tx: &str, amount: &str, category: &str, extra: &str) -> String {
    format!(
        r#"{{"action":"{action}","sessionId":"{}","gameId":10100,"playerId":"{}","currency":"TND","gameCycle":"{cycle}","transactionId":"{tx}","transactionAmount":{amount},"transactionCategory":"{category}",{extra}"timestamp":"t","requestId":"rq-{tx}","siteId":"site-1","fingerprint":""}}"#,
        p.token, p.id
    )
}

#[tokio::test]
async fn golden_race_replays_debits_and_signs_its_replies() {
    with_each_backend(|db| async move {
        let w = World::new(&db);
        let mut settings = ProviderSettings::local("goldenrace", GR_KEY, "http://127.0.0.1");
        settings.values.insert("site_id".into(), "site-1".into());
        let a = goldenrace::GoldenRace::new(&settings);
        let p = w.player(&db, "goldenrace").await;
        let send = |action: &'static str, body: String| {
            let (w, a) = (&w, &a);
            async move {
                let (_, reply) = w.call(a, action, "", &gr_signed(&body, GR_KEY)).await;
                // Every reply to a verified call is signed over its data.
                let data = Obj::parse(reply.as_bytes()).and_then(|o| o.raw("data").map(String::from)).expect("data");
                assert!(goldenrace::verify(data.as_bytes(), GR_KEY), "{reply}");
                (field(&reply, &["code"]).unwrap_or_default(), field(&reply, &["data", "balance"]).unwrap_or_default())
            }
        };
        let c = |code: &str, b: &str| (code.to_string(), b.to_string());

        let login = format!(r#"{{"action":"login","token":"{}","gameId":10100,"timestamp":"t","requestId":"rq","siteId":"site-1","fingerprint":""}}"#, p.token);
        assert_eq!(send("login", login).await, c("200", "10.000"));
        assert_eq!(send("debit", gr_money("debit", &p, "c1", "gd1", "1.5", "bet", "")).await, c("200", "8.500"));
        // Replay-as-success: the same debit answers with the current balance, nothing moves.
        assert_eq!(send("debit", gr_money("debit", &p, "c1", "gd1", "1.5", "bet", "")).await, c("200", "8.500"));
        assert_eq!(send("debit", gr_money("debit", &p, "c1", "gd1", "2.5", "bet", "")).await.0, "116");
        assert_eq!(send("credit", gr_money("credit", &p, "c1", "gc1", "4", "win", r#""gameCycleClosed":true,"#)).await, c("200", "12.500"));
        assert_eq!(send("credit", gr_money("credit", &p, "c1", "gc1", "4", "bet", "")).await.0, "103", "a credit must be a win");
        // A rollback names the transaction and its type, which must match.
        assert_eq!(send("rollback", gr_money("rollback", &p, "c1", "gd1", "1.5", "bet", r#""transactionType":"credit","#)).await.0, "117");
        assert_eq!(send("rollback", gr_money("rollback", &p, "c1", "gd1", "1.5", "bet", r#""transactionType":"debit","#)).await, c("200", "14.000"));
        assert_eq!(send("rollback", gr_money("rollback", &p, "c1", "gd1", "1.5", "bet", r#""transactionType":"debit","#)).await, c("200", "14.000"));
        assert_eq!(send("debit", gr_money("debit", &p, "c1", "gd1", "1.5", "bet", "")).await.0, "118", "a rolled-back debit is final");
        assert_eq!(send("credit", gr_money("credit", &p, "c9", "gc9", "4", "win", "")).await.0, "112", "no bet in that cycle");
        assert_eq!(send("debit", gr_money("debit", &p, "c2", "gd2", "99", "bet", "")).await.0, "107");
        assert_eq!(w.balance(&p).await, 14_000);
        assert!(w.ledger.verify().await.expect("verify").is_consistent());
    })
    .await;
}

#[tokio::test]
async fn golden_race_answers_malformed_calls_unsigned() {
    with_each_backend(|db| async move {
        let w = World::new(&db);
        let mut settings = ProviderSettings::local("goldenrace", GR_KEY, "http://127.0.0.1");
        settings.values.insert("site_id".into(), "site-1".into());
        let a = goldenrace::GoldenRace::new(&settings);
        let p = w.player(&db, "goldenrace").await;
        let good = gr_money("debit", &p, "c", "m1", "1", "bet", "");
        for (action, body, code) in [
            ("debit", "".to_string(), "106"),
            ("debit", "{".into(), "106"),
            ("debit", "[]".into(), "106"),
            ("debit", good.clone(), "106"),
            ("debit", gr_signed(&good, "other-key"), "106"),
            ("debit", gr_signed(&good, GR_KEY).replace("site-1", "site-2"), "106"),
            ("debit", gr_signed(&good.replace("site-1", "site-2"), GR_KEY), "102"),
            ("credit", gr_signed(&good, GR_KEY), "104"),
            ("nope", gr_signed(&good, GR_KEY), "104"),
        ] {
            let (_, reply) = w.call(&a, action, "", &body).await;
            assert_eq!(field(&reply, &["code"]).as_deref(), Some(code), "{action} {body}: {reply}");
            assert_eq!(field(&reply, &["status"]).as_deref(), Some("false"));
            assert_eq!(field(&reply, &["data", "fingerprint"]), None, "an unverified call gets nothing signed: {reply}");
        }
        // Verified but malformed: refused in the dialect (signed).
        for (action, body, code) in [
            ("debit", gr_money("debit", &p, "c", "m2", "\"x\"", "bet", ""), "103"),
            ("debit", gr_money("debit", &p, "c", "m3", "-1", "bet", ""), "103"),
            ("debit", gr_money("debit", &p, "c", "m4", "1e400", "bet", ""), "103"),
            ("debit", gr_money("debit", &p, "c", "m5", "123456789012345678901234567", "bet", ""), "103"),
            ("debit", gr_money("debit", &p, "c", "m6", "{}", "bet", ""), "103"),
            ("debit", gr_money("debit", &p, "", "m7", "1", "bet", ""), "103"),
            ("debit", gr_money("debit", &p, "c", "m8", "1", "bet", "").replace(r#""currency":"TND""#, r#""currency":"EUR""#), "103"),
            ("debit", gr_money("debit", &p, "c", "m9", "1", "bet", "").replace(&format!(r#""playerId":"{}""#, p.id), r#""playerId":"1""#), "114"),
            ("debit", gr_money("debit", &p, "c", "m10", "1", "bet", "").replace(&p.token, "unknown"), "106"),
            ("rollback", gr_money("rollback", &p, "c", "m11", "1", "bet", r#""transactionType":"refund","#), "103"),
            ("login", r#"{"action":"login","siteId":"site-1","fingerprint":""}"#.to_string(), "103"),
        ] {
            let (_, reply) = w.call(&a, action, "", &gr_signed(&body, GR_KEY)).await;
            assert_eq!(field(&reply, &["code"]).as_deref(), Some(code), "{action} {body}: {reply}");
        }
        assert_eq!(w.balance(&p).await, 10_000);
    })
    .await;
}
