-- Issue 18: Digitain signs `timestamp + operatorId`, never the body, so a timestamp and its
-- signature are accepted with one body only (crates/server/src/partners/seen.rs): the first
-- request bringing a pair records it with a hash of its method and body, then its reply; a
-- retry of that body is answered with the reply, any other body refused. The key holds across
-- instances and restarts; rows are deleted once their timestamp is outside the window.
CREATE TABLE partner_signatures (
    partner TEXT NOT NULL,
    signed_at TEXT NOT NULL,
    signature TEXT NOT NULL,
    body_hash TEXT NOT NULL,
    reply TEXT,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    PRIMARY KEY (partner, signed_at, signature)
);
CREATE INDEX partner_signatures_expiry ON partner_signatures (expires_at);
