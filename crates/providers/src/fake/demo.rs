//! Demo mode's game pages of the fake providers (`/demo-providers/{provider}/play`): the
//! page a launch link opens, clearly labelled as a demo, where a spin really travels
//! through the provider's dialect — the fake sends the bet to our wallet exactly as that
//! provider would (signed its way, to `/api/providers/{provider}/…`), draws the outcome,
//! then sends the win the same way. Server-rendered forms, no script (the CSP allows none
//! inline), so it works on any phone.
//!
//! Each fake also serves its catalogue in its provider's own list format
//! (`/demo-providers/{provider}/games`: Pragmatic's `getCasinoGames`, Evolution-type pages,
//! Habanero's `Games`, Slotegrator's paged `items`, Evoplay's `data` keyed by id, …) and a
//! generated SVG tile per game as its image, which the catalogue refresh job imports and
//! caches like any provider's (docs/providers/endpoints.md).
//!
//! The outcome: a spin pays 2× with probability 1/4, 5× with 2/25 and 12× with 1/200 (RTP
//! 96 %), drawn with the operating system's generator — a demo of the wallet path, not a
//! certified game.

use super::{Delivery, Fakes, Forge, Op, Outcome};
use axum::extract::{Path, Query, State};
use axum::http::header;
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Form, Router};
use rand::Rng;
use serde::Deserialize;
use std::sync::Arc;

/// Stakes offered, in minor units of TND.
const STAKES: [i64; 4] = [500, 1_000, 2_000, 5_000];

/// The pages, to be mounted at `/demo-providers`.
pub fn router(fakes: Fakes) -> Router {
    Router::new()
        .route("/assets/page.css", get(css))
        .route("/{provider}/play", get(play))
        .route("/{provider}/spin", post(spin))
        .route("/{provider}/games", get(games).post(games))
        .route("/{provider}/img/{file}", get(image))
        .route("/{provider}/game_pic/rec/325/{file}", get(image))
        .with_state(Arc::new(fakes))
}

#[derive(Debug, Deserialize)]
struct PlayQuery {
    #[serde(default)]
    game: String,
    #[serde(default)]
    token: String,
    #[serde(default)]
    lang: String,
    #[serde(default)]
    player: i64,
}

#[derive(Debug, Deserialize)]
struct SpinForm {
    game: String,
    token: String,
    #[serde(default)]
    lang: String,
    player: i64,
    stake: i64,
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;").replace('\'', "&#39;")
}

fn t(lang: &str, key: &str) -> &'static str {
    let i = match lang {
        "fr" => 1,
        "ar" => 2,
        _ => 0,
    };
    let row: [&'static str; 3] = match key {
        "demo" => ["Demo provider — a local fake speaking this provider's wallet protocol", "Fournisseur de démo — une imitation locale qui parle le protocole de ce fournisseur", "مزوّد تجريبي — محاكاة محلية تتحدث بروتوكول محفظة هذا المزوّد"],
        "balance" => ["Balance", "Solde", "الرصيد"],
        "stake" => ["Stake", "Mise", "الرهان"],
        "spin" => ["Spin", "Lancer", "دوران"],
        "won" => ["You won", "Vous gagnez", "ربحت"],
        "lost" => ["No win this time", "Pas de gain cette fois", "لا ربح هذه المرة"],
        "refused" => ["The stake was refused", "La mise a été refusée", "رُفض الرهان"],
        "session" => ["The game session has ended: open the game again from the lobby.", "La session de jeu est terminée : rouvrez le jeu depuis le lobby.", "انتهت جلسة اللعب: افتح اللعبة مجددًا من الردهة."],
        "unavailable" => ["This provider is temporarily unavailable.", "Ce fournisseur est momentanément indisponible.", "هذا المزوّد غير متاح مؤقتًا."],
        "rtp" => ["Pays 2× (1 in 4), 5× (2 in 25), 12× (1 in 200): RTP 96 %", "Paie 2× (1 sur 4), 5× (2 sur 25), 12× (1 sur 200) : RTP 96 %", "يدفع 2× (1 من 4)، 5× (2 من 25)، 12× (1 من 200): نسبة العائد 96٪"],
        _ => ["", "", ""],
    };
    row[i]
}

fn lang_of(l: &str) -> &'static str {
    match l.get(..2) {
        Some("fr") => "fr",
        Some("ar") => "ar",
        _ => "en",
    }
}

fn major(minor: i64) -> String {
    crate::amount::format(minor, kernel::Currency::Tnd)
}

