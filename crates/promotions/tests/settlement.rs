//! Sports settlement's promotions on a real database (SQLite always, PostgreSQL too when
//! `TEST_DATABASE_URL` is set): bets placed and settled through `betting::Betting` exactly as
//! the feed settles them, the promotions seeing them only through the settlement hook.
//!
//! - sport-bonus wagering: a bonus bet counts at settlement when it settled at odds ≥ the
//!   bonus's minimum (1.80), once, even when the same result is applied twice at once and
//!   again; another player's bets never count toward this player's bonus;
//! - rakeback: lost qualifying real-money expresses only (4 events → nothing, 5 events at 1.10
//!   → nothing, 9 events → 25 %), paid once when settlement runs twice, taken back once when a
//!   corrected result makes the bet a winner.

use betting::{Betting, Bettor, LegInput, PlaceInput};
use kernel::clock::now_ms;
use kernel::Currency;
use promotions::service::{Grant, Promotions};
use promotions::terms::{Amount, Product, Template, WageringBase};
use sportsbook::slip::{BetKind, Funding, SlipSettings};
use sportsbook::{Odds, OddsPolicy};
use store::sqlx;
use store::testing::with_each_backend;
use store::Db;
use wallet::*;

const TND: Currency = Currency::Tnd;

fn sport_terms(amount: i64, multiple: u32) -> Template {
    Template {
        product: Product::Sport,
        amount: Amount::Fixed { amount },
        wagering_multiple: multiple,
        wagering_base: WageringBase::Bonus,
        max_bet: 0,
        max_conversion: 0,
        life_days: 30,
        min_odds: 1_800,
    }
}

async fn fund(ledger: &Ledger, user: i64, amount: i64) {
    ledger.adjust(user, TND, BalanceKind::Real, amount, "test", "funding", format!("fund:{user}:{amount}")).await.unwrap();
}

async fn balance(ledger: &Ledger, user: i64, kind: BalanceKind) -> i64 {
    ledger.balance(user, kind, TND).await.unwrap()
}

async fn count(db: &Db, sql: &str) -> i64 {
    sqlx::query_scalar::<_, i64>(&format!("SELECT COUNT(*) FROM {sql}")).fetch_one(db.reader()).await.unwrap()
}

/// The line: events `{prefix}0`…`{prefix}{n-1}`, each with market 1: outcome 1 at `o1`,
/// outcome 2 at `o2`, outcome 3 at 4.00.
async fn line(b: &Betting, prefix: &str, n: usize, o1: u32, o2: u32) {
    let now = now_ms();
    for i in 0..n {
        let id = format!("{prefix}{i}");
        for m in [
            serde_json::json!({"type": "fixture_change", "timestamp": now, "event_id": id,
                "sport": {"id": "sr:sport:1", "name": "Soccer", "kind": "football"},
                "category": {"id": "sr:category:1", "sport_id": "sr:sport:1", "name": "England"},
                "tournament": {"id": "sr:tournament:17", "category_id": "sr:category:1", "name": "Premier Division"},
                "kind": "live", "start_time": now + 3_600_000,
                "home": {"id": format!("h{i}"), "name": format!("Home {i}")}, "away": {"id": format!("a{i}"), "name": format!("Away {i}")}}),
            serde_json::json!({"type": "odds_change", "timestamp": now, "event_id": id,
                "markets": [{"market": "1", "status": "active", "outcomes": [
                    {"id": "1", "odds": o1, "active": true}, {"id": "2", "odds": o2, "active": true}, {"id": "3", "odds": 4000, "active": true}]}]}),
        ] {
            b.apply(sportsbook::feed::decode(&m.to_string()).unwrap(), now).await.unwrap();
        }
    }
}

/// `bet_settlement` for an event: `winner` won, the other outcomes lost.
fn result(event: &str, winner: &str) -> sportsbook::FeedMessage {
    let outcomes: Vec<_> = ["1", "2", "3"].iter().map(|o| serde_json::json!({"id": o, "win": *o == winner})).collect();
    let m = serde_json::json!({"type": "bet_settlement", "timestamp": now_ms(), "event_id": event,
        "markets": [{"market": "1", "outcomes": outcomes}]});
    sportsbook::feed::decode(&m.to_string()).unwrap()
}

fn odds_text(thousandths: u32) -> String {
    Odds::new(thousandths).unwrap().to_string()
}

async fn place(b: &Betting, user: i64, legs: &[(&str, &str, u32)], stake: i64, funding: Funding, key: &str) -> i64 {
    let input = PlaceInput {
        legs: legs
            .iter()
            .map(|(e, o, odds)| LegInput { event_id: e.to_string(), market: "1".into(), outcome_id: o.to_string(), odds: odds_text(*odds) })
            .collect(),
        stake,
        kind: if legs.len() > 1 { BetKind::Express } else { BetKind::Single },
        funding,
        policy: OddsPolicy::None,
    };
    let who = Bettor { id: user, currency: TND, allowed: true };
    b.place(&who, &input, key, now_ms()).await.unwrap_or_else(|e| panic!("{key}: {}", e.text())).id
}

