//! Two instances on one PostgreSQL database (ARCHITECTURE §7, docs/OPERATIONS.md "Several
//! instances: duties and fail-over"): one runs the crash round loop, the other stands by and
//! takes over within 5 s when the owner stops; the chain goes on with no gap or repeated
//! round. PostgreSQL only (`TEST_DATABASE_URL`); SQLite serves one instance.

use crate::common::*;
use games::crash::CrashConfig;
use server::app::AppState;
use server::config::Config;
use server::duty;
use std::time::{Duration, Instant};
use store::sqlx::{self, Row};
use store::Backend;

/// A graceful stop lets the crash round in play finish (test rounds last ~1 s).
fn drain(cfg: &mut Config) {
    cfg.crash_drain = Duration::from_secs(5);
}

fn rounds(app: &TestApp) -> u64 {
    app.state.crash.stats().rounds
}

/// `(rounds, distinct numbers, min number, max number, distinct hashes)` of the chain(s).
async fn chain_shape(state: &AppState) -> Vec<(i64, i64, i64, i64, i64, i64)> {
    let rows = sqlx::query(
        "SELECT chain_id, CAST(COUNT(*) AS BIGINT), CAST(COUNT(DISTINCT number) AS BIGINT), CAST(MIN(number) AS BIGINT), \
         CAST(MAX(number) AS BIGINT), CAST(COUNT(DISTINCT hash) AS BIGINT) FROM crash_rounds GROUP BY chain_id ORDER BY chain_id",
    )
    .fetch_all(state.db.reader())
    .await
    .unwrap();
    rows.iter().map(|r| (r.get(0), r.get(1), r.get(2), r.get(3), r.get(4), r.get(5))).collect()
}

#[tokio::test]
async fn two_instances_one_crash_loop_and_a_takeover_within_5_s() {
    if store::testing::postgres_admin_url().is_none() {
        eprintln!("skipped: TEST_DATABASE_URL is not set");
        return;
    }
    let mut a = spawn_app_with(Backend::Postgres, drain).await;
    // The fast rounds of the crash tests, for whichever instance runs the loop.
    a.state.crash.restart(CrashConfig::for_tests()).await;
    let mut b = spawn_peer(&a, drain).await;
    b.state.crash.set_config(CrashConfig::for_tests());

    // A started first and holds every duty; B stands by.
    for d in [duty::CRASH, duty::VIRTUAL_RACES, duty::PAYMENT_JOBS, duty::PROMOTIONS_WEEKLY, duty::HOUSEKEEPING] {
        assert!(a.state.duties.held(d), "A holds {d}");
        assert!(!b.state.duties.held(d), "B stands by for {d}");
    }
    assert!(until(Duration::from_secs(20), async || rounds(&a) >= 3).await.is_some(), "A plays rounds");
    assert_eq!(rounds(&b), 0, "B runs no crash loop");
    assert!(!b.state.virtuals.alive(), "B runs no virtual races loop");
    // Both are healthy; B says it stands by; the metrics say who holds what.
    let (status, health) = b.get_text("/healthz").await;
    assert_eq!(status, 200, "{health}");
    assert!(health.contains("\"virtuals\":\"standby\""), "{health}");
    assert_eq!(a.get_text("/healthz").await.0, 200);
    let (_, metrics) = a.get_text("/metrics").await;
    assert!(metrics.contains("carthage_duty_held{duty=\"crash\"} 1"), "{metrics}");
    let (_, metrics) = b.get_text("/metrics").await;
    assert!(metrics.contains("carthage_duty_held{duty=\"crash\"} 0"), "{metrics}");
    let rows = store::lease::leases(&b.state.db).await.unwrap();
    assert!(rows.iter().any(|r| r.duty == "crash" && r.owner.as_deref() == Some(a.state.duties.owner())), "{rows:?}");

    // A stops (a rolling restart): B takes every duty over and the chain goes on.
    let before = chain_shape(&b.state).await;
    let t0 = Instant::now();
    a.stop_instance().await;
    let took = until(Duration::from_secs(5), async || b.state.duties.held(duty::CRASH)).await.map(|_| t0.elapsed());
    eprintln!("crash duty taken over after {took:?} (A stopped in {:?})", t0.elapsed());
    assert!(took.is_some_and(|d| d <= Duration::from_secs(5)), "taken over within 5 s: {took:?}");
    let first_round = until(Duration::from_secs(10), async || rounds(&b) >= 1).await.map(|_| t0.elapsed());
    eprintln!("first round of the new owner ended {first_round:?} after the stop");
    assert!(until(Duration::from_secs(20), async || rounds(&b) >= 3).await.is_some(), "B plays rounds");
    // A graceful stop finished A's round before handing over: B had nothing to recover.
    assert_eq!(b.state.crash.stats().recovered_rounds, 0, "a graceful stop cuts no round");
    for d in [duty::VIRTUAL_RACES, duty::PAYMENT_JOBS, duty::PROMOTIONS_WEEKLY, duty::HOUSEKEEPING] {
        assert!(until(Duration::from_secs(5), async || b.state.duties.held(d)).await.is_some(), "B took {d}");
    }
    assert!(b.state.virtuals.alive());
    assert_eq!(b.get_text("/healthz").await.0, 200);

    // No gap, no repeat: one chain, numbers 1..=n each once, hashes distinct, every round
    // but the current one settled (A's interrupted round by the recovery rule).
    let after = chain_shape(&b.state).await;
    eprintln!("chain before the stop {before:?}, after {after:?}");
    assert_eq!(after.len(), 1, "one chain");
    let (_, n, distinct, min, max, hashes) = after[0];
    assert_eq!((distinct, min, max, hashes), (n, 1, n, n), "numbers 1..={n} once each");
    assert!(n > before[0].1);
    let unsettled = sqlx::query("SELECT CAST(COUNT(*) AS BIGINT) FROM crash_rounds WHERE settled_at IS NULL")
        .fetch_one(b.state.db.reader())
        .await
        .unwrap()
        .get::<i64, _>(0);
    assert!(unsettled <= 1, "only the round in play is unsettled: {unsettled}");

    b.stop_instance().await;
    a.cleanup().await;
}
