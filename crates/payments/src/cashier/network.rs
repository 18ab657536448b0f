//! Cashier locations, the cashier list (spec §9 ordering), floats and cash deposits, the
//! desk's player search and shift report.

use super::{db_err, Cashier, Player, Staff, ROLE_CASHIER, ROLE_PLAYER, ROLE_SUPER_AGENT};
use kernel::clock::now_ms;
use kernel::{AppError, Currency, ErrorCode, Minor};
use futures::FutureExt;
use std::sync::{Arc, Mutex};
use store::sqlx::{self, Row};
use wallet::{AccountRef, BalanceKind, HouseAccount, LedgerError, PostingRequest, Receipt, TxType};

/// Spec §3 cashier option: `name` is the first name, address and phone joined.
pub fn location_name(first_name: &str, address: &str, phone: &str) -> String {
    [first_name, address, phone].iter().map(|s| s.trim()).filter(|s| !s.is_empty()).collect::<Vec<_>>().join(", ")
}

/// One cashier of the player's list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CashierEntry {
    pub id: i64,
    pub name: String,
    pub first_name: String,
    pub address: String,
    pub phone: String,
}

/// Spec §9: the configured first cashier first, the configured last one last, the rest by
/// name (then id, so the order is total).
pub fn order_cashiers(mut list: Vec<CashierEntry>, first: Option<i64>, last: Option<i64>) -> Vec<CashierEntry> {
    list.sort_by(|a, b| {
        let rank = |c: &CashierEntry| {
            if Some(c.id) == first {
                0
            } else if Some(c.id) == last {
                2
            } else {
                1
            }
        };
        rank(a).cmp(&rank(b)).then_with(|| a.name.to_lowercase().cmp(&b.name.to_lowercase())).then(a.id.cmp(&b.id))
    });
    list
}

/// A super agent's cashier with its float.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaffCashier {
    pub id: i64,
    pub name: String,
    pub currency: Currency,
    pub float: Minor,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FloatDirection {
    ToCashier,
    FromCashier,
}

impl FloatDirection {
    pub fn parse(s: &str) -> Option<FloatDirection> {
        match s {
            "to_cashier" => Some(FloatDirection::ToCashier),
            "from_cashier" => Some(FloatDirection::FromCashier),
            _ => None,
        }
    }
}

/// A count and a sum (minor units).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ReportLine {
    pub count: i64,
    pub amount: Minor,
}

/// A desk's shift report for a range: cash deposits taken, withdrawals paid out, and the
/// cash the till gained (`net` = deposits − payouts), with the float now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeskReport {
    pub currency: Currency,
    pub deposits: ReportLine,
    pub payouts: ReportLine,
    pub net: Minor,
    pub float: Minor,
}

/// What a desk shows of a player it found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoundPlayer {
    pub id: i64,
    pub login: String,
    pub phone: Option<String>,
    pub first_name: String,
    pub last_name: String,
    pub currency: Currency,
}

fn float_of(user_id: i64) -> AccountRef {
    AccountRef::Player { user_id, kind: BalanceKind::Float }
}

/// A ledger refusal of a float debit is the float's own code (110), not the player's 501.
fn float_err(e: LedgerError) -> AppError {
    match e {
        LedgerError::Insufficient(BalanceKind::Float) => ErrorCode::FloatInsufficient.into(),
        e => e.into(),
    }
}

/// An e-mail address as a desk sees it: the first letter of the name and of the domain,
/// the top-level domain whole (`ali.ben@gmail.com` → `a***@g***.com`).
pub fn mask_email(email: &str) -> String {
    let Some((name, domain)) = email.rsplit_once('@') else { return mask_phone(email) };
    let first = |s: &str| s.chars().next().map(String::from).unwrap_or_default();
    let (host, tld) = domain.rsplit_once('.').unwrap_or((domain, ""));
    let tld = if tld.is_empty() { String::new() } else { format!(".{tld}") };
    format!("{}***@{}***{tld}", first(name), first(host))
}

