//! The sandbox's hosted pages: plain server-rendered HTML and CSS (no React, no inline
//! script or style: the CSP allows only our own files), mobile-first, in en/fr/ar (`lang`;
//! Arabic right-to-left). The result page carries the outcome in `data-*` attributes; its
//! script tells the parent frame `postMessage({type: 'carthage:payment', id, status})`.

use crate::sandbox::SandboxPayment;
use kernel::money::format_major;
use kernel::{Currency, Minor};

/// `en`, `fr` or `ar` from a language id (`fr-fr`, `ar-ar`, `en-US`, …).
pub fn lang_code(lang: &str) -> &'static str {
    let l = lang.trim().to_ascii_lowercase();
    if l.starts_with("fr") {
        "fr"
    } else if l.starts_with("ar") {
        "ar"
    } else {
        "en"
    }
}

/// The page texts, by key, in en / fr / ar.
fn t(lang: &str, key: &str) -> &'static str {
    let i = match lang_code(lang) {
        "fr" => 1,
        "ar" => 2,
        _ => 0,
    };
    let row: [&'static str; 3] = match key {
        "title" => ["Secure payment (sandbox)", "Paiement sécurisé (bac à sable)", "دفع آمن (بيئة تجريبية)"],
        "amount" => ["Amount", "Montant", "المبلغ"],
        "card" => ["Card number", "Numéro de carte", "رقم البطاقة"],
        "expiry" => ["Expiry (MM/YY)", "Expiration (MM/AA)", "تاريخ الانتهاء (ش‍ش/س‍س)"],
        "cvc" => ["CVC", "CVC", "رمز التحقق"],
        "pay" => ["Pay", "Payer", "ادفع"],
        "cancel" => ["Cancel", "Annuler", "إلغاء"],
        "test_cards" => [
            "Test cards: 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined, 4000 0000 0000 3220 asks for a confirmation.",
            "Cartes de test : 4242 4242 4242 4242 réussit, 4000 0000 0000 0002 est refusée, 4000 0000 0000 3220 demande une confirmation.",
            "بطاقات تجريبية: 4242 4242 4242 4242 تنجح، 4000 0000 0000 0002 تُرفض، 4000 0000 0000 3220 تطلب تأكيدًا.",
        ],
        "unknown_card" => ["Use one of the test cards below.", "Utilisez l’une des cartes de test ci-dessous.", "استخدم إحدى البطاقات التجريبية أدناه."],
        "3ds_title" => ["Confirm this payment", "Confirmez ce paiement", "أكّد هذه العملية"],
        "3ds_text" => [
            "Your bank asks you to confirm this payment.",
            "Votre banque vous demande de confirmer ce paiement.",
            "يطلب منك مصرفك تأكيد هذه العملية.",
        ],
        "confirm" => ["Confirm", "Confirmer", "تأكيد"],
        "ewallet_title" => ["E-wallet payout", "Retrait vers le portefeuille mobile", "سحب إلى المحفظة الإلكترونية"],
        "phone" => ["Phone number", "Numéro de téléphone", "رقم الهاتف"],
        "payout" => ["Confirm the payout", "Confirmer le versement", "تأكيد الدفع"],
        "reject" => ["Reject", "Refuser", "رفض"],
        "crypto_title" => ["USDT transfer", "Transfert USDT", "تحويل USDT"],
        "crypto_text" => [
            "Send exactly this amount of USDT (TRC-20) to the sandbox address below.",
            "Envoyez exactement ce montant d’USDT (TRC-20) à l’adresse de test ci-dessous.",
            "أرسل هذا المبلغ بالضبط من USDT (TRC-20) إلى العنوان التجريبي أدناه.",
        ],
        "crypto_paid" => ["I have sent it", "J’ai envoyé le transfert", "لقد أرسلته"],
        "succeeded" => ["Payment successful", "Paiement réussi", "تمت العملية بنجاح"],
        "failed" => ["Payment declined", "Paiement refusé", "تم رفض العملية"],
        "processing" => ["Payment in progress", "Paiement en cours", "العملية قيد المعالجة"],
        "close" => ["You can close this window.", "Vous pouvez fermer cette fenêtre.", "يمكنك إغلاق هذه النافذة."],
        "not_found" => ["This payment does not exist.", "Ce paiement n’existe pas.", "هذه العملية غير موجودة."],
        _ => ["", "", ""],
    };
    row[i]
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;").replace('\'', "&#39;")
}

