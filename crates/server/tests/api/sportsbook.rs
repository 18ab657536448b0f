//! Our sportsbook over HTTP (docs/SPORTSBOOK.md): the line fed with documented feed
//! messages, placement (idempotent, the stake through the ledger), refusals that change
//! nothing, settlement and resettlement posting only the difference, and the races.

use crate::common::*;
use futures::future::join_all;
use kernel::clock::now_ms;
use reqwest::Method;
use serde_json::{json, Value};
use wallet::BalanceKind;

const BETS: &str = "/api/sportsbook/bets";
const TND: i64 = 1000;

fn msg(v: Value) -> sportsbook::FeedMessage {
    sportsbook::feed::decode(&v.to_string()).unwrap_or_else(|e| panic!("{v}: {e}"))
}

/// A football match `id` starting in `start_in_ms` (negative: started), with 1X2 at
/// 2.10 / 3.40 / 3.50 and over/under 2.5 at 1.95 / 1.85.
async fn add_match(app: &TestApp, id: &str, kind: &str, start_in_ms: i64) {
    let now = now_ms();
    let b = &app.state.betting;
    b.apply(
        msg(json!({"type": "fixture_change", "timestamp": now, "event_id": id,
            "sport": {"id": "sr:sport:1", "name": "Soccer", "kind": "football"},
            "category": {"id": "sr:category:1", "sport_id": "sr:sport:1", "name": "England"},
            "tournament": {"id": "sr:tournament:17", "category_id": "sr:category:1", "name": "Premier Division"},
            "kind": kind, "start_time": now + start_in_ms,
            "home": {"id": format!("{id}:h"), "name": format!("Home {id}")},
            "away": {"id": format!("{id}:a"), "name": format!("Away {id}")}})),
        now,
    )
    .await
    .unwrap();
    set_odds(app, id, "1", &[("1", 2100), ("2", 3400), ("3", 3500)]).await;
    set_odds(app, id, "18|total=2.5", &[("12", 1950), ("13", 1850)]).await;
}

async fn set_odds(app: &TestApp, id: &str, market: &str, odds: &[(&str, i64)]) {
    let outcomes: Vec<Value> = odds.iter().map(|(o, x)| json!({"id": o, "odds": x, "active": true})).collect();
    app.state
        .betting
        .apply(msg(json!({"type": "odds_change", "timestamp": now_ms(), "event_id": id,
            "markets": [{"market": market, "status": "active", "outcomes": outcomes}]})), now_ms())
        .await
        .unwrap();
}

/// Publishes results: `(market, outcome, result)` with result `win`, `lose`, `void`.
async fn settle(app: &TestApp, id: &str, results: &[(&str, &str, &str)]) {
    let mut markets: Vec<(String, Vec<Value>)> = Vec::new();
    for (m, o, r) in results {
        let result = match *r {
            "win" => json!({"win": true}),
            "lose" => json!({"win": false}),
            "void" => json!({"win": false, "void_factor": "1"}),
            "half_win" => json!({"win": true, "void_factor": "1/2"}),
            other => panic!("{other}"),
        };
        let mut outcome = result;
        outcome["id"] = json!(o);
        match markets.iter_mut().find(|(k, _)| k == m) {
            Some((_, v)) => v.push(outcome),
            None => markets.push((m.to_string(), vec![outcome])),
        }
    }
    let markets: Vec<Value> = markets.into_iter().map(|(m, o)| json!({"market": m, "outcomes": o})).collect();
    app.state
        .betting
        .apply(msg(json!({"type": "bet_settlement", "timestamp": now_ms(), "event_id": id, "markets": markets})), now_ms())
        .await
        .unwrap();
}

fn leg(event: &str, market: &str, outcome: &str, odds: &str) -> Value {
    json!({"event_id": event, "market": market, "outcome_id": outcome, "odds": decimal(odds)})
}

fn single(event: &str, outcome: &str, odds: &str, stake: &str) -> Value {
    json!({"kind": "single", "stake": decimal(stake), "legs": [leg(event, "1", outcome, odds)]})
}

async fn place(api: &Api, key: &str, body: Value) -> (u16, Value) {
    api.exec(api.req(Method::POST, BETS).header("Idempotency-Key", key).json(&body)).await.pair()
}

/// A signed-in player credited with `credit` (minor units): `(client, user id, balance now)`.
async fn funded(app: &TestApp, email: &str, credit: i64) -> (Api, i64, i64) {
    let (api, id, _) = app.player(email).await;
    app.credit(id, BalanceKind::Real, credit).await;
    let now = real(app, id).await;
    (api, id, now)
}

async fn real(app: &TestApp, id: i64) -> i64 {
    app.minor_balance(id, BalanceKind::Real).await
}

