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

/// The app language (`en`, `fr`, `ar`) a client prefers, from an `Accept-Language` header:
/// the first of the three in the header's preference order (`q` weights; `q=0` excludes),
/// matching a full tag (`fr-FR`) by its primary subtag. `None` when none of them is there.
pub fn from_accept_language(header: &str) -> Option<&'static str> {
    let mut choices: Vec<(u16, usize, &'static str)> = header
        .split(',')
        .enumerate()
        .filter_map(|(i, part)| {
            let mut pieces = part.split(';');
            let tag = pieces.next()?.trim();
            let q = pieces
                .find_map(|p| p.trim().strip_prefix("q=").map(|v| v.trim().parse::<f32>().ok()))
                .map_or(Some(1.0), |v| v)?;
            if !(q > 0.0 && q <= 1.0) {
                return None;
            }
            let code = short_code(tag).or_else(|| short_code(tag.split('-').next()?))?;
            Some(((q * 1000.0) as u16, i, code))
        })
        .collect();
    choices.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    choices.first().map(|c| c.2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_accept_language() {
        assert_eq!(from_accept_language("fr"), Some("fr"));
        assert_eq!(from_accept_language("ar-TN,ar;q=0.9,en;q=0.5"), Some("ar"));
        assert_eq!(from_accept_language("de-DE,de;q=0.9,fr-FR;q=0.8,en;q=0.7"), Some("fr"));
        assert_eq!(from_accept_language("en;q=0.2, fr;q=0.9"), Some("fr"));
        assert_eq!(from_accept_language("fr;q=0, en"), Some("en"));
        assert_eq!(from_accept_language("de, *"), None);
        assert_eq!(from_accept_language(""), None);
        assert_eq!(from_accept_language("fr;q=abc"), None);
    }

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
