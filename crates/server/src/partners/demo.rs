//! Demo mode's partner sportsbooks: a tiny server-rendered page per partner, framed by the
//! app like the real partner's frame (`{url}/{lang}{framePath}?token=` for Digitain,
//! `{url}/{lang}/?jwt=` for GR8). No script (the CSP allows none inline): plain forms. A
//! bet goes through the partner's REAL wallet path: the demo partner builds the partner's
//! own request, signs it with the partner's secret and hands the raw bytes to the same
//! adapter function the HTTP endpoint calls (`gr8::perform`, `digitain::handle`). "Settle"
//! draws the result fairly: win with probability 1/odds, from HMAC(secret, bet id) — fixed
//! per bet, so settling twice cannot change it (and the payout id is fixed too).

use super::{digitain, gr8, DIGITAIN, GR8};
use crate::app::AppState;
use hmac::{Hmac, Mac};
use rand::Rng;
use serde_json::{json, Value};
use sha2::Sha256;

/// The demo line: (home, away, odds 1 / X / 2 in thousandths).
const MATCHES: [(&str, &str, [i64; 3]); 4] = [
    ("Espérance de Tunis", "Club Africain", [2100, 3200, 3500]),
    ("Étoile du Sahel", "CS Sfaxien", [1850, 3400, 4200]),
    ("Al Ahly", "Zamalek", [1950, 3100, 3900]),
    ("Wydad", "Raja", [2600, 2900, 2800]),
];

fn t(lang: &str, key: &str) -> &'static str {
    let i = match lang {
        "fr" => 1,
        "ar" => 2,
        _ => 0,
    };
    let row: [&'static str; 3] = match key {
        "title" => ["Sportsbook (demo partner)", "Paris sportifs (partenaire de démo)", "المراهنات الرياضية (شريك تجريبي)"],
        "login" => ["Log in to bet.", "Connectez-vous pour parier.", "سجّل الدخول للمراهنة."],
        "stake" => ["Stake", "Mise", "الرهان"],
        "bet" => ["Place bet", "Parier", "راهن"],
        "balance" => ["Balance", "Solde", "الرصيد"],
        "placed" => ["Bet placed", "Pari placé", "تم وضع الرهان"],
        "settle" => ["Settle the bet", "Régler le pari", "تسوية الرهان"],
        "won" => ["Won", "Gagné", "ربح"],
        "lost" => ["Lost", "Perdu", "خسارة"],
        "refused" => ["Refused", "Refusé", "مرفوض"],
        "back" => ["Back to the matches", "Retour aux matchs", "العودة إلى المباريات"],
        "draw" => ["Draw", "Nul", "تعادل"],
        _ => ["", "", ""],
    };
    row[i]
}

/// en / fr / ar for the texts (the frame accepts every §9 language; others read English).
fn text_lang(lang: &str) -> &'static str {
    match lang {
        "fr" => "fr",
        "ar" => "ar",
        _ => "en",
    }
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;").replace('\'', "&#39;")
}

fn odds(th: i64) -> String {
    format!("{}.{:02}", th / 1000, (th % 1000) / 10)
}

fn shell(partner: &str, lang: &str, body: &str) -> String {
    let l = text_lang(lang);
    let dir = if lang == "ar" || lang == "he" { "rtl" } else { "ltr" };
    let brand = if partner == GR8 { "GR8 Sport" } else { "Digitain Sport" };
    format!(
        "<!doctype html><html lang=\"{lang}\" dir=\"{dir}\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>{brand}</title>\
         <link rel=\"stylesheet\" href=\"/partners/assets/page.css\"></head><body class=\"{partner}\">\
         <header><strong>{brand}</strong> <span>{}</span></header><main>{body}</main></body></html>",
        t(l, "title")
    )
}

pub const PAGE_CSS: &str = "body{margin:0;font:15px/1.4 system-ui,sans-serif;background:#0f1720;color:#e8eef5}\
header{display:flex;gap:.5rem;align-items:baseline;padding:.75rem 1rem;background:#16324f}\
body.gr8 header{background:#3b1d5a}main{padding:.75rem 1rem;max-width:40rem;margin:0 auto}\
.match{background:#1b2835;border-radius:.5rem;padding:.6rem .75rem;margin:0 0 .6rem}\
.teams{font-weight:600;margin-block-end:.4rem}.picks{display:flex;gap:.4rem;flex-wrap:wrap;align-items:center}\
.picks label{background:#24384c;border-radius:.35rem;padding:.3rem .5rem}\
input[type=number]{width:6rem;padding:.3rem;border-radius:.3rem;border:0}\
button{background:#f5b400;color:#111;border:0;border-radius:.35rem;padding:.4rem .8rem;font-weight:600}\
.note{background:#24384c;border-radius:.5rem;padding:.6rem .75rem;margin:0 0 .75rem}.bal{margin:0 0 .75rem}";

