//! Command line of the `carthage` binary. Every subcommand reads the same environment
//! (`DATABASE_URL`, `BIND`, `CARTHAGE_MODE`, …).

use crate::app::AppState;
use crate::config::Config;
use accounts::{NewUser, Role};
use clap::{Parser, Subcommand};
use kernel::money::{format_major, parse_major};
use kernel::Currency;
use std::str::FromStr;
use wallet::BalanceKind;

#[derive(Parser)]
#[command(name = "carthage", version, about = "The Carthage betting and casino platform")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand)]
pub enum Command {
    /// Apply pending migrations, then serve HTTP on BIND (the default command).
    Serve,
    /// Apply pending migrations.
    Migrate,
    /// Seed site content (and demo accounts in demo mode). Idempotent.
    Seed,
    /// Manage users.
    User {
        #[command(subcommand)]
        command: UserCommand,
    },
    /// Manual, audited balance adjustments.
    Wallet {
        #[command(subcommand)]
        command: WalletCommand,
    },
    /// Ledger checks.
    Ledger {
        #[command(subcommand)]
        command: LedgerCommand,
    },
    /// The report rollups (crates/wallet/src/rollup.rs).
    Report {
        #[command(subcommand)]
        command: ReportCommand,
    },
    /// The staff audit trail (append-only, hash-chained).
    Audit {
        #[command(subcommand)]
        command: AuditCommand,
    },
    /// Online, consistent copy of the database to FILE (SQLite: VACUUM INTO while the server
    /// runs; PostgreSQL: pg_dump --format=custom). Never overwrites FILE.
    Backup { file: std::path::PathBuf },
    /// Replace the database with the backup FILE (checked first; SQLite: refused while the
    /// server runs), then verify the ledger. Exit status 0 only when all of it passes.
    Restore { file: std::path::PathBuf },
    /// Print the OpenAPI document.
    Openapi,
    /// A small TCP load balancer in front of instances on this machine (scripts/cluster.sh):
    /// round robin over the instances whose /healthz answers 200; a refused connect fails
    /// over to the next one.
    Balance {
        /// Where to listen (default: BIND).
        #[arg(long)]
        listen: Option<std::net::SocketAddr>,
        /// An instance's address (host:port); repeat for each instance.
        #[arg(long = "backend", required = true)]
        backends: Vec<std::net::SocketAddr>,
    },
    /// Cash floats of the cashier network.
    Float {
        #[command(subcommand)]
        command: FloatCommand,
    },
    /// Cashier locations and their super agents.
    Cashier {
        #[command(subcommand)]
        command: CashierCommand,
    },
    /// The studio's games: catalogue, exact RTP, simulation (no database needed).
    Games {
        #[command(subcommand)]
        command: GamesCommand,
    },
    /// Promotions: the weekly cashback payer, coupon draws.
    Promo {
        #[command(subcommand)]
        command: PromoCommand,
    },
    /// Game providers' catalogues: refresh them from the providers' lists, their status,
    /// the §9 rules (docs/OPERATIONS.md "Provider catalogues").
    Catalogue {
        #[command(subcommand)]
        command: CatalogueCommand,
    },
    /// Who holds each single-owner duty (docs/OPERATIONS.md "Several instances: duties and
    /// fail-over").
    Duties,
}

#[derive(Subcommand)]
pub enum CatalogueCommand {
    /// Fetch every enabled provider's list now (or one, with --provider) and replace its
    /// catalogue; a provider that fails keeps its last one. Exit status 1 when one failed.
    Refresh {
        #[arg(long)]
        provider: Option<String>,
    },
    /// Each provider's last refresh: state, games, images, failures, error.
    Status,
    /// Print the rules document in force (pragmatic swap table, featured ids, Golden Race
    /// whitelist, exclusions, live providers, TV tiles), or replace it with --set FILE (a
    /// JSON object; keys left out keep their defaults).
    Rules {
        #[arg(long)]
        set: Option<std::path::PathBuf>,
    },
}

