//! The market types we can name, price and settle ourselves.
//!
//! Ids and outcome ids follow Betradar's market descriptions so that a UOF mapping is the
//! identity for them: 1 (1x2: outcomes 1, 2, 3), 16 (handicap: 1714, 1715) and 18 (total: 12, 13)
//! were checked against the Sportradar SDK and real UOF bet records; 29, 186, 188, 219, 223 and
//! 225 are believed to match and must be checked against the provider's market descriptions when
//! a real feed is mapped. Correct score uses id 45 with our own outcome ids (`"2:1"`, `"other"`).
//!
//! A feed may send any other type: it is stored and can be bet on, but its names must come with
//! the message and the feed must settle it (we cannot compute its result).
//!
//! Lines are in quarters of a goal so that Asian quarter lines (`hcp=-0.25`, `total=2.75`) are
//! exact: a quarter line is two half-stakes on the neighbouring lines (−0.25 = ½ on 0, ½ on −0.5),
//! which yields UOF's half-won / half-lost results.

use serde::{Deserialize, Serialize};

use crate::model::{MarketKey, SportKind};
use crate::settle::OutcomeResult;

/// How a market type settles from the final score.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    /// Home / draw / away.
    ThreeWay,
    /// Home / away; a tie (impossible in these sports' final scores) voids both.
    Winner,
    /// Over / under the `total` specifier.
    Total,
    /// Home with `hcp` added / away with `hcp` subtracted.
    Handicap,
    /// Both score at least once: yes / no.
    BothScore,
    /// The exact score, or "other" for any score not listed.
    CorrectScore,
}

/// One outcome of a market type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutcomeType {
    /// Stable outcome id.
    pub id: &'static str,
    /// Name template (`"over {total}"`).
    pub name: &'static str,
}

/// A market type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MarketType {
    /// The type id (the first part of a market key).
    pub id: u32,
    /// Name template.
    pub name: &'static str,
    /// The one specifier it needs, if any.
    pub specifier: Option<&'static str>,
    /// How it settles.
    pub rule: Rule,
    /// Its outcomes in display order.
    pub outcomes: &'static [OutcomeType],
}

const fn out(id: &'static str, name: &'static str) -> OutcomeType {
    OutcomeType { id, name }
}

const THREE_WAY: &[OutcomeType] = &[out("1", "{$competitor1}"), out("2", "draw"), out("3", "{$competitor2}")];
const WINNER: &[OutcomeType] = &[out("4", "{$competitor1}"), out("5", "{$competitor2}")];
const TOTAL: &[OutcomeType] = &[out("12", "over {total}"), out("13", "under {total}")];
const HANDICAP: &[OutcomeType] = &[out("1714", "{$competitor1} ({+hcp})"), out("1715", "{$competitor2} ({-hcp})")];
const BOTH_SCORE: &[OutcomeType] = &[out("74", "yes"), out("76", "no")];
/// Scores up to 3:3 and "other" (the usual short correct-score list).
const CORRECT_SCORE: &[OutcomeType] = &[
    out("0:0", "0:0"),
    out("1:0", "1:0"),
    out("0:1", "0:1"),
    out("1:1", "1:1"),
    out("2:0", "2:0"),
    out("0:2", "0:2"),
    out("2:1", "2:1"),
    out("1:2", "1:2"),
    out("2:2", "2:2"),
    out("3:0", "3:0"),
    out("0:3", "0:3"),
    out("3:1", "3:1"),
    out("1:3", "1:3"),
    out("3:2", "3:2"),
    out("2:3", "2:3"),
    out("3:3", "3:3"),
    out("other", "other"),
];

