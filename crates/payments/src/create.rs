//! Creating intents: payment tokens' keys, deposits (sandbox, Paykassma), Telegram USDT
//! deposits, withdrawals (hold at once), the withdrawal rules, and the provider's answer.

use crate::model::{Intent, IntentKind, IntentStatus, Payer};
use crate::outcomes::event;
use crate::provider::{Provider, ProviderStatus};
use crate::rules::{self, LimitKey};
use crate::{gcd, sandbox, Outcome, Payments, CRYPTO, PAYKASSMA, SANDBOX};
use kernel::clock::{now_ms, MINUTE_MS};
use kernel::ids::next_id;
use kernel::{AppError, Currency, ErrorCode, Minor};
use store::sqlx;
use wallet::{AccountRef, BalanceKind, HouseAccount, LedgerError, PostingRequest, TxType};

impl Payments {

    pub(crate) async fn settings(&self) -> Result<serde_json::Value, AppError> {
        self.content.settings().await
    }

    /// The responsible-gambling deposit limits: **the one call site** the lead wires to the
    /// limits of `accounts` ([`Payments::set_deposit_guard`]). No guard set: no limit.
    pub(crate) async fn responsible_gambling_check(&self, user_id: i64, amount: Minor, currency: Currency) -> Result<(), AppError> {
        match self.guard.get() {
            Some(g) => g.check_deposit(user_id, amount, currency).await,
            None => Ok(()),
        }
    }

    /// A deposit through `provider` (`sandbox` or `paykassma`): checks the rules, records the
    /// intent, asks the provider for its page. `client_key`: a payment token's key (a retry
    /// answers the same intent). Answers the intent and the page's URL.
    pub async fn deposit(&self, payer: &Payer, provider: &str, amount_text: &str, token: Option<&str>) -> Result<(Intent, Option<String>), AppError> {
        let p = self.provider(provider)?.clone();
        if provider == CRYPTO {
            return Err(ErrorCode::PaymentMethodUnavailable.into());
        }
        if !rules::registered_on_web(&payer.registered_via) {
            return Err(ErrorCode::OnlineDepositNotAllowed.into());
        }
        let currency = payer.currency;
        let amount = rules::amount(amount_text, currency)?;
        let key = match token {
            Some(t) => Some(self.token_key(payer.id, t).await?),
            None => None,
        };
        if let Some(existing) = self.replay(key.as_deref(), payer.id, IntentKind::Deposit, provider, amount).await? {
            let url = self.page_url(&existing, payer);
            return Ok((existing, url));
        }
        let limit = if provider == PAYKASSMA { LimitKey::ETopUp } else { LimitKey::TopUp };
        rules::check_limits(&self.settings().await?, limit, currency, amount)?;
        self.responsible_gambling_check(payer.id, amount, currency).await?;
        let method = if provider == PAYKASSMA { "plugin" } else { "card" };
        let new = NewIntent {
            payer,
            kind: IntentKind::Deposit,
            provider,
            method,
            amount,
            currency,
            credit: (amount, currency),
            rate: (1, 1),
            phone: None,
            details: serde_json::json!({ "lang": payer.lang }),
            key,
            review: false,
        };
        let intent = match self.insert(new).await? {
            Inserted::New(i) => i,
            Inserted::Existing(i) => {
                let url = self.page_url(&i, payer);
                return Ok((i, url));
            }
        };
        let intent = self.after_create(&*p, intent, true).await?;
        let url = self.page_url(&intent, payer);
        Ok((intent, url))
    }

    /// A Telegram USDT deposit through the crypto provider: `amount` is USDT; the rate to the
    /// player's currency is recorded now and applied at success.
    pub async fn telegram_deposit(&self, payer: &Payer, telegram_user_id: &str, amount_text: &str, payment_currency: &str) -> Result<(Intent, Option<String>), AppError> {
        let p = self.provider(CRYPTO)?.clone();
        // The malformed id first (40, as its schema says: 1 to 64 characters), then the
        // currency this provider takes (89).
        let tg = telegram_user_id;
        if !(1..=64).contains(&tg.chars().count()) {
            return Err(AppError::with_detail(ErrorCode::BadRequest, "telegram_user_id must be 1 to 64 characters"));
        }
        if payment_currency.trim() != "USDT" {
            return Err(ErrorCode::PaymentMethodUnavailable.into());
        }
        let usdt = rules::amount(amount_text, Currency::Usdt)?;
        let (num, den) = self.usdt_rate(payer.currency).ok_or(ErrorCode::PaymentMethodUnavailable)?;
        let credit = (usdt as i128 * num as i128 / den as i128) as i64;
        if credit <= 0 {
            return Err(ErrorCode::PaymentAmountInvalid.into());
        }
        rules::check_limits(&self.settings().await?, LimitKey::TopUp, payer.currency, credit)?;
        self.responsible_gambling_check(payer.id, credit, payer.currency).await?;
        let new = NewIntent {
            payer,
            kind: IntentKind::Deposit,
            provider: CRYPTO,
            method: "usdt",
            amount: usdt,
            currency: Currency::Usdt,
            credit: (credit, payer.currency),
            rate: (num, den),
            phone: None,
            details: serde_json::json!({ "lang": payer.lang, "telegram_user_id": tg }),
            key: None,
            review: false,
        };
        let Inserted::New(intent) = self.insert(new).await? else {
            return Err(AppError::internal("a keyless intent collided"));
        };
        let intent = self.after_create(&*p, intent, true).await?;
        let url = self.page_url(&intent, payer);
        Ok((intent, url))
    }

