//! Weekly cashback and the coupon machine (issue 19): the tiers and the cap on real-money net
//! losses, a net winner paid nothing, the payer run twice, at once, and killed midway paying
//! everyone exactly once; a coupon at 500 spins (not 499), one a day; a draw anyone can verify.

use crate::common::*;
use promotions::periods::{self, Week};
use serde_json::json;
use wallet::{AccountRef, BalanceKind, HouseAccount, PostingRequest, RollbackRequest, TxType};

const TND: i64 = 1000;
const DAY_MS: i64 = 86_400_000;

/// A stake (`kind` balance → house) or a return (house → real), posted now.
async fn post(app: &TestApp, tx_type: TxType, user: i64, kind: BalanceKind, minor: i64) -> String {
    let key = format!("t:{}", kernel::ids::next_id());
    let house = AccountRef::House(match tx_type {
        TxType::SportStake | TxType::SportPayout | TxType::SportResettle => HouseAccount::Sportsbook,
        _ => HouseAccount::Games,
    });
    let player = AccountRef::Player { user_id: user, kind };
    let (from, to) = if tx_type.is_stake() { (player, house) } else { (house, player) };
    let req = PostingRequest::transfer(tx_type, key.clone(), Some(user), kernel::Currency::Tnd, from, to, minor);
    app.state.ledger.post(req).await.expect("posting");
    key
}

/// Money a ledger-only player (no account row needed by the cashback) starts with.
async fn fund(app: &TestApp, user: i64, kind: BalanceKind, minor: i64) {
    let req = PostingRequest::transfer(
        TxType::ManualAdjustment,
        format!("fund:{}", kernel::ids::next_id()),
        Some(user),
        kernel::Currency::Tnd,
        AccountRef::House(kind.funding_house()),
        AccountRef::Player { user_id: user, kind },
        minor,
    );
    app.state.ledger.post(req).await.expect("fund");
}

/// Moves every posting so far into the week `weeks_ago` weeks back (its Tuesday), the week
/// the test pays: the background job only ever pays last week.
async fn move_to_week(app: &TestApp, weeks_ago: i64) -> Week {
    let tz = periods::zone(periods::DEFAULT_ZONE).unwrap();
    let week = periods::week_of((now_ms() - weeks_ago * 7 * DAY_MS) / 1000, &tz).unwrap();
    let shift = now_ms() + 60_000 - (week.start * 1000 + DAY_MS);
    app.sql(&format!("UPDATE ledger_transactions SET created_at = created_at - {shift} WHERE created_at > {}", now_ms() - 3_600_000)).await;
    app.sql(&format!("UPDATE ledger_entries SET created_at = created_at - {shift} WHERE created_at > {}", now_ms() - 3_600_000)).await;
    app.rollups_follow_history().await;
    week
}

async fn cashback(app: &TestApp, user: i64) -> i64 {
    app.state.ledger.balance(user, BalanceKind::Cashback, kernel::Currency::Tnd).await.unwrap()
}

