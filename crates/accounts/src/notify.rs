//! Messages (SMS and e-mail) through an outbox.
//!
//! A message is a row of the `outbox` table written **in the same database transaction**
//! as what it announces (the new user and its verification token, the SMS code, the
//! recovery code): either both exist or neither, so a request never half-succeeds (a user
//! created, then "try again" because a gateway was down). A background [`OutboxWorker`]
//! delivers pending rows through a [`Transport`] — e-mail over SMTP (lettre), SMS through
//! an HTTP gateway — with retries and exponential back-off (`attempts`, `last_error`,
//! `next_attempt_at`), and marks them `sent`, `failed` (attempts used up) or `expired`
//! (the code or link they carry expired first).
//!
//! **One owner per message**: a worker claims due rows with one conditional `UPDATE …
//! SET status = 'sending', claimed_by = me, claimed_until = now + lease WHERE … status =
//! 'pending' … RETURNING`, so two workers (two instances) never hold the same row; only
//! the owner may mark it (`WHERE claimed_by = me AND status = 'sending'`). A claim whose
//! worker died is taken over after its lease (5 minutes, far longer than a delivery may
//! take: transports time out after 15 s and a delivery is abandoned after 60 s). A
//! message is delivered at most once unless an instance dies between the gateway's
//! acceptance and the write of `sent` (then once more after the lease: a duplicate SMS
//! code or link is harmless, a lost one is not). Deliveries carry the outbox id as an
//! idempotency reference (`reference` in the SMS gateway call, `Message-ID` in e-mail)
//! so a gateway that deduplicates drops even that one.
//!
//! Demo mode keeps every message readable at `GET /api/dev/outbox` (the same table); a
//! channel without a configured transport is "delivered" to that readable outbox only.
//! Production erases the text, code and link of a message once it is finished (sent,
//! failed or expired): the database keeps no usable secret longer than needed.

use kernel::clock::{now_ms, MINUTE_MS, SECOND_MS};
use kernel::ids::next_id;
use serde::Serialize;
use std::sync::Arc;
use std::time::Duration;
use store::sqlx::{self, AnyConnection, Row};
use store::Db;
use tokio::sync::Notify;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Channel {
    Sms,
    Email,
}

