-- +goose Up
-- The LRS writes less per statement (bench/xapi):
-- * no foreign key check per agent or activity index row: each costs a
--   trigger, a look-up and a row lock on the statement, and the rows are
--   written only with the statement they point to, which is never deleted;
-- * the indexes of columns most statements leave empty (a registration, a
--   StatementRef target, a Journeyman learner) hold only the rows that have
--   one: every query on them asks for a value.
ALTER TABLE xapi_statement_agents DROP CONSTRAINT xapi_statement_agents_seq_fkey;
ALTER TABLE xapi_statement_activities DROP CONSTRAINT xapi_statement_activities_seq_fkey;

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
ALTER TABLE xapi_statement_activities ADD CONSTRAINT xapi_statement_activities_seq_fkey FOREIGN KEY (seq) REFERENCES xapi_statements (seq);
ALTER TABLE xapi_statement_agents ADD CONSTRAINT xapi_statement_agents_seq_fkey FOREIGN KEY (seq) REFERENCES xapi_statements (seq);
