//! The seamless provider wallet over HTTP (`/api/wallet/v1/*`), signed as a third-party
//! provider signs: the demo provider `demo` / `demo-secret`, game `demo-table`.

use crate::common::*;
use reqwest::Method;
use serde_json::{json, Value};
use wallet::BalanceKind;

const SECRET: &str = "demo-secret";

/// A player with a game session of the demo provider: (client, user id, session token).
async fn demo_session(app: &TestApp, email: &str, credit: i64) -> (Api, i64, String) {
    let (api, user_id, _) = app.player(email).await;
    if credit > 0 {
        app.credit(user_id, BalanceKind::Real, credit).await;
    }
    let launch = ok(api.post("/api/casino/session", json!({"provider": "demo", "gameId": "demo-table", "lang": "en", "platform": "mobile"})).await);
    (api, user_id, launch["sessionToken"].as_str().expect("token").to_string())
}

fn sign(secret: &str, ts: &str, body: &[u8]) -> String {
    casino::signature::sign(secret, ts, body)
}

/// A signed call: `(HTTP status, envelope)`.
async fn call(app: &TestApp, op: &str, body: &Value) -> (u16, Value) {
    let raw = serde_json::to_vec(body).unwrap();
    let ts = (now_ms() / 1000).to_string();
    signed(app, op, &raw, "demo", &ts, &sign(SECRET, &ts, &raw)).await
}

async fn signed(app: &TestApp, op: &str, raw: &[u8], provider: &str, ts: &str, sig: &str) -> (u16, Value) {
    let b = app
        .bare_client()
        .req(Method::POST, &format!("/api/wallet/v1/{op}"))
        .header("content-type", "application/json")
        .header("x-provider", provider)
        .header("x-timestamp", ts)
        .header("x-signature", sig)
        .body(raw.to_vec());
    app.bare_client().exec(b).await.pair()
}

fn money(token: &str, tx: &str, round: &str, amount: i64) -> Value {
    json!({"sessionToken": token, "transactionId": tx, "roundId": round, "gameId": "demo-table", "amount": amount, "currency": "TND"})
}

fn rollback(token: &str, tx: &str, reference: &str) -> Value {
    json!({"sessionToken": token, "transactionId": tx, "referenceTransactionId": reference, "roundId": "r", "gameId": "demo-table"})
}

async fn expire(app: &TestApp, user_id: i64) {
    app.sql(&format!("UPDATE game_sessions SET expires_at = 1 WHERE user_id = {user_id}")).await;
}

#[tokio::test]
async fn balance_bet_win_and_replays() {
    each_backend(async |app| {
        let (_, user, token) = demo_session(app, "pw1@example.com", 10_000).await;
        let b = ok(call(app, "balance", &json!({"sessionToken": token})).await);
        assert_eq!((b["balance"].as_i64(), b["currency"].as_str(), b["playerId"].as_i64()), (Some(10_000), Some("TND"), Some(user)));

        let bet = ok(call(app, "bet", &money(&token, "b-1", "r-1", 2_500)).await);
        assert_eq!(bet["balance"], 7_500);
        assert_eq!(bet["transactionId"], "b-1");
        // Replay: the original reply, no second posting.
        let again = ok(call(app, "bet", &money(&token, "b-1", "r-1", 2_500)).await);
        assert_eq!(again, bet);
        let win = ok(call(app, "win", &money(&token, "w-1", "r-1", 6_000)).await);
        assert_eq!(win["balance"], 13_500);
        // The replay of the bet still answers its own original balance.
        assert_eq!(ok(call(app, "bet", &money(&token, "b-1", "r-1", 2_500)).await)["balance"], 7_500);
        assert_eq!(app.minor_balance(user, BalanceKind::Real).await, 13_500);
        assert_eq!(app.count("ledger_transactions WHERE idempotency_key LIKE 'prov:demo:%'").await, 2);
        // A zero win closes a round without a posting.
        assert_eq!(ok(call(app, "win", &money(&token, "w-0", "r-1", 0)).await)["balance"], 13_500);
        app.assert_ledger_consistent().await;
    })
    .await;
}