impl Channel {
    pub fn as_str(self) -> &'static str {
        match self {
            Channel::Sms => "sms",
            Channel::Email => "email",
        }
    }

    pub fn parse(s: &str) -> Option<Channel> {
        match s {
            "sms" => Some(Channel::Sms),
            "email" => Some(Channel::Email),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    pub channel: Channel,
    pub to: String,
    pub subject: String,
    pub text: String,
    pub code: Option<String>,
    pub link: Option<String>,
}

/// Writes `m` to the outbox on `conn` — inside the caller's transaction, so the message
/// exists exactly when what it announces does. `expires_at`: when the code or link it
/// carries stops working (an undelivered message is dropped then). Returns its id; wake
/// the worker ([`OutboxWorker::wake`]) after the commit.
pub async fn enqueue(conn: &mut AnyConnection, m: &Message, expires_at: Option<i64>) -> Result<i64, sqlx::Error> {
    let id = next_id();
    let now = now_ms();
    sqlx::query(
        "INSERT INTO outbox (id, channel, to_addr, subject, text, code, link, created_at, status, attempts, next_attempt_at, expires_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'pending', 0, $8, $9)",
    )
    .bind(id)
    .bind(m.channel.as_str())
    .bind(outbox_key(&m.to))
    .bind(&m.subject)
    .bind(&m.text)
    .bind(&m.code)
    .bind(&m.link)
    .bind(now)
    .bind(expires_at)
    .execute(&mut *conn)
    .await?;
    Ok(id)
}

/// A message as the demo outbox shows it.
#[derive(Debug, Clone, Serialize)]
pub struct OutboxMessage {
    pub to: String,
    pub channel: String,
    pub text: String,
    pub code: Option<String>,
    pub link: Option<String>,
    #[serde(rename = "createdAt")]
    pub created_at: String,
}

/// The readable outbox (demo mode).
pub struct Outbox;

impl Outbox {
    /// Messages to `to` (phone digits, `+` optional, or e-mail), newest first, whatever
    /// their delivery state.
    pub async fn list(db: &Db, to: &str, limit: i64) -> Result<Vec<OutboxMessage>, sqlx::Error> {
        let key = outbox_key(to);
        let rows = sqlx::query(
            "SELECT to_addr, channel, text, code, link, created_at FROM outbox WHERE to_addr = $1 \
             ORDER BY created_at DESC, id DESC LIMIT $2",
        )
        .bind(&key)
        .bind(limit)
        .fetch_all(db.reader())
        .await?;
        Ok(rows
            .into_iter()
            .map(|r| OutboxMessage {
                to: r.get(0),
                channel: r.get(1),
                text: r.get(2),
                code: r.get(3),
                link: r.get(4),
                created_at: kernel::clock::to_rfc3339(r.get(5)),
            })
            .collect())
    }
}

/// Phones are stored as digits (`216…`), e-mails lower-cased.
fn outbox_key(to: &str) -> String {
    let t = to.trim();
    if t.contains('@') {
        t.to_ascii_lowercase()
    } else {
        t.chars().filter(|c| c.is_ascii_digit()).collect()
    }
}

// ------------------------------------------------------------------ transports

/// A way to deliver messages.
#[async_trait::async_trait]
pub trait Transport: Send + Sync {
    /// Whether this transport can deliver messages of `channel` at all.
    fn can_deliver(&self, channel: Channel) -> bool;
    /// Delivers one message; `id` is its outbox id (an idempotency reference for the
    /// gateway). An error is retried later.
    async fn deliver(&self, id: i64, m: &Message) -> Result<(), String>;
}

/// Production transports, from environment:
/// `SMTP_URL` (e.g. `smtps://user:pass@smtp.example.com:465`), `SMTP_FROM`,
/// `SMS_GATEWAY_URL`, `SMS_GATEWAY_TOKEN`, `SMS_SENDER`.
#[derive(Clone)]
pub struct TransportConfig {
    pub smtp_url: Option<String>,
    pub smtp_from: String,
    pub sms_gateway_url: Option<String>,
    pub sms_gateway_token: Option<String>,
    pub sms_sender: String,
}

impl std::fmt::Debug for TransportConfig {
    // The SMTP URL and the gateway token carry credentials: never in logs.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TransportConfig")
            .field("smtp", &self.smtp_url.is_some())
            .field("smtp_from", &self.smtp_from)
            .field("sms_gateway", &self.sms_gateway_url.is_some())
            .field("sms_sender", &self.sms_sender)
            .finish()
    }
}

impl Default for TransportConfig {
    /// No transport; the default sender names.
    fn default() -> Self {
        Self::from_lookup(|_| None)
    }
}

impl TransportConfig {
    /// Reads the variables through `var` (the environment, or a map in tests).
    pub fn from_lookup(var: impl Fn(&str) -> Option<String>) -> TransportConfig {
        let var = |k: &str| var(k).map(|v| v.trim().to_string()).filter(|v| !v.is_empty());
        TransportConfig {
            smtp_url: var("SMTP_URL"),
            smtp_from: var("SMTP_FROM").unwrap_or_else(|| "Carthage <no-reply@localhost>".into()),
            sms_gateway_url: var("SMS_GATEWAY_URL"),
            sms_gateway_token: var("SMS_GATEWAY_TOKEN"),
            sms_sender: var("SMS_SENDER").unwrap_or_else(|| "Carthage".into()),
        }
    }

    /// Whether a transport for `channel` is configured.
    pub fn has(&self, channel: Channel) -> bool {
        match channel {
            Channel::Email => self.smtp_url.is_some(),
            Channel::Sms => self.sms_gateway_url.is_some(),
        }
    }
}

