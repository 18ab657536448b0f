//! Staff two-factor sign-in (issue 22; docs/BACKOFFICE.md "Staff sign-in"): RFC 6238
//! time-based one-time codes (HMAC-SHA1, 6 digits, 30 s steps, one step of clock skew either
//! way), computed by the `totp-rs` crate.
//!
//! - Every staff role (admin, support, finance, content) signs in to the console with its
//!   password **and** a code ([`Accounts::staff_login`]); the session it opens is flagged
//!   `second_factor` and is shorter than a player's. The console admits no other session.
//! - A staff account enrols once ([`Accounts::staff_enrol`], after the right password): the
//!   secret is pending until the first code signs in with it; enrolling again replaces a
//!   pending secret and is refused (145) once confirmed — the operator resets it
//!   (`carthage user totp-reset`).
//! - A code signs in once: the accepting `UPDATE` is conditioned on `last_step < step`, so a
//!   replayed code, or two sign-ins racing with one code, get 143 — whatever instance they hit.
//! - A wrong code counts as a failed sign-in (the account's lockout and slow-down, limits.rs).

use crate::limits::Outcome;
use crate::{db_err, field_error, Accounts, Client, LoginKind, SignedIn, User};
use kernel::clock::now_ms;
use kernel::{AppError, ErrorCode};
use rand::Rng;
use store::sqlx::{self, Row};
use subtle::ConstantTimeEq;
use totp_rs::{Algorithm, Secret, TOTP};

pub const STEP_SECONDS: i64 = 30;
pub const DIGITS: usize = 6;
/// Steps either side of now whose code is still taken (a phone's clock a little off).
pub const SKEW_STEPS: i64 = 1;
/// The issuer an authenticator app shows beside the account.
pub const ISSUER: &str = "Carthage";

/// A new secret: 160 bits from the OS (RFC 4226 §4 recommends 160), base32 without padding.
pub fn new_secret() -> String {
    let bytes: [u8; 20] = rand::rngs::OsRng.gen();
    Secret::Raw(bytes.to_vec()).to_encoded().to_string()
}

fn totp(secret: &str, account: &str) -> Option<TOTP> {
    let bytes = Secret::Encoded(secret.to_string()).to_bytes().ok()?;
    // `new` refuses secrets under 128 bits and names with ':' (the URI's separator).
    let account = account.replace(':', "_");
    TOTP::new(Algorithm::SHA1, DIGITS, SKEW_STEPS as u8, STEP_SECONDS as u64, bytes, Some(ISSUER.into()), account).ok()
}

/// Whether `secret` is a base32 secret of at least 128 bits.
pub fn secret_is_valid(secret: &str) -> bool {
    totp(secret, "check").is_some()
}

/// The `otpauth://totp/…` URI an authenticator app scans (as a QR code) or takes pasted.
pub fn otpauth_uri(secret: &str, account: &str) -> Option<String> {
    Some(totp(secret, account)?.get_url())
}

/// The 30-second step `unix_ms` falls in.
pub fn step_at(unix_ms: i64) -> i64 {
    unix_ms.div_euclid(1000).div_euclid(STEP_SECONDS)
}

/// The code of `step` (what the authenticator app shows during it).
pub fn code_at_step(secret: &str, step: i64) -> Option<String> {
    Some(totp(secret, "check")?.generate((step.max(0) * STEP_SECONDS) as u64))
}

/// The steps within the skew of `now_step` whose code is `code`, oldest first. Every
/// candidate is compared (in constant time), whatever matched before.
pub fn matching_steps(secret: &str, code: &str, now_step: i64) -> Vec<i64> {
    let code = code.trim();
    if code.len() != DIGITS || !code.bytes().all(|b| b.is_ascii_digit()) {
        return Vec::new();
    }
    let mut found = Vec::new();
    for step in now_step - SKEW_STEPS..=now_step + SKEW_STEPS {
        if let Some(expected) = code_at_step(secret, step) {
            if bool::from(expected.as_bytes().ct_eq(code.as_bytes())) {
                found.push(step);
            }
        }
    }
    found
}