/// A phone number (digits, as stored) as a desk sees it: the country code and the last
/// three digits (`21650123456` → `+216 ** *** 456`); a number without the 216 prefix
/// keeps only its last three digits.
pub fn mask_phone(phone: &str) -> String {
    let digits: String = phone.chars().filter(|c| c.is_ascii_digit()).collect();
    let n = digits.len();
    if n < 6 {
        return "***".into();
    }
    let last = &digits[n - 3..];
    match digits.strip_prefix("216") {
        Some(rest) if rest.len() == 8 => format!("+216 ** *** {last}"),
        _ => format!("{} {last}", "*".repeat(n - 3)),
    }
}

/// A login (an e-mail or a phone number) masked for a desk.
fn mask_login(login: &str) -> String {
    if login.contains('@') {
        mask_email(login)
    } else {
        mask_phone(login)
    }
}

impl Cashier {
    /// Creates or updates a cashier's location (`carthage cashier location`, the seed).
    /// Refused for an account that is not a cashier.
    pub async fn set_location(&self, user_id: i64, first_name: &str, address: &str, phone: &str) -> Result<(), AppError> {
        let role: Option<i64> = sqlx::query("SELECT role FROM users WHERE id = $1")
            .bind(user_id)
            .fetch_optional(self.db.reader())
            .await
            .map_err(db_err)?
            .map(|r| r.get(0));
        if role != Some(ROLE_CASHIER) {
            return Err(ErrorCode::CashierNotFound.into());
        }
        let (first_name, address, phone) = (first_name.trim(), address.trim(), phone.trim());
        if first_name.is_empty() || first_name.len() > 100 || address.len() > 300 || phone.len() > 40 {
            return Err(AppError::with_detail(ErrorCode::InvalidField, "first name (1–100), address (≤300) and phone (≤40)"));
        }
        let now = now_ms();
        sqlx::query(
            "INSERT INTO cashier_locations (user_id, first_name, address, phone, is_active, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, 1, $5, $5) \
             ON CONFLICT (user_id) DO UPDATE SET first_name = $2, address = $3, phone = $4, is_active = 1, updated_at = $5",
        )
        .bind(user_id)
        .bind(first_name)
        .bind(address)
        .bind(phone)
        .bind(now)
        .execute(self.db.writer())
        .await
        .map_err(db_err)?;
        Ok(())
    }

    /// Makes `agent_id` (a super agent) the owner of cashier `cashier_id`.
    pub async fn assign_to_agent(&self, cashier_id: i64, agent_id: i64) -> Result<(), AppError> {
        let role_of = |id: i64| async move {
            sqlx::query("SELECT role FROM users WHERE id = $1")
                .bind(id)
                .fetch_optional(self.db.reader())
                .await
                .map_err(db_err)
                .map(|r| r.map(|r| r.get::<i64, _>(0)))
        };
        if role_of(cashier_id).await? != Some(ROLE_CASHIER) {
            return Err(ErrorCode::CashierNotFound.into());
        }
        if role_of(agent_id).await? != Some(ROLE_SUPER_AGENT) {
            return Err(AppError::with_detail(ErrorCode::Forbidden, "the owner must be a super agent"));
        }
        sqlx::query("UPDATE users SET parent_super_agent_id = $1, updated_at = $2 WHERE id = $3")
            .bind(agent_id)
            .bind(now_ms())
            .bind(cashier_id)
            .execute(self.db.writer())
            .await
            .map_err(db_err)?;
        Ok(())
    }

    /// The active cashiers with a location, in the order of spec §9.
    pub async fn cashiers(&self) -> Result<Vec<CashierEntry>, AppError> {
        let rows = sqlx::query(
            "SELECT l.user_id, l.first_name, l.address, l.phone FROM cashier_locations l JOIN users u ON u.id = l.user_id \
             WHERE l.is_active = 1 AND u.role = $1 AND u.is_banned = 0",
        )
        .bind(ROLE_CASHIER)
        .fetch_all(self.db.reader())
        .await
        .map_err(db_err)?;
        let list = rows
            .iter()
            .map(|r| {
                let (first_name, address, phone): (String, String, String) = (r.get(1), r.get(2), r.get(3));
                CashierEntry { id: r.get(0), name: location_name(&first_name, &address, &phone), first_name, address, phone }
            })
            .collect();
        Ok(order_cashiers(list, self.cfg.list_first, self.cfg.list_last))
    }

