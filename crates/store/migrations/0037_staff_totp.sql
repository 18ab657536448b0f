-- Staff two-factor sign-in (issue 22; docs/BACKOFFICE.md): one TOTP secret per staff user
-- (RFC 6238: HMAC-SHA1, 6 digits, 30 s steps). A secret is pending until its first code is
-- accepted (`confirmed_at`); `last_step` is the last step whose code was accepted, so a code
-- signs in once: the accepting UPDATE is conditioned on `last_step < step`.
CREATE TABLE staff_totp (
    user_id BIGINT PRIMARY KEY REFERENCES users(id),
    -- Base32 (RFC 4648, no padding), as authenticator apps take it.
    secret TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    confirmed_at BIGINT,
    last_step BIGINT NOT NULL DEFAULT 0
);

-- A session opened with the second factor (POST /api/staff/login); the console admits no
-- other. Player sessions stay 0.
ALTER TABLE sessions ADD COLUMN second_factor INTEGER NOT NULL DEFAULT 0;
