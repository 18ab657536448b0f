//! The studio's own virtual races (docs/VIRTUALS.md): horses, greyhounds and speedway on a
//! fixed schedule, outcomes from a pre-committed hash chain, prices from the runners'
//! published strengths with a declared overround, win / place / forecast bets staked and
//! paid through the casino's provider wallet (provider `studio`).
//!
//! * [`maths`]: the pure part (field, Plackett–Luce draw, prices, settlement).
//! * [`chain`]: the hash chain in the database.
//! * `engine`: one pass of the loop ([`Virtuals::tick`]) — schedule, close, settle — and the
//!   loop that runs it every `tick_ms`, never dying on one bad race or bet.
//! * `bets`: placement (idempotent by the player's key) and the player's bets.
//!
//! The service reads time from its own clock ([`Virtuals::now`]): the real clock plus an
//! offset that only tests move ([`Virtuals::advance`]), so a test runs a race without
//! waiting minutes.
//!
//! Several instances (PostgreSQL, ARCHITECTURE §7): every step of a pass is conditional on
//! the state it reads (a race closes once, a bet settles once, every posting has its key),
//! so two passes at once repeat nothing; scheduling alone must have one owner (the advisory
//! lock the crash loop will take), as two schedulers could number the same slot twice — the
//! unique `(sport, closes_at)` then refuses the second pass whole.

mod bets;
pub mod chain;
mod engine;
pub mod maths;

pub use bets::{BetRequest, Bettor};
pub use engine::TickReport;

use casino::Casino;
use kernel::clock::now_ms;
use kernel::money::Fixed;
use kernel::{AppError, ErrorCode};
use maths::{Prices, Runner, Sport};
use serde::Serialize;
use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::time::{Duration, Instant};
use std::sync::{Arc, Mutex};
use store::sqlx::{self, Row};
use store::Db;
use utoipa::ToSchema;

/// The game session every virtual-race stake names (provider `studio`).
pub const SESSION_GAME_ID: &str = "virtuals";

/// One sport's timetable: a race closes every `every_ms` (on multiples of it since the
/// epoch) and is shown running for `run_ms` before it is settled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timetable {
    pub sport: Sport,
    pub every_ms: i64,
    pub run_ms: i64,
}

#[derive(Debug, Clone)]
pub struct VirtualsConfig {
    /// In the lobby's order.
    pub timetables: Vec<Timetable>,
    /// Races are scheduled (and open for betting) this far ahead.
    pub horizon_ms: i64,
    /// A race scheduled now closes at least this much later (no race opens for seconds only).
    pub min_open_ms: i64,
    /// The declared overround of every market, in percent (115: the implied probabilities of
    /// a market sum to 115 % before the prices are floored).
    pub overround_pct: u32,
    /// How often the loop runs a pass.
    pub tick_ms: u64,
    pub chain_length: u64,
    pub checkpoint_every: u64,
    /// The public salt of a new chain; random when not set.
    pub salt: Option<String>,
}

impl Default for VirtualsConfig {
    fn default() -> Self {
        VirtualsConfig {
            timetables: vec![
                Timetable { sport: Sport::Horses, every_ms: 180_000, run_ms: 40_000 },
                Timetable { sport: Sport::Greyhounds, every_ms: 120_000, run_ms: 30_000 },
                Timetable { sport: Sport::Speedway, every_ms: 240_000, run_ms: 50_000 },
            ],
            horizon_ms: 12 * 60_000,
            min_open_ms: 30_000,
            overround_pct: 115,
            tick_ms: 500,
            // About 1,600 races a day: a million lasts almost two years. Debug builds (tests,
            // `cargo run`) walk a short chain.
            chain_length: if cfg!(debug_assertions) { 20_000 } else { 1_000_000 },
            checkpoint_every: if cfg!(debug_assertions) { 500 } else { 5_000 },
            salt: None,
        }
    }
}

