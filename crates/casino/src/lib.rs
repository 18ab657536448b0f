//! Casino (ARCHITECTURE §3): the game catalogue (providers, games, tabs), favourites,
//! per-player provider blocks, launching games (game sessions) and the seamless provider
//! wallet through which every game — in-house studio or third party — moves money.

pub mod catalogue;
pub mod feeds;
pub mod sessions;
pub mod shapes;
pub mod signature;
pub mod wallet;

pub use catalogue::{Catalogue, Game, NewGame, NewProvider, Provider, ProviderConfig};
pub use sessions::{GameSession, Sessions};
pub use wallet::{BalanceCall, Booking, ProviderRules, ProviderWallet, RollbackCall, WalletCall, WalletOp, WalletReply, PARTNER_SPORTSBOOKS};

use kernel::{AppError, Currency, ErrorCode};
use serde::Serialize;
use store::Db;
use utoipa::ToSchema;
use ::wallet::Ledger;

/// The provider of the in-house games.
pub const STUDIO: &str = "studio";

/// Who asks for a launch.
#[derive(Debug, Clone, Copy)]
pub struct Player {
    pub user_id: i64,
    pub role: i64,
    pub currency: Currency,
    /// The player session (sign-in) asking: a game session it launches ends with it.
    pub session_id: i64,
}

/// What a launch returns (spec §4 session start).
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Launch {
    /// What the game page frames.
    pub url: String,
    pub session_token: String,
}

#[derive(Clone)]
pub struct Casino {
    catalogue: Catalogue,
    sessions: Sessions,
    wallet: ProviderWallet,
    feeds: feeds::Feeds,
}

impl Casino {
    pub fn new(db: Db, ledger: Ledger) -> Casino {
        let sessions = Sessions::new(db.clone());
        let feeds = feeds::Feeds::new(db.clone());
        let catalogue = Catalogue::new(db);
        Casino { wallet: ProviderWallet::new(ledger, sessions.clone(), catalogue.clone()), catalogue, sessions, feeds }
    }

    /// The providers' imported catalogues: their own fields, refresh runs and §9 rules.
    pub fn feeds(&self) -> &feeds::Feeds {
        &self.feeds
    }

    pub fn catalogue(&self) -> &Catalogue {
        &self.catalogue
    }
    pub fn sessions(&self) -> &Sessions {
        &self.sessions
    }
    pub fn wallet(&self) -> &ProviderWallet {
        &self.wallet
    }

    /// Spec §4 game list: unknown provider → 60; guests get nothing of an auth-required
    /// provider; a signed-in account other than a player gets nothing; a provider banned
    /// for the player shows nothing.
    pub async fn game_list(&self, provider: &str, viewer: Option<Player>) -> Result<Vec<Game>, AppError> {
        let provider = provider.trim().to_ascii_lowercase();
        let games = self.catalogue.games(&provider).await?;
        let Some(player) = viewer else {
            return Ok(games.into_iter().filter(|g| !g.auth_required).collect());
        };
        if player.role != 0 {
            return Ok(Vec::new());
        }
        let banned = self.catalogue.banned_set(Some(player.user_id)).await?;
        if catalogue::is_banned(&provider, &banned) {
            return Ok(Vec::new());
        }
        Ok(games)
    }

    /// Spec §4 session start: a player (role 0) opens a game; guests and other roles get 61.
    pub async fn launch(&self, player: Option<Player>, provider: &str, game_id: &str, lang: &str, platform: &str) -> Result<Launch, AppError> {
        let player = match player {
            Some(p) if p.role == 0 => p,
            _ => return Err(AppError::new(ErrorCode::BetsNotAllowed)),
        };
        let provider = provider.trim().to_ascii_lowercase();
        let config = self.catalogue.provider_config(&provider).await?.ok_or_else(|| AppError::new(ErrorCode::ProviderNotConfigured))?;
        if !config.enabled {
            return Err(AppError::new(ErrorCode::GameNotFound));
        }
        let banned = self.catalogue.banned_set(Some(player.user_id)).await?;
        if catalogue::is_banned(&provider, &banned) {
            return Err(AppError::new(ErrorCode::ProviderBlocked));
        }
        self.catalogue.game(&provider, game_id).await?.ok_or_else(|| AppError::new(ErrorCode::GameNotFound))?;
        let lang = match lang.get(..2).map(str::to_ascii_lowercase).as_deref() {
            Some(l @ ("en" | "fr" | "ar")) => l.to_string(),
            _ => "en".to_string(),
        };
        let platform = if platform.eq_ignore_ascii_case("desktop") { "desktop" } else { "mobile" };
        let token = self
            .sessions
            .create(sessions::NewSession {
                user_id: player.user_id,
                player_session_id: Some(player.session_id),
                provider: &provider,
                game_id,
                currency: player.currency,
                lang: &lang,
                platform,
            })
            .await?;
        let url = config
            .launch_url
            .replace("{gameId}", &urlencode(game_id))
            .replace("{token}", &token)
            .replace("{lang}", &lang)
            .replace("{userId}", &player.user_id.to_string());
        Ok(Launch { url, session_token: token })
    }
}

/// Percent-encodes everything but unreserved characters (RFC 3986).
pub fn urlencode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}
