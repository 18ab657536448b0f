-- Daily SMS quota per phone, counted atomically (INSERT … ON CONFLICT DO UPDATE … WHERE
-- count < limit RETURNING) so parallel requests cannot exceed it.
CREATE TABLE sms_quota (
    phone TEXT NOT NULL,
    day BIGINT NOT NULL,
    count BIGINT NOT NULL,
    PRIMARY KEY (phone, day)
);