fn env_i64(key: &str) -> Option<i64> {
    std::env::var(key).ok().and_then(|v| v.trim().parse().ok()).filter(|v: &i64| *v > 0)
}

impl VirtualsConfig {
    /// Defaults, with `VIRTUALS_HORSES_EVERY_S`, `VIRTUALS_GREYHOUNDS_EVERY_S`,
    /// `VIRTUALS_SPEEDWAY_EVERY_S`, `VIRTUALS_OVERROUND` (percent, 100–200), `VIRTUALS_SALT`,
    /// `VIRTUALS_CHAIN_LENGTH` and `VIRTUALS_SPEED` when set. `VIRTUALS_SPEED` divides every
    /// interval, run and window by that factor (browser tests: races every few seconds); the
    /// draw and the prices are unchanged.
    pub fn from_env() -> VirtualsConfig {
        let mut c = VirtualsConfig::default();
        for t in &mut c.timetables {
            let key = format!("VIRTUALS_{}_EVERY_S", t.sport.id().to_ascii_uppercase());
            if let Some(s) = env_i64(&key) {
                t.every_ms = s * 1_000;
                t.run_ms = t.run_ms.min(t.every_ms / 2).max(1_000);
            }
        }
        if let Some(o) = env_i64("VIRTUALS_OVERROUND") {
            c.overround_pct = o.clamp(100, 200) as u32;
        }
        if let Some(n) = env_i64("VIRTUALS_CHAIN_LENGTH") {
            c.chain_length = n as u64;
        }
        c.salt = std::env::var("VIRTUALS_SALT").ok().map(|s| s.trim().to_string()).filter(|s| !s.is_empty());
        if let Some(speed) = env_i64("VIRTUALS_SPEED") {
            c = c.faster(speed.clamp(1, 1_000));
        }
        c
    }

    /// Every interval, run and window divided by `speed` (at least a second each).
    pub fn faster(mut self, speed: i64) -> VirtualsConfig {
        for t in &mut self.timetables {
            t.every_ms = (t.every_ms / speed).max(1_000);
            t.run_ms = (t.run_ms / speed).max(1_000);
        }
        self.horizon_ms = (self.horizon_ms / speed).max(2_000);
        self.min_open_ms = (self.min_open_ms / speed).max(1_000);
        self
    }

    /// Tests: the production timetable (tests move the clock), a short chain, a fixed salt.
    pub fn for_tests() -> VirtualsConfig {
        VirtualsConfig { chain_length: 2_000, checkpoint_every: 100, salt: Some("carthage-virtuals-test-salt".into()), tick_ms: 200, ..Default::default() }
    }

    pub fn timetable(&self, sport: Sport) -> Option<Timetable> {
        self.timetables.iter().copied().find(|t| t.sport == sport)
    }
}

// ------------------------------------------------------------------ views (API)

/// One runner with its prices (null: not offered).
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VirtualRunner {
    pub number: u32,
    pub name: String,
    /// The runner's weight in the draw: P(win) = strength / Σ strengths.
    pub strength: u32,
    /// Decimal price of a win bet (two decimals; stake included).
    #[schema(value_type = Option<f64>)]
    pub win: Option<Fixed>,
    /// Decimal price of a place bet (paid on the first `places` finishers).
    #[schema(value_type = Option<f64>)]
    pub place: Option<Fixed>,
}

