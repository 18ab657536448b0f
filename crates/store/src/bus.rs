//! The message bus between instances (ARCHITECTURE §7): what one instance's single owner
//! produces (the crash round's events, the sportsbook line's feed messages) reaches every
//! other instance, and what a player connected to another instance asks (a crash bet, a
//! cash-out) reaches the owner.
//!
//! * **PostgreSQL** (several instances): `pg_notify` to publish and one `LISTEN` connection
//!   per instance ([`sqlx::postgres::PgListener`]) to receive, on the fixed [`CHANNELS`].
//!   A NOTIFY payload is at most 8,000 bytes: longer messages are cut into parts (by
//!   [`PART_BYTES`]) that the receiver puts together again. Every instance hears its own
//!   messages too; [`BusMessage::own`] tells them apart.
//! * **Redis** (`REDIS_URL` set, PostgreSQL): `PUBLISH` and one `SUBSCRIBE` connection per
//!   instance instead; the same framing, the same at-most-once delivery (Redis pub/sub keeps
//!   nothing for a subscriber that is reconnecting), without NOTIFY's commit-time lock.
//! * **Local** (SQLite, one instance; tests): nothing leaves the process, [`Bus::shared`] is
//!   false and the callers publish nothing.
//!
//! Delivery is at most once: NOTIFY sends nothing to a session that is not connected, so
//! after the listening connection was lost (a PostgreSQL restart) subscribers receive
//! [`BusEvent::Resync`] and must rebuild their state from its owner (the sportsbook asks for
//! a snapshot of the line; the crash game's next round message describes the round whole).
//! Messages of one instance are published by one task, in order.

use crate::{Backend, Db};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{broadcast, mpsc};

/// The channels every instance listens to (NOTIFY channel names).
pub const CHANNELS: &[&str] = &[CRASH_EVENTS, CRASH_COMMANDS, CRASH_REPLIES, LINE_UPDATES, LINE_SYNC];
/// The crash owner's round events, as sent to its own sockets.
pub const CRASH_EVENTS: &str = "carthage_crash_events";
/// A crash player's command, from the instance of its socket to the owner.
pub const CRASH_COMMANDS: &str = "carthage_crash_commands";
/// The owner's replies to a player of another instance.
pub const CRASH_REPLIES: &str = "carthage_crash_replies";
/// The sportsbook feed owner's applied feed messages.
pub const LINE_UPDATES: &str = "carthage_line_updates";
/// Requests for, and announcements of, a snapshot of the line.
pub const LINE_SYNC: &str = "carthage_line_sync";

/// The largest part of a message in one NOTIFY (PostgreSQL refuses payloads of 8,000 bytes
/// or more; the header takes the rest).
pub const PART_BYTES: usize = 7_600;
/// Messages an instance may have queued for publishing; past it the newest are dropped
/// (counted in [`BusStats::dropped`]): a stuck database must not grow the queue for ever.
const QUEUE: usize = 65_536;
/// Subscribers may lag this many messages before they get a `Lagged` (and resync).
const FANOUT: usize = 4_096;

/// What a subscriber receives.
#[derive(Debug, Clone)]
pub enum BusEvent {
    Message(BusMessage),
    /// The listening connection was lost and is back: messages may have been missed.
    Resync,
}

#[derive(Debug, Clone)]
pub struct BusMessage {
    /// The publishing instance ([`Bus::origin`]).
    pub origin: Arc<str>,
    /// Published by this instance.
    pub own: bool,
    pub body: Arc<str>,
}

/// Counters for `/metrics` and the benchmark.
#[derive(Debug, Default, Clone, Copy)]
pub struct BusStats {
    pub published: u64,
    pub received: u64,
    pub notifies: u64,
    pub dropped: u64,
    pub resyncs: u64,
    pub publish_errors: u64,
}

#[derive(Default)]
struct Counters {
    published: AtomicU64,
    received: AtomicU64,
    notifies: AtomicU64,
    dropped: AtomicU64,
    resyncs: AtomicU64,
    publish_errors: AtomicU64,
}

struct Inner {
    origin: Arc<str>,
    shared: bool,
    channels: HashMap<&'static str, broadcast::Sender<BusEvent>>,
    outgoing: Option<mpsc::Sender<(&'static str, String)>>,
    next_id: AtomicU64,
    counters: Counters,
    tasks: Mutex<Vec<tokio::task::AbortHandle>>,
}

impl Drop for Inner {
    fn drop(&mut self) {
        for t in self.tasks.lock().unwrap_or_else(|p| p.into_inner()).drain(..) {
            t.abort();
        }
    }
}

/// A handle on the bus. Cheap to clone.
#[derive(Clone)]
pub struct Bus {
    inner: Arc<Inner>,
}

fn channel_name(channel: &str) -> Option<&'static str> {
    CHANNELS.iter().copied().find(|c| *c == channel)
}