#[tokio::test]
async fn conflicting_duplicates_are_refused() {
    each_backend(async |app| {
        let (_, user, token) = demo_session(app, "pw2@example.com", 10_000).await;
        ok(call(app, "bet", &money(&token, "b-1", "r-1", 1_000)).await);
        // Same transaction id: another amount, another round, another game, or as a win.
        fail(call(app, "bet", &money(&token, "b-1", "r-1", 1_001)).await, 409, 26);
        fail(call(app, "bet", &money(&token, "b-1", "r-2", 1_000)).await, 409, 26);
        let mut other_game = money(&token, "b-1", "r-1", 1_000);
        other_game["gameId"] = json!("other");
        fail(call(app, "bet", &other_game).await, 409, 26);
        fail(call(app, "win", &money(&token, "b-1", "r-1", 1_000)).await, 409, 26);
        // Another player reusing the id is a conflict too.
        let (_, _, token2) = demo_session(app, "pw2b@example.com", 10_000).await;
        fail(call(app, "bet", &money(&token2, "b-1", "r-1", 1_000)).await, 409, 26);
        assert_eq!(app.minor_balance(user, BalanceKind::Real).await, 9_000);
        app.assert_ledger_consistent().await;
    })
    .await;
}

#[tokio::test]
async fn rollback_reverses_or_tombstones() {
    each_backend(async |app| {
        let (_, user, token) = demo_session(app, "pw3@example.com", 10_000).await;
        // Rollback of a bet that exists: reversed; its replay answers the same.
        ok(call(app, "bet", &money(&token, "b-1", "r-1", 4_000)).await);
        let rb = ok(call(app, "rollback", &rollback(&token, "rb-1", "b-1")).await);
        assert_eq!(rb["balance"], 10_000);
        assert_eq!(ok(call(app, "rollback", &rollback(&token, "rb-1", "b-1")).await)["balance"], 10_000);
        // Rollback before the bet: a tombstone, no money moves; the late bet is refused (28).
        let tomb = ok(call(app, "rollback", &rollback(&token, "rb-2", "b-2")).await);
        assert_eq!(tomb["balance"], 10_000);
        assert!(tomb["ledgerTxId"].is_null());
        fail(call(app, "bet", &money(&token, "b-2", "r-2", 1_000)).await, 200, 28);
        fail(call(app, "bet", &money(&token, "b-2", "r-2", 1_000)).await, 200, 28);
        assert_eq!(app.minor_balance(user, BalanceKind::Real).await, 10_000);
        // Another player's transaction cannot be rolled back through my session.
        let (_, _, token2) = demo_session(app, "pw3b@example.com", 10_000).await;
        ok(call(app, "bet", &money(&token2, "b-3", "r-3", 1_000)).await);
        fail(call(app, "rollback", &rollback(&token, "rb-3", "b-3")).await, 200, 72);
        // A rollback naming itself is malformed.
        fail(call(app, "rollback", &rollback(&token, "rb-4", "rb-4")).await, 400, 40);
        app.assert_ledger_consistent().await;
    })
    .await;
}

#[tokio::test]
async fn expired_sessions_refuse_stakes_but_pay_wins_and_rollbacks() {
    each_backend(async |app| {
        let (_, user, token) = demo_session(app, "pw4@example.com", 10_000).await;
        ok(call(app, "bet", &money(&token, "b-1", "r-1", 3_000)).await);
        ok(call(app, "bet", &money(&token, "b-2", "r-2", 1_000)).await);
        expire(app, user).await;
        fail(call(app, "bet", &money(&token, "b-3", "r-3", 1_000)).await, 200, 63);
        // A retried bet accepted while the session was live still answers as before.
        assert_eq!(ok(call(app, "bet", &money(&token, "b-1", "r-1", 3_000)).await)["balance"], 7_000);
        assert_eq!(ok(call(app, "win", &money(&token, "w-1", "r-1", 5_000)).await)["balance"], 11_000);
        assert_eq!(ok(call(app, "rollback", &rollback(&token, "rb-2", "b-2")).await)["balance"], 12_000);
        // A banned player is paid too, but may not stake.
        app.state.accounts.set_banned(user, true).await.unwrap();
        app.sql(&format!("UPDATE game_sessions SET expires_at = {} WHERE user_id = {user}", now_ms() + 3_600_000)).await;
        fail(call(app, "bet", &money(&token, "b-4", "r-4", 1_000)).await, 403, 5);
        assert_eq!(ok(call(app, "win", &money(&token, "w-4", "r-4", 500)).await)["balance"], 12_500);
        assert_eq!(app.minor_balance(user, BalanceKind::Real).await, 12_500);
        app.assert_ledger_consistent().await;
    })
    .await;
}

