//! The games the platform hosts itself, written to the catalogue at startup: the studio
//! (always — it is the embedded default provider) and, in demo mode only, the `demo`
//! provider whose one game `demo-table` is played from outside through the signed wallet
//! API (secret `demo-secret`), so the protocol can be exercised.

use crate::app::AppState;
use casino::{NewGame, NewProvider, STUDIO};
use std::collections::BTreeMap;

/// Secret of the demo provider (demo mode only).
pub const DEMO_PROVIDER_SECRET: &str = "demo-secret";

/// A catalogue text in the app's three languages: English (the default), French, Arabic.
struct Texts {
    en: String,
    fr: String,
    ar: String,
}

impl Texts {
    fn new(en: &str, fr: &str, ar: &str) -> Texts {
        Texts { en: en.into(), fr: fr.into(), ar: ar.into() }
    }

    fn translations(&self) -> BTreeMap<String, String> {
        BTreeMap::from([("fr".to_string(), self.fr.clone()), ("ar".to_string(), self.ar.clone())])
    }
}

/// A studio slot's description: "5-reel video slot, {volatility} volatility, with a bonus feature."
fn slot_texts(volatility: &str) -> Texts {
    let (fr, ar) = match volatility {
        "low" => ("faible", "منخفضة"),
        "high" => ("élevée", "مرتفعة"),
        _ => ("moyenne", "متوسطة"),
    };
    Texts {
        en: format!("5-reel video slot, {volatility} volatility, with a bonus feature."),
        fr: format!("Machine à sous vidéo à 5 rouleaux, volatilité {fr}, avec une fonction bonus."),
        ar: format!("سلوت فيديو بخمس بكرات، تقلّب بدرجة {ar}، مع ميزة مكافأة."),
    }
}

fn game(game_id: &str, name: &str, texts: Texts, kind: &str, tabs: &[&str], rtp_bp: u32, volatility: &str, featured: i64, sort: i64) -> NewGame {
    NewGame {
        game_id: game_id.into(),
        name: name.into(),
        descriptions: texts.translations(),
        description: texts.en,
        tabs: tabs.iter().map(|t| t.to_string()).collect(),
        image_url: format!("/games/{STUDIO}/{game_id}.svg"),
        casino_type: "slots".into(),
        kind: kind.into(),
        is_new: true,
        featured,
        rtp_bp: Some(rtp_bp as i64),
        volatility: Some(volatility.into()),
        sort,
    }
}

/// The studio's games with their declared RTP (slots: from the reel data; crash 99 %,
/// European roulette 97.30 %, dice 99 %).
pub fn studio_games() -> Vec<NewGame> {
    let mut games: Vec<NewGame> = studio::slots::catalogue()
        .iter()
        .enumerate()
        .map(|(i, g)| {
            game(g.id(), g.name(), slot_texts(g.volatility()), "slot",
                &["popular", "top"], g.declared_rtp_bp(), g.volatility(), 10 - i as i64, i as i64)
        })
        .collect();
    let crash = Texts::new(
        "Multiplayer: cash out before the rocket crashes.",
        "Multijoueur : encaissez avant que la fusée n'explose.",
        "لعبة جماعية: اسحب أرباحك قبل أن يتحطم الصاروخ.",
    );
    let roulette = Texts::new(
        "Single-zero roulette with the full betting layout.",
        "Roulette à un seul zéro avec tout le tapis de mises.",
        "روليت بصفر واحد مع طاولة الرهانات كاملة.",
    );
    let dice = Texts::new(
        "Roll over or under your target, from 0.00 to 100.00.",
        "Misez au-dessus ou en dessous de votre cible, de 0,00 à 100,00.",
        "راهن على نتيجة أعلى أو أدنى من هدفك، من 0.00 إلى 100.00.",
    );
    games.push(game("crash", "Crash", crash, "crash", &["crashGames", "popular", "top"], 9900, "high", 20, 10));
    games.push(game("roulette", "European Roulette", roulette, "roulette", &["roulette", "popular"], 9730, "medium", 5, 11));
    games.push(game("dice", "Dice", dice, "dice", &["popular"], 9900, "medium", 4, 12));
    games
}

