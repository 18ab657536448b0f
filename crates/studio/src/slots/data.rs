//! Loading a game from its JSON data and precomputing the evaluation tables.

use serde::Deserialize;

use super::{Col, FeatureRules, Multiplier, ReelSet, SlotGame, Symbol, SymbolKind, PREFIX_MAX, REELS, ROWS};
use crate::fair::Range32;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct RawGame {
    id: String,
    name: String,
    theme: String,
    volatility: String,
    declared_rtp_bp: u32,
    symbols: Vec<RawSymbol>,
    lines: Vec<[u8; REELS]>,
    base_reels: Vec<String>,
    #[serde(default)]
    feature_reels: Option<Vec<String>>,
    feature: RawFeature,
    #[serde(default, rename = "_comment")]
    _comment: Option<serde_json::Value>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct RawSymbol {
    code: String,
    id: String,
    name: String,
    kind: String,
    #[serde(default)]
    pays: [u32; 3],
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct RawFeature {
    name: String,
    description: String,
    trigger_count: u32,
    spins: u32,
    retrigger: u32,
    multipliers: Vec<RawMultiplier>,
    #[serde(default)]
    expanding_wild_reels: Vec<u8>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMultiplier {
    value: u32,
    weight: u32,
}

impl SlotGame {
    /// Builds a game from its JSON data (the format of `crates/studio/games/*.json`), checking
    /// every rule the engine and the exact RTP computation rely on.
    pub fn from_json(src: &str) -> Result<SlotGame, String> {
        let raw: RawGame = serde_json::from_str(src).map_err(|e| format!("JSON: {e}"))?;
        build(raw)
    }
}

fn build(raw: RawGame) -> Result<SlotGame, String> {
    let id = raw.id.clone();
    let err = |m: String| format!("{id}: {m}");
    if !matches!(raw.volatility.as_str(), "low" | "medium" | "high") {
        return Err(err(format!("volatility {:?}", raw.volatility)));
    }
    let n = raw.symbols.len();
    if !(3..=16).contains(&n) {
        return Err(err(format!("{n} symbols (3..=16 allowed)")));
    }
    let mut symbols = Vec::new();
    let (mut wild, mut scatter) = (None, None);
    for (i, s) in raw.symbols.iter().enumerate() {
        let kind = match s.kind.as_str() {
            "regular" => SymbolKind::Regular,
            "wild" => SymbolKind::Wild,
            "scatter" => SymbolKind::Scatter,
            k => return Err(err(format!("symbol kind {k:?}"))),
        };
        let slot = match kind {
            SymbolKind::Wild => Some(&mut wild),
            SymbolKind::Scatter => Some(&mut scatter),
            SymbolKind::Regular => None,
        };
        if let Some(slot) = slot {
            if slot.replace(i as u16).is_some() {
                return Err(err(format!("more than one {:?} symbol", kind)));
            }
        }
        if raw.symbols[..i].iter().any(|o| o.code == s.code || o.id == s.id) {
            return Err(err(format!("duplicate symbol {}", s.code)));
        }
        // The hit-frequency enumeration relies on "a line wins iff its first three match".
        if kind != SymbolKind::Scatter && s.pays[0] == 0 {
            return Err(err(format!("{} must pay for 3", s.code)));
        }
        if s.pays[0] > s.pays[1] || s.pays[1] > s.pays[2] {
            return Err(err(format!("{} pays must not decrease", s.code)));
        }
        symbols.push(Symbol { id: s.id.clone(), name: s.name.clone(), code: s.code.clone(), kind, pays: s.pays });
    }
    let wild = wild.ok_or_else(|| err("no wild symbol".into()))?;
    let scatter = scatter.ok_or_else(|| err("no scatter symbol".into()))?;

    if raw.lines.is_empty() || raw.lines.len() > 50 {
        return Err(err("1..=50 lines".into()));
    }
    for (i, l) in raw.lines.iter().enumerate() {
        if l.iter().any(|&r| r as usize >= ROWS) {
            return Err(err(format!("line {i} leaves the window")));
        }
        if raw.lines[..i].contains(l) {
            return Err(err(format!("line {i} repeats an earlier line")));
        }
    }

    let f = &raw.feature;
    if !(3..=5).contains(&f.trigger_count) {
        return Err(err("triggerCount must be 3..=5".into()));
    }
    if f.spins == 0 || f.multipliers.is_empty() || f.multipliers.iter().any(|m| m.weight == 0 || m.value == 0) {
        return Err(err("feature needs spins and positive multipliers/weights".into()));
    }
    let sc_pays = symbols[scatter as usize].pays;
    for c in f.trigger_count..=5 {
        if sc_pays[c as usize - 3] == 0 {
            return Err(err(format!("{c} scatters trigger the feature and must also pay")));
        }
    }
    let total_weight: u64 = f.multipliers.iter().map(|m| m.weight as u64).sum();
    if total_weight > u32::MAX as u64 {
        return Err(err("multiplier weights too large".into()));
    }
    let mut expanding = [false; REELS];
    for &r in &f.expanding_wild_reels {
        if r as usize >= REELS {
            return Err(err(format!("expanding reel {r}")));
        }
        expanding[r as usize] = true;
    }

    // Line table.
    let lines_n = raw.lines.len() as u64;
    let mut kinds: Vec<(u16, u8, u32)> = vec![(0, 0, 0)];
    let mut kind_of = vec![[0u8; 3]; n];
    for (i, s) in symbols.iter().enumerate() {
        if s.kind == SymbolKind::Scatter {
            continue;
        }
        for (k, &pay) in s.pays.iter().enumerate() {
            if pay > 0 {
                kind_of[i][k] = kinds.len() as u8;
                kinds.push((i as u16, k as u8 + 3, pay));
            }
        }
    }
    let size = n.pow(REELS as u32);
    let mut table = vec![0u8; size];
    let mut t = [0u16; REELS];
    for (idx, slot) in table.iter_mut().enumerate() {
        let mut x = idx;
        for r in (0..REELS).rev() {
            t[r] = (x % n) as u16;
            x /= n;
        }
        *slot = line_code(&t, &symbols, wild, scatter, &kind_of);
    }
    // "A line wins iff its first three positions win" (the prefix table and the hit-frequency
    // enumeration rely on it): a scatter on reels 4-5 blocks nothing that the prefix did not decide.
    let pow = |r: usize| n.pow((REELS - 1 - r) as u32);
    let mut prefix = Box::new([false; PREFIX_MAX]);
    for (p, slot) in prefix.iter_mut().enumerate().take(n * n * n) {
        *slot = table[p * n * n + scatter as usize * (n + 1)] != 0;
    }
    for (idx, &code) in table.iter().enumerate() {
        if (code != 0) != prefix[idx / pow(2)] {
            return Err(err("a line's win must be decided by its first three positions".into()));
        }
    }

    let base = reel_set(&raw.base_reels, &symbols, wild, scatter, [false; REELS], n).map_err(|e| err(format!("base reels: {e}")))?;
    let free_src = raw.feature_reels.as_ref().unwrap_or(&raw.base_reels);
    let free = reel_set(free_src, &symbols, wild, scatter, expanding, n).map_err(|e| err(format!("feature reels: {e}")))?;

    let mut scatter_units = [0u64; 16];
    for c in 3..=5 {
        scatter_units[c] = sc_pays[c - 3] as u64 * lines_n;
    }
    let kind_units = kinds.iter().map(|k| k.2 as u64).collect();
    let multiplier_range = if f.multipliers.len() > 1 { Some(Range32::new(total_weight as u32)) } else { None };
    Ok(SlotGame {
        id: raw.id,
        name: raw.name,
        theme: raw.theme,
        volatility: raw.volatility,
        declared_rtp_bp: raw.declared_rtp_bp,
        symbols,
        wild,
        scatter,
        lines: raw.lines.clone(),
        base,
        free,
        feature: FeatureRules {
            name: f.name.clone(),
            description: f.description.clone(),
            trigger_count: f.trigger_count,
            spins: f.spins,
            retrigger: f.retrigger,
            multipliers: f.multipliers.iter().map(|m| Multiplier { value: m.value, weight: m.weight }).collect(),
            multiplier_range,
        },
        table,
        prefix,
        line_prefix: raw.lines.iter().map(|l| (l[0] * 4 + l[1], l[2])).collect(),
        kinds,
        kind_units,
        scatter_units,
    })
}

/// The best win of one line's five symbols: the wild's own run, or the first non-wild symbol's run
/// (wilds substituting); the higher pay wins (the wild's on a tie). Scatters block.
fn line_code(t: &[u16; REELS], symbols: &[Symbol], wild: u16, scatter: u16, kind_of: &[[u8; 3]]) -> u8 {
    let wilds = t.iter().take_while(|&&s| s == wild).count();
    let mut best = (0u32, 0u8);
    if wilds >= 3 {
        let k = wilds - 3;
        best = (symbols[wild as usize].pays[k], kind_of[wild as usize][k]);
    }
    if wilds < REELS {
        let s = t[wilds];
        if s != scatter {
            let run = wilds + t[wilds..].iter().take_while(|&&x| x == s || x == wild).count();
            if run >= 3 {
                let k = run - 3;
                let pay = symbols[s as usize].pays[k];
                if pay > best.0 {
                    best = (pay, kind_of[s as usize][k]);
                }
            }
        }
    }
    best.1
}

fn reel_set(
    src: &[String],
    symbols: &[Symbol],
    wild: u16,
    scatter: u16,
    expanding: [bool; REELS],
    n: usize,
) -> Result<ReelSet, String> {
    if src.len() != REELS {
        return Err(format!("{} strips, need {REELS}", src.len()));
    }
    let mut strips = Vec::new();
    for (r, text) in src.iter().enumerate() {
        let strip: Vec<u16> = text
            .split_whitespace()
            .map(|code| {
                symbols
                    .iter()
                    .position(|s| s.code == code)
                    .map(|i| i as u16)
                    .ok_or_else(|| format!("reel {r}: unknown symbol {code:?}"))
            })
            .collect::<Result<_, _>>()?;
        if strip.len() < ROWS || strip.len() > 100_000 {
            return Err(format!("reel {r}: {} stops", strip.len()));
        }
        strips.push(strip);
    }
    let mut cols: [Vec<Col>; REELS] = Default::default();
    let mut eff: [Vec<[u16; ROWS]>; REELS] = Default::default();
    for r in 0..REELS {
        let strip = &strips[r];
        let weight = n.pow((REELS - 1 - r) as u32) as u32;
        for stop in 0..strip.len() {
            let window: [u16; ROWS] = std::array::from_fn(|row| strip[(stop + row) % strip.len()]);
            let scatters = window.iter().filter(|&&s| s == scatter).count();
            if scatters > 1 {
                return Err(format!("reel {r}: more than one scatter in the window at stop {stop}"));
            }
            let expanded = expanding[r] && window.contains(&wild);
            let e: [u16; ROWS] = if expanded { [wild; ROWS] } else { window };
            let pweight = if r < 3 { n.pow(2 - r as u32) as u16 } else { 0 };
            let mut code = [0u32; 4];
            let mut pcode = [0u16; 4];
            for row in 0..ROWS {
                code[row] = e[row] as u32 * weight;
                pcode[row] = e[row] * pweight;
            }
            cols[r].push(Col { code, pcode, scatters: scatters as u8, expanded });
            eff[r].push(e);
        }
    }
    let ranges = std::array::from_fn(|r| Range32::new(strips[r].len() as u32));
    Ok(ReelSet { strips, ranges, cols, eff, expanding_reels: expanding })
}
