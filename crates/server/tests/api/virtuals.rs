//! Integration tests: the studio's virtual races (docs/VIRTUALS.md), on both backends.
//! The tests stop the races' loop and drive it by hand: the service's clock is moved
//! forward (`Virtuals::advance`) and a pass is run (`Virtuals::tick`), so a race opens,
//! closes, runs and settles without waiting minutes. A test may read a race's stored
//! finishing order to choose winning and losing selections; the outcome itself is never
//! touched.

use crate::common::*;
use hmac::{Hmac, Mac};
use reqwest::Method;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use wallet::BalanceKind;

const START: i64 = 100_000; // 100 TND

/// Stops the loop and runs one pass: races are scheduled, nothing is due yet.
async fn manual(app: &TestApp) {
    // The server (which starts the loop) answers first: the loop is then running, and stops.
    app.get("/api/virtuals/races").await;
    assert!(app.state.virtuals.alive());
    app.state.virtuals.stop().await;
    assert!(!app.state.virtuals.alive());
    app.state.virtuals.tick().await.expect("a pass");
}

/// Moves the races' clock to `at` (epoch ms, the service's clock) and runs a pass.
async fn run_until(app: &TestApp, at: i64) {
    let now = app.state.virtuals.now();
    if at > now {
        app.state.virtuals.advance(at - now);
    }
    app.state.virtuals.tick().await.expect("a pass");
}

async fn lobby(app: &TestApp) -> Value {
    ok(app.get("/api/virtuals/races").await)
}

/// The first open race of a sport.
async fn next_race(app: &TestApp, sport: &str) -> Value {
    let l = lobby(app).await;
    let s = l["sports"].as_array().unwrap().iter().find(|s| s["sport"] == sport).expect("sport in the lobby").clone();
    s["upcoming"][0].clone()
}

async fn stored_order(app: &TestApp, race_id: i64) -> Vec<u32> {
    let row = store::sqlx::query("SELECT result FROM virtual_races WHERE id = $1")
        .bind(race_id)
        .fetch_one(app.state.db.writer())
        .await
        .expect("race row");
    serde_json::from_str(&store::sqlx::Row::get::<String, _>(&row, 0)).expect("stored order")
}

async fn bet(api: &Api, key: &str, body: Value) -> (u16, Value) {
    api.exec(api.req(Method::POST, "/api/virtuals/bets").header("Idempotency-Key", key).json(&body)).await.pair()
}

/// Price in hundredths from the API's two-decimal number (read from its text, never a float).
fn hundredths(v: &Value) -> i64 {
    let text = v.to_string();
    let (int, frac) = text.split_once('.').unwrap_or((&text, "0"));
    int.parse::<i64>().unwrap() * 100 + format!("{frac:0<2}")[..2].parse::<i64>().unwrap()
}

fn sha(data: &[u8]) -> [u8; 32] {
    Sha256::digest(data).into()
}

/// The published recipe, written again here from docs/VIRTUALS.md: the order a seed, salt and
/// strengths give.
fn recompute_order(seed: &[u8], salt: &str, strengths: &[u32]) -> Vec<u32> {
    let mut words: Vec<u32> = Vec::new();
    let mut block = 0u64;
    let mut next = |words: &mut Vec<u32>| -> u32 {
        if words.is_empty() {
            let mut mac = Hmac::<Sha256>::new_from_slice(seed).unwrap();
            mac.update(format!("{salt}:0:{block}").as_bytes());
            let b = mac.finalize().into_bytes();
            block += 1;
            for k in (0..32).step_by(4).rev() {
                words.push(u32::from_be_bytes([b[k], b[k + 1], b[k + 2], b[k + 3]]));
            }
        }
        words.pop().unwrap()
    };
    let mut below = |n: u32| -> u32 {
        let limit = ((1u64 << 32) / n as u64) * n as u64;
        loop {
            let w = next(&mut words);
            if (w as u64) < limit {
                return w % n;
            }
        }
    };
    let mut left: Vec<u32> = (1..=strengths.len() as u32).collect();
    let mut order = Vec::new();
    while !left.is_empty() {
        let mut x = below(left.iter().map(|r| strengths[*r as usize - 1]).sum());
        let mut at = 0;
        for (k, r) in left.iter().enumerate() {
            let s = strengths[*r as usize - 1];
            if x < s {
                at = k;
                break;
            }
            x -= s;
        }
        order.push(left.remove(at));
    }
    order
}

