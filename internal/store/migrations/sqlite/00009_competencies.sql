-- +goose Up
-- A sign-off says an instructor holds a learner competent in one learning
-- objective of a module (the competency, by its index in the module's
-- learning_objectives; objective keeps its words as signed). It rests on a
-- verified, passed session (evidence). Revoking keeps the row and stamps
-- it, so the table is the history of both; at most one sign-off of a
-- competency is current (not revoked).
CREATE TABLE competency_signoffs (
    id          TEXT PRIMARY KEY,
    org_id      TEXT NOT NULL REFERENCES organisations (id),
    learner_id  TEXT NOT NULL REFERENCES learners (id),
    module_id   TEXT NOT NULL REFERENCES training_modules (id),
    competency  INTEGER NOT NULL,
    objective   TEXT NOT NULL,
    evidence    TEXT NOT NULL REFERENCES xr_sessions (id),
    practical   BOOLEAN NOT NULL,          -- checked in practice on the shop floor too
    note        TEXT NOT NULL,
    signed_by   TEXT NOT NULL REFERENCES learners (id),
    signed_at   TIMESTAMP NOT NULL,
    revoked_by  TEXT REFERENCES learners (id),
    revoked_at  TIMESTAMP,
    revoke_note TEXT NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX competency_signoffs_current ON competency_signoffs (learner_id, module_id, competency) WHERE revoked_at IS NULL;
CREATE INDEX competency_signoffs_learner ON competency_signoffs (learner_id, signed_at);

-- A certificate is issued when a learner holds every competency of a
-- programme (a trade's modules). content is the certificate as issued (JSON:
-- learner, programme, organisation, competencies, dates, signer), so that it
-- reads the same whatever is renamed later. code is what /verify takes.
CREATE TABLE certificates (
    id             TEXT PRIMARY KEY,
    code           TEXT NOT NULL UNIQUE,
    org_id         TEXT NOT NULL REFERENCES organisations (id),
    learner_id     TEXT NOT NULL REFERENCES learners (id),
    programme      TEXT NOT NULL REFERENCES trades (id),
    content        TEXT NOT NULL,
    issued_at      TIMESTAMP NOT NULL,
    revoked_at     TIMESTAMP,
    revoked_reason TEXT NOT NULL DEFAULT ''
);
CREATE INDEX certificates_learner ON certificates (learner_id, issued_at);
CREATE INDEX certificates_org ON certificates (org_id) WHERE revoked_at IS NULL;

-- +goose Down
DROP TABLE certificates;
DROP TABLE competency_signoffs;
