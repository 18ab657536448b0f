//! Five-reel, three-row video slots driven by data (`games/*.json` in this crate: symbols,
//! paytable, paylines, reel strips, feature rules).
//!
//! Rules common to every game:
//! * A spin draws the stop of reel i as `below(len of strip i)` for i = 0..4, in order; the window
//!   of reel i shows strip positions stop, stop+1, stop+2 (cyclic) on rows 0, 1, 2 (top to bottom).
//! * Lines pay left to right from the first reel, 3, 4 or 5 in a row; the wild substitutes for every
//!   symbol except the scatter and also pays on its own; a line pays only its highest combination.
//!   Line pays are multiples of the line bet (bet / number of lines).
//! * Scatters pay anywhere, as multiples of the total bet, and `triggerCount` or more start the feature.
//! * The feature is a series of free spins on the feature strips (same bet, no stake): every spin
//!   may draw a multiplier (`below(total weight)` after its five stops, only when the game lists more
//!   than one multiplier), wilds may expand to fill their reel, and `triggerCount` scatters add
//!   `retrigger` spins. Feature spins continue the same draw stream as the base spin.
//! * All wins of a round (base spin plus every feature spin) are paid in that round.
//!
//! The hot path (`eval_stops`) works on precomputed per-stop columns: for every reel and stop, the
//! three row symbols already multiplied by their mixed-radix weight, so a line is five loads, four
//! adds and one lookup in a table of every 5-symbol combination. `play`, the simulation and the
//! brute-force enumeration all go through it.

mod data;
mod exact;
mod sim;

use std::sync::OnceLock;

use serde::Serialize;

use crate::fair::{Range32, Rng32};
pub use crate::BetError;

pub use exact::{EnumerationTotals, ExactRtp};
pub use sim::{simulate, simulate_seeded, SimReport};

/// Safety cap on the number of feature spins in one round. The expected count is about a dozen;
/// reaching the cap needs dozens of retriggers in a row (probability far below 1e-40), so the exact
/// RTP (which assumes no cap) is unaffected at any printed precision.
pub const MAX_FEATURE_SPINS: u32 = 1000;
pub const REELS: usize = 5;
/// Size of the prefix table: S^3 for up to 16 symbols.
pub(crate) const PREFIX_MAX: usize = 4096;
pub const ROWS: usize = 3;

static SOURCES: [&str; 3] = [
    include_str!("../../games/neon-fruits.json"),
    include_str!("../../games/desert-gold.json"),
    include_str!("../../games/atlantis-pearls.json"),
];

/// Every studio slot, in catalogue order.
pub fn catalogue() -> &'static [SlotGame] {
    static GAMES: OnceLock<Vec<SlotGame>> = OnceLock::new();
    GAMES.get_or_init(|| {
        SOURCES
            .iter()
            .map(|src| SlotGame::from_json(src).unwrap_or_else(|e| panic!("bad slot data: {e}")))
            .collect()
    })
}

pub fn find(id: &str) -> Option<&'static SlotGame> {
    catalogue().iter().find(|g| g.id == id)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum SymbolKind {
    Regular,
    Wild,
    Scatter,
}

#[derive(Debug, Clone)]
pub(crate) struct Symbol {
    pub id: String,
    pub name: String,
    pub code: String,
    pub kind: SymbolKind,
    /// Pays for 3, 4, 5 (line-bet multiples for regular and wild, total-bet multiples for scatter).
    pub pays: [u32; 3],
}

/// One reel-stop's precomputed column.
#[derive(Debug, Clone, Copy, Default)]
#[repr(C, align(32))]
pub(crate) struct Col {
    /// Effective symbol of rows 0..2 (after expansion) times the reel's radix weight S^(4-reel); [3] unused.
    pub code: [u32; 4],
    /// The same with the weights of the three-reel prefix table (S^(2-reel); 0 for reels 3-4).
    pub pcode: [u16; 4],
    /// Scatters in the window (before expansion).
    pub scatters: u8,
    /// The reel is expanded (all wild) at this stop.
    pub expanded: bool,
}

