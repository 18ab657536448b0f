//! Providers and games, normalised to the spec's Game shape (§3), with the category
//! rules of §2/§3 and the provider aliases and ban rules of §9.

use kernel::clock::now_ms;
use kernel::ids::next_id;
use kernel::{AppError, ErrorCode};
use serde::Serialize;
use std::collections::{BTreeMap, HashSet};
use store::sqlx::{self, Row};
use store::Db;
use utoipa::ToSchema;

/// A provider as the lobby shows it.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Provider {
    /// Lower-case code (the name used in routes, blocklists and the wallet API).
    pub name: String,
    pub display_name: String,
    /// `slots` or `casinolive`.
    pub casino_type: String,
    /// Guests see no games of this provider (spec §6).
    pub auth_required: bool,
    pub game_count: i64,
    pub logo_url: Option<String>,
    /// The provider's last catalogue refresh failed: its games are the last ones read and
    /// may not open ("temporarily unavailable").
    pub unavailable: bool,
}

/// A game normalised to the spec's Game shape (§3).
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Game {
    /// Catalogue id.
    pub id: i64,
    pub game_id: String,
    pub game_name: String,
    pub name: String,
    pub description: String,
    /// Category tabs (spec §3), including the name-derived category (§2).
    pub tab: Vec<String>,
    pub provider: String,
    /// The provider after the §9 aliases (pragmaticf → pragmatic, …).
    pub route_provider: String,
    pub image_url: String,
    pub casino_type: String,
    pub is_new: bool,
    /// Declared RTP in percent (two decimals), or null when the provider publishes none.
    #[schema(value_type = Option<f64>)]
    pub rtp: Option<kernel::money::Fixed>,
    /// `low`, `medium`, `high`, or null when unknown.
    pub volatility: Option<String>,
    pub auth_required: bool,
    /// The description's translations by short language code (`fr`, `ar`); the reply
    /// carries one text, chosen by [`Game::localised`].
    #[serde(skip)]
    pub descriptions: BTreeMap<String, String>,
}

impl Game {
    /// The game as a player reading `lang` (a short code: `en`, `fr`, `ar`) sees it: the
    /// description in that language when the catalogue has it, else the default text.
    pub fn localised(mut self, lang: &str) -> Game {
        if let Some(text) = self.descriptions.get(lang).filter(|t| !t.trim().is_empty()) {
            self.description = text.clone();
        }
        self
    }
}

/// A provider to create or update at startup (the studio; the demo provider).
#[derive(Debug, Clone)]
pub struct NewProvider {
    pub name: String,
    pub display_name: String,
    pub casino_type: String,
    pub auth_required: bool,
    pub listed: bool,
    pub priority: i64,
    /// HMAC secret of the provider wallet API; `None` = in-process only.
    pub wallet_secret: Option<String>,
    /// Launch URL template: `{gameId}`, `{token}` and `{lang}` are replaced.
    pub launch_url: String,
    pub logo_url: Option<String>,
}

#[derive(Debug, Clone)]
pub struct NewGame {
    pub game_id: String,
    pub name: String,
    /// The default (English) text.
    pub description: String,
    /// Its translations by short language code (`fr`, `ar`).
    pub descriptions: BTreeMap<String, String>,
    pub tabs: Vec<String>,
    pub image_url: String,
    pub casino_type: String,
    /// What plays it (`slot`, `roulette`, `dice`, `crash`, `table`).
    pub kind: String,
    pub is_new: bool,
    pub featured: i64,
    pub rtp_bp: Option<i64>,
    pub volatility: Option<String>,
    pub sort: i64,
}

/// What a launch needs to know about a provider.
#[derive(Debug, Clone)]
pub struct ProviderConfig {
    pub name: String,
    pub enabled: bool,
    pub launch_url: String,
    pub wallet_secret: Option<String>,
    /// A win needs a bet of the same player in its round (refused with 32 otherwise).
    pub win_requires_bet: bool,
}

