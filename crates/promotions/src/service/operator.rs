//! Operator tools until the back office exists (issue 19 §1, docs/PROMOTIONS.md "Operator
//! tools"): the lists an operator reads (templates, codes with their usage), free-bet
//! campaigns, a bonus granted by hand, a jackpot pool created with its checks, and the audit
//! row every operator action leaves in `audit_log` (where `wallet adjust` records its actor).
//!
//! Creating a template or a code keeps using [`Promotions::create_template`] and
//! [`Promotions::create_code`] (the actor is stored on the row, `created_by`); this file adds
//! what the operator needs around them.

use super::{db_err, Promotions};
use crate::freebets::FreeBetRule;
use crate::terms::{Amount, Template, WageringBase};
use kernel::clock::now_ms;
use kernel::ids::next_id;
use kernel::money::MajorUnits;
use kernel::{AppError, Currency, ErrorCode, Minor};
use serde::Serialize;
use std::str::FromStr;
use store::sqlx::{self, Row};

/// A bonus template as the operator lists it (amounts in major units of its currency).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TemplateView {
    pub id: String,
    pub name: String,
    /// `casino` or `sport`.
    pub product: String,
    pub currency: Currency,
    /// A fixed bonus (null for a share of the deposit).
    #[schema(value_type = Option<f64>)]
    pub amount: Option<MajorUnits>,
    /// A share of the qualifying deposit in hundredths of a percent (2500 = 25 %), null for a
    /// fixed bonus; `cap` is its most.
    pub percent_bps: Option<i64>,
    #[schema(value_type = Option<f64>)]
    pub cap: Option<MajorUnits>,
    pub wagering_multiple: u32,
    /// `bonus` or `bonus_plus_deposit`.
    pub wagering_base: String,
    /// 0: no maximum.
    #[schema(value_type = f64)]
    pub max_bet: MajorUnits,
    /// 0: no maximum.
    #[schema(value_type = f64)]
    pub max_conversion: MajorUnits,
    pub life_days: u32,
    /// Sport bonus: the least odds of a leg (0 for casino).
    pub min_odds: f64,
    pub active: bool,
    /// Who created it (`admin:{id}`, `cli:{user}`, `seed`).
    pub created_by: String,
    pub created_at: i64,
}

/// A promo code as the operator lists it, with its usage.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CodeView {
    pub code: String,
    /// `bonus`, `free_bets`, `deposit_bonus`, `partner_referral`.
    pub kind: String,
    /// The bonus template's name (bonus and deposit-bonus codes).
    pub template: Option<String>,
    /// Free-bet codes: each free bet's value (major units of the code's currency, TND when the
    /// code names none) and how many.
    #[schema(value_type = f64)]
    pub free_bet_amount: MajorUnits,
    pub free_bet_count: i64,
    /// The partner who owns the code.
    pub partner_id: Option<i64>,
    pub blocked: bool,
    pub valid_from: i64,
    pub valid_until: Option<i64>,
    /// 0: no limit.
    pub max_uses: i64,
    /// Activations counted against `maxUses`.
    pub uses: i64,
    /// Players who activated it (rows of `promo_activations`).
    pub activations: i64,
    pub new_players_only: bool,
    pub currency: Option<String>,
    pub min_deposits: i64,
    #[schema(value_type = f64)]
    pub min_turnover: MajorUnits,
    pub created_by: String,
    pub created_at: i64,
}

/// One player's part of a free-bet campaign.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CampaignPlayer {
    pub user_id: i64,
    pub currency: Currency,
    /// Free bets granted by this call (0 on a re-run).
    pub granted: i64,
    /// Free bets this campaign has given the player in all.
    pub total: i64,
}

/// What a free-bet campaign call did.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CampaignReport {
    pub campaign: String,
    /// Each free bet's value in major units of each player's currency (10, 50, 100, 250, 500).
    pub value: i64,
    pub count: i64,
    /// Free bets granted by this call across every player.
    pub granted: i64,
    pub players: Vec<CampaignPlayer>,
}

/// What an operator's bonus grant did.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OperatorGrant {
    /// The source key's bonus already existed: nothing new was granted.
    pub replayed: bool,
    pub bonus: super::BonusView,
}

