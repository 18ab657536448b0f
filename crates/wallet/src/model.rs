use kernel::{AppError, Currency, ErrorCode, Minor};
use serde::{Deserialize, Serialize};
use std::str::FromStr;

/// The balances a player holds, each its own ledger account per currency.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BalanceKind {
    Real,
    Bonus,
    FreeBet,
    Cashback,
    WeeklyCashback,
    Points,
    /// A cashier's or super agent's cash float: the e-money a cashier holds against the cash
    /// in the till. A cash deposit moves it to the player, a payout back; never negative.
    Float,
}

impl BalanceKind {
    pub const ALL: [BalanceKind; 7] = [
        BalanceKind::Real,
        BalanceKind::Bonus,
        BalanceKind::FreeBet,
        BalanceKind::Cashback,
        BalanceKind::WeeklyCashback,
        BalanceKind::Points,
        BalanceKind::Float,
    ];

    pub const fn as_str(self) -> &'static str {
        match self {
            BalanceKind::Real => "real",
            BalanceKind::Bonus => "bonus",
            BalanceKind::FreeBet => "free_bet",
            BalanceKind::Cashback => "cashback",
            BalanceKind::WeeklyCashback => "weekly_cashback",
            BalanceKind::Points => "points",
            BalanceKind::Float => "float",
        }
    }

    /// The house account that funds (and takes back) manual adjustments of this balance.
    pub const fn funding_house(self) -> HouseAccount {
        match self {
            BalanceKind::Cashback | BalanceKind::WeeklyCashback => HouseAccount::Cashback,
            BalanceKind::Bonus | BalanceKind::FreeBet | BalanceKind::Points => HouseAccount::Bonuses,
            BalanceKind::Real => HouseAccount::Adjustments,
            BalanceKind::Float => HouseAccount::Floats,
        }
    }

    /// The spec §8 code for "not enough on this balance".
    pub const fn insufficient_code(self) -> ErrorCode {
        match self {
            BalanceKind::Bonus => ErrorCode::InsufficientBonus,
            BalanceKind::FreeBet => ErrorCode::FreeBetsEmpty,
            _ => ErrorCode::InsufficientBalance,
        }
    }
}

impl FromStr for BalanceKind {
    type Err = ();
    fn from_str(s: &str) -> Result<Self, ()> {
        let s = s.trim().to_ascii_lowercase().replace('-', "_");
        BalanceKind::ALL
            .into_iter()
            .find(|k| k.as_str() == s || (s == "freebet" && *k == BalanceKind::FreeBet))
            .ok_or(())
    }
}

/// House (operator) accounts. Their balance is the sum of their entries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum HouseAccount {
    /// Counterpart of manual adjustments (`carthage wallet adjust`).
    Adjustments,
    /// Funds cashback and weekly cashback.
    Cashback,
    /// Money received from deposits and paid out by withdrawals.
    Payments,
    /// Stakes taken and winnings paid by games and bets.
    Games,
    /// Bonus and free-bet funding.
    Bonuses,
    /// Demo-mode credits (never in production).
    DemoCredit,
    /// Player funds held by withdrawals in progress (requested, not yet paid or released).
    WithdrawalsPending,
    /// Counterpart of the cash floats the operator issues to its super agents and cashiers.
    Floats,
    /// Stakes taken and payouts made by our own sportsbook (its profit and loss apart from
    /// the games').
    Sportsbook,
    /// Stakes and payouts of the partner sportsbooks (Digitain, GR8) through the seamless
    /// wallet: their profit and loss apart from the games' and our own sportsbook's.
    PartnerSports,
    /// The jackpot pools' money: stakes' contributions in, wins out.
    Jackpots,
}