/// Blocks (an insert that does nothing when the block exists) or unblocks; binds user id,
/// provider, now.
fn block_statement(blocked: bool) -> &'static str {
    if blocked {
        "INSERT INTO casino_provider_blocks (user_id, provider, created_at) VALUES ($1, $2, $3) ON CONFLICT (user_id, provider) DO NOTHING"
    } else {
        "DELETE FROM casino_provider_blocks WHERE user_id = $1 AND provider = $2 AND $3 >= 0"
    }
}

/// Spec §9 aliases.
pub fn route_provider(provider: &str) -> &str {
    match provider {
        "pragmaticlive" | "pragmaticf" => "pragmatic",
        "evolutionlive" => "evolution",
        "outcome_amatic" => "amatic",
        other => other,
    }
}

/// Spec §3: display names of the providers that differ from their code.
pub fn display_name(provider: &str) -> String {
    match provider {
        "pragmaticf" => "Pragmatic".into(),
        "outcome_amatic" => "Amatic".into(),
        "bsw" => "BSW".into(),
        "egt" => "EGT".into(),
        "netent" => "NetEnt".into(),
        "igt" => "IGT".into(),
        "relaxgaming" => "Relax Gaming".into(),
        "playngo" => "Play'n GO".into(),
        "pgsoft" => "PG Soft".into(),
        "goldenrace" => "Golden Race".into(),
        "tvbet" => "TVBet".into(),
        "evolutionlive" => "Evolution".into(),
        "pragmaticlive" => "Pragmatic Live".into(),
        other => {
            let mut c = other.chars();
            c.next().map(|f| f.to_uppercase().collect::<String>() + c.as_str()).unwrap_or_default()
        }
    }
}

/// Spec §6/§9: is `provider` hidden by the player's banned list (lower-case names)?
/// `outcome_amatic` exists only while neither outcome nor amatic is banned.
pub fn is_banned(provider: &str, banned: &HashSet<String>) -> bool {
    let p = provider.to_ascii_lowercase();
    if banned.contains(&p) || banned.contains(route_provider(&p)) {
        return true;
    }
    p == "outcome_amatic" && (banned.contains("outcome") || banned.contains("amatic"))
}

/// Spec §2: the category a game's name implies (`otherGames` by default).
pub fn name_category(name: &str) -> &'static str {
    let n = name.to_ascii_lowercase();
    let has = |words: &[&str]| words.iter().any(|w| n.contains(w));
    if has(&["blackjack", "black jack"]) {
        "blackJack"
    } else if has(&["baccarat"]) {
        "baccarat"
    } else if has(&["roulette"]) {
        "roulette"
    } else if has(&["casino hold", "holdem", "hold'em"]) {
        "casinoHoldem"
    } else if has(&["poker"]) {
        "poker"
    } else if has(&["live"]) {
        "liveCasino"
    } else if has(&["sic bo", "sicbo", "sik bo"]) {
        "sikBo"
    } else if has(&["dragon tiger", "dragontiger"]) {
        "dragonTiger"
    } else if has(&["dice"]) {
        "dice"
    } else if has(&["card"]) {
        "card"
    } else if has(&["table"]) {
        "tableGames"
    } else {
        "otherGames"
    }
}

/// Spec §3: for amatic the tab derives from the name.
pub fn amatic_tab(name: &str) -> &'static str {
    let n = name.to_ascii_lowercase();
    if n.contains("roulette") {
        "roulette"
    } else if n.contains("card") {
        "cardGames"
    } else if n.contains("lotto") {
        "lotto"
    } else {
        "slotMachines"
    }
}

/// The normalised tab list: stored tabs, the amatic rule, `slotMachines` for every slot
/// (§3 "always present"), the name category unless it is the default, `new` for new games.
pub fn normalise_tabs(provider: &str, name: &str, casino_type: &str, stored: &[String], is_new: bool) -> Vec<String> {
    let mut tabs: Vec<String> = Vec::with_capacity(stored.len() + 3);
    let mut push = |t: &str| {
        if !tabs.iter().any(|x| x == t) {
            tabs.push(t.to_string());
        }
    };
    if route_provider(provider) == "amatic" {
        push(amatic_tab(name));
    }
    if casino_type == "slots" {
        push("slotMachines");
    }
    for t in stored {
        push(t);
    }
    let category = name_category(name);
    if category != "otherGames" {
        push(category);
    }
    if is_new {
        push("new");
    }
    tabs
}