#[derive(Subcommand)]
pub enum PromoCommand {
    /// Pay the weekly cashback of an ended ISO week (each player once; safe to repeat).
    Cashback {
        /// The ISO week in the operator's zone, e.g. 2026-W48 (default: last week).
        #[arg(long)]
        week: Option<String>,
    },
    /// Announce a coupon draw: publishes SHA-256 of a fresh seed (and the prize per winner).
    DrawAnnounce {
        #[arg(long)]
        id: String,
        #[arg(long)]
        winners: i64,
        /// The prize each winning coupon is paid in real money, major units (e.g. 100).
        #[arg(long)]
        prize: Option<String>,
        /// The prize's currency (default TND).
        #[arg(long, default_value = "TND")]
        prize_currency: String,
    },
    /// Run an announced coupon draw: draws the winners and reveals the seed.
    Draw {
        #[arg(long)]
        id: String,
    },
    // Operator tools (docs/PROMOTIONS.md "Operator tools"): each prints JSON and is audited
    // with the actor `cli:$USER`; the same checks as the admin endpoints (api/promotions_admin.rs).
    /// List the bonus templates.
    Templates,
    /// Create a bonus template (a multiple above the operator's maximum, 10, is refused: 132).
    TemplateCreate {
        #[arg(long)]
        name: String,
        /// casino or sport.
        #[arg(long, default_value = "casino")]
        product: String,
        #[arg(long, default_value = "TND")]
        currency: String,
        /// A fixed bonus in major units, e.g. 50 (or --percent with --cap).
        #[arg(long)]
        amount: Option<String>,
        /// A share of the deposit in percent, e.g. 25.
        #[arg(long)]
        percent: Option<String>,
        /// With --percent: the most the bonus can be, major units.
        #[arg(long)]
        cap: Option<String>,
        /// The wagering multiple.
        #[arg(long)]
        wagering: i64,
        /// bonus or bonus_plus_deposit.
        #[arg(long, default_value = "bonus")]
        base: String,
        #[arg(long)]
        max_bet: Option<String>,
        #[arg(long)]
        max_conversion: Option<String>,
        #[arg(long, default_value_t = 30)]
        life_days: i64,
        /// Sport bonus: the least odds of a leg, e.g. 1.80.
        #[arg(long)]
        min_odds: Option<String>,
    },
    /// List the promo codes with their usage.
    Codes,
    /// Create a promo code.
    CodeCreate {
        #[arg(long)]
        code: String,
        /// bonus, free_bets, deposit_bonus or partner_referral.
        #[arg(long)]
        kind: String,
        /// The bonus template's name (bonus and deposit-bonus codes).
        #[arg(long)]
        template: Option<String>,
        /// Free-bet codes: 10, 50, 100, 250 or 500 (major units).
        #[arg(long)]
        free_bet_value: Option<i64>,
        #[arg(long)]
        free_bet_count: Option<i64>,
        /// The owning partner's user id.
        #[arg(long)]
        partner: Option<i64>,
        /// Epoch milliseconds or RFC 3339 (default: now).
        #[arg(long)]
        valid_from: Option<String>,
        /// Epoch milliseconds or RFC 3339 (default: no end).
        #[arg(long)]
        valid_until: Option<String>,
        /// Activations in all (0: no limit); each player once.
        #[arg(long)]
        max_uses: Option<i64>,
        #[arg(long)]
        new_players_only: bool,
        #[arg(long)]
        currency: Option<String>,
        #[arg(long)]
        min_deposits: Option<i64>,
        /// Stakes needed, major units of --currency.
        #[arg(long)]
        min_turnover: Option<String>,
    },
    /// Block a promo code (players get 2206), or unblock it with --unblock.
    CodeBlock {
        #[arg(long)]
        code: String,
        #[arg(long)]
        unblock: bool,
    },
    /// A free-bet campaign: free bets to players, once per campaign id and player.
    FreeBets {
        #[arg(long)]
        campaign: String,
        /// Player ids: --user 1 --user 2, or --user 1,2,3.
        #[arg(long = "user", required = true, value_delimiter = ',')]
        users: Vec<i64>,
        /// 10, 50, 100, 250 or 500 (major units of each player's currency).
        #[arg(long)]
        value: i64,
        #[arg(long, default_value_t = 1)]
        count: i64,
    },
    /// Grant a bonus from a template to a player (idempotent by --key).
    GrantBonus {
        #[arg(long)]
        user: i64,
        /// The template's name or id.
        #[arg(long)]
        template: String,
        #[arg(long)]
        key: String,
    },
    /// List the jackpot pools.
    Pools,
    /// Create a jackpot pool (its first drop point committed, seed hash published).
    PoolCreate {
        #[arg(long)]
        id: String,
        #[arg(long)]
        num: i64,
        #[arg(long)]
        name: String,
        #[arg(long, default_value = "TND")]
        currency: String,
        /// Major units.
        #[arg(long)]
        seed: String,
        /// Major units.
        #[arg(long)]
        cap: String,
        /// Share of eligible stakes in hundredths of a percent (50 = 0.5 %).
        #[arg(long)]
        share_bps: i64,
        #[arg(long)]
        image: Option<String>,
    },
    /// Demo mode: top a pool up to just below its drop point (the next eligible stake wins it).
    ForceDrop {
        #[arg(long)]
        pool: String,
    },
}

