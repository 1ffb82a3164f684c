-- +goose Up
-- The organisation whose instructors and admins manage a twin: the one
-- whose staff added it. NULL for the seeded fleet, the demo equipment
-- every organisation trains on, which none may redefine or retire.
ALTER TABLE equipment ADD COLUMN org_id TEXT REFERENCES organisations (id);

-- +goose Down
ALTER TABLE equipment DROP COLUMN org_id;