const GAME_COLUMNS: &str = "g.id, g.provider, g.game_id, g.name, g.description, g.tabs, g.image_url, g.casino_type, \
     g.is_new, g.rtp_bp, g.volatility, p.auth_required, g.descriptions";

fn game_from_row(r: &store::sqlx::any::AnyRow) -> Game {
    let provider: String = r.get(1);
    let name: String = r.get(3);
    let casino_type: String = r.get(7);
    let stored: Vec<String> = serde_json::from_str(&r.get::<String, _>(5)).unwrap_or_default();
    let is_new = store::flag(r.get(8));
    let rtp_bp: Option<i64> = r.get(9);
    Game {
        id: r.get(0),
        game_id: r.get(2),
        game_name: name.clone(),
        tab: normalise_tabs(&provider, &name, &casino_type, &stored, is_new),
        route_provider: route_provider(&provider).to_string(),
        provider,
        name,
        description: r.get(4),
        image_url: r.get(6),
        casino_type,
        is_new,
        rtp: rtp_bp.map(|bp| kernel::money::Fixed::new(bp, 2)),
        volatility: r.get(10),
        auth_required: store::flag(r.get(11)),
        descriptions: serde_json::from_str(&r.get::<String, _>(12)).unwrap_or_default(),
    }
}

#[derive(Clone)]
pub struct Catalogue {
    db: Db,
}

impl Catalogue {
    pub fn new(db: Db) -> Catalogue {
        Catalogue { db }
    }

    /// Creates or updates a provider and its games (startup; idempotent). Games of the
    /// provider that are not in `games` are disabled, never deleted (history refers to them).
    /// Creates or updates a provider's row only, leaving its games as they are (a provider
    /// whose catalogue is imported from the provider, not written at startup).
    pub async fn upsert_provider_row(&self, p: &NewProvider) -> Result<(), AppError> {
        let mut tx = self.db.writer().begin().await.map_err(AppError::internal)?;
        Self::provider_row(&mut tx, p, now_ms()).await?;
        tx.commit().await.map_err(AppError::internal)
    }

    async fn provider_row(tx: &mut sqlx::Transaction<'_, sqlx::Any>, p: &NewProvider, now: i64) -> Result<(), AppError> {
        sqlx::query(
            "INSERT INTO casino_providers (name, display_name, casino_type, auth_required, listed, enabled, priority, wallet_secret, launch_url, logo_url, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, 1, $6, $7, $8, $9, $10, $10) \
             ON CONFLICT (name) DO UPDATE SET display_name = excluded.display_name, casino_type = excluded.casino_type, \
             auth_required = excluded.auth_required, listed = excluded.listed, priority = excluded.priority, \
             wallet_secret = excluded.wallet_secret, launch_url = excluded.launch_url, logo_url = excluded.logo_url, updated_at = excluded.updated_at",
        )
        .bind(&p.name)
        .bind(&p.display_name)
        .bind(&p.casino_type)
        .bind(p.auth_required as i64)
        .bind(p.listed as i64)
        .bind(p.priority)
        .bind(p.wallet_secret.clone())
        .bind(&p.launch_url)
        .bind(p.logo_url.clone())
        .bind(now)
        .execute(&mut **tx)
        .await
        .map_err(AppError::internal)?;
        Ok(())
    }

    pub async fn upsert_provider(&self, p: &NewProvider, games: &[NewGame]) -> Result<(), AppError> {
        let now = now_ms();
        let mut tx = self.db.writer().begin().await.map_err(AppError::internal)?;
        Self::provider_row(&mut tx, p, now).await?;
        Self::write_games(&mut tx, &p.name, games, now).await?;
        tx.commit().await.map_err(AppError::internal)?;
        Ok(())
    }

