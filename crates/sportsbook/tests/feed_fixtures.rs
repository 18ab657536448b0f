//! The JSON feed end to end with the fixtures under tests/fixtures: a football match from its
//! fixture to a resettlement, bets checked by the slip along the way and settled from the
//! published results, and the importer's typed refusals.

use std::path::PathBuf;

use sportsbook::feed::{decode, encode, FeedError, FeedMessage};
use sportsbook::model::{EventStatus, MarketKey, MarketStatus};
use sportsbook::odds::{Odds, OddsPolicy};
use sportsbook::settle::{resettle, settle, BetOutcome, OutcomeResult, SettledLeg};
use sportsbook::slip::{validate, AcceptedBet, BetKind, BetRequest, Funding, LegRequest, PlayerState, SlipSettings};
use sportsbook::Line;

fn fixture_text(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn lifecycle() -> Vec<FeedMessage> {
    let values: Vec<serde_json::Value> = serde_json::from_str(&fixture_text("match_lifecycle.json")).unwrap();
    values.iter().map(|v| decode(&v.to_string()).unwrap()).collect()
}

fn one(name: &str) -> Result<FeedMessage, FeedError> {
    decode(&fixture_text(name))
}

const EVENT: &str = "sr:match:1001";

fn bet(market: &str, outcome: &str, odds: u32, stake: i64, policy: OddsPolicy) -> BetRequest {
    BetRequest {
        legs: vec![LegRequest {
            event_id: EVENT.into(),
            market: MarketKey::parse(market).unwrap(),
            outcome_id: outcome.into(),
            odds: Odds::new(odds).unwrap(),
        }],
        stake,
        kind: BetKind::Single,
        funding: Funding::Real,
        policy,
    }
}

fn place(line: &Line, req: &BetRequest, now: i64) -> Result<AcceptedBet, u32> {
    let player = PlayerState { betting_allowed: true, ..PlayerState::default() };
    validate(req, line, &SlipSettings::default(), &player, now).map_err(|r| r.code())
}

/// Settles an accepted single from the results the line holds.
fn settle_from_line(line: &Line, bet: &AcceptedBet) -> sportsbook::settle::Settlement {
    let legs: Vec<SettledLeg> = bet
        .legs
        .iter()
        .map(|l| {
            let (_, _, outcome) = line.selection(&l.event_id, &l.market, &l.outcome_id).unwrap();
            SettledLeg { odds: l.odds, result: outcome.result.expect("settled") }
        })
        .collect();
    settle(bet.stake, &legs)
}

#[test]
fn a_match_from_fixture_to_resettlement() {
    let msgs = lifecycle();
    assert_eq!(msgs.len(), 10);
    let mut line = Line::new();
    let apply = |line: &mut Line, range: std::ops::Range<usize>| {
        for m in &msgs[range] {
            line.apply(m).unwrap_or_else(|e| panic!("{}: {e}", m.kind()));
        }
    };

    // Pre-match: fixture and odds.
    apply(&mut line, 0..2);
    let before_start = 1_767_225_700_000;
    let hcp = place(&line, &bet("16|hcp=-0.25", "1714", 1900, 10_000, OddsPolicy::None), before_start).unwrap();
    assert_eq!(hcp.potential_payout, 19_000);
    let over = place(&line, &bet("18|total=2.5", "12", 1950, 5_000, OddsPolicy::None), before_start).unwrap();
    assert!(!hcp.legs[0].live);

    // Kick-off, then a goal: bet_stop suspends everything.
    apply(&mut line, 2..5);
    let goal = 1_767_230_400_000;
    assert_eq!(line.events[EVENT].score.home, 1);
    assert_eq!(place(&line, &bet("1", "1", 2100, 2_000, OddsPolicy::AcceptAny), goal), Err(607));

    // Reopened with new odds: the player's 2.10 is stale.
    apply(&mut line, 5..6);
    let later = goal + 10_000;
    assert_eq!(place(&line, &bet("1", "1", 2100, 2_000, OddsPolicy::None), later), Err(604));
    assert_eq!(place(&line, &bet("1", "1", 2100, 2_000, OddsPolicy::AcceptHigher), later), Err(604));
    let home = place(&line, &bet("1", "1", 2100, 2_000, OddsPolicy::AcceptAny), later).unwrap();
    assert_eq!((home.legs[0].odds.thousandths(), home.legs[0].live), (1450, true));

    // Full time: no more bets; markets deactivated, then settled.
    apply(&mut line, 6..8);
    assert_eq!(line.events[EVENT].status, EventStatus::Ended);
    assert_eq!(place(&line, &bet("1", "1", 1450, 2_000, OddsPolicy::AcceptAny), later + 3_600_000), Err(602));
    assert!(line.events[EVENT].markets.values().all(|m| m.status == MarketStatus::Deactivated));
    apply(&mut line, 8..10);
    assert_eq!(line.events[EVENT].status, EventStatus::Closed);
    assert!(line.events[EVENT].markets.values().all(|m| m.status == MarketStatus::Settled));

    // 2:1 — home −0.25 wins in full, over 2.5 wins, home wins.
    let s = settle_from_line(&line, &hcp);
    assert_eq!((s.payout, s.outcome), (19_000, BetOutcome::Won));
    assert_eq!(settle_from_line(&line, &over).payout, 9_750);
    assert_eq!(settle_from_line(&line, &home).payout, 2_900);

    // The provider corrects the handicap to a half loss: post only the difference.
    line.apply(&one("resettlement.json").unwrap()).unwrap();
    let corrected = settle_from_line(&line, &hcp);
    assert_eq!((corrected.payout, corrected.outcome), (5_000, BetOutcome::HalfLost));
    let legs = [SettledLeg { odds: hcp.legs[0].odds, result: OutcomeResult::HALF_LOSE }];
    assert_eq!(resettle(hcp.stake, s.payout, &legs).delta, -14_000);

    // A windowed cancel leaves the line as it is; it voids only the bets placed in its window.
    let FeedMessage::BetCancel(cancel) = one("bet_cancel_window.json").unwrap() else { panic!("a bet_cancel") };
    let snapshot = line.clone();
    line.apply(&FeedMessage::BetCancel(cancel.clone())).unwrap();
    assert_eq!(line, snapshot);
    assert!(!cancel.is_whole_market());
    let in_window = |t: i64| cancel.start_time.is_none_or(|s| t >= s) && cancel.end_time.is_none_or(|e| t <= e);
    assert!(!in_window(before_start), "the over bet was placed before the window");
    assert!(in_window(goal - 5_000));
}

#[test]
fn invalid_messages_are_refused_with_typed_errors_and_change_nothing() {
    let mut line = Line::new();
    for m in &lifecycle()[..2] {
        line.apply(m).unwrap();
    }
    let snapshot = line.clone();
    assert_eq!(
        line.apply(&one("invalid_unknown_event.json").unwrap()),
        Err(FeedError::UnknownEvent("sr:match:404".into()))
    );
    assert_eq!(
        line.apply(&one("invalid_odds_below_min.json").unwrap()),
        Err(FeedError::OddsOutOfRange {
            event_id: EVENT.into(),
            market: "18|total=3.5".into(),
            outcome: "13".into(),
            odds: 1000
        })
    );
    assert_eq!(
        line.apply(&one("invalid_unknown_outcome.json").unwrap()),
        Err(FeedError::UnknownOutcome { event_id: EVENT.into(), market: "1".into(), outcome: "4".into() })
    );
    assert_eq!(
        line.apply(&one("invalid_market_of_unknown_event.json").unwrap()),
        Err(FeedError::UnknownEvent("sr:match:999".into()))
    );
    // A float void factor is not a feed message: factors are exact fractions ("1/2").
    assert!(matches!(one("invalid_float_void_factor.json"), Err(FeedError::Malformed(_))));
    assert_eq!(line, snapshot);
}

#[test]
fn every_fixture_round_trips_through_json() {
    let mut all = lifecycle();
    all.push(one("resettlement.json").unwrap());
    all.push(one("bet_cancel_window.json").unwrap());
    for m in &all {
        assert_eq!(&decode(&encode(m)).unwrap(), m, "{}", m.kind());
    }
    let kinds: std::collections::BTreeSet<&str> = all.iter().map(FeedMessage::kind).collect();
    assert_eq!(kinds.len(), 6, "{kinds:?}");
}