/// The reels' symbols (drawn with CSS, no images or fonts needed): the last three are the
/// 2×, 5× and 12× lines; a losing spin shows three that do not line up.
const SYMBOLS: [&str; 6] = ["7", "♣", "♥", "●", "★", "◆"];

/// The reels of a result: three alike for a win, a mixed line otherwise (cosmetic).
fn reels_of(tenths: i64) -> [usize; 3] {
    match tenths {
        20 => [3, 3, 3],
        50 => [4, 4, 4],
        120 => [5, 5, 5],
        _ => {
            let mut rng = rand::rngs::OsRng;
            let a = rng.gen_range(0..6);
            let b = (a + rng.gen_range(1..6)) % 6;
            [a, b, rng.gen_range(0..6)]
        }
    }
}

/// What a spin drew: the multiplier in tenths (0 = lost).
fn draw() -> i64 {
    let r: u32 = rand::rngs::OsRng.gen_range(0..1000);
    match r {
        0..250 => 20,
        250..330 => 50,
        330..335 => 120,
        _ => 0,
    }
}

fn page(provider: &str, q: &PlayQuery, balance: Option<i64>, message: Option<(&str, String)>, reels: [usize; 3]) -> Response {
    let lang = lang_of(&q.lang);
    let dir = if lang == "ar" { "rtl" } else { "ltr" };
    let catalogue = super::catalogue::provider(provider);
    let display = catalogue.map(|p| p.display).unwrap_or(provider);
    let game = catalogue.and_then(|p| p.games.iter().find(|g| g.id == q.game)).map(|g| g.name).unwrap_or(q.game.as_str());
    let stakes: String = STAKES.iter().map(|s| format!("<option value=\"{s}\">{} TND</option>", major(*s))).collect();
    let balance = balance.map(|b| format!("<p class=\"balance\">{}: <b>{} TND</b></p>", t(lang, "balance"), major(b))).unwrap_or_default();
    let message = message.map(|(class, text)| format!("<p class=\"msg {class}\" role=\"status\">{}</p>", esc(&text))).unwrap_or_default();
    let reels: String = reels.iter().map(|&i| format!("<span class=\"sym s{i}\">{}</span>", SYMBOLS[i % SYMBOLS.len()])).collect();
    let body = format!(
        "<!doctype html><html lang=\"{lang}\" dir=\"{dir}\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\
         <title>{game}</title><link rel=\"stylesheet\" href=\"/demo-providers/assets/page.css\"></head><body>\
         <p class=\"demo\">{demo}</p><h1>{game}</h1><p class=\"provider\">{display}</p><div class=\"reels\" aria-hidden=\"true\">{reels}</div>{balance}{message}\
         <form method=\"post\" action=\"/demo-providers/{provider}/spin\">\
         <input type=\"hidden\" name=\"game\" value=\"{g}\"><input type=\"hidden\" name=\"token\" value=\"{token}\">\
         <input type=\"hidden\" name=\"lang\" value=\"{lang}\"><input type=\"hidden\" name=\"player\" value=\"{player}\">\
         <label>{stake} <select name=\"stake\">{stakes}</select></label><button type=\"submit\">{spin}</button></form>\
         <p class=\"rtp\">{rtp}</p></body></html>",
        demo = t(lang, "demo"),
        game = esc(game),
        display = esc(display),
        provider = esc(provider),
        g = esc(&q.game),
        token = esc(&q.token),
        player = q.player,
        stake = t(lang, "stake"),
        spin = t(lang, "spin"),
        rtp = t(lang, "rtp"),
    );
    Html(body).into_response()
}

async fn play(State(f): State<Arc<Fakes>>, Path(provider): Path<String>, Query(q): Query<PlayQuery>) -> Response {
    let lang = lang_of(&q.lang);
    let d = Delivery { op: Op::Authenticate, player: q.player, token: q.token.clone(), tx: String::new(), round: String::new(), game: q.game.clone(), amount: 0, currency: "TND".into(), of: None, forge: Forge::None };
    let a = f.deliver(&provider, &d).await;
    match a.outcome {
        Outcome::Done => page(&provider, &q, a.balance, None, [5, 4, 3]),
        Outcome::Unsupported => {
            // A dialect without a login call: ask the balance.
            let a = f.deliver(&provider, &Delivery { op: Op::Balance, ..d }).await;
            page(&provider, &q, a.balance, (a.outcome != Outcome::Done).then(|| ("bad", t(lang, "unavailable").to_string())), [5, 4, 3])
        }
        _ => page(&provider, &q, None, Some(("bad", t(lang, "session").to_string())), [5, 4, 3]),
    }
}