    /// Replaces a provider's games inside `tx`: the ones given are written (enabled), the
    /// others disabled, never deleted (history and favourites refer to them).
    pub(crate) async fn write_games(tx: &mut sqlx::Transaction<'_, sqlx::Any>, provider: &str, games: &[NewGame], now: i64) -> Result<(), AppError> {
        sqlx::query("UPDATE casino_games SET enabled = 0, updated_at = $2 WHERE provider = $1")
            .bind(provider)
            .bind(now)
            .execute(&mut **tx)
            .await
            .map_err(AppError::internal)?;
        for g in games {
            sqlx::query(
                "INSERT INTO casino_games (id, provider, game_id, name, description, tabs, image_url, casino_type, kind, is_new, featured, rtp_bp, volatility, enabled, sort, created_at, updated_at, descriptions) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, 1, $14, $15, $15, $16) \
                 ON CONFLICT (provider, game_id) DO UPDATE SET name = excluded.name, description = excluded.description, \
                 descriptions = excluded.descriptions, \
                 tabs = excluded.tabs, image_url = excluded.image_url, casino_type = excluded.casino_type, kind = excluded.kind, \
                 is_new = excluded.is_new, featured = excluded.featured, rtp_bp = excluded.rtp_bp, volatility = excluded.volatility, \
                 enabled = 1, sort = excluded.sort, updated_at = excluded.updated_at",
            )
            .bind(next_id())
            .bind(provider)
            .bind(&g.game_id)
            .bind(&g.name)
            .bind(&g.description)
            .bind(serde_json::to_string(&g.tabs).unwrap_or_else(|_| "[]".into()))
            .bind(&g.image_url)
            .bind(&g.casino_type)
            .bind(&g.kind)
            .bind(g.is_new as i64)
            .bind(g.featured)
            .bind(g.rtp_bp)
            .bind(g.volatility.clone())
            .bind(g.sort)
            .bind(now)
            .bind(serde_json::to_string(&g.descriptions).unwrap_or_else(|_| "{}".into()))
            .execute(&mut **tx)
            .await
            .map_err(AppError::internal)?;
        }
        Ok(())
    }

    /// The provider's launch and wallet configuration (`None`: unknown provider).
    pub async fn provider_config(&self, name: &str) -> Result<Option<ProviderConfig>, AppError> {
        let row = sqlx::query("SELECT name, enabled, launch_url, wallet_secret, win_requires_bet FROM casino_providers WHERE name = $1")
            .bind(name)
            .fetch_optional(self.db.reader())
            .await
            .map_err(AppError::internal)?;
        Ok(row.map(|r| ProviderConfig {
            name: r.get(0),
            enabled: store::flag(r.get(1)),
            launch_url: r.get(2),
            wallet_secret: r.get(3),
            win_requires_bet: store::flag(r.get(4)),
        }))
    }

    /// Listed providers of a casino type with their enabled game counts, in display order,
    /// without those banned for the viewer.
    pub async fn providers(&self, casino_type: Option<&str>, banned: &HashSet<String>) -> Result<Vec<Provider>, AppError> {
        let rows = sqlx::query(
            "SELECT p.name, p.display_name, p.casino_type, p.auth_required, p.logo_url, \
             (SELECT COUNT(*) FROM casino_games g WHERE g.provider = p.name AND g.enabled = 1), \
             (SELECT COUNT(*) FROM provider_catalogue f WHERE f.provider = p.name AND f.failures > 0) \
             FROM casino_providers p WHERE p.listed = 1 AND p.enabled = 1 AND ($1 = '' OR p.casino_type = $1) \
             ORDER BY p.priority DESC, p.name",
        )
        .bind(casino_type.unwrap_or(""))
        .fetch_all(self.db.reader())
        .await
        .map_err(AppError::internal)?;
        Ok(rows
            .iter()
            .map(|r| Provider {
                name: r.get(0),
                display_name: r.get(1),
                casino_type: r.get(2),
                auth_required: store::flag(r.get(3)),
                logo_url: r.get(4),
                game_count: r.get(5),
                unavailable: r.get::<i64, _>(6) > 0,
            })
            .filter(|p| !is_banned(&p.name, banned))
            .collect())
    }

