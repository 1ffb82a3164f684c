-- +goose Up
-- Forwarding an organisation's statements to its external LRS. The queue is
-- the organisation's statements with seq > forwarded_seq, in seq order
-- (within an organisation, seq is commit order: storeXAPI takes turns), so
-- nothing is copied: a statement leaves the queue only when the external LRS
-- has acknowledged it. config_id changes with every configuration, so that
-- a batch sent under an old one never advances the cursor of a new one.
-- Only the lease holder (one server process) forwards an organisation.
CREATE TABLE xapi_forwarding (
    org_id           TEXT PRIMARY KEY REFERENCES organisations (id),
    config_id        TEXT NOT NULL,
    endpoint         TEXT NOT NULL,
    key              TEXT NOT NULL,
    -- AES-256-GCM under the server secret xapi_forwarding_key: nonce || sealed
    secret_sealed    BLOB NOT NULL,
    version          TEXT NOT NULL,
    forwarded_seq    BIGINT NOT NULL DEFAULT 0,
    paused           BOOLEAN NOT NULL DEFAULT FALSE,
    last_error       TEXT NOT NULL DEFAULT '',
    last_error_at    TIMESTAMP,
    last_success_at  TIMESTAMP,
    failures         INTEGER NOT NULL DEFAULT 0,
    next_attempt_at  TIMESTAMP NOT NULL,
    lease_holder     TEXT NOT NULL DEFAULT '',
    lease_expires_at TIMESTAMP,
    created_at       TIMESTAMP NOT NULL,
    updated_at       TIMESTAMP NOT NULL
);

-- The queue's read: an organisation's statements after a seq.
CREATE INDEX xapi_statements_org_seq ON xapi_statements (org_id, seq);

-- +goose Down
DROP INDEX xapi_statements_org_seq;
DROP TABLE xapi_forwarding;
