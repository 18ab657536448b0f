//! The seamless wallet (ARCHITECTURE §3): `Balance`, `Bet`, `Win`, `Rollback` for every
//! provider — third-party adapters over HTTP and the studio in-process — and the only way
//! casino money moves. Each command is one ledger posting under the key
//! `prov:{provider}:{transaction id}`, so the ledger's unique index makes it idempotent
//! in the same database transaction as the balance change:
//! * a replay answers the original reply (the stored receipt);
//! * the same transaction id with another amount, player, round or game is a conflicting
//!   duplicate (26);
//! * a rollback of an unknown transaction leaves a tombstone; the bet arriving after it is
//!   refused (28);
//! * stakes need a live session and a player allowed to play; wins and rollbacks are
//!   honoured with an expired session or a banned player (money owed is paid);
//! * a zero amount is recorded like any other (a posting whose legs are zero), so its id
//!   is claimed: the same id later with an amount is a conflict (26), and a zero stake on a
//!   rolled-back id is refused (28);
//! * a bet or win is reversed at most once, and only bets and wins are reversible: a
//!   second rollback of the same transaction under a new id answers the first reversal
//!   (no money moves), a rollback naming a rollback is refused (29), a rollback whose own
//!   id is another transaction's is a conflict (26) — all decided by the ledger's unique
//!   indexes, on both databases;
//! * the currency must be the wallet's ISO code exactly (`"TND"`, not `"tnd"` or `"TND "`);
//! * money follows the game, not the caller's word (ARCHITECTURE §3), and these rules are
//!   read here from the provider's own settings ([`ProviderRules`]), never from a flag a
//!   caller passes: a win of a provider whose wins need a bet
//!   (`casino_providers.win_requires_bet`, the default; always for the partner sportsbooks)
//!   gets 32 in a round where the player has no bet — on every path (alone, many at once,
//!   all-or-none); a rollback names a transaction of the same player (72); an amend
//!   ([`WalletOp::Amend`]) names a win of the same player (72). Only the studio, whose
//!   in-process runtime always stakes before it pays, skips the bet look-up
//!   ([`ProviderRules::of`]); no other provider can reach that path.

use crate::catalogue::Catalogue;
use crate::sessions::{GameSession, Sessions};
use kernel::clock::now_ms;
use kernel::{AppError, ErrorCode};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use ::wallet::{AccountRef, BalanceKind, HouseAccount, Ledger, PostingRequest, RollbackOutcome, RollbackRequest, TxType};

/// `balance` request body.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BalanceCall {
    pub session_token: String,
}

/// `bet` / `win` request body.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WalletCall {
    pub session_token: String,
    /// The provider's id of this transaction (unique per provider).
    pub transaction_id: String,
    pub round_id: String,
    pub game_id: String,
    /// Integer minor units of `currency`.
    pub amount: i64,
    pub currency: String,
}

/// `rollback` request body.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RollbackCall {
    pub session_token: String,
    /// The provider's id of the rollback itself.
    pub transaction_id: String,
    /// The transaction to cancel.
    pub reference_transaction_id: String,
    #[serde(default)]
    pub round_id: String,
    #[serde(default)]
    pub game_id: String,
}

/// Every wallet reply: the player's real balance after the operation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WalletReply {
    /// Integer minor units.
    pub balance: i64,
    pub currency: String,
    pub player_id: i64,
    /// The provider's transaction id (null for `balance`).
    pub transaction_id: Option<String>,
    /// Our ledger transaction (null for `balance` and for a rollback that left a tombstone).
    pub ledger_tx_id: Option<i64>,
    /// Set when this answer replays an earlier identical call (not part of the HTTP reply).
    #[serde(skip)]
    pub replayed: bool,
}

fn check_id(name: &str, v: &str) -> Result<(), AppError> {
    if v.trim().is_empty() || v.len() > 100 || v.chars().any(|c| c.is_control()) {
        return Err(AppError::with_detail(ErrorCode::BadRequest, format!("{name} must be 1 to 100 printable characters")));
    }
    Ok(())
}

/// The partner sportsbooks: their money goes through this same wallet but is booked apart
/// from the casino's (types 214/215 against `house:partner_sports`), so promotions and
/// reports can tell sport play from casino play.
pub const PARTNER_SPORTSBOOKS: [&str; 2] = ["digitain", "gr8"];

