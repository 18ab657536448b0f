-- The double-entry ledger (ARCHITECTURE §2).
-- ledger_accounts: one row per (owner, kind, currency). Player rows (is_house = 0) carry
-- a balance cached from their entries, updated in the same transaction and never
-- negative. House rows (owner_id = 0, is_house = 1) keep balance = 0: their balance is
-- derived from entries, so they never become one hot row that serialises every bet.
CREATE TABLE ledger_accounts (
    id BIGINT PRIMARY KEY,
    owner_id BIGINT NOT NULL,
    kind TEXT NOT NULL,
    currency TEXT NOT NULL,
    balance BIGINT NOT NULL DEFAULT 0,
    is_house BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    CONSTRAINT ledger_accounts_key UNIQUE (owner_id, kind, currency),
    CONSTRAINT ledger_accounts_non_negative CHECK (is_house = 1 OR balance >= 0)
);

-- One row per posting; idempotency_key is unique and kept for good, so a retry replays
-- the original result and a key reused with other parameters is refused.
CREATE TABLE ledger_transactions (
    id BIGINT PRIMARY KEY,
    tx_type BIGINT NOT NULL,
    idempotency_key TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    user_id BIGINT,
    comment TEXT NOT NULL DEFAULT '',
    metadata TEXT NOT NULL DEFAULT '{}',
    created_at BIGINT NOT NULL,
    CONSTRAINT ledger_transactions_key UNIQUE (idempotency_key)
);
CREATE INDEX ledger_transactions_user ON ledger_transactions (user_id, created_at);

CREATE TABLE ledger_entries (
    id BIGINT PRIMARY KEY,
    tx_id BIGINT NOT NULL REFERENCES ledger_transactions(id),
    account_id BIGINT NOT NULL REFERENCES ledger_accounts(id),
    amount BIGINT NOT NULL,
    balance_after BIGINT,
    created_at BIGINT NOT NULL
);
CREATE INDEX ledger_entries_account ON ledger_entries (account_id, created_at);
CREATE INDEX ledger_entries_tx ON ledger_entries (tx_id);