/// 1x2 (football; ice hockey regular time).
pub const ONE_X_TWO: u32 = 1;
/// Handicap (football, ice hockey), `hcp` for the home side.
pub const HANDICAP_ID: u32 = 16;
/// Total (football, ice hockey), `total`.
pub const TOTAL_ID: u32 = 18;
/// Both teams to score.
pub const BOTH_SCORE_ID: u32 = 29;
/// Correct score.
pub const CORRECT_SCORE_ID: u32 = 45;
/// Winner (tennis, table tennis).
pub const WINNER_ID: u32 = 186;
/// Set handicap (tennis; table tennis games), `hcp` in sets.
pub const SET_HANDICAP_ID: u32 = 188;
/// Winner incl. overtime (basketball).
pub const WINNER_OT_ID: u32 = 219;
/// Handicap incl. overtime (basketball), `hcp` in points.
pub const HANDICAP_OT_ID: u32 = 223;
/// Total incl. overtime (basketball), `total` in points.
pub const TOTAL_OT_ID: u32 = 225;

/// Every market type we know.
pub const MARKET_TYPES: &[MarketType] = &[
    MarketType { id: ONE_X_TWO, name: "1x2", specifier: None, rule: Rule::ThreeWay, outcomes: THREE_WAY },
    MarketType {
        id: HANDICAP_ID,
        name: "Handicap {hcp}",
        specifier: Some("hcp"),
        rule: Rule::Handicap,
        outcomes: HANDICAP,
    },
    MarketType { id: TOTAL_ID, name: "Total", specifier: Some("total"), rule: Rule::Total, outcomes: TOTAL },
    MarketType {
        id: BOTH_SCORE_ID,
        name: "Both teams to score",
        specifier: None,
        rule: Rule::BothScore,
        outcomes: BOTH_SCORE,
    },
    MarketType {
        id: CORRECT_SCORE_ID,
        name: "Correct score",
        specifier: None,
        rule: Rule::CorrectScore,
        outcomes: CORRECT_SCORE,
    },
    MarketType { id: WINNER_ID, name: "Winner", specifier: None, rule: Rule::Winner, outcomes: WINNER },
    MarketType {
        id: SET_HANDICAP_ID,
        name: "Set handicap {hcp}",
        specifier: Some("hcp"),
        rule: Rule::Handicap,
        outcomes: HANDICAP,
    },
    MarketType {
        id: WINNER_OT_ID,
        name: "Winner (incl. overtime)",
        specifier: None,
        rule: Rule::Winner,
        outcomes: WINNER,
    },
    MarketType {
        id: HANDICAP_OT_ID,
        name: "Handicap {hcp} (incl. overtime)",
        specifier: Some("hcp"),
        rule: Rule::Handicap,
        outcomes: HANDICAP,
    },
    MarketType {
        id: TOTAL_OT_ID,
        name: "Total (incl. overtime)",
        specifier: Some("total"),
        rule: Rule::Total,
        outcomes: TOTAL,
    },
];

/// A market type by id.
pub fn market_type(id: u32) -> Option<&'static MarketType> {
    MARKET_TYPES.iter().find(|t| t.id == id)
}

/// The market types a sport is priced and offered with (the simulator's menu).
pub fn types_for(sport: SportKind) -> &'static [u32] {
    match sport {
        SportKind::Football => &[ONE_X_TWO, TOTAL_ID, HANDICAP_ID, BOTH_SCORE_ID, CORRECT_SCORE_ID],
        SportKind::IceHockey => &[ONE_X_TWO, TOTAL_ID, HANDICAP_ID],
        SportKind::Basketball => &[WINNER_OT_ID, TOTAL_OT_ID, HANDICAP_OT_ID],
        SportKind::Tennis | SportKind::TableTennis => &[WINNER_ID, SET_HANDICAP_ID],
    }
}

/// Why a market cannot be named or settled by the catalogue.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CatalogueError {
    /// The type id is not in [`MARKET_TYPES`].
    #[error("market type {0} is not in the catalogue")]
    UnknownType(u32),
    /// The specifier the type needs is missing.
    #[error("market {0} needs the {1} specifier")]
    MissingSpecifier(String, &'static str),
    /// The line is not a multiple of 0.25.
    #[error("{0:?} is not a line in quarters (like 2.5 or -0.75)")]
    BadLine(String),
}