impl HouseAccount {
    pub const fn as_str(self) -> &'static str {
        match self {
            HouseAccount::Adjustments => "house:adjustments",
            HouseAccount::Cashback => "house:cashback",
            HouseAccount::Payments => "house:payments",
            HouseAccount::Games => "house:games",
            HouseAccount::Bonuses => "house:bonuses",
            HouseAccount::DemoCredit => "house:demo_credit",
            HouseAccount::WithdrawalsPending => "house:withdrawals_pending",
            HouseAccount::Floats => "house:floats",
            HouseAccount::Sportsbook => "house:sportsbook",
            HouseAccount::PartnerSports => "house:partner_sports",
            HouseAccount::Jackpots => "house:jackpots",
        }
    }

    pub const ALL: [HouseAccount; 11] = [
        HouseAccount::Adjustments,
        HouseAccount::Cashback,
        HouseAccount::Payments,
        HouseAccount::Games,
        HouseAccount::Bonuses,
        HouseAccount::DemoCredit,
        HouseAccount::WithdrawalsPending,
        HouseAccount::Floats,
        HouseAccount::Sportsbook,
        HouseAccount::PartnerSports,
        HouseAccount::Jackpots,
    ];

    pub fn parse(s: &str) -> Option<HouseAccount> {
        HouseAccount::ALL.into_iter().find(|h| h.as_str() == s)
    }
}

/// Transaction types: the spec's payment types (§3) and ours.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TxType {
    RefillBalance,
    BetWin,
    Withdrawal,
    Deposit,
    PaymentService,
    CashierPayment,
    ManualAdjustment,
    CashbackTransfer,
    DemoCredit,
    BetStake,
    Rollback,
    /// A rollback that arrived before the transaction it cancels: a row under the
    /// original key with no entries, so the transaction is refused if it comes later.
    Tombstone,
    /// A withdrawal paid out by its provider: the held funds leave for good
    /// (`house:withdrawals_pending` → `house:payments`). The hold itself is type 10.
    WithdrawalSettled,
    /// A withdrawal that failed, expired or was cancelled: the hold returns to the player.
    WithdrawalReleased,
    /// A cashier paid a withdrawal in cash: the hold moves to the cashier's float.
    CashierPayout,
    /// Float moved between a super agent and one of its cashiers.
    FloatTransfer,
    /// Float issued to (or taken back from) a super agent by the operator (`house:floats`).
    FloatIssue,
    /// A sportsbook bet's stake (player → `house:sportsbook`), keyed by the bet.
    SportStake,
    /// A settled sportsbook bet's return, stake included (win, void refund, half results).
    SportPayout,
    /// The difference posted when a settled bet is settled again (a corrected result), in
    /// either direction; never a second payout.
    SportResettle,
    /// A partner sportsbook's debit through the seamless wallet (a stake, a negative
    /// adjustment): player → `house:partner_sports`, keyed `prov:{partner}:{tx}`.
    PartnerSportStake,
    /// A partner sportsbook's credit through the seamless wallet (a settlement, a
    /// winning, a refund): `house:partner_sports` → player.
    PartnerSportPayout,
    /// A bonus granted into the bonus balance (`house:bonuses` → player bonus).
    BonusGrant,
    /// A wagered-through bonus converted: the bonus balance leaves, to real money up to the
    /// maximum conversion, the rest back to `house:bonuses`.
    BonusConversion,
    /// A bonus given up by the player, expired or cancelled: its balance back to `house:bonuses`.
    BonusForfeit,
    /// Free bets activated by the player: `house:bonuses` → player free-bet balance.
    FreeBetGrant,
    /// Free bets expired unused: player free-bet balance → `house:bonuses`.
    FreeBetExpiry,
    /// A week's cashback paid (`house:cashback` → player cashback balance), keyed
    /// `wcb:{week}:{user}`: once per player and week.
    WeeklyCashbackPayout,
    /// A stake's share paid into a jackpot pool (`house:games` → `house:jackpots`).
    JackpotContribution,
    /// A jackpot won (`house:jackpots` → player real balance), keyed `jackpot:{pool}:{cycle}`.
    JackpotWin,
    /// Rakeback on a lost qualifying real-money express (`house:cashback` → player cashback
    /// balance), keyed `rakeback:{bet}`: once per bet.
    Rakeback,
    /// A rakeback taken back because a corrected result made its bet a winner (player
    /// cashback → `house:cashback`), keyed `rakeback:{bet}:reverse`: once per bet.
    RakebackReversal,
    /// A coupon-draw prize (`house:bonuses` → the winner's real or bonus balance), keyed
    /// `coupon:{draw}:{coupon}`: once per winning coupon.
    CouponPrize,
    /// A super agent's weekly cashback on its network's net loss (`house:cashback` → the
    /// agent's cashback balance), keyed `sacb:{week}:{agent}`: once per agent and week.
    SuperAgentCashback,
}

