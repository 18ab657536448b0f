-- Report rollups (issue 22 "Reports"; crates/wallet/src/rollup.rs, docs/BACKOFFICE.md
-- "Reports"): written by the ledger's group-commit writers in the postings' own transaction,
-- so a report reads sums, never the ledger.
--
-- One row per operator day (days since 1970-01-01 in Tunis, UTC+1), currency, transaction
-- type, product, provider and game ('' = the provider's total, which the GGR report reads)
-- and writer shard (two PostgreSQL writers never update the same row; reports sum shards).
CREATE TABLE report_daily (
    day BIGINT NOT NULL,
    currency TEXT NOT NULL,
    tx_type BIGINT NOT NULL,
    product TEXT NOT NULL,
    provider TEXT NOT NULL,
    game TEXT NOT NULL,
    shard BIGINT NOT NULL,
    -- Postings (a rollback counts -1 against the posting it cancels).
    postings BIGINT NOT NULL,
    -- What the players' balances gave the house (a stake +, a win -), every balance kind.
    amount BIGINT NOT NULL,
    -- The same, real-money balances only.
    real_amount BIGINT NOT NULL,
    -- Gross flow: the sum of the postings' credits.
    volume BIGINT NOT NULL,
    PRIMARY KEY (game, day, currency, tx_type, product, provider, shard)
);

-- Players who staked on a day (one row each), and how many per day and shard.
CREATE TABLE report_player_days (
    day BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    PRIMARY KEY (day, user_id)
);
CREATE TABLE report_actives (
    day BIGINT NOT NULL,
    shard BIGINT NOT NULL,
    players BIGINT NOT NULL,
    PRIMARY KEY (day, shard)
);

-- Whether the rollups cover the whole ledger. A database with postings made before this
-- migration is rebuilt once at start (`wallet::rollup::ensure_built`); an empty one is
-- marked built here.
CREATE TABLE report_state (
    id BIGINT PRIMARY KEY,
    built_at BIGINT NOT NULL
);
INSERT INTO report_state (id, built_at) SELECT 1, 0 WHERE NOT EXISTS (SELECT 1 FROM ledger_transactions);