/// How a provider's stakes and wins are booked in the ledger.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Booking {
    pub stake: TxType,
    pub win: TxType,
    pub house: HouseAccount,
    /// The first word of the ledger comments.
    pub label: &'static str,
}

impl Booking {
    /// Casino providers (every one but the partner sportsbooks): 203/6 against
    /// `house:games`, as always.
    pub fn of(provider: &str) -> Booking {
        if PARTNER_SPORTSBOOKS.contains(&provider) {
            Booking { stake: TxType::PartnerSportStake, win: TxType::PartnerSportPayout, house: HouseAccount::PartnerSports, label: "Partner sport" }
        } else {
            Booking { stake: TxType::BetStake, win: TxType::BetWin, house: HouseAccount::Games, label: "Casino" }
        }
    }
}

/// One operation of an all-or-none batch ([`ProviderWallet::all_or_none`]).
#[derive(Debug, Clone)]
pub enum WalletOp {
    Bet(WalletCall),
    Win(WalletCall),
    Rollback(RollbackCall),
    /// A correction of a win: `call.amount` credited (`debit: false`) or debited, booked like
    /// a win or a stake. `win_transaction_id` must name a win of the same player (72).
    Amend { call: WalletCall, win_transaction_id: String, debit: bool },
}

/// What a provider's money must obey, read from its own settings (`casino_providers`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProviderRules {
    /// A win needs a bet of the same player in its round (32 otherwise).
    pub win_requires_bet: bool,
}

impl ProviderRules {
    /// The rules of `provider` from its settings (`None`: no such row). The studio's games
    /// run in-process and always stake before they pay: the one provider whose wins skip
    /// the bet look-up. The partner sportsbooks always need the bet, whatever their row
    /// says (a settlement without a bet is never theirs to send). Any other provider
    /// follows its row, and an unknown one the strict default.
    pub fn of(provider: &str, settings: Option<&crate::ProviderConfig>) -> ProviderRules {
        if provider == crate::STUDIO {
            return ProviderRules { win_requires_bet: false };
        }
        if PARTNER_SPORTSBOOKS.contains(&provider) {
            return ProviderRules { win_requires_bet: true };
        }
        ProviderRules { win_requires_bet: settings.is_none_or(|c| c.win_requires_bet) }
    }
}

/// The ledger key of a provider transaction.
pub fn ledger_key(provider: &str, transaction_id: &str) -> String {
    format!("prov:{provider}:{transaction_id}")
}

#[derive(Clone)]
pub struct ProviderWallet {
    ledger: Ledger,
    sessions: Sessions,
    catalogue: Catalogue,
}

impl ProviderWallet {
    pub fn new(ledger: Ledger, sessions: Sessions, catalogue: Catalogue) -> ProviderWallet {
        ProviderWallet { ledger, sessions, catalogue }
    }

    /// The rules of `provider`, read from its settings now (the studio needs no read).
    pub async fn rules(&self, provider: &str) -> Result<ProviderRules, AppError> {
        if provider == crate::STUDIO {
            return Ok(ProviderRules::of(provider, None));
        }
        let settings = self.catalogue.provider_config(provider).await?;
        Ok(ProviderRules::of(provider, settings.as_ref()))
    }

    pub fn ledger(&self) -> &Ledger {
        &self.ledger
    }

    /// The session of a call, which must belong to `provider`.
    async fn session(&self, provider: &str, token: &str) -> Result<GameSession, AppError> {
        let s = self.sessions.find(token).await?;
        if s.provider != provider {
            return Err(AppError::new(ErrorCode::GameSessionInvalid));
        }
        Ok(s)
    }

    async fn real_balance(&self, s: &GameSession) -> Result<i64, AppError> {
        Ok(self.ledger.balance(s.user_id, BalanceKind::Real, s.currency).await?)
    }

    pub async fn balance(&self, provider: &str, call: &BalanceCall) -> Result<WalletReply, AppError> {
        let s = self.session(provider, &call.session_token).await?;
        Ok(WalletReply {
            balance: self.real_balance(&s).await?,
            currency: s.currency.code().into(),
            player_id: s.user_id,
            transaction_id: None,
            ledger_tx_id: None,
            replayed: false,
        })
    }

