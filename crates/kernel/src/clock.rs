//! Time is stored as epoch milliseconds (BIGINT) everywhere.

use std::time::{SystemTime, UNIX_EPOCH};

pub const SECOND_MS: i64 = 1_000;
pub const MINUTE_MS: i64 = 60 * SECOND_MS;
pub const HOUR_MS: i64 = 60 * MINUTE_MS;
pub const DAY_MS: i64 = 24 * HOUR_MS;

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// RFC 3339 UTC text with millisecond precision, e.g. `2026-11-22T05:00:00.000Z`.
pub fn to_rfc3339(ms: i64) -> String {
    let nanos = (ms as i128) * 1_000_000;
    match time::OffsetDateTime::from_unix_timestamp_nanos(nanos) {
        Ok(t) => format!(
            "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
            t.year(),
            u8::from(t.month()),
            t.day(),
            t.hour(),
            t.minute(),
            t.second(),
            t.millisecond()
        ),
        Err(_) => String::from("1970-01-01T00:00:00.000Z"),
    }
}

/// Parses a query-string time bound: `YYYY-MM-DD` (start of that UTC day; with
/// `end_of_day` the first millisecond of the next day), a full RFC 3339 time, or an
/// integer (seconds when below 10^11, milliseconds otherwise).
pub fn parse_bound(text: &str, end_of_day: bool) -> Option<i64> {
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    if let Ok(n) = text.parse::<i64>() {
        return Some(if n.abs() < 100_000_000_000 { n * 1000 } else { n });
    }
    if let Ok(t) = time::OffsetDateTime::parse(text, &time::format_description::well_known::Rfc3339) {
        return Some((t.unix_timestamp_nanos() / 1_000_000) as i64);
    }
    let fmt = time::macros::format_description!("[year]-[month]-[day]");
    let fmt_dmy = time::macros::format_description!("[day]-[month]-[year]");
    let date = time::Date::parse(text, &fmt)
        .or_else(|_| time::Date::parse(text, &fmt_dmy))
        .ok()?;
    let day = date.midnight().assume_utc().unix_timestamp() * 1000;
    Some(if end_of_day { day + DAY_MS } else { day })
}

/// The day number (days since 1970-01-01) of a civil date `YYYY-MM-DD`.
pub fn day_number(text: &str) -> Option<i64> {
    let fmt = time::macros::format_description!("[year]-[month]-[day]");
    let date = time::Date::parse(text.trim(), &fmt).ok()?;
    Some((date.to_julian_day() - time::Date::from_calendar_date(1970, time::Month::January, 1).ok()?.to_julian_day()) as i64)
}

/// The civil date `YYYY-MM-DD` of a day number (days since 1970-01-01).
pub fn date_of_day(day: i64) -> String {
    let epoch = 2_440_588i64; // the Julian day of 1970-01-01
    match i32::try_from(epoch + day).ok().and_then(|j| time::Date::from_julian_day(j).ok()) {
        Some(d) => format!("{:04}-{:02}-{:02}", d.year(), u8::from(d.month()), d.day()),
        None => String::from("1970-01-01"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_rfc3339() {
        assert_eq!(to_rfc3339(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(to_rfc3339(1_795_323_600_123), "2026-11-22T05:00:00.123Z");
    }

    #[test]
    fn parses_bounds() {
        assert_eq!(parse_bound("1970-01-02", false), Some(DAY_MS));
        assert_eq!(parse_bound("1970-01-02", true), Some(2 * DAY_MS));
        assert_eq!(parse_bound("02-01-1970", false), Some(DAY_MS));
        assert_eq!(parse_bound("86400", false), Some(DAY_MS));
        assert_eq!(parse_bound("1795323600123", false), Some(1_795_323_600_123));
        assert_eq!(parse_bound("2026-11-22T05:00:00.123Z", false), Some(1_795_323_600_123));
        assert_eq!(parse_bound("yesterday", false), None);
        assert_eq!(parse_bound("", false), None);
    }

    #[test]
    fn day_numbers() {
        assert_eq!(day_number("1970-01-01"), Some(0));
        assert_eq!(day_number("2026-11-28"), Some(20_785));
        assert_eq!(date_of_day(20_785), "2026-11-28");
        assert_eq!(date_of_day(-1), "1969-12-31");
        assert_eq!(day_number("2024-02-30"), None);
        for d in [0, 59, 60, 365, 10_000, 20_785] {
            assert_eq!(day_number(&date_of_day(d)), Some(d));
        }
    }
}
