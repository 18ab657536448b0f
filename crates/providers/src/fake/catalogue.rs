//! What each provider's local fake offers: its demo games (the fakes serve them in the
//! provider's own list format; demo mode installs them). Names are the fakes' own, so no
//! one mistakes them for the real studios' titles.

/// One demo game of a fake provider.
#[derive(Debug, Clone, Copy)]
pub struct DemoGame {
    pub id: &'static str,
    pub name: &'static str,
    /// Our catalogue's tabs (spec §3).
    pub tabs: &'static [&'static str],
    /// `slot`, `roulette`, `table`, `crash`, `virtual`.
    pub kind: &'static str,
    /// Declared RTP in hundredths of a percent.
    pub rtp_bp: i64,
}

/// What a provider is, as the lobby shows it.
#[derive(Debug, Clone, Copy)]
pub struct DemoProvider {
    pub code: &'static str,
    pub display: &'static str,
    /// `slots`, `casinolive` or `virtual`.
    pub casino_type: &'static str,
    pub games: &'static [DemoGame],
}

const fn g(id: &'static str, name: &'static str, tabs: &'static [&'static str], kind: &'static str, rtp_bp: i64) -> DemoGame {
    DemoGame { id, name, tabs, kind, rtp_bp }
}

pub const PROVIDERS: &[DemoProvider] = &[
    DemoProvider {
        code: "pragmatic",
        display: "Pragmatic Play (demo)",
        casino_type: "slots",
        games: &[
            g("vs20demo", "Desert Pharaoh", &["slotMachines", "popular"], "slot", 9650),
            g("vs10demo", "Golden Oasis", &["slotMachines", "new"], "slot", 9648),
            g("vs25demo", "Carthage Nights", &["slotMachines", "megaways"], "slot", 9612),
            g("vs5demo", "Fruit Souk", &["slotMachines", "hot"], "slot", 9655),
        ],
    },
    DemoProvider {
        code: "evolution",
        display: "Evolution (demo)",
        casino_type: "casinolive",
        games: &[
            g("roulette-demo", "Lightning Table Roulette", &["roulette", "liveCasino"], "roulette", 9730),
            g("blackjack-demo", "Blackjack Salon", &["cardGames", "liveCasino"], "table", 9950),
            g("baccarat-demo", "Baccarat Squeeze", &["cardGames", "liveCasino"], "table", 9894),
        ],
    },
    DemoProvider {
        code: "habanero",
        display: "Habanero (demo)",
        casino_type: "slots",
        games: &[
            g("SGDemoDragon", "Dragon Lanterns", &["slotMachines"], "slot", 9670),
            g("SGDemoKoi", "Koi Garden", &["slotMachines", "animals"], "slot", 9602),
        ],
    },
    DemoProvider {
        code: "slotegrator",
        display: "Slotegrator (demo)",
        casino_type: "slots",
        games: &[
            g("a1b2c3d4-demo-0001", "Amatic Book of Sands", &["slotMachines"], "slot", 9600),
            g("a1b2c3d4-demo-0002", "Lucky Clover Lines", &["slotMachines", "jokers"], "slot", 9590),
        ],
    },
    DemoProvider {
        code: "evoplay",
        display: "Evoplay (demo)",
        casino_type: "slots",
        games: &[g("9001", "Mystic Elements", &["slotMachines"], "slot", 9630), g("9002", "Rocket Crash", &["crashGames"], "crash", 9700)],
    },
    DemoProvider {
        code: "goldenrace",
        display: "Golden Race (demo)",
        casino_type: "virtual",
        games: &[
            g("10100", "Horse Races", &["events"], "virtual", 9200),
            g("10200", "Dog Races", &["events"], "virtual", 9200),
            g("10300", "Speedway", &["events"], "virtual", 9200),
        ],
    },
    DemoProvider {
        code: "softswiss",
        display: "SoftSwiss aggregator (demo)",
        casino_type: "slots",
        games: &[g("demo:sunny-fruits", "Sunny Fruits", &["slotMachines"], "slot", 9610), g("demo:aviator-demo", "Sky Crash", &["crashGames"], "crash", 9700)],
    },
    DemoProvider {
        code: "hub88",
        display: "Hub88 (demo)",
        casino_type: "slots",
        games: &[g("hub_demo_bonanza", "Bazaar Bonanza", &["slotMachines", "popular"], "slot", 9625), g("hub_demo_tv", "TV Wheel", &["lobby"], "table", 9600)],
    },
    // TV betting: draws broadcast on a schedule; the lobby's three TV tiles open them.
    DemoProvider {
        code: "tvbet",
        display: "TV Games (demo)",
        casino_type: "casinolive",
        games: &[
            g("tv-lucky7", "Lucky 7 Studio", &["liveCasino"], "table", 9500),
            g("tv-wheel", "Colour Wheel Studio", &["liveCasino"], "table", 9500),
            g("tv-duel", "Card Duel Studio", &["liveCasino"], "table", 9500),
        ],
    },
    // A studio whose game page loads the provider's loader script (/slots/inbet/:gameId).
    DemoProvider {
        code: "inbet",
        display: "InBet (demo)",
        casino_type: "slots",
        games: &[g("inbet-sahara", "Sahara Express", &["slotMachines", "new"], "slot", 9600), g("inbet-medina", "Medina Gold", &["slotMachines"], "slot", 9600)],
    },
];

pub fn provider(code: &str) -> Option<&'static DemoProvider> {
    PROVIDERS.iter().find(|p| p.code == code)
}