    fn validate(&self, call: &WalletCall, s: &GameSession) -> Result<(), AppError> {
        check_id("transactionId", &call.transaction_id)?;
        check_id("roundId", &call.round_id)?;
        check_id("gameId", &call.game_id)?;
        if call.amount < 0 {
            return Err(AppError::with_detail(ErrorCode::InvalidBet, "amount must not be negative"));
        }
        if call.amount > self.ledger.limits().max_amount(s.currency) {
            return Err(AppError::new(ErrorCode::AmountTooLarge));
        }
        // Exact: a provider that sends "tnd" or "TND " has a bug worth seeing.
        if call.currency != s.currency.code() {
            return Err(AppError::new(ErrorCode::CurrencyMismatch));
        }
        Ok(())
    }

    /// The ledger group of a provider's round (bets and wins of one round share it).
    fn round_group(provider: &str, round_id: &str) -> String {
        format!("round:{provider}:{round_id}")
    }

    fn posting(kind: &str, provider: &str, call: &WalletCall, s: &GameSession) -> PostingRequest {
        let book = Booking::of(provider);
        let player = AccountRef::Player { user_id: s.user_id, kind: BalanceKind::Real };
        let house = AccountRef::House(book.house);
        let (tx_type, from, to, comment) = match kind {
            "bet" => (book.stake, player, house, format!("{} bet: {provider} {}", book.label, call.game_id)),
            _ => (book.win, house, player, format!("{} win: {provider} {}", book.label, call.game_id)),
        };
        let posting = PostingRequest::transfer(tx_type, ledger_key(provider, &call.transaction_id), Some(s.user_id), s.currency, from, to, call.amount)
            .comment(comment)
            .metadata(serde_json::json!({
                "provider": provider, "kind": kind, "transactionId": call.transaction_id,
                "roundId": call.round_id, "gameId": call.game_id, "sessionId": s.id,
            }))
            .fingerprint(Self::fingerprint(kind, call));
        // Only a bet needs finding by its round (a win's check); an indexed group on every
        // win too would cost each posting an index entry for nothing.
        if kind == "bet" {
            posting.group(Self::round_group(provider, &call.round_id))
        } else {
            posting
        }
    }

    fn fingerprint(kind: &str, call: &WalletCall) -> String {
        format!("{kind}|{}|{}", call.round_id, call.game_id)
    }

    /// An amend's posting: booked as a win (credit) or a stake (debit) of the amended
    /// round, with the same fingerprint a win or stake has (so a retry of an amend posted
    /// before amends were told apart still replays), but in no round group (an amend is not
    /// a bet: it never makes a round this player's) and marked `amend` in its metadata.
    fn amend_posting(provider: &str, call: &WalletCall, s: &GameSession, win_transaction_id: &str, debit: bool) -> PostingRequest {
        let book = Booking::of(provider);
        let player = AccountRef::Player { user_id: s.user_id, kind: BalanceKind::Real };
        let house = AccountRef::House(book.house);
        let (tx_type, from, to, kind) = if debit { (book.stake, player, house, "bet") } else { (book.win, house, player, "win") };
        PostingRequest::transfer(tx_type, ledger_key(provider, &call.transaction_id), Some(s.user_id), s.currency, from, to, call.amount)
            .comment(format!("{} amend: {provider} {win_transaction_id}", book.label))
            .metadata(serde_json::json!({
                "provider": provider, "kind": "amend", "transactionId": call.transaction_id, "amends": win_transaction_id,
                "debit": debit, "roundId": call.round_id, "gameId": call.game_id, "sessionId": s.id,
            }))
            .fingerprint(Self::fingerprint(kind, call))
    }

    fn reply(s: &GameSession, call_tx: &str, receipt: &::wallet::Receipt) -> WalletReply {
        WalletReply {
            balance: receipt.balance_after(s.user_id, BalanceKind::Real).unwrap_or(0),
            currency: s.currency.code().into(),
            player_id: s.user_id,
            transaction_id: Some(call_tx.into()),
            ledger_tx_id: Some(receipt.tx_id),
            replayed: receipt.replayed,
        }
    }

    /// A stake: needs a live session of a player allowed to play.
    pub async fn bet(&self, provider: &str, call: &WalletCall) -> Result<WalletReply, AppError> {
        let s = self.session(provider, &call.session_token).await?;
        self.bet_with(provider, s, call).await
    }

