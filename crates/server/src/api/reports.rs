//! The console's reports (issue 22 "Reports"; docs/BACKOFFICE.md "Reports"): GGR, NGR,
//! bonus cost, deposits, withdrawals and active players by day, product, provider or game,
//! over any range of the operator's days, as JSON or CSV. They read the rollups the ledger's
//! writers keep in the postings' own transactions (`wallet::rollup`), never the ledger.

use super::envelope::{ApiError, Envelope, ErrorEnvelope, Ok as OkReply};
use super::extract::QueryParams;
use super::staff::{perm, Staff};
use crate::app::AppState;
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use kernel::clock::{date_of_day, day_number};
use kernel::money::{format_major, MajorUnits};
use kernel::{AppError, Currency, ErrorCode};
use serde::{Deserialize, Serialize};
use std::str::FromStr;
use utoipa::{IntoParams, ToSchema};
use wallet::rollup::{self, Figures, GroupBy, ReportQuery, ReportRow};

pub fn routes() -> Router<AppState> {
    Router::new().route("/api/admin/reports", get(report))
}

/// The longest range a report covers (ten years of days).
const MAX_DAYS: i64 = 3660;
/// The most rows a report by game answers (largest GGR first).
const MAX_GAME_ROWS: usize = 500;

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ReportParams {
    /// First day, `YYYY-MM-DD` (the operator's day: Tunis, UTC+1).
    pub from: String,
    /// Last day, included.
    pub to: String,
    /// `day` (default), `product`, `provider` or `game`.
    pub by: Option<String>,
    /// One currency (`TND`); every currency otherwise, a row per currency.
    pub currency: Option<String>,
    /// `csv` for a CSV file instead of the envelope.
    pub format: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReportLine {
    /// `YYYY-MM-DD`, by day.
    pub date: Option<String>,
    pub currency: String,
    /// `casino`, `sport`, `partner_sport`, `jackpot`, `payments`, `bonus`, `other` (by
    /// product, provider or game).
    pub product: Option<String>,
    pub provider: Option<String>,
    pub game: Option<String>,
    /// Bets taken, net of rollbacks.
    pub bets: i64,
    pub stakes: MajorUnits,
    pub wins: MajorUnits,
    /// Gross gaming revenue: stakes − wins.
    pub ggr: MajorUnits,
    /// Promotions given, net of what came back.
    pub bonus_cost: MajorUnits,
    /// Net gaming revenue: GGR − bonus cost.
    pub ngr: MajorUnits,
    pub deposits: MajorUnits,
    /// Held for payment, net of released.
    pub withdrawals: MajorUnits,
    /// By day: players who staked that day (every currency).
    pub active_players: Option<i64>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReportReply {
    pub from: String,
    pub to: String,
    pub by: String,
    /// The rows (by day: every day of the range, zero where nothing happened).
    pub rows: Vec<ReportLine>,
    /// The range's totals, one per currency.
    pub totals: Vec<ReportLine>,
}

fn line(r: &ReportRow, currency: Currency) -> ReportLine {
    let f = &r.figures;
    let m = |minor| MajorUnits::new(minor, currency);
    ReportLine {
        date: r.day.map(date_of_day),
        currency: r.currency.clone(),
        product: r.product.clone(),
        provider: r.provider.clone(),
        game: r.game.clone(),
        bets: f.bets,
        stakes: m(f.stakes),
        wins: m(f.wins),
        ggr: m(f.ggr),
        bonus_cost: m(f.bonus_cost),
        ngr: m(f.ngr),
        deposits: m(f.deposits),
        withdrawals: m(f.withdrawals),
        active_players: r.active_players,
    }
}

/// The parsed query: what the report reads and how it answers.
struct Asked {
    q: ReportQuery,
    by: &'static str,
    csv: bool,
}

fn parse(p: &ReportParams) -> Result<Asked, AppError> {
    let bad = |what: &str| AppError::with_detail(ErrorCode::InvalidField, what);
    let from_day = day_number(&p.from).ok_or_else(|| bad("from: YYYY-MM-DD"))?;
    let to_day = day_number(&p.to).ok_or_else(|| bad("to: YYYY-MM-DD"))?;
    if to_day < from_day || to_day - from_day >= MAX_DAYS {
        return Err(bad("to: on or after from, at most 3,660 days"));
    }
    let (by, group) = match p.by.as_deref().unwrap_or("day") {
        "day" => ("day", GroupBy::Day),
        "product" => ("product", GroupBy::Product),
        "provider" => ("provider", GroupBy::Provider),
        "game" => ("game", GroupBy::Game),
        _ => return Err(bad("by: day, product, provider or game")),
    };
    let currency = match p.currency.as_deref().map(str::trim).filter(|c| !c.is_empty()) {
        Some(c) => Some(Currency::from_str(c).map_err(|_| bad("currency"))?.code().to_string()),
        None => None,
    };
    let csv = match p.format.as_deref() {
        None | Some("json") => false,
        Some("csv") => true,
        Some(_) => return Err(bad("format: json or csv")),
    };
    Ok(Asked { q: ReportQuery { from_day, to_day, currency, by: group }, by, csv })
}

/// A GGR/NGR report over a range of days (admin, finance): by day (every day of the range,
/// zero where nothing happened, with the day's active players), product, provider or game
/// (the 500 largest by GGR); JSON in the envelope, or `format=csv` for a file.
#[utoipa::path(get, path = "/api/admin/reports", tag = "admin", params(ReportParams),
    responses((status = 200, description = "The report (or a CSV file with format=csv)", body = Envelope<ReportReply>),
              (status = "default", description = "23, 24 not admin or finance, 47 a bad date, range, grouping, currency or format", body = ErrorEnvelope)))]
