//! The partner sportsbooks (docs/PARTNERS.md): frame endpoints, the GR8 login JWT checked
//! by a fake GR8 with the served public key, the GR8 and Digitain wallets in their own
//! dialects (signed like the partners sign), all-or-none batches, replays, refusals that
//! move nothing, and the ledger consistent at the end. On SQLite and PostgreSQL.

use crate::common::*;
use reqwest::Method;
use serde_json::{json, Value};
use server::partners::{digitain, gr8, DEMO_DIGITAIN_SECRET, DEMO_GR8_SECRET, DEMO_OPERATOR_ID};
use wallet::BalanceKind;

const TEST_KEY: &str = include_str!("gr8_test_key.pem");

fn with_key(cfg: &mut server::config::Config) {
    cfg.partners.gr8_private_key_pem = Some(TEST_KEY.to_string());
}

fn now_s() -> i64 {
    now_ms() / 1000
}

/// GR8's perform-transaction as GR8 (our fake of it) sends it: signed raw body.
async fn gr8_tx(app: &TestApp, player: i64, body: &Value, secret: &str) -> (u16, Value) {
    gr8_signed_for(app, player, player, body, secret).await
}

/// GR8's signature of a request for `player`'s path.
fn gr8_sig(secret: &str, ts: &str, player: i64, raw: &[u8]) -> String {
    gr8::sign(secret, ts, &player.to_string(), raw)
}

/// A transaction signed for `signed_for`'s path, sent to `path_player`'s path.
async fn gr8_signed_for(app: &TestApp, signed_for: i64, path_player: i64, body: &Value, secret: &str) -> (u16, Value) {
    let player = path_player;
    let raw = body.to_string();
    let ts = now_s().to_string();
    let sig = gr8_sig(secret, &ts, signed_for, raw.as_bytes());
    let b = app
        .bare_client()
        .req(Method::POST, &format!("/api/v2/wallet/{player}/transactions"))
        .header("content-type", "application/json")
        .header("x-brand", "carthage")
        .header("x-operator-id", DEMO_OPERATOR_ID)
        .header("x-timestamp", ts)
        .header("x-signature", sig)
        .body(raw);
    let r = app.exec(b).await;
    (r.status, r.body)
}

fn gr8_body(kind: &str, id: &str, cash: &str, parent: Option<&str>) -> Value {
    json!({"currency": "TND", "platform": "sport", "id": id, "type": kind, "initiatedAt": "2025-01-01T10:00:00Z",
           "createdAt": "2025-01-01T10:00:01Z",
           "context": {"product": "sportsbook", "reason": "bet", "betId": format!("bet-{id}"), "parentId": parent},
           "amountBreakdown": {"cash": cash, "bonus": "0.000", "locked": "0.000", "retract": "0.000"}})
}

/// A timestamp of its own for every request (Unix milliseconds, never repeated in this
/// process): the Digitain wallet binds a timestamp and its signature to the one body it
/// first came with, so Digitain must never sign two requests with one timestamp.
pub fn unique_ts() -> String {
    use std::sync::atomic::{AtomicI64, Ordering};
    static LAST: AtomicI64 = AtomicI64::new(0);
    let now = now_ms();
    let mut prev = LAST.load(Ordering::SeqCst);
    loop {
        let next = now.max(prev + 1);
        match LAST.compare_exchange(prev, next, Ordering::SeqCst, Ordering::SeqCst) {
            Ok(_) => return next.to_string(),
            Err(p) => prev = p,
        }
    }
}

/// A Digitain call posted exactly as given (no signing): the raw reply.
async fn dg_raw(app: &TestApp, method: &str, body: &Value) -> Value {
    let r = app.exec(app.bare_client().req(Method::POST, &format!("/api/digitain/{method}")).json(body)).await;
    assert_eq!(r.status, 200, "{}", r.text);
    r.body
}

/// A Digitain call as Digitain sends it (operatorId, timestamp, signature).
async fn dg(app: &TestApp, method: &str, mut body: Value, operator: &str, secret: &str) -> Value {
    let ts = unique_ts();
    body["operatorId"] = json!(operator);
    body["timestamp"] = json!(ts);
    body["signature"] = json!(digitain::sign(secret, &ts, operator));
    let r = dg_raw(app, method, &body).await;
    // A reply that carries a signature carries a valid one (replies to requests that failed
    // verification carry none).
    if let Some(ts) = r.get("timestamp").and_then(Value::as_str) {
        assert_eq!(r["signature"], json!(digitain::sign(DEMO_DIGITAIN_SECRET, ts, DEMO_OPERATOR_ID)));
    }
    r
}

async fn dgs(app: &TestApp, method: &str, body: Value) -> Value {
    dg(app, method, body, DEMO_OPERATOR_ID, DEMO_DIGITAIN_SECRET).await
}

#[tokio::test]
async fn frame_endpoints_for_guests_and_players() {
    each_backend_with(with_key, async |app| {
        // Guests: the Digitain placeholder, the GR8 view-only frame, no GR8 link.
        let guest = app.bare_client();
        let t = ok(guest.get("/digitain/front/token").await);
        assert_eq!(t, json!({"token": "anonymous", "url": "/partners/digitain"}));
        assert_eq!(ok(guest.get("/gr8/frame?lang=fr-fr").await), json!({"frame": "/partners/gr8/fr/"}));
        assert_eq!(ok(guest.get("/gr8/frame?lang=xx").await), json!({"frame": "/partners/gr8/en/"}));
        fail(guest.get("/gr8/game_link?lang=en").await, 401, 23);
        // The demo frames answer exactly the app's shape, for guests too ("log in to bet").
        for path in ["/", "/Live/1", "/SportEvent", "/?popup=MyBets", "/events"] {
            let r = app.exec(guest.req(Method::GET, &format!("/partners/digitain/ar{path}{}token=anonymous", if path.contains('?') { "&" } else { "?" }))).await;
            assert_eq!(r.status, 200, "{path}");
            assert!(r.text.contains("dir=\"rtl\"") && r.text.contains("سجّل الدخول"), "{path}");
        }

        // A player: a fresh Digitain token each time, exchanged by `authenticate`.
        let (api, user_id, _) = app.player("dg-front@example.com").await;
        let t1 = ok(api.get("/digitain/front/token").await);
        let t2 = ok(api.get("/digitain/front/token").await);
        let token = t1["token"].as_str().unwrap().to_string();
        assert_eq!(token.len(), 64);
        assert_ne!(t1["token"], t2["token"]);
        let auth = dgs(app, "authenticate", json!({"token": token})).await;
        assert_eq!(auth["errorCode"], 1);
        assert_eq!(auth["playerId"], json!(user_id.to_string()));
        assert_eq!(auth["currencyId"], "TND");
        assert_eq!(auth["userName"], "dg-front@example.com");

        // The operator's switch: a disabled partner answers 62.
        app.sql("UPDATE casino_providers SET enabled = 0 WHERE name = 'digitain'").await;
        fail(api.get("/digitain/front/token").await, 200, 62);
        fail(guest.get("/digitain/front/token").await, 200, 62);
        app.sql("UPDATE casino_providers SET enabled = 1 WHERE name = 'digitain'").await;
    })
    .await;
}