/// What enrolment hands the staff member: the secret (typed in by hand) and the URI (scanned).
#[derive(Debug, Clone)]
pub struct Enrolment {
    pub secret: String,
    pub otpauth_uri: String,
}

/// A staff user's authenticator, as stored.
struct Stored {
    secret: String,
    confirmed: bool,
    last_step: i64,
}

fn account_label(user: &User) -> String {
    user.email.clone().or_else(|| user.phone.clone()).unwrap_or_else(|| format!("user-{}", user.id))
}

impl Accounts {
    async fn stored_totp(&self, user_id: i64) -> Result<Option<Stored>, AppError> {
        let row = sqlx::query("SELECT secret, confirmed_at, last_step FROM staff_totp WHERE user_id = $1")
            .bind(user_id)
            .fetch_optional(self.db.writer())
            .await
            .map_err(db_err)?;
        Ok(row.map(|r| Stored {
            secret: r.get(0),
            confirmed: r.get::<Option<i64>, _>(1).is_some(),
            last_step: r.get(2),
        }))
    }

    /// The console's sign-in: password, then the code. Errors: those of the player sign-in
    /// (2, 3, 4, 5, 14, 16); 24 not a staff account; 144 not enrolled; 142 no code given;
    /// 143 a wrong or used code (a failed sign-in). The session is flagged `second_factor`
    /// and lives `staff_session_idle_ms` / `staff_session_absolute_ms`.
    pub async fn staff_login(&self, login: &str, password: &str, code: Option<&str>, client: &Client) -> Result<SignedIn, AppError> {
        let (user, attempt) = self.check_password(LoginKind::Universal, login, password, client).await?;
        let verdict = self.second_factor(&user, code, client).await;
        let outcome = match &verdict {
            Err(e) if e.code == ErrorCode::SecondFactorIncorrect => Outcome::WrongPassword,
            _ => Outcome::RightPassword,
        };
        let delay = self.limits.settle(attempt, outcome).await.map_err(db_err)?;
        if !delay.is_zero() {
            tokio::time::sleep(delay).await;
        }
        verdict?;
        self.start_session(user, client, true).await
    }

    /// Checks `code` for a staff user with the right password, taking its step.
    async fn second_factor(&self, user: &User, code: Option<&str>, client: &Client) -> Result<(), AppError> {
        if user.is_banned {
            self.revoke_all_sessions(user.id, None).await?;
            return Err(ErrorCode::UserBanned.into());
        }
        if !user.role.is_staff() {
            return Err(ErrorCode::Forbidden.into());
        }
        let Some(stored) = self.stored_totp(user.id).await? else {
            return Err(ErrorCode::SecondFactorNotEnrolled.into());
        };
        let Some(code) = code.map(str::trim).filter(|c| !c.is_empty()) else {
            // A pending secret is confirmed by its first code: without one, enrol (again).
            let missing = if stored.confirmed { ErrorCode::SecondFactorRequired } else { ErrorCode::SecondFactorNotEnrolled };
            return Err(missing.into());
        };
        let incorrect = || field_error(ErrorCode::SecondFactorIncorrect, "code", crate::validate::Reason::CodeMismatch);
        let now = now_ms();
        let Some(step) = matching_steps(&stored.secret, code, step_at(now)).into_iter().find(|s| *s > stored.last_step) else {
            return Err(incorrect());
        };
        // The step is taken once, whichever sign-in (on whichever instance) gets here first;
        // the secret is part of the condition, so a code of a replaced pending secret fails.
        // The sign-in is in the audit trail, in the same transaction.
        let mut tx = self.db.writer().begin().await.map_err(db_err)?;
        let taken = sqlx::query(
            "UPDATE staff_totp SET last_step = $1, confirmed_at = COALESCE(confirmed_at, $2) \
             WHERE user_id = $3 AND secret = $4 AND last_step < $1",
        )
        .bind(step)
        .bind(now)
        .bind(user.id)
        .bind(&stored.secret)
        .execute(&mut *tx)
        .await
        .map_err(db_err)?
        .rows_affected();
        if taken != 1 {
            return Err(incorrect());
        }
        let actor = format!("{}:{}", user.role.name(), user.id);
        let details = serde_json::json!({ "ip": client.ip, "authenticatorConfirmed": !stored.confirmed }).to_string();
        let record = store::audit::Record { actor: &actor, action: "staff.sign_in", subject: &format!("user:{}", user.id), details: &details };
        store::audit::append(&mut tx, &record, now).await.map_err(db_err)?;
        tx.commit().await.map_err(db_err)?;
        Ok(())
    }

