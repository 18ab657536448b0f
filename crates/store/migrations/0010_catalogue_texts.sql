-- Catalogue texts per language: a game's `description` is its default (English) text;
-- `descriptions` holds its translations as a JSON object keyed by short language code,
-- e.g. {"fr": "...", "ar": "..."}. The lobby answers each player in the app's language
-- (Accept-Language) and falls back to `description` (docs/CASINO.md "Catalogue texts").
ALTER TABLE casino_games ADD COLUMN descriptions TEXT NOT NULL DEFAULT '{}';
