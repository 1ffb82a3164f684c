-- +goose Up
-- Accounts live in the learners table: a row is a guest until it has an
-- email. Roles belong to the person's one organisation.
CREATE TABLE organisations (
    id         TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);

ALTER TABLE learners ADD COLUMN email TEXT;
ALTER TABLE learners ADD COLUMN password_hash TEXT NOT NULL DEFAULT '';
ALTER TABLE learners ADD COLUMN role TEXT NOT NULL DEFAULT 'guest';
ALTER TABLE learners ADD COLUMN org_id TEXT REFERENCES organisations (id);
ALTER TABLE learners ADD COLUMN joined_at TIMESTAMP;
-- Raised to sign every session of the account out (password change, sign out everywhere).
ALTER TABLE learners ADD COLUMN auth_epoch INTEGER NOT NULL DEFAULT 0;
CREATE UNIQUE INDEX learners_email ON learners (email);
CREATE INDEX learners_org ON learners (org_id, display_name);

CREATE TABLE cohorts (
    id            TEXT PRIMARY KEY,
    org_id        TEXT NOT NULL REFERENCES organisations (id),
    name          TEXT NOT NULL,
    instructor_id TEXT NOT NULL REFERENCES learners (id),
    created_at    TIMESTAMP NOT NULL,
    UNIQUE (org_id, name)
);
CREATE INDEX cohorts_instructor ON cohorts (instructor_id);

CREATE TABLE cohort_members (
    cohort_id  TEXT NOT NULL REFERENCES cohorts (id) ON DELETE CASCADE,
    learner_id TEXT NOT NULL REFERENCES learners (id),
    added_at   TIMESTAMP NOT NULL,
    PRIMARY KEY (cohort_id, learner_id)
);
CREATE INDEX cohort_members_learner ON cohort_members (learner_id);

CREATE TABLE invites (
    id         TEXT PRIMARY KEY,
    org_id     TEXT NOT NULL REFERENCES organisations (id),
    token_hash TEXT NOT NULL UNIQUE,
    role       TEXT NOT NULL,
    cohort_id  TEXT REFERENCES cohorts (id) ON DELETE SET NULL,
    max_uses   INTEGER NOT NULL,
    uses       INTEGER NOT NULL DEFAULT 0,
    expires_at TIMESTAMP NOT NULL,
    revoked    BOOLEAN NOT NULL DEFAULT FALSE,
    created_by TEXT NOT NULL REFERENCES learners (id),
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX invites_org ON invites (org_id, created_at DESC);

-- Password-set links: an admin's reset link, a roster import's setup link,
-- the command line's first-admin link.
CREATE TABLE password_links (
    token_hash TEXT PRIMARY KEY,
    learner_id TEXT NOT NULL REFERENCES learners (id),
    expires_at TIMESTAMP NOT NULL,
    used       BOOLEAN NOT NULL DEFAULT FALSE,
    created_at TIMESTAMP NOT NULL
);

-- Server-side sessions of signed-in accounts, in the shape of
-- github.com/alexedwards/scs/sqlite3store.
CREATE TABLE sessions (
    token  TEXT PRIMARY KEY,
    data   BLOB NOT NULL,
    expiry REAL NOT NULL
);
CREATE INDEX sessions_expiry_idx ON sessions (expiry);

-- Keys every process of a deployment shares (the guest token key).
CREATE TABLE server_secrets (
    name  TEXT PRIMARY KEY,
    value BLOB NOT NULL
);

-- Realtime channel of an alert: its sender's organisation, or the demo channel.
ALTER TABLE safety_alerts ADD COLUMN org_id TEXT REFERENCES organisations (id);
CREATE INDEX safety_alerts_org ON safety_alerts (org_id, created_at DESC, id DESC);

-- +goose Down
DROP INDEX safety_alerts_org;
ALTER TABLE safety_alerts DROP COLUMN org_id;
DROP TABLE server_secrets;
DROP TABLE sessions;
DROP TABLE password_links;
DROP TABLE invites;
DROP TABLE cohort_members;
DROP TABLE cohorts;
DROP INDEX learners_org;
DROP INDEX learners_email;
ALTER TABLE learners DROP COLUMN auth_epoch;
ALTER TABLE learners DROP COLUMN joined_at;
ALTER TABLE learners DROP COLUMN org_id;
ALTER TABLE learners DROP COLUMN role;
ALTER TABLE learners DROP COLUMN password_hash;
ALTER TABLE learners DROP COLUMN email;
DROP TABLE organisations;