async fn bonus_state(db: &Db, id: i64) -> (String, i64) {
    let r = sqlx::query("SELECT status, wagered FROM bonuses WHERE id = $1").bind(id).fetch_one(db.reader()).await.unwrap();
    use sqlx::Row;
    (r.get(0), r.get(1))
}

fn betting(db: &Db, ledger: &Ledger, p: &Promotions) -> Betting {
    let mut settings = SlipSettings::default();
    // The site lets bonus bets at 1.50 (the operator lowered limits.bonus.minCoef after the
    // bonus was granted): the bonus's own minimum, 1.80, still decides what counts.
    settings.bonus_min_odds = Odds::new(1_500).unwrap();
    settings.max_open_bets_per_event = 100;
    let b = Betting::new(db.clone(), ledger.clone(), settings);
    assert!(b.set_settle_hook(p.settle_hook()));
    b
}

#[tokio::test]
async fn a_sport_bonus_is_wagered_by_settled_bets_at_its_minimum_odds_once() {
    with_each_backend(|db| async move {
        let ledger = Ledger::new(db.clone());
        let p = Promotions::new(db.clone(), ledger.clone());
        let b = betting(&db, &ledger, &p);
        let t = p.create_template("sport", TND, &sport_terms(100_000, 1), "test").await.unwrap();
        let (alice, bob) = (7_001, 7_002);
        for u in [alice, bob] {
            fund(&ledger, u, 1_000_000).await;
        }
        let Grant::Active(a_bonus) = p.grant(alice, TND, t, 0, "test", "t:alice").await.unwrap() else { panic!() };
        let Grant::Active(b_bonus) = p.grant(bob, TND, t, 0, "test", "t:bob").await.unwrap() else { panic!() };
        line(&b, "w", 2, 1_800, 1_500).await;
        // Alice: a bonus bet at 1.80 (won) and one at 1.50 (lost), a real-money bet at 1.80.
        place(&b, alice, &[("w0", "1", 1_800)], 10_000, Funding::Bonus, "a1").await;
        place(&b, alice, &[("w0", "2", 1_500)], 10_000, Funding::Bonus, "a2").await;
        place(&b, alice, &[("w0", "1", 1_800)], 50_000, Funding::Real, "a3").await;
        // Bob: a bonus bet at 1.80 of 20 TND (lost) and an express 1.50 × 1.50 = 2.25 (counts:
        // an express counts at its total odds).
        place(&b, bob, &[("w0", "3", 4_000)], 20_000, Funding::Bonus, "b1").await;
        place(&b, bob, &[("w0", "2", 1_500), ("w1", "2", 1_500)], 5_000, Funding::Bonus, "b2").await;
        // The same result twice at once, then once more.
        let (x, y) = tokio::join!(b.apply(result("w0", "1"), now_ms()), b.apply(result("w0", "1"), now_ms()));
        x.unwrap();
        y.unwrap();
        b.apply(result("w0", "1"), now_ms()).await.unwrap();
        assert_eq!(bonus_state(&db, a_bonus).await, ("active".into(), 10_000), "only Alice's bonus bet at 1.80 counts");
        // Bob's express lost on w0 (its w1 leg undecided) at 1.50 × 1.50 = 2.25: it counts.
        assert_eq!(bonus_state(&db, b_bonus).await, ("active".into(), 25_000), "Bob's own bets, once; nothing of Alice's");
        b.apply(result("w1", "1"), now_ms()).await.unwrap();
        assert_eq!(bonus_state(&db, b_bonus).await.1, 25_000);
        assert_eq!(count(&db, "sport_wagering").await, 3);
        assert_eq!(count(&db, &format!("sport_wagering WHERE user_id = {alice}")).await, 1);
        // Alice's won bet paid 18 TND back into her bonus balance.
        assert_eq!(balance(&ledger, alice, BalanceKind::Bonus).await, 100_000 - 20_000 + 18_000);

        // A correction to void takes the contribution back; back to a win counts it again, once.
        b.apply(sportsbook::feed::decode(&serde_json::json!({"type": "bet_settlement", "timestamp": now_ms(), "event_id": "w0",
            "markets": [{"market": "1", "outcomes": [{"id": "1", "win": false, "void_factor": "1"}, {"id": "2", "win": false}, {"id": "3", "win": false}]}]}).to_string()).unwrap(), now_ms())
            .await
            .unwrap();
        assert_eq!(bonus_state(&db, a_bonus).await.1, 0, "a void bet counts nothing");
        b.apply(result("w0", "1"), now_ms()).await.unwrap();
        b.apply(result("w0", "1"), now_ms()).await.unwrap();
        assert_eq!(bonus_state(&db, a_bonus).await.1, 10_000);

        // Wagered through (100 TND) by more bets: the 1.50 ones count nothing; met, then
        // converted to real money right after the settlement that met it.
        line(&b, "x", 1, 1_800, 1_500).await;
        for i in 0..3 {
            place(&b, alice, &[("x0", "2", 1_500)], 5_000, Funding::Bonus, &format!("c{i}")).await;
        }
        place(&b, alice, &[("x0", "1", 1_800)], 29_000, Funding::Bonus, "c-big").await;
        b.apply(result("x0", "2"), now_ms()).await.unwrap();
        assert_eq!(bonus_state(&db, a_bonus).await, ("active".into(), 10_000 + 29_000), "1.50 bets count nothing");
        line(&b, "y", 1, 2_000, 1_500).await;
        let stake = balance(&ledger, alice, BalanceKind::Bonus).await;
        assert_eq!(stake, 98_000 - 44_000 + 22_500);
        place(&b, alice, &[("y0", "1", 2_000)], stake, Funding::Bonus, "d").await;
        let real = balance(&ledger, alice, BalanceKind::Real).await;
        b.apply(result("y0", "1"), now_ms()).await.unwrap();
        for _ in 0..100 {
            if bonus_state(&db, a_bonus).await.0 != "met" {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        p.sweep().await.unwrap();
        assert_eq!(bonus_state(&db, a_bonus).await, ("converted".into(), 39_000 + stake));
        assert_eq!(balance(&ledger, alice, BalanceKind::Bonus).await, 0);
        assert_eq!(balance(&ledger, alice, BalanceKind::Real).await, real + 2 * stake);
        assert!(ledger.verify().await.unwrap().is_consistent());
        assert_eq!(p.verify().await.unwrap(), Vec::<String>::new());
    })
    .await;
}

#[tokio::test]
async fn rakeback_is_paid_once_on_lost_qualifying_expresses_and_taken_back_once() {
    with_each_backend(|db| async move {
        let ledger = Ledger::new(db.clone());
        let p = Promotions::new(db.clone(), ledger.clone());
        let b = betting(&db, &ledger, &p);
        let user = 8_001;
        fund(&ledger, user, 1_000_000).await;
        // e0…e9 at 1.50 (outcome 1) and 1.10 (outcome 2).
        line(&b, "e", 10, 1_500, 1_100).await;
        let legs = |n: usize, outcome: &'static str, odds: u32| -> Vec<(String, &'static str, u32)> {
            (0..n).map(|i| (format!("e{i}"), outcome, odds)).collect()
        };
        let mut ids = Vec::new();
        for (n, outcome, odds, key) in [(4, "1", 1_500, "four"), (5, "2", 1_100, "low-odds"), (9, "1", 1_500, "nine"), (5, "3", 4_000, "five")] {
            let l = legs(n, outcome, odds);
            let l: Vec<(&str, &str, u32)> = l.iter().map(|(e, o, x)| (e.as_str(), *o, *x)).collect();
            ids.push(place(&b, user, &l, 10_000, Funding::Real, key).await);
        }
        // A 5-event express that wins (outcome 3 on e0…e4) must pay no rakeback: settle e0…e4
        // with outcome 3 winning — every other bet loses on e0 at once.
        let cashback = || balance(&ledger, user, BalanceKind::Cashback);
        let (x, y) = tokio::join!(b.apply(result("e0", "3"), now_ms()), b.apply(result("e0", "3"), now_ms()));
        x.unwrap();
        y.unwrap();
        b.apply(result("e0", "3"), now_ms()).await.unwrap();
        assert_eq!(cashback().await, 2_500, "9 events → 25 % of 10 TND; 4 events and 5 at 1.10 → nothing");
        assert_eq!(count(&db, &format!("ledger_transactions WHERE tx_type = {}", TxType::Rakeback.code())).await, 1);
        for e in 1..5 {
            b.apply(result(&format!("e{e}"), "3"), now_ms()).await.unwrap();
        }
        assert_eq!(cashback().await, 2_500, "a won express earns nothing");
        // A correction: e0's outcome 1 won after all. The 9-event bet is no longer lost; once
        // its other legs win it is a winner and its rakeback is taken back, once.
        b.apply(result("e0", "1"), now_ms()).await.unwrap();
        for e in 1..9 {
            b.apply(result(&format!("e{e}"), "1"), now_ms()).await.unwrap();
            b.apply(result(&format!("e{e}"), "1"), now_ms()).await.unwrap();
        }
        let nine = ids[2];
        let status: String = sqlx::query_scalar("SELECT status FROM sb_bets WHERE id = $1").bind(nine).fetch_one(db.reader()).await.unwrap();
        assert_eq!(status, "won");
        // The 5-event express on outcome 3 is lost now (e0…e4 corrected): 10 % of 10 TND.
        assert_eq!(cashback().await, 1_000, "the 9-event rakeback was taken back");
        assert_eq!(count(&db, &format!("ledger_transactions WHERE tx_type = {}", TxType::RakebackReversal.code())).await, 1);
        // Lost again by a further correction: nothing paid twice.
        b.apply(result("e8", "2"), now_ms()).await.unwrap();
        assert_eq!(cashback().await, 1_000);
        assert_eq!(count(&db, &format!("ledger_transactions WHERE tx_type = {}", TxType::Rakeback.code())).await, 2);
        assert!(ledger.verify().await.unwrap().is_consistent());
        assert_eq!(p.verify().await.unwrap(), Vec::<String>::new());
    })
    .await;
}
