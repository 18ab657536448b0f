-- Issue 19: a casino stake's wagering moves on its account row (0025, wallet terms.rs) and a
-- sport bet's in `sport_wagering` (0023); the per-stake `bonus_wagering` rows are no longer
-- written or read.
DROP TABLE bonus_wagering;
