//! Four eyes on manual adjustments (issue 22; crates/server/src/adjustments.rs): above
//! `ADJUST_FOUR_EYES_ABOVE` (1,000 TND in tests) an adjustment is a request; nothing moves
//! until a second staff member approves it; the requester never can; twenty approvals racing
//! book it once; a decided request stays decided; small adjustments split or sent in parallel
//! count together; every step is in the audit chain.

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

        // Two approvers, ten calls each, all at once: booked once, by one of them.
        let path = approve(rid);
        let calls = (0..20).map(|i| {
            let (api, who) = if i % 2 == 0 { (&admin, admin_id) } else { (&finance_b, finance_b_id) };
            let path = path.clone();
            async move { (who, api.post(&path, json!({})).await) }
        });
        let answers = futures::future::join_all(calls).await;
        let winner = ok(admin.get("/api/admin/wallet/adjust-requests?status=approved").await)[0]["decidedBy"].as_i64().unwrap();
        assert!(winner == admin_id || winner == finance_b_id);
        for (who, (http, v)) in answers {
            let code = v["status"].as_i64().unwrap();
            if who == winner {
                assert_eq!((http, code, v["result"]["status"].as_str()), (200, 0, Some("approved")), "{v}");
            } else {
                assert_eq!(code, 141, "{v}");
            }
        }
        // A manual adjustment is never reversed through the ledger's rollback, however asked.
        for n in 0..2 {
            let r = app
                .state
                .ledger
                .rollback(wallet::RollbackRequest {
                    original_key: format!("adjust-request:{rid}"),
                    rollback_key: format!("attacker-rollback-{n}"),
                    user_id: Some(player),
                    comment: "undo".into(),
                    metadata: json!({}),
                })
                .await;
            assert!(matches!(r, Err(wallet::LedgerError::NotReversible)), "{r:?}");
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

#[tokio::test]
async fn small_adjustments_split_or_sent_at_once_cannot_pass_the_four_eyes_amount() {
    each_backend(async |app| {
        let (_, player, _) = app.player("split@example.tn").await;
        let (finance, _) = app.staff(Role::Finance, "fin-split@example.tn").await;
        let (admin, _) = app.staff(Role::Admin, "adm-split@example.tn").await;
        let body = |amount: &str, key: String| json!({ "userId": player, "kind": "real", "amount": amount, "reason": "split", "idempotencyKey": key });

        // Twenty adjustments of 100 TND at once (half of them by a second staff member): the
        // 24-hour window takes ten, the rest wait for a second pair of eyes.
        let calls = (0..20).map(|i| {
            let api = if i % 2 == 0 { &finance } else { &admin };
            let b = body("100", format!("split-{i}"));
            async move { ok(api.post(ADJUST, b).await) }
        });
        let replies = futures::future::join_all(calls).await;
        let done = replies.iter().filter(|r| r["status"] == "done").count();
        let pending = replies.iter().filter(|r| r["status"] == "pending").count();
        assert_eq!((done, pending), (10, 10));
        assert_eq!(app.minor_balance(player, BalanceKind::Real).await, 1_000 * TND);

        // A debit counts as much as a credit; a retry of a posted key stays the same posting.
        let r = ok(finance.post(ADJUST, body("-0.001", "split-more".into())).await);
        assert_eq!(r["status"], "pending");
        let first_done = (0..20).find(|i| replies[*i]["status"] == "done").unwrap();
        let api = if first_done % 2 == 0 { &finance } else { &admin };
        let again = ok(api.post(ADJUST, body("100", format!("split-{first_done}"))).await);
        assert_eq!((again["status"].as_str(), again["replayed"].as_bool()), (Some("done"), Some(true)));
        // A key that moved money directly cannot be reused for a request, and the reverse.
        fail(finance.post(ADJUST, body("5000", format!("split-{first_done}"))).await, 409, 26);
        fail(finance.post(ADJUST, body("1", "split-more".into())).await, 409, 26);
        assert_eq!(app.minor_balance(player, BalanceKind::Real).await, 1_000 * TND);
        assert_eq!(app.count(&format!("adjust_requests WHERE user_id = {player} AND status = 'pending'")).await, 11);
        app.assert_ledger_consistent().await;
    })
    .await;
}