impl Bus {
    /// A bus that never leaves the process: [`Bus::shared`] is false.
    pub fn local() -> Bus {
        Bus::build(crate::lease::instance_id(), false, None)
    }

    fn build(origin: String, shared: bool, outgoing: Option<mpsc::Sender<(&'static str, String)>>) -> Bus {
        let channels = CHANNELS.iter().map(|c| (*c, broadcast::channel(FANOUT).0)).collect();
        Bus {
            inner: Arc::new(Inner {
                origin: origin.into(),
                shared,
                channels,
                outgoing,
                next_id: AtomicU64::new(1),
                counters: Counters::default(),
                tasks: Mutex::new(Vec::new()),
            }),
        }
    }

    /// The bus of a database: NOTIFY/LISTEN on PostgreSQL (Redis pub/sub when `redis_url`
    /// is given), [`Bus::local`] on SQLite. Starts the listening and publishing tasks; the
    /// listener reconnects by itself.
    pub fn for_db(db: &Db, origin: String, redis_url: Option<&str>) -> Bus {
        // The origin heads every part (`{origin} {id} …`): no spaces in it.
        let origin = origin.replace(char::is_whitespace, "_");
        if db.backend() != Backend::Postgres {
            return Bus::build(origin, false, None);
        }
        let (tx, rx) = mpsc::channel(QUEUE);
        let bus = Bus::build(origin, true, Some(tx));
        let redis = redis_url.and_then(|u| match redis::Client::open(u) {
            Ok(c) => Some(c),
            Err(e) => {
                tracing::error!(error = %e, "bus: REDIS_URL is not usable; PostgreSQL NOTIFY is used");
                None
            }
        });
        let transport = match redis {
            Some(client) => Transport::Redis(client),
            None => Transport::Postgres(db.clone()),
        };
        let publisher = tokio::spawn(publish_task(transport.clone(), Arc::downgrade(&bus.inner), rx));
        let listener = tokio::spawn(listen_task(transport, Arc::downgrade(&bus.inner)));
        bus.inner.tasks.lock().unwrap_or_else(|p| p.into_inner()).extend([publisher.abort_handle(), listener.abort_handle()]);
        bus
    }

    /// Messages leave this process (other instances may hear them).
    pub fn shared(&self) -> bool {
        self.inner.shared
    }

    pub fn origin(&self) -> &str {
        &self.inner.origin
    }

    /// Queues a message for every instance (this one included) on a channel of
    /// [`CHANNELS`]; does nothing on a local bus. Never waits: called from the crash loop.
    pub fn publish(&self, channel: &str, body: String) {
        let Some(out) = &self.inner.outgoing else { return };
        let Some(channel) = channel_name(channel) else {
            tracing::error!(channel, "bus: unknown channel");
            return;
        };
        match out.try_send((channel, body)) {
            Ok(()) => {
                self.inner.counters.published.fetch_add(1, Ordering::Relaxed);
            }
            Err(_) => {
                self.inner.counters.dropped.fetch_add(1, Ordering::Relaxed);
            }
        }
    }

    /// The messages of a channel of [`CHANNELS`] from now on.
    pub fn subscribe(&self, channel: &str) -> broadcast::Receiver<BusEvent> {
        match channel_name(channel).and_then(|c| self.inner.channels.get(c)) {
            Some(s) => s.subscribe(),
            None => {
                tracing::error!(channel, "bus: unknown channel");
                broadcast::channel(1).1
            }
        }
    }

    pub fn stats(&self) -> BusStats {
        let c = &self.inner.counters;
        BusStats {
            published: c.published.load(Ordering::Relaxed),
            received: c.received.load(Ordering::Relaxed),
            notifies: c.notifies.load(Ordering::Relaxed),
            dropped: c.dropped.load(Ordering::Relaxed),
            resyncs: c.resyncs.load(Ordering::Relaxed),
            publish_errors: c.publish_errors.load(Ordering::Relaxed),
        }
    }
}

/// The parts of one message: `{origin} {id} {part} {count}\n{text}`, each within
/// [`PART_BYTES`] (cut on character boundaries).
pub fn parts(origin: &str, id: u64, body: &str) -> Vec<String> {
    let mut chunks: Vec<&str> = Vec::new();
    let mut rest = body;
    while rest.len() > PART_BYTES {
        let mut cut = PART_BYTES;
        while !rest.is_char_boundary(cut) {
            cut -= 1;
        }
        chunks.push(&rest[..cut]);
        rest = &rest[cut..];
    }
    chunks.push(rest);
    let n = chunks.len();
    chunks.iter().enumerate().map(|(i, c)| format!("{origin} {id} {i} {n}\n{c}")).collect()
}

/// Puts parts back together; a message is complete when all its parts arrived.
#[derive(Default)]
pub struct Assembler {
    partial: HashMap<(String, u64), Vec<Option<String>>>,
}

impl Assembler {
    /// `Some((origin, body))` when `payload` completes a message. A malformed payload is
    /// dropped (logged by the caller).
    pub fn push(&mut self, payload: &str) -> Option<(String, String)> {
        let (head, text) = payload.split_once('\n')?;
        let mut it = head.split(' ');
        let (origin, id, part, count) = (it.next()?, it.next()?.parse::<u64>().ok()?, it.next()?.parse::<usize>().ok()?, it.next()?.parse::<usize>().ok()?);
        if count == 0 || part >= count || count > 100_000 {
            return None;
        }
        if count == 1 {
            return Some((origin.to_string(), text.to_string()));
        }
        // Parts of an older message of the same origin that never completed are dropped
        // (a lost connection in between): ids of one origin only grow.
        self.partial.retain(|(o, i), _| o != origin || *i >= id);
        let slots = self.partial.entry((origin.to_string(), id)).or_insert_with(|| vec![None; count]);
        if slots.len() != count {
            return None;
        }
        slots[part] = Some(text.to_string());
        if slots.iter().all(Option::is_some) {
            let slots = self.partial.remove(&(origin.to_string(), id))?;
            return Some((origin.to_string(), slots.into_iter().flatten().collect()));
        }
        None
    }

