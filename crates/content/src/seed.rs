//! Seeded demo content in fr, en and ar (idempotent: existing rows are left alone).

use crate::{sanitize_html, Content};
use kernel::clock::now_ms;
use kernel::ids::next_id;
use kernel::AppError;
use serde_json::json;
use store::sqlx;

/// The settings document used until an operator stores one (spec §3 Settings). Limits
/// are in major units of TND unless a per-currency table says otherwise.
pub fn default_settings() -> serde_json::Value {
    json!({
        "lang": "en-US",
        "languages": ["fr-fr", "en-US", "ar-ar"],
        "currencies": ["TND", "TMT", "HTG", "RUB", "PYG", "USDT"],
        "defaultCurrency": "TND",
        "limits": {
            "payment": {
                "withdrawal": { "min": 10, "max": 10000 },
                "topUp": { "min": 5, "max": 20000 },
                "eTopUp": { "min": 10, "max": 5000 },
                "eWithdrawal": { "min": 20, "max": 5000 }
            },
            "bets": { "default": 1, "max": 5000, "min": 0.5 },
            "bonus": {
                "cashbackBet": 5,
                "cashbackPayment": 3,
                "maxBetCount": 20,
                "maxBonusSize": 1000,
                "maxBonusPercent": 0.25,
                "minCoef": 1.8,
                "registrationBonus": 0
            },
            "freebet": { "minCoef": 2.2, "values": [10, 50, 100, 250, 500], "lifeDays": 25 },
            "cashback": { "minTransfer": 10 }
        },
        "inbetKf": { "TND": 1, "TMT": 1, "HTG": 45, "RUB": 30, "PYG": 2500, "USDT": 0.33 },
        "phoneWinners": [],
        "phoneWinners2": []
    })
}

