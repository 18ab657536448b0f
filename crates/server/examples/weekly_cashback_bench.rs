//! Benchmark of the weekly cashback payer (issue 19, docs/PERFORMANCE.md "Weekly cashback"):
//! seeds `WCB_PLAYERS` players (default 100,000) into a fresh database, each funded by a
//! ledger posting and with `WCB_STAKES` casino stakes (default 2) and one win of the week,
//! moves those postings into an ended ISO week, then measures
//!
//! * the hourly accrual of that week (every player's staked, returned and cashback, one
//!   aggregate and one upsert per chunk of 2,000 players), and
//! * the Monday run: computing and freezing the week again, then paying every player with
//!   cashback by keyed postings (`Ledger::post_many`, 2,000 a call), and a second run (nothing
//!   to pay).
//!
//! `DATABASE_URL` names the database (default `sqlite://bench-wcb.db`, removed first; a
//! PostgreSQL database must be empty). Run in release:
//! `cargo run --release -p server --example weekly_cashback_bench`.

use kernel::Currency;
use promotions::periods;
use promotions::service::Promotions;
use std::time::Instant;
use wallet::{AccountRef, BalanceKind, HouseAccount, Ledger, PostingRequest, TxType};

fn env(key: &str, default: &str) -> String {
    std::env::var(key).ok().filter(|v| !v.is_empty()).unwrap_or_else(|| default.to_string())
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let url = env("DATABASE_URL", "sqlite://bench-wcb.db");
    let players: i64 = env("WCB_PLAYERS", "100000").parse()?;
    let stakes: i64 = env("WCB_STAKES", "2").parse()?;
    if let Some(path) = url.strip_prefix("sqlite://") {
        let path = path.split('?').next().unwrap_or(path);
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{path}{suffix}"));
        }
    }
    let db = store::Db::connect(&url).await?;
    db.migrate().await?;
    let ledger = Ledger::new(db.clone());
    let promotions = Promotions::new(db.clone(), ledger.clone());

    // Seed: players 1..=N (ledger-only, as the payer needs no account row).
    let t = Instant::now();
    let tnd = |major: i64| major * 1_000;
    let mut posted = 0usize;
    let mut user = 0i64;
    while user < players {
        let users: Vec<i64> = (user + 1..=(user + 1_000).min(players)).collect();
        user += users.len() as i64;
        // Funding first, in its own call (post_many orders postings across accounts freely).
        let funds = users
            .iter()
            .map(|&u| PostingRequest::transfer(TxType::ManualAdjustment, format!("fund:{u}"), Some(u), Currency::Tnd, AccountRef::House(HouseAccount::Adjustments), AccountRef::Player { user_id: u, kind: BalanceKind::Real }, tnd(10_000)))
            .collect();
        let mut batch = Vec::new();
        for &u in &users {
            let player = AccountRef::Player { user_id: u, kind: BalanceKind::Real };
            for s in 0..stakes {
                // Stakes of 50 to 5,049 TND a player: every tier and some below the first.
                let amount = tnd(50 + (u * 37) % 5_000) / stakes.max(1) + s;
                batch.push(PostingRequest::transfer(TxType::BetStake, format!("stake:{u}:{s}"), Some(u), Currency::Tnd, player, AccountRef::House(HouseAccount::Games), amount));
            }
            // A win: a fifth of the players end the week ahead.
            let win = if u % 5 == 0 { tnd(6_000) } else { tnd(u % 40) + 1 };
            batch.push(PostingRequest::transfer(TxType::BetWin, format!("win:{u}"), Some(u), Currency::Tnd, AccountRef::House(HouseAccount::Games), player, win));
        }
        for reqs in [funds, batch] {
            for r in ledger.post_many(reqs).await {
                r?;
                posted += 1;
            }
        }
    }
    let seeded = t.elapsed();
    // Into the week three weeks back (its Tuesday): an ended week the background job never pays.
    let tz = periods::zone(periods::DEFAULT_ZONE)?;
    let now = kernel::clock::now_ms();
    let week = periods::week_of((now - 21 * 86_400_000) / 1000, &tz)?;
    let shift = now + 60_000 - (week.start * 1000 + 86_400_000);
    for table in ["ledger_transactions", "ledger_entries"] {
        store::sqlx::query(&format!("UPDATE {table} SET created_at = created_at - {shift}")).execute(db.writer()).await?;
    }
    println!("backend {:?}: {players} players, {posted} postings seeded in {:.1} s; week {}", db.backend(), seeded.as_secs_f64(), week.key);

    let t = Instant::now();
    let accrued = promotions.accrue_week(&week).await?;
    println!("accrual (compute only): {accrued} players in {:.2} s", t.elapsed().as_secs_f64());

    let t = Instant::now();
    let run = promotions.pay_weekly_cashback(&week).await?;
    let paid_in = t.elapsed();
    println!(
        "monday run (compute + freeze + pay): {} players computed, {} paid ({} TND) in {:.2} s; finished {}",
        run.computed,
        run.paid,
        run.amount / 1_000,
        paid_in.as_secs_f64(),
        run.finished
    );
    let t = Instant::now();
    let again = promotions.pay_weekly_cashback(&week).await?;
    println!("second run: {} paid, finished {} in {:.2} s", again.paid, again.finished, t.elapsed().as_secs_f64());
    let payouts: i64 = store::sqlx::query_scalar(&format!("SELECT COUNT(*) FROM ledger_transactions WHERE tx_type = {}", TxType::WeeklyCashbackPayout.code())).fetch_one(db.reader()).await?;
    println!("payout postings: {payouts} (one per player with cashback)");
    let report = ledger.verify().await?;
    println!("ledger consistent: {}", report.is_consistent());
    Ok(())
}