    /// Enrolment after the right password: a new pending secret (replacing a pending one).
    /// Errors: those of the sign-in; 24 not a staff account; 145 already confirmed.
    pub async fn staff_enrol(&self, login: &str, password: &str, client: &Client) -> Result<Enrolment, AppError> {
        let (user, attempt) = self.check_password(LoginKind::Universal, login, password, client).await?;
        self.limits.settle(attempt, Outcome::RightPassword).await.map_err(db_err)?;
        if user.is_banned {
            return Err(ErrorCode::UserBanned.into());
        }
        if !user.role.is_staff() {
            return Err(ErrorCode::Forbidden.into());
        }
        let secret = new_secret();
        let now = now_ms();
        // Replaces only a pending secret: a confirmed one stays (145) even against a race.
        let changed = sqlx::query(
            "INSERT INTO staff_totp (user_id, secret, created_at, confirmed_at, last_step) VALUES ($1, $2, $3, NULL, 0) \
             ON CONFLICT (user_id) DO UPDATE SET secret = excluded.secret, created_at = excluded.created_at \
             WHERE staff_totp.confirmed_at IS NULL",
        )
        .bind(user.id)
        .bind(&secret)
        .bind(now)
        .execute(self.db.writer())
        .await
        .map_err(db_err)?
        .rows_affected();
        if changed != 1 {
            return Err(ErrorCode::SecondFactorEnrolled.into());
        }
        let otpauth_uri = otpauth_uri(&secret, &account_label(&user)).ok_or(ErrorCode::Internal)?;
        Ok(Enrolment { secret, otpauth_uri })
    }

    /// Sets a confirmed secret (the demo seed's fixed one; an operator's import). Idempotent.
    pub async fn set_confirmed_totp(&self, user_id: i64, secret: &str) -> Result<(), AppError> {
        if !secret_is_valid(secret) {
            return Err(AppError::with_detail(ErrorCode::BadRequest, "a base32 secret of at least 128 bits"));
        }
        let now = now_ms();
        sqlx::query(
            "INSERT INTO staff_totp (user_id, secret, created_at, confirmed_at, last_step) VALUES ($1, $2, $3, $3, 0) \
             ON CONFLICT (user_id) DO UPDATE SET secret = excluded.secret, confirmed_at = COALESCE(staff_totp.confirmed_at, excluded.confirmed_at) \
             WHERE staff_totp.secret <> excluded.secret OR staff_totp.confirmed_at IS NULL",
        )
        .bind(user_id)
        .bind(secret)
        .bind(now)
        .execute(self.db.writer())
        .await
        .map_err(db_err)?;
        Ok(())
    }

