-- Issue 19: provably fair must-drop jackpots (docs/PROMOTIONS.md "Jackpots"). The pool's
-- server seed and drop point stay secret until the drop; their SHA-256 commitment is public
-- from the moment the cycle starts. Contributions are rows written in the stake's transaction
-- (with a ledger posting each); one folder adds them to the pool in id order.
CREATE TABLE jackpot_pools (
    id TEXT PRIMARY KEY,
    num BIGINT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    currency TEXT NOT NULL,
    seed_amount BIGINT NOT NULL,
    cap BIGINT NOT NULL,
    share_bps BIGINT NOT NULL,
    image TEXT NOT NULL DEFAULT '',
    cycle BIGINT NOT NULL,
    amount BIGINT NOT NULL,
    server_seed TEXT NOT NULL,
    seed_hash TEXT NOT NULL,
    drop_point BIGINT NOT NULL,
    cycle_started_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);

CREATE TABLE jackpot_contributions (
    id BIGINT PRIMARY KEY,
    pool TEXT NOT NULL,
    user_id BIGINT NOT NULL,
    tx_id BIGINT NOT NULL,
    amount BIGINT NOT NULL,
    folded BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL
);
CREATE INDEX jackpot_contributions_unfolded ON jackpot_contributions (pool, folded, id);

-- One row per drop (unique per pool and cycle): the winner, what was paid, and everything
-- needed to verify the drop point (the revealed seed, the commitment, seed amount and cap).
CREATE TABLE jackpot_wins (
    id BIGINT PRIMARY KEY,
    pool TEXT NOT NULL,
    cycle BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    amount BIGINT NOT NULL,
    currency TEXT NOT NULL,
    contribution_id BIGINT NOT NULL,
    server_seed TEXT NOT NULL,
    seed_hash TEXT NOT NULL,
    seed_amount BIGINT NOT NULL,
    cap BIGINT NOT NULL,
    drop_point BIGINT NOT NULL,
    shown BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    UNIQUE (pool, cycle)
);
CREATE INDEX jackpot_wins_by_user ON jackpot_wins (user_id, shown);
CREATE INDEX jackpot_wins_by_time ON jackpot_wins (created_at);
