//! Prometheus text metrics: request counts and latency histograms per route, ledger
//! postings by type and outcome.

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