#[tokio::test]
async fn sportsbook_line_place_replay_settle_and_resettle() {
    each_backend(async |app| {
        for m in ["t:1", "t:2", "t:3", "t:4"] {
            add_match(app, m, "live", 3_600_000).await;
        }
        let (api, id, start) = funded(app, "punter@example.tn", 100 * TND).await;

        // The line and one event.
        let line = ok(api.get("/api/sportsbook/line").await);
        assert_eq!(line["sports"][0]["events"], 4, "{line}");
        assert_eq!(line["events"][0]["markets"].as_array().unwrap().len(), 1, "the line carries the main market only");
        assert_eq!(line["events"][0]["markets"][0]["outcomes"][0]["odds"].as_f64(), Some(2.1));
        let ev = ok(api.get("/api/sportsbook/event/t:1").await);
        assert_eq!(ev["markets"].as_array().unwrap().len(), 2);
        fail(api.get("/api/sportsbook/event/nope").await, 404, 43);

        // A single at 2.10 for 10 TND, replayed; the key with another stake is 26.
        let s = ok(place(&api, "k-1", single("t:1", "1", "2.1", "10.0")).await);
        assert_eq!((s["status"].as_str(), s["replayed"].as_bool(), s["potential_payout"].as_f64()), (Some("open"), Some(false), Some(21.0)));
        let again = ok(place(&api, "k-1", single("t:1", "1", "2.1", "10.0")).await);
        assert_eq!((again["id"].clone(), again["replayed"].as_bool()), (s["id"].clone(), Some(true)));
        fail(place(&api, "k-1", single("t:1", "1", "2.1", "11.0")).await, 409, 26);
        // A 3-leg express: 2.10 × 1.85 × 3.50 = 13.5975 → 5 TND pays 67.987.
        let express = json!({"kind": "express", "stake": 5, "legs": [
            leg("t:2", "1", "1", "2.1"), leg("t:3", "18|total=2.5", "13", "1.85"), leg("t:4", "1", "3", "3.5")]});
        let x = ok(place(&api, "k-2", express).await);
        assert_eq!((x["total_odds"].as_f64(), x["potential_payout"].as_f64()), (Some(13.597), Some(67.987)));
        assert_eq!(real(app, id).await, start - 15 * TND);
        let open = ok(api.get(&format!("{BETS}?status=open")).await);
        assert_eq!(open.as_array().unwrap().len(), 2);
        assert_eq!(open[0]["legs"].as_array().unwrap().len(), 3);

        // Results: the single wins (21); the express has a void leg (2.10 × 1 × 3.50 = 7.35 → 36.75).
        settle(app, "t:1", &[("1", "1", "win"), ("1", "2", "lose"), ("1", "3", "lose")]).await;
        assert_eq!(real(app, id).await, start - 15 * TND + 21 * TND);
        settle(app, "t:2", &[("1", "1", "win")]).await;
        settle(app, "t:3", &[("18|total=2.5", "13", "void")]).await;
        assert_eq!(ok(api.get(&format!("{BETS}?status=open")).await).as_array().unwrap().len(), 1, "the express waits for its last leg");
        settle(app, "t:4", &[("1", "3", "win")]).await;
        assert_eq!(real(app, id).await, start - 15 * TND + 21 * TND + 36_750);
        let settled = ok(api.get(&format!("{BETS}?status=settled")).await);
        let xs = settled.as_array().unwrap().iter().find(|b| b["id"] == x["id"]).unwrap().clone();
        assert_eq!((xs["status"].as_str(), xs["payout"].as_f64()), (Some("won"), Some(36.75)), "{xs}");
        assert_eq!(xs["legs"][1]["result"], "void");
        // Top winnings (spec §3): biggest payout first, amounts with 2 decimals, the legs.
        let top = ok(app.client().get("/api/user/bets/top?type=day").await);
        assert_eq!((top[0]["winAmount"].as_f64(), top[0]["betAmount"].as_f64()), (Some(36.75), Some(5.0)), "{top}");
        assert_eq!(top[0]["events"].as_array().unwrap().len(), 3);
        assert_eq!(top[1]["winAmount"].as_f64(), Some(21.0));
        fail(app.client().get("/api/user/bets/top?type=year").await, 200, 47);

        // The same results again: nothing moves. A corrected result (t:1 home lost): only
        // the difference is posted (−21), once, however often it is published.
        settle(app, "t:1", &[("1", "1", "win")]).await;
        let before = real(app, id).await;
        settle(app, "t:1", &[("1", "1", "lose")]).await;
        settle(app, "t:1", &[("1", "1", "lose")]).await;
        assert_eq!(real(app, id).await, before - 21 * TND);
        let s1 = ok(api.get(&format!("{BETS}?status=settled")).await).as_array().unwrap().iter().find(|b| b["id"] == s["id"]).unwrap().clone();
        assert_eq!((s1["status"].as_str(), s1["payout"].as_f64()), (Some("lost"), Some(0.0)));
        // Corrected back to a win: +21 again.
        settle(app, "t:1", &[("1", "1", "win")]).await;
        assert_eq!(real(app, id).await, before);
        let payouts = app.scalar(&format!("SELECT COUNT(*) FROM ledger_transactions WHERE user_id = {id} AND tx_type = 212")).await;
        let resettles = app.scalar(&format!("SELECT COUNT(*) FROM ledger_transactions WHERE user_id = {id} AND tx_type = 213")).await;
        assert_eq!((payouts, resettles), (2, 2), "one payout per bet, one posting per correction");
        app.assert_ledger_consistent().await;
    })
    .await;
}

