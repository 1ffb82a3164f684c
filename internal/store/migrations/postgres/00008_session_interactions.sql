-- +goose Up
-- A session's interactions move out of xr_sessions.interaction_data into
-- rows of their own, one per interaction, keyed by the session and the
-- interaction's 0-based seq, so that an update appends its interactions
-- without reading or rewriting the ones stored before. data is the
-- interaction's JSON exactly as it was stored in the array (json, unlike
-- jsonb, keeps an element's text as written).
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
ALTER TABLE xr_sessions
    ADD COLUMN interaction_count INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN interaction_bytes INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN revision BIGINT NOT NULL DEFAULT 0;

-- A row whose interaction_data is not JSON (none written by the store) is
-- left as it is rather than failing the migration.
-- +goose StatementBegin
CREATE FUNCTION pg_temp.json_or_null(t TEXT) RETURNS JSON AS $$
BEGIN
    RETURN t::json;
EXCEPTION WHEN invalid_text_representation THEN
    RETURN NULL;
END
$$ LANGUAGE plpgsql IMMUTABLE;
-- +goose StatementEnd

INSERT INTO xr_session_interactions (session_id, seq, data)
SELECT x.id, e.n - 1, e.v::text
FROM xr_sessions x
CROSS JOIN LATERAL json_array_elements(
    CASE WHEN json_typeof(pg_temp.json_or_null(x.interaction_data) -> 'interactions') = 'array'
         THEN pg_temp.json_or_null(x.interaction_data) -> 'interactions' ELSE '[]'::json END
) WITH ORDINALITY AS e(v, n);

UPDATE xr_sessions x SET interaction_count = c.n, interaction_bytes = c.bytes
FROM (SELECT session_id, COUNT(*) AS n, SUM(octet_length(data)) AS bytes
      FROM xr_session_interactions GROUP BY session_id) c
WHERE c.session_id = x.id;

UPDATE xr_sessions SET interaction_data = (interaction_data::jsonb - 'interactions')::text
WHERE json_typeof(pg_temp.json_or_null(interaction_data)) = 'object';

DROP FUNCTION pg_temp.json_or_null(TEXT);

-- +goose Down
-- +goose StatementBegin
CREATE FUNCTION pg_temp.json_or_null(t TEXT) RETURNS JSON AS $$
BEGIN
    RETURN t::json;
EXCEPTION WHEN invalid_text_representation THEN
    RETURN NULL;
END
$$ LANGUAGE plpgsql IMMUTABLE;
-- +goose StatementEnd
-- Rows whose interaction_data is not an object had no interactions moved.
UPDATE xr_sessions x SET interaction_data = (x.interaction_data::jsonb
    || jsonb_build_object('interactions', COALESCE(
        (SELECT jsonb_agg(i.data::jsonb ORDER BY i.seq) FROM xr_session_interactions i WHERE i.session_id = x.id),
        '[]'::jsonb)))::text
WHERE json_typeof(pg_temp.json_or_null(x.interaction_data)) = 'object';
DROP FUNCTION pg_temp.json_or_null(TEXT);
ALTER TABLE xr_sessions DROP COLUMN revision, DROP COLUMN interaction_bytes, DROP COLUMN interaction_count;
DROP TABLE xr_session_interactions;