pub async fn report(State(state): State<AppState>, _staff: Staff<perm::ReportsRead>, QueryParams(p): QueryParams<ReportParams>) -> Result<Response, ApiError> {
    let asked = parse(&p)?;
    let mut rows = rollup::report(state.ledger.db(), &asked.q).await.map_err(|e| AppError::from(wallet::LedgerError::Store(e)))?;
    if asked.q.by != GroupBy::Day {
        // A group whose postings move none of the report's figures (house transfers, demo
        // credits) is not a row of it.
        rows.retain(|r| r.figures != Figures::default());
    }
    if asked.q.by == GroupBy::Game {
        rows.truncate(MAX_GAME_ROWS);
    }
    // Every currency the report shows: the one asked for, or those with rows, or the
    // platform's (TND, spec §1).
    let mut currencies: Vec<String> = match &asked.q.currency {
        Some(c) => vec![c.clone()],
        None => rows.iter().map(|r| r.currency.clone()).collect(),
    };
    currencies.sort();
    currencies.dedup();
    if currencies.is_empty() {
        currencies.push(Currency::Tnd.code().to_string());
    }
    if asked.q.by == GroupBy::Day {
        // Every day of the range, per currency: zero rows where nothing happened (a chart
        // must not join two distant points).
        let actives: std::collections::HashMap<i64, i64> = rows.iter().filter_map(|r| Some((r.day?, r.active_players?))).collect();
        let mut found: std::collections::HashMap<(i64, String), ReportRow> =
            rows.drain(..).filter_map(|r| Some(((r.day?, r.currency.clone()), r))).collect();
        let mut full = Vec::new();
        for day in asked.q.from_day..=asked.q.to_day {
            for c in &currencies {
                match found.remove(&(day, c.clone())) {
                    Some(r) => full.push(r),
                    None => full.push(ReportRow {
                        day: Some(day),
                        currency: c.clone(),
                        product: None,
                        provider: None,
                        game: None,
                        figures: Figures::default(),
                        active_players: Some(actives.get(&day).copied().unwrap_or(0)),
                    }),
                }
            }
        }
        rows = full;
    }
    let currency_of = |code: &str| Currency::from_str(code).unwrap_or(Currency::Tnd);
    let totals: Vec<ReportLine> = currencies
        .iter()
        .map(|c| {
            let f: Figures = rows.iter().filter(|r| &r.currency == c).map(|r| &r.figures).sum();
            line(&ReportRow { day: None, currency: c.clone(), product: None, provider: None, game: None, figures: f, active_players: None }, currency_of(c))
        })
        .collect();
    let from = date_of_day(asked.q.from_day);
    let to = date_of_day(asked.q.to_day);
    if asked.csv {
        let body = csv(&rows, asked.by, &currency_of);
        let name = format!("attachment; filename=\"carthage-report-{}-{from}-{to}.csv\"", asked.by);
        return Ok((
            [(header::CONTENT_TYPE, "text/csv; charset=utf-8".to_string()), (header::CONTENT_DISPOSITION, name), (header::CACHE_CONTROL, "no-store".to_string())],
            body,
        )
            .into_response());
    }
    let reply = ReportReply { from, to, by: asked.by.to_string(), rows: rows.iter().map(|r| line(r, currency_of(&r.currency))).collect(), totals };
    Ok(OkReply(reply).into_response())
}

