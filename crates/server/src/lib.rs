//! The `carthage` server: configuration, startup, router assembly, the HTTP API, the
//! static player app and the CLI subcommands.

pub mod adjustments;
pub mod api;
pub mod app;
pub mod backup;
pub mod balancer;
pub mod catalogue;
pub mod catalogue_refresh;
pub mod cli;
pub mod config;
pub mod metrics;
pub mod partners;
pub mod seed;
pub mod sockets;
pub mod web_assets;

/// The single-owner duties `serve` runs (crates/store/src/lease.rs; docs/OPERATIONS.md
/// "Several instances: duties and fail-over"). The names are the lease keys: never rename.
pub mod duty {
    /// The crash game's round loop.
    pub const CRASH: &str = "crash";
    /// The virtual races' scheduler and settlement.
    pub const VIRTUAL_RACES: &str = "virtual_races";
    /// The sportsbook's simulated feed (when `SPORTSBOOK_FEED` is the simulator).
    pub const SPORTSBOOK_FEED: &str = "sportsbook_feed";
    /// Payment expiry, reconciliation and repair.
    pub const PAYMENT_JOBS: &str = "payment_jobs";
    /// Weekly cashback accrual and payment, coupon issuing.
    pub const PROMOTIONS_WEEKLY: &str = "promotions_weekly";
    /// Recovery of interrupted rounds, withdrawals and bets; orphan legs; bonus sweeps.
    pub const HOUSEKEEPING: &str = "housekeeping";
    /// Every duty, in the order `carthage duties` lists them.
    pub const ALL: &[&str] = &[CRASH, VIRTUAL_RACES, SPORTSBOOK_FEED, PAYMENT_JOBS, PROMOTIONS_WEEKLY, HOUSEKEEPING];
}

use app::AppState;
use config::Config;
use std::net::SocketAddr;
use store::Db;

/// Connects, migrates and returns the state (what `serve` and the tests do first).
pub async fn prepare(config: Config) -> anyhow::Result<AppState> {
    let pool = store::PoolConfig { max_connections: config.db_max_connections, ..Default::default() };
    let db = Db::connect_with(&config.database_url, pool).await?;
    db.migrate().await?;
    // Report rollups over postings made before they existed: rebuilt once, before this
    // instance's writers start.
    if let Some(rows) = wallet::rollup::ensure_built(&db).await? {
        tracing::info!(rows, "report rollups rebuilt from the ledger");
    }
    // Before any id is made: a node of the id generator no other process holds.
    let id_node = store::ids::hold_node(&db).await?;
    let state = AppState::new(config, db, id_node)?;
    catalogue::install(&state).await?;
    // The slip follows the site settings' limits (spec §3 `limits.bets`, `inbetKf`);
    // housekeeping re-reads them every minute.
    state.betting.use_site_settings(&state.content.settings().await?);
    Ok(state)
}

