//! Issue 18, items 3 and 6: a result settles only the fixture it is about, across a restart
//! and whatever feed sends it; simulator event ids are never reused; a dead heat of 0 and a
//! stake of zero are refused.

use crate::common::*;
use betting::{Bettor, LegInput, PlaceInput};
use kernel::clock::now_ms;
use reqwest::Method;
use serde_json::{json, Value};
use sportsbook::slip::{BetKind, Funding};
use sportsbook::OddsPolicy;
use wallet::BalanceKind;

const BETS: &str = "/api/sportsbook/bets";
const TND: i64 = 1000;

fn msg(v: Value) -> sportsbook::FeedMessage {
    sportsbook::feed::decode(&v.to_string()).unwrap_or_else(|e| panic!("{v}: {e}"))
}

/// A football fixture `id` kicking off at `start` between `home` and `away`, with 1X2 and
/// over/under 3.5 priced.
async fn fixture(b: &betting::Betting, id: &str, start: i64, home: &str, away: &str) {
    let now = now_ms();
    b.apply(
        msg(json!({"type": "fixture_change", "timestamp": now, "event_id": id,
            "sport": {"id": "sim:sport:1", "name": "Soccer", "kind": "football"},
            "category": {"id": "sim:category:1", "sport_id": "sim:sport:1", "name": "Tunisia"},
            "tournament": {"id": "sim:tournament:1", "category_id": "sim:category:1", "name": "Ligue Pro 1"},
            "kind": "live", "start_time": start,
            "home": {"id": format!("c:{home}"), "name": home}, "away": {"id": format!("c:{away}"), "name": away}})),
        now,
    )
    .await
    .unwrap();
    b.apply(
        msg(json!({"type": "odds_change", "timestamp": now, "event_id": id, "markets": [
            {"market": "1", "status": "active", "outcomes": [{"id": "1", "odds": 2100}, {"id": "2", "odds": 3400}, {"id": "3", "odds": 3500}]},
            {"market": "18|total=3.5", "status": "active", "outcomes": [{"id": "12", "odds": 2500}, {"id": "13", "odds": 1500}]}]})),
        now,
    )
    .await
    .unwrap();
}

/// The final score `home:away` of fixture `id`: 1X2 and over/under 3.5 settled.
async fn full_time(b: &betting::Betting, id: &str, home: u32, away: u32) {
    let over = home + away > 3;
    b.apply(
        msg(json!({"type": "bet_settlement", "timestamp": now_ms(), "event_id": id, "markets": [
            {"market": "1", "outcomes": [
                {"id": "1", "win": home > away}, {"id": "2", "win": home == away}, {"id": "3", "win": home < away}]},
            {"market": "18|total=3.5", "outcomes": [
                {"id": "12", "win": over}, {"id": "13", "win": !over}]}]})),
        now_ms(),
    )
    .await
    .unwrap();
}

fn leg(event: &str, market: &str, outcome: &str, odds: &str) -> Value {
    json!({"event_id": event, "market": market, "outcome_id": outcome, "odds": decimal(odds)})
}

async fn place(api: &Api, key: &str, body: Value) -> (u16, Value) {
    api.exec(api.req(Method::POST, BETS).header("Idempotency-Key", key).json(&body)).await.pair()
}

/// A second instance of the server over the same database (a restart: its line is empty).
async fn restarted(app: &TestApp) -> server::app::AppState {
    let cfg = test_config(&app.state.config.database_url);
    server::prepare(cfg).await.expect("prepare")
}

async fn count(state: &server::app::AppState, sql: &str) -> i64 {
    use store::sqlx::{self, Row};
    sqlx::query(sql).fetch_one(state.db.writer()).await.unwrap_or_else(|e| panic!("{sql}: {e}")).get::<i64, _>(0)
}