/// The fake GR8: fetches our public key over HTTP and verifies the login JWT with it.
async fn fake_gr8_login(app: &TestApp, link: &str) -> Value {
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;
    use base64::Engine;
    use rsa::pkcs8::DecodePublicKey;
    use rsa::signature::Verifier;
    let pem = reqwest::get(format!("{}/gr8/public-key", app.base)).await.unwrap().text().await.unwrap();
    assert!(pem.starts_with("-----BEGIN PUBLIC KEY-----"), "{pem}");
    let key = rsa::RsaPublicKey::from_public_key_pem(&pem).expect("public key");
    let jwt = link.split("?jwt=").nth(1).expect("jwt in the link");
    let parts: Vec<&str> = jwt.split('.').collect();
    assert_eq!(parts.len(), 3);
    let header: Value = serde_json::from_slice(&URL_SAFE_NO_PAD.decode(parts[0]).unwrap()).unwrap();
    assert_eq!(header["alg"], "RS256");
    let sig = rsa::pkcs1v15::Signature::try_from(URL_SAFE_NO_PAD.decode(parts[2]).unwrap().as_slice()).unwrap();
    rsa::pkcs1v15::VerifyingKey::<sha2::Sha256>::new(key).verify(format!("{}.{}", parts[0], parts[1]).as_bytes(), &sig).expect("valid RS256 signature");
    serde_json::from_slice(&URL_SAFE_NO_PAD.decode(parts[1]).unwrap()).unwrap()
}

#[tokio::test]
async fn gr8_link_jwt_verifies_with_the_served_key() {
    each_backend_with(with_key, async |app| {
        let (api, user_id, _) = app.player("gr8-jwt@example.com").await;
        let link = ok(api.get("/gr8/game_link?lang=ar").await)["game_link"].as_str().unwrap().to_string();
        assert!(link.starts_with("/partners/gr8/ar/?jwt="), "{link}");
        let claims = fake_gr8_login(app, &link).await;
        assert_eq!(claims["defaultCurrency"], "TND");
        assert_eq!(claims["externalUserId"], json!(user_id.to_string()));
        assert_eq!(claims["operatorUserId"], json!(user_id.to_string()));
        assert_eq!(claims["operatorUserName"], "gr8-jwt@example.com");
        assert_eq!(claims["country"], "TN");
        let (iat, exp) = (claims["iat"].as_i64().unwrap(), claims["exp"].as_i64().unwrap());
        assert!((iat - now_s()).abs() < 60 && exp == iat + 3600);
        // The demo frame reads it (the player's balance shows).
        let page = app.exec(app.bare_client().req(Method::GET, &link)).await;
        assert!(page.text.contains("dir=\"rtl\"") && page.text.contains("name=\"stake\""), "{}", page.text);
    })
    .await;
}

#[tokio::test]
async fn gr8_wallet_moves_money_exactly_once() {
    each_backend_with(with_key, async |app| {
        let (api, user_id, _) = app.player("gr8-wallet@example.com").await;
        let before = app.minor_balance(user_id, BalanceKind::Real).await;
        app.credit(user_id, BalanceKind::Real, 10_000).await;
        let start = before + 10_000;
        // No GR8 session yet: unknown player.
        let (s, r) = gr8_tx(app, user_id, &gr8_body("withdrawal", "w0", "1", None), DEMO_GR8_SECRET).await;
        assert_eq!((s, r["error"]["code"].as_str()), (404, Some("player.notfound")));
        ok(api.get("/gr8/game_link?lang=en").await);

        // A stake of 2.5 TND, with its echo and balances; a replay answers the same body.
        let w1 = gr8_body("withdrawal", "w1", "2.5", None);
        let (s, r) = gr8_tx(app, user_id, &w1, DEMO_GR8_SECRET).await;
        assert_eq!(s, 200, "{r}");
        assert_eq!(r["alreadyProcessed"], false);
        assert_eq!(r["context"]["betId"], "bet-w1");
        assert_eq!(r["balances"]["cash"], json!(format!("{}.{:03}", (start - 2500) / 1000, (start - 2500) % 1000)));
        let (s2, r2) = gr8_tx(app, user_id, &w1, DEMO_GR8_SECRET).await;
        assert_eq!(s2, 200);
        assert_eq!(r2["alreadyProcessed"], true);
        let mut again = r.clone();
        again["alreadyProcessed"] = json!(true);
        assert_eq!(r2, again);
        assert_eq!(app.minor_balance(user_id, BalanceKind::Real).await, start - 2500);
        // Same id, another amount: a conflict, nothing moves.
        let (s, r) = gr8_tx(app, user_id, &gr8_body("withdrawal", "w1", "3", None), DEMO_GR8_SECRET).await;
        assert_eq!((s, r["error"]["code"].as_str(), r["alreadyProcessed"].as_bool()), (409, Some("conflict.duplicate"), Some(false)));

        // Decimal strings: exact, never floats; more decimals than TND has, signs, exponents refused.
        for bad in ["0.0001", "-1", "1e2", "NaN", "", "1.", ".5", " 1", "1,5"] {
            let (s, r) = gr8_tx(app, user_id, &gr8_body("withdrawal", "w-bad", bad, None), DEMO_GR8_SECRET).await;
            assert_eq!((s, r["error"]["code"].as_str()), (400, Some("validation.invalid")), "{bad:?}: {r}");
        }
        let (s, _) = gr8_tx(app, user_id, &gr8_body("withdrawal", "w-tiny", "0.001", None), DEMO_GR8_SECRET).await;
        assert_eq!(s, 200);
        assert_eq!(app.minor_balance(user_id, BalanceKind::Real).await, start - 2501);

        // Low balance: declined, nothing moved, and the id is still free.
        let (s, r) = gr8_tx(app, user_id, &gr8_body("withdrawal", "w-big", "100000", None), DEMO_GR8_SECRET).await;
        assert_eq!((s, r["error"]["code"].as_str(), r["error"]["origin"].as_str()), (400, Some("decline.lowbalance"), Some("operator")));
        assert_eq!(app.minor_balance(user_id, BalanceKind::Real).await, start - 2501);
        // Bad signature, wrong operator: refused, nothing moved.
        let (s, r) = gr8_tx(app, user_id, &gr8_body("deposit", "d-forged", "50", None), "not-the-secret").await;
        assert_eq!((s, r["error"]["code"].as_str()), (401, Some("auth.signature")));
        let raw = gr8_body("deposit", "d-forged", "50", None).to_string();
        let ts = now_s().to_string();
        let b = app.bare_client().req(Method::POST, &format!("/api/v2/wallet/{user_id}/transactions"))
            .header("x-brand", "carthage").header("x-operator-id", "someone-else").header("x-timestamp", &ts)
            .header("x-signature", gr8_sig(DEMO_GR8_SECRET, &ts, user_id, raw.as_bytes())).body(raw);
        assert_eq!(app.exec(b).await.status, 401);
        // Garbage never answers 5xx.
        let b = app.bare_client().req(Method::POST, "/api/v2/wallet/nobody/transactions").body("\u{0}{[");
        assert!(app.exec(b).await.status < 500);
        assert_eq!(app.minor_balance(user_id, BalanceKind::Real).await, start - 2501);

        // A settlement (deposit) of 6.250 TND for the bet of w1, booked as partner sport (215).
        let mut d1 = gr8_body("deposit", "d1", "6.250", None);
        d1["context"]["betId"] = json!("bet-w1");
        let (s, r) = gr8_tx(app, user_id, &d1, DEMO_GR8_SECRET).await;
        assert_eq!(s, 200, "{r}");
        assert_eq!(app.minor_balance(user_id, BalanceKind::Real).await, start - 2501 + 6250);
        assert_eq!(app.count("ledger_transactions WHERE idempotency_key = 'prov:gr8:d1' AND tx_type = 215").await, 1);
        assert_eq!(app.count("ledger_transactions WHERE idempotency_key = 'prov:gr8:w1' AND tx_type = 214").await, 1);

        // Rollback of the stake: money back once; a retry is already processed.
        let rb = gr8_body("rollback", "r1", "2.5", Some("w1"));
        let (s, r) = gr8_tx(app, user_id, &rb, DEMO_GR8_SECRET).await;
        assert_eq!((s, r["alreadyProcessed"].as_bool()), (200, Some(false)), "{r}");
        let (s, r) = gr8_tx(app, user_id, &rb, DEMO_GR8_SECRET).await;
        assert_eq!((s, r["alreadyProcessed"].as_bool()), (200, Some(true)), "{r}");
        assert_eq!(app.minor_balance(user_id, BalanceKind::Real).await, start - 1 + 6250);

        // Rollback of an unknown id: a tombstone, no money; the late withdrawal is declined.
        let (s, _) = gr8_tx(app, user_id, &gr8_body("rollback", "r2", "1", Some("w-late")), DEMO_GR8_SECRET).await;
        assert_eq!(s, 200);
        let (s, r) = gr8_tx(app, user_id, &gr8_body("withdrawal", "w-late", "1", None), DEMO_GR8_SECRET).await;
        assert_eq!((s, r["error"]["code"].as_str()), (400, Some("decline.rolledback")));
        assert_eq!(app.minor_balance(user_id, BalanceKind::Real).await, start - 1 + 6250);
        app.assert_ledger_consistent().await;
    })
    .await;
}

