//! The providers' list and link endpoints without I/O (spec §3 "Provider game payloads as
//! read", §7 "Favourites and games", §9; docs/providers/endpoints.md): the §9 rules an
//! operator may edit ([`ListRules`]), the filters (Slotegrator exclusions and one version
//! per platform, Evolution-type merchants, Evoplay out of the Outcome list, the Golden Race
//! whitelist and its order, featured ids first, the pragmatic → pragmaticf swap), each
//! provider's payload shape built from our catalogue, and the launch links' parameters.
//!
//! Every list is read from the catalogue ([`crate::Catalogue`]) and the provider's own
//! fields kept beside it at import (`provider_game_meta`, [`Meta`]); nothing here invents a
//! game.

use crate::catalogue::Game;
use kernel::{AppError, ErrorCode};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use utoipa::ToSchema;

/// What a provider's list said of a game beyond our Game (`gameTypeID`, `MerchantName`, …).
pub type Meta = serde_json::Map<String, serde_json::Value>;

// ------------------------------------------------------------------------------ rules

/// The §9 rules, editable without a rebuild: the site settings document `providers`
/// (`carthage catalogue rules --set FILE`), each key falling back to its default.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct ListRules {
    /// Pragmatic game ids served through pragmaticf (spec: "a table of about 40 ids"; the
    /// ids are the operator's contract with the aggregator, so the default is empty).
    pub pragmatic_swap: Vec<String>,
    /// Game ids shown first, in this order (`gameId` or `provider:gameId`).
    pub featured: Vec<String>,
    /// Golden Race titles shown, in this order (16 by default).
    pub golden_race_whitelist: Vec<String>,
    /// Slotegrator studios left out (case-insensitive).
    pub slotegrator_excluded: Vec<String>,
    /// Evolution-type merchants kept (games naming another merchant are left out).
    pub evolution_merchants: Vec<String>,
    /// Outcome sections left out (Evoplay is served by its own integration).
    pub outcome_excluded: Vec<String>,
    /// Live casino providers (their games import as live casino).
    pub live_providers: Vec<String>,
    /// The TV betting tiles.
    pub tv_tiles: Vec<TvTile>,
}

/// One TV betting tile (spec §9: three default tiles, purple, red and black).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TvTile {
    /// `purple`, `red`, `black`, …
    pub id: String,
    /// CSS colour of the tile.
    pub color: String,
    /// The TV game it opens (`null`: the TV provider's lobby).
    #[serde(default)]
    pub game_id: Option<String>,
}

/// Spec §9 "Golden race whitelist: 16 titles (for example Horse Races, Dog Races,
/// Basketball, Speedway), ordered by that list": the four examples first, then Golden
/// Race's other virtual products by their catalogue titles (docs/providers/endpoints.md).
pub const GOLDEN_RACE_WHITELIST: [&str; 16] = [
    "Horse Races",
    "Dog Races",
    "Basketball",
    "Speedway",
    "Football",
    "Football League",
    "Tennis",
    "Motorbikes",
    "Kart Racing",
    "Cycling",
    "Trotting",
    "Keno",
    "Spin2Win",
    "Lucky 6",
    "Darts",
    "Dice",
];

impl Default for ListRules {
    fn default() -> ListRules {
        let owned = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        ListRules {
            pragmatic_swap: Vec::new(),
            featured: Vec::new(),
            golden_race_whitelist: owned(&GOLDEN_RACE_WHITELIST),
            slotegrator_excluded: owned(&["lotto instant win", "betsolutions", "betradar"]),
            evolution_merchants: owned(&["upgaming", "betsolutions"]),
            outcome_excluded: owned(&["evoplay"]),
            live_providers: owned(&["evolutionlive", "pragmaticlive", "pragmatic", "ezugi", "tvbet", "vivogaming", "xpg"]),
            tv_tiles: vec![
                TvTile { id: "purple".into(), color: "#6c2bd9".into(), game_id: None },
                TvTile { id: "red".into(), color: "#d7263d".into(), game_id: None },
                TvTile { id: "black".into(), color: "#111111".into(), game_id: None },
            ],
        }
    }
}

const MAX_LIST: usize = 2_000;
const MAX_TEXT: usize = 128;

impl ListRules {
    /// The rules from the settings document: missing keys keep their defaults; a key of the
    /// wrong type, an overlong list or text, or a tile without id or colour is refused.
    pub fn from_document(doc: &serde_json::Value) -> Result<ListRules, String> {
        if !(doc.is_object() || doc.is_null()) {
            return Err("the providers settings must be a JSON object".into());
        }
        let rules: ListRules = if doc.is_null() { ListRules::default() } else { serde_json::from_value(doc.clone()).map_err(|e| e.to_string())? };
        rules.validate()?;
        Ok(rules)
    }

    fn validate(&self) -> Result<(), String> {
        let lists: [(&str, &Vec<String>); 7] = [
            ("pragmaticSwap", &self.pragmatic_swap),
            ("featured", &self.featured),
            ("goldenRaceWhitelist", &self.golden_race_whitelist),
            ("slotegratorExcluded", &self.slotegrator_excluded),
            ("evolutionMerchants", &self.evolution_merchants),
            ("outcomeExcluded", &self.outcome_excluded),
            ("liveProviders", &self.live_providers),
        ];
        for (name, list) in lists {
            if list.len() > MAX_LIST {
                return Err(format!("{name}: at most {MAX_LIST} entries"));
            }
            if let Some(bad) = list.iter().find(|s| s.trim().is_empty() || s.chars().count() > MAX_TEXT) {
                return Err(format!("{name}: {bad:?} must be 1 to {MAX_TEXT} characters"));
            }
        }
        if self.tv_tiles.len() > 24 {
            return Err("tvTiles: at most 24 tiles".into());
        }
        for t in &self.tv_tiles {
            let colour_ok = !t.color.is_empty() && t.color.len() <= 32 && t.color.chars().all(|c| c.is_ascii_alphanumeric() || c == '#');
            if t.id.trim().is_empty() || t.id.len() > 32 || !colour_ok {
                return Err(format!("tvTiles: tile {:?} needs an id (1–32 characters) and a colour (#rrggbb or a name)", t.id));
            }
        }
        Ok(())
    }