async fn spin(State(f): State<Arc<Fakes>>, Path(provider): Path<String>, Form(s): Form<SpinForm>) -> Response {
    let q = PlayQuery { game: s.game.clone(), token: s.token.clone(), lang: s.lang.clone(), player: s.player };
    let lang = lang_of(&s.lang);
    if !STAKES.contains(&s.stake) {
        return page(&provider, &q, None, Some(("bad", t(lang, "refused").to_string())), [5, 4, 3]);
    }
    // A round id the provider never reuses.
    let round = format!("demo-{}-{}", kernel::clock::now_ms(), rand::rngs::OsRng.gen::<u32>());
    let base = Delivery { op: Op::Bet, player: s.player, token: s.token.clone(), tx: format!("{round}-bet"), round: round.clone(), game: s.game.clone(), amount: s.stake, currency: "TND".into(), of: None, forge: Forge::None };
    let bet = f.deliver(&provider, &base).await;
    if bet.outcome != Outcome::Done {
        return page(&provider, &q, bet.balance, Some(("bad", format!("{} ({})", t(lang, "refused"), bet.code))), [5, 4, 3]);
    }
    let tenths = draw();
    let win = s.stake * tenths / 10;
    // Every round is closed with its result, a zero win included (as Pragmatic's `result`).
    let paid = f.deliver(&provider, &Delivery { op: Op::Win, tx: format!("{round}-win"), amount: win, ..base }).await;
    let message = if win > 0 { ("good", format!("{} {} TND ({}×)", t(lang, "won"), major(win), tenths as f64 / 10.0)) } else { ("", t(lang, "lost").to_string()) };
    page(&provider, &q, paid.balance.or(bet.balance), Some(message), reels_of(tenths))
}

/// `GET /inbet/media/loader.js` in demo mode: the InBet fake's loader script, which the
/// player app's /slots/inbet/:gameId page loads (spec §7: loader scripts come from fixed
/// paths under /inbet/media); it frames the game session's launch address.
pub async fn inbet_loader() -> Response {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8"), (header::CACHE_CONTROL, "no-cache")],
        include_str!("inbet_loader.js"),
    )
        .into_response()
}

async fn css() -> Response {
    (
        [(header::CONTENT_TYPE, "text/css; charset=utf-8"), (header::CACHE_CONTROL, "public, max-age=3600")],
        "body{font-family:system-ui,sans-serif;margin:0;padding:16px;background:#0f1a2b;color:#f3f5f9;max-width:480px;margin-inline:auto}\
         .demo{background:#ffcf33;color:#1a1300;border-radius:8px;padding:6px 10px;font-size:12px;font-weight:600}\
         h1{font-size:22px;margin:16px 0 4px}.provider{color:#9fb0c8;margin:0 0 12px}.balance{font-size:16px}\
         .msg{padding:10px 12px;border-radius:8px;background:#1d2b42}.msg.good{background:#14532d}.msg.bad{background:#5b1a1a}\
         form{display:flex;gap:12px;align-items:end;flex-wrap:wrap;margin:16px 0}label{display:flex;flex-direction:column;gap:6px;font-size:14px}\
         select{font-size:16px;padding:10px;border-radius:8px;min-width:140px}\
         button{font-size:18px;font-weight:700;padding:12px 28px;border:0;border-radius:10px;background:#22c55e;color:#04210f;min-height:48px}\
         .rtp{color:#9fb0c8;font-size:12px}\
         .reels{display:flex;gap:10px;justify-content:center;margin:18px 0;padding:14px;border-radius:16px;background:linear-gradient(180deg,#1b2a44,#0b1322);box-shadow:inset 0 0 0 2px #2c3f60}\
         .sym{display:flex;align-items:center;justify-content:center;width:84px;height:96px;border-radius:12px;background:#f7f3e8;font-size:52px;font-weight:800;color:#1a1300}\
         .s0{color:#d72638}.s1{color:#2d6a4f}.s2{color:#c9184a}.s3{color:#f77f00}.s4{color:#e9b10a}.s5{color:#3a86ff}",
    )
        .into_response()
}

// ------------------------------------------------------------------------------ catalogue

#[derive(Debug, Deserialize)]
struct ListQuery {
    #[serde(default)]
    page: Option<u32>,
}

/// Slotegrator's page size in the demo: one game a page, so the job's paging is exercised.
const SLOTEGRATOR_PER_PAGE: usize = 1;