/// E-mail over SMTP and SMS through the HTTP gateway (`POST {to, from, text, reference}`
/// JSON with a bearer token; any 2xx is accepted).
pub struct Transports {
    config: TransportConfig,
    smtp: Option<lettre::AsyncSmtpTransport<lettre::Tokio1Executor>>,
    http: reqwest::Client,
}

impl Transports {
    pub fn new(config: TransportConfig) -> Result<Transports, String> {
        let smtp = match &config.smtp_url {
            Some(url) => Some(
                lettre::AsyncSmtpTransport::<lettre::Tokio1Executor>::from_url(url)
                    .map_err(|e| format!("SMTP_URL: {e}"))?
                    .timeout(Some(Duration::from_secs(15)))
                    .build(),
            ),
            None => None,
        };
        if smtp.is_some() {
            config.smtp_from.parse::<lettre::message::Mailbox>().map_err(|e| format!("SMTP_FROM: {e}"))?;
        }
        let http = reqwest::Client::builder().timeout(Duration::from_secs(15)).build().map_err(|e| e.to_string())?;
        Ok(Transports { config, smtp, http })
    }
}

#[async_trait::async_trait]
impl Transport for Transports {
    fn can_deliver(&self, channel: Channel) -> bool {
        match channel {
            Channel::Email => self.smtp.is_some(),
            Channel::Sms => self.config.sms_gateway_url.is_some(),
        }
    }

    async fn deliver(&self, id: i64, m: &Message) -> Result<(), String> {
        match m.channel {
            Channel::Email => {
                let smtp = self.smtp.as_ref().ok_or("SMTP_URL is not configured")?;
                let email = lettre::Message::builder()
                    .from(self.config.smtp_from.parse().map_err(|e| format!("SMTP_FROM: {e}"))?)
                    .to(m.to.parse().map_err(|e| format!("recipient: {e}"))?)
                    .subject(&m.subject)
                    // The outbox id: a retried delivery is recognisable as the same message.
                    .message_id(Some(format!("<outbox-{id}@carthage>")))
                    .header(lettre::message::header::ContentType::TEXT_PLAIN)
                    .body(m.text.clone())
                    .map_err(|e| e.to_string())?;
                lettre::AsyncTransport::send(smtp, email).await.map(|_| ()).map_err(|e| e.to_string())
            }
            Channel::Sms => {
                let url = self.config.sms_gateway_url.as_ref().ok_or("SMS_GATEWAY_URL is not configured")?;
                let mut req = self.http.post(url).json(&serde_json::json!({
                    "to": format!("+{}", m.to.trim_start_matches('+')),
                    "from": self.config.sms_sender,
                    "text": m.text,
                    "reference": id.to_string(),
                }));
                if let Some(token) = &self.config.sms_gateway_token {
                    req = req.bearer_auth(token);
                }
                let resp = req.send().await.map_err(|e| e.to_string())?;
                if resp.status().is_success() {
                    Ok(())
                } else {
                    Err(format!("SMS gateway answered {}", resp.status()))
                }
            }
        }
    }
}

// ------------------------------------------------------------------ the worker

/// Delivery settings of the [`OutboxWorker`].
#[derive(Debug, Clone)]
pub struct OutboxConfig {
    /// Demo mode: messages stay readable after delivery, and a channel without a transport
    /// counts as delivered (to the readable outbox). Production erases finished messages.
    pub demo: bool,
    /// Rows claimed (and delivered concurrently) at a time.
    pub batch: i64,
    /// How long a claim is exclusive; a claim older than this was abandoned by a dead
    /// worker and is taken over. Must be well above `delivery_timeout`.
    pub lease_ms: i64,
    /// A delivery still running after this is abandoned and retried.
    pub delivery_timeout: Duration,
    /// Back-off after the n-th failed attempt: `retry_base_ms × 2^(n-1)`, at most `retry_max_ms`.
    pub retry_base_ms: i64,
    pub retry_max_ms: i64,
    /// After this many attempts the message is `failed`.
    pub max_attempts: i64,
    /// How often the worker looks for due messages when nobody woke it.
    pub poll: Duration,
    /// Finished messages are deleted after this long (production; demo keeps them).
    pub keep_finished_ms: i64,
}

