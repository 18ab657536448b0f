//! The report rollups (`wallet::rollup`) written in the postings' transactions: what a report
//! reads must equal what the ledger holds, whatever path a posting took (set-wise, one by
//! one, refused inside a batch, replayed, rolled back), on both databases.

use super::TND;
use futures::future::join_all;
use serde_json::json;
use store::testing::with_each_backend;
use wallet::rollup::{self, Figures, GroupBy, ReportQuery};
use wallet::*;

fn casino(tx_type: TxType, user: i64, amount: i64, key: &str, provider: &str, game: &str) -> PostingRequest {
    let player = AccountRef::Player { user_id: user, kind: BalanceKind::Real };
    let house = AccountRef::House(HouseAccount::Games);
    let (from, to) = if tx_type == TxType::BetStake { (player, house) } else { (house, player) };
    PostingRequest::transfer(tx_type, key, Some(user), TND, from, to, amount).metadata(json!({ "provider": provider, "gameId": game, "kind": "bet" }))
}

fn deposit(user: i64, amount: i64, key: &str) -> PostingRequest {
    PostingRequest::transfer(
        TxType::PaymentService,
        key,
        Some(user),
        TND,
        AccountRef::House(HouseAccount::Payments),
        AccountRef::Player { user_id: user, kind: BalanceKind::Real },
        amount,
    )
    .metadata(json!({ "provider": "flouci" }))
}

fn today() -> i64 {
    rollup::day_of(kernel::clock::now_ms())
}

async fn report(db: &store::Db, by: GroupBy) -> Vec<rollup::ReportRow> {
    rollup::report(db, &ReportQuery { from_day: today() - 1, to_day: today() + 1, currency: Some("TND".into()), by }).await.expect("report")
}

fn sum(rows: &[rollup::ReportRow]) -> Figures {
    rows.iter().map(|r| &r.figures).sum()
}