/// The demo games of `provider` in its provider's own list format (`None`: no such fake).
pub fn list_payload(provider: &str, page: u32) -> Option<serde_json::Value> {
    use serde_json::json;
    let p = super::catalogue::provider(provider)?;
    let live = p.casino_type == "casinolive";
    let payload = match provider {
        "pragmatic" => json!({
            "error": "0",
            "description": "OK",
            "gameList": p.games.iter().map(|g| {
                let lg = live || matches!(g.kind, "table" | "roulette");
                json!({ "gameID": g.id, "gameName": g.name, "gameTypeID": if lg { "lg" } else { "vs" },
                        "typeDescription": if lg { "Live games" } else { "Video Slots" }, "technology": "html5", "technologyID": "H5",
                        "platform": "MOBILE,WEB", "demoGameAvailable": true, "aspectRatio": "16:9", "frbAvailable": false, "variableFrbAvailable": false })
            }).collect::<Vec<_>>(),
        }),
        // The demo fake stands for an Evolution-type aggregator feed whose merchant is
        // upgaming (one of the two the spec keeps).
        "evolution" => json!(p.games.iter().map(|g| json!({
            "PageCode": g.id, "Trans": { "en": g.name }, "MerchantName": "upgaming", "ImageURL": format!("{}.svg", g.id),
            "System": "evolution", "GameType": if live { "live" } else { "slots" },
        })).collect::<Vec<_>>()),
        "habanero" => json!({ "Games": p.games.iter().enumerate().map(|(i, g)| json!({
            "BrandGameId": format!("demo-{}", g.id), "KeyName": g.id, "Name": g.name, "GameTypeName": "Video Slots", "IsNew": i == 0,
        })).collect::<Vec<_>>() }),
        "slotegrator" => {
            let pages = p.games.len().div_ceil(SLOTEGRATOR_PER_PAGE).max(1);
            let page = (page.max(1) as usize).min(pages);
            let items: Vec<_> = p.games.iter().skip((page - 1) * SLOTEGRATOR_PER_PAGE).take(SLOTEGRATOR_PER_PAGE).map(|g| json!({
                "uuid": g.id, "name": g.name, "image": format!("{}.svg", g.id), "type": kind_word(g.kind), "provider": "Demo Studio",
                "technology": "HTML5", "has_lobby": 0, "is_mobile": 0, "has_freespins": 0, "has_tables": 0,
            })).collect();
            json!({ "items": items, "_links": { "self": { "href": format!("games?page={page}") } },
                    "_meta": { "totalCount": p.games.len(), "pageCount": pages, "currentPage": page, "perPage": SLOTEGRATOR_PER_PAGE } })
        }
        "evoplay" => json!({ "status": "ok", "data": p.games.iter().map(|g| (g.id.to_string(), json!({
            "name": g.name, "type_id": match g.kind { "crash" => 3, "table" | "roulette" => 2, _ => 1 }, "game_sub_type": kind_word(g.kind),
        }))).collect::<serde_json::Map<_, _>>() }),
        "goldenrace" => json!({ "games": p.games.iter().map(|g| json!({ "gameId": g.id, "name": g.name, "type": "racing", "image": format!("{}.svg", g.id) })).collect::<Vec<_>>() }),
        // TV games: the gameid family's `{games: [{id, name, iconurl}]}`.
        "tvbet" => json!({ "games": p.games.iter().map(|g| json!({ "id": g.id, "name": g.name, "iconurl": format!("{}.svg", g.id) })).collect::<Vec<_>>() }),
        "softswiss" | "inbet" => json!(p.games.iter().map(|g| json!({
            "identifier": g.id, "title": g.name, "producer": "demo", "category": kind_word(g.kind), "devices": ["desktop", "mobile"],
            "payout": format!("{}.{:02}", g.rtp_bp / 100, g.rtp_bp % 100),
        })).collect::<Vec<_>>()),
        "hub88" => json!(p.games.iter().map(|g| json!({
            "game_code": g.id, "name": g.name, "url_thumb": format!("{}.svg", g.id), "category": kind_word(g.kind),
            "product": p.display, "platforms": ["GPL_DESKTOP", "GPL_MOBILE"], "enabled": true,
        })).collect::<Vec<_>>()),
        _ => return None,
    };
    Some(payload)
}

fn kind_word(kind: &str) -> &'static str {
    match kind {
        "crash" => "crash",
        "roulette" => "roulette",
        "table" => "table",
        "virtual" => "virtual",
        _ => "slots",
    }
}

async fn games(Path(provider): Path<String>, Query(q): Query<ListQuery>) -> Response {
    match list_payload(&provider, q.page.unwrap_or(1)) {
        Some(p) => ([(header::CONTENT_TYPE, "application/json")], p.to_string()).into_response(),
        None => (axum::http::StatusCode::NOT_FOUND, "no such demo provider").into_response(),
    }
}