impl TxType {
    pub const ALL: [TxType; 34] = [
        TxType::RefillBalance,
        TxType::BetWin,
        TxType::Withdrawal,
        TxType::Deposit,
        TxType::PaymentService,
        TxType::CashierPayment,
        TxType::ManualAdjustment,
        TxType::CashbackTransfer,
        TxType::DemoCredit,
        TxType::BetStake,
        TxType::Rollback,
        TxType::Tombstone,
        TxType::WithdrawalSettled,
        TxType::WithdrawalReleased,
        TxType::CashierPayout,
        TxType::FloatTransfer,
        TxType::FloatIssue,
        TxType::SportStake,
        TxType::SportPayout,
        TxType::SportResettle,
        TxType::PartnerSportStake,
        TxType::PartnerSportPayout,
        TxType::BonusGrant,
        TxType::BonusConversion,
        TxType::BonusForfeit,
        TxType::FreeBetGrant,
        TxType::FreeBetExpiry,
        TxType::WeeklyCashbackPayout,
        TxType::JackpotContribution,
        TxType::JackpotWin,
        TxType::Rakeback,
        TxType::RakebackReversal,
        TxType::CouponPrize,
        TxType::SuperAgentCashback,
    ];

    pub const fn code(self) -> i64 {
        match self {
            TxType::RefillBalance => 1,
            TxType::BetWin => 6,
            TxType::Withdrawal => 10,
            TxType::Deposit => 11,
            TxType::PaymentService => 16,
            TxType::CashierPayment => 114,
            TxType::ManualAdjustment => 200,
            TxType::CashbackTransfer => 201,
            TxType::DemoCredit => 202,
            TxType::BetStake => 203,
            TxType::Rollback => 204,
            TxType::Tombstone => 205,
            TxType::WithdrawalSettled => 206,
            TxType::WithdrawalReleased => 207,
            TxType::CashierPayout => 208,
            TxType::FloatTransfer => 209,
            TxType::FloatIssue => 210,
            TxType::SportStake => 211,
            TxType::SportPayout => 212,
            TxType::SportResettle => 213,
            TxType::PartnerSportStake => 214,
            TxType::PartnerSportPayout => 215,
            TxType::BonusGrant => 216,
            TxType::BonusConversion => 217,
            TxType::BonusForfeit => 218,
            TxType::FreeBetGrant => 219,
            TxType::FreeBetExpiry => 220,
            TxType::WeeklyCashbackPayout => 221,
            TxType::JackpotContribution => 222,
            TxType::JackpotWin => 223,
            TxType::Rakeback => 224,
            TxType::RakebackReversal => 225,
            TxType::CouponPrize => 226,
            TxType::SuperAgentCashback => 227,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            TxType::RefillBalance => "refill_balance",
            TxType::BetWin => "bet_win",
            TxType::Withdrawal => "withdrawal",
            TxType::Deposit => "deposit",
            TxType::PaymentService => "payment_service",
            TxType::CashierPayment => "cashier_payment",
            TxType::ManualAdjustment => "manual_adjustment",
            TxType::CashbackTransfer => "cashback_transfer",
            TxType::DemoCredit => "demo_credit",
            TxType::BetStake => "bet_stake",
            TxType::Rollback => "rollback",
            TxType::Tombstone => "tombstone",
            TxType::WithdrawalSettled => "withdrawal_settled",
            TxType::WithdrawalReleased => "withdrawal_released",
            TxType::CashierPayout => "cashier_payout",
            TxType::FloatTransfer => "float_transfer",
            TxType::FloatIssue => "float_issue",
            TxType::SportStake => "sport_stake",
            TxType::SportPayout => "sport_payout",
            TxType::SportResettle => "sport_resettle",
            TxType::PartnerSportStake => "partner_sport_stake",
            TxType::PartnerSportPayout => "partner_sport_payout",
            TxType::BonusGrant => "bonus_grant",
            TxType::BonusConversion => "bonus_conversion",
            TxType::BonusForfeit => "bonus_forfeit",
            TxType::FreeBetGrant => "free_bet_grant",
            TxType::FreeBetExpiry => "free_bet_expiry",
            TxType::WeeklyCashbackPayout => "weekly_cashback_payout",
            TxType::JackpotContribution => "jackpot_contribution",
            TxType::JackpotWin => "jackpot_win",
            TxType::Rakeback => "rakeback",
            TxType::RakebackReversal => "rakeback_reversal",
            TxType::CouponPrize => "coupon_prize",
            TxType::SuperAgentCashback => "super_agent_cashback",
        }
    }