#[derive(Subcommand)]
pub enum GamesCommand {
    /// Print the catalogue: provider, game id, name, declared RTP, volatility.
    List,
    /// Compute a slot's exact RTP by enumerating its reel cycle.
    Rtp {
        #[arg(long)]
        game: String,
    },
    /// Simulate rounds (multi-threaded, progress on stderr): RTP, hit frequency, standard
    /// deviation and 99 % confidence interval.
    Simulate {
        #[arg(long)]
        game: String,
        #[arg(long, default_value_t = 10_000_000)]
        spins: u64,
        /// Worker threads (default: every core).
        #[arg(long)]
        threads: Option<usize>,
    },
}

#[derive(Subcommand)]
pub enum UserCommand {
    /// Create a user of any role (verified, ready to sign in).
    Create {
        /// player, partner, cashier, super_agent, admin, support, finance or content (or 0–7).
        #[arg(long, default_value = "player")]
        role: String,
        #[arg(long)]
        email: Option<String>,
        #[arg(long)]
        phone: Option<String>,
        #[arg(long)]
        password: String,
        #[arg(long, default_value = "TND")]
        currency: String,
        #[arg(long, default_value = "")]
        first_name: String,
        #[arg(long, default_value = "")]
        last_name: String,
    },
    /// Remove a staff member's authenticator (a lost phone): they set up a new one at their
    /// next console sign-in; their console sessions end. Audited.
    TotpReset {
        /// The staff member: id, e-mail or phone.
        who: String,
        #[arg(long)]
        reason: String,
    },
}

#[derive(Subcommand)]
pub enum WalletCommand {
    /// Credit (positive) or debit (negative) a balance of a user, in major units.
    Adjust {
        #[arg(long)]
        user: i64,
        /// real, bonus, free_bet, cashback, weekly_cashback or points.
        #[arg(long, default_value = "real")]
        kind: String,
        /// Signed amount in major units of the user's currency, e.g. 12.500 or -3.
        #[arg(long, allow_hyphen_values = true)]
        amount: String,
        /// Why (kept in the audit log).
        #[arg(long)]
        reason: String,
        /// Who (default: $USER).
        #[arg(long)]
        actor: Option<String>,
        /// Idempotency key (default: a new one); repeat it to retry safely.
        #[arg(long)]
        key: Option<String>,
    },
}

#[derive(Subcommand)]
pub enum FloatCommand {
    /// Issue float to a super agent (positive amount) or take it back (negative), type 210.
    Issue {
        /// The super agent: a user id or login.
        #[arg(long)]
        agent: String,
        /// Major units of the agent's currency, e.g. 5000 or -250.5.
        #[arg(long, allow_hyphen_values = true)]
        amount: String,
        /// Idempotency key (default: a new one); repeat it to retry safely.
        #[arg(long)]
        key: Option<String>,
        /// Who (default: $USER).
        #[arg(long)]
        actor: Option<String>,
    },
}

#[derive(Subcommand)]
pub enum CashierCommand {
    /// Set a cashier's location (listed to players) and, optionally, its super agent.
    Location {
        /// The cashier: a user id or login.
        #[arg(long)]
        cashier: String,
        #[arg(long)]
        first_name: String,
        #[arg(long)]
        address: String,
        #[arg(long)]
        phone: String,
        /// The owning super agent: a user id or login.
        #[arg(long)]
        agent: Option<String>,
    },
}

#[derive(Subcommand)]
pub enum AuditCommand {
    /// Recompute the audit chain from its first row. Exit 0 only when every row follows the
    /// one before it, its content matches its hash, the head names the last row, and no row
    /// was written around the chain.
    Verify,
}

#[derive(Subcommand)]
pub enum ReportCommand {
    /// Recompute every report rollup row from the ledger and compare. Exit 0 only when all agree.
    Verify,
    /// Rewrite every report rollup row from the ledger (one transaction; postings wait).
    Rebuild,
}

#[derive(Subcommand)]
pub enum LedgerCommand {
    /// Exit 0 only when every balance equals its entries and every transaction sums to zero.
    Verify,
}

async fn state() -> anyhow::Result<AppState> {
    let config = Config::from_env()?;
    crate::prepare(config).await
}

