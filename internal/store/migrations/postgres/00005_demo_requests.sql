-- +goose Up
CREATE TABLE demo_requests (
    id           TEXT PRIMARY KEY,
    learner_id   TEXT NOT NULL REFERENCES learners (id),
    name         TEXT NOT NULL,
    email        TEXT NOT NULL,
    organisation TEXT NOT NULL,
    message      TEXT NOT NULL,
    interest     TEXT NOT NULL DEFAULT '',
    created_at   TIMESTAMPTZ NOT NULL
);
-- The rate limit counts a learner's recent requests.
CREATE INDEX demo_requests_learner ON demo_requests (learner_id, created_at);

-- +goose Down
DROP TABLE demo_requests;
