//! The duty lease (crates/store/src/lease.rs): one holder at a time, take-over within 5 s
//! (a spec bound, asserted loosely) when the holder releases, dies or loses its connection.
//! PostgreSQL cases run only when `TEST_DATABASE_URL` is set.

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use store::lease::{self, Duties};
use store::testing::TestDb;
use store::{Backend, Db};

/// Counts the tasks running now and the most that ever ran at once.
#[derive(Default)]
struct Running {
    now: AtomicI64,
    max: AtomicI64,
    starts: AtomicI64,
}

impl Running {
    fn enter(&self) {
        let n = self.now.fetch_add(1, Ordering::SeqCst) + 1;
        self.max.fetch_max(n, Ordering::SeqCst);
        self.starts.fetch_add(1, Ordering::SeqCst);
    }
    fn leave(&self) {
        self.now.fetch_sub(1, Ordering::SeqCst);
    }
}

async fn start(duties: &Duties, name: &str, running: Arc<Running>) {
    duties
        .run(name, move |cancel| {
            let running = running.clone();
            async move {
                running.enter();
                cancel.cancelled().await;
                running.leave();
            }
        })
        .await;
}

/// Waits until `cond` holds (at most `limit`); the time it took.
async fn until(limit: Duration, cond: impl Fn() -> bool) -> Option<Duration> {
    let t = Instant::now();
    while t.elapsed() < limit {
        if cond() {
            return Some(t.elapsed());
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    None
}

async fn owner_row(db: &Db, duty: &str) -> Option<String> {
    lease::leases(db).await.unwrap().into_iter().find(|r| r.duty == duty).and_then(|r| r.owner)
}

#[tokio::test]
async fn sqlite_holds_a_duty_at_once_and_releases_it_on_shutdown() {
    let (t, db) = TestDb::migrated(Backend::Sqlite).await.unwrap();
    let running = Arc::new(Running::default());
    let duties = Duties::new(db.clone(), "a");
    start(&duties, "job", running.clone()).await;
    assert!(duties.held("job"));
    assert!(until(Duration::from_secs(2), || running.now.load(Ordering::SeqCst) == 1).await.is_some());
    assert_eq!(owner_row(&db, "job").await.as_deref(), Some("a"));
    assert_eq!(lease::locked(&db, &["job"]).await.unwrap(), None);
    duties.shutdown().await;
    assert!(!duties.held("job"));
    assert_eq!(running.now.load(Ordering::SeqCst), 0, "the task was stopped");
    assert_eq!(owner_row(&db, "job").await, None, "released in the row");
    db.close().await;
    t.cleanup().await;
}

#[tokio::test]
async fn a_task_that_ends_by_itself_fails_the_duty() {
    let (t, db) = TestDb::migrated(Backend::Sqlite).await.unwrap();
    let duties = Duties::new(db.clone(), "a");
    duties.run("dies", |_cancel| async {}).await;
    assert!(until(Duration::from_secs(3), || !duties.failed().is_empty()).await.is_some());
    assert!(!duties.held("dies"));
    assert_eq!(duties.failed(), vec![("dies".to_string(), "the task ended".to_string())]);
    // Not taken again by this instance.
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    assert_eq!(duties.acquisitions("dies"), 1);
    duties.shutdown().await;
    db.close().await;
    t.cleanup().await;
}

/// Two instances (two pools) on one PostgreSQL database, the same duty.
struct Pair {
    t: TestDb,
    dbs: [Db; 2],
    duties: [Duties; 2],
    running: Arc<Running>,
}

async fn pair(duty: &str) -> Option<Pair> {
    store::testing::postgres_admin_url()?;
    let t = TestDb::new(Backend::Postgres).await.unwrap();
    let a = Db::connect(&t.url).await.unwrap();
    a.migrate().await.unwrap();
    let b = Db::connect(&t.url).await.unwrap();
    let running = Arc::new(Running::default());
    let duties = [Duties::new(a.clone(), "a"), Duties::new(b.clone(), "b")];
    start(&duties[0], duty, running.clone()).await;
    start(&duties[1], duty, running.clone()).await;
    Some(Pair { t, dbs: [a, b], duties, running })
}

impl Pair {
    fn holders(&self, duty: &str) -> Vec<usize> {
        (0..2).filter(|&i| self.duties[i].held(duty)).collect()
    }

    async fn close(self) {
        for d in &self.duties {
            d.shutdown().await;
        }
        for db in &self.dbs {
            db.close().await;
        }
        self.t.cleanup().await;
    }
}

#[tokio::test]
async fn postgres_one_holder_and_a_handover_on_shutdown() {
    let Some(p) = pair("crash_test").await else { return };
    assert_eq!(p.holders("crash_test"), vec![0], "the first to try holds it");
    // Standby keeps trying and never gets it while the holder lives.
    tokio::time::sleep(Duration::from_millis(2_500)).await;
    assert_eq!(p.holders("crash_test"), vec![0]);
    assert_eq!(p.running.max.load(Ordering::SeqCst), 1);
    assert_eq!(owner_row(&p.dbs[1], "crash_test").await.as_deref(), Some("a"));
    assert_eq!(lease::locked(&p.dbs[1], &["crash_test", "other"]).await.unwrap(), Some(vec![true, false]));

    let t = Instant::now();
    p.duties[0].shutdown().await;
    assert_eq!(p.running.now.load(Ordering::SeqCst), 0, "the holder stopped its task before releasing");
    let took = until(Duration::from_secs(5), || p.duties[1].held("crash_test")).await.map(|_| t.elapsed());
    eprintln!("handover after a shutdown: {took:?}");
    assert!(took.is_some_and(|d| d <= Duration::from_secs(5)), "taken over within 5 s: {took:?}");
    assert_eq!(p.running.max.load(Ordering::SeqCst), 1, "never two owners at once");
    assert!(until(Duration::from_secs(2), || p.running.now.load(Ordering::SeqCst) == 1).await.is_some());
    assert_eq!(owner_row(&p.dbs[1], "crash_test").await.as_deref(), Some("b"));
    p.close().await;
}

#[tokio::test]
async fn postgres_takeover_when_the_holders_connection_dies() {
    let Some(p) = pair("feed_test").await else { return };
    assert_eq!(p.holders("feed_test"), vec![0]);
    // What kill -9 does to the holder's session: the server ends it.
    let key = lease::lock_key("feed_test");
    let admin = &p.dbs[1];
    let t = Instant::now();
    let killed = store::sqlx::query(
        "SELECT CAST(COUNT(pg_terminate_backend(pid)) AS BIGINT) FROM pg_locks WHERE locktype = 'advisory' AND granted \
         AND objsubid = 1 AND classid = CAST($1 AS BIGINT) AND objid = CAST($2 AS BIGINT)",
    )
    .bind(((key as u64) >> 32) as i64)
    .bind((key as u64 & 0xffff_ffff) as i64)
    .fetch_one(admin.reader())
    .await
    .unwrap();
    assert_eq!(store::Row::get::<i64, _>(&killed, 0), 1);
    let noticed = until(Duration::from_secs(5), || !p.duties[0].held("feed_test")).await;
    let took = until(Duration::from_secs(5), || p.duties[1].held("feed_test")).await.map(|_| t.elapsed());
    eprintln!("connection killed: holder stopped after {noticed:?}, taken over after {took:?}");
    assert!(noticed.is_some_and(|d| d <= Duration::from_secs(3)), "the holder noticed: {noticed:?}");
    assert!(took.is_some_and(|d| d <= Duration::from_secs(5)), "taken over within 5 s: {took:?}");
    assert_eq!(p.running.max.load(Ordering::SeqCst), 1, "never two owners at once");
    // The old holder stands by again (its pool still works) and does not take it back.
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    assert_eq!(p.holders("feed_test"), vec![1]);
    p.close().await;
}

#[tokio::test]
async fn postgres_takeover_when_the_holders_pool_closes() {
    let Some(p) = pair("jobs_test").await else { return };
    assert_eq!(p.holders("jobs_test"), vec![0]);
    let t = Instant::now();
    p.dbs[0].close().await;
    let took = until(Duration::from_secs(5), || p.duties[1].held("jobs_test")).await.map(|_| t.elapsed());
    eprintln!("pool closed: taken over after {took:?}");
    assert!(took.is_some_and(|d| d <= Duration::from_secs(5)), "taken over within 5 s: {took:?}");
    assert!(!p.duties[0].held("jobs_test"));
    assert_eq!(p.running.max.load(Ordering::SeqCst), 1, "never two owners at once");
    p.close().await;
}

#[tokio::test]
async fn postgres_a_failed_duty_goes_to_the_other_instance() {
    if store::testing::postgres_admin_url().is_none() {
        return;
    }
    let t = TestDb::new(Backend::Postgres).await.unwrap();
    let a = Db::connect(&t.url).await.unwrap();
    a.migrate().await.unwrap();
    let b = Db::connect(&t.url).await.unwrap();
    let (da, db_) = (Duties::new(a.clone(), "a"), Duties::new(b.clone(), "b"));
    da.run("flaky", |_cancel| async { panic!("boom") }).await;
    let running = Arc::new(Running::default());
    start(&db_, "flaky", running.clone()).await;
    assert!(until(Duration::from_secs(5), || db_.held("flaky")).await.is_some());
    assert_eq!(da.failed(), vec![("flaky".to_string(), "the task panicked".to_string())]);
    da.shutdown().await;
    db_.shutdown().await;
    a.close().await;
    b.close().await;
    t.cleanup().await;
}

/// Every process writing to one PostgreSQL database holds an id-generator node of its own
/// (store::ids): 16 holders get 16 different nodes, a 17th is refused with a clear error,
/// and a holder that goes away frees its node for the next.
#[tokio::test]
async fn postgres_each_holder_gets_its_own_id_node_and_a_dropped_one_frees_it() {
    if store::testing::postgres_admin_url().is_none() {
        return;
    }
    let t = TestDb::new(Backend::Postgres).await.unwrap();
    let db = Db::connect(&t.url).await.unwrap();
    let mut held = Vec::new();
    for _ in 0..kernel::ids::NODES {
        held.push(store::ids::hold_node(&db).await.unwrap());
    }
    let nodes: std::collections::BTreeSet<i64> = held.iter().map(|h| h.node()).collect();
    assert_eq!(nodes.len() as i64, kernel::ids::NODES, "every holder has a node of its own");
    match store::ids::hold_node(&db).await {
        Ok(h) => panic!("a 17th holder got node {}", h.node()),
        Err(e) => assert!(e.to_string().contains("id nodes are held"), "{e}"),
    }
    let freed = held.remove(5).node();
    let started = Instant::now();
    let again = loop {
        match store::ids::hold_node(&db).await {
            Ok(h) => break h,
            Err(e) if started.elapsed() < Duration::from_secs(5) => {
                assert!(e.to_string().contains("id nodes are held"), "{e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            Err(e) => panic!("the dropped holder's node was not freed: {e}"),
        }
    };
    assert_eq!(again.node(), freed, "the freed node is the only one left");
    drop(again);
    drop(held);
    db.close().await;
    t.cleanup().await;
}