/// A signed-in player credited with `credit` (minor units) and their Digitain token:
/// `(client, user id, balance now, token)`.
async fn digitain_player(app: &TestApp, email: &str, credit: i64) -> (Api, i64, i64, String) {
    let (api, user_id, _) = app.player(email).await;
    let before = app.minor_balance(user_id, BalanceKind::Real).await;
    app.credit(user_id, BalanceKind::Real, credit).await;
    let token = ok(api.get("/digitain/front/token").await)["token"].as_str().unwrap().to_string();
    (api, user_id, before + credit, token)
}

#[tokio::test]
async fn digitain_wallet_batches() {
    each_backend_with(with_key, async |app| {
        let (api, user_id, start, token) = digitain_player(app, "dg-wallet@example.com", 10_000).await;
        let pid = user_id.to_string();
        let item = |tx: &str, field: &str, amount: Value| {
            json!({"txId": tx, field: amount, "token": token, "playerId": pid, "roundId": "r1", "gameId": "sb", "currencyId": "TND",
                   "info": format!("info-{tx}"), "metadata": {"m": tx}})
        };

        // Signature and operator checks: nothing moves.
        let forged = dg(app, "bet", json!({"providerId": "p", "allOrNone": false, "items": [item("b0", "betAmount", json!(1))]}), DEMO_OPERATOR_ID, "wrong").await;
        assert_eq!(forged["errorCode"], 12);
        let foreign = dg(app, "bet", json!({"providerId": "p", "allOrNone": false, "items": [item("b0", "betAmount", json!(1))]}), "other-op", DEMO_DIGITAIN_SECRET).await;
        assert_eq!(foreign["errorCode"], 15);
        assert_eq!(app.minor_balance(user_id, BalanceKind::Real).await, start);
        // Unknown token: 2; wrong player: 4.
        let r = dgs(app, "authenticate", json!({"token": "f".repeat(64)})).await;
        assert_eq!(r["errorCode"], 2);
        let b = dgs(app, "getBalance", json!({"token": token, "playerId": pid})).await;
        assert_eq!((b["errorCode"].as_i64(), b["balance"].clone()), (Some(1), serde_json::from_str::<Value>(&format!("{}.{:03}", start / 1000, start % 1000)).unwrap()));

        // Independent items: one fine, one low balance, one wrong player.
        let mut bad_player = item("b3", "betAmount", json!(1));
        bad_player["playerId"] = json!("1");
        let r = dgs(app, "bet", json!({"providerId": "p", "allOrNone": false, "items": [item("b1", "betAmount", json!(1.5)), item("b2", "betAmount", json!(1000)), bad_player]})).await;
        let codes: Vec<i64> = r["items"].as_array().unwrap().iter().map(|i| i["errorCode"].as_i64().unwrap()).collect();
        assert_eq!(codes, vec![1, 6, 4]);
        assert_eq!(r["items"][0]["info"], "info-b1");
        assert_eq!(r["items"][0]["metadata"], json!({"m": "b1"}));
        assert_eq!(app.minor_balance(user_id, BalanceKind::Real).await, start - 1500);
        // A replay: the same answer, nothing moves; the same txId with another amount: 8.
        let r = dgs(app, "bet", json!({"providerId": "p", "allOrNone": false, "items": [item("b1", "betAmount", json!("1.5"))]})).await;
        assert_eq!(r["items"][0]["errorCode"], 1);
        let r = dgs(app, "bet", json!({"providerId": "p", "allOrNone": false, "items": [item("b1", "betAmount", json!(2))]})).await;
        assert_eq!(r["items"][0]["errorCode"], 8);
        // Amounts: exact decimals only.
        for bad in [json!(-1), json!("1e2"), json!(0.0001), json!(null)] {
            let r = dgs(app, "bet", json!({"providerId": "p", "allOrNone": false, "items": [item("b-bad", "betAmount", bad.clone())]})).await;
            assert_eq!(r["items"][0]["errorCode"], 17, "{bad}");
        }
        assert_eq!(app.minor_balance(user_id, BalanceKind::Real).await, start - 1500);

        // All or none: the second item fails (low balance) → neither moves.
        let r = dgs(app, "bet", json!({"providerId": "p", "allOrNone": true, "items": [item("b4", "betAmount", json!(2)), item("b5", "betAmount", json!(500))]})).await;
        assert_eq!(r["errorCode"], 6);
        let codes: Vec<i64> = r["items"].as_array().unwrap().iter().map(|i| i["errorCode"].as_i64().unwrap()).collect();
        assert_eq!(codes, vec![999, 6]);
        assert_eq!(app.minor_balance(user_id, BalanceKind::Real).await, start - 1500);
        assert_eq!(app.count("ledger_transactions WHERE idempotency_key IN ('prov:digitain:b4', 'prov:digitain:b5')").await, 0);
        // All or none, both fine → both move; replaying the batch moves nothing.
        let batch = json!({"providerId": "p", "allOrNone": true, "items": [item("b4", "betAmount", json!(2)), item("b5", "betAmount", json!(3))]});
        let r = dgs(app, "bet", batch.clone()).await;
        assert_eq!((r["errorCode"].as_i64(), r["items"][1]["errorCode"].as_i64()), (Some(1), Some(1)), "{r}");
        let r = dgs(app, "bet", batch).await;
        assert_eq!(r["items"][1]["errorCode"], 1);
        assert_eq!(app.minor_balance(user_id, BalanceKind::Real).await, start - 6500);

        // Wins (also with the token expired), then refunds.
        let r = dgs(app, "win", json!({"providerId": "p", "allOrNone": true, "items": [item("w1", "winAmount", json!(4)), item("w2", "winAmount", json!("0.5"))]})).await;
        assert_eq!(r["errorCode"], 1, "{r}");
        assert_eq!(app.minor_balance(user_id, BalanceKind::Real).await, start - 2000);
        let refund = |tx: &str, of: &str| json!({"txId": tx, "originalTxId": of, "token": token, "playerId": pid, "roundId": "r1", "info": "x"});
        let r = dgs(app, "refund", json!({"providerId": "p", "allOrNone": false, "items": [refund("f1", "b4"), refund("f2", "b-never")]})).await;
        assert_eq!((r["items"][0]["errorCode"].as_i64(), r["items"][1]["errorCode"].as_i64()), (Some(1), Some(1)));
        assert_eq!(app.minor_balance(user_id, BalanceKind::Real).await, start);
        // Retry: 1, nothing moves; another refund of the same bet: 8; the late bet: 8.
        let r = dgs(app, "refund", json!({"providerId": "p", "allOrNone": false, "items": [refund("f1", "b4"), refund("f3", "b4")]})).await;
        assert_eq!((r["items"][0]["errorCode"].as_i64(), r["items"][1]["errorCode"].as_i64()), (Some(1), Some(8)));
        let r = dgs(app, "bet", json!({"providerId": "p", "allOrNone": false, "items": [item("b-never", "betAmount", json!(1))]})).await;
        assert_eq!(r["items"][0]["errorCode"], 8);
        assert_eq!(app.minor_balance(user_id, BalanceKind::Real).await, start);

        // Logged out: stakes stop (3), wins still pay.
        ok(api.get("/api/user/logout").await);
        let r = dgs(app, "bet", json!({"providerId": "p", "allOrNone": false, "items": [item("b9", "betAmount", json!(1))]})).await;
        assert_eq!(r["items"][0]["errorCode"], 3);
        let r = dgs(app, "win", json!({"providerId": "p", "allOrNone": false, "items": [item("w9", "winAmount", json!(1))]})).await;
        assert_eq!(r["items"][0]["errorCode"], 1);
        assert_eq!(app.minor_balance(user_id, BalanceKind::Real).await, start + 1000);
        app.assert_ledger_consistent().await;
    })
    .await;
}