#[tokio::test]
async fn sportsbook_refusals_change_nothing() {
    each_backend(async |app| {
        add_match(app, "r:1", "live", 3_600_000).await;
        add_match(app, "r:2", "pre_match", -60_000).await;
        add_match(app, "r:3", "live", 3_600_000).await;
        let (api, id, start) = funded(app, "careful@example.tn", 50 * TND).await;
        let tx_before = app.scalar(&format!("SELECT COUNT(*) FROM ledger_transactions WHERE user_id = {id}")).await;

        // 604: the odds moved; the refusal lists the leg with the odds now offered.
        set_odds(app, "r:1", "1", &[("1", 2000), ("2", 3400), ("3", 3500)]).await;
        let changed = fail(place(&api, "a", single("r:1", "1", "2.1", "5.0")).await, 200, 604);
        assert_eq!(changed["changes"][0]["current"], 2000, "{changed}");
        // accept_higher refuses a drop too; accept_any takes 2.00.
        let mut b = single("r:1", "1", "2.1", "5.0");
        b["odds_policy"] = json!("accept_higher");
        fail(place(&api, "b", b.clone()).await, 200, 604);
        b["odds_policy"] = json!("accept_any");
        let taken = ok(place(&api, "c", b).await);
        assert_eq!(taken["legs"][0]["odds"].as_f64(), Some(2.0));
        let after_any = real(app, id).await;
        assert_eq!(after_any, start - 5 * TND);
        // The reality check's net result of play counts sports bets.
        assert_eq!(ok(api.get("/api/user/responsible-gambling/session").await)["net"].as_f64(), Some(-5.0));

        fail(place(&api, "d", single("r:2", "1", "2.1", "5.0")).await, 200, 603);
        fail(place(&api, "e", json!({"kind": "express", "stake": 5, "legs": [leg("r:1", "1", "1", "2.0"), leg("r:1", "18|total=2.5", "12", "1.95")]})).await, 200, 608);
        fail(place(&api, "f", json!({"kind": "express", "stake": 5, "legs": [leg("r:1", "1", "1", "2.0")]})).await, 200, 609);
        fail(place(&api, "g", single("r:3", "1", "2.1", "0.1")).await, 200, 610);
        fail(place(&api, "h", single("r:3", "1", "2.1", "6000.0")).await, 200, 606);
        // The limits are the site settings' (`limits.bets`): an operator raising the minimum
        // to 10 TND refuses a 5 TND bet that passed before.
        let mut site = app.state.content.settings().await.unwrap();
        site["limits"]["bets"]["min"] = json!(10);
        app.state.betting.use_site_settings(&site);
        fail(place(&api, "h2", single("r:3", "1", "2.1", "5.0")).await, 200, 610);
        site["limits"]["bets"]["min"] = json!(0.5);
        app.state.betting.use_site_settings(&site);
        fail(place(&api, "i", single("r:3", "9", "2.1", "5.0")).await, 200, 601);
        fail(place(&api, "j", single("r:3", "1", "2.1", "60.0")).await, 200, 501);
        app.state.betting.apply(msg(json!({"type": "bet_stop", "timestamp": now_ms(), "event_id": "r:3"})), now_ms()).await.unwrap();
        fail(place(&api, "k", single("r:3", "1", "2.1", "5.0")).await, 200, 607);
        let mut free = single("r:1", "1", "2.0", "5.0");
        free["funding"] = json!("free_bet");
        fail(place(&api, "l", free).await, 200, 1489);
        // Malformed: no key, a bad stake, a bad kind.
        fail(api.post(BETS, single("r:1", "1", "2.0", "5.0")).await, 400, 40);
        fail(place(&api, "m", single("r:1", "1", "2.0", "-1.0")).await, 200, 601);
        fail(place(&api, "m0", single("r:1", "1", "2.0", "0")).await, 200, 601);
        fail(place(&api, "m1", single("r:1", "1", "2.0", "1.0001")).await, 200, 47);
        fail(place(&api, "n", json!({"kind": "system", "stake": 5, "legs": []})).await, 400, 40);
        fail(app.client().exec(app.client().req(Method::POST, BETS).header("Idempotency-Key", "x").json(&single("r:1", "1", "2.0", "5.0"))).await.pair(), 401, 23);

        assert_eq!(real(app, id).await, after_any, "no refusal moved money");
        let tx_after = app.scalar(&format!("SELECT COUNT(*) FROM ledger_transactions WHERE user_id = {id}")).await;
        assert_eq!(tx_after, tx_before + 1, "only the accepted bet posted");
        app.assert_ledger_consistent().await;
    })
    .await;
}