fn shell(lang: &str, title: &str, body: &str, data: &str) -> String {
    let l = lang_code(lang);
    let dir = if l == "ar" { "rtl" } else { "ltr" };
    format!(
        "<!doctype html><html lang=\"{l}\" dir=\"{dir}\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{}</title><link rel=\"stylesheet\" href=\"/pay/assets/page.css\">\
         <script src=\"/pay/assets/page.js\" defer></script></head>\
         <body{data}><main class=\"card\"><p class=\"brand\">Carthage · sandbox</p><h1>{}</h1>{body}</main></body></html>",
        esc(title),
        esc(title)
    )
}

/// An amount as the player app shows it in the same language (`formatMoney` of
/// web/src/components/money.ts, `Intl.NumberFormat` with Latin digits): every decimal of the
/// currency, grouped thousands, then the currency code — `12,345.500 TND` in English and
/// Arabic, `12 345,500 TND` in French (a narrow no-break space groups, a comma separates).
pub fn money(minor: Minor, currency: Currency, lang: &str) -> String {
    let plain = format_major(minor, currency);
    let (sign, digits) = match plain.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", plain.as_str()),
    };
    let (whole, frac) = digits.split_once('.').unwrap_or((digits, ""));
    let (group, point) = match lang_code(lang) {
        "fr" => ('\u{202F}', ','),
        _ => (',', '.'),
    };
    let mut grouped = String::with_capacity(whole.len() + whole.len() / 3 * 3);
    for (i, c) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i) % 3 == 0 {
            grouped.push(group);
        }
        grouped.push(c);
    }
    if frac.is_empty() {
        format!("{sign}{grouped} {}", currency.code())
    } else {
        format!("{sign}{grouped}{point}{frac} {}", currency.code())
    }
}

/// The amount line of a hosted page: a label and the amount in the page's language.
pub fn amount_row(lang: &str, label: &str, minor: Minor, currency: Currency) -> String {
    format!("<p class=\"amount\"><span>{}</span> <bdi>{}</bdi></p>", esc(label), money(minor, currency, lang))
}

fn amount_line(lang: &str, p: &SandboxPayment) -> String {
    amount_row(lang, t(lang, "amount"), p.amount, p.currency)
}

/// The page of a sandbox payment in its current state.
pub fn payment_page(p: &SandboxPayment, lang: &str, error: Option<&str>, action: &str) -> String {
    let l = lang_code(lang);
    let err = error.map(|e| format!("<p class=\"error\" role=\"alert\">{}</p>", esc(e))).unwrap_or_default();
    let hidden = format!("<input type=\"hidden\" name=\"lang\" value=\"{l}\">");
    match p.status.as_str() {
        "succeeded" | "failed" => result_page(p, lang),
        "challenge" => challenge_page(lang, &amount_line(lang, p), action, &hidden),
        _ if p.kind == "withdrawal" => shell(
            lang,
            t(lang, "ewallet_title"),
            &format!(
                "{}<p class=\"field\"><span>{}</span> <bdi>+{}</bdi></p><form method=\"post\" action=\"{action}\">{hidden}\
                 <button name=\"action\" value=\"payout\" class=\"primary\">{}</button>\
                 <button name=\"action\" value=\"reject\" class=\"secondary\">{}</button></form>",
                amount_line(lang, p),
                t(lang, "phone"),
                esc(p.phone.as_deref().unwrap_or("")),
                t(lang, "payout"),
                t(lang, "reject")
            ),
            "",
        ),
        _ if p.dialect == crate::CRYPTO => shell(
            lang,
            t(lang, "crypto_title"),
            &format!(
                "{}<p>{}</p><p class=\"address\"><bdi>TSandbox{}</bdi></p><form method=\"post\" action=\"{action}\">{hidden}\
                 <button name=\"action\" value=\"paid\" class=\"primary\">{}</button>\
                 <button name=\"action\" value=\"cancel\" class=\"secondary\">{}</button></form>",
                amount_line(lang, p),
                t(lang, "crypto_text"),
                esc(&p.reference[4..p.reference.len().min(24)]),
                t(lang, "crypto_paid"),
                t(lang, "cancel")
            ),
            "",
        ),
        _ => card_form(lang, &amount_line(lang, p), &err, action, &hidden),
    }
}

