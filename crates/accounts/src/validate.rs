//! Pure validation rules of spec §5 (unit-tested, no I/O).

/// Why a field was refused: a stable, machine-readable reason code sent to clients as
/// `result.reason` (with `result.field`, the field's wire name), and an English text for
/// `error_message`. The list is documented in docs/API.md next to code 47.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// Longer than the field allows.
    TooLong,
    /// Control characters, or characters outside the field's alphabet.
    BadCharacters,
    /// Not a date.
    InvalidDate,
    /// A birth date before 1900.
    TooOld,
    /// A birth date of someone under 18.
    Underage,
    /// Not one of the allowed values (gender).
    InvalidChoice,
    /// The field may not be changed here (a phone already set).
    CannotChange,
    /// Malformed (phone, e-mail, login).
    Invalid,
    /// A password that fails the strength rule (code 231).
    Weak,
    /// Another account already uses this phone or e-mail (code 1).
    Taken,
    /// The current password is wrong (code 4 on a password change).
    Wrong,
    /// No account uses this login, e-mail or phone (codes 3, 21, 22).
    Unknown,
    /// An SMS or recovery code that does not match (codes 12, 102; see `attemptsLeft`).
    CodeMismatch,
    /// No live code: never sent, used, superseded, expired or out of attempts (10, 12, 101, 102).
    CodeExpired,
}

impl Reason {
    pub const ALL: [Reason; 14] = [
        Reason::TooLong,
        Reason::BadCharacters,
        Reason::InvalidDate,
        Reason::TooOld,
        Reason::Underage,
        Reason::InvalidChoice,
        Reason::CannotChange,
        Reason::Invalid,
        Reason::Weak,
        Reason::Taken,
        Reason::Wrong,
        Reason::Unknown,
        Reason::CodeMismatch,
        Reason::CodeExpired,
    ];

    /// The stable code sent as `result.reason`.
    pub const fn code(self) -> &'static str {
        match self {
            Reason::TooLong => "too_long",
            Reason::BadCharacters => "bad_characters",
            Reason::InvalidDate => "invalid_date",
            Reason::TooOld => "too_old",
            Reason::Underage => "underage",
            Reason::InvalidChoice => "invalid_choice",
            Reason::CannotChange => "cannot_change",
            Reason::Invalid => "invalid",
            Reason::Weak => "weak",
            Reason::Taken => "taken",
            Reason::Wrong => "wrong",
            Reason::Unknown => "unknown",
            Reason::CodeMismatch => "code_mismatch",
            Reason::CodeExpired => "code_expired",
        }
    }

    /// The English explanation (after `field: ` in `error_message` for code 47).
    pub const fn text(self) -> &'static str {
        match self {
            Reason::TooLong => "too long",
            Reason::BadCharacters => "contains characters that are not allowed",
            Reason::InvalidDate => "must be a date (YYYY-MM-DD)",
            Reason::TooOld => "is too far in the past",
            Reason::Underage => "players must be at least 18 years old",
            Reason::InvalidChoice => "must be male or female",
            Reason::CannotChange => "cannot be changed here",
            Reason::Invalid => "is invalid",
            Reason::Weak => "is too weak",
            Reason::Taken => "is already used by another account",
            Reason::Wrong => "is wrong",
            Reason::Unknown => "is not the login of any account",
            Reason::CodeMismatch => "does not match",
            Reason::CodeExpired => "has expired or was used up",
        }
    }
}

/// Tunisia: country code 216, exactly 8 local digits.
pub const COUNTRY_CODE: &str = "216";
pub const LOCAL_PHONE_LEN: usize = 8;

/// Normalises a phone to `216XXXXXXXX`: spaces, dashes, brackets and a leading `+` or
/// `00` are dropped; 8 bare digits get the country code. `None` when invalid (code 15).
pub fn normalize_phone(input: &str) -> Option<String> {
    let mut s: String = input.chars().filter(|c| !matches!(c, ' ' | '-' | '(' | ')' | '.')).collect();
    if let Some(rest) = s.strip_prefix('+') {
        s = rest.to_string();
    } else if let Some(rest) = s.strip_prefix("00") {
        s = rest.to_string();
    }
    if !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if s.len() == LOCAL_PHONE_LEN {
        s = format!("{COUNTRY_CODE}{s}");
    }
    if s.len() == COUNTRY_CODE.len() + LOCAL_PHONE_LEN && s.starts_with(COUNTRY_CODE) {
        Some(s)
    } else {
        None
    }
}