/// Serves on a bound listener until `shutdown` resolves.
pub async fn serve(
    state: AppState,
    listener: tokio::net::TcpListener,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let accounts = state.accounts.clone();
    // Payments: the sandbox calls back this very server, so it learns the bound address.
    if let Ok(mut addr) = listener.local_addr() {
        if addr.ip().is_unspecified() {
            addr.set_ip(std::net::Ipv4Addr::LOCALHOST.into());
        }
        state.payments.set_local_base(format!("http://{addr}"));
    }
    // Single-owner duties (ARCHITECTURE §7): each runs in the one instance holding its lease;
    // the others stand by and take over within seconds when the owner dies. Each duty's task
    // stops when the duty is lost or handed over, and its new owner resumes from the database.
    let duties = state.duties.clone();
    // Every instance relays the crash game's events and commands and mirrors the line
    // (when the bus leaves the process: PostgreSQL).
    let relays = [
        tokio::spawn(state.crash.clone().run_relay()),
        tokio::spawn(state.betting.clone().run_line_follower()),
    ];
    // The sandbox's outgoing callbacks: every instance (each row is claimed by one sender).
    let payments_callbacks = tokio::spawn(state.payments.clone().run_callbacks());
    {
        let payments = state.payments.clone();
        duties.run(duty::PAYMENT_JOBS, move |cancel| payments.clone().run_jobs(cancel)).await;
    }
    // The crash round loop: `start` settles an interrupted round by the recovery rule and
    // continues the chain after the highest number stored (docs/CRASH.md §Recovery), so a
    // take-over follows the restart path; `stop` aborts as a process crash would.
    let crash = state.crash.clone(); // crash
    {
        let crash = crash.clone();
        // A graceful stop lets the round in play finish (docs/OPERATIONS.md "SIGTERM").
        let grace = state.config.crash_drain;
        duties
            .run_with_grace(duty::CRASH, grace + std::time::Duration::from_secs(1), move |cancel| {
                let crash = crash.clone();
                async move {
                    crash.start().await;
                    cancel.cancelled().await;
                    if cancel.is_graceful() {
                        crash.drain(grace).await;
                    }
                    crash.stop().await;
                }
            })
            .await;
    }
    // The virtual races: the loop's first pass settles what a previous owner left.
    let virtuals = state.virtuals.clone();
    {
        let virtuals = virtuals.clone();
        duties
            .run(duty::VIRTUAL_RACES, move |cancel| {
                // Started here, not in the task: `/healthz` sees the loop once the duty is held.
                virtuals.start();
                let virtuals = virtuals.clone();
                async move {
                    cancel.cancelled().await;
                    virtuals.stop().await;
                }
            })
            .await;
    }
    let single = state.single.clone();
    let cashier = state.cashier.clone();
    let betting = state.betting.clone();
    let content = state.content.clone();
    let orphan_after_ms = match &state.config.sportsbook_feed {
        config::SportsbookFeed::Simulator { .. } => 30 * 60_000,
        config::SportsbookFeed::Off | config::SportsbookFeed::Push { .. } => 72 * 3_600_000,
    };
    if let config::SportsbookFeed::Simulator { seed, config, tick_ms } = &state.config.sportsbook_feed {
        tracing::info!(seed, live = config.live_events, speed = config.speed, "sportsbook: simulated feed");
        let (betting, seed, sim, tick_ms) = (state.betting.clone(), *seed, config.clone(), *tick_ms);
        duties
            .run(duty::SPORTSBOOK_FEED, move |cancel| {
                let (betting, sim) = (betting.clone(), sim.clone());
                async move {
                    // A new owner starts a new simulator run (new event ids); the legs of the
                    // lost run are voided by housekeeping (`void_orphans`).
                    tokio::select! {
                        _ = cancel.cancelled() => {}
                        _ = betting.run_simulator(seed, sim, tick_ms) => {}
                    }
                }
            })
            .await;
    }
    if let config::SportsbookFeed::Push { .. } = &state.config.sportsbook_feed {
        // Push deliveries apply on whichever instance receives them and are mirrored by the
        // others; the duty's holder answers the others' requests for a snapshot of the line.
        let betting = state.betting.clone();
        duties
            .run(duty::SPORTSBOOK_FEED, move |cancel| {
                let betting = betting.clone();
                async move {
                    let _owner = betting.own_feed(true);
                    cancel.cancelled().await;
                }
            })
            .await;
    }
    let promotions = state.promotions.clone();
    // Jackpots: the pools' shares for the stake observer, and the folder. Every instance may
    // fold (a pool's update is conditional on what was read, so a cycle drops once).
    if let Err(e) = promotions.load_pools().await {
        tracing::error!(error = %e.text(), "promotions: reading the jackpot pools failed");
    }
    // Games' wagering categories, for the stake check (in memory).
    if let Err(e) = promotions.load_categories().await {
        tracing::error!(error = %e.text(), "promotions: reading the game categories failed");
    }
    let folder = {
        let promotions = promotions.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(std::time::Duration::from_millis(300));
            loop {
                tick.tick().await;
                if let Err(e) = promotions.fold_jackpots().await {
                    tracing::error!(error = %e.text(), "promotions: folding jackpot contributions failed");
                }
            }
        })
    };
    // Every instance: its own in-memory state (rate-limit buckets, the slip's limits).
    let refresh = {
        let (accounts, content, betting) = (accounts.clone(), content.clone(), betting.clone());
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(std::time::Duration::from_secs(60));
            loop {
                tick.tick().await;
                accounts.limits().housekeeping();
                // The slip's limits follow the site settings (an operator may change them).
                match content.settings().await {
                    Ok(doc) => betting.use_site_settings(&doc),
                    Err(e) => tracing::error!(error = %e.text(), "sportsbook: reading the site settings failed"),
                }
            }
        })
    };
    // The recoveries and sweeps: one owner (each step is keyed, so a take-over repeats nothing).
    duties
        .run(duty::HOUSEKEEPING, move |cancel| {
            let (single, cashier, betting, promotions) = (single.clone(), cashier.clone(), betting.clone(), promotions.clone());
            async move {
                let mut tick = tokio::time::interval(std::time::Duration::from_secs(60));
                loop {
                    tokio::select! {
                        _ = cancel.cancelled() => return,
                        _ = tick.tick() => {}
                    }
                    housekeeping_pass(&single, &cashier, &betting, &promotions, orphan_after_ms).await;
                }
            }
        })
        .await;
    // Weekly cashback and the coupon machine (issue 19, docs/PROMOTIONS.md): every hour the
    // current week's cashback is accrued and the coupons players earned are issued; every
    // minute the previous week is paid if it is not yet (so from Monday 00:00 in the operator's
    // zone), by the one owner of the job, each player once (keyed postings).
    {
        let promotions = state.promotions.clone();
        duties
            .run(duty::PROMOTIONS_WEEKLY, move |cancel| {
                let promotions = promotions.clone();
                async move {
                    let mut tick = tokio::time::interval(std::time::Duration::from_secs(60));
                    let mut last_accrual: Option<std::time::Instant> = None;
                    loop {
                        tokio::select! {
                            _ = cancel.cancelled() => return,
                            _ = tick.tick() => {}
                        }
                        weekly_pass(&promotions, &mut last_accrual).await;
                    }
                }
            })
            .await;
    }
    // The message outbox: every instance runs a worker; claims keep them from sending a
    // message twice.
    let outbox = tokio::spawn(state.outbox.clone().run());
    // `/metrics` on its own address (an internal network), when configured.
    let metrics = match state.config.metrics_bind {
        Some(addr) => {
            let metrics_listener = tokio::net::TcpListener::bind(addr).await?;
            let bound = metrics_listener.local_addr()?;
            let _ = state.metrics_addr.set(bound);
            tracing::info!(%bound, "metrics listening");
            let router = app::metrics_router(state.clone());
            Some(tokio::spawn(async move {
                if let Err(e) = axum::serve(metrics_listener, router).await {
                    tracing::error!(error = %e, "metrics listener failed");
                }
            }))
        }
        None => None,
    };
    // The providers' catalogue refresh (docs/OPERATIONS.md "Provider catalogues"): every
    // instance runs the task; a lease per provider keeps one owner per pass.
    let catalogue_refresh = catalogue_refresh::spawn_periodic(state.clone());
    let app = app::router(state).into_make_service_with_connect_info::<SocketAddr>();
    let result = axum::serve(listener, app).with_graceful_shutdown(shutdown).await;
    // Release every duty (each task stopped first, then unlocked): standby instances take
    // over at once.
    duties.shutdown().await;
    for r in relays {
        r.abort();
    }
    refresh.abort();
    folder.abort();
    outbox.abort();
    if let Some(c) = catalogue_refresh {
        c.abort();
    }
    payments_callbacks.abort();
    if let Some(m) = metrics {
        m.abort();
    }
    // Already stopped with their duties; kept for a task that outlived its grace period.
    crash.stop().await; // crash
    virtuals.stop().await;
    result.map_err(Into::into)
}

