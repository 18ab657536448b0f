//! Benchmark of the console's reports (issue 22, docs/PERFORMANCE.md "Reports"): the one-year
//! GGR report over 1 and 10 million ledger entries on PostgreSQL, and how it grows with the
//! ledger (it must not).
//!
//! For each size in `REPORT_ENTRIES` (default `1000000,10000000`) a fresh database
//! (`REPORT_DB`, default `carthage_report_bench`, dropped and created through `ADMIN_URL`,
//! default `postgres://postgres@127.0.0.1:5432/postgres`) receives a year of synthetic
//! postings written with `generate_series` (two entries each: 45 % casino stakes, 40 % wins
//! over 12 providers × 40 games, 5 % sportsbook stakes over 6 sports, 5 % deposits, 5 %
//! bonus grants, by 20,000 players, spread evenly over the 365 days before today); then the
//! rollups are built from that ledger by `wallet::rollup::rebuild` (the same computation as
//! `carthage report rebuild` and `verify`), and each report over the year is timed
//! (`REPORT_RUNS`, default 30, after 3 warm-up runs): by day, product, provider and game.
//!
//! Run in release: `cargo run --release -p server --example report_bench`.

use std::time::{Duration, Instant};
use store::sqlx;
use wallet::rollup::{self, GroupBy, ReportQuery};

fn env(key: &str, default: &str) -> String {
    std::env::var(key).ok().filter(|v| !v.is_empty()).unwrap_or_else(|| default.to_string())
}

const PLAYERS: i64 = 20_000;
const DAY_MS: i64 = 86_400_000;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let admin_url = env("ADMIN_URL", "postgres://postgres@127.0.0.1:5432/postgres");
    let name = env("REPORT_DB", "carthage_report_bench");
    let runs: usize = env("REPORT_RUNS", "30").parse()?;
    let sizes: Vec<i64> = env("REPORT_ENTRIES", "1000000,10000000").split(',').map(|s| s.trim().parse()).collect::<Result<_, _>>()?;
    let base = admin_url.rsplit_once('/').map(|(b, _)| b.to_string()).unwrap_or(admin_url.clone());
    sqlx::any::install_default_drivers();
    for entries in sizes {
        {
            use sqlx::Connection;
            let mut admin = sqlx::AnyConnection::connect(&admin_url).await?;
            sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)")).execute(&mut admin).await?;
            sqlx::query(&format!("CREATE DATABASE {name}")).execute(&mut admin).await?;
        }
        let db = store::Db::connect(&format!("{base}/{name}")).await?;
        db.migrate().await?;
        let postings = entries / 2;
        let t = Instant::now();
        generate(&db, postings).await?;
        let generated = t.elapsed();
        let t = Instant::now();
        let rows = rollup::rebuild(&db).await?;
        let rebuilt = t.elapsed();
        store::dialect::exec_script(&mut *db.writer().acquire().await?, "VACUUM ANALYZE").await?;
        let count = |table: &'static str| {
            let db = db.clone();
            async move { sqlx::query_scalar::<_, i64>(&format!("SELECT COUNT(*) FROM {table}")).fetch_one(db.reader()).await }
        };
        println!(
            "{entries} entries ({postings} postings): generated in {:.1} s; rollups rebuilt in {:.1} s: {rows} rows ({} in report_daily, {} player-days)",
            generated.as_secs_f64(),
            rebuilt.as_secs_f64(),
            count("report_daily").await?,
            count("report_player_days").await?,
        );
        let check = rollup::verify(&db).await?;
        assert!(check.consistent(), "rollups differ from the ledger: {check:?}");
        let today = rollup::day_of(kernel::clock::now_ms());
        for (label, by) in [("day", GroupBy::Day), ("product", GroupBy::Product), ("provider", GroupBy::Provider), ("game", GroupBy::Game)] {
            let q = ReportQuery { from_day: today - 365, to_day: today - 1, currency: Some("TND".into()), by };
            let mut times: Vec<Duration> = Vec::with_capacity(runs);
            let mut lines = 0;
            for i in 0..runs + 3 {
                let t = Instant::now();
                let out = rollup::report(&db, &q).await?;
                if i >= 3 {
                    times.push(t.elapsed());
                }
                lines = out.len();
            }
            times.sort();
            let ms = |d: Duration| d.as_secs_f64() * 1000.0;
            println!(
                "  one-year report by {label:<8}: {lines:>5} rows; median {:.1} ms, p95 {:.1} ms, max {:.1} ms ({runs} runs)",
                ms(times[times.len() / 2]),
                ms(times[(times.len() * 95 / 100).min(times.len() - 1)]),
                ms(times[times.len() - 1]),
            );
        }
        db.close().await;
    }
    Ok(())
}