    /// Is `provider` a live casino provider (spec §9; `evolutionLive` and `evolutionlive` alike)?
    pub fn is_live_provider(&self, provider: &str) -> bool {
        self.live_providers.iter().any(|p| p.eq_ignore_ascii_case(provider))
    }

    /// Is this Pragmatic game id served through pragmaticf?
    pub fn is_swapped(&self, game_id: &str) -> bool {
        self.pragmatic_swap.iter().any(|id| id.trim().eq_ignore_ascii_case(game_id.trim()))
    }

    /// Spec §9: Slotegrator studios 'lotto instant win', betsolutions and betradar are left out.
    pub fn slotegrator_allowed(&self, studio: &str) -> bool {
        let s = studio.trim();
        !self.slotegrator_excluded.iter().any(|x| x.trim().eq_ignore_ascii_case(s))
    }

    /// Spec §9: Evolution-type games are kept for merchants upgaming and betsolutions. A
    /// game naming no merchant (a direct Evolution feed has no such field) is kept: the
    /// rule filters an aggregator's list, it does not empty a direct integration.
    pub fn merchant_allowed(&self, merchant: Option<&str>) -> bool {
        match merchant.map(str::trim).filter(|m| !m.is_empty()) {
            None => true,
            Some(m) => self.evolution_merchants.iter().any(|x| x.trim().eq_ignore_ascii_case(m)),
        }
    }

    /// Spec §9: Evoplay is excluded from the Outcome list (by its section, or its name when
    /// the section is a number).
    pub fn outcome_allowed(&self, section: &str, name: &str) -> bool {
        let s = section.trim().to_ascii_lowercase();
        let n = name.to_ascii_lowercase();
        !self.outcome_excluded.iter().map(|x| x.trim().to_ascii_lowercase()).any(|x| s == x || s.contains(&x) || n.starts_with(&format!("{x} ")))
    }

    /// The place of a Golden Race title in the whitelist (`None`: not shown).
    pub fn golden_race_rank(&self, name: &str) -> Option<usize> {
        let key = title_key(name);
        self.golden_race_whitelist.iter().position(|t| title_key(t) == key)
    }

    /// The place of a game in the featured list (`None`: not featured).
    pub fn featured_rank(&self, provider: &str, game_id: &str) -> Option<usize> {
        self.featured.iter().position(|f| match f.split_once(':') {
            Some((p, id)) if !p.is_empty() && crate::catalogue::route_provider(&p.to_ascii_lowercase()) == crate::catalogue::route_provider(provider) => id == game_id,
            _ => f == game_id,
        })
    }
}

/// A title compared letters and digits only, case-insensitively ("Dog races" = "DOG-RACES").
fn title_key(s: &str) -> String {
    s.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect()
}

// ------------------------------------------------------------------------------ filters

/// A catalogue game with the provider's own fields.
#[derive(Debug, Clone)]
pub struct Listed {
    pub game: Game,
    pub meta: Meta,
}

impl Listed {
    pub fn text(&self, key: &str) -> String {
        meta_text(&self.meta, key)
    }
}

/// A meta field as text (numbers and booleans written out; absent → empty).
pub fn meta_text(meta: &Meta, key: &str) -> String {
    match meta.get(key) {
        Some(serde_json::Value::String(s)) => s.clone(),
        Some(serde_json::Value::Null) | None => String::new(),
        Some(v) => v.to_string(),
    }
}

/// A meta flag (`true`, `1`, `"1"`, `"true"`).
pub fn meta_flag(meta: &Meta, key: &str) -> bool {
    match meta.get(key) {
        Some(serde_json::Value::Bool(b)) => *b,
        Some(serde_json::Value::Number(n)) => n.as_i64().unwrap_or(0) != 0,
        Some(serde_json::Value::String(s)) => matches!(s.trim().to_ascii_lowercase().as_str(), "1" | "true" | "yes"),
        _ => false,
    }
}

/// Featured ids first, in the featured list's order; the rest keep the catalogue's order.
pub fn featured_first(rules: &ListRules, games: &mut [Listed]) {
    games.sort_by_key(|l| rules.featured_rank(&l.game.provider, &l.game.game_id).unwrap_or(usize::MAX));
}

/// Spec §9 "games with both versions show the one matching the platform" (Slotegrator):
/// games of the same studio and name with a desktop and a mobile version keep the version
/// of `mobile`, flagged `haveTwoVersion`; a game with one version is kept as it is.
pub fn one_version_per_platform(games: Vec<Listed>, mobile: bool) -> Vec<(Listed, bool)> {
    let key = |l: &Listed| (title_key(&l.text("provider")), title_key(&l.game.name));
    let mut versions: BTreeMap<(String, String), (bool, bool)> = BTreeMap::new();
    for l in &games {
        let e = versions.entry(key(l)).or_default();
        if meta_flag(&l.meta, "is_mobile") {
            e.1 = true;
        } else {
            e.0 = true;
        }
    }
    games
        .into_iter()
        .filter_map(|l| {
            let both = versions.get(&key(&l)).is_some_and(|(d, m)| *d && *m);
            (!both || meta_flag(&l.meta, "is_mobile") == mobile).then_some((l, both))
        })
        .collect()
}

/// Spec §9: the Golden Race list is the whitelist's titles, in its order.
pub fn golden_race_order(rules: &ListRules, games: Vec<Listed>) -> Vec<Listed> {
    let mut ranked: Vec<(usize, Listed)> = games.into_iter().filter_map(|l| rules.golden_race_rank(&l.game.name).map(|r| (r, l))).collect();
    ranked.sort_by_key(|(r, _)| *r);
    ranked.into_iter().map(|(_, l)| l).collect()
}