impl Default for OutboxConfig {
    fn default() -> Self {
        OutboxConfig {
            demo: false,
            batch: 16,
            lease_ms: 5 * MINUTE_MS,
            delivery_timeout: Duration::from_secs(60),
            // 5 s, 10 s, 20 s … 30 min: ten attempts span about 45 minutes.
            retry_base_ms: 5 * SECOND_MS,
            retry_max_ms: 30 * MINUTE_MS,
            max_attempts: 10,
            poll: Duration::from_secs(1),
            keep_finished_ms: 30 * kernel::clock::DAY_MS,
        }
    }
}

impl OutboxConfig {
    /// The wait before the attempt after `attempts` failed ones.
    pub fn backoff_ms(&self, attempts: i64) -> i64 {
        let exp = attempts.clamp(1, 30) - 1;
        self.retry_base_ms.saturating_mul(1i64 << exp).min(self.retry_max_ms)
    }
}

/// What one pass of the worker did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct DeliveryReport {
    pub sent: u64,
    pub retried: u64,
    pub failed: u64,
    pub expired: u64,
}

impl DeliveryReport {
    pub fn handled(&self) -> u64 {
        self.sent + self.retried + self.failed + self.expired
    }
}

/// Delivers the outbox (see the module comment). Cheap to clone; every instance of the
/// server runs one.
#[derive(Clone)]
pub struct OutboxWorker {
    db: Db,
    transport: Arc<dyn Transport>,
    cfg: Arc<OutboxConfig>,
    /// Unique per worker: who holds a claim.
    owner: Arc<str>,
    wake: Arc<Notify>,
}

/// Claimed row: the columns `claim` returns.
const CLAIM_COLUMNS: &str = "id, channel, to_addr, subject, text, code, link, attempts, expires_at";
/// A row the worker may claim now (`$1` = now).
const DUE: &str = "(status = 'pending' AND next_attempt_at <= $1) OR (status = 'sending' AND claimed_until <= $1)";

impl OutboxWorker {
    pub fn new(db: Db, transport: Arc<dyn Transport>, cfg: OutboxConfig, wake: Arc<Notify>) -> OutboxWorker {
        let owner: Arc<str> = format!("w{}-{:08x}", std::process::id(), rand::random::<u32>()).into();
        OutboxWorker { db, transport, cfg: Arc::new(cfg), owner, wake }
    }

    /// Wakes the worker (a message was just committed).
    pub fn wake(&self) {
        self.wake.notify_one();
    }

    /// Claims due messages for this worker: one conditional UPDATE, so a row is never held
    /// by two workers.
    async fn claim(&self, now: i64) -> Result<Vec<(i64, Message, i64, Option<i64>)>, sqlx::Error> {
        let rows = sqlx::query(&format!(
            "UPDATE outbox SET status = 'sending', claimed_by = $2, claimed_until = $3, attempts = attempts + 1 \
             WHERE id IN (SELECT id FROM outbox WHERE {DUE} ORDER BY next_attempt_at, id LIMIT $4) AND ({DUE}) \
             RETURNING {CLAIM_COLUMNS}"
        ))
        .bind(now)
        .bind(&*self.owner)
        .bind(now + self.cfg.lease_ms)
        .bind(self.cfg.batch)
        .fetch_all(self.db.writer())
        .await?;
        Ok(rows
            .into_iter()
            .filter_map(|r| {
                let channel = Channel::parse(&r.get::<String, _>(1))?;
                let m = Message { channel, to: r.get(2), subject: r.get(3), text: r.get(4), code: r.get(5), link: r.get(6) };
                Some((r.get::<i64, _>(0), m, r.get::<i64, _>(7), r.get::<Option<i64>, _>(8)))
            })
            .collect())
    }

