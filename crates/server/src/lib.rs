//! The `carthage` server: configuration, startup, router assembly, the HTTP API, the
//! static player app and the CLI subcommands.

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

use app::AppState;
use config::Config;
use std::net::SocketAddr;
use store::Db;

/// Connects, migrates and returns the state (what `serve` and the tests do first).
pub async fn prepare(config: Config) -> anyhow::Result<AppState> {
    let pool = store::PoolConfig { max_connections: config.db_max_connections, ..Default::default() };
    let db = Db::connect_with(&config.database_url, pool).await?;
    db.migrate().await?;
    let state = AppState::new(config, db)?;
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
    let payments_jobs = tokio::spawn(state.payments.clone().run());
    let payments = state.payments.clone();
    let crash = state.crash.clone(); // crash
    crash.start().await; // crash
    let virtuals = state.virtuals.clone();
    virtuals.start();
    let single = state.single.clone();
    let cashier = state.cashier.clone();
    let betting = state.betting.clone();
    let content = state.content.clone();
    let orphan_after_ms = match &state.config.sportsbook_feed {
        config::SportsbookFeed::Simulator { .. } => 30 * 60_000,
        config::SportsbookFeed::Off | config::SportsbookFeed::Push { .. } => 72 * 3_600_000,
    };
    let feed = match &state.config.sportsbook_feed {
        config::SportsbookFeed::Off | config::SportsbookFeed::Push { .. } => None,
        config::SportsbookFeed::Simulator { seed, config, tick_ms } => {
            tracing::info!(seed, live = config.live_events, speed = config.speed, "sportsbook: simulated feed");
            Some(tokio::spawn(state.betting.clone().run_simulator(*seed, config.clone(), *tick_ms)))
        }
    };
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
    let housekeeping = tokio::spawn(async move {
        let mut tick = tokio::time::interval(std::time::Duration::from_secs(60));
        loop {
            tick.tick().await;
            accounts.limits().housekeeping();
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
            // The slip's limits follow the site settings (an operator may change them).
            match content.settings().await {
                Ok(doc) => betting.use_site_settings(&doc),
                Err(e) => tracing::error!(error = %e.text(), "sportsbook: reading the site settings failed"),
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
            // past their life. Every step is keyed, so instances may run it side by side.
            match promotions.sweep().await {
                Ok((converted, expired)) if converted + expired > 0 => tracing::info!(converted, expired, "promotions: bonuses closed"),
                Ok(_) => {}
                Err(e) => tracing::error!(error = %e.text(), "promotions: the bonus sweep failed"),
            }
            if let Err(e) = promotions.expire_free_bets().await {
                tracing::error!(error = %e.text(), "promotions: free-bet expiry failed");
            }
        }
    });
    // Weekly cashback and the coupon machine (issue 19, docs/PROMOTIONS.md): every hour the
    // current week's cashback is accrued and the coupons players earned are issued; every
    // minute the previous week is paid if it is not yet (so from Monday 00:00 in the operator's
    // zone), by the one owner of the job, each player once (keyed postings).
    let weekly = {
        let promotions = state.promotions.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(std::time::Duration::from_secs(60));
            let mut last_accrual: Option<std::time::Instant> = None;
            loop {
                tick.tick().await;
                if last_accrual.is_none_or(|t| t.elapsed() >= std::time::Duration::from_secs(3_600)) {
                    last_accrual = Some(std::time::Instant::now());
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
        })
    };
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
    housekeeping.abort();
    folder.abort();
    weekly.abort();
    if let Some(f) = feed {
        f.abort();
    }
    outbox.abort();
    if let Some(c) = catalogue_refresh {
        c.abort();
    }
    payments_jobs.abort();
    payments.release_jobs().await;
    if let Some(m) = metrics {
        m.abort();
    }
    crash.stop().await; // crash
    virtuals.stop().await;
    result.map_err(Into::into)
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
