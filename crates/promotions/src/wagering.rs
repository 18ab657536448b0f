//! How stakes count toward a bonus's wagering requirement, and when a bonus converts.

use crate::{bps_of, Bps, Minor};
use serde::{Deserialize, Serialize};

/// A game's category for the contribution table (spec §2's categories folded to what matters).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    Slots,
    Roulette,
    Dice,
    Crash,
    /// Blackjack, baccarat, poker and other table and card games.
    Table,
    /// Live-dealer games.
    Live,
    /// Sports bets (counted at settlement, only at odds of at least the bonus's minimum).
    Sport,
}

impl Category {
    /// The category of a game by its kind or category name (studio game kinds, provider tabs and
    /// the spec's derived categories); unknown names count as slots, the way the lobby lists them.
    pub fn of_game(kind: &str) -> Category {
        let k = kind.to_ascii_lowercase();
        let has = |w: &str| k.contains(w);
        if has("live") {
            Category::Live
        } else if has("roulette") {
            Category::Roulette
        } else if has("dice") || has("sikbo") || has("sic bo") {
            Category::Dice
        } else if has("crash") || has("aviator") {
            Category::Crash
        } else if [
            "blackjack",
            "baccarat",
            "poker",
            "holdem",
            "table",
            "card",
            "dragontiger",
            "dragon tiger",
        ]
        .iter()
        .any(|w| has(w))
        {
            Category::Table
        } else if has("sport") {
            Category::Sport
        } else {
            Category::Slots
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Category::Slots => "slots",
            Category::Roulette => "roulette",
            Category::Dice => "dice",
            Category::Crash => "crash",
            Category::Table => "table",
            Category::Live => "live",
            Category::Sport => "sport",
        }
    }
}

/// The share of a stake that counts, per category, in basis points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContributionTable {
    pub slots: Bps,
    pub roulette: Bps,
    pub dice: Bps,
    pub crash: Bps,
    pub table: Bps,
    pub live: Bps,
    pub sport: Bps,
}

impl Default for ContributionTable {
    /// Slots 100 %, dice and crash 50 %, roulette 20 %, table and live games 10 %, sports 100 %
    /// (at odds of at least the bonus's minimum).
    fn default() -> Self {
        ContributionTable {
            slots: 10_000,
            roulette: 2_000,
            dice: 5_000,
            crash: 5_000,
            table: 1_000,
            live: 1_000,
            sport: 10_000,
        }
    }
}

impl ContributionTable {
    pub fn bps(&self, c: Category) -> Bps {
        match c {
            Category::Slots => self.slots,
            Category::Roulette => self.roulette,
            Category::Dice => self.dice,
            Category::Crash => self.crash,
            Category::Table => self.table,
            Category::Live => self.live,
            Category::Sport => self.sport,
        }
    }

    /// What a casino stake of `stake` in `category` adds to the wagering.
    pub fn casino(&self, stake: Minor, category: Category) -> Minor {
        bps_of(stake.max(0), self.bps(category))
    }

    /// What a settled sports bet adds: its stake if its (total) odds reach `min_odds`, else nothing.
    /// A void or refunded bet adds nothing (`settled_stake` is what was not returned).
    pub fn sport(&self, settled_stake: Minor, odds_thousandths: u32, min_odds: u32) -> Minor {
        if odds_thousandths < min_odds {
            0
        } else {
            bps_of(settled_stake.max(0), self.sport)
        }
    }
}

/// Whether a stake breaks the bonus's maximum bet (0 = no maximum).
pub fn above_max_bet(stake: Minor, max_bet: Minor) -> bool {
    max_bet > 0 && stake > max_bet
}

/// How much is still to wager.
pub fn remaining(required: Minor, wagered: Minor) -> Minor {
    (required - wagered).max(0)
}

/// A met bonus's conversion: (to real money, forfeited).
pub fn conversion(bonus_balance: Minor, max_conversion: Minor) -> (Minor, Minor) {
    let balance = bonus_balance.max(0);
    if max_conversion > 0 && balance > max_conversion {
        (max_conversion, balance - max_conversion)
    } else {
        (balance, 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn categories_from_game_kinds() {
        assert_eq!(Category::of_game("slots"), Category::Slots);
        assert_eq!(Category::of_game("Book of Carthage"), Category::Slots);
        assert_eq!(Category::of_game("roulette"), Category::Roulette);
        assert_eq!(Category::of_game("Lightning Roulette Live"), Category::Live);
        assert_eq!(Category::of_game("dice"), Category::Dice);
        assert_eq!(Category::of_game("crash"), Category::Crash);
        assert_eq!(Category::of_game("blackJack"), Category::Table);
        assert_eq!(Category::of_game("cardGames"), Category::Table);
    }

    #[test]
    fn contributions_by_category() {
        let t = ContributionTable::default();
        assert_eq!(t.casino(1_000, Category::Slots), 1_000);
        assert_eq!(t.casino(1_000, Category::Roulette), 200);
        assert_eq!(t.casino(1_001, Category::Crash), 500);
        assert_eq!(t.casino(1_000, Category::Live), 100);
        assert_eq!(t.casino(-5, Category::Slots), 0);
        assert_eq!(t.sport(10_000, 1_800, 1_800), 10_000);
        assert_eq!(t.sport(10_000, 1_799, 1_800), 0);
    }

    #[test]
    fn max_bet_and_conversion() {
        assert!(!above_max_bet(5_000, 5_000));
        assert!(above_max_bet(5_001, 5_000));
        assert!(!above_max_bet(1_000_000, 0));
        assert_eq!(remaining(500, 120), 380);
        assert_eq!(remaining(500, 900), 0);
        assert_eq!(conversion(70_000, 50_000), (50_000, 20_000));
        assert_eq!(conversion(30_000, 50_000), (30_000, 0));
        assert_eq!(conversion(30_000, 0), (30_000, 0));
    }
}