    /// Marks a claimed message finished (`sent`, `failed`, `expired`) — only while this
    /// worker still owns it. Production erases its content.
    async fn finish(&self, id: i64, status: &str, error: Option<&str>) -> Result<(), sqlx::Error> {
        let erase = if self.cfg.demo { "" } else { ", text = '', code = NULL, link = NULL" };
        let sent_at = if status == "sent" { Some(now_ms()) } else { None };
        sqlx::query(&format!(
            "UPDATE outbox SET status = $1, sent_at = $2, last_error = COALESCE($3, last_error), claimed_by = NULL, claimed_until = NULL{erase} \
             WHERE id = $4 AND claimed_by = $5 AND status = 'sending'"
        ))
        .bind(status)
        .bind(sent_at)
        .bind(error)
        .bind(id)
        .bind(&*self.owner)
        .execute(self.db.writer())
        .await?;
        Ok(())
    }

    /// Gives a claimed message back for a later attempt.
    async fn retry_later(&self, id: i64, attempts: i64, error: &str) -> Result<(), sqlx::Error> {
        sqlx::query(
            "UPDATE outbox SET status = 'pending', next_attempt_at = $1, last_error = $2, claimed_by = NULL, claimed_until = NULL \
             WHERE id = $3 AND claimed_by = $4 AND status = 'sending'",
        )
        .bind(now_ms() + self.cfg.backoff_ms(attempts))
        .bind(error)
        .bind(id)
        .bind(&*self.owner)
        .execute(self.db.writer())
        .await?;
        Ok(())
    }

    /// Delivers one claimed message and records the outcome.
    async fn handle(&self, id: i64, m: Message, attempts: i64, expires_at: Option<i64>) -> Result<DeliveryReport, sqlx::Error> {
        let mut report = DeliveryReport::default();
        if expires_at.is_some_and(|e| e <= now_ms()) {
            tracing::warn!(id, channel = m.channel.as_str(), attempts, "outbox: message expired before it could be delivered");
            self.finish(id, "expired", Some("expired before delivery")).await?;
            report.expired = 1;
            return Ok(report);
        }
        let outcome = if self.transport.can_deliver(m.channel) {
            match tokio::time::timeout(self.cfg.delivery_timeout, self.transport.deliver(id, &m)).await {
                Ok(r) => r,
                Err(_) => Err(format!("delivery timed out after {:?}", self.cfg.delivery_timeout)),
            }
        } else if self.cfg.demo {
            // Demo: the readable outbox is the delivery.
            Ok(())
        } else {
            Err(format!("no transport configured for {}", m.channel.as_str()))
        };
        match outcome {
            Ok(()) => {
                tracing::info!(id, channel = m.channel.as_str(), attempts, "outbox: message delivered");
                self.finish(id, "sent", None).await?;
                report.sent = 1;
            }
            Err(e) if attempts >= self.cfg.max_attempts => {
                tracing::error!(id, channel = m.channel.as_str(), attempts, error = %e, "outbox: message failed for good");
                self.finish(id, "failed", Some(&e)).await?;
                report.failed = 1;
            }
            Err(e) => {
                tracing::warn!(id, channel = m.channel.as_str(), attempts, error = %e, "outbox: delivery failed; will retry");
                self.retry_later(id, attempts, &e).await?;
                report.retried = 1;
            }
        }
        Ok(report)
    }

