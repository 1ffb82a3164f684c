-- +goose Up
-- A periodic session update changes updated_at, and usually duration. While
-- an index holds either column, PostgreSQL cannot update the row in place (a
-- HOT update): every update adds an entry to each of the table's indexes and
-- leaves the old ones for vacuum, so the table and its indexes grow with
-- every update until vacuum catches up (bench/compare's PATCH without
-- autovacuum: 4,400 req/s falling to 3,200 over three 10 s rounds; 5,000 to
-- 5,400 without those indexes). So no index holds them:
-- - The live views find running sessions by updated_minute, updated_at
--   truncated to the minute, which an update changes at most once a minute,
--   and filter on updated_at in the rows they find. A row written by other
--   means than the store gets 'infinity': always looked at, never missed.
-- - A learner's figures read duration and updated_at from the table. The
--   index still finds the learner's sessions.
-- Pages keep a tenth free for the updated rows (new pages only).
ALTER TABLE xr_sessions ADD COLUMN updated_minute TIMESTAMPTZ NOT NULL DEFAULT 'infinity', SET (fillfactor = 90);
UPDATE xr_sessions SET updated_minute = date_trunc('minute', updated_at) WHERE ended_at IS NULL;
DROP INDEX xr_sessions_live;
CREATE INDEX xr_sessions_live ON xr_sessions (updated_minute) WHERE ended_at IS NULL;
DROP INDEX xr_sessions_learner_figures;
CREATE INDEX xr_sessions_learner_figures ON xr_sessions (user_id, module_id, verified, outcome, ended_at, safety_score);

-- +goose Down
DROP INDEX xr_sessions_learner_figures;
CREATE INDEX xr_sessions_learner_figures ON xr_sessions (user_id, module_id, verified, outcome, ended_at, safety_score, duration, updated_at);
DROP INDEX xr_sessions_live;
CREATE INDEX xr_sessions_live ON xr_sessions (updated_at) WHERE ended_at IS NULL;
ALTER TABLE xr_sessions RESET (fillfactor), DROP COLUMN updated_minute;
