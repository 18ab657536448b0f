//! Promotions that pay operators' networks and draw winners (issue 19): super-agent cashback
//! (10 % of the network's net loss of a week, paid once by the weekly job run twice, at once
//! and after a crash between a posting and its mark) and coupon-draw prizes (each winner paid
//! once when the draw runs twice or at once).

use crate::common::*;
use promotions::periods::{self, Week};
use serde_json::json;
use wallet::{AccountRef, BalanceKind, HouseAccount, PostingRequest, TxType};

const TND: i64 = 1000;
const DAY_MS: i64 = 86_400_000;

/// A stake (real → house) or a return (house → real), posted now.
async fn post(app: &TestApp, tx_type: TxType, user: i64, minor: i64) {
    let player = AccountRef::Player { user_id: user, kind: BalanceKind::Real };
    let house = AccountRef::House(HouseAccount::Games);
    let (from, to) = if tx_type.is_stake() { (player, house) } else { (house, player) };
    let req = PostingRequest::transfer(tx_type, format!("t:{}", kernel::ids::next_id()), Some(user), kernel::Currency::Tnd, from, to, minor);
    app.state.ledger.post(req).await.expect("posting");
}

/// Moves every posting of the last hour into the week `weeks_ago` weeks back (its Tuesday).
async fn move_to_week(app: &TestApp, weeks_ago: i64) -> Week {
    let tz = periods::zone(periods::DEFAULT_ZONE).unwrap();
    let week = periods::week_of((now_ms() - weeks_ago * 7 * DAY_MS) / 1000, &tz).unwrap();
    let shift = now_ms() + 60_000 - (week.start * 1000 + DAY_MS);
    app.sql(&format!("UPDATE ledger_transactions SET created_at = created_at - {shift} WHERE created_at > {}", now_ms() - 3_600_000)).await;
    app.sql(&format!("UPDATE ledger_entries SET created_at = created_at - {shift} WHERE created_at > {}", now_ms() - 3_600_000)).await;
    app.rollups_follow_history().await;
    week
}

fn now_ms() -> i64 {
    kernel::clock::now_ms()
}

