//! Process-wide operational counters and histograms, rendered by the server's `/metrics`
//! (crates/server/src/metrics.rs) in the Prometheus text format.
//!
//! Any crate records into it without a handle passed down (the kernel is below every
//! context): `kernel::metrics::inc(JOB_RUNS, &[("job", "payments"), ("outcome", "ok")])`.
//! Names are the constants below, each with its help text in [`HELP`]; labels are small,
//! closed sets (never a player id or an amount). One mutex over a map: a record costs a
//! lock and a map lookup (about 100 ns), far below a database round trip; keep it off
//! per-row loops.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::Mutex;

/// Provider callbacks (game providers' wallet calls, payment providers' notifications) by
/// kind, provider and outcome (`ok`, `refused`, `error`).
pub const PROVIDER_CALLBACKS: &str = "carthage_provider_callbacks_total";
/// Runs of periodic jobs by job and outcome (`ok`, `error`).
pub const JOB_RUNS: &str = "carthage_job_runs_total";
/// Sizes of group-commit write batches by path (`ledger`, `write_batch`): how many pieces
/// of work one commit carried.
pub const WRITE_BATCH_SIZE: &str = "carthage_write_batch_size";
/// Rate-limit refusals by bucket (`sign_in_account`, `sign_in_ip`, `probe_ip`, `send`).
pub const RATE_LIMITED: &str = "carthage_rate_limited_total";

/// `(name, type, help)` of every series recorded here.
pub const HELP: &[(&str, &str, &str)] = &[
    (PROVIDER_CALLBACKS, "counter", "Provider callbacks by kind (game, payment), provider and outcome."),
    (JOB_RUNS, "counter", "Runs of periodic jobs by job and outcome."),
    (WRITE_BATCH_SIZE, "histogram", "Pieces of work per group commit, by write path."),
    (RATE_LIMITED, "counter", "Requests refused by a rate limit, by bucket."),
];

/// Upper bounds of the batch-size histogram buckets.
pub const SIZE_BUCKETS: [f64; 10] = [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0, 1024.0];

#[derive(Default, Clone)]
struct Histogram {
    counts: [u64; SIZE_BUCKETS.len()],
    sum: f64,
    count: u64,
}

#[derive(Default)]
struct Registry {
    counters: BTreeMap<(&'static str, String), u64>,
    histograms: BTreeMap<(&'static str, String), Histogram>,
}

static REGISTRY: Mutex<Option<Registry>> = Mutex::new(None);

fn with<T>(f: impl FnOnce(&mut Registry) -> T) -> T {
    let mut guard = REGISTRY.lock().unwrap_or_else(|p| p.into_inner());
    f(guard.get_or_insert_with(Registry::default))
}

/// `a="x",b="y"` with the values escaped.
fn label_text(labels: &[(&str, &str)]) -> String {
    let mut out = String::new();
    for (i, (k, v)) in labels.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let v = v.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n");
        let _ = write!(out, "{k}=\"{v}\"");
    }
    out
}

/// Adds one to a counter.
pub fn inc(name: &'static str, labels: &[(&str, &str)]) {
    add(name, labels, 1);
}

/// Adds `n` to a counter.
pub fn add(name: &'static str, labels: &[(&str, &str)], n: u64) {
    let key = (name, label_text(labels));
    with(|r| *r.counters.entry(key).or_default() += n);
}

/// Records one observation of a size histogram.
pub fn observe(name: &'static str, labels: &[(&str, &str)], value: f64) {
    let key = (name, label_text(labels));
    with(|r| {
        let h = r.histograms.entry(key).or_default();
        for (i, b) in SIZE_BUCKETS.iter().enumerate() {
            if value <= *b {
                h.counts[i] += 1;
            }
        }
        h.sum += value;
        h.count += 1;
    });
}

/// A counter's value (tests).
pub fn counter(name: &'static str, labels: &[(&str, &str)]) -> u64 {
    let key = (name, label_text(labels));
    with(|r| r.counters.get(&key).copied().unwrap_or(0))
}

/// Every series recorded so far, with the HELP and TYPE lines of each name (also for names
/// nothing recorded yet, so a scraper sees the family).
pub fn render(out: &mut String) {
    with(|r| {
        for (name, kind, help) in HELP {
            let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} {kind}");
            for ((n, labels), v) in r.counters.range((*name, String::new())..) {
                if n != name {
                    break;
                }
                let _ = writeln!(out, "{name}{{{labels}}} {v}");
            }
            for ((n, labels), h) in r.histograms.range((*name, String::new())..) {
                if n != name {
                    break;
                }
                let sep = if labels.is_empty() { "" } else { "," };
                for (i, b) in SIZE_BUCKETS.iter().enumerate() {
                    let _ = writeln!(out, "{name}_bucket{{{labels}{sep}le=\"{b}\"}} {}", h.counts[i]);
                }
                let _ = writeln!(out, "{name}_bucket{{{labels}{sep}le=\"+Inf\"}} {}", h.count);
                let _ = writeln!(out, "{name}_sum{{{labels}}} {}", h.sum);
                let _ = writeln!(out, "{name}_count{{{labels}}} {}", h.count);
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_and_histograms_render_with_their_family() {
        inc(JOB_RUNS, &[("job", "test_job"), ("outcome", "ok")]);
        inc(JOB_RUNS, &[("job", "test_job"), ("outcome", "ok")]);
        observe(WRITE_BATCH_SIZE, &[("path", "test")], 3.0);
        inc(PROVIDER_CALLBACKS, &[("kind", "game"), ("provider", "a\"b"), ("outcome", "ok")]);
        let mut text = String::new();
        render(&mut text);
        assert!(text.contains("carthage_job_runs_total{job=\"test_job\",outcome=\"ok\"} 2"), "{text}");
        assert!(text.contains("carthage_write_batch_size_bucket{path=\"test\",le=\"2\"} 0"), "{text}");
        assert!(text.contains("carthage_write_batch_size_bucket{path=\"test\",le=\"4\"} 1"), "{text}");
        assert!(text.contains("carthage_write_batch_size_count{path=\"test\"} 1"), "{text}");
        assert!(text.contains("provider=\"a\\\"b\""), "{text}");
        assert!(text.contains("# TYPE carthage_rate_limited_total counter"), "{text}");
        assert_eq!(counter(JOB_RUNS, &[("job", "test_job"), ("outcome", "ok")]), 2);
    }
}
