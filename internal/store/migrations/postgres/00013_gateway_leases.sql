-- +goose Up
-- Which server process polls each connected twin's device, until when: a
-- process renews its leases while it runs, and another takes a lease over
-- once it has expired, so every device is polled by exactly one process.
CREATE TABLE gateway_leases (
    equipment_id TEXT PRIMARY KEY REFERENCES equipment (id) ON DELETE CASCADE,
    holder       TEXT NOT NULL,
    expires_at   TIMESTAMPTZ NOT NULL
);

-- +goose Down
DROP TABLE gateway_leases;