#[derive(Debug, Clone)]
pub(crate) struct ReelSet {
    pub strips: Vec<Vec<u16>>,
    pub ranges: [Range32; REELS],
    pub cols: [Vec<Col>; REELS],
    /// Effective symbols per reel, stop, row (after expansion).
    pub eff: [Vec<[u16; ROWS]>; REELS],
    pub expanding_reels: [bool; REELS],
}

impl ReelSet {
    pub fn len(&self, reel: usize) -> usize {
        self.strips[reel].len()
    }

    /// The raw window: reel-major, 3 rows.
    pub fn window(&self, stops: &[u32; REELS]) -> Vec<Vec<u16>> {
        (0..REELS)
            .map(|r| {
                let strip = &self.strips[r];
                (0..ROWS).map(|row| strip[(stops[r] as usize + row) % strip.len()]).collect()
            })
            .collect()
    }

    pub fn combinations(&self) -> u128 {
        self.strips.iter().map(|s| s.len() as u128).product()
    }
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Multiplier {
    pub value: u32,
    pub weight: u32,
}

#[derive(Debug, Clone)]
pub(crate) struct FeatureRules {
    pub name: String,
    pub description: String,
    pub trigger_count: u32,
    pub spins: u32,
    pub retrigger: u32,
    pub multipliers: Vec<Multiplier>,
    pub multiplier_range: Option<Range32>,
}

/// A 5-reel, 3-row video slot. Built from data; see the module docs for the rules.
#[derive(Debug, Clone)]
pub struct SlotGame {
    pub(crate) id: String,
    pub(crate) name: String,
    pub(crate) theme: String,
    pub(crate) volatility: String,
    pub(crate) declared_rtp_bp: u32,
    pub(crate) symbols: Vec<Symbol>,
    pub(crate) wild: u16,
    pub(crate) scatter: u16,
    pub(crate) lines: Vec<[u8; REELS]>,
    pub(crate) base: ReelSet,
    pub(crate) free: ReelSet,
    pub(crate) feature: FeatureRules,
    /// Line-win code of every 5-symbol combination (mixed radix, reel 0 most significant).
    pub(crate) table: Vec<u8>,
    /// Whether a line starting with these three symbols wins (S^3 entries); a line's win is decided
    /// by its first three positions (checked when the game is built), so the big table is only read
    /// for winning lines.
    pub(crate) prefix: Box<[bool; PREFIX_MAX]>,
    /// Per line: (4 x row on reel 0 + row on reel 1, row on reel 2), for `eval_stops`.
    pub(crate) line_prefix: Vec<(u8, u8)>,
    /// Per code: (symbol, count, pay in line-bet units); code 0 = no win.
    pub(crate) kinds: Vec<(u16, u8, u32)>,
    /// Per code: pay in line-bet units (a copy of kinds[..].2 for the hot path).
    pub(crate) kind_units: Vec<u64>,
    /// Scatter pay in line-bet units by scatter count (0..=15).
    pub(crate) scatter_units: [u64; 16],
}

/// What one spin (base or feature) produced, before any multiplier.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SpinEval {
    pub stops: [u32; REELS],
    /// Line wins in line-bet units.
    pub line_units: u64,
    pub scatters: u32,
}

/// Receives every spin of a round (the simulation's sink does nothing and compiles away).
pub(crate) trait Sink {
    #[allow(clippy::too_many_arguments)]
    fn spin(&mut self, game: &SlotGame, feature: bool, ev: &SpinEval, multiplier: u32, win_units: u64, retrigger: bool);
}

pub(crate) struct NoSink;
impl Sink for NoSink {
    #[inline(always)]
    fn spin(&mut self, _: &SlotGame, _: bool, _: &SpinEval, _: u32, _: u64, _: bool) {}
}

/// Units won in one round, and whether the feature ran.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RoundUnits {
    pub units: u64,
    pub feature: bool,
}