    /// Whether `id` is an active cashier of the list.
    pub(crate) async fn cashier_exists(&self, id: i64) -> Result<bool, AppError> {
        let row = sqlx::query(
            "SELECT l.user_id FROM cashier_locations l JOIN users u ON u.id = l.user_id \
             WHERE l.user_id = $1 AND l.is_active = 1 AND u.role = $2 AND u.is_banned = 0",
        )
        .bind(id)
        .bind(ROLE_CASHIER)
        .fetch_optional(self.db.reader())
        .await
        .map_err(db_err)?;
        Ok(row.is_some())
    }

    /// A staff member's float.
    pub async fn float(&self, staff: &Staff) -> Result<Minor, AppError> {
        Ok(self.ledger.balance(staff.id, BalanceKind::Float, staff.currency).await?)
    }

    /// The operator issues float to a super agent (positive `amount`) or takes it back
    /// (negative): type 210 between `house:floats` and the agent's float, key
    /// `float:issue:{agent}:{key}`. The agent's float never goes negative (110).
    pub async fn issue_float(&self, agent_id: i64, amount: Minor, key: &str, actor: &str) -> Result<Receipt, AppError> {
        let row = sqlx::query("SELECT role, currency FROM users WHERE id = $1")
            .bind(agent_id)
            .fetch_optional(self.db.reader())
            .await
            .map_err(db_err)?
            .ok_or(ErrorCode::NoSuchUser)?;
        if row.get::<i64, _>(0) != ROLE_SUPER_AGENT {
            return Err(AppError::with_detail(ErrorCode::Forbidden, "float is issued to super agents"));
        }
        let currency: Currency = row.get::<String, _>(1).parse().map_err(|_| db_err("unknown currency"))?;
        if amount == 0 || key.trim().is_empty() || key.len() > 100 {
            return Err(AppError::with_detail(ErrorCode::InvalidField, "a non-zero amount and a key of 1 to 100 characters"));
        }
        let (from, to, abs) = if amount > 0 {
            (AccountRef::House(HouseAccount::Floats), float_of(agent_id), amount)
        } else {
            (float_of(agent_id), AccountRef::House(HouseAccount::Floats), -amount)
        };
        let posting = PostingRequest::transfer(TxType::FloatIssue, format!("float:issue:{agent_id}:{key}"), Some(agent_id), currency, from, to, abs)
            .comment(if amount > 0 { "Float issued" } else { "Float taken back" })
            .metadata(serde_json::json!({ "agent": agent_id, "by": actor }))
            .audit(wallet::Audit {
                actor: actor.to_string(),
                action: "cashier.float_issue".into(),
                subject: format!("user:{agent_id}"),
                details: serde_json::json!({ "amount": amount, "currency": currency.code(), "key": key }),
            });
        self.ledger.post(posting).await.map_err(float_err)
    }

    /// A super agent's cashiers with their floats.
    pub async fn agent_cashiers(&self, agent: &Staff) -> Result<Vec<StaffCashier>, AppError> {
        if !agent.is_super_agent() {
            return Err(ErrorCode::Forbidden.into());
        }
        let rows = sqlx::query(
            "SELECT u.id, u.first_name, u.last_name, u.currency, l.first_name, l.address, l.phone, \
                    (SELECT a.balance FROM ledger_accounts a WHERE a.owner_id = u.id AND a.kind = 'float' AND a.currency = u.currency AND a.is_house = 0) \
             FROM users u LEFT JOIN cashier_locations l ON l.user_id = u.id \
             WHERE u.role = $1 AND u.parent_super_agent_id = $2 ORDER BY u.id",
        )
        .bind(ROLE_CASHIER)
        .bind(agent.id)
        .fetch_all(self.db.reader())
        .await
        .map_err(db_err)?;
        let mut out = Vec::with_capacity(rows.len());
        for r in rows {
            let currency: Currency = r.get::<String, _>(3).parse().map_err(|_| db_err("unknown currency"))?;
            let name = match r.get::<Option<String>, _>(4) {
                Some(first) => location_name(&first, &r.get::<String, _>(5), &r.get::<String, _>(6)),
                None => format!("{} {}", r.get::<String, _>(1), r.get::<String, _>(2)).trim().to_string(),
            };
            out.push(StaffCashier { id: r.get(0), name, currency, float: r.get::<Option<i64>, _>(7).unwrap_or(0) });
        }
        Ok(out)
    }