    /// Removes a staff user's authenticator (a lost phone): they enrol again at their next
    /// sign-in, and their console sessions end — with the audit record, in one transaction.
    /// True when there was one.
    pub async fn reset_totp(&self, user_id: i64, actor: &str, reason: &str) -> Result<bool, AppError> {
        let now = now_ms();
        let mut tx = self.db.writer().begin().await.map_err(db_err)?;
        let removed = sqlx::query("DELETE FROM staff_totp WHERE user_id = $1")
            .bind(user_id)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?
            .rows_affected();
        sqlx::query("UPDATE sessions SET revoked_at = $1 WHERE user_id = $2 AND second_factor = 1 AND revoked_at IS NULL")
            .bind(now)
            .bind(user_id)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
        let details = serde_json::json!({ "reason": reason, "hadAuthenticator": removed == 1 }).to_string();
        let record = store::audit::Record { actor, action: "staff.totp_reset", subject: &format!("user:{user_id}"), details: &details };
        store::audit::append(&mut tx, &record, now).await.map_err(db_err)?;
        tx.commit().await.map_err(db_err)?;
        Ok(removed == 1)
    }

    /// Ends the console session of `token`, and only a console session: a player-app session
    /// named by the same header (a staff member's, a player's) is not the console's to end.
    pub async fn logout_console(&self, token: &str) -> Result<(), AppError> {
        sqlx::query("UPDATE sessions SET revoked_at = $1 WHERE token_hash = $2 AND revoked_at IS NULL AND second_factor = 1")
            .bind(now_ms())
            .bind(crate::sha256_hex(token))
            .execute(self.db.writer())
            .await
            .map_err(db_err)?;
        Ok(())
    }

    /// Whether the live session `session_id` was opened with the second factor.
    pub async fn session_has_second_factor(&self, session_id: i64) -> Result<bool, AppError> {
        let row = sqlx::query("SELECT second_factor FROM sessions WHERE id = $1")
            .bind(session_id)
            .fetch_optional(self.db.reader())
            .await
            .map_err(db_err)?;
        Ok(row.is_some_and(|r| r.get::<i32, _>(0) == 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // RFC 6238 appendix B, SHA-1, secret "12345678901234567890" (8 digits there; the low 6
    // digits are the 6-digit code).
    const RFC_SECRET: &str = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";

    #[test]
    fn codes_match_the_rfc_6238_test_vectors() {
        for (t, eight) in [(59i64, "94287082"), (1111111109, "07081804"), (1111111111, "14050471"), (1234567890, "89005924"), (2000000000, "69279037")] {
            assert_eq!(code_at_step(RFC_SECRET, t / 30).as_deref(), Some(&eight[2..]), "t = {t}");
        }
    }

    #[test]
    fn a_code_matches_its_step_and_its_neighbours_only() {
        let secret = new_secret();
        assert!(secret_is_valid(&secret) && secret.len() == 32, "{secret}");
        let now = step_at(1_800_000_000_000);
        let code = code_at_step(&secret, now).unwrap();
        assert!(matching_steps(&secret, &code, now).contains(&now));
        assert!(matching_steps(&secret, &code, now + 1).contains(&now), "a code of the step before is taken");
        assert!(matching_steps(&secret, &code, now - 1).contains(&now), "a code of the next step is taken");
        assert!(!matching_steps(&secret, &code, now + 2).contains(&now), "two steps later it is not");
        for bad in ["", "12345", "1234567", "12a456", " ", "１２３４５６"] {
            assert!(matching_steps(&secret, bad, now).is_empty(), "{bad:?}");
        }
        assert!(!secret_is_valid("JBSWY3DP"), "under 128 bits");
        assert!(!secret_is_valid("not base32!"));
    }

    #[test]
    fn the_uri_names_the_issuer_and_the_account() {
        let uri = otpauth_uri(RFC_SECRET, "admin@carthage.local").unwrap();
        assert!(uri.starts_with("otpauth://totp/Carthage:admin%40carthage.local?"), "{uri}");
        assert!(uri.contains("secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ") && uri.contains("issuer=Carthage"), "{uri}");
    }

    #[test]
    fn steps_are_30_seconds() {
        assert_eq!(step_at(0), 0);
        assert_eq!(step_at(29_999), 0);
        assert_eq!(step_at(30_000), 1);
        assert_eq!(step_at(59_000), 1);
    }
}