/// Digitain `betwin`: the stake and the return in one transaction — both or neither, once.
#[tokio::test]
async fn digitain_betwin_moves_stake_and_return_together() {
    each_backend_with(with_key, async |app| {
        let (_api, user_id, start, token) = digitain_player(app, "dg-betwin@example.com", 5_000).await;
        let pid = user_id.to_string();
        let item = |tx: &str, bet: Value, win: Value| {
            json!({"txId": tx, "betAmount": bet, "winAmount": win, "token": token, "playerId": pid, "roundId": tx, "currencyId": "TND", "info": tx})
        };
        // 2 staked, 3.5 returned: +1.5; the reply's balance is after the win.
        let r = dgs(app, "betwin", json!({"providerId": "p", "allOrNone": false, "items": [item("bw1", json!(2), json!("3.5"))]})).await;
        assert_eq!(r["items"][0]["errorCode"], 1, "{r}");
        assert_eq!(app.minor_balance(user_id, BalanceKind::Real).await, start + 1_500);
        assert_eq!(r["items"][0]["balance"], serde_json::from_str::<Value>(&format!("{}.{:03}", (start + 1_500) / 1000, (start + 1_500) % 1000)).unwrap());
        // A retry: 1, nothing moves; the same txId with another win: 8, nothing moves.
        let r = dgs(app, "betwin", json!({"providerId": "p", "allOrNone": false, "items": [item("bw1", json!(2), json!("3.5"))]})).await;
        assert_eq!(r["items"][0]["errorCode"], 1);
        let r = dgs(app, "betwin", json!({"providerId": "p", "allOrNone": false, "items": [item("bw1", json!(2), json!(9))]})).await;
        assert_eq!(r["items"][0]["errorCode"], 8);
        assert_eq!(app.minor_balance(user_id, BalanceKind::Real).await, start + 1_500);
        // A stake above the balance: 6, and its win is not paid either.
        let r = dgs(app, "betwin", json!({"providerId": "p", "allOrNone": false, "items": [item("bw2", json!(1000), json!(2000))]})).await;
        assert_eq!(r["items"][0]["errorCode"], 6);
        assert_eq!(app.minor_balance(user_id, BalanceKind::Real).await, start + 1_500);
        assert_eq!(app.count("ledger_transactions WHERE idempotency_key LIKE 'prov:digitain:bw2%'").await, 0);
        // All or none across items: the second's stake fails → the first's bet and win stay out.
        let r = dgs(app, "betwin", json!({"providerId": "p", "allOrNone": true, "items": [item("bw3", json!(1), json!(0)), item("bw4", json!(1000), json!(0))]})).await;
        assert_eq!(r["errorCode"], 6);
        let codes: Vec<i64> = r["items"].as_array().unwrap().iter().map(|i| i["errorCode"].as_i64().unwrap()).collect();
        assert_eq!(codes, vec![999, 6]);
        assert_eq!(app.minor_balance(user_id, BalanceKind::Real).await, start + 1_500);
        // Both fine: a lost betwin (win 0) and a won one.
        let r = dgs(app, "betwin", json!({"providerId": "p", "allOrNone": true, "items": [item("bw3", json!(1), json!(0)), item("bw4", json!(1), json!(2))]})).await;
        assert_eq!(r["errorCode"], 1, "{r}");
        assert_eq!(app.minor_balance(user_id, BalanceKind::Real).await, start + 1_500);
        // A betwin needs the player's live session, as a bet does.
        let mut no_token = item("bw5", json!(1), json!(1));
        no_token.as_object_mut().unwrap().remove("token");
        let r = dgs(app, "betwin", json!({"providerId": "p", "allOrNone": false, "items": [no_token]})).await;
        assert_eq!(r["items"][0]["errorCode"], 17);

        // 20 deliveries of one betwin at once: the stake and the return move once.
        let now = app.minor_balance(user_id, BalanceKind::Real).await;
        let batch = json!({"providerId": "p", "allOrNone": false, "items": [item("bw6", json!(1), json!("2.5"))]});
        let replies = futures::future::join_all((0..20).map(|_| dgs(app, "betwin", batch.clone()))).await;
        assert!(replies.iter().all(|r| r["items"][0]["errorCode"] == 1), "{replies:?}");
        assert_eq!(app.minor_balance(user_id, BalanceKind::Real).await, now + 1_500);
        // A refund of a betwin takes back its return with its stake: −1.5 in all, once; again
        // under its txId: 1, under another: 8, nothing moves.
        let refund = |tx: &str, of: &str| json!({"txId": tx, "originalTxId": of, "token": token, "playerId": pid, "roundId": of});
        let r = dgs(app, "refund", json!({"providerId": "p", "allOrNone": false, "items": [refund("rf6", "bw6")]})).await;
        assert_eq!(r["items"][0]["errorCode"], 1, "{r}");
        assert_eq!(app.minor_balance(user_id, BalanceKind::Real).await, now);
        let r = dgs(app, "refund", json!({"providerId": "p", "allOrNone": false, "items": [refund("rf6", "bw6"), refund("rf7", "bw6")]})).await;
        assert_eq!((r["items"][0]["errorCode"].as_i64(), r["items"][1]["errorCode"].as_i64()), (Some(1), Some(8)));
        assert_eq!(app.minor_balance(user_id, BalanceKind::Real).await, now);
        // A refund that overtakes its betwin: the late betwin is refused whole (8).
        let r = dgs(app, "refund", json!({"providerId": "p", "allOrNone": false, "items": [refund("rf8", "bw8")]})).await;
        assert_eq!(r["items"][0]["errorCode"], 1);
        let r = dgs(app, "betwin", json!({"providerId": "p", "allOrNone": false, "items": [item("bw8", json!(1), json!(5))]})).await;
        assert_eq!(r["items"][0]["errorCode"], 8);
        assert_eq!(app.minor_balance(user_id, BalanceKind::Real).await, now);
        app.assert_ledger_consistent().await;
    })
    .await;
}