pub async fn run(cli: Cli) -> anyhow::Result<i32> {
    match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => {
            let config = Config::from_env()?;
            let bind = config.bind;
            let demo = config.mode == crate::config::Mode::Demo;
            let state = crate::prepare(config).await?;
            let listener = tokio::net::TcpListener::bind(bind).await?;
            let url = format!("http://{}", listener.local_addr()?);
            tracing::info!(%url, demo, "carthage is serving");
            println!("Carthage is serving on {url}");
            if demo {
                print_demo_accounts();
            }
            crate::serve(state, listener, crate::shutdown_signal()).await?;
            Ok(0)
        }
        Command::Migrate => {
            let config = Config::from_env()?;
            let db = store::Db::connect(&config.database_url).await?;
            let applied = db.migrate().await?;
            println!("migrations applied: {applied:?}");
            Ok(0)
        }
        Command::Seed => {
            let state = state().await?;
            crate::seed::run(&state).await.map_err(|e| anyhow::anyhow!(e.text()))?;
            println!("seeded");
            if state.is_demo() {
                print_demo_accounts();
            }
            Ok(0)
        }
        Command::User { command: UserCommand::Create { role, email, phone, password, currency, first_name, last_name } } => {
            let role = Role::parse(&role).ok_or_else(|| anyhow::anyhow!("unknown role {role}"))?;
            let currency = Currency::from_str(&currency).map_err(|_| anyhow::anyhow!("unknown currency {currency}"))?;
            if email.is_none() && phone.is_none() {
                anyhow::bail!("give --email or --phone");
            }
            let state = state().await?;
            let user = state
                .accounts
                .create_user(NewUser { email, phone, password, role, currency, first_name, last_name, registered_via: "cli" })
                .await
                .map_err(|e| anyhow::anyhow!("{} (code {})", e.text(), e.code.code()))?;
            println!("created user {} ({}, role {})", user.id, user.login(), role.name());
            Ok(0)
        }
        Command::User { command: UserCommand::TotpReset { who, reason } } => {
            if reason.trim().is_empty() {
                anyhow::bail!("--reason is required");
            }
            let state = state().await?;
            let user = find_user(&state, &who).await?;
            if !user.role.is_staff() {
                anyhow::bail!("user {} is not a staff member ({})", user.id, user.role.name());
            }
            let actor = format!("cli:{}", std::env::var("USER").unwrap_or_else(|_| "operator".into()));
            let had = state.accounts.reset_totp(user.id, &actor, reason.trim()).await.map_err(|e| anyhow::anyhow!(e.text()))?;
            println!(
                "user {}: {}; their console sessions ended",
                user.id,
                if had { "authenticator removed, set up a new one at the next sign-in" } else { "had no authenticator" }
            );
            Ok(0)
        }
        Command::Wallet { command: WalletCommand::Adjust { user, kind, amount, reason, actor, key } } => {
            let kind = BalanceKind::from_str(&kind).map_err(|_| anyhow::anyhow!("unknown balance kind {kind}"))?;
            if reason.trim().is_empty() {
                anyhow::bail!("--reason is required");
            }
            let state = state().await?;
            let u = state
                .accounts
                .user_by_id(user)
                .await
                .map_err(|e| anyhow::anyhow!(e.text()))?
                .ok_or_else(|| anyhow::anyhow!("no user {user}"))?;
            let minor = parse_major(&amount, u.currency).map_err(|e| anyhow::anyhow!("--amount: {e}"))?;
            if minor == 0 {
                anyhow::bail!("--amount must not be zero");
            }
            let actor = actor.or_else(|| std::env::var("USER").ok()).unwrap_or_else(|| "cli".into());
            let key = key.unwrap_or_else(|| format!("adjust:{}", kernel::ids::next_id()));
            match state.ledger.adjust(u.id, u.currency, kind, minor, &actor, &reason, key.clone()).await {
                Ok(r) => {
                    let after = r.balance_after(u.id, kind).unwrap_or(0);
                    println!(
                        "{} transaction {} ({}): {} {} balance of user {} is now {} {}",
                        if r.replayed { "replayed" } else { "posted" },
                        r.tx_id,
                        key,
                        kind.as_str(),
                        format_major(minor, u.currency),
                        u.id,
                        format_major(after, u.currency),
                        u.currency
                    );
                    Ok(0)
                }
                Err(e) => {
                    eprintln!("refused: {e}");
                    Ok(1)
                }
            }
        }
        Command::Ledger { command: LedgerCommand::Verify } => {
            let config = Config::from_env()?;
            let db = store::Db::connect(&config.database_url).await?;
            db.migrate().await?;
            let ledger = wallet::Ledger::new(db.clone());
            let report = ledger.verify().await?;
            println!(
                "ledger: {} accounts, {} transactions, {} entries checked",
                report.accounts, report.transactions, report.entries
            );
            // The promotions' own invariants (jackpot pools against house:jackpots, bonus money).
            let promotions = promotions::service::Promotions::new(db.clone(), ledger).verify().await.map_err(|e| anyhow::anyhow!(e.text()))?;
            for p in &promotions {
                println!("PROMOTIONS: {p}");
            }
            // The report rollups written with the postings (`carthage report verify`).
            let rollups = wallet::rollup::verify(&db).await?;
            if !rollups.consistent() {
                println!("REPORT ROLLUPS DIFFER from the ledger: {} rows; `carthage report rebuild` rewrites them", rollups.mismatched + rollups.active_days_mismatched);
            }
            if report.is_consistent() && promotions.is_empty() && rollups.consistent() {
                println!("ledger is consistent");
                Ok(0)
            } else {
                if !report.is_consistent() {
                    println!("LEDGER IS INCONSISTENT:\n{}", serde_json::to_string_pretty(&report)?);
                }
                Ok(1)
            }
        }
        Command::Report { command } => {
            let config = Config::from_env()?;
            let db = store::Db::connect(&config.database_url).await?;
            db.migrate().await?;
            match command {
                ReportCommand::Rebuild => {
                    let rows = wallet::rollup::rebuild(&db).await?;
                    println!("report rollups rebuilt: {rows} rows");
                    Ok(0)
                }
                ReportCommand::Verify => {
                    let r = wallet::rollup::verify(&db).await?;
                    println!("report rollups: {} rows checked", r.rows);
                    if r.consistent() {
                        println!("report rollups agree with the ledger");
                        Ok(0)
                    } else {
                        println!("REPORT ROLLUPS DIFFER from the ledger: {} rows, {} days of active players", r.mismatched, r.active_days_mismatched);
                        for e in &r.examples {
                            println!("  {e}");
                        }
                        Ok(1)
                    }
                }
            }
        }
        Command::Audit { command: AuditCommand::Verify } => {
            let config = Config::from_env()?;
            let db = store::Db::connect(&config.database_url).await?;
            db.migrate().await?;
            let report = store::audit::verify(&db).await?;
            println!("audit: {} rows checked, head at row {} ({})", report.rows, report.head_seq, report.head_hash);
            if report.is_consistent() {
                println!("audit chain is intact");
                Ok(0)
            } else {
                if let Some(b) = &report.first_break {
                    println!("AUDIT CHAIN BROKEN at row {}: {}", b.seq, b.reason);
                }
                if report.unchained > 0 {
                    println!("AUDIT: {} rows written outside the chain", report.unchained);
                }
                Ok(1)
            }
        }
        Command::Backup { file } => {
            let config = Config::from_env()?;
            let r = crate::backup::backup(&config.database_url, &file).await?;
            println!("backup written to {} ({} bytes, {} ms)", r.path.display(), r.bytes, r.elapsed_ms);
            Ok(0)
        }
        Command::Restore { file } => {
            let config = Config::from_env()?;
            let r = crate::backup::restore(&config.database_url, &file).await?;
            println!("restored {} (schema version {}, migrations applied now: {:?}) in {} ms", r.source.display(), r.schema_version, r.migrations_applied, r.elapsed_ms);
            println!("ledger: {} accounts, {} transactions, {} entries checked", r.ledger.accounts, r.ledger.transactions, r.ledger.entries);
            for p in &r.promotions {
                println!("PROMOTIONS: {p}");
            }
            println!("audit: {} rows checked", r.audit.rows);
            if r.is_consistent() {
                println!("ledger is consistent; audit chain is intact");
                Ok(0)
            } else {
                if !r.ledger.is_consistent() {
                    println!("LEDGER IS INCONSISTENT:\n{}", serde_json::to_string_pretty(&r.ledger)?);
                }
                if !r.audit.is_consistent() {
                    println!("AUDIT CHAIN IS BROKEN:\n{}", serde_json::to_string_pretty(&r.audit)?);
                }
                Ok(1)
            }
        }
        Command::Openapi => {
            print!("{}", crate::api::openapi_json());
            Ok(0)
        }
        Command::Duties => {
            let config = Config::from_env()?;
            let db = store::Db::connect(&config.database_url).await?;
            db.migrate().await?;
            print!("{}", duties_report(&db).await?);
            Ok(0)
        }
        Command::Balance { listen, backends } => {
            let listen = match listen {
                Some(a) => a,
                None => std::env::var("BIND").unwrap_or_else(|_| "127.0.0.1:8080".into()).parse()?,
            };
            let listener = tokio::net::TcpListener::bind(listen).await?;
            println!("balancing http://{} over {}", listener.local_addr()?, backends.iter().map(ToString::to_string).collect::<Vec<_>>().join(", "));
            crate::balancer::run(listener, crate::balancer::Balancer::new(&backends), crate::shutdown_signal()).await;
            Ok(0)
        }
        Command::Float { command: FloatCommand::Issue { agent, amount, key, actor } } => {
            let state = state().await?;
            let agent = find_user(&state, &agent).await?;
            let minor = parse_major(&amount, agent.currency).map_err(|e| anyhow::anyhow!("--amount: {e}"))?;
            let actor = actor.or_else(|| std::env::var("USER").ok()).unwrap_or_else(|| "cli".into());
            let key = key.unwrap_or_else(|| kernel::ids::next_id().to_string());
            match state.cashier.issue_float(agent.id, minor, &key, &format!("cli:{actor}")).await {
                Ok(r) => {
                    let after = r.balance_after(agent.id, BalanceKind::Float).unwrap_or(0);
                    println!(
                        "{} transaction {} (key {key}): float of user {} is now {} {}",
                        if r.replayed { "replayed" } else { "posted" },
                        r.tx_id,
                        agent.id,
                        format_major(after, agent.currency),
                        agent.currency
                    );
                    Ok(0)
                }
                Err(e) => {
                    eprintln!("refused: {}", e.text());
                    Ok(1)
                }
            }
        }
        Command::Cashier { command: CashierCommand::Location { cashier, first_name, address, phone, agent } } => {
            let state = state().await?;
            let cashier = find_user(&state, &cashier).await?;
            let result = async {
                state.cashier.set_location(cashier.id, &first_name, &address, &phone).await?;
                if let Some(agent) = agent {
                    let agent = find_user(&state, &agent).await.map_err(|e| kernel::AppError::with_detail(kernel::ErrorCode::NoSuchUser, e.to_string()))?;
                    state.cashier.assign_to_agent(cashier.id, agent.id).await?;
                }
                Ok::<(), kernel::AppError>(())
            }
            .await;
            match result {
                Ok(()) => {
                    println!("cashier {} located: {}", cashier.id, payments::cashier::network::location_name(&first_name, &address, &phone));
                    Ok(0)
                }
                Err(e) => {
                    eprintln!("refused: {}", e.text());
                    Ok(1)
                }
            }
        }
        Command::Promo { command } => {
            let state = state().await?;
            let p = &state.promotions;
            let result = match command {
                PromoCommand::Cashback { week } => async {
                    let week = match week {
                        Some(w) => p.week(&w)?,
                        None => p.previous_week()?,
                    };
                    let run = p.pay_weekly_cashback(&week).await?;
                    Ok::<String, kernel::AppError>(serde_json::to_string_pretty(&run).unwrap_or_default())
                }
                .await,
                PromoCommand::DrawAnnounce { id, winners, prize, prize_currency } => async {
                    let actor = format!("cli:{}", std::env::var("USER").unwrap_or_else(|_| "cli".into()));
                    let prize = match prize {
                        Some(amount) => {
                            let amount = serde_json::from_str::<serde_json::Number>(amount.trim())
                                .map_err(|_| kernel::AppError::with_detail(kernel::ErrorCode::InvalidField, "--prize: a number such as 100 or 12.5"))?;
                            let req = crate::api::promotions_extra::DrawPrizeRequest { amount, currency: prize_currency, kind: None };
                            Some(crate::api::promotions_extra::draw_prize(&req)?)
                        }
                        None => None,
                    };
                    let d = p.announce_coupon_draw(&id, winners, prize, &actor).await?;
                    Ok(serde_json::to_string_pretty(&d).unwrap_or_default())
                }
                .await,
                PromoCommand::Draw { id } => p.run_coupon_draw(&id).await.map(|d| serde_json::to_string_pretty(&d).unwrap_or_default()),
                other => promo_operator(&state, other).await,
            };
            match result {
                Ok(text) => {
                    println!("{text}");
                    Ok(0)
                }
                Err(e) => {
                    eprintln!("refused: {}", e.text());
                    Ok(1)
                }
            }
        }
        Command::Catalogue { command } => {
            let state = state().await?;
            match command {
                CatalogueCommand::Refresh { provider } => {
                    let all = crate::catalogue_refresh::feeds(&state);
                    let names: Vec<String> = all.iter().map(|f| f.provider().to_string()).collect();
                    let chosen: Vec<_> = match provider.as_deref().map(|p| p.trim().to_ascii_lowercase()) {
                        Some(p) => all.into_iter().filter(|f| f.provider() == p).collect(),
                        None => all,
                    };
                    if chosen.is_empty() {
                        eprintln!("no enabled provider with a list to refresh (enabled: {})", if names.is_empty() { "none".into() } else { names.join(", ") });
                        return Ok(1);
                    }
                    let mut failed = 0;
                    for feed in chosen {
                        let r = crate::catalogue_refresh::refresh(state.clone(), feed, true).await;
                        match r.outcome {
                            "refreshed" => println!("{}: {} games, {} images cached, {} left out", r.provider, r.games, r.images, r.dropped),
                            "skipped" => println!("{}: skipped (another instance is refreshing it)", r.provider),
                            _ => {
                                failed += 1;
                                println!("{}: failed: {} (its last catalogue is kept)", r.provider, r.error.unwrap_or_default());
                            }
                        }
                    }
                    Ok(if failed > 0 { 1 } else { 0 })
                }
                CatalogueCommand::Status => {
                    let list = state.casino.feeds().statuses().await.map_err(|e| anyhow::anyhow!(e.text()))?;
                    println!("{}", pretty(&list));
                    Ok(0)
                }
                CatalogueCommand::Rules { set } => {
                    let feeds = state.casino.feeds();
                    if let Some(path) = set {
                        let text = std::fs::read_to_string(&path).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
                        let doc: serde_json::Value = serde_json::from_str(&text).map_err(|e| anyhow::anyhow!("{}: not JSON: {e}", path.display()))?;
                        match feeds.put_rules(&doc).await {
                            Ok(rules) => println!("{}", pretty(&rules)),
                            Err(e) => {
                                eprintln!("refused: {}", e.text());
                                return Ok(1);
                            }
                        }
                    } else {
                        println!("{}", pretty(&feeds.rules().await.map_err(|e| anyhow::anyhow!(e.text()))?));
                    }
                    Ok(0)
                }
            }
        }
        Command::Games { command } => {
            let text = match command {
                GamesCommand::List => Ok(studio::report::list_text()),
                GamesCommand::Rtp { game } => studio::report::rtp_text(&game),
                GamesCommand::Simulate { game, spins, threads } => {
                    let threads = threads.unwrap_or_else(|| std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1));
                    studio::report::simulate_text(&game, spins, threads)
                }
            };
            match text {
                Ok(t) => {
                    print!("{t}");
                    Ok(0)
                }
                Err(e) => {
                    eprintln!("{e}");
                    Ok(2)
                }
            }
        }
    }
}