#[tokio::test]
async fn signatures_timestamps_and_bad_input() {
    each_backend(async |app| {
        let (_, user, token) = demo_session(app, "pw5@example.com", 10_000).await;
        let raw = serde_json::to_vec(&money(&token, "b-1", "r-1", 1_000)).unwrap();
        let now = (now_ms() / 1000).to_string();
        // Bad signature: wrong secret, tampered body, missing.
        fail(signed(app, "bet", &raw, "demo", &now, &sign("wrong", &now, &raw)).await, 401, 64);
        let tampered = serde_json::to_vec(&money(&token, "b-1", "r-1", 9_000)).unwrap();
        fail(signed(app, "bet", &tampered, "demo", &now, &sign(SECRET, &now, &raw)).await, 401, 64);
        fail(signed(app, "bet", &raw, "demo", &now, "").await, 401, 64);
        // Stale or missing timestamps (±300 s), even correctly signed.
        let old = (now_ms() / 1000 - 301).to_string();
        fail(signed(app, "bet", &raw, "demo", &old, &sign(SECRET, &old, &raw)).await, 401, 65);
        let future = (now_ms() / 1000 + 301).to_string();
        fail(signed(app, "bet", &raw, "demo", &future, &sign(SECRET, &future, &raw)).await, 401, 65);
        fail(signed(app, "bet", &raw, "demo", "", &sign(SECRET, "", &raw)).await, 401, 65);
        // Unknown provider, and the studio (in-process only, no secret).
        fail(signed(app, "bet", &raw, "nobody", &now, &sign(SECRET, &now, &raw)).await, 401, 66);
        fail(signed(app, "bet", &raw, "studio", &now, &sign(SECRET, &now, &raw)).await, 401, 66);
        assert_eq!(app.minor_balance(user, BalanceKind::Real).await, 10_000);
        // Signed but malformed: 40; unknown session: 63; wrong currency: 67; negative: 68.
        let junk = b"{not json";
        fail(signed(app, "bet", junk, "demo", &now, &sign(SECRET, &now, junk)).await, 400, 40);
        fail(call(app, "bet", &json!({"sessionToken": token, "amount": "ten"})).await, 400, 40);
        fail(call(app, "bet", &money("no-such-session", "b-9", "r-9", 1_000)).await, 200, 63);
        let mut usd = money(&token, "b-9", "r-9", 1_000);
        usd["currency"] = json!("USD");
        fail(call(app, "bet", &usd).await, 200, 67);
        fail(call(app, "bet", &money(&token, "b-9", "r-9", -5)).await, 200, 68);
        fail(call(app, "bet", &money(&token, "", "r-9", 5)).await, 400, 40);
        // Insufficient funds: 501, nothing moves.
        fail(call(app, "bet", &money(&token, "b-10", "r-10", 10_001)).await, 200, 501);
        assert_eq!(app.minor_balance(user, BalanceKind::Real).await, 10_000);
        app.assert_ledger_consistent().await;
    })
    .await;
}

#[tokio::test]
async fn concurrent_duplicates_post_once() {
    each_backend(async |app| {
        let (_, user, token) = demo_session(app, "pw6@example.com", 10_000).await;
        let body = money(&token, "dup-1", "r-1", 700);
        let replies = futures::future::join_all((0..30).map(|_| call(app, "bet", &body))).await;
        for r in &replies {
            assert_eq!(ok(r.clone())["balance"], 9_300, "{r:?}");
        }
        assert_eq!(app.count("ledger_transactions WHERE idempotency_key = 'prov:demo:dup-1'").await, 1);
        assert_eq!(app.minor_balance(user, BalanceKind::Real).await, 9_300);
        app.assert_ledger_consistent().await;
    })
    .await;
}

#[tokio::test]
async fn two_hundred_way_race_never_goes_negative() {
    each_backend(async |app| {
        let (_, user, token) = demo_session(app, "pw7@example.com", 5_000).await;
        // 200 different bets of 100 against a balance of 5 000: exactly 50 succeed.
        let replies = futures::future::join_all((0..200).map(|i| {
            let body = money(&token, &format!("race-{i}"), &format!("r-{i}"), 100);
            async move { call(app, "bet", &body).await }
        }))
        .await;
        let won = replies.iter().filter(|(_, b)| b["status"] == 0).count();
        let refused = replies.iter().filter(|(_, b)| b["status"] == 501).count();
        assert_eq!((won, refused), (50, 150), "{:?}", replies.iter().find(|(_, b)| b["status"] != 0 && b["status"] != 501));
        assert_eq!(app.minor_balance(user, BalanceKind::Real).await, 0);
        app.assert_ledger_consistent().await;
    })
    .await;
}
