-- Issue 18 item 3: a result settles only the fixture it is about. The simulator reused
-- event ids (`sim:match:N`) after a restart, and results were copied onto legs by (event,
-- market, outcome) alone, so a new match's results resettled bets long settled on an old
-- one. A fixture is now its event id with its start time (the leg keeps the start time it
-- was placed on; a feed's fixture_change that moves the start moves it along), and every
-- simulator run takes a number from this table, never handed out twice, for its event ids
-- (`sim:match:{run}-{n}`).
CREATE TABLE sb_sim_runs (
    run BIGINT PRIMARY KEY,
    seed BIGINT NOT NULL,
    started_at BIGINT NOT NULL
);

-- Results are kept per fixture: a reused event id no longer "corrects" another fixture's
-- results. Rows from before carry start_time 0.
CREATE TABLE sb_fixture_results (
    event_id TEXT NOT NULL,
    start_time BIGINT NOT NULL,
    market_key TEXT NOT NULL,
    outcome_id TEXT NOT NULL,
    result TEXT NOT NULL,
    version BIGINT NOT NULL,
    received_at BIGINT NOT NULL,
    PRIMARY KEY (event_id, start_time, market_key, outcome_id)
);
INSERT INTO sb_fixture_results (event_id, start_time, market_key, outcome_id, result, version, received_at)
    SELECT event_id, 0, market_key, outcome_id, result, version, received_at FROM sb_results;
DROP TABLE sb_results;

CREATE INDEX sb_bet_legs_fixture ON sb_bet_legs (event_id, start_time);