impl SlotGame {
    pub fn id(&self) -> &str {
        &self.id
    }
    pub fn name(&self) -> &str {
        &self.name
    }
    pub fn theme(&self) -> &str {
        &self.theme
    }
    pub fn volatility(&self) -> &str {
        &self.volatility
    }
    /// RTP in hundredths of a percent (9612 = 96.12 %).
    pub fn declared_rtp_bp(&self) -> u32 {
        self.declared_rtp_bp
    }
    pub fn line_count(&self) -> usize {
        self.lines.len()
    }
    /// Bets are a positive multiple of the number of lines (line pays are whole multiples of the line
    /// bet, scatter pays whole multiples of the bet, multipliers whole numbers), so every win is exact.
    pub fn bet_multiple(&self) -> i64 {
        self.lines.len() as i64
    }

    pub fn validate_bet(&self, bet: i64) -> Result<(), BetError> {
        let m = self.bet_multiple();
        if bet <= 0 || bet % m != 0 || bet > crate::roulette::MAX_AMOUNT {
            return Err(BetError::NotAMultiple { multiple: m });
        }
        Ok(())
    }

    /// Money for `units` line-bet units at `bet` (exact when the bet is valid).
    #[inline]
    pub(crate) fn money(&self, units: u64, bet: i64) -> i64 {
        let v = units as i128 * bet as i128 / self.lines.len() as i128;
        v.min(i64::MAX as i128) as i64
    }

    /// The line-win code of line `line` at the given columns.
    #[inline(always)]
    pub(crate) fn line_code(&self, cols: &[&Col; REELS], line: &[u8; REELS]) -> u8 {
        let row = |r: usize| (line[r] & 3) as usize;
        let p = cols[0].pcode[row(0)] as usize + cols[1].pcode[row(1)] as usize + cols[2].pcode[row(2)] as usize;
        if !self.prefix[p & (PREFIX_MAX - 1)] {
            return 0;
        }
        self.full_code(cols, line)
    }

    /// The table entry of a line whose prefix wins.
    #[inline(always)]
    fn full_code(&self, cols: &[&Col; REELS], line: &[u8; REELS]) -> u8 {
        let row = |r: usize| (line[r] & 3) as usize;
        let idx = cols[0].code[row(0)]
            + cols[1].code[row(1)]
            + cols[2].code[row(2)]
            + cols[3].code[row(3)]
            + cols[4].code[row(4)];
        self.table[idx as usize]
    }

