-- +goose Up
-- updated_minute is updated_at truncated to the minute. The live views find
-- running sessions by it and filter on updated_at in the rows they find, so
-- that a periodic update, which changes updated_at, moves the live index's
-- entry at most once a minute. On PostgreSQL this is what lets such an update
-- stay in place (HOT); SQLite keeps the same column for the same statements.
-- Running sessions stored before hold updated_at itself, and a row written by
-- other means than the store a date no session reaches: never earlier than
-- the minute, which is all the live views need.
ALTER TABLE xr_sessions ADD COLUMN updated_minute TIMESTAMP NOT NULL DEFAULT '9999-12-31 23:59:59+00:00';
UPDATE xr_sessions SET updated_minute = updated_at WHERE ended_at IS NULL;
DROP INDEX xr_sessions_live;
CREATE INDEX xr_sessions_live ON xr_sessions (updated_minute) WHERE ended_at IS NULL;

-- +goose Down
DROP INDEX xr_sessions_live;
CREATE INDEX xr_sessions_live ON xr_sessions (updated_at) WHERE ended_at IS NULL;
ALTER TABLE xr_sessions DROP COLUMN updated_minute;