    /// The USDT → `currency` rate as minor per minor `(num, den)`, reduced.
    pub fn usdt_rate(&self, currency: Currency) -> Option<(i64, i64)> {
        let (_, text) = self.shared.cfg.usdt_rates.iter().find(|(c, _)| *c == currency)?;
        // major per major = r; minor per minor = r · 10^exp(currency) / 10^6. r is exact in
        // thousandths-of-a-millionth (12 decimals at most).
        let r = kernel::money::parse_major(text, Currency::Usdt).ok().filter(|r| *r > 0)?; // r · 10^6
        let num = r as i128 * currency.scale() as i128;
        let den = 1_000_000i128 * 1_000_000i128;
        let g = gcd(num, den);
        Some(((num / g) as i64, (den / g) as i64))
    }

    /// A withdrawal through `provider` to a phone (e-wallet): checks the rules, records the
    /// intent, holds the funds at once (type 10), asks the provider to pay out.
    pub async fn withdraw(&self, payer: &Payer, provider: &str, amount_text: &str, phone: &str, token: Option<&str>) -> Result<Intent, AppError> {
        let p = self.provider(provider)?.clone();
        if provider == CRYPTO {
            return Err(ErrorCode::PaymentMethodUnavailable.into());
        }
        let currency = payer.currency;
        let amount = rules::amount(amount_text, currency)?;
        if provider == PAYKASSMA && amount % currency.scale() != 0 {
            // Paykassma's withdrawal amount is an integer of major units.
            return Err(AppError::with_detail(ErrorCode::PaymentAmountInvalid, "Paykassma pays whole amounts only"));
        }
        let phone = rules::payout_phone(phone)?;
        let key = match token {
            Some(t) => Some(self.token_key(payer.id, t).await?),
            None => None,
        };
        if let Some(existing) = self.replay(key.as_deref(), payer.id, IntentKind::Withdrawal, provider, amount).await? {
            return Ok(existing);
        }
        self.check_withdrawal(payer, LimitKey::EWithdrawal, amount).await?;
        // Above the review amount the intent is written as `review` at once: there is no
        // moment at which a held withdrawal could reach the provider unapproved.
        let review = self.shared.cfg.withdrawal_review_above.is_some_and(|major| amount > currency.major(major));
        let new = NewIntent {
            payer,
            kind: IntentKind::Withdrawal,
            provider,
            method: "ewallet",
            amount,
            currency,
            credit: (amount, currency),
            rate: (1, 1),
            phone: Some(phone),
            details: serde_json::json!({ "lang": payer.lang }),
            key,
            review,
        };
        let intent = match self.insert(new).await? {
            Inserted::New(i) => i,
            Inserted::Existing(i) => return Ok(i),
        };
        // The hold, right after the row (a crash in between: see the crate docs).
        let hold = PostingRequest::transfer(
            TxType::Withdrawal,
            intent.key("hold"),
            Some(payer.id),
            currency,
            AccountRef::Player { user_id: payer.id, kind: BalanceKind::Real },
            AccountRef::House(HouseAccount::WithdrawalsPending),
            amount,
        )
        .comment(format!("Withdrawal via {provider}"))
        .metadata(serde_json::json!({ "intent": intent.id, "provider": provider }));
        match self.ledger.post(hold).await {
            Ok(_) => {}
            Err(e) => {
                // Nothing moved: the intent never existed for the player.
                self.discard(intent.id).await?;
                return Err(match e {
                    LedgerError::Insufficient(_) => ErrorCode::InsufficientForWithdrawal.into(),
                    other => other.into(),
                });
            }
        }
        self.mark_held(intent.id).await?;
        let intent = Intent { held: true, ..intent };
        if intent.status == IntentStatus::Review {
            // Staff approve it first (crate::review); the provider hears of it then.
            return Ok(intent);
        }
        self.after_create(&*p, intent, false).await
    }

