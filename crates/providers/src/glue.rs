//! What every adapter does with the wallet once a call is verified and parsed: find the
//! session (by the token the provider holds, or by the player it names), check the player
//! named is the session's, and run one wallet command. The money rules stay in
//! `casino::ProviderWallet`; these are only the common steps of a translation.

use crate::Ctx;
use casino::{GameSession, RollbackCall, WalletCall, WalletReply};
use kernel::clock::now_ms;
use kernel::{AppError, ErrorCode};

/// One money call, parsed: amounts are minor units of the session's currency.
#[derive(Debug, Clone)]
pub struct Money<'a> {
    pub tx: &'a str,
    pub round: &'a str,
    pub game: &'a str,
    pub amount: i64,
}

impl Money<'_> {
    fn call(&self, s: &GameSession) -> WalletCall {
        WalletCall {
            session_token: String::new(),
            transaction_id: self.tx.to_string(),
            round_id: self.round.to_string(),
            game_id: self.game.to_string(),
            amount: self.amount,
            currency: s.currency.code().to_string(),
        }
    }
}

impl Ctx {
    /// The session a provider's token names (live or not: settlements are honoured after
    /// expiry; stakes are checked by the wallet). Another provider's token is unknown (63).
    pub async fn session(&self, provider: &str, token: &str) -> Result<GameSession, AppError> {
        if token.is_empty() || token.len() > 200 {
            return Err(AppError::new(ErrorCode::GameSessionInvalid));
        }
        let s = self.casino.sessions().find(token).await?;
        if s.provider != provider {
            return Err(AppError::new(ErrorCode::GameSessionInvalid));
        }
        Ok(s)
    }

    /// A live session for a login-style call (authenticate, check, player details).
    pub async fn live_session(&self, provider: &str, token: &str) -> Result<GameSession, AppError> {
        let s = self.session(provider, token).await?;
        if !s.is_live(now_ms()) {
            return Err(AppError::new(ErrorCode::GameSessionInvalid));
        }
        Ok(s)
    }

    /// The latest session of the player a provider names by our user id (dialects whose
    /// money calls carry no token, e.g. Pragmatic's).
    pub async fn player_session(&self, provider: &str, user: &str) -> Result<GameSession, AppError> {
        let id: i64 = user.trim().parse().map_err(|_| AppError::new(ErrorCode::NoSuchUser))?;
        self.casino.sessions().latest(id, provider).await?.ok_or_else(|| AppError::new(ErrorCode::NoSuchUser))
    }

    /// The session of a call that carries both a token and the player's id: the token's
    /// session, which must be that player's (72 otherwise: a token used in another's name).
    pub async fn session_of(&self, provider: &str, token: &str, user: &str) -> Result<GameSession, AppError> {
        let s = self.session(provider, token).await?;
        same_player(&s, user)?;
        Ok(s)
    }

    /// The player's real balance now (minor units).
    pub async fn balance(&self, s: &GameSession) -> Result<i64, AppError> {
        Ok(self.casino.wallet().ledger().balance(s.user_id, wallet::BalanceKind::Real, s.currency).await?)
    }

    pub async fn bet(&self, provider: &str, s: &GameSession, m: &Money<'_>) -> Result<WalletReply, AppError> {
        self.casino.wallet().bet_with(provider, s.clone(), &m.call(s)).await
    }

    pub async fn win(&self, provider: &str, s: &GameSession, m: &Money<'_>) -> Result<WalletReply, AppError> {
        self.casino.wallet().win_with(provider, s, &m.call(s)).await
    }

    /// A credit outside any round of the player's (a promotion): see `ProviderWallet::award_with`.
    pub async fn award(&self, provider: &str, s: &GameSession, m: &Money<'_>) -> Result<WalletReply, AppError> {
        self.casino.wallet().award_with(provider, s, &m.call(s)).await
    }