/// Runs the payer until a run owned the job and finished (the background job may hold it).
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
async fn weekly_cashback_pays_the_tiers_of_real_money_net_losses_up_to_the_cap_once() {
    each_backend(async |app| {
        let base = 9_100_000 + kernel::ids::next_id() % 1_000 * 100;
        let (a, b, c, d, e, f, g, h) = (base + 1, base + 2, base + 3, base + 4, base + 5, base + 6, base + 7, base + 8);
        for u in [a, b, c, d, e, g] {
            fund(app, u, BalanceKind::Real, 2_000 * TND).await;
        }
        fund(app, f, BalanceKind::Real, 200_000 * TND).await;
        fund(app, h, BalanceKind::Bonus, 2_000 * TND).await;
        // a: loses 100 → 5 % = 5.
        post(app, TxType::BetStake, a, BalanceKind::Real, 60 * TND).await;
        post(app, TxType::BetStake, a, BalanceKind::Real, 40 * TND).await;
        // b: loses 600 over casino and partner sports → 6 % = 36.
        post(app, TxType::BetStake, b, BalanceKind::Real, 500 * TND).await;
        post(app, TxType::PartnerSportStake, b, BalanceKind::Real, 300 * TND).await;
        post(app, TxType::PartnerSportPayout, b, BalanceKind::Real, 200 * TND).await;
        // c: loses 9, below the first tier → nothing.
        post(app, TxType::BetStake, c, BalanceKind::Real, 9 * TND).await;
        // d: a net winner → nothing.
        post(app, TxType::BetStake, d, BalanceKind::Real, 100 * TND).await;
        post(app, TxType::BetWin, d, BalanceKind::Real, 300 * TND).await;
        // e: stakes 1 000, a stake of 400 rolled back → loses 600 → 36.
        post(app, TxType::BetStake, e, BalanceKind::Real, 600 * TND).await;
        let k = post(app, TxType::BetStake, e, BalanceKind::Real, 400 * TND).await;
        app.state
            .ledger
            .rollback(RollbackRequest { original_key: k, rollback_key: format!("rb:{e}"), user_id: Some(e), comment: String::new(), metadata: json!({}) })
            .await
            .expect("rollback");
        // f: loses 130 000 → 8 % = 10 400, capped at 10 000.
        post(app, TxType::BetStake, f, BalanceKind::Real, 130_000 * TND).await;
        // g: a sports bet of 200 paid 50, resettled by +10 → loses 140 → 7.
        post(app, TxType::SportStake, g, BalanceKind::Real, 200 * TND).await;
        post(app, TxType::SportPayout, g, BalanceKind::Real, 50 * TND).await;
        post(app, TxType::SportResettle, g, BalanceKind::Real, 10 * TND).await;
        // h: stakes bonus money only → nothing.
        post(app, TxType::SportStake, h, BalanceKind::Bonus, 1_000 * TND).await;

        // The current week accrues (the balance reply's weeklyCashback) without paying.
        app.state.promotions.accrue_current_week().await.unwrap();
        assert_eq!(app.state.promotions.weekly_accrued(a).await.unwrap(), 5 * TND);
        assert_eq!(app.state.promotions.weekly_accrued(f).await.unwrap(), 10_000 * TND);
        assert_eq!(app.state.promotions.weekly_accrued(d).await.unwrap(), 0);
        assert_eq!(cashback(app, a).await, 0, "accrued, not paid");
        // A week not over yet is refused.
        let current = app.state.promotions.current_week().unwrap();
        assert_eq!(app.state.promotions.pay_weekly_cashback(&current).await.unwrap_err().code.code(), 47);

        let week = move_to_week(app, 3).await;
        let runs = pay_until_finished(app, &week).await;
        let expected = [(a, 5 * TND), (b, 36 * TND), (c, 0), (d, 0), (e, 36 * TND), (f, 10_000 * TND), (g, 7 * TND), (h, 0)];
        for (u, want) in expected {
            assert_eq!(cashback(app, u).await, want, "[{:?}] player {}", app.backend, u - base);
        }
        let paid: i64 = runs.iter().map(|r| r.paid).sum();
        assert_eq!(paid, 5);
        // Again, through the admin endpoint: nothing more moves.
        let admin = app.console("admin@carthage.local", "Admin1234").await;
        let again = ok(admin.post("/api/admin/promotions/weekly-cashback", json!({ "week": week.key })).await);
        assert_eq!((again["paid"].as_i64(), again["finished"].as_bool()), (Some(0), Some(true)), "{again}");
        for (u, want) in expected {
            assert_eq!(cashback(app, u).await, want);
        }
        assert_eq!(app.count(&format!("ledger_transactions WHERE tx_type = {}", TxType::WeeklyCashbackPayout.code())).await, 5);
        fail(admin.post("/api/admin/promotions/weekly-cashback", json!({ "week": "2026-W99" })).await, 200, 47);
        let (player, _, _) = app.player("cashback@example.com").await;
        fail(player.post("/api/admin/promotions/weekly-cashback", json!({ "week": week.key })).await, 403, 24);
        app.assert_ledger_consistent().await;
    })
    .await;
}

