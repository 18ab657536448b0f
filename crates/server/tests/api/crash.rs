//! Integration tests: the multiplayer crash game (docs/CASINO.md §2, docs/CRASH.md), over a
//! real WebSocket, on both backends. Rounds run with `CrashConfig::for_tests()` (500 ms
//! betting window, 20 ms ticks, the curve 50× faster); a test reads the crash point of the
//! round that opens from the database (it is stored before the round opens) and picks the
//! rounds it can use — outcomes are never steered.

use crate::common::*;
use futures::{SinkExt, StreamExt};
use games::crash::CrashConfig;
use serde_json::{json, Value};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;
use wallet::BalanceKind;

pub(crate) type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

const START: i64 = 100_000; // 100 TND

pub(crate) struct Ws {
    socket: Socket,
    user_id: i64,
    hello: Value,
}

impl Ws {
    pub(crate) async fn open(app: &TestApp, token: &str) -> Ws {
        let url = format!("ws://{}/api/studio/crash/ws?token={token}", app.addr);
        let (socket, _) = tokio_tungstenite::connect_async(url).await.expect("ws connect");
        let mut ws = Ws { socket, user_id: 0, hello: Value::Null };
        let hello = ws.next_of("hello").await;
        ws.user_id = hello["playerId"].as_i64().unwrap_or(0);
        ws.hello = hello;
        ws
    }

    pub(crate) async fn send(&mut self, v: Value) {
        self.send_text(&v.to_string()).await;
    }

    pub(crate) async fn send_text(&mut self, t: &str) {
        self.socket.send(Message::Text(t.to_string().into())).await.expect("ws send");
    }

    /// The next JSON message (10 s at most).
    pub(crate) async fn next(&mut self) -> Value {
        loop {
            let m = tokio::time::timeout(Duration::from_secs(10), self.socket.next())
                .await
                .expect("no message within 10 s")
                .expect("socket closed")
                .expect("ws error");
            match m {
                Message::Text(t) => return serde_json::from_str(t.as_str()).expect("JSON message"),
                Message::Close(_) => panic!("socket closed by the server"),
                _ => continue,
            }
        }
    }

    pub(crate) async fn next_of(&mut self, ty: &str) -> Value {
        loop {
            let v = self.next().await;
            if v["type"] == ty {
                return v;
            }
        }
    }

    /// The next message for a request (its reply: betAccepted, cashedOut or error).
    pub(crate) async fn reply(&mut self, request_id: &str) -> Value {
        loop {
            let v = self.next().await;
            if v["requestId"] == request_id {
                return v;
            }
        }
    }
}

/// Restarts the app's engine with the fast test configuration.
pub(crate) async fn fast(app: &TestApp, tweak: impl FnOnce(&mut CrashConfig)) {
    if std::env::var("CRASH_TEST_LOG").is_ok() {
        let _ = tracing_subscriber::fmt().with_max_level(tracing::Level::INFO).with_test_writer().try_init();
    }
    let mut cfg = CrashConfig::for_tests();
    tweak(&mut cfg);
    app.state.crash.restart(cfg).await;
}

/// A signed-up player with `credit` minor units and a crash game session launched from
/// their sign-in, as the app does: (user id, token).
async fn gamer(app: &TestApp, email: &str, credit: i64) -> (i64, String) {
    let (api, id, _) = app.player(email).await;
    if credit > 0 {
        app.credit(id, BalanceKind::Real, credit).await;
    }
    let launch = ok(api.post("/api/casino/session", json!({ "provider": "studio", "gameId": "crash" })).await);
    (id, launch["sessionToken"].as_str().expect("game session token").to_string())
}

pub(crate) async fn crash_point(app: &TestApp, round_id: i64) -> u64 {
    app.scalar(&format!("SELECT crash_point FROM crash_rounds WHERE id = {round_id}")).await as u64
}

/// Waits for a fresh betting window whose crash point satisfies `want`: (round id, crash point).
pub(crate) async fn round_where(app: &TestApp, ws: &mut Ws, want: impl Fn(u64) -> bool) -> (i64, u64) {
    for _ in 0..200 {
        let r = ws.next_of("round").await;
        let left = r["bettingEndsAt"].as_i64().unwrap() - r["serverTime"].as_i64().unwrap();
        if left < 400 {
            continue;
        }
        let id = r["id"].as_i64().unwrap();
        let cp = crash_point(app, id).await;
        if want(cp) {
            return (id, cp);
        }
    }
    panic!("no suitable round in 200");
}

