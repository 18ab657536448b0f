-- Accounts: users, sessions, verification and recovery tokens, SMS codes, the message
-- outbox (demo mode) and the audit log. Only BIGINT, TEXT and their nullable forms
-- (ARCHITECTURE §1); flags are BIGINT 0/1; times are epoch milliseconds.

CREATE TABLE users (
    id BIGINT PRIMARY KEY,
    email TEXT UNIQUE,
    phone TEXT UNIQUE,
    password_hash TEXT NOT NULL,
    role BIGINT NOT NULL DEFAULT 0,
    currency TEXT NOT NULL,
    first_name TEXT NOT NULL DEFAULT '',
    last_name TEXT NOT NULL DEFAULT '',
    middle_name TEXT NOT NULL DEFAULT '',
    birth_date TEXT,
    gender TEXT,
    number_document TEXT,
    address TEXT,
    card TEXT,
    yandex TEXT,
    lang TEXT NOT NULL DEFAULT 'en-US',
    promocode TEXT,
    ref_id TEXT,
    email_verified_at BIGINT,
    is_banned BIGINT NOT NULL DEFAULT 0,
    is_banned_on_betroute BIGINT NOT NULL DEFAULT 0,
    is_partner BIGINT NOT NULL DEFAULT 0,
    parent_cashier_id BIGINT,
    parent_super_agent_id BIGINT,
    parent_admin_id BIGINT,
    registered_via TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);

CREATE TABLE sessions (
    id BIGINT PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    user_id BIGINT NOT NULL REFERENCES users(id),
    created_at BIGINT NOT NULL,
    last_seen_at BIGINT NOT NULL,
    idle_expires_at BIGINT NOT NULL,
    absolute_expires_at BIGINT NOT NULL,
    revoked_at BIGINT,
    ip TEXT,
    user_agent TEXT
);
CREATE INDEX sessions_user ON sessions (user_id);

-- E-mail verification links and password-restore codes sent by e-mail.
CREATE TABLE email_tokens (
    id BIGINT PRIMARY KEY,
    purpose TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    user_id BIGINT NOT NULL REFERENCES users(id),
    email TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    used_at BIGINT
);
CREATE INDEX email_tokens_user ON email_tokens (user_id, purpose);

-- SMS codes for phone sign-up and phone recovery.
CREATE TABLE phone_codes (
    id BIGINT PRIMARY KEY,
    phone TEXT NOT NULL,
    purpose TEXT NOT NULL,
    code_hash TEXT NOT NULL,
    attempts BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    used_at BIGINT,
    ip TEXT
);
CREATE INDEX phone_codes_phone ON phone_codes (phone, created_at);

-- Demo mode only: every SMS and e-mail "sent", readable at GET /api/dev/outbox.
CREATE TABLE outbox (
    id BIGINT PRIMARY KEY,
    channel TEXT NOT NULL,
    to_addr TEXT NOT NULL,
    text TEXT NOT NULL,
    code TEXT,
    link TEXT,
    created_at BIGINT NOT NULL
);
CREATE INDEX outbox_to ON outbox (to_addr, created_at);

CREATE TABLE audit_log (
    id BIGINT PRIMARY KEY,
    actor TEXT NOT NULL,
    action TEXT NOT NULL,
    subject TEXT NOT NULL,
    details TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
