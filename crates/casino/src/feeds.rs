//! The providers' imported catalogues (issue 20, docs/providers/endpoints.md): the fields
//! each provider's list gives beside our Game (`provider_game_meta`), the refresh runs of
//! the catalogue job (`provider_catalogue`: one owner per provider through a lease, its
//! progress and result) and the §9 rules document (`site_settings` key `providers`).
//!
//! A provider whose refresh fails keeps its last catalogue: a failed run changes no game,
//! it only counts a failure, which shows the provider as temporarily unavailable.

use crate::catalogue::{Catalogue, Game, NewGame, NewProvider};
use crate::shapes::{Listed, ListRules, Meta};
use kernel::clock::now_ms;
use kernel::{AppError, ErrorCode};
use serde::Serialize;
use std::collections::HashMap;
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};
use store::sqlx::{self, Row};
use store::Db;
use utoipa::ToSchema;

/// How long the rules document is kept in memory (an edit shows within this).
const RULES_TTL: Duration = Duration::from_secs(5);

/// The site settings key of the §9 rules document.
pub const RULES_KEY: &str = "providers";

/// A game as a provider's list gave it, normalised, with the provider's own fields.
#[derive(Debug, Clone)]
pub struct ImportedGame {
    pub game: NewGame,
    pub meta: Meta,
    /// Where the provider serves its image (empty: none).
    pub image_source: String,
    /// The cached copy's file name under the provider's image folder (empty: not cached).
    pub image_file: String,
}

/// The last refresh of one provider's catalogue.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FeedStatus {
    pub provider: String,
    /// `idle`, `running`, `ok` or `failed`.
    pub state: String,
    pub started_at: i64,
    pub finished_at: i64,
    pub last_ok_at: i64,
    /// Games read so far by the running pass.
    pub fetched: i64,
    /// Games imported by the last good pass.
    pub games: i64,
    pub images: i64,
    /// Consecutive failed passes (> 0: shown as temporarily unavailable).
    pub failures: i64,
    pub error: String,
}

#[derive(Clone)]
pub struct Feeds {
    db: Db,
    rules: Arc<RwLock<Option<(Instant, ListRules)>>>,
}

fn db_err(e: sqlx::Error) -> AppError {
    AppError::internal(e)
}

impl Feeds {
    pub fn new(db: Db) -> Feeds {
        Feeds { db, rules: Arc::default() }
    }

    // ---- the §9 rules ----

    /// The rules document as stored (`null` when never written: every default applies).
    pub async fn rules_document(&self) -> Result<serde_json::Value, AppError> {
        let row = sqlx::query("SELECT value FROM site_settings WHERE key = $1").bind(RULES_KEY).fetch_optional(self.db.reader()).await.map_err(db_err)?;
        Ok(row.and_then(|r| serde_json::from_str(&r.get::<String, _>(0)).ok()).unwrap_or(serde_json::Value::Null))
    }

    /// The rules in force. A stored document that no longer reads (edited by hand) is
    /// logged and the defaults apply: a typo must not empty the lobby.
    pub async fn rules(&self) -> Result<ListRules, AppError> {
        if let Some((at, rules)) = self.rules.read().unwrap_or_else(|p| p.into_inner()).as_ref() {
            if at.elapsed() < RULES_TTL {
                return Ok(rules.clone());
            }
        }
        let doc = self.rules_document().await?;
        let rules = ListRules::from_document(&doc).unwrap_or_else(|e| {
            tracing::error!(error = %e, "providers: the rules document does not read; the defaults apply");
            ListRules::default()
        });
        *self.rules.write().unwrap_or_else(|p| p.into_inner()) = Some((Instant::now(), rules.clone()));
        Ok(rules)
    }

    /// Replaces the rules document (checked first: a bad one is refused with 47).
    pub async fn put_rules(&self, doc: &serde_json::Value) -> Result<ListRules, AppError> {
        let rules = ListRules::from_document(doc).map_err(|e| AppError::with_detail(ErrorCode::InvalidField, e))?;
        sqlx::query(
            "INSERT INTO site_settings (key, value, updated_at) VALUES ($1, $2, $3) \
             ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
        )
        .bind(RULES_KEY)
        .bind(doc.to_string())
        .bind(now_ms())
        .execute(self.db.writer())
        .await
        .map_err(db_err)?;
        *self.rules.write().unwrap_or_else(|p| p.into_inner()) = None;
        Ok(rules)
    }

    // ---- reading ----

    /// The provider's own fields of its games, by game id.
    pub async fn meta(&self, provider: &str) -> Result<HashMap<String, Meta>, AppError> {
        let rows = sqlx::query("SELECT game_id, meta FROM provider_game_meta WHERE provider = $1").bind(provider).fetch_all(self.db.reader()).await.map_err(db_err)?;
        Ok(rows
            .iter()
            .map(|r| (r.get::<String, _>(0), serde_json::from_str::<Meta>(&r.get::<String, _>(1)).unwrap_or_default()))
            .collect())
    }

