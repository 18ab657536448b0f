-- Issue 19: the standing deposit bonus is opt-in (a bonus locks withdrawals behind its
-- wagering, so the player chooses it). One row per player who ever chose; no row = off.
-- A deposit qualifies when it was credited while the choice was on: at or after `enabled_at`
-- and, once turned off again, before `disabled_at` (NULL while on).
CREATE TABLE deposit_bonus_choices (
    user_id BIGINT PRIMARY KEY,
    enabled INTEGER NOT NULL,
    enabled_at BIGINT,
    disabled_at BIGINT,
    updated_at BIGINT NOT NULL
);