// ------------------------------------------------------------------------------ payloads

/// `amatic/game_list` item.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AmaticGame {
    /// Our catalogue id (favourites take it).
    #[serde(rename = "catalogueId")]
    pub catalogue_id: i64,
    pub gameid: String,
    pub name: String,
    pub iconurl: String,
    /// Category tabs (for amatic, from the name: roulette, cardGames, lotto, slotMachines).
    pub tab: Vec<String>,
    /// `amatic` or `outcome_amatic` (shown as Amatic).
    pub provider: String,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AmaticList {
    pub provider: String,
    /// The provider's last catalogue refresh failed: its games are the last ones read.
    pub unavailable: bool,
    pub games: Vec<AmaticGame>,
}

/// `api/evolution/get_game_list` item (Evolution-type payload).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct EvolutionGame {
    #[serde(rename = "catalogueId")]
    pub catalogue_id: i64,
    #[serde(rename = "PageCode")]
    pub page_code: String,
    /// Names by language (`en` always).
    #[serde(rename = "Trans")]
    pub trans: BTreeMap<String, String>,
    #[serde(rename = "MerchantName")]
    pub merchant_name: Option<String>,
    #[serde(rename = "ImageURL")]
    pub image_url: String,
    #[serde(rename = "System")]
    pub system: String,
    /// `live` or `slots`.
    pub game_type: String,
    pub tab: Vec<String>,
    pub provider: String,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct EvolutionList {
    pub provider: String,
    pub unavailable: bool,
    pub games: Vec<EvolutionGame>,
}

/// `fiable/v1/game_list` item.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct FiableGame {
    #[serde(rename = "catalogueId")]
    pub catalogue_id: i64,
    /// Fiable's game id.
    pub id: String,
    pub name: String,
    pub description: String,
    pub image_name: String,
    /// The game's launch address at Fiable (the token link adds token, language and home).
    pub url: String,
    pub is_active: bool,
    pub tab: Vec<String>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct FiableList {
    pub provider: String,
    pub unavailable: bool,
    pub game_list: Vec<FiableGame>,
}

/// `habanero/game/list` item.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct HabaneroGame {
    #[serde(rename = "catalogueId")]
    pub catalogue_id: i64,
    pub keyname: String,
    pub game_name: String,
    /// The game's image (cached by us).
    pub img_name: String,
    pub tab: Vec<String>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct HabaneroList {
    pub provider: String,
    pub unavailable: bool,
    pub games: Vec<HabaneroGame>,
}

/// `slotegrator/games/list` item.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SlotegratorGame {
    #[serde(rename = "catalogueId")]
    pub catalogue_id: i64,
    pub uuid: String,
    pub name: String,
    /// The studio.
    pub provider: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub image: String,
    pub is_mobile: bool,
    /// The game has a desktop and a mobile version; this is the platform's.
    #[serde(rename = "haveTwoVersion")]
    pub have_two_version: bool,
    pub tab: Vec<String>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SlotegratorList {
    pub provider: String,
    pub unavailable: bool,
    pub project_name: String,
    pub games: Vec<SlotegratorGame>,
}

/// `api/evoplay/game_list` entry (the list is an object keyed by game id).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct EvoplayGame {
    #[serde(rename = "catalogueId")]
    pub catalogue_id: i64,
    pub name: String,
    pub type_id: String,
    /// `/api/evoplay/images/{Name}.jpg`.
    pub image: String,
    pub tab: Vec<String>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct EvoplayList {
    pub provider: String,
    pub unavailable: bool,
    /// Keyed by Evoplay's game id.
    pub games: BTreeMap<String, EvoplayGame>,
    /// The ids in display order (featured first).
    pub order: Vec<String>,
}

/// `api/outcome/games/list` item.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct OutcomeGame {
    #[serde(rename = "catalogueId")]
    pub catalogue_id: i64,
    #[serde(rename = "Id")]
    pub id: String,
    #[serde(rename = "Name")]
    pub name: String,
    #[serde(rename = "Description")]
    pub description: String,
    #[serde(rename = "Format")]
    pub format: String,
    #[serde(rename = "SectionId")]
    pub section_id: String,
    /// Our cached image.
    pub image: String,
    pub tab: Vec<String>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct OutcomeList {
    pub provider: String,
    pub unavailable: bool,
    #[serde(rename = "Games")]
    pub games: Vec<OutcomeGame>,
}

/// `api/pragmatic/game_list` item.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PragmaticGame {
    #[serde(rename = "catalogueId")]
    pub catalogue_id: i64,
    #[serde(rename = "gameID")]
    pub game_id: String,
    #[serde(rename = "gameName")]
    pub game_name: String,
    /// `lg` is live casino.
    #[serde(rename = "gameTypeID")]
    pub game_type_id: String,
    #[serde(rename = "technologyID")]
    pub technology_id: String,
    #[serde(rename = "isLiveGame")]
    pub is_live_game: bool,
    /// `pragmatic`, or `pragmaticf` for a game of the swap table (launched through it).
    pub provider: String,
    pub image: String,
    pub tab: Vec<String>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PragmaticList {
    pub provider: String,
    pub unavailable: bool,
    #[serde(rename = "gameList")]
    pub game_list: Vec<PragmaticGame>,
    /// The game server's host (images and the legacy launch).
    pub game_server_domain: String,
    /// The language of the names (`en`, `fr`, `ar`).
    pub language: String,
}

/// `gitslotpark/game_list` item (pragmaticf).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PragmaticfGame {
    #[serde(rename = "catalogueId")]
    pub catalogue_id: i64,
    pub gameid: String,
    pub name: String,
    pub iconurl1: String,
    pub tab: Vec<String>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PragmaticfList {
    pub provider: String,
    pub unavailable: bool,
    pub games: Vec<PragmaticfGame>,
}