    /// [`Self::bet`] for a session the caller already resolved (in-process games);
    /// `call.session_token` is not read.
    pub async fn bet_with(&self, provider: &str, mut s: GameSession, call: &WalletCall) -> Result<WalletReply, AppError> {
        if let Some(answer) = self.check_bet(provider, &mut s, call, now_ms()).await? {
            return Ok(answer);
        }
        let receipt = self.ledger.post(Self::posting("bet", provider, call, &s)).await?;
        self.not_reversed(&receipt).await?;
        Ok(Self::reply(&s, &call.transaction_id, &receipt))
    }

    /// [`Self::not_reversed`] before a batch: a stake or win re-sent in an all-or-none
    /// operation after its rollback is refused (28) before anything of the batch moves. (A
    /// rollback landing between this read and the batch's commit is the one window left.)
    async fn not_reversed_key(&self, provider: &str, transaction_id: &str) -> Result<(), AppError> {
        match self.ledger.lookup_committed(&ledger_key(provider, transaction_id)).await? {
            Some(found) if !found.tombstone && self.ledger.is_reversed(found.tx_id).await? => Err(AppError::new(ErrorCode::TransactionRolledBack)),
            _ => Ok(()),
        }
    }

    /// A replayed stake or win that has since been rolled back is refused (28), never
    /// answered as accepted: the provider would believe a bet stands that was refunded (a
    /// round played for free) or a win paid that was taken back.
    async fn not_reversed(&self, receipt: &::wallet::Receipt) -> Result<(), AppError> {
        if receipt.replayed && self.ledger.is_reversed(receipt.tx_id).await? {
            return Err(AppError::new(ErrorCode::TransactionRolledBack));
        }
        Ok(())
    }

    /// Many stakes in one ledger operation (a multiplayer round's betting window), each
    /// answered as [`Self::bet_with`] would answer it alone. The sessions must be current
    /// (re-read with [`Sessions::by_ids`]): an ended session or a banned player is refused.
    pub async fn bet_many(&self, provider: &str, items: Vec<(GameSession, WalletCall)>) -> Vec<Result<WalletReply, AppError>> {
        self.many("bet", provider, items).await
    }

    /// The checks of a stake: `Some` answers it without a new posting (a zero amount, or a
    /// retry of a stake accepted while the session was live); `None` means post it.
    async fn check_bet(&self, provider: &str, s: &mut GameSession, call: &WalletCall, now: i64) -> Result<Option<WalletReply>, AppError> {
        if s.provider != provider {
            return Err(AppError::new(ErrorCode::GameSessionInvalid));
        }
        self.validate(call, s)?;
        if let Err(e) = s.may_stake(now) {
            // A retry of a bet that was accepted while the session was live answers as before.
            if let Some(reply) = self.replay_of(provider, "bet", call, s).await? {
                return Ok(Some(reply));
            }
            return Err(e);
        }
        self.sessions.touch(s, now).await?;
        Ok(None)
    }

    /// A win: honoured with an expired session or a banned player. When the provider's
    /// wins need a bet ([`ProviderRules`]), a win in a round where this player has no bet
    /// is refused (32); a retried win answers as before.
    pub async fn win(&self, provider: &str, call: &WalletCall) -> Result<WalletReply, AppError> {
        let s = self.session(provider, &call.session_token).await?;
        self.win_with(provider, &s, call).await
    }

    /// [`Self::win`] for a session the caller already resolved (adapters that name the
    /// player, in-process games, recovery): the same rules.
    pub async fn win_with(&self, provider: &str, s: &GameSession, call: &WalletCall) -> Result<WalletReply, AppError> {
        let rules = self.rules(provider).await?;
        self.check_win(provider, s, call, rules, &[]).await?;
        let receipt = self.ledger.post(Self::posting("win", provider, call, s)).await?;
        self.not_reversed(&receipt).await?;
        Ok(Self::reply(s, &call.transaction_id, &receipt))
    }