/// Who is looking: the player id and currency, or a guest.
struct Viewer {
    user_id: i64,
    balance: Option<String>,
    currency: String,
    credential: String,
}

async fn viewer(state: &AppState, partner: &str, credential: &str) -> Option<Viewer> {
    if credential.is_empty() || credential == super::ANONYMOUS_TOKEN {
        return None;
    }
    if partner == GR8 {
        let key = state.partners.gr8_key().await.ok()?;
        let claims = super::jwt::verify(credential, &key.public_pem, kernel::clock::now_ms() / 1000).ok()?;
        let user_id: i64 = claims["externalUserId"].as_str()?.parse().ok()?;
        let currency: kernel::Currency = claims["defaultCurrency"].as_str()?.parse().ok()?;
        let balance = state.ledger.balance(user_id, wallet::BalanceKind::Real, currency).await.ok();
        return Some(Viewer { user_id, balance: balance.map(|b| super::amount::format(b, currency)), currency: currency.code().into(), credential: credential.into() });
    }
    let r = digitain_call(state, "authenticate", json!({ "token": credential })).await;
    if r["errorCode"] != 1 {
        return None;
    }
    Some(Viewer {
        user_id: r["playerId"].as_str()?.parse().ok()?,
        balance: Some(r["balance"].to_string()),
        currency: r["currencyId"].as_str()?.into(),
        credential: credential.into(),
    })
}

/// A timestamp of its own for every request the demo partner signs (Unix milliseconds,
/// never repeated by this process), as Digitain must: the wallet binds a timestamp and its
/// signature to the first body it came with.
pub fn request_timestamp() -> String {
    use std::sync::atomic::{AtomicI64, Ordering};
    static LAST: AtomicI64 = AtomicI64::new(0);
    let now = kernel::clock::now_ms();
    let prev = LAST.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |last| Some(now.max(last + 1))).unwrap_or(now);
    now.max(prev + 1).to_string()
}

/// A Digitain call as Digitain makes it (signed), through the real adapter.
async fn digitain_call(state: &AppState, method: &str, mut body: Value) -> Value {
    let cfg = &state.partners.config;
    let ts = request_timestamp();
    body["operatorId"] = json!(cfg.digitain_operator_id);
    body["timestamp"] = json!(ts);
    body["signature"] = json!(digitain::sign(cfg.digitain_secret.as_deref().unwrap_or(""), &ts, &cfg.digitain_operator_id));
    serde_json::from_str(&digitain::handle(&state.partner_state(), method, body.to_string().as_bytes()).await).unwrap_or(Value::Null)
}

/// A GR8 transaction as GR8 makes it (signed), through the real adapter.
async fn gr8_call(state: &AppState, user_id: i64, kind: &str, id: &str, bet_id: &str, cash: &str, currency: &str) -> (u16, Value) {
    let cfg = &state.partners.config;
    let now = kernel::clock::to_rfc3339(kernel::clock::now_ms());
    let body = json!({
        "currency": currency, "platform": "sport", "id": id, "type": kind, "initiatedAt": now, "createdAt": now,
        "context": { "product": "sportsbook", "reason": if kind == "withdrawal" { "bet" } else { "settlement" }, "betId": bet_id },
        "amountBreakdown": { "cash": cash, "bonus": "0", "locked": "0", "retract": "0" }
    })
    .to_string();
    let ts = (kernel::clock::now_ms() / 1000).to_string();
    let player = user_id.to_string();
    let sig = gr8::sign(cfg.gr8_secret.as_deref().unwrap_or(""), &ts, &player, body.as_bytes());
    let h = gr8::Gr8Headers { brand: Some(&cfg.gr8_brand), operator_id: Some(&cfg.gr8_operator_id), timestamp: Some(&ts), signature: Some(&sig) };
    gr8::perform(&state.partner_state(), &player, &h, body.as_bytes()).await
}