/// Forty players, concurrently: a deposit each, then stakes on two providers' games (some
/// beyond the balance: refused inside their batch), wins, replays of the same keys, and
/// rollbacks of some stakes (one of them asked twice under two keys). The report's figures
/// are the test's own sums of what the ledger accepted, by day, provider and game, and the
/// rollups agree with a recomputation from the ledger.
#[tokio::test]
async fn reports_equal_what_the_ledger_accepted_on_every_path() {
    with_each_backend(|db| async move {
        let ledger = Ledger::new(db.clone());
        let players: Vec<i64> = (1..=40).collect();
        join_all(players.iter().map(|&u| {
            let ledger = ledger.clone();
            async move {
                ledger.open_accounts(u, TND).await.unwrap();
                ledger.post(deposit(u, 10_000, &format!("dep:{u}"))).await.unwrap();
            }
        }))
        .await;
        // Each player: stakes of 1,000 to 4,000 (the fourth exceeds what is left: refused),
        // a win on the first, a replay of the second, a rollback of the third.
        let outcomes = join_all(players.iter().map(|&u| {
            let ledger = ledger.clone();
            async move {
                let (provider, game) = if u % 2 == 0 { ("pragmatic", "gates-of-olympus") } else { ("studio", "desert-gold") };
                let mut accepted_stakes = 0i64;
                let mut accepted_bets = 0i64;
                let mut wins = 0i64;
                let mut refused = 0;
                for (i, amount) in [1_000i64, 2_000, 3_000, 4_500].into_iter().enumerate() {
                    match ledger.post(casino(TxType::BetStake, u, amount, &format!("s:{u}:{i}"), provider, game)).await {
                        Ok(_) => {
                            accepted_stakes += amount;
                            accepted_bets += 1;
                        }
                        Err(LedgerError::Insufficient(_)) => refused += 1,
                        Err(e) => panic!("stake: {e}"),
                    }
                }
                // A replay moves nothing and counts nothing.
                let replay = ledger.post(casino(TxType::BetStake, u, 2_000, &format!("s:{u}:1"), provider, game)).await.unwrap();
                assert!(replay.replayed);
                let win = 500 + u;
                ledger.post(casino(TxType::BetWin, u, win, &format!("w:{u}:0"), provider, game)).await.unwrap();
                wins += win;
                // The third stake taken back (twice, under two keys: reversed once).
                for k in ["a", "b"] {
                    let r = ledger
                        .rollback(RollbackRequest { original_key: format!("s:{u}:2"), rollback_key: format!("rb:{u}:{k}"), user_id: Some(u), comment: String::new(), metadata: json!({}) })
                        .await
                        .unwrap();
                    assert!(matches!(r, RollbackOutcome::Reversed(_) | RollbackOutcome::AlreadyReversed(_)), "{r:?}");
                }
                accepted_stakes -= 3_000;
                accepted_bets -= 1;
                (provider, game, accepted_stakes, accepted_bets, wins, refused)
            }
        }))
        .await;
        assert!(outcomes.iter().all(|o| o.5 == 1), "the fourth stake is refused for everyone");

        let check = rollup::verify(&db).await.unwrap();
        assert!(check.consistent(), "{check:?}");

        let stakes: i64 = outcomes.iter().map(|o| o.2).sum();
        let bets: i64 = outcomes.iter().map(|o| o.3).sum();
        let wins: i64 = outcomes.iter().map(|o| o.4).sum();
        let by_day = report(&db, GroupBy::Day).await;
        let total = sum(&by_day);
        assert_eq!((total.bets, total.stakes, total.wins, total.ggr), (bets, stakes, wins, stakes - wins));
        assert_eq!((total.deposits, total.bonus_cost, total.ngr), (40 * 10_000, 0, stakes - wins));
        let today_row = by_day.iter().find(|r| r.day == Some(today())).expect("today's row");
        assert_eq!(today_row.active_players, Some(40), "every player staked today");

        // By provider and by game: each provider's own players' sums.
        for by in [GroupBy::Provider, GroupBy::Game] {
            let rows = report(&db, by).await;
            for provider in ["pragmatic", "studio"] {
                let mine: Vec<_> = outcomes.iter().filter(|o| o.0 == provider).collect();
                let row = rows.iter().find(|r| r.provider.as_deref() == Some(provider) && r.product.as_deref() == Some("casino")).expect("provider row");
                let (s, w): (i64, i64) = (mine.iter().map(|o| o.2).sum(), mine.iter().map(|o| o.4).sum());
                assert_eq!((row.figures.stakes, row.figures.wins, row.figures.ggr), (s, w, s - w), "{by:?} {provider}");
                if by == GroupBy::Game {
                    assert_eq!(row.game.as_deref(), Some(mine[0].1));
                }
            }
            // Deposits have a provider and no game: in the report by provider only.
            let payments = rows.iter().find(|r| r.product.as_deref() == Some("payments"));
            match by {
                GroupBy::Provider => assert_eq!(payments.map(|p| (p.provider.as_deref(), p.figures.deposits)), Some((Some("flouci"), 400_000))),
                _ => assert!(payments.is_none()),
            }
        }
        // Another day, another currency: nothing.
        let none = rollup::report(&db, &ReportQuery { from_day: today() + 2, to_day: today() + 9, currency: None, by: GroupBy::Day }).await.unwrap();
        assert!(none.iter().all(|r| r.figures == Figures::default()));

        // Rebuilt from the ledger (a database whose postings predate the rollups): the
        // same report.
        let before: Vec<_> = report(&db, GroupBy::Game).await;
        store::sqlx::query("DELETE FROM report_daily").execute(db.writer()).await.unwrap();
        store::sqlx::query("DELETE FROM report_state").execute(db.writer()).await.unwrap();
        assert!(!rollup::verify(&db).await.unwrap().consistent(), "emptied rollups differ from the ledger");
        assert!(rollup::ensure_built(&db).await.unwrap().is_some(), "rebuilt once");
        assert!(rollup::ensure_built(&db).await.unwrap().is_none(), "and only once");
        assert!(rollup::verify(&db).await.unwrap().consistent());
        assert_eq!(report(&db, GroupBy::Game).await, before);
    })
    .await;
}

/// `post_many` (a settlement's path: set-wise, a few statements for many postings), with
/// postings refused inside the set: the rollups count exactly the ones that applied.
#[tokio::test]
async fn set_wise_postings_count_only_what_applied() {
    with_each_backend(|db| async move {
        let ledger = Ledger::new(db.clone());
        for u in 1..=30 {
            ledger.open_accounts(u, TND).await.unwrap();
            ledger.post(deposit(u, 1_000, &format!("dep:{u}"))).await.unwrap();
        }
        // Stakes of 900 and then 200 for each player: the second is refused.
        let reqs: Vec<PostingRequest> = (1..=30).flat_map(|u| [casino(TxType::BetStake, u, 900, &format!("a:{u}"), "studio", "g"), casino(TxType::BetStake, u, 200, &format!("b:{u}"), "studio", "g")]).collect();
        let results = ledger.post_many(reqs).await;
        let ok = results.iter().filter(|r| r.is_ok()).count() as i64;
        assert_eq!(ok, 30);
        let total = sum(&report(&db, GroupBy::Day).await);
        assert_eq!((total.bets, total.stakes), (30, 30 * 900));
        assert!(rollup::verify(&db).await.unwrap().consistent());
    })
    .await;
}
