-- Issue 19: sport-bonus wagering at settlement, rakeback, super-agent cashback, coupon prizes
-- (docs/PROMOTIONS.md).

-- A settled bonus-funded sports bet's contribution to the player's open sport bonus: one row
-- per bet (the primary key), written in the transaction that writes the bet's settled state,
-- so a settlement replayed, run twice at once or corrected never counts a bet twice.
CREATE TABLE sport_wagering (
    bet_id BIGINT PRIMARY KEY,
    bonus_id BIGINT NOT NULL REFERENCES bonuses(id),
    user_id BIGINT NOT NULL,
    stake BIGINT NOT NULL,
    counted BIGINT NOT NULL,
    -- The odds the bet settled at (thousandths).
    odds BIGINT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX sport_wagering_by_bonus ON sport_wagering (bonus_id);

-- A super agent's cashback for one ISO week: its network's players' net loss (from the frozen
-- weekly_cashback rows) and 10 % of it, paid once (posting `sacb:{period}:{agent_id}`).
CREATE TABLE super_agent_cashback (
    period TEXT NOT NULL,
    agent_id BIGINT NOT NULL,
    currency TEXT NOT NULL,
    players BIGINT NOT NULL,
    staked BIGINT NOT NULL,
    returned BIGINT NOT NULL,
    amount BIGINT NOT NULL,
    paid_at BIGINT,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (period, agent_id)
);

-- A coupon draw's prize per winner (0: none), in minor units of `prize_currency`, paid into the
-- winner's `prize_kind` balance (posting `coupon:{draw}:{coupon}`, type 226).
ALTER TABLE coupon_draws ADD COLUMN prize_amount BIGINT NOT NULL DEFAULT 0;
ALTER TABLE coupon_draws ADD COLUMN prize_currency TEXT;
ALTER TABLE coupon_draws ADD COLUMN prize_kind TEXT;
-- Winners paid so far (every winner once: the ledger key decides).
ALTER TABLE coupon_draws ADD COLUMN prizes_paid BIGINT NOT NULL DEFAULT 0;
