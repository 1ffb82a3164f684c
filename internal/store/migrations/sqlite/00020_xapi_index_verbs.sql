-- +goose Up
-- The agent and activity index rows carry their statement's verb, so that
-- an agent (or activity) and verb query filters in the index and reads
-- only the statements it returns, not every statement of the agent
-- (bench/xapi's ?agent&verb over 1,000,000 statements: 1,000 statement
-- reads for 125 returned).
ALTER TABLE xapi_statement_agents ADD COLUMN verb_id TEXT NOT NULL DEFAULT '';
UPDATE xapi_statement_agents SET verb_id = (SELECT s.verb_id FROM xapi_statements s WHERE s.seq = xapi_statement_agents.seq);
ALTER TABLE xapi_statement_activities ADD COLUMN verb_id TEXT NOT NULL DEFAULT '';
UPDATE xapi_statement_activities SET verb_id = (SELECT s.verb_id FROM xapi_statements s WHERE s.seq = xapi_statement_activities.seq);

-- +goose Down
ALTER TABLE xapi_statement_activities DROP COLUMN verb_id;
ALTER TABLE xapi_statement_agents DROP COLUMN verb_id;
