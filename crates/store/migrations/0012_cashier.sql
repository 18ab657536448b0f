-- The cashier network (issue 11, docs/PAYMENTS.md "Cashier network"): cashier locations,
-- cashier withdrawals (funds held at request, paid out at a desk by a one-time code), failed
-- code entries at the desks (brute-force guard) and the network's secret. Floats are ledger
-- accounts of kind `float`; cash deposits are ledger postings of type 114.

-- One location per cashier (users.role = 2). `name` is first_name, address and phone joined.
CREATE TABLE cashier_locations (
    user_id BIGINT PRIMARY KEY REFERENCES users(id),
    first_name TEXT NOT NULL,
    address TEXT NOT NULL,
    phone TEXT NOT NULL,
    is_active BIGINT NOT NULL DEFAULT 1,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);

-- status: NEW (row written, hold being posted; never shown), CREATED (funds held, payable),
-- PAID, CANCELED, REFUSED (the hold never happened; never shown). `posted` is 1 once the
-- final posting of a PAID or CANCELED request (payout or release) is in the ledger.
-- `code_hash` = sha256 of the network secret and the 8-digit code (the code itself is
-- derived from the id with the secret, never stored).
CREATE TABLE cashier_withdrawals (
    id BIGINT PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users(id),
    cashier_id BIGINT,
    amount BIGINT NOT NULL,
    currency TEXT NOT NULL,
    status TEXT NOT NULL,
    code_hash TEXT NOT NULL,
    cancel_reason TEXT,
    paid_by BIGINT,
    posted BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    closed_at BIGINT
);
CREATE INDEX cashier_withdrawals_user ON cashier_withdrawals (user_id, created_at);
CREATE INDEX cashier_withdrawals_code ON cashier_withdrawals (code_hash, status);
CREATE INDEX cashier_withdrawals_status ON cashier_withdrawals (status, posted);

-- A wrong payout code entered at a desk: too many in a window lock that desk for a while.
CREATE TABLE cashier_code_failures (
    id BIGINT PRIMARY KEY,
    staff_id BIGINT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX cashier_code_failures_staff ON cashier_code_failures (staff_id, created_at);

-- The secret the payout codes are derived with, when CASHIER_CODE_SECRET is not set.
CREATE TABLE cashier_secrets (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