    /// Spec §4 "game list loading": the enabled games of a provider, featured first.
    /// Unknown provider → 60. The caller applies the guest/role/auth rules.
    pub async fn games(&self, provider: &str) -> Result<Vec<Game>, AppError> {
        let known = sqlx::query("SELECT enabled FROM casino_providers WHERE name = $1")
            .bind(provider)
            .fetch_optional(self.db.reader())
            .await
            .map_err(AppError::internal)?;
        match known {
            None => return Err(AppError::new(ErrorCode::ProviderNotConfigured)),
            Some(r) if !store::flag(r.get(0)) => return Ok(Vec::new()),
            Some(_) => {}
        }
        let rows = sqlx::query(&format!(
            "SELECT {GAME_COLUMNS} FROM casino_games g JOIN casino_providers p ON p.name = g.provider \
             WHERE g.provider = $1 AND g.enabled = 1 ORDER BY g.featured DESC, g.sort, g.name"
        ))
        .bind(provider)
        .fetch_all(self.db.reader())
        .await
        .map_err(AppError::internal)?;
        Ok(rows.iter().map(game_from_row).collect())
    }

    /// Games whose name contains `q` (case-insensitive) across listed, enabled providers.
    pub async fn search(&self, q: &str, limit: i64, guest: bool, banned: &HashSet<String>) -> Result<Vec<Game>, AppError> {
        // LIKE wildcards in the text are matched literally.
        let escaped: String = q.to_lowercase().chars().flat_map(|c| if matches!(c, '%' | '_' | '\\') { vec!['\\', c] } else { vec![c] }).collect();
        let pattern = format!("%{escaped}%");
        let rows = sqlx::query(&format!(
            "SELECT {GAME_COLUMNS} FROM casino_games g JOIN casino_providers p ON p.name = g.provider \
             WHERE g.enabled = 1 AND p.enabled = 1 AND p.listed = 1 AND LOWER(g.name) LIKE $1 ESCAPE '\\' \
             ORDER BY g.featured DESC, g.name LIMIT $2"
        ))
        .bind(pattern)
        .bind(limit.clamp(1, 200))
        .fetch_all(self.db.reader())
        .await
        .map_err(AppError::internal)?;
        Ok(rows
            .iter()
            .map(game_from_row)
            .filter(|g| !(guest && g.auth_required) && !is_banned(&g.provider, banned))
            .collect())
    }

    /// One enabled game by provider and game id.
    pub async fn game(&self, provider: &str, game_id: &str) -> Result<Option<(Game, String)>, AppError> {
        let row = sqlx::query(&format!(
            "SELECT {GAME_COLUMNS}, g.kind FROM casino_games g JOIN casino_providers p ON p.name = g.provider \
             WHERE g.provider = $1 AND g.game_id = $2 AND g.enabled = 1"
        ))
        .bind(provider)
        .bind(game_id)
        .fetch_optional(self.db.reader())
        .await
        .map_err(AppError::internal)?;
        Ok(row.map(|r| (game_from_row(&r), r.get(13))))
    }

    /// The provider's display name and the game's name, for history screens: disabled
    /// games too (history refers to them). `None` for a game the catalogue never had.
    pub async fn names(&self, provider: &str, game_id: &str) -> Result<Option<(String, String)>, AppError> {
        let row = sqlx::query(
            "SELECT p.display_name, g.name FROM casino_games g JOIN casino_providers p ON p.name = g.provider \
             WHERE g.provider = $1 AND g.game_id = $2",
        )
        .bind(provider)
        .bind(game_id)
        .fetch_optional(self.db.reader())
        .await
        .map_err(AppError::internal)?;
        Ok(row.map(|r| (r.get(0), r.get(1))))
    }

    async fn game_by_pk(&self, pk: i64) -> Result<Option<Game>, AppError> {
        let row = sqlx::query(&format!(
            "SELECT {GAME_COLUMNS} FROM casino_games g JOIN casino_providers p ON p.name = g.provider WHERE g.id = $1 AND g.enabled = 1"
        ))
        .bind(pk)
        .fetch_optional(self.db.reader())
        .await
        .map_err(AppError::internal)?;
        Ok(row.as_ref().map(game_from_row))
    }

    // ---- favourites ----