    /// A super agent moves float to or from one of its cashiers (type 209), key
    /// `float:move:{agent}:{key}`. The debited float never goes negative (110).
    pub async fn move_float(&self, agent: &Staff, cashier_id: i64, amount: Minor, direction: FloatDirection, key: &str) -> Result<Receipt, AppError> {
        if !agent.is_super_agent() {
            return Err(ErrorCode::Forbidden.into());
        }
        let owned = sqlx::query("SELECT currency FROM users WHERE id = $1 AND role = $2 AND parent_super_agent_id = $3")
            .bind(cashier_id)
            .bind(ROLE_CASHIER)
            .bind(agent.id)
            .fetch_optional(self.db.reader())
            .await
            .map_err(db_err)?
            .ok_or(ErrorCode::NotYourCashier)?;
        if owned.get::<String, _>(0) != agent.currency.code() {
            return Err(ErrorCode::CurrencyMismatch.into());
        }
        if amount <= 0 {
            return Err(AppError::with_detail(ErrorCode::InvalidField, "amount must be positive"));
        }
        let (from, to) = match direction {
            FloatDirection::ToCashier => (float_of(agent.id), float_of(cashier_id)),
            FloatDirection::FromCashier => (float_of(cashier_id), float_of(agent.id)),
        };
        let posting = PostingRequest::transfer(TxType::FloatTransfer, format!("float:move:{}:{key}", agent.id), Some(agent.id), agent.currency, from, to, amount)
            .comment(match direction {
                FloatDirection::ToCashier => "Float moved to a cashier",
                FloatDirection::FromCashier => "Float taken back from a cashier",
            })
            .metadata(serde_json::json!({ "agent": agent.id, "cashier": cashier_id }));
        self.ledger.post(posting).await.map_err(float_err)
    }

    /// The desk's search (`GET /api/desk/player`): throttled per desk (a burst of
    /// `lookup_burst`, then one every `lookup_period`; 14 with `retryAfterSeconds` beyond),
    /// every search counted whether it finds someone or not, and the reply masks the
    /// e-mail and phone ([`mask_email`], [`mask_phone`]): the desk recognises the player
    /// (with the name and the id card), it does not read their contact details.
    pub async fn desk_lookup(&self, staff: &Staff, query: &str) -> Result<FoundPlayer, AppError> {
        if let Err(not_until) = self.lookups.check_key(&staff.id) {
            use governor::clock::Clock;
            let wait = not_until.wait_time_from(governor::clock::DefaultClock::default().now());
            return Err(AppError::new(ErrorCode::RateLimited).data(serde_json::json!({ "retryAfterSeconds": wait.as_secs().max(1) })));
        }
        let p = self.find_player(query).await?;
        Ok(FoundPlayer { login: mask_login(&p.login), phone: p.phone.as_deref().map(mask_phone), ..p })
    }