    /// One pass: claims a batch of due messages and delivers them concurrently.
    pub async fn run_once(&self) -> Result<DeliveryReport, sqlx::Error> {
        let now = now_ms();
        // Most passes find nothing: look on a reader first, so an idle outbox costs no write.
        let due = sqlx::query(&format!("SELECT id FROM outbox WHERE {DUE} LIMIT 1"))
            .bind(now)
            .fetch_optional(self.db.reader())
            .await?;
        if due.is_none() {
            return Ok(DeliveryReport::default());
        }
        let claimed = self.claim(now).await?;
        let mut tasks = tokio::task::JoinSet::new();
        for (id, m, attempts, expires_at) in claimed {
            let this = self.clone();
            tasks.spawn(async move { this.handle(id, m, attempts, expires_at).await });
        }
        let mut report = DeliveryReport::default();
        while let Some(joined) = tasks.join_next().await {
            match joined {
                Ok(Ok(r)) => {
                    report.sent += r.sent;
                    report.retried += r.retried;
                    report.failed += r.failed;
                    report.expired += r.expired;
                }
                // The claim stays; another pass takes it over after its lease.
                Ok(Err(e)) => tracing::error!(error = %e, "outbox: could not record a delivery"),
                Err(e) => tracing::error!(error = %e, "outbox: delivery task failed"),
            }
        }
        Ok(report)
    }

    /// Deletes finished messages older than `keep_finished_ms` (production only).
    async fn purge(&self) -> Result<(), sqlx::Error> {
        if self.cfg.demo {
            return Ok(());
        }
        sqlx::query("DELETE FROM outbox WHERE status IN ('sent', 'failed', 'expired') AND created_at < $1")
            .bind(now_ms() - self.cfg.keep_finished_ms)
            .execute(self.db.writer())
            .await?;
        Ok(())
    }

    /// Runs until the task is aborted: a pass whenever woken or every `poll`, at once again
    /// while passes come back full.
    pub async fn run(self) {
        let mut last_purge = std::time::Instant::now();
        if let Err(e) = self.purge().await {
            tracing::error!(error = %e, "outbox: purge failed");
        }
        loop {
            let pass = self.run_once().await;
            let outcome = if pass.is_ok() { "ok" } else { "error" };
            kernel::metrics::inc(kernel::metrics::JOB_RUNS, &[("job", "outbox"), ("outcome", outcome)]);
            let full = match pass {
                Ok(r) => r.handled() >= self.cfg.batch as u64,
                Err(e) => {
                    tracing::error!(error = %e, "outbox: pass failed");
                    false
                }
            };
            if last_purge.elapsed() > Duration::from_secs(3600) {
                last_purge = std::time::Instant::now();
                if let Err(e) = self.purge().await {
                    tracing::error!(error = %e, "outbox: purge failed");
                }
            }
            if !full {
                let _ = tokio::time::timeout(self.cfg.poll, self.wake.notified()).await;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outbox_keys() {
        assert_eq!(outbox_key("+216 12 345 678"), "21612345678");
        assert_eq!(outbox_key("Ali@Example.TN"), "ali@example.tn");
    }

    #[test]
    fn backoff_doubles_up_to_the_cap() {
        let cfg = OutboxConfig::default();
        assert_eq!(cfg.backoff_ms(1), 5_000);
        assert_eq!(cfg.backoff_ms(2), 10_000);
        assert_eq!(cfg.backoff_ms(4), 40_000);
        assert_eq!(cfg.backoff_ms(20), 30 * MINUTE_MS);
        let total: i64 = (1..cfg.max_attempts).map(|n| cfg.backoff_ms(n)).sum();
        assert!(total < 60 * MINUTE_MS, "retries span {total} ms");
    }

    #[test]
    fn transport_config_hides_credentials_and_knows_its_channels() {
        let cfg = TransportConfig::from_lookup(|k| match k {
            "SMTP_URL" => Some("smtps://user:secret@smtp.example.com:465".into()),
            "SMS_GATEWAY_TOKEN" => Some("token-secret".into()),
            "SMS_GATEWAY_URL" => Some("  ".into()),
            _ => None,
        });
        assert!(cfg.has(Channel::Email));
        assert!(!cfg.has(Channel::Sms), "a blank variable is not a configuration");
        let shown = format!("{cfg:?}");
        assert!(!shown.contains("secret"), "{shown}");
    }
}
