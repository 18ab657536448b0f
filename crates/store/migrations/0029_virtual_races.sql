-- The studio's own virtual races (docs/VIRTUALS.md): horses, greyhounds, speedway.
-- Money is never here: stakes and wins are ledger postings through the provider wallet
-- (provider studio, keys prov:studio:vr:{bet}:bet|win|void). A race row holds its seed,
-- field, prices and finishing order from the moment it is scheduled (persist before reveal);
-- the API shows the seed and the order only once betting has closed.

-- A hash chain: c_0 (secret, hex) and its length N; c_N (terminating hash) and the salt are public.
CREATE TABLE virtual_chains (
    id BIGINT PRIMARY KEY,
    seed TEXT NOT NULL,
    length BIGINT NOT NULL,
    terminating_hash TEXT NOT NULL,
    salt TEXT NOT NULL,
    checkpoint_every BIGINT NOT NULL,
    active BIGINT NOT NULL DEFAULT 1,
    created_at BIGINT NOT NULL
);

-- c_k for k = 0, K, 2K, …
CREATE TABLE virtual_chain_checkpoints (
    chain_id BIGINT NOT NULL REFERENCES virtual_chains(id),
    position BIGINT NOT NULL,
    hash TEXT NOT NULL,
    PRIMARY KEY (chain_id, position)
);

-- One row (id 1): races are scheduled up to this time (epoch ms). Every scheduling pass
-- numbers the races it adds after every race already scheduled, in order of betting close.
CREATE TABLE virtual_schedule (
    id BIGINT PRIMARY KEY,
    scheduled_until BIGINT NOT NULL
);

-- phase: open (betting), running (closed: result public, shown), settled.
-- runners: JSON [{number, name, strength}]; prices: JSON {win, place, forecast} in hundredths;
-- result: JSON finishing order (runner numbers, winner first).
CREATE TABLE virtual_races (
    id BIGINT PRIMARY KEY,
    sport TEXT NOT NULL,
    chain_id BIGINT NOT NULL REFERENCES virtual_chains(id),
    number BIGINT NOT NULL,
    seed TEXT NOT NULL,
    commit_hash TEXT NOT NULL,
    runners TEXT NOT NULL,
    places BIGINT NOT NULL,
    overround BIGINT NOT NULL,
    prices TEXT NOT NULL,
    result TEXT NOT NULL,
    phase TEXT NOT NULL,
    opens_at BIGINT NOT NULL,
    closes_at BIGINT NOT NULL,
    finishes_at BIGINT NOT NULL,
    settled_at BIGINT,
    created_at BIGINT NOT NULL,
    CONSTRAINT virtual_races_number UNIQUE (chain_id, number),
    CONSTRAINT virtual_races_slot UNIQUE (sport, closes_at)
);
CREATE INDEX virtual_races_phase ON virtual_races (phase, closes_at);

-- status: placing (written before the stake), open, won, lost, refused (stake never
-- landed), void (stake returned).
CREATE TABLE virtual_bets (
    id BIGINT PRIMARY KEY,
    race_id BIGINT NOT NULL REFERENCES virtual_races(id),
    user_id BIGINT NOT NULL,
    session_id BIGINT NOT NULL,
    client_key TEXT NOT NULL,
    currency TEXT NOT NULL,
    kind TEXT NOT NULL,
    selection TEXT NOT NULL,
    price BIGINT NOT NULL,
    stake BIGINT NOT NULL,
    status TEXT NOT NULL,
    win BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    settled_at BIGINT,
    CONSTRAINT virtual_bets_key UNIQUE (user_id, client_key)
);
CREATE INDEX virtual_bets_race ON virtual_bets (race_id, status);
CREATE INDEX virtual_bets_player ON virtual_bets (user_id, id);
