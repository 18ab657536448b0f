//! Provider and partner amounts: decimal texts in major units ("12.500") parsed exactly into integer
//! minor units with the currency's ISO 4217 exponent (TND 3), and back. Never a float.
//!
//! Accepted: ASCII digits, optionally one `.` followed by 1 to `exponent` digits. Refused:
//! a sign (a partner never sends a negative amount; the direction is the call's type),
//! exponents (`1e3`), `NaN`/`Infinity`, spaces, an empty integer or fraction part (`.5`,
//! `5.`), more decimals than the currency has (even zeros: `1.0000` TND is refused, so a
//! partner formatting with the wrong exponent is noticed at once), more than 30 characters.

use kernel::money::{format_major, parse_major};
use kernel::{Currency, Minor};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AmountError {
    /// Not a plain decimal text.
    Invalid,
    /// More decimals than the currency's exponent.
    TooPrecise,
    /// Beyond 64-bit minor units.
    Overflow,
}

/// `"12.5"` TND → `12500`.
pub fn parse(text: &str, currency: Currency) -> Result<Minor, AmountError> {
    if text.is_empty() || text.len() > 30 {
        return Err(AmountError::Invalid);
    }
    let (int_part, frac) = match text.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (text, None),
    };
    if int_part.is_empty() || !int_part.bytes().all(|b| b.is_ascii_digit()) {
        return Err(AmountError::Invalid);
    }
    if let Some(f) = frac {
        if f.is_empty() || !f.bytes().all(|b| b.is_ascii_digit()) {
            return Err(AmountError::Invalid);
        }
        if f.len() > currency.exponent() as usize {
            return Err(AmountError::TooPrecise);
        }
    }
    parse_major(text, currency).map_err(|e| match e {
        kernel::money::MoneyError::Overflow => AmountError::Overflow,
        kernel::money::MoneyError::TooPrecise => AmountError::TooPrecise,
        _ => AmountError::Invalid,
    })
}

/// `12500` TND → `"12.500"` (always the currency's decimals).
pub fn format(minor: Minor, currency: Currency) -> String {
    format_major(minor, currency)
}

/// A JSON amount as a partner sends it: a JSON number's exact text (`12.5`) or a string
/// holding one (`"12.5"`), taken from the raw JSON so no float is ever involved.
pub fn parse_json(raw: &serde_json::value::RawValue, currency: Currency) -> Result<Minor, AmountError> {
    let text = raw.get().trim();
    let text = match text.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
        Some(inner) => inner,
        None => text,
    };
    parse(text, currency)
}

/// A provider's decimal text that may carry more decimals than the currency has, as long
/// as the extra ones are zeros (Evolution writes 6 fixed decimals: `"12.500000"` TND is
/// 12 500; `"12.5000001"` is refused as too precise). Signs are refused like [`parse`].
pub fn parse_padded(text: &str, currency: Currency) -> Result<Minor, AmountError> {
    let exp = currency.exponent() as usize;
    match text.split_once('.') {
        Some((int_part, frac)) if frac.len() > exp && frac.len() <= 12 => {
            let (kept, extra) = frac.split_at(exp);
            if !extra.bytes().all(|b| b.is_ascii_digit()) {
                return Err(AmountError::Invalid);
            }
            if extra.bytes().any(|b| b != b'0') {
                return Err(AmountError::TooPrecise);
            }
            if exp == 0 {
                parse(int_part, currency)
            } else {
                parse(&format!("{int_part}.{kept}"), currency)
            }
        }
        _ => parse(text, currency),
    }
}

/// `12500` TND with 6 decimals → `"12.500000"` (a provider's fixed format); fewer decimals
/// than the currency's are never asked for.
pub fn format_fixed(minor: Minor, currency: Currency, decimals: u32) -> String {
    let base = format(minor, currency);
    let extra = decimals.saturating_sub(currency.exponent()) as usize;
    if extra == 0 {
        return base;
    }
    let dot = if currency.exponent() == 0 { "." } else { "" };
    format!("{base}{dot}{}", "0".repeat(extra))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_minor_units_with_the_currency_exponent() {
        assert_eq!(parse("12.5", Currency::Tnd), Ok(12_500));
        assert_eq!(parse("12.500", Currency::Tnd), Ok(12_500));
        assert_eq!(parse("0.001", Currency::Tnd), Ok(1));
        assert_eq!(parse("0", Currency::Tnd), Ok(0));
        assert_eq!(parse("007.10", Currency::Usd), Ok(710));
        assert_eq!(parse("15", Currency::Pyg), Ok(15));
        assert_eq!(parse("0.000001", Currency::Usdt), Ok(1));
    }

    #[test]
    fn refusals() {
        for bad in ["", "-1", "+1", "1e3", "1E3", "NaN", "nan", "Infinity", " 1", "1 ", ".5", "5.", "1.2.3", "1,5", "0x10", "١٢"] {
            assert_eq!(parse(bad, Currency::Tnd), Err(AmountError::Invalid), "{bad:?}");
        }
        assert_eq!(parse("0.0001", Currency::Tnd), Err(AmountError::TooPrecise));
        assert_eq!(parse("1.0000", Currency::Tnd), Err(AmountError::TooPrecise));
        assert_eq!(parse("1.5", Currency::Pyg), Err(AmountError::TooPrecise));
        assert_eq!(parse("99999999999999999999", Currency::Tnd), Err(AmountError::Overflow));
        assert_eq!(parse(&"1".repeat(31), Currency::Tnd), Err(AmountError::Invalid));
    }

    #[test]
    fn json_numbers_and_strings_read_exactly() {
        let raw = |s: &str| serde_json::value::RawValue::from_string(s.to_string()).unwrap();
        assert_eq!(parse_json(&raw("1.1"), Currency::Tnd), Ok(1_100));
        assert_eq!(parse_json(&raw("\"0.3\""), Currency::Tnd), Ok(300));
        assert_eq!(parse_json(&raw("1e2"), Currency::Tnd), Err(AmountError::Invalid));
        assert_eq!(parse_json(&raw("-2"), Currency::Tnd), Err(AmountError::Invalid));
        assert_eq!(format(12_500, Currency::Tnd), "12.500");
        assert_eq!(format(0, Currency::Usd), "0.00");
    }

    #[test]
    fn padded_decimals_are_zeros_only() {
        assert_eq!(parse_padded("12.500000", Currency::Tnd), Ok(12_500));
        assert_eq!(parse_padded("12.5", Currency::Tnd), Ok(12_500));
        assert_eq!(parse_padded("12.5000001", Currency::Tnd), Err(AmountError::TooPrecise));
        assert_eq!(parse_padded("12.00", Currency::Pyg), Ok(12));
        assert_eq!(parse_padded("12.5x0000", Currency::Tnd), Err(AmountError::Invalid));
        assert_eq!(parse_padded("-1.000000", Currency::Tnd), Err(AmountError::Invalid));
        assert_eq!(format_fixed(12_500, Currency::Tnd, 6), "12.500000");
        assert_eq!(format_fixed(12, Currency::Pyg, 2), "12.00");
        assert_eq!(format_fixed(1_250, Currency::Usd, 2), "12.50");
    }
}
