//! Money is integer minor units with the currency's ISO 4217 exponent; never floats.
//!
//! Formatting to major units happens only at the edge ([`Money::major_text`],
//! [`MajorUnits`] which serialises as an exact JSON number).

use serde::{Deserialize, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// An amount in minor units of some currency (e.g. millimes for TND).
pub type Minor = i64;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "UPPERCASE")]
pub enum Currency {
    Tnd,
    Tmt,
    Htg,
    Rub,
    Pyg,
    Usdt,
    Usd,
    Eur,
}

impl Currency {
    pub const ALL: [Currency; 8] = [
        Currency::Tnd,
        Currency::Tmt,
        Currency::Htg,
        Currency::Rub,
        Currency::Pyg,
        Currency::Usdt,
        Currency::Usd,
        Currency::Eur,
    ];

    /// ISO 4217 minor-unit exponent (USDT: the token's 6 decimals).
    pub const fn exponent(self) -> u32 {
        match self {
            Currency::Tnd => 3,
            Currency::Pyg => 0,
            Currency::Usdt => 6,
            Currency::Tmt | Currency::Htg | Currency::Rub | Currency::Usd | Currency::Eur => 2,
        }
    }

    pub const fn code(self) -> &'static str {
        match self {
            Currency::Tnd => "TND",
            Currency::Tmt => "TMT",
            Currency::Htg => "HTG",
            Currency::Rub => "RUB",
            Currency::Pyg => "PYG",
            Currency::Usdt => "USDT",
            Currency::Usd => "USD",
            Currency::Eur => "EUR",
        }
    }

    /// Minor units in one major unit.
    pub const fn scale(self) -> i64 {
        10i64.pow(self.exponent())
    }

    /// `major` whole units in minor units (e.g. `TND.major(10)` = 10 000 millimes).
    pub const fn major(self, major: i64) -> Minor {
        major * self.scale()
    }
}

impl fmt::Display for Currency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoneyError {
    #[error("unknown currency")]
    UnknownCurrency,
    #[error("not a valid amount")]
    Invalid,
    #[error("more decimals than the currency allows")]
    TooPrecise,
    #[error("amount out of range")]
    Overflow,
}

impl FromStr for Currency {
    type Err = MoneyError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let up = s.trim().to_ascii_uppercase();
        Currency::ALL
            .into_iter()
            .find(|c| c.code() == up)
            .ok_or(MoneyError::UnknownCurrency)
    }
}

/// Parses a decimal text in major units ("12.5", "-0.001") into exact minor units.
pub fn parse_major(text: &str, currency: Currency) -> Result<Minor, MoneyError> {
    let text = text.trim();
    let (neg, body) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let (int_part, frac_part) = match body.split_once('.') {
        Some((i, f)) => (i, f),
        None => (body, ""),
    };
    if int_part.is_empty() && frac_part.is_empty() {
        return Err(MoneyError::Invalid);
    }
    if !int_part.bytes().all(|b| b.is_ascii_digit()) || !frac_part.bytes().all(|b| b.is_ascii_digit()) {
        return Err(MoneyError::Invalid);
    }
    let exp = currency.exponent() as usize;
    let frac_trimmed = frac_part.trim_end_matches('0');
    if frac_trimmed.len() > exp {
        return Err(MoneyError::TooPrecise);
    }
    let int_value: i64 = if int_part.is_empty() { 0 } else { int_part.parse().map_err(|_| MoneyError::Overflow)? };
    let mut frac_value: i64 = 0;
    for i in 0..exp {
        let digit = frac_trimmed.as_bytes().get(i).map(|b| (b - b'0') as i64).unwrap_or(0);
        frac_value = frac_value * 10 + digit;
    }
    let minor = int_value
        .checked_mul(currency.scale())
        .and_then(|v| v.checked_add(frac_value))
        .ok_or(MoneyError::Overflow)?;
    Ok(if neg { -minor } else { minor })
}

/// Minor units as a major-unit decimal text with exactly the currency's decimals.
pub fn format_major(minor: Minor, currency: Currency) -> String {
    let exp = currency.exponent();
    let scale = currency.scale() as i128;
    let value = minor as i128;
    let sign = if value < 0 { "-" } else { "" };
    let abs = value.abs();
    if exp == 0 {
        return format!("{sign}{abs}");
    }
    format!("{sign}{}.{:0width$}", abs / scale, abs % scale, width = exp as usize)
}

/// An amount rendered as an exact JSON number in major units (no float on the way).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MajorUnits {
    pub minor: Minor,
    pub currency: Currency,
}

impl MajorUnits {
    pub fn new(minor: Minor, currency: Currency) -> Self {
        Self { minor, currency }
    }
}