/// `pgsoft/game_list` item.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PgsoftGame {
    #[serde(rename = "catalogueId")]
    pub catalogue_id: i64,
    pub gameid: String,
    pub name: String,
    pub iconurl: String,
    pub tab: Vec<String>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PgsoftList {
    pub provider: String,
    pub unavailable: bool,
    pub games: Vec<PgsoftGame>,
}

/// `api/golden_race/game_list` item (spec §3 virtual game).
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VirtualGame {
    /// Our catalogue id.
    pub id: i64,
    pub game_id: String,
    pub name: String,
    pub image_url: String,
    /// `goldenrace`.
    pub provider: String,
    /// The app's page of the game: `/virtual-games/goldenrace/{gameId}`.
    pub game_url: String,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GoldenRaceList {
    pub provider: String,
    pub unavailable: bool,
    pub games_list: Vec<VirtualGame>,
}

/// `GET /api/tvbet/tiles`.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TvTiles {
    pub provider: String,
    pub unavailable: bool,
    pub tiles: Vec<TvTile>,
}

/// What every link endpoint answers: the address the game page frames, and the game
/// session's token (Fiable's "URL response has a token"; Golden Race reads `url`).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ProviderLink {
    pub url: String,
    pub token: String,
}

// ------------------------------------------------------------------------------ builders

pub fn amatic(unavailable: bool, games: &[Listed]) -> AmaticList {
    AmaticList {
        provider: "amatic".into(),
        unavailable,
        games: games
            .iter()
            .map(|l| AmaticGame { catalogue_id: l.game.id, gameid: l.game.game_id.clone(), name: l.game.name.clone(), iconurl: l.game.image_url.clone(), tab: l.game.tab.clone(), provider: l.game.provider.clone() })
            .collect(),
    }
}

/// Evolution `game_type`: `live`, `slots` (or `rng`), or all when empty.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EvolutionType {
    All,
    Live,
    Slots,
}

impl EvolutionType {
    pub fn parse(v: Option<&str>) -> Result<EvolutionType, AppError> {
        match v.map(|s| s.trim().to_ascii_lowercase()).as_deref() {
            None | Some("") | Some("all") => Ok(EvolutionType::All),
            Some("live") | Some("livecasino") | Some("casinolive") => Ok(EvolutionType::Live),
            Some("slots") | Some("slot") | Some("rng") => Ok(EvolutionType::Slots),
            Some(_) => Err(AppError::with_detail(ErrorCode::InvalidField, "game_type (live, slots or rng)")),
        }
    }
}

fn evolution_type_of(g: &Game) -> &'static str {
    if g.casino_type == "casinolive" {
        "live"
    } else {
        "slots"
    }
}

pub fn evolution(rules: &ListRules, unavailable: bool, game_type: EvolutionType, games: &[Listed]) -> EvolutionList {
    let games = games
        .iter()
        .filter(|l| {
            let merchant = l.text("MerchantName");
            rules.merchant_allowed(Some(&merchant))
        })
        .filter(|l| match game_type {
            EvolutionType::All => true,
            EvolutionType::Live => evolution_type_of(&l.game) == "live",
            EvolutionType::Slots => evolution_type_of(&l.game) == "slots",
        })
        .map(|l| {
            let mut trans: BTreeMap<String, String> = match l.meta.get("Trans") {
                Some(serde_json::Value::Object(m)) => m.iter().filter_map(|(k, v)| v.as_str().map(|s| (k.clone(), s.to_string()))).collect(),
                _ => BTreeMap::new(),
            };
            trans.entry("en".into()).or_insert_with(|| l.game.name.clone());
            let merchant = l.text("MerchantName");
            EvolutionGame {
                catalogue_id: l.game.id,
                page_code: l.game.game_id.clone(),
                trans,
                merchant_name: (!merchant.is_empty()).then_some(merchant),
                image_url: l.game.image_url.clone(),
                system: l.text("System"),
                game_type: evolution_type_of(&l.game).into(),
                tab: l.game.tab.clone(),
                provider: l.game.provider.clone(),
            }
        })
        .collect();
    EvolutionList { provider: "evolution".into(), unavailable, games }
}

pub fn fiable(unavailable: bool, games: &[Listed]) -> FiableList {
    FiableList {
        provider: "fiable".into(),
        unavailable,
        game_list: games
            .iter()
            .map(|l| FiableGame {
                catalogue_id: l.game.id,
                id: l.game.game_id.clone(),
                name: l.game.name.clone(),
                description: l.game.description.clone(),
                image_name: l.game.image_url.clone(),
                url: l.text("url"),
                is_active: true,
                tab: l.game.tab.clone(),
            })
            .collect(),
    }
}

pub fn habanero(unavailable: bool, games: &[Listed]) -> HabaneroList {
    HabaneroList {
        provider: "habanero".into(),
        unavailable,
        games: games
            .iter()
            .map(|l| HabaneroGame { catalogue_id: l.game.id, keyname: l.game.game_id.clone(), game_name: l.game.name.clone(), img_name: l.game.image_url.clone(), tab: l.game.tab.clone() })
            .collect(),
    }
}

pub fn slotegrator(rules: &ListRules, unavailable: bool, project_name: &str, mobile: bool, games: Vec<Listed>) -> SlotegratorList {
    let allowed: Vec<Listed> = games.into_iter().filter(|l| rules.slotegrator_allowed(&l.text("provider"))).collect();
    SlotegratorList {
        provider: "slotegrator".into(),
        unavailable,
        project_name: project_name.into(),
        games: one_version_per_platform(allowed, mobile)
            .into_iter()
            .map(|(l, both)| SlotegratorGame {
                catalogue_id: l.game.id,
                uuid: l.game.game_id.clone(),
                name: l.game.name.clone(),
                provider: l.text("provider"),
                kind: l.text("type"),
                image: l.game.image_url.clone(),
                is_mobile: meta_flag(&l.meta, "is_mobile"),
                have_two_version: both,
                tab: l.game.tab.clone(),
            })
            .collect(),
    }
}

