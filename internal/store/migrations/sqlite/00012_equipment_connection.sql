-- +goose Up
-- Instructors and admins define twins: a connection to the real device
-- (JSON, NULL while the demo device serves the twin), the demo device's
-- OPC UA variables that signed-in clients may write, and retirement: a
-- retired twin leaves every list and path, its history stays.
ALTER TABLE equipment ADD COLUMN connection TEXT;
ALTER TABLE equipment ADD COLUMN writable_sensors TEXT NOT NULL DEFAULT '[]';
ALTER TABLE equipment ADD COLUMN retired_at TIMESTAMP;

-- +goose Down
ALTER TABLE equipment DROP COLUMN retired_at;
ALTER TABLE equipment DROP COLUMN writable_sensors;
ALTER TABLE equipment DROP COLUMN connection;
