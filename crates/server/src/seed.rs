//! `carthage seed`: site content always; in demo mode also one demo account per role and
//! a starting balance for the demo player. Idempotent.

use crate::app::AppState;
use accounts::{NewUser, Role};
use kernel::{AppError, Currency};
use wallet::{AccountRef, BalanceKind, HouseAccount, PostingRequest, TxType};

pub struct DemoAccount {
    pub role: Role,
    pub email: &'static str,
    pub phone: Option<&'static str>,
    pub password: &'static str,
    /// Staff only: the authenticator secret (base32) set up for the demo, public like the
    /// password — add it to an authenticator app, or `python3 scripts/totp.py SECRET`.
    pub totp: Option<&'static str>,
}

/// The demo admin's authenticator secret (the e2e tests compute its codes).
pub const DEMO_ADMIN_TOTP: &str = "INQXE5DIMFTWKRDFNVXUCZDNNFXCCIJB";

pub const DEMO_ACCOUNTS: &[DemoAccount] = &[
    DemoAccount { role: Role::Player, email: "player@carthage.local", phone: Some("21620000001"), password: "Player123", totp: None },
    DemoAccount { role: Role::Partner, email: "partner@carthage.local", phone: None, password: "Partner123", totp: None },
    DemoAccount { role: Role::Cashier, email: "cashier@carthage.local", phone: None, password: "Cashier123", totp: None },
    DemoAccount { role: Role::SuperAgent, email: "agent@carthage.local", phone: None, password: "Agent1234", totp: None },
    DemoAccount { role: Role::Admin, email: "admin@carthage.local", phone: None, password: "Admin1234", totp: Some(DEMO_ADMIN_TOTP) },
    // The second pair of eyes for adjustments above ADJUST_FOUR_EYES_ABOVE, and a read-only
    // support seat (docs/BACKOFFICE.md).
    DemoAccount { role: Role::Finance, email: "finance@carthage.local", phone: None, password: "Finance123", totp: Some("INQXE5DIMFTWKRDFNVXUM2LOMFXGGZJB") },
    DemoAccount { role: Role::Support, email: "support@carthage.local", phone: None, password: "Support123", totp: Some("INQXE5DIMFTWKRDFNVXVG5LQOBXXE5BB") },
];

/// The demo player's starting balance, in TND.
pub const DEMO_PLAYER_CREDIT_TND: i64 = 500;

pub async fn run(state: &AppState) -> Result<(), AppError> {
    content::seed::seed_demo_content(&state.content).await?;
    if !state.is_demo() {
        return Ok(());
    }
    for a in DEMO_ACCOUNTS {
        let user = match state.accounts.find_by_login(a.email).await? {
            Some(u) => u,
            None => {
                state
                    .accounts
                    .create_user(NewUser {
                        email: Some(a.email.into()),
                        phone: a.phone.map(Into::into),
                        password: a.password.into(),
                        role: a.role,
                        currency: Currency::Tnd,
                        first_name: "Demo".into(),
                        last_name: a.role.name().replace('_', " "),
                        registered_via: "seed",
                    })
                    .await?
            }
        };
        if let Some(secret) = a.totp {
            state.accounts.set_confirmed_totp(user.id, secret).await?;
        }
        if a.role == Role::Player {
            make_web_signup(state, user.id).await?;
            let posting = PostingRequest::transfer(
                TxType::DemoCredit,
                "seed:demo-player-credit",
                Some(user.id),
                Currency::Tnd,
                AccountRef::House(HouseAccount::DemoCredit),
                AccountRef::Player { user_id: user.id, kind: BalanceKind::Real },
                Currency::Tnd.major(DEMO_PLAYER_CREDIT_TND),
            )
            .comment("Demo credit");
            state.ledger.post(posting).await?;
            let cashback = PostingRequest::transfer(
                TxType::ManualAdjustment,
                "seed:demo-player-cashback",
                Some(user.id),
                Currency::Tnd,
                AccountRef::House(HouseAccount::Cashback),
                AccountRef::Player { user_id: user.id, kind: BalanceKind::Cashback },
                Currency::Tnd.major(15),
            )
            .comment("Demo cashback");
            state.ledger.post(cashback).await?;
        }
    }
    seed_cashier_network(state).await?;
    seed_promotions(state).await
}

/// Demo mode's promo codes (issue 19): `WELCOME`, a 50 TND casino bonus to wager 10 times
/// (at most 5 TND a stake while wagering), and `FREEBET`, one 10 TND free bet; and the jackpot
/// pools Mega (5 000 → at most 50 000 TND, 0.5 % of stakes), Medium (1 000 → 10 000, 0.3 %) and
/// Small (100 → 1 000, 0.2 %).
pub const DEMO_PROMO_CODES: &[(&str, &str)] =
    &[("WELCOME", "50 TND casino bonus, 10× wagering"), ("FREEBET", "one 10 TND free bet")];