    #[inline(always)]
    pub(crate) fn cols<'a>(&self, set: &'a ReelSet, stops: &[u32; REELS]) -> [&'a Col; REELS] {
        [
            &set.cols[0][stops[0] as usize],
            &set.cols[1][stops[1] as usize],
            &set.cols[2][stops[2] as usize],
            &set.cols[3][stops[3] as usize],
            &set.cols[4][stops[4] as usize],
        ]
    }

    /// Evaluates one window given its stops (the single copy of the line and scatter rules).
    /// Same result as summing `line_code` over the lines, with the reel 0-1 part of the prefix
    /// index shared between lines (nine row pairs instead of one per line).
    #[inline(always)]
    pub(crate) fn eval_stops(&self, set: &ReelSet, stops: [u32; REELS]) -> SpinEval {
        let cols = self.cols(set, &stops);
        let scatters = cols.iter().map(|c| c.scatters as u32).sum();
        let mut a01 = [0u16; 16];
        for (i, slot) in a01.iter_mut().enumerate().take(12) {
            *slot = cols[0].pcode[i >> 2] + cols[1].pcode[i & 3];
        }
        let p2 = &cols[2].pcode;
        let prefix: &[bool; PREFIX_MAX] = &self.prefix;
        let mut line_units = 0u64;
        for (line, &(i01, r2)) in self.lines.iter().zip(&self.line_prefix) {
            let p = a01[i01 as usize & 15] as usize + p2[r2 as usize & 3] as usize;
            if prefix[p & (PREFIX_MAX - 1)] {
                line_units += self.kind_units[self.full_code(&cols, line) as usize];
            }
        }
        SpinEval { stops, line_units, scatters }
    }

    /// Draws five stops (reel 0 first) and evaluates them.
    #[inline(always)]
    pub(crate) fn eval_spin<R: Rng32 + ?Sized>(&self, set: &ReelSet, rng: &mut R) -> SpinEval {
        let mut stops = [0u32; REELS];
        for (r, stop) in stops.iter_mut().enumerate() {
            *stop = set.ranges[r].sample(rng);
        }
        self.eval_stops(set, stops)
    }

    #[inline(always)]
    fn draw_multiplier<R: Rng32 + ?Sized>(&self, rng: &mut R) -> u32 {
        match &self.feature.multiplier_range {
            None => self.feature.multipliers[0].value,
            Some(range) => {
                let mut x = range.sample(rng);
                for m in &self.feature.multipliers {
                    if x < m.weight {
                        return m.value;
                    }
                    x -= m.weight;
                }
                unreachable!("weights sum to the range")
            }
        }
    }

    /// One complete round in line-bet units: the single copy of the round rules.
    #[inline(always)]
    pub(crate) fn round<R: Rng32 + ?Sized, K: Sink>(&self, rng: &mut R, sink: &mut K) -> RoundUnits {
        let ev = self.eval_spin(&self.base, rng);
        let base_units = ev.line_units + self.scatter_units[ev.scatters as usize];
        let trigger = self.feature.trigger_count;
        let triggered = ev.scatters >= trigger;
        sink.spin(self, false, &ev, 1, base_units, triggered);
        let mut units = base_units;
        if triggered {
            units += self.feature_units(rng, sink);
        }
        RoundUnits { units, feature: triggered }
    }

    #[inline(never)]
    fn feature_units<R: Rng32 + ?Sized, K: Sink>(&self, rng: &mut R, sink: &mut K) -> u64 {
        let trigger = self.feature.trigger_count;
        let mut left = self.feature.spins;
        let mut played = 0;
        let mut units = 0;
        while left > 0 && played < MAX_FEATURE_SPINS {
            left -= 1;
            played += 1;
            let ev = self.eval_spin(&self.free, rng);
            let m = self.draw_multiplier(rng);
            let u = (ev.line_units + self.scatter_units[ev.scatters as usize]) * m as u64;
            let re = ev.scatters >= trigger;
            if re {
                left += self.feature.retrigger;
            }
            sink.spin(self, true, &ev, m, u, re);
            units += u;
        }
        units
    }

    /// Line wins of an evaluated spin (for the client's view).
    fn line_wins(&self, set: &ReelSet, ev: &SpinEval, bet: i64, multiplier: u32) -> Vec<LineWin> {
        let cols = self.cols(set, &ev.stops);
        let mut out = Vec::new();
        for (i, line) in self.lines.iter().enumerate() {
            let code = self.line_code(&cols, line);
            if code != 0 {
                let (symbol, count, pay) = self.kinds[code as usize];
                out.push(LineWin {
                    line: i as u8,
                    symbol,
                    count,
                    rows: line[..count as usize].to_vec(),
                    pay,
                    win: self.money(pay as u64 * multiplier as u64, bet),
                });
            }
        }
        out
    }

    /// One complete round (base spin plus every feature spin it triggers), drawn from `rng`.
    /// `bet` must pass [`SlotGame::validate_bet`] (wins are floored otherwise).
    pub fn play<R: Rng32>(&self, rng: &mut R, bet: i64) -> SlotRound {
        debug_assert!(self.validate_bet(bet).is_ok(), "invalid bet {bet}");
        struct Collect {
            bet: i64,
            base: Option<(SpinEval, u64)>,
            spins: Vec<FeatureSpin>,
        }
        impl Sink for Collect {
            fn spin(&mut self, g: &SlotGame, feature: bool, ev: &SpinEval, multiplier: u32, win_units: u64, retrigger: bool) {
                if !feature {
                    self.base = Some((*ev, win_units));
                    return;
                }
                self.spins.push(FeatureSpin {
                    stops: ev.stops.to_vec(),
                    window: g.free.window(&ev.stops),
                    expanded_reels: expanded(&g.free, &ev.stops),
                    line_wins: g.line_wins(&g.free, ev, self.bet, multiplier),
                    scatter_count: ev.scatters,
                    scatter_win: g.money(g.scatter_units[ev.scatters as usize] * multiplier as u64, self.bet),
                    multiplier,
                    retrigger,
                    win: g.money(win_units, self.bet),
                });
            }
        }
        let mut sink = Collect { bet, base: None, spins: Vec::new() };
        let total = self.round(rng, &mut sink);
        let (ev, _) = sink.base.expect("the base spin always reports");
        let feature = if total.feature {
            let win_units: u64 = total.units - (ev.line_units + self.scatter_units[ev.scatters as usize]);
            Some(FeatureResult {
                kind: "freeSpins",
                name: self.feature.name.clone(),
                spins_awarded: self.feature.spins,
                spins_played: sink.spins.len() as u32,
                spins: sink.spins,
                win: self.money(win_units, bet),
            })
        } else {
            None
        };
        SlotRound {
            game: self.id.clone(),
            bet,
            stops: ev.stops.to_vec(),
            window: self.base.window(&ev.stops),
            line_wins: self.line_wins(&self.base, &ev, bet, 1),
            scatter_count: ev.scatters,
            scatter_win: self.money(self.scatter_units[ev.scatters as usize], bet),
            feature,
            win: self.money(total.units, bet),
        }
    }

    /// The client's view of the machine.
    pub fn info(&self) -> SlotInfo {
        let symbols = self
            .symbols
            .iter()
            .enumerate()
            .map(|(i, s)| SymbolInfo { index: i as u16, id: s.id.clone(), name: s.name.clone(), kind: s.kind })
            .collect();
        let n = self.lines.len() as u64;
        let mut paytable = Vec::new();
        for (i, s) in self.symbols.iter().enumerate() {
            if s.kind == SymbolKind::Scatter {
                continue;
            }
            for (k, &pay) in s.pays.iter().enumerate() {
                if pay > 0 {
                    paytable.push(PayInfo { symbol: i as u16, count: k as u8 + 3, pay, bet_bp: pay as u64 * 10_000 / n });
                }
            }
        }
        let sc = &self.symbols[self.scatter as usize];
        let scatter_pays = sc
            .pays
            .iter()
            .enumerate()
            .filter(|(_, &p)| p > 0)
            .map(|(k, &pay)| ScatterPayInfo { count: k as u8 + 3, pay })
            .collect();
        SlotInfo {
            id: self.id.clone(),
            name: self.name.clone(),
            theme: self.theme.clone(),
            volatility: self.volatility.clone(),
            declared_rtp_bp: self.declared_rtp_bp,
            bet_multiple: self.bet_multiple(),
            reels: REELS as u8,
            rows: ROWS as u8,
            symbols,
            wild: self.wild,
            scatter: self.scatter,
            lines: self.lines.iter().map(|l| l.to_vec()).collect(),
            paytable,
            scatter_pays,
            base_reels: self.base.strips.clone(),
            feature_reels: self.free.strips.clone(),
            feature: FeatureInfo {
                kind: "freeSpins",
                name: self.feature.name.clone(),
                description: self.feature.description.clone(),
                trigger_count: self.feature.trigger_count,
                spins: self.feature.spins,
                retrigger: self.feature.retrigger,
                multipliers: self.feature.multipliers.clone(),
                expanding_wild_reels: (0..REELS).filter(|&r| self.free.expanding_reels[r]).map(|r| r as u8).collect(),
                max_spins: MAX_FEATURE_SPINS,
            },
        }
    }

    /// Exact RTP and hit frequency (see [`ExactRtp`]).
    pub fn exact_rtp(&self) -> ExactRtp {
        exact::exact_rtp(self)
    }

    /// Brute force over every stop combination of the base strips (`feature = false`) or of the
    /// feature strips, through the same evaluation code as `play`; used to cross-check `exact_rtp`.
    pub fn enumerate(&self, feature: bool, threads: usize) -> EnumerationTotals {
        exact::enumerate(self, feature, threads)
    }

    /// The totals [`SlotGame::enumerate`] finds, computed analytically (as `exact_rtp` does).
    pub fn analytic_totals(&self, feature: bool) -> EnumerationTotals {
        exact::analytic_totals(self, feature)
    }
}