async fn pay_until_finished(app: &TestApp, week: &Week) -> Vec<promotions::service::CashbackRun> {
    let mut runs = Vec::new();
    for _ in 0..100 {
        let run = app.state.promotions.pay_weekly_cashback(week).await.expect("run");
        let finished = run.finished;
        runs.push(run);
        if finished {
            return runs;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("the payer never finished: {runs:?}");
}

#[tokio::test]
async fn a_super_agent_earns_10_percent_of_its_networks_net_loss_once_a_week() {
    each_backend(async |app| {
        let (_, agent, _) = app.player("agent@example.com").await;
        let (_, cashier, _) = app.player("cashier@example.com").await;
        let (_, other_agent, _) = app.player("agent2@example.com").await;
        app.sql(&format!("UPDATE users SET role = 3 WHERE id IN ({agent}, {other_agent})")).await;
        app.sql(&format!("UPDATE users SET role = 2, parent_super_agent_id = {agent} WHERE id = {cashier}")).await;
        // The network: a player of its cashier, a player of the agent itself, a winner among
        // them; outside it: a player of nobody and a player of another agent.
        let mut players = Vec::new();
        for name in ["via-cashier", "direct", "winner", "outside", "elsewhere"] {
            let (_, id, _) = app.player(&format!("{name}@example.com")).await;
            app.credit(id, BalanceKind::Real, 1_000 * TND).await;
            players.push(id);
        }
        let [via_cashier, direct, winner, outside, elsewhere] = players[..] else { unreachable!() };
        app.sql(&format!("UPDATE users SET parent_cashier_id = {cashier} WHERE id = {via_cashier}")).await;
        app.sql(&format!("UPDATE users SET parent_super_agent_id = {agent} WHERE id IN ({direct}, {winner})")).await;
        app.sql(&format!("UPDATE users SET parent_super_agent_id = {other_agent} WHERE id = {elsewhere}")).await;
        post(app, TxType::BetStake, via_cashier, 100 * TND).await;
        post(app, TxType::BetStake, direct, 50 * TND).await;
        post(app, TxType::BetStake, winner, 10 * TND).await;
        post(app, TxType::BetWin, winner, 40 * TND).await;
        post(app, TxType::BetStake, outside, 900 * TND).await;
        post(app, TxType::BetWin, elsewhere, 5 * TND).await;
        let week = move_to_week(app, 5).await;
        let p = &app.state.promotions;
        // Three runs at once, then until finished, then once more.
        let (r1, r2, r3) = tokio::join!(p.pay_weekly_cashback(&week), p.pay_weekly_cashback(&week), p.pay_weekly_cashback(&week));
        let mut runs = vec![r1.unwrap(), r2.unwrap(), r3.unwrap()];
        runs.extend(pay_until_finished(app, &week).await);
        // (100 + 50 + 10 − 40) × 10 % = 12 TND; the other agent's network only won.
        let cashback = |u: i64| async move { app.state.ledger.balance(u, BalanceKind::Cashback, kernel::Currency::Tnd).await.unwrap() };
        assert_eq!(cashback(agent).await, 12 * TND, "{runs:?}");
        assert_eq!(cashback(other_agent).await, 0);
        assert_eq!(cashback(cashier).await, 0);
        assert_eq!(runs.iter().map(|r| r.agents_paid).sum::<i64>(), 1);
        assert_eq!(runs.iter().map(|r| r.agents_amount).sum::<i64>(), 12 * TND);
        let key = format!("sacb:{}:{agent}", week.key);
        assert_eq!(app.count(&format!("ledger_transactions WHERE tx_type = {} AND idempotency_key = '{key}'", TxType::SuperAgentCashback.code())).await, 1);
        assert_eq!(app.count(&format!("ledger_transactions WHERE tx_type = {}", TxType::SuperAgentCashback.code())).await, 1);
        // A crash between the posting and its mark, and the week's run record lost: run again.
        app.sql(&format!("UPDATE super_agent_cashback SET paid_at = NULL WHERE agent_id = {agent}")).await;
        app.sql(&format!("UPDATE weekly_cashback_runs SET finished_at = NULL WHERE period = '{}'", week.key)).await;
        let again = pay_until_finished(app, &week).await;
        assert_eq!(again.iter().map(|r| r.agents_paid).sum::<i64>(), 0, "{again:?}");
        assert_eq!(cashback(agent).await, 12 * TND);
        assert_eq!(app.count(&format!("super_agent_cashback WHERE period = '{}' AND paid_at IS NULL AND amount > 0", week.key)).await, 0);
        app.assert_ledger_consistent().await;
    })
    .await;
}

#[tokio::test]
async fn coupon_draw_winners_are_paid_their_prize_once() {
    each_backend(async |app| {
        let admin = app.console("admin@carthage.local", "Admin1234").await;
        // Five players with a coupon each, issued before the announcement.
        let mut owners = Vec::new();
        for i in 0..5 {
            let (_, id, _) = app.player(&format!("coupon{i}@example.com")).await;
            app.sql(&format!(
                "INSERT INTO coupons (id, user_id, day, seq, number, main_id, spins, issued_at) VALUES ({}, {id}, '2026-11-01', {}, 'P{i:07}', 0, 500, {})",
                9_900_000 + i,
                9_900_000 + i,
                now_ms() - 60_000
            ))
            .await;
            owners.push(id);
        }
        for bad in [
            json!({ "amount": -5, "currency": "TND" }),
            json!({ "amount": 1.0001, "currency": "TND" }),
            json!({ "amount": 10, "currency": "XXX" }),
            json!({ "amount": 10, "currency": "TND", "kind": "bonus" }),
        ] {
            fail(admin.post("/api/admin/promotions/coupon-draws", json!({ "id": "prize-bad", "winners": 2, "prize": bad })).await, 200, 47);
        }
        let d = ok(admin.post("/api/admin/promotions/coupon-draws", json!({ "id": "prize-1", "winners": 2, "prize": { "amount": 25.5, "currency": "TND" } })).await);
        assert_eq!(d["prize"], json!({ "amount": 25.5, "currency": "TND", "kind": "real" }));
        fail(admin.post("/api/admin/promotions/coupon-draws", json!({ "id": "prize-1", "winners": 2, "prize": { "amount": 30, "currency": "TND" } })).await, 200, 47);
        fail(admin.post("/api/admin/promotions/coupon-draws", json!({ "id": "prize-1", "winners": 2 })).await, 200, 47);
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        let before: Vec<i64> = {
            let mut v = Vec::new();
            for &u in &owners {
                v.push(app.minor_balance(u, BalanceKind::Real).await);
            }
            v
        };
        // Run twice at once, then again through the API.
        let p = &app.state.promotions;
        let (x, y) = tokio::join!(p.run_coupon_draw("prize-1"), p.run_coupon_draw("prize-1"));
        let (x, y) = (x.unwrap(), y.unwrap());
        assert_eq!(x.winners, y.winners);
        let drawn = ok(admin.post("/api/admin/promotions/coupon-draws/prize-1/draw", json!({})).await);
        assert_eq!(drawn["prizesPaid"], json!(2));
        let winners: Vec<String> = drawn["winners"].as_array().unwrap().iter().map(|w| w.as_str().unwrap().to_string()).collect();
        assert_eq!(winners.len(), 2);
        for (i, &u) in owners.iter().enumerate() {
            let won = winners.contains(&format!("P{i:07}"));
            assert_eq!(app.minor_balance(u, BalanceKind::Real).await - before[i], if won { 25_500 } else { 0 }, "player {i}");
        }
        assert_eq!(app.count(&format!("ledger_transactions WHERE tx_type = {}", TxType::CouponPrize.code())).await, 2);
        // A draw without a prize pays nothing.
        ok(admin.post("/api/admin/promotions/coupon-draws", json!({ "id": "no-prize", "winners": 1 })).await);
        let none = ok(admin.post("/api/admin/promotions/coupon-draws/no-prize/draw", json!({})).await);
        assert_eq!((none["prize"].clone(), none["prizesPaid"].clone()), (json!(null), json!(0)));
        assert_eq!(app.count(&format!("ledger_transactions WHERE tx_type = {}", TxType::CouponPrize.code())).await, 2);
        assert_eq!(app.state.promotions.verify().await.unwrap(), Vec::<String>::new());
        app.assert_ledger_consistent().await;
    })
    .await;
}
