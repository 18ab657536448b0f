-- Issue 21 §2: the entries keep no foreign keys. On PostgreSQL each key was a trigger per
-- inserted entry (two lookups, and a `FOR KEY SHARE` lock on the transaction and on the
-- account row: the one house account of a settlement, locked by every writer at once, made
-- a multixact per lock). Only the ledger writes entries, in the transaction that writes
-- their transaction row and checks their accounts; `ledger verify` reports an entry whose
-- transaction or account does not exist (docs/PERFORMANCE.md "Entries without foreign keys").
-- Rebuilt, as SQLite cannot drop a constraint; same columns, same indexes.
CREATE TABLE ledger_entries_v2 (
    id BIGINT PRIMARY KEY,
    tx_id BIGINT NOT NULL,
    account_id BIGINT NOT NULL,
    amount BIGINT NOT NULL,
    balance_after BIGINT,
    created_at BIGINT NOT NULL
);
INSERT INTO ledger_entries_v2 (id, tx_id, account_id, amount, balance_after, created_at)
    SELECT id, tx_id, account_id, amount, balance_after, created_at FROM ledger_entries;
DROP TABLE ledger_entries;
ALTER TABLE ledger_entries_v2 RENAME TO ledger_entries;
CREATE INDEX ledger_entries_account ON ledger_entries (account_id, created_at);
CREATE INDEX ledger_entries_tx ON ledger_entries (tx_id);