impl Serialize for MajorUnits {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let text = format_major(self.minor, self.currency);
        // `RawValue` writes the digits verbatim: 12.345 stays 12.345.
        let raw = serde_json::value::RawValue::from_string(text).map_err(serde::ser::Error::custom)?;
        raw.serialize(serializer)
    }
}

impl utoipa::PartialSchema for MajorUnits {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::Number)
            .description(Some(
                "Amount in major units of the currency, exact to the currency's ISO 4217 decimals",
            ))
            .into()
    }
}
impl utoipa::ToSchema for MajorUnits {}

/// A fixed-point number written as an exact JSON number with `decimals` digits after the
/// point (an RTP of 9612 hundredths of a percent → `96.12`, a crash point of 237 → `2.37`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fixed {
    pub value: i64,
    pub decimals: u32,
}

impl Fixed {
    pub fn new(value: i64, decimals: u32) -> Self {
        Self { value, decimals }
    }
}

impl Serialize for Fixed {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let scale = 10i128.pow(self.decimals);
        let v = self.value as i128;
        let sign = if v < 0 { "-" } else { "" };
        let text = if self.decimals == 0 {
            format!("{v}")
        } else {
            format!("{sign}{}.{:0width$}", v.abs() / scale, v.abs() % scale, width = self.decimals as usize)
        };
        let raw = serde_json::value::RawValue::from_string(text).map_err(serde::ser::Error::custom)?;
        raw.serialize(serializer)
    }
}

impl utoipa::PartialSchema for Fixed {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::Number)
            .description(Some("An exact decimal number"))
            .into()
    }
}
impl utoipa::ToSchema for Fixed {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_is_exact() {
        assert_eq!(serde_json::to_string(&Fixed::new(9612, 2)).unwrap(), "96.12");
        assert_eq!(serde_json::to_string(&Fixed::new(100, 2)).unwrap(), "1.00");
        assert_eq!(serde_json::to_string(&Fixed::new(-5, 2)).unwrap(), "-0.05");
        assert_eq!(serde_json::to_string(&Fixed::new(7, 0)).unwrap(), "7");
    }

    #[test]
    fn exponents() {
        assert_eq!(Currency::Tnd.scale(), 1000);
        assert_eq!(Currency::Pyg.scale(), 1);
        assert_eq!(Currency::Usdt.scale(), 1_000_000);
        assert_eq!(Currency::Tmt.major(10), 1000);
    }

    #[test]
    fn parse_and_format_round_trip() {
        assert_eq!(parse_major("12.345", Currency::Tnd), Ok(12_345));
        assert_eq!(parse_major("12.3", Currency::Tnd), Ok(12_300));
        assert_eq!(parse_major("12", Currency::Tnd), Ok(12_000));
        assert_eq!(parse_major(".5", Currency::Tmt), Ok(50));
        assert_eq!(parse_major("-0.001", Currency::Tnd), Ok(-1));
        assert_eq!(parse_major("1.2340", Currency::Tnd), Ok(1234));
        assert_eq!(parse_major("1.2345", Currency::Tnd), Err(MoneyError::TooPrecise));
        assert_eq!(parse_major("1.5", Currency::Pyg), Err(MoneyError::TooPrecise));
        assert_eq!(parse_major("abc", Currency::Tnd), Err(MoneyError::Invalid));
        assert_eq!(parse_major("1e3", Currency::Tnd), Err(MoneyError::Invalid));
        assert_eq!(parse_major(".", Currency::Tnd), Err(MoneyError::Invalid));
        assert_eq!(parse_major("99999999999999999999", Currency::Tnd), Err(MoneyError::Overflow));
        assert_eq!(format_major(12_345, Currency::Tnd), "12.345");
        assert_eq!(format_major(-5, Currency::Tnd), "-0.005");
        assert_eq!(format_major(700, Currency::Pyg), "700");
        assert_eq!(format_major(1, Currency::Usdt), "0.000001");
        assert_eq!(format_major(i64::MIN, Currency::Tnd), "-9223372036854775.808");
    }

    #[test]
    fn major_units_serialise_as_exact_numbers() {
        let v = serde_json::to_string(&MajorUnits::new(12_345, Currency::Tnd)).unwrap();
        assert_eq!(v, "12.345");
        let v = serde_json::to_string(&MajorUnits::new(100, Currency::Pyg)).unwrap();
        assert_eq!(v, "100");
        let v = serde_json::to_value(MajorUnits::new(10_000, Currency::Tnd)).unwrap();
        assert!(v.is_number());
    }

    #[test]
    fn currency_codes_parse() {
        assert_eq!("tnd".parse::<Currency>(), Ok(Currency::Tnd));
        assert!("FUN".parse::<Currency>().is_err());
    }
}