#[tokio::test]
async fn demo_partner_pages_bet_through_the_real_wallet() {
    each_backend_with(with_key, async |app| {
        let (api, user_id, _) = app.player("demo-partner@example.com").await;
        app.credit(user_id, BalanceKind::Real, 50_000).await;
        let token = ok(api.get("/digitain/front/token").await)["token"].as_str().unwrap().to_string();
        let before = app.minor_balance(user_id, BalanceKind::Real).await;
        let page = app.exec(app.bare_client().req(Method::GET, &format!("/partners/digitain/fr/SportEvent?token={token}"))).await;
        assert!(page.text.contains("lang=\"fr\"") && page.text.contains("Parier"), "{}", page.text);
        let form = format!("action=bet&lang=fr&credential={token}&game=0&pick=0&stake=5");
        let placed = app.exec(app.bare_client().req(Method::POST, "/partners/digitain/action").header("content-type", "application/x-www-form-urlencoded").body(form)).await;
        assert!(placed.text.contains("Pari placé"), "{}", placed.text);
        assert_eq!(app.minor_balance(user_id, BalanceKind::Real).await, before - 5000);
        assert_eq!(app.count(&format!("ledger_transactions WHERE user_id = {user_id} AND tx_type = 214")).await, 1);
        // Settling pays through the partner's win (its bet is there): once, however often.
        let settled = demo_settle(app, "digitain", &token, &placed.text).await;
        let settled_again = demo_settle(app, "digitain", &token, &placed.text).await;
        assert!(settled.contains("Won") || settled.contains("Lost"), "{settled}");
        assert!(!settled_again.contains("error"), "{settled_again}");
        assert_eq!(app.count(&format!("ledger_transactions WHERE user_id = {user_id} AND tx_type = 215 AND idempotency_key LIKE 'prov:digitain:settle-%'")).await, 1);

        // The GR8 demo: the JWT frame, a withdrawal signed over the player, its deposit.
        let link = ok(api.get("/gr8/game_link?lang=en").await)["game_link"].as_str().unwrap().to_string();
        let jwt = link.split("?jwt=").nth(1).unwrap().to_string();
        let before = app.minor_balance(user_id, BalanceKind::Real).await;
        let form = format!("action=bet&lang=en&credential={}&game=1&pick=2&stake=3", urlencode(&jwt));
        let placed = app.exec(app.bare_client().req(Method::POST, "/partners/gr8/action").header("content-type", "application/x-www-form-urlencoded").body(form)).await;
        assert!(placed.text.contains("Bet placed"), "{}", placed.text);
        assert_eq!(app.minor_balance(user_id, BalanceKind::Real).await, before - 3000);
        let settled = demo_settle(app, "gr8", &jwt, &placed.text).await;
        assert!(settled.contains("Won") || settled.contains("Lost"), "{settled}");
        assert!(!settled.contains("decline") && !settled.contains("auth."), "{settled}");
        assert_eq!(app.count(&format!("ledger_transactions WHERE user_id = {user_id} AND tx_type = 215 AND idempotency_key LIKE 'prov:gr8:settle-%'")).await, 1);
        app.assert_ledger_consistent().await;
    })
    .await;
}

/// Posts the demo page's "Settle" form found in `page`.
async fn demo_settle(app: &TestApp, partner: &str, credential: &str, page: &str) -> String {
    let field = |name: &str| {
        let marker = format!("name=\"{name}\" value=\"");
        let start = page.find(&marker).unwrap_or_else(|| panic!("no {name} in {page}")) + marker.len();
        page[start..].split('"').next().unwrap().to_string()
    };
    let form = format!("action=settle&lang=en&credential={}&slip={}&seal={}", urlencode(credential), urlencode(&field("slip")), field("seal"));
    let r = app.exec(app.bare_client().req(Method::POST, &format!("/partners/{partner}/action")).header("content-type", "application/x-www-form-urlencoded").body(form)).await;
    assert_eq!(r.status, 200);
    r.text
}

// ------------------------------------------------------------------ issue 18: partner wallet security