/// A race as the lobby and the race page show it.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VirtualRace {
    pub id: i64,
    /// `horses`, `greyhounds` or `speedway`.
    pub sport: String,
    /// Its number in the hash chain (seed = c_{N − number}).
    pub number: i64,
    /// `open` (betting), `running` (closed: result and seed public, the race is shown) or `settled`.
    pub phase: String,
    /// Epoch ms: scheduled (betting opened), betting closes (the start), the race is over.
    pub opens_at: i64,
    pub closes_at: i64,
    pub finishes_at: i64,
    pub runners: Vec<VirtualRunner>,
    /// `forecast[i][j]`: runner i + 1 first and runner j + 1 second (null on the diagonal).
    #[schema(value_type = Vec<Vec<Option<f64>>>)]
    pub forecast: Vec<Vec<Option<Fixed>>>,
    /// Place bets are paid on this many finishers.
    pub places: u32,
    /// The declared overround in percent (115 = 115 %).
    pub overround: u32,
    /// SHA-256(seed ‖ "race"), published before betting opens (hex).
    pub commit_hash: String,
    /// The chain's public values: its terminating hash c_N and salt.
    pub terminating_hash: String,
    pub salt: String,
    /// The race seed (hex), once betting has closed.
    pub seed: Option<String>,
    /// The finishing order (runner numbers, winner first), once betting has closed.
    pub result: Option<Vec<u32>>,
}

/// One race type in the lobby.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VirtualSport {
    pub sport: String,
    /// A race closes every this many ms; it runs for `runMs`.
    pub every_ms: i64,
    pub run_ms: i64,
    pub runners: u32,
    pub places: u32,
    /// Open for betting, soonest first.
    pub upcoming: Vec<VirtualRace>,
    /// Closed and being shown.
    pub running: Vec<VirtualRace>,
    /// The last settled races, newest first.
    pub results: Vec<VirtualRace>,
}

/// The stakes a player may bet (their currency's studio limits).
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VirtualStakeLimits {
    pub currency: String,
    pub exponent: u32,
    /// Minor units.
    pub min_stake: i64,
    pub max_stake: i64,
}

impl VirtualStakeLimits {
    pub fn of(currency: kernel::Currency) -> VirtualStakeLimits {
        let l = crate::single::limits(currency);
        VirtualStakeLimits { currency: currency.code().into(), exponent: currency.exponent(), min_stake: l.min_bet, max_stake: l.max_bet }
    }
}

/// `GET /api/virtuals/races`.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VirtualsLobby {
    /// The server's clock (epoch ms) for countdowns.
    pub server_time: i64,
    pub sports: Vec<VirtualSport>,
    /// The signed-in player's stake limits (null for a guest).
    pub limits: Option<VirtualStakeLimits>,
}

/// `GET /api/virtuals/races/{id}`: a race, and once it has run, how to check it.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VirtualRaceDetail {
    pub server_time: i64,
    pub race: VirtualRace,
    /// A Python 3 script (standard library) with this race's values that checks the seed
    /// against the commitment and the chain and recomputes the finishing order; null while
    /// betting is open.
    pub recipe: Option<String>,
}

/// A player's bet.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VirtualBet {
    pub id: i64,
    pub race_id: i64,
    pub sport: String,
    /// `win`, `place` or `forecast`.
    pub kind: String,
    /// Runner numbers: one, or two in order for a forecast.
    pub runners: Vec<u32>,
    /// The price taken (two decimals).
    #[schema(value_type = f64)]
    pub price: Fixed,
    /// Minor units of `currency`.
    pub stake: i64,
    /// What it returns if it wins: floor(stake × price), minor units.
    pub potential_win: i64,
    /// What it returned (minor units; 0 until settled or when lost).
    pub win: i64,
    pub currency: String,
    pub exponent: u32,
    /// `placing`, `open`, `won`, `lost`, `void`.
    pub status: String,
    pub placed_at: i64,
    pub closes_at: i64,
    pub finishes_at: i64,
    /// The race's phase now.
    pub race_phase: String,
    /// True when this answers an earlier request with the same Idempotency-Key.
    pub replayed: bool,
    /// The player's real balance after the stake (placement replies only).
    pub balance: Option<i64>,
}

// ------------------------------------------------------------------ stored races