    pub fn from_code(code: i64) -> Option<TxType> {
        TxType::ALL.into_iter().find(|t| t.code() == code)
    }

    /// Every type that is a player's stake, whatever the product: a casino or studio game's
    /// bet (203, our games and the providers'), a sportsbook bet (211), a partner
    /// sportsbook's debit (214). **The one list** every rule that counts stakes uses (the
    /// deposit turnover before a withdrawal); a stake cancelled by its provider is a
    /// rollback (204) crediting it back.
    pub const STAKES: [TxType; 3] = [TxType::BetStake, TxType::SportStake, TxType::PartnerSportStake];

    /// True for a stake type ([`Self::STAKES`]).
    pub fn is_stake(self) -> bool {
        TxType::STAKES.contains(&self)
    }

    /// The stake types' codes as an SQL list (`203, 211, 214`), for `tx_type IN (…)`.
    pub fn stake_codes_sql() -> String {
        TxType::STAKES.iter().map(|t| t.code().to_string()).collect::<Vec<_>>().join(", ")
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AccountRef {
    Player { user_id: i64, kind: BalanceKind },
    House(HouseAccount),
}

/// One side of a posting: `amount` is added to the account (negative = debit).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Leg {
    pub account: AccountRef,
    pub currency: Currency,
    pub amount: Minor,
}

impl Leg {
    pub fn player(user_id: i64, kind: BalanceKind, currency: Currency, amount: Minor) -> Leg {
        Leg { account: AccountRef::Player { user_id, kind }, currency, amount }
    }
    pub fn house(account: HouseAccount, currency: Currency, amount: Minor) -> Leg {
        Leg { account: AccountRef::House(account), currency, amount }
    }
}

/// An audit record written in the same database transaction as the posting.
#[derive(Debug, Clone)]
pub struct Audit {
    pub actor: String,
    pub action: String,
    pub subject: String,
    pub details: serde_json::Value,
}

#[derive(Debug, Clone)]
pub struct PostingRequest {
    pub tx_type: TxType,
    pub idempotency_key: String,
    /// The player the posting belongs to (for history), if any.
    pub user_id: Option<i64>,
    pub comment: String,
    pub metadata: serde_json::Value,
    pub legs: Vec<Leg>,
    pub audit: Option<Audit>,
    /// Extra parameters that make a repeat of the key a conflict when they differ (e.g. a
    /// provider's round and game): hashed with the legs when present.
    pub fingerprint: Option<String>,
    /// The group the posting belongs to (a provider's round): stored in an indexed column
    /// so [`crate::Ledger::group_has`] can tell whether a round has a bet.
    pub group: Option<String>,
}

impl PostingRequest {
    /// A two-leg transfer of `amount` from `from` to `to`.
    pub fn transfer(
        tx_type: TxType,
        idempotency_key: impl Into<String>,
        user_id: Option<i64>,
        currency: Currency,
        from: AccountRef,
        to: AccountRef,
        amount: Minor,
    ) -> PostingRequest {
        PostingRequest {
            tx_type,
            idempotency_key: idempotency_key.into(),
            user_id,
            comment: String::new(),
            metadata: serde_json::json!({}),
            legs: vec![
                Leg { account: from, currency, amount: -amount },
                Leg { account: to, currency, amount },
            ],
            audit: None,
            fingerprint: None,
            group: None,
        }
    }