fn print_demo_accounts() {
    println!("Demo accounts (CARTHAGE_MODE=demo):");
    for a in crate::seed::DEMO_ACCOUNTS {
        let phone = a.phone.map(|p| format!(" / phone +{p}")).unwrap_or_default();
        let totp = a.totp.map(|t| format!("  authenticator: {t}")).unwrap_or_default();
        println!("  {:<12} {}{}  password: {}{}", a.role.name(), a.email, phone, a.password, totp);
    }
    println!("Promo codes (sign-up or profile):");
    for (code, what) in crate::seed::DEMO_PROMO_CODES {
        println!("  {code:<12} {what}");
    }
    println!("Staff sign in with a code of their authenticator (python3 scripts/totp.py SECRET prints it)");
    println!("Operator tools: carthage promo --help (docs/PROMOTIONS.md \"Operator tools\")");
    println!("Messages (SMS, e-mail) are readable at GET /api/dev/outbox?to=<phone or e-mail>");
}

/// A user by id or login (e-mail or phone).
async fn find_user(state: &AppState, who: &str) -> anyhow::Result<accounts::User> {
    let found = match who.trim().parse::<i64>() {
        Ok(id) => state.accounts.user_by_id(id).await,
        Err(_) => state.accounts.find_by_login(who.trim()).await,
    };
    found.map_err(|e| anyhow::anyhow!(e.text()))?.ok_or_else(|| anyhow::anyhow!("no user {who}"))
}

