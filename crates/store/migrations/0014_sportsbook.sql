-- Our sportsbook (issue 12): bets, their legs, and the results the feed published.
-- A bet's money is ledger postings keyed by the bet (stake `sb:{id}:stake`, payout
-- `sb:{id}:payout`, resettlements `sb:{id}:resettle:{version}`); these rows say what the
-- bet is and where it stands.
CREATE TABLE sb_bets (
    id BIGINT PRIMARY KEY,
    user_id BIGINT NOT NULL,
    -- The client's idempotency key: one bet per (player, key).
    client_key TEXT NOT NULL,
    -- SHA-256 of the request as sent: the same key with another request is refused (26).
    request_hash TEXT NOT NULL,
    currency TEXT NOT NULL,
    -- single | express
    kind TEXT NOT NULL,
    -- real | bonus | free_bet
    funding TEXT NOT NULL,
    stake BIGINT NOT NULL,
    -- Thousandths, floored (display); payouts use the exact product of the legs' odds.
    total_odds BIGINT NOT NULL,
    potential_payout BIGINT NOT NULL,
    -- placing (stake not yet posted) | open | rejected | won | lost | void | half_won |
    -- half_lost | part_won | cancelled
    status TEXT NOT NULL,
    -- What the bet has returned so far (stake included), after resettlements.
    payout BIGINT NOT NULL DEFAULT 0,
    -- 0 until settled; each resettlement adds one.
    settle_version BIGINT NOT NULL DEFAULT 0,
    -- A resettlement that could not be posted (the player's balance is short): retried.
    needs_review BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    settled_at BIGINT,
    UNIQUE (user_id, client_key)
);
CREATE INDEX sb_bets_user_created ON sb_bets (user_id, created_at);
CREATE INDEX sb_bets_status ON sb_bets (status, created_at);

CREATE TABLE sb_bet_legs (
    bet_id BIGINT NOT NULL,
    idx BIGINT NOT NULL,
    event_id TEXT NOT NULL,
    market_key TEXT NOT NULL,
    outcome_id TEXT NOT NULL,
    -- The odds accepted (thousandths) and those the player had seen.
    odds BIGINT NOT NULL,
    requested_odds BIGINT NOT NULL,
    live BIGINT NOT NULL,
    -- What the player saw, kept for the bet history after the line moves on.
    event_name TEXT NOT NULL,
    market_name TEXT NOT NULL,
    outcome_name TEXT NOT NULL,
    sport_id TEXT NOT NULL,
    tournament_name TEXT NOT NULL,
    start_time BIGINT NOT NULL,
    -- The feed's result for this outcome (JSON OutcomeResult), null while undecided.
    result TEXT,
    PRIMARY KEY (bet_id, idx)
);
CREATE INDEX sb_bet_legs_selection ON sb_bet_legs (event_id, market_key, outcome_id);

-- Every outcome result the feed published; a correction replaces it and bumps `version`.
CREATE TABLE sb_results (
    event_id TEXT NOT NULL,
    market_key TEXT NOT NULL,
    outcome_id TEXT NOT NULL,
    result TEXT NOT NULL,
    version BIGINT NOT NULL,
    received_at BIGINT NOT NULL,
    PRIMARY KEY (event_id, market_key, outcome_id)
);