/// The reproduction: an unsigned `getBalance {}` used to answer a signed frame
/// (`operatorId`, `timestamp`, `signature`) — exactly what a request needs, since Digitain
/// does not sign the body — and a win sent with it was credited. Now a reply to a request
/// that failed verification carries no frame, and the frame of a reply to a real request is
/// bound to that request's body: no win is ever credited with either.
#[tokio::test]
async fn digitain_reply_frames_never_drive_the_wallet() {
    each_backend_with(with_key, async |app| {
        let (_api, user_id, start, token) = digitain_player(app, "dg-forge@example.com", 10_000).await;
        let forged_win = |frame: &Value, tx: &str| {
            json!({"operatorId": frame["operatorId"], "timestamp": frame["timestamp"], "signature": frame["signature"],
                   "providerId": "p", "allOrNone": false,
                   "items": [{"txId": tx, "playerId": user_id.to_string(), "roundId": format!("round-{tx}"), "winAmount": 100000, "currencyId": "TND"}]})
        };
        // An attacker without the secret.
        let frame = dg_raw(app, "getBalance", &json!({})).await;
        let w = dg_raw(app, "win", &forged_win(&frame, "forged-1")).await;
        assert_ne!(w["items"][0]["errorCode"], 1, "{w}");
        assert_eq!(app.minor_balance(user_id, BalanceKind::Real).await, start, "a forged win was credited: {w}");
        assert_eq!(app.count("ledger_transactions WHERE idempotency_key LIKE 'prov:digitain:forged-%'").await, 0);
        // The reply to a request that failed verification discloses nothing.
        for field in ["operatorId", "timestamp", "signature"] {
            assert!(frame.get(field).is_none(), "{field} disclosed: {frame}");
            assert!(w.get(field).is_none(), "{field} disclosed: {w}");
        }
        // The frame of a reply to a real request: bound to that request's body.
        let real = dgs(app, "getBalance", json!({"token": token})).await;
        assert_eq!(real["errorCode"], 1);
        let w = dg_raw(app, "win", &forged_win(&real, "forged-2")).await;
        assert_eq!(w["errorCode"], 12, "{w}");
        assert!(w.get("signature").is_none(), "{w}");
        assert_eq!(app.minor_balance(user_id, BalanceKind::Real).await, start);
        assert_eq!(app.count("ledger_transactions WHERE idempotency_key LIKE 'prov:digitain:forged-%'").await, 0);
        app.assert_ledger_consistent().await;
    })
    .await;
}

/// A wrong operator id answers 15 only to a request signed with our secret; the reply never
/// carries our `operatorId` (nor a timestamp and signature).
#[tokio::test]
async fn digitain_wrong_operator_discloses_nothing() {
    each_backend_with(with_key, async |app| {
        let unsigned = dg_raw(app, "getBalance", &json!({"operatorId": "guess", "timestamp": unique_ts(), "signature": "00"})).await;
        let signed = dg(app, "getBalance", json!({"token": "x"}), "other-op", DEMO_DIGITAIN_SECRET).await;
        assert_eq!(signed["errorCode"], 15, "{signed}");
        for r in [&unsigned, &signed] {
            assert!(!r.to_string().contains(DEMO_OPERATOR_ID), "the operator id disclosed: {r}");
            for field in ["operatorId", "timestamp", "signature"] {
                assert!(r.get(field).is_none(), "{field} in {r}");
            }
        }
    })
    .await;
}

/// A timestamp and signature, once seen, belong to the body they came with: the same body
/// again is answered from its first outcome; any other body with that pair is refused (12).
#[tokio::test]
async fn digitain_a_signature_is_bound_to_its_first_body() {
    each_backend_with(with_key, async |app| {
        let (_api, user_id, start, token) = digitain_player(app, "dg-pair@example.com", 10_000).await;
        let ts = unique_ts();
        let frame = |body: Value| {
            let mut b = body;
            b["operatorId"] = json!(DEMO_OPERATOR_ID);
            b["timestamp"] = json!(ts);
            b["signature"] = json!(digitain::sign(DEMO_DIGITAIN_SECRET, &ts, DEMO_OPERATOR_ID));
            b
        };
        let bet = |tx: &str| json!({"providerId": "p", "allOrNone": false, "items": [{"txId": tx, "betAmount": 1, "token": token, "playerId": user_id.to_string(), "roundId": tx, "currencyId": "TND"}]});
        let first = dg_raw(app, "bet", &frame(bet("pair-1"))).await;
        assert_eq!(first["items"][0]["errorCode"], 1, "{first}");
        assert_eq!(app.minor_balance(user_id, BalanceKind::Real).await, start - 1000);
        // The same body again: the first answer, byte for byte; nothing moves.
        let again = dg_raw(app, "bet", &frame(bet("pair-1"))).await;
        assert_eq!(again, first);
        // Another body (another bet), or the same body on another method: refused.
        let other = dg_raw(app, "bet", &frame(bet("pair-2"))).await;
        assert_eq!(other["errorCode"], 12, "{other}");
        assert!(other.get("signature").is_none());
        let elsewhere = dg_raw(app, "win", &frame(bet("pair-1"))).await;
        assert_eq!(elsewhere["errorCode"], 12, "{elsewhere}");
        assert_eq!(app.minor_balance(user_id, BalanceKind::Real).await, start - 1000);
        assert_eq!(app.count("ledger_transactions WHERE idempotency_key = 'prov:digitain:pair-2'").await, 0);
        // A refusal is what its retry gets, even once the refusal would no longer hold: a
        // bet refused for funds, retried (same pair, same body) after a credit, stays refused.
        let ts2 = unique_ts();
        let mut big = json!({"providerId": "p", "allOrNone": false, "items": [{"txId": "pair-big", "betAmount": 50, "token": token, "playerId": user_id.to_string(), "roundId": "pair-big", "currencyId": "TND"}]});
        big["operatorId"] = json!(DEMO_OPERATOR_ID);
        big["timestamp"] = json!(ts2);
        big["signature"] = json!(digitain::sign(DEMO_DIGITAIN_SECRET, &ts2, DEMO_OPERATOR_ID));
        let refused = dg_raw(app, "bet", &big).await;
        assert_eq!(refused["items"][0]["errorCode"], 6, "{refused}");
        app.credit(user_id, BalanceKind::Real, 100_000).await;
        assert_eq!(dg_raw(app, "bet", &big).await, refused);
        assert_eq!(app.count("ledger_transactions WHERE idempotency_key = 'prov:digitain:pair-big'").await, 0);
        let start = start + 100_000;
        // One request delivered 20 times at once (one pair, one body): every delivery is
        // answered as the first, the stake moves once.
        let ts = unique_ts();
        let mut same = bet("pair-3");
        same["operatorId"] = json!(DEMO_OPERATOR_ID);
        same["timestamp"] = json!(ts);
        same["signature"] = json!(digitain::sign(DEMO_DIGITAIN_SECRET, &ts, DEMO_OPERATOR_ID));
        let replies = futures::future::join_all((0..20).map(|_| dg_raw(app, "bet", &same))).await;
        assert!(replies.iter().all(|r| r["items"][0]["errorCode"] == 1 && r["timestamp"] == json!(ts)), "{replies:?}");
        assert_eq!(app.minor_balance(user_id, BalanceKind::Real).await, start - 2000);
        assert_eq!(app.count("ledger_transactions WHERE idempotency_key = 'prov:digitain:pair-3'").await, 1);
        app.assert_ledger_consistent().await;
    })
    .await;
}

