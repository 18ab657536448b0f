-- Snapshots a single owner writes for the other instances (crates/store/src/bus.rs): the
-- sportsbook line after delivery `seq` of feed run `run` (crates/betting/src/relay.rs),
-- read by an instance that starts or missed a delivery. One row per name, overwritten.
CREATE TABLE relay_snapshots (
    name TEXT PRIMARY KEY,
    run BIGINT NOT NULL,
    seq BIGINT NOT NULL,
    body TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
