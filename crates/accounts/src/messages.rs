//! The texts of the messages sent to a player (SMS codes, e-mails), in the player's
//! language: French, English or Arabic (spec §9: `fr-fr`, `en-US`, `ar-ar`; any other
//! language gets English). A known player's stored language decides; before an account
//! exists (a sign-up SMS code), the request's language (`Accept-Language`: the app sends its
//! own). "Carthage" is the brand and stays in Latin letters.

/// The message language of a language id (`fr-fr`, `fr`, `ar-ar`, `en-US`, …): `fr`, `ar`
/// or `en`.
pub fn short_lang(lang: &str) -> &'static str {
    let l = lang.trim().to_ascii_lowercase();
    if l == "fr" || l.starts_with("fr-") || l.starts_with("fr_") {
        "fr"
    } else if l == "ar" || l.starts_with("ar-") || l.starts_with("ar_") {
        "ar"
    } else {
        "en"
    }
}

/// What an SMS code is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CodePurpose {
    Signup,
    Restore,
}

/// The SMS with a sign-up or password-recovery code (valid 10 minutes).
pub fn phone_code(lang: &str, purpose: CodePurpose, code: &str) -> String {
    match (short_lang(lang), purpose) {
        ("fr", CodePurpose::Signup) => format!("Carthage : votre code d'inscription est {code}. Il expire dans 10 minutes. Ne le communiquez jamais."),
        ("fr", CodePurpose::Restore) => {
            format!("Carthage : votre code de récupération du mot de passe est {code}. Il expire dans 10 minutes. Ne le communiquez jamais.")
        }
        ("ar", CodePurpose::Signup) => format!("Carthage: رمز التسجيل الخاص بك هو {code}. تنتهي صلاحيته خلال 10 دقائق. لا تشاركه مع أحد."),
        ("ar", CodePurpose::Restore) => format!("Carthage: رمز استعادة كلمة المرور الخاص بك هو {code}. تنتهي صلاحيته خلال 10 دقائق. لا تشاركه مع أحد."),
        (_, CodePurpose::Signup) => format!("Carthage: your registration code is {code}. It expires in 10 minutes. Never share it."),
        (_, CodePurpose::Restore) => format!("Carthage: your password recovery code is {code}. It expires in 10 minutes. Never share it."),
    }
}

/// The e-mail verification message: `(subject, text)`; the link is valid 48 hours.
pub fn verify_email(lang: &str, link: &str) -> (String, String) {
    match short_lang(lang) {
        "fr" => (
            "Confirmez votre adresse e-mail".into(),
            format!("Bienvenue sur Carthage ! Confirmez votre adresse e-mail en ouvrant ce lien : {link}\nLe lien est valable 48 heures."),
        ),
        "ar" => (
            "تأكيد عنوان بريدك الإلكتروني".into(),
            format!("مرحبًا بك في Carthage! أكّد عنوان بريدك الإلكتروني بفتح هذا الرابط: {link}\nالرابط صالح لمدة 48 ساعة."),
        ),
        _ => (
            "Confirm your e-mail address".into(),
            format!("Welcome to Carthage! Confirm your e-mail address by opening this link: {link}\nThe link is valid for 48 hours."),
        ),
    }
}

/// The password-recovery e-mail: `(subject, text)`; the code is valid one hour.
pub fn restore_email(lang: &str, code: &str) -> (String, String) {
    match short_lang(lang) {
        "fr" => (
            "Votre code de récupération du mot de passe".into(),
            format!(
                "Quelqu'un a demandé la réinitialisation du mot de passe de votre compte Carthage. Votre code de récupération est {code} \
                 (valable une heure). Si ce n'était pas vous, ignorez cet e-mail."
            ),
        ),
        "ar" => (
            "رمز استعادة كلمة المرور".into(),
            format!("طلب أحدهم إعادة تعيين كلمة مرور حسابك في Carthage. رمز الاستعادة هو {code} (صالح لمدة ساعة). إن لم تكن أنت، فتجاهل هذه الرسالة."),
        ),
        _ => (
            "Your password recovery code".into(),
            format!(
                "Someone asked to reset the password of your Carthage account. Your recovery code is {code} (valid for one hour). \
                 If it was not you, ignore this e-mail."
            ),
        ),
    }
}

/// The SMS with a cashier withdrawal's payout code: `(subject, text)`. `amount` is in major
/// units with a point (`50.000`); French writes a decimal comma.
pub fn payout_code(lang: &str, code: &str, amount: &str, currency: &str) -> (String, String) {
    match short_lang(lang) {
        "fr" => (
            "Code de retrait".into(),
            format!("Carthage : votre code de retrait au guichet est {code} ({} {currency}). Présentez-le au caissier.", amount.replace('.', ",")),
        ),
        "ar" => ("رمز السحب".into(), format!("Carthage: رمز السحب لدى أمين الصندوق هو {code} ({amount} {currency}). اعرضه على أمين الصندوق.")),
        _ => ("Withdrawal code".into(), format!("Carthage: your cashier withdrawal code is {code} ({amount} {currency}). Show it at the cashier.")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn languages() {
        assert_eq!(short_lang("fr-fr"), "fr");
        assert_eq!(short_lang("ar-ar"), "ar");
        assert_eq!(short_lang("en-US"), "en");
        assert_eq!(short_lang("ru-ru"), "en");
        assert!(phone_code("fr-fr", CodePurpose::Signup, "123456").contains("code d'inscription est 123456"));
        assert!(phone_code("ar", CodePurpose::Restore, "123456").contains("رمز استعادة كلمة المرور"));
        assert!(verify_email("ar-ar", "https://x/verify?code=1").1.contains("https://x/verify?code=1"));
        assert_eq!(payout_code("fr", "12345678", "50.500", "TND").1, "Carthage : votre code de retrait au guichet est 12345678 (50,500 TND). Présentez-le au caissier.");
    }
}
