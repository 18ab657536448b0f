//! The message sender: one interface, two implementations.
//!
//! * [`Outbox`] (demo mode): every SMS and e-mail is stored and readable at
//!   `GET /api/dev/outbox?to=…`; nothing leaves the machine.
//! * [`Transports`] (production): e-mail over SMTP (lettre) and SMS through an HTTP SMS
//!   gateway (a JSON `POST {to, text}` with a bearer token), both configured by
//!   environment. Sends happen in the background with retries so a slow gateway never
//!   holds a request.

use kernel::clock::now_ms;
use kernel::ids::next_id;
use serde::Serialize;
use std::sync::Arc;
use std::time::Duration;
use store::sqlx::{self, Row};
use store::Db;

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
}

#[derive(Debug, Clone)]
pub struct Message {
    pub channel: Channel,
    pub to: String,
    pub subject: String,
    pub text: String,
    pub code: Option<String>,
    pub link: Option<String>,
}

#[async_trait::async_trait]
pub trait Notifier: Send + Sync {
    /// Hands the message over for delivery. An error means it was not accepted.
    async fn send(&self, message: Message) -> Result<(), String>;
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

/// Demo mode: messages go to the `outbox` table.
pub struct Outbox {
    db: Db,
}

impl Outbox {
    pub fn new(db: Db) -> Outbox {
        Outbox { db }
    }

    /// Messages sent to `to` (phone digits, `+` optional, or e-mail), newest first.
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

#[async_trait::async_trait]
impl Notifier for Outbox {
    async fn send(&self, m: Message) -> Result<(), String> {
        sqlx::query("INSERT INTO outbox (id, channel, to_addr, text, code, link, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)")
            .bind(next_id())
            .bind(m.channel.as_str())
            .bind(outbox_key(&m.to))
            .bind(&m.text)
            .bind(&m.code)
            .bind(&m.link)
            .bind(now_ms())
            .execute(self.db.writer())
            .await
            .map_err(|e| e.to_string())?;
        tracing::info!(channel = m.channel.as_str(), to = %m.to, "demo outbox: message stored");
        Ok(())
    }
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

impl TransportConfig {
    pub fn from_env() -> TransportConfig {
        let var = |k: &str| std::env::var(k).ok().filter(|v| !v.trim().is_empty());
        TransportConfig {
            smtp_url: var("SMTP_URL"),
            smtp_from: var("SMTP_FROM").unwrap_or_else(|| "Carthage <no-reply@localhost>".into()),
            sms_gateway_url: var("SMS_GATEWAY_URL"),
            sms_gateway_token: var("SMS_GATEWAY_TOKEN"),
            sms_sender: var("SMS_SENDER").unwrap_or_else(|| "Carthage".into()),
        }
    }
}

pub struct Transports {
    config: TransportConfig,
    smtp: Option<lettre::AsyncSmtpTransport<lettre::Tokio1Executor>>,
    http: reqwest::Client,
}

impl Transports {
    pub fn new(config: TransportConfig) -> Result<Arc<Transports>, String> {
        let smtp = match &config.smtp_url {
            Some(url) => Some(
                lettre::AsyncSmtpTransport::<lettre::Tokio1Executor>::from_url(url)
                    .map_err(|e| format!("SMTP_URL: {e}"))?
                    .timeout(Some(Duration::from_secs(15)))
                    .build(),
            ),
            None => None,
        };
        let http = reqwest::Client::builder().timeout(Duration::from_secs(10)).build().map_err(|e| e.to_string())?;
        Ok(Arc::new(Transports { config, smtp, http }))
    }

    async fn deliver(&self, m: &Message) -> Result<(), String> {
        match m.channel {
            Channel::Email => {
                let smtp = self.smtp.as_ref().ok_or("SMTP_URL is not configured")?;
                let email = lettre::Message::builder()
                    .from(self.config.smtp_from.parse().map_err(|e| format!("SMTP_FROM: {e}"))?)
                    .to(m.to.parse().map_err(|e| format!("recipient: {e}"))?)
                    .subject(&m.subject)
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

#[async_trait::async_trait]
impl Notifier for Arc<Transports> {
    async fn send(&self, m: Message) -> Result<(), String> {
        let configured = match m.channel {
            Channel::Email => self.smtp.is_some(),
            Channel::Sms => self.config.sms_gateway_url.is_some(),
        };
        if !configured {
            return Err(format!("no transport configured for {}", m.channel.as_str()));
        }
        let this = self.clone();
        tokio::spawn(async move {
            for attempt in 1..=3u32 {
                match this.deliver(&m).await {
                    Ok(()) => {
                        tracing::info!(channel = m.channel.as_str(), attempt, "message delivered");
                        return;
                    }
                    Err(e) => {
                        tracing::warn!(channel = m.channel.as_str(), attempt, error = %e, "message delivery failed");
                        tokio::time::sleep(Duration::from_secs(2u64.pow(attempt))).await;
                    }
                }
            }
            tracing::error!(channel = m.channel.as_str(), "message dropped after 3 attempts");
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::outbox_key;

    #[test]
    fn outbox_keys() {
        assert_eq!(outbox_key("+216 12 345 678"), "21612345678");
        assert_eq!(outbox_key("Ali@Example.TN"), "ali@example.tn");
    }
}