    /// The withdrawal rules (limits, funds, wagering, blocks) for `amount` in the payer's
    /// currency — shared with the cashier network's withdrawals.
    pub async fn check_withdrawal(&self, payer: &Payer, limit: LimitKey, amount: Minor) -> Result<(), AppError> {
        let settings = self.settings().await?;
        rules::check_limits(&settings, limit, payer.currency, amount)?;
        let now = now_ms();
        if let Some(until) = rules::blocked_until(self.db(), payer.id, payer.phone.as_deref(), self.shared.cfg.withdrawal_block_ms, now).await? {
            return Err(rules::blocked_error(until));
        }
        let balance = self.ledger.balance(payer.id, BalanceKind::Real, payer.currency).await?;
        if balance < amount {
            return Err(ErrorCode::InsufficientForWithdrawal.into());
        }
        let turnover = rules::wagering_left(self.db(), payer.id, payer.currency, rules::turnover_milli(&settings)).await?;
        // An open bonus: its wagering first, or the player gives it up (docs/PROMOTIONS.md).
        let left = turnover.max(self.bonus_wagering_left(payer.id).await?);
        if left > 0 {
            return Err(rules::wagering_error(left, payer.currency));
        }
        Ok(())
    }

    /// A retry of a token's request: the intent it made (26 if it made another one).
    pub(crate) async fn replay(&self, key: Option<&str>, user_id: i64, kind: IntentKind, provider: &str, amount: Minor) -> Result<Option<Intent>, AppError> {
        let Some(key) = key else {
            return Ok(None);
        };
        match self.intent_by_key(key).await? {
            None => Ok(None),
            Some(i) if i.user_id == user_id && i.kind == kind && i.provider == provider && i.amount == amount => Ok(Some(i)),
            Some(_) => Err(ErrorCode::IdempotencyConflict.into()),
        }
    }

    pub(crate) fn page_url(&self, intent: &Intent, payer: &Payer) -> Option<String> {
        match intent.provider.as_str() {
            SANDBOX | CRYPTO => intent.provider_ref.as_ref().map(|r| sandbox::page_path(r, &payer.lang)),
            PAYKASSMA => intent.details.get("url").and_then(|u| u.as_str()).map(str::to_string),
            _ => None,
        }
    }

    /// Asks the provider to create the payment; `created → pending` with its reference, or
    /// `→ failed` when it refuses (a withdrawal's hold returns). Unreachable: the intent
    /// stays `created` (a withdrawal keeps its hold) and the reconciliation retries it.
    pub(crate) async fn after_create(&self, p: &dyn Provider, intent: Intent, deposit: bool) -> Result<Intent, AppError> {
        let created = if deposit { p.create_deposit(&intent).await } else { p.create_withdrawal(&intent).await };
        match created {
            Ok(c) => match c.status {
                ProviderStatus::Failed(reason) => {
                    self.finish(&intent, Outcome::Failed, "create", &reason).await?;
                    if deposit {
                        return Err(AppError::with_detail(ErrorCode::PaymentProviderUnavailable, reason));
                    }
                }
                _ => {
                    let url_detail = c.url.clone();
                    self.to_pending(&intent, c.reference.as_deref(), url_detail.as_deref()).await?;
                }
            },
            Err(e) if deposit => {
                self.finish(&intent, Outcome::Failed, "create", &e.text()).await?;
                return Err(AppError::with_detail(ErrorCode::PaymentProviderUnavailable, e.text()));
            }
            Err(e) => {
                tracing::warn!(intent = intent.id, error = %e.text(), "payments: withdrawal not accepted yet; the reconciliation retries it");
            }
        }
        Ok(self.intent(intent.id).await?.unwrap_or(intent))
    }

