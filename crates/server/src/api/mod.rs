//! The HTTP API: thin handlers (parse → call the service → envelope), the OpenAPI
//! document and the error catalogue export.

pub mod admin;
pub mod audit;
pub mod casino;
pub mod casino_history;
pub mod cashier;
pub mod sportsbook;
pub mod desk;
pub mod crash; // crash
pub mod deposit_bonus;
pub mod dev;
pub mod envelope;
pub mod extract;
pub mod partners;
pub mod payments;
pub mod players;
pub mod promotions;
pub mod promotions_extra;
pub mod promotions_admin;
pub mod provider_links;
pub mod provider_wallet;
pub mod providers;
pub mod reports;
pub mod site;
pub mod staff;
pub mod staff_auth;
pub mod studio;
pub mod types;
pub mod user;
pub mod wallet;
pub mod rg; // responsible gambling
pub mod virtuals; // studio virtual races
pub mod withdrawals;

use crate::app::AppState;
use axum::Router;
use kernel::ErrorCode;
use utoipa::openapi::schema::{ObjectBuilder, Type};
use utoipa::OpenApi;

pub fn routes(state: &AppState) -> Router<AppState> {
    let mut r = Router::new().merge(user::routes()).merge(wallet::routes()).merge(site::routes()).merge(admin::routes()).merge(audit::routes()).merge(players::routes()).merge(staff_auth::routes()).merge(withdrawals::routes()).merge(reports::routes())
        .merge(casino::routes())
        .merge(casino_history::routes())
        .merge(provider_wallet::routes())
        .merge(providers::routes())
        .merge(provider_links::routes())
        .merge(studio::routes())
        .merge(crash::routes()) // crash
        .merge(rg::routes()) // responsible gambling
        .merge(payments::routes())
        .merge(cashier::routes())
        .merge(desk::routes())
        .merge(sportsbook::routes())
        .merge(partners::routes())
        .merge(promotions::routes())
        .merge(promotions_extra::routes())
        .merge(promotions_admin::routes())
        .merge(deposit_bonus::routes())
        .merge(virtuals::routes()); // studio virtual races
    if state.is_demo() {
        r = r.merge(dev::routes());
    }
    r
}

