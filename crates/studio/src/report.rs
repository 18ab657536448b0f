//! The text the `carthage games …` commands print (plain functions; the CLI only prints them).

use std::fmt::Write as _;

use serde::Serialize;

use crate::slots::{self, SlotGame};

/// One studio game as listed in the lobby and by `carthage games list`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GameEntry {
    pub provider: &'static str,
    pub id: String,
    pub name: String,
    /// "slot", "crash", "roulette" or "dice".
    pub kind: &'static str,
    /// Theoretical RTP in hundredths of a percent.
    pub rtp_bp: u32,
    /// "low", "medium", "high", or "player-chosen" where the player's choices set it.
    pub volatility: String,
}

pub const PROVIDER: &str = "studio";

/// Every studio game: the slots, then crash, roulette and dice.
pub fn entries() -> Vec<GameEntry> {
    let mut out: Vec<GameEntry> = slots::catalogue()
        .iter()
        .map(|g| GameEntry {
            provider: PROVIDER,
            id: g.id().to_owned(),
            name: g.name().to_owned(),
            kind: "slot",
            rtp_bp: g.declared_rtp_bp(),
            volatility: g.volatility().to_owned(),
        })
        .collect();
    for (id, name, rtp_bp) in [
        ("crash", "Crash", crate::crash::RTP_BP),
        ("roulette", "European Roulette", crate::roulette::RTP_BP),
        ("dice", "Dice", crate::dice::RTP_BP),
    ] {
        out.push(GameEntry {
            provider: PROVIDER,
            id: id.to_owned(),
            name: name.to_owned(),
            kind: id,
            rtp_bp,
            volatility: "player-chosen".to_owned(),
        });
    }
    out
}

fn pct_bp(bp: u32) -> String {
    format!("{}.{:02} %", bp / 100, bp % 100)
}

/// `carthage games list`: provider, id, name, kind, RTP, volatility.
pub fn list_text() -> String {
    let rows: Vec<[String; 6]> = entries()
        .into_iter()
        .map(|e| [e.provider.to_owned(), e.id, e.name, e.kind.to_owned(), pct_bp(e.rtp_bp), e.volatility])
        .collect();
    let head = ["PROVIDER", "GAME", "NAME", "KIND", "RTP", "VOLATILITY"].map(str::to_owned);
    let mut widths = head.clone().map(|h| h.len());
    for r in &rows {
        for (w, c) in widths.iter_mut().zip(r) {
            *w = (*w).max(c.chars().count());
        }
    }
    let mut s = String::new();
    for r in std::iter::once(&head).chain(rows.iter()) {
        let line: Vec<String> = r.iter().zip(widths).map(|(c, w)| format!("{c:<w$}")).collect();
        let _ = writeln!(s, "{}", line.join("  ").trim_end());
    }
    s
}

fn slot(game_id: &str) -> Result<&'static SlotGame, String> {
    slots::find(game_id).ok_or_else(|| {
        let ids: Vec<String> = entries().into_iter().map(|e| e.id).collect();
        format!("unknown game {game_id:?} (studio games: {})", ids.join(", "))
    })
}

/// `carthage games rtp --game ID`: the exact RTP (enumerated) against the declared one.
pub fn rtp_text(game_id: &str) -> Result<String, String> {
    match game_id {
        "roulette" => {
            return Ok("European Roulette (studio/roulette)\n\
                 RTP          97.297297297297… % = 36/37 on every bet (single zero, no la partage)\n\
                 declared     97.30 %\n"
                .to_owned())
        }
        "dice" => {
            return Ok("Dice (studio/dice)\n\
                 RTP          99 % before rounding down: a win returns floor(amount x 99 x 10001 / (100 x winning outcomes))\n\
                 declared     99.00 %\n"
                .to_owned())
        }
        "crash" => {
            return Ok("Crash (studio/crash)\n\
                 RTP          99 % for any cash-out target: P(crash >= m) = 0.99 / m (52-bit draw, 1 % edge)\n\
                 declared     99.00 %\n"
                .to_owned())
        }
        _ => {}
    }
    let g = slot(game_id)?;
    let started = std::time::Instant::now();
    let e = g.exact_rtp();
    let elapsed = started.elapsed();
    let declared = g.declared_rtp_bp() as f64 / 100.0;
    let diff = e.rtp * 100.0 - declared;
    let mut s = String::new();
    let _ = writeln!(s, "{} (studio/{}), {} volatility, {} lines, bets in multiples of {}", g.name(), g.id(), g.volatility(), g.line_count(), g.bet_multiple());
    let _ = writeln!(s, "exact RTP      {} %", e.percent_string(12));
    let _ = writeln!(s, "               = {} / {}", e.numerator, e.denominator);
    let _ = writeln!(s, "declared       {} ({:+.6} points, {})", pct_bp(g.declared_rtp_bp()), diff, if diff.abs() < 0.01 { "within 0.01" } else { "OFF BY MORE THAN 0.01" });
    let _ = writeln!(s, "hit frequency  {} % (1 in {:.3}) = {} / {}", e.hit_percent_string(6), 1.0 / e.hit_frequency, e.hit_numerator, e.hit_denominator);
    let _ = writeln!(s, "  base lines     {:.6} %", e.base_line_rtp * 100.0);
    let _ = writeln!(s, "  base scatters  {:.6} %", e.base_scatter_rtp * 100.0);
    let _ = writeln!(s, "  feature        {:.6} %", e.feature_rtp * 100.0);
    let _ = writeln!(
        s,
        "feature        1 in {:.2} rounds, {:.4} spins and {:.4} x bet on average",
        1.0 / e.feature_probability,
        e.feature_expected_spins,
        e.feature_return_ratio
    );
    let _ = writeln!(
        s,
        "enumerated     {} base and {} feature stop combinations (factored per reel) in {:.1?}",
        e.base_combinations, e.feature_combinations, elapsed
    );
    Ok(s)
}