/// A race as stored, with its chain's public values.
#[derive(Debug, Clone)]
pub(crate) struct RaceRow {
    pub id: i64,
    pub sport: Sport,
    pub number: i64,
    pub seed: String,
    pub commit_hash: String,
    pub runners: Vec<Runner>,
    pub places: i64,
    pub overround: i64,
    pub prices: Prices,
    pub result: Vec<u32>,
    pub phase: String,
    pub opens_at: i64,
    pub closes_at: i64,
    pub finishes_at: i64,
    pub salt: String,
    pub terminating_hash: String,
}

pub(crate) const RACE_SELECT: &str = "SELECT r.id, r.sport, r.number, r.seed, r.commit_hash, r.runners, r.places, r.overround, r.prices, \
     r.result, r.phase, r.opens_at, r.closes_at, r.finishes_at, c.salt, c.terminating_hash \
     FROM virtual_races r JOIN virtual_chains c ON c.id = r.chain_id";

pub(crate) fn race_row(r: &store::sqlx::any::AnyRow) -> Result<RaceRow, AppError> {
    let corrupt = |what: &str| AppError::internal(format!("virtual race: stored {what} unreadable"));
    let sport: String = r.get(1);
    Ok(RaceRow {
        id: r.get(0),
        sport: Sport::parse(&sport).ok_or_else(|| corrupt("sport"))?,
        number: r.get(2),
        seed: r.get(3),
        commit_hash: r.get(4),
        runners: serde_json::from_str(&r.get::<String, _>(5)).map_err(|_| corrupt("runners"))?,
        places: r.get(6),
        overround: r.get(7),
        prices: serde_json::from_str(&r.get::<String, _>(8)).map_err(|_| corrupt("prices"))?,
        result: serde_json::from_str(&r.get::<String, _>(9)).map_err(|_| corrupt("result"))?,
        phase: r.get(10),
        opens_at: r.get(11),
        closes_at: r.get(12),
        finishes_at: r.get(13),
        salt: r.get(14),
        terminating_hash: r.get(15),
    })
}

fn price(p: Option<u64>) -> Option<Fixed> {
    p.map(|v| Fixed::new(v as i64, 2))
}

impl RaceRow {
    /// Betting has closed: the seed and the order are public.
    pub fn revealed(&self) -> bool {
        self.phase != "open"
    }

    pub fn view(&self) -> VirtualRace {
        let revealed = self.revealed();
        VirtualRace {
            id: self.id,
            sport: self.sport.id().into(),
            number: self.number,
            phase: self.phase.clone(),
            opens_at: self.opens_at,
            closes_at: self.closes_at,
            finishes_at: self.finishes_at,
            runners: self
                .runners
                .iter()
                .enumerate()
                .map(|(i, r)| VirtualRunner {
                    number: r.number,
                    name: r.name.clone(),
                    strength: r.strength,
                    win: price(self.prices.win.get(i).copied().flatten()),
                    place: price(self.prices.place.get(i).copied().flatten()),
                })
                .collect(),
            forecast: self.prices.forecast.iter().map(|row| row.iter().map(|p| price(*p)).collect()).collect(),
            places: self.places as u32,
            overround: self.overround as u32,
            commit_hash: self.commit_hash.clone(),
            terminating_hash: self.terminating_hash.clone(),
            salt: self.salt.clone(),
            seed: revealed.then(|| self.seed.clone()),
            result: revealed.then(|| self.result.clone()),
        }
    }