    pub fn group(mut self, group: impl Into<String>) -> Self {
        self.group = Some(group.into());
        self
    }

    pub fn fingerprint(mut self, fingerprint: impl Into<String>) -> Self {
        self.fingerprint = Some(fingerprint.into());
        self
    }

    pub fn comment(mut self, comment: impl Into<String>) -> Self {
        self.comment = comment.into();
        self
    }

    pub fn metadata(mut self, metadata: serde_json::Value) -> Self {
        self.metadata = metadata;
        self
    }

    pub fn audit(mut self, audit: Audit) -> Self {
        self.audit = Some(audit);
        self
    }
}

/// A player balance after a posting.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LegBalance {
    pub user_id: i64,
    pub kind: BalanceKind,
    pub currency: Currency,
    pub amount: Minor,
    pub balance_after: Minor,
}

/// The result of a posting; a replay answers the original receipt with `replayed`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Receipt {
    pub tx_id: i64,
    pub created_at: i64,
    pub replayed: bool,
    pub balances: Vec<LegBalance>,
}

impl Receipt {
    pub fn balance_after(&self, user_id: i64, kind: BalanceKind) -> Option<Minor> {
        self.balances.iter().find(|b| b.user_id == user_id && b.kind == kind).map(|b| b.balance_after)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Balance {
    pub kind: BalanceKind,
    pub currency: Currency,
    pub amount: Minor,
}

#[derive(Debug, thiserror::Error)]
pub enum LedgerError {
    #[error("insufficient {} balance", .0.as_str())]
    Insufficient(BalanceKind),
    #[error("idempotency key reused with different parameters")]
    IdempotencyConflict,
    #[error("invalid posting: {0}")]
    Invalid(String),
    #[error("storage: {0}")]
    Store(#[from] store::sqlx::Error),
    /// The key was tombstoned by a rollback that arrived first: the transaction is refused.
    #[error("the transaction was rolled back before it arrived")]
    Tombstoned,
    /// The outcome is not durable (the commit or the writer failed): retry with the key.
    #[error("ledger unavailable: {0}")]
    Unavailable(String),
    /// A rollback named a posting that is not a bet or a win (a rollback, an adjustment…).
    #[error("only bets and wins can be rolled back")]
    NotReversible,
    /// A leg moves more than the largest amount one posting may move ([`LedgerLimits`]).
    #[error("the amount is above the per-transaction maximum")]
    AmountTooLarge,
    /// A credit would take a player balance above its maximum ([`LedgerLimits`]).
    #[error("the balance would exceed its maximum")]
    BalanceLimit,
    /// The caller's writes attached to the posting declined it ([`crate::Ledger::post_with`]):
    /// nothing was written.
    #[error("the attached writes declined the posting")]
    Declined,
    /// A rule watching the posting refused it before any money moved (a stake above an open
    /// bonus's maximum bet): the error the caller answers, nothing was written.
    #[error("refused: {0:?}")]
    Refused(AppError),
}

impl From<LedgerError> for AppError {
    fn from(e: LedgerError) -> AppError {
        match e {
            LedgerError::Insufficient(kind) => AppError::new(kind.insufficient_code()),
            LedgerError::IdempotencyConflict => AppError::new(ErrorCode::IdempotencyConflict),
            LedgerError::Tombstoned => AppError::new(ErrorCode::TransactionRolledBack),
            LedgerError::Invalid(msg) => AppError::with_detail(ErrorCode::TransactionFailed, msg),
            LedgerError::Store(e) => AppError::internal(e),
            LedgerError::Unavailable(e) => AppError::internal(e),
            LedgerError::NotReversible => AppError::new(ErrorCode::NotReversible),
            LedgerError::AmountTooLarge => AppError::new(ErrorCode::AmountTooLarge),
            LedgerError::BalanceLimit => AppError::new(ErrorCode::BalanceLimit),
            LedgerError::Declined => AppError::with_detail(ErrorCode::TransactionFailed, "declined"),
            LedgerError::Refused(e) => e,
        }
    }
}

/// One item of [`crate::Ledger::post_all`].
#[derive(Debug, Clone)]
pub enum AllRequest {
    Post(PostingRequest),
    Rollback(RollbackRequest),
}

/// What one item of [`crate::Ledger::post_all`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AllOutcome {
    Posted(Receipt),
    RolledBack(RollbackOutcome),
}

/// Cancels the posting stored under `original_key` (a provider's rollback).
#[derive(Debug, Clone)]
pub struct RollbackRequest {
    /// The idempotency key of the posting to cancel.
    pub original_key: String,
    /// The idempotency key of the reversal (retries answer the same outcome).
    pub rollback_key: String,
    pub user_id: Option<i64>,
    pub comment: String,
    pub metadata: serde_json::Value,
}

/// A posting found by its idempotency key ([`crate::Ledger::lookup`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PostedTx {
    pub tx_id: i64,
    pub tx_type: i64,
    pub user_id: Option<i64>,
    pub metadata: serde_json::Value,
    pub created_at: i64,
    /// A rollback's tombstone, not a posting.
    pub tombstone: bool,
}

/// What a rollback did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RollbackOutcome {
    /// The posting existed: the reversal's receipt (replayed on a retry of the same rollback).
    Reversed(Receipt),
    /// The posting had already been reversed by a rollback with another key: that first
    /// reversal's receipt (`replayed`); nothing moved this time.
    AlreadyReversed(Receipt),
    /// The posting was unknown: a tombstone now refuses it; no money moved.
    Tombstoned,
}