/// Writes the hosted providers and games (idempotent; run at every start).
pub async fn install(state: &AppState) -> anyhow::Result<()> {
    let studio = NewProvider {
        name: STUDIO.into(),
        display_name: "Carthage Studio".into(),
        casino_type: "slots".into(),
        auth_required: false,
        listed: true,
        priority: 100,
        wallet_secret: None,
        launch_url: "/studio/{gameId}?token={token}&lang={lang}".into(),
        logo_url: Some(format!("/games/{STUDIO}/logo.svg")),
    };
    state.casino.catalogue().upsert_provider(&studio, &studio_games()).await.map_err(|e| anyhow::anyhow!(e.text()))?;
    // The partner sportsbooks: unlisted providers (no games) whose `enabled` flag is the
    // operator's switch for their frames. Their wallets speak their own dialects with the
    // secrets of `PartnersConfig`: no `wallet_secret`, so our own signed wallet dialect
    // (`/api/wallet/v1/*`) refuses them (66).
    let cfg = &state.partners.config;
    for (name, display, url) in [(crate::partners::DIGITAIN, "Digitain", &cfg.digitain_url), (crate::partners::GR8, "GR8 Tech", &cfg.gr8_iframe_url)] {
        let partner = NewProvider {
            name: name.into(),
            display_name: display.into(),
            casino_type: "sport".into(),
            auth_required: false,
            listed: false,
            priority: 0,
            wallet_secret: None,
            launch_url: url.clone(),
            logo_url: None,
        };
        state.casino.catalogue().upsert_provider(&partner, &[]).await.map_err(|e| anyhow::anyhow!(e.text()))?;
    }
    // The game providers with a wallet adapter: each enabled one is listed; in demo mode
    // its games are its local fake's (docs/PROVIDERS.md), launched on the fake's page.
    for settings in state.config.providers.iter().filter(|s| s.enabled && state.providers.get(&s.name).is_some()) {
        let Some(fake) = providers::fake::catalogue::provider(&settings.name) else { continue };
        let provider = NewProvider {
            name: settings.name.clone(),
            // "(demo)" only for a local fake; a real provider shows its own name.
            display_name: if settings.demo { fake.display.into() } else { casino::catalogue::display_name(&settings.name) },
            casino_type: fake.casino_type.into(),
            auth_required: settings.auth_required,
            listed: true,
            priority: 10,
            wallet_secret: None,
            // The player id is what a real provider learns from the launch call (Evolution's
            // UA2, Hub88's game/url); the demo fakes read it from their link.
            launch_url: settings.launch_template(),
            logo_url: None,
        };
        // A real provider's games come from its catalogue import, not from here; so do a demo
        // provider's once the refresh job has imported its fake's list (its images cached).
        let imported = state.casino.feeds().imported(&settings.name).await.map_err(|e| anyhow::anyhow!(e.text()))?;
        if !settings.demo || imported {
            state.casino.catalogue().upsert_provider_row(&provider).await.map_err(|e| anyhow::anyhow!(e.text()))?;
            continue;
        }
        let games: Vec<NewGame> = fake.games
                .iter()
                .enumerate()
                .map(|(i, g)| NewGame {
                    game_id: g.id.into(),
                    name: g.name.into(),
                    description: format!("{} — a demo game of the local {} fake: its stakes and wins travel through {}'s own wallet protocol.", g.name, fake.display, fake.display),
                    descriptions: BTreeMap::new(),
                    tabs: g.tabs.iter().map(|t| t.to_string()).collect(),
                    image_url: String::new(),
                    casino_type: fake.casino_type.into(),
                    kind: g.kind.into(),
                    is_new: i == 0,
                    featured: 0,
                    rtp_bp: Some(g.rtp_bp),
                    volatility: Some("high".into()),
                    sort: i as i64,
                })
                .collect();
        state.casino.catalogue().upsert_provider(&provider, &games).await.map_err(|e| anyhow::anyhow!(e.text()))?;
    }
    if state.is_demo() {
        let demo = NewProvider {
            name: "demo".into(),
            display_name: "Demo provider".into(),
            casino_type: "slots".into(),
            auth_required: true,
            listed: false,
            priority: 0,
            wallet_secret: Some(DEMO_PROVIDER_SECRET.into()),
            launch_url: "/studio/{gameId}?token={token}&lang={lang}".into(),
            logo_url: None,
        };
        let table = NewGame {
            game_id: "demo-table".into(),
            name: "Demo Table".into(),
            description: "A table driven from outside through the signed provider wallet API.".into(),
            descriptions: Texts::new(
                "",
                "Une table pilotée de l'extérieur par l'API portefeuille signée du fournisseur.",
                "طاولة تُدار من الخارج عبر واجهة المحفظة الموقّعة للمزوّد.",
            )
            .translations(),
            tabs: vec!["tableGames".into()],
            image_url: String::new(),
            casino_type: "slots".into(),
            kind: "table".into(),
            is_new: false,
            featured: 0,
            rtp_bp: None,
            volatility: None,
            sort: 0,
        };
        state.casino.catalogue().upsert_provider(&demo, &[table]).await.map_err(|e| anyhow::anyhow!(e.text()))?;
    }
    Ok(())
}
