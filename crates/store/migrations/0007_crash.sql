-- The multiplayer crash game (docs/CRASH.md): the hash chain, rounds and bets.
-- Money is never here: stakes and wins are ledger postings through the provider wallet
-- (keys prov:studio:crash:{round}:{user}:bet|win). A round row holds its hash and crash
-- point before anything is shown (persist before reveal).

-- A chain: c_0 (secret, hex) and its length N; c_N (terminating hash) is public.
CREATE TABLE crash_chains (
    id BIGINT PRIMARY KEY,
    seed TEXT NOT NULL,
    length BIGINT NOT NULL,
    terminating_hash TEXT NOT NULL,
    salt TEXT NOT NULL,
    checkpoint_every BIGINT NOT NULL,
    active BIGINT NOT NULL DEFAULT 1,
    created_at BIGINT NOT NULL
);

-- c_k for k = 0, K, 2K, … so a round hash is never more than K links away.
CREATE TABLE crash_chain_checkpoints (
    chain_id BIGINT NOT NULL REFERENCES crash_chains(id),
    position BIGINT NOT NULL,
    hash TEXT NOT NULL,
    PRIMARY KEY (chain_id, position)
);

-- phase: betting, running, ended (crashed), voided (interrupted in betting),
-- interrupted (interrupted while running; settled by the recovery rule).
CREATE TABLE crash_rounds (
    id BIGINT PRIMARY KEY,
    chain_id BIGINT NOT NULL REFERENCES crash_chains(id),
    number BIGINT NOT NULL,
    hash TEXT NOT NULL,
    crash_point BIGINT NOT NULL,
    phase TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    betting_ends_at BIGINT NOT NULL,
    started_at BIGINT,
    ended_at BIGINT,
    settled_at BIGINT,
    CONSTRAINT crash_rounds_number UNIQUE (chain_id, number)
);
CREATE INDEX crash_rounds_open ON crash_rounds (settled_at, id);
CREATE INDEX crash_rounds_history ON crash_rounds (phase, id);

-- status: placing (written before the stake), open, refused, cashed, lost, refunded.
CREATE TABLE crash_bets (
    round_id BIGINT NOT NULL REFERENCES crash_rounds(id),
    user_id BIGINT NOT NULL,
    session_id BIGINT NOT NULL,
    currency TEXT NOT NULL,
    amount BIGINT NOT NULL,
    auto_cash_out BIGINT,
    status TEXT NOT NULL,
    cashed_out_at BIGINT,
    win BIGINT NOT NULL DEFAULT 0,
    forced BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (round_id, user_id)
);
CREATE INDEX crash_bets_player ON crash_bets (user_id, round_id);