/// The address we serve an Evoplay game's image at (spec: `/api/evoplay/images/{Name}.jpg`).
pub fn evoplay_image(name: &str) -> String {
    format!("/api/evoplay/images/{}.jpg", crate::urlencode(name))
}

pub fn evoplay(unavailable: bool, games: &[Listed]) -> EvoplayList {
    let order: Vec<String> = games.iter().map(|l| l.game.game_id.clone()).collect();
    let games = games
        .iter()
        .map(|l| {
            (
                l.game.game_id.clone(),
                EvoplayGame { catalogue_id: l.game.id, name: l.game.name.clone(), type_id: l.text("type_id"), image: evoplay_image(&l.game.name), tab: l.game.tab.clone() },
            )
        })
        .collect();
    EvoplayList { provider: "evoplay".into(), unavailable, games, order }
}

pub fn outcome(rules: &ListRules, unavailable: bool, games: &[Listed]) -> OutcomeList {
    OutcomeList {
        provider: "outcome".into(),
        unavailable,
        games: games
            .iter()
            .filter(|l| rules.outcome_allowed(&l.text("SectionId"), &l.game.name))
            .map(|l| OutcomeGame {
                catalogue_id: l.game.id,
                id: l.game.game_id.clone(),
                name: l.game.name.clone(),
                description: l.game.description.clone(),
                format: l.text("Format"),
                section_id: l.text("SectionId"),
                image: l.game.image_url.clone(),
                tab: l.game.tab.clone(),
            })
            .collect(),
    }
}

/// The Pragmatic list: a game of the swap table is flagged `pragmaticf` when pragmaticf's
/// catalogue holds it (`pragmaticf_ids`), so it launches through pragmaticf; otherwise it
/// stays a Pragmatic game (a swap never hides a game).
pub fn pragmatic(rules: &ListRules, unavailable: bool, domain: &str, language: &str, games: &[Listed], pragmaticf_ids: &[String]) -> PragmaticList {
    PragmaticList {
        provider: "pragmatic".into(),
        unavailable,
        game_list: games
            .iter()
            .map(|l| {
                let type_id = l.text("gameTypeID");
                let swapped = l.game.provider == "pragmatic" && rules.is_swapped(&l.game.game_id) && pragmaticf_ids.iter().any(|id| id == &l.game.game_id);
                PragmaticGame {
                    catalogue_id: l.game.id,
                    game_id: l.game.game_id.clone(),
                    game_name: l.game.name.clone(),
                    is_live_game: type_id.eq_ignore_ascii_case("lg") || l.game.casino_type == "casinolive",
                    game_type_id: type_id,
                    technology_id: Some(l.text("technologyID")).filter(|t| !t.is_empty()).unwrap_or_else(|| "H5".into()),
                    provider: if swapped { "pragmaticf".into() } else { l.game.provider.clone() },
                    image: l.game.image_url.clone(),
                    tab: l.game.tab.clone(),
                }
            })
            .collect(),
        game_server_domain: domain.into(),
        language: language.into(),
    }
}

pub fn pragmaticf(unavailable: bool, games: &[Listed]) -> PragmaticfList {
    PragmaticfList {
        provider: "pragmaticf".into(),
        unavailable,
        games: games
            .iter()
            .map(|l| PragmaticfGame { catalogue_id: l.game.id, gameid: l.game.game_id.clone(), name: l.game.name.clone(), iconurl1: l.game.image_url.clone(), tab: l.game.tab.clone() })
            .collect(),
    }
}

pub fn pgsoft(unavailable: bool, games: &[Listed]) -> PgsoftList {
    PgsoftList {
        provider: "pgsoft".into(),
        unavailable,
        games: games
            .iter()
            .map(|l| PgsoftGame { catalogue_id: l.game.id, gameid: l.game.game_id.clone(), name: l.game.name.clone(), iconurl: l.game.image_url.clone(), tab: l.game.tab.clone() })
            .collect(),
    }
}

pub fn golden_race(rules: &ListRules, unavailable: bool, games: Vec<Listed>) -> GoldenRaceList {
    GoldenRaceList {
        provider: "goldenrace".into(),
        unavailable,
        games_list: golden_race_order(rules, games)
            .into_iter()
            .map(|l| VirtualGame {
                id: l.game.id,
                game_url: format!("/virtual-games/goldenrace/{}", crate::urlencode(&l.game.game_id)),
                game_id: l.game.game_id,
                name: l.game.name,
                image_url: l.game.image_url,
                provider: "goldenrace".into(),
            })
            .collect(),
    }
}

// ------------------------------------------------------------------------------ links

/// `url` with the parameters appended (empty values left out), percent-encoded.
pub fn with_query(url: &str, params: &[(&str, &str)]) -> String {
    let mut out = url.to_string();
    for (k, v) in params.iter().filter(|(_, v)| !v.is_empty()) {
        out.push(if out.contains('?') { '&' } else { '?' });
        out.push_str(k);
        out.push('=');
        out.push_str(&crate::urlencode(v));
    }
    out
}

/// The language before the dash, lower case (`fr-fr` → `fr`; spec §7 Fiable).
pub fn lang_prefix(lang: &str) -> String {
    lang.split(['-', '_']).next().unwrap_or("").trim().to_ascii_lowercase()
}

/// Spec §7 gitslotpark: the partner name gets a `_PYG` suffix when the player's currency is PYG.
pub fn partner_name(partner: &str, currency: kernel::Currency) -> String {
    if currency == kernel::Currency::Pyg {
        format!("{partner}_PYG")
    } else {
        partner.to_string()
    }
}

fn invalid(field: &str) -> AppError {
    AppError::with_detail(ErrorCode::InvalidField, field)
}