/// A free bet end to end (spec §5, docs/PROMOTIONS.md): FREEBET activated into the free-bet
/// balance; total odds below 2.20 refused with 1489 and nothing moves; at 3.40 accepted from
/// the free-bet balance (real money untouched); none left is 506; won, it pays the winnings
/// only — the stake is not returned — and lost, nothing.
#[tokio::test]
async fn sportsbook_free_bet_needs_2_20_and_pays_winnings_only() {
    each_backend(async |app| {
        add_match(app, "fb:1", "live", 3_600_000).await;
        add_match(app, "fb:2", "live", 3_600_000).await;
        let mut ids = Vec::new();
        for email in ["free-winner@example.tn", "free-loser@example.tn"] {
            let (api, id, start) = funded(app, email, 20 * TND).await;
            ok(api.post("/api/payment/promocode/activation", json!({"code": "FREEBET"})).await);
            ok(api.post("/api/user/activate-free-bets", json!({})).await);
            assert_eq!(app.minor_balance(id, BalanceKind::FreeBet).await, 10 * TND);
            ids.push((api, id, start));
        }
        let (api, id, start) = &ids[0];
        let txs = app.scalar(&format!("SELECT COUNT(*) FROM ledger_transactions WHERE user_id = {id}")).await;

        // 2.10 < 2.20: 1489, with the minimum and the slip's total; nothing moves.
        let mut low = single("fb:1", "1", "2.1", "10");
        low["funding"] = json!("free_bet");
        let refusal = fail(place(api, "fb-low", low).await, 200, 1489);
        assert!(refusal.to_string().contains("2100") && refusal.to_string().contains("2200"), "{refusal}");
        assert_eq!(app.minor_balance(*id, BalanceKind::FreeBet).await, 10 * TND);
        assert_eq!(app.scalar(&format!("SELECT COUNT(*) FROM ledger_transactions WHERE user_id = {id}")).await, txs);

        // 3.40: accepted from the free-bet balance, the real balance untouched.
        let mut draw = single("fb:1", "2", "3.4", "10");
        draw["funding"] = json!("free_bet");
        let bet = ok(place(api, "fb-ok", draw).await);
        assert_eq!((bet["funding"].as_str(), bet["stake"].as_f64()), (Some("free_bet"), Some(10.0)));
        // The potential payout is the winnings: 10 × 3.40 − 10.
        assert_eq!(bet["potential_payout"].as_f64(), Some(24.0));
        assert_eq!(app.minor_balance(*id, BalanceKind::FreeBet).await, 0);
        assert_eq!(real(app, *id).await, *start);
        let fb = ok(api.get("/api/user/free-bets").await);
        assert_eq!(fb[0]["status"], "used", "{fb}");
        // None left: 506, and nothing moves.
        let mut again = single("fb:2", "2", "3.4", "10");
        again["funding"] = json!("free_bet");
        fail(place(api, "fb-again", again).await, 200, 506);
        assert_eq!(real(app, *id).await, *start);

        // The other player's free bet on the away side at 3.50.
        let (api2, id2, start2) = &ids[1];
        let mut away = single("fb:1", "3", "3.5", "10");
        away["funding"] = json!("free_bet");
        ok(place(api2, "fb-away", away).await);

        // The draw: 24 paid to the real balance, not 34; the loser gets nothing back.
        settle(app, "fb:1", &[("1", "1", "lose"), ("1", "2", "win"), ("1", "3", "lose")]).await;
        assert_eq!(real(app, *id).await, *start + 24 * TND, "winnings only");
        assert_eq!(app.minor_balance(*id, BalanceKind::FreeBet).await, 0);
        let settled = ok(api.get(&format!("{BETS}?status=settled")).await);
        assert_eq!((settled[0]["status"].as_str(), settled[0]["payout"].as_f64()), (Some("won"), Some(24.0)));
        assert_eq!(real(app, *id2).await, *start2);
        assert_eq!(app.minor_balance(*id2, BalanceKind::FreeBet).await, 0);
        // Settled again with the same results: nothing more.
        settle(app, "fb:1", &[("1", "1", "lose"), ("1", "2", "win"), ("1", "3", "lose")]).await;
        assert_eq!(real(app, *id).await, *start + 24 * TND);
        app.assert_ledger_consistent().await;
    })
    .await;
}

#[tokio::test]
async fn sportsbook_100_placements_with_one_key_post_once() {
    each_backend(async |app| {
        add_match(app, "c:1", "live", 3_600_000).await;
        let (api, id, start) = funded(app, "eager@example.tn", 100 * TND).await;
        let body = single("c:1", "2", "3.4", "10.0");
        let replies = join_all((0..100).map(|_| place(&api, "same", body.clone()))).await;
        let ids: std::collections::BTreeSet<String> = replies.into_iter().map(|r| ok(r)["id"].to_string()).collect();
        assert_eq!(ids.len(), 1, "one bet: {ids:?}");
        assert_eq!(real(app, id).await, start - 10 * TND);
        assert_eq!(app.scalar(&format!("SELECT COUNT(*) FROM ledger_transactions WHERE user_id = {id} AND tx_type = 211")).await, 1);
        app.assert_ledger_consistent().await;
    })
    .await;
}

#[tokio::test]
async fn sportsbook_200_bets_against_a_balance_for_50_accept_50() {
    each_backend(async |app| {
        add_match(app, "p:1", "live", 3_600_000).await;
        let (api, id, _) = app.player("many@example.tn").await;
        let have = real(app, id).await;
        // Exactly 50 stakes of 1 TND.
        if have < 50 * TND {
            app.credit(id, BalanceKind::Real, 50 * TND - have).await;
        }
        app.state.ledger.post(wallet::PostingRequest::transfer(wallet::TxType::ManualAdjustment, format!("trim:{id}"), Some(id), kernel::Currency::Tnd,
            wallet::AccountRef::Player { user_id: id, kind: BalanceKind::Real }, wallet::AccountRef::House(wallet::HouseAccount::Adjustments), real(app, id).await - 50 * TND)).await.ok();
        assert_eq!(real(app, id).await, 50 * TND);
        // Spread over markets so no per-market limit is reached; at most 4 open bets per
        // event would refuse most of them, so the express limit is lifted for this test.
        let mut settings = app.state.betting.settings();
        settings.max_open_bets_per_event = 1000;
        app.state.betting.set_settings(settings);
        let keys: Vec<String> = (0..200).map(|i| format!("k{i}")).collect();
        let replies = join_all(keys.iter().map(|k| place(&api, k, single("p:1", "1", "2.1", "1.0")))).await;
        let accepted = replies.iter().filter(|(h, b)| *h == 200 && b["status"] == 0).count();
        let refused = replies.iter().filter(|(h, b)| *h == 200 && b["status"] == 501).count();
        assert_eq!((accepted, refused), (50, 150));
        assert_eq!(real(app, id).await, 0);
        assert_eq!(app.scalar(&format!("SELECT COUNT(*) FROM sb_bets WHERE user_id = {id} AND status = 'open'")).await, 50);
        assert_eq!(app.scalar(&format!("SELECT COUNT(*) FROM sb_bets WHERE user_id = {id} AND status = 'rejected'")).await, 150);
        app.assert_ledger_consistent().await;
    })
    .await;
}