fn pretty<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default()
}

/// A time as epoch milliseconds or RFC 3339.
fn cli_time(text: &str) -> Result<i64, kernel::AppError> {
    let text = text.trim();
    if let Ok(ms) = text.parse::<i64>() {
        return Ok(ms);
    }
    text.parse::<promotions::periods::Timestamp>()
        .map(|t| t.as_millisecond())
        .map_err(|_| kernel::AppError::with_detail(kernel::ErrorCode::BadRequest, format!("{text}: epoch milliseconds or RFC 3339")))
}

/// A request built from the arguments, read as the endpoint reads its body (400 when it breaks it).
fn cli_request<T: serde::de::DeserializeOwned>(value: serde_json::Value) -> Result<T, kernel::AppError> {
    serde_json::from_value(value).map_err(|e| kernel::AppError::with_detail(kernel::ErrorCode::BadRequest, e.to_string()))
}

/// The operator's `carthage promo …` subcommands (all but cashback and the coupon draws): the
/// admin endpoints' own functions, with the actor `cli:$USER`; the answer as pretty JSON.
pub async fn promo_operator(state: &AppState, command: PromoCommand) -> Result<String, kernel::AppError> {
    use crate::api::promotions_admin as admin;
    use serde_json::json;
    let actor = format!("cli:{}", std::env::var("USER").unwrap_or_else(|_| "cli".into()));
    let p = &state.promotions;
    Ok(match command {
        PromoCommand::Cashback { .. } | PromoCommand::DrawAnnounce { .. } | PromoCommand::Draw { .. } => {
            return Err(kernel::AppError::with_detail(kernel::ErrorCode::BadRequest, "handled by `carthage promo`"))
        }
        PromoCommand::Templates => pretty(&p.templates().await?),
        PromoCommand::TemplateCreate { name, product, currency, amount, percent, cap, wagering, base, max_bet, max_conversion, life_days, min_odds } => {
            let req = cli_request(json!({
                "name": name, "product": product, "currency": currency.to_ascii_uppercase(), "amount": amount, "percent": percent, "cap": cap,
                "wageringMultiple": wagering, "wageringBase": base, "maxBet": max_bet, "maxConversion": max_conversion,
                "lifeDays": life_days, "minOdds": min_odds,
            }))?;
            pretty(&admin::do_create_template(state, req, &actor).await?)
        }
        PromoCommand::Codes => pretty(&p.codes(None).await?),
        PromoCommand::CodeCreate { code, kind, template, free_bet_value, free_bet_count, partner, valid_from, valid_until, max_uses, new_players_only, currency, min_deposits, min_turnover } => {
            let req = cli_request(json!({
                "code": code, "kind": kind, "template": template, "freeBetValue": free_bet_value, "freeBetCount": free_bet_count,
                "partnerId": partner, "validFrom": valid_from.as_deref().map(cli_time).transpose()?,
                "validUntil": valid_until.as_deref().map(cli_time).transpose()?, "maxUses": max_uses, "newPlayersOnly": new_players_only,
                "currency": currency.map(|c| c.to_ascii_uppercase()), "minDeposits": min_deposits, "minTurnover": min_turnover,
            }))?;
            pretty(&admin::do_create_code(state, req, &actor).await?)
        }
        PromoCommand::CodeBlock { code, unblock } => pretty(&admin::do_block_code(state, &code, !unblock, &actor).await?),
        PromoCommand::FreeBets { campaign, users, value: v, count } => {
            let req = cli_request(json!({ "campaign": campaign, "userIds": users, "value": v, "count": count }))?;
            pretty(&admin::do_grant_free_bets(state, req, &actor).await?)
        }
        PromoCommand::GrantBonus { user, template, key } => {
            let req = cli_request(json!({ "userId": user, "template": template, "key": key }))?;
            pretty(&admin::do_grant_bonus(state, req, &actor).await?)
        }
        PromoCommand::Pools => pretty(&p.jackpots().await?),
        PromoCommand::PoolCreate { id, num, name, currency, seed, cap, share_bps, image } => {
            let req = cli_request(json!({
                "id": id, "num": num, "name": name, "currency": currency.to_ascii_uppercase(), "seedAmount": seed, "cap": cap,
                "shareBps": share_bps, "image": image,
            }))?;
            pretty(&admin::do_create_pool(state, req, &actor).await?)
        }
        PromoCommand::ForceDrop { pool } => pretty(&json!({ "pool": pool, "added": admin::do_force_drop(state, &pool, &actor).await? })),
    })
}