#[derive(OpenApi)]
#[openapi(
    info(title = "Carthage platform API", version = "1", description = "The contract between the player app and the platform. Every reply is the envelope {status, result, error_message}: status 0 is success, any other value is a code of the ErrorCode catalogue (see the ErrorCode schema's x-error-codes)."),
    paths(
        user::login_email, user::login_phone, user::login, user::signup, user::signup_phone, user::signup_one_click,
        user::verify_email, user::check, user::logout, user::phone_code, user::restore_email, user::restore_phone,
        user::restore_email_new, user::restore_phone_new, user::change_password, user::profile, user::update_profile,
        wallet::balance, wallet::move_cashback_to_real, wallet::history, wallet::transactions,
        site::settings, site::flat_pages, site::slides, site::ads, site::set_language,
        admin::adjust, admin::list_requests, admin::approve, admin::reject, audit::list, audit::verify,
        players::search, players::card, players::ban, players::unban, players::add_note, players::provider_block,
        staff_auth::login, staff_auth::enrol, staff_auth::logout, staff_auth::me, reports::report,
        withdrawals::list, withdrawals::approve, withdrawals::reject, withdrawals::decide,
        casino::providers, casino::game_list, casino::search, casino::session, casino::blocklist,
        casino::favourite_add, casino::favourite_remove, casino::favourite_list,
        casino_history::slots_bet_history,
        provider_wallet::balance, provider_wallet::bet, provider_wallet::win, provider_wallet::rollback,
        studio::session, studio::slot_info, studio::slot_spin, studio::roulette_spin, studio::dice_roll,
        studio::seeds, studio::set_client_seed, studio::rotate, studio::rounds, studio::round_record,
        crash::fairness, crash::rounds, // crash
        promotions::check_promocode, promotions::activate_promocode, promotions::bonuses, promotions::give_up,
        promotions::free_bets, promotions::activate_free_bets, promotions::free_bet_stats,
        promotions::jackpot_data, promotions::jackpot_is_shown, promotions::jackpot_list, promotions::jackpots_public, promotions::force_drop,
        deposit_bonus::deposit_bonus, deposit_bonus::set_deposit_bonus,
        promotions_extra::coupon_machine, promotions_extra::coupon_draws, promotions_extra::coupon_draw, promotions_extra::weekly_cashback_rule, promotions_extra::run_weekly_cashback, promotions_extra::announce_draw, promotions_extra::run_draw,
        promotions_admin::list_templates, promotions_admin::create_template, promotions_admin::list_codes, promotions_admin::create_code,
        promotions_admin::block_code, promotions_admin::grant_free_bets, promotions_admin::grant_bonus, promotions_admin::list_pools,
        promotions_admin::create_pool, promotions_admin::set_promocode,
        rg::rg_state, rg::rg_set_limits, rg::rg_self_exclusion, rg::rg_cool_off, rg::rg_reality_check, rg::rg_session, // responsible gambling
        payments::token, payments::deposit, payments::paykassma_deposit, payments::telegram_deposit,
        payments::withdrawal, payments::paykassma_withdrawal, payments::intent, payments::callback,
        dev::outbox,
        cashier::cashiers, cashier::request, cashier::history, cashier::cancel,
        sportsbook::line, sportsbook::event, sportsbook::place, sportsbook::bets, sportsbook::top, sportsbook::feed,
        partners::digitain_token, partners::gr8_game_link, partners::gr8_frame,
        desk::me, desk::player, desk::deposit, desk::payout, desk::report, desk::cashiers, desk::move_float,
        virtuals::races, virtuals::race, virtuals::place, virtuals::bets, // studio virtual races
        provider_links::amatic_list, provider_links::amatic_link, provider_links::evolution_list, provider_links::evolution_frame,
        provider_links::fiable_list, provider_links::fiable_token, provider_links::habanero_list, provider_links::habanero_launch,
        provider_links::slotegrator_list, provider_links::slotegrator_link, provider_links::evoplay_list, provider_links::evoplay_frame,
        provider_links::outcome_list, provider_links::outcome_session, provider_links::pragmatic_list,
        provider_links::pragmatic_link, provider_links::gitslotpark_list, provider_links::gitslotpark_link, provider_links::pgsoft_list,
        provider_links::pgsoft_link, provider_links::golden_race_list, provider_links::golden_race_frame, provider_links::golden_race_session,
        provider_links::tv_tiles, provider_links::tv_token,
    ),
    components(schemas(envelope::ErrorEnvelope)),
    modifiers(&ErrorCatalogue),
    tags((name = "user"), (name = "wallet"), (name = "site"), (name = "admin", description = "Back office"), (name = "casino", description = "Catalogue, favourites and game launch"), (name = "provider wallet", description = "Seamless wallet for game providers (signed)"), (name = "studio", description = "The in-house studio's game client"), (name = "dev", description = "Demo mode only"), (name = "responsible gambling", description = "Deposit limits, self-exclusion, cool-off, reality check"), (name = "payments", description = "Deposits and withdrawals through payment providers"), (name = "cashier", description = "Cashier network: the player side"), (name = "desk", description = "Cashier desk (cashiers and super agents)"), (name = "sportsbook", description = "Our sportsbook: the line, bets, settlement"), (name = "partners", description = "Partner sportsbooks (Digitain, GR8): frame tokens and links"), (name = "providers", description = "Game providers: each provider's game list and launch link (spec §7), Golden Race, TV betting"))
)]
pub struct ApiDoc;

/// Adds the `ErrorCode` schema: an integer enum of every code, with `x-error-codes`
/// listing name, HTTP status and English message, so the web app can translate all.
struct ErrorCatalogue;