/// A year of postings by `PLAYERS` players, two entries each, written by the database itself.
async fn generate(db: &store::Db, postings: i64) -> anyhow::Result<()> {
    let now = kernel::clock::now_ms();
    let start = rollup::day_start_ms(rollup::day_of(now) - 365);
    let span = 365 * DAY_MS;
    let mut conn = db.writer().acquire().await?;
    // Accounts: each player's real balance (id 1,000,000 + player), the house's.
    let script = format!(
        "INSERT INTO ledger_accounts (id, owner_id, kind, currency, balance, is_house, created_at, updated_at) \
         SELECT 1000000 + p, p, 'real', 'TND', 0, 0, {start}, {start} FROM generate_series(1, {PLAYERS}) p; \
         INSERT INTO ledger_accounts (id, owner_id, kind, currency, balance, is_house, created_at, updated_at) VALUES \
         (1, 0, 'house:games', 'TND', 0, 1, {start}, {start}), (2, 0, 'house:sportsbook', 'TND', 0, 1, {start}, {start}), \
         (3, 0, 'house:payments', 'TND', 0, 1, {start}, {start}), (4, 0, 'house:bonuses', 'TND', 0, 1, {start}, {start});"
    );
    store::dialect::exec_script(&mut conn, &script).await?;
    // g % 20: 0–8 casino stake (203), 9–16 casino win (6), 17 sportsbook stake, 18 deposit,
    // 19 bonus grant. Amounts 0.100 to 50.000 TND.
    let (stake, win, sport, deposit, bonus) = (
        wallet::TxType::BetStake.code(),
        wallet::TxType::BetWin.code(),
        wallet::TxType::SportStake.code(),
        wallet::TxType::PaymentService.code(),
        wallet::TxType::BonusGrant.code(),
    );
    let chunk = 1_000_000i64;
    let mut from = 1i64;
    while from <= postings {
        let to = (from + chunk - 1).min(postings);
        let script = format!(
            "INSERT INTO ledger_transactions (id, tx_type, idempotency_key, request_hash, user_id, comment, metadata, created_at) \
             SELECT g, CASE WHEN g % 20 < 9 THEN {stake} WHEN g % 20 < 17 THEN {win} WHEN g % 20 = 17 THEN {sport} WHEN g % 20 = 18 THEN {deposit} ELSE {bonus} END, \
             'bench:' || g, 'h', 1 + g % {PLAYERS}, '', \
             CASE WHEN g % 20 < 17 THEN '{{\"provider\":\"prov' || (g % 12) || '\",\"gameId\":\"game' || (g % 480) || '\"}}' \
                  WHEN g % 20 = 17 THEN '{{\"sport\":\"' || (g % 6) || '\"}}' \
                  WHEN g % 20 = 18 THEN '{{\"provider\":\"flouci\"}}' ELSE '{{}}' END, \
             {start} + (g - 1) * {span} / {postings} FROM generate_series({from}, {to}) g; \
             INSERT INTO ledger_entries (id, tx_id, account_id, amount, balance_after, created_at) \
             SELECT 2 * g, g, 1000000 + 1 + g % {PLAYERS}, CASE WHEN g % 20 < 9 OR g % 20 = 17 THEN -(100 + g % 49901) ELSE 100 + g % 49901 END, 0, \
             {start} + (g - 1) * {span} / {postings} FROM generate_series({from}, {to}) g; \
             INSERT INTO ledger_entries (id, tx_id, account_id, amount, balance_after, created_at) \
             SELECT 2 * g + 1, g, CASE WHEN g % 20 < 17 THEN 1 WHEN g % 20 = 17 THEN 2 WHEN g % 20 = 18 THEN 3 ELSE 4 END, \
             CASE WHEN g % 20 < 9 OR g % 20 = 17 THEN 100 + g % 49901 ELSE -(100 + g % 49901) END, NULL, \
             {start} + (g - 1) * {span} / {postings} FROM generate_series({from}, {to}) g;"
        );
        store::dialect::exec_script(&mut conn, &script).await?;
        from = to + 1;
    }
    store::dialect::exec_script(&mut conn, "ANALYZE").await?;
    Ok(())
}
