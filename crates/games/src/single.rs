//! Single-player studio rounds — slots, roulette, dice — provably fair (docs/FAIRNESS.md).
//!
//! Every player has one active seed pair: a secret server seed (its SHA-256 shown before
//! play), a client seed the player may set, and a nonce that counts rounds. A round:
//! 1. claims the next nonce and writes the round row **with its outcome** (status `open`)
//!    in one database transaction — persist before reveal;
//! 2. stakes the bet through the provider wallet (`prov:studio:{round}-bet`);
//! 3. pays the win through the provider wallet (`prov:studio:{round}-win`);
//! 4. marks the round `settled` and only then answers the outcome.
//!
//! A round interrupted between these steps is finished by [`Single::recover`] (run at
//! startup and every minute): when the stake was taken, the win is paid (the outcome is
//! already fixed); when it was not, the stake is tombstoned so it can never land later, and
//! the round is void. Either way no money is lost or created.

use casino::{GameSession, ProviderWallet, RollbackCall, Sessions, WalletCall, STUDIO};
use kernel::clock::{now_ms, to_rfc3339};
use kernel::ids::next_id;
use kernel::{AppError, Currency, ErrorCode};
use serde::Serialize;
use std::str::FromStr;
use store::sqlx::{self, Row};
use store::Db;
use studio::fair::{hex32, new_server_seed, parse_hex32, seed_hash, FairDraws, Hash32};
use utoipa::ToSchema;

/// Bet limits of the studio games in one currency (minor units).
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Limits {
    pub min_bet: i64,
    pub max_bet: i64,
    /// Suggested stakes between the limits (slots take only these).
    pub bet_levels: Vec<i64>,
    /// The most one crash round may pay one player.
    pub max_win: i64,
}

/// The studio's bet limits: from 0.10 to 100 in the major unit for TND, USD, EUR, USDT,
/// TMT; 10–10 000 for RUB and HTG; 1 000–1 000 000 for PYG. Max win is 1 000 maximum bets.
pub fn limits(currency: Currency) -> Limits {
    let unit = 10i64.pow(currency.exponent());
    let (min_bet, max_bet) = match currency.code() {
        "RUB" | "HTG" => (10 * unit, 10_000 * unit),
        "PYG" => (1_000 * unit, 1_000_000 * unit),
        _ => (unit / 10, 100 * unit),
    };
    let mut bet_levels = Vec::new();
    let mut scale = min_bet;
    'outer: loop {
        for m in [1, 2, 5] {
            let v = scale * m;
            if v > max_bet {
                break 'outer;
            }
            bet_levels.push(v);
        }
        scale *= 10;
    }
    Limits { min_bet, max_bet, bet_levels, max_win: max_bet * 1_000 }
}