impl utoipa::Modify for ErrorCatalogue {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let mut catalogue = serde_json::Map::new();
        for code in ErrorCode::ALL {
            catalogue.insert(
                code.code().to_string(),
                serde_json::json!({ "name": code.name(), "httpStatus": code.http_status(), "message": code.message() }),
            );
        }
        // utoipa's Extensions is a HashMap: one key only, so the document is deterministic
        // (the catalogue inside is an ordered JSON map).
        let mut ext = utoipa::openapi::extensions::Extensions::default();
        ext.insert("x-error-codes".into(), serde_json::Value::Object(catalogue));
        let schema = ObjectBuilder::new()
            .schema_type(Type::Integer)
            .description(Some("Reply codes (the envelope's status). 0 is success."))
            .enum_values(Some(ErrorCode::ALL.iter().map(|c| c.code())))
            .extensions(Some(ext))
            .build();
        if let Some(components) = openapi.components.as_mut() {
            components.schemas.insert("ErrorCode".into(), schema.into());
        }
    }
}

/// The OpenAPI document as committed in `docs/openapi.json`.
pub fn openapi_json() -> String {
    let mut doc = serde_json::to_value(ApiDoc::openapi()).unwrap_or_default();
    describe_refusals(&mut doc);
    unique_operation_ids(&mut doc);
    let mut text = serde_json::to_string_pretty(&doc).unwrap_or_default();
    text.push('\n');
    text
}

/// Every operation id unique: utoipa names an operation after its handler, and two modules'
/// `me` or `report` (the desk's and the console's) would be one operation to a client
/// generator (openapi-typescript keys `operations` by id: the desk's `/api/desk/me` typed as
/// the console's reply). A repeated id becomes `{method}_{path}` (`get_api_desk_me`) on every
/// operation that carries it.
fn unique_operation_ids(doc: &mut serde_json::Value) {
    let Some(paths) = doc.get_mut("paths").and_then(|p| p.as_object_mut()) else { return };
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for item in paths.values() {
        for op in item.as_object().into_iter().flat_map(|o| o.values()) {
            if let Some(id) = op.get("operationId").and_then(|v| v.as_str()) {
                *seen.entry(id.to_string()).or_default() += 1;
            }
        }
    }
    for (path, item) in paths.iter_mut() {
        let Some(item) = item.as_object_mut() else { continue };
        for (method, op) in item.iter_mut() {
            let repeated = op.get("operationId").and_then(|v| v.as_str()).is_some_and(|id| seen.get(id).copied().unwrap_or(0) > 1);
            if repeated {
                let name: String = format!("{method}_{path}").chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '_' }).collect();
                let name = name.split('_').filter(|p| !p.is_empty()).collect::<Vec<_>>().join("_");
                op["operationId"] = serde_json::Value::String(name);
            }
        }
    }
}

/// Makes the document say what the server does with refusals (checked by the
/// schemathesis run of `make test`, scripts/contract.sh):
/// * a business refusal answers **HTTP 200** with the error envelope (spec §7), so every
///   operation's 200 body is its success envelope or `ErrorEnvelope` (`anyOf`: an envelope
///   whose result is any object matches both);
/// * any operation may answer a **4xx** refusal (malformed input 400, sign-in 401, CSRF or
///   role 403, 404, 405, conflicting retry 409, 413, 415, rate limit 429), always in the error
///   envelope; each code's HTTP status is in `ErrorCode`'s `x-error-codes`.
fn describe_refusals(doc: &mut serde_json::Value) {
    let error = serde_json::json!({ "$ref": "#/components/schemas/ErrorEnvelope" });
    let Some(paths) = doc.get_mut("paths").and_then(|p| p.as_object_mut()) else { return };
    for item in paths.values_mut() {
        let Some(item) = item.as_object_mut() else { continue };
        for (method, op) in item.iter_mut() {
            if !matches!(method.as_str(), "get" | "post" | "put" | "patch" | "delete") {
                continue;
            }
            let Some(responses) = op.get_mut("responses").and_then(|r| r.as_object_mut()) else { continue };
            if let Some(schema) = responses.get_mut("200").and_then(|r| r.pointer_mut("/content/application~1json/schema")) {
                if schema.get("anyOf").is_none() {
                    *schema = serde_json::json!({ "anyOf": [schema.clone(), error.clone()] });
                }
            }
            responses.entry("4XX").or_insert_with(|| {
                serde_json::json!({
                    "description": "A refusal in the error envelope (see ErrorCode's x-error-codes for each code's HTTP status)",
                    "content": { "application/json": { "schema": error.clone() } }
                })
            });
        }
    }
}
