//! Settlement: the feed's per-outcome result to an exact payout.
//!
//! UOF's `bet_settlement` gives each outcome a `result` (0/1), a `void_factor` (none, 0.5, 1) and
//! sometimes a `dead_heat_factor`. Following `mcekovic/kotlin-bet-calculator`, each leg becomes a
//! status (win factor, void factor) and a **factored price** = win factor × price + void factor:
//!
//! | UOF result | void_factor | dead heat | (win, void) | leg |
//! |---|---|---|---|---|
//! | 1 | – | – | (1, 0) | won |
//! | 0 | – | – | (0, 0) | lost |
//! | 0 | 1 | – | (0, 1) | void, stake back |
//! | 1 | 0.5 | – | (½, ½) | half won, half refunded |
//! | 0 | 0.5 | – | (0, ½) | half lost, half refunded |
//! | 1 | – | f | (f, 0) | dead heat: the stake is divided |
//!
//! In general win = (1 − void) × (dead heat or 1) when result is 1, else 0. A single pays
//! ⌊stake × factored price⌋, an express ⌊stake × Π factored prices⌋ (a void leg's factored price is
//! exactly 1). Every factor is an exact fraction; the product is floored once, to the minor unit.

use serde::{Deserialize, Serialize};

use crate::exact::{floor_product, saturate_i64, Fraction};
use crate::odds::{Odds, ODDS_SCALE};

/// UOF's void factor: how much of the stake is refunded. Written `"0"`, `"1/2"`, `"1"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum VoidFactor {
    /// Nothing refunded.
    #[default]
    #[serde(rename = "0")]
    Zero,
    /// Half the stake refunded (Asian quarter lines).
    #[serde(rename = "1/2")]
    Half,
    /// The whole stake refunded.
    #[serde(rename = "1")]
    Full,
}

impl VoidFactor {
    /// The factor as a fraction.
    pub const fn fraction(self) -> Fraction {
        match self {
            VoidFactor::Zero => Fraction::ZERO,
            VoidFactor::Half => Fraction::HALF,
            VoidFactor::Full => Fraction::ONE,
        }
    }
}

/// The result of one outcome as the feed publishes it (UOF `bet_settlement`, one `<outcome>`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct OutcomeResult {
    /// UOF `result="1"`: the outcome happened (possibly in part, see the factors).
    pub win: bool,
    /// The refunded share of the stake.
    #[serde(default)]
    pub void_factor: VoidFactor,
    /// The share of the winnings kept in a dead heat (½ for two tied, ⅓ for three …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dead_heat_factor: Option<Fraction>,
}

impl OutcomeResult {
    /// A full win.
    pub const WIN: OutcomeResult = OutcomeResult { win: true, void_factor: VoidFactor::Zero, dead_heat_factor: None };
    /// A loss.
    pub const LOSE: OutcomeResult = OutcomeResult { win: false, void_factor: VoidFactor::Zero, dead_heat_factor: None };
    /// Void: the stake back (a push on a whole line, a cancelled market).
    pub const VOID: OutcomeResult = OutcomeResult { win: false, void_factor: VoidFactor::Full, dead_heat_factor: None };
    /// Half won, half refunded (Asian quarter line, one half wins, the other pushes).
    pub const HALF_WIN: OutcomeResult =
        OutcomeResult { win: true, void_factor: VoidFactor::Half, dead_heat_factor: None };
    /// Half lost, half refunded.
    pub const HALF_LOSE: OutcomeResult =
        OutcomeResult { win: false, void_factor: VoidFactor::Half, dead_heat_factor: None };

    /// A dead-heat win: the winnings are multiplied by `factor`.
    pub const fn dead_heat(factor: Fraction) -> OutcomeResult {
        OutcomeResult { win: true, void_factor: VoidFactor::Zero, dead_heat_factor: Some(factor) }
    }

    /// The kotlin-bet-calculator status: (win factor, void factor).
    pub fn status(&self) -> LegStatus {
        let void = self.void_factor.fraction();
        let win = if self.win {
            let rest = void.complement();
            match self.dead_heat_factor {
                // `rest` is 1, ½ or 0 and a parsed dead-heat denominator is at most 10⁶: the
                // product's denominator is at most 2·10⁶, far below the 10¹² limit of `checked_mul`.
                Some(dh) => rest.checked_mul(dh).expect("a dead-heat factor times ½ fits"),
                None => rest,
            }
        } else {
            Fraction::ZERO
        };
        LegStatus { win_factor: win, void_factor: void }
    }