/// A return or lobby address: empty, an `http(s)` URL or a path of ours (`/…`, not `//…`),
/// at most 2,048 characters, no spaces or control characters.
pub fn return_address(field: &str, v: Option<&str>) -> Result<String, AppError> {
    let v = v.unwrap_or("").trim();
    if v.is_empty() {
        return Ok(String::new());
    }
    let scheme_ok = v.starts_with("https://") || v.starts_with("http://") || (v.starts_with('/') && !v.starts_with("//"));
    if !scheme_ok || v.len() > 2048 || v.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(invalid(field));
    }
    Ok(v.to_string())
}

/// A short identifier (a game id, a symbol, a project name): 1–128 printable characters.
pub fn identifier(field: &str, v: Option<&str>) -> Result<String, AppError> {
    let v = v.unwrap_or("").trim();
    if v.is_empty() || v.chars().count() > 128 || v.chars().any(|c| c.is_control()) {
        return Err(invalid(field));
    }
    Ok(v.to_string())
}

/// An optional project name (`{product}`, spec §9): letters, digits, `_`, `-`, `.`; at most 64.
pub fn project_name(v: Option<&str>) -> Result<String, AppError> {
    let v = v.unwrap_or("").trim();
    if v.len() > 64 || !v.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')) {
        return Err(invalid("project_name"));
    }
    Ok(v.to_string())
}

/// Pragmatic's platform: `WEB` or `MOBILE` (default `MOBILE`: the app is mobile first).
pub fn pragmatic_platform(v: Option<&str>) -> Result<&'static str, AppError> {
    match v.map(|s| s.trim().to_ascii_uppercase()).as_deref() {
        None | Some("") | Some("MOBILE") => Ok("MOBILE"),
        Some("WEB") | Some("DESKTOP") => Ok("WEB"),
        Some(_) => Err(invalid("platform (WEB or MOBILE)")),
    }
}

/// Pragmatic's technology: default `H5`; letters and digits, at most 8.
pub fn technology(v: Option<&str>) -> Result<String, AppError> {
    let v = v.unwrap_or("").trim();
    if v.is_empty() {
        return Ok("H5".into());
    }
    if v.len() > 8 || !v.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Err(invalid("technology"));
    }
    Ok(v.to_ascii_uppercase())
}

/// Golden Race's platform: `desktop` or `mobile` (default `mobile`).
pub fn desktop_or_mobile(v: Option<&str>) -> Result<&'static str, AppError> {
    match v.map(|s| s.trim().to_ascii_lowercase()).as_deref() {
        None | Some("") | Some("mobile") => Ok("mobile"),
        Some("desktop") => Ok("desktop"),
        Some(_) => Err(invalid("platform (desktop or mobile)")),
    }
}

