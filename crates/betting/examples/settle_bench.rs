//! Sportsbook throughput on this machine (docs/PERFORMANCE.md "Sportsbook"): `bets` singles
//! placed through `Betting::place` by `players` players over `tasks` concurrent tasks (each
//! a bet row, a stake posting and a status change), then one `bet_settlement` that decides
//! them all, timed; then `ledger verify`.
//!
//!   cargo run --release -p betting --example settle_bench -- [sqlite|postgres] [bets] [players] [tasks]
//!
//! PostgreSQL: `BENCH_PG_URL` (default postgres://postgres@127.0.0.1:5432/postgres), a
//! database created and dropped for the run.
//!
//! `BENCH_STAKES=varied`: stakes of 1.000 to 5.990 TND (500 amounts, so 500 payouts) instead
//! of 1 TND each, as real bets are.
//!
//! `SETTLE_PROMOTIONS=1`: the promotions' settlement hook is on (rakeback, sport-bonus
//! wagering), as in `serve`. `SETTLE_PROMOTIONS=bonus`: besides, every player holds an open
//! sport bonus and every bet is staked from it, so each settlement chunk writes its
//! `sport_wagering` rows and bonus progress (the hook's worst case).

use betting::{Betting, Bettor, LegInput, PlaceInput};
use kernel::clock::now_ms;
use kernel::Currency;
use sportsbook::slip::{BetKind, Funding, SlipSettings};
use sportsbook::OddsPolicy;
use std::time::Instant;
use store::testing::TestDb;
use store::{Backend, Db};
use wallet::{AccountRef, BalanceKind, HouseAccount, Ledger, PostingRequest, TxType};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    // RUST_LOG=betting=debug shows the settlement's phases.
    tracing_subscriber::fmt().with_env_filter(tracing_subscriber::EnvFilter::from_default_env()).with_writer(std::io::stderr).init();
    let args: Vec<String> = std::env::args().collect();
    let backend = match args.get(1).map(String::as_str).unwrap_or("sqlite") {
        "postgres" => Backend::Postgres,
        _ => Backend::Sqlite,
    };
    let bets: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(100_000);
    let players: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1_000);
    let tasks: usize = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(64);
    if backend == Backend::Postgres && std::env::var("TEST_DATABASE_URL").is_err() {
        std::env::set_var(
            "TEST_DATABASE_URL",
            std::env::var("BENCH_PG_URL")
                .unwrap_or("postgres://postgres@127.0.0.1:5432/postgres".into()),
        );
    }
    let t = TestDb::new(backend).await?;
    let db = Db::connect(&t.url).await?;
    db.migrate().await?;
    // `BENCH_SQL`: statements (`;`-separated) run after the migrations, to measure a schema
    // change without a migration (an index dropped, a constraint removed).
    if let Ok(extra) = std::env::var("BENCH_SQL") {
        for stmt in extra.split(';').filter(|s| !s.trim().is_empty()) {
            store::sqlx::query(stmt).execute(db.writer()).await?;
        }
    }
    let ledger = Ledger::new(db.clone());
    let mut settings = SlipSettings::default();
    settings.max_open_bets_per_event = u32::MAX;
    let b = Betting::new(db.clone(), ledger.clone(), settings);
    let mode = std::env::var("SETTLE_PROMOTIONS").unwrap_or_default();
    let promotions = (!mode.is_empty()).then(|| promotions::service::Promotions::new(db.clone(), ledger.clone()));
    if let Some(p) = &promotions {
        b.set_settle_hook(p.settle_hook());
    }
    let bonus = mode == "bonus";
    let now = now_ms();
    for m in [
        serde_json::json!({"type": "fixture_change", "timestamp": now, "event_id": "bench:1",
            "sport": {"id": "sr:sport:1", "name": "Soccer", "kind": "football"},
            "category": {"id": "sr:category:1", "sport_id": "sr:sport:1", "name": "England"},
            "tournament": {"id": "sr:tournament:17", "category_id": "sr:category:1", "name": "Premier Division"},
            "kind": "live", "start_time": now + 3_600_000,
            "home": {"id": "h", "name": "Home"}, "away": {"id": "a", "name": "Away"}}),
        serde_json::json!({"type": "odds_change", "timestamp": now, "event_id": "bench:1",
            "markets": [{"market": "1", "status": "active", "outcomes": [
                {"id": "1", "odds": 2100, "active": true}, {"id": "2", "odds": 3400, "active": true}, {"id": "3", "odds": 3500, "active": true}]}]}),
    ] {
        b.apply(sportsbook::feed::decode(&m.to_string())?, now)
            .await
            .map_err(|e| anyhow::anyhow!(e.text()))?;
    }
    // Players with enough money.
    let per_player = bets.div_ceil(players) as i64;
    let varied = std::env::var("BENCH_STAKES").is_ok_and(|v| v == "varied");
    let stake_of = move |i: usize| if varied { 1000 + (i % 500) as i64 * 10 } else { 1000 };
    let mut credits = Vec::new();
    for p in 1..=players as i64 {
        ledger.open_accounts(p, Currency::Tnd).await?;
        credits.push(PostingRequest::transfer(
            TxType::ManualAdjustment,
            format!("bench:{p}"),
            Some(p),
            Currency::Tnd,
            AccountRef::House(HouseAccount::Adjustments),
            AccountRef::Player {
                user_id: p,
                kind: BalanceKind::Real,
            },
            per_player * if varied { 6000 } else { 1000 },
        ));
    }
    for chunk in credits.chunks(1000) {
        for r in ledger.post_many(chunk.to_vec()).await {
            r?;
        }
    }
    if let (Some(p), true) = (&promotions, bonus) {
        let terms = promotions::terms::Template {
            product: promotions::terms::Product::Sport,
            amount: promotions::terms::Amount::Fixed { amount: per_player * if varied { 6000 } else { 1000 } },
            wagering_multiple: 10,
            wagering_base: promotions::terms::WageringBase::Bonus,
            max_bet: 0,
            max_conversion: 0,
            life_days: 30,
            min_odds: 1_800,
        };
        let t = p.create_template("bench sport", Currency::Tnd, &terms, "bench").await.map_err(|e| anyhow::anyhow!(e.text()))?;
        for u in 1..=players as i64 {
            p.grant(u, Currency::Tnd, t, 0, "bench", &format!("bench:{u}")).await.map_err(|e| anyhow::anyhow!(e.text()))?;
        }
    }
    println!(
        "# {} bets of {} at 2.10 by {players} players, {tasks} tasks, {backend:?}, promotions hook: {}",
        bets,
        if varied { "1.000-5.990 TND" } else { "1 TND" },
        if mode.is_empty() { "off" } else { mode.as_str() }
    );
    let input = PlaceInput {
        legs: vec![LegInput {
            event_id: "bench:1".into(),
            market: "1".into(),
            outcome_id: "1".into(),
            odds: "2.1".into(),
        }],
        stake: 1000,
        kind: BetKind::Single,
        funding: if bonus { Funding::Bonus } else { Funding::Real },
        policy: OddsPolicy::None,
    };
    let started = Instant::now();
    let next = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let mut handles = Vec::new();
    for _ in 0..tasks {
        let (b, input, next) = (b.clone(), input.clone(), next.clone());
        handles.push(tokio::spawn(async move {
            let mut lat = Vec::new();
            loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if i >= bets {
                    return lat;
                }
                let who = Bettor {
                    id: (i % players) as i64 + 1,
                    currency: Currency::Tnd,
                    allowed: true,
                };
                let mut input = input.clone();
                input.stake = stake_of(i);
                let t0 = Instant::now();
                b.place(&who, &input, &format!("k{i}"), now_ms())
                    .await
                    .expect("placed");
                lat.push(t0.elapsed().as_secs_f64() * 1000.0);
            }
        }));
    }
    let mut lat: Vec<f64> = Vec::new();
    for h in handles {
        lat.extend(h.await?);
    }
    let secs = started.elapsed().as_secs_f64();
    lat.sort_by(|a, b| a.total_cmp(b));
    let pct = |p: f64| lat[((lat.len() as f64 * p) as usize).min(lat.len() - 1)];
    println!(
        "placed {bets} in {secs:.1} s: {:.0} bets/s, p50 {:.1} ms, p99 {:.1} ms",
        bets as f64 / secs,
        pct(0.5),
        pct(0.99)
    );
    let settle = serde_json::json!({"type": "bet_settlement", "timestamp": now_ms(), "event_id": "bench:1",
        "markets": [{"market": "1", "outcomes": [{"id": "1", "win": true}, {"id": "2", "win": false}, {"id": "3", "win": false}]}]});
    let started = Instant::now();
    b.apply(sportsbook::feed::decode(&settle.to_string())?, now_ms())
        .await
        .map_err(|e| anyhow::anyhow!(e.text()))?;
    let secs = started.elapsed().as_secs_f64();
    let open: i64 = store::sqlx::query_scalar("SELECT COUNT(*) FROM sb_bets WHERE status = 'open'")
        .fetch_one(db.reader())
        .await?;
    println!(
        "settled {bets} open bets on one result in {secs:.2} s ({:.0} bets/s); still open: {open}",
        bets as f64 / secs
    );
    if bonus {
        let counted: i64 = store::sqlx::query_scalar("SELECT COUNT(*) FROM sport_wagering").fetch_one(db.reader()).await?;
        println!("sport_wagering rows: {counted}");
    }
    let report = ledger.verify().await?;
    println!(
        "ledger verify: {}",
        if report.is_consistent() {
            "consistent"
        } else {
            "INCONSISTENT"
        }
    );
    db.close().await;
    t.cleanup().await;
    Ok(())
}
