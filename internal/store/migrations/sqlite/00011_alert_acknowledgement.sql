-- +goose Up
-- An instructor or admin acknowledges a safety alert once: who and when.
ALTER TABLE safety_alerts ADD COLUMN acknowledged_by TEXT REFERENCES learners (id);
ALTER TABLE safety_alerts ADD COLUMN acknowledged_at TIMESTAMP;

-- +goose Down
ALTER TABLE safety_alerts DROP COLUMN acknowledged_at;
ALTER TABLE safety_alerts DROP COLUMN acknowledged_by;