    /// Adds a game to the player's favourites (idempotent); unknown game → 62.
    pub async fn add_favourite(&self, user_id: i64, game_pk: i64) -> Result<Game, AppError> {
        let mut game = self.game_by_pk(game_pk).await?.ok_or_else(|| AppError::new(ErrorCode::GameNotFound))?;
        sqlx::query("INSERT INTO casino_favourites (user_id, game_pk, created_at) VALUES ($1, $2, $3) ON CONFLICT (user_id, game_pk) DO NOTHING")
            .bind(user_id)
            .bind(game_pk)
            .bind(now_ms())
            .execute(self.db.writer())
            .await
            .map_err(AppError::internal)?;
        game.tab.push("favorite".into());
        Ok(game)
    }

    /// Removes a favourite (idempotent).
    pub async fn remove_favourite(&self, user_id: i64, game_pk: i64) -> Result<(), AppError> {
        sqlx::query("DELETE FROM casino_favourites WHERE user_id = $1 AND game_pk = $2")
            .bind(user_id)
            .bind(game_pk)
            .execute(self.db.writer())
            .await
            .map_err(AppError::internal)?;
        Ok(())
    }

    /// The player's favourite games, newest first, each with the `favorite` tab.
    pub async fn favourites(&self, user_id: i64, banned: &HashSet<String>) -> Result<Vec<Game>, AppError> {
        let rows = sqlx::query(&format!(
            "SELECT {GAME_COLUMNS} FROM casino_favourites f JOIN casino_games g ON g.id = f.game_pk \
             JOIN casino_providers p ON p.name = g.provider \
             WHERE f.user_id = $1 AND g.enabled = 1 AND p.enabled = 1 ORDER BY f.created_at DESC, g.name"
        ))
        .bind(user_id)
        .fetch_all(self.db.reader())
        .await
        .map_err(AppError::internal)?;
        Ok(rows
            .iter()
            .map(|r| {
                let mut g = game_from_row(r);
                g.tab.push("favorite".into());
                g
            })
            .filter(|g| !is_banned(&g.provider, banned))
            .collect())
    }

    // ---- per-player provider blocks (spec §3 bannedProviders) ----

    /// Lower-case provider names banned for the player.
    pub async fn blocklist(&self, user_id: i64) -> Result<Vec<String>, AppError> {
        let rows = sqlx::query("SELECT provider FROM casino_provider_blocks WHERE user_id = $1 ORDER BY provider")
            .bind(user_id)
            .fetch_all(self.db.reader())
            .await
            .map_err(AppError::internal)?;
        Ok(rows.iter().map(|r| r.get::<String, _>(0)).collect())
    }

    pub async fn banned_set(&self, user_id: Option<i64>) -> Result<HashSet<String>, AppError> {
        match user_id {
            None => Ok(HashSet::new()),
            Some(id) => Ok(self.blocklist(id).await?.into_iter().collect()),
        }
    }

    /// Blocks or unblocks a provider for a player (test fixtures; the console goes through
    /// [`Self::set_blocked_by`], audited).
    pub async fn set_blocked(&self, user_id: i64, provider: &str, blocked: bool) -> Result<(), AppError> {
        let provider = provider.trim().to_ascii_lowercase();
        if provider.is_empty() || provider.len() > 64 {
            return Err(AppError::with_detail(ErrorCode::InvalidField, "provider"));
        }
        sqlx::query(block_statement(blocked)).bind(user_id).bind(provider).bind(now_ms()).execute(self.db.writer()).await.map_err(AppError::internal)?;
        Ok(())
    }

