//! The wallet conformance table (ARCHITECTURE §3, issues 18 and 20): ONE table of scenarios
//! run against every wallet adapter — the partner sportsbooks (Digitain, GR8) and every game
//! provider dialect of `crates/providers` — on SQLite and PostgreSQL. Each scenario drives
//! the adapter over HTTP exactly as its partner would (signed in the partner's dialect) and
//! checks what a reply cannot show: the players' balances, the ledger rows under the
//! adapter's keys, and `ledger verify` at the end — a balanced wrong posting passes verify,
//! so every scenario names the balances it expects.
//!
//! The game providers are driven **through their local fakes** (`providers::fake`): an HTTP
//! server started here that builds each request in the provider's dialect, signs it the
//! provider's way, sends it over HTTP and reads the reply the provider's way, resending as
//! the provider resends. [`ViaFake`] is their one [`Adapter`].
//!
//! **Adding an adapter**: implement [`Adapter`] (how to open a player with a live session,
//! how to send a bet, win, rollback, a credit naming a transaction, and the forgeries) in a
//! few lines — for a provider dialect, write its fake (`providers::fake::Dialect`) and add
//! its code to [`PROVIDERS`] — then it runs the table. The table itself does not change.

use crate::common::*;
use reqwest::Method;
use serde_json::{json, Value};
use server::partners::{digitain, gr8, DEMO_DIGITAIN_SECRET, DEMO_GR8_SECRET, DEMO_OPERATOR_ID};
use wallet::BalanceKind;

const TEST_KEY: &str = include_str!("gr8_test_key.pem");

/// What a scenario sees of one call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Accepted: money moved, or a retry was answered as before, or a tombstone was left.
    Done,
    /// The dialect's own "already processed" status (Evolution's `BET_ALREADY_EXIST`):
    /// nothing moved now; the provider counts it as delivered before.
    Duplicate(String),
    /// Refused with the adapter's own code (`"12"`, `"auth.signature"`, …).
    Refused(String),
}

impl Outcome {
    fn refused(&self) -> bool {
        matches!(self, Outcome::Refused(_))
    }
    /// Taken by the provider as delivered (now or before).
    fn accepted(&self) -> bool {
        matches!(self, Outcome::Done | Outcome::Duplicate(_))
    }
    /// Not applied now (refused, or answered as an earlier delivery).
    fn not_applied(&self) -> bool {
        matches!(self, Outcome::Refused(_) | Outcome::Duplicate(_))
    }
}

/// A player of an adapter: signed in, with a live partner session.
pub struct Player {
    pub id: i64,
    /// Whatever the adapter acts with (Digitain: the game token; GR8: nothing, it names the player).
    pub credential: String,
}

/// A transaction of the table: its id, its round (bet id) and its amount in minor units.
#[derive(Debug, Clone, Copy)]
pub struct Tx<'a> {
    pub id: &'a str,
    pub round: &'a str,
    pub amount: i64,
}

