//! The seamless provider wallet over HTTP (`/api/wallet/v1/*`), signed as a third-party
//! provider signs: the demo provider `demo` / `demo-secret`, game `demo-table`.

use crate::common::*;
use reqwest::Method;
use serde_json::{json, Value};
use wallet::BalanceKind;

const SECRET: &str = "demo-secret";

/// A player with a game session of the demo provider: (client, user id, session token).
pub(crate) async fn demo_session(app: &TestApp, email: &str, credit: i64) -> (Api, i64, String) {
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
pub(crate) async fn call(app: &TestApp, op: &str, body: &Value) -> (u16, Value) {
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

pub(crate) fn money(token: &str, tx: &str, round: &str, amount: i64) -> Value {
    json!({"sessionToken": token, "transactionId": tx, "roundId": round, "gameId": "demo-table", "amount": amount, "currency": "TND"})
}

pub(crate) fn rollback(token: &str, tx: &str, reference: &str) -> Value {
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
        // A zero win closes a round: recorded (its id is claimed), no money moves.
        assert_eq!(ok(call(app, "win", &money(&token, "w-0", "r-1", 0)).await)["balance"], 13_500);
        fail(call(app, "win", &money(&token, "w-0", "r-1", 100)).await, 409, 26);
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
        assert_eq!(ok(call(app, "win", &money(&token, "w-4", "r-1", 500)).await)["balance"], 12_500);
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

/// Issue 9, item 1: a bet is reversed at most once, whatever rollback ids the provider
/// invents; a rollback of a rollback is refused (29).
#[tokio::test]
async fn a_bet_or_win_is_rolled_back_at_most_once() {
    each_backend(async |app| {
        let (_, user, token) = demo_session(app, "pw8@example.com", 498_400).await;
        assert_eq!(ok(call(app, "bet", &money(&token, "drb-1", "r1", 1_000)).await)["balance"], 497_400);
        let first = ok(call(app, "rollback", &rollback(&token, "drb-rb1", "drb-1")).await);
        assert_eq!(first["balance"], 498_400);
        // A second rollback of the same bet under a new id answers the first reversal.
        let second = ok(call(app, "rollback", &rollback(&token, "drb-rb2", "drb-1")).await);
        assert_eq!((second["balance"].clone(), second["ledgerTxId"].clone()), (json!(498_400), first["ledgerTxId"].clone()));
        assert_eq!(app.minor_balance(user, BalanceKind::Real).await, 498_400);
        // A rollback naming a rollback is refused and flips nothing back.
        fail(call(app, "rollback", &rollback(&token, "drb-rb3", "drb-rb1")).await, 200, 29);
        assert_eq!(app.minor_balance(user, BalanceKind::Real).await, 498_400);
        // A win rolled back three times takes its 5.000 back once.
        ok(call(app, "bet", &money(&token, "b-2", "r2", 1_000)).await);
        ok(call(app, "win", &money(&token, "w-2", "r2", 5_000)).await);
        for rb in ["w-rb1", "w-rb2", "w-rb3"] {
            ok(call(app, "rollback", &rollback(&token, rb, "w-2")).await);
        }
        assert_eq!(app.minor_balance(user, BalanceKind::Real).await, 497_400);
        app.assert_ledger_consistent().await;
    })
    .await;
}

/// Issue 9, item 1: twenty concurrent rollbacks of one bet, each under its own id, all
/// answer success and post exactly one reversal.
#[tokio::test]
async fn twenty_concurrent_rollbacks_post_one_reversal() {
    each_backend(async |app| {
        let (_, user, token) = demo_session(app, "pw9@example.com", 10_000).await;
        ok(call(app, "bet", &money(&token, "cr-1", "r1", 1_000)).await);
        let replies = futures::future::join_all((0..20).map(|i| {
            let body = rollback(&token, &format!("cr-rb-{i}"), "cr-1");
            async move { call(app, "rollback", &body).await }
        }))
        .await;
        let ids: std::collections::HashSet<String> = replies.iter().map(|r| ok(r.clone())["ledgerTxId"].to_string()).collect();
        assert_eq!(ids.len(), 1, "every rollback answers the one reversal: {ids:?}");
        assert_eq!(app.minor_balance(user, BalanceKind::Real).await, 10_000);
        assert_eq!(app.count(&format!("ledger_transactions WHERE tx_type = 204 AND user_id = {user}")).await, 1);
        app.assert_ledger_consistent().await;
    })
    .await;
}

/// Issue 9, item 3: the wallet's edge cases, each with its own documented answer.
#[tokio::test]
async fn wallet_edge_cases_have_their_own_answers() {
    each_backend(async |app| {
        let (_, user, token) = demo_session(app, "pw10@example.com", 10_000).await;
        // A zero-amount bet is recorded: the same id later with 5.000 is a conflict.
        assert_eq!(ok(call(app, "bet", &money(&token, "z-1", "rz", 0)).await)["balance"], 10_000);
        fail(call(app, "bet", &money(&token, "z-1", "rz", 5_000)).await, 409, 26);
        // A zero-amount bet on a rolled-back (tombstoned) id is refused like any other.
        ok(call(app, "rollback", &rollback(&token, "z-rb", "z-2")).await);
        fail(call(app, "bet", &money(&token, "z-2", "rz2", 0)).await, 200, 28);
        // A rollback reusing an existing bet's id with an unknown reference: a conflict, and
        // no tombstone is left for the reference (its bet can still arrive).
        ok(call(app, "bet", &money(&token, "e-1", "re", 1_000)).await);
        fail(call(app, "rollback", &rollback(&token, "e-1", "never-sent")).await, 409, 26);
        assert_eq!(ok(call(app, "bet", &money(&token, "never-sent", "re", 500)).await)["balance"], 8_500);
        // The currency is the ISO code exactly.
        for currency in ["tnd", "TND ", " TND", "Tnd"] {
            let mut body = money(&token, "c-1", "rc", 100);
            body["currency"] = json!(currency);
            fail(call(app, "bet", &body).await, 200, 67);
        }
        // A win for a round this player never bet in is refused (the demo provider is like most
        // aggregators); a win in a round with a bet is paid.
        fail(call(app, "win", &money(&token, "w-x", "no-such-round", 1_000)).await, 200, 32);
        let (_, _, other) = demo_session(app, "pw10b@example.com", 10_000).await;
        ok(call(app, "bet", &money(&other, "o-1", "theirs", 100)).await);
        fail(call(app, "win", &money(&token, "w-y", "theirs", 1_000)).await, 200, 32);
        assert_eq!(ok(call(app, "win", &money(&token, "w-z", "re", 1_000)).await)["balance"], 9_500);
        // Above the per-transaction maximum: its own code, nothing moves.
        fail(call(app, "win", &money(&token, "w-big", "re", 1_000_000_000_000_000)).await, 200, 30);
        assert_eq!(app.minor_balance(user, BalanceKind::Real).await, 9_500);
        app.assert_ledger_consistent().await;
    })
    .await;
}

/// Issue 9, item 2: wins that would overflow a balance are refused with their own
/// non-retryable code (31) and change nothing; the writer keeps serving every player.
#[tokio::test]
async fn an_overflowing_balance_is_refused_and_the_writer_survives() {
    let small = |c: &mut server::config::Config| c.ledger_limits = wallet::LedgerLimits { max_amount_major: 1_000, max_balance_major: 3_000 };
    each_backend_with(small, async |app| {
        let (_, user, token) = demo_session(app, "pw11@example.com", 0).await;
        ok(call(app, "bet", &money(&token, "o-b", "ro", 0)).await);
        for i in 0..3 {
            ok(call(app, "win", &money(&token, &format!("o-w{i}"), "ro", 1_000_000)).await);
        }
        fail(call(app, "win", &money(&token, "o-w3", "ro", 1)).await, 200, 31);
        fail(call(app, "win", &money(&token, "o-w4", "ro", 1_000_001)).await, 200, 30);
        assert_eq!(app.minor_balance(user, BalanceKind::Real).await, 3_000_000);
        // Every other player's postings still go through.
        let (_, other, token2) = demo_session(app, "pw11b@example.com", 5_000).await;
        assert_eq!(ok(call(app, "bet", &money(&token2, "p-1", "rp", 1_000)).await)["balance"], 4_000);
        assert_eq!(app.minor_balance(other, BalanceKind::Real).await, 4_000);
        let (status, health) = app.bare_client().get("/healthz").await;
        assert_eq!((status, health["ledger"].as_str()), (200, Some("ok")));
        app.assert_ledger_consistent().await;
    })
    .await;
}

/// Issue 9, item 2: a posting that fails inside the SQLite writer (here a balance stored as
/// a float by hand, as an overflow once left it) fails alone; the writer serves the next
/// posting, and a writer that does stop makes `/healthz` answer 503.
#[tokio::test]
async fn one_bad_posting_never_stops_the_writer_and_a_dead_writer_fails_health() {
    each_backend(async |app| {
        let (_, user, token) = demo_session(app, "pw12@example.com", 5_000).await;
        let (_, other, token2) = demo_session(app, "pw12b@example.com", 5_000).await;
        if app.backend == store::Backend::Sqlite {
            // SQLite keeps a non-integral value as a float even in a BIGINT column.
            app.sql(&format!("UPDATE ledger_accounts SET balance = 5000.5 WHERE owner_id = {user} AND kind = 'real'")).await;
            let raw = serde_json::to_vec(&money(&token, "f-1", "rf", 1_000)).unwrap();
            let ts = (now_ms() / 1000).to_string();
            let reply: Value = unchecked(app, "/api/wallet/v1/bet", Some((raw, ts))).await.1;
            assert_ne!(reply["status"], 0, "{reply}");
        }
        assert_eq!(ok(call(app, "bet", &money(&token2, "g-1", "rg", 1_000)).await)["balance"], 4_000);
        assert_eq!(app.minor_balance(other, BalanceKind::Real).await, 4_000);
        assert_eq!(app.bare_client().get("/healthz").await.0, 200);
        app.state.ledger.halt_writer().await;
        // Both databases post through group-commit writers (several on PostgreSQL).
        let (status, health) = unchecked(app, "/healthz", None).await;
        assert_eq!((status, health["ledger"].as_str()), (503, Some("stopped")), "{health}");
    })
    .await;
}

/// A request whose 5xx answer is the point of the test (the suite's client refuses any 5xx):
/// a signed wallet call when `signed` carries `(body, timestamp)`, else a GET.
async fn unchecked(app: &TestApp, path: &str, signed: Option<(Vec<u8>, String)>) -> (u16, Value) {
    let api = app.bare_client();
    let url = format!("{}{path}", api.base);
    let req = match signed {
        Some((raw, ts)) => api
            .http
            .post(url)
            .header("content-type", "application/json")
            .header("x-provider", "demo")
            .header("x-timestamp", &ts)
            .header("x-signature", sign(SECRET, &ts, &raw))
            .body(raw),
        None => api.http.get(url),
    };
    let resp = req.send().await.expect("request");
    let status = resp.status().as_u16();
    (status, serde_json::from_str(&resp.text().await.unwrap_or_default()).unwrap_or(Value::Null))
}

/// The new posting path of issue 9 — a zero amount recorded as a posting — replayed, raced
/// 20-way under one id, and rolled back twice under two ids: one record, one reversal,
/// nothing moves; a win in its round is refused with another amount under the same id.
#[tokio::test]
async fn zero_amount_records_replay_race_and_reverse_once() {
    each_backend(async |app| {
        let (_, user, token) = demo_session(app, "pw13@example.com", 10_000).await;
        let body = money(&token, "zr-1", "zr", 0);
        let replies = futures::future::join_all((0..20).map(|_| call(app, "bet", &body))).await;
        let ids: std::collections::HashSet<String> = replies.iter().map(|r| ok(r.clone())["ledgerTxId"].to_string()).collect();
        assert_eq!(ids.len(), 1, "one record for twenty identical calls: {ids:?}");
        assert_eq!(app.count("ledger_transactions WHERE idempotency_key = 'prov:demo:zr-1'").await, 1);
        assert_eq!(ok(call(app, "bet", &body).await)["balance"], 10_000);
        let first = ok(call(app, "rollback", &rollback(&token, "zr-rb1", "zr-1")).await);
        let second = ok(call(app, "rollback", &rollback(&token, "zr-rb2", "zr-1")).await);
        assert_eq!(first["ledgerTxId"], second["ledgerTxId"]);
        assert_eq!(app.count(&format!("ledger_transactions WHERE tx_type = 204 AND user_id = {user}")).await, 1);
        assert_eq!(app.minor_balance(user, BalanceKind::Real).await, 10_000);
        app.assert_ledger_consistent().await;
    })
    .await;
}