/// `carthage games simulate --game ID --spins N [--threads T]`: shows a progress bar on stderr and
/// returns the report.
pub fn simulate_text(game_id: &str, spins: u64, threads: usize) -> Result<String, String> {
    if spins == 0 {
        return Err("--spins must be at least 1".into());
    }
    let g = slot(game_id).map_err(|e| if slots::find(game_id).is_none() && ["crash", "roulette", "dice"].contains(&game_id) {
        format!("simulation is for slots; {game_id}'s RTP is exact by formula (see `games rtp --game {game_id}`)")
    } else {
        e
    })?;
    let threads = if threads == 0 { std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1) } else { threads };
    let bar = indicatif::ProgressBar::with_draw_target(Some(spins), indicatif::ProgressDrawTarget::stderr());
    bar.set_style(
        indicatif::ProgressStyle::with_template("{spinner} {msg} [{bar:40}] {percent:>3}% {human_pos}/{human_len} spins, {per_sec}, eta {eta}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    bar.set_message(g.id().to_owned());
    let r = slots::simulate(g, spins, threads, &|done| bar.set_position(done));
    bar.finish_and_clear();
    let e = g.exact_rtp();
    let inside = r.ci99_low <= e.rtp && e.rtp <= r.ci99_high;
    let mut s = String::new();
    let _ = writeln!(s, "{} (studio/{}): {} rounds on {} threads", g.name(), g.id(), r.spins, r.threads);
    let _ = writeln!(s, "RTP            {:.4} %   99 % CI [{:.4} %, {:.4} %]", r.rtp * 100.0, r.ci99_low * 100.0, r.ci99_high * 100.0);
    let _ = writeln!(s, "exact RTP      {} % ({} the interval)", e.percent_string(4), if inside { "inside" } else { "OUTSIDE" });
    let _ = writeln!(s, "hit frequency  {:.4} % (exact {} %)", r.hit_frequency * 100.0, e.hit_percent_string(4));
    let _ = writeln!(s, "feature        1 in {:.1} rounds (exact 1 in {:.1})", 1.0 / r.feature_frequency.max(1e-300), 1.0 / e.feature_probability);
    let _ = writeln!(s, "std dev        {:.4} per unit bet", r.std_dev);
    let _ = writeln!(s, "biggest win    {}.{:02} x bet", r.max_win_x100 / 100, r.max_win_x100 % 100);
    let _ = writeln!(s, "elapsed        {:.3} s, {:.2} M rounds/s", r.elapsed.as_secs_f64(), r.spins_per_sec / 1e6);
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_has_every_game() {
        let t = list_text();
        for id in ["neon-fruits", "desert-gold", "atlantis-pearls", "crash", "roulette", "dice"] {
            assert!(t.contains(id), "{t}");
        }
        assert!(t.contains("97.30 %") && t.contains("99.00 %"));
        assert!(t.lines().nth(1).unwrap().starts_with("studio"));
        assert_eq!(entries().len(), 6);
    }

    #[test]
    fn rtp_and_simulate_texts() {
        let t = rtp_text("neon-fruits").unwrap();
        assert!(t.contains("exact RTP      96.0068"), "{t}");
        assert!(t.contains("within 0.01"));
        assert!(rtp_text("roulette").unwrap().contains("36/37"));
        assert!(rtp_text("nope").unwrap_err().contains("unknown game"));
        let s = simulate_text("neon-fruits", 100_000, 2).unwrap();
        assert!(s.contains("100000 rounds on 2 threads"), "{s}");
        assert!(simulate_text("dice", 10, 1).unwrap_err().contains("simulation is for slots"));
        assert!(simulate_text("neon-fruits", 0, 1).is_err());
    }
}