#[tokio::test]
async fn weekly_cashback_killed_midway_or_run_at_once_pays_everyone_exactly_once() {
    each_backend(async |app| {
        let base = 9_200_000 + kernel::ids::next_id() % 1_000 * 100;
        let users: Vec<i64> = (1..=7).map(|i| base + i).collect();
        for (i, &u) in users.iter().enumerate() {
            fund(app, u, BalanceKind::Real, 1_000 * TND).await;
            post(app, TxType::BetStake, u, BalanceKind::Real, (100 + 100 * i as i64) * TND).await;
        }
        let rule = promotions::cashback::WeeklyRule::default();
        let want = |i: usize| rule.cashback((100 + 100 * i as i64) * TND, kernel::Currency::Tnd);
        let week = move_to_week(app, 4).await;
        // A run "killed" after two chunks of two payments.
        let p = &app.state.promotions;
        let mut partial = p.pay_weekly_cashback_chunks(&week, 2, Some(2)).await.unwrap();
        while partial.busy {
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            partial = p.pay_weekly_cashback_chunks(&week, 2, Some(2)).await.unwrap();
        }
        assert_eq!((partial.paid, partial.finished), (4, false));
        // The crash came between a posting and its mark: the row looks unpaid.
        app.sql(&format!("UPDATE weekly_cashback SET paid_at = NULL WHERE user_id = {}", users[3])).await;
        // Restarted: three runs at once, then until finished.
        let (r1, r2, r3) = tokio::join!(p.pay_weekly_cashback(&week), p.pay_weekly_cashback(&week), p.pay_weekly_cashback(&week));
        let mut runs = vec![r1.unwrap(), r2.unwrap(), r3.unwrap()];
        runs.extend(pay_until_finished(app, &week).await);
        let paid: i64 = runs.iter().map(|r| r.paid).sum();
        let replayed: i64 = runs.iter().map(|r| r.replayed).sum();
        assert_eq!((paid, replayed), (3, 1), "{runs:?}");
        assert!(runs.iter().filter(|r| !r.busy).count() >= 1);
        for (i, &u) in users.iter().enumerate() {
            assert_eq!(cashback(app, u).await, want(i), "player {i}");
        }
        assert_eq!(app.count(&format!("ledger_transactions WHERE tx_type = {}", TxType::WeeklyCashbackPayout.code())).await, 7);
        assert_eq!(app.count(&format!("weekly_cashback WHERE period = '{}' AND paid_at IS NULL", week.key)).await, 0);
        app.assert_ledger_consistent().await;
    })
    .await;
}

