//! What promotions cost a stake (issue 19 benchmark): the same casino stakes posted through the
//! ledger with the promotions observer off, then on (every player with an open casino bonus
//! being wagered, three jackpot pools taking their share: the maximum bet and the wagering
//! progress on the stake's own balance update, the pools' shares as extra legs of the stake's
//! posting and the contribution rows (deferred to the end of each transaction: one insert per
//! SQLite group commit), all in the stake's
//! transaction). Runs alternate off/on so both see the same machine; the ratio is what counts.
//!
//! ```text
//! cargo run --release -p promotions --example observer_bench -- [stakes] [players] [concurrency]
//! TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres cargo run --release ...   # PostgreSQL too
//! ```

use futures::stream::{self, StreamExt};
use kernel::Currency;
use promotions::service::Promotions;
use promotions::terms::{Amount, Product, Template, WageringBase};
use std::time::{Duration, Instant};
use store::testing::{backends, TestDb};
use wallet::*;

const TND: Currency = Currency::Tnd;

fn stake(user: i64, key: String) -> PostingRequest {
    PostingRequest::transfer(TxType::BetStake, key, Some(user), TND, AccountRef::Player { user_id: user, kind: BalanceKind::Real }, AccountRef::House(HouseAccount::Games), 1_000)
        .metadata(serde_json::json!({ "provider": "studio", "gameId": "desert-gold", "kind": "bet" }))
}

struct Run {
    tps: f64,
    p99: Duration,
}

async fn run(backend: store::Backend, on: bool, stakes: usize, players: i64, concurrency: usize) -> Run {
    let (t, db) = TestDb::migrated(backend).await.expect("database");
    let ledger = Ledger::new(db.clone());
    for u in 1..=players {
        ledger.adjust(u, TND, BalanceKind::Real, 10_000_000, "bench", "funding", format!("fund:{u}")).await.expect("fund");
    }
    let _promotions = if on {
        let p = Promotions::new(db.clone(), ledger.clone());
        let terms = Template {
            product: Product::Casino,
            amount: Amount::Fixed { amount: 50_000 },
            wagering_multiple: 10,
            wagering_base: WageringBase::Bonus,
            max_bet: 5_000,
            max_conversion: 0,
            life_days: 30,
            min_odds: 0,
        };
        let template = p.create_template("bench", TND, &terms, "bench").await.expect("template");
        if flag("OBSERVER_BENCH_BONUS") {
            for u in 1..=players {
                p.grant(u, TND, template, 0, "bench", &format!("bench:{u}")).await.expect("grant");
            }
        }
        if flag("OBSERVER_BENCH_POOLS") {
            for (id, num, bps) in [("mega", 1, 50), ("medium", 2, 30), ("small", 3, 20)] {
                p.create_pool(id, num, id, TND, 1_000_000_000, 1_000_000_000_000, bps, "").await.expect("pool");
            }
        }
        Some(p)
    } else {
        None
    };
    let started = Instant::now();
    let mut latencies: Vec<Duration> = stream::iter(0..stakes)
        .map(|i| {
            let ledger = ledger.clone();
            async move {
                let user = (i as i64 % players) + 1;
                let at = Instant::now();
                ledger.post(stake(user, format!("s:{i}"))).await.expect("stake");
                at.elapsed()
            }
        })
        .buffer_unordered(concurrency)
        .collect()
        .await;
    let elapsed = started.elapsed();
    latencies.sort();
    let p99 = latencies[(latencies.len() * 99 / 100).min(latencies.len() - 1)];
    assert!(ledger.verify().await.expect("verify").is_consistent());
    db.close().await;
    t.cleanup().await;
    Run { tps: stakes as f64 / elapsed.as_secs_f64(), p99 }
}

/// `OBSERVER_BENCH_BONUS=0` / `OBSERVER_BENCH_POOLS=0`: "on" without the open bonuses / the
/// pools (what each costs on its own). Both on by default.
fn flag(name: &str) -> bool {
    std::env::var(name).map(|v| v != "0").unwrap_or(true)
}

#[tokio::main]
async fn main() {
    let args: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let stakes = args.first().copied().unwrap_or(20_000);
    let players = args.get(1).copied().unwrap_or(1_000) as i64;
    let concurrency = args.get(2).copied().unwrap_or(64);
    for backend in backends() {
        let mut off = Vec::new();
        let mut on = Vec::new();
        // Rounds alternate off and on; OBSERVER_BENCH_ROUNDS (default 5).
        let rounds: usize = std::env::var("OBSERVER_BENCH_ROUNDS").ok().and_then(|v| v.parse().ok()).unwrap_or(5);
        for round in 0..rounds {
            off.push(run(backend, false, stakes, players, concurrency).await);
            on.push(run(backend, true, stakes, players, concurrency).await);
            eprintln!("{backend:?} round {round}: off {:.0}/s p99 {:?} — on {:.0}/s p99 {:?}", off[round].tps, off[round].p99, on[round].tps, on[round].p99);
        }
        let median = |v: &mut Vec<f64>| {
            v.sort_by(|a, b| a.partial_cmp(b).unwrap());
            v[v.len() / 2]
        };
        let (mut tps_off, mut tps_on): (Vec<f64>, Vec<f64>) = (off.iter().map(|r| r.tps).collect(), on.iter().map(|r| r.tps).collect());
        let (mut p99_off, mut p99_on): (Vec<f64>, Vec<f64>) =
            (off.iter().map(|r| r.p99.as_secs_f64() * 1000.0).collect(), on.iter().map(|r| r.p99.as_secs_f64() * 1000.0).collect());
        // Each round's own ratio (its off and on ran back to back), then their median: steadier
        // on a shared machine than the ratio of the medians.
        let mut ratios: Vec<f64> = off.iter().zip(&on).map(|(f, n)| n.tps / f.tps).collect();
        let r = median(&mut ratios);
        let (a, b, c, d) = (median(&mut tps_off), median(&mut tps_on), median(&mut p99_off), median(&mut p99_on));
        println!(
            "{backend:?}: {stakes} stakes, {players} players, {concurrency} at once — off {a:.0}/s p99 {c:.1} ms; on {b:.0}/s p99 {d:.1} ms; on/off throughput {:.2} (median of the rounds' ratios {r:.2}), p99 +{:.1} ms",
            b / a,
            d - c
        );
    }
}
