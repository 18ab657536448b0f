-- Rate limits shared by every instance (crates/accounts/src/limits.rs): one row per key
-- (`la:` sign-in failures per account, `li:` per IP, `pi:` unknown-account probes per IP,
-- `sa:`/`si:` SMS and e-mail sends per address and per IP). A row is a GCRA bucket, the
-- algorithm governor used in memory: tat_ms is the theoretical arrival time; a take is
-- allowed when max(tat_ms, now) + period_ms - now <= period_ms * burst, in one conditional
-- upsert (INSERT … ON CONFLICT DO UPDATE … WHERE … RETURNING), so two instances racing
-- cannot both take the last cell. failures / failed_at_ms count the account's recent failed
-- sign-ins (the slow-down before the lock). A row is useless once tat_ms and failed_at_ms
-- are past: housekeeping deletes it.
CREATE TABLE rate_limits (
    key TEXT PRIMARY KEY,
    tat_ms BIGINT NOT NULL,
    period_ms BIGINT NOT NULL,
    burst BIGINT NOT NULL,
    failures BIGINT NOT NULL DEFAULT 0,
    failed_at_ms BIGINT NOT NULL DEFAULT 0
);
