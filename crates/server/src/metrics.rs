//! Prometheus text metrics: request counts and latency histograms per route, ledger
//! postings by type and outcome, and the operational series of [`render_operations`]
//! (bets placed, crash rounds, provider callbacks, job runs, write-batch sizes, queue
//! depths, rate-limit refusals). The alerts built on them: docs/OPERATIONS.md "Runbook".

use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::Mutex;
use std::time::Duration;

const BUCKETS: [f64; 12] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0];

#[derive(Default, Clone)]
struct Histogram {
    counts: [u64; BUCKETS.len()],
    sum: f64,
    count: u64,
}

#[derive(Default)]
struct Inner {
    requests: BTreeMap<(String, String, u16), u64>,
    latency: BTreeMap<(String, String), Histogram>,
}

#[derive(Default)]
pub struct Metrics {
    inner: Mutex<Inner>,
}

impl Metrics {
    pub fn observe(&self, method: &str, route: &str, status: u16, elapsed: Duration) {
        let secs = elapsed.as_secs_f64();
        let mut inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        *inner.requests.entry((method.to_string(), route.to_string(), status)).or_default() += 1;
        let h = inner.latency.entry((method.to_string(), route.to_string())).or_default();
        for (i, b) in BUCKETS.iter().enumerate() {
            if secs <= *b {
                h.counts[i] += 1;
            }
        }
        h.sum += secs;
        h.count += 1;
    }

    pub fn render(&self, ledger: &wallet::LedgerStats) -> String {
        let inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        let mut out = String::new();
        out.push_str("# HELP http_requests_total HTTP requests by method, route and status.\n# TYPE http_requests_total counter\n");
        for ((method, route, status), n) in &inner.requests {
            let _ = writeln!(out, "http_requests_total{{method=\"{method}\",route=\"{route}\",status=\"{status}\"}} {n}");
        }
        out.push_str("# HELP http_request_duration_seconds Request latency by method and route.\n# TYPE http_request_duration_seconds histogram\n");
        for ((method, route), h) in &inner.latency {
            for (i, b) in BUCKETS.iter().enumerate() {
                let _ = writeln!(out, "http_request_duration_seconds_bucket{{method=\"{method}\",route=\"{route}\",le=\"{b}\"}} {}", h.counts[i]);
            }
            let _ = writeln!(out, "http_request_duration_seconds_bucket{{method=\"{method}\",route=\"{route}\",le=\"+Inf\"}} {}", h.count);
            let _ = writeln!(out, "http_request_duration_seconds_sum{{method=\"{method}\",route=\"{route}\"}} {}", h.sum);
            let _ = writeln!(out, "http_request_duration_seconds_count{{method=\"{method}\",route=\"{route}\"}} {}", h.count);
        }
        out.push_str("# HELP ledger_postings_total Ledger postings by transaction type and outcome.\n# TYPE ledger_postings_total counter\n");
        for ((tx_type, outcome), n) in ledger {
            let _ = writeln!(out, "ledger_postings_total{{type=\"{}\",outcome=\"{outcome}\"}} {n}", tx_type.name());
        }
        out
    }
}

/// The operational series: what `kernel::metrics` recorded (provider callbacks, job runs,
/// write-batch sizes, rate-limit refusals), and figures read at scrape time (bets placed,
/// crash rounds, queue depths).
pub async fn render_operations(state: &crate::app::AppState, out: &mut String) {
    kernel::metrics::render(out);
    // A bet is placed when its stake is posted (every product's stake is a posting of a
    // stake type: casino and studio rounds, our sportsbook, the partner sportsbooks).
    let ledger = state.ledger.stats();
    out.push_str("# HELP carthage_bets_placed_total Bets placed (stakes posted) by stake type, this instance.\n# TYPE carthage_bets_placed_total counter\n");
    for t in wallet::TxType::STAKES {
        let n = ledger.get(&(t, "posted")).copied().unwrap_or(0);
        let _ = writeln!(out, "carthage_bets_placed_total{{type=\"{}\"}} {n}", t.name());
    }
    let crash = state.crash.stats();
    out.push_str("# HELP carthage_crash_rounds_total Crash rounds played by this instance's round loop.\n# TYPE carthage_crash_rounds_total counter\n");
    let _ = writeln!(out, "carthage_crash_rounds_total {}", crash.rounds);
    out.push_str("# HELP carthage_crash_rounds_recovered_total Interrupted crash rounds this instance settled by the recovery rule.\n# TYPE carthage_crash_rounds_recovered_total counter\n");
    let _ = writeln!(out, "carthage_crash_rounds_recovered_total {}", crash.recovered_rounds);
    out.push_str("# HELP carthage_queue_depth Work waiting: postings queued for the SQLite ledger writer (this instance), messages not yet delivered and sandbox payment callbacks not yet delivered (whole database).\n# TYPE carthage_queue_depth gauge\n");
    let _ = writeln!(out, "carthage_queue_depth{{queue=\"ledger_writer\"}} {}", state.ledger.queue_depth());
    for (queue, sql) in [
        ("outbox", "SELECT COUNT(*) FROM outbox WHERE status IN ('pending', 'sending')"),
        ("payment_callbacks", "SELECT COUNT(*) FROM sandbox_callbacks WHERE delivered_at IS NULL"),
    ] {
        let count = tokio::time::timeout(Duration::from_secs(2), store::sqlx::query(sql).fetch_one(state.db.reader())).await;
        match count {
            Ok(Ok(row)) => {
                let n: i64 = store::Row::try_get(&row, 0).unwrap_or(0);
                let _ = writeln!(out, "carthage_queue_depth{{queue=\"{queue}\"}} {n}");
            }
            // No line: an absent series is not a zero (the alert on `up`/`absent` fires).
            Ok(Err(e)) => tracing::warn!(queue, error = %e, "metrics: counting a queue failed"),
            Err(_) => tracing::warn!(queue, "metrics: counting a queue timed out"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_counts_and_buckets() {
        let m = Metrics::default();
        m.observe("GET", "/api/user/balance", 200, Duration::from_millis(3));
        m.observe("GET", "/api/user/balance", 200, Duration::from_millis(30));
        let mut ledger = wallet::LedgerStats::new();
        ledger.insert((wallet::TxType::BetStake, "posted"), 7);
        let text = m.render(&ledger);
        assert!(text.contains("http_requests_total{method=\"GET\",route=\"/api/user/balance\",status=\"200\"} 2"));
        assert!(text.contains("le=\"0.005\"} 1"));
        assert!(text.contains("le=\"0.05\"} 2"));
        assert!(text.contains("ledger_postings_total{type=\"bet_stake\",outcome=\"posted\"} 7"));
    }
}
