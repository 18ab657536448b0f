-- Issue 19 (performance): a bonus's maximum bet and wagering progress live on the player's
-- account row, read and moved by the stake's own conditional balance UPDATE (wallet terms.rs),
-- instead of a read of `bonuses`, an update of it and a wagering row per stake.
-- stake_cap: NULL = none. wager_target: NULL = no wagering counted.
ALTER TABLE ledger_accounts ADD COLUMN stake_cap BIGINT;
ALTER TABLE ledger_accounts ADD COLUMN wager_target BIGINT;
ALTER TABLE ledger_accounts ADD COLUMN wager_progress BIGINT NOT NULL DEFAULT 0;

-- Bonuses open before this migration: their terms move onto their accounts (casino: the real
-- account's cap, target and progress so far; sport: the bonus account's cap).
UPDATE ledger_accounts SET
    stake_cap = (SELECT CASE WHEN b.max_bet > 0 THEN b.max_bet ELSE NULL END FROM bonuses b
                 WHERE b.user_id = ledger_accounts.owner_id AND b.currency = ledger_accounts.currency AND b.product = 'casino' AND b.status = 'active'),
    wager_target = (SELECT b.required FROM bonuses b
                 WHERE b.user_id = ledger_accounts.owner_id AND b.currency = ledger_accounts.currency AND b.product = 'casino' AND b.status = 'active'),
    wager_progress = (SELECT b.wagered FROM bonuses b
                 WHERE b.user_id = ledger_accounts.owner_id AND b.currency = ledger_accounts.currency AND b.product = 'casino' AND b.status = 'active')
WHERE is_house = 0 AND kind = 'real' AND EXISTS (SELECT 1 FROM bonuses b
    WHERE b.user_id = ledger_accounts.owner_id AND b.currency = ledger_accounts.currency AND b.product = 'casino' AND b.status = 'active');
UPDATE ledger_accounts SET
    stake_cap = (SELECT CASE WHEN b.max_bet > 0 THEN b.max_bet ELSE NULL END FROM bonuses b
                 WHERE b.user_id = ledger_accounts.owner_id AND b.currency = ledger_accounts.currency AND b.product = 'sport' AND b.status = 'active')
WHERE is_house = 0 AND kind = 'bonus' AND EXISTS (SELECT 1 FROM bonuses b
    WHERE b.user_id = ledger_accounts.owner_id AND b.currency = ledger_accounts.currency AND b.product = 'sport' AND b.status = 'active');