    /// How the leg reads to a player.
    pub fn leg_outcome(&self) -> LegOutcome {
        let s = self.status();
        match (s.win_factor.is_zero(), self.void_factor) {
            (true, VoidFactor::Zero) => LegOutcome::Lost,
            (true, VoidFactor::Half) => LegOutcome::HalfLost,
            (true, VoidFactor::Full) => LegOutcome::Void,
            (false, _) if self.dead_heat_factor.is_some_and(|f| f != Fraction::ONE) => LegOutcome::DeadHeat,
            (false, VoidFactor::Zero) => LegOutcome::Won,
            (false, _) => LegOutcome::HalfWon,
        }
    }
}

/// A leg's settlement status as kotlin-bet-calculator's `LegStatus`: both factors in `[0, 1]`,
/// `win + void ≤ 1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LegStatus {
    /// The share of the stake that wins at the leg's price.
    pub win_factor: Fraction,
    /// The share of the stake that comes back at price 1.
    pub void_factor: Fraction,
}

/// win factor × price + void factor, as the exact fraction `num/den`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FactoredPrice {
    /// Numerator.
    pub num: u64,
    /// Denominator (positive).
    pub den: u64,
}

impl FactoredPrice {
    /// The factored price in thousandths, floored (display only: payouts use the exact value).
    pub fn thousandths_floor(self) -> u64 {
        (self.num as u128 * ODDS_SCALE as u128 / self.den as u128) as u64
    }
}

/// A leg's factored price: (win factor × odds + void factor), exact.
///
/// With win factor a/b, void factor c/d and odds o/1000 the value is
/// (a·o·d + c·1000·b) / (b·1000·d): a ≤ b ≤ 2·10⁶ (a dead-heat denominator, times ½ at most),
/// o ≤ 10⁶, c ≤ d ≤ 2, so the numerator is below 5·10¹² and fits `u64` without rounding.
pub fn factored_price(odds: Odds, result: &OutcomeResult) -> FactoredPrice {
    let s = result.status();
    let (a, b) = (s.win_factor.num(), s.win_factor.den());
    let (c, d) = (s.void_factor.num(), s.void_factor.den());
    let o = odds.thousandths() as u64;
    let scale = ODDS_SCALE as u64;
    let num = a * o * d + c * scale * b;
    let den = b * scale * d;
    let g = gcd(num, den).max(1);
    FactoredPrice { num: num / g, den: den / g }
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// How one leg reads to a player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LegOutcome {
    /// Won in full.
    Won,
    /// Lost in full.
    Lost,
    /// Refunded (price 1).
    Void,
    /// Half won, half refunded.
    HalfWon,
    /// Half lost, half refunded.
    HalfLost,
    /// Won with a dead-heat reduction.
    DeadHeat,
}

/// How a settled bet reads to a player (and which statement line the ledger writes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BetOutcome {
    /// Every leg won or was void, at least one won: paid at the (reduced) full odds.
    Won,
    /// At least one leg lost in full: nothing paid.
    Lost,
    /// Every leg void: the stake is refunded.
    Void,
    /// A single that half won.
    HalfWon,
    /// A single that half lost (half the stake back).
    HalfLost,
    /// A single won in a dead heat.
    DeadHeat,
    /// An express with no lost leg but at least one half result or dead heat.
    PartWon,
}

/// A leg with its odds as recorded on the bet and its published result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SettledLeg {
    /// The odds the bet was accepted at.
    pub odds: Odds,
    /// The feed's result for the selected outcome.
    pub result: OutcomeResult,
}

/// A settled bet: what to pay and how to describe it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settlement {
    /// The amount returned, stake included, in minor units (0 when lost).
    pub payout: i64,
    /// The classification.
    pub outcome: BetOutcome,
}

/// Settles a single (one leg) or an express (several): payout ⌊stake × Π factored prices⌋.
/// A non-positive stake pays 0. An empty leg list is a void bet (the stake back).
pub fn settle(stake: i64, legs: &[SettledLeg]) -> Settlement {
    let prices: Vec<FactoredPrice> = legs.iter().map(|l| factored_price(l.odds, &l.result)).collect();
    let payout =
        if stake <= 0 { 0 } else { saturate_i64(floor_product(stake as u128, prices.iter().map(|p| (p.num, p.den)))) };
    Settlement { payout, outcome: classify(legs) }
}