    /// A provider's promotional credit that belongs to no round of the player's (Pragmatic
    /// `promoWin`, Hub88/Evolution promo payouts: a tournament prize, a campaign award),
    /// booked as a win: keyed and replayed like one, honoured with an expired session, but
    /// without the round's bet look-up. Only adapters whose dialect names such a credit call
    /// it, for that call only; the round is the campaign (`promo:{campaign}`).
    pub async fn award_with(&self, provider: &str, s: &GameSession, call: &WalletCall) -> Result<WalletReply, AppError> {
        if s.provider != provider {
            return Err(AppError::new(ErrorCode::GameSessionInvalid));
        }
        self.validate(call, s)?;
        let receipt = self.ledger.post(Self::posting("win", provider, call, s)).await?;
        Ok(Self::reply(s, &call.transaction_id, &receipt))
    }

    /// Many wins in one ledger operation (a multiplayer round's cash-outs), each answered as
    /// [`Self::win_with`] would answer it alone.
    pub async fn win_many(&self, provider: &str, items: Vec<(GameSession, WalletCall)>) -> Vec<Result<WalletReply, AppError>> {
        self.many("win", provider, items).await
    }

    /// The checks of a win. When the rules need a bet, the round must hold one of this
    /// player's: posted already, or staked earlier in the same all-or-none operation
    /// (`staked`: `(player, round)` pairs, e.g. a Digitain `betwin`).
    async fn check_win(&self, provider: &str, s: &GameSession, call: &WalletCall, rules: ProviderRules, staked: &[(i64, String)]) -> Result<(), AppError> {
        if s.provider != provider {
            return Err(AppError::new(ErrorCode::GameSessionInvalid));
        }
        self.validate(call, s)?;
        if rules.win_requires_bet
            && !staked.iter().any(|(user, round)| *user == s.user_id && *round == call.round_id)
            && !self.ledger.group_has(&Self::round_group(provider, &call.round_id), Booking::of(provider).stake, s.user_id).await?
        {
            return Err(AppError::new(ErrorCode::RoundNotFound));
        }
        Ok(())
    }

    /// The checks of an amend: `win_transaction_id` is a win (not a stake, an amend or a
    /// rollback; not a tombstone) of this provider and of this very player (72 otherwise);
    /// the amount is validated like any call's. A debit is a correction the player owes,
    /// not a stake: it needs no live session, and the ledger refuses it beyond the balance.
    async fn check_amend(&self, provider: &str, s: &GameSession, call: &WalletCall, win_transaction_id: &str) -> Result<(), AppError> {
        if s.provider != provider {
            return Err(AppError::new(ErrorCode::GameSessionInvalid));
        }
        self.validate(call, s)?;
        check_id("winTransactionId", win_transaction_id)?;
        let found = self.ledger.lookup(&ledger_key(provider, win_transaction_id)).await?;
        let is_own_win = found.is_some_and(|t| {
            !t.tombstone && t.user_id == Some(s.user_id) && t.tx_type == Booking::of(provider).win.code() && t.metadata["kind"] == "win"
        });
        if !is_own_win {
            return Err(AppError::new(ErrorCode::TransactionMismatch));
        }
        Ok(())
    }

    /// `bet_many` / `win_many`: each call checked as alone, then every call that needs a
    /// posting in one ledger operation.
    async fn many(&self, kind: &str, provider: &str, items: Vec<(GameSession, WalletCall)>) -> Vec<Result<WalletReply, AppError>> {
        let now = now_ms();
        let mut out: Vec<Option<Result<WalletReply, AppError>>> = (0..items.len()).map(|_| None).collect();
        let mut posted = Vec::with_capacity(items.len());
        let rules = match self.rules(provider).await {
            Ok(rules) => rules,
            Err(e) => return items.iter().map(|_| Err(e.clone())).collect(),
        };
        for (i, (mut s, call)) in items.into_iter().enumerate() {
            let checked = match kind {
                "bet" => self.check_bet(provider, &mut s, &call, now).await,
                _ => self.check_win(provider, &s, &call, rules, &[]).await.map(|()| None),
            };
            match checked {
                Ok(Some(answer)) => out[i] = Some(Ok(answer)),
                Ok(None) => posted.push((i, s, call)),
                Err(e) => out[i] = Some(Err(e)),
            }
        }
        if !posted.is_empty() {
            let postings = posted.iter().map(|(_, s, call)| Self::posting(kind, provider, call, s)).collect();
            let receipts = self.ledger.post_many(postings).await;
            for ((i, s, call), receipt) in posted.into_iter().zip(receipts) {
                let answer = match receipt {
                    Ok(r) => self.not_reversed(&r).await.map(|()| Self::reply(&s, &call.transaction_id, &r)),
                    Err(e) => Err(AppError::from(e)),
                };
                out[i] = Some(answer);
            }
        }
        out.into_iter().map(|r| r.unwrap_or_else(|| Err(AppError::internal("wallet call not answered")))).collect()
    }