#[tokio::test]
async fn sportsbook_a_result_never_settles_a_leg_of_another_fixture() {
    each_backend(async |app| {
        let t1 = now_ms() - 2 * 3_600_000;
        let b = &app.state.betting;
        fixture(b, "sim:match:7", t1, "Atlas United", "Oasis Rovers").await;
        let (api, id, _) = app.player("fixture@example.tn").await;
        app.credit(id, BalanceKind::Real, 50 * TND).await;
        // Under 3.5 at 1.50 for 10 TND, lost at 3:1; a single on the draw still open when the
        // instance stops (its result never comes from this fixture).
        let under = ok(place(&api, "u", json!({"kind": "single", "stake": 10, "legs": [leg("sim:match:7", "18|total=3.5", "13", "1.5")]})).await);
        fixture(b, "sim:match:8", t1, "Sahel Stars", "Medina FC").await;
        let open = ok(place(&api, "o", json!({"kind": "single", "stake": 5, "legs": [leg("sim:match:8", "1", "2", "3.4")]})).await);
        full_time(b, "sim:match:7", 3, 1).await;
        let balance = app.minor_balance(id, BalanceKind::Real).await;
        assert_eq!(balance, 35 * TND, "10 lost, 5 open");
        let settled = ok(api.get(&format!("{BETS}?status=settled")).await);
        assert_eq!((settled[0]["id"].clone(), settled[0]["status"].as_str()), (under["id"].clone(), Some("lost")));

        // A restart: a new instance over the same database whose feed announces other
        // fixtures under the same ids (another kick-off, other teams) and results them.
        let second = restarted(app).await;
        let b2 = &second.betting;
        let t2 = now_ms() - 3_600_000;
        fixture(b2, "sim:match:7", t2, "Dune Athletic", "Harbor City").await;
        fixture(b2, "sim:match:8", t2, "Falcon FC", "Cedar Rovers").await;
        // A bet on the new sim:match:7 (the new fixture's own legs are settled as usual).
        let who = Bettor { id, currency: kernel::Currency::Tnd, allowed: true };
        let input = PlaceInput {
            legs: vec![LegInput { event_id: "sim:match:7".into(), market: "1".into(), outcome_id: "1".into(), odds: "2.1".into() }],
            stake: 2 * TND,
            kind: BetKind::Single,
            funding: Funding::Real,
            policy: OddsPolicy::None,
        };
        let fresh = b2.place(&who, &input, "fresh", now_ms()).await.unwrap();
        // 0:0 — under 3.5 wins and the draw wins on the new fixtures: neither may touch the
        // old legs (before the fix: +15 for the lost under, +17 for the open draw).
        full_time(b2, "sim:match:7", 0, 0).await;
        full_time(b2, "sim:match:8", 0, 0).await;
        full_time(b2, "sim:match:8", 0, 0).await;
        assert_eq!(app.minor_balance(id, BalanceKind::Real).await, balance - 2 * TND, "nothing moved for the old fixtures; the new bet lost");
        assert_eq!(count(&second, &format!("SELECT COUNT(*) FROM ledger_transactions WHERE user_id = {id} AND tx_type = 213")).await, 0, "no resettlement");
        let bets = ok(api.get(&format!("{BETS}?status=all")).await);
        let status = |bet: &Value| bets.as_array().unwrap().iter().find(|x| x["id"] == bet["id"]).unwrap()["status"].as_str().unwrap().to_string();
        assert_eq!(status(&under), "lost");
        assert_eq!(status(&open), "open", "not settled by another match's draw");
        assert_eq!(status(&json!({"id": fresh.id})), "lost");
        // The open leg's fixture is gone for good (the line holds another fixture under its
        // id): housekeeping voids it and refunds the stake.
        assert_eq!(b2.void_orphans(30 * 60_000, now_ms()).await.unwrap(), 1);
        assert_eq!(app.minor_balance(id, BalanceKind::Real).await, balance - 2 * TND + 5 * TND);
        // A fixture_change that moves the start of a fixture the line holds keeps its legs.
        let moved = now_ms() + 3_600_000;
        fixture(b2, "sim:match:9", moved - 600_000, "Azure FC", "Coral City").await;
        let input = PlaceInput { legs: vec![LegInput { event_id: "sim:match:9".into(), market: "1".into(), outcome_id: "1".into(), odds: "2.1".into() }], ..input };
        b2.place(&who, &input, "moved", now_ms()).await.unwrap();
        fixture(b2, "sim:match:9", moved, "Azure FC", "Coral City").await;
        full_time(b2, "sim:match:9", 2, 0).await;
        assert_eq!(app.minor_balance(id, BalanceKind::Real).await, balance - 2 * TND + 5 * TND - 2 * TND + 4_200, "the moved fixture's result paid");
        second.db.close().await;
        app.assert_ledger_consistent().await;
    })
    .await;
}

