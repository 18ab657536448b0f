-- Payments (issue 11, docs/PAYMENTS.md): deposit and withdrawal intents through payment
-- providers, their transitions, single-use payment tokens, received callbacks, and the
-- embedded sandbox provider's own records and outgoing (signed) callbacks. BIGINT and TEXT
-- only; flags BIGINT 0/1; times epoch ms; ids from kernel::ids::next_id().

-- One deposit or withdrawal through a provider: created → pending → succeeded | failed |
-- expired | cancelled. `amount`/`currency` are what the provider moves; `credit_amount` /
-- `credit_currency` what the player's wallet moves (they differ for crypto deposits:
-- converted at `rate_num / rate_den`, minor per minor, recorded at creation).
-- `settled_at` is set once the posting of the final state is written (NULL on a final
-- intent = posting still to do: the repair pass finishes it, idempotently by its key).
CREATE TABLE payment_intents (
    id BIGINT PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users(id),
    kind TEXT NOT NULL,
    provider TEXT NOT NULL,
    method TEXT NOT NULL DEFAULT '',
    amount BIGINT NOT NULL,
    currency TEXT NOT NULL,
    credit_amount BIGINT NOT NULL,
    credit_currency TEXT NOT NULL,
    rate_num BIGINT NOT NULL DEFAULT 1,
    rate_den BIGINT NOT NULL DEFAULT 1,
    phone TEXT,
    details TEXT NOT NULL DEFAULT '{}',
    provider_ref TEXT,
    client_key TEXT,
    status TEXT NOT NULL,
    failure_reason TEXT,
    held BIGINT NOT NULL DEFAULT 0,
    settled_at BIGINT,
    needs_review BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE UNIQUE INDEX payment_intents_ref ON payment_intents (provider, provider_ref);
CREATE UNIQUE INDEX payment_intents_client_key ON payment_intents (client_key);
CREATE INDEX payment_intents_user ON payment_intents (user_id, created_at);
CREATE INDEX payment_intents_status ON payment_intents (status, updated_at);

-- Every transition of an intent, time-stamped, with what caused it.
CREATE TABLE payment_intent_events (
    id BIGINT PRIMARY KEY,
    intent_id BIGINT NOT NULL REFERENCES payment_intents(id),
    from_status TEXT,
    to_status TEXT NOT NULL,
    source TEXT NOT NULL,
    detail TEXT NOT NULL DEFAULT '',
    created_at BIGINT NOT NULL
);
CREATE INDEX payment_intent_events_intent ON payment_intent_events (intent_id, created_at);

-- Single-use payment tokens (POST /api/payment/token), stored hashed.
CREATE TABLE payment_tokens (
    token_hash TEXT PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users(id),
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);

-- Callbacks received and applied, by the provider's event id: a replay is acknowledged
-- and changes nothing.
CREATE TABLE payment_callbacks (
    provider TEXT NOT NULL,
    event_id TEXT NOT NULL,
    intent_id BIGINT NOT NULL,
    outcome TEXT NOT NULL,
    received_at BIGINT NOT NULL,
    CONSTRAINT payment_callbacks_key UNIQUE (provider, event_id)
);

-- The embedded sandbox provider's side (it is a provider: it keeps its own records and
-- talks to the platform only through signed HTTP callbacks). `dialect` is `sandbox` or
-- `paykassma` (the Paykassma emulation used in demo mode).
CREATE TABLE sandbox_payments (
    reference TEXT PRIMARY KEY,
    dialect TEXT NOT NULL,
    intent_id BIGINT NOT NULL,
    kind TEXT NOT NULL,
    amount BIGINT NOT NULL,
    currency TEXT NOT NULL,
    phone TEXT,
    status TEXT NOT NULL,
    callback_url TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);

-- The sandbox's outgoing callbacks, retried with back-off until answered 200 (a restart
-- resumes them). Claimed by one worker at a time (`claimed_until`).
CREATE TABLE sandbox_callbacks (
    id BIGINT PRIMARY KEY,
    dialect TEXT NOT NULL,
    url TEXT NOT NULL,
    body TEXT NOT NULL,
    attempts BIGINT NOT NULL DEFAULT 0,
    next_at BIGINT NOT NULL,
    claimed_until BIGINT NOT NULL DEFAULT 0,
    delivered_at BIGINT,
    last_error TEXT,
    created_at BIGINT NOT NULL
);
CREATE INDEX sandbox_callbacks_due ON sandbox_callbacks (delivered_at, next_at);
