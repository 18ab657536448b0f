-- Responsible gambling (issue 11 §1, docs/PAYMENTS.md "Responsible gambling").

-- The play blocks, on the user row so that every sign-in, session check and stake reads
-- them with the row it already reads (no extra query per stake). Epoch ms; NULL: none.
-- A permanent self-exclusion is 9223372036854775807 (i64::MAX). A block ends by itself
-- when its time passes; it is never shortened (a new one can only extend it).
ALTER TABLE users ADD COLUMN self_excluded_until BIGINT;
ALTER TABLE users ADD COLUMN cool_off_until BIGINT;

-- Per-player settings: the reality-check interval (minutes; 0 = off).
CREATE TABLE rg_settings (
    user_id BIGINT PRIMARY KEY,
    reality_check_minutes BIGINT NOT NULL DEFAULT 0,
    updated_at BIGINT NOT NULL
);

-- Deposit limits, one row per (player, period: day | week | month), in the player's
-- currency (minor units). `amount` is the limit in force (NULL: none). A raise or a
-- removal waits 24 h: `pending_set` = 1 with `pending_amount` (NULL: removal) taking
-- effect at `pending_from`. A decrease applies at once and cancels a pending raise.
CREATE TABLE rg_deposit_limits (
    user_id BIGINT NOT NULL,
    period TEXT NOT NULL,
    currency TEXT NOT NULL,
    amount BIGINT,
    pending_set BIGINT NOT NULL DEFAULT 0,
    pending_amount BIGINT,
    pending_from BIGINT,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, period)
);

-- The audit trail regulators ask for: every change a player made (limits, blocks,
-- reality check), with its values as JSON.
CREATE TABLE rg_events (
    id BIGINT PRIMARY KEY,
    user_id BIGINT NOT NULL,
    kind TEXT NOT NULL,
    detail TEXT NOT NULL DEFAULT '{}',
    created_at BIGINT NOT NULL
);
CREATE INDEX rg_events_user ON rg_events (user_id, created_at);