/// Parses a line such as `2.5`, `-0.75`, `+1` into quarters (2.5 → 10, −0.75 → −3). Only
/// multiples of 0.25 are lines; anything else is `None`. Absolute values up to 10,000.
pub fn quarters(value: &str) -> Option<i32> {
    let (negative, rest) = match value.as_bytes().first()? {
        b'-' => (true, &value[1..]),
        b'+' => (false, &value[1..]),
        _ => (false, value),
    };
    let (int, frac) = rest.split_once('.').unwrap_or((rest, ""));
    if int.is_empty() || int.len() > 5 || !int.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let q_frac = match frac {
        "" | "0" | "00" => 0,
        "25" => 1,
        "5" | "50" => 2,
        "75" => 3,
        _ => return None,
    };
    let int: i32 = int.parse().ok()?;
    if int > 10_000 || (rest.contains('.') && frac.is_empty()) {
        return None;
    }
    let q = int * 4 + q_frac;
    Some(if negative { -q } else { q })
}

/// Formats quarters back as a line: 10 → `"2.5"`, −3 → `"-0.75"`, 4 → `"1"`.
pub fn line_text(quarters: i32) -> String {
    let sign = if quarters < 0 { "-" } else { "" };
    let q = quarters.unsigned_abs();
    let frac = ["", ".25", ".5", ".75"][(q % 4) as usize];
    format!("{sign}{}{frac}", q / 4)
}

/// A settlement of one outcome in halves of the stake: `win` halves win at the price, `void`
/// halves come back, the rest is lost. Whole results are (2, 0), (0, 0), (0, 2); quarter lines
/// give (1, 1) half won and (0, 1) half lost. Cheap to evaluate millions of times when pricing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Halves {
    /// Halves of the stake that win.
    pub win: u8,
    /// Halves of the stake refunded.
    pub void: u8,
}

impl Halves {
    const WIN: Halves = Halves { win: 2, void: 0 };
    const LOSE: Halves = Halves { win: 0, void: 0 };
    const PUSH: Halves = Halves { win: 0, void: 2 };

    /// The UOF result this stands for.
    pub fn result(self) -> OutcomeResult {
        match (self.win, self.void) {
            (2, _) => OutcomeResult::WIN,
            (1, _) => OutcomeResult::HALF_WIN,
            (0, 2) => OutcomeResult::VOID,
            (0, 1) => OutcomeResult::HALF_LOSE,
            _ => OutcomeResult::LOSE,
        }
    }
}

/// Win, push or lose of a single line: `margin` in quarters, positive wins.
fn sign_result(margin: i32) -> Halves {
    match margin.signum() {
        1 => Halves::WIN,
        0 => Halves::PUSH,
        _ => Halves::LOSE,
    }
}

/// The result of a bet that wins when `value_q + line_q > 0` (both in quarters). On a quarter
/// line half the stake goes on each neighbouring half/whole line.
fn line_result(value_q: i32, line_q: i32) -> Halves {
    if line_q % 2 == 0 {
        return sign_result(value_q + line_q);
    }
    let a = sign_result(value_q + line_q - 1);
    let b = sign_result(value_q + line_q + 1);
    Halves { win: a.win / 2 + b.win / 2, void: a.void / 2 + b.void / 2 }
}

/// A market parsed once, ready to settle any score quickly (pricing evaluates it for every
/// score of a distribution).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spec {
    /// The market type.
    pub kind: &'static MarketType,
    /// The line in quarters (`total` or `hcp`), 0 when the type has none.
    pub line_q: i32,
}

impl Spec {
    /// Parses a key against the catalogue.
    pub fn new(key: &MarketKey) -> Result<Spec, CatalogueError> {
        let kind = market_type(key.type_id()).ok_or(CatalogueError::UnknownType(key.type_id()))?;
        let line_q = match kind.specifier {
            None => 0,
            Some(name) => {
                let v = key.specifier(name).ok_or_else(|| CatalogueError::MissingSpecifier(key.to_string(), name))?;
                quarters(v).ok_or_else(|| CatalogueError::BadLine(v.to_string()))?
            }
        };
        Ok(Spec { kind, line_q })
    }

