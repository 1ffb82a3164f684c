-- +goose Up
-- The built-in Learning Record Store (xAPI). Every statement belongs to one
-- organisation ('' for learners outside any: only they read theirs) and is
-- invisible to the others; seq is the order statements were stored in.

-- Key/secret pairs (HTTP Basic) an organisation's admins hand to xAPI tools.
CREATE TABLE xapi_credentials (
    id          TEXT PRIMARY KEY,
    org_id      TEXT NOT NULL REFERENCES organisations (id),
    name        TEXT NOT NULL,
    key         TEXT NOT NULL UNIQUE,
    secret_hash TEXT NOT NULL,
    can_read    BOOLEAN NOT NULL,
    can_write   BOOLEAN NOT NULL,
    created_by  TEXT NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL,
    revoked_at  TIMESTAMPTZ
);
CREATE INDEX xapi_credentials_org ON xapi_credentials (org_id, created_at);

-- stored is in microseconds since 1970 (UTC); body is the statement as the
-- LRS completed it (id, stored, authority, version), compact JSON.
CREATE TABLE xapi_statements (
    seq          BIGSERIAL PRIMARY KEY,
    org_id       TEXT NOT NULL,
    id           TEXT NOT NULL,
    stored       BIGINT NOT NULL,
    verb_id      TEXT NOT NULL,
    registration TEXT,
    voided       BOOLEAN NOT NULL DEFAULT FALSE,
    -- the statement a voiding or StatementRef statement points at
    target_id    TEXT,
    learner_id   TEXT,
    body         TEXT NOT NULL,
    UNIQUE (org_id, id)
);
CREATE INDEX xapi_statements_stored ON xapi_statements (org_id, stored, seq);
CREATE INDEX xapi_statements_verb ON xapi_statements (org_id, verb_id, seq);
CREATE INDEX xapi_statements_registration ON xapi_statements (org_id, registration, seq);
CREATE INDEX xapi_statements_target ON xapi_statements (org_id, target_id);
CREATE INDEX xapi_statements_learner ON xapi_statements (learner_id, seq);

-- The agents and activities a statement names, for the agent and activity
-- filters: direct is the actor or object, the rest count only with
-- related_agents / related_activities.
CREATE TABLE xapi_statement_agents (
    org_id    TEXT NOT NULL,
    agent_key TEXT NOT NULL,
    seq       BIGINT NOT NULL REFERENCES xapi_statements (seq),
    direct    BOOLEAN NOT NULL,
    PRIMARY KEY (org_id, agent_key, seq)
);
CREATE TABLE xapi_statement_activities (
    org_id      TEXT NOT NULL,
    activity_id TEXT NOT NULL,
    seq         BIGINT NOT NULL REFERENCES xapi_statements (seq),
    direct      BOOLEAN NOT NULL,
    PRIMARY KEY (org_id, activity_id, seq)
);

-- Attachment contents, once per organisation and hash.
CREATE TABLE xapi_attachments (
    org_id       TEXT NOT NULL,
    sha2         TEXT NOT NULL,
    content_type TEXT NOT NULL,
    content      BYTEA NOT NULL,
    PRIMARY KEY (org_id, sha2)
);

-- The Activities Resource: the merged definition of each activity seen.
CREATE TABLE xapi_activities (
    org_id     TEXT NOT NULL,
    id         TEXT NOT NULL,
    definition TEXT NOT NULL,
    PRIMARY KEY (org_id, id)
);

-- State, Activity Profile and Agent Profile documents ('' where a part of
-- the key does not apply to the kind); updated in microseconds.
CREATE TABLE xapi_documents (
    org_id       TEXT NOT NULL,
    kind         TEXT NOT NULL,
    activity_id  TEXT NOT NULL,
    agent_key    TEXT NOT NULL,
    registration TEXT NOT NULL,
    doc_id       TEXT NOT NULL,
    content_type TEXT NOT NULL,
    content      BYTEA NOT NULL,
    etag         TEXT NOT NULL,
    updated      BIGINT NOT NULL,
    PRIMARY KEY (org_id, kind, activity_id, agent_key, registration, doc_id)
);

-- +goose Down
DROP TABLE xapi_documents;
DROP TABLE xapi_activities;
DROP TABLE xapi_attachments;
DROP TABLE xapi_statement_activities;
DROP TABLE xapi_statement_agents;
DROP TABLE xapi_statements;
DROP TABLE xapi_credentials;
