//! Where long-lived WebSocket tasks run: a runtime of their own (one thread), beside the one
//! that answers HTTP requests.
//!
//! Why: a feed tick wakes every live-odds socket at once (5,000 of them in the benchmark) and
//! each builds and writes its frame. On the shared runtime those wake-ups queue ahead of the
//! requests in flight, so a bet placed at that moment waited behind the whole fan-out (p99
//! 0.9 s at 1,000 bets/s, docs/PERFORMANCE.md). On their own runtime the sockets compete with
//! requests only through the operating system's scheduler, a thread against threads, and the
//! fan-out is held to one core. The same lesson made the SQLite writer's tasks a thread of
//! their own (`store::Db::write_tasks`).
//!
//! The sockets' I/O stays registered with the runtime that accepted the connection; a task on
//! this runtime may poll it (tokio's I/O resources are not tied to the polling thread).

use std::future::Future;
use std::sync::OnceLock;

/// A socket's read buffer. tungstenite zero-fills its whole read buffer before every read
/// attempt, and a socket is polled for reading each time a message goes out: the default
/// 128 KiB cost 30 % of the server's CPU at 10,000 crash players (docs/CRASH.md) and 40 % of
/// the sockets' thread at 5,000 live-odds subscribers. Client frames are tiny; the buffer
/// still grows for a larger one.
pub const READ_BUFFER: usize = 4_096;

static SOCKETS: OnceLock<Option<tokio::runtime::Runtime>> = OnceLock::new();

/// Spawns a socket's task on the sockets' runtime (on the current one if that runtime could
/// not be started, which is logged once).
pub fn spawn<F>(task: F)
where
    F: Future<Output = ()> + Send + 'static,
{
    let runtime = SOCKETS.get_or_init(|| {
        match tokio::runtime::Builder::new_multi_thread().worker_threads(1).thread_name("sockets").enable_all().build() {
            Ok(rt) => Some(rt),
            Err(e) => {
                tracing::error!(error = %e, "cannot start the sockets' runtime; sockets share the request runtime");
                None
            }
        }
    });
    match runtime {
        Some(rt) => {
            rt.spawn(task);
        }
        None => {
            tokio::spawn(task);
        }
    }
}