/// One result settles bets of many stakes at once: each bet gets its own payout (the chunk's
/// states are one `UPDATE … FROM (VALUES …)`; when every bet of a chunk was alike, a statement
/// per payout had hidden that), losers 0, and each player's balance moves by exactly its
/// bets' payouts.
#[tokio::test]
async fn sportsbook_one_result_pays_each_bet_of_many_stakes_its_own_payout() {
    each_backend(async |app| {
        add_match(app, "v:1", "live", 3_600_000).await;
        let mut settings = app.state.betting.settings();
        settings.max_open_bets_per_event = 1000;
        app.state.betting.set_settings(settings);
        let mut players = Vec::new();
        for p in 0..3 {
            players.push(funded(app, &format!("stakes{p}@example.tn"), 500 * TND).await);
        }
        // 90 bets: stakes 1.000, 1.010, … on home (2.10, wins) or draw (3.40, loses).
        let mut placed = Vec::new();
        for i in 0..90usize {
            let (api, id, _) = &players[i % 3];
            let stake = 1000 + 10 * i as i64;
            let outcome = if i % 4 == 3 { "2" } else { "1" };
            let odds = if outcome == "1" { "2.1" } else { "3.4" };
            let body = single("v:1", outcome, odds, &format!("{}.{:03}", stake / 1000, stake % 1000));
            let bet = ok(place(api, &format!("s{i}"), body).await);
            placed.push((bet["id"].as_i64().expect("bet id"), *id, stake, outcome == "1"));
        }
        let before: Vec<i64> = futures::future::join_all(players.iter().map(|(_, id, _)| real(app, *id))).await;
        settle(app, "v:1", &[("1", "1", "win"), ("1", "2", "lose"), ("1", "3", "lose")]).await;
        let mut paid = vec![0i64; players.len()];
        for (bet, user, stake, wins) in &placed {
            let (status, payout) = if *wins { ("won", stake * 21 / 10) } else { ("lost", 0) };
            let row = app.scalar(&format!("SELECT payout FROM sb_bets WHERE id = {bet} AND status = '{status}' AND settle_version = 1")).await;
            assert_eq!(row, payout, "bet {bet} of {stake}");
            paid[players.iter().position(|(_, id, _)| id == user).unwrap()] += payout;
        }
        for (k, (_, id, _)) in players.iter().enumerate() {
            assert_eq!(real(app, *id).await, before[k] + paid[k], "player {id}");
        }
        assert_eq!(app.scalar("SELECT COUNT(*) FROM sb_bets WHERE status = 'open'").await, 0);
        app.assert_ledger_consistent().await;
    })
    .await;
}

/// A leg whose result never comes (the feed lost the event) is void once the event is well
/// past: the single is refunded, once.
#[tokio::test]
async fn sportsbook_legs_the_feed_lost_are_void() {
    each_backend(async |app| {
        add_match(app, "o:1", "live", -2 * 3_600_000).await;
        let (api, id, start) = funded(app, "orphan@example.tn", 10 * TND).await;
        let bet = ok(place(&api, "o", single("o:1", "1", "2.1", "4.0")).await);
        assert_eq!(real(app, id).await, start - 4 * TND);
        // Still in the line: nothing happens.
        assert_eq!(app.state.betting.void_orphans(30 * 60_000, now_ms()).await.unwrap(), 0);
        // The feed closes the match without results; the line drops it.
        app.state
            .betting
            .apply(msg(json!({"type": "score_change", "timestamp": now_ms(), "event_id": "o:1", "status": "closed", "score": {"home": 1, "away": 0}})), now_ms())
            .await
            .unwrap();
        assert_eq!(app.state.betting.void_orphans(30 * 60_000, now_ms()).await.unwrap(), 1);
        assert_eq!(app.state.betting.void_orphans(30 * 60_000, now_ms()).await.unwrap(), 0);
        assert_eq!(real(app, id).await, start, "the stake is refunded");
        let b = ok(api.get(&format!("{BETS}?status=settled")).await)[0].clone();
        assert_eq!((b["id"].clone(), b["status"].as_str(), b["legs"][0]["result"].as_str()), (bet["id"].clone(), Some("void"), Some("void")));
        app.assert_ledger_consistent().await;
    })
    .await;
}

