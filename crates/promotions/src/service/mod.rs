//! The promotions service: bonuses (grant, wagering, conversion, give-up, expiry), and the
//! wallet observer that counts every stake toward them in the stake's own transaction.
//! Money moves only through the ledger; the rows here say why.

mod bonuses;
mod cashback;
mod codes;
mod coupons;
mod deposit_bonus;
mod freebets;
mod jackpots;
mod operator;
mod referral;
mod settlement;
mod summary;
mod watch;

pub use bonuses::{BonusView, Grant};
pub use cashback::{parse_week, CashbackRun};
pub use deposit_bonus::DepositBonusOffer;
pub use coupons::{CouponDraw, CouponMachine, CouponView, DrawPrize, MainCoupon, PrizeView};
pub use codes::{normalise, refusal_code, Activated, CodeSpec};
pub use freebets::{FreeBetStats, FreeBetView};
pub use jackpots::{verify_drop, JackpotView, JackpotWin};
pub use operator::{valid_key, CampaignPlayer, CampaignReport, CodeView, OperatorGrant, TemplateView};
pub use referral::{PartnerCodeApplied, NEW_PLAYER_MS};
pub use settlement::rakeback_of;
pub use summary::{PlayerPromotions, UnshownWin, POOLS_SNAPSHOT_MS};

use crate::terms::OperatorLimits;
use crate::wagering::{Category, ContributionTable};
use kernel::AppError;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use store::Db;
use tokio::sync::mpsc;
use wallet::Ledger;

/// The promotions service. Cheap to clone.
#[derive(Clone)]
pub struct Promotions {
    inner: Arc<Inner>,
}

pub(crate) struct Inner {
    pub db: Db,
    pub ledger: Ledger,
    pub limits: OperatorLimits,
    pub table: ContributionTable,
    /// The jackpot pools' contribution settings ([`Promotions::load_pools`]).
    pub pools: std::sync::RwLock<Vec<jackpots::PoolConf>>,
    /// The pools as the balance reply shows them (service/summary.rs).
    pub snapshot: std::sync::RwLock<summary::PoolsSnapshot>,
    /// The players' promotion rows as the balance reply last read them (service/summary.rs).
    pub players: Mutex<HashMap<i64, summary::CachedPlayer>>,
    /// Game categories by (provider, game id), read once from the catalogue.
    pub categories: Mutex<HashMap<(String, String), Category>>,
    /// Bonuses whose wagering was met by a stake: converted right after its commit (the
    /// sweep converts any left by a restart).
    pub met: mpsc::UnboundedSender<i64>,
    /// Players whose deposit was just credited: a deposit bonus they activated is granted
    /// right after the commit (the sweep grants any a restart left).
    pub deposited: mpsc::UnboundedSender<i64>,
    /// The weekly cashback payer's in-process owner (service/cashback.rs).
    pub cashback_owner: tokio::sync::Mutex<()>,
    /// The site settings (`limits.bonus`) for the standing offers (service/deposit_bonus.rs).
    pub content: std::sync::OnceLock<content::Content>,
}

pub(crate) fn db_err(e: impl std::fmt::Display) -> AppError {
    AppError::internal(e)
}

impl Promotions {
    /// Creates the service and makes it the ledger's posting observer. Must be called inside a
    /// Tokio runtime (the converter task starts here).
    pub fn new(db: Db, ledger: Ledger) -> Promotions {
        Promotions::with_limits(db, ledger, OperatorLimits::default())
    }

    pub fn with_limits(db: Db, ledger: Ledger, limits: OperatorLimits) -> Promotions {
        let (met, mut met_rx) = mpsc::unbounded_channel();
        let (deposited, mut deposited_rx) = mpsc::unbounded_channel::<i64>();
        let inner = Arc::new(Inner {
            db,
            ledger: ledger.clone(),
            limits,
            table: ContributionTable::default(),
            categories: Mutex::new(HashMap::new()),
            pools: Default::default(),
            snapshot: Default::default(),
            players: Default::default(),
            met,
            deposited,
            cashback_owner: tokio::sync::Mutex::new(()),
            content: std::sync::OnceLock::new(),
        });
        // Weak references: the ledger (and the task) must not keep the service alive.
        if !ledger.set_observer(Arc::new(watch::Watch(Arc::downgrade(&inner)))) {
            tracing::warn!(
                "the ledger already has a posting observer; promotions do not watch stakes"
            );
        }
        let weak = Arc::downgrade(&inner);
        tokio::spawn(async move {
            while let Some(bonus_id) = met_rx.recv().await {
                let Some(inner) = weak.upgrade() else { return };
                if let Err(e) = (Promotions { inner }).convert(bonus_id).await {
                    tracing::warn!(bonus_id, error = %e, "bonus conversion deferred to the sweep");
                }
            }
        });
        let weak = Arc::downgrade(&inner);
        tokio::spawn(async move {
            while let Some(user_id) = deposited_rx.recv().await {
                let Some(inner) = weak.upgrade() else { return };
                let p = Promotions { inner };
                if let Err(e) = p.grant_deposit_bonuses(user_id).await {
                    tracing::warn!(user_id, error = %e, "deposit bonus deferred to the sweep");
                }
                // The standing deposit bonus the player opted into (service/deposit_bonus.rs).
                if let Err(e) = p.grant_standing_deposit_bonuses(user_id).await {
                    tracing::warn!(user_id, error = %e, "standing deposit bonus deferred to the sweep");
                }
            }
        });
        Promotions { inner }
    }

    /// What the sportsbook calls when bets settle (sport-bonus wagering, rakeback):
    /// `betting.set_settle_hook(promotions.settle_hook())`. Holds the service weakly.
    pub fn settle_hook(&self) -> Arc<dyn betting::SettleHook> {
        Arc::new(settlement::Settle(Arc::downgrade(&self.inner)))
    }

    pub fn limits(&self) -> OperatorLimits {
        self.inner.limits
    }

    pub(crate) fn db(&self) -> &Db {
        &self.inner.db
    }

    pub(crate) fn ledger(&self) -> &Ledger {
        &self.inner.ledger
    }
}
