//! Periods in the operator's time zone: the ISO week (weekly cashback is paid for the week that
//! ended Monday 00:00) and the calendar day (the coupon machine's one coupon a day).
//!
//! Instants are Unix seconds; the zone is an IANA name (default `Africa/Tunis`). The zone
//! database is compiled in, so every machine computes the same periods.

use jiff::{civil::Date, tz::TimeZone, ToSpan};
pub use jiff::Timestamp;

/// The operator's zone when the settings name none.
pub const DEFAULT_ZONE: &str = "Africa/Tunis";

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PeriodError {
    #[error("unknown time zone {0:?}")]
    UnknownZone(String),
    #[error("instant out of range")]
    OutOfRange,
}

/// An ISO week: `key` like `2026-W48`, `[start, end)` in Unix seconds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Week {
    pub key: String,
    pub start: i64,
    pub end: i64,
}

pub fn zone(name: &str) -> Result<TimeZone, PeriodError> {
    TimeZone::get(name).map_err(|_| PeriodError::UnknownZone(name.to_owned()))
}

fn local_date(at: i64, tz: &TimeZone) -> Result<Date, PeriodError> {
    let ts = Timestamp::from_second(at).map_err(|_| PeriodError::OutOfRange)?;
    Ok(ts.to_zoned(tz.clone()).date())
}

fn midnight(date: Date, tz: &TimeZone) -> Result<i64, PeriodError> {
    let z = date
        .to_zoned(tz.clone())
        .map_err(|_| PeriodError::OutOfRange)?;
    Ok(z.start_of_day()
        .map_err(|_| PeriodError::OutOfRange)?
        .timestamp()
        .as_second())
}

/// The ISO week holding `at`.
pub fn week_of(at: i64, tz: &TimeZone) -> Result<Week, PeriodError> {
    let date = local_date(at, tz)?;
    let monday = date
        .checked_sub((date.weekday().to_monday_zero_offset() as i64).days())
        .map_err(|_| PeriodError::OutOfRange)?;
    let next = monday
        .checked_add(7.days())
        .map_err(|_| PeriodError::OutOfRange)?;
    let iso = monday.iso_week_date();
    Ok(Week {
        key: format!("{:04}-W{:02}", iso.year(), iso.week()),
        start: midnight(monday, tz)?,
        end: midnight(next, tz)?,
    })
}

/// The week before the one holding `at` (the one the Monday job pays).
pub fn previous_week(at: i64, tz: &TimeZone) -> Result<Week, PeriodError> {
    let this = week_of(at, tz)?;
    week_of(this.start - 1, tz)
}

/// The local calendar day of `at`, `YYYY-MM-DD`, with its `[start, end)`.
pub fn day_of(at: i64, tz: &TimeZone) -> Result<(String, i64, i64), PeriodError> {
    let date = local_date(at, tz)?;
    let next = date
        .checked_add(1.day())
        .map_err(|_| PeriodError::OutOfRange)?;
    Ok((date.to_string(), midnight(date, tz)?, midnight(next, tz)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: &str) -> i64 {
        s.parse::<Timestamp>().unwrap().as_second()
    }

    #[test]
    fn a_week_starts_monday_midnight_in_tunis() {
        let tz = zone(DEFAULT_ZONE).unwrap();
        // Thursday 26 November 2026, 15:00 UTC; Tunis is UTC+1 all year.
        let w = week_of(secs("2026-11-26T15:00:00Z"), &tz).unwrap();
        assert_eq!(w.key, "2026-W48");
        assert_eq!(w.start, secs("2026-11-22T23:00:00Z"));
        assert_eq!(w.end, secs("2026-11-29T23:00:00Z"));
        // Sunday 23:30 UTC is already Monday 00:30 in Tunis: the next week.
        assert_eq!(
            week_of(secs("2026-11-29T23:30:00Z"), &tz).unwrap().key,
            "2026-W49"
        );
        assert_eq!(
            previous_week(secs("2026-11-29T23:30:00Z"), &tz)
                .unwrap()
                .key,
            "2026-W48"
        );
        // ISO week-years: 1 January 2027 is a Friday of 2026-W53.
        assert_eq!(
            week_of(secs("2027-01-01T12:00:00Z"), &tz).unwrap().key,
            "2026-W53"
        );
    }

    #[test]
    fn a_week_across_daylight_saving_is_167_hours() {
        let tz = zone("Europe/Paris").unwrap();
        let w = week_of(secs("2026-03-25T12:00:00Z"), &tz).unwrap();
        assert_eq!(w.end - w.start, 167 * 3600);
    }

    #[test]
    fn days_and_unknown_zones() {
        let tz = zone(DEFAULT_ZONE).unwrap();
        let (key, start, end) = day_of(secs("2026-11-26T23:30:00Z"), &tz).unwrap();
        assert_eq!(key, "2026-11-27");
        assert_eq!(
            (start, end),
            (secs("2026-11-26T23:00:00Z"), secs("2026-11-27T23:00:00Z"))
        );
        assert!(matches!(
            zone("Mars/Olympus"),
            Err(PeriodError::UnknownZone(_))
        ));
    }
}