    pub(crate) async fn insert(&self, n: NewIntent<'_>) -> Result<Inserted, AppError> {
        let id = next_id();
        let now = now_ms();
        let expires_at = match n.kind {
            IntentKind::Deposit => now + self.shared.cfg.deposit_ttl_ms,
            // A withdrawal does not expire by time once the provider has it.
            IntentKind::Withdrawal => now + 7 * 24 * 60 * MINUTE_MS,
        };
        let mut tx = self.db().writer().begin().await.map_err(AppError::internal)?;
        let inserted = sqlx::query(
            "INSERT INTO payment_intents (id, user_id, kind, provider, method, amount, currency, credit_amount, credit_currency, \
             rate_num, rate_den, phone, details, client_key, status, held, needs_review, created_at, updated_at, expires_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $17, 0, 0, $15, $15, $16)",
        )
        .bind(id)
        .bind(n.payer.id)
        .bind(n.kind.as_str())
        .bind(n.provider)
        .bind(n.method)
        .bind(n.amount)
        .bind(n.currency.code())
        .bind(n.credit.0)
        .bind(n.credit.1.code())
        .bind(n.rate.0)
        .bind(n.rate.1)
        .bind(n.phone.as_deref())
        .bind(n.details.to_string())
        .bind(n.key.as_deref())
        .bind(now)
        .bind(expires_at)
        .bind(if n.review { IntentStatus::Review } else { IntentStatus::Created }.as_str())
        .execute(&mut *tx)
        .await;
        match inserted {
            Ok(_) => {}
            Err(e) if store::is_unique_violation(&e) => {
                drop(tx);
                // A concurrent retry with the same token made it first.
                let key = n.key.as_deref().unwrap_or_default();
                return match self.replay(Some(key), n.payer.id, n.kind, n.provider, n.amount).await? {
                    Some(i) => Ok(Inserted::Existing(i)),
                    None => Err(ErrorCode::IdempotencyConflict.into()),
                };
            }
            Err(e) => return Err(AppError::internal(e)),
        }
        // A deposit reserves its amount against the player's limits from now until it
        // succeeds, fails or expires: the binding check runs here, with the row written, in
        // the transaction that writes it (a refusal rolls the row back).
        if n.kind == IntentKind::Deposit {
            if let Some(guard) = self.guard.get() {
                guard.reserve_deposit(&mut tx, n.payer.id, n.credit.0, n.credit.1).await?;
            }
        }
        event(&mut tx, id, None, IntentStatus::Created, "player", "", now).await?;
        if n.review {
            event(&mut tx, id, Some(IntentStatus::Created), IntentStatus::Review, "rules", "above the review amount: waits for staff approval", now).await?;
        }
        tx.commit().await.map_err(AppError::internal)?;
        self.intent(id).await?.map(Inserted::New).ok_or_else(|| AppError::internal("intent vanished"))
    }

    pub(crate) async fn discard(&self, id: i64) -> Result<(), AppError> {
        let mut tx = self.db().writer().begin().await.map_err(AppError::internal)?;
        sqlx::query("DELETE FROM payment_intent_events WHERE intent_id = $1").bind(id).execute(&mut *tx).await.map_err(AppError::internal)?;
        sqlx::query("DELETE FROM payment_intents WHERE id = $1 AND status IN ('created', 'review') AND held = 0")
            .bind(id)
            .execute(&mut *tx)
            .await
            .map_err(AppError::internal)?;
        tx.commit().await.map_err(AppError::internal)
    }

    pub(crate) async fn mark_held(&self, id: i64) -> Result<(), AppError> {
        sqlx::query("UPDATE payment_intents SET held = 1, updated_at = $1 WHERE id = $2")
            .bind(now_ms())
            .bind(id)
            .execute(self.db().writer())
            .await
            .map_err(AppError::internal)?;
        Ok(())
    }

    /// `created → pending`, recording the provider's reference (and page URL).
    pub(crate) async fn to_pending(&self, intent: &Intent, reference: Option<&str>, url: Option<&str>) -> Result<bool, AppError> {
        let now = now_ms();
        let mut details = intent.details.clone();
        if let (Some(u), Some(obj)) = (url, details.as_object_mut()) {
            obj.insert("url".into(), u.into());
        }
        let mut tx = self.db().writer().begin().await.map_err(AppError::internal)?;
        let done = sqlx::query(
            "UPDATE payment_intents SET status = 'pending', provider_ref = COALESCE(provider_ref, $1), details = $2, updated_at = $3 \
             WHERE id = $4 AND status = 'created'",
        )
        .bind(reference)
        .bind(details.to_string())
        .bind(now)
        .bind(intent.id)
        .execute(&mut *tx)
        .await
        .map_err(AppError::internal)?
        .rows_affected()
            == 1;
        if done {
            event(&mut tx, intent.id, Some(IntentStatus::Created), IntentStatus::Pending, "provider", reference.unwrap_or(""), now).await?;
        }
        tx.commit().await.map_err(AppError::internal)?;
        Ok(done)
    }

}

pub(crate) struct NewIntent<'a> {
    payer: &'a Payer,
    kind: IntentKind,
    provider: &'a str,
    method: &'a str,
    amount: Minor,
    currency: Currency,
    credit: (Minor, Currency),
    rate: (i64, i64),
    phone: Option<String>,
    details: serde_json::Value,
    key: Option<String>,
    /// Written as `review` (a withdrawal waiting for staff) instead of `created`.
    review: bool,
}

pub(crate) enum Inserted {
    New(Intent),
    Existing(Intent),
}