    /// Finds a player (role 0) by id or phone (digits; 8 local digits get the 216 prefix).
    /// Unmasked and unthrottled: for the network's own calls, not for a desk's reply.
    pub async fn find_player(&self, query: &str) -> Result<FoundPlayer, AppError> {
        let q = query.trim();
        let digits: String = q.chars().filter(|c| c.is_ascii_digit()).collect();
        if digits.is_empty() || digits.len() > 19 || q.chars().any(|c| !(c.is_ascii_digit() || " +-()".contains(c))) {
            return Err(ErrorCode::DeskPlayerNotFound.into());
        }
        let phone = if digits.len() == 8 { format!("216{digits}") } else { digits.clone() };
        let id: i64 = digits.parse().unwrap_or(-1);
        let row = sqlx::query(
            "SELECT id, email, phone, first_name, last_name, currency FROM users \
             WHERE role = $1 AND is_banned = 0 AND (id = $2 OR phone = $3) ORDER BY CASE WHEN id = $2 THEN 0 ELSE 1 END LIMIT 1",
        )
        .bind(ROLE_PLAYER)
        .bind(id)
        .bind(&phone)
        .fetch_optional(self.db.reader())
        .await
        .map_err(db_err)?
        .ok_or(ErrorCode::DeskPlayerNotFound)?;
        let email: Option<String> = row.get(1);
        let phone: Option<String> = row.get(2);
        Ok(FoundPlayer {
            id: row.get(0),
            login: email.clone().or_else(|| phone.clone()).unwrap_or_default(),
            phone,
            first_name: row.get(3),
            last_name: row.get(4),
            currency: row.get::<String, _>(5).parse().map_err(|_| db_err("unknown currency"))?,
        })
    }

    /// Cash deposited at a desk: type 114 from the staff member's float to the player's
    /// real balance, key `desk:{staff}:{client key}` (a retried request answers the same
    /// posting). The float never goes negative (110).
    pub async fn cash_deposit(&self, staff: &Staff, player_id: i64, amount: Minor, client_key: &str) -> Result<Receipt, AppError> {
        let player = self.find_player(&player_id.to_string()).await?;
        if player.id != player_id {
            return Err(ErrorCode::DeskPlayerNotFound.into());
        }
        if player.currency != staff.currency {
            return Err(ErrorCode::CurrencyMismatch.into());
        }
        if amount <= 0 {
            return Err(AppError::with_detail(ErrorCode::InvalidField, "amount must be positive"));
        }
        // The player's responsible-gambling state (a block, their own deposit limits) is
        // asked for a new deposit only: a desk retrying a deposit that went through gets its
        // receipt back even though that deposit now counts towards the limit. The binding
        // limits check runs again inside the posting's transaction, with the deposit posted
        // (`DepositGuard::reserve_deposit`, serialised per player): of deposits racing, only
        // those that fit together go through.
        let key = format!("desk:{}:{client_key}", staff.id);
        if self.ledger.lookup(&key).await.map_err(db_err)?.is_none() {
            self.deposit_rules_check(player_id, amount, staff.currency).await?;
        }
        let posting = PostingRequest::transfer(
            TxType::CashierPayment,
            key,
            Some(player_id),
            staff.currency,
            float_of(staff.id),
            AccountRef::Player { user_id: player_id, kind: BalanceKind::Real },
            amount,
        )
        .comment("Cash deposit at a cashier")
        .metadata(serde_json::json!({ "cashier": staff.id, "cashier_name": staff.name }));
        let Some(guard) = self.deposit_guard.get().cloned() else {
            return self.ledger.post(posting).await.map_err(float_err);
        };
        let refusal: Arc<Mutex<Option<AppError>>> = Arc::default();
        let attached = {
            let (refusal, currency) = (refusal.clone(), staff.currency);
            wallet::attached(move |conn| {
                async move {
                    match guard.reserve_deposit(conn, player_id, amount, currency).await {
                        Ok(()) => Ok(true),
                        Err(e) => {
                            *refusal.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
                            Ok(false)
                        }
                    }
                }
                .boxed()
            })
        };
        match self.ledger.post_with(posting, attached).await {
            Err(LedgerError::Declined) => {
                let refused = refusal.lock().unwrap_or_else(|p| p.into_inner()).take();
                Err(refused.unwrap_or_else(|| ErrorCode::DepositLimitReached.into()))
            }
            other => other.map_err(float_err),
        }
    }