/// The seed pair a player's next round uses.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SeedView {
    pub server_seed_hash: String,
    pub client_seed: String,
    pub nonce: i64,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RevealedSeed {
    pub server_seed: String,
    pub server_seed_hash: String,
    pub client_seed: String,
    /// How many rounds used it (nonces 0..nonces-1).
    pub nonces: i64,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Rotation {
    pub revealed: RevealedSeed,
    pub next: SeedView,
}

/// What a player plays.
#[derive(Debug, Clone)]
pub enum Play {
    Slot { game: &'static studio::slots::SlotGame, bet: i64 },
    Roulette { bets: Vec<studio::roulette::Bet> },
    Dice { bet: studio::dice::DiceBet },
}

impl Play {
    fn game_id(&self) -> &str {
        match self {
            Play::Slot { game, .. } => game.id(),
            Play::Roulette { .. } => "roulette",
            Play::Dice { .. } => "dice",
        }
    }
    fn kind(&self) -> &'static str {
        match self {
            Play::Slot { .. } => "slot",
            Play::Roulette { .. } => "roulette",
            Play::Dice { .. } => "dice",
        }
    }
    fn stake(&self) -> i64 {
        match self {
            Play::Slot { bet, .. } => *bet,
            Play::Roulette { bets } => bets.iter().map(|b| b.amount).sum(),
            Play::Dice { bet } => bet.amount,
        }
    }

    /// Checks the bet against the game rules and the currency's limits.
    fn validate(&self, limits: &Limits) -> Result<(), AppError> {
        let invalid = |msg: String| AppError::with_detail(ErrorCode::InvalidBet, msg);
        match self {
            Play::Slot { game, bet } => {
                game.validate_bet(*bet).map_err(|e| invalid(e.to_string()))?;
                if !limits.bet_levels.contains(bet) {
                    return Err(invalid("the stake must be one of the bet levels".into()));
                }
            }
            Play::Roulette { bets } => {
                studio::roulette::validate_all(bets).map_err(|e| invalid(e.to_string()))?;
                if bets.iter().any(|b| b.amount < limits.min_bet) {
                    return Err(invalid("each chip must be at least the minimum bet".into()));
                }
            }
            Play::Dice { bet } => {
                studio::dice::validate(bet).map_err(|e| invalid(e.to_string()))?;
                if bet.amount < limits.min_bet {
                    return Err(invalid("the stake is below the minimum bet".into()));
                }
            }
        }
        let stake = self.stake();
        if stake < limits.min_bet || stake > limits.max_bet {
            return Err(invalid(format!("the total stake must be between {} and {} minor units", limits.min_bet, limits.max_bet)));
        }
        Ok(())
    }

    /// The outcome of this play from the seeds: (outcome JSON, amount returned).
    pub fn resolve(&self, server_seed: &Hash32, client_seed: &str, nonce: u64) -> (serde_json::Value, i64) {
        let mut rng = FairDraws::new(server_seed, client_seed, nonce);
        match self {
            Play::Slot { game, bet } => {
                let round = game.play(&mut rng, *bet);
                let win = round.win;
                (serde_json::to_value(&round).unwrap_or_default(), win)
            }
            Play::Roulette { bets } => {
                let number = studio::roulette::spin(&mut rng);
                let settled = studio::roulette::settle(bets, number);
                let win = settled.returned;
                (serde_json::json!({ "bets": bets, "result": settled }), win)
            }
            Play::Dice { bet } => {
                let roll = studio::dice::roll(&mut rng);
                let result = studio::dice::settle(bet, roll);
                (serde_json::json!({ "bet": bet, "result": result }), result.returned)
            }
        }
    }
}

/// The answer to a played round.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RoundReply {
    pub round_id: i64,
    pub bet: i64,
    pub win: i64,
    /// Game-specific: the slot round, or `{bets, result}` / `{bet, result}`.
    #[schema(value_type = Object)]
    pub outcome: serde_json::Value,
    /// The player's real balance after the round (minor units).
    pub balance: i64,
    /// The seed pair and nonce this round used.
    pub seed: SeedView,
}

/// A past round as the history and fairness screens show it.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RoundView {
    pub round_id: i64,
    pub time: String,
    pub game_id: String,
    pub bet: i64,
    pub win: i64,
    /// `settled`, `open` or `void`.
    pub status: String,
    #[schema(value_type = Object)]
    pub outcome: serde_json::Value,
    pub server_seed_hash: String,
    /// Null until the seed is rotated.
    pub server_seed: Option<String>,
    pub client_seed: String,
    pub nonce: i64,
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct RecoveryReport {
    pub settled: u64,
    pub voided: u64,
}

fn default_client_seed() -> String {
    let bytes: [u8; 8] = rand::random();
    hex::encode(bytes)
}

/// A client seed: 1–64 printable ASCII characters without `:` (the message separator).
pub fn valid_client_seed(s: &str) -> bool {
    !s.is_empty() && s.len() <= 64 && s.bytes().all(|b| (0x20..0x7f).contains(&b) && b != b':')
}

struct ActiveSeed {
    id: i64,
    server_seed: Hash32,
    server_seed_hash: String,
    client_seed: String,
    next_nonce: i64,
}

#[derive(Clone)]
pub struct Single {
    db: Db,
    wallet: ProviderWallet,
    sessions: Sessions,
}

impl Single {
    pub fn new(db: Db, wallet: ProviderWallet, sessions: Sessions) -> Single {
        Single { db, wallet, sessions }
    }

    async fn active_seed(&self, user_id: i64) -> Result<ActiveSeed, AppError> {
        for _ in 0..3 {
            let row = sqlx::query(
                "SELECT id, server_seed, server_seed_hash, client_seed, next_nonce FROM studio_seeds WHERE user_id = $1 AND active = 1",
            )
            .bind(user_id)
            .fetch_optional(self.db.writer())
            .await
            .map_err(AppError::internal)?;
            if let Some(r) = row {
                let seed: String = r.get(1);
                return Ok(ActiveSeed {
                    id: r.get(0),
                    server_seed: parse_hex32(&seed).ok_or_else(|| AppError::internal("corrupt server seed"))?,
                    server_seed_hash: r.get(2),
                    client_seed: r.get(3),
                    next_nonce: r.get(4),
                });
            }
            self.create_seed(user_id, &default_client_seed()).await?;
        }
        Err(AppError::internal("no active seed"))
    }

