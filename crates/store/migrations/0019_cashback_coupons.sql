-- Issue 19: weekly cashback and the coupon machine (docs/PROMOTIONS.md).

-- A player's weekly cashback for one ISO week (operator's zone): what they staked and got back
-- in real money, and the cashback the week's tiers give. Accrued hourly for the current week;
-- `frozen` once the week has ended and the payer computed it (a late accrual never changes it);
-- `paid_at` once its posting (key `wcb:{period}:{user_id}`) is in the ledger.
CREATE TABLE weekly_cashback (
    period TEXT NOT NULL,
    user_id BIGINT NOT NULL,
    currency TEXT NOT NULL,
    staked BIGINT NOT NULL,
    returned BIGINT NOT NULL,
    amount BIGINT NOT NULL,
    frozen BIGINT NOT NULL DEFAULT 0,
    paid_at BIGINT,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (period, user_id)
);
CREATE INDEX weekly_cashback_unpaid ON weekly_cashback (period, paid_at, user_id);

-- One row per week the payer has worked on: computed (every player's amount frozen), then
-- finished (every amount paid).
CREATE TABLE weekly_cashback_runs (
    period TEXT PRIMARY KEY,
    computed_at BIGINT,
    finished_at BIGINT,
    players BIGINT NOT NULL DEFAULT 0,
    paid BIGINT NOT NULL DEFAULT 0,
    total BIGINT NOT NULL DEFAULT 0,
    updated_at BIGINT NOT NULL
);

-- The coupon machine: a player's machine (the spec's `main` coupon), created on first use.
CREATE TABLE coupon_machines (
    user_id BIGINT PRIMARY KEY,
    id BIGINT NOT NULL UNIQUE,
    seq BIGINT NOT NULL UNIQUE,
    number TEXT NOT NULL,
    activated_at BIGINT NOT NULL
);

-- Coupons: one when a day's casino spins reach the limit, at most one a day per player (the
-- unique index decides), numbered by `seq`.
CREATE TABLE coupons (
    id BIGINT PRIMARY KEY,
    user_id BIGINT NOT NULL,
    day TEXT NOT NULL,
    seq BIGINT NOT NULL UNIQUE,
    number TEXT NOT NULL UNIQUE,
    main_id BIGINT NOT NULL,
    spins BIGINT NOT NULL,
    issued_at BIGINT NOT NULL,
    CONSTRAINT coupons_one_a_day UNIQUE (user_id, day)
);
CREATE INDEX coupons_by_issue ON coupons (issued_at);

-- Coupon draws: SHA-256 of the seed published when announced; at the draw the coupons issued
-- before the announcement take part (their numbers kept), the winners are drawn by
-- `promotions::coupons::draw` and the seed revealed, so anyone can recompute them.
CREATE TABLE coupon_draws (
    id TEXT PRIMARY KEY,
    seed_hash TEXT NOT NULL,
    seed TEXT,
    winners_count BIGINT NOT NULL,
    numbers TEXT,
    winners TEXT,
    announced_at BIGINT NOT NULL,
    drawn_at BIGINT,
    created_by TEXT NOT NULL
);