/// A standard address pattern: one `@`, a non-empty local part without spaces, a domain
/// with a dot and a TLD of 2+ letters. Returns the lower-cased address.
pub fn normalize_email(input: &str) -> Option<String> {
    let s = input.trim().to_ascii_lowercase();
    if s.len() > 254 || s.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return None;
    }
    let (local, domain) = s.split_once('@')?;
    if local.is_empty() || local.len() > 64 || domain.contains('@') {
        return None;
    }
    if !local.chars().all(|c| c.is_ascii_alphanumeric() || "!#$%&'*+/=?^_`{|}~.-".contains(c))
        || local.starts_with('.')
        || local.ends_with('.')
        || local.contains("..")
    {
        return None;
    }
    let labels: Vec<&str> = domain.split('.').collect();
    if labels.len() < 2 {
        return None;
    }
    for label in &labels {
        if label.is_empty()
            || label.len() > 63
            || label.starts_with('-')
            || label.ends_with('-')
            || !label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        {
            return None;
        }
    }
    let tld = labels[labels.len() - 1];
    if tld.len() < 2 || !tld.chars().all(|c| c.is_ascii_alphabetic()) {
        return None;
    }
    Some(s)
}

/// Spec §5: a login is a phone when it has neither `@` nor a dot.
pub fn login_is_phone(login: &str) -> bool {
    !login.contains('@') && !login.contains('.')
}

/// Spec §5: at least 6 characters, 2 digits and 2 letters (code 231 otherwise); at most
/// 128 characters so hashing stays bounded.
pub fn password_is_strong(password: &str) -> bool {
    let digits = password.chars().filter(|c| c.is_ascii_digit()).count();
    let letters = password.chars().filter(|c| c.is_alphabetic()).count();
    password.chars().count() >= 6 && password.len() <= 128 && digits >= 2 && letters >= 2
}

/// `YYYY-MM-DD` (or `DD-MM-YYYY` / `DD.MM.YYYY`) of someone at least 18 years old on
/// `today`, returned as `YYYY-MM-DD`.
pub fn normalize_birth_date(input: &str, today: time::Date) -> Result<String, Reason> {
    let s = input.trim();
    let iso = time::macros::format_description!("[year]-[month]-[day]");
    let dmy = time::macros::format_description!("[day]-[month]-[year]");
    let dotted = time::macros::format_description!("[day].[month].[year]");
    let date = time::Date::parse(s, &iso)
        .or_else(|_| time::Date::parse(s, &dmy))
        .or_else(|_| time::Date::parse(s, &dotted))
        .map_err(|_| Reason::InvalidDate)?;
    if date.year() < 1900 {
        return Err(Reason::TooOld);
    }
    let adult_on = date.replace_year(date.year() + 18).unwrap_or_else(|_| {
        // 29 February: adulthood on 1 March.
        time::Date::from_calendar_date(date.year() + 18, time::Month::March, 1).unwrap_or(date)
    });
    if adult_on > today {
        return Err(Reason::Underage);
    }
    Ok(format!("{:04}-{:02}-{:02}", date.year(), u8::from(date.month()), date.day()))
}

/// `male` / `female` (also `m`/`f`, `1`/`2`), or empty to clear.
pub fn normalize_gender(input: &str) -> Result<Option<String>, Reason> {
    match input.trim().to_ascii_lowercase().as_str() {
        "" => Ok(None),
        "male" | "m" | "1" | "man" => Ok(Some("male".into())),
        "female" | "f" | "2" | "woman" => Ok(Some("female".into())),
        _ => Err(Reason::InvalidChoice),
    }
}

