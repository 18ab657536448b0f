-- The console's notes on a player (issue 22; docs/BACKOFFICE.md "Players"): written by
-- support, finance or admin, never edited or removed (a correction is a new note); each one
-- is also in the audit trail, written in the same transaction.
CREATE TABLE player_notes (
    id BIGINT PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users(id),
    author_id BIGINT NOT NULL REFERENCES users(id),
    -- As the audit trail names the author (`support:12`).
    author TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX player_notes_user ON player_notes (user_id, created_at);

-- The card's devices: the other accounts seen from a player's addresses (a multi-accounting
-- signal) are found by address.
CREATE INDEX sessions_ip ON sessions (ip);