/// One pass of the housekeeping duty.
async fn housekeeping_pass(
    single: &games::single::Single,
    cashier: &payments::cashier::Cashier,
    betting: &betting::Betting,
    promotions: &promotions::service::Promotions,
    orphan_after_ms: i64,
) {
    // Studio rounds interrupted (crash, restart) more than 30 s ago are finished.
    match single.recover(30_000).await {
        Ok(r) if r.settled + r.voided > 0 => tracing::warn!(settled = r.settled, voided = r.voided, "studio: interrupted rounds recovered"),
        Ok(_) => {}
        Err(e) => tracing::error!(error = %e.text(), "studio: round recovery failed"),
    }
    // Cashier withdrawals a crash left half done (no hold yet, or a final posting
    // missing) more than a minute ago are settled; idempotent by their keys.
    match cashier.recover(60_000).await {
        Ok(n) if n > 0 => tracing::warn!(settled = n, "cashier: interrupted withdrawals recovered"),
        Ok(_) => {}
        Err(e) => tracing::error!(error = %e.text(), "cashier: withdrawal recovery failed"),
    }
    // Sports bets a crash left `placing` for five minutes: open or rejected by the ledger.
    match betting.recover(300_000, kernel::clock::now_ms()).await {
        Ok(n) if n > 0 => tracing::warn!(finished = n, "sportsbook: interrupted bets recovered"),
        Ok(_) => {}
        Err(e) => tracing::error!(error = %e.text(), "sportsbook: bet recovery failed"),
    }
    // Legs on events the feed lost (the simulator's line does not survive a restart)
    // are void once the event is well past: 30 minutes with the simulator (its
    // matches last minutes), 72 hours otherwise (a real feed's late results).
    match betting.void_orphans(orphan_after_ms, kernel::clock::now_ms()).await {
        Ok(n) if n > 0 => tracing::warn!(legs = n, "sportsbook: legs without a result voided"),
        Ok(_) => {}
        Err(e) => tracing::error!(error = %e.text(), "sportsbook: voiding lost legs failed"),
    }
    // Bonuses: conversions a restart left, expiry, queued ones opening; free bets
    // past their life. Every step is keyed, so a take-over repeats nothing.
    match promotions.sweep().await {
        Ok((converted, expired)) if converted + expired > 0 => tracing::info!(converted, expired, "promotions: bonuses closed"),
        Ok(_) => {}
        Err(e) => tracing::error!(error = %e.text(), "promotions: the bonus sweep failed"),
    }
    if let Err(e) = promotions.expire_free_bets().await {
        tracing::error!(error = %e.text(), "promotions: free-bet expiry failed");
    }
    // Rate-limit buckets that are full again (accounts/src/limits.rs).
    if let Err(e) = accounts::limits::purge_expired(cashier.ledger().db()).await {
        tracing::error!(error = %e, "accounts: purging the rate-limit buckets failed");
    }
}