#[tokio::test]
async fn a_coupon_at_500_spins_a_day_and_a_draw_anyone_can_verify() {
    each_backend(async |app| {
        let (player, user, _) = app.player("coupons@example.com").await;
        app.credit(user, BalanceKind::Real, 10_000 * TND).await;
        let spins = |n: usize| {
            (0..n)
                .map(|_| {
                    PostingRequest::transfer(
                        TxType::BetStake,
                        format!("spin:{}", kernel::ids::next_id()),
                        Some(user),
                        kernel::Currency::Tnd,
                        AccountRef::Player { user_id: user, kind: BalanceKind::Real },
                        AccountRef::House(HouseAccount::Games),
                        TND,
                    )
                })
                .collect::<Vec<_>>()
        };
        for r in app.state.ledger.post_many(spins(499)).await {
            r.expect("spin");
        }
        let m = ok(player.get("/api/user/coupon-machine").await);
        assert_eq!(keys(&m), vec!["list", "main", "total"]);
        assert_eq!(keys(&m["main"]), vec!["activatedDate", "id", "number", "todayTotalBetsCount", "todayTotalBetsLimit"]);
        assert_eq!((m["total"].as_i64(), m["main"]["todayTotalBetsCount"].as_i64(), m["main"]["todayTotalBetsLimit"].as_i64()), (Some(0), Some(499), Some(500)));
        assert_eq!(m["list"], json!([]));
        for r in app.state.ledger.post_many(spins(1)).await {
            r.expect("spin");
        }
        let m = ok(player.get("/api/user/coupon-machine").await);
        assert_eq!((m["total"].as_i64(), m["main"]["todayTotalBetsCount"].as_i64()), (Some(1), Some(500)));
        let coupon = &m["list"][0];
        assert_eq!(keys(coupon), vec!["id", "issuedAt", "mainCouponId", "number"]);
        assert_eq!(coupon["mainCouponId"], m["main"]["id"]);
        assert_eq!(coupon["number"].as_str().unwrap().len(), 8);
        // More spins, more reads, the hourly pass: still one coupon today.
        for r in app.state.ledger.post_many(spins(600)).await {
            r.expect("spin");
        }
        let (x, y) = tokio::join!(player.get("/api/user/coupon-machine"), player.get("/api/user/coupon-machine"));
        assert_eq!((ok(x)["total"].as_i64(), ok(y)["total"].as_i64()), (Some(1), Some(1)));
        app.state.promotions.issue_coupons_pass().await.unwrap();
        assert_eq!(app.count(&format!("coupons WHERE user_id = {user}")).await, 1);
        fail(app.bare_client().get("/api/user/coupon-machine").await, 401, 23);

        // A player who never opens the machine gets theirs from the hourly pass, once.
        let (_, other, _) = app.player("coupons2@example.com").await;
        app.credit(other, BalanceKind::Real, 1_000 * TND).await;
        let reqs: Vec<_> = spins(500)
            .into_iter()
            .map(|mut r| {
                r.user_id = Some(other);
                r.legs[0].account = AccountRef::Player { user_id: other, kind: BalanceKind::Real };
                r
            })
            .collect();
        for r in app.state.ledger.post_many(reqs).await {
            r.expect("spin");
        }
        assert_eq!(app.state.promotions.issue_coupons_pass().await.unwrap(), 1);
        assert_eq!(app.state.promotions.issue_coupons_pass().await.unwrap(), 0);

        // The draw: the seed's hash first, the seed and winners after; anyone recomputes them.
        let admin = app.console("admin@carthage.local", "Admin1234").await;
        let announced = ok(admin.post("/api/admin/promotions/coupon-draws", json!({ "id": "week-48", "winners": 1 })).await);
        let hash = announced["seedHash"].as_str().unwrap().to_string();
        assert_eq!(announced["seed"], json!(null));
        let public = ok(app.bare_client().get("/api/promotions/coupon-draws/week-48").await);
        assert_eq!((public["seedHash"].as_str(), public["seed"].clone()), (Some(hash.as_str()), json!(null)));
        fail(admin.post("/api/admin/promotions/coupon-draws", json!({ "id": "week-48", "winners": 2 })).await, 200, 47);
        fail(admin.post("/api/admin/promotions/coupon-draws", json!({ "id": "bad id!", "winners": 2 })).await, 200, 47);
        fail(player.post("/api/admin/promotions/coupon-draws/week-48/draw", json!({})).await, 403, 24);
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        let drawn = ok(admin.post("/api/admin/promotions/coupon-draws/week-48/draw", json!({})).await);
        let again = ok(app.bare_client().get("/api/promotions/coupon-draws/week-48").await);
        assert_eq!(drawn, again, "a drawn draw answers the same result");
        let seed_hex = again["seed"].as_str().unwrap();
        assert_eq!(sha256_hex_bytes(seed_hex), hash, "the revealed seed is the one announced");
        let numbers: Vec<String> = again["coupons"].as_array().unwrap().iter().map(|n| n.as_str().unwrap().to_string()).collect();
        assert_eq!(numbers.len(), 2, "both coupons were issued before the announcement");
        let seed = studio::fair::parse_hex32(seed_hex).unwrap();
        let recomputed = promotions::coupons::draw(&seed, numbers.iter().map(String::as_str), 1);
        assert_eq!(json!(recomputed), again["winners"]);
        fail(app.bare_client().get("/api/promotions/coupon-draws/nope").await, 404, 43);
    })
    .await;
}

/// SHA-256 (hex) of the bytes a hex string encodes.
fn sha256_hex_bytes(hex_text: &str) -> String {
    let bytes = hex::decode(hex_text).expect("hex");
    studio::fair::hex32(&studio::fair::sha256(&bytes))
}

fn keys(v: &serde_json::Value) -> Vec<String> {
    let mut k: Vec<String> = v.as_object().expect("object").keys().cloned().collect();
    k.sort();
    k
}