    /// The outcomes' results for a final score, in the order of `kind.outcomes`.
    pub fn evaluate(&self, home: u32, away: u32, out: &mut Vec<Halves>) {
        out.clear();
        let (h, a) = (home as i32, away as i32);
        match self.kind.rule {
            Rule::ThreeWay => {
                let pick = |c: bool| if c { Halves::WIN } else { Halves::LOSE };
                out.extend([pick(h > a), pick(h == a), pick(h < a)]);
            }
            Rule::Winner => {
                let m = sign_result(4 * (h - a));
                let other = if m == Halves::PUSH { Halves::PUSH } else { Halves { win: 2 - m.win, void: 0 } };
                out.extend([m, other]);
            }
            Rule::Total => {
                let total = 4 * (h + a);
                out.extend([line_result(total, -self.line_q), line_result(-total, self.line_q)]);
            }
            Rule::Handicap => {
                let diff = 4 * (h - a);
                out.extend([line_result(diff, self.line_q), line_result(-diff, -self.line_q)]);
            }
            Rule::BothScore => {
                let yes = h > 0 && a > 0;
                out.extend([
                    if yes { Halves::WIN } else { Halves::LOSE },
                    if yes { Halves::LOSE } else { Halves::WIN },
                ]);
            }
            Rule::CorrectScore => {
                let listed = home <= 3 && away <= 3;
                for o in self.kind.outcomes {
                    let hit = match o.id.split_once(':') {
                        Some((x, y)) => listed && x.parse() == Ok(home) && y.parse() == Ok(away),
                        None => !listed,
                    };
                    out.push(if hit { Halves::WIN } else { Halves::LOSE });
                }
            }
        }
    }
}

/// Every outcome's result for a final score (`home`/`away` as [`crate::model::Score`] counts
/// them: goals, points, sets), as `(outcome id, result)` in catalogue order.
pub fn results(key: &MarketKey, home: u32, away: u32) -> Result<Vec<(&'static str, OutcomeResult)>, CatalogueError> {
    let spec = Spec::new(key)?;
    let mut halves = Vec::new();
    spec.evaluate(home, away, &mut halves);
    Ok(spec.kind.outcomes.iter().zip(halves).map(|(o, h)| (o.id, h.result())).collect())
}

/// Fills a name template: `{$competitor1}`, `{$competitor2}`, `{total}`, `{hcp}`, and `{+hcp}` /
/// `{-hcp}` (the home / away handicap with an explicit sign). Unknown placeholders are left as is.
pub fn render(template: &str, key: &MarketKey, home: &str, away: &str) -> String {
    let mut s = template.replace("{$competitor1}", home).replace("{$competitor2}", away);
    for (name, value) in key.specifiers() {
        if s.contains('{') {
            if let Some(q) = quarters(value) {
                let signed = |q: i32| {
                    if q > 0 {
                        format!("+{}", line_text(q))
                    } else {
                        line_text(q)
                    }
                };
                s = s.replace(&format!("{{+{name}}}"), &signed(q)).replace(&format!("{{-{name}}}"), &signed(-q));
            }
            s = s.replace(&format!("{{{name}}}"), value);
        }
    }
    s
}

/// A market's display name: the catalogue template with its specifiers, or `"Market {id}"`.
pub fn market_name(key: &MarketKey, home: &str, away: &str) -> String {
    match market_type(key.type_id()) {
        Some(t) => capitalise(&render(t.name, key, home, away)),
        None => format!("Market {}", key.type_id()),
    }
}

/// An outcome's display name from the catalogue, or `"Outcome {id}"` for an unknown one.
pub fn outcome_name(key: &MarketKey, outcome_id: &str, home: &str, away: &str) -> String {
    let template = market_type(key.type_id()).and_then(|t| t.outcomes.iter().find(|o| o.id == outcome_id));
    match template {
        Some(o) => capitalise(&render(o.name, key, home, away)),
        None => format!("Outcome {outcome_id}"),
    }
}