/// The next text message of a socket as JSON (10 s at most).
async fn next_json(s: &mut crate::crash::Socket) -> Value {
    use futures::StreamExt;
    loop {
        let m = tokio::time::timeout(std::time::Duration::from_secs(10), s.next()).await.expect("a message in time").unwrap().unwrap();
        if let tokio_tungstenite::tungstenite::Message::Text(t) = m {
            return serde_json::from_str(&t).unwrap();
        }
    }
}

/// Live updates: a socket receives the feed messages of the topics it holds, and only those.
#[tokio::test]
async fn sportsbook_live_updates_follow_the_topics() {
    use futures::SinkExt;
    use tokio_tungstenite::tungstenite::Message;
    each_backend(async |app| {
        add_match(app, "w:1", "live", 3_600_000).await;
        add_match(app, "w:2", "live", 3_600_000).await;
        fail(app.get("/api/sportsbook/ws").await, 400, 40);
        let (mut s, _) = tokio_tungstenite::connect_async(format!("ws://{}/api/sportsbook/ws", app.addr)).await.expect("ws");
        assert_eq!(next_json(&mut s).await["type"], "hello");
        s.send(Message::Text(json!({"type": "subscribe", "topics": ["event:w:1", "bogus"]}).to_string().into())).await.unwrap();
        let e = next_json(&mut s).await;
        assert_eq!((e["type"].as_str(), e["status"].as_u64()), (Some("error"), Some(47)), "{e}");
        set_odds(app, "w:2", "1", &[("1", 1500), ("2", 4000), ("3", 5000)]).await;
        set_odds(app, "w:1", "1", &[("1", 2500), ("2", 3000), ("3", 3100)]).await;
        // One frame per feed tick: an array of messages.
        let frame = next_json(&mut s).await;
        assert_eq!(frame.as_array().map(Vec::len), Some(1), "{frame}");
        let u = &frame[0];
        assert_eq!((u["type"].as_str(), u["event_id"].as_str()), (Some("odds_change"), Some("w:1")), "only the subscribed event: {u}");
        assert_eq!(u["markets"][0]["outcomes"][0]["odds"], 2500);

        // `live` carries events in play in their list form: an odds change keeps only the
        // main market; an `event:` topic gets the whole message.
        let (mut l, _) = tokio_tungstenite::connect_async(format!("ws://{}/api/sportsbook/ws", app.addr)).await.expect("ws");
        assert_eq!(next_json(&mut l).await["type"], "hello");
        l.send(Message::Text(json!({"type": "subscribe", "topics": ["live"]}).to_string().into())).await.unwrap();
        assert_eq!(next_json(&mut l).await["type"], "subscribed");
        // `list:<id>`: one event in list form (a screen of the list).
        let (mut one, _) = tokio_tungstenite::connect_async(format!("ws://{}/api/sportsbook/ws", app.addr)).await.expect("ws");
        assert_eq!(next_json(&mut one).await["type"], "hello");
        one.send(Message::Text(json!({"type": "subscribe", "topics": ["list:w:2"]}).to_string().into())).await.unwrap();
        assert_eq!(next_json(&mut one).await["type"], "subscribed");
        for id in ["w:1", "w:2"] {
            app.state.betting.apply(msg(json!({"type": "score_change", "timestamp": now_ms(), "event_id": id, "status": "live", "score": {"home": 0, "away": 0}})), now_ms()).await.unwrap();
        }
        let two_markets = |id: &str| msg(json!({"type": "odds_change", "timestamp": now_ms(), "event_id": id, "markets": [
            {"market": "18|total=2.5", "status": "active", "outcomes": [{"id": "12", "odds": 1900, "active": true}, {"id": "13", "odds": 1900, "active": true}]},
            {"market": "1", "status": "active", "outcomes": [{"id": "1", "odds": 2600, "active": true}]}]}));
        app.state.betting.apply_all(vec![two_markets("w:1"), two_markets("w:2")], now_ms()).await;
        // Each score change was its own tick.
        for id in ["w:1", "w:2"] {
            let f = next_json(&mut l).await;
            assert_eq!((f[0]["type"].as_str(), f[0]["event_id"].as_str()), (Some("score_change"), Some(id)), "{f}");
        }
        let f = next_json(&mut l).await;
        assert_eq!(f.as_array().map(Vec::len), Some(2), "both odds changes in one frame: {f}");
        for (u, id) in f.as_array().unwrap().iter().zip(["w:1", "w:2"]) {
            assert_eq!(u["event_id"], id);
            assert_eq!(u["markets"].as_array().map(Vec::len), Some(1), "the main market only: {u}");
            assert_eq!(u["markets"][0]["market"], "1");
        }
        let f = next_json(&mut one).await;
        assert_eq!((f[0]["type"].as_str(), f[0]["event_id"].as_str()), (Some("score_change"), Some("w:2")), "{f}");
        let f = next_json(&mut one).await;
        assert_eq!(f.as_array().map(Vec::len), Some(1), "only its event: {f}");
        assert_eq!((f[0]["event_id"].as_str(), f[0]["markets"].as_array().map(Vec::len)), (Some("w:2"), Some(1)), "list form: {f}");
        let f = next_json(&mut s).await;
        assert_eq!((f[0]["type"].as_str(), f[0]["event_id"].as_str()), (Some("score_change"), Some("w:1")), "{f}");
        let f = next_json(&mut s).await;
        assert_eq!(f.as_array().map(Vec::len), Some(1), "{f}");
        assert_eq!(f[0]["markets"].as_array().map(Vec::len), Some(2), "the event's topic gets every market: {f}");
    })
    .await;
}