/// The classification of a bet from its legs (see [`BetOutcome`]).
pub fn classify(legs: &[SettledLeg]) -> BetOutcome {
    let outcomes: Vec<LegOutcome> = legs.iter().map(|l| l.result.leg_outcome()).collect();
    if outcomes.contains(&LegOutcome::Lost) {
        return BetOutcome::Lost;
    }
    let live: Vec<LegOutcome> = outcomes.into_iter().filter(|o| *o != LegOutcome::Void).collect();
    match live.as_slice() {
        [] => BetOutcome::Void,
        _ if live.iter().all(|o| *o == LegOutcome::Won) => BetOutcome::Won,
        _ if legs.len() > 1 => BetOutcome::PartWon,
        [LegOutcome::HalfWon] => BetOutcome::HalfWon,
        [LegOutcome::HalfLost] => BetOutcome::HalfLost,
        _ => BetOutcome::DeadHeat,
    }
}

/// Settles as soon as the outcome is certain: when every leg has a result, or earlier when one
/// leg has lost in full (an express is lost whatever the others do). `None` while pending.
pub fn settle_when_decided(stake: i64, legs: &[(Odds, Option<OutcomeResult>)]) -> Option<Settlement> {
    let lost = legs.iter().any(|(_, r)| r.is_some_and(|r| r.leg_outcome() == LegOutcome::Lost));
    if lost {
        return Some(Settlement { payout: 0, outcome: BetOutcome::Lost });
    }
    let settled: Option<Vec<SettledLeg>> =
        legs.iter().map(|(odds, r)| r.map(|result| SettledLeg { odds: *odds, result })).collect();
    settled.map(|legs| settle(stake, &legs))
}

/// The result of settling again after a corrected result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Resettlement {
    /// The bet's settlement under the corrected results.
    pub settlement: Settlement,
    /// What to post now: `settlement.payout − previous payout` (negative takes money back).
    pub delta: i64,
}

/// Settles again with corrected results, given what was already paid: the integrator posts only
/// `delta`, never a second full payout. A rollback to "unsettled" is `delta = −previous_payout`
/// (see [`rollback`]).
pub fn resettle(stake: i64, previous_payout: i64, corrected: &[SettledLeg]) -> Resettlement {
    let settlement = settle(stake, corrected);
    Resettlement { settlement, delta: settlement.payout - previous_payout }
}

/// UOF `rollback_bet_settlement`: the amount to post to undo a settlement (the bet is open again).
pub fn rollback(previous_payout: i64) -> i64 {
    -previous_payout
}

