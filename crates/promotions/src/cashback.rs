//! Cashback shares: net losses, the weekly cashback tiers, rakeback and super-agent cashback.
//!
//! Amounts here are minor units of the player's currency; tier thresholds and caps are written in
//! major units and scaled by the currency's exponent.

use crate::{bps_of, Bps, Currency, Minor};
use serde::{Deserialize, Serialize};

/// A period's net loss: what was staked less what came back (wins and refunds); never negative.
pub fn net_loss(staked: Minor, returned: Minor) -> Minor {
    (staked - returned).max(0)
}

/// One weekly-cashback tier: from `from_major` of net loss, `bps` of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tier {
    pub from_major: i64,
    pub bps: Bps,
}

/// The weekly cashback rule (spec §9: up to 8 %, paid Mondays, at most 10 000).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WeeklyRule {
    /// Ascending by `from_major`.
    pub tiers: Vec<Tier>,
    pub cap_major: i64,
}

impl Default for WeeklyRule {
    /// 5 % from 10, 6 % from 500, 7 % from 2 000, 8 % from 5 000 of net loss; at most 10 000.
    fn default() -> Self {
        WeeklyRule {
            tiers: vec![
                Tier {
                    from_major: 10,
                    bps: 500,
                },
                Tier {
                    from_major: 500,
                    bps: 600,
                },
                Tier {
                    from_major: 2_000,
                    bps: 700,
                },
                Tier {
                    from_major: 5_000,
                    bps: 800,
                },
            ],
            cap_major: 10_000,
        }
    }
}

impl WeeklyRule {
    /// The percentage (basis points) a net loss earns; 0 below the first tier.
    pub fn rate(&self, loss: Minor, currency: Currency) -> Bps {
        self.tiers
            .iter()
            .take_while(|t| loss >= currency.major(t.from_major))
            .last()
            .map_or(0, |t| t.bps)
    }

    /// The cashback a week's net loss earns.
    pub fn cashback(&self, loss: Minor, currency: Currency) -> Minor {
        bps_of(loss, self.rate(loss, currency)).min(currency.major(self.cap_major))
    }

    /// Checks the tiers ascend and stay within 0–100 %.
    pub fn validate(&self) -> Result<(), &'static str> {
        if self
            .tiers
            .windows(2)
            .any(|w| w[0].from_major >= w[1].from_major)
        {
            return Err("tiers must ascend");
        }
        if self
            .tiers
            .iter()
            .any(|t| !(0..=10_000).contains(&t.bps) || t.from_major < 0)
            || self.cap_major < 0
        {
            return Err("rates are 0–100 % and thresholds non-negative");
        }
        Ok(())
    }
}

/// Rakeback on a lost qualifying express (spec §5, §9: 10 % to 25 %, the most from 9 events):
/// the share of the stake returned, by the number of distinct events.
pub fn rakeback_bps(events: usize) -> Bps {
    match events {
        0..=4 => 0,
        5 => 1_000,
        6 => 1_300,
        7 => 1_600,
        8 => 2_000,
        _ => 2_500,
    }
}

/// Super-agent cashback (spec §9): 10 % of its network's net loss.
pub const SUPER_AGENT_BPS: Bps = 1_000;

/// The cashback a transfer to real money needs at least (spec §5: 10 in major units).
pub fn transfer_minimum(currency: Currency) -> Minor {
    currency.major(10)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weekly_tiers_and_cap() {
        let r = WeeklyRule::default();
        let tnd = |m: i64| Currency::Tnd.major(m);
        assert_eq!(r.cashback(tnd(9), Currency::Tnd), 0);
        assert_eq!(r.cashback(tnd(10), Currency::Tnd), 500);
        assert_eq!(r.cashback(tnd(499), Currency::Tnd), tnd(499) * 5 / 100);
        assert_eq!(r.cashback(tnd(500), Currency::Tnd), tnd(30));
        assert_eq!(r.cashback(tnd(5_000), Currency::Tnd), tnd(400));
        assert_eq!(r.cashback(tnd(1_000_000), Currency::Tnd), tnd(10_000));
        // The same rule in a currency without decimals.
        assert_eq!(r.cashback(Currency::Pyg.major(600), Currency::Pyg), 36);
        assert!(r.validate().is_ok());
        let bad = WeeklyRule {
            tiers: vec![
                Tier {
                    from_major: 10,
                    bps: 1,
                },
                Tier {
                    from_major: 10,
                    bps: 2,
                },
            ],
            cap_major: 1,
        };
        assert!(bad.validate().is_err());
    }

    #[test]
    fn net_loss_rakeback_and_minimum() {
        assert_eq!(net_loss(1_000, 400), 600);
        assert_eq!(net_loss(1_000, 4_000), 0);
        assert_eq!(rakeback_bps(4), 0);
        assert_eq!(rakeback_bps(5), 1_000);
        assert_eq!(rakeback_bps(9), 2_500);
        assert_eq!(rakeback_bps(30), 2_500);
        assert_eq!(transfer_minimum(Currency::Tnd), 10_000);
    }
}