    /// Catalogue games with their provider's fields (none for a game written at startup).
    pub async fn listed(&self, provider: &str, games: Vec<Game>) -> Result<Vec<Listed>, AppError> {
        if games.is_empty() {
            return Ok(Vec::new());
        }
        let mut meta = self.meta(provider).await?;
        Ok(games.into_iter().map(|g| Listed { meta: meta.remove(&g.game_id).unwrap_or_default(), game: g }).collect())
    }

    /// Whether the provider's last refresh failed.
    pub async fn unavailable(&self, provider: &str) -> Result<bool, AppError> {
        let row = sqlx::query("SELECT failures FROM provider_catalogue WHERE provider = $1").bind(provider).fetch_optional(self.db.reader()).await.map_err(db_err)?;
        Ok(row.is_some_and(|r| r.get::<i64, _>(0) > 0))
    }

    fn status_of(r: &store::sqlx::any::AnyRow) -> FeedStatus {
        FeedStatus {
            provider: r.get(0),
            state: r.get(1),
            started_at: r.get(2),
            finished_at: r.get(3),
            last_ok_at: r.get(4),
            fetched: r.get(5),
            games: r.get(6),
            images: r.get(7),
            failures: r.get(8),
            error: r.get(9),
        }
    }

    const STATUS: &'static str = "SELECT provider, state, started_at, finished_at, last_ok_at, fetched, games, images, failures, error FROM provider_catalogue";

    /// Every provider's last refresh.
    pub async fn statuses(&self) -> Result<Vec<FeedStatus>, AppError> {
        let rows = sqlx::query(&format!("{} ORDER BY provider", Self::STATUS)).fetch_all(self.db.reader()).await.map_err(db_err)?;
        Ok(rows.iter().map(Self::status_of).collect())
    }

    pub async fn status(&self, provider: &str) -> Result<Option<FeedStatus>, AppError> {
        let row = sqlx::query(&format!("{} WHERE provider = $1", Self::STATUS)).bind(provider).fetch_optional(self.db.reader()).await.map_err(db_err)?;
        Ok(row.as_ref().map(Self::status_of))
    }

    /// The cached image file of the provider's game called `name` (case-insensitive), for
    /// addresses that name a game rather than a file (Evoplay's `/images/{Name}.jpg`).
    pub async fn image_by_name(&self, provider: &str, name: &str) -> Result<Option<String>, AppError> {
        let row = sqlx::query(
            "SELECT m.image_file FROM provider_game_meta m JOIN casino_games g ON g.provider = m.provider AND g.game_id = m.game_id \
             WHERE m.provider = $1 AND LOWER(g.name) = LOWER($2) AND g.enabled = 1 AND m.image_file <> '' ORDER BY g.sort LIMIT 1",
        )
        .bind(provider)
        .bind(name)
        .fetch_optional(self.db.reader())
        .await
        .map_err(db_err)?;
        Ok(row.map(|r| r.get(0)))
    }

    /// The images already cached for a provider: file name by source address.
    pub async fn cached_images(&self, provider: &str) -> Result<HashMap<String, String>, AppError> {
        let rows = sqlx::query("SELECT image_source, image_file FROM provider_game_meta WHERE provider = $1 AND image_file <> '' AND image_source <> ''")
            .bind(provider)
            .fetch_all(self.db.reader())
            .await
            .map_err(db_err)?;
        Ok(rows.iter().map(|r| (r.get(0), r.get(1))).collect())
    }

    // ---- the refresh runs ----

    /// Takes the provider's refresh for `owner` until `lease_ms` from now, when nobody else
    /// holds it and its last pass is older than `ok_age_ms` (after a success) or
    /// `failed_age_ms` (after a failure); `0` ages force a pass. True when taken.
    pub async fn claim(&self, provider: &str, owner: &str, lease_ms: i64, ok_age_ms: i64, failed_age_ms: i64) -> Result<bool, AppError> {
        let now = now_ms();
        sqlx::query("INSERT INTO provider_catalogue (provider, updated_at) VALUES ($1, $2) ON CONFLICT (provider) DO NOTHING")
            .bind(provider)
            .bind(now)
            .execute(self.db.writer())
            .await
            .map_err(db_err)?;
        let taken = sqlx::query(
            "UPDATE provider_catalogue SET state = 'running', owner = $2, lease_until = $3, started_at = $4, fetched = 0, updated_at = $4 \
             WHERE provider = $1 AND (lease_until < $4 OR owner = $2) \
             AND ((state = 'failed' AND finished_at <= $5) OR (state <> 'failed' AND finished_at <= $6))",
        )
        .bind(provider)
        .bind(owner)
        .bind(now + lease_ms)
        .bind(now)
        .bind(now - failed_age_ms)
        .bind(now - ok_age_ms)
        .execute(self.db.writer())
        .await
        .map_err(db_err)?
        .rows_affected();
        Ok(taken == 1)
    }