/// The 3-D-Secure-style confirmation step of the test card `4000 0000 0000 3220` (the
/// sandbox's and the Paykassma emulation's card pages): confirm pays, cancel fails.
pub fn challenge_page(lang: &str, amount_line: &str, action: &str, hidden: &str) -> String {
    shell(
        lang,
        t(lang, "3ds_title"),
        &format!(
            "{amount_line}<p>{}</p><form method=\"post\" action=\"{action}\">{hidden}\
             <button name=\"action\" value=\"confirm\" class=\"primary\">{}</button>\
             <button name=\"action\" value=\"cancel\" class=\"secondary\">{}</button></form>",
            t(lang, "3ds_text"),
            t(lang, "confirm"),
            t(lang, "cancel")
        ),
        "",
    )
}

/// The card form (sandbox deposits and the Paykassma emulation's plugin page).
pub fn card_form(lang: &str, amount_line: &str, err: &str, action: &str, hidden: &str) -> String {
    shell(
        lang,
        t(lang, "title"),
        &format!(
            "{amount_line}{err}<form method=\"post\" action=\"{action}\">{hidden}\
             <label><span>{}</span><input name=\"card\" inputmode=\"numeric\" autocomplete=\"cc-number\" dir=\"ltr\" placeholder=\"4242 4242 4242 4242\" required></label>\
             <div class=\"row\"><label><span>{}</span><input name=\"exp\" dir=\"ltr\" placeholder=\"12/34\" autocomplete=\"cc-exp\"></label>\
             <label><span>{}</span><input name=\"cvc\" inputmode=\"numeric\" dir=\"ltr\" placeholder=\"123\" autocomplete=\"cc-csc\"></label></div>\
             <button name=\"action\" value=\"card\" class=\"primary\">{}</button>\
             <button name=\"action\" value=\"cancel\" class=\"secondary\" formnovalidate>{}</button></form>\
             <p class=\"hint\">{}</p>",
            t(lang, "card"),
            t(lang, "expiry"),
            t(lang, "cvc"),
            t(lang, "pay"),
            t(lang, "cancel"),
            t(lang, "test_cards")
        ),
        "",
    )
}

/// The final page: tells the parent frame the outcome.
pub fn result_page(p: &SandboxPayment, lang: &str) -> String {
    let status = p.status.as_str();
    let key = match status {
        "succeeded" => "succeeded",
        "failed" => "failed",
        _ => "processing",
    };
    shell(
        lang,
        t(lang, key),
        &format!("{}<p class=\"result {key}\">{}</p><p>{}</p>", amount_line(lang, p), t(lang, key), t(lang, "close")),
        &format!(" data-payment-id=\"{}\" data-payment-status=\"{}\"", p.intent_id, esc(status)),
    )
}

pub fn not_found_page(lang: &str) -> String {
    shell(lang, t(lang, "not_found"), "", "")
}

/// The message for an unknown test card.
pub fn unknown_card(lang: &str) -> &'static str {
    t(lang, "unknown_card")
}