    /// Creates an active seed pair unless one exists (the partial unique index decides races).
    async fn create_seed(&self, user_id: i64, client_seed: &str) -> Result<(), AppError> {
        let seed = new_server_seed();
        let res = sqlx::query(
            "INSERT INTO studio_seeds (id, user_id, server_seed, server_seed_hash, client_seed, next_nonce, active, created_at) \
             VALUES ($1, $2, $3, $4, $5, 0, 1, $6)",
        )
        .bind(next_id())
        .bind(user_id)
        .bind(hex32(&seed))
        .bind(hex32(&seed_hash(&seed)))
        .bind(client_seed)
        .bind(now_ms())
        .execute(self.db.writer())
        .await;
        match res {
            Ok(_) => Ok(()),
            Err(e) if store::is_unique_violation(&e) => Ok(()),
            Err(e) => Err(AppError::internal(e)),
        }
    }

    /// The seed pair the player's next round uses (created on first use).
    pub async fn seed(&self, user_id: i64) -> Result<SeedView, AppError> {
        let s = self.active_seed(user_id).await?;
        Ok(SeedView { server_seed_hash: s.server_seed_hash, client_seed: s.client_seed, nonce: s.next_nonce })
    }

    /// Sets the client seed of the active pair (the server seed stays committed).
    pub async fn set_client_seed(&self, user_id: i64, client_seed: &str) -> Result<SeedView, AppError> {
        if !valid_client_seed(client_seed) {
            return Err(AppError::with_detail(ErrorCode::InvalidField, "clientSeed: 1 to 64 printable characters, no ':'"));
        }
        let s = self.active_seed(user_id).await?;
        sqlx::query("UPDATE studio_seeds SET client_seed = $1 WHERE id = $2 AND active = 1")
            .bind(client_seed)
            .bind(s.id)
            .execute(self.db.writer())
            .await
            .map_err(AppError::internal)?;
        self.seed(user_id).await
    }

    /// Reveals the active server seed and starts a new pair (same client seed, nonce 0).
    pub async fn rotate(&self, user_id: i64) -> Result<Rotation, AppError> {
        let s = self.active_seed(user_id).await?;
        let done = sqlx::query("UPDATE studio_seeds SET active = 0, revealed_at = $1 WHERE id = $2 AND active = 1")
            .bind(now_ms())
            .bind(s.id)
            .execute(self.db.writer())
            .await
            .map_err(AppError::internal)?;
        if done.rows_affected() == 0 {
            // A parallel rotation won; answer with what it revealed.
            return Err(AppError::with_detail(ErrorCode::BadRequest, "the seed was rotated by another request; retry"));
        }
        // Rounds of the old seed still being settled keep their nonce: they were claimed.
        let row = sqlx::query("SELECT next_nonce FROM studio_seeds WHERE id = $1")
            .bind(s.id)
            .fetch_one(self.db.writer())
            .await
            .map_err(AppError::internal)?;
        self.create_seed(user_id, &s.client_seed).await?;
        Ok(Rotation {
            revealed: RevealedSeed {
                server_seed: hex32(&s.server_seed),
                server_seed_hash: s.server_seed_hash,
                client_seed: s.client_seed,
                nonces: row.get(0),
            },
            next: self.seed(user_id).await?,
        })
    }

    /// Plays one round for a live studio session (see the module comment for the steps).
    pub async fn play(&self, session: &GameSession, play: Play) -> Result<RoundReply, AppError> {
        if session.provider != STUDIO || session.game_id != play.game_id() {
            return Err(AppError::new(ErrorCode::GameSessionInvalid));
        }
        session.may_stake(now_ms())?;
        play.validate(&limits(session.currency))?;
        let stake = play.stake();

        // 1. Claim a nonce and persist the outcome before anything is revealed or paid.
        let (round_id, seed, nonce, outcome, win) = self.open_round(session, &play, stake).await?;
        let seed_view = SeedView { server_seed_hash: seed.server_seed_hash.clone(), client_seed: seed.client_seed.clone(), nonce };

        // 2. The stake.
        let bet_call = self.call(session, round_id, "bet", stake);
        let mut balance = match self.wallet.bet_with(STUDIO, session.clone(), &bet_call).await {
            Ok(r) => r.balance,
            Err(e) => {
                // Refused (insufficient balance, banned…): the round never happened. The
                // tombstone makes sure this stake can never land later.
                self.void(session, round_id).await?;
                return Err(e);
            }
        };
        // 3. The win, 4. settled.
        if win > 0 {
            balance = self.wallet.win_with(STUDIO, session, &self.call(session, round_id, "win", win)).await?.balance;
        }
        self.mark(round_id, "settled").await?;
        Ok(RoundReply { round_id, bet: stake, win, outcome, balance, seed: seed_view })
    }