struct Page {
    id_name: &'static str,
    priority: i64,
    names: [&'static str; 3],
    html: [&'static str; 3],
}

const LANGS: [&str; 3] = ["fr", "en", "ar"];

const PAGES: &[Page] = &[
    Page {
        id_name: "terms",
        priority: 100,
        names: ["Conditions générales", "Terms and conditions", "الشروط والأحكام"],
        html: [
            "<h2>Conditions générales</h2><p>En ouvrant un compte Carthage, vous confirmez avoir au moins 18 ans et accepter les présentes conditions.</p>\
             <ol><li>Un seul compte par personne. Les informations fournies doivent être exactes.</li>\
             <li>Les mises sont acceptées dans la devise du compte. Les gains sont crédités sur le solde réel.</li>\
             <li>Les bonus sont soumis à des conditions de mise publiées avec chaque promotion.</li>\
             <li>Nous pouvons demander une pièce d'identité avant tout retrait.</li>\
             <li>Toute fraude ou abus entraîne la fermeture du compte.</li></ol>",
            "<h2>Terms and conditions</h2><p>By opening a Carthage account you confirm that you are at least 18 years old and accept these terms.</p>\
             <ol><li>One account per person. The details you give must be accurate.</li>\
             <li>Stakes are accepted in the account currency. Winnings are credited to the real balance.</li>\
             <li>Bonuses carry the wagering conditions published with each promotion.</li>\
             <li>We may ask for an identity document before any withdrawal.</li>\
             <li>Fraud or abuse leads to the account being closed.</li></ol>",
            "<h2>الشروط والأحكام</h2><p>بفتح حساب في قرطاج، تؤكد أن عمرك 18 عامًا على الأقل وأنك تقبل هذه الشروط.</p>\
             <ol><li>حساب واحد لكل شخص. يجب أن تكون المعلومات المقدمة صحيحة.</li>\
             <li>تُقبل الرهانات بعملة الحساب. تُضاف الأرباح إلى الرصيد الحقيقي.</li>\
             <li>تخضع المكافآت لشروط الرهان المنشورة مع كل عرض.</li>\
             <li>قد نطلب وثيقة هوية قبل أي سحب.</li>\
             <li>يؤدي الاحتيال أو إساءة الاستخدام إلى إغلاق الحساب.</li></ol>",
        ],
    },
    Page {
        id_name: "responsible-gaming",
        priority: 90,
        names: ["Jeu responsable", "Responsible gaming", "اللعب المسؤول"],
        html: [
            "<h2>Jeu responsable</h2><p>Le jeu doit rester un divertissement. Fixez-vous un budget et une durée, et ne jouez jamais pour rembourser des pertes.</p>\
             <ul><li>Faites des pauses régulières.</li><li>Ne jouez pas sous l'effet de l'alcool ou du stress.</li>\
             <li>Vous pouvez demander une limite de dépôt ou une auto-exclusion au support à tout moment.</li></ul>\
             <p>Le jeu est interdit aux moins de 18 ans.</p>",
            "<h2>Responsible gaming</h2><p>Gambling should stay entertainment. Set yourself a budget and a time limit, and never play to win back losses.</p>\
             <ul><li>Take regular breaks.</li><li>Do not play under the influence of alcohol or stress.</li>\
             <li>You can ask support for a deposit limit or a self-exclusion at any time.</li></ul>\
             <p>Gambling is forbidden under the age of 18.</p>",
            "<h2>اللعب المسؤول</h2><p>يجب أن يبقى اللعب وسيلة للترفيه. حدّد لنفسك ميزانية ومدة، ولا تلعب أبدًا لاسترداد الخسائر.</p>\
             <ul><li>خذ فترات راحة منتظمة.</li><li>لا تلعب تحت تأثير الكحول أو التوتر.</li>\
             <li>يمكنك طلب حد للإيداع أو استبعاد ذاتي من الدعم في أي وقت.</li></ul>\
             <p>اللعب ممنوع على من هم دون 18 عامًا.</p>",
        ],
    },
    Page {
        id_name: "contacts",
        priority: 80,
        names: ["Contacts", "Contacts", "اتصل بنا"],
        html: [
            "<h2>Contacts</h2><p>Notre support répond 24 h/24, 7 j/7 par le chat de l'application.</p><p>E-mail : <a href=\"mailto:support@carthage.example\">support@carthage.example</a></p>",
            "<h2>Contacts</h2><p>Our support team answers 24/7 through the in-app chat.</p><p>E-mail: <a href=\"mailto:support@carthage.example\">support@carthage.example</a></p>",
            "<h2>اتصل بنا</h2><p>فريق الدعم متاح على مدار الساعة طوال أيام الأسبوع عبر الدردشة في التطبيق.</p><p>البريد الإلكتروني: <a href=\"mailto:support@carthage.example\">support@carthage.example</a></p>",
        ],
    },
    Page {
        id_name: "privacy",
        priority: 70,
        names: ["Confidentialité", "Privacy policy", "سياسة الخصوصية"],
        html: [
            "<h2>Confidentialité</h2><p>Nous traitons vos données uniquement pour gérer votre compte, vos paiements et nos obligations légales. Elles ne sont jamais vendues.</p>",
            "<h2>Privacy policy</h2><p>We process your data only to run your account, your payments and our legal obligations. It is never sold.</p>",
            "<h2>سياسة الخصوصية</h2><p>نعالج بياناتك فقط لإدارة حسابك ومدفوعاتك والتزاماتنا القانونية. لا نبيعها أبدًا.</p>",
        ],
    },
];

struct SlideSeed {
    slug: &'static str,
    url: &'static str,
    image: &'static str,
    priority: i64,
}

const SLIDES: &[SlideSeed] = &[
    SlideSeed { slug: "welcome", url: "/promotions", image: "/slides/welcome-{lang}.svg", priority: 30 },
    SlideSeed { slug: "cashback", url: "/promotions/cashback-percent", image: "/slides/cashback-{lang}.svg", priority: 20 },
    SlideSeed { slug: "slots", url: "/slots/lobby", image: "/slides/slots-{lang}.svg", priority: 10 },
];

/// Seeds settings, flat pages, slides and ads. Safe to run any number of times.
pub async fn seed_demo_content(content: &Content) -> Result<(), AppError> {
    let db = content.db();
    let now = now_ms();
    sqlx::query("INSERT INTO site_settings (key, value, updated_at) VALUES ('site', $1, $2) ON CONFLICT (key) DO NOTHING")
        .bind(default_settings().to_string())
        .bind(now)
        .execute(db.writer())
        .await
        .map_err(AppError::internal)?;
    for page in PAGES {
        for (i, lang) in LANGS.iter().enumerate() {
            sqlx::query(
                "INSERT INTO flat_pages (id, id_name, lang, name, priority, text, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7) \
                 ON CONFLICT (id_name, lang) DO NOTHING",
            )
            .bind(next_id())
            .bind(page.id_name)
            .bind(*lang)
            .bind(page.names[i])
            .bind(page.priority)
            .bind(sanitize_html(page.html[i]))
            .bind(now)
            .execute(db.writer())
            .await
            .map_err(AppError::internal)?;
        }
    }
    for slide in SLIDES {
        for lang in LANGS {
            sqlx::query(
                "INSERT INTO slides (id, slug, language, url, url_image, priority, active) VALUES ($1, $2, $3, $4, $5, $6, 1) \
                 ON CONFLICT (slug) DO NOTHING",
            )
            .bind(next_id())
            .bind(format!("{}-{lang}", slide.slug))
            .bind(lang)
            .bind(slide.url)
            .bind(slide.image.replace("{lang}", lang))
            .bind(slide.priority)
            .execute(db.writer())
            .await
            .map_err(AppError::internal)?;
        }
    }
    let ads = [
        ("withdraw", "all", "banner", "Withdraw your winnings", "Fast withdrawals through our cashier network.", "/profile/withdrawal", "/slides/withdraw.svg"),
        ("coupon-machine", "all", "banner", "Coupon machine", "One coupon for every 500 spins.", "/promotions/coupon-machine", "/slides/coupon.svg"),
    ];
    for (slug, language, placement, title, text, url, image) in ads {
        sqlx::query(
            "INSERT INTO ads (id, slug, language, placement, title, text, url, url_image, priority, active) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 0, 1) ON CONFLICT (slug) DO NOTHING",
        )
        .bind(next_id())
        .bind(slug)
        .bind(language)
        .bind(placement)
        .bind(title)
        .bind(text)
        .bind(url)
        .bind(image)
        .execute(db.writer())
        .await
        .map_err(AppError::internal)?;
    }
    Ok(())
}