/// A CSV field: quoted when it holds a separator, a quote or a line break; a leading `=`,
/// `+`, `-` or `@` (a formula to a spreadsheet) is prefixed with `'` — provider and game ids
/// come from outside.
fn field(text: &str) -> String {
    let text = if text.starts_with(['=', '+', '-', '@']) { format!("'{text}") } else { text.to_string() };
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text
    }
}

fn csv(rows: &[ReportRow], by: &str, currency_of: &dyn Fn(&str) -> Currency) -> String {
    let mut out = String::new();
    let group = match by {
        "day" => "date",
        "product" => "product",
        "provider" => "product,provider",
        _ => "product,provider,game",
    };
    out.push_str(group);
    out.push_str(",currency,bets,stakes,wins,ggr,bonus_cost,ngr,deposits,withdrawals");
    if by == "day" {
        out.push_str(",active_players");
    }
    out.push_str("\r\n");
    for r in rows {
        let c = currency_of(&r.currency);
        let f = &r.figures;
        let mut cells: Vec<String> = Vec::new();
        if let Some(d) = r.day {
            cells.push(date_of_day(d));
        }
        for part in [&r.product, &r.provider, &r.game].into_iter().flatten() {
            cells.push(field(part));
        }
        cells.push(field(&r.currency));
        cells.push(f.bets.to_string());
        for amount in [f.stakes, f.wins, f.ggr, f.bonus_cost, f.ngr, f.deposits, f.withdrawals] {
            cells.push(format_major(amount, c));
        }
        if let Some(a) = r.active_players {
            cells.push(a.to_string());
        }
        out.push_str(&cells.join(","));
        out.push_str("\r\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_fields_are_quoted_and_defused() {
        assert_eq!(field("pragmatic"), "pragmatic");
        assert_eq!(field("a,b"), "\"a,b\"");
        assert_eq!(field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(field("=HYPERLINK(1)"), "'=HYPERLINK(1)");
        assert_eq!(field("-1+2,x"), "\"'-1+2,x\"");
    }

    #[test]
    fn parses_the_query() {
        let p = |from: &str, to: &str, by: Option<&str>| ReportParams { from: from.into(), to: to.into(), by: by.map(Into::into), currency: None, format: None };
        let a = parse(&p("2026-01-01", "2026-12-31", None)).expect("a year");
        assert_eq!((a.q.to_day - a.q.from_day, a.by, a.csv), (364, "day", false));
        assert!(parse(&p("2026-02-01", "2026-01-31", None)).is_err(), "to before from");
        assert!(parse(&p("2016-01-01", "2026-12-31", None)).is_err(), "more than ten years");
        assert!(parse(&p("2026-01-01", "2026-01-01", Some("week"))).is_err());
        assert!(parse(&p("01/01/2026", "2026-01-01", None)).is_err());
        let mut q = p("2026-01-01", "2026-01-01", Some("game"));
        q.currency = Some("XYZ".into());
        assert!(parse(&q).is_err(), "unknown currency");
        q.currency = Some("tnd".into());
        q.format = Some("csv".into());
        let a = parse(&q).expect("csv");
        assert_eq!((a.q.currency.as_deref(), a.csv), (Some("TND"), true));
    }
}