/// The largest amount one leg may move and the largest a player balance may reach, in
/// major units of any currency (minor units follow the currency's exponent). They keep
/// every sum far from the 64-bit range on both databases: SQLite turns an overflowing
/// integer into a float, PostgreSQL fails the statement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LedgerLimits {
    pub max_amount_major: i64,
    pub max_balance_major: i64,
}

impl Default for LedgerLimits {
    /// 100 million per posting, 10 billion per balance: with the largest exponent we
    /// carry (USDT, 6) that is 10^14 and 10^16 minor units, below 2^63 ≈ 9.2·10^18.
    fn default() -> Self {
        LedgerLimits { max_amount_major: 100_000_000, max_balance_major: 10_000_000_000 }
    }
}

impl LedgerLimits {
    /// Refuses limits that could overflow 64 bits in some currency.
    pub fn validate(&self) -> Result<(), String> {
        let biggest = 10i64.pow(6);
        if self.max_amount_major <= 0 || self.max_balance_major <= 0 {
            return Err("ledger limits must be positive".into());
        }
        if self.max_balance_major > i64::MAX / 4 / biggest || self.max_amount_major > self.max_balance_major {
            return Err("ledger limits are too large (balance ≤ 2·10^12 major units, amount ≤ balance)".into());
        }
        Ok(())
    }

    fn scale(currency: Currency, major: i64) -> Minor {
        major.saturating_mul(10i64.saturating_pow(currency.exponent()))
    }

    /// The largest amount one leg may move, in minor units.
    pub fn max_amount(&self, currency: Currency) -> Minor {
        Self::scale(currency, self.max_amount_major)
    }

    /// The largest a player balance may reach, in minor units.
    pub fn max_balance(&self, currency: Currency) -> Minor {
        Self::scale(currency, self.max_balance_major)
    }
}
