-- Issue 19: promotions (docs/PROMOTIONS.md). Money moves only through the ledger; these rows
-- record why (the grant, the wagering, the code) and are written in the posting's transaction.

-- Bonus templates: the terms a grant copies (validated against the operator's maximum
-- wagering multiple when created; a template is never edited, a new one replaces it).
CREATE TABLE bonus_templates (
    id BIGINT PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    product TEXT NOT NULL,
    currency TEXT NOT NULL,
    terms TEXT NOT NULL,
    active BIGINT NOT NULL DEFAULT 1,
    created_by TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

-- A player's bonus. `source_key` makes every grant idempotent (a registration, a deposit's
-- transaction, a code activation). States: queued → active → converted | forfeited | expired |
-- given_up; a wagered-through bonus is `met` until its conversion posting is written.
CREATE TABLE bonuses (
    id BIGINT PRIMARY KEY,
    user_id BIGINT NOT NULL,
    template_id BIGINT NOT NULL REFERENCES bonus_templates(id),
    product TEXT NOT NULL,
    currency TEXT NOT NULL,
    status TEXT NOT NULL,
    amount BIGINT NOT NULL,
    deposit BIGINT NOT NULL DEFAULT 0,
    required BIGINT NOT NULL,
    wagered BIGINT NOT NULL DEFAULT 0,
    max_bet BIGINT NOT NULL DEFAULT 0,
    max_conversion BIGINT NOT NULL DEFAULT 0,
    min_odds BIGINT NOT NULL DEFAULT 0,
    converted BIGINT NOT NULL DEFAULT 0,
    source TEXT NOT NULL,
    source_key TEXT NOT NULL UNIQUE,
    granted_at BIGINT NOT NULL,
    activated_at BIGINT,
    expires_at BIGINT,
    closed_at BIGINT
);
-- One open bonus per player and product, decided by the database.
CREATE UNIQUE INDEX bonuses_one_open ON bonuses (user_id, product) WHERE status IN ('active', 'met');
CREATE INDEX bonuses_by_user ON bonuses (user_id, status);

-- What each stake added to a bonus's wagering (taken back when the stake is rolled back).
CREATE TABLE bonus_wagering (
    bonus_id BIGINT NOT NULL REFERENCES bonuses(id),
    tx_id BIGINT NOT NULL,
    stake BIGINT NOT NULL,
    counted BIGINT NOT NULL,
    category TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (tx_id, bonus_id)
);
CREATE INDEX bonus_wagering_by_bonus ON bonus_wagering (bonus_id);

-- Promo codes (stored upper-case) and who activated them.
CREATE TABLE promo_codes (
    code TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    template_id BIGINT REFERENCES bonus_templates(id),
    free_bet_amount BIGINT NOT NULL DEFAULT 0,
    free_bet_count BIGINT NOT NULL DEFAULT 0,
    partner_id BIGINT,
    blocked BIGINT NOT NULL DEFAULT 0,
    valid_from BIGINT NOT NULL,
    valid_until BIGINT,
    max_uses BIGINT NOT NULL DEFAULT 0,
    uses BIGINT NOT NULL DEFAULT 0,
    new_players_only BIGINT NOT NULL DEFAULT 0,
    currency TEXT,
    min_deposits BIGINT NOT NULL DEFAULT 0,
    min_turnover BIGINT NOT NULL DEFAULT 0,
    created_by TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE TABLE promo_activations (
    code TEXT NOT NULL REFERENCES promo_codes(code),
    user_id BIGINT NOT NULL,
    activated_at BIGINT NOT NULL,
    PRIMARY KEY (code, user_id)
);
-- Wrong codes tried (2215 after too many within an hour).
CREATE TABLE promo_attempts (
    id BIGINT PRIMARY KEY,
    user_id BIGINT NOT NULL,
    at BIGINT NOT NULL
);
CREATE INDEX promo_attempts_by_user ON promo_attempts (user_id, at);

-- Free bets: granted inactive (no money moves), activated by the player into the free-bet
-- balance (a ledger posting), used by the sportsbook's free-bet funding, expired after 25 days.
CREATE TABLE free_bets (
    id BIGINT PRIMARY KEY,
    user_id BIGINT NOT NULL,
    currency TEXT NOT NULL,
    amount BIGINT NOT NULL,
    status TEXT NOT NULL,
    source_key TEXT NOT NULL UNIQUE,
    granted_at BIGINT NOT NULL,
    activated_at BIGINT,
    expires_at BIGINT NOT NULL
);
CREATE INDEX free_bets_by_user ON free_bets (user_id, status);