    /// Replays an identical earlier call (same key and parameters), if there was one.
    async fn replay_of(&self, provider: &str, kind: &str, call: &WalletCall, s: &GameSession) -> Result<Option<WalletReply>, AppError> {
        let Some(found) = self.ledger.lookup(&ledger_key(provider, &call.transaction_id)).await? else {
            return Ok(None);
        };
        if found.tombstone {
            return Err(AppError::new(ErrorCode::TransactionRolledBack));
        }
        // Posting it again is the ledger's replay check: identical → the stored receipt,
        // different → 26. It cannot move money: the key exists.
        match self.ledger.post(Self::posting(kind, provider, call, s)).await {
            Ok(receipt) => {
                self.not_reversed(&receipt).await?;
                Ok(Some(Self::reply(s, &call.transaction_id, &receipt)))
            }
            Err(e) => Err(e.into()),
        }
    }

    /// Many operations that succeed together or not at all (a partner's all-or-none
    /// batch): each is checked as it would be alone, then every posting and rollback goes
    /// to the ledger as one database transaction. `Err((i, e))`: operation `i` was refused
    /// with `e` and no money moved. Items already processed replay (same keys), so a retry
    /// of the whole batch moves nothing twice. A win needs its bet as anywhere else; a bet
    /// earlier in the same operation counts (a bet settled at once).
    pub async fn all_or_none(&self, provider: &str, items: Vec<(GameSession, WalletOp)>) -> Result<Vec<WalletReply>, (usize, AppError)> {
        let now = now_ms();
        let rules = self.rules(provider).await.map_err(|e| (0, e))?;
        let mut staked: Vec<(i64, String)> = Vec::new();
        let mut requests = Vec::with_capacity(items.len());
        for (i, (s, op)) in items.iter().enumerate() {
            let mut s = s.clone();
            let checked = match op {
                WalletOp::Bet(call) => {
                    let checked = self.check_bet(provider, &mut s, call, now).await.map(|_| ::wallet::AllRequest::Post(Self::posting("bet", provider, call, &s)));
                    staked.push((s.user_id, call.round_id.clone()));
                    checked
                }
                WalletOp::Win(call) => {
                    self.check_win(provider, &s, call, rules, &staked).await.map(|()| ::wallet::AllRequest::Post(Self::posting("win", provider, call, &s)))
                }
                WalletOp::Rollback(call) => self.rollback_request(provider, &s, call).await.map(::wallet::AllRequest::Rollback),
                WalletOp::Amend { call, win_transaction_id, debit } => self
                    .check_amend(provider, &s, call, win_transaction_id)
                    .await
                    .map(|()| ::wallet::AllRequest::Post(Self::amend_posting(provider, call, &s, win_transaction_id, *debit))),
            };
            let checked = match (checked, op) {
                (Ok(request), WalletOp::Bet(c) | WalletOp::Win(c)) => self.not_reversed_key(provider, &c.transaction_id).await.map(|()| request),
                (other, _) => other,
            };
            requests.push(checked.map_err(|e| (i, e))?);
        }
        let outcomes = self.ledger.post_all(requests).await.map_err(|(i, e)| (i, AppError::from(e)))?;
        let mut out = Vec::with_capacity(outcomes.len());
        for (i, ((s, op), outcome)) in items.iter().zip(outcomes).enumerate() {
            let tx = match op {
                WalletOp::Bet(c) | WalletOp::Win(c) | WalletOp::Amend { call: c, .. } => &c.transaction_id,
                WalletOp::Rollback(c) => &c.transaction_id,
            };
            let reply = match outcome {
                ::wallet::AllOutcome::Posted(receipt) => Ok(Self::reply(s, tx, &receipt)),
                ::wallet::AllOutcome::RolledBack(outcome) => self.rollback_reply(s, tx, outcome).await,
            };
            out.push(reply.map_err(|e| (i, e))?);
        }
        Ok(out)
    }

