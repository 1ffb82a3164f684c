-- +goose Up
-- cmi5 courses an organisation imported, and the launches of their AUs.
-- structure is the parsed course structure (cmi5.Course) as JSON.
CREATE TABLE cmi5_courses (
    id          TEXT PRIMARY KEY,
    org_id      TEXT NOT NULL REFERENCES organisations (id),
    course_iri  TEXT NOT NULL,
    title       TEXT NOT NULL,
    structure   TEXT NOT NULL,
    has_content BOOLEAN NOT NULL,
    created_by  TEXT NOT NULL,
    created_at  TIMESTAMP NOT NULL
);
CREATE INDEX cmi5_courses_org ON cmi5_courses (org_id, created_at);

-- An AU's id here names it in the API and in its LMS-made activity id; its
-- details are in the course's structure at position.
CREATE TABLE cmi5_aus (
    id           TEXT PRIMARY KEY,
    course_id    TEXT NOT NULL REFERENCES cmi5_courses (id) ON DELETE CASCADE,
    position     INTEGER NOT NULL,
    publisher_id TEXT NOT NULL,
    UNIQUE (course_id, position)
);

-- The files of a zipped package, served at /cmi5/content/{course}/{path}.
CREATE TABLE cmi5_files (
    course_id TEXT NOT NULL REFERENCES cmi5_courses (id) ON DELETE CASCADE,
    path      TEXT NOT NULL,
    content   BLOB NOT NULL,
    PRIMARY KEY (course_id, path)
);

-- One registration per learner and course.
CREATE TABLE cmi5_registrations (
    id         TEXT PRIMARY KEY,
    course_id  TEXT NOT NULL REFERENCES cmi5_courses (id) ON DELETE CASCADE,
    learner_id TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    UNIQUE (course_id, learner_id)
);

-- What a registration achieved, by AU, block or course id (publisher ids):
-- completed and passed for AUs, satisfied once the LMS said so.
CREATE TABLE cmi5_progress (
    registration_id TEXT NOT NULL REFERENCES cmi5_registrations (id) ON DELETE CASCADE,
    object_id       TEXT NOT NULL,
    completed       BOOLEAN NOT NULL DEFAULT FALSE,
    passed          BOOLEAN NOT NULL DEFAULT FALSE,
    satisfied       BOOLEAN NOT NULL DEFAULT FALSE,
    PRIMARY KEY (registration_id, object_id)
);

-- One launch of an AU. The fetch token (its SHA-256 kept) is used once and
-- soon; it hands out the session's xAPI key and secret (SHA-256 kept),
-- which work until the session ends (terminated, abandoned) or expires.
CREATE TABLE cmi5_sessions (
    id              TEXT PRIMARY KEY,
    registration_id TEXT NOT NULL REFERENCES cmi5_registrations (id) ON DELETE CASCADE,
    au_id           TEXT NOT NULL REFERENCES cmi5_aus (id) ON DELETE CASCADE,
    org_id          TEXT NOT NULL,
    learner_id      TEXT NOT NULL,
    actor           TEXT NOT NULL,
    fetch_hash      TEXT NOT NULL UNIQUE,
    fetch_expires   TIMESTAMP NOT NULL,
    fetched_at      TIMESTAMP,
    key             TEXT UNIQUE,
    secret_hash     TEXT,
    expires_at      TIMESTAMP NOT NULL,
    launched_at     TIMESTAMP NOT NULL,
    last_at         TIMESTAMP NOT NULL,
    ended_at        TIMESTAMP,
    abandoned       BOOLEAN NOT NULL DEFAULT FALSE
);
CREATE INDEX cmi5_sessions_registration ON cmi5_sessions (registration_id, ended_at);

-- +goose Down
DROP TABLE cmi5_sessions;
DROP TABLE cmi5_progress;
DROP TABLE cmi5_registrations;
DROP TABLE cmi5_files;
DROP TABLE cmi5_aus;
DROP TABLE cmi5_courses;