/// What a free bet pays in cash: the winnings only, the stake is not returned ("stake not
/// returned"). A void or lost free bet pays no cash (giving the free bet back is the promotion
/// engine's decision).
pub fn free_bet_cash(settlement: &Settlement, stake: i64) -> i64 {
    (settlement.payout - stake).max(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn odds(s: &str) -> Odds {
        s.parse().unwrap()
    }
    fn leg(o: &str, result: OutcomeResult) -> SettledLeg {
        SettledLeg { odds: odds(o), result }
    }
    fn third() -> Fraction {
        Fraction::new(1, 3).unwrap()
    }

    /// The matrix for singles in TND (3 decimals: 10.000 TND = 10,000 millimes).
    #[test]
    fn single_matrix_tnd() {
        let stake = 10_000;
        let cases = [
            (OutcomeResult::WIN, 18_500, BetOutcome::Won),
            (OutcomeResult::LOSE, 0, BetOutcome::Lost),
            (OutcomeResult::VOID, 10_000, BetOutcome::Void),
            // ½ × 1.85 + ½ = 1.425
            (OutcomeResult::HALF_WIN, 14_250, BetOutcome::HalfWon),
            // ½ refunded
            (OutcomeResult::HALF_LOSE, 5_000, BetOutcome::HalfLost),
            // ½ × 1.85 = 0.925
            (OutcomeResult::dead_heat(Fraction::HALF), 9_250, BetOutcome::DeadHeat),
            // ⅓ × 1.85 = 0.61666… → 6,166.66… → 6,166
            (OutcomeResult::dead_heat(third()), 6_166, BetOutcome::DeadHeat),
            // A dead-heat factor of 1 is an ordinary win.
            (OutcomeResult::dead_heat(Fraction::ONE), 18_500, BetOutcome::Won),
        ];
        for (result, payout, outcome) in cases {
            let s = settle(stake, &[leg("1.85", result)]);
            assert_eq!((s.payout, s.outcome), (payout, outcome), "{result:?}");
        }
    }

    /// Rounding happens once, at the minor unit, whatever the currency's decimals.
    #[test]
    fn rounding_at_the_minor_unit() {
        // TND: 1.001 TND at 1.333 = 1.334333 TND → 1.334 TND (1,334 millimes).
        assert_eq!(settle(1_001, &[leg("1.333", OutcomeResult::WIN)]).payout, 1_334);
        // A 0-decimal currency: 3 units at 1.5 = 4.5 → 4; half win 3 × (0.75 + 0.5) = 3.75 → 3.
        assert_eq!(settle(3, &[leg("1.5", OutcomeResult::WIN)]).payout, 4);
        assert_eq!(settle(3, &[leg("1.5", OutcomeResult::HALF_WIN)]).payout, 3);
        assert_eq!(settle(1, &[leg("1.999", OutcomeResult::WIN)]).payout, 1);
        assert_eq!(settle(1, &[leg("2", OutcomeResult::WIN)]).payout, 2);
        // Half lose of an odd stake: 5 × ½ = 2.5 → 2 (the player never gets the half unit).
        assert_eq!(settle(5, &[leg("3", OutcomeResult::HALF_LOSE)]).payout, 2);
        // Express in a 0-decimal currency: 7 × 1.5 × 1.5 = 15.75 → 15 (flooring per leg gives 15
        // too here, but 5 × 1.5 × 1.5 = 11.25 → 11 where per-leg flooring would give 10).
        assert_eq!(settle(5, &[leg("1.5", OutcomeResult::WIN), leg("1.5", OutcomeResult::WIN)]).payout, 11);
    }

    #[test]
    fn express_matrix() {
        let stake = 2_000; // 2.000 TND
        let w = |o| leg(o, OutcomeResult::WIN);
        // 2 × 1.5 × 2.2 × 1.9 = 12.54
        let s = settle(stake, &[w("1.5"), w("2.2"), w("1.9")]);
        assert_eq!((s.payout, s.outcome), (12_540, BetOutcome::Won));
        // A void leg counts as 1: 2 × 1.5 × 1.9 = 5.7
        let s = settle(stake, &[w("1.5"), leg("2.2", OutcomeResult::VOID), w("1.9")]);
        assert_eq!((s.payout, s.outcome), (5_700, BetOutcome::Won));
        // One lost leg loses everything, even next to a void.
        let s = settle(stake, &[w("1.5"), leg("2.2", OutcomeResult::VOID), leg("1.9", OutcomeResult::LOSE)]);
        assert_eq!((s.payout, s.outcome), (0, BetOutcome::Lost));
        // All void: the stake back.
        let s = settle(stake, &[leg("1.5", OutcomeResult::VOID), leg("2.2", OutcomeResult::VOID)]);
        assert_eq!((s.payout, s.outcome), (2_000, BetOutcome::Void));
        // Half win × half lose: 2 × (0.75 + 0.5) × 0.5 = 1.25
        let s = settle(stake, &[leg("1.5", OutcomeResult::HALF_WIN), leg("1.9", OutcomeResult::HALF_LOSE)]);
        assert_eq!((s.payout, s.outcome), (1_250, BetOutcome::PartWon));
        // Dead heat ⅓ in an express: 2 × 1.5 × (3.3 / 3) = 3.3
        let s = settle(stake, &[w("1.5"), leg("3.3", OutcomeResult::dead_heat(third()))]);
        assert_eq!((s.payout, s.outcome), (3_300, BetOutcome::PartWon));
        // ⅓ that does not divide: 1 × 2 × (1.85 / 3) = 1.2333… → 1.233
        let s = settle(1_000, &[w("2"), leg("1.85", OutcomeResult::dead_heat(third()))]);
        assert_eq!(s.payout, 1_233);
        // Twenty legs at 3.000 overflow i128 in the exact product and still pay exactly.
        let legs = vec![w("3"); 20];
        assert_eq!(settle(1, &legs).payout, 3_486_784_401);
    }

    #[test]
    fn factored_prices_follow_the_calculator() {
        let p = |o: &str, r: OutcomeResult| factored_price(odds(o), &r).thousandths_floor();
        assert_eq!(p("1.85", OutcomeResult::WIN), 1850);
        assert_eq!(p("1.85", OutcomeResult::LOSE), 0);
        assert_eq!(p("1.85", OutcomeResult::VOID), 1000);
        assert_eq!(p("1.85", OutcomeResult::HALF_WIN), 1425);
        assert_eq!(p("1.85", OutcomeResult::HALF_LOSE), 500);
        assert_eq!(p("1.85", OutcomeResult::dead_heat(Fraction::HALF)), 925);
        // A result of 1 with a full void factor is a void: (1 − 1) × price + 1.
        let odd = OutcomeResult { win: true, void_factor: VoidFactor::Full, dead_heat_factor: None };
        assert_eq!(p("1.85", odd), 1000);
        assert_eq!(odd.leg_outcome(), LegOutcome::Void);
        // Dead heat on a half-void win: ½ × ⅓ × 3 + ½ = 1.
        let r = OutcomeResult { win: true, void_factor: VoidFactor::Half, dead_heat_factor: Some(third()) };
        assert_eq!(factored_price(odds("3"), &r), FactoredPrice { num: 1, den: 1 });
        // The largest dead-heat denominator on a half-void win still settles exactly.
        let big = Fraction::new(1, 1_000_000).unwrap();
        let r = OutcomeResult { win: true, void_factor: VoidFactor::Half, dead_heat_factor: Some(big) };
        assert_eq!(factored_price(Odds::MAX, &r), FactoredPrice { num: 1001, den: 2000 });
        let s = OutcomeResult::HALF_WIN.status();
        assert_eq!((s.win_factor, s.void_factor), (Fraction::HALF, Fraction::HALF));
    }

    #[test]
    fn settle_when_decided_waits_or_short_circuits() {
        let o = odds("2");
        assert_eq!(settle_when_decided(1000, &[(o, Some(OutcomeResult::WIN)), (o, None)]), None);
        let lost = settle_when_decided(1000, &[(o, None), (o, Some(OutcomeResult::LOSE))]).unwrap();
        assert_eq!((lost.payout, lost.outcome), (0, BetOutcome::Lost));
        // A half loss does not decide an express early.
        assert_eq!(settle_when_decided(1000, &[(o, None), (o, Some(OutcomeResult::HALF_LOSE))]), None);
        let done = settle_when_decided(1000, &[(o, Some(OutcomeResult::WIN)), (o, Some(OutcomeResult::VOID))]).unwrap();
        assert_eq!((done.payout, done.outcome), (2000, BetOutcome::Won));
    }

    #[test]
    fn resettlement_posts_only_the_difference() {
        let stake = 10_000;
        let won = [leg("1.85", OutcomeResult::WIN)];
        let first = settle(stake, &won);
        assert_eq!(first.payout, 18_500);
        // Corrected to a loss: take back what was paid.
        let r = resettle(stake, first.payout, &[leg("1.85", OutcomeResult::LOSE)]);
        assert_eq!((r.settlement.payout, r.delta), (0, -18_500));
        // Lost first, then corrected to a win: pay the full amount now.
        let r = resettle(stake, 0, &won);
        assert_eq!(r.delta, 18_500);
        // Won, corrected to a half win: take back the difference only.
        let r = resettle(stake, 18_500, &[leg("1.85", OutcomeResult::HALF_WIN)]);
        assert_eq!((r.settlement.payout, r.delta), (14_250, -4_250));
        // The same result again (UOF sends a scout settlement then a confirmed one): nothing moves.
        assert_eq!(resettle(stake, 18_500, &won).delta, 0);
        assert_eq!(rollback(18_500), -18_500);
    }

    #[test]
    fn free_bets_pay_winnings_only() {
        let won = settle(5_000, &[leg("2.5", OutcomeResult::WIN)]);
        assert_eq!(free_bet_cash(&won, 5_000), 7_500);
        let void = settle(5_000, &[leg("2.5", OutcomeResult::VOID)]);
        assert_eq!(free_bet_cash(&void, 5_000), 0);
        let half_lost = settle(5_000, &[leg("2.5", OutcomeResult::HALF_LOSE)]);
        assert_eq!(free_bet_cash(&half_lost, 5_000), 0);
    }

    #[test]
    fn results_round_trip_as_uof_shaped_json() {
        let r = OutcomeResult::HALF_WIN;
        let json = serde_json::to_string(&r).unwrap();
        assert_eq!(json, r#"{"win":true,"void_factor":"1/2"}"#);
        assert_eq!(serde_json::from_str::<OutcomeResult>(&json).unwrap(), r);
        let dh: OutcomeResult = serde_json::from_str(r#"{"win":true,"dead_heat_factor":"1/3"}"#).unwrap();
        assert_eq!(dh, OutcomeResult::dead_heat(third()));
        assert!(serde_json::from_str::<OutcomeResult>(r#"{"win":true,"void_factor":"0.5"}"#).is_err());
    }
}