    /// The checks of a rollback and its ledger request.
    async fn rollback_request(&self, provider: &str, s: &GameSession, call: &RollbackCall) -> Result<RollbackRequest, AppError> {
        if s.provider != provider {
            return Err(AppError::new(ErrorCode::GameSessionInvalid));
        }
        check_id("transactionId", &call.transaction_id)?;
        check_id("referenceTransactionId", &call.reference_transaction_id)?;
        if call.transaction_id == call.reference_transaction_id {
            return Err(AppError::with_detail(ErrorCode::BadRequest, "a rollback needs its own transactionId"));
        }
        let original_key = ledger_key(provider, &call.reference_transaction_id);
        if let Some(found) = self.ledger.lookup(&original_key).await? {
            if !found.tombstone && found.user_id != Some(s.user_id) {
                return Err(AppError::new(ErrorCode::TransactionMismatch));
            }
        }
        Ok(RollbackRequest {
            original_key,
            rollback_key: ledger_key(provider, &call.transaction_id),
            user_id: Some(s.user_id),
            comment: format!("{} rollback: {provider} {}", Booking::of(provider).label, call.reference_transaction_id),
            metadata: serde_json::json!({
                "provider": provider, "kind": "rollback", "transactionId": call.transaction_id,
                "referenceTransactionId": call.reference_transaction_id, "roundId": call.round_id,
                "gameId": call.game_id, "sessionId": s.id,
            }),
        })
    }

    /// The reply to a rollback's outcome.
    async fn rollback_reply(&self, s: &GameSession, tx: &str, outcome: RollbackOutcome) -> Result<WalletReply, AppError> {
        match outcome {
            RollbackOutcome::Reversed(receipt) | RollbackOutcome::AlreadyReversed(receipt) => {
                let mut reply = Self::reply(s, tx, &receipt);
                if receipt.balance_after(s.user_id, BalanceKind::Real).is_none() {
                    reply.balance = self.real_balance(s).await?;
                }
                Ok(reply)
            }
            RollbackOutcome::Tombstoned => Ok(WalletReply {
                balance: self.real_balance(s).await?,
                currency: s.currency.code().into(),
                player_id: s.user_id,
                transaction_id: Some(tx.into()),
                ledger_tx_id: None,
                replayed: false,
            }),
        }
    }

    /// Cancels a bet or win: reverses it, or tombstones it when it has not arrived (the
    /// late transaction is then refused). Honoured with an expired session.
    pub async fn rollback(&self, provider: &str, call: &RollbackCall) -> Result<WalletReply, AppError> {
        let s = self.session(provider, &call.session_token).await?;
        self.rollback_with(provider, &s, call).await
    }

    /// [`Self::rollback`] for a session the caller already resolved (in-process games, recovery).
    pub async fn rollback_with(&self, provider: &str, s: &GameSession, call: &RollbackCall) -> Result<WalletReply, AppError> {
        let request = self.rollback_request(provider, s, call).await?;
        let outcome = self.ledger.rollback(request).await.map_err(AppError::from)?;
        self.rollback_reply(s, &call.transaction_id, outcome).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(win_requires_bet: bool) -> crate::ProviderConfig {
        crate::ProviderConfig { name: "x".into(), enabled: true, launch_url: String::new(), wallet_secret: None, win_requires_bet }
    }

    #[test]
    fn rules_come_from_the_providers_settings() {
        // A provider follows its row; an unknown one gets the strict default.
        assert!(ProviderRules::of("demo", Some(&row(true))).win_requires_bet);
        assert!(!ProviderRules::of("demo", Some(&row(false))).win_requires_bet);
        assert!(ProviderRules::of("nobody", None).win_requires_bet);
        // The partner sportsbooks need the bet whatever their row says.
        for partner in PARTNER_SPORTSBOOKS {
            assert!(ProviderRules::of(partner, Some(&row(false))).win_requires_bet, "{partner}");
            assert!(ProviderRules::of(partner, None).win_requires_bet, "{partner}");
        }
        // Only the in-process studio skips the look-up.
        assert!(!ProviderRules::of(crate::STUDIO, Some(&row(true))).win_requires_bet);
    }
}
