//! The one catalogue of reply codes.
//!
//! Codes 1–22, 103–106, 231 and 501–508 are the product spec's §8 codes with the same
//! meaning; every other code is ours and documented here (and in `docs/API.md`). The
//! catalogue is exported into the OpenAPI document (`x-error-codes` on the `ErrorCode`
//! schema) so the web app can translate every code. The HTTP status is the one the
//! server answers with: business refusals answer 200 like the spec's backend; transport
//! and authentication problems use the matching 4xx.

use serde::Serialize;

macro_rules! catalogue {
    ($( $(#[$doc:meta])* $variant:ident = $code:literal, $status:literal, $text:literal; )*) => {
        /// A numbered reply code (`status` in the reply envelope).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum ErrorCode {
            $( $(#[$doc])* $variant, )*
        }

        impl ErrorCode {
            pub const ALL: &'static [ErrorCode] = &[$(ErrorCode::$variant,)*];

            /// The number sent as `status`.
            pub const fn code(self) -> u32 {
                match self { $(ErrorCode::$variant => $code,)* }
            }

            /// The HTTP status the reply is sent with.
            pub const fn http_status(self) -> u16 {
                match self { $(ErrorCode::$variant => $status,)* }
            }

            /// The English text sent as `error_message` (the app translates by code).
            pub const fn message(self) -> &'static str {
                match self { $(ErrorCode::$variant => $text,)* }
            }

            /// A stable identifier, e.g. `InsufficientBalance`.
            pub const fn name(self) -> &'static str {
                match self { $(ErrorCode::$variant => stringify!($variant),)* }
            }
        }
    };
}

catalogue! {
    // ---- spec §8 ----
    UserExists = 1, 200, "A user with this login already exists.";
    InvalidLogin = 2, 200, "Invalid login.";
    NoSuchUser = 3, 200, "No such user.";
    IncorrectPassword = 4, 200, "Incorrect password.";
    UserBanned = 5, 403, "The user is banned.";
    InvalidVerificationKey = 6, 200, "Invalid verification key.";
    VerificationKeyExpired = 7, 200, "The verification key has expired.";
    AlreadyVerified = 8, 200, "The e-mail address is already verified.";
    RecoveryNotFound = 9, 200, "Recovery request not found.";
    RecoveryExpired = 10, 200, "The recovery request has expired.";
    NotVerified = 11, 200, "The user is not verified: please confirm your e-mail.";
    PhoneInvalid = 15, 200, "The phone number is invalid.";
    CurrencyUnavailable = 17, 200, "This currency is not available for registration.";
    EmailUserMissing = 21, 200, "No user with this e-mail address.";
    PhoneUserMissing = 22, 200, "No user with this phone number.";
    RecoveryPhoneNotFound = 101, 200, "Recovery request not found for this phone.";
    RecoveryCodeMismatch = 102, 200, "Recovery request not found: the code does not match.";
    TransactionFailed = 103, 200, "The transaction cannot be completed.";
    WeakPassword = 231, 200, "Weak password: at least 6 characters with 2 digits and 2 letters.";
    InsufficientBalance = 501, 200, "Insufficient balance.";
    FreeBetsEmpty = 506, 200, "The free bets balance is empty.";
    InsufficientBonus = 507, 200, "Insufficient bonus balance.";
    InsufficientForWithdrawal = 508, 200, "Insufficient funds for withdrawal.";
    /// Spec §8: bonus conditions not fulfilled (contact the chat).
    BonusConditionsNotMet = 105, 200, "Bonus conditions are not fulfilled; please contact the chat.";
    /// Spec §8: the withdrawal amount is below the minimum (`limits.payment`).
    WithdrawalBelowMinimum = 106, 200, "The withdrawal amount is below the minimum.";
    /// Spec §8: a withdrawal needs wagering first. `result` is the amount still to wager (a
    /// number, major units); an object `result` (`{reason, until}`) means withdrawals are
    /// blocked for the moment (the app's 6252-1).
    WageringRequired = 6252, 200, "The withdrawal needs wagering first.";
    /// Spec §4 "Payment frame" balance code 20: the payment must run in the top-level window;
    /// `result.url` is where to send the browser (deposit creation).
    PaymentRedirect = 20, 200, "The payment continues on the provider's page.";
    // ---- ours (documented in docs/API.md) ----
    /// Sign-up by phone with an SMS code that does not match, is used up or expired.
    SmsCodeInvalid = 12, 200, "The SMS code is invalid or has expired.";
    /// `phone/code`: the daily number of SMS to this phone is reached.
    SmsDailyLimit = 13, 200, "SMS limit exceeded for today.";
    /// Too many requests from this address or for this account; retry later.
    RateLimited = 14, 429, "Too many requests. Please try again later.";
    /// Too many failed sign-ins for this account: locked for a while.
    LoginLocked = 16, 429, "Too many failed sign-in attempts. The account is locked for a while; try again later.";
    /// The e-mail address is not a valid address.
    EmailInvalid = 18, 200, "The e-mail address is invalid.";
    /// `phone/code`: the hash does not match the phone and the public salt.
    PhoneHashInvalid = 19, 200, "The phone code request could not be verified.";
    /// No session, or the session expired: sign in.
    NotAuthenticated = 23, 401, "Please sign in.";
    /// The session's role may not use this endpoint.
    Forbidden = 24, 403, "This action is not allowed for this account.";
    /// The cashback balance is below the minimum transfer (10).
    CashbackBelowMinimum = 25, 200, "The cashback balance is below the minimum transfer of 10.";
    /// A retried request reused an idempotency key with different parameters.
    IdempotencyConflict = 26, 409, "This idempotency key was already used for a different request.";
    /// A provider transaction arrived after its own rollback (tombstone): refused.
    TransactionRolledBack = 28, 200, "This transaction was already rolled back.";
    /// A rollback named a transaction that is not a bet or a win (e.g. another rollback):
    /// only bets and wins are reversible, each at most once.
    NotReversible = 29, 200, "This transaction cannot be rolled back.";
    /// One transaction may not move more than the configured maximum (`LEDGER_MAX_AMOUNT`).
    AmountTooLarge = 30, 200, "The amount is above the maximum for one transaction.";
    /// A credit would take the balance above the configured maximum (`LEDGER_MAX_BALANCE`).
    BalanceLimit = 31, 200, "This credit would take the balance above its maximum.";
    /// A win for a round in which this player has no bet (providers whose wins need a bet).
    RoundNotFound = 32, 200, "No bet was found for this round.";
    /// A game client call without its `X-Game-Session` header.
    GameSessionRequired = 33, 401, "The X-Game-Session header is required.";
    /// The terms must be accepted to sign up.
    TermsNotAccepted = 27, 200, "The terms and conditions must be accepted.";
    // ---- accounts (36–39) ----
    /// This sign-up method (e-mail, phone or one-click) is turned off by the operator (`SIGNUP_METHODS`).
    SignupMethodDisabled = 36, 200, "This sign-up method is not available.";
    /// Recovery by e-mail or by SMS while no transport for that channel is configured.
    RecoveryMethodUnavailable = 37, 200, "This recovery method is not available; please contact support.";
    /// Malformed JSON, a missing or mistyped field, an invalid query parameter.
    BadRequest = 40, 400, "The request is malformed.";
    /// A cross-site request to a state-changing endpoint was refused.
    CsrfRejected = 41, 403, "Cross-site request refused.";
    /// The request body is larger than the limit.
    PayloadTooLarge = 42, 413, "The request body is too large.";
    /// No such endpoint or resource.
    NotFound = 43, 404, "Not found.";
    /// The endpoint exists but not for this HTTP method.
    MethodNotAllowed = 44, 405, "Method not allowed.";
    /// The body must be JSON (`Content-Type: application/json`).
    UnsupportedMediaType = 45, 415, "The request body must be JSON.";
    /// The date range is invalid (unparseable, or end before begin).
    InvalidDateRange = 46, 200, "The date range is invalid.";
    /// A profile field is invalid (the message names it).
    InvalidField = 47, 200, "A field is invalid.";
    /// The language id is not supported.
    UnsupportedLanguage = 48, 200, "This language is not supported.";
    // ---- casino, studio and the provider wallet (60–79) ----
    /// Game list or launch for a provider the platform does not know (spec §4).
    ProviderNotConfigured = 60, 200, "Provider not found in the configuration.";
    /// A guest or an account other than a player (role 0) asked for a game session (spec §4).
    BetsNotAllowed = 61, 200, "This account is not allowed to place bets.";
    /// No such game for this provider, or the game is disabled.
    GameNotFound = 62, 200, "This game is not available.";
    /// The game session token is unknown or has expired.
    GameSessionInvalid = 63, 200, "The game session is unknown or has expired.";
    /// Provider wallet call: the X-Signature does not match the body.
    SignatureInvalid = 64, 401, "The request signature is invalid.";
    /// Provider wallet call: X-Timestamp is missing or more than 300 s away from our clock.
    TimestampStale = 65, 401, "The request timestamp is outside the allowed window.";
    /// Provider wallet call: X-Provider names no provider we know.
    ProviderUnknown = 66, 401, "Unknown provider.";
    /// The currency of a wallet call is not the currency of the player's wallet.
    CurrencyMismatch = 67, 200, "The currency does not match the player's wallet.";
    /// A bet the game rules refuse (amount outside the limits, impossible selection).
    InvalidBet = 68, 200, "The bet is invalid.";
    /// Crash: bets are taken only while the round is in its betting window.
    BettingClosed = 69, 200, "Betting is closed for this round.";
    /// Crash: no running bet of this player to cash out.
    NothingToCashOut = 70, 200, "There is no active bet to cash out.";
    /// The operator has blocked this provider for this account.
    ProviderBlocked = 71, 200, "This provider is not available for your account.";
    /// A win or rollback names a transaction or round that does not belong to this session's player.
    TransactionMismatch = 72, 200, "The referenced transaction does not match this player or round.";
    // ---- responsible gambling (120–129) ----
    /// A deposit above one of the player's own deposit limits; `result` is
    /// `{period, limit, used, remaining}` (major units).
    DepositLimitReached = 120, 200, "This deposit is above your deposit limit.";
    /// The player excluded themselves; `result` is `{until}` (null: permanent).
    SelfExcluded = 121, 200, "You have excluded yourself from playing.";
    /// The player took a cool-off; `result` is `{until}`.
    CoolingOff = 122, 200, "You are taking a break from playing.";
    /// A responsible-gambling setting refused: a block that would end before the one in
    /// force (blocks are never shortened).
    RgBlockShorter = 123, 200, "A longer break is already in force.";
    // ---- payments (80–94) ----
    /// The payment token (`sessionToken`) is unknown, expired or belongs to another player.
    PaymentTokenInvalid = 80, 200, "The payment token is invalid or has expired.";
    /// The deposit amount is below the minimum (`limits.payment`).
    DepositBelowMinimum = 81, 200, "The deposit amount is below the minimum.";
    /// Online deposits are only for players registered on the website (spec §5).
    OnlineDepositNotAllowed = 82, 200, "Online deposits are only available to players registered on the website.";
    /// The deposit amount is above the maximum (`limits.payment`).
    DepositAboveMaximum = 83, 200, "The deposit amount is above the maximum.";
    /// The withdrawal amount is above the maximum (`limits.payment`).
    WithdrawalAboveMaximum = 84, 200, "The withdrawal amount is above the maximum.";
    /// No such payment (intent) for this player, or a callback for an unknown payment.
    PaymentNotFound = 85, 200, "Payment not found.";
    /// A provider callback whose amount differs from the payment's.
    PaymentAmountMismatch = 86, 200, "The amount does not match the payment.";
    /// A provider callback whose currency differs from the payment's.
    PaymentCurrencyMismatch = 87, 200, "The currency does not match the payment.";
    /// The payment provider refused the payment or could not be reached; nothing was charged.
    PaymentProviderUnavailable = 88, 200, "The payment provider is not available; please try again later.";
    /// This payment method is not offered (not configured, or not for this currency).
    PaymentMethodUnavailable = 89, 200, "This payment method is not available.";
    /// A callback asks for a transition the payment can no longer make (e.g. a success for a
    /// withdrawal already released): nothing changes; logged for reconciliation.
    PaymentStateConflict = 90, 200, "The payment is already final.";
    /// The amount is not a valid amount of the currency (zero, negative, too many decimals).
    PaymentAmountInvalid = 91, 200, "The amount is invalid.";
    /// The phone number for an e-wallet withdrawal is invalid.
    PaymentPhoneInvalid = 92, 200, "The phone number for the payout is invalid.";
    // ---- cashier network (95–99, 110–119) ----
    /// No active cashier with this id.
    CashierNotFound = 95, 200, "No such cashier.";
    /// A payout code that matches no payable withdrawal (wrong, already paid or cancelled).
    PayoutCodeInvalid = 96, 200, "The payout code is invalid or the withdrawal is no longer payable.";
    /// The player chose another cashier for this withdrawal.
    WithdrawalAtAnotherCashier = 97, 200, "This withdrawal is to be paid at another cashier.";
    /// No cashier withdrawal request of this player with this id.
    CashierWithdrawalNotFound = 98, 200, "Withdrawal request not found.";
    /// Only a pending (CREATED) cashier withdrawal can be cancelled.
    CashierWithdrawalNotCancellable = 99, 200, "Only a pending withdrawal request can be cancelled.";
    /// The cashier's (or super agent's) float does not cover the amount.
    FloatInsufficient = 110, 200, "The float is too low for this operation.";
    /// Desk search: no player with this id or phone.
    DeskPlayerNotFound = 111, 200, "No player with this id or phone number.";
    /// A super agent named a cashier that is not one of its own.
    NotYourCashier = 112, 200, "This cashier is not in your network.";
    /// Too many wrong payout codes at this desk: locked for a while.
    PayoutCodeLocked = 113, 429, "Too many wrong payout codes. Please wait before trying again.";
    // ---- sportsbook (spec §8 600–702, 999, 1489, 3301; one code per case, the
    // `sportsbook::slip::REFUSAL_CODES` table; docs/SPORTSBOOK.md) ----
    /// Betting is closed (the feed is down, or the operator closed it).
    SportsbookUnavailable = 600, 200, "Betting is unavailable at the moment.";
    /// A malformed slip: unknown selection, bad stake, an outcome twice. `result` may say which leg.
    BetInvalid = 601, 200, "The bet is invalid.";
    EventOver = 602, 200, "The event is over.";
    /// A pre-match selection of an event that has started.
    EventStarted = 603, 200, "The event has started.";
    /// The odds moved and the player's policy refuses the new ones: `result` lists every
    /// changed leg with the odds now offered; retry with them.
    OddsChanged = 604, 200, "The odds have changed. Please check and retry.";
    /// The market was deactivated or the outcome is not offered.
    BetBlocked = 605, 200, "This selection is not available.";
    StakeAboveMaximum = 606, 200, "The stake is above the maximum.";
    MarketSuspended = 607, 200, "The market is suspended.";
    DuplicateEvent = 608, 200, "An express cannot contain the same event twice.";
    /// A single has exactly one leg; an express 2 to 20.
    WrongEventCount = 609, 200, "Wrong number of events for this bet type.";
    StakeBelowMinimum = 610, 200, "The stake is below the minimum.";
    PrematchStakeLimit = 611, 200, "The pre-match stake limit for this market is reached.";
    PrematchPayoutLimit = 612, 200, "The pre-match maximum payout is exceeded.";
    LiveStakeLimit = 613, 200, "The live stake limit for this market is reached.";
    LivePayoutLimit = 614, 200, "The live maximum payout is exceeded.";
    /// Spec §5: bonus bets below odds 1.80 are refused.
    BonusBetRules = 615, 200, "Bonus bets need odds of at least 1.80 on every selection.";
    /// Not a player, or a player under a responsible-gambling block.
    BettingNotAllowed = 616, 200, "Betting is not allowed for this account.";
    /// Spec §8 "maximum 4 bets": open bets on one event per player.
    TooManyOpenBets = 617, 200, "At most 4 open bets on the same event.";
    /// Spec §8: an error by the partner bet provider.
    BetProviderError = 999, 200, "The bet provider returned an error.";
    /// Spec §5/§8: a free bet needs total odds of at least 2.20.
    FreeBetOddsTooLow = 1489, 200, "A free bet needs total odds of at least 2.20.";
    /// Spec §8: no such bet (of this player).
    BetsNotFound = 3301, 200, "Bets not found.";
    // ---- promotions (docs/PROMOTIONS.md; 2200–2215 are the spec's promo-code range) ----
    /// A stake above the open bonus's maximum bet while it is being wagered: refused before
    /// the debit, nothing moved. `result` = the maximum (major units).
    BonusMaxBet = 130, 200, "This stake is above the maximum bet allowed while your bonus is being wagered.";
    /// No such bonus of this player, or it is no longer open.
    NoSuchBonus = 131, 200, "No such open bonus.";
    /// A bonus template refused when created (above the maximum wagering multiple, bad terms).
    BonusTermsRefused = 132, 200, "The bonus terms are not allowed.";
    // ---- back office (140–149; docs/BACKOFFICE.md) ----
    /// Four eyes: the staff member who requested a change cannot approve it.
    OwnRequest = 140, 200, "Another staff member must approve this request.";
    /// The request was already approved or rejected.
    RequestDecided = 141, 200, "This request has already been decided.";
    /// Staff sign-in: the right password, and now the 6-digit code of the authenticator app;
    /// or a console call on a session opened without it (the player sign-in).
    SecondFactorRequired = 142, 401, "Enter the code from your authenticator app.";
    /// A wrong code, or one already used (a code signs in once). Counts as a failed sign-in.
    SecondFactorIncorrect = 143, 401, "This code is incorrect or has already been used.";
    /// A staff account without an authenticator yet: enrol first (`/api/staff/totp/enrol`).
    SecondFactorNotEnrolled = 144, 401, "Set up your authenticator app first.";
    /// Enrolment asked again after it was confirmed: another admin resets it.
    SecondFactorEnrolled = 145, 200, "An authenticator is already set up for this account.";
    PromoNotFound = 2200, 200, "This promo code does not exist.";
    PromoExpired = 2201, 200, "This promo code has expired.";
    PromoAlreadyActivated = 2202, 200, "You have already activated this promo code.";
    PromoAnotherPartner = 2203, 200, "This promo code belongs to another partner.";
    PromoOwnCode = 2204, 200, "You cannot use your own promo code.";
    PromoUnknownType = 2205, 200, "Unknown promo code type.";
    PromoBlocked = 2206, 200, "This promo code has been blocked.";
    PromoWithdrawalAfterDeposit = 2207, 200, "A withdrawal was made after your deposit: this promo code no longer applies.";
    PromoTermsNotMet = 2208, 200, "The promo code's terms are not met.";
    PromoNotEnoughDeposits = 2209, 200, "Not enough deposits for this promo code.";
    PromoNotYetValid = 2210, 200, "This promo code is not valid yet.";
    PromoUsedUp = 2211, 200, "This promo code has been used up.";
    PromoNewPlayersOnly = 2212, 200, "This promo code is for new players only.";
    PromoWrongCurrency = 2213, 200, "This promo code is not available in your currency.";
    PromoSignupOnly = 2214, 200, "This promo code can only be used at sign-up.";
    /// `result` = `{retryAfterSeconds}` (also the `Retry-After` header).
    PromoTooManyAttempts = 2215, 429, "Too many wrong promo codes. Please try again later.";
    /// Something failed on our side; the request may be retried.
    Internal = 1000, 503, "Request execution failed. Please try again.";
}

impl ErrorCode {
    /// Looks a code up by its number.
    pub fn from_code(code: u32) -> Option<ErrorCode> {
        ErrorCode::ALL.iter().copied().find(|c| c.code() == code)
    }
}

/// An error as every context reports it to the HTTP layer: a catalogue code, optionally a
/// more precise English message (e.g. which field is wrong), optionally data for the
/// client (`result` in the envelope, e.g. seconds to wait).
#[derive(Debug, Clone, thiserror::Error)]
#[error("{code:?}: {}", self.text())]
pub struct AppError {
    pub code: ErrorCode,
    pub detail: Option<String>,
    pub data: Option<serde_json::Value>,
}

impl AppError {
    pub fn new(code: ErrorCode) -> Self {
        Self { code, detail: None, data: None }
    }
    pub fn with_detail(code: ErrorCode, detail: impl Into<String>) -> Self {
        Self { code, detail: Some(detail.into()), data: None }
    }
    pub fn data(mut self, data: impl Serialize) -> Self {
        self.data = serde_json::to_value(data).ok();
        self
    }
    /// An internal failure: logged with its cause, answered with code 1000.
    pub fn internal(cause: impl std::fmt::Display) -> Self {
        tracing::error!(error = %cause, "internal error");
        Self::new(ErrorCode::Internal)
    }
    pub fn text(&self) -> String {
        match &self.detail {
            Some(d) => d.clone(),
            None => self.code.message().to_string(),
        }
    }
}

/// A permanent self-exclusion: the `self_excluded_until` value that never passes.
pub const RG_PERMANENT: i64 = i64::MAX;

/// The refusal of a self-excluded player (121) or one in a cool-off (122) at `now`, from
/// the two columns of their user row (`self_excluded_until`, `cool_off_until`, epoch ms;
/// [`RG_PERMANENT`] for a permanent exclusion). `result` is `{until}` (ISO 8601, null when
/// permanent). Sign-in, the session check, deposits and stakes all ask this.
pub fn rg_block(self_excluded_until: Option<i64>, cool_off_until: Option<i64>, now: i64) -> Result<(), AppError> {
    if let Some(until) = self_excluded_until.filter(|u| *u > now) {
        let until = (until != RG_PERMANENT).then(|| crate::clock::to_rfc3339(until));
        return Err(AppError::new(ErrorCode::SelfExcluded).data(serde_json::json!({ "until": until, "permanent": until.is_none() })));
    }
    if let Some(until) = cool_off_until.filter(|u| *u > now) {
        return Err(AppError::new(ErrorCode::CoolingOff).data(serde_json::json!({ "until": crate::clock::to_rfc3339(until) })));
    }
    Ok(())
}

impl From<ErrorCode> for AppError {
    fn from(code: ErrorCode) -> Self {
        AppError::new(code)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn rg_blocks_refuse_until_they_pass() {
        assert!(rg_block(None, None, 10).is_ok());
        assert!(rg_block(Some(10), Some(10), 10).is_ok(), "a block ends at its time");
        let e = rg_block(Some(RG_PERMANENT), Some(20), 10).unwrap_err();
        assert_eq!(e.code, ErrorCode::SelfExcluded);
        assert_eq!(e.data.unwrap()["until"], serde_json::Value::Null);
        let e = rg_block(Some(5), Some(20), 10).unwrap_err();
        assert_eq!(e.code, ErrorCode::CoolingOff);
        assert_eq!(e.data.unwrap()["until"], "1970-01-01T00:00:00.020Z");
    }

    #[test]
    fn codes_are_unique() {
        let mut seen = HashSet::new();
        for c in ErrorCode::ALL {
            assert!(seen.insert(c.code()), "duplicate code {}", c.code());
            assert!(!c.message().is_empty());
            assert!((200..600).contains(&c.http_status()));
        }
    }

    #[test]
    fn spec_codes_keep_their_numbers() {
        assert_eq!(ErrorCode::InsufficientBalance.code(), 501);
        assert_eq!(ErrorCode::WeakPassword.code(), 231);
        assert_eq!(ErrorCode::NotVerified.code(), 11);
        assert_eq!(ErrorCode::from_code(15), Some(ErrorCode::PhoneInvalid));
        // 20 is the spec's "balance redirect" code (payment frame), and only that.
        assert_eq!(ErrorCode::from_code(20), Some(ErrorCode::PaymentRedirect));
        assert_eq!(ErrorCode::WageringRequired.code(), 6252);
        assert_eq!(ErrorCode::WithdrawalBelowMinimum.code(), 106);
    }
}
