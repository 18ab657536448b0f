//! Request and reply shapes of the HTTP contract (spec field names kept).

use accounts::User;
use kernel::money::MajorUnits;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

#[derive(Debug, Deserialize, ToSchema)]
pub struct LoginEmailRequest {
    pub email: String,
    pub password: String,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct LoginPhoneRequest {
    /// Country code and number, e.g. `21612345678` (`+` optional).
    pub phone: String,
    pub password: String,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct LoginRequest {
    /// A phone when it has neither `@` nor a dot (a leading `+` is stripped), else an e-mail.
    pub login: String,
    pub password: String,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct SignupRequest {
    pub email: String,
    pub password: String,
    /// Sent empty by the app; ignored.
    #[serde(default)]
    pub name: Option<String>,
    /// Defaults to TND; must be one of the settings' currencies (17 otherwise).
    #[serde(default)]
    pub currency: Option<String>,
    #[serde(default)]
    pub lang: Option<String>,
    #[serde(default)]
    pub promocode: Option<String>,
    #[serde(default)]
    pub ref_id: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct PhoneSignupRequest {
    /// Country code and number, e.g. `21612345678`.
    pub phone: String,
    /// The SMS code from `phone/code` (also accepted as `code`, which wins when both are sent).
    #[serde(default, rename = "phoneCode")]
    pub phone_code: Option<String>,
    #[serde(default)]
    pub code: Option<String>,
    pub password: String,
    #[serde(default)]
    pub currency: Option<String>,
    /// Sent by the app; the phone is the login.
    #[serde(default)]
    pub login: Option<String>,
    #[serde(default)]
    pub promocode: Option<String>,
    #[serde(default)]
    pub lang: Option<String>,
    #[serde(default)]
    pub ref_id: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema, Default)]
pub struct OneClickRequest {
    #[serde(default)]
    pub currency: Option<String>,
    #[serde(default)]
    pub lang: Option<String>,
    #[serde(default)]
    pub promocode: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct PhoneCodeRequest {
    pub phone: String,
    /// Lowercase hex SHA-256 of the phone string followed by the settings' `phoneCodeSalt`.
    pub hash: String,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct RestoreEmailRequest {
    pub email: String,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct RestorePhoneRequest {
    pub phone: String,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct RestoreNewRequest {
    pub code: String,
    pub new_password: String,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct RestorePhoneNewRequest {
    pub phone: String,
    pub new_password: String,
    pub code: String,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ChangePasswordRequest {
    pub password: String,
    pub new_password: String,
}

/// Only the fields sent change. `gander` is the spec's spelling; `gender` is accepted too.
#[derive(Debug, Deserialize, ToSchema, Default)]
pub struct ProfileUpdateRequest {
    #[serde(default)]
    pub first_name: Option<String>,
    #[serde(default)]
    pub last_name: Option<String>,
    #[serde(default)]
    pub middle_name: Option<String>,
    /// `YYYY-MM-DD` (also `DD-MM-YYYY`); at least 18 years old.
    #[serde(default)]
    pub birth_date: Option<String>,
    #[serde(default)]
    pub phone: Option<String>,
    /// Passport or identity document number.
    #[serde(default)]
    pub number_document: Option<String>,
    /// `male` or `female` (empty clears).
    #[serde(default)]
    pub gander: Option<String>,
    /// The same as `gander` (which wins when both are sent); a refusal names the one sent.
    #[serde(default)]
    pub gender: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct SetLanguageRequest {
    /// `fr-fr`, `en-US`, `ar-ar`, `ru-ru`, `kk-KZ` (short forms `fr`, `en`, `ar` too).
    #[serde(rename = "languageId")]
    #[schema(value_type = String)]
    pub language_id: serde_json::Value,
}

/// The user (spec §3 User).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserReply {
    pub id: i64,
    /// The e-mail (the phone for phone accounts).
    pub login: String,
    pub email: Option<String>,
    pub phone: Option<String>,
    pub currency: String,
    pub first_name: String,
    pub last_name: String,
    /// 0 player, 1 partner, 2 cashier, 3 super agent, 4 admin.
    pub role: i64,
    pub is_banned_on_betroute: bool,
    pub is_partner: bool,
    pub is_on_paykassma_payment: bool,
    /// Online deposits (card page, Paykassma) are open to this account: a player who signed
    /// up on the website (spec §5). Anyone else deposits in cash at a cashier (code 82 online).
    pub can_deposit_online: bool,
    pub email_verified: bool,
    pub lang: String,
}

impl UserReply {
    pub fn new(u: &User, special_user_id: Option<i64>) -> UserReply {
        UserReply {
            id: u.id,
            login: u.login(),
            email: u.email.clone(),
            phone: u.phone.clone(),
            currency: u.currency.code().to_string(),
            first_name: u.first_name.clone(),
            last_name: u.last_name.clone(),
            role: u.role.code(),
            is_banned_on_betroute: u.is_banned_on_betroute,
            is_partner: u.is_partner(),
            is_on_paykassma_payment: u.is_on_paykassma_payment(special_user_id),
            can_deposit_online: u.role == accounts::Role::Player && payments::rules::registered_on_web(&u.registered_via),
            email_verified: u.email_verified || u.registered_via != "email",
            lang: u.lang.clone(),
        }
    }
}

/// A new session. The token is also set as the `carthage_session` cookie (httpOnly);
/// clients without cookies send it as `Authorization: Bearer <token>`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SessionReply {
    pub token: String,
    pub expires_at: String,
    pub user: UserReply,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OneClickReply {
    /// The generated login, shown once.
    pub email: String,
    /// The generated password, shown once (never stored in clear).
    pub password: String,
    pub token: String,
    pub expires_at: String,
    pub user: UserReply,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EmailSignupReply {
    pub id: i64,
    pub email: String,
    /// A verification link was e-mailed; sign-in answers 11 until it is opened.
    pub verification_sent: bool,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VerifyReply {
    pub id: i64,
    pub email: Option<String>,
    pub verified: bool,
}

/// Spec §3 phone code reply.
#[derive(Debug, Serialize, ToSchema)]
pub struct PhoneCodeReply {
    pub phone: String,
    /// The request id.
    pub id: i64,
}

/// Spec §7 recovery by phone.
#[derive(Debug, Serialize, ToSchema)]
pub struct RestorePhoneReply {
    pub user_phone: String,
    pub request_id: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct RestoreEmailReply {
    pub email: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DoneReply {
    pub done: bool,
}

/// Spec §3 Profile.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProfileReply {
    pub id: i64,
    pub email: Option<String>,
    pub phone: Option<String>,
    pub currency: String,
    pub balance: MajorUnits,
    pub first_name: String,
    pub last_name: String,
    pub middle_name: String,
    pub birth_date: Option<String>,
    pub gender: Option<String>,
    pub number_document: Option<String>,
    pub address: Option<String>,
    pub card: Option<String>,
    pub yandex: Option<String>,
}

#[derive(Debug, Default, Serialize, ToSchema)]
pub struct FreeBetsReply {
    /// Free bets activated into the free-bet balance, ready for a sports bet of total odds
    /// ≥ `minOdds`.
    pub active: Vec<promotions::service::FreeBetView>,
    /// Free bets granted and not activated yet (`POST /api/user/activate-free-bets`).
    pub inactive: Vec<promotions::service::FreeBetView>,
}

/// A jackpot pool as the balance reply lists it (spec §3: id, image, amount, name, timer).
#[derive(Debug, Serialize, ToSchema)]
pub struct JackpotReply {
    /// The pool's number: 1 Mega, 2 Medium, 3 Small.
    pub id: i64,
    /// The pool's key: `mega`, `medium`, `small`.
    pub pool: String,
    pub image: String,
    pub amount: MajorUnits,
    pub currency: String,
    pub name: String,
    /// Seconds since the pool's cycle began.
    pub timer: i64,
}

/// A drop the player won and has not closed the modal of yet (`POST /api/user/jackpot_is_shown`
/// with its `id`).
#[derive(Debug, Serialize, ToSchema)]
pub struct WonJackpotReply {
    /// The drop's id (a string: it does not fit a JavaScript number).
    pub id: String,
    pub pool: String,
    pub image: String,
    pub amount: MajorUnits,
    pub currency: String,
    pub name: String,
    /// Seconds since the drop.
    pub timer: i64,
}

/// Spec §3 Balance reply; amounts in major units of `currency`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BalanceReply {
    pub currency: String,
    pub balance: MajorUnits,
    pub bonus_balance: MajorUnits,
    pub cashback_balance: MajorUnits,
    pub free_bet_balance: MajorUnits,
    pub point_balance: MajorUnits,
    /// The weekly cashback accrued so far this ISO week (paid into `cashbackBalance` on Monday
    /// 00:00, Africa/Tunis).
    pub weekly_cashback: MajorUnits,
    pub is_banned: bool,
    pub free_bets: FreeBetsReply,
    pub jackpots: Vec<JackpotReply>,
    pub won_jackpots: Vec<WonJackpotReply>,
}

#[derive(Debug, Deserialize, ToSchema, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct HistoryQuery {
    /// Start: `YYYY-MM-DD`, `DD-MM-YYYY`, RFC 3339 or epoch seconds/ms. Default: 30 days ago.
    pub begin: Option<String>,
    /// End (a date includes that whole day). Default: now.
    pub end: Option<String>,
    /// At most 500 (default 200).
    #[param(minimum = 1, maximum = 500)]
    #[schema(minimum = 1, maximum = 500)]
    pub limit: Option<i64>,
    #[param(minimum = 0)]
    #[schema(minimum = 0)]
    pub offset: Option<i64>,
    /// `/api/user/transactions` only: the entries on one balance (the cashback page's
    /// history: weekly payouts in, transfers out).
    #[param(inline)]
    #[schema(inline)]
    pub purse: Option<Purse>,
}

/// A player's balance, as `/api/user/transactions?purse=` names it.
#[derive(Debug, Clone, Copy, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Purse {
    Real,
    Bonus,
    FreeBet,
    Cashback,
    WeeklyCashback,
    Points,
}

impl Purse {
    pub fn kind(self) -> wallet::BalanceKind {
        use wallet::BalanceKind as K;
        match self {
            Purse::Real => K::Real,
            Purse::Bonus => K::Bonus,
            Purse::FreeBet => K::FreeBet,
            Purse::Cashback => K::Cashback,
            Purse::WeeklyCashback => K::WeeklyCashback,
            Purse::Points => K::Points,
        }
    }
}

/// Spec §3 payment history entry (source field names).
#[derive(Debug, Serialize, ToSchema)]
pub struct HistoryEntryReply {
    /// The posting (ledger entry) id.
    pub id: i64,
    /// The ledger transaction id.
    pub transaction_id: i64,
    pub created_at: String,
    /// Signed amount in major units: positive credits, negative debits.
    pub value: MajorUnits,
    pub currency: String,
    /// `payment` (credit) or `withdrawal` (debit).
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub is_closed: bool,
    /// The transaction type code (spec §3 payment types: 1, 6, 10, 11, 16, 114; ours from 200).
    pub payment_mode: i64,
    /// The balance moved: real, bonus, free_bet, cashback, weekly_cashback, points.
    pub purse: &'static str,
    pub comment: String,
    pub balance_after: Option<MajorUnits>,
    /// The casino game of a stake, a win or their rollback; null for other postings.
    pub game: Option<HistoryGame>,
    /// The provider's round id of a game posting; null for other postings.
    pub round_id: Option<String>,
    /// The round has a fairness record the player can open and verify
    /// (`GET /api/studio/round`): the studio's own games.
    pub verifiable: bool,
    /// The sportsbook bet of a stake, a payout or a resettlement (211, 212, 213); null for
    /// other postings.
    pub bet: Option<HistoryBet>,
    /// The deposit or withdrawal of a payment posting (16, 11, 114, 10, 207); null for other
    /// postings.
    pub payment: Option<HistoryPayment>,
}

/// The sportsbook bet a history entry belongs to (what the player saw when betting).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct HistoryBet {
    pub id: i64,
    /// `single` or `express`.
    pub kind: String,
    /// The events of its legs, in leg order, each once ("Home – Away").
    pub events: Vec<String>,
}

/// The payment a history entry belongs to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct HistoryPayment {
    /// The payment intent (provider payments) or the cashier withdrawal request; null for a
    /// cash deposit at a desk.
    pub id: Option<i64>,
    /// How the money moved: the provider (`sandbox` card, `paykassma`, `crypto`) or `cashier`.
    pub method: String,
}

/// The game a history entry belongs to.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct HistoryGame {
    /// Provider code (the wallet API's `provider`).
    pub provider: String,
    /// The provider's display name (the code when the catalogue does not know it).
    pub provider_name: String,
    pub game_id: String,
    /// The game's name (its id when the catalogue does not know it).
    pub game_name: String,
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct LangQuery {
    pub lang: Option<String>,
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct OutboxQuery {
    /// A phone (digits, `+` optional) or an e-mail address.
    pub to: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SetLanguageReply {
    pub language_id: String,
    /// 1 when the player app is translated into it (fr-fr, en-US, ar-ar), else 0.
    pub applied: i64,
}