/// An operator's feed adapter pushes the documented feed (`SPORTSBOOK_FEED=push`): signed
/// deliveries apply in order, a refused message is reported alone, and a result delivered
/// twice pays once.
#[tokio::test]
async fn sportsbook_feed_pushed_by_an_adapter() {
    const SECRET: &str = "feed-secret-0123456789";
    let signed = |app: &TestApp, body: &str, secret: &str, ts: i64| {
        let ts = ts.to_string();
        let sig = casino::signature::sign(secret, &ts, body.as_bytes());
        app.bare_client()
            .req(Method::POST, "/api/sportsbook/feed")
            .header("content-type", "application/json")
            .header("X-Timestamp", ts)
            .header("X-Signature", sig)
            .body(body.to_string())
    };
    // Without a push feed configured the endpoint is closed.
    each_backend(async |app| {
        let now_s = now_ms() / 1000;
        fail(app.exec(signed(app, "[]", SECRET, now_s)).await.pair(), 401, 66);
    })
    .await;
    each_backend_with(
        |c| c.sportsbook_feed = server::config::SportsbookFeed::Push { secret: SECRET.into() },
        async |app| {
            let now = now_ms();
            let now_s = now / 1000;
            let deliver = async |body: &str| ok(app.exec(signed(app, body, SECRET, now_ms() / 1000)).await.pair());
            // Forged, stale, malformed: refused, nothing applied.
            let fixture = json!([
                {"type": "fixture_change", "timestamp": now, "event_id": "push:1",
                 "sport": {"id": "sr:sport:1", "name": "Soccer", "kind": "football"},
                 "category": {"id": "sr:category:1", "sport_id": "sr:sport:1", "name": "England"},
                 "tournament": {"id": "sr:tournament:17", "category_id": "sr:category:1", "name": "Premier Division"},
                 "kind": "live", "start_time": now + 3_600_000,
                 "home": {"id": "c:1", "name": "Atlas United"}, "away": {"id": "c:2", "name": "Oasis Rovers"}},
                {"type": "odds_change", "timestamp": now, "event_id": "push:1", "markets": [{"market": "1", "status": "active", "outcomes": [
                    {"id": "1", "odds": 2100, "active": true}, {"id": "2", "odds": 3400, "active": true}, {"id": "3", "odds": 3500, "active": true}]}]},
                {"type": "odds_change", "timestamp": now, "event_id": "push:unknown", "markets": []},
                {"type": "no_such_message"}
            ])
            .to_string();
            fail(app.exec(signed(app, &fixture, "another-secret-0123456", now_s)).await.pair(), 401, 64);
            fail(app.exec(signed(app, &fixture, SECRET, now_s - 3_600)).await.pair(), 401, 65);
            fail(app.exec(signed(app, "{\"type\": \"odds_change\"}", SECRET, now_s)).await.pair(), 400, 40);
            assert!(app.state.betting.with_line(|l| l.event("push:1").is_none()), "nothing applied");
            let r = deliver(&fixture).await;
            assert_eq!(r["applied"], 2, "{r}");
            let refused: Vec<u64> = r["refused"].as_array().unwrap().iter().map(|x| x["index"].as_u64().unwrap()).collect();
            assert_eq!(refused, vec![2, 3], "{r}");

            let (api, id, before) = funded(app, "pushed@example.tn", 20 * TND).await;
            ok(place(&api, "p1", single("push:1", "1", "2.1", "10.0")).await);
            let result = json!([{"type": "bet_settlement", "timestamp": now_ms(), "event_id": "push:1", "markets": [
                {"market": "1", "outcomes": [{"id": "1", "win": true}, {"id": "2", "win": false}, {"id": "3", "win": false}]}]}])
            .to_string();
            assert_eq!(deliver(&result).await["applied"], 1);
            assert_eq!(deliver(&result).await["applied"], 1, "a repeat applies and changes nothing");
            assert_eq!(real(app, id).await, before - 10 * TND + 21 * TND, "paid 21 TND once");
            app.assert_ledger_consistent().await;
        },
    )
    .await;
}