#[tokio::test]
async fn a_race_takes_bets_runs_settles_once_and_verifies() {
    each_backend(async |app| {
        manual(app).await;
        // The lobby: the three studio race types in the whitelist's order, each with open
        // races whose runners, strengths, prices and commitment are published, and nothing
        // of the outcome.
        let l = lobby(app).await;
        let sports: Vec<&str> = l["sports"].as_array().unwrap().iter().map(|s| s["sport"].as_str().unwrap()).collect();
        assert_eq!(sports, ["horses", "greyhounds", "speedway"]);
        for s in l["sports"].as_array().unwrap() {
            let upcoming = s["upcoming"].as_array().unwrap();
            assert!(!upcoming.is_empty(), "{s}");
            for r in upcoming {
                assert_eq!(r["phase"], "open");
                assert_eq!(r["runners"].as_array().unwrap().len() as u64, s["runners"].as_u64().unwrap());
                assert!(r["seed"].is_null() && r["result"].is_null(), "nothing revealed before the close: {r}");
                assert_eq!(r["commitHash"].as_str().unwrap().len(), 64);
                assert!(r["closesAt"].as_i64().unwrap() > l["serverTime"].as_i64().unwrap());
            }
            // Races close in chain order: a later close has a higher number.
            let numbers: Vec<i64> = upcoming.iter().map(|r| r["number"].as_i64().unwrap()).collect();
            assert!(numbers.windows(2).all(|w| w[0] < w[1]), "{numbers:?}");
        }
        let detail = ok(app.get(&format!("/api/virtuals/races/{}", l["sports"][0]["upcoming"][0]["id"])).await);
        assert!(detail["recipe"].is_null());
        fail(app.get("/api/virtuals/races/1").await, 404, 43);
        fail(app.get("/api/virtuals/races/abc").await, 400, 40);
        fail(app.get("/api/virtuals/races?sport=camels").await, 200, 47);

        let race = next_race(app, "horses").await;
        let race_id = race["id"].as_i64().unwrap();
        let order = stored_order(app, race_id).await;
        let (api, user, _) = app.player("virtuals1@example.tn").await;
        app.credit(user, BalanceKind::Real, START).await;
        let price = |kind: &str, runner: u32| hundredths(&race["runners"][runner as usize - 1][kind]);
        let (winner, second, third, last) = (order[0], order[1], order[2], order[7]);
        let forecast_price = |a: u32, b: u32| hundredths(&race["forecast"][a as usize - 1][b as usize - 1]);

        // Four bets: the winner to win, the third to place (wins), the first two reversed
        // in a forecast (loses), the last to win (loses).
        let b1 = ok(bet(&api, "k1", json!({ "raceId": race_id, "kind": "win", "runners": [winner], "stake": 1_000 })).await);
        assert_eq!((b1["status"].as_str(), b1["replayed"].as_bool()), (Some("open"), Some(false)));
        assert_eq!(b1["balance"], START - 1_000);
        assert_eq!(hundredths(&b1["price"]), price("win", winner));
        let b2 = ok(bet(&api, "k2", json!({ "raceId": race_id, "kind": "place", "runners": [third], "stake": 2_500 })).await);
        let b3 = ok(bet(&api, "k3", json!({ "raceId": race_id, "kind": "forecast", "runners": [second, winner], "stake": 1_234 })).await);
        assert_eq!(hundredths(&b3["price"]), forecast_price(second, winner));
        let b4 = ok(bet(&api, "k4", json!({ "raceId": race_id, "kind": "win", "runners": [last], "stake": 777 })).await);
        let staked = 1_000 + 2_500 + 1_234 + 777;
        assert_eq!(app.minor_balance(user, BalanceKind::Real).await, START - staked);

        // A replayed key answers the same bet and moves nothing; the same key for another
        // bet is refused.
        let again = ok(bet(&api, "k1", json!({ "raceId": race_id, "kind": "win", "runners": [winner], "stake": 1_000 })).await);
        assert_eq!((again["id"].clone(), again["replayed"].as_bool()), (b1["id"].clone(), Some(true)));
        fail(bet(&api, "k1", json!({ "raceId": race_id, "kind": "win", "runners": [winner], "stake": 2_000 })).await, 409, 26);
        assert_eq!(app.minor_balance(user, BalanceKind::Real).await, START - staked);

        // Refusals, none of which moves money.
        fail(bet(&api, "r1", json!({ "raceId": race_id, "kind": "win", "runners": [9], "stake": 1_000 })).await, 200, 68);
        fail(bet(&api, "r2", json!({ "raceId": race_id, "kind": "forecast", "runners": [2, 2], "stake": 1_000 })).await, 200, 68);
        fail(bet(&api, "r3", json!({ "raceId": race_id, "kind": "win", "runners": [1], "stake": 50 })).await, 200, 68);
        fail(bet(&api, "r4", json!({ "raceId": race_id, "kind": "win", "runners": [1], "stake": 100_001 })).await, 200, 68);
        fail(bet(&api, "r5", json!({ "raceId": race_id, "kind": "exacta", "runners": [1, 2], "stake": 1_000 })).await, 200, 68);
        fail(bet(&api, "r6", json!({ "raceId": 42, "kind": "win", "runners": [1], "stake": 1_000 })).await, 404, 43);
        fail(bet(&api, "r7", json!({ "raceId": race_id, "kind": "win", "runners": [-1], "stake": 1_000 })).await, 200, 68);
        fail(bet(&api, "r7b", json!({ "raceId": race_id, "kind": "win", "runners": [4_294_967_297i64], "stake": 1_000 })).await, 200, 68);
        fail(bet(&api, "r7c", json!({ "raceId": race_id, "kind": "win", "runners": "1", "stake": 1_000 })).await, 400, 40);
        fail(api.post("/api/virtuals/bets", json!({ "raceId": race_id, "kind": "win", "runners": [1], "stake": 1_000 })).await, 400, 40);
        fail(bet(&app.client(), "r8", json!({ "raceId": race_id, "kind": "win", "runners": [1], "stake": 1_000 })).await, 401, 23);
        assert_eq!(app.minor_balance(user, BalanceKind::Real).await, START - staked);

        // Betting closes at the start: the race runs, its seed and order are published.
        let closes_at = race["closesAt"].as_i64().unwrap();
        let finishes_at = race["finishesAt"].as_i64().unwrap();
        run_until(app, closes_at).await;
        fail(bet(&api, "late", json!({ "raceId": race_id, "kind": "win", "runners": [winner], "stake": 1_000 })).await, 200, 69);
        let d = ok(app.get(&format!("/api/virtuals/races/{race_id}")).await);
        let r = &d["race"];
        assert_eq!(r["phase"], "running");
        let result: Vec<u32> = serde_json::from_value(r["result"].clone()).unwrap();
        assert_eq!(result, order);
        assert!(d["recipe"].as_str().unwrap().contains(r["seed"].as_str().unwrap()));

        // The seed verifies: it is the one committed to, it is link `number` of the chain
        // whose terminating hash is published, and it gives the published order from the
        // published strengths.
        let seed = hex::decode(r["seed"].as_str().unwrap()).unwrap();
        let mut committed = seed.clone();
        committed.extend_from_slice(b"race");
        assert_eq!(hex::encode(sha(&committed)), r["commitHash"].as_str().unwrap());
        assert_eq!(r["commitHash"], race["commitHash"], "the commitment shown before betting");
        let mut h: [u8; 32] = seed.clone().try_into().unwrap();
        for _ in 0..r["number"].as_i64().unwrap() {
            h = sha(&h);
        }
        assert_eq!(hex::encode(h), r["terminatingHash"].as_str().unwrap());
        let strengths: Vec<u32> = r["runners"].as_array().unwrap().iter().map(|x| x["strength"].as_u64().unwrap() as u32).collect();
        assert_eq!(recompute_order(&seed, r["salt"].as_str().unwrap(), &strengths), result);
        // Prices are the published strengths with the declared overround (win: exact).
        let total: u32 = strengths.iter().sum();
        for (i, s) in strengths.iter().enumerate() {
            let expected = ((10_000 * total as u64) / (*s as u64 * r["overround"].as_u64().unwrap())).min(100_000) as i64;
            assert_eq!(hundredths(&r["runners"][i]["win"]), expected, "runner {}", i + 1);
        }

        // Not settled while it is shown.
        run_until(app, finishes_at - 1).await;
        assert_eq!(app.minor_balance(user, BalanceKind::Real).await, START - staked);
        // Settled at its end, exactly: stake × price, floored to the millime.
        run_until(app, finishes_at).await;
        let w1 = 1_000 * price("win", winner) / 100;
        let w2 = 2_500 * price("place", third) / 100;
        assert_eq!(app.minor_balance(user, BalanceKind::Real).await, START - staked + w1 + w2);
        let list = ok(api.get(&format!("/api/virtuals/bets?raceId={race_id}")).await);
        let by_id = |id: &Value| list.as_array().unwrap().iter().find(|b| b["id"] == *id).unwrap().clone();
        assert_eq!((by_id(&b1["id"])["status"].clone(), by_id(&b1["id"])["win"].clone()), (json!("won"), json!(w1)));
        assert_eq!((by_id(&b2["id"])["status"].clone(), by_id(&b2["id"])["win"].clone()), (json!("won"), json!(w2)));
        assert_eq!((by_id(&b3["id"])["status"].clone(), by_id(&b3["id"])["win"].clone()), (json!("lost"), json!(0)));
        assert_eq!((by_id(&b4["id"])["status"].clone(), by_id(&b4["id"])["win"].clone()), (json!("lost"), json!(0)));
        assert_eq!(ok(app.get(&format!("/api/virtuals/races/{race_id}")).await)["race"]["phase"], "settled");

        // Settled exactly once: more passes change nothing, and neither does a pass after a
        // crash that lost the bets' statuses (the wins replay under their keys).
        run_until(app, finishes_at + 60_000).await;
        app.sql(&format!("UPDATE virtual_bets SET status = 'open', win = 0, settled_at = NULL WHERE race_id = {race_id}")).await;
        app.sql(&format!("UPDATE virtual_races SET phase = 'running', settled_at = NULL WHERE id = {race_id}")).await;
        run_until(app, finishes_at + 61_000).await;
        assert_eq!(app.minor_balance(user, BalanceKind::Real).await, START - staked + w1 + w2);
        assert_eq!(app.count("ledger_transactions WHERE idempotency_key LIKE 'prov:studio:vr:%:win'").await, 2);
        assert_eq!(app.count(&format!("virtual_bets WHERE race_id = {race_id} AND status = 'won'")).await, 2);
        let mine = ok(api.get("/api/virtuals/bets").await);
        assert_eq!(mine.as_array().unwrap().len(), 4);
        app.assert_ledger_consistent().await;

        // The loop runs again and the instance is healthy.
        app.state.virtuals.start();
        let h = app.send(Method::GET, "/healthz", None).await;
        assert_eq!((h.status, h.body["virtuals"].as_str()), (200, Some("ok")));
    })
    .await;
}

