-- Casino: providers, games, favourites, per-player provider blocks and game sessions.
-- Money for rounds is never here: it is in the ledger (keys `prov:{provider}:{transaction id}`).

CREATE TABLE casino_providers (
    name TEXT PRIMARY KEY,
    display_name TEXT NOT NULL,
    casino_type TEXT NOT NULL,
    auth_required BIGINT NOT NULL DEFAULT 0,
    listed BIGINT NOT NULL DEFAULT 1,
    enabled BIGINT NOT NULL DEFAULT 1,
    priority BIGINT NOT NULL DEFAULT 0,
    wallet_secret TEXT,
    launch_url TEXT NOT NULL,
    logo_url TEXT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);

CREATE TABLE casino_games (
    id BIGINT PRIMARY KEY,
    provider TEXT NOT NULL REFERENCES casino_providers(name),
    game_id TEXT NOT NULL,
    name TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    tabs TEXT NOT NULL DEFAULT '[]',
    image_url TEXT NOT NULL DEFAULT '',
    casino_type TEXT NOT NULL,
    kind TEXT NOT NULL DEFAULT 'slot',
    is_new BIGINT NOT NULL DEFAULT 0,
    featured BIGINT NOT NULL DEFAULT 0,
    rtp_bp BIGINT,
    volatility TEXT,
    enabled BIGINT NOT NULL DEFAULT 1,
    sort BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    CONSTRAINT casino_games_key UNIQUE (provider, game_id)
);
CREATE INDEX casino_games_list ON casino_games (provider, enabled, featured, sort);

CREATE TABLE casino_favourites (
    user_id BIGINT NOT NULL,
    game_pk BIGINT NOT NULL REFERENCES casino_games(id),
    created_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, game_pk)
);

CREATE TABLE casino_provider_blocks (
    user_id BIGINT NOT NULL,
    provider TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, provider)
);

CREATE TABLE game_sessions (
    id BIGINT PRIMARY KEY,
    token_hash TEXT NOT NULL,
    user_id BIGINT NOT NULL REFERENCES users(id),
    provider TEXT NOT NULL,
    game_id TEXT NOT NULL,
    currency TEXT NOT NULL,
    lang TEXT NOT NULL,
    platform TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    CONSTRAINT game_sessions_token UNIQUE (token_hash)
);
CREATE INDEX game_sessions_user ON game_sessions (user_id, created_at);
