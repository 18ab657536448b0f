-- Issue 20: the providers' catalogue refresh (docs/providers/endpoints.md, docs/OPERATIONS.md).
-- One row per provider feed: the job's lease (one owner per provider at a time, on every
-- instance and the CLI alike), its progress and the last result. A provider whose last
-- refresh failed keeps its last catalogue and is shown as temporarily unavailable
-- (`failures > 0`).
CREATE TABLE provider_catalogue (
    provider TEXT PRIMARY KEY,
    -- idle | running | ok | failed
    state TEXT NOT NULL DEFAULT 'idle',
    owner TEXT NOT NULL DEFAULT '',
    lease_until BIGINT NOT NULL DEFAULT 0,
    started_at BIGINT NOT NULL DEFAULT 0,
    finished_at BIGINT NOT NULL DEFAULT 0,
    last_ok_at BIGINT NOT NULL DEFAULT 0,
    -- games read so far in the running pass (progress), games imported by the last good one
    fetched BIGINT NOT NULL DEFAULT 0,
    games BIGINT NOT NULL DEFAULT 0,
    images BIGINT NOT NULL DEFAULT 0,
    -- consecutive failed passes
    failures BIGINT NOT NULL DEFAULT 0,
    error TEXT NOT NULL DEFAULT '',
    updated_at BIGINT NOT NULL
);

-- What a provider's list says of a game beyond our Game (spec §3 payloads as read:
-- Pragmatic's gameTypeID and technologyID, Evolution-type MerchantName and System,
-- Slotegrator's studio and is_mobile, Outcome's Format and SectionId, …) and where its
-- image came from and is cached (a file under the image directory, downloaded once).
CREATE TABLE provider_game_meta (
    provider TEXT NOT NULL,
    game_id TEXT NOT NULL,
    meta TEXT NOT NULL DEFAULT '{}',
    image_source TEXT NOT NULL DEFAULT '',
    image_file TEXT NOT NULL DEFAULT '',
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (provider, game_id)
);
CREATE INDEX provider_game_meta_image ON provider_game_meta (provider, image_source);
