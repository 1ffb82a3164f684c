-- +goose Up
CREATE TABLE learners (
    id           TEXT PRIMARY KEY,
    display_name TEXT NOT NULL,
    created_at   TIMESTAMP NOT NULL
);

CREATE TABLE trades (
    id             TEXT PRIMARY KEY,
    name           TEXT NOT NULL,
    description    TEXT NOT NULL,
    certifications TEXT NOT NULL DEFAULT '[]', -- JSON array of strings
    position       INTEGER NOT NULL
);

CREATE TABLE training_modules (
    id                  TEXT PRIMARY KEY,
    trade_id            TEXT NOT NULL REFERENCES trades (id),
    title               TEXT NOT NULL,
    description         TEXT NOT NULL,
    difficulty          TEXT NOT NULL,
    estimated_duration  INTEGER NOT NULL, -- minutes
    learning_objectives TEXT NOT NULL DEFAULT '[]',
    safety_points       TEXT NOT NULL DEFAULT '[]',
    prerequisites       TEXT NOT NULL DEFAULT '[]',
    categories          TEXT NOT NULL DEFAULT '[]',
    position            INTEGER NOT NULL
);
CREATE INDEX training_modules_trade ON training_modules (trade_id, position);

CREATE TABLE xr_sessions (
    id                TEXT PRIMARY KEY,
    user_id           TEXT NOT NULL REFERENCES learners (id),
    module_id         TEXT NOT NULL REFERENCES training_modules (id),
    session_type      TEXT NOT NULL,
    device_type       TEXT NOT NULL DEFAULT '',
    started_at        TIMESTAMP NOT NULL,
    ended_at          TIMESTAMP,
    duration          INTEGER NOT NULL DEFAULT 0, -- seconds
    completion_status TEXT NOT NULL DEFAULT 'in_progress',
    safety_score      REAL,                       -- percent, set when the session ends
    position          TEXT,                       -- JSON {x,y,z}
    rotation          TEXT,                       -- JSON {x,y,z,w}
    interaction_data  TEXT NOT NULL DEFAULT '{}', -- JSON {interactions, safetyChecks, completionStatus}
    updated_at        TIMESTAMP NOT NULL
);
CREATE INDEX xr_sessions_user ON xr_sessions (user_id, started_at DESC);
CREATE INDEX xr_sessions_started ON xr_sessions (started_at);

-- +goose Down
DROP TABLE xr_sessions;
DROP TABLE training_modules;
DROP TABLE trades;
DROP TABLE learners;
