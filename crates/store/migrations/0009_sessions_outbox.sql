-- Game sessions end with the player's sign-in, and have an absolute lifetime; the message
-- outbox becomes the delivery queue of every SMS and e-mail (docs/ARCHITECTURE.md
-- "Accounts and sessions", "Messages").

-- The player session (sign-in, `sessions.id`) that launched the game session. Stakes need
-- it live: logout, a password change elsewhere, a recovery, a ban or its expiry stop them
-- at once. NULL: a session the platform opened for itself to pay wins and refunds (crash
-- recovery); it can never stake.
ALTER TABLE game_sessions ADD COLUMN player_session_id BIGINT;
-- Absolute end of the session's stakes (launch + 12 h), however active it is. Sessions
-- opened before this migration get 0: they can still be paid, but never stake again.
ALTER TABLE game_sessions ADD COLUMN ends_at BIGINT NOT NULL DEFAULT 0;

-- The outbox: a message is written in the same database transaction as what it announces
-- (the user, the code, the token), then delivered by a worker. status: pending → sending
-- (claimed by one worker until claimed_until) → sent | failed (attempts used up) |
-- expired (its code or link expired before it could be delivered). Rows stored before
-- this migration were demo messages: sent.
ALTER TABLE outbox ADD COLUMN subject TEXT NOT NULL DEFAULT '';
ALTER TABLE outbox ADD COLUMN status TEXT NOT NULL DEFAULT 'sent';
ALTER TABLE outbox ADD COLUMN attempts BIGINT NOT NULL DEFAULT 0;
ALTER TABLE outbox ADD COLUMN next_attempt_at BIGINT NOT NULL DEFAULT 0;
ALTER TABLE outbox ADD COLUMN claimed_by TEXT;
ALTER TABLE outbox ADD COLUMN claimed_until BIGINT;
ALTER TABLE outbox ADD COLUMN sent_at BIGINT;
ALTER TABLE outbox ADD COLUMN last_error TEXT;
ALTER TABLE outbox ADD COLUMN expires_at BIGINT;
CREATE INDEX outbox_due ON outbox (status, next_attempt_at);
