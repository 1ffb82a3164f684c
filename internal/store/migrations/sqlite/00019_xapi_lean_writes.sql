-- +goose Up
-- The LRS writes less per statement (bench/xapi):
-- * the agent and activity index rows and the activity definitions live in
--   their primary key (WITHOUT ROWID) rather than in a table plus an index,
--   and without a foreign key check per row: they are written only with the
--   statement they point to, and statements are never deleted;
-- * the indexes of columns most statements leave empty (a registration, a
--   StatementRef target, a Journeyman learner) hold only the rows that have
--   one: every query on them asks for a value.
CREATE TABLE xapi_statement_agents_lean (
    org_id    TEXT NOT NULL,
    agent_key TEXT NOT NULL,
    seq       INTEGER NOT NULL,
    direct    BOOLEAN NOT NULL,
    PRIMARY KEY (org_id, agent_key, seq)
) WITHOUT ROWID;
INSERT INTO xapi_statement_agents_lean SELECT org_id, agent_key, seq, direct FROM xapi_statement_agents;
DROP TABLE xapi_statement_agents;
ALTER TABLE xapi_statement_agents_lean RENAME TO xapi_statement_agents;

CREATE TABLE xapi_statement_activities_lean (
    org_id      TEXT NOT NULL,
    activity_id TEXT NOT NULL,
    seq         INTEGER NOT NULL,
    direct      BOOLEAN NOT NULL,
    PRIMARY KEY (org_id, activity_id, seq)
) WITHOUT ROWID;
INSERT INTO xapi_statement_activities_lean SELECT org_id, activity_id, seq, direct FROM xapi_statement_activities;
DROP TABLE xapi_statement_activities;
ALTER TABLE xapi_statement_activities_lean RENAME TO xapi_statement_activities;

CREATE TABLE xapi_activities_lean (
    org_id     TEXT NOT NULL,
    id         TEXT NOT NULL,
    definition TEXT NOT NULL,
    PRIMARY KEY (org_id, id)
) WITHOUT ROWID;
INSERT INTO xapi_activities_lean SELECT org_id, id, definition FROM xapi_activities;
DROP TABLE xapi_activities;
ALTER TABLE xapi_activities_lean RENAME TO xapi_activities;

DROP INDEX xapi_statements_registration;
CREATE INDEX xapi_statements_registration ON xapi_statements (org_id, registration, seq) WHERE registration IS NOT NULL;
DROP INDEX xapi_statements_target;
CREATE INDEX xapi_statements_target ON xapi_statements (org_id, target_id) WHERE target_id IS NOT NULL;
DROP INDEX xapi_statements_learner;
CREATE INDEX xapi_statements_learner ON xapi_statements (learner_id, seq) WHERE learner_id IS NOT NULL;

-- +goose Down
DROP INDEX xapi_statements_learner;
CREATE INDEX xapi_statements_learner ON xapi_statements (learner_id, seq);
DROP INDEX xapi_statements_target;
CREATE INDEX xapi_statements_target ON xapi_statements (org_id, target_id);
DROP INDEX xapi_statements_registration;
CREATE INDEX xapi_statements_registration ON xapi_statements (org_id, registration, seq);

CREATE TABLE xapi_activities_rowid (
    org_id     TEXT NOT NULL,
    id         TEXT NOT NULL,
    definition TEXT NOT NULL,
    PRIMARY KEY (org_id, id)
);
INSERT INTO xapi_activities_rowid SELECT org_id, id, definition FROM xapi_activities;
DROP TABLE xapi_activities;
ALTER TABLE xapi_activities_rowid RENAME TO xapi_activities;

CREATE TABLE xapi_statement_activities_rowid (
    org_id      TEXT NOT NULL,
    activity_id TEXT NOT NULL,
    seq         INTEGER NOT NULL REFERENCES xapi_statements (seq),
    direct      BOOLEAN NOT NULL,
    PRIMARY KEY (org_id, activity_id, seq)
);
INSERT INTO xapi_statement_activities_rowid SELECT org_id, activity_id, seq, direct FROM xapi_statement_activities;
DROP TABLE xapi_statement_activities;
ALTER TABLE xapi_statement_activities_rowid RENAME TO xapi_statement_activities;

CREATE TABLE xapi_statement_agents_rowid (
    org_id    TEXT NOT NULL,
    agent_key TEXT NOT NULL,
    seq       INTEGER NOT NULL REFERENCES xapi_statements (seq),
    direct    BOOLEAN NOT NULL,
    PRIMARY KEY (org_id, agent_key, seq)
);
INSERT INTO xapi_statement_agents_rowid SELECT org_id, agent_key, seq, direct FROM xapi_statement_agents;
DROP TABLE xapi_statement_agents;
ALTER TABLE xapi_statement_agents_rowid RENAME TO xapi_statement_agents;
