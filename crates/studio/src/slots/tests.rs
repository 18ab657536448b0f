use super::*;
use crate::fair::{FairDraws, SimRng, Words};

/// A tiny game (strips of 8-9 stops) whose every stop combination can be enumerated in a debug
/// test; it has expanding wilds, weighted multipliers and retriggers.
const TINY: &str = r#"{
  "id": "tiny", "name": "Tiny", "theme": "test", "volatility": "medium", "declaredRtpBp": 0,
  "symbols": [
    {"code": "W", "id": "w", "name": "Wild", "kind": "wild", "pays": [5, 10, 20]},
    {"code": "S", "id": "s", "name": "Scatter", "kind": "scatter", "pays": [1, 2, 5]},
    {"code": "A", "id": "a", "name": "A", "kind": "regular", "pays": [3, 6, 12]},
    {"code": "B", "id": "b", "name": "B", "kind": "regular", "pays": [2, 4, 8]},
    {"code": "C", "id": "c", "name": "C", "kind": "regular", "pays": [1, 2, 4]}
  ],
  "lines": [[1,1,1,1,1],[0,0,0,0,0],[2,2,2,2,2],[0,1,2,1,0]],
  "baseReels": ["A B C S C B A C", "C W B S A C B A C", "B C A S W C A B", "A C B S C W B A", "C B A S B C A B"],
  "featureReels": ["A B C S C B A C", "C W B S A C W A C", "B C W S W C A B", "A C B S W W B A", "C B A S B C A B"],
  "feature": {"name": "Tiny spins", "description": "test", "triggerCount": 3, "spins": 3, "retrigger": 2,
    "multipliers": [{"value": 1, "weight": 1}, {"value": 2, "weight": 1}, {"value": 3, "weight": 2}],
    "expandingWildReels": [1, 2, 3]}
}"#;

fn tiny() -> SlotGame {
    SlotGame::from_json(TINY).unwrap()
}

#[test]
fn catalogue_has_the_three_games() {
    let ids: Vec<&str> = catalogue().iter().map(|g| g.id()).collect();
    assert_eq!(ids, ["neon-fruits", "desert-gold", "atlantis-pearls"]);
    let vols: Vec<&str> = catalogue().iter().map(|g| g.volatility()).collect();
    assert_eq!(vols, ["low", "medium", "high"]);
    assert_eq!(find("desert-gold").unwrap().name(), "Desert Gold");
    assert!(find("nope").is_none());
}

#[test]
fn declared_rtp_equals_the_exact_rtp() {
    for g in catalogue() {
        let e = g.exact_rtp();
        let declared = g.declared_rtp_bp() as f64 / 10_000.0;
        assert!((e.rtp - declared).abs() < 0.0001, "{}: exact {} declared {}", g.id(), e.rtp, declared);
        assert!((0.95..=0.97).contains(&e.rtp), "{}: {}", g.id(), e.rtp);
        assert!((e.numerator as f64 / e.denominator as f64 - e.rtp).abs() < 1e-12);
        let parts = e.base_line_rtp + e.base_scatter_rtp + e.feature_rtp;
        assert!((parts - e.rtp).abs() < 1e-12, "{}", g.id());
        assert!(e.hit_frequency > 0.2 && e.hit_frequency < 0.7, "{}: {}", g.id(), e.hit_frequency);
        assert!(e.percent_string(8).starts_with(&format!("{}", (e.rtp * 100.0).floor())));
    }
}

#[test]
fn analytic_totals_equal_brute_force_enumeration_on_a_small_game() {
    let g = tiny();
    for feature in [false, true] {
        let brute = g.enumerate(feature, 2);
        let analytic = g.analytic_totals(feature);
        assert_eq!(brute, analytic, "feature={feature}");
        assert!(brute.hits > 0 && brute.triggers > 0 && brute.line_units > 0);
    }
    // Expansion really happens in the feature set and changes the line totals.
    assert!(g.free.cols[2].iter().any(|c| c.expanded));
    assert!(!g.base.cols[2].iter().any(|c| c.expanded));
}

