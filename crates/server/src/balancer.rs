//! A small TCP load balancer for clusters on one machine (`carthage balance`, used by
//! `scripts/cluster.sh` for tests and demos; production puts a real one in front).
//!
//! * Each client connection goes to the next healthy instance, round robin; the bytes are
//!   copied both ways untouched (HTTP keep-alive and WebSockets stay on their instance).
//! * An instance is healthy while `GET /healthz` answers 200 (asked every
//!   [`HEALTH_EVERY`]) and it accepts connections: a refused connect marks it down at once and
//!   the client's connection is tried on the next instance, so killing an instance costs no
//!   new connection (the ones it held are cut, as with any balancer).
//! * With no instance up, the client gets `503` with the spec's envelope (status 1000) and
//!   the connection is closed.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// How often each instance's `/healthz` is asked.
pub const HEALTH_EVERY: Duration = Duration::from_millis(500);
/// How long a connect or a health check may take.
const CONNECT_TIMEOUT: Duration = Duration::from_millis(800);

/// One instance behind the balancer.
#[derive(Debug)]
pub struct Backend {
    pub addr: SocketAddr,
    healthy: AtomicBool,
    /// Connections handed to it so far.
    pub connections: AtomicU64,
}

impl Backend {
    pub fn is_healthy(&self) -> bool {
        self.healthy.load(Ordering::Relaxed)
    }
}

/// The balancer's shared state.
#[derive(Debug)]
pub struct Balancer {
    pub backends: Vec<Backend>,
    next: AtomicUsize,
}

impl Balancer {
    /// Every instance starts as healthy (the first health pass corrects it).
    pub fn new(addrs: &[SocketAddr]) -> Arc<Balancer> {
        Arc::new(Balancer {
            backends: addrs.iter().map(|&addr| Backend { addr, healthy: AtomicBool::new(true), connections: AtomicU64::new(0) }).collect(),
            next: AtomicUsize::new(0),
        })
    }

    /// The order to try the instances in for one connection: healthy ones from the next
    /// round-robin position, then the ones marked down (a last chance, in case they are back).
    fn order(&self) -> Vec<usize> {
        let n = self.backends.len();
        let start = self.next.fetch_add(1, Ordering::Relaxed);
        let ring: Vec<usize> = (0..n).map(|i| (start + i) % n).collect();
        let (up, down): (Vec<usize>, Vec<usize>) = ring.into_iter().partition(|&i| self.backends[i].is_healthy());
        up.into_iter().chain(down).collect()
    }

    /// A connection to an instance, trying them in [`Balancer::order`]; marks the ones that
    /// refuse as down.
    async fn connect(&self) -> Option<(usize, TcpStream)> {
        for i in self.order() {
            let b = &self.backends[i];
            match tokio::time::timeout(CONNECT_TIMEOUT, TcpStream::connect(b.addr)).await {
                Ok(Ok(s)) => {
                    b.connections.fetch_add(1, Ordering::Relaxed);
                    return Some((i, s));
                }
                _ => {
                    if b.healthy.swap(false, Ordering::Relaxed) {
                        tracing::warn!(backend = %b.addr, "balancer: instance refused a connection, marked down");
                    }
                }
            }
        }
        None
    }

    /// One health pass over every instance.
    pub async fn check(&self) {
        for b in &self.backends {
            let ok = healthz(b.addr).await;
            if b.healthy.swap(ok, Ordering::Relaxed) != ok {
                tracing::info!(backend = %b.addr, healthy = ok, "balancer: instance health changed");
            }
        }
    }
}

/// Whether `GET /healthz` on `addr` answers 200 in time.
pub async fn healthz(addr: SocketAddr) -> bool {
    let ask = async {
        let mut s = TcpStream::connect(addr).await.ok()?;
        s.write_all(format!("GET /healthz HTTP/1.0\r\nHost: {addr}\r\nConnection: close\r\n\r\n").as_bytes()).await.ok()?;
        let mut head = [0u8; 16];
        let mut got = 0;
        while got < head.len() {
            let n = s.read(&mut head[got..]).await.ok()?;
            if n == 0 {
                break;
            }
            got += n;
        }
        let line = std::str::from_utf8(&head[..got]).ok()?;
        Some(line.starts_with("HTTP/1.") && line.get(8..13) == Some(" 200 "))
    };
    matches!(tokio::time::timeout(CONNECT_TIMEOUT * 2, ask).await, Ok(Some(true)))
}

