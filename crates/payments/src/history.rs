//! The pay history: provider intents merged with entries of other sources.

use crate::model::{self, Intent, IntentKind};
use crate::{Payments, CRYPTO};
use kernel::money::MajorUnits;
use kernel::{AppError, Currency, Minor};
use store::sqlx;
use wallet::TxType;

impl Payments {

    /// The player's deposits and withdrawals through providers in `[from, to)`, merged with
    /// `extra` entries from other sources (the cashier network's cash deposits and cashier
    /// withdrawals), newest first.
    pub async fn history(&self, user_id: i64, from_ms: i64, to_ms: i64, extra: Vec<PayHistoryEntry>) -> Result<Vec<PayHistoryEntry>, AppError> {
        let rows = sqlx::query(&format!(
            "SELECT {} FROM payment_intents WHERE user_id = $1 AND created_at >= $2 AND created_at < $3 ORDER BY created_at DESC LIMIT 500",
            model::INTENT_COLUMNS
        ))
        .bind(user_id)
        .bind(from_ms)
        .bind(to_ms)
        .fetch_all(self.db().reader())
        .await
        .map_err(AppError::internal)?;
        let mut out: Vec<PayHistoryEntry> = rows.iter().filter_map(Intent::from_row).map(|i| PayHistoryEntry::of(&i)).collect();
        out.extend(extra.into_iter().filter(|e| e.created_at >= from_ms && e.created_at < to_ms));
        out.sort_by(|a, b| b.created_at.cmp(&a.created_at).then(b.id.cmp(&a.id)));
        Ok(out)
    }
}


/// One pay-history entry (spec §3): deposits and withdrawals only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PayHistoryEntry {
    pub id: i64,
    pub created_at: i64,
    /// Positive for a deposit, negative for a withdrawal (minor units of `currency`).
    pub value: Minor,
    pub currency: Currency,
    /// `payment` or `withdrawal`.
    pub kind: &'static str,
    pub status: String,
    pub is_closed: bool,
    /// The ledger type (spec payment types: 16, 11, 114, 10).
    pub payment_mode: i64,
    /// Where the money went or came from: the provider, `cashier`…
    pub purse: String,
    pub comment: String,
}

impl PayHistoryEntry {
    pub fn of(i: &Intent) -> PayHistoryEntry {
        let deposit = i.kind == IntentKind::Deposit;
        PayHistoryEntry {
            id: i.id,
            created_at: i.created_at,
            value: if deposit { i.credit_amount } else { -i.amount },
            currency: i.credit_currency,
            kind: if deposit { "payment" } else { "withdrawal" },
            status: i.status.as_str().into(),
            is_closed: i.status.is_final(),
            payment_mode: match (deposit, i.provider.as_str()) {
                (true, CRYPTO) => TxType::Deposit.code(),
                (true, _) => TxType::PaymentService.code(),
                (false, _) => TxType::Withdrawal.code(),
            },
            purse: i.provider.clone(),
            comment: match (deposit, &i.phone) {
                (true, _) if i.provider == CRYPTO => format!("Telegram USDT deposit ({} USDT)", kernel::money::format_major(i.amount, Currency::Usdt)),
                (true, _) => format!("Deposit via {}", i.provider),
                (false, Some(p)) => format!("Withdrawal via {} to {p}", i.provider),
                (false, None) => format!("Withdrawal via {}", i.provider),
            },
        }
    }

    pub fn major(&self) -> MajorUnits {
        MajorUnits::new(self.value, self.currency)
    }
}
