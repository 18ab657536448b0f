//! Promo codes: kinds, terms and the refusal codes 2200–2215 (spec §8), checked in one order so
//! a player always hears the first reason that applies.

use crate::Minor;
use serde::{Deserialize, Serialize};

/// What a code gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A bonus from a template, granted at activation.
    Bonus,
    /// Free bets, inactive until the player activates them.
    FreeBets,
    /// A bonus from a template on the player's next deposit.
    DepositBonus,
    /// Links a new player to a partner (`ref_id`); given at sign-up only.
    PartnerReferral,
}

impl Kind {
    pub fn parse(s: &str) -> Option<Kind> {
        match s {
            "bonus" => Some(Kind::Bonus),
            "free_bets" => Some(Kind::FreeBets),
            "deposit_bonus" => Some(Kind::DepositBonus),
            "partner_referral" => Some(Kind::PartnerReferral),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Bonus => "bonus",
            Kind::FreeBets => "free_bets",
            Kind::DepositBonus => "deposit_bonus",
            Kind::PartnerReferral => "partner_referral",
        }
    }
}

/// A code's terms as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CodeTerms {
    /// As stored; `None` when the stored kind is not one this version knows (2205).
    pub kind: Option<Kind>,
    pub blocked: bool,
    pub valid_from: i64,
    pub valid_until: Option<i64>,
    /// Activations allowed in all (0: no limit).
    pub max_uses: i64,
    /// The partner who owns the code, if any.
    pub partner_id: Option<i64>,
    /// Only players registered at or after `valid_from`.
    pub new_players_only: bool,
    /// The currency the code is for (`None`: any).
    pub currency: Option<String>,
    /// Deposits the player must have made (count).
    pub min_deposits: i64,
    /// Stakes the player must have placed since registration (minor units).
    pub min_turnover: Minor,
}

/// What the check needs to know about the player and the moment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerFacts {
    pub user_id: i64,
    pub currency: String,
    pub registered_at: i64,
    /// The partner the player was referred by, if any.
    pub referred_by: Option<i64>,
    pub already_activated: bool,
    pub uses_so_far: i64,
    pub deposits: i64,
    pub turnover: Minor,
    /// A withdrawal was requested after the player's last deposit (a deposit bonus needs the
    /// deposit to stay).
    pub withdrew_since_deposit: bool,
    /// The check happens at sign-up (a referral code is only for sign-up).
    pub at_signup: bool,
    /// Wrong codes tried recently by this player (or address).
    pub recent_wrong_codes: u32,
}

/// Why a code was refused: each its own code in 2200–2215 (docs/API.md lists them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    #[error("no such promo code")]
    NotFound,
    #[error("the promo code has expired")]
    Expired,
    #[error("the promo code is already activated")]
    AlreadyActivated,
    #[error("the promo code belongs to another partner")]
    AnotherPartner,
    #[error("a partner cannot use their own code")]
    OwnCode,
    #[error("unknown promo code type")]
    UnknownType,
    #[error("the promo code was blocked")]
    Blocked,
    #[error("a withdrawal was made after the deposit")]
    WithdrawalAfterDeposit,
    #[error("the promo code's terms are not met")]
    TermsNotMet,
    #[error("not enough deposits")]
    NotEnoughDeposits,
    #[error("the promo code is not valid yet")]
    NotYetValid,
    #[error("the promo code has been used up")]
    UsedUp,
    #[error("the promo code is for new players only")]
    NewPlayersOnly,
    #[error("the promo code is not for this currency")]
    WrongCurrency,
    #[error("the promo code is for sign-up only")]
    SignupOnly,
    #[error("too many wrong codes; try again later")]
    TooManyAttempts,
}

impl Refusal {
    pub const ALL: [Refusal; 16] = [
        Refusal::NotFound,
        Refusal::Expired,
        Refusal::AlreadyActivated,
        Refusal::AnotherPartner,
        Refusal::OwnCode,
        Refusal::UnknownType,
        Refusal::Blocked,
        Refusal::WithdrawalAfterDeposit,
        Refusal::TermsNotMet,
        Refusal::NotEnoughDeposits,
        Refusal::NotYetValid,
        Refusal::UsedUp,
        Refusal::NewPlayersOnly,
        Refusal::WrongCurrency,
        Refusal::SignupOnly,
        Refusal::TooManyAttempts,
    ];

    /// The spec's code: 2200 + the position above.
    pub fn code(self) -> i64 {
        2200 + Refusal::ALL
            .iter()
            .position(|r| *r == self)
            .expect("listed") as i64
    }
}

/// Wrong codes a player may try before 2215 (per hour).
pub const MAX_WRONG_CODES: u32 = 10;