pub const PAGE_CSS: &str = r#":root{color-scheme:light;--accent:#0b6e4f;--danger:#b3261e;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans Arabic",sans-serif}
*{box-sizing:border-box}body{margin:0;background:#f3f5f4;color:#1b1f1d;min-block-size:100vh;display:flex;justify-content:center;align-items:flex-start;padding:16px}
.card{background:#fff;border-radius:12px;box-shadow:0 1px 4px rgba(0,0,0,.12);inline-size:100%;max-inline-size:420px;padding:20px}
.brand{margin:0 0 4px;font-size:.8rem;color:#5b6661}h1{font-size:1.25rem;margin:0 0 12px}
.amount{font-size:1.1rem;margin:0 0 16px;display:flex;justify-content:space-between;align-items:baseline;flex-wrap:wrap;gap:8px}.amount bdi{font-weight:700}
.field{display:flex;justify-content:space-between;gap:8px}
label{display:block;font-size:.9rem;margin-block-end:12px}input{display:block;inline-size:100%;margin-block-start:4px;padding:12px;font-size:1rem;border:1px solid #b8c2bd;border-radius:8px}
/* Expiry and CVC side by side: their labels may wrap differently (Arabic), the boxes stay on one line. */
.row{display:flex;gap:12px;align-items:stretch}.row label{flex:1 1 0;min-inline-size:0;display:flex;flex-direction:column}.row input{margin-block-start:auto}
.row label>span{margin-block-end:4px}
button{display:block;inline-size:100%;padding:14px;font-size:1rem;border-radius:8px;border:0;margin-block-start:8px;cursor:pointer}
.primary{background:var(--accent);color:#fff}.secondary{background:transparent;color:var(--accent);border:1px solid var(--accent)}
.hint{font-size:.8rem;color:#5b6661;margin-block-start:16px}.error{color:var(--danger);font-weight:600}
.address{font-family:ui-monospace,monospace;overflow-wrap:anywhere;background:#f3f5f4;padding:8px;border-radius:6px}
.result{font-size:1.1rem;font-weight:700}.result.succeeded{color:var(--accent)}.result.failed{color:var(--danger)}
"#;

pub const PAGE_JS: &str = r#"(function(){var b=document.body;var id=b.getAttribute('data-payment-id');var s=b.getAttribute('data-payment-status');
if(id&&s&&window.parent&&window.parent!==window){window.parent.postMessage({type:'carthage:payment',id:id,status:s},window.location.origin);}})();
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_read_as_in_the_app() {
        // The app's formatMoney (Intl, Latin digits) for the same language.
        assert_eq!(money(50_000, Currency::Tnd, "en"), "50.000 TND");
        assert_eq!(money(50_000, Currency::Tnd, "fr-fr"), "50,000 TND");
        assert_eq!(money(50_000, Currency::Tnd, "ar"), "50.000 TND");
        assert_eq!(money(12_345_500, Currency::Tnd, "en-US"), "12,345.500 TND");
        assert_eq!(money(12_345_500, Currency::Tnd, "fr"), "12\u{202F}345,500 TND");
        assert_eq!(money(1_234_567_890, Currency::Tnd, "fr"), "1\u{202F}234\u{202F}567,890 TND");
        assert_eq!(money(-5, Currency::Tnd, "en"), "-0.005 TND");
        assert_eq!(money(123_456, Currency::Pyg, "en"), "123,456 PYG");
        assert_eq!(money(999, Currency::Pyg, "fr"), "999 PYG");
    }

    #[test]
    fn the_card_form_keeps_expiry_and_cvc_on_one_line() {
        let page = card_form("ar", "", "", "/pay/x", "");
        assert!(page.contains("dir=\"rtl\""));
        // Each label's text is its own box, so the boxes below align whatever the text's height.
        assert!(page.contains("<label><span>تاريخ الانتهاء"), "{page}");
        assert!(PAGE_CSS.contains(".row input{margin-block-start:auto}"));
    }
}