#[test]
fn exact_rtp_of_the_small_game_by_hand() {
    // RTP = [base units + P(trigger) * feature value] / lines, feature value by Wald's identity.
    let g = tiny();
    let b = g.analytic_totals(false);
    let f = g.analytic_totals(true);
    let p_retrig = f.triggers as f64 / f.combinations as f64;
    let spins = 3.0 / (1.0 - 2.0 * p_retrig);
    let mean_mult = (1.0 + 2.0 + 3.0 * 2.0) / 4.0;
    let per_spin = (f.line_units + f.scatter_units) as f64 / f.combinations as f64;
    let base = (b.line_units + b.scatter_units) as f64 / b.combinations as f64;
    let rtp = (base + b.triggers as f64 / b.combinations as f64 * spins * per_spin * mean_mult) / 4.0;
    let e = g.exact_rtp();
    assert!((e.rtp - rtp).abs() < 1e-12, "{} vs {}", e.rtp, rtp);
    assert!((e.feature_expected_spins - spins).abs() < 1e-12);
    assert_eq!(e.hit_numerator as f64 / e.hit_denominator as f64, b.hits as f64 / b.combinations as f64);
}

#[test]
fn simulation_agrees_with_the_exact_rtp_on_the_small_game() {
    let g = tiny();
    let e = g.exact_rtp();
    let r = simulate_seeded(&g, 400_000, 2, 11, &|_| {});
    assert!(r.ci99_low <= e.rtp && e.rtp <= r.ci99_high, "{r:?} vs {}", e.rtp);
    assert!((r.hit_frequency - e.hit_frequency).abs() < 0.005);
    // Same seed, other thread count: same totals.
    let r1 = simulate_seeded(&g, 400_000, 1, 11, &|_| {});
    assert_eq!(r1.rtp, r.rtp);
}

#[test]
fn simulation_agrees_with_the_exact_rtp_for_every_game() {
    for g in catalogue() {
        let e = g.exact_rtp();
        let last = std::sync::atomic::AtomicU64::new(0);
        let r = simulate_seeded(g, 1_500_000, 2, 2024, &|n| {
            last.fetch_max(n, std::sync::atomic::Ordering::Relaxed);
        });
        assert_eq!(last.into_inner(), 1_500_000);
        assert_eq!(r.spins, 1_500_000);
        assert!(r.ci99_low <= e.rtp && e.rtp <= r.ci99_high, "{}: {r:?} vs {}", g.id(), e.rtp);
        let hit_sd = (e.hit_frequency * (1.0 - e.hit_frequency) / r.spins as f64).sqrt();
        assert!((r.hit_frequency - e.hit_frequency).abs() < 4.0 * hit_sd, "{}", g.id());
        assert!((r.feature_frequency - e.feature_probability).abs() < 0.25 * e.feature_probability, "{}", g.id());
    }
}

/// `cargo test --release -p studio -- --ignored` : 10^7 rounds per game and brute force of the
/// real strips (hundreds of millions of combinations).
#[test]
#[ignore]
fn heavy_simulation_and_brute_force_of_every_game() {
    for g in catalogue() {
        let e = g.exact_rtp();
        let r = simulate(g, 10_000_000, 2, &|_| {});
        assert!(r.ci99_low <= e.rtp && e.rtp <= r.ci99_high, "{}: {r:?} vs {}", g.id(), e.rtp);
        for feature in [false, true] {
            assert_eq!(g.enumerate(feature, 2), g.analytic_totals(feature), "{} feature={feature}", g.id());
        }
    }
}

#[test]
fn volatility_differs() {
    let sd: Vec<f64> = catalogue().iter().map(|g| simulate_seeded(g, 300_000, 2, 5, &|_| {}).std_dev).collect();
    assert!(sd[0] < sd[1] && sd[1] < sd[2], "{sd:?}");
    assert!(sd[2] > 1.5 * sd[1], "{sd:?}");
}

