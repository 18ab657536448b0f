-- Issue 19 (performance): a bonus's maximum bet and wagering progress live on the player's
-- account row, read and moved by the stake's own conditional balance UPDATE (wallet terms.rs),
-- instead of a read of `bonuses`, an update of it and a `bonus_wagering` row per stake.
-- stake_cap: NULL = none. wager_target: NULL = no wagering counted.
ALTER TABLE ledger_accounts ADD COLUMN stake_cap BIGINT;
ALTER TABLE ledger_accounts ADD COLUMN wager_target BIGINT;
ALTER TABLE ledger_accounts ADD COLUMN wager_progress BIGINT NOT NULL DEFAULT 0;

-- A rolled-back stake's contribution is recomputed from its own posting.
DROP TABLE bonus_wagering;