/// One partner wallet adapter, as its partner drives it. Amounts are minor units of TND.
pub trait Adapter {
    /// The provider name: the ledger keys are `prov:{provider}:{partner's id}`.
    fn provider(&self) -> &'static str;
    /// A signed-in player credited with `credit`, with a live session of this partner.
    async fn player(&self, app: &TestApp, email: &str, credit: i64) -> Player;
    /// A stake.
    async fn bet(&self, app: &TestApp, p: &Player, tx: Tx<'_>) -> Outcome;
    /// A win / settlement credit of the round `tx.round`.
    async fn win(&self, app: &TestApp, p: &Player, tx: Tx<'_>) -> Outcome;
    /// Cancels the transaction `of` (in `tx.round`); `tx.amount` is informative.
    async fn rollback(&self, app: &TestApp, p: &Player, tx: Tx<'_>, of: &str) -> Outcome;
    /// A credit to `p` that names another transaction `of` (its id and round): Digitain's
    /// amend of a win, GR8's deposit for a bet.
    async fn credit_naming(&self, app: &TestApp, p: &Player, tx: Tx<'_>, of: Tx<'_>) -> Outcome;
    /// A win signed with a wrong secret.
    async fn forged_win(&self, app: &TestApp, p: &Player, tx: Tx<'_>) -> Outcome;
    /// A win authenticated with whatever our replies carry: the reply to a request that
    /// failed verification, and the reply to a real (signed) request that moves no money.
    /// The worse outcome of the attempts. `None`: the dialect's replies carry no
    /// credentials (nothing to replay).
    async fn win_from_replies(&self, app: &TestApp, p: &Player, tx: Tx<'_>) -> Option<Outcome>;
    /// A stake signed for (or in the name of) `signer`, applied to `target`.
    async fn bet_signed_for_other(&self, app: &TestApp, signer: &Player, target: &Player, tx: Tx<'_>) -> Outcome;
    /// The balance the provider is told at authentication (minor units).
    async fn authenticate(&self, app: &TestApp, p: &Player) -> Option<i64>;
    /// Raw-body dialects: a win with unusual but valid formatting signed over the bytes sent
    /// (must be accepted), and one signed over a canonical re-serialisation but sent with
    /// other bytes (must be refused). `None`: the dialect does not sign the body.
    async fn reserialised_win(&self, app: &TestApp, p: &Player, good: Tx<'_>, bad: Tx<'_>) -> Option<(Outcome, Outcome)>;
    /// Whether a cancel can name a cancel in this dialect (Pragmatic's refund and
    /// Evolution's cancel name bets only).
    fn names_rollbacks(&self) -> bool {
        true
    }
}

/// The scenarios. Every adapter runs every one, each with players of its own.
#[derive(Debug, Clone, Copy)]
enum Scenario {
    /// The same bet delivered twice: accepted twice, money moves once.
    Replay,
    /// The same id with another amount: refused, nothing moves.
    ConflictingDuplicate,
    /// A rollback of a transaction not yet seen leaves a tombstone (no money); the late bet
    /// is refused.
    RollbackBeforeBet,
    /// A rollback naming a rollback: refused; the bet is reversed once.
    RollbackOfRollback,
    /// A win in a round where the player has no bet: refused (ours: never seen; theirs:
    /// another player's round).
    WinWithoutBet,
    /// A win with the player's session expired: paid (money owed is paid); a stake: refused.
    ExpiredSession,
    /// A win signed with a wrong secret: refused.
    ForgedSignature,
    /// Our replies replayed as a request's credentials: refused.
    ReplyReplayedAsRequest,
    /// A rollback naming another player's transaction: refused, both balances unchanged.
    AnotherPlayersRollback,
    /// A credit naming another player's transaction: refused, both unchanged.
    AnotherPlayersCredit,
    /// A stake signed for one player applied to another: refused.
    SignedForAnotherPlayer,
    /// The same win delivered 20 times at once: one posting.
    ConcurrentDeliveries,
    /// The provider's authentication sees the player's balance.
    Authenticate,
    /// A bet re-sent after its rollback: refused, nothing moves.
    BetAfterRollback,
    /// A stake above the balance: refused, nothing moves.
    InsufficientFunds,
    /// Raw-body signatures: checked over the bytes received, not a re-serialisation.
    ReserialisedBody,
}

const TABLE: [Scenario; 16] = [
    Scenario::Replay,
    Scenario::ConflictingDuplicate,
    Scenario::RollbackBeforeBet,
    Scenario::RollbackOfRollback,
    Scenario::WinWithoutBet,
    Scenario::ExpiredSession,
    Scenario::ForgedSignature,
    Scenario::ReplyReplayedAsRequest,
    Scenario::AnotherPlayersRollback,
    Scenario::AnotherPlayersCredit,
    Scenario::SignedForAnotherPlayer,
    Scenario::ConcurrentDeliveries,
    Scenario::Authenticate,
    Scenario::BetAfterRollback,
    Scenario::InsufficientFunds,
    Scenario::ReserialisedBody,
];

const CREDIT: i64 = 10_000;

fn tx<'a>(id: &'a str, round: &'a str, amount: i64) -> Tx<'a> {
    Tx { id, round, amount }
}

async fn balance(app: &TestApp, p: &Player) -> i64 {
    app.minor_balance(p.id, BalanceKind::Real).await
}

/// Ledger rows (postings and tombstones) under the adapter's keys starting with `prefix`.
async fn rows(app: &TestApp, a: &impl Adapter, prefix: &str) -> i64 {
    // At the start of the id or after a `:` — a dialect may derive its keys from the
    // provider's ids (`refund:{reference}`).
    let p = a.provider();
    app.count(&format!("ledger_transactions WHERE idempotency_key LIKE 'prov:{p}:{prefix}%' OR idempotency_key LIKE 'prov:{p}:%:{prefix}%'")).await
}

/// Runs the whole table against one adapter.
async fn run_table(app: &TestApp, a: &impl Adapter) {
    for (n, scenario) in TABLE.iter().enumerate() {
        let name = format!("{}/{scenario:?}", a.provider());
        eprintln!("--- {name}");
        // Ids of this scenario: `s{n}-…`, so its rows can be counted apart.
        let id = |s: &str| format!("s{n}-{s}");
        let p = a.player(app, &format!("{}-s{n}-p@example.com", a.provider()), CREDIT).await;
        let q = a.player(app, &format!("{}-s{n}-q@example.com", a.provider()), CREDIT).await;
        let (p0, q0) = (balance(app, &p).await, balance(app, &q).await);
        let (bet, win, rb, round, x) = (id("bet"), id("win"), id("rb"), id("round"), id("x"));
        match scenario {
            Scenario::Replay => {
                assert_eq!(a.bet(app, &p, tx(&bet, &round, 1_500)).await, Outcome::Done, "{name}");
                let retry = a.bet(app, &p, tx(&bet, &round, 1_500)).await;
                assert!(retry.accepted(), "{name}: a retry: {retry:?}");
                assert_eq!(balance(app, &p).await, p0 - 1_500, "{name}");
                assert_eq!(rows(app, a, &id("")).await, 1, "{name}");
            }
            Scenario::ConflictingDuplicate => {
                assert_eq!(a.bet(app, &p, tx(&bet, &round, 1_000)).await, Outcome::Done, "{name}");
                let other = a.bet(app, &p, tx(&bet, &round, 2_000)).await;
                assert!(other.not_applied(), "{name}: {other:?}");
                assert_eq!(balance(app, &p).await, p0 - 1_000, "{name}");
            }
            Scenario::RollbackBeforeBet => {
                assert_eq!(a.rollback(app, &p, tx(&rb, &round, 1_000), &bet).await, Outcome::Done, "{name}");
                assert_eq!(balance(app, &p).await, p0, "{name}: a tombstone moves nothing");
                assert!(a.bet(app, &p, tx(&bet, &round, 1_000)).await.refused(), "{name}: the late bet");
                assert_eq!(balance(app, &p).await, p0, "{name}");
            }
            Scenario::RollbackOfRollback => {
                assert_eq!(a.bet(app, &p, tx(&bet, &round, 1_000)).await, Outcome::Done, "{name}");
                assert_eq!(a.rollback(app, &p, tx(&rb, &round, 1_000), &bet).await, Outcome::Done, "{name}");
                assert_eq!(balance(app, &p).await, p0, "{name}");
                let again = a.rollback(app, &p, tx(&x, &round, 1_000), &rb).await;
                if a.names_rollbacks() {
                    assert!(again.refused(), "{name}: {again:?}");
                }
                assert_eq!(balance(app, &p).await, p0, "{name}: reversed once");
            }
            Scenario::WinWithoutBet => {
                assert!(a.win(app, &p, tx(&win, &round, 5_000)).await.refused(), "{name}: a round never bet");
                let theirs = id("their-round");
                assert_eq!(a.bet(app, &q, Tx { id: &bet, round: &theirs, amount: 1_000 }).await, Outcome::Done, "{name}");
                assert!(a.win(app, &p, Tx { id: &x, round: &theirs, amount: 5_000 }).await.refused(), "{name}: another player's round");
                assert_eq!(balance(app, &p).await, p0, "{name}");
                assert_eq!(balance(app, &q).await, q0 - 1_000, "{name}");
                assert_eq!(rows(app, a, &id("")).await, 1, "{name}: only q's bet");
            }
            Scenario::ExpiredSession => {
                assert_eq!(a.bet(app, &p, tx(&bet, &round, 1_000)).await, Outcome::Done, "{name}");
                app.sql(&format!("UPDATE game_sessions SET expires_at = 1 WHERE user_id = {}", p.id)).await;
                assert!(a.bet(app, &p, tx(&x, &round, 1_000)).await.refused(), "{name}: a stake on an expired session");
                assert_eq!(a.win(app, &p, tx(&win, &round, 2_500)).await, Outcome::Done, "{name}: money owed is paid");
                assert_eq!(balance(app, &p).await, p0 - 1_000 + 2_500, "{name}");
            }
            Scenario::ForgedSignature => {
                assert_eq!(a.bet(app, &p, tx(&bet, &round, 1_000)).await, Outcome::Done, "{name}");
                assert!(a.forged_win(app, &p, tx(&win, &round, 50_000)).await.refused(), "{name}");
                assert_eq!(balance(app, &p).await, p0 - 1_000, "{name}");
                assert_eq!(rows(app, a, &win).await, 0, "{name}");
            }
            Scenario::ReplyReplayedAsRequest => {
                // Even with a bet in the round: the credentials are what is refused.
                assert_eq!(a.bet(app, &p, tx(&bet, &round, 1_000)).await, Outcome::Done, "{name}");
                match a.win_from_replies(app, &p, tx(&win, &round, 100_000)).await {
                    Some(o) => assert!(o.refused(), "{name}: {o:?}"),
                    None => eprintln!("    {name}: replies carry no credentials in this dialect"),
                }
                assert_eq!(balance(app, &p).await, p0 - 1_000, "{name}");
                assert_eq!(rows(app, a, &win).await, 0, "{name}");
            }
            Scenario::AnotherPlayersRollback => {
                assert_eq!(a.bet(app, &q, tx(&bet, &round, 3_000)).await, Outcome::Done, "{name}");
                assert!(a.rollback(app, &p, tx(&rb, &round, 3_000), &bet).await.refused(), "{name}");
                assert_eq!(balance(app, &p).await, p0, "{name}");
                assert_eq!(balance(app, &q).await, q0 - 3_000, "{name}");
                // Their bet is still theirs to cancel.
                assert_eq!(a.rollback(app, &q, tx(&x, &round, 3_000), &bet).await, Outcome::Done, "{name}");
                assert_eq!(balance(app, &q).await, q0, "{name}");
            }
            Scenario::AnotherPlayersCredit => {
                assert_eq!(a.bet(app, &q, tx(&bet, &round, 1_000)).await, Outcome::Done, "{name}");
                assert_eq!(a.win(app, &q, tx(&win, &round, 2_000)).await, Outcome::Done, "{name}");
                let (theirs_bet, theirs_win) = (tx(&bet, &round, 1_000), tx(&win, &round, 2_000));
                assert!(a.credit_naming(app, &p, tx(&x, &round, 40_000), theirs_win).await.refused(), "{name}: naming their win");
                assert!(a.credit_naming(app, &p, tx(&id("y"), &round, 40_000), theirs_bet).await.refused(), "{name}: naming their bet");
                assert_eq!(balance(app, &p).await, p0, "{name}");
                assert_eq!(balance(app, &q).await, q0 + 1_000, "{name}");
                assert_eq!(rows(app, a, &x).await + rows(app, a, &id("y")).await, 0, "{name}");
            }
            Scenario::SignedForAnotherPlayer => {
                assert!(a.bet_signed_for_other(app, &p, &q, tx(&bet, &round, 4_000)).await.refused(), "{name}");
                assert_eq!(balance(app, &p).await, p0, "{name}");
                assert_eq!(balance(app, &q).await, q0, "{name}");
                assert_eq!(rows(app, a, &bet).await, 0, "{name}");
            }
            Scenario::ConcurrentDeliveries => {
                assert_eq!(a.bet(app, &p, tx(&bet, &round, 1_000)).await, Outcome::Done, "{name}");
                let wins = futures::future::join_all((0..20).map(|_| a.win(app, &p, tx(&win, &round, 3_000)))).await;
                assert!(wins.iter().all(|o| o.accepted()), "{name}: {wins:?}");
                assert_eq!(balance(app, &p).await, p0 - 1_000 + 3_000, "{name}");
                assert_eq!(rows(app, a, &win).await, 1, "{name}");
            }
            Scenario::Authenticate => match a.authenticate(app, &p).await {
                Some(seen) => assert_eq!(seen, p0, "{name}"),
                None => eprintln!("    {name}: no authentication call in this dialect"),
            },
            Scenario::BetAfterRollback => {
                assert_eq!(a.bet(app, &p, tx(&bet, &round, 1_000)).await, Outcome::Done, "{name}");
                assert_eq!(a.rollback(app, &p, tx(&rb, &round, 1_000), &bet).await, Outcome::Done, "{name}");
                let late = a.bet(app, &p, tx(&bet, &round, 1_000)).await;
                assert!(late.not_applied(), "{name}: {late:?}");
                assert_eq!(balance(app, &p).await, p0, "{name}");
            }
            Scenario::InsufficientFunds => {
                let o = a.bet(app, &p, tx(&bet, &round, p0 + 1)).await;
                assert!(o.refused(), "{name}: {o:?}");
                assert_eq!(balance(app, &p).await, p0, "{name}");
                assert_eq!(rows(app, a, &bet).await, 0, "{name}");
            }
            Scenario::ReserialisedBody => {
                assert_eq!(a.bet(app, &p, tx(&bet, &round, 1_000)).await, Outcome::Done, "{name}");
                match a.reserialised_win(app, &p, tx(&win, &round, 2_000), tx(&x, &round, 50_000)).await {
                    Some((odd, reserialised)) => {
                        assert_eq!(odd, Outcome::Done, "{name}: valid odd formatting signed over its own bytes");
                        assert!(reserialised.refused(), "{name}: {reserialised:?}");
                        assert_eq!(balance(app, &p).await, p0 - 1_000 + 2_000, "{name}");
                        assert_eq!(rows(app, a, &x).await, 0, "{name}");
                    }
                    None => eprintln!("    {name}: this dialect does not sign the body"),
                }
            }
        }
        app.assert_ledger_consistent().await;
    }
}

#[tokio::test]
async fn every_partner_wallet_passes_the_table() {
    each_backend_with(
        |cfg| cfg.partners.gr8_private_key_pem = Some(TEST_KEY.to_string()),
        async |app| {
            run_table(app, &Digitain).await;
            run_table(app, &Gr8).await;
        },
    )
    .await;
}

/// The game providers with a wallet adapter, each driven through its local fake.
const PROVIDERS: [&str; 10] = providers::settings::WALLET_PROVIDERS;

#[tokio::test]
async fn every_provider_wallet_passes_the_table() {
    each_backend_with(
        |_| {},
        async |app| {
            let fakes = providers::fake::Fakes::new(&app.base, |code| providers::fake::Keys {
                secret: providers::settings::demo_secret(code),
                extra: providers::fake::demo_keys(code),
            });
            let fake_base = providers::fake::spawn(fakes).await.expect("the fakes start");
            for code in PROVIDERS {
                run_table(app, &ViaFake { code, fake_base: fake_base.clone() }).await;
            }
        },
    )
    .await;
}

// ------------------------------------------------------------------ the adapters

fn decimal_text(minor: i64) -> String {
    format!("{}.{:03}", minor / 1000, minor % 1000)
}

/// A fresh timestamp per request (see `partners::unique_ts`).
fn unique_ts() -> String {
    crate::partners::unique_ts()
}

async fn signed_in(app: &TestApp, email: &str, credit: i64) -> (Api, i64) {
    let (api, id, _) = app.player(email).await;
    app.credit(id, BalanceKind::Real, credit).await;
    (api, id)
}

/// Digitain: batches of one item, `allOrNone: false`; the item's code is the outcome.
pub struct Digitain;

impl Digitain {
    async fn post(&self, app: &TestApp, method: &str, body: &Value) -> Value {
        let r = app.exec(app.bare_client().req(Method::POST, &format!("/api/digitain/{method}")).json(body)).await;
        assert_eq!(r.status, 200, "{}", r.text);
        r.body
    }

    fn signed(mut body: Value, secret: &str) -> Value {
        let ts = unique_ts();
        body["operatorId"] = json!(DEMO_OPERATOR_ID);
        body["timestamp"] = json!(ts);
        body["signature"] = json!(digitain::sign(secret, &ts, DEMO_OPERATOR_ID));
        body
    }

    fn outcome(r: &Value) -> Outcome {
        let code = if r["items"].is_array() { &r["items"][0]["errorCode"] } else { &r["errorCode"] };
        match code.as_i64() {
            Some(1) if r["errorCode"] == 1 => Outcome::Done,
            _ => Outcome::Refused(format!("{} / {}", r["errorCode"], code)),
        }
    }

    fn batch(item: Value) -> Value {
        json!({"providerId": "conformance", "allOrNone": false, "items": [item]})
    }

    fn item(p: &Player, tx: Tx<'_>, field: &str) -> Value {
        json!({"txId": tx.id, field: decimal_text(tx.amount), "token": p.credential, "playerId": p.id.to_string(),
               "roundId": tx.round, "gameId": "sportsbook", "currencyId": "TND"})
    }

    async fn call(&self, app: &TestApp, method: &str, item: Value) -> Outcome {
        Self::outcome(&self.post(app, method, &Self::signed(Self::batch(item), DEMO_DIGITAIN_SECRET)).await)
    }
}

impl Adapter for Digitain {
    fn provider(&self) -> &'static str {
        "digitain"
    }

    async fn player(&self, app: &TestApp, email: &str, credit: i64) -> Player {
        let (api, id) = signed_in(app, email, credit).await;
        let token = ok(api.get("/digitain/front/token").await)["token"].as_str().expect("token").to_string();
        Player { id, credential: token }
    }

    async fn bet(&self, app: &TestApp, p: &Player, tx: Tx<'_>) -> Outcome {
        self.call(app, "bet", Self::item(p, tx, "betAmount")).await
    }

    async fn win(&self, app: &TestApp, p: &Player, tx: Tx<'_>) -> Outcome {
        self.call(app, "win", Self::item(p, tx, "winAmount")).await
    }

    async fn rollback(&self, app: &TestApp, p: &Player, tx: Tx<'_>, of: &str) -> Outcome {
        let item = json!({"txId": tx.id, "originalTxId": of, "token": p.credential, "playerId": p.id.to_string(), "roundId": tx.round});
        self.call(app, "refund", item).await
    }

    async fn credit_naming(&self, app: &TestApp, p: &Player, tx: Tx<'_>, of: Tx<'_>) -> Outcome {
        let item = json!({"txId": tx.id, "winTxId": of.id, "operationType": 37, "amendAmount": decimal_text(tx.amount),
                          "token": p.credential, "playerId": p.id.to_string(), "roundId": of.round, "currencyId": "TND"});
        self.call(app, "amend", item).await
    }

    async fn forged_win(&self, app: &TestApp, p: &Player, tx: Tx<'_>) -> Outcome {
        Self::outcome(&self.post(app, "win", &Self::signed(Self::batch(Self::item(p, tx, "winAmount")), "not-the-secret")).await)
    }

    async fn win_from_replies(&self, app: &TestApp, p: &Player, tx: Tx<'_>) -> Option<Outcome> {
        // 1. The reply to an unsigned request (the issue's `getBalance {}`).
        let unsigned = self.post(app, "getBalance", &json!({})).await;
        // 2. The reply to a real, signed request that moves no money.
        let real = self.post(app, "getBalance", &Self::signed(json!({"token": p.credential}), DEMO_DIGITAIN_SECRET)).await;
        assert_eq!(real["errorCode"], 1, "{real}");
        let mut worst = Outcome::Refused(String::new());
        for (n, frame) in [unsigned, real].iter().enumerate() {
            // The player's own item, without and with the token.
            for token in [false, true] {
                let mut item = Self::item(p, tx, "winAmount");
                if !token {
                    item.as_object_mut().unwrap().remove("token");
                }
                let mut body = Self::batch(item);
                body["items"][0]["txId"] = json!(format!("{}{n}{token}", tx.id));
                for f in ["operatorId", "timestamp", "signature"] {
                    body[f] = frame.get(f).cloned().unwrap_or(Value::Null);
                }
                let o = Self::outcome(&self.post(app, "win", &body).await);
                if o == Outcome::Done {
                    worst = o;
                }
            }
        }
        Some(worst)
    }

    async fn authenticate(&self, app: &TestApp, p: &Player) -> Option<i64> {
        let r = self.post(app, "authenticate", &Self::signed(json!({"token": p.credential}), DEMO_DIGITAIN_SECRET)).await;
        assert_eq!(r["errorCode"], 1, "{r}");
        Some(server::partners::amount::parse(&r["balance"].to_string().trim_matches('"').to_string(), kernel::Currency::Tnd).expect("a balance"))
    }

    async fn reserialised_win(&self, _: &TestApp, _: &Player, _: Tx<'_>, _: Tx<'_>) -> Option<(Outcome, Outcome)> {
        None // Digitain signs the timestamp and operator id, not the body.
    }

    async fn bet_signed_for_other(&self, app: &TestApp, signer: &Player, target: &Player, tx: Tx<'_>) -> Outcome {
        // The signer's token in the target's name.
        let mut item = Self::item(signer, tx, "betAmount");
        item["playerId"] = json!(target.id.to_string());
        let a = self.call(app, "bet", item).await;
        // A request of the signer's, its timestamp and signature reused for the target's bet.
        let own = format!("own-{}", tx.id);
        let first = Self::signed(Self::batch(Self::item(signer, Tx { id: &own, amount: 0, ..tx }, "betAmount")), DEMO_DIGITAIN_SECRET);
        assert_eq!(Self::outcome(&self.post(app, "bet", &first).await), Outcome::Done);
        let mut other = Self::batch(Self::item(target, tx, "betAmount"));
        for f in ["operatorId", "timestamp", "signature"] {
            other[f] = first[f].clone();
        }
        let b = Self::outcome(&self.post(app, "bet", &other).await);
        if a == Outcome::Done { a } else { b }
    }
}

/// GR8: one transaction per request, signed over the timestamp, the path's player and the
/// raw body; HTTP 200 is the outcome `Done`, anything else `Refused(error.code)`.
pub struct Gr8;

impl Gr8 {
    fn body(kind: &str, tx: Tx<'_>, parent: Option<&str>) -> Value {
        json!({"currency": "TND", "platform": "sport", "id": tx.id, "type": kind, "initiatedAt": "2025-01-01T10:00:00Z",
               "createdAt": "2025-01-01T10:00:01Z",
               "context": {"product": "sportsbook", "reason": "bet", "betId": tx.round, "parentId": parent},
               "amountBreakdown": {"cash": decimal_text(tx.amount), "bonus": "0", "locked": "0", "retract": "0"}})
    }

    /// Sends `raw` to `path_player`'s path with these headers (None: left out).
    async fn send(&self, app: &TestApp, path_player: i64, raw: &str, ts: Option<&str>, sig: Option<&str>) -> (Outcome, reqwest::header::HeaderMap, Value) {
        let mut b = app
            .bare_client()
            .req(Method::POST, &format!("/api/v2/wallet/{path_player}/transactions"))
            .header("content-type", "application/json")
            .header("x-brand", "carthage")
            .header("x-operator-id", DEMO_OPERATOR_ID)
            .body(raw.to_string());
        if let Some(ts) = ts {
            b = b.header("x-timestamp", ts);
        }
        if let Some(sig) = sig {
            b = b.header("x-signature", sig);
        }
        let r = app.exec(b).await;
        let o = if r.status == 200 { Outcome::Done } else { Outcome::Refused(r.body["error"]["code"].as_str().unwrap_or("?").to_string()) };
        (o, r.headers, r.body)
    }

    async fn signed(&self, app: &TestApp, signer: i64, path_player: i64, body: &Value, secret: &str) -> (Outcome, reqwest::header::HeaderMap, Value) {
        let raw = body.to_string();
        let ts = (now_ms() / 1000).to_string();
        let sig = gr8::sign(secret, &ts, &signer.to_string(), raw.as_bytes());
        self.send(app, path_player, &raw, Some(&ts), Some(&sig)).await
    }

    async fn call(&self, app: &TestApp, p: &Player, body: Value) -> Outcome {
        self.signed(app, p.id, p.id, &body, DEMO_GR8_SECRET).await.0
    }
}

impl Adapter for Gr8 {
    fn provider(&self) -> &'static str {
        "gr8"
    }

    async fn player(&self, app: &TestApp, email: &str, credit: i64) -> Player {
        let (api, id) = signed_in(app, email, credit).await;
        ok(api.get("/gr8/game_link?lang=en").await);
        Player { id, credential: String::new() }
    }

    async fn bet(&self, app: &TestApp, p: &Player, tx: Tx<'_>) -> Outcome {
        self.call(app, p, Self::body("withdrawal", tx, None)).await
    }

    async fn win(&self, app: &TestApp, p: &Player, tx: Tx<'_>) -> Outcome {
        self.call(app, p, Self::body("deposit", tx, None)).await
    }

    async fn rollback(&self, app: &TestApp, p: &Player, tx: Tx<'_>, of: &str) -> Outcome {
        self.call(app, p, Self::body("rollback", tx, Some(of))).await
    }

    async fn credit_naming(&self, app: &TestApp, p: &Player, tx: Tx<'_>, of: Tx<'_>) -> Outcome {
        // A settlement of their bet (its betId), to this player; and one naming their
        // transaction as its parent.
        let a = self.call(app, p, Self::body("deposit", Tx { round: of.round, ..tx }, None)).await;
        let b = self.call(app, p, Self::body("deposit", Tx { id: &format!("{}-p", tx.id), round: of.round, ..tx }, Some(of.id))).await;
        if a == Outcome::Done { a } else { b }
    }

    async fn forged_win(&self, app: &TestApp, p: &Player, tx: Tx<'_>) -> Outcome {
        self.signed(app, p.id, p.id, &Self::body("deposit", tx, None), "not-the-secret").await.0
    }

    async fn win_from_replies(&self, app: &TestApp, p: &Player, tx: Tx<'_>) -> Option<Outcome> {
        let win = Self::body("deposit", tx, None).to_string();
        // 1. An unsigned request: whatever its reply carries.
        let (o, headers, _) = self.send(app, p.id, &win, None, None).await;
        assert!(o.refused());
        let h = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).map(String::from);
        let (first, _, _) = self.send(app, p.id, &win, h("x-timestamp").as_deref(), h("x-signature").as_deref()).await;
        // 2. A real request that moves no money (a rollback of an unknown id: a tombstone);
        //    its reply body sent as a request with that request's headers, and the win with them.
        let rb = Self::body("rollback", Tx { id: &format!("rb-{}", tx.id), ..tx }, Some(&format!("never-{}", tx.id))).to_string();
        let ts = (now_ms() / 1000).to_string();
        let sig = gr8::sign(DEMO_GR8_SECRET, &ts, &p.id.to_string(), rb.as_bytes());
        let (done, _, reply) = self.send(app, p.id, &rb, Some(&ts), Some(&sig)).await;
        assert_eq!(done, Outcome::Done, "{reply}");
        let mut as_win = reply.clone();
        as_win["type"] = json!("deposit");
        as_win["id"] = json!(tx.id);
        let (second, _, _) = self.send(app, p.id, &as_win.to_string(), Some(&ts), Some(&sig)).await;
        let (third, _, _) = self.send(app, p.id, &win, Some(&ts), Some(&sig)).await;
        Some([first, second, third].into_iter().find(|o| *o == Outcome::Done).unwrap_or(Outcome::Refused("all".into())))
    }

    async fn authenticate(&self, _: &TestApp, _: &Player) -> Option<i64> {
        None // GR8 authenticates the player by our JWT; it has no wallet authentication call.
    }

    async fn reserialised_win(&self, app: &TestApp, p: &Player, good: Tx<'_>, bad: Tx<'_>) -> Option<(Outcome, Outcome)> {
        let ts = (now_ms() / 1000).to_string();
        // Valid JSON with spaces and newlines, signed over exactly these bytes.
        let odd = serde_json::to_string_pretty(&Self::body("deposit", good, None)).unwrap();
        let sig = gr8::sign(DEMO_GR8_SECRET, &ts, &p.id.to_string(), odd.as_bytes());
        let (first, _, _) = self.send(app, p.id, &odd, Some(&ts), Some(&sig)).await;
        // Signed over the compact form, sent pretty.
        let body = Self::body("deposit", bad, None);
        let sig = gr8::sign(DEMO_GR8_SECRET, &ts, &p.id.to_string(), body.to_string().as_bytes());
        let (second, _, _) = self.send(app, p.id, &serde_json::to_string_pretty(&body).unwrap(), Some(&ts), Some(&sig)).await;
        Some((first, second))
    }

    async fn bet_signed_for_other(&self, app: &TestApp, signer: &Player, target: &Player, tx: Tx<'_>) -> Outcome {
        self.signed(app, signer.id, target.id, &Self::body("withdrawal", tx, None), DEMO_GR8_SECRET).await.0
    }
}

/// A game provider driven through its local fake (`providers::fake`): the fake builds,
/// signs and sends each request in the provider's dialect and reads the reply its way.
pub struct ViaFake {
    code: &'static str,
    fake_base: String,
}

impl ViaFake {
    async fn send(&self, app: &TestApp, d: Value) -> Option<Outcome> {
        let r = app.exec(reqwest::Client::new().post(format!("{}/fake/{}/deliver", self.fake_base, self.code)).json(&d)).await;
        assert_eq!(r.status, 200, "{}", r.text);
        match r.body["outcome"].as_str() {
            Some("done") => Some(Outcome::Done),
            Some("duplicate") => Some(Outcome::Duplicate(r.body["code"].as_str().unwrap_or("").into())),
            Some("refused") => Some(Outcome::Refused(r.body["code"].as_str().unwrap_or("").into())),
            Some("unsupported") => None,
            other => panic!("{}: {other:?} in {}", self.code, r.text),
        }
    }

    fn delivery(op: &str, p: &Player, tx: Tx<'_>) -> Value {
        json!({"op": op, "player": p.id, "token": p.credential, "tx": tx.id, "round": tx.round, "game": "conformance", "amount": tx.amount, "currency": "TND"})
    }

    async fn must(&self, app: &TestApp, d: Value) -> Outcome {
        let what = d.to_string();
        self.send(app, d).await.unwrap_or_else(|| panic!("{}: the fake cannot say {what}", self.code))
    }
}

impl Adapter for ViaFake {
    fn provider(&self) -> &'static str {
        self.code
    }

    async fn player(&self, app: &TestApp, email: &str, credit: i64) -> Player {
        let (api, id) = signed_in(app, email, credit).await;
        let game = providers::fake::catalogue::provider(self.code).expect("a demo catalogue").games[0].id;
        let launch = ok(api.post("/api/casino/session", json!({"provider": self.code, "gameId": game, "lang": "en", "platform": "mobile"})).await);
        Player { id, credential: launch["sessionToken"].as_str().expect("a session token").to_string() }
    }

    async fn bet(&self, app: &TestApp, p: &Player, tx: Tx<'_>) -> Outcome {
        self.must(app, Self::delivery("bet", p, tx)).await
    }

    async fn win(&self, app: &TestApp, p: &Player, tx: Tx<'_>) -> Outcome {
        self.must(app, Self::delivery("win", p, tx)).await
    }

    async fn rollback(&self, app: &TestApp, p: &Player, tx: Tx<'_>, of: &str) -> Outcome {
        let mut d = Self::delivery("rollback", p, tx);
        d["of"] = json!(of);
        self.must(app, d).await
    }

    async fn credit_naming(&self, app: &TestApp, p: &Player, tx: Tx<'_>, of: Tx<'_>) -> Outcome {
        // A win to this player in the round of the other player's transaction.
        self.win(app, p, Tx { round: of.round, ..tx }).await
    }

    async fn forged_win(&self, app: &TestApp, p: &Player, tx: Tx<'_>) -> Outcome {
        let mut d = Self::delivery("win", p, tx);
        d["forge"] = json!({"kind": "wrongSecret"});
        self.must(app, d).await
    }

    async fn win_from_replies(&self, app: &TestApp, p: &Player, tx: Tx<'_>) -> Option<Outcome> {
        let mut d = Self::delivery("win", p, tx);
        d["forge"] = json!({"kind": "replyAsRequest"});
        self.send(app, d).await
    }

    async fn bet_signed_for_other(&self, app: &TestApp, signer: &Player, target: &Player, tx: Tx<'_>) -> Outcome {
        let mut d = Self::delivery("bet", signer, tx);
        d["forge"] = json!({"kind": "forOther", "player": target.id, "token": target.credential});
        self.must(app, d).await
    }

    async fn authenticate(&self, app: &TestApp, p: &Player) -> Option<i64> {
        let d = Self::delivery("authenticate", p, tx("", "", 0));
        let r = app.exec(reqwest::Client::new().post(format!("{}/fake/{}/deliver", self.fake_base, self.code)).json(&d)).await;
        match r.body["outcome"].as_str() {
            Some("done") => Some(r.body["balance"].as_i64().unwrap_or_else(|| panic!("{}: no balance in {}", self.code, r.text))),
            Some("unsupported") => None,
            _ => panic!("{}: authentication failed: {}", self.code, r.text),
        }
    }

    async fn reserialised_win(&self, app: &TestApp, p: &Player, good: Tx<'_>, bad: Tx<'_>) -> Option<(Outcome, Outcome)> {
        let mut odd = Self::delivery("win", p, good);
        odd["forge"] = json!({"kind": "oddFormatting"});
        let mut re = Self::delivery("win", p, bad);
        re["forge"] = json!({"kind": "reserialised"});
        Some((self.send(app, odd).await?, self.send(app, re).await?))
    }

    fn names_rollbacks(&self) -> bool {
        !matches!(self.code, "pragmatic" | "evolution" | "goldenrace")
    }
}