/// Checks a code for a player; `terms` is `None` when no such code exists.
pub fn check(terms: Option<&CodeTerms>, p: &PlayerFacts, now: i64) -> Result<Kind, Refusal> {
    if p.recent_wrong_codes >= MAX_WRONG_CODES {
        return Err(Refusal::TooManyAttempts);
    }
    let t = terms.ok_or(Refusal::NotFound)?;
    if t.blocked {
        return Err(Refusal::Blocked);
    }
    let kind = t.kind.ok_or(Refusal::UnknownType)?;
    if now < t.valid_from {
        return Err(Refusal::NotYetValid);
    }
    if t.valid_until.is_some_and(|until| now >= until) {
        return Err(Refusal::Expired);
    }
    if t.partner_id == Some(p.user_id) {
        return Err(Refusal::OwnCode);
    }
    if let (Some(owner), Some(referrer)) = (t.partner_id, p.referred_by) {
        if owner != referrer {
            return Err(Refusal::AnotherPartner);
        }
    }
    if kind == Kind::PartnerReferral && !p.at_signup {
        return Err(Refusal::SignupOnly);
    }
    if p.already_activated {
        return Err(Refusal::AlreadyActivated);
    }
    if t.max_uses > 0 && p.uses_so_far >= t.max_uses {
        return Err(Refusal::UsedUp);
    }
    if t.currency
        .as_deref()
        .is_some_and(|c| !c.eq_ignore_ascii_case(&p.currency))
    {
        return Err(Refusal::WrongCurrency);
    }
    if t.new_players_only && p.registered_at < t.valid_from {
        return Err(Refusal::NewPlayersOnly);
    }
    if p.deposits < t.min_deposits {
        return Err(Refusal::NotEnoughDeposits);
    }
    if p.turnover < t.min_turnover {
        return Err(Refusal::TermsNotMet);
    }
    if kind == Kind::DepositBonus && p.withdrew_since_deposit {
        return Err(Refusal::WithdrawalAfterDeposit);
    }
    Ok(kind)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terms() -> CodeTerms {
        CodeTerms {
            kind: Some(Kind::Bonus),
            blocked: false,
            valid_from: 100,
            valid_until: Some(1_000),
            max_uses: 3,
            partner_id: None,
            new_players_only: false,
            currency: Some("TND".into()),
            min_deposits: 0,
            min_turnover: 0,
        }
    }

    fn player() -> PlayerFacts {
        PlayerFacts {
            user_id: 7,
            currency: "TND".into(),
            registered_at: 50,
            referred_by: None,
            already_activated: false,
            uses_so_far: 0,
            deposits: 0,
            turnover: 0,
            withdrew_since_deposit: false,
            at_signup: false,
            recent_wrong_codes: 0,
        }
    }

    #[test]
    fn codes_are_2200_to_2215_each_once() {
        let codes: Vec<i64> = Refusal::ALL.iter().map(|r| r.code()).collect();
        assert_eq!(codes, (2200..=2215).collect::<Vec<_>>());
    }

    #[test]
    fn every_refusal_is_reachable() {
        let ok = |t: &CodeTerms, p: &PlayerFacts, now| check(Some(t), p, now);
        assert_eq!(ok(&terms(), &player(), 500), Ok(Kind::Bonus));
        assert_eq!(check(None, &player(), 500), Err(Refusal::NotFound));
        type Change = Box<dyn Fn(&mut CodeTerms, &mut PlayerFacts)>;
        let cases: Vec<(Change, i64, Refusal)> = vec![
            (Box::new(|_, _| {}), 1_000, Refusal::Expired),
            (Box::new(|_, _| {}), 99, Refusal::NotYetValid),
            (
                Box::new(|_, p| p.already_activated = true),
                500,
                Refusal::AlreadyActivated,
            ),
            (
                Box::new(|t, p| {
                    t.partner_id = Some(1);
                    p.referred_by = Some(2)
                }),
                500,
                Refusal::AnotherPartner,
            ),
            (
                Box::new(|t, _| t.partner_id = Some(7)),
                500,
                Refusal::OwnCode,
            ),
            (Box::new(|t, _| t.kind = None), 500, Refusal::UnknownType),
            (Box::new(|t, _| t.blocked = true), 500, Refusal::Blocked),
            (
                Box::new(|t, p| {
                    t.kind = Some(Kind::DepositBonus);
                    p.withdrew_since_deposit = true
                }),
                500,
                Refusal::WithdrawalAfterDeposit,
            ),
            (
                Box::new(|t, _| t.min_turnover = 1),
                500,
                Refusal::TermsNotMet,
            ),
            (
                Box::new(|t, _| t.min_deposits = 1),
                500,
                Refusal::NotEnoughDeposits,
            ),
            (Box::new(|_, p| p.uses_so_far = 3), 500, Refusal::UsedUp),
            (
                Box::new(|t, _| t.new_players_only = true),
                500,
                Refusal::NewPlayersOnly,
            ),
            (
                Box::new(|_, p| p.currency = "PYG".into()),
                500,
                Refusal::WrongCurrency,
            ),
            (
                Box::new(|t, _| t.kind = Some(Kind::PartnerReferral)),
                500,
                Refusal::SignupOnly,
            ),
            (
                Box::new(|_, p| p.recent_wrong_codes = MAX_WRONG_CODES),
                500,
                Refusal::TooManyAttempts,
            ),
        ];
        let mut seen = vec![Refusal::NotFound];
        for (change, now, want) in cases {
            let (mut t, mut p) = (terms(), player());
            change(&mut t, &mut p);
            assert_eq!(ok(&t, &p, now), Err(want));
            seen.push(want);
        }
        for r in Refusal::ALL {
            assert!(seen.contains(&r), "{r:?} has no case");
        }
        // A referral code at sign-up, from the partner who referred the player, passes.
        let (mut t, mut p) = (terms(), player());
        t.kind = Some(Kind::PartnerReferral);
        t.partner_id = Some(1);
        p.referred_by = Some(1);
        p.at_signup = true;
        assert_eq!(ok(&t, &p, 500), Ok(Kind::PartnerReferral));
    }
}