#[tokio::test]
async fn sportsbook_simulator_ids_are_never_reused_after_a_restart() {
    each_backend(async |app| {
        let config = sportsbook::sim::SimConfig { live_events: 10, prematch_per_day: 24, days_ahead: 1, ..Default::default() };
        let ids = |sim: &mut sportsbook::sim::Simulator| -> std::collections::BTreeSet<String> {
            sim.tick(now_ms())
                .into_iter()
                .filter_map(|m| match m {
                    sportsbook::FeedMessage::FixtureChange(f) => Some(f.event_id.clone()),
                    _ => None,
                })
                .collect()
        };
        // The same seed on purpose: before, both runs named their fixtures sim:match:1, 2, …
        let first = ids(&mut app.state.betting.simulator(42, config.clone()).await.unwrap());
        let second_state = restarted(app).await;
        let second = ids(&mut second_state.betting.simulator(42, config.clone()).await.unwrap());
        assert!(first.len() >= 10 && second.len() >= 10, "{first:?} {second:?}");
        assert!(first.is_disjoint(&second), "reused: {:?}", first.intersection(&second).collect::<Vec<_>>());
        second_state.db.close().await;
    })
    .await;
}

#[tokio::test]
async fn sportsbook_refuses_a_dead_heat_of_zero_and_a_stake_of_zero() {
    each_backend(async |app| {
        let b = &app.state.betting;
        fixture(b, "dh:1", now_ms() + 3_600_000, "Atlas United", "Oasis Rovers").await;
        let (api, id, _) = app.player("deadheat@example.tn").await;
        app.credit(id, BalanceKind::Real, 20 * TND).await;
        // Stakes: zero and below are 601 (docs/SPORTSBOOK.md); too many decimals 47.
        for stake in [json!(0), json!(-1.0), json!(-0.001)] {
            fail(place(&api, "z", json!({"kind": "single", "stake": stake, "legs": [leg("dh:1", "1", "1", "2.1")]})).await, 200, 601);
        }
        fail(place(&api, "d", json!({"kind": "single", "stake": decimal("1.0001"), "legs": [leg("dh:1", "1", "1", "2.1")]})).await, 200, 47);
        let bet = ok(place(&api, "w", json!({"kind": "single", "stake": 10, "legs": [leg("dh:1", "1", "1", "2.1")]})).await);
        // A dead heat of 0/1 would be a win paying nothing: refused, nothing settled.
        let zero = msg(json!({"type": "bet_settlement", "timestamp": now_ms(), "event_id": "dh:1", "markets": [
            {"market": "1", "outcomes": [{"id": "1", "win": true, "dead_heat_factor": "0/1"}]}]}));
        assert!(b.apply(zero, now_ms()).await.is_err());
        assert_eq!(app.minor_balance(id, BalanceKind::Real).await, 10 * TND);
        assert_eq!(ok(api.get(&format!("{BETS}?status=open")).await)[0]["id"], bet["id"]);
        // A dead heat of 1/2 pays half the winnings: 10 × (2.10 × ½) = 10.5.
        let half = msg(json!({"type": "bet_settlement", "timestamp": now_ms(), "event_id": "dh:1", "markets": [
            {"market": "1", "outcomes": [{"id": "1", "win": true, "dead_heat_factor": "1/2"}]}]}));
        b.apply(half, now_ms()).await.unwrap();
        assert_eq!(app.minor_balance(id, BalanceKind::Real).await, 10 * TND + 10_500);
        app.assert_ledger_consistent().await;
    })
    .await;
}