async fn bet_status(app: &TestApp, round_id: i64, user_id: i64) -> String {
    let row = store::sqlx::query("SELECT status FROM crash_bets WHERE round_id = $1 AND user_id = $2")
        .bind(round_id)
        .bind(user_id)
        .fetch_one(app.state.db.writer())
        .await
        .expect("bet row");
    store::Row::get::<String, _>(&row, 0)
}

#[tokio::test]
async fn crash_bet_then_manual_cash_out() {
    each_backend(async |app| {
        fast(app, |_| {}).await;
        let (id, token) = gamer(app, "ali@example.tn", START).await;
        let mut ws = Ws::open(app, &token).await;
        assert_eq!(ws.user_id, id);
        let (round, cp) = round_where(app, &mut ws, |cp| cp >= 400).await;
        ws.send(json!({ "type": "bet", "requestId": "r1", "amount": 1000, "autoCashOut": null })).await;
        let acc = ws.reply("r1").await;
        assert_eq!(acc["type"], "betAccepted", "{acc}");
        assert_eq!((acc["roundId"].as_i64(), acc["amount"].as_i64(), acc["balance"].as_i64()), (Some(round), Some(1000), Some(START - 1000)));
        assert!(acc["autoCashOut"].is_null());
        let start = ws.next_of("start").await;
        assert_eq!(start["id"], round);
        // Ride the curve a little, then cash out by hand.
        loop {
            let t = ws.next_of("tick").await;
            if t["m"].as_u64().unwrap() >= 120 {
                break;
            }
        }
        ws.send(json!({ "type": "cashout", "requestId": "r2" })).await;
        let out = ws.reply("r2").await;
        assert_eq!(out["type"], "cashedOut", "{out}");
        let m = out["multiplier"].as_u64().unwrap();
        assert!(m >= 120 && m < cp, "cashed out at {m}, crash at {cp}");
        let win = out["win"].as_i64().unwrap();
        assert_eq!(win, studio::crash::payout(1000, m));
        assert_eq!(out["forced"], false);
        assert_eq!(out["balance"].as_i64(), Some(START - 1000 + win));
        // Twice: nothing left to cash out.
        ws.send(json!({ "type": "cashout", "requestId": "r3" })).await;
        assert_eq!(ws.reply("r3").await["status"], 70);
        let crash = ws.next_of("crash").await;
        assert_eq!((crash["id"].as_i64(), crash["crashPoint"].as_u64()), (Some(round), Some(cp)));
        let players = ws.next_of("players").await;
        let me = players["players"].as_array().unwrap().iter().find(|p| p["bet"] == 1000).expect("in the players list").clone();
        assert_eq!(me["cashedOutAt"].as_u64(), Some(m));
        assert!(me["name"].as_str().unwrap().contains('*'));
        // Balance and ledger agree.
        assert_eq!(app.minor_balance(id, BalanceKind::Real).await, START - 1000 + win);
        assert_eq!(bet_status(app, round, id).await, "cashed");
        app.assert_ledger_consistent().await;
        // The player's own history (for the studio's round list).
        let mine = app.state.crash.player_rounds(id, 10).await.expect("history");
        assert_eq!(mine.len(), 1);
        assert_eq!((mine[0]["roundId"].as_i64(), mine[0]["bet"].as_i64(), mine[0]["win"].as_i64()), (Some(round), Some(1000), Some(win)));
        assert_eq!((mine[0]["cashedOutAt"].as_u64(), mine[0]["crashPoint"].as_u64()), (Some(m), Some(cp)));
        assert_eq!(mine[0]["hash"], crash["hash"]);
    })
    .await;
}

