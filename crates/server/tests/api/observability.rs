//! Request ids and the operational metrics (issue 21 §3, docs/OPERATIONS.md "Runbook").

use crate::common::*;
use reqwest::Method;

fn is_generated(id: &str) -> bool {
    id.len() == 32 && id.bytes().all(|b| b.is_ascii_hexdigit())
}

#[tokio::test]
async fn request_ids_are_echoed_generated_or_replaced() {
    each_backend(async |app| {
        // A sane incoming id (a load balancer's) is kept and echoed, on the API and elsewhere.
        for path in ["/api/site/settings", "/healthz", "/api/no/such/route"] {
            let r = app.exec(app.req(Method::GET, path).header("x-request-id", "lb-7f3a.9:c_2")).await;
            assert_eq!(r.header("x-request-id").as_deref(), Some("lb-7f3a.9:c_2"), "{path}");
        }
        // None: one is generated, a new one per request.
        let first = app.exec(app.req(Method::GET, "/api/site/settings")).await.header("x-request-id").expect("generated id");
        let second = app.exec(app.req(Method::GET, "/api/site/settings")).await.header("x-request-id").expect("generated id");
        assert!(is_generated(&first), "{first}");
        assert_ne!(first, second);
        // Forged ids are replaced: oversize, characters that would break a log line, empty.
        let oversize = "a".repeat(65);
        for forged in [oversize.as_str(), "x\" injected=\"1", "a b", "é", ""] {
            let r = app.exec(app.req(Method::GET, "/api/site/settings").header("x-request-id", forged)).await;
            let id = r.header("x-request-id").expect("an id");
            assert!(is_generated(&id), "{forged:?} → {id}");
        }
        // At the limit (64) it is kept; two ids are one too many.
        let max = "b".repeat(64);
        let r = app.exec(app.req(Method::GET, "/healthz").header("x-request-id", max.as_str())).await;
        assert_eq!(r.header("x-request-id"), Some(max));
        let r = app.exec(app.req(Method::GET, "/healthz").header("x-request-id", "one").header("x-request-id", "two")).await;
        assert!(is_generated(&r.header("x-request-id").unwrap()));
    })
    .await;
}

#[tokio::test]
async fn metrics_expose_the_operational_series() {
    each_backend(async |app| {
        // A provider callback for a provider that does not exist, a stake, a refused sign-in.
        let _ = app.exec(app.req(Method::POST, "/api/providers/nobody/bet").body("{}")).await;
        let (_, _user, _) = app.player("ops@example.tn").await;
        let r = app.exec(app.req(Method::GET, "/metrics")).await;
        assert_eq!(r.status, 200);
        let text = r.text;
        for series in [
            "carthage_bets_placed_total{type=\"bet_stake\"}",
            "carthage_crash_rounds_total ",
            "carthage_crash_rounds_recovered_total ",
            "carthage_queue_depth{queue=\"ledger_writer\"}",
            "carthage_queue_depth{queue=\"outbox\"}",
            "carthage_queue_depth{queue=\"payment_callbacks\"}",
            "carthage_provider_callbacks_total{kind=\"game\",provider=\"unknown\",outcome=\"refused\"}",
            "carthage_job_runs_total{job=\"outbox\",outcome=\"ok\"}",
            "# TYPE carthage_write_batch_size histogram",
            "# TYPE carthage_rate_limited_total counter",
            "carthage_duty_held{duty=\"crash\"}",
            "ledger_postings_total{",
        ] {
            assert!(text.contains(series), "missing {series}:\n{text}");
        }
    })
    .await;
}
