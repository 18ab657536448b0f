//! Four eyes on manual adjustments (issue 22; crates/server/src/adjustments.rs): above
//! `ADJUST_FOUR_EYES_ABOVE` (1,000 TND in tests) an adjustment is a request; nothing moves
//! until a second staff member approves it; the requester never can; two approvers racing
//! book it once; a decided request stays decided; every step is in the audit chain.

use crate::common::*;
use accounts::Role;
use serde_json::json;
use wallet::BalanceKind;

const ADJUST: &str = "/api/admin/wallet/adjust";
const TND: i64 = 1_000;

fn approve(id: i64) -> String {
    format!("/api/admin/wallet/adjust-requests/{id}/approve")
}

fn reject(id: i64) -> String {
    format!("/api/admin/wallet/adjust-requests/{id}/reject")
}

#[tokio::test]
async fn a_large_adjustment_moves_only_when_another_staff_member_approves_it() {
    each_backend(async |app| {
        let (_, player, _) = app.player("four-eyes@example.tn").await;
        let (finance, finance_id) = app.staff(Role::Finance, "fin-a@example.tn").await;
        let (finance_b, finance_b_id) = app.staff(Role::Finance, "fin-b@example.tn").await;
        let (admin, admin_id) = app.staff(Role::Admin, "adm-4e@example.tn").await;
        let (support, _) = app.staff(Role::Support, "sup-4e@example.tn").await;
        let body = |amount: &str, key: &str| json!({ "userId": player, "kind": "real", "amount": amount, "reason": "ticket 77", "idempotencyKey": key });
        let balance = async || app.minor_balance(player, BalanceKind::Real).await;

        // At the four-eyes amount: posted at once.
        let r = ok(finance.post(ADJUST, body("1000", "k1")).await);
        assert_eq!((r["status"].as_str(), num(&r["balance"])), (Some("done"), 1000.0));
        assert_eq!(balance().await, 1_000 * TND);

        // Above it: a request, nothing moves, its audit record; a retry is the same request.
        let r = ok(finance.post(ADJUST, body("2500.5", "k2")).await);
        assert_eq!((r["status"].as_str(), r["replayed"].as_bool(), r["balance"].is_null()), (Some("pending"), Some(false), true));
        let rid = r["request"]["id"].as_i64().unwrap();
        assert_eq!((r["request"]["requestedBy"].as_i64(), num(&r["request"]["amount"])), (Some(finance_id), 2500.5));
        let again = ok(finance.post(ADJUST, body("2500.5", "k2")).await);
        assert_eq!((again["request"]["id"].as_i64(), again["replayed"].as_bool()), (Some(rid), Some(true)));
        fail(finance.post(ADJUST, body("2600", "k2")).await, 409, 26);
        assert_eq!(balance().await, 1_000 * TND);
        assert_eq!(app.count("audit_log WHERE action = 'wallet.adjust.request'").await, 1);
        let pending = ok(admin.get("/api/admin/wallet/adjust-requests?status=pending").await);
        assert_eq!(pending.as_array().unwrap().iter().map(|r| r["id"].as_i64().unwrap()).collect::<Vec<_>>(), vec![rid]);
        fail(admin.get("/api/admin/wallet/adjust-requests?status=lost").await, 200, 47);

        // Never the requester; never a role without the permission.
        fail(finance.post(&approve(rid), json!({})).await, 200, 140);
        fail(support.post(&approve(rid), json!({})).await, 403, 24);
        assert_eq!(balance().await, 1_000 * TND);

        // Two approvers at once, five times each: booked once, by one of them.
        let mut answers = Vec::new();
        let path = approve(rid);
        for _ in 0..5 {
            let (a, b) = tokio::join!(admin.post(&path, json!({})), finance_b.post(&path, json!({})));
            answers.push((a, b));
        }
        let winner = ok(admin.get("/api/admin/wallet/adjust-requests?status=approved").await)[0]["decidedBy"].as_i64().unwrap();
        assert!(winner == admin_id || winner == finance_b_id);
        for (a, b) in answers {
            for ((http, v), who) in [(a, admin_id), (b, finance_b_id)] {
                let code = v["status"].as_i64().unwrap();
                if who == winner {
                    assert_eq!((http, code, v["result"]["status"].as_str()), (200, 0, Some("approved")), "{v}");
                } else {
                    assert_eq!(code, 141, "{v}");
                }
            }
        }
        assert_eq!(balance().await, 1_000 * TND + 2_500_500);
        assert_eq!(app.count(&format!("ledger_transactions WHERE idempotency_key = 'adjust-request:{rid}'")).await, 1);
        let approved = ok(admin.get("/api/admin/wallet/adjust-requests?status=approved").await);
        assert!(approved[0]["transactionId"].as_i64().is_some());
        fail(admin.post(&reject(rid), json!({ "note": "too late" })).await, 200, 141);

        // Withdrawn by the requester: nothing moves, and it cannot be approved afterwards.
        let r3 = ok(finance.post(ADJUST, body("-1500", "k3")).await)["request"]["id"].as_i64().unwrap();
        fail(finance.post(&reject(r3), json!({ "note": " " })).await, 200, 47);
        let rejected = ok(finance.post(&reject(r3), json!({ "note": "typo" })).await);
        assert_eq!((rejected["status"].as_str(), rejected["decisionNote"].as_str()), (Some("rejected"), Some("typo")));
        fail(admin.post(&approve(r3), json!({})).await, 200, 141);

        // A debit the balance cannot cover: refused at approval, the request stays pending.
        let r4 = ok(finance.post(ADJUST, body("-99999", "k4")).await)["request"]["id"].as_i64().unwrap();
        fail(admin.post(&approve(r4), json!({})).await, 200, 501);
        assert_eq!(ok(admin.get("/api/admin/wallet/adjust-requests?status=pending").await)[0]["id"].as_i64(), Some(r4));
        fail(admin.post(&approve(424242), json!({})).await, 404, 43);
        fail(admin.post("/api/admin/wallet/adjust-requests/abc/approve", json!({})).await, 400, 40);
        assert_eq!(balance().await, 1_000 * TND + 2_500_500);

        // The trail: the request, the approval's posting naming it, the withdrawal.
        assert_eq!(app.count(&format!("audit_log WHERE action = 'wallet.adjust' AND details LIKE '%\"request\":{rid}%'")).await, 1);
        assert_eq!(app.count("audit_log WHERE action = 'wallet.adjust.reject'").await, 1);
        app.assert_ledger_consistent().await;
    })
    .await;
}
