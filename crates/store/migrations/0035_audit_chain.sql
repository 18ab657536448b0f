-- The staff audit trail becomes append-only and hash-chained (issue 22; store::audit).
-- Each row gets its place in the chain (`seq`: 1, 2, 3… with no gap), the hash of the row
-- before it and its own. Rows written before this migration are chained once, in the order
-- they were written, when the migrations finish (store::audit::adopt). The triggers that
-- refuse UPDATE and DELETE of a chained row are the dialect's (store::dialect::protect_audit).
ALTER TABLE audit_log ADD COLUMN seq BIGINT;
ALTER TABLE audit_log ADD COLUMN prev_hash TEXT;
ALTER TABLE audit_log ADD COLUMN hash TEXT;
CREATE UNIQUE INDEX audit_log_seq ON audit_log (seq);
-- A player's or a payment's history in the console reads by subject.
CREATE INDEX audit_log_subject ON audit_log (subject, seq);
-- The chain's head: the last row's place and hash. Every append updates this one row, so
-- concurrent appends queue on its lock and the chain's order is their commit order.
CREATE TABLE audit_head (
    id BIGINT PRIMARY KEY,
    seq BIGINT NOT NULL,
    hash TEXT NOT NULL
);
INSERT INTO audit_head (id, seq, hash) VALUES (1, 0, '0000000000000000000000000000000000000000000000000000000000000000');