    /// The verification script for a race that has run.
    pub fn recipe(&self) -> Option<String> {
        if !self.revealed() {
            return None;
        }
        let strengths: Vec<String> = self.runners.iter().map(|r| r.strength.to_string()).collect();
        let salt = serde_json::to_string(&self.salt).unwrap_or_default();
        let order: Vec<String> = self.result.iter().map(u32::to_string).collect();
        Some(format!(
            r#"import hashlib, hmac
seed = bytes.fromhex("{seed}")
# 1. The seed is the one committed before betting opened.
assert hashlib.sha256(seed + b"race").hexdigest() == "{commit}"
# 2. The seed is link {number} of the published chain: SHA-256 applied {number} times gives the terminating hash.
h = seed
for _ in range({number}):
    h = hashlib.sha256(h).digest()
assert h.hex() == "{terminating}"
# 3. The finishing order: a Plackett-Luce draw over the published strengths.
strengths = [{strengths}]
salt = {salt}
def words():
    i = 0
    while True:
        block = hmac.new(seed, f"{{salt}}:0:{{i}}".encode(), hashlib.sha256).digest()
        for k in range(0, 32, 4):
            yield int.from_bytes(block[k:k + 4], "big")
        i += 1
w = words()
def below(n):
    limit = (2**32 // n) * n
    while True:
        x = next(w)
        if x < limit:
            return x % n
left, order = list(range(1, len(strengths) + 1)), []
while left:
    x = below(sum(strengths[r - 1] for r in left))
    for r in left:
        if x < strengths[r - 1]:
            break
        x -= strengths[r - 1]
    left.remove(r)
    order.append(r)
assert order == [{order}], order
print("verified:", order)
"#,
            seed = self.seed,
            commit = self.commit_hash,
            number = self.number,
            terminating = self.terminating_hash,
            strengths = strengths.join(", "),
            salt = salt,
            order = order.join(", "),
        ))
    }
}

// ------------------------------------------------------------------ the service

struct Inner {
    db: Db,
    casino: Casino,
    config: Mutex<VirtualsConfig>,
    /// Added to the real clock (tests only).
    offset_ms: AtomicI64,
    /// One pass at a time (the loop's and a test's).
    pass: tokio::sync::Mutex<()>,
    task: Mutex<Option<tokio::task::JoinHandle<()>>>,
    chain: Mutex<Option<chain::Chain>>,
    /// The lobby's races by sport filter, as the last pass left them: the races change only
    /// in passes (which clear it), so players polling the lobby cost no query between two
    /// passes that changed something. Kept at most [`LOBBY_TTL`] (another instance's passes).
    lobby: Mutex<HashMap<Option<Sport>, (Instant, Arc<Vec<VirtualSport>>)>>,
    /// Counts the passes that changed races: a lobby read across one is not kept.
    lobby_generation: AtomicU64,
}

/// The longest a cached lobby is served.
const LOBBY_TTL: Duration = Duration::from_secs(2);

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// The virtual races: cheap to clone, one per process.
#[derive(Clone)]
pub struct Virtuals {
    inner: Arc<Inner>,
}

impl Virtuals {
    pub fn new(db: Db, casino: Casino, config: VirtualsConfig) -> Virtuals {
        Virtuals {
            inner: Arc::new(Inner {
                db,
                casino,
                config: Mutex::new(config),
                offset_ms: AtomicI64::new(0),
                pass: tokio::sync::Mutex::new(()),
                task: Mutex::new(None),
                chain: Mutex::new(None),
                lobby: Mutex::new(HashMap::new()),
                lobby_generation: AtomicU64::new(0),
            }),
        }
    }

    pub fn config(&self) -> VirtualsConfig {
        lock(&self.inner.config).clone()
    }

    /// The races' clock (epoch ms): the real clock, plus what [`Self::advance`] added.
    pub fn now(&self) -> i64 {
        now_ms() + self.inner.offset_ms.load(Ordering::Relaxed)
    }

    /// Moves the races' clock forward (tests: a race closes and runs without waiting).
    pub fn advance(&self, ms: i64) {
        self.inner.offset_ms.fetch_add(ms.max(0), Ordering::Relaxed);
    }

