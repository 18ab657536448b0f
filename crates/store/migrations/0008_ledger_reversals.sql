-- A posting is reversed at most once, and only bets and wins are reversible (issue 9).
-- Every rollback row (tx_type 204) names the row it cancels: the reversed posting, or the
-- tombstone (tx_type 205) it left when the posting had not arrived. The unique index makes
-- "at most once" a rule of the database on both backends (NULLs are distinct in both), so
-- twenty concurrent rollbacks of one bet under twenty ids post one reversal.
ALTER TABLE ledger_transactions ADD COLUMN reverses_tx_id BIGINT;

-- The group a posting belongs to (a provider's round, later a bet slip), so that a win can
-- require its round's bet with one indexed look-up.
ALTER TABLE ledger_transactions ADD COLUMN group_key TEXT;
CREATE INDEX ledger_transactions_group ON ledger_transactions (group_key) WHERE group_key IS NOT NULL;

-- Earlier rollbacks named their original only in metadata, which ends with
-- `"rolls_back":"<key>"}` (serde_json sorts keys): link each to its original by that
-- suffix (no JSON function is common to both databases)...
UPDATE ledger_transactions SET reverses_tx_id = (
    SELECT o.id FROM ledger_transactions o
    WHERE o.id <> ledger_transactions.id
      AND substr(ledger_transactions.metadata, length(ledger_transactions.metadata) - length(o.idempotency_key) - 1)
          = o.idempotency_key || '"}'
    ORDER BY o.id LIMIT 1
) WHERE tx_type = 204;
-- ...and keep only the first reversal of each: a later one stays unlinked, which
-- `ledger verify` reports (such a database lost money to a repeated rollback).
UPDATE ledger_transactions SET reverses_tx_id = NULL
WHERE tx_type = 204 AND reverses_tx_id IS NOT NULL AND EXISTS (
    SELECT 1 FROM ledger_transactions r2
    WHERE r2.tx_type = 204 AND r2.reverses_tx_id = ledger_transactions.reverses_tx_id AND r2.id < ledger_transactions.id
);
-- Partial: only rollbacks carry the column, so ordinary postings add no entry to this index.
CREATE UNIQUE INDEX ledger_transactions_reverses ON ledger_transactions (reverses_tx_id) WHERE reverses_tx_id IS NOT NULL;

-- Whether this provider's wins over the HTTP wallet need a bet in the same round (most
-- aggregators refuse a win for a round never bet). The studio settles in-process and always
-- stakes before it pays, so it never takes this path.
ALTER TABLE casino_providers ADD COLUMN win_requires_bet BIGINT NOT NULL DEFAULT 1;