/// Names follow `Accept-Language`: the catalogue's markets, worded outcomes and sports in
/// French and Arabic; competitors stay as the feed names them; a bet's legs too.
#[tokio::test]
async fn sportsbook_names_in_the_reply_language() {
    each_backend(async |app| {
        add_match(app, "n:1", "live", 3_600_000).await;
        let (api, _, _) = funded(app, "names@example.tn", 10 * TND).await;
        let get = |lang: &'static str, path: &'static str| {
            let api = &api;
            async move { ok(api.exec(api.req(Method::GET, path).header("accept-language", lang)).await.pair()) }
        };
        let ev = get("fr-FR,fr;q=0.9", "/api/sportsbook/event/n:1").await;
        assert_eq!(ev["sport"], "Football");
        let total = ev["markets"].as_array().unwrap().iter().find(|m| m["key"] == "18|total=2.5").unwrap().clone();
        assert_eq!(total["outcomes"][0]["name"], "Plus de 2.5");
        let ev = get("ar", "/api/sportsbook/event/n:1").await;
        assert_eq!(ev["sport"], "كرة القدم");
        let main = ev["markets"].as_array().unwrap().iter().find(|m| m["key"] == "1").unwrap().clone();
        assert_eq!(main["name"], "نتيجة المباراة 1X2");
        let names: Vec<&str> = main["outcomes"].as_array().unwrap().iter().map(|o| o["name"].as_str().unwrap()).collect();
        assert_eq!(names, vec!["Home n:1", "تعادل", "Away n:1"]);
        let line = get("ar", "/api/sportsbook/line?live=true").await;
        assert_eq!(line["sports"][0]["name"], "كرة القدم");
        // English (and any language we do not have) is the feed's text.
        let ev = get("de", "/api/sportsbook/event/n:1").await;
        assert_eq!(ev["sport"], "Soccer");
        // A bet's legs: stored once, named in the language of each reply.
        let placed = api
            .exec(api.req(Method::POST, BETS).header("Idempotency-Key", "n1").header("accept-language", "ar").json(&single("n:1", "2", "3.4", "1.0")))
            .await
            .pair();
        let placed = ok(placed);
        assert_eq!((placed["legs"][0]["market_name"].as_str(), placed["legs"][0]["outcome_name"].as_str()), (Some("نتيجة المباراة 1X2"), Some("تعادل")));
        let mine = get("fr", "/api/sportsbook/bets?status=open").await;
        assert_eq!((mine[0]["legs"][0]["market_name"].as_str(), mine[0]["legs"][0]["outcome_name"].as_str()), (Some("Résultat 1X2"), Some("Match nul")));
        let mine = get("en", "/api/sportsbook/bets?status=open").await;
        assert_eq!(mine[0]["legs"][0]["outcome_name"], "Draw");
    })
    .await;
}

/// A cancelled event refunds each stake once, however often (and however concurrently) the
/// cancellation is delivered.
#[tokio::test]
async fn sportsbook_cancel_delivered_20_times_refunds_once() {
    each_backend(async |app| {
        add_match(app, "x:1", "live", 3_600_000).await;
        let (api, id, start) = funded(app, "cancelled@example.tn", 10 * TND).await;
        ok(place(&api, "x1", single("x:1", "1", "2.1", "4")).await);
        assert_eq!(real(app, id).await, start - 4 * TND);
        let cancel = || msg(json!({"type": "bet_cancel", "timestamp": now_ms(), "event_id": "x:1"}));
        let done = join_all((0..20).map(|_| app.state.betting.apply(cancel(), now_ms()))).await;
        assert!(done.iter().all(|r| r.is_ok()));
        assert_eq!(real(app, id).await, start);
        // The stake and its one refund.
        assert_eq!(app.count(&format!("ledger_transactions WHERE idempotency_key LIKE 'sb:%' AND user_id = {id}")).await, 2);
        app.assert_ledger_consistent().await;
    })
    .await;
}

/// A sports bet and a casino round as the console sees them: the report by game counts the
/// bet under its sport (stake and payout), and the player's card lists the bet and the round
/// exactly as the player's own lists show them.
#[tokio::test]
async fn sportsbook_bets_and_casino_rounds_reach_the_report_and_the_players_card() {
    each_backend(async |app| {
        add_match(app, "rc:1", "live", 3_600_000).await;
        let (api, id, _) = funded(app, "report-card@example.tn", 100 * TND).await;
        let s = ok(place(&api, "k-rc", single("rc:1", "1", "2.1", "10.0")).await);
        settle(app, "rc:1", &[("1", "1", "win"), ("1", "2", "lose"), ("1", "3", "lose")]).await;
        // A casino round through the demo provider's signed wallet.
        let launch = ok(api.post("/api/casino/session", json!({"provider": "demo", "gameId": "demo-table", "lang": "en", "platform": "mobile"})).await);
        let token = launch["sessionToken"].as_str().unwrap().to_string();
        ok(crate::provider_wallet::call(app, "bet", &crate::provider_wallet::money(&token, "rc-b", "rc-r", 2_000)).await);
        app.assert_ledger_consistent().await;

        let (admin, _) = app.staff(accounts::Role::Admin, "rc-admin@example.tn").await;
        let day = kernel::clock::date_of_day(wallet::rollup::day_of(now_ms()));
        let report = ok(admin.get(&format!("/api/admin/reports?from={day}&to={day}&by=game")).await);
        let sport = report["rows"].as_array().unwrap().iter().find(|r| r["product"] == "sport").unwrap_or_else(|| panic!("{report}"));
        assert_eq!((sport["provider"].as_str(), sport["game"].as_str(), sport["bets"].as_i64()), (Some("sportsbook"), Some("sr:sport:1"), Some(1)));
        assert_eq!((num(&sport["stakes"]), num(&sport["wins"]), num(&sport["ggr"])), (10.0, 21.0, -11.0));

        let card = ok(admin.get(&format!("/api/admin/players/{id}")).await);
        assert_eq!(card["sportBets"][0]["id"], s["id"]);
        assert_eq!(card["sportBets"], ok(api.get(&format!("{BETS}?status=all")).await), "as the player's own list");
        let rounds = ok(api.post("/api/user/getSlotsBetHistory", json!({})).await);
        assert_eq!(card["rounds"], rounds["items"], "as the player's own history");
        assert_eq!((card["rounds"][0]["roundId"].as_str(), num(&card["rounds"][0]["stake"])), (Some("rc-r"), 2.0));
    })
    .await;
}
