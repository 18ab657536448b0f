-- The studio's single-player games: provably-fair seed pairs and rounds.
-- A round row holds its outcome before any money moves or anything is shown (persist
-- before reveal); settlement goes through the provider wallet (ledger keys prov:studio:…).

CREATE TABLE studio_seeds (
    id BIGINT PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users(id),
    server_seed TEXT NOT NULL,
    server_seed_hash TEXT NOT NULL,
    client_seed TEXT NOT NULL,
    next_nonce BIGINT NOT NULL DEFAULT 0,
    active BIGINT NOT NULL DEFAULT 1,
    created_at BIGINT NOT NULL,
    revealed_at BIGINT
);
CREATE UNIQUE INDEX studio_seeds_active ON studio_seeds (user_id) WHERE active = 1;

CREATE TABLE studio_rounds (
    id BIGINT PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users(id),
    session_id BIGINT NOT NULL,
    game_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    currency TEXT NOT NULL,
    bet BIGINT NOT NULL,
    win BIGINT NOT NULL,
    outcome TEXT NOT NULL,
    seed_id BIGINT NOT NULL REFERENCES studio_seeds(id),
    nonce BIGINT NOT NULL,
    status TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    settled_at BIGINT,
    CONSTRAINT studio_rounds_nonce UNIQUE (seed_id, nonce)
);
CREATE INDEX studio_rounds_player ON studio_rounds (user_id, game_id, created_at);
CREATE INDEX studio_rounds_status ON studio_rounds (status, created_at);
