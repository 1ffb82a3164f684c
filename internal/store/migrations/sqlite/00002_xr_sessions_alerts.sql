-- +goose Up
-- outcome mirrors interaction_data's completionStatus (passed or failed once
-- ended) so history and analytics need not parse the interaction data.
ALTER TABLE xr_sessions ADD COLUMN outcome TEXT NOT NULL DEFAULT '';
CREATE INDEX xr_sessions_live ON xr_sessions (updated_at) WHERE ended_at IS NULL;

CREATE TABLE safety_alerts (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id     TEXT NOT NULL REFERENCES learners (id),
    session_id  TEXT NOT NULL DEFAULT '', -- the realtime room it was raised in, if any
    alert_type  TEXT NOT NULL CHECK (alert_type IN ('emergency', 'help', 'equipment', 'general')),
    description TEXT NOT NULL,
    created_at  TIMESTAMP NOT NULL
);
CREATE INDEX safety_alerts_created ON safety_alerts (created_at DESC, id DESC);

-- +goose Down
DROP TABLE safety_alerts;
DROP INDEX xr_sessions_live;
ALTER TABLE xr_sessions DROP COLUMN outcome;