/// One pass of the weekly promotions duty (every minute; accrual and coupons every hour).
async fn weekly_pass(promotions: &promotions::service::Promotions, last_accrual: &mut Option<std::time::Instant>) {
    if last_accrual.is_none_or(|t| t.elapsed() >= std::time::Duration::from_secs(3_600)) {
        *last_accrual = Some(std::time::Instant::now());
        if let Err(e) = promotions.accrue_current_week().await {
            tracing::error!(error = %e.text(), "promotions: weekly cashback accrual failed");
        }
        match promotions.issue_coupons_pass().await {
            Ok(n) if n > 0 => tracing::info!(coupons = n, "promotions: coupons issued"),
            Ok(_) => {}
            Err(e) => tracing::error!(error = %e.text(), "promotions: coupon pass failed"),
        }
    }
    match promotions.pay_previous_week_if_due().await {
        Ok(Some(run)) if run.paid + run.failed > 0 => tracing::info!(?run, "promotions: weekly cashback paid"),
        Ok(_) => {}
        Err(e) => tracing::error!(error = %e.text(), "promotions: weekly cashback payment failed"),
    }
}

/// Resolves on Ctrl-C or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! { _ = ctrl_c => {}, _ = term => {} }
    tracing::info!("shutting down: finishing in-flight requests");
}