fn check_round(g: &SlotGame, round: &SlotRound) {
    let bet = round.bet;
    let lines = g.line_count() as i64;
    let sum_lines = |w: &[LineWin], mult: u32| {
        for lw in w {
            // Integral: the money is exactly pay x multiplier x line bet, no rounding.
            assert_eq!(lw.win * lines, lw.pay as i64 * mult as i64 * bet, "{lw:?}");
            assert_eq!(lw.rows.len(), lw.count as usize);
        }
        w.iter().map(|l| l.win).sum::<i64>()
    };
    let mut total = sum_lines(&round.line_wins, 1) + round.scatter_win;
    assert_eq!(round.window.len(), 5);
    assert!(round.window.iter().all(|c| c.len() == 3 && c.iter().all(|&s| (s as usize) < g.symbols.len())));
    if let Some(f) = &round.feature {
        assert!(round.scatter_count >= g.feature.trigger_count);
        let retriggers = f.spins.iter().filter(|s| s.retrigger).count() as u32;
        assert_eq!(f.spins_played, f.spins_awarded + retriggers * g.feature.retrigger);
        assert_eq!(f.spins.len() as u32, f.spins_played);
        let mut fw = 0;
        for s in &f.spins {
            assert!(g.feature.multipliers.iter().any(|m| m.value == s.multiplier));
            assert_eq!(s.win, sum_lines(&s.line_wins, s.multiplier) + s.scatter_win);
            assert_eq!(s.retrigger, s.scatter_count >= g.feature.trigger_count);
            for &r in &s.expanded_reels {
                assert!(g.free.expanding_reels[r as usize]);
                assert!(s.window[r as usize].contains(&g.wild));
            }
            fw += s.win;
        }
        assert_eq!(f.win, fw);
        total += f.win;
    } else {
        assert!(round.scatter_count < g.feature.trigger_count);
    }
    assert_eq!(round.win, total);
}

#[test]
fn play_matches_the_simulation_path_and_adds_up() {
    for g in catalogue().iter().chain(std::iter::once(&tiny())) {
        let mut rng = SimRng::seeded(77);
        let mut features = 0;
        for i in 0..20_000 {
            let bet = g.bet_multiple() * (1 + i % 7);
            let mut shadow = rng.clone();
            let units = g.round(&mut shadow, &mut NoSink).units;
            let round = g.play(&mut rng, bet);
            assert_eq!(round.win as i128, units as i128 * bet as i128 / g.line_count() as i128);
            assert_eq!((units as i128 * bet as i128) % g.line_count() as i128, 0);
            check_round(g, &round);
            features += round.feature.is_some() as u32;
        }
        assert!(features > 10, "{}: {features} features in 20000 rounds", g.id());
    }
}

#[test]
fn features_trigger_and_behave() {
    // Desert Gold's wilds expand in the feature; Atlantis draws multipliers; a retrigger happens.
    let g = find("desert-gold").unwrap();
    let mut rng = SimRng::seeded(1);
    let (mut expanded, mut retriggered) = (false, false);
    for _ in 0..200_000 {
        let r = g.play(&mut rng, 20);
        if let Some(f) = &r.feature {
            expanded |= f.spins.iter().any(|s| !s.expanded_reels.is_empty());
            retriggered |= f.spins.iter().any(|s| s.retrigger);
        }
        if expanded && retriggered {
            break;
        }
    }
    assert!(expanded && retriggered);
    let a = find("atlantis-pearls").unwrap();
    let mut seen = std::collections::BTreeSet::new();
    let mut rng = SimRng::seeded(2);
    for _ in 0..100_000 {
        if let Some(f) = a.play(&mut rng, 20).feature {
            seen.extend(f.spins.iter().map(|s| s.multiplier));
        }
    }
    assert_eq!(seen.into_iter().collect::<Vec<_>>(), [2, 3, 5, 10, 25]);
}

#[test]
fn play_is_deterministic_with_fair_draws() {
    let seed: crate::fair::Hash32 = core::array::from_fn(|i| i as u8);
    for g in catalogue() {
        for nonce in 0..50 {
            let a = g.play(&mut FairDraws::new(&seed, "carthage", nonce), g.bet_multiple() * 5);
            let b = g.play(&mut FairDraws::new(&seed, "carthage", nonce), g.bet_multiple() * 5);
            assert_eq!(a, b);
            assert_eq!(
                serde_json::to_string(&a).unwrap(),
                serde_json::to_string(&b).unwrap()
            );
        }
        let a = g.play(&mut FairDraws::new(&seed, "carthage", 1), 100);
        let b = g.play(&mut FairDraws::new(&seed, "carthage2", 1), 100);
        assert_ne!(a.stops, b.stops);
    }
}