/// Wins need their bet (digitain's `win_requires_bet`, on every path: alone, in an
/// all-or-none batch, with or without a token); a refund moves only its own player's bet.
#[tokio::test]
async fn digitain_wins_need_their_bet() {
    each_backend_with(with_key, async |app| {
        let (_api, user_id, start, token) = digitain_player(app, "dg-nobet@example.com", 10_000).await;
        let pid = user_id.to_string();
        let win = |tx: &str, round: &str, with_token: bool| {
            let mut i = json!({"txId": tx, "winAmount": 100, "playerId": pid, "roundId": round, "currencyId": "TND"});
            if with_token {
                i["token"] = json!(token);
            }
            i
        };
        for (all, with_token) in [(false, true), (false, false), (true, true), (true, false)] {
            let tx = format!("nobet-{all}-{with_token}");
            let r = dgs(app, "win", json!({"providerId": "p", "allOrNone": all, "items": [win(&tx, &format!("r-{tx}"), with_token)]})).await;
            assert_ne!(r["items"][0]["errorCode"], 1, "allOrNone {all}, token {with_token}: {r}");
        }
        assert_eq!(app.minor_balance(user_id, BalanceKind::Real).await, start);
        assert_eq!(app.count("ledger_transactions WHERE idempotency_key LIKE 'prov:digitain:nobet-%'").await, 0);
        // Another player's bet does not make a round this player's.
        let (_o, other, other_start, other_token) = digitain_player(app, "dg-nobet-other@example.com", 10_000).await;
        let r = dgs(app, "bet", json!({"providerId": "p", "allOrNone": false, "items": [{"txId": "theirs-1", "betAmount": 1, "token": other_token, "playerId": other.to_string(), "roundId": "their-round", "currencyId": "TND"}]})).await;
        assert_eq!(r["items"][0]["errorCode"], 1);
        let r = dgs(app, "win", json!({"providerId": "p", "allOrNone": false, "items": [win("nobet-theirs", "their-round", false)]})).await;
        assert_ne!(r["items"][0]["errorCode"], 1, "{r}");
        // A refund naming their bet, in this player's name: refused; their money stays.
        let r = dgs(app, "refund", json!({"providerId": "p", "allOrNone": false, "items": [{"txId": "steal-1", "originalTxId": "theirs-1", "playerId": pid, "roundId": "their-round"}]})).await;
        assert_ne!(r["items"][0]["errorCode"], 1, "{r}");
        assert_eq!(app.minor_balance(other, BalanceKind::Real).await, other_start - 1000);
        // The win of a round this player bet in is paid, token or not.
        let r = dgs(app, "bet", json!({"providerId": "p", "allOrNone": false, "items": [{"txId": "mine-1", "betAmount": 1, "token": token, "playerId": pid, "roundId": "my-round", "currencyId": "TND"}]})).await;
        assert_eq!(r["items"][0]["errorCode"], 1);
        let r = dgs(app, "win", json!({"providerId": "p", "allOrNone": true, "items": [win("mine-w1", "my-round", false), win("mine-w2", "my-round", true)]})).await;
        assert_eq!(r["errorCode"], 1, "{r}");
        assert_eq!(app.minor_balance(user_id, BalanceKind::Real).await, start - 1000 + 200_000);
        app.assert_ledger_consistent().await;
    })
    .await;
}

/// An amend acts only on the named player's own win: naming another player's transaction,
/// a bet, or an unknown id is refused and moves nothing.
#[tokio::test]
async fn digitain_amends_act_only_on_the_players_own_win() {
    each_backend_with(with_key, async |app| {
        let (_a, attacker, a_start, a_token) = digitain_player(app, "dg-amend-a@example.com", 10_000).await;
        // The victim only opened the frame.
        let (_v, victim, v_start, _v_token) = digitain_player(app, "dg-amend-v@example.com", 20_000).await;
        let (a, v) = (attacker.to_string(), victim.to_string());
        let r = dgs(app, "bet", json!({"providerId": "p", "allOrNone": false, "items": [{"txId": "am-bet", "betAmount": 1, "token": a_token, "playerId": a, "roundId": "am-round", "currencyId": "TND"}]})).await;
        assert_eq!(r["items"][0]["errorCode"], 1);
        let r = dgs(app, "win", json!({"providerId": "p", "allOrNone": false, "items": [{"txId": "am-win", "winAmount": 2, "token": a_token, "playerId": a, "roundId": "am-round", "currencyId": "TND"}]})).await;
        assert_eq!(r["items"][0]["errorCode"], 1, "{r}");
        let a_now = a_start - 1000 + 2000;
        let amend = |tx: &str, player: &str, win: &str, op: i64, amount: i64| {
            json!({"providerId": "p", "allOrNone": false, "items": [{"txId": tx, "playerId": player, "winTxId": win, "operationType": op, "amendAmount": amount, "roundId": "am-round", "currencyId": "TND"}]})
        };
        // The case: a debit naming the attacker's win, in the victim's name.
        let r = dgs(app, "amend", amend("am-1", &v, "am-win", 38, 20)).await;
        assert_ne!(r["items"][0]["errorCode"], 1, "{r}");
        // A credit naming the attacker's own bet (not a win), or an unknown id.
        let r = dgs(app, "amend", amend("am-2", &a, "am-bet", 37, 50)).await;
        assert_ne!(r["items"][0]["errorCode"], 1, "{r}");
        let r = dgs(app, "amend", amend("am-3", &a, "never", 37, 50)).await;
        assert_eq!(r["items"][0]["errorCode"], 7, "{r}");
        assert_eq!(app.minor_balance(victim, BalanceKind::Real).await, v_start);
        assert_eq!(app.minor_balance(attacker, BalanceKind::Real).await, a_now);
        assert_eq!(app.count("ledger_transactions WHERE idempotency_key LIKE 'prov:digitain:am-_'").await, 0);
        // The player's own win: amended (credit 0.5, then debit 0.25).
        let r = dgs(app, "amend", amend("am-4", &a, "am-win", 37, 0)).await;
        assert_eq!(r["items"][0]["errorCode"], 1, "{r}");
        let mut credit = amend("am-5", &a, "am-win", 37, 0);
        credit["items"][0]["amendAmount"] = json!("0.5");
        assert_eq!(dgs(app, "amend", credit).await["items"][0]["errorCode"], 1);
        let mut debit = amend("am-6", &a, "am-win", 38, 0);
        debit["items"][0]["amendAmount"] = json!("0.25");
        assert_eq!(dgs(app, "amend", debit).await["items"][0]["errorCode"], 1);
        assert_eq!(app.minor_balance(attacker, BalanceKind::Real).await, a_now + 250);
        assert_eq!(app.minor_balance(victim, BalanceKind::Real).await, v_start);
        app.assert_ledger_consistent().await;
    })
    .await;
}