    /// The lobby: every race type with its open, running and last settled races.
    pub async fn lobby(&self, only: Option<Sport>, currency: Option<kernel::Currency>) -> Result<VirtualsLobby, AppError> {
        let cached = lock(&self.inner.lobby).get(&only).filter(|(at, _)| at.elapsed() < LOBBY_TTL).map(|(_, v)| v.clone());
        let sports = match cached {
            Some(v) => v,
            None => {
                let generation = self.inner.lobby_generation.load(Ordering::SeqCst);
                let v = Arc::new(self.lobby_sports(only).await?);
                let mut cache = lock(&self.inner.lobby);
                if self.inner.lobby_generation.load(Ordering::SeqCst) == generation {
                    cache.insert(only, (Instant::now(), v.clone()));
                }
                v
            }
        };
        Ok(VirtualsLobby { server_time: self.now(), sports: sports.as_ref().clone(), limits: currency.map(VirtualStakeLimits::of) })
    }

    /// A pass changed races: the lobby is read again.
    pub(crate) fn lobby_changed(&self) {
        let mut cache = lock(&self.inner.lobby);
        self.inner.lobby_generation.fetch_add(1, Ordering::SeqCst);
        cache.clear();
    }

    async fn lobby_sports(&self, only: Option<Sport>) -> Result<Vec<VirtualSport>, AppError> {
        let config = self.config();
        let mut sports = Vec::new();
        for t in config.timetables.iter().filter(|t| only.is_none_or(|s| s == t.sport)) {
            let sport = t.sport.id();
            let open = self.race_rows("r.sport = $1 AND r.phase = 'open' ORDER BY r.closes_at LIMIT 6", sport).await?;
            let running = self.race_rows("r.sport = $1 AND r.phase = 'running' ORDER BY r.closes_at", sport).await?;
            let results = self.race_rows("r.sport = $1 AND r.phase = 'settled' ORDER BY r.closes_at DESC LIMIT 5", sport).await?;
            sports.push(VirtualSport {
                sport: sport.into(),
                every_ms: t.every_ms,
                run_ms: t.run_ms,
                runners: t.sport.runners() as u32,
                places: t.sport.places() as u32,
                upcoming: open.iter().map(RaceRow::view).collect(),
                running: running.iter().map(RaceRow::view).collect(),
                results: results.iter().map(RaceRow::view).collect(),
            });
        }
        Ok(sports)
    }

    async fn race_rows(&self, condition: &str, sport: &str) -> Result<Vec<RaceRow>, AppError> {
        let rows = sqlx::query(&format!("{RACE_SELECT} WHERE {condition}"))
            .bind(sport)
            .fetch_all(self.inner.db.reader())
            .await
            .map_err(AppError::internal)?;
        rows.iter().map(race_row).collect()
    }

    pub(crate) async fn race_row(&self, id: i64) -> Result<Option<RaceRow>, AppError> {
        let row = sqlx::query(&format!("{RACE_SELECT} WHERE r.id = $1"))
            .bind(id)
            .fetch_optional(self.inner.db.writer())
            .await
            .map_err(AppError::internal)?;
        row.as_ref().map(race_row).transpose()
    }

    /// One race; 43 when there is none.
    pub async fn race(&self, id: i64) -> Result<VirtualRaceDetail, AppError> {
        let race = self.race_row(id).await?.ok_or_else(|| AppError::with_detail(ErrorCode::NotFound, "no such race"))?;
        Ok(VirtualRaceDetail { server_time: self.now(), race: race.view(), recipe: race.recipe() })
    }

    /// Runs the loop (a pass every `tick_ms`). Does nothing when it already runs.
    pub fn start(&self) {
        let mut task = lock(&self.inner.task);
        if task.as_ref().is_some_and(|t| !t.is_finished()) {
            return;
        }
        *task = Some(tokio::spawn(engine::run(self.clone())));
    }

    /// Stops the loop at once, as a crash of the process would (the next start settles
    /// whatever was left: docs/VIRTUALS.md "Restarts").
    pub async fn stop(&self) {
        let task = lock(&self.inner.task).take();
        if let Some(task) = task {
            task.abort();
            let _ = task.await;
        }
    }

    /// The loop is running (`/healthz`): started and not ended.
    pub fn alive(&self) -> bool {
        lock(&self.inner.task).as_ref().is_some_and(|t| !t.is_finished())
    }
}