/// A two-letter country (`user_geo`), empty when absent.
pub fn geo(v: Option<&str>) -> Result<String, AppError> {
    let v = v.unwrap_or("").trim();
    if v.is_empty() {
        return Ok(String::new());
    }
    if v.len() != 2 || !v.chars().all(|c| c.is_ascii_alphabetic()) {
        return Err(invalid("user_geo (two letters)"));
    }
    Ok(v.to_ascii_uppercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(id: i64, provider: &str, game_id: &str, name: &str) -> Game {
        Game {
            id,
            game_id: game_id.into(),
            game_name: name.into(),
            name: name.into(),
            description: String::new(),
            tab: vec![],
            provider: provider.into(),
            route_provider: crate::catalogue::route_provider(provider).into(),
            image_url: format!("/provider-images/{provider}/{id}.svg"),
            casino_type: "slots".into(),
            is_new: false,
            rtp: None,
            volatility: None,
            auth_required: true,
            descriptions: Default::default(),
        }
    }

    fn listed(id: i64, provider: &str, game_id: &str, name: &str, meta: serde_json::Value) -> Listed {
        Listed { game: game(id, provider, game_id, name), meta: meta.as_object().cloned().unwrap_or_default() }
    }

    #[test]
    fn rules_default_and_document() {
        let r = ListRules::default();
        assert_eq!(r.golden_race_whitelist.len(), 16);
        assert_eq!(&r.golden_race_whitelist[..4], ["Horse Races", "Dog Races", "Basketball", "Speedway"]);
        assert_eq!(r.tv_tiles.iter().map(|t| t.id.as_str()).collect::<Vec<_>>(), ["purple", "red", "black"]);
        assert_eq!(ListRules::from_document(&serde_json::Value::Null).unwrap(), r);
        let edited = ListRules::from_document(&serde_json::json!({ "pragmaticSwap": ["vs20demo"], "featured": ["pragmatic:vs5demo"] })).unwrap();
        assert_eq!(edited.pragmatic_swap, ["vs20demo"]);
        assert_eq!(edited.golden_race_whitelist, r.golden_race_whitelist, "missing keys keep their defaults");
        assert!(ListRules::from_document(&serde_json::json!({ "featured": "x" })).is_err());
        assert!(ListRules::from_document(&serde_json::json!({ "featured": [""] })).is_err());
        assert!(ListRules::from_document(&serde_json::json!({ "tvTiles": [{ "id": "x", "color": "red;}" }] })).is_err());
        assert!(ListRules::from_document(&serde_json::json!([1])).is_err());
    }

    #[test]
    fn section_9_predicates() {
        let r = ListRules::default();
        assert!(!r.slotegrator_allowed("Lotto Instant Win"));
        assert!(!r.slotegrator_allowed(" BetRadar "));
        assert!(!r.slotegrator_allowed("betsolutions"));
        assert!(r.slotegrator_allowed("Amatic"));
        assert!(r.merchant_allowed(Some("UpGaming")));
        assert!(r.merchant_allowed(Some("betsolutions")));
        assert!(!r.merchant_allowed(Some("Evolution")));
        assert!(r.merchant_allowed(None) && r.merchant_allowed(Some(" ")), "no merchant field: kept");
        assert!(!r.outcome_allowed("evoplay", "Book"));
        assert!(!r.outcome_allowed("Evoplay Entertainment", "Book"));
        assert!(!r.outcome_allowed("12", "Evoplay Fruit"));
        assert!(r.outcome_allowed("amatic", "Book of Fortune"));
        assert!(r.is_live_provider("evolutionLive") && r.is_live_provider("tvbet") && !r.is_live_provider("habanero"));
        assert!(ListRules { pragmatic_swap: vec!["VS20Demo".into()], ..r.clone() }.is_swapped("vs20demo"));
        assert!(!r.is_swapped("vs20demo"));
    }

    #[test]
    fn featured_ids_come_first_in_their_order() {
        let rules = ListRules { featured: vec!["c".into(), "pragmaticf:a".into(), "other:b".into()], ..ListRules::default() };
        let mut games = vec![listed(1, "pragmatic", "a", "A", serde_json::json!({})), listed(2, "pragmatic", "b", "B", serde_json::json!({})), listed(3, "pragmatic", "c", "C", serde_json::json!({})), listed(4, "pragmatic", "d", "D", serde_json::json!({}))];
        featured_first(&rules, &mut games);
        let ids: Vec<&str> = games.iter().map(|l| l.game.game_id.as_str()).collect();
        // `pragmaticf:a` names pragmatic's alias; `other:b` another provider (not featured here).
        assert_eq!(ids, ["c", "a", "b", "d"]);
    }

    #[test]
    fn slotegrator_exclusions_and_one_version_per_platform() {
        let r = ListRules::default();
        let games = vec![
            listed(1, "slotegrator", "u1", "Book of Sands", serde_json::json!({ "provider": "Amatic", "is_mobile": false })),
            listed(2, "slotegrator", "u2", "Book of Sands", serde_json::json!({ "provider": "Amatic", "is_mobile": true })),
            listed(3, "slotegrator", "u3", "Clover Lines", serde_json::json!({ "provider": "Demo", "is_mobile": 0 })),
            listed(4, "slotegrator", "u4", "Instant Keno", serde_json::json!({ "provider": "Lotto Instant Win", "is_mobile": 0 })),
            listed(5, "slotegrator", "u5", "Virtual Cup", serde_json::json!({ "provider": "Betradar", "is_mobile": 1 })),
        ];
        let mobile = slotegrator(&r, false, "carthage", true, games.clone());
        let uuids: Vec<(&str, bool, bool)> = mobile.games.iter().map(|g| (g.uuid.as_str(), g.is_mobile, g.have_two_version)).collect();
        assert_eq!(uuids, [("u2", true, true), ("u3", false, false)]);
        let desktop = slotegrator(&r, true, "carthage", false, games);
        assert_eq!(desktop.games.iter().map(|g| g.uuid.as_str()).collect::<Vec<_>>(), ["u1", "u3"]);
        assert!(desktop.unavailable);
        assert_eq!(desktop.project_name, "carthage");
    }

    #[test]
    fn evolution_merchants_and_game_type() {
        let r = ListRules::default();
        let mut live = listed(1, "evolution", "rt1", "Lightning Roulette", serde_json::json!({ "MerchantName": "upgaming", "System": "evo", "Trans": { "en": "Lightning Roulette", "fr": "Roulette Éclair" } }));
        live.game.casino_type = "casinolive".into();
        let other = listed(2, "evolution", "x1", "Other Merchant", serde_json::json!({ "MerchantName": "Evolution" }));
        let direct = listed(3, "evolution", "s1", "Slot", serde_json::json!({}));
        let all = [live, other, direct];
        let l = evolution(&r, false, EvolutionType::All, &all);
        assert_eq!(l.games.iter().map(|g| g.page_code.as_str()).collect::<Vec<_>>(), ["rt1", "s1"]);
        assert_eq!(l.games[0].trans.get("fr").map(String::as_str), Some("Roulette Éclair"));
        assert_eq!(l.games[0].system, "evo");
        assert_eq!(l.games[1].trans.get("en").map(String::as_str), Some("Slot"));
        assert_eq!(l.games[1].merchant_name, None);
        assert_eq!(evolution(&r, false, EvolutionType::Live, &all).games.len(), 1);
        assert_eq!(evolution(&r, false, EvolutionType::Slots, &all).games[0].page_code, "s1");
        assert!(EvolutionType::parse(Some("tv")).is_err());
    }

    #[test]
    fn outcome_leaves_evoplay_out() {
        let r = ListRules::default();
        let games = [
            listed(1, "outcome", "o1", "Book of Fortune", serde_json::json!({ "SectionId": "amatic", "Format": "html5" })),
            listed(2, "outcome", "o2", "Elven Princess", serde_json::json!({ "SectionId": "evoplay", "Format": "html5" })),
        ];
        let l = outcome(&r, false, &games);
        assert_eq!(l.games.len(), 1);
        assert_eq!((l.games[0].id.as_str(), l.games[0].format.as_str(), l.games[0].section_id.as_str()), ("o1", "html5", "amatic"));
        let v = serde_json::to_value(&l).unwrap();
        assert!(v["Games"][0]["SectionId"].is_string() && v["Games"][0]["Id"].is_string());
    }

    #[test]
    fn golden_race_whitelist_and_order() {
        let r = ListRules::default();
        let games = vec![
            listed(1, "goldenrace", "10300", "SPEEDWAY", serde_json::json!({})),
            listed(2, "goldenrace", "10900", "Roulette Wheel", serde_json::json!({})),
            listed(3, "goldenrace", "10100", "Horse races", serde_json::json!({})),
            listed(4, "goldenrace", "10200", "Dog-Races", serde_json::json!({})),
        ];
        let l = golden_race(&r, false, games);
        let names: Vec<&str> = l.games_list.iter().map(|g| g.name.as_str()).collect();
        assert_eq!(names, ["Horse races", "Dog-Races", "SPEEDWAY"]);
        assert_eq!(l.games_list[0].game_url, "/virtual-games/goldenrace/10100");
        assert_eq!(l.games_list[0].provider, "goldenrace");
    }

    #[test]
    fn pragmatic_live_flag_and_swap() {
        let rules = ListRules { pragmatic_swap: vec!["vs20a".into(), "vs20b".into()], ..ListRules::default() };
        let games = [
            listed(1, "pragmatic", "vs20a", "A", serde_json::json!({ "gameTypeID": "vs", "technologyID": "H5" })),
            listed(2, "pragmatic", "vs20b", "B", serde_json::json!({ "gameTypeID": "vs" })),
            listed(3, "pragmatic", "lobby1", "Live Lobby", serde_json::json!({ "gameTypeID": "lg" })),
        ];
        let l = pragmatic(&rules, false, "games.example", "fr", &games, &["vs20a".to_string()]);
        let rows: Vec<(&str, &str, bool)> = l.game_list.iter().map(|g| (g.game_id.as_str(), g.provider.as_str(), g.is_live_game)).collect();
        // vs20b is in the table but pragmaticf does not hold it: it stays Pragmatic's.
        assert_eq!(rows, [("vs20a", "pragmaticf", false), ("vs20b", "pragmatic", false), ("lobby1", "pragmatic", true)]);
        assert_eq!(l.game_list[1].technology_id, "H5");
        let v = serde_json::to_value(&l).unwrap();
        assert_eq!(v["gameList"][2]["gameTypeID"], "lg");
        assert_eq!(v["game_server_domain"], "games.example");
    }

    #[test]
    fn shapes_carry_the_spec_fields() {
        let g = [listed(7, "habanero", "SGDemoKoi", "Koi Garden", serde_json::json!({}))];
        let v = serde_json::to_value(habanero(false, &g)).unwrap();
        assert_eq!(v["games"][0]["keyname"], "SGDemoKoi");
        assert_eq!(v["games"][0]["game_name"], "Koi Garden");
        assert_eq!(v["games"][0]["img_name"], "/provider-images/habanero/7.svg");
        assert_eq!(v["games"][0]["catalogueId"], 7);
        let v = serde_json::to_value(evoplay(false, &[listed(8, "evoplay", "9001", "Mystic Elements", serde_json::json!({ "type_id": 1 }))])).unwrap();
        assert_eq!(v["games"]["9001"]["name"], "Mystic Elements");
        assert_eq!(v["games"]["9001"]["type_id"], "1");
        assert_eq!(v["games"]["9001"]["image"], "/api/evoplay/images/Mystic%20Elements.jpg");
        let v = serde_json::to_value(pgsoft(false, &[listed(9, "pgsoft", "65", "Mahjong", serde_json::json!({}))])).unwrap();
        assert_eq!((v["games"][0]["gameid"].as_str(), v["games"][0]["iconurl"].as_str()), (Some("65"), Some("/provider-images/pgsoft/9.svg")));
        let v = serde_json::to_value(pragmaticf(false, &[listed(10, "pragmaticf", "vs1", "One", serde_json::json!({}))])).unwrap();
        assert!(v["games"][0]["iconurl1"].is_string());
        let v = serde_json::to_value(fiable(false, &[listed(11, "fiable", "f1", "Fortune", serde_json::json!({ "url": "https://f.example/g/f1" }))])).unwrap();
        assert_eq!(v["game_list"][0]["url"], "https://f.example/g/f1");
        assert_eq!(v["game_list"][0]["is_active"], true);
        let v = serde_json::to_value(amatic(false, &[listed(12, "outcome_amatic", "a1", "Lucky Card", serde_json::json!({}))])).unwrap();
        assert_eq!(v["games"][0]["provider"], "outcome_amatic");
    }

    #[test]
    fn link_parameters() {
        assert_eq!(with_query("https://g.example/play?token=t", &[("lobbyUrl", "https://x.example/a b"), ("empty", ""), ("lang", "fr")]), "https://g.example/play?token=t&lobbyUrl=https%3A%2F%2Fx.example%2Fa%20b&lang=fr");
        assert_eq!(with_query("/studio/x", &[("a", "1")]), "/studio/x?a=1");
        assert_eq!(lang_prefix("fr-fr"), "fr");
        assert_eq!(lang_prefix("en_US"), "en");
        assert_eq!(partner_name("carthage", kernel::Currency::Pyg), "carthage_PYG");
        assert_eq!(partner_name("carthage", kernel::Currency::Tnd), "carthage");
        assert_eq!(return_address("lobbyUrl", Some("/slots/lobby")).unwrap(), "/slots/lobby");
        assert!(return_address("lobbyUrl", Some("//evil.example")).is_err());
        assert!(return_address("lobbyUrl", Some("javascript:alert(1)")).is_err());
        assert!(return_address("lobbyUrl", Some("https://a.example/ x")).is_err());
        assert_eq!(return_address("lobbyUrl", None).unwrap(), "");
        assert!(identifier("gameid", Some("")).is_err() && identifier("gameid", Some(&"x".repeat(129))).is_err());
        assert!(project_name(Some("carthage-1")).is_ok() && project_name(Some("a b")).is_err());
        assert_eq!(pragmatic_platform(None).unwrap(), "MOBILE");
        assert_eq!(pragmatic_platform(Some("web")).unwrap(), "WEB");
        assert!(pragmatic_platform(Some("tv")).is_err());
        assert_eq!(technology(None).unwrap(), "H5");
        assert!(technology(Some("h5;x")).is_err());
        assert_eq!(desktop_or_mobile(Some("Desktop")).unwrap(), "desktop");
        assert!(desktop_or_mobile(Some("tablet")).is_err());
        assert_eq!(geo(Some("tn")).unwrap(), "TN");
        assert!(geo(Some("TUN")).is_err());
    }
}