    async fn open_round(&self, session: &GameSession, play: &Play, stake: i64) -> Result<(i64, ActiveSeed, i64, serde_json::Value, i64), AppError> {
        for _ in 0..20 {
            let seed = self.active_seed(session.user_id).await?;
            let nonce = seed.next_nonce;
            let (outcome, win) = play.resolve(&seed.server_seed, &seed.client_seed, nonce as u64);
            let round_id = next_id();
            let now = now_ms();
            let mut tx = self.db.writer().begin().await.map_err(AppError::internal)?;
            let claimed = sqlx::query("UPDATE studio_seeds SET next_nonce = next_nonce + 1 WHERE id = $1 AND active = 1 AND next_nonce = $2 AND client_seed = $3")
                .bind(seed.id)
                .bind(nonce)
                .bind(&seed.client_seed)
                .execute(&mut *tx)
                .await
                .map_err(AppError::internal)?;
            if claimed.rows_affected() == 0 {
                // Another round of this player (or a seed change) came first: draw again.
                tx.rollback().await.ok();
                continue;
            }
            sqlx::query(
                "INSERT INTO studio_rounds (id, user_id, session_id, game_id, kind, currency, bet, win, outcome, seed_id, nonce, status, created_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'open', $12)",
            )
            .bind(round_id)
            .bind(session.user_id)
            .bind(session.id)
            .bind(play.game_id())
            .bind(play.kind())
            .bind(session.currency.code())
            .bind(stake)
            .bind(win)
            .bind(outcome.to_string())
            .bind(seed.id)
            .bind(nonce)
            .bind(now)
            .execute(&mut *tx)
            .await
            .map_err(AppError::internal)?;
            tx.commit().await.map_err(AppError::internal)?;
            return Ok((round_id, seed, nonce, outcome, win));
        }
        Err(AppError::new(ErrorCode::RateLimited))
    }

    fn call(&self, session: &GameSession, round_id: i64, kind: &str, amount: i64) -> WalletCall {
        WalletCall {
            session_token: String::new(),
            transaction_id: format!("{round_id}-{kind}"),
            round_id: round_id.to_string(),
            game_id: session.game_id.clone(),
            amount,
            currency: session.currency.code().to_string(),
        }
    }

    async fn mark(&self, round_id: i64, status: &str) -> Result<(), AppError> {
        sqlx::query("UPDATE studio_rounds SET status = $1, settled_at = $2 WHERE id = $3 AND status = 'open'")
            .bind(status)
            .bind(now_ms())
            .bind(round_id)
            .execute(self.db.writer())
            .await
            .map_err(AppError::internal)?;
        Ok(())
    }

    /// Cancels a round whose stake did not land: tombstones (or reverses) the stake, then void.
    async fn void(&self, session: &GameSession, round_id: i64) -> Result<(), AppError> {
        let rb = RollbackCall {
            session_token: String::new(),
            transaction_id: format!("{round_id}-void"),
            reference_transaction_id: format!("{round_id}-bet"),
            round_id: round_id.to_string(),
            game_id: session.game_id.clone(),
        };
        self.wallet.rollback_with(STUDIO, session, &rb).await?;
        self.mark(round_id, "void").await
    }

