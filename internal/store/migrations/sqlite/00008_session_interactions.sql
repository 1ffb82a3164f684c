-- +goose Up
-- A session's interactions move out of xr_sessions.interaction_data into
-- rows of their own, one per interaction, keyed by the session and the
-- interaction's 0-based seq, so that an update appends its interactions
-- without reading or rewriting the ones stored before. data is the
-- interaction's JSON exactly as it was stored in the array.
-- interaction_data keeps the rest ({safetyChecks, completionStatus});
-- interaction_count and interaction_bytes (the interactions' total JSON size,
-- which training.MaxInteractionDataBytes bounds) let an update check the
-- session's limits without reading them; revision rises with every update.
CREATE TABLE xr_session_interactions (
    session_id TEXT NOT NULL REFERENCES xr_sessions (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,
    data       TEXT NOT NULL,
    PRIMARY KEY (session_id, seq)
);
ALTER TABLE xr_sessions ADD COLUMN interaction_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE xr_sessions ADD COLUMN interaction_bytes INTEGER NOT NULL DEFAULT 0;
ALTER TABLE xr_sessions ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;

-- json_quote leaves an element that is JSON (every interaction is an
-- object) as it is and quotes one that is not, so nothing is lost.
INSERT INTO xr_session_interactions (session_id, seq, data)
SELECT x.id, j.key, json_quote(j.value)
FROM xr_sessions x, json_each(x.interaction_data, '$.interactions') j
WHERE CASE WHEN NOT json_valid(x.interaction_data) THEN NULL
           WHEN json_type(x.interaction_data) <> 'object' THEN NULL
           ELSE json_type(x.interaction_data, '$.interactions') END = 'array';

UPDATE xr_sessions SET
    interaction_count = (SELECT COUNT(*) FROM xr_session_interactions i WHERE i.session_id = xr_sessions.id),
    interaction_bytes = (SELECT COALESCE(SUM(LENGTH(CAST(i.data AS BLOB))), 0) FROM xr_session_interactions i WHERE i.session_id = xr_sessions.id);

UPDATE xr_sessions SET interaction_data = json_remove(interaction_data, '$.interactions')
WHERE CASE WHEN json_valid(interaction_data) THEN json_type(interaction_data) END = 'object';

-- +goose Down
-- Rows whose interaction_data is not an object had no interactions moved.
-- (json() because a subquery's result is text to json_set, not JSON.)
UPDATE xr_sessions SET interaction_data = json_set(interaction_data, '$.interactions',
    json((SELECT json_group_array(json(i.data) ORDER BY i.seq) FROM xr_session_interactions i WHERE i.session_id = xr_sessions.id)))
WHERE CASE WHEN json_valid(interaction_data) THEN json_type(interaction_data) END = 'object';
ALTER TABLE xr_sessions DROP COLUMN revision;
ALTER TABLE xr_sessions DROP COLUMN interaction_bytes;
ALTER TABLE xr_sessions DROP COLUMN interaction_count;
DROP TABLE xr_session_interactions;