const UNAVAILABLE: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nconnection: close\r\ncontent-length: 73\r\n\r\n{\"status\":1000,\"result\":null,\"error_message\":\"No instance is available.\"}";

/// Serves `listener` until `shutdown` resolves.
pub async fn run(listener: TcpListener, balancer: Arc<Balancer>, shutdown: impl std::future::Future<Output = ()>) {
    let health = {
        let b = balancer.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(HEALTH_EVERY);
            loop {
                tick.tick().await;
                b.check().await;
            }
        })
    };
    tokio::pin!(shutdown);
    loop {
        let (mut client, _) = tokio::select! {
            _ = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok(c) => c,
                Err(e) => {
                    tracing::warn!(error = %e, "balancer: accept failed");
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    continue;
                }
            },
        };
        let b = balancer.clone();
        tokio::spawn(async move {
            let _ = client.set_nodelay(true);
            match b.connect().await {
                Some((_, mut upstream)) => {
                    let _ = upstream.set_nodelay(true);
                    let _ = tokio::io::copy_bidirectional(&mut client, &mut upstream).await;
                }
                None => {
                    let _ = client.write_all(UNAVAILABLE).await;
                    let _ = client.shutdown().await;
                }
            }
        });
    }
    health.abort();
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::routing::get;

    /// An instance that answers `/healthz` 200 and `/` with its name.
    async fn instance(name: &'static str) -> (SocketAddr, tokio::task::JoinHandle<()>) {
        let app = axum::Router::new().route("/healthz", get(|| async { "ok" })).route("/", get(move || async move { name }));
        let l = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = l.local_addr().unwrap();
        (addr, tokio::spawn(async move {
            let _ = axum::serve(l, app).await;
        }))
    }

    /// One request on a new connection; the body.
    async fn get_root(addr: SocketAddr) -> String {
        let mut s = TcpStream::connect(addr).await.unwrap();
        s.write_all(b"GET / HTTP/1.0\r\nHost: x\r\n\r\n").await.unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).await.unwrap();
        out.split("\r\n\r\n").nth(1).unwrap_or_default().to_string()
    }

    #[tokio::test]
    async fn round_robin_fails_over_and_answers_503_with_none_left() {
        let (a, ta) = instance("a").await;
        let (b, tb) = instance("b").await;
        let balancer = Balancer::new(&[a, b]);
        let l = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let front = l.local_addr().unwrap();
        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
        let served = tokio::spawn(run(l, balancer.clone(), async move {
            let _ = stop_rx.await;
        }));

        let mut seen = Vec::new();
        for _ in 0..4 {
            seen.push(get_root(front).await);
        }
        seen.sort();
        assert_eq!(seen, ["a", "a", "b", "b"], "round robin over both instances");

        // `a` dies: the very next connections go to `b` (its refusal marks it down at once).
        ta.abort();
        let _ = ta.await;
        for _ in 0..4 {
            assert_eq!(get_root(front).await, "b");
        }
        assert!(!balancer.backends[0].is_healthy());
        balancer.check().await;
        assert!(!balancer.backends[0].is_healthy() && balancer.backends[1].is_healthy());

        // None left: 503 with the envelope's 1000, never a hang.
        tb.abort();
        let _ = tb.await;
        let mut s = TcpStream::connect(front).await.unwrap();
        s.write_all(b"GET / HTTP/1.0\r\n\r\n").await.unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).await.unwrap();
        assert!(out.starts_with("HTTP/1.1 503") && out.ends_with(r#"{"status":1000,"result":null,"error_message":"No instance is available."}"#), "{out}");
        let (head, body) = out.split_once("\r\n\r\n").unwrap();
        assert!(head.lines().any(|l| l == format!("content-length: {}", body.len())), "content-length matches: {head}");

        // An instance back on the same address is found again by the health pass.
        let l2 = TcpListener::bind(a).await.unwrap();
        let app = axum::Router::new().route("/healthz", get(|| async { "ok" })).route("/", get(|| async { "a2" }));
        let back = tokio::spawn(async move {
            let _ = axum::serve(l2, app).await;
        });
        balancer.check().await;
        assert!(balancer.backends[0].is_healthy());
        assert_eq!(get_root(front).await, "a2");
        let _ = stop_tx.send(());
        let _ = served.await;
        back.abort();
    }

    #[tokio::test]
    async fn a_long_connection_passes_bytes_both_ways() {
        // An echo instance (a WebSocket is bytes both ways on one connection).
        let l = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let echo = l.local_addr().unwrap();
        tokio::spawn(async move {
            while let Ok((mut s, _)) = l.accept().await {
                tokio::spawn(async move {
                    let (mut r, mut w) = s.split();
                    let _ = tokio::io::copy(&mut r, &mut w).await;
                });
            }
        });
        let front_l = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let front = front_l.local_addr().unwrap();
        tokio::spawn(run(front_l, Balancer::new(&[echo]), std::future::pending()));
        let mut s = TcpStream::connect(front).await.unwrap();
        for i in 0..50u32 {
            let msg = format!("frame {i}\n");
            s.write_all(msg.as_bytes()).await.unwrap();
            let mut buf = vec![0u8; msg.len()];
            s.read_exact(&mut buf).await.unwrap();
            assert_eq!(buf, msg.as_bytes());
        }
    }

    #[tokio::test]
    async fn health_needs_a_200() {
        let app = axum::Router::new().route("/healthz", get(|| async { (axum::http::StatusCode::SERVICE_UNAVAILABLE, "down") }));
        let l = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = l.local_addr().unwrap();
        tokio::spawn(async move {
            let _ = axum::serve(l, app).await;
        });
        assert!(!healthz(addr).await);
        let (up, _t) = instance("up").await;
        assert!(healthz(up).await);
        let closed = TcpListener::bind("127.0.0.1:0").await.unwrap().local_addr().unwrap();
        assert!(!healthz(closed).await);
    }
}