/// A demo game's image: an SVG tile with its name, found by the file's stem (the game's id,
/// or its name for Evoplay's `{Name}.jpg`), whatever extension is asked.
async fn image(Path((provider, file)): Path<(String, String)>) -> Response {
    let stem = file.rsplit_once('.').map(|(s, _)| s).unwrap_or(&file);
    let Some(p) = super::catalogue::provider(&provider) else {
        return (axum::http::StatusCode::NOT_FOUND, "no such demo provider").into_response();
    };
    let Some(g) = p.games.iter().find(|g| g.id == stem || g.name.eq_ignore_ascii_case(stem)) else {
        return (axum::http::StatusCode::NOT_FOUND, "no such demo game").into_response();
    };
    ([(header::CONTENT_TYPE, "image/svg+xml"), (header::CACHE_CONTROL, "public, max-age=3600")], tile(p.display, g.id, g.name)).into_response()
}

/// A 300×300 tile: a colour from the game id, the name in up to three lines, "DEMO".
pub fn tile(display: &str, id: &str, name: &str) -> String {
    let h = id.bytes().fold(2166136261u32, |h, b| (h ^ b as u32).wrapping_mul(16777619));
    let hue = h % 360;
    let mut lines: Vec<String> = Vec::new();
    for word in name.split_whitespace() {
        match lines.last_mut() {
            Some(l) if l.chars().count() + 1 + word.chars().count() <= 14 => {
                l.push(' ');
                l.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines.truncate(3);
    let text: String = lines
        .iter()
        .enumerate()
        .map(|(i, l)| format!("<text x=\"150\" y=\"{}\" font-size=\"30\" font-weight=\"700\" text-anchor=\"middle\" fill=\"#fff\">{}</text>", 130 + i as i32 * 38 - (lines.len() as i32 - 1) * 19, esc(l)))
        .collect();
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"300\" height=\"300\" viewBox=\"0 0 300 300\" font-family=\"sans-serif\">\
         <defs><linearGradient id=\"g\" x1=\"0\" y1=\"0\" x2=\"1\" y2=\"1\"><stop offset=\"0\" stop-color=\"hsl({hue},65%,45%)\"/>\
         <stop offset=\"1\" stop-color=\"hsl({hue2},70%,22%)\"/></linearGradient></defs>\
         <rect width=\"300\" height=\"300\" rx=\"24\" fill=\"url(#g)\"/>{text}\
         <text x=\"150\" y=\"250\" font-size=\"15\" text-anchor=\"middle\" fill=\"#e8ecf4\">{display}</text>\
         <rect x=\"112\" y=\"262\" width=\"76\" height=\"22\" rx=\"11\" fill=\"#ffcf33\"/>\
         <text x=\"150\" y=\"278\" font-size=\"13\" font-weight=\"700\" text-anchor=\"middle\" fill=\"#1a1300\">DEMO</text></svg>",
        hue2 = (hue + 40) % 360,
        display = esc(display),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_fake_serves_its_catalogue_in_its_format() {
        for p in super::super::catalogue::PROVIDERS {
            let payload = list_payload(p.code, 1).unwrap_or_else(|| panic!("{} has no list", p.code));
            let feed = crate::import::Feed::new(crate::ProviderSettings::local(p.code, "k", "http://127.0.0.1:9/demo-providers/x"), Default::default());
            let mut ids = Vec::new();
            let mut page = 1;
            loop {
                let body = list_payload(p.code, page).unwrap().to_string();
                let parsed = crate::import::parse(&feed, &casino::shapes::ListRules::default(), body.as_bytes()).unwrap_or_else(|e| panic!("{}: {e}", p.code));
                ids.extend(parsed.games.iter().map(|g| g.game.game_id.clone()));
                assert_eq!(parsed.dropped, 0, "{}", p.code);
                if page >= parsed.page_count {
                    break;
                }
                page += 1;
            }
            let expected: Vec<String> = p.games.iter().map(|g| g.id.to_string()).collect();
            let mut sorted_ids = ids.clone();
            sorted_ids.sort();
            let mut sorted_expected = expected.clone();
            sorted_expected.sort();
            assert_eq!(sorted_ids, sorted_expected, "{}: the import reads back every demo game", p.code);
            assert!(payload.is_object() || payload.is_array());
        }
        assert!(list_payload("nobody", 1).is_none());
    }

    #[test]
    fn tiles_escape_names() {
        let svg = tile("Demo <x>", "id", "A & B <script>");
        assert!(svg.contains("A &amp; B") && !svg.contains("<script>") && svg.contains("Demo &lt;x&gt;"));
        assert!(svg.starts_with("<svg"));
    }
}
