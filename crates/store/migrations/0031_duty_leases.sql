-- Who holds each single-owner duty (crates/store/src/lease.rs, docs/OPERATIONS.md "Several
-- instances: duties and fail-over"). For visibility only (`carthage duties`, metrics): on
-- PostgreSQL the truth is the advisory lock held on the owner's session; a row whose
-- heartbeat is old belongs to an owner that died (its lock is already free). owner is NULL
-- once the duty was released.
CREATE TABLE duty_leases (
    duty TEXT PRIMARY KEY,
    owner TEXT,
    acquired_at BIGINT NOT NULL,
    heartbeat_at BIGINT NOT NULL
);
