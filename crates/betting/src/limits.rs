//! The slip's money limits per currency, from the site settings (spec §3): `limits.bets`
//! (`min`, `max`, `default`, major units of the reference currency TND),
//! `limits.bonus.minCoef` (a bonus bet's least odds per leg, 615), `limits.freebet.minCoef`
//! (a free bet's least total odds, 1489) and `inbetKf` (per currency: how many of its major
//! units one TND of limit is worth). The per-market limits of [`SlipSettings`] are in TND
//! millimes and scale by the same factor.
//!
//! Every figure is exact: the settings' decimal numbers are read from their text, multiplied
//! as integers and rounded down to the currency's minor unit; never a float.

use kernel::Currency;
use serde_json::Value;
use sportsbook::slip::SlipSettings;
use sportsbook::Odds;

/// A non-negative decimal as `mantissa / 10^scale`, read from a JSON number or string (the
/// settings' figures; promotions' standing offers read theirs with it too).
pub fn decimal(v: &Value) -> Option<(i128, u32)> {
    let text = match v {
        Value::Number(n) => n.to_string(),
        Value::String(s) => s.trim().to_string(),
        _ => return None,
    };
    if text.contains(['e', 'E', '-', '+']) {
        return None;
    }
    let (int, frac) = text.split_once('.').unwrap_or((&text, ""));
    if (int.is_empty() && frac.is_empty())
        || frac.len() > 12
        || int.len() > 18
        || !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let mantissa: i128 = format!("{int}{frac}").parse().ok()?;
    Some((mantissa, frac.len() as u32))
}

/// `amount × factor`, where `amount` is in TND millimes, as minor units of `currency`,
/// rounded down; `None` on overflow.
fn scale(amount: i64, factor: (i128, u32), currency: Currency) -> Option<i64> {
    let (m, s) = factor;
    // millimes → major TND: / 10^3; × factor: × m / 10^s; → minor of currency: × 10^exp.
    let num = (amount as i128)
        .checked_mul(m)?
        .checked_mul(10i128.pow(currency.exponent()))?;
    let den = 10i128.pow(3 + s);
    i64::try_from(num / den).ok()
}

/// The factor of `currency` (`inbetKf`), 1 when the settings have none for it.
fn factor(doc: &Value, currency: Currency) -> (i128, u32) {
    doc.pointer(&format!("/inbetKf/{}", currency.code()))
        .and_then(decimal)
        .filter(|&(m, _)| m > 0)
        .unwrap_or((1, 0))
}

/// `base` (TND millimes) with the settings' limits, for a player betting in `currency`. A
/// figure the settings lack or spell wrongly keeps `base`'s (logged by the caller's review of
/// settings, never a refusal of every bet).
pub fn slip_settings_for(doc: &Value, base: &SlipSettings, currency: Currency) -> SlipSettings {
    let mut s = base.clone();
    let millimes = |path: &str| {
        doc.pointer(path).and_then(decimal).and_then(|(m, sc)| {
            // major TND → millimes, exactly (rounded down).
            i64::try_from(m.checked_mul(1000)? / 10i128.pow(sc)).ok()
        })
    };
    if let Some(v) = millimes("/limits/bets/min") {
        s.bets.min = v.max(1);
    }
    if let Some(v) = millimes("/limits/bets/max") {
        s.bets.max = v;
    }
    if let Some(v) = millimes("/limits/bets/default") {
        s.bets.default = v;
    }
    let odds = |path: &str| {
        doc.pointer(path).and_then(|v| match v {
            Value::Number(n) => Odds::parse(&n.to_string()).ok(),
            Value::String(t) => Odds::parse(t).ok(),
            _ => None,
        })
    };
    if let Some(o) = odds("/limits/bonus/minCoef") {
        s.bonus_min_odds = o;
    }
    if let Some(o) = odds("/limits/freebet/minCoef") {
        s.free_bet_min_odds = o;
    }
    let f = factor(doc, currency);
    let sc = |v: i64| scale(v, f, currency).unwrap_or(i64::MAX);
    s.bets.min = sc(s.bets.min).max(1);
    s.bets.max = sc(s.bets.max);
    s.bets.default = sc(s.bets.default).clamp(s.bets.min, s.bets.max.max(s.bets.min));
    let scale_market = |m: &mut sportsbook::slip::MarketLimits| {
        m.prematch_max_stake = sc(m.prematch_max_stake);
        m.prematch_max_payout = sc(m.prematch_max_payout);
        m.live_max_stake = sc(m.live_max_stake);
        m.live_max_payout = sc(m.live_max_payout);
    };
    scale_market(&mut s.market_limits);
    for m in s.market_limits_by_type.values_mut() {
        scale_market(m);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn doc() -> Value {
        json!({
            "limits": { "bets": { "default": 1, "max": 5000, "min": 0.5 },
                        "bonus": { "minCoef": 1.8 }, "freebet": { "minCoef": 2.2 } },
            "inbetKf": { "TND": 1, "HTG": 45, "PYG": 2500, "USDT": 0.33 }
        })
    }

    #[test]
    fn tnd_limits_are_the_settings_in_millimes() {
        let s = slip_settings_for(&doc(), &SlipSettings::default(), Currency::Tnd);
        assert_eq!(
            (s.bets.min, s.bets.max, s.bets.default),
            (500, 5_000_000, 1_000)
        );
        assert_eq!(s.market_limits, SlipSettings::default().market_limits);
        assert_eq!(s.bonus_min_odds.thousandths(), 1800);
        assert_eq!(s.free_bet_min_odds.thousandths(), 2200);
    }

    #[test]
    fn other_currencies_scale_exactly_by_their_factor() {
        let base = SlipSettings::default();
        // HTG (2 decimals) × 45: 0.5 TND → 22.50 HTG = 2,250 cents.
        let htg = slip_settings_for(&doc(), &base, Currency::Htg);
        assert_eq!(
            (htg.bets.min, htg.bets.max, htg.bets.default),
            (2_250, 22_500_000, 4_500)
        );
        assert_eq!(
            htg.market_limits.live_max_stake,
            base.market_limits.live_max_stake / 1000 * 45 * 100
        );
        // PYG (no decimals) × 2500: 0.5 TND → 1,250 PYG.
        let pyg = slip_settings_for(&doc(), &base, Currency::Pyg);
        assert_eq!((pyg.bets.min, pyg.bets.default), (1_250, 2_500));
        // USDT (6 decimals) × 0.33: 0.5 TND → 0.165 USDT, exactly (a float would give 0.16500000000000001).
        let usdt = slip_settings_for(&doc(), &base, Currency::Usdt);
        assert_eq!((usdt.bets.min, usdt.bets.max), (165_000, 1_650_000_000));
        // A currency without a factor keeps TND figures in its own units.
        let rub = slip_settings_for(&doc(), &base, Currency::Rub);
        assert_eq!(rub.bets.min, 50);
    }

    #[test]
    fn bad_figures_keep_the_base() {
        let bad = json!({ "limits": { "bets": { "min": "lots", "max": -3, "default": "1e3" }, "bonus": { "minCoef": "x" } }, "inbetKf": { "TND": 0 } });
        let base = SlipSettings::default();
        let s = slip_settings_for(&bad, &base, Currency::Tnd);
        assert_eq!(s.bets, base.bets);
        assert_eq!(s.bonus_min_odds, base.bonus_min_odds);
    }
}