/// `carthage duties`: each duty's owner from `duty_leases`, checked on PostgreSQL against
/// the advisory locks (the truth: a row whose lock is free belongs to an owner that died).
async fn duties_report(db: &store::Db) -> anyhow::Result<String> {
    let rows = store::lease::leases(db).await?;
    let locked = store::lease::locked(db, crate::duty::ALL).await?;
    let now = kernel::clock::now_ms();
    let mut out = format!("{:<18} {:<10} {:<40} {:>10} {:>10}\n", "DUTY", "STATE", "OWNER", "SINCE", "HEARTBEAT");
    for (i, duty) in crate::duty::ALL.iter().enumerate() {
        let row = rows.iter().find(|r| r.duty == *duty);
        let lock = locked.as_ref().map(|l| l[i]);
        let owner = row.and_then(|r| r.owner.clone());
        let state = match (lock, &owner) {
            (Some(true), _) => "held",
            (Some(false), Some(_)) => "orphaned", // the owner died: its lock is free, a standby takes it
            (None, Some(_)) if row.is_some_and(|r| now - r.heartbeat_at > 3 * store::lease::HEARTBEAT_EVERY.as_millis() as i64) => "stale",
            (None, Some(_)) => "held",
            (_, None) => "free",
        };
        let ago = |at: i64| format!("{} s ago", (now - at).max(0) / 1000);
        out.push_str(&format!(
            "{:<18} {:<10} {:<40} {:>10} {:>10}\n",
            duty,
            state,
            owner.as_deref().unwrap_or("-"),
            row.map(|r| ago(r.acquired_at)).unwrap_or_else(|| "-".into()),
            row.map(|r| ago(r.heartbeat_at)).unwrap_or_else(|| "-".into()),
        ));
    }
    Ok(out)
}