    /// The shift report of a desk over `[from, to)`: its float's cash deposits (114) and
    /// payouts (208) in that range, from the ledger itself.
    pub async fn report(&self, staff: &Staff, from_ms: i64, to_ms: i64) -> Result<DeskReport, AppError> {
        let rows = sqlx::query(
            "SELECT t.tx_type, COUNT(*), CAST(COALESCE(SUM(e.amount), 0) AS BIGINT) FROM ledger_entries e \
             JOIN ledger_accounts a ON a.id = e.account_id JOIN ledger_transactions t ON t.id = e.tx_id \
             WHERE a.owner_id = $1 AND a.kind = 'float' AND a.currency = $2 AND a.is_house = 0 \
               AND t.tx_type IN ($3, $4) AND e.created_at >= $5 AND e.created_at < $6 GROUP BY t.tx_type",
        )
        .bind(staff.id)
        .bind(staff.currency.code())
        .bind(TxType::CashierPayment.code())
        .bind(TxType::CashierPayout.code())
        .bind(from_ms)
        .bind(to_ms)
        .fetch_all(self.db.reader())
        .await
        .map_err(db_err)?;
        let (mut deposits, mut payouts) = (ReportLine::default(), ReportLine::default());
        for r in rows {
            let (t, count, sum): (i64, i64, i64) = (r.get(0), r.get(1), r.get(2));
            // A deposit debits the float (negative entry), a payout credits it.
            if t == TxType::CashierPayment.code() {
                deposits = ReportLine { count, amount: -sum };
            } else {
                payouts = ReportLine { count, amount: sum };
            }
        }
        Ok(DeskReport { currency: staff.currency, deposits, payouts, net: deposits.amount - payouts.amount, float: self.float(staff).await? })
    }

    /// A player as the withdrawal calls need it (role 0 only).
    pub async fn player(&self, user_id: i64) -> Result<Player, AppError> {
        let row = sqlx::query("SELECT currency, phone, role FROM users WHERE id = $1")
            .bind(user_id)
            .fetch_optional(self.db.reader())
            .await
            .map_err(db_err)?
            .ok_or(ErrorCode::NoSuchUser)?;
        if row.get::<i64, _>(2) != ROLE_PLAYER {
            return Err(ErrorCode::Forbidden.into());
        }
        Ok(Player {
            id: user_id,
            currency: row.get::<String, _>(0).parse().map_err(|_| db_err("unknown currency"))?,
            phone: row.get(1),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(id: i64, name: &str) -> CashierEntry {
        CashierEntry { id, name: name.into(), first_name: name.into(), address: String::new(), phone: String::new() }
    }

    #[test]
    fn configured_first_and_last_then_by_name() {
        let list = vec![c(1, "Zed"), c(2, "amel"), c(3, "Bou"), c(4, "Anis")];
        let ids: Vec<i64> = order_cashiers(list.clone(), Some(3), Some(2)).iter().map(|c| c.id).collect();
        assert_eq!(ids, vec![3, 4, 1, 2]);
        let ids: Vec<i64> = order_cashiers(list.clone(), None, None).iter().map(|c| c.id).collect();
        assert_eq!(ids, vec![2, 4, 3, 1]);
        // A configured id that is not in the list changes nothing.
        let ids: Vec<i64> = order_cashiers(list, Some(99), Some(4)).iter().map(|c| c.id).collect();
        assert_eq!(ids, vec![2, 3, 1, 4]);
    }

    #[test]
    fn contact_details_are_masked() {
        assert_eq!(mask_email("ali.ben@gmail.com"), "a***@g***.com");
        assert_eq!(mask_email("x@mail.example.tn"), "x***@m***.tn");
        assert_eq!(mask_phone("21650123456"), "+216 ** *** 456");
        assert_eq!(mask_phone("33612345678"), "******** 678");
        assert_eq!(mask_phone("123"), "***");
        assert_eq!(mask_login("21650123456"), "+216 ** *** 456");
        assert_eq!(mask_login("ali@example.tn"), "a***@e***.tn");
    }

    #[test]
    fn name_joins_the_three_parts() {
        assert_eq!(location_name("Amel", "12 rue de Rome, Tunis", "+216 71 000 000"), "Amel, 12 rue de Rome, Tunis, +216 71 000 000");
        assert_eq!(location_name("Amel", " ", "71"), "Amel, 71");
    }
}