    /// The console's provider block (issue 22): blocks or unblocks `provider` — a provider
    /// of the catalogue or its family (`pragmatic` covers `pragmaticf` and `pragmaticlive`) —
    /// for player `user_id`; the change and its audit record (`player.provider_block` /
    /// `player.provider_unblock`, with the reason) are one transaction. Answers whether it
    /// changed anything (a repeat records nothing). 47 for a provider the catalogue does not
    /// know.
    pub async fn set_blocked_by(&self, user_id: i64, provider: &str, blocked: bool, actor: &str, reason: &str) -> Result<bool, AppError> {
        let provider = provider.trim().to_ascii_lowercase();
        let names: Vec<String> = sqlx::query("SELECT name FROM casino_providers")
            .fetch_all(self.db.reader())
            .await
            .map_err(AppError::internal)?
            .iter()
            .map(|r| r.get::<String, _>(0).to_ascii_lowercase())
            .collect();
        let known = names.iter().any(|n| *n == provider || route_provider(n) == provider) || (provider == "outcome" && names.iter().any(|n| n == "outcome_amatic"));
        if !known {
            return Err(AppError::with_detail(ErrorCode::InvalidField, "provider: not a provider of the catalogue"));
        }
        let now = now_ms();
        let mut tx = self.db.writer().begin().await.map_err(AppError::internal)?;
        let changed = sqlx::query(block_statement(blocked)).bind(user_id).bind(&provider).bind(now).execute(&mut *tx).await.map_err(AppError::internal)?.rows_affected() == 1;
        if changed {
            let details = serde_json::json!({ "provider": provider, "reason": reason }).to_string();
            let action = if blocked { "player.provider_block" } else { "player.provider_unblock" };
            let record = store::audit::Record { actor, action, subject: &format!("user:{user_id}"), details: &details };
            store::audit::append(&mut tx, &record, now).await.map_err(AppError::internal)?;
        }
        tx.commit().await.map_err(AppError::internal)?;
        Ok(changed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aliases_and_display_names() {
        assert_eq!(route_provider("pragmaticf"), "pragmatic");
        assert_eq!(route_provider("pragmaticlive"), "pragmatic");
        assert_eq!(route_provider("evolutionlive"), "evolution");
        assert_eq!(route_provider("outcome_amatic"), "amatic");
        assert_eq!(route_provider("studio"), "studio");
        assert_eq!(display_name("pragmaticf"), "Pragmatic");
        assert_eq!(display_name("outcome_amatic"), "Amatic");
        assert_eq!(display_name("studio"), "Studio");
    }

    #[test]
    fn outcome_amatic_needs_both_unbanned() {
        let set = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<HashSet<_>>();
        assert!(!is_banned("outcome_amatic", &set(&[])));
        assert!(is_banned("outcome_amatic", &set(&["outcome"])));
        assert!(is_banned("outcome_amatic", &set(&["amatic"])));
        assert!(is_banned("pragmaticf", &set(&["pragmatic"])));
        assert!(is_banned("Studio", &set(&["studio"])));
        assert!(!is_banned("studio", &set(&["amatic"])));
    }

    #[test]
    fn categories_from_names() {
        assert_eq!(name_category("Lightning Roulette"), "roulette");
        assert_eq!(name_category("Speed Baccarat A"), "baccarat");
        assert_eq!(name_category("Infinite Blackjack"), "blackJack");
        assert_eq!(name_category("Casino Hold'em"), "casinoHoldem");
        assert_eq!(name_category("Dragon Tiger"), "dragonTiger");
        assert_eq!(name_category("Super Sic Bo"), "sikBo");
        assert_eq!(name_category("Neon Dice"), "dice");
        assert_eq!(name_category("Desert Gold"), "otherGames");
        assert_eq!(amatic_tab("Roulette Royal"), "roulette");
        assert_eq!(amatic_tab("Lucky Card"), "cardGames");
        assert_eq!(amatic_tab("Lotto Madness"), "lotto");
        assert_eq!(amatic_tab("Book of Fortune"), "slotMachines");
    }

    #[test]
    fn tabs_are_normalised_without_repeats() {
        let t = normalise_tabs("studio", "Desert Gold", "slots", &["top".into(), "slotMachines".into()], true);
        assert_eq!(t, vec!["slotMachines", "top", "new"]);
        let t = normalise_tabs("outcome_amatic", "Roulette", "slots", &[], false);
        assert_eq!(t, vec!["roulette", "slotMachines"]);
        let t = normalise_tabs("studio", "Crash", "slots", &["crashGames".into()], false);
        assert_eq!(t, vec!["slotMachines", "crashGames"]);
    }
}