fn expanded(set: &ReelSet, stops: &[u32; REELS]) -> Vec<u8> {
    (0..REELS).filter(|&r| set.cols[r][stops[r] as usize].expanded).map(|r| r as u8).collect()
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LineWin {
    /// Index into `SlotInfo::lines`.
    pub line: u8,
    pub symbol: u16,
    /// 3, 4 or 5 reels from the left.
    pub count: u8,
    /// Row of each winning position, reel 0 first.
    pub rows: Vec<u8>,
    /// Pay as a multiple of the line bet (before any multiplier).
    pub pay: u32,
    /// Money won on this line (with the spin's multiplier).
    pub win: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FeatureSpin {
    pub stops: Vec<u32>,
    pub window: Vec<Vec<u16>>,
    /// Reels whose wild expanded to fill the reel (they count as all wild for lines).
    pub expanded_reels: Vec<u8>,
    pub line_wins: Vec<LineWin>,
    pub scatter_count: u32,
    pub scatter_win: i64,
    pub multiplier: u32,
    /// This spin added more spins.
    pub retrigger: bool,
    pub win: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FeatureResult {
    pub kind: &'static str,
    pub name: String,
    pub spins_awarded: u32,
    pub spins_played: u32,
    pub spins: Vec<FeatureSpin>,
    pub win: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SlotRound {
    pub game: String,
    pub bet: i64,
    pub stops: Vec<u32>,
    /// Reel-major, 3 rows, symbol indices.
    pub window: Vec<Vec<u16>>,
    pub line_wins: Vec<LineWin>,
    pub scatter_count: u32,
    pub scatter_win: i64,
    pub feature: Option<FeatureResult>,
    /// Total returned this round, feature included.
    pub win: i64,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SymbolInfo {
    pub index: u16,
    pub id: String,
    pub name: String,
    pub kind: SymbolKind,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PayInfo {
    pub symbol: u16,
    pub count: u8,
    /// Multiple of the line bet.
    pub pay: u32,
    /// The same as a multiple of the total bet, in basis points (pay * 10000 / lines).
    pub bet_bp: u64,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ScatterPayInfo {
    pub count: u8,
    /// Multiple of the total bet.
    pub pay: u32,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FeatureInfo {
    pub kind: &'static str,
    pub name: String,
    pub description: String,
    pub trigger_count: u32,
    pub spins: u32,
    pub retrigger: u32,
    pub multipliers: Vec<Multiplier>,
    pub expanding_wild_reels: Vec<u8>,
    pub max_spins: u32,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SlotInfo {
    pub id: String,
    pub name: String,
    pub theme: String,
    pub volatility: String,
    pub declared_rtp_bp: u32,
    pub bet_multiple: i64,
    pub reels: u8,
    pub rows: u8,
    pub symbols: Vec<SymbolInfo>,
    pub wild: u16,
    pub scatter: u16,
    /// Row of each reel, reel 0 first.
    pub lines: Vec<Vec<u8>>,
    pub paytable: Vec<PayInfo>,
    pub scatter_pays: Vec<ScatterPayInfo>,
    pub base_reels: Vec<Vec<u16>>,
    pub feature_reels: Vec<Vec<u16>>,
    pub feature: FeatureInfo,
}

#[cfg(test)]
mod tests;