    /// Cancels `of` with the rollback's own id `tx`. An unknown `of` leaves a tombstone
    /// (the reply's `ledger_tx_id` is `None`); a repeat answers the first reversal
    /// (`replayed`).
    pub async fn rollback(&self, provider: &str, s: &GameSession, tx: &str, of: &str, round: &str, game: &str) -> Result<WalletReply, AppError> {
        let call = RollbackCall {
            session_token: String::new(),
            transaction_id: tx.to_string(),
            reference_transaction_id: of.to_string(),
            round_id: round.to_string(),
            game_id: game.to_string(),
        };
        self.casino.wallet().rollback_with(provider, s, &call).await
    }

    /// The balance to answer with: a replayed call answers the player's balance now (the
    /// dialects that replay-as-success all say "current balance").
    pub async fn answer_balance(&self, s: &GameSession, reply: &WalletReply) -> Result<i64, AppError> {
        if reply.replayed {
            self.balance(s).await
        } else {
            Ok(reply.balance)
        }
    }

    /// Whether the provider transaction `tx` exists (posted or tombstoned) and what it is, as
    /// committed (the readers' pool: never queued behind the ledger's writer).
    pub async fn lookup(&self, provider: &str, tx: &str) -> Result<Option<wallet::PostedTx>, AppError> {
        Ok(self.casino.wallet().ledger().lookup_committed(&casino::wallet::ledger_key(provider, tx)).await?)
    }
}

/// The player a provider names (our user id as text) must be the session's.
pub fn same_player(s: &GameSession, user: &str) -> Result<(), AppError> {
    if user.trim() != s.user_id.to_string() {
        return Err(AppError::new(ErrorCode::TransactionMismatch));
    }
    Ok(())
}

/// Constant-time equality of two secrets or signatures (ASCII case-insensitive when
/// `fold_case`, for hex digests).
pub fn secure_eq(a: &str, b: &str, fold_case: bool) -> bool {
    use subtle::ConstantTimeEq;
    if fold_case {
        a.to_ascii_lowercase().as_bytes().ct_eq(b.to_ascii_lowercase().as_bytes()).into()
    } else {
        a.as_bytes().ct_eq(b.as_bytes()).into()
    }
}

/// Form parameters (`application/x-www-form-urlencoded`) decoded, in the order sent.
/// `None` when the text is not a form (bad percent-encoding or not UTF-8).
pub fn form_params(raw: &[u8]) -> Option<Vec<(String, String)>> {
    let text = std::str::from_utf8(raw).ok()?;
    let mut out = Vec::new();
    for pair in text.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        out.push((percent_decode(k)?, percent_decode(v)?));
    }
    Some(out)
}

/// `+` is a space; `%XX` a byte; the result must be UTF-8.
pub fn percent_decode(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = s.get(i + 1..i + 3)?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 2;
            }
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8(out).ok()
}

/// PHP's `urlencode` (RFC 1738: a space is `+`; `-_.` unreserved), as `http_build_query`
/// writes values — the form Slotegrator and Pragmatic clients sign and send.
pub fn form_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b' ' => out.push('+'),
            b if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.') => out.push(b as char),
            b => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// `k=v&k=v` of pairs, form-encoded.
pub fn form_body(pairs: &[(String, String)]) -> String {
    pairs.iter().map(|(k, v)| format!("{}={}", form_encode(k), form_encode(v))).collect::<Vec<_>>().join("&")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms_round_trip() {
        let pairs = vec![("a b".to_string(), "x+y=z&é".to_string()), ("empty".into(), String::new())];
        let body = form_body(&pairs);
        assert_eq!(body, "a+b=x%2By%3Dz%26%C3%A9&empty=");
        assert_eq!(form_params(body.as_bytes()).unwrap(), pairs);
        assert!(form_params(b"a=%zz").is_none());
        assert!(form_params(b"a=%C3").is_none());
    }

    #[test]
    fn secure_eq_folds_hex_case_only_when_asked() {
        assert!(secure_eq("ABCDEF", "abcdef", true));
        assert!(!secure_eq("ABCDEF", "abcdef", false));
        assert!(!secure_eq("abc", "abcd", true));
    }
}