    /// Records progress and extends the lease; false when the lease was lost (another
    /// owner took over after it lapsed): the pass must stop.
    pub async fn progress(&self, provider: &str, owner: &str, fetched: i64, images: i64, lease_ms: i64) -> Result<bool, AppError> {
        let now = now_ms();
        let n = sqlx::query("UPDATE provider_catalogue SET fetched = $3, images = $4, lease_until = $5, updated_at = $6 WHERE provider = $1 AND owner = $2")
            .bind(provider)
            .bind(owner)
            .bind(fetched)
            .bind(images)
            .bind(now + lease_ms)
            .bind(now)
            .execute(self.db.writer())
            .await
            .map_err(db_err)?
            .rows_affected();
        Ok(n == 1)
    }

    /// A good pass: the provider's row when it has none yet (a provider known only from its
    /// feed), its games replaced (those gone disabled), their fields, and the run's result —
    /// one transaction, applied only while `owner` holds the lease.
    pub async fn finish_ok(&self, provider: &NewProvider, owner: &str, games: &[ImportedGame]) -> Result<(), AppError> {
        let now = now_ms();
        let images = games.iter().filter(|g| !g.image_file.is_empty()).count() as i64;
        let mut tx = self.db.writer().begin().await.map_err(db_err)?;
        let held = sqlx::query(
            "UPDATE provider_catalogue SET state = 'ok', owner = '', lease_until = 0, finished_at = $3, last_ok_at = $3, \
             fetched = $4, games = $4, images = $5, failures = 0, error = '', updated_at = $3 WHERE provider = $1 AND owner = $2",
        )
        .bind(&provider.name)
        .bind(owner)
        .bind(now)
        .bind(games.len() as i64)
        .bind(images)
        .execute(&mut *tx)
        .await
        .map_err(db_err)?
        .rows_affected();
        if held != 1 {
            return Err(AppError::internal("the refresh lease was lost"));
        }
        sqlx::query(
            "INSERT INTO casino_providers (name, display_name, casino_type, auth_required, listed, enabled, priority, wallet_secret, launch_url, logo_url, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, 1, $6, NULL, $7, $8, $9, $9) ON CONFLICT (name) DO NOTHING",
        )
        .bind(&provider.name)
        .bind(&provider.display_name)
        .bind(&provider.casino_type)
        .bind(provider.auth_required as i64)
        .bind(provider.listed as i64)
        .bind(provider.priority)
        .bind(&provider.launch_url)
        .bind(provider.logo_url.clone())
        .bind(now)
        .execute(&mut *tx)
        .await
        .map_err(db_err)?;
        let new_games: Vec<NewGame> = games.iter().map(|g| g.game.clone()).collect();
        Catalogue::write_games(&mut tx, &provider.name, &new_games, now).await?;
        sqlx::query("DELETE FROM provider_game_meta WHERE provider = $1").bind(&provider.name).execute(&mut *tx).await.map_err(db_err)?;
        for g in games {
            sqlx::query(
                "INSERT INTO provider_game_meta (provider, game_id, meta, image_source, image_file, updated_at) VALUES ($1, $2, $3, $4, $5, $6) \
                 ON CONFLICT (provider, game_id) DO UPDATE SET meta = excluded.meta, image_source = excluded.image_source, \
                 image_file = excluded.image_file, updated_at = excluded.updated_at",
            )
            .bind(&provider.name)
            .bind(&g.game.game_id)
            .bind(serde_json::Value::Object(g.meta.clone()).to_string())
            .bind(&g.image_source)
            .bind(&g.image_file)
            .bind(now)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
        }
        tx.commit().await.map_err(db_err)
    }

    /// A failed pass: the catalogue stays as it was; the failure is counted and its reason
    /// kept (shown as temporarily unavailable until a pass succeeds).
    pub async fn finish_failed(&self, provider: &str, owner: &str, error: &str) -> Result<(), AppError> {
        let now = now_ms();
        let error: String = error.chars().take(500).collect();
        sqlx::query(
            "UPDATE provider_catalogue SET state = 'failed', owner = '', lease_until = 0, finished_at = $3, failures = failures + 1, \
             error = $4, updated_at = $3 WHERE provider = $1 AND owner = $2",
        )
        .bind(provider)
        .bind(owner)
        .bind(now)
        .bind(error)
        .execute(self.db.writer())
        .await
        .map_err(db_err)?;
        Ok(())
    }

    /// Whether the provider's catalogue was imported at least once (startup then leaves
    /// its games to the refresh job).
    pub async fn imported(&self, provider: &str) -> Result<bool, AppError> {
        let row = sqlx::query("SELECT last_ok_at FROM provider_catalogue WHERE provider = $1").bind(provider).fetch_optional(self.db.reader()).await.map_err(db_err)?;
        Ok(row.is_some_and(|r| r.get::<i64, _>(0) > 0))
    }
}