    pub fn clear(&mut self) {
        self.partial.clear();
    }
}

/// Where messages travel between instances: PostgreSQL NOTIFY/LISTEN or Redis pub/sub. The
/// publishing and listening loops ([`publish_task`], [`listen_task`]) are the same for both.
#[derive(Clone)]
enum Transport {
    Postgres(Db),
    Redis(redis::Client),
}

/// The sending half of a transport: a pooled PostgreSQL connection, or one multiplexed
/// Redis connection opened again after a failure.
enum Sender {
    Postgres(Db),
    Redis { client: redis::Client, conn: Option<redis::aio::MultiplexedConnection> },
}

impl Sender {
    async fn send(&mut self, channel: &str, part: &str) -> Result<(), String> {
        match self {
            Sender::Postgres(db) => {
                sqlx::query("SELECT pg_notify($1, $2)").bind(channel).bind(part).execute(db.writer()).await.map(|_| ()).map_err(|e| e.to_string())
            }
            Sender::Redis { client, conn } => {
                if conn.is_none() {
                    *conn = Some(client.get_multiplexed_async_connection().await.map_err(|e| e.to_string())?);
                }
                let Some(c) = conn.as_mut() else { return Err("no connection".into()) };
                let sent = redis::cmd("PUBLISH").arg(channel).arg(part).query_async::<i64>(c).await;
                sent.map(|_| ()).map_err(|e| {
                    *conn = None;
                    e.to_string()
                })
            }
        }
    }
}

/// The listening half: one connection subscribed to every channel of [`CHANNELS`].
enum Link {
    Postgres(sqlx::postgres::PgListener),
    // The whole `PubSub` is kept: its sink half drives the connection.
    Redis(redis::aio::PubSub),
}

impl Link {
    /// Connects and subscribes.
    async fn open(transport: &Transport) -> Result<Link, String> {
        match transport {
            Transport::Postgres(db) => {
                let mut listener = sqlx::postgres::PgListener::connect(db.url()).await.map_err(|e| format!("connect: {e}"))?;
                listener.listen_all(CHANNELS.iter().copied()).await.map_err(|e| format!("LISTEN: {e}"))?;
                Ok(Link::Postgres(listener))
            }
            Transport::Redis(client) => {
                let mut pubsub = client.get_async_pubsub().await.map_err(|e| format!("connect: {e}"))?;
                pubsub.subscribe(CHANNELS).await.map_err(|e| format!("SUBSCRIBE: {e}"))?;
                Ok(Link::Redis(pubsub))
            }
        }
    }