fn secret(state: &AppState, partner: &str) -> String {
    let cfg = &state.partners.config;
    (if partner == GR8 { cfg.gr8_secret.clone() } else { cfg.digitain_secret.clone() }).unwrap_or_default()
}

fn mac(secret: &str, text: &str) -> [u8; 32] {
    let mut m = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("any key");
    m.update(text.as_bytes());
    m.finalize().into_bytes().into()
}

/// The matches page (GET `/partners/{partner}/{lang}/…`).
pub async fn page(state: &AppState, partner: &str, lang: &str, credential: &str) -> String {
    let lang = super::frame_lang(Some(lang));
    let l = text_lang(lang);
    let v = viewer(state, partner, credential).await;
    let mut body = String::new();
    match &v {
        None => body.push_str(&format!("<p class=\"note\">{}</p>", t(l, "login"))),
        Some(v) => body.push_str(&format!("<p class=\"bal\">{}: <bdi>{} {}</bdi></p>", t(l, "balance"), esc(v.balance.as_deref().unwrap_or("?")), esc(&v.currency))),
    }
    for (i, (home, away, o)) in MATCHES.iter().enumerate() {
        let picks: String = ["1", "X", "2"]
            .iter()
            .zip(o)
            .enumerate()
            .map(|(k, (label, th))| {
                let input = if v.is_some() { format!("<input type=\"radio\" name=\"pick\" value=\"{k}\" required> ") } else { String::new() };
                format!("<label>{input}{label} <b>{}</b></label>", odds(*th))
            })
            .collect();
        let form = match &v {
            Some(v) => format!(
                "<form method=\"post\" action=\"/partners/{partner}/action\"><input type=\"hidden\" name=\"action\" value=\"bet\">\
                 <input type=\"hidden\" name=\"lang\" value=\"{lang}\"><input type=\"hidden\" name=\"credential\" value=\"{}\">\
                 <input type=\"hidden\" name=\"game\" value=\"{i}\"><div class=\"picks\">{picks}\
                 <input type=\"number\" name=\"stake\" min=\"1\" step=\"1\" value=\"5\" aria-label=\"{}\"> <button>{}</button></div></form>",
                esc(&v.credential),
                t(l, "stake"),
                t(l, "bet")
            ),
            None => format!("<div class=\"picks\">{picks}</div>"),
        };
        body.push_str(&format!("<section class=\"match\"><div class=\"teams\"><bdi>{}</bdi> – <bdi>{}</bdi></div>{form}</section>", esc(home), esc(away)));
    }
    shell(partner, lang, &body)
}

