//! Language ids (spec §9): fr-fr, en-US (default), ar-ar; ru-ru and kk-KZ are accepted by
//! the language call.

/// Full language ids the platform accepts.
pub const LANGUAGES: [&str; 5] = ["fr-fr", "en-US", "ar-ar", "ru-ru", "kk-KZ"];
/// Languages the player app is translated into.
pub const APP_LANGUAGES: [&str; 3] = ["fr-fr", "en-US", "ar-ar"];

/// `fr-fr`/`fr`/`fra` → `fr`, and so on for en and ar. `None` for anything else.
pub fn short_code(lang: &str) -> Option<&'static str> {
    match lang.trim().to_ascii_lowercase().as_str() {
        "fr-fr" | "fr" | "fra" | "fr-tn" => Some("fr"),
        "en-us" | "en" | "eng" | "en-gb" => Some("en"),
        "ar-ar" | "ar" | "are" | "ara" | "ar-tn" => Some("ar"),
        _ => None,
    }
}

/// The slide language for `?lang` (spec §7, §9): en-US → en, fr-fr → fr, ar-ar → ar,
/// anything else (or nothing) → `all`.
pub fn slide_language(lang: Option<&str>) -> &'static str {
    lang.and_then(short_code).unwrap_or("all")
}

/// The canonical id for a language given in any accepted form, e.g. `fr` → `fr-fr`.
pub fn canonical(lang: &str) -> Option<&'static str> {
    let l = lang.trim();
    if let Some(found) = LANGUAGES.iter().find(|x| x.eq_ignore_ascii_case(l)) {
        return Some(found);
    }
    match short_code(l)? {
        "fr" => Some("fr-fr"),
        "en" => Some("en-US"),
        _ => Some("ar-ar"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_languages() {
        assert_eq!(short_code("fr-fr"), Some("fr"));
        assert_eq!(short_code("en-US"), Some("en"));
        assert_eq!(short_code("ar-ar"), Some("ar"));
        assert_eq!(short_code("de"), None);
        assert_eq!(slide_language(Some("en-US")), "en");
        assert_eq!(slide_language(Some("ru-ru")), "all");
        assert_eq!(slide_language(None), "all");
        assert_eq!(canonical("FR"), Some("fr-fr"));
        assert_eq!(canonical("kk-kz"), Some("kk-KZ"));
        assert_eq!(canonical("xx"), None);
    }
}