async fn seed_promotions(state: &AppState) -> Result<(), AppError> {
    use promotions::terms::{Amount, Product, Template, WageringBase};
    let p = &state.promotions;
    if p.template_id("welcome-50").await?.is_none() {
        let welcome = Template {
            product: Product::Casino,
            amount: Amount::Fixed { amount: Currency::Tnd.major(50) },
            wagering_multiple: 10,
            wagering_base: WageringBase::Bonus,
            max_bet: Currency::Tnd.major(5),
            max_conversion: 0,
            life_days: 30,
            min_odds: 0,
        };
        p.create_template("welcome-50", Currency::Tnd, &welcome, "seed").await?;
    }
    let codes = [
        serde_json::json!({ "code": "WELCOME", "kind": "bonus", "template": "welcome-50", "currency": "TND" }),
        serde_json::json!({ "code": "FREEBET", "kind": "free_bets", "free_bet_amount": Currency::Tnd.major(10), "free_bet_count": 1, "currency": "TND" }),
    ];
    // The three pools of the spec (Mega, Medium, Small), fed by every casino stake in TND.
    // Within the ledger's configured maxima (a deployment, or a test, may set them low): a
    // pool's seed is one posting and its win another.
    let limits = state.ledger.limits();
    let most = limits.max_amount(Currency::Tnd).min(limits.max_balance(Currency::Tnd));
    for (id, num, name, seed, cap, bps) in [("mega", 1, "Mega", 5_000, 50_000, 50), ("medium", 2, "Medium", 1_000, 10_000, 30), ("small", 3, "Small", 100, 1_000, 20)] {
        let cap = Currency::Tnd.major(cap).min(most);
        let seed = Currency::Tnd.major(seed).min(cap / 10);
        p.create_pool(id, num, name, Currency::Tnd, seed, cap, bps, &format!("/img/jackpots/{id}.svg")).await?;
    }
    for spec in codes {
        let spec: promotions::service::CodeSpec = serde_json::from_value(spec).map_err(AppError::internal)?;
        match p.create_code(&spec, "seed").await {
            Ok(()) => {}
            // Seeding again: the code is there.
            Err(e) if e.code == kernel::ErrorCode::BonusTermsRefused => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// The demo player is a website sign-up (e-mail): online deposits are for web sign-ups only
/// (spec §5, code 82), and the README's demo player must be able to do what a player who
/// signed up on the site does. It is created as `seed` (so the sign-up demo credit of
/// `accounts` is not added to the seed's own) and then marked as an e-mail sign-up; the same
/// statement upgrades a database seeded before (idempotent: only a `seed` row changes).
async fn make_web_signup(state: &AppState, user_id: i64) -> Result<(), AppError> {
    store::sqlx::query("UPDATE users SET registered_via = 'email' WHERE id = $1 AND registered_via = 'seed'")
        .bind(user_id)
        .execute(state.db.writer())
        .await
        .map_err(AppError::internal)?;
    Ok(())
}

/// The demo float issued to the demo super agent, and the part it moves to the demo cashier (TND).
pub const DEMO_AGENT_FLOAT_TND: i64 = 10_000;
pub const DEMO_CASHIER_FLOAT_TND: i64 = 5_000;

/// Demo mode: the demo cashier's location, owned by the demo super agent, with float.
async fn seed_cashier_network(state: &AppState) -> Result<(), AppError> {
    let (Some(cashier), Some(agent)) = (
        state.accounts.find_by_login("cashier@carthage.local").await?,
        state.accounts.find_by_login("agent@carthage.local").await?,
    ) else {
        return Ok(());
    };
    state.cashier.set_location(cashier.id, "Demo cashier", "12 Avenue Habib Bourguiba, Tunis", "+216 71 000 000").await?;
    state.cashier.assign_to_agent(cashier.id, agent.id).await?;
    // Within the ledger's configured maxima (a deployment, or a test, may set them low).
    let limits = state.ledger.limits();
    let cap = limits.max_amount(Currency::Tnd).min(limits.max_balance(Currency::Tnd));
    let agent_float = Currency::Tnd.major(DEMO_AGENT_FLOAT_TND).min(cap);
    let cashier_float = Currency::Tnd.major(DEMO_CASHIER_FLOAT_TND).min(agent_float / 2);
    state.cashier.issue_float(agent.id, agent_float, "seed:demo-agent-float", "seed").await?;
    let staff = state.cashier.staff(agent.id).await?;
    state
        .cashier
        .move_float(&staff, cashier.id, cashier_float, payments::cashier::FloatDirection::ToCashier, "seed:demo-cashier-float")
        .await?;
    Ok(())
}
