-- Four eyes on manual adjustments (issue 22; docs/BACKOFFICE.md): an adjustment above the
-- configured amount is a request; nothing moves until another staff member approves it, and
-- the approval's posting (key `adjust-request:{id}`) and the request's new state commit
-- together. Every step is in the audit trail.
CREATE TABLE adjust_requests (
    id BIGINT PRIMARY KEY,
    user_id BIGINT NOT NULL,
    currency TEXT NOT NULL,
    kind TEXT NOT NULL,
    -- Signed, minor units of the player's currency.
    amount BIGINT NOT NULL,
    reason TEXT NOT NULL,
    -- The requester's idempotency key: a retried request is the same request.
    request_key TEXT NOT NULL UNIQUE,
    -- SHA-256 of what was requested: the same key with another request is refused (26).
    request_hash TEXT NOT NULL,
    requested_by BIGINT NOT NULL,
    -- pending | approved | rejected
    status TEXT NOT NULL,
    decided_by BIGINT,
    decision_note TEXT,
    tx_id BIGINT,
    created_at BIGINT NOT NULL,
    decided_at BIGINT
);
CREATE INDEX adjust_requests_status ON adjust_requests (status, created_at);