/// The page's form posts (`POST /partners/{partner}/action`): `bet` then `settle`.
pub async fn action(state: &AppState, partner: &str, form: &std::collections::HashMap<String, String>) -> String {
    let get = |k: &str| form.get(k).cloned().unwrap_or_default();
    let lang = super::frame_lang(Some(&get("lang")));
    let l = text_lang(lang);
    let credential = get("credential");
    let back = format!(
        "<p><a href=\"/partners/{partner}/{lang}/?{}={}\">{}</a></p>",
        if partner == GR8 { "jwt" } else { "token" },
        super::urlencode(&credential),
        t(l, "back")
    );
    let Some(v) = viewer(state, partner, &credential).await else {
        return shell(partner, lang, &format!("<p class=\"note\">{}</p>{back}", t(l, "login")));
    };
    let Ok(currency) = v.currency.parse::<kernel::Currency>() else { return shell(partner, lang, &back) };
    let secret = secret(state, partner);
    let note = match get("action").as_str() {
        "bet" => {
            let (Ok(game), Ok(pick), Ok(stake)) = (get("game").parse::<usize>(), get("pick").parse::<usize>(), get("stake").parse::<i64>()) else {
                return shell(partner, lang, &format!("<p class=\"note\">{}</p>{back}", t(l, "refused")));
            };
            let Some((home, away, o)) = MATCHES.get(game) else { return shell(partner, lang, &back) };
            let (Some(th), true) = (o.get(pick), (1..=100_000).contains(&stake)) else { return shell(partner, lang, &back) };
            let bet_id = format!("demo-{}", hex::encode(rand::rngs::OsRng.gen::<[u8; 8]>()));
            let stake_text = stake.to_string();
            let (ok, balance) = if partner == GR8 {
                let (status, r) = gr8_call(state, v.user_id, "withdrawal", &bet_id, &bet_id, &stake_text, &v.currency).await;
                (status == 200, r["balances"]["cash"].as_str().map(String::from).or_else(|| r["error"]["code"].as_str().map(String::from)))
            } else {
                let r = digitain_call(state, "bet", json!({"providerId": "demo", "allOrNone": false, "items": [{
                    "txId": bet_id, "betAmount": stake, "token": credential, "playerId": v.user_id.to_string(),
                    "roundId": bet_id, "gameId": "sportsbook", "currencyId": v.currency, "info": format!("{home} – {away}")}]})).await;
                let item = &r["items"][0];
                (item["errorCode"] == 1, Some(if item["errorCode"] == 1 { item["balance"].to_string() } else { format!("error {}", item["errorCode"]) }))
            };
            if !ok {
                format!("<p class=\"note\">{}: {}</p>", t(l, "refused"), esc(&balance.unwrap_or_default()))
            } else {
                let slip = format!("{bet_id}|{stake}|{th}|{}", v.user_id);
                let seal = hex::encode(mac(&secret, &slip));
                let pick_label = ["1", t(l, "draw"), "2"][pick];
                format!(
                    "<p class=\"note\">{}: <bdi>{} – {}</bdi>, {pick_label} @ {} × {stake} {}. {}: <bdi>{}</bdi></p>\
                     <form method=\"post\" action=\"/partners/{partner}/action\"><input type=\"hidden\" name=\"action\" value=\"settle\">\
                     <input type=\"hidden\" name=\"lang\" value=\"{lang}\"><input type=\"hidden\" name=\"credential\" value=\"{}\">\
                     <input type=\"hidden\" name=\"slip\" value=\"{}\"><input type=\"hidden\" name=\"seal\" value=\"{seal}\">\
                     <button>{}</button></form>",
                    t(l, "placed"), esc(home), esc(away), odds(*th), esc(&v.currency), t(l, "balance"), esc(&balance.unwrap_or_default()),
                    esc(&credential), esc(&slip), t(l, "settle")
                )
            }
        }
        "settle" => {
            let slip = get("slip");
            let sealed = hex::decode(get("seal")).ok().is_some_and(|s| {
                use subtle::ConstantTimeEq;
                s.len() == 32 && bool::from(s.as_slice().ct_eq(&mac(&secret, &slip)))
            });
            let parts: Vec<&str> = slip.split('|').collect();
            let (true, [bet_id, stake, th, user]) = (sealed, parts.as_slice()) else { return shell(partner, lang, &back) };
            let (Ok(stake), Ok(th)) = (stake.parse::<i64>(), th.parse::<i64>()) else { return shell(partner, lang, &back) };
            if *user != v.user_id.to_string() {
                return shell(partner, lang, &back);
            }
            // Fair draw: P(win) = 1/odds, fixed per bet by the partner's secret.
            let d = mac(&secret, &format!("draw|{bet_id}"));
            let u = u64::from_be_bytes(d[..8].try_into().unwrap_or([0; 8])) as u128;
            let won = u * (th as u128) < (1u128 << 64) * 1000;
            let payout_minor = if won { currency.major(stake) * th / 1000 } else { 0 };
            let payout = super::amount::format(payout_minor, currency);
            let settle_id = format!("settle-{bet_id}");
            let balance = if partner == GR8 {
                let (_, r) = gr8_call(state, v.user_id, "deposit", &settle_id, bet_id, &payout, &v.currency).await;
                r["balances"]["cash"].as_str().map(String::from).or_else(|| r["error"]["code"].as_str().map(String::from)).unwrap_or_default()
            } else {
                let r = digitain_call(state, "win", json!({"providerId": "demo", "allOrNone": false, "items": [{
                    "txId": settle_id, "winAmount": payout, "token": credential, "playerId": v.user_id.to_string(),
                    "roundId": bet_id, "gameId": "sportsbook", "currencyId": v.currency}]})).await;
                let item = &r["items"][0];
                if item["errorCode"] == 1 { item["balance"].to_string() } else { format!("error {}", item["errorCode"]) }
            };
            format!(
                "<p class=\"note\">{} <bdi>{payout} {}</bdi>. {}: <bdi>{}</bdi></p>",
                if won { t(l, "won") } else { t(l, "lost") },
                esc(&v.currency),
                t(l, "balance"),
                esc(&balance)
            )
        }
        _ => String::new(),
    };
    let _ = DIGITAIN;
    shell(partner, lang, &format!("{note}{back}"))
}