    /// The next `(channel, payload)`; `None` once the connection is lost.
    async fn next(&mut self) -> Option<(String, String)> {
        use futures::StreamExt;
        loop {
            match self {
                Link::Postgres(listener) => {
                    return match listener.try_recv().await {
                        Ok(Some(n)) => Some((n.channel().to_string(), n.payload().to_string())),
                        Ok(None) => None,
                        Err(e) => {
                            tracing::warn!(error = %e, "bus: listener failed");
                            None
                        }
                    };
                }
                Link::Redis(pubsub) => {
                    let msg = pubsub.on_message().next().await?;
                    // A payload that is not text is not ours: skip it.
                    if let Ok(payload) = msg.get_payload::<String>() {
                        return Some((msg.get_channel_name().to_string(), payload));
                    }
                }
            }
        }
    }
}

impl Transport {
    fn sender(&self) -> Sender {
        match self {
            Transport::Postgres(db) => Sender::Postgres(db.clone()),
            Transport::Redis(client) => Sender::Redis { client: client.clone(), conn: None },
        }
    }
}

async fn publish_task(transport: Transport, bus: std::sync::Weak<Inner>, mut rx: mpsc::Receiver<(&'static str, String)>) {
    let mut sender = transport.sender();
    while let Some((channel, body)) = rx.recv().await {
        let Some(inner) = bus.upgrade() else { return };
        let id = inner.next_id.fetch_add(1, Ordering::Relaxed);
        for part in parts(&inner.origin, id, &body) {
            // A few tries over a short outage; then the message is dropped (subscribers of
            // other instances resync when their listener reconnects).
            let mut tries = 0;
            loop {
                tries += 1;
                match sender.send(channel, &part).await {
                    Ok(()) => {
                        inner.counters.notifies.fetch_add(1, Ordering::Relaxed);
                        break;
                    }
                    Err(e) if tries < 3 => {
                        tracing::warn!(error = %e, channel, "bus: publish failed; again");
                        tokio::time::sleep(Duration::from_millis(100)).await;
                    }
                    Err(e) => {
                        tracing::error!(error = %e, channel, "bus: publish failed; message dropped");
                        inner.counters.publish_errors.fetch_add(1, Ordering::Relaxed);
                        break;
                    }
                }
            }
        }
    }
}

async fn listen_task(transport: Transport, bus: std::sync::Weak<Inner>) {
    let mut assembler = Assembler::default();
    let mut first = true;
    loop {
        let mut link = match Link::open(&transport).await {
            Ok(l) => l,
            Err(e) => {
                tracing::warn!(error = %e, "bus: cannot listen; again in 1 s");
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
        };
        if !first {
            // Anything sent while we were away is lost: every subscriber rebuilds.
            let Some(inner) = bus.upgrade() else { return };
            resync(&inner);
        }
        first = false;
        assembler.clear();
        while let Some((channel, payload)) = link.next().await {
            let Some(inner) = bus.upgrade() else { return };
            let Some((origin, body)) = assembler.push(&payload) else { continue };
            deliver(&inner, &channel, origin, body);
        }
        tracing::warn!("bus: listener connection lost");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// A completed message to the channel's subscribers.
fn deliver(inner: &Inner, channel: &str, origin: String, body: String) {
    inner.counters.received.fetch_add(1, Ordering::Relaxed);
    if let Some(s) = channel_name(channel).and_then(|c| inner.channels.get(c)) {
        let own = *origin == *inner.origin;
        let _ = s.send(BusEvent::Message(BusMessage { origin: origin.into(), own, body: body.into() }));
    }
}

fn resync(inner: &Inner) {
    inner.counters.resyncs.fetch_add(1, Ordering::Relaxed);
    tracing::info!("bus: listener reconnected; subscribers resync");
    for s in inner.channels.values() {
        let _ = s.send(BusEvent::Resync);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both transports between two buses (two instances) on one database: a long message in
    /// several parts arrives whole at the other bus (`own` false) and at its publisher (`own`
    /// true). PostgreSQL NOTIFY needs `TEST_DATABASE_URL`; Redis is used when one answers on
    /// `REDIS_URL` (default 127.0.0.1:6379).
    #[tokio::test]
    async fn both_transports_carry_a_long_message_to_every_instance() {
        let Some(url) = crate::testing::postgres_admin_url() else {
            eprintln!("skipped: TEST_DATABASE_URL is not set");
            return;
        };
        let db = crate::Db::connect(&url).await.expect("database");
        let redis_url = std::env::var("REDIS_URL").unwrap_or_else(|_| "redis://127.0.0.1:6379".into());
        let redis_up = match redis::Client::open(redis_url.as_str()) {
            Ok(c) => tokio::time::timeout(Duration::from_secs(2), c.get_multiplexed_async_connection()).await.is_ok_and(|r| r.is_ok()),
            Err(_) => false,
        };
        let mut transports = vec![None];
        if redis_up {
            transports.push(Some(redis_url.as_str()));
        } else {
            eprintln!("Redis not reachable at {redis_url}: NOTIFY only");
        }
        for redis in transports {
            let tag = format!("{}-{:08x}", std::process::id(), rand::random::<u32>());
            let a = Bus::for_db(&db, format!("test-a-{tag}"), redis);
            let b = Bus::for_db(&db, format!("test-b-{tag}"), redis);
            let mut at_a = a.subscribe(CRASH_EVENTS);
            let mut at_b = b.subscribe(CRASH_EVENTS);
            // Another test's messages on the same channel are skipped by origin; once B has
            // heard A, a late ping (one of the earlier tries, still in flight) is skipped too.
            async fn next_from(rx: &mut broadcast::Receiver<BusEvent>, origin: &str, pings: bool) -> Option<BusMessage> {
                let wait = async {
                    loop {
                        match rx.recv().await {
                            Ok(BusEvent::Message(m)) if *m.origin == *origin && (pings || &*m.body != "ping") => return Some(m),
                            Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => continue,
                            Err(broadcast::error::RecvError::Closed) => return None,
                        }
                    }
                };
                tokio::time::timeout(Duration::from_millis(500), wait).await.ok().flatten()
            }
            // The listeners connect in the background: ping until B hears A.
            let mut heard = false;
            for _ in 0..20 {
                a.publish(CRASH_EVENTS, "ping".into());
                if next_from(&mut at_b, a.origin(), true).await.is_some() {
                    heard = true;
                    break;
                }
            }
            assert!(heard, "B hears A ({redis:?})");
            while at_a.try_recv().is_ok() {}
            while at_b.try_recv().is_ok() {}
            let sent_before = a.stats().notifies;
            let body: String = "é".repeat(9_000) + "fin";
            a.publish(CRASH_EVENTS, body.clone());
            let got = next_from(&mut at_b, a.origin(), false).await.expect("B receives the long message");
            assert_eq!((&*got.body, got.own), (body.as_str(), false), "{redis:?}");
            let own = next_from(&mut at_a, a.origin(), false).await.expect("A receives its own message");
            assert_eq!((&*own.body, own.own), (body.as_str(), true), "{redis:?}");
            // The publisher counts a part once its send returned, which can be after the
            // listeners already heard it (seen on a loaded machine): wait for the count.
            for _ in 0..100 {
                if a.stats().notifies - sent_before >= 3 {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
            assert_eq!(a.stats().notifies - sent_before, 3, "sent in three parts ({redis:?})");
            assert_eq!(a.stats().publish_errors, 0);
        }
    }

    #[test]
    fn long_messages_are_cut_and_put_together() {
        let body: String = "é".repeat(10_000) + "fin";
        let parts = parts("a:1:ff", 7, &body);
        assert_eq!(parts.len(), 3);
        assert!(parts.iter().all(|p| p.len() < 8_000));
        let mut a = Assembler::default();
        // Interleaved with another origin's message.
        assert_eq!(a.push(&parts[0]), None);
        assert_eq!(a.push("b:2:00 1 0 1\nshort"), Some(("b:2:00".into(), "short".into())));
        assert_eq!(a.push(&parts[2]), None);
        assert_eq!(a.push(&parts[1]), Some(("a:1:ff".into(), body)));
        // Malformed payloads are dropped.
        assert_eq!(a.push("nonsense"), None);
        assert_eq!(a.push("a 1 3 2\nx"), None);
    }

    #[test]
    fn an_incomplete_older_message_is_dropped() {
        let mut a = Assembler::default();
        let old = parts("o", 1, &"x".repeat(PART_BYTES + 5));
        a.push(&old[0]);
        let new = parts("o", 2, &"y".repeat(PART_BYTES + 5));
        a.push(&new[0]);
        assert_eq!(a.partial.len(), 1);
        assert!(a.push(&new[1]).is_some());
        // The late part of the old message completes nothing.
        assert_eq!(a.push(&old[1]), None);
    }
}
