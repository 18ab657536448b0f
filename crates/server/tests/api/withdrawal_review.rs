//! The withdrawal queue (issue 22; payments::review, api/withdrawals.rs): above the review
//! amount a withdrawal is held and waits — the provider hears nothing, the jobs leave it — until
//! staff approve it (it goes to the provider) or reject it (the hold returns); two decisions
//! raced: one wins, the other gets 141; each decision is audited.

use crate::common::*;
use accounts::Role;
use serde_json::{json, Value};
use wallet::BalanceKind;

const TND: i64 = 1000;

async fn withdraw(api: &Api, amount: i64) -> Value {
    let t = ok(api.post("/api/payment/token", json!({})).await)["token"].as_str().unwrap().to_string();
    ok(api.post("/api/payment/withdrawal", json!({ "amount": amount, "phone_number": "+216 50 123 456", "sessionToken": t })).await)
}

#[tokio::test]
async fn a_large_withdrawal_waits_held_for_staff_who_approve_or_reject_it_once() {
    each_backend_with(
        |c| c.payments.withdrawal_review_above = Some(100),
        async |app| {
            let (player, user, _) = app.player("review@example.tn").await;
            app.credit(user, BalanceKind::Real, 2_000 * TND).await;
            let (finance, finance_id) = app.staff(Role::Finance, "fin-review@example.tn").await;
            let (admin, _) = app.staff(Role::Admin, "adm-review@example.tn").await;
            let (support, _) = app.staff(Role::Support, "sup-review@example.tn").await;
            let at_provider = async || app.count("sandbox_payments WHERE kind = 'withdrawal'").await;

            // At or under the amount: straight to the provider.
            assert_eq!(withdraw(&player, 100).await["status"], "pending");
            assert_eq!(at_provider().await, 1);
            // Above: held at once, the provider hears nothing, the jobs leave it waiting.
            let big = withdraw(&player, 300).await;
            assert_eq!(big["status"], "review", "{big}");
            let id = big["id"].as_i64().unwrap();
            assert_eq!(app.minor_balance(user, BalanceKind::Real).await, 1_600 * TND, "held");
            app.state.payments.reconcile_once(0).await.unwrap();
            app.state.payments.repair_once(0).await.unwrap();
            app.state.payments.expire_once().await.unwrap();
            assert_eq!(ok(player.get(&format!("/api/payment/intent/{id}")).await)["status"], "review");
            assert_eq!(at_provider().await, 1, "the provider still heard nothing");

            // The queue, with the signals; support and players have no business there.
            let queue = ok(finance.get("/api/admin/payments/withdrawals").await);
            assert_eq!(queue.as_array().unwrap().len(), 1, "{queue}");
            let row = &queue[0];
            assert_eq!((row["id"].as_i64(), row["amount"].as_f64(), row["player"].as_str()), (Some(id), Some(300.0), Some("review@example.tn")));
            assert_eq!((row["signals"]["withdrawals24h"].as_i64(), row["signals"]["accountAgeDays"].as_i64()), (Some(2), Some(0)));
            assert_eq!(row["signals"]["openBonus"], false);
            fail(support.get("/api/admin/payments/withdrawals").await, 403, 24);
            fail(player.get("/api/admin/payments/withdrawals").await, 403, 24);
            fail(finance.get("/api/admin/payments/withdrawals?status=nonsense").await, 200, 47);
            fail(finance.post("/api/admin/payments/withdrawals/424242/approve", json!({})).await, 200, 85);

            // Twenty approvals raced (finance and the admin): one sends it to the provider, the
            // others get 141.
            let path = format!("/api/admin/payments/withdrawals/{id}/approve");
            let replies = futures::future::join_all((0..20).map(|i| if i % 2 == 0 { &finance } else { &admin }).map(|c| c.post(&path, json!({})))).await;
            let codes: Vec<i64> = replies.iter().map(|r| r.1["status"].as_i64().unwrap()).collect();
            assert_eq!(codes.iter().filter(|c| **c == 0).count(), 1, "{codes:?}");
            assert!(codes.iter().all(|c| [0, 141].contains(c)), "{codes:?}");
            let approved = replies[codes.iter().position(|c| *c == 0).unwrap()].1["result"].clone();
            assert_eq!(approved["status"], "pending", "{approved}");
            assert_eq!(at_provider().await, 2, "one payout asked");
            fail(finance.post(&format!("/api/admin/payments/withdrawals/{id}/reject"), json!({ "reason": "late" })).await, 200, 141);

            // Rejected with a reason: the hold returns, the player reads why; decided once.
            let second = withdraw(&player, 250).await["id"].as_i64().unwrap();
            assert_eq!(app.minor_balance(user, BalanceKind::Real).await, 1_350 * TND);
            let reject = format!("/api/admin/payments/withdrawals/{second}/reject");
            fail(finance.post(&reject, json!({ "reason": " " })).await, 200, 47);
            let r = ok(finance.post(&reject, json!({ "reason": "Identity documents needed" })).await);
            assert_eq!((r["status"].as_str(), r["failureReason"].as_str()), (Some("failed"), Some("Identity documents needed")));
            assert_eq!(app.minor_balance(user, BalanceKind::Real).await, 1_600 * TND, "the hold returned");
            fail(finance.post(&reject, json!({ "reason": "again" })).await, 200, 141);
            fail(admin.post(&format!("/api/admin/payments/withdrawals/{second}/approve"), json!({})).await, 200, 141);
            assert_eq!(at_provider().await, 2);

            // The player withdraws one while it waits: cancelled, the hold returns.
            let third = withdraw(&player, 150).await["id"].as_i64().unwrap();
            app.state.payments.cancel(user, third).await.unwrap();
            assert_eq!(app.minor_balance(user, BalanceKind::Real).await, 1_600 * TND);
            fail(finance.post(&format!("/api/admin/payments/withdrawals/{third}/approve"), json!({})).await, 200, 141);

            // An approval and a rejection raced: exactly one decides, and the money agrees.
            let fourth = withdraw(&player, 400).await["id"].as_i64().unwrap();
            let (approve, reject) = (format!("/api/admin/payments/withdrawals/{fourth}/approve"), format!("/api/admin/payments/withdrawals/{fourth}/reject"));
            let (a, r) = tokio::join!(finance.post(&approve, json!({})), admin.post(&reject, json!({ "reason": "raced" })));
            let (approve_code, reject_code) = (a.1["status"].as_i64().unwrap(), r.1["status"].as_i64().unwrap());
            assert!(matches!((approve_code, reject_code), (0, 141) | (141, 0)), "{a:?} {r:?}");
            let balance = app.minor_balance(user, BalanceKind::Real).await;
            if approve_code == 0 {
                assert_eq!((balance, at_provider().await), (1_200 * TND, 3));
            } else {
                assert_eq!((balance, at_provider().await), (1_600 * TND, 2));
            }

            // The trail: who decided what.
            let trail = async |action: &str| app.count(&format!("audit_log WHERE action = '{action}'")).await;
            assert_eq!(trail("payment.withdrawal.approve").await + trail("payment.withdrawal.reject").await, 3);
            assert_eq!(app.count(&format!("audit_log WHERE action = 'payment.withdrawal.reject' AND subject = 'payment:{second}' AND actor = 'finance:{finance_id}'")).await, 1);
            assert!(ok(finance.get("/api/admin/payments/withdrawals").await).as_array().unwrap().is_empty(), "the queue is empty");
            app.assert_ledger_consistent().await;
        },
    )
    .await;
}

