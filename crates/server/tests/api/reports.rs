//! The console's reports (`GET /api/admin/reports`; docs/BACKOFFICE.md "Reports") over real
//! play: a provider's bets, wins and a rollback through the signed seamless wallet. The
//! figures are the test's own sums; the CSV says the same.

use crate::common::*;
use crate::provider_wallet::{call, demo_session, money, rollback};
use accounts::Role;
use serde_json::Value;

fn today() -> String {
    kernel::clock::date_of_day(wallet::rollup::day_of(now_ms()))
}

/// The report's row for the demo provider's game.
fn demo_row(rows: &Value) -> &Value {
    rows.as_array().unwrap().iter().find(|r| r["provider"] == "demo").unwrap_or_else(|| panic!("no demo row: {rows}"))
}

#[tokio::test]
async fn ggr_by_day_provider_and_game_as_json_and_csv() {
    each_backend(async |app| {
        let (admin, _) = app.staff(Role::Admin, "rep-admin@example.tn").await;
        let (finance, _) = app.staff(Role::Finance, "rep-finance@example.tn").await;
        let (_, _, a) = demo_session(app, "rep1@example.com", 10_000).await;
        let (_, _, b) = demo_session(app, "rep2@example.com", 10_000).await;
        // Player 1: 2.500 staked, 6.000 won; 1.000 staked and rolled back (twice asked).
        ok(call(app, "bet", &money(&a, "b-1", "r-1", 2_500)).await);
        ok(call(app, "win", &money(&a, "w-1", "r-1", 6_000)).await);
        ok(call(app, "bet", &money(&a, "b-2", "r-2", 1_000)).await);
        ok(call(app, "rollback", &rollback(&a, "rb-2", "b-2")).await);
        ok(call(app, "rollback", &rollback(&a, "rb-2b", "b-2")).await);
        // Player 2: 0.500 staked and lost; the same bet replayed.
        ok(call(app, "bet", &money(&b, "b-3", "r-3", 500)).await);
        ok(call(app, "bet", &money(&b, "b-3", "r-3", 500)).await);
        app.assert_ledger_consistent().await;

        let day = today();
        let path = format!("/api/admin/reports?from={day}&to={day}&currency=TND");
        let by_day = ok(admin.get(&path).await);
        let row = &by_day["rows"][0];
        assert_eq!(row["date"], day.as_str());
        assert_eq!((row["bets"].as_i64(), row["activePlayers"].as_i64()), (Some(2), Some(2)), "{row}");
        for (field, want) in [("stakes", 3.0), ("wins", 6.0), ("ggr", -3.0), ("ngr", -3.0), ("bonusCost", 0.0)] {
            assert_eq!(num(&row[field]), want, "{field}: {row}");
        }
        assert_eq!(num(&by_day["totals"][0]["ggr"]), -3.0);
        // Amounts are exact numbers with the currency's three decimals, as written.
        let raw = admin.send(reqwest::Method::GET, &path, None).await.text;
        assert!(raw.contains("\"stakes\":3.000,") && raw.contains("\"ggr\":-3.000,"), "{raw}");

        // A week by day: every day there, zero where nothing happened.
        let from = kernel::clock::date_of_day(wallet::rollup::day_of(now_ms()) - 6);
        let week = ok(finance.get(&format!("/api/admin/reports?from={from}&to={day}")).await);
        let rows = week["rows"].as_array().unwrap();
        assert_eq!(rows.len(), 7, "{week}");
        assert!(rows[..6].iter().all(|r| r["bets"] == 0 && num(&r["ggr"]) == 0.0));
        assert_eq!(num(&rows[6]["stakes"]), 3.0);

        let by_game = ok(admin.get(&format!("/api/admin/reports?from={day}&to={day}&by=game")).await);
        let g = demo_row(&by_game["rows"]);
        assert_eq!((g["product"].as_str(), g["game"].as_str(), num(&g["stakes"])), (Some("casino"), Some("demo-table"), 3.0));

        // The CSV: a file with the same figures.
        let r = admin.send(reqwest::Method::GET, &format!("/api/admin/reports?from={day}&to={day}&by=provider&format=csv"), None).await;
        assert_eq!(r.status, 200);
        assert!(r.header("content-type").unwrap_or_default().starts_with("text/csv"));
        assert!(r.header("content-disposition").unwrap_or_default().contains(&format!("carthage-report-provider-{day}-{day}.csv")));
        let lines: Vec<&str> = r.text.lines().collect();
        assert_eq!(lines[0], "product,provider,currency,bets,stakes,wins,ggr,bonus_cost,ngr,deposits,withdrawals");
        assert!(lines.contains(&"casino,demo,TND,2,3.000,6.000,-3.000,0.000,-3.000,0.000,0.000"), "{}", r.text);

        // Bad ranges, groupings, currencies and formats: 47, nothing else.
        for q in [
            format!("from={day}&to=2000-01-01"),
            format!("from=2000-01-01&to={day}"),
            format!("from={day}&to={day}&by=week"),
            format!("from={day}&to={day}&currency=XYZ"),
            format!("from={day}&to={day}&format=xml"),
            format!("from=28/11/2026&to={day}"),
        ] {
            fail(admin.get(&format!("/api/admin/reports?{q}")).await, 200, 47);
        }
        let missing = admin.get("/api/admin/reports").await;
        assert!(missing.0 < 500 && missing.1["status"].as_i64().unwrap_or(0) != 0, "{missing:?}");
    })
    .await;
}