/// GR8: a deposit needs a withdrawal of that player under its `context.betId`.
#[tokio::test]
async fn gr8_deposits_need_their_bet() {
    each_backend_with(with_key, async |app| {
        let (api, user_id, _) = app.player("gr8-nobet@example.com").await;
        app.credit(user_id, BalanceKind::Real, 10_000).await;
        ok(api.get("/gr8/game_link?lang=en").await);
        let (other_api, other, _) = app.player("gr8-nobet-other@example.com").await;
        app.credit(other, BalanceKind::Real, 10_000).await;
        ok(other_api.get("/gr8/game_link?lang=en").await);
        let start = app.minor_balance(user_id, BalanceKind::Real).await;
        let with_bet = |kind: &str, id: &str, cash: &str, bet: &str| {
            let mut b = gr8_body(kind, id, cash, None);
            b["context"]["betId"] = json!(bet);
            b
        };
        // The case: a deposit for a bet that never existed.
        let (s, r) = gr8_tx(app, user_id, &with_bet("deposit", "gd-1", "100", "never-bet"), DEMO_GR8_SECRET).await;
        assert_eq!(s, 400, "{r}");
        // Nor another player's bet.
        let (s, _) = gr8_tx(app, other, &with_bet("withdrawal", "gw-other", "1", "their-bet"), DEMO_GR8_SECRET).await;
        assert_eq!(s, 200);
        let (s, r) = gr8_tx(app, user_id, &with_bet("deposit", "gd-2", "100", "their-bet"), DEMO_GR8_SECRET).await;
        assert_eq!(s, 400, "{r}");
        // Without a betId at all.
        let mut bare = gr8_body("deposit", "gd-3", "100", None);
        bare["context"].as_object_mut().unwrap().remove("betId");
        let (s, r) = gr8_tx(app, user_id, &bare, DEMO_GR8_SECRET).await;
        assert_eq!(s, 400, "{r}");
        assert_eq!(app.minor_balance(user_id, BalanceKind::Real).await, start);
        assert_eq!(app.count("ledger_transactions WHERE idempotency_key LIKE 'prov:gr8:gd-%'").await, 0);
        // Its own bet: paid.
        let (s, _) = gr8_tx(app, user_id, &with_bet("withdrawal", "gw-1", "1", "my-bet"), DEMO_GR8_SECRET).await;
        assert_eq!(s, 200);
        let (s, r) = gr8_tx(app, user_id, &with_bet("deposit", "gd-4", "3", "my-bet"), DEMO_GR8_SECRET).await;
        assert_eq!(s, 200, "{r}");
        assert_eq!(app.minor_balance(user_id, BalanceKind::Real).await, start + 2000);
        app.assert_ledger_consistent().await;
    })
    .await;
}

/// GR8: the signature covers the path's player: a body signed for one player is refused on
/// another's path.
#[tokio::test]
async fn gr8_a_body_signed_for_one_player_is_refused_for_another() {
    each_backend_with(with_key, async |app| {
        let (a_api, a, _) = app.player("gr8-path-a@example.com").await;
        let (b_api, b, _) = app.player("gr8-path-b@example.com").await;
        app.credit(b, BalanceKind::Real, 10_000).await;
        ok(a_api.get("/gr8/game_link?lang=en").await);
        ok(b_api.get("/gr8/game_link?lang=en").await);
        let b_start = app.minor_balance(b, BalanceKind::Real).await;
        // A withdrawal signed for A's path, sent to B's.
        let (s, r) = gr8_signed_for(app, a, b, &gr8_body("withdrawal", "gp-1", "5", None), DEMO_GR8_SECRET).await;
        assert_eq!((s, r["error"]["code"].as_str()), (401, Some("auth.signature")), "{r}");
        assert_eq!(app.minor_balance(b, BalanceKind::Real).await, b_start);
        // Signed for B's path: accepted.
        let (s, r) = gr8_signed_for(app, b, b, &gr8_body("withdrawal", "gp-2", "5", None), DEMO_GR8_SECRET).await;
        assert_eq!(s, 200, "{r}");
        assert_eq!(app.minor_balance(b, BalanceKind::Real).await, b_start - 5000);
        app.assert_ledger_consistent().await;
    })
    .await;
}

/// The partners' addresses are a setting: a call from elsewhere is refused (403) before
/// anything is read, and nothing moves. Behind our proxy the address is the last
/// `X-Forwarded-For` entry (the one the proxy appended), never an earlier one.
#[tokio::test]
async fn partner_wallets_answer_only_their_allowed_addresses() {
    let restrict = |cfg: &mut server::config::Config| {
        with_key(cfg);
        cfg.partners.digitain_allowed = server::partners::AddressList::parse("198.51.100.0/24").unwrap();
        cfg.partners.gr8_allowed = server::partners::AddressList::parse("198.51.100.7").unwrap();
    };
    each_backend_with(restrict, async |app| {
        let (api, user_id, start, token) = digitain_player(app, "dg-allow@example.com", 10_000).await;
        ok(api.get("/gr8/game_link?lang=en").await);
        // From 127.0.0.1 (the test's own address): refused, with no frame of ours.
        let body = json!({"providerId": "p", "allOrNone": false, "items": [{"txId": "allow-1", "betAmount": 1, "token": token, "playerId": user_id.to_string(), "roundId": "ra", "currencyId": "TND"}]});
        let ts = unique_ts();
        let mut signed = body.clone();
        signed["operatorId"] = json!(DEMO_OPERATOR_ID);
        signed["timestamp"] = json!(ts);
        signed["signature"] = json!(digitain::sign(DEMO_DIGITAIN_SECRET, &ts, DEMO_OPERATOR_ID));
        let r = app.exec(app.bare_client().req(Method::POST, "/api/digitain/bet").json(&signed)).await;
        assert_eq!((r.status, r.body.clone()), (403, json!({"errorCode": 12})), "{}", r.text);
        let (s, r) = gr8_tx(app, user_id, &gr8_body("withdrawal", "allow-2", "1", None), DEMO_GR8_SECRET).await;
        assert_eq!((s, r["error"]["code"].as_str()), (403, Some("auth.address")), "{r}");
        // A forwarded address is not believed without TRUST_PROXY.
        let r = app.exec(app.bare_client().req(Method::POST, "/api/digitain/bet").header("x-forwarded-for", "198.51.100.7").json(&signed)).await;
        assert_eq!(r.status, 403);
        assert_eq!(app.minor_balance(user_id, BalanceKind::Real).await, start);
        assert_eq!(app.count("ledger_transactions WHERE idempotency_key LIKE 'prov:%:allow-%'").await, 0);
    })
    .await;
    // Behind our proxy: the last entry is the address that reached the proxy.
    let proxied = |cfg: &mut server::config::Config| {
        restrict(cfg);
        cfg.trust_proxy = true;
    };
    each_backend_with(proxied, async |app| {
        let (_api, user_id, start, token) = digitain_player(app, "dg-allow-proxy@example.com", 10_000).await;
        let call = async |forwarded: &str, tx: &str| {
            let ts = unique_ts();
            let body = json!({"providerId": "p", "allOrNone": false, "operatorId": DEMO_OPERATOR_ID, "timestamp": ts,
                "signature": digitain::sign(DEMO_DIGITAIN_SECRET, &ts, DEMO_OPERATOR_ID),
                "items": [{"txId": tx, "betAmount": 1, "token": token, "playerId": user_id.to_string(), "roundId": "ra", "currencyId": "TND"}]});
            app.exec(app.bare_client().req(Method::POST, "/api/digitain/bet").header("x-forwarded-for", forwarded).json(&body)).await
        };
        // The client's own word first, the proxy's entry last.
        assert_eq!(call("198.51.100.7, 203.0.113.9", "allow-3").await.status, 403);
        assert_eq!(call("garbage", "allow-4").await.status, 403);
        let r = call("203.0.113.9, 198.51.100.8", "allow-5").await;
        assert_eq!((r.status, r.body["items"][0]["errorCode"].as_i64()), (200, Some(1)), "{}", r.text);
        assert_eq!(app.minor_balance(user_id, BalanceKind::Real).await, start - 1000);
    })
    .await;
}