#[test]
fn stops_are_successive_below_draws() {
    let g = find("neon-fruits").unwrap();
    let seed = [9u8; 32];
    let round = g.play(&mut FairDraws::new(&seed, "x", 3), 10);
    let mut d = FairDraws::new(&seed, "x", 3);
    let expect: Vec<u32> = (0..5).map(|r| d.below(g.base.len(r) as u32)).collect();
    assert_eq!(round.stops, expect);
    for r in 0..5 {
        for row in 0..3 {
            let strip = &g.base.strips[r];
            assert_eq!(round.window[r][row], strip[(expect[r] as usize + row) % strip.len()]);
        }
    }
}

#[test]
fn a_forced_window_pays_by_the_table() {
    // Tiny base reels at stops chosen so that row 0 reads A A A (reel 2 shows A at stop 2) ...
    let g = tiny();
    // Stops: reel0 0 -> A B C ; reel1 4 -> A C B ; reel2 2 -> A S W ; reel3 0 -> A C B ; reel4 5 -> C A B
    let words = vec![0, 4, 2, 0, 5];
    let round = g.play(&mut Words::new(words), 4);
    assert_eq!(round.window[0], vec![2, 3, 4]);
    // Line 1 (row 0): A A A A C -> A x4 pays 6 line bets; line 0 (row 1): B C S .. -> nothing.
    assert!(round.line_wins.iter().any(|l| l.line == 1 && l.symbol == 2 && l.count == 4 && l.pay == 6));
    assert_eq!(round.scatter_count, 1);
    check_round(&g, &round);
}

#[test]
fn bets_must_be_multiples_of_the_line_count() {
    let g = find("desert-gold").unwrap();
    assert_eq!(g.bet_multiple(), 20);
    assert!(g.validate_bet(20).is_ok());
    assert!(g.validate_bet(200).is_ok());
    assert!(g.validate_bet(30).is_err());
    assert!(g.validate_bet(0).is_err());
    assert!(g.validate_bet(-20).is_err());
    assert_eq!(find("neon-fruits").unwrap().bet_multiple(), 10);
}

#[test]
fn info_is_the_clients_view() {
    let g = find("atlantis-pearls").unwrap();
    let v = serde_json::to_value(g.info()).unwrap();
    assert_eq!(v["id"], "atlantis-pearls");
    assert_eq!(v["declaredRtpBp"], g.declared_rtp_bp());
    assert_eq!(v["betMultiple"], 20);
    assert_eq!(v["lines"].as_array().unwrap().len(), 20);
    assert_eq!(v["baseReels"].as_array().unwrap().len(), 5);
    assert_eq!(v["symbols"][0]["kind"], "wild");
    assert_eq!(v["feature"]["multipliers"][4]["value"], 25);
    assert!(v["paytable"].as_array().unwrap().iter().all(|p| p["betBp"].as_u64().unwrap() * 20 == p["pay"].as_u64().unwrap() * 10_000));
    let d = serde_json::to_value(find("desert-gold").unwrap().info()).unwrap();
    assert_eq!(d["feature"]["expandingWildReels"], serde_json::json!([1, 2, 3]));
}

#[test]
fn bad_data_is_refused() {
    let bad = |from: &str, to: &str| {
        let src = TINY.replacen(from, to, 1);
        assert_ne!(src, TINY, "{from}");
        SlotGame::from_json(&src).unwrap_err()
    };
    assert!(bad("\"A B C S C B A C\"", "\"A B S S C B A C\"").contains("more than one scatter"));
    assert!(bad("\"A B C S C B A C\"", "\"A B C X C B A C\"").contains("unknown symbol"));
    assert!(bad("\"pays\": [3, 6, 12]", "\"pays\": [0, 6, 12]").contains("must pay for 3"));
    assert!(bad("\"pays\": [1, 2, 5]", "\"pays\": [0, 2, 5]").contains("must also pay"));
    assert!(bad("[0,1,2,1,0]", "[0,1,3,1,0]").contains("leaves the window"));
    assert!(bad("\"volatility\": \"medium\"", "\"volatility\": \"wild\"").contains("volatility"));
    assert!(SlotGame::from_json("{}").is_err());
}