/// The catalogue's templates in French and Arabic (English is the template itself): market
/// names, and the outcome names that are words (competitors' names are proper nouns and stay).
/// In Arabic a signed line is isolated left-to-right (U+2066 … U+2069): without it the bidi
/// algorithm shows "-0.25" as "0.25-" after an Arabic word.
const TRANSLATIONS: &[(&str, &str, &str)] = &[
    ("1x2", "Résultat 1X2", "نتيجة المباراة 1X2"),
    ("Handicap {hcp}", "Handicap {hcp}", "هانديكاب \u{2066}{hcp}\u{2069}"),
    ("Total", "Total", "المجموع"),
    ("Both teams to score", "Les deux équipes marquent", "كلا الفريقين يسجل"),
    ("Correct score", "Score exact", "النتيجة الصحيحة"),
    ("Winner", "Vainqueur", "الفائز"),
    ("Set handicap {hcp}", "Handicap de sets {hcp}", "هانديكاب المجموعات \u{2066}{hcp}\u{2069}"),
    ("Winner (incl. overtime)", "Vainqueur (prolongation incluse)", "الفائز (مع الوقت الإضافي)"),
    ("Handicap {hcp} (incl. overtime)", "Handicap {hcp} (prolongation incluse)", "هانديكاب \u{2066}{hcp}\u{2069} (مع الوقت الإضافي)"),
    ("Total (incl. overtime)", "Total (prolongation incluse)", "المجموع (مع الوقت الإضافي)"),
    ("draw", "match nul", "تعادل"),
    ("over {total}", "plus de {total}", "أكثر من {total}"),
    ("under {total}", "moins de {total}", "أقل من {total}"),
    ("yes", "oui", "نعم"),
    ("no", "non", "لا"),
    ("other", "autre score", "نتيجة أخرى"),
];