/// A campaign id or a grant's key: 1 to 64 letters, digits, `-` or `_`.
pub fn valid_key(key: &str) -> bool {
    !key.is_empty() && key.len() <= 64 && key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// `[from, to)` of every text starting with `prefix` (no LIKE: `_` is a wildcard there).
fn prefix_range(prefix: &str) -> (String, String) {
    let mut to = prefix.to_string();
    let last = to.pop().map(|c| ((c as u8) + 1) as char).unwrap_or('\u{1}');
    to.push(last);
    (prefix.to_string(), to)
}

impl Promotions {
    /// Writes an operator action into `audit_log` (who, what, on what, the details).
    pub async fn audit(&self, actor: &str, action: &str, subject: &str, details: serde_json::Value) -> Result<(), AppError> {
        let details = details.to_string();
        store::audit::append_alone(self.db(), &store::audit::Record { actor, action, subject, details: &details }).await.map_err(db_err)?;
        Ok(())
    }

    /// Every bonus template, newest first.
    pub async fn templates(&self) -> Result<Vec<TemplateView>, AppError> {
        let rows = sqlx::query("SELECT id, name, product, currency, terms, active, created_by, created_at FROM bonus_templates ORDER BY created_at DESC, id DESC")
            .fetch_all(self.db().reader())
            .await
            .map_err(db_err)?;
        rows.iter()
            .map(|r| {
                let currency = Currency::from_str(&r.get::<String, _>(3)).map_err(|_| db_err("template currency"))?;
                let terms: Template = serde_json::from_str(&r.get::<String, _>(4)).map_err(db_err)?;
                let m = |v: Minor| MajorUnits::new(v, currency);
                let (amount, percent_bps, cap) = match terms.amount {
                    Amount::Fixed { amount } => (Some(m(amount)), None, None),
                    Amount::PercentOfDeposit { bps, cap } => (None, Some(bps), Some(m(cap))),
                };
                Ok(TemplateView {
                    id: r.get::<i64, _>(0).to_string(),
                    name: r.get(1),
                    product: r.get(2),
                    currency,
                    amount,
                    percent_bps,
                    cap,
                    wagering_multiple: terms.wagering_multiple,
                    wagering_base: match terms.wagering_base {
                        WageringBase::Bonus => "bonus",
                        WageringBase::BonusPlusDeposit => "bonus_plus_deposit",
                    }
                    .into(),
                    max_bet: m(terms.max_bet),
                    max_conversion: m(terms.max_conversion),
                    life_days: terms.life_days,
                    min_odds: terms.min_odds as f64 / 1000.0,
                    active: r.get::<i64, _>(5) != 0,
                    created_by: r.get(6),
                    created_at: r.get(7),
                })
            })
            .collect()
    }

    /// Every promo code with its usage, newest first; `code` narrows to one.
    pub async fn codes(&self, code: Option<&str>) -> Result<Vec<CodeView>, AppError> {
        let sql = "SELECT c.code, c.kind, t.name, c.free_bet_amount, c.free_bet_count, c.partner_id, c.blocked, c.valid_from, c.valid_until, \
                   c.max_uses, c.uses, (SELECT COUNT(*) FROM promo_activations a WHERE a.code = c.code), c.new_players_only, c.currency, \
                   c.min_deposits, c.min_turnover, c.created_by, c.created_at \
                   FROM promo_codes c LEFT JOIN bonus_templates t ON t.id = c.template_id";
        let rows = match code {
            Some(code) => sqlx::query(&format!("{sql} WHERE c.code = $1")).bind(code).fetch_all(self.db().reader()).await,
            None => sqlx::query(&format!("{sql} ORDER BY c.created_at DESC, c.code")).fetch_all(self.db().reader()).await,
        }
        .map_err(db_err)?;
        Ok(rows
            .iter()
            .map(|r| {
                let currency: Option<String> = r.get(13);
                let money = currency.as_deref().and_then(|c| Currency::from_str(c).ok()).unwrap_or(Currency::Tnd);
                CodeView {
                    code: r.get(0),
                    kind: r.get(1),
                    template: r.get(2),
                    free_bet_amount: MajorUnits::new(r.get(3), money),
                    free_bet_count: r.get(4),
                    partner_id: r.get(5),
                    blocked: r.get::<i64, _>(6) != 0,
                    valid_from: r.get(7),
                    valid_until: r.get(8),
                    max_uses: r.get(9),
                    uses: r.get(10),
                    activations: r.get(11),
                    new_players_only: r.get::<i64, _>(12) != 0,
                    currency,
                    min_deposits: r.get(14),
                    min_turnover: MajorUnits::new(r.get(15), money),
                    created_by: r.get(16),
                    created_at: r.get(17),
                }
            })
            .collect())
    }

    /// A player's currency; 3 when there is no such user, 47 when the account is not a player's.
    async fn player_currency(&self, user_id: i64) -> Result<Currency, AppError> {
        let row = sqlx::query("SELECT currency, role FROM users WHERE id = $1")
            .bind(user_id)
            .fetch_optional(self.db().reader())
            .await
            .map_err(db_err)?
            .ok_or_else(|| AppError::with_detail(ErrorCode::NoSuchUser, format!("no user {user_id}")))?;
        if row.get::<i64, _>(1) != 0 {
            return Err(AppError::with_detail(ErrorCode::InvalidField, format!("user {user_id} is not a player")));
        }
        Currency::from_str(&row.get::<String, _>(0)).map_err(|_| db_err("user currency"))
    }

    /// A free-bet campaign: `count` free bets of `value` (major units of each player's
    /// currency, one of `limits.freebet`'s values) to each player, inactive until they activate
    /// them, with the rule's life (25 days). Idempotent per campaign id and player: the free
    /// bets are keyed `campaign:{id}:{user}:{n}`, so a re-run grants nothing twice; a re-run with
    /// another value or count for a player who has them answers 26. Every player is checked
    /// before anything is granted (3 no such user, 47 not a player). Each player's grant and its
    /// audit row are one database transaction.
    pub async fn grant_campaign(&self, campaign: &str, users: &[i64], value: i64, count: i64, actor: &str) -> Result<CampaignReport, AppError> {
        let rule = FreeBetRule::default();
        if !valid_key(campaign) {
            return Err(AppError::with_detail(ErrorCode::InvalidField, "campaign: 1 to 64 letters, digits, - or _"));
        }
        if !rule.values_major.contains(&value) {
            return Err(AppError::with_detail(ErrorCode::InvalidField, format!("value: one of {:?}", rule.values_major)));
        }
        if !(1..=20).contains(&count) {
            return Err(AppError::with_detail(ErrorCode::InvalidField, "count: 1 to 20"));
        }
        let mut ids = users.to_vec();
        ids.sort_unstable();
        ids.dedup();
        if ids.is_empty() || ids.len() > 1000 {
            return Err(AppError::with_detail(ErrorCode::InvalidField, "users: 1 to 1000 player ids"));
        }
        let mut players = Vec::with_capacity(ids.len());
        for &id in &ids {
            players.push((id, self.player_currency(id).await?));
        }
        let mut report = CampaignReport { campaign: campaign.to_string(), value, count, granted: 0, players: Vec::with_capacity(ids.len()) };
        for (user_id, currency) in players {
            let amount = currency.major(value);
            let (from, to) = prefix_range(&format!("campaign:{campaign}:{user_id}:"));
            let existing = sqlx::query("SELECT amount FROM free_bets WHERE source_key >= $1 AND source_key < $2")
                .bind(&from)
                .bind(&to)
                .fetch_all(self.db().writer())
                .await
                .map_err(db_err)?;
            if !existing.is_empty() && (existing.len() as i64 != count || existing.iter().any(|r| r.get::<i64, _>(0) != amount)) {
                return Err(AppError::with_detail(
                    ErrorCode::IdempotencyConflict,
                    format!("campaign {campaign} gave user {user_id} other free bets ({} before)", existing.len()),
                ));
            }
            let now = now_ms();
            let mut tx = self.db().writer().begin().await.map_err(db_err)?;
            let mut granted = 0;
            for n in 0..count {
                let r = sqlx::query(
                    "INSERT INTO free_bets (id, user_id, currency, amount, status, source_key, granted_at, activated_at, expires_at) \
                     VALUES ($1, $2, $3, $4, 'inactive', $5, $6, NULL, $7) ON CONFLICT (source_key) DO NOTHING",
                )
                .bind(next_id())
                .bind(user_id)
                .bind(currency.code())
                .bind(amount)
                .bind(format!("{from}{n}"))
                .bind(now)
                .bind(rule.expires_at(now / 1000) * 1000)
                .execute(&mut *tx)
                .await
                .map_err(db_err)?;
                granted += r.rows_affected() as i64;
            }
            if granted > 0 {
                let details = serde_json::json!({ "campaign": campaign, "value": value, "currency": currency.code(), "count": count, "granted": granted }).to_string();
                let subject = format!("user:{user_id}");
                let record = store::audit::Record { actor, action: "promo.free_bets.grant", subject: &subject, details: &details };
                store::audit::append(&mut *tx, &record, now).await.map_err(db_err)?;
            }
            tx.commit().await.map_err(db_err)?;
            report.granted += granted;
            report.players.push(CampaignPlayer { user_id, currency, granted, total: count });
        }
        Ok(report)
    }

    /// Grants a bonus of a template to a player by hand, idempotent by `key` (the bonus's
    /// source key is `operator:{key}`): a repeat answers the same bonus with `replayed`; the
    /// key used for another player or template answers 26. Audited (`promo.bonus.grant`).
    pub async fn grant_by_operator(&self, user_id: i64, template_id: i64, key: &str, actor: &str) -> Result<OperatorGrant, AppError> {
        if !valid_key(key) {
            return Err(AppError::with_detail(ErrorCode::InvalidField, "key: 1 to 64 letters, digits, - or _"));
        }
        let source_key = format!("operator:{key}");
        let before = sqlx::query("SELECT id, user_id, template_id FROM bonuses WHERE source_key = $1")
            .bind(&source_key)
            .fetch_optional(self.db().writer())
            .await
            .map_err(db_err)?;
        if let Some(b) = &before {
            if b.get::<i64, _>(1) != user_id || b.get::<i64, _>(2) != template_id {
                return Err(AppError::with_detail(ErrorCode::IdempotencyConflict, "this key granted another bonus"));
            }
        }
        let currency = self.player_currency(user_id).await?;
        let grant = self.grant(user_id, currency, template_id, 0, "operator", &source_key).await?;
        let id = grant.id();
        let replayed = matches!(grant, super::Grant::Existing(_));
        // The audit row of a grant a crash left unaudited is written by its retry.
        let audited: i64 = sqlx::query("SELECT COUNT(*) FROM audit_log WHERE action = 'promo.bonus.grant' AND subject = $1")
            .bind(format!("bonus:{id}"))
            .fetch_one(self.db().writer())
            .await
            .map_err(db_err)?
            .get(0);
        if audited == 0 {
            self.audit(actor, "promo.bonus.grant", &format!("bonus:{id}"), serde_json::json!({ "user": user_id, "template": template_id.to_string(), "key": key }))
                .await?;
        }
        let bonus = self
            .bonuses(user_id)
            .await?
            .into_iter()
            .find(|b| b.id == id.to_string())
            .ok_or_else(|| db_err("the granted bonus is not listed"))?;
        Ok(OperatorGrant { replayed, bonus })
    }

    /// Creates a jackpot pool for the operator: refused (132) when the id or number is taken by
    /// another pool; the same pool again answers it unchanged (`false`: nothing created).
    #[allow(clippy::too_many_arguments)]
    pub async fn create_pool_checked(&self, id: &str, num: i64, name: &str, currency: Currency, seed_amount: Minor, cap: Minor, share_bps: i64, image: &str) -> Result<bool, AppError> {
        let refuse = |why: &str| AppError::with_detail(ErrorCode::BonusTermsRefused, why.to_string());
        if id.is_empty() || id.len() > 32 || !id.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_') {
            return Err(refuse("a pool id is 1 to 32 lower-case letters, digits, - or _"));
        }
        let name = name.trim();
        if name.is_empty() || name.len() > 40 {
            return Err(refuse("a pool needs a name of 1 to 40 characters"));
        }
        if !(1..=1000).contains(&num) {
            return Err(refuse("a pool's number is 1 to 1000"));
        }
        let limits = self.ledger().limits();
        if seed_amount > limits.max_amount(currency) || cap > limits.max_balance(currency) {
            return Err(refuse("the seed or the cap is above the ledger's maxima"));
        }
        let same = sqlx::query("SELECT id, num, currency, seed_amount, cap, share_bps FROM jackpot_pools WHERE id = $1 OR num = $2")
            .bind(id)
            .bind(num)
            .fetch_all(self.db().writer())
            .await
            .map_err(db_err)?;
        if let Some(r) = same.first() {
            let identical = same.len() == 1
                && r.get::<String, _>(0) == id
                && r.get::<i64, _>(1) == num
                && r.get::<String, _>(2) == currency.code()
                && r.get::<i64, _>(3) == seed_amount
                && r.get::<i64, _>(4) == cap
                && r.get::<i64, _>(5) == share_bps;
            return if identical { Ok(false) } else { Err(refuse("another pool has this id or number")) };
        }
        self.create_pool(id, num, name, currency, seed_amount, cap, share_bps, image).await?;
        Ok(true)
    }
}