#[tokio::test]
async fn withdrawals_are_decided_in_bulk_each_on_its_own() {
    each_backend_with(
        |c| c.payments.withdrawal_review_above = Some(100),
        async |app| {
            let (player, user, _) = app.player("review-bulk@example.tn").await;
            app.credit(user, BalanceKind::Real, 2_000 * TND).await;
            let (finance, _) = app.staff(Role::Finance, "fin-bulk@example.tn").await;
            let mut ids = Vec::new();
            for amount in [200, 300, 400, 500] {
                ids.push(withdraw(&player, amount).await["id"].as_i64().unwrap());
            }
            assert_eq!(app.minor_balance(user, BalanceKind::Real).await, 600 * TND);
            let decide = "/api/admin/payments/withdrawals/decide";
            // Refused as a whole, nothing decided: no ids, too many, no reason to reject, an unknown decision.
            fail(finance.post(decide, json!({ "ids": [], "decision": "approve" })).await, 200, 47);
            fail(finance.post(decide, json!({ "ids": (1..=101).collect::<Vec<i64>>(), "decision": "approve" })).await, 200, 47);
            fail(finance.post(decide, json!({ "ids": [ids[0]], "decision": "reject" })).await, 200, 47);
            fail(finance.post(decide, json!({ "ids": [ids[0]], "decision": "maybe" })).await, 200, 47);
            assert_eq!(ok(finance.get("/api/admin/payments/withdrawals").await).as_array().unwrap().len(), 4);

            // Two rejected (one named twice), then three approved of which one was decided
            // already and one does not exist: each answers for itself.
            let rejected = ok(finance.post(decide, json!({ "ids": [ids[0], ids[1], ids[0]], "decision": "reject", "reason": "Duplicate requests" })).await);
            let statuses = |v: &Value| v.as_array().unwrap().iter().map(|o| (o["id"].as_i64().unwrap(), o["status"].as_i64().unwrap())).collect::<Vec<_>>();
            let mut want = vec![(ids[0], 0), (ids[1], 0)];
            want.sort();
            assert_eq!(statuses(&rejected), want);
            assert_eq!(rejected[0]["withdrawal"]["status"], "failed");
            assert_eq!(app.minor_balance(user, BalanceKind::Real).await, 1_100 * TND, "both holds returned");
            let approved = ok(finance.post(decide, json!({ "ids": [ids[1], ids[2], ids[3], 999_999], "decision": "approve" })).await);
            let mut want = vec![(ids[1], 141), (ids[2], 0), (ids[3], 0), (999_999, 85)];
            want.sort();
            assert_eq!(statuses(&approved), want);
            assert!(ok(finance.get("/api/admin/payments/withdrawals").await).as_array().unwrap().is_empty());
            assert_eq!(app.count("sandbox_payments WHERE kind = 'withdrawal'").await, 2, "the approved two went to the provider");
            assert_eq!(app.count("audit_log WHERE action LIKE 'payment.withdrawal.%'").await, 4);
            app.assert_ledger_consistent().await;
        },
    )
    .await;
}
