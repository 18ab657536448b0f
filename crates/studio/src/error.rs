use thiserror::Error;

/// Why a bet is refused (shared by roulette and dice). Display texts are English.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BetError {
    #[error("the amount must be a positive whole number of minor units not above {max}")]
    InvalidAmount { max: i64 },
    #[error("{0} is not a number on the wheel (0 to 36)")]
    NumberOutOfRange(u8),
    #[error("a {kind} bet covers {expected} numbers, got {got}")]
    WrongCount { kind: &'static str, expected: usize, got: usize },
    #[error("{number} appears twice in the bet")]
    DuplicateNumber { number: u8 },
    #[error("those numbers do not form a {kind} on the table layout")]
    NotOnLayout { kind: &'static str },
    #[error("a {kind} bet names one {kind} from 1 to 3")]
    InvalidSection { kind: &'static str },
    #[error("the target must be between {min} and {max} hundredths for an {direction} bet")]
    TargetOutOfRange { min: u32, max: u32, direction: &'static str },
    #[error("the bet must be a positive multiple of {multiple} minor units")]
    NotAMultiple { multiple: i64 },
    #[error("too many bets on one spin (at most {max})")]
    TooManyBets { max: usize },
}