/// A catalogue template in `lang` (`fr`, `ar`; anything else, or a template without a
/// translation, is the English template).
fn translate(template: &'static str, lang: &str) -> &'static str {
    TRANSLATIONS
        .iter()
        .find(|t| t.0 == template)
        .map(|t| match lang {
            "fr" => t.1,
            "ar" => t.2,
            _ => t.0,
        })
        .unwrap_or(template)
}

/// A catalogue market's name in `lang` (`en`, `fr`, `ar`); `None` for a market type we do not
/// know (the feed's own name is shown).
pub fn market_name_in(key: &MarketKey, lang: &str) -> Option<String> {
    let t = market_type(key.type_id())?;
    Some(capitalise(&render(translate(t.name, lang), key, "", "")))
}

/// A catalogue outcome's name in `lang` when it is a word (draw, over 2.5, yes, a score);
/// `None` for an outcome named after a competitor (a proper noun: the stored name stands) or
/// one we do not know.
pub fn outcome_name_in(key: &MarketKey, outcome_id: &str, lang: &str) -> Option<String> {
    let o = market_type(key.type_id())?.outcomes.iter().find(|o| o.id == outcome_id)?;
    if o.name.contains("{$competitor") {
        return None;
    }
    Some(capitalise(&render(translate(o.name, lang), key, "", "")))
}

/// A sport's name in `lang` (`fr`, `ar`; English otherwise).
pub fn sport_name_in(kind: SportKind, lang: &str) -> &'static str {
    let (en, fr, ar) = match kind {
        SportKind::Football => ("Football", "Football", "كرة القدم"),
        SportKind::Basketball => ("Basketball", "Basket-ball", "كرة السلة"),
        SportKind::IceHockey => ("Ice hockey", "Hockey sur glace", "هوكي الجليد"),
        SportKind::Tennis => ("Tennis", "Tennis", "التنس"),
        SportKind::TableTennis => ("Table tennis", "Tennis de table", "تنس الطاولة"),
    };
    match lang {
        "fr" => fr,
        "ar" => ar,
        _ => en,
    }
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settle::OutcomeResult as R;

    fn key(s: &str) -> MarketKey {
        MarketKey::parse(s).unwrap()
    }
    fn res(k: &str, h: u32, a: u32) -> Vec<R> {
        results(&key(k), h, a).unwrap().into_iter().map(|(_, r)| r).collect()
    }

    #[test]
    fn names_in_french_and_arabic() {
        assert_eq!(market_name_in(&key("18|total=2.5"), "fr").as_deref(), Some("Total"));
        assert_eq!(market_name_in(&key("16|hcp=-1"), "ar").as_deref(), Some("هانديكاب \u{2066}-1\u{2069}"));
        assert_eq!(market_name_in(&key("1"), "en").as_deref(), Some("1x2"));
        assert_eq!(outcome_name_in(&key("18|total=2.5"), "12", "fr").as_deref(), Some("Plus de 2.5"));
        assert_eq!(outcome_name_in(&key("18|total=2.5"), "13", "ar").as_deref(), Some("أقل من 2.5"));
        assert_eq!(outcome_name_in(&key("1"), "2", "ar").as_deref(), Some("تعادل"));
        assert_eq!(outcome_name_in(&key("29"), "74", "en").as_deref(), Some("Yes"));
        assert_eq!(outcome_name_in(&key("45"), "2:1", "ar").as_deref(), Some("2:1"));
        // Competitors' names are not ours to translate; unknown markets keep the feed's name.
        assert_eq!(outcome_name_in(&key("1"), "1", "fr"), None);
        assert_eq!(outcome_name_in(&key("16|hcp=-1"), "1714", "ar"), None);
        assert_eq!(market_name_in(&key("777|x=1"), "fr"), None);
        // Every template of the catalogue has its translations.
        for t in MARKET_TYPES {
            assert!(TRANSLATIONS.iter().any(|x| x.0 == t.name), "{}", t.name);
            for o in t.outcomes.iter().filter(|o| !o.name.contains('{') || o.name.contains("{total}")) {
                if !o.name.contains(':') {
                    assert!(TRANSLATIONS.iter().any(|x| x.0 == o.name), "{}", o.name);
                }
            }
        }
    }

    #[test]
    fn quarter_lines_parse_exactly() {
        assert_eq!(quarters("2.5"), Some(10));
        assert_eq!(quarters("-0.25"), Some(-1));
        assert_eq!(quarters("-0.75"), Some(-3));
        assert_eq!(quarters("+1"), Some(4));
        assert_eq!(quarters("0"), Some(0));
        assert_eq!(quarters("1.50"), Some(6));
        for bad in ["", "-", "2.3", "2.", ".5", "x", "1.125", "100000"] {
            assert_eq!(quarters(bad), None, "{bad:?}");
        }
        for q in -40..=40 {
            assert_eq!(quarters(&line_text(q)), Some(q));
        }
    }

    #[test]
    fn one_x_two_and_btts() {
        assert_eq!(res("1", 2, 1), [R::WIN, R::LOSE, R::LOSE]);
        assert_eq!(res("1", 1, 1), [R::LOSE, R::WIN, R::LOSE]);
        assert_eq!(res("1", 0, 3), [R::LOSE, R::LOSE, R::WIN]);
        assert_eq!(res("29", 1, 1), [R::WIN, R::LOSE]);
        assert_eq!(res("29", 2, 0), [R::LOSE, R::WIN]);
    }

    #[test]
    fn totals_whole_half_and_quarter_lines() {
        assert_eq!(res("18|total=2.5", 2, 1), [R::WIN, R::LOSE]);
        assert_eq!(res("18|total=2.5", 1, 1), [R::LOSE, R::WIN]);
        // Whole line: 3 goals on 3 is a push.
        assert_eq!(res("18|total=3", 2, 1), [R::VOID, R::VOID]);
        // 2.75 = ½ on 2.5 + ½ on 3: three goals win half and push half for over.
        assert_eq!(res("18|total=2.75", 2, 1), [R::HALF_WIN, R::HALF_LOSE]);
        // 2.25 = ½ on 2 + ½ on 2.5: two goals push half and lose half for over.
        assert_eq!(res("18|total=2.25", 1, 1), [R::HALF_LOSE, R::HALF_WIN]);
        assert_eq!(res("225|total=180.5", 95, 90), [R::WIN, R::LOSE]);
    }

    #[test]
    fn asian_handicaps() {
        // −0.25 = ½ on 0, ½ on −0.5: a draw loses half for home, wins half for away.
        assert_eq!(res("16|hcp=-0.25", 1, 1), [R::HALF_LOSE, R::HALF_WIN]);
        assert_eq!(res("16|hcp=-0.25", 2, 1), [R::WIN, R::LOSE]);
        // −0.75 = ½ on −0.5, ½ on −1: a one-goal win is half won.
        assert_eq!(res("16|hcp=-0.75", 2, 1), [R::HALF_WIN, R::HALF_LOSE]);
        assert_eq!(res("16|hcp=-0.75", 3, 1), [R::WIN, R::LOSE]);
        assert_eq!(res("16|hcp=-0.75", 1, 1), [R::LOSE, R::WIN]);
        // Whole line −1: a one-goal win is a push.
        assert_eq!(res("16|hcp=-1", 2, 1), [R::VOID, R::VOID]);
        assert_eq!(res("16|hcp=0.25", 1, 1), [R::HALF_WIN, R::HALF_LOSE]);
        assert_eq!(res("188|hcp=-1.5", 2, 0), [R::WIN, R::LOSE]);
        assert_eq!(res("188|hcp=-1.5", 2, 1), [R::LOSE, R::WIN]);
    }

    #[test]
    fn two_way_outcomes_always_split_the_stake_consistently() {
        // For every two-way line and score, the two sides' results mirror each other.
        for k in ["16|hcp=-0.25", "16|hcp=0.75", "18|total=2.25", "18|total=3", "223|hcp=-4.5"] {
            for h in 0..6 {
                for a in 0..6 {
                    let spec = Spec::new(&key(k)).unwrap();
                    let mut v = Vec::new();
                    spec.evaluate(h, a, &mut v);
                    assert_eq!(v[0].void, v[1].void, "{k} {h}:{a}");
                    assert_eq!(v[0].win + v[1].win + v[0].void, 2, "{k} {h}:{a}");
                }
            }
        }
    }

    #[test]
    fn correct_score_and_winner() {
        let r = results(&key("45"), 2, 1).unwrap();
        let winners: Vec<&str> = r.iter().filter(|(_, r)| *r == R::WIN).map(|(id, _)| *id).collect();
        assert_eq!(winners, ["2:1"]);
        let r = results(&key("45"), 4, 0).unwrap();
        let winners: Vec<&str> = r.iter().filter(|(_, r)| *r == R::WIN).map(|(id, _)| *id).collect();
        assert_eq!(winners, ["other"]);
        assert_eq!(res("186", 2, 1), [R::WIN, R::LOSE]);
        assert_eq!(res("219", 99, 101), [R::LOSE, R::WIN]);
        assert_eq!(res("186", 1, 1), [R::VOID, R::VOID]);
    }

    #[test]
    fn errors() {
        assert_eq!(results(&key("999"), 0, 0), Err(CatalogueError::UnknownType(999)));
        assert!(matches!(results(&key("18"), 0, 0), Err(CatalogueError::MissingSpecifier(_, "total"))));
        assert!(matches!(results(&key("18|total=2.3"), 0, 0), Err(CatalogueError::BadLine(_))));
    }

    #[test]
    fn names() {
        let k = key("16|hcp=-0.25");
        assert_eq!(market_name(&k, "Atlas", "Oasis"), "Handicap -0.25");
        assert_eq!(outcome_name(&k, "1714", "Atlas", "Oasis"), "Atlas (-0.25)");
        assert_eq!(outcome_name(&k, "1715", "Atlas", "Oasis"), "Oasis (+0.25)");
        assert_eq!(outcome_name(&key("18|total=2.5"), "12", "A", "B"), "Over 2.5");
        assert_eq!(outcome_name(&key("1"), "2", "A", "B"), "Draw");
        assert_eq!(outcome_name(&key("16|hcp=0"), "1714", "A", "B"), "A (0)");
        assert_eq!(outcome_name(&key("1"), "9", "A", "B"), "Outcome 9");
        assert_eq!(market_name(&key("777|x=1"), "A", "B"), "Market 777");
    }
}