    /// Finishes rounds left `open` for more than `older_than_ms` (interrupted by a crash or a
    /// restart): stake taken → win paid, settled; stake absent → tombstoned, void.
    pub async fn recover(&self, older_than_ms: i64) -> Result<RecoveryReport, AppError> {
        let rows = sqlx::query("SELECT id, session_id, win FROM studio_rounds WHERE status = 'open' AND created_at < $1 ORDER BY created_at LIMIT 500")
            .bind(now_ms() - older_than_ms)
            .fetch_all(self.db.writer())
            .await
            .map_err(AppError::internal)?;
        let mut report = RecoveryReport::default();
        for r in rows {
            let (round_id, session_id, win): (i64, i64, i64) = (r.get(0), r.get(1), r.get(2));
            let session = self.sessions.by_id(session_id).await?;
            let staked = self.wallet.ledger().lookup(&casino::wallet::ledger_key(STUDIO, &format!("{round_id}-bet"))).await?;
            match staked {
                Some(tx) if !tx.tombstone => {
                    if win > 0 {
                        self.wallet.win_with(STUDIO, &session, &self.call(&session, round_id, "win", win)).await?;
                    }
                    self.mark(round_id, "settled").await?;
                    report.settled += 1;
                }
                _ => {
                    self.void(&session, round_id).await?;
                    report.voided += 1;
                }
            }
            tracing::info!(round_id, "studio: interrupted round recovered");
        }
        Ok(report)
    }

    /// The player's last rounds of a game, newest first (seeds revealed once rotated).
    pub async fn rounds(&self, user_id: i64, game_id: &str, limit: i64) -> Result<Vec<RoundView>, AppError> {
        let rows = sqlx::query(&format!(
            "{ROUND_VIEW_SELECT} WHERE r.user_id = $1 AND r.game_id = $2 AND r.status <> 'void' ORDER BY r.created_at DESC, r.id DESC LIMIT $3"
        ))
        .bind(user_id)
        .bind(game_id)
        .bind(limit.clamp(1, 100))
        .fetch_all(self.db.reader())
        .await
        .map_err(AppError::internal)?;
        Ok(rows.iter().map(round_view).collect())
    }

    /// One of the player's rounds of a game (its fairness record), void ones included:
    /// `None` when the player has no such round.
    pub async fn round(&self, user_id: i64, game_id: &str, round_id: i64) -> Result<Option<RoundView>, AppError> {
        let row = sqlx::query(&format!("{ROUND_VIEW_SELECT} WHERE r.id = $1 AND r.user_id = $2 AND r.game_id = $3"))
            .bind(round_id)
            .bind(user_id)
            .bind(game_id)
            .fetch_optional(self.db.reader())
            .await
            .map_err(AppError::internal)?;
        Ok(row.as_ref().map(round_view))
    }
}

const ROUND_VIEW_SELECT: &str = "SELECT r.id, r.created_at, r.game_id, r.bet, r.win, r.status, r.outcome, s.server_seed_hash, \
     s.server_seed, s.active, s.client_seed, r.nonce FROM studio_rounds r JOIN studio_seeds s ON s.id = r.seed_id";

/// A row of [`ROUND_VIEW_SELECT`]: the server seed is shown once rotated out, never before.
fn round_view(r: &store::sqlx::any::AnyRow) -> RoundView {
    let revealed = !store::flag(r.get(9));
    RoundView {
        round_id: r.get(0),
        time: to_rfc3339(r.get(1)),
        game_id: r.get(2),
        bet: r.get(3),
        win: r.get(4),
        status: r.get(5),
        outcome: serde_json::from_str(&r.get::<String, _>(6)).unwrap_or_default(),
        server_seed_hash: r.get(7),
        server_seed: revealed.then(|| r.get(8)),
        client_seed: r.get(10),
        nonce: r.get(11),
    }
}

/// Parses a currency code (helper for callers holding strings).
pub fn currency(code: &str) -> Option<Currency> {
    Currency::from_str(code).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_per_currency() {
        let tnd = limits(Currency::Tnd);
        assert_eq!((tnd.min_bet, tnd.max_bet), (100, 100_000));
        assert_eq!(tnd.bet_levels.first(), Some(&100));
        assert_eq!(tnd.bet_levels.last(), Some(&100_000));
        assert!(tnd.bet_levels.windows(2).all(|w| w[0] < w[1]));
        let pyg = limits(Currency::Pyg);
        assert_eq!((pyg.min_bet, pyg.max_bet), (1_000, 1_000_000));
    }

    #[test]
    fn client_seeds() {
        assert!(valid_client_seed("my lucky seed"));
        assert!(!valid_client_seed(""));
        assert!(!valid_client_seed("a:b"));
        assert!(!valid_client_seed(&"x".repeat(65)));
        assert!(!valid_client_seed("tab\there"));
    }

    #[test]
    fn resolve_is_deterministic() {
        let seed = [7u8; 32];
        let play = Play::Dice { bet: studio::dice::DiceBet { amount: 1000, target: 5000, over: true } };
        assert_eq!(play.resolve(&seed, "c", 3).0, play.resolve(&seed, "c", 3).0);
    }
}