/// A free-text profile field: trimmed, at most `max` characters, no control characters.
pub fn clean_text(input: &str, max: usize) -> Result<String, Reason> {
    let s = input.trim();
    if s.chars().any(|c| c.is_control()) {
        return Err(Reason::BadCharacters);
    }
    if s.chars().count() > max {
        return Err(Reason::TooLong);
    }
    Ok(s.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phones() {
        assert_eq!(normalize_phone("+21612345678").as_deref(), Some("21612345678"));
        assert_eq!(normalize_phone("21612345678").as_deref(), Some("21612345678"));
        assert_eq!(normalize_phone("0021612345678").as_deref(), Some("21612345678"));
        assert_eq!(normalize_phone("12 345 678").as_deref(), Some("21612345678"));
        assert_eq!(normalize_phone("+216 12-345-678").as_deref(), Some("21612345678"));
        assert_eq!(normalize_phone("1234567"), None);
        assert_eq!(normalize_phone("123456789"), None);
        assert_eq!(normalize_phone("+33612345678"), None);
        assert_eq!(normalize_phone("2161234567a"), None);
        assert_eq!(normalize_phone(""), None);
    }

    #[test]
    fn emails() {
        assert_eq!(normalize_email(" Ali@Example.TN ").as_deref(), Some("ali@example.tn"));
        assert!(normalize_email("a.b+c@mail.example.com").is_some());
        for bad in ["", "a", "a@b", "a@b.c", "@b.com", "a@.com", "a b@c.com", "a@@b.com", "a..b@c.com", "a@b-.com", "a@b.c0m"] {
            assert!(normalize_email(bad).is_none(), "{bad} should be invalid");
        }
    }

    #[test]
    fn login_kinds() {
        assert!(login_is_phone("21612345678"));
        assert!(login_is_phone("+21612345678"));
        assert!(!login_is_phone("ali@example.tn"));
        assert!(!login_is_phone("ali.ben"));
    }

    #[test]
    fn password_strength() {
        assert!(password_is_strong("ab12cd"));
        assert!(password_is_strong("Secret42"));
        assert!(!password_is_strong("ab1cd")); // too short
        assert!(!password_is_strong("abcdef1")); // one digit
        assert!(!password_is_strong("123456a")); // one letter
        assert!(!password_is_strong(&"a1".repeat(65))); // too long
    }

    #[test]
    fn birth_dates() {
        let today = time::macros::date!(2026 - 11 - 22);
        assert_eq!(normalize_birth_date("1990-05-17", today), Ok("1990-05-17".into()));
        assert_eq!(normalize_birth_date("17-05-1990", today), Ok("1990-05-17".into()));
        assert_eq!(normalize_birth_date("17.05.1990", today), Ok("1990-05-17".into()));
        assert_eq!(normalize_birth_date("2008-11-22", today), Ok("2008-11-22".into()));
        assert_eq!(normalize_birth_date("2008-11-23", today), Err(Reason::Underage));
        assert_eq!(normalize_birth_date("1850-01-01", today), Err(Reason::TooOld));
        assert_eq!(normalize_birth_date("1990-02-30", today), Err(Reason::InvalidDate));
        assert_eq!(normalize_birth_date("yesterday", today), Err(Reason::InvalidDate));
    }

    #[test]
    fn genders() {
        assert_eq!(normalize_gender("M"), Ok(Some("male".into())));
        assert_eq!(normalize_gender("female"), Ok(Some("female".into())));
        assert_eq!(normalize_gender(""), Ok(None));
        assert_eq!(normalize_gender("x"), Err(Reason::InvalidChoice));
    }

    #[test]
    fn texts() {
        assert_eq!(clean_text("  Ali ", 5).as_deref(), Ok("Ali"));
        assert_eq!(clean_text("abcdef", 5), Err(Reason::TooLong));
        assert_eq!(clean_text("a\u{7}b", 5), Err(Reason::BadCharacters));
    }

    #[test]
    fn reason_codes_are_unique_snake_case() {
        let mut seen = std::collections::HashSet::new();
        for r in Reason::ALL {
            assert!(seen.insert(r.code()), "duplicate {}", r.code());
            assert!(r.code().chars().all(|c| c.is_ascii_lowercase() || c == '_'));
            assert!(!r.text().is_empty());
        }
    }
}