#[tokio::test]
async fn crash_auto_cash_out_losing_and_refusals() {
    each_backend(async |app| {
        fast(app, |_| {}).await;
        let (a, ta) = gamer(app, "a@example.tn", START).await;
        let (b, tb) = gamer(app, "b@example.tn", START).await;
        let (c, tc) = gamer(app, "c@example.tn", START).await;
        let (_, poor) = gamer(app, "poor@example.tn", 500).await;
        let mut wa = Ws::open(app, &ta).await;
        let mut wb = Ws::open(app, &tb).await;
        let mut wc = Ws::open(app, &tc).await;
        let mut wp = Ws::open(app, &poor).await;
        // D connects, then its game sessions are ended (logout everywhere, a ban): the stake
        // is checked on the session as it is now, not as it was at connect.
        let (d, td) = gamer(app, "d@example.tn", START).await;
        let mut wd = Ws::open(app, &td).await;
        app.state.casino.sessions().end_all(d).await.unwrap();
        let (round, cp) = round_where(app, &mut wa, |cp| cp >= 200).await;
        wd.send(json!({ "type": "bet", "requestId": "d1", "amount": 1000 })).await;
        assert_eq!(wd.reply("d1").await["status"], 63);
        // A: auto at 1.50x (below the crash: paid at exactly 1.50x); B: no auto, never cashes
        // out (loses); C: auto exactly at the crash point (not reached: loses).
        wa.send(json!({ "type": "bet", "requestId": "a1", "amount": 1000, "autoCashOut": 150 })).await;
        wb.send(json!({ "type": "bet", "requestId": "b1", "amount": 2000 })).await;
        wc.send(json!({ "type": "bet", "requestId": "c1", "amount": 1000, "autoCashOut": cp })).await;
        assert_eq!(wa.reply("a1").await["autoCashOut"], 150);
        wa.send(json!({ "type": "bet", "requestId": "a2", "amount": 1000 })).await;
        assert_eq!(wa.reply("a2").await["status"], 68);
        assert_eq!(wb.reply("b1").await["type"], "betAccepted");
        assert_eq!(wc.reply("c1").await["type"], "betAccepted");
        // Refusals in the window: insufficient balance, limits, a second bet, malformed frames.
        wp.send(json!({ "type": "bet", "requestId": "p1", "amount": 1000 })).await;
        assert_eq!(wp.reply("p1").await["status"], 501);
        wp.send(json!({ "type": "bet", "requestId": "p2", "amount": 1 })).await;
        assert_eq!(wp.reply("p2").await["status"], 68);
        wp.send(json!({ "type": "bet", "requestId": "p3", "amount": 100, "autoCashOut": 100 })).await;
        assert_eq!(wp.reply("p3").await["status"], 68);
        wp.send(json!({ "type": "cashout", "requestId": "p4" })).await;
        assert_eq!(wp.reply("p4").await["status"], 70);
        for (i, bad) in ["not json", "[1,2]", "{\"type\":\"bet\"}", "{\"type\":\"dance\",\"requestId\":\"x\"}",
            "{\"type\":\"bet\",\"amount\":\"10\"}", "{\"type\":\"bet\",\"amount\":100,\"autoCashOut\":1.5}", "{\"requestId\":{}}", "null"]
        .iter()
        .enumerate()
        {
            wp.send_text(bad).await;
            let e = loop {
                let v = wp.next().await;
                if v["type"] == "error" {
                    break v;
                }
            };
            assert_eq!(e["status"], 40, "frame {i}: {bad} → {e}");
        }
        // After the window: 69; cash-out without a bet: 70.
        wp.next_of("start").await;
        wp.send(json!({ "type": "bet", "requestId": "p5", "amount": 100 })).await;
        assert_eq!(wp.reply("p5").await["status"], 69);
        wp.send(json!({ "type": "cashout", "requestId": "p6" })).await;
        assert_eq!(wp.reply("p6").await["status"], 70);
        let out = wa.next_of("cashedOut").await;
        assert_eq!(out["requestId"], Value::Null);
        assert_eq!((out["multiplier"].as_u64(), out["win"].as_i64(), out["forced"].as_bool()), (Some(150), Some(1500), Some(false)));
        let crash = wb.next_of("crash").await;
        assert_eq!(crash["crashPoint"].as_u64(), Some(cp));
        // C and B lost; every bet is settled shortly after the crash.
        let mut settled = false;
        for _ in 0..100 {
            if app.count(&format!("crash_rounds WHERE id = {round} AND settled_at IS NOT NULL")).await == 1 {
                settled = true;
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert!(settled, "round settled");
        assert_eq!(app.minor_balance(a, BalanceKind::Real).await, START + 500);
        assert_eq!(app.minor_balance(b, BalanceKind::Real).await, START - 2000);
        assert_eq!(app.minor_balance(c, BalanceKind::Real).await, START - 1000);
        assert_eq!(app.minor_balance(d, BalanceKind::Real).await, START);
        assert_eq!(bet_status(app, round, d).await, "refused");
        assert_eq!(bet_status(app, round, a).await, "cashed");
        assert_eq!(bet_status(app, round, b).await, "lost");
        assert_eq!(bet_status(app, round, c).await, "lost");
        assert_eq!(app.count(&format!("crash_bets WHERE round_id = {round} AND status <> 'refused'")).await, 3);
        assert_eq!(app.count(&format!("crash_bets WHERE round_id = {round} AND status = 'refused'")).await, 2);
        app.assert_ledger_consistent().await;
        // A cash-out after the crash: 70.
        wb.send(json!({ "type": "cashout", "requestId": "b2" })).await;
        assert_eq!(wb.reply("b2").await["status"], 70);
        // Not a WebSocket: an envelope, never a 5xx; a bad token: error 63 in the socket.
        fail(app.get("/api/studio/crash/ws?token=x").await, 400, 40);
        let url = format!("ws://{}/api/studio/crash/ws?token=nope", app.addr);
        let (mut s, _) = tokio_tungstenite::connect_async(url).await.expect("ws connect");
        let first = s.next().await.unwrap().unwrap();
        let v: Value = serde_json::from_str(first.to_text().unwrap()).unwrap();
        assert_eq!((v["type"].as_str(), v["status"].as_u64()), (Some("error"), Some(63)));
    })
    .await;
}

#[tokio::test]
async fn crash_max_win_forces_the_cash_out() {
    each_backend(async |app| {
        fast(app, |c| c.max_win_cap = Some(1500)).await;
        let (a, ta) = gamer(app, "a@example.tn", START).await;
        let (b, tb) = gamer(app, "b@example.tn", START).await;
        let mut wa = Ws::open(app, &ta).await;
        let mut wb = Ws::open(app, &tb).await;
        assert_eq!(wa.hello["maxWin"], 1500);
        assert_eq!((wa.hello["currency"].as_str(), wa.hello["exponent"].as_u64()), (Some("TND"), Some(3)));
        assert_eq!((wa.hello["minBet"].as_i64(), wa.hello["balance"].as_i64()), (Some(100), Some(START)));
        let (round, _) = round_where(app, &mut wa, |cp| cp >= 200).await;
        // A bets 1000 with no auto: forced out at 1.50x (win = max win). B bets 1000 with
        // auto 3.00x: the max win comes first, forced at 1.50x too.
        wa.send(json!({ "type": "bet", "requestId": "a1", "amount": 1000 })).await;
        wb.send(json!({ "type": "bet", "requestId": "b1", "amount": 1000, "autoCashOut": 300 })).await;
        assert_eq!(wa.reply("a1").await["type"], "betAccepted");
        assert_eq!(wb.reply("b1").await["type"], "betAccepted");
        for w in [&mut wa, &mut wb] {
            let out = w.next_of("cashedOut").await;
            assert_eq!((out["multiplier"].as_u64(), out["win"].as_i64(), out["forced"].as_bool()), (Some(150), Some(1500), Some(true)), "{out}");
        }
        wa.next_of("crash").await;
        assert_eq!(app.minor_balance(a, BalanceKind::Real).await, START + 500);
        assert_eq!(app.minor_balance(b, BalanceKind::Real).await, START + 500);
        assert_eq!(app.scalar(&format!("SELECT forced FROM crash_bets WHERE round_id = {round} AND user_id = {b}")).await, 1);
        app.assert_ledger_consistent().await;
    })
    .await;
}

#[tokio::test]
async fn crash_fairness_and_round_history() {
    each_backend(async |app| {
        fast(app, |_| {}).await;
        let (_, token) = gamer(app, "a@example.tn", 0).await;
        let mut ws = Ws::open(app, &token).await;
        for _ in 0..4 {
            ws.next_of("crash").await;
        }
        let f = ok(app.get("/api/studio/crash/fairness").await);
        let terminating = studio::fair::parse_hex32(f["terminatingHash"].as_str().unwrap()).expect("hex64");
        let salt = f["salt"].as_str().unwrap().to_string();
        assert_eq!(salt, "carthage-test-salt");
        let rounds = ok(app.get("/api/studio/crash/rounds?limit=100").await);
        let rounds = rounds.as_array().unwrap();
        assert!(rounds.len() >= 4, "{rounds:?}");
        for (i, r) in rounds.iter().enumerate() {
            let h = studio::fair::parse_hex32(r["hash"].as_str().unwrap()).expect("hex64");
            let cp = studio::crash::crash_point(&h, &salt);
            let shown = r["crashPoint"].as_f64().unwrap();
            assert_eq!((shown * 100.0).round() as u64, cp, "round {}", r["id"]);
            let previous = match rounds.get(i + 1) {
                Some(p) => studio::fair::parse_hex32(p["hash"].as_str().unwrap()).unwrap(),
                None => terminating,
            };
            assert_eq!(studio::crash::chain_next(&h), previous, "SHA256(hash_r) must be hash_(r-1)");
        }
        // crashPoint is a number with exactly two decimals in the JSON text.
        let resp = app.send(reqwest::Method::GET, "/api/studio/crash/rounds?limit=1", None).await;
        let cp = crash_point(app, rounds[0]["id"].as_i64().unwrap()).await;
        assert!(resp.text.contains(&format!("\"crashPoint\":{}.{:02}", cp / 100, cp % 100)), "{}", resp.text);
        fail(app.get("/api/studio/crash/rounds?limit=0").await, 400, 40);
        fail(app.get("/api/studio/crash/rounds?limit=abc").await, 400, 40);
        fail(app.get("/api/studio/crash/rounds?limit=101").await, 400, 40);
    })
    .await;
}

#[tokio::test]
async fn crash_restart_settles_interrupted_rounds() {
    each_backend(async |app| {
        fast(app, |_| {}).await;
        let (a, ta) = gamer(app, "a@example.tn", START).await;
        let (b, tb) = gamer(app, "b@example.tn", START).await;
        let (c, tc) = gamer(app, "c@example.tn", START).await;
        let mut wa = Ws::open(app, &ta).await;
        let mut wb = Ws::open(app, &tb).await;
        let mut wc = Ws::open(app, &tc).await;

        // 1. Interrupted while running: A's auto cash-out (just below the crash point) is paid
        //    at it; B (no auto) and C (auto above the crash point) are refunded.
        let (round, cp) = round_where(app, &mut wa, |cp| cp >= 300).await;
        wa.send(json!({ "type": "bet", "requestId": "a1", "amount": 1000, "autoCashOut": cp - 1 })).await;
        wb.send(json!({ "type": "bet", "requestId": "b1", "amount": 1000 })).await;
        wc.send(json!({ "type": "bet", "requestId": "c1", "amount": 1000, "autoCashOut": cp + 50 })).await;
        for (w, r) in [(&mut wa, "a1"), (&mut wb, "b1"), (&mut wc, "c1")] {
            assert_eq!(w.reply(r).await["type"], "betAccepted");
        }
        wa.next_of("start").await;
        app.state.crash.stop().await;
        assert_eq!(app.count(&format!("crash_rounds WHERE id = {round} AND phase = 'running'")).await, 1);
        assert_eq!(app.minor_balance(a, BalanceKind::Real).await, START - 1000);
        // A new engine on the same database settles the round before anything else.
        fast(app, |_| {}).await;
        let next = wa.next_of("round").await;
        assert_ne!(next["id"], round);
        assert_eq!(app.count(&format!("crash_rounds WHERE id = {round} AND phase = 'interrupted' AND settled_at IS NOT NULL")).await, 1);
        assert_eq!(app.minor_balance(a, BalanceKind::Real).await, START - 1000 + studio::crash::payout(1000, cp - 1));
        assert_eq!(app.minor_balance(b, BalanceKind::Real).await, START);
        assert_eq!(app.minor_balance(c, BalanceKind::Real).await, START);
        assert_eq!(bet_status(app, round, a).await, "cashed");
        assert_eq!(bet_status(app, round, b).await, "refunded");
        assert_eq!(bet_status(app, round, c).await, "refunded");
        app.assert_ledger_consistent().await;

        // 2. Interrupted in the betting window: the round is void, the stake refunded.
        let a_before = app.minor_balance(a, BalanceKind::Real).await;
        let (round2, _) = round_where(app, &mut wa, |_| true).await;
        wa.send(json!({ "type": "bet", "requestId": "a2", "amount": 5000 })).await;
        assert_eq!(wa.reply("a2").await["type"], "betAccepted");
        app.state.crash.stop().await;
        assert_eq!(app.minor_balance(a, BalanceKind::Real).await, a_before - 5000);
        fast(app, |_| {}).await;
        wa.next_of("round").await;
        assert_eq!(app.count(&format!("crash_rounds WHERE id = {round2} AND phase = 'voided' AND settled_at IS NOT NULL")).await, 1);
        assert_eq!(app.minor_balance(a, BalanceKind::Real).await, a_before);
        assert_eq!(bet_status(app, round2, a).await, "refunded");
        // Voided and interrupted rounds stay in the public history (the chain has no gap).
        let listed = ok(app.get("/api/studio/crash/rounds?limit=100").await);
        for id in [round, round2] {
            assert!(listed.as_array().unwrap().iter().any(|r| r["id"] == id), "round {id} listed");
        }
        // A restart with nothing interrupted changes nothing.
        let total = app.scalar("SELECT CAST(COALESCE(SUM(balance), 0) AS BIGINT) FROM ledger_accounts WHERE owner_id <> 0").await;
        fast(app, |_| {}).await;
        wa.next_of("round").await;
        assert_eq!(app.scalar("SELECT CAST(COALESCE(SUM(balance), 0) AS BIGINT) FROM ledger_accounts WHERE owner_id <> 0").await, total);
        app.assert_ledger_consistent().await;
    })
    .await;
}

#[tokio::test]
async fn a_crash_round_opens_its_record_from_the_history() {
    each_backend(async |app| {
        fast(app, |_| {}).await;
        let (api, id, _) = app.player("rec@example.tn").await;
        app.credit(id, BalanceKind::Real, START).await;
        let launch = ok(api.post("/api/casino/session", json!({ "provider": "studio", "gameId": "crash" })).await);
        let mut ws = Ws::open(app, launch["sessionToken"].as_str().unwrap()).await;
        let (round, cp) = round_where(app, &mut ws, |_| true).await;
        ws.send(json!({ "type": "bet", "requestId": "r1", "amount": 1000, "autoCashOut": null })).await;
        assert_eq!(ws.reply("r1").await["type"], "betAccepted");
        loop {
            if ws.next_of("crash").await["id"].as_i64() == Some(round) {
                break;
            }
        }
        // The stake in the history names the game and the round, and is verifiable.
        let hist = ok(api.get("/api/user/transactions?limit=50").await);
        let round_text = round.to_string();
        let stake = hist.as_array().unwrap().iter().find(|r| r["payment_mode"] == 203).expect("the stake").clone();
        assert_eq!((stake["round_id"].as_str(), stake["game"]["game_id"].as_str()), (Some(round_text.as_str()), Some("crash")));
        assert_eq!(stake["verifiable"], true);
        // Its record: the round's hash gives its crash point with the published salt.
        let rec = ok(api.get(&format!("/api/studio/round?game=crash&round={round}")).await);
        assert_eq!((rec["kind"].as_str(), rec["gameName"].as_str()), (Some("crash"), Some("Crash")));
        assert_eq!((rec["round"]["bet"].as_i64(), rec["round"]["crashPoint"].as_u64()), (Some(1000), Some(cp)));
        let hash = studio::fair::parse_hex32(rec["round"]["hash"].as_str().expect("hash once over")).unwrap();
        let salt = ok(app.get("/api/studio/crash/fairness").await)["salt"].as_str().unwrap().to_string();
        assert_eq!(studio::crash::crash_point(&hash, &salt), cp);
        // A round the player had no bet in is not theirs to open.
        fail(api.get(&format!("/api/studio/round?game=crash&round={}", round + 1)).await, 200, 32);
    })
    .await;
}