/// The balance reply's promotions (spec §3): free bets by state, the pools, the player's unshown
/// drops until `jackpot_is_shown`, and this week's accrued cashback — another player sees none
/// of them, and an expired free bet is not offered.
#[tokio::test]
async fn the_balance_reply_carries_free_bets_pools_unshown_drops_and_accrued_cashback() {
    each_backend(async |app| {
        let (api, user, _) = app.player("balance-promos@example.com").await;
        let (other, other_id, _) = app.player("balance-promos-other@example.com").await;
        let b = ok(api.get("/api/user/balance").await);
        assert_eq!((b["freeBets"].clone(), b["wonJackpots"].clone(), b["weeklyCashback"].as_f64()), (json!({"active": [], "inactive": []}), json!([]), Some(0.0)), "{b}");
        let pools: Vec<(&str, &str)> = b["jackpots"].as_array().unwrap().iter().map(|p| (p["name"].as_str().unwrap(), p["pool"].as_str().unwrap())).collect();
        assert_eq!(pools, [("Mega", "mega"), ("Medium", "medium"), ("Small", "small")]);
        assert!(b["jackpots"][2]["amount"].as_f64().unwrap() >= 100.0 && b["jackpots"][2]["image"].as_str().unwrap().ends_with("small.svg"), "{b}");

        // A free bet granted shows inactive; an expired one is not offered; activated it is active.
        ok(api.post("/api/payment/promocode/activation", json!({ "code": "FREEBET" })).await);
        app.state.promotions.grant_free_bets(user, kernel::Currency::Tnd, 50 * TND, 1, &format!("old:{user}")).await.unwrap();
        app.sql(&format!("UPDATE free_bets SET expires_at = 1 WHERE source_key = 'old:{user}:0'")).await;
        let b = ok(api.get("/api/user/balance").await);
        let inactive = b["freeBets"]["inactive"].as_array().unwrap();
        assert_eq!((inactive.len(), inactive[0]["amount"].as_f64(), inactive[0]["status"].as_str(), inactive[0]["minOdds"].as_f64()), (1, Some(10.0), Some("inactive"), Some(2.2)), "{b}");
        assert_eq!(b["freeBets"]["active"], json!([]));
        ok(api.post("/api/user/activate-free-bets", json!({})).await);
        let b = ok(api.get("/api/user/balance").await);
        assert_eq!((b["freeBets"]["inactive"].as_array().unwrap().len(), b["freeBets"]["active"].as_array().unwrap().len()), (0, 1), "{b}");
        assert_eq!((b["freeBets"]["active"][0]["status"].as_str(), b["freeBetBalance"].as_f64()), (Some("active"), Some(10.0)));

        // A forced drop of `small`, won by the player's next spin: in wonJackpots until shown.
        app.credit(user, BalanceKind::Real, 300 * TND).await;
        let admin = app.console("admin@carthage.local", "Admin1234").await;
        ok(admin.post("/api/admin/jackpots/small/force-drop", json!({})).await);
        let launch = ok(api.post("/api/casino/session", json!({"provider": "studio", "gameId": "desert-gold", "lang": "en", "platform": "mobile"})).await);
        let token = launch["sessionToken"].as_str().unwrap().to_string();
        let c = app.bare_client();
        let spin = ok(c.exec(c.req(reqwest::Method::POST, "/api/studio/slots/spin").header("x-game-session", token.as_str()).json(&json!({ "bet": 1_000 }))).await.pair());
        // What the spin returned (random: a line win can be many times the stake).
        let slot_win = spin["win"].as_i64().unwrap();
        let mut b = serde_json::Value::Null;
        for _ in 0..50 {
            b = ok(api.get("/api/user/balance").await);
            if !b["wonJackpots"].as_array().unwrap().is_empty() {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        let won = b["wonJackpots"].as_array().unwrap();
        assert_eq!(won.len(), 1, "{b}");
        assert_eq!((won[0]["pool"].as_str(), won[0]["name"].as_str(), won[0]["currency"].as_str()), (Some("small"), Some("Small"), Some("TND")), "{b}");
        let data = ok(api.get("/api/user/jackpot_data").await);
        assert_eq!((won[0]["id"].clone(), won[0]["amount"].as_f64()), (data["wonJackpots"][0]["id"].clone(), data["wonJackpots"][0]["amount"].as_f64()));
        // The drop began a new cycle: the pool shows its new amount, not the old one.
        let small = b["jackpots"][2]["amount"].as_f64().unwrap();
        assert!(small < won[0]["amount"].as_f64().unwrap() || won[0]["amount"].as_f64().unwrap() < 100.01, "{b}");
        let ob = ok(other.get("/api/user/balance").await);
        assert_eq!((ob["wonJackpots"].clone(), ob["freeBets"].clone()), (json!([]), json!({"active": [], "inactive": []})), "another player's: {ob}");
        // Another player cannot close it; the winner does, and it is gone from the reply.
        fail(other.post("/api/user/jackpot_is_shown", json!({ "JackpotId": won[0]["id"] })).await, 404, 43);
        assert_eq!(ok(api.get("/api/user/balance").await)["wonJackpots"].as_array().unwrap().len(), 1);
        ok(api.post("/api/user/jackpot_is_shown", json!({ "JackpotId": won[0]["id"] })).await);
        assert_eq!(ok(api.get("/api/user/balance").await)["wonJackpots"], json!([]));

        // Weekly cashback: the accrued amount of the current week, nothing for the other player.
        post(app, TxType::BetStake, user, BalanceKind::Real, 200 * TND).await;
        app.state.promotions.accrue_current_week().await.unwrap();
        let accrued = app.state.promotions.weekly_accrued(user).await.unwrap();
        // The week's net loss: the 1 TND spin and the 200 TND stake, less the spin's win (the
        // jackpot is not a bet's return), at the rule's tier.
        let loss = promotions::cashback::net_loss(201 * TND, slot_win);
        let expected = promotions::cashback::WeeklyRule::default().cashback(loss, kernel::Currency::Tnd);
        assert_eq!(accrued, expected, "net loss {loss} (slot win {slot_win})");
        assert!(loss < 10 * TND || accrued > 0);
        let b = ok(api.get("/api/user/balance").await);
        assert_eq!(((b["weeklyCashback"].as_f64().unwrap() * 1000.0).round() as i64, b["cashbackBalance"].as_f64()), (accrued, Some(0.0)), "{b}");
        assert_eq!(ok(other.get("/api/user/balance").await)["weeklyCashback"].as_f64(), Some(0.0));
        let _ = other_id;
        // The promotion page's terms come from the payer's rule, for anyone.
        let rule = ok(app.client().get("/api/promotions/weekly-cashback").await);
        assert_eq!(rule["tiers"], json!([{"from": 10, "bps": 500}, {"from": 500, "bps": 600}, {"from": 2000, "bps": 700}, {"from": 5000, "bps": 800}]));
        assert_eq!((rule["cap"].as_i64(), rule["zone"].as_str(), rule["minTransfer"].as_i64()), (Some(10_000), Some("Africa/Tunis"), Some(10)));
        let week = app.state.promotions.current_week().unwrap();
        assert_eq!((rule["week"].as_str(), rule["paysAt"].as_i64()), (Some(week.key.as_str()), Some(week.end * 1000)));
        // The cashback page's history: the cashback purse only; a wrong purse is a bad request.
        let paid = PostingRequest::transfer(TxType::WeeklyCashbackPayout, format!("wcb:test:{user}"), Some(user), kernel::Currency::Tnd,
            AccountRef::House(HouseAccount::Cashback), AccountRef::Player { user_id: user, kind: BalanceKind::Cashback }, 12 * TND);
        app.state.ledger.post(paid).await.expect("payout");
        let rows = ok(api.get("/api/user/transactions?purse=cashback").await);
        let modes: Vec<i64> = rows.as_array().unwrap().iter().map(|r| r["payment_mode"].as_i64().unwrap()).collect();
        assert_eq!(modes, [TxType::WeeklyCashbackPayout.code()], "{rows}");
        assert_eq!(rows[0]["purse"].as_str(), Some("cashback"));
        assert!(ok(api.get("/api/user/transactions").await).as_array().unwrap().len() > 3);
        fail(api.get("/api/user/transactions?purse=gold").await, 400, 40);
        app.assert_ledger_consistent().await;
    })
    .await;
}