#[tokio::test]
async fn an_interrupted_race_is_settled_by_its_committed_result_at_the_next_start() {
    each_backend(async |app| {
        manual(app).await;
        let race = next_race(app, "greyhounds").await;
        let race_id = race["id"].as_i64().unwrap();
        let order = stored_order(app, race_id).await;
        let (api, user, _) = app.player("virtuals2@example.tn").await;
        app.credit(user, BalanceKind::Real, START).await;
        let b = ok(bet(&api, "w", json!({ "raceId": race_id, "kind": "win", "runners": [order[0]], "stake": 3_000 })).await);
        // A placement interrupted between its row and its stake: the row says `placing` and
        // the ledger has no stake.
        let session_id = app.scalar(&format!("SELECT session_id FROM virtual_bets WHERE id = {}", b["id"])).await;
        app.sql(&format!(
            "INSERT INTO virtual_bets (id, race_id, user_id, session_id, client_key, currency, kind, selection, price, stake, status, win, created_at) \
             VALUES (77, {race_id}, {user}, {session_id}, 'ghost', 'TND', 'win', '{}', 250, 5000, 'placing', 0, 1)",
            order[0]
        ))
        .await;
        // The dead loop fails the health check.
        let h = reqwest::get(format!("{}/healthz", app.base)).await.unwrap();
        assert_eq!(h.status().as_u16(), 503);
        assert_eq!(h.json::<Value>().await.unwrap()["virtuals"], "stopped");

        // The process was down while the race closed and ran; at the next start the loop's
        // first pass settles it by its committed result.
        let finishes_at = race["finishesAt"].as_i64().unwrap();
        app.state.virtuals.advance(finishes_at + 1_000 - app.state.virtuals.now());
        app.state.virtuals.start();
        let mut settled = false;
        for _ in 0..100 {
            if app.scalar(&format!("SELECT CAST(COUNT(*) AS BIGINT) FROM virtual_races WHERE id = {race_id} AND phase = 'settled'")).await == 1 {
                settled = true;
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        assert!(settled, "the restarted loop settles the race");
        let w = 3_000 * hundredths(&b["price"]) / 100;
        assert_eq!(app.minor_balance(user, BalanceKind::Real).await, START - 3_000 + w);
        // The interrupted placement is refused and its stake tombstoned: it can never land.
        assert_eq!(app.scalar("SELECT CAST(COUNT(*) AS BIGINT) FROM virtual_bets WHERE id = 77 AND status = 'refused'").await, 1);
        let session = app.state.casino.sessions().by_id(session_id).await.unwrap();
        let late = casino::WalletCall {
            session_token: String::new(),
            transaction_id: "vr:77:bet".into(),
            round_id: race_id.to_string(),
            game_id: "virtual-greyhounds".into(),
            amount: 5_000,
            currency: "TND".into(),
        };
        let refused = app.state.casino.wallet().bet_with(casino::STUDIO, session, &late).await.unwrap_err();
        assert_eq!(refused.code, kernel::ErrorCode::TransactionRolledBack);
        assert_eq!(app.minor_balance(user, BalanceKind::Real).await, START - 3_000 + w);
        // The refused bet is not in the player's list.
        assert_eq!(ok(api.get("/api/virtuals/bets").await).as_array().unwrap().len(), 1);
        app.assert_ledger_consistent().await;
    })
    .await;
}

#[tokio::test]
async fn refused_stakes_leave_nothing_and_concurrent_retries_stake_once() {
    each_backend(async |app| {
        manual(app).await;
        let race = next_race(app, "speedway").await;
        let race_id = race["id"].as_i64().unwrap();
        let (api, user, _) = app.player("virtuals3@example.tn").await;
        app.credit(user, BalanceKind::Real, 500).await;
        let body = json!({ "raceId": race_id, "kind": "win", "runners": [1], "stake": 1_000 });
        fail(bet(&api, "same", body.clone()).await, 200, 501);
        assert_eq!(app.minor_balance(user, BalanceKind::Real).await, 500);
        assert_eq!(app.count(&format!("virtual_bets WHERE user_id = {user}")).await, 0);
        // The key of a refused bet may be used again once the player has the money.
        app.credit(user, BalanceKind::Real, 9_500).await;
        let mut tasks = Vec::new();
        for _ in 0..8 {
            let api = api.clone();
            let body = body.clone();
            tasks.push(tokio::spawn(async move { bet(&api, "same", body).await }));
        }
        let mut ids = Vec::new();
        for t in tasks {
            let (http, reply) = t.await.unwrap();
            // Each answer is the bet, or (while the first request is still staking) 26.
            if reply["status"] == 0 {
                ids.push(reply["result"]["id"].clone());
            } else {
                fail((http, reply), 409, 26);
            }
        }
        assert!(!ids.is_empty());
        assert!(ids.windows(2).all(|w| w[0] == w[1]), "{ids:?}");
        assert_eq!(app.minor_balance(user, BalanceKind::Real).await, 9_000);
        assert_eq!(app.count(&format!("virtual_bets WHERE user_id = {user}")).await, 1);
        app.assert_ledger_consistent().await;
    })
    .await;
}
