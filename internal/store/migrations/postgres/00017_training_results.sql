-- +goose Up
-- Finished voice training runs. commands is the JSON array of the commands
-- the learner gave (voice.HeardCommand); the outcome columns are what the
-- server replayed from them, never the browser's claim.
CREATE TABLE voice_training_runs (
    id              TEXT PRIMARY KEY,
    learner_id      TEXT NOT NULL REFERENCES learners (id),
    module_id       TEXT NOT NULL,
    started_at      TIMESTAMPTZ NOT NULL,
    ended_at        TIMESTAMPTZ NOT NULL,
    commands        TEXT NOT NULL,
    total_steps     INTEGER NOT NULL,
    steps_walked    INTEGER NOT NULL,
    completed       BOOLEAN NOT NULL,
    emergency_stops INTEGER NOT NULL,
    created_at      TIMESTAMPTZ NOT NULL
);
CREATE INDEX voice_training_runs_learner ON voice_training_runs (learner_id, created_at DESC);

-- +goose Down
DROP TABLE voice_training_runs;
